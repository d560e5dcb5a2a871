/**
 * Screenshots of the review loop (issue 17) at 1280x800: labels on small (20-40 px) and crowded boxes, the
 * review-state styles, the filters dialog, the key help, and a 3x zoom. Usage:
 * node --import tsx bench/editor/review-screenshots.ts [outDir]. Starts its own server (fresh data folder);
 * the web app must be built.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { API } from '@logo-review/contract';
import { ApiClient } from '../../e2e/support/api-client.ts';
import { launchBrowser, loginThroughUi, newPage } from '../../e2e/support/browser.ts';
import { startServer } from '../../e2e/support/server-process.ts';
import {
  box,
  editorTestVideo,
  seedBrands,
  seedDetections,
  seedPlacements,
  seedUnreviewed,
  still,
  uploadVideo,
} from '../../e2e/editor-seed.ts';
import { injectConfidence } from '../../e2e/editor-page-objects.ts';

const outDir = path.resolve(process.argv[2] ?? '/tmp/review-shots');
mkdirSync(outDir, { recursive: true });
const server = await startServer();
const browser = await launchBrowser();
try {
  const api = await ApiClient.login(server.baseURL, server.username, server.password);
  const { page } = await newPage(browser, server.baseURL);
  page.on('console', (m) => m.type() === 'error' && console.log('console:', m.text()));
  await loginThroughUi(page, server.username, server.password);
  const brands = await seedBrands(api, ['Adidas', 'Nike', 'Puma', 'Coca-Cola', 'Heineken']);
  const placements = await seedPlacements(api, [
    ['Shirt', '#1e88e5'],
    ['LED board', '#e53935'],
  ]);
  const video = await uploadVideo(api, editorTestVideo(), 'Derby highlights');
  const [b, p] = [brands.map((x) => x.id), placements.map((x) => x.id)];
  // One hand-drawn (MANUAL: marked), the rest unreviewed (dashed); one confirmed (solid), one edited (marked).
  await seedDetections(api, [still(video.id, b[3], p[0], 0, 6000, box(420, 280, 60, 36))]);
  const dets = await seedUnreviewed(api, [
    still(video.id, b[0], p[0], 0, 6000, box(60, 50, 140, 80)),
    still(video.id, b[1], p[1], 0, 8000, box(300, 200, 40, 24)),
    still(video.id, b[2], p[1], 0, 8000, box(346, 200, 40, 24)),
    still(video.id, b[3], p[1], 0, 8000, box(392, 200, 30, 20)),
    still(video.id, b[4], p[0], 0, 8000, box(300, 236, 24, 20)),
    still(video.id, b[0], p[1], 0, 8000, box(480, 60, 20, 20)),
  ]);
  await api.call('PUT', API.detectionsReport, { detectionIds: [dets[0].id], type: 'truePositive' });
  await api.call('PATCH', API.detection(dets[5].id), {
    coordinates: [{ start_time: 0, end_time: 8000, points: box(470, 60, 24, 24) }],
  });
  await injectConfidence(page, new Map(dets.map((d, i) => [d.id, [0.93, 0.71, 0.64, 0.38, 0.88, 0.55][i]])));
  await page.evaluate((id) => {
    localStorage.setItem('VIDEO', String(id));
    localStorage.setItem('TIME', '1000');
  }, video.id);
  await page.goto('/editor');
  await page.getByRole('row').filter({ hasText: 'Adidas' }).first().waitFor();
  await page.waitForTimeout(1500);
  await page.screenshot({ path: path.join(outDir, 'review-labels.png') });
  await page.keyboard.press('u');
  await page.waitForTimeout(800);
  await page.screenshot({ path: path.join(outDir, 'review-selected.png') });
  const overlay = page.getByRole('img', { name: 'Detection overlay' });
  const ob = (await overlay.boundingBox())!;
  await page.mouse.move(ob.x + 340, ob.y + 215);
  for (let i = 0; i < 6; i++) await page.mouse.wheel(0, -100);
  await page.waitForTimeout(400);
  await page.screenshot({ path: path.join(outDir, 'review-zoom.png') });
  await page.keyboard.press('0');
  await page.keyboard.press('?');
  await page.getByRole('dialog').waitFor();
  await page.screenshot({ path: path.join(outDir, 'review-help.png') });
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  await page.keyboard.press('f');
  await page.getByRole('dialog').waitFor();
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(outDir, 'review-filters.png') });
  console.log(`screenshots in ${outDir}`);
} finally {
  await browser.close();
  await server.stop();
}
