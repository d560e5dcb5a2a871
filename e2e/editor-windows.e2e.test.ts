import { beforeAll, describe, expect, it } from 'vitest';
import type { Detection } from '@logo-review/contract';
import type { Request } from 'playwright-core';
import { uniqueName } from './support/browser.ts';
import { expectStatus, loginApi, useSignedInPage } from './support/session.ts';
import { box, seedDetections, seedEditorSetup, still } from './editor-seed.ts';
import { EditorPageObject } from './editor-page-objects.ts';

const session = useSignedInPage();

/** Detection windows on a 60 s clip: what is requested when, and the loading overlay with pause and resume. */
describe('editor: detection windows', () => {
  const tag = uniqueName('w').split(' ')[1];
  let videoId: number;
  let early: Detection, late: Detection, middle: Detection;
  let editor: EditorPageObject;
  const isWindowCall = (url: URL) => url.pathname === '/api/videos/detections/';
  const windows: Array<{ start: number; end: number }> = [];
  const onRequest = (r: Request) => {
    const url = new URL(r.url());
    if (r.method() === 'GET' && url.pathname === '/api/videos/detections/')
      windows.push({
        start: Number(url.searchParams.get('startTime')),
        end: Number(url.searchParams.get('endTime')),
      });
  };

  beforeAll(async () => {
    const api = await loginApi();
    const { brands, placements, video } = await seedEditorSetup(api, {
      brands: [`Umbro ${tag}`],
      placements: [[`Pitch ${tag}`, '#00897b']],
      videoName: uniqueName('Window clip'),
      videoSeconds: 60,
    });
    const [brand] = brands;
    const [placement] = placements;
    videoId = video.id;
    [early, middle, late] = await seedDetections(api, [
      still(videoId, brand.id, placement.id, 2000, 4000, box(40, 40, 100, 60)),
      still(videoId, brand.id, placement.id, 14_000, 30_000, box(200, 100, 100, 60)),
      still(videoId, brand.id, placement.id, 40_000, 45_000, box(300, 200, 100, 60)),
    ]);
    editor = new EditorPageObject(session.page());
    session.page().on('request', onRequest);
  });

  it('loads the first window around the position, then the window of a far seek', async () => {
    const page = session.page();
    await editor.open(videoId, 0);
    expect(windows).toEqual([{ start: 0, end: 10_000 }]);
    await editor.button('Next second').click();
    await editor.button('Next second').click();
    await editor.expectListed([early.id]);
    // At 2 s the look-ahead (1 s behind, 10 s ahead) passes the loaded end: the next 10 s continue from it.
    await expect.poll(() => windows.length).toBe(2);
    expect(windows[1]).toEqual({ start: 10_000, end: 20_000 });
    // Covered: stepping back inside the loaded data asks nothing.
    await editor.button('Previous second').click();
    await editor.expectTime('00:00:01:00 / 00:01:00:00');
    await page.waitForTimeout(300);
    expect(windows).toHaveLength(2);

    const bar = page.getByRole('slider', { name: 'Video progress' });
    const b = (await bar.boundingBox())!;
    await page.mouse.click(b.x + (b.width * 41) / 60, b.y + b.height / 2);
    await editor.expectTime('00:00:41:00 / 00:01:00:00');
    await editor.expectListed([late.id]);
    // A jump loads the window at the new position first (1 s before it, 10 s beyond), not the 20 s gap behind it.
    await expect.poll(() => windows.length).toBe(3);
    expect(windows[2]).toEqual({ start: 40_000, end: 51_000 });
  });

  it('shows the loading overlay while a window loads during playback, pausing and resuming the video', async () => {
    const page = session.page();
    await page.evaluate(() => localStorage.setItem('PLAY_MODE', 'NORMAL'));
    // Hold the detection answers for a moment, so the loading state can be observed.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(isWindowCall, async (route) => {
      await held;
      await route.continue();
    });
    windows.length = 0;
    await editor.leave();
    await editor.page.evaluate((id) => {
      localStorage.setItem('VIDEO', String(id));
      localStorage.setItem('TIME', '12000');
    }, videoId);
    await page.goto('/editor');
    const overlay = page.getByRole('progressbar', { name: 'Loading detections' });
    await overlay.waitFor();
    release();
    await overlay.waitFor({ state: 'detached' });
    await editor.expectListed([]);

    let release2!: () => void;
    const held2 = new Promise<void>((resolve) => (release2 = resolve));
    await page.unroute(isWindowCall);
    await page.route(isWindowCall, async (route) => {
      await held2;
      await route.continue();
    });
    // Playing from 12 s: the next check (every 2 s) asks for the data ahead; the video waits for it.
    await page.keyboard.press('p');
    await editor.button('Pause').waitFor();
    await overlay.waitFor({ timeout: 6000 });
    const pausedWhileLoading = await page.evaluate(() => document.querySelector('video')!.paused);
    expect(pausedWhileLoading).toBe(true);
    const at = await editor.time.textContent();
    await page.waitForTimeout(600);
    expect(await editor.time.textContent()).toBe(at);
    release2();
    await overlay.waitFor({ state: 'detached' });
    await page.waitForFunction(() => !document.querySelector('video')!.paused);
    await editor.expectListed([middle.id], 8000);
    await page.keyboard.press('p');
    await editor.button('Play').waitFor();
    await page.unroute(isWindowCall);
    expect(windows.length).toBeGreaterThanOrEqual(2);
    expect(windows[0]).toEqual({ start: 11_000, end: 22_000 });
  });

  it('n and b search beyond the loaded windows before alerting', async () => {
    const page = session.page();
    await page.evaluate(() => localStorage.setItem('PLAY_MODE', 'SECONDS'));
    await editor.open(videoId, 0);
    await page.keyboard.press('n');
    await editor.expectTime('00:00:02:00 / 00:01:00:00');
    await page.keyboard.press('n');
    await editor.expectTime('00:00:14:00 / 00:01:00:00');
    await editor.expectListed([middle.id]);
    // 26 s of unloaded video lie between the loaded data and the last detection.
    await page.keyboard.press('n');
    await editor.expectTime('00:00:40:00 / 00:01:00:00');
    await editor.expectListed([late.id]);
    await page.keyboard.press('n');
    await expectStatus(page, 'Cannot find next detection');
    await page.keyboard.press('b');
    await editor.expectTime('00:00:14:00 / 00:01:00:00');
    await page.keyboard.press('b');
    await editor.expectTime('00:00:02:00 / 00:01:00:00');
    await page.keyboard.press('b');
    await expectStatus(page, 'Cannot find previous detection');
  });
});
