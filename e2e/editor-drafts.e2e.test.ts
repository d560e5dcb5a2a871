import { beforeAll, describe, expect, it } from 'vitest';
import type { Brand, Placement, Video } from '@logo-review/contract';
import type { ApiClient } from './support/api-client.ts';
import { uniqueName } from './support/browser.ts';
import { expectStatus, loginApi, useSignedInPage } from './support/session.ts';
import { box, seedDetections, seedEditorSetup, still } from './editor-seed.ts';
import { detectionsInWindow, EditorPageObject } from './editor-page-objects.ts';

const session = useSignedInPage();

/** Corners of a draft drawn away from the seeded detection (display pixels, clockwise from top-left). */
const SECOND_DRAFT: Array<[number, number]> = [
  [400, 200],
  [480, 200],
  [480, 260],
  [400, 260],
];

/** Drawing new detections by hand, setting brand and placement, finishing them (POST). */
describe('editor: new detections', () => {
  const tag = uniqueName('d').split(' ')[1];
  let api: ApiClient;
  let videoId: number;
  let brands: Brand[];
  let placements: Placement[];
  let editor: EditorPageObject;

  beforeAll(async () => {
    api = await loginApi();
    let video: Video;
    ({ brands, placements, video } = await seedEditorSetup(api, {
      // Created out of order: the Set Brand menu sorts them.
      brands: [`Zeta ${tag}`, `Alpha ${tag}`, `Mango ${tag}`],
      placements: [
        [`Shirt ${tag}`, '#1e88e5'],
        [`Banner ${tag}`, '#8e24aa'],
      ],
      videoName: uniqueName('Draft clip'),
    }));
    videoId = video.id;
    await seedDetections(api, [still(videoId, brands[0].id, placements[0].id, 0, 5000, box(20, 20, 80, 60))]);
    editor = new EditorPageObject(session.page());
    await editor.open(videoId, 1000);
  });

  it('Escape cancels drawing and clears the points', async () => {
    await editor.button('Add new detection').click();
    await session.page().getByRole('img', { name: 'Drawing a new detection' }).waitFor();
    await editor.click(200, 100);
    await editor.click(300, 100);
    await session.page().keyboard.press('Escape');
    await session.page().getByRole('img', { name: 'Detection overlay' }).waitFor();
    await editor.newDetections.getByText('Draw one with Add new detection').waitFor();
  });

  it('draws a new detection with four clicks; it is added, selected and not set', async () => {
    await editor.button('Add new detection').click();
    expect(await editor.button('Add new detection').isDisabled()).toBe(true);
    for (const [x, y] of [
      [200, 100],
      [320, 100],
      [320, 180],
      [200, 180],
    ])
      await editor.click(x, y);
    await session.page().getByRole('img', { name: 'Detection overlay' }).waitFor();
    const table = session.page().getByRole('table', { name: 'New detections' });
    const row = table.getByRole('row').nth(1);
    expect((await row.getByRole('cell').allTextContents()).map((t) => t.trim())).toEqual([
      '1',
      'Not set',
      'Not set',
    ]);
    expect(await row.getAttribute('aria-selected')).toBe('true');
    // Not complete yet: no brand, no placement.
    expect(await editor.button('Finish selected new detections').isDisabled()).toBe(true);
  });

  it('sets the brand from the alphabetical menu (max height 400) and the placement', async () => {
    const page = session.page();
    await editor.newDetections.getByRole('button', { name: 'Set Brand' }).click();
    const menu = page.getByRole('menu');
    const items = (await menu.getByRole('menuitem').allTextContents()).filter((t) => t.endsWith(tag));
    expect(items).toEqual([`Alpha ${tag}`, `Mango ${tag}`, `Zeta ${tag}`]);
    const maxHeight = await menu.evaluate((el) => getComputedStyle(el.closest('.MuiPaper-root')!).maxHeight);
    expect(maxHeight).toBe('400px');
    await menu.getByRole('menuitem', { name: `Mango ${tag}` }).click();
    await editor.newDetections.getByRole('button', { name: 'Set placement' }).click();
    await page.getByRole('menuitem', { name: `Banner ${tag}` }).click();
    const row = page.getByRole('table', { name: 'New detections' }).getByRole('row').nth(1);
    expect((await row.getByRole('cell').allTextContents()).map((t) => t.trim())).toEqual([
      '1',
      `Mango ${tag}`,
      `Banner ${tag}`,
    ]);
    // Drawn at one instant: begin = end, not valid until playback moves (the selected draft extends).
    expect(await editor.button('Finish selected new detections').isDisabled()).toBe(true);
    for (let i = 0; i < 5; i++) await editor.button('Next frame').click();
    await editor.expectTime('00:00:01:05 / 00:00:10:00');
    expect(await editor.button('Finish selected new detections').isEnabled()).toBe(true);
  });

  it('finishes it: uploaded (POST), removed from the drafts, found through the API', async () => {
    const page = session.page();
    const posted = page.waitForResponse(
      (r) => r.request().method() === 'POST' && r.url().includes('/api/videos/detections/'),
    );
    await editor.button('Finish selected new detections').click();
    expect((await posted).status()).toBe(201);
    await expectStatus(page, 'Uploaded 1 new detection.');
    await editor.newDetections.getByText('Draw one with Add new detection').waitFor();
    const created = (await detectionsInWindow(api, videoId)).find((d) => d.brand === brands[2].id)!;
    expect(created).toBeDefined();
    expect(created.placement.id).toBe(placements[1].id);
    expect(created.source).toBe('manual');
    expect(created.time_begin).toBe(1000);
    expect(created.time_end).toBe(1200);
    expect(created.coordinates[0].points).toEqual([200, 100, 320, 100, 320, 180, 200, 180]);
    // It is now a detection like the others: listed at this frame.
    await editor.row(created.id).waitFor();
  });

  it('deletes a draft', async () => {
    await editor.drawDraft(SECOND_DRAFT);
    const table = session.page().getByRole('table', { name: 'New detections' });
    await table.getByRole('cell', { name: 'Not set' }).first().waitFor();
    await editor.newDetections.getByRole('button', { name: 'Delete' }).click();
    await editor.newDetections.getByText('Draw one with Add new detection').waitFor();
  });

  it('a manipulation pauses playback and resumes it afterwards, unless something was selected', async () => {
    const page = session.page();
    await page.getByRole('button', { name: 'Play mode SECONDS' }).click();
    await page.getByRole('button', { name: 'Play mode NORMAL' }).waitFor();
    await editor.button('Previous second').click();
    await editor.button('Previous second').click();
    await editor.expectTime('00:00:00:00 / 00:00:10:00');
    await editor.button('Play').click();
    await editor.button('Pause').waitFor();
    // Move the seeded detection (20..100 x 20..80) by its bottom edge: paused while dragging, playing after.
    const a = await editor.at(60, 80);
    await page.mouse.move(a.x, a.y);
    await page.mouse.down();
    await page.mouse.move(a.x + 10, a.y + 10, { steps: 4 });
    expect(await page.evaluate(() => document.querySelector('video')!.paused)).toBe(true);
    const patched = page.waitForResponse((r) => r.request().method() === 'PATCH');
    await page.mouse.up();
    expect((await patched).status()).toBe(200);
    await editor.button('Pause').waitFor();
    await page.waitForFunction(() => !document.querySelector('video')!.paused);
    // A marquee that selects it: stays paused.
    await editor.drag([5, 5], [140, 120]);
    await editor.button('Play').waitFor();
    expect(await page.evaluate(() => document.querySelector('video')!.paused)).toBe(true);
    await page.getByRole('button', { name: 'Play mode NORMAL' }).click();
  });

  it('moving a draft later splits its segment; the upload keeps both quads', async () => {
    const page = session.page();
    const bar = page.getByRole('slider', { name: 'Video progress' });
    const b = (await bar.boundingBox())!;
    await page.mouse.click(b.x + b.width * 0.3, b.y + b.height / 2);
    await editor.expectTime('00:00:03:00 / 00:00:10:00');
    await editor.drawDraft(SECOND_DRAFT);
    await editor.newDetections.getByRole('button', { name: 'Set Brand' }).click();
    await page.getByRole('menuitem', { name: `Alpha ${tag}` }).click();
    await editor.newDetections.getByRole('button', { name: 'Set placement' }).click();
    await page.getByRole('menuitem', { name: `Shirt ${tag}` }).click();
    for (let i = 0; i < 5; i++) await editor.button('Next frame').click();
    await editor.expectTime('00:00:03:05 / 00:00:10:00');
    // Drag its right edge 20 px to the right at 3.2 s.
    await editor.drag([480, 230], [500, 230]);
    // The upload's answer, not the status alone: the earlier test's "Uploaded 1 new detection." may
    // still be on screen (a status shows for 6 s), and the detection is read back right after.
    const posted = page.waitForResponse(
      (r) => r.request().method() === 'POST' && r.url().includes('/api/videos/detections/'),
    );
    await editor.button('Finish selected new detections').click();
    expect((await posted).status()).toBe(201);
    await expectStatus(page, 'Uploaded 1 new detection.');
    const created = (await detectionsInWindow(api, videoId)).find((d) => d.brand === brands[1].id)!;
    expect(created.time_begin).toBe(3000);
    expect(created.time_end).toBe(3200);
    expect(created.coordinates.map((c) => c.points)).toEqual([
      [400, 200, 480, 200, 480, 260, 400, 260],
      [420, 200, 500, 200, 500, 260, 420, 260],
    ]);
    expect(created.coordinates[1].start_time).toBe(3200);
  });
});
