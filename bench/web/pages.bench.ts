/**
 * Web benchmark: seeds 1,000 brands and 1,000 videos in one folder through the real API, then
 * measures in headless Chromium how long the Brands and Videos pages take to render and how
 * quickly they follow search typing.
 *
 * Usage: node --import tsx bench/web/pages.bench.ts [--brands 1000] [--videos 1000]
 * Starts its own server on a fresh data folder with ROLE=api: no worker analyses the 1,000 videos,
 * so the machine is quiet while we measure (the videos stay QUEUED, which also keeps the page's
 * 5 s polling of the whole tree running, as it does while videos are processed).
 */
import { readFileSync, rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { API, type VideoTree } from '@logo-review/contract';
import { ApiClient } from '../../e2e/support/api-client.ts';
import { launchBrowser, loginThroughUi, newPage } from '../../e2e/support/browser.ts';
import { testVideo } from '../../e2e/support/fixtures.ts';
import { buildWebPrivately } from '../../e2e/support/build-web.ts';
import { startServer } from '../../e2e/support/server-process.ts';

const { values } = parseArgs({ options: { brands: { type: 'string' }, videos: { type: 'string' } } });
const BRANDS = Number(values.brands ?? 1000);
const VIDEOS = Number(values.videos ?? 1000);
/** Cards the pages render before the user scrolls (apps/web/src/components/progressive-list.tsx). */
const RENDER_STEP = 60;
const WORDS = ['Nova', 'Atlas', 'Zen', 'Orbit', 'Pulse', 'Terra', 'Vivid', 'Echo', 'Summit', 'Lumen'];

async function pool<T>(items: T[], size: number, run: (item: T) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: size }, async () => {
      while (next < items.length) await run(items[next++]);
    }),
  );
}

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return `median ${at(0.5).toFixed(0)} ms, p95 ${at(0.95).toFixed(0)} ms, max ${sorted[sorted.length - 1].toFixed(0)} ms (n=${samples.length})`;
}

const countCards = (page: Page) => page.evaluate(() => document.querySelectorAll('main article').length);

/** Time from navigation until the first `expected` cards are in the DOM. */
async function timeRender(page: Page, url: string, expected: number): Promise<number> {
  await page.goto('/');
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  const start = Date.now();
  await page.goto(url);
  await page.waitForFunction((n) => document.querySelectorAll('main article').length >= n, expected, {
    timeout: 120_000,
    polling: 'raf',
  });
  return Date.now() - start;
}

/** Scrolls down until every one of `total` cards is rendered; returns the time it took. */
async function timeScrollAll(page: Page, total: number): Promise<number> {
  const start = Date.now();
  while ((await countCards(page)) < total) {
    await page.mouse.wheel(0, 4000);
    await page.waitForTimeout(16);
    if (Date.now() - start > 120_000) throw new Error('cards never all rendered');
  }
  return Date.now() - start;
}

/**
 * Types `text` one key at a time. For each key: the input's next frame (how long the field itself
 * lags) and the time until the card list shows the filtered result.
 */
/**
 * Prints one list page's numbers: navigation to its first cards (3 runs), scrolling until every
 * card is rendered, and typing a search (per key, and clearing it).
 */
async function measureListPage(
  page: Page,
  o: {
    title: string;
    path: string;
    total: number;
    items: string;
    searchLabel: string;
    query: string;
    expected: (typed: string) => number;
  },
): Promise<void> {
  const renders: number[] = [];
  for (let i = 0; i < 3; i += 1) renders.push(await timeRender(page, o.path, Math.min(RENDER_STEP, o.total)));
  console.log(
    `${o.title} page (${o.items}), navigation to first ${await countCards(page)} cards: ${stats(renders)}`,
  );
  console.log(
    `${o.title} page, scrolling until all ${o.total} cards are rendered: ${await timeScrollAll(page, o.total)} ms`,
  );
  const typed = await timeTyping(page, o.searchLabel, o.query, o.expected);
  console.log(`${o.title} search, input's next frame per key: ${stats(typed.frames)}`);
  console.log(`${o.title} search, key to filtered cards: ${stats(typed.settle)}`);
  console.log(`${o.title} search, clearing back to ${o.total} cards: ${typed.clear} ms`);
}

async function timeTyping(page: Page, label: string, text: string, expectedAfter: (typed: string) => number) {
  const box = page.getByRole('searchbox', { name: label });
  await box.fill('');
  await box.focus();
  await page.evaluate(() => {
    const w = window as unknown as { __frames: number[] };
    w.__frames = [];
    document.addEventListener(
      'input',
      () => {
        const t = performance.now();
        requestAnimationFrame(() => setTimeout(() => w.__frames.push(performance.now() - t)));
      },
      true,
    );
  });
  const settle: number[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const expected = Math.min(RENDER_STEP, expectedAfter(text.slice(0, i + 1)));
    const start = Date.now();
    await page.keyboard.type(text[i]);
    await page.waitForFunction((n) => document.querySelectorAll('main article').length === n, expected, {
      timeout: 60_000,
      polling: 'raf',
    });
    settle.push(Date.now() - start);
  }
  const frames = await page.evaluate(() => (window as unknown as { __frames: number[] }).__frames);
  // Clearing brings every card back: the heaviest update.
  const start = Date.now();
  await box.fill('');
  await page.waitForFunction(
    (n) => document.querySelectorAll('main article').length >= n,
    Math.min(RENDER_STEP, expectedAfter('')),
    { timeout: 60_000, polling: 'raf' },
  );
  return { frames, settle, clear: Date.now() - start };
}

async function main() {
  const webDist = buildWebPrivately('logo-review-bench-web-');
  const server = await startServer({ env: { WEB_DIST: webDist, ROLE: 'api' } });
  const browser = await launchBrowser();
  try {
    const api = await ApiClient.login(server.baseURL, server.username, server.password);
    let t = Date.now();
    const brandNames = Array.from(
      { length: BRANDS },
      (_, i) => `${WORDS[i % WORDS.length]} ${Math.floor(i / 10)} Brand ${i}`,
    );
    await pool(brandNames, 8, async (name) => {
      const form = new FormData();
      form.append('name', name);
      form.append('localized_name', name.toUpperCase());
      await api.call('POST', API.brandCreate, form);
    });
    console.log(`seeded ${BRANDS} brands in ${((Date.now() - t) / 1000).toFixed(1)} s`);

    t = Date.now();
    const tree = await api.call<VideoTree>('POST', API.folder, { name: 'Bench', parent: null });
    const folderId = tree.folders.find((f) => f.name === 'Bench')!.id;
    const bytes = readFileSync(testVideo());
    const videoNames = Array.from({ length: VIDEOS }, (_, i) => `${WORDS[i % WORDS.length]} match ${i}`);
    await pool(videoNames, 4, async (name) => {
      const form = new FormData();
      form.append('name', name);
      form.append('folder', String(folderId));
      form.append('videoFile', new Blob([bytes], { type: 'video/mp4' }), 'clip.mp4');
      await api.call('POST', API.videoCreate, form);
    });
    console.log(`seeded ${VIDEOS} videos in one folder in ${((Date.now() - t) / 1000).toFixed(1)} s`);

    const { page } = await newPage(browser, server.baseURL);
    await loginThroughUi(page, server.username, server.password);
    const brandCount = (q: string) =>
      q
        ? brandNames.filter(
            (n) => n.toLowerCase().includes(q.toLowerCase()) || n.toUpperCase().includes(q.toUpperCase()),
          ).length
        : BRANDS;
    const videoCount = (q: string) =>
      q ? videoNames.filter((n) => n.toLowerCase().includes(q.toLowerCase())).length : VIDEOS;

    await measureListPage(page, {
      title: 'Brands',
      path: '/brands',
      total: BRANDS,
      items: `${BRANDS} brands`,
      searchLabel: 'Search brands',
      query: 'nova 7',
      expected: brandCount,
    });
    await measureListPage(page, {
      title: 'Videos',
      path: `/videos?folder=${folderId}`,
      total: VIDEOS,
      items: `${VIDEOS} videos in the folder`,
      searchLabel: 'Search videos',
      query: 'atlas 1',
      expected: videoCount,
    });
  } finally {
    await browser.close();
    await server.stop();
    rmSync(webDist, { recursive: true, force: true });
  }
}

await main();
