/**
 * Screenshots of the dashboard (issue 20) with data, at 1440 and 420 px wide, plus its table view,
 * the media value settings dialog and the editor's detection strip.
 * Usage: node --import tsx bench/web/dashboard-screenshots.ts [outDir]   (default apps/web/screenshots)
 * Starts its own server (fresh data folder) unless BASE_URL, USERNAME and PASSWORD are set.
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { API, type Placement } from '@logo-review/contract';
import { ApiClient } from '../../e2e/support/api-client.ts';
import { launchBrowser, loginThroughUi, newPage } from '../../e2e/support/browser.ts';
import { buildWebPrivately } from '../../e2e/support/build-web.ts';
import { startServer, type RunningServer } from '../../e2e/support/server-process.ts';
import { seedCampaign } from '../../e2e/analytics-seed.ts';
import { box, editorTestVideo, seedBrands, seedDetections, still } from '../../e2e/editor-seed.ts';

const outDir = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '../../apps/web/screenshots'));
mkdirSync(outDir, { recursive: true });
const WIDE = { width: 1440, height: 900 };
const WIDTHS: Array<[number, { width: number; height: number }]> = [
  [1440, WIDE],
  [420, { width: 420, height: 900 }],
];

/** The campaign seed, then more brands over its videos so that the charts have something to show. */
async function seed(api: ApiClient) {
  const s = await seedCampaign(api, 'Serie A');
  const extra = await seedBrands(api, ['Lexus', 'Duff', 'Aldi', 'Puma']);
  const [led, shirt] = s.placements.map((p) => p.id);
  const list = [];
  for (const [i, v] of s.videos.entries())
    for (const [j, b] of extra.entries()) {
      const begin = ((i + j) % 5) * 1500;
      list.push(
        still(v.id, b.id, j % 2 ? shirt : led, begin, begin + 1000 + j * 700, box(20 + j * 60, 30, 80, 40)),
      );
    }
  const created = await seedDetections(api, list);
  // Half of them wait for review, like an engine's detections.
  await api.call('PUT', API.detectionsReview, {
    detectionIds: created.filter((_, i) => i % 2 === 0).map((d) => d.id),
    review: 'UNREVIEWED',
  });
  const placements = await api.call<Placement[]>('GET', API.placements);
  await api.call('PUT', '/api/analytics/settings/', {
    currency: 'EUR',
    rates: placements.map((p, i) => ({ placement_id: p.id, rate_per_second: 50 + i * 25 })),
  });
  return s;
}

/** Uploads a file without waiting for its analysis (the Processing card shows it). */
async function uploadOnly(api: ApiClient, name: string, data: Blob, file: string) {
  const form = new FormData();
  form.append('name', name);
  form.append('folder', '');
  form.append('videoFile', data, file);
  await api
    .call('POST', API.videoCreate, form)
    .catch((e: Error) => console.log(`upload ${name}: ${e.message}`));
}

async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(800);
}

async function main() {
  let server: RunningServer | undefined;
  const webDist = process.env.BASE_URL ? undefined : buildWebPrivately('logo-review-dash-shots-');
  const baseURL =
    process.env.BASE_URL ?? (server = await startServer({ env: { WEB_DIST: webDist! } })).baseURL;
  const username = process.env.USERNAME ?? server!.username;
  const password = process.env.PASSWORD ?? server!.password;
  const browser = await launchBrowser();
  try {
    const api = await ApiClient.login(baseURL, username, password);
    const s = await seed(api);
    const long = editorTestVideo(120);
    await uploadOnly(
      api,
      'Serie A Match 3',
      new Blob([readFileSync(long)], { type: 'video/mp4' }),
      'match3.mp4',
    );
    await uploadOnly(
      api,
      'Serie A Match 4',
      new Blob([readFileSync(long)], { type: 'video/mp4' }),
      'match4.mp4',
    );
    const { page } = await newPage(browser, baseURL, WIDE);
    await loginThroughUi(page, username, password);
    for (const [width, vp] of WIDTHS) {
      await page.setViewportSize(vp);
      await page.goto('/');
      await settle(page);
      await page.screenshot({ path: path.join(outDir, `dashboard-${width}.png`), fullPage: true });
      if (process.env.CLIPS_DIR)
        for (const name of [
          'Exposure per brand',
          'Share of voice',
          'Exposure by placement',
          'Exposure over the videos',
        ])
          await page.getByRole('region', { name }).screenshot({
            path: path.join(process.env.CLIPS_DIR, `${width}-${name.replace(/ /g, '-')}.png`),
          });
      await page.goto(`/?folder=${s.folder.id}`);
      await settle(page);
      await page
        .getByRole('region', { name: 'Exposure per brand' })
        .getByRole('button', { name: 'Table' })
        .click();
      await page.waitForTimeout(300);
      await page.screenshot({
        path: path.join(outDir, `dashboard-${width}-folder-table.png`),
        fullPage: true,
      });
    }
    await page.setViewportSize(WIDE);
    await page.goto('/');
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menuitem', { name: 'Media value settings' }).click();
    await settle(page);
    await page.screenshot({ path: path.join(outDir, 'media-value-dialog-1440.png') });
    await page.keyboard.press('Escape');
    // The editor with the detection strip under the progress bar.
    // The editor opens the video of the local-storage key VIDEO (apps/web/src/state/selected-video.ts).
    await page.evaluate((id) => localStorage.setItem('VIDEO', id), String(s.videos[1].id));
    await page.goto('/editor');
    await page.getByRole('group', { name: 'Detection strip' }).waitFor();
    await settle(page);
    await page.screenshot({ path: path.join(outDir, 'editor-strip-1440.png') });
    console.log(`screenshots in ${outDir}`);
  } finally {
    await browser.close();
    await server?.stop();
    if (webDist) rmSync(webDist, { recursive: true, force: true });
  }
}

await main();
