/**
 * Screenshots of the editor at 1280x800 in headless Chromium: empty state, loaded with detections, drawing
 * mode. Usage: node --import tsx bench/editor/screenshots.ts [outDir]. Starts its own server (fresh data
 * folder); the web app must be built (npm run build -w @logo-review/web).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { ApiClient } from '../../e2e/support/api-client.ts';
import { launchBrowser, loginThroughUi, newPage } from '../../e2e/support/browser.ts';
import { startServer } from '../../e2e/support/server-process.ts';
import {
  box,
  editorTestVideo,
  seedBrands,
  seedDetections,
  seedPlacements,
  still,
  uploadVideo,
} from '../../e2e/editor-seed.ts';

const outDir = path.resolve(process.argv[2] ?? '/tmp/editor-shots');
mkdirSync(outDir, { recursive: true });
const server = await startServer();
const browser = await launchBrowser();
try {
  const api = await ApiClient.login(server.baseURL, server.username, server.password);
  const { page } = await newPage(browser, server.baseURL);
  page.on('console', (m) => m.type() === 'error' && console.log('console:', m.text()));
  await loginThroughUi(page, server.username, server.password);
  await page.goto('/editor');
  await page.waitForTimeout(800);
  await page.screenshot({ path: path.join(outDir, 'editor-empty.png') });

  const brands = await seedBrands(api, ['Adidas', 'Nike', 'Puma', 'Coca-Cola']);
  const placements = await seedPlacements(api, [
    ['Shirt', '#1e88e5'],
    ['LED board', '#e53935'],
    ['Score bug', '#43a047'],
  ]);
  const video = await uploadVideo(api, editorTestVideo(), 'Derby highlights');
  await seedDetections(api, [
    still(video.id, brands[0].id, placements[0].id, 0, 6000, box(60, 50, 140, 80)),
    still(video.id, brands[1].id, placements[1].id, 0, 8000, box(300, 200, 200, 90)),
    still(video.id, brands[2].id, placements[2].id, 1000, 9000, box(420, 40, 120, 60)),
    still(video.id, brands[3].id, placements[1].id, 0, 4000, box(80, 240, 150, 70)),
  ]);
  await page.evaluate((id) => localStorage.setItem('VIDEO', String(id)), video.id);
  await page.goto('/editor');
  await page.getByRole('row').filter({ hasText: 'Adidas' }).waitFor();
  await page.waitForTimeout(1500);
  await page.getByRole('row').filter({ hasText: 'Nike' }).click();
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(outDir, 'editor-loaded.png') });

  await page.getByRole('button', { name: 'Add new detection' }).click();
  const canvas = page.getByRole('img', { name: 'Drawing a new detection' });
  const b = (await canvas.boundingBox())!;
  await page.mouse.click(b.x + 200, b.y + 120);
  await page.mouse.click(b.x + 320, b.y + 130);
  await page.mouse.move(b.x + 330, b.y + 220);
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(outDir, 'editor-drawing.png') });
  const progress = page.getByRole('slider', { name: 'Video progress' });
  const pb = (await progress.boundingBox())!;
  await page.keyboard.press('Escape');
  await page.mouse.move(pb.x + pb.width * 0.6, pb.y + pb.height / 2);
  await page.waitForTimeout(500);
  await page.screenshot({ path: path.join(outDir, 'editor-preview.png') });
  await page.setViewportSize({ width: 420, height: 800 });
  await page.waitForTimeout(500);
  await page.screenshot({ path: path.join(outDir, 'editor-narrow.png'), fullPage: true });
  console.log(`screenshots in ${outDir}`);
} finally {
  await browser.close();
  await server.stop();
}
