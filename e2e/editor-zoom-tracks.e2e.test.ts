import { beforeAll, describe, expect, it } from 'vitest';
import type { Brand, Detection, Placement } from '@logo-review/contract';
import type { Page } from 'playwright-core';
import type { ApiClient } from './support/api-client.ts';
import { uniqueName } from './support/browser.ts';
import { expectStatus, loginApi, useSignedInPage, waitFor } from './support/session.ts';
import { box, seedEditorSetup, seedUnreviewed, still } from './editor-seed.ts';
import { detectionsInWindow, EditorPageObject } from './editor-page-objects.ts';

const session = useSignedInPage();

async function zoomOf(editor: EditorPageObject): Promise<number> {
  return Number(await editor.overlay.getAttribute('data-zoom'));
}

/** Video px to overlay display px under the current zoom and pan (s: the fitted scale). */
async function projector(editor: EditorPageObject, s: number) {
  const z = await zoomOf(editor);
  const px = Number(await editor.overlay.getAttribute('data-pan-x'));
  const py = Number(await editor.overlay.getAttribute('data-pan-y'));
  return { k: s * z, x: (v: number) => v * s * z + px, y: (v: number) => v * s * z + py };
}

/** Wheel notches over an overlay point (display px); negative deltas zoom in. */
async function wheelAt(page: Page, editor: EditorPageObject, x: number, y: number, notches: number) {
  const p = await editor.at(x, y);
  await page.mouse.move(p.x, p.y);
  for (let i = 0; i < Math.abs(notches); i++) await page.mouse.wheel(0, notches < 0 ? -100 : 100);
}

async function byId(api: ApiClient, videoId: number, id: number): Promise<Detection | undefined> {
  return (await detectionsInWindow(api, videoId)).find((d) => d.id === id);
}

/** Issue 17, items 6 and 7: zoom and pan, exact at every zoom; trim, split, merge and follow. */
describe('editor: zoom, and tracks', () => {
  const tag = uniqueName('z').split(' ')[1];
  let api: ApiClient;
  let videoId: number;
  let brands: Brand[];
  let placements: Placement[];
  let dets: Detection[];
  let editor: EditorPageObject;
  let s: number;

  beforeAll(async () => {
    api = await loginApi();
    const setup = await seedEditorSetup(api, {
      brands: [`Eni ${tag}`, `Fiat ${tag}`],
      placements: [[`Board ${tag}`, '#1e88e5']],
      videoName: uniqueName('Zoom clip'),
    });
    ({ brands, placements } = setup);
    videoId = setup.video.id;
    const [b0, b1] = brands.map((b) => b.id);
    const p0 = placements[0].id;
    dets = await seedUnreviewed(api, [
      still(videoId, b0, p0, 0, 6000, box(200, 100, 40, 24)), // 0: zoom target
      still(videoId, b0, p0, 0, 8000, box(420, 250, 60, 40)), // 1: trim and split
      still(videoId, b1, p0, 0, 2000, box(40, 250, 60, 40)), // 2: merge with 3
      still(videoId, b1, p0, 2000, 5000, box(40, 250, 60, 40)), // 3: touches 2 at 2 s
    ]);
    editor = new EditorPageObject(session.page());
    await editor.open(videoId, 1000);
    await editor.expectListed([dets[0].id, dets[1].id, dets[2].id]);
    s = (await editor.overlay.boundingBox())!.width / 640;
  });

  it('the wheel zooms up to 4x around the pointer, and 0 resets', async () => {
    const page = session.page();
    await wheelAt(page, editor, 320 * s, 180 * s, -12);
    await waitFor(async () => (await zoomOf(editor)) === 4, 'zoom 4');
    await page.keyboard.press('0');
    await waitFor(async () => (await zoomOf(editor)) === 1, 'zoom 1');
  });

  it('Alt+drag pans a zoomed video, and the pan stays inside it', async () => {
    const page = session.page();
    await wheelAt(page, editor, 320 * s, 180 * s, -4);
    const panX = async () => Number(await editor.overlay.getAttribute('data-pan-x'));
    const before = await panX();
    const from = await editor.at(300, 150);
    await page.keyboard.down('Alt');
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x - 60, from.y, { steps: 6 });
    await page.mouse.up();
    await page.keyboard.up('Alt');
    expect(await panX()).toBeCloseTo(before - 60, 0);
    // No selection or move happened: it was a pan.
    expect(await editor.row(dets[0].id).getAttribute('aria-selected')).toBe('false');
    await page.keyboard.press('0');
    await waitFor(async () => (await zoomOf(editor)) === 1 && (await panX()) === 0, 'reset');
  });

  it('zoomed, a click on a box edge selects it with the 20 px margin in screen pixels', async () => {
    const page = session.page();
    // Zoom about 2x near the top-left corner.
    await wheelAt(page, editor, 100, 60, -4); // 1.2^4 = 2.07
    expect(await zoomOf(editor)).toBeCloseTo(2.0736, 3);
    const p = await projector(editor, s);
    // 25 screen px above the top edge: outside the 20 px margin (about 12 video px at this zoom).
    await editor.click(p.x(220), p.y(100) - 25);
    expect(await editor.row(dets[0].id).getAttribute('aria-selected')).toBe('false');
    await editor.click(p.x(220), p.y(100) - 15);
    await waitFor(
      async () => (await editor.row(dets[0].id).getAttribute('aria-selected')) === 'true',
      'the zoomed box selected',
    );
  });

  it('zoomed, a drag moves the box by the screen distance divided by the zoom', async () => {
    const p = await projector(editor, s);
    const k = p.k;
    expect(k).toBeGreaterThan(1.5 * s);
    await editor.drag([p.x(220), p.y(100)], [p.x(220) + 40, p.y(100) + 20]);
    await waitFor(async () => (await byId(api, videoId, dets[0].id))?.review === 'EDITED', 'the move saved');
    const pts = (await byId(api, videoId, dets[0].id))!.coordinates.find(
      (c) => c.start_time <= 1000 && c.end_time >= 1000,
    )!.points;
    expect(pts[0]).toBeCloseTo(200 + 40 / k, 0);
    expect(pts[1]).toBeCloseTo(100 + 20 / k, 0);
  });

  it('zoomed, a new detection is drawn where it is clicked', async () => {
    const page = session.page();
    const pr = await projector(editor, s);
    await editor.drawDraft([
      [pr.x(100), pr.y(150)],
      [pr.x(160), pr.y(150)],
      [pr.x(160), pr.y(190)],
      [pr.x(100), pr.y(190)],
    ]);
    await editor.newDetections.getByRole('button', { name: 'Set Brand' }).click();
    await page.getByRole('menuitem', { name: brands[0].name }).click();
    await editor.newDetections.getByRole('button', { name: 'Set placement' }).click();
    await page.getByRole('menuitem', { name: placements[0].localized_name }).click();
    for (let i = 0; i < 3; i++) await editor.button('Next frame').click();
    await editor.button('Finish selected new detections').click();
    await expectStatus(page, 'Uploaded 1 new detection.');
    const manual = (await detectionsInWindow(api, videoId)).find((d) => d.review === 'MANUAL')!;
    const p = manual.coordinates[0].points;
    [100, 150, 160, 150, 160, 190, 100, 190].forEach((v, i) => expect(p[i]).toBeCloseTo(v, 0));
    await page.keyboard.press('0');
  });

  it('[ and ] trim the selected track to the current frame; s splits it', async () => {
    const page = session.page();
    await editor.open(videoId, 2000);
    await editor.row(dets[1].id).click();
    await page.keyboard.press('[');
    await waitFor(async () => (await byId(api, videoId, dets[1].id))?.time_begin === 2000, 'trimmed begin');
    await editor.open(videoId, 7000);
    await editor.row(dets[1].id).click();
    await page.keyboard.press(']');
    await waitFor(async () => (await byId(api, videoId, dets[1].id))?.time_end === 7000, 'trimmed end');
    await page.keyboard.press('Control+z');
    await waitFor(async () => (await byId(api, videoId, dets[1].id))?.time_end === 8000, 'trim undone');

    await editor.open(videoId, 4000);
    await editor.row(dets[1].id).click();
    await page.keyboard.press('s');
    await expectStatus(page, `Split detection ${dets[1].id}`);
    const parts = (await detectionsInWindow(api, videoId))
      .filter((d) => d.brand === brands[0].id && d.coordinates[0].points[0] === 420)
      .sort((a, b) => a.time_begin - b.time_begin);
    expect(parts).toHaveLength(2);
    expect(parts[0].time_begin).toBe(2000);
    expect(parts[1].time_end).toBe(8000);
    expect(Math.abs(parts[1].time_begin - 4000)).toBeLessThanOrEqual(40);
    expect(parts[0].time_end).toBeLessThanOrEqual(parts[1].time_begin);

    // Undo joins them again (the right part deleted, the left one whole); redo splits the same way.
    const spans = async () =>
      (await detectionsInWindow(api, videoId))
        .filter((d) => d.brand === brands[0].id && d.coordinates[0].points[0] === 420)
        .map((d) => `${d.id}:${d.time_begin}-${d.time_end}`)
        .sort()
        .join(' ');
    const split = await spans();
    await page.keyboard.press('Control+z');
    await waitFor(async () => (await spans()) === `${dets[1].id}:2000-8000`, 'the split undone');
    await page.keyboard.press('Control+Shift+Z');
    await waitFor(async () => (await spans()) === split, 'the split redone');
  });

  it('g merges two selected tracks of the same brand', async () => {
    const page = session.page();
    await editor.open(videoId, 2000);
    await editor.row(dets[2].id).click();
    await editor.row(dets[3].id).click();
    await page.keyboard.press('g');
    await expectStatus(page, `Merged detections`);
    const fiat = (await detectionsInWindow(api, videoId)).filter((d) => d.brand === brands[1].id);
    expect(fiat).toHaveLength(1);
    expect([fiat[0].time_begin, fiat[0].time_end]).toEqual([0, 5000]);
    await page.keyboard.press('Control+z');
    const fiatSpans = async () =>
      (await detectionsInWindow(api, videoId))
        .filter((d) => d.brand === brands[1].id)
        .map((d) => `${d.time_begin}-${d.time_end}`)
        .sort()
        .join(' ');
    await waitFor(async () => (await fiatSpans()) === '0-2000 2000-5000', 'the merge undone');
  });

  it('k proposes the track of the selected box, drawn until Enter accepts or Esc dismisses it', async () => {
    const page = session.page();
    await editor.open(videoId, 3000);
    await editor.row(dets[0].id).click();
    await page.keyboard.press('k');
    const accept = editor.button('Accept track');
    const failed = page
      .getByRole('alert')
      .filter({ hasText: 'The logo could not be followed from this frame.' });
    await waitFor(
      async () => (await accept.isVisible()) || (await failed.count()) > 0,
      'a proposal or a warning',
      30_000,
    );
    if (!(await accept.isVisible())) return; // the tracker lost the box at once: nothing to accept
    await page.keyboard.press('Escape');
    await accept.waitFor({ state: 'detached' });
    await page.keyboard.press('k');
    await accept.waitFor({ timeout: 30_000 });
    const before = (await byId(api, videoId, dets[0].id))!;
    await page.keyboard.press('Enter');
    await expectStatus(page, `Accept track: detection ${dets[0].id} updated.`);
    const after = (await byId(api, videoId, dets[0].id))!;
    expect(after.time_begin).toBeLessThanOrEqual(before.time_begin);
    expect(after.time_end).toBeGreaterThanOrEqual(before.time_end);
    expect(after.review).toBe('EDITED');
  });

  it('a box just drawn can be followed too: accepting the track gives it its span', async () => {
    const page = session.page();
    await editor.open(videoId, 3000);
    await editor.drawDraft([
      [s * 200, s * 60],
      [s * 260, s * 60],
      [s * 260, s * 100],
      [s * 200, s * 100],
    ]);
    await page.keyboard.press('k');
    const accept = editor.button('Accept track');
    const failed = page
      .getByRole('alert')
      .filter({ hasText: 'The logo could not be followed from this frame.' });
    await waitFor(
      async () => (await accept.isVisible()) || (await failed.count()) > 0,
      'a proposal or a warning',
      30_000,
    );
    if (!(await accept.isVisible())) return;
    await page.keyboard.press('Enter');
    await expectStatus(page, 'Accept track: new detection follows the logo.');
    await editor.newDetections.getByRole('button', { name: 'Set Brand' }).click();
    await page.getByRole('menuitem', { name: brands[0].name }).click();
    await editor.newDetections.getByRole('button', { name: 'Set placement' }).click();
    await page.getByRole('menuitem', { name: placements[0].localized_name }).click();
    // No time step needed: the accepted track already spans more than one instant.
    expect(await editor.button('Finish selected new detections').isEnabled()).toBe(true);
  });
});
