import { beforeAll, describe, expect, inject, it } from 'vitest';
import { API, type Brand, type Detection, type Placement } from '@logo-review/contract';
import type { Page } from 'playwright-core';
import type { ApiClient } from './support/api-client.ts';
import { uniqueName } from './support/browser.ts';
import { expectStatus, loginApi, useSignedInPage, waitFor } from './support/session.ts';
import { box, seedEditorSetup, seedUnreviewed, still } from './editor-seed.ts';
import {
  detectionsInWindow,
  drawnAlong,
  EditorPageObject,
  injectConfidence,
  overlayPixel,
} from './editor-page-objects.ts';

const session = useSignedInPage();

/** The overlay's display scale (display px per video px; the test video is 640 wide). */
async function scaleOf(editor: EditorPageObject): Promise<number> {
  return (await editor.overlay.boundingBox())!.width / 640;
}

/** The selected rows' ids. */
async function selectedIds(page: Page): Promise<number[]> {
  const texts = await page
    .getByRole('table', { name: 'Active detections' })
    .locator('tbody tr[aria-selected="true"] td:first-child')
    .allTextContents();
  return texts.map(Number);
}

async function reviewOf(api: ApiClient, videoId: number, id: number): Promise<string | undefined> {
  return (await detectionsInWindow(api, videoId)).find((d) => d.id === id)?.review;
}

/** Issue 17, items 2-5: labels and styles, review state and progress, verdict keys, undo and redo. */
describe('editor: review by keyboard', () => {
  const tag = uniqueName('k').split(' ')[1];
  let api: ApiClient;
  let videoId: number;
  let videoName: string;
  let brands: Brand[];
  let placements: Placement[];
  let dets: Detection[];
  let editor: EditorPageObject;

  beforeAll(async () => {
    api = await loginApi();
    const setup = await seedEditorSetup(api, {
      brands: [`Pirelli ${tag}`, `Lavazza ${tag}`],
      placements: [
        [`Board ${tag}`, '#1e88e5'],
        [`Shirt ${tag}`, '#e53935'],
      ],
      videoName: uniqueName('Review keys'),
    });
    ({ brands, placements } = setup);
    videoId = setup.video.id;
    videoName = setup.video.name;
    const [b0, b1] = brands.map((b) => b.id);
    const [p0] = placements.map((p) => p.id);
    dets = await seedUnreviewed(api, [
      still(videoId, b0, p0, 0, 2000, box(40, 60, 40, 24)), // 0
      still(videoId, b1, p0, 0, 3000, box(240, 60, 30, 20)), // 1
      still(videoId, b0, p0, 2500, 4000, box(100, 200, 40, 30)), // 2
      still(videoId, b1, p0, 4500, 6000, box(300, 200, 40, 30)), // 3
      still(videoId, b0, p0, 6500, 7500, box(400, 100, 40, 30)), // 4
      still(videoId, b1, p0, 8000, 9000, box(500, 100, 40, 30)), // 5
    ]);
    await injectConfidence(
      session.page(),
      new Map([
        [dets[0].id, 0.91],
        [dets[1].id, 0.35],
        [dets[2].id, 0.8],
        [dets[3].id, 0.6],
        [dets[4].id, 0.97],
        [dets[5].id, 0.5],
      ]),
    );
    editor = new EditorPageObject(session.page());
    await editor.open(videoId, 1000);
    await editor.expectListed([dets[0].id, dets[1].id]);
  });

  it('labels name the brand and confidence above 20-40 px boxes, unreviewed boxes are dashed, l hides labels', async () => {
    const page = session.page();
    const s = await scaleOf(editor);
    // The label background sits just above the first box's top-left corner.
    const above: [number, number] = [40 * s + 4, 60 * s - 7];
    await waitFor(async () => (await overlayPixel(page, ...above))[3] > 120, 'the label of the first box');
    // A dashed top edge leaves gaps; a solid one would be drawn along its whole length.
    const drawn = await drawnAlong(page, 40 * s + 2, 80 * s - 2, 60 * s);
    expect(drawn).toBeGreaterThan(0.3);
    expect(drawn).toBeLessThan(0.9);
    await page.keyboard.press('l');
    await waitFor(async () => (await overlayPixel(page, ...above))[3] === 0, 'the label to go');
    await page.keyboard.press('l');
    await waitFor(async () => (await overlayPixel(page, ...above))[3] > 120, 'the label to come back');
  });

  it('the table shows state and confidence, and the editor shows N of M reviewed', async () => {
    const row = editor.row(dets[0].id);
    expect(await row.locator('td').nth(3).innerText()).toBe('New');
    expect(await row.locator('td').nth(4).innerText()).toBe('91%');
    expect(await session.page().getByTestId('review-progress').innerText()).toBe('0 of 6 reviewed');
  });

  it('? opens the help, which lists every key', async () => {
    const page = session.page();
    await page.keyboard.press('?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard' });
    await dialog.waitFor();
    const text = await dialog.innerText();
    for (const key of [
      't',
      'r',
      'Delete / d',
      'u',
      'o',
      'l',
      '0',
      'Ctrl+Z',
      'Ctrl+Shift+Z',
      'k',
      'Enter',
      '[',
      ']',
      's',
      'g',
      'h',
      '?',
    ])
      expect(text).toContain(key);
    for (const key of ['m', 'f', 'v', 'p', 'n / b', '+ / -']) expect(text).toContain(key);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('t confirms the current detection, then the next unreviewed one in time order is shown at its best frame and selected', async () => {
    const page = session.page();
    // Nothing selected: t acts on the first unreviewed detection of the frame.
    await page.keyboard.press('t');
    await waitFor(
      async () => (await selectedIds(page)).join() === String(dets[1].id),
      'the next detection selected',
    );
    // The verdict shows at once; the report reaches the server right after.
    await waitFor(async () => (await reviewOf(api, videoId, dets[0].id)) === 'TRUE_POSITIVE', 'the report');
    // Its best frame is the middle of its span (one still box): 1500 ms.
    await editor.expectTime(/^00:00:01:1[23] /);
    // Confirmed now: drawn solid.
    await waitFor(
      async () => (await session.page().getByTestId('review-progress').innerText()) === '1 of 6 reviewed',
      'the progress count',
    );
    expect(await editor.row(dets[0].id).locator('td').nth(3).innerText()).toBe('TP');
    const s = await scaleOf(editor);
    await waitFor(async () => (await drawnAlong(page, 40 * s + 2, 80 * s - 2, 60 * s)) > 0.95, 'a solid box');
  });

  it('r rejects, Delete deletes; both remove the detection and advance', async () => {
    const page = session.page();
    // dets[1] is selected: reject it.
    await page.keyboard.press('r');
    await waitFor(async () => (await selectedIds(page)).join() === String(dets[2].id), 'dets[2] selected');
    await waitFor(async () => (await reviewOf(api, videoId, dets[1].id)) === undefined, 'dets[1] rejected');
    await page.keyboard.press('Delete');
    await waitFor(async () => (await selectedIds(page)).join() === String(dets[3].id), 'dets[3] selected');
    await waitFor(async () => (await reviewOf(api, videoId, dets[2].id)) === undefined, 'dets[2] deleted');
  });

  it('Ctrl+Z undoes each verdict on the server (a reload shows it), Ctrl+Shift+Z redoes', async () => {
    const page = session.page();
    await page.keyboard.press('Control+z'); // the delete of dets[2]
    await waitFor(async () => (await reviewOf(api, videoId, dets[2].id)) === 'UNREVIEWED', 'dets[2] back');
    await page.keyboard.press('Control+z'); // the rejection of dets[1]
    await waitFor(async () => (await reviewOf(api, videoId, dets[1].id)) === 'UNREVIEWED', 'dets[1] back');
    await page.keyboard.press('Control+z'); // the confirmation of dets[0]
    await waitFor(
      async () => (await reviewOf(api, videoId, dets[0].id)) === 'UNREVIEWED',
      'dets[0] unreviewed',
    );
    await page.keyboard.press('Control+Shift+Z'); // confirm dets[0] again
    await waitFor(
      async () => (await reviewOf(api, videoId, dets[0].id)) === 'TRUE_POSITIVE',
      'dets[0] redone',
    );

    await page.reload();
    await editor.open(videoId, 1000);
    await editor.expectListed([dets[0].id, dets[1].id]);
    expect(await editor.row(dets[0].id).locator('td').nth(3).innerText()).toBe('TP');
    expect(await editor.row(dets[1].id).locator('td').nth(3).innerText()).toBe('New');
    await waitFor(
      async () => (await page.getByTestId('review-progress').innerText()) === '1 of 6 reviewed',
      'the progress after the reload',
    );
  });

  it("h shows the selected detection's history: who did what, newest first", async () => {
    const page = session.page();
    // (A row click toggles its detection in the selection.)
    for (const id of await selectedIds(page)) if (id !== dets[0].id) await editor.row(id).click();
    if (!(await selectedIds(page)).includes(dets[0].id)) await editor.row(dets[0].id).click();
    await page.keyboard.press('h');
    const dialog = page.getByRole('dialog', { name: `History of detection ${dets[0].id}` });
    const rows = dialog.getByRole('table', { name: 'Detection history' }).locator('tbody tr');
    await rows.first().waitFor();
    // Confirmed, undone, confirmed again (and the seeding's review call).
    expect(await rows.count()).toBeGreaterThanOrEqual(3);
    expect(await rows.first().innerText()).toContain(inject('username'));
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // (A row click toggles its detection in the selection.)
    for (const id of await selectedIds(page)) if (id !== dets[0].id) await editor.row(id).click();
    if (!(await selectedIds(page)).includes(dets[0].id)) await editor.row(dets[0].id).click();
  });

  it('a move, a placement change and a finish are undone on the server too', async () => {
    const page = session.page();
    const s = await scaleOf(editor);
    const before = (await detectionsInWindow(api, videoId)).find((d) => d.id === dets[1].id)!;
    // Drag the top edge of dets[1] (240,60 30x20) 20 display px down, and press Ctrl+Z while the move's
    // answer is still on its way (held here until then; the server has saved it): the undo waits for it and
    // undoes the move, not the step before it.
    const isPatch = (url: URL) => url.pathname === `/api/videos/detections/${dets[1].id}/`;
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    let reached = () => {};
    const saved = new Promise<void>((r) => (reached = r));
    await page.route(isPatch, async (route) => {
      if (route.request().method() !== 'PATCH') return route.continue();
      const response = await route.fetch();
      reached();
      await held;
      await route.fulfill({ response });
    });
    try {
      await editor.drag([255 * s, 60 * s], [255 * s, 60 * s + 20]);
      await saved;
      expect(await reviewOf(api, videoId, dets[1].id), 'the move saved').toBe('EDITED');
      await page.keyboard.press('Control+z');
      release();
      await waitFor(
        async () => (await reviewOf(api, videoId, dets[1].id)) === 'UNREVIEWED',
        'the move undone',
      );
    } finally {
      release();
      await page.unroute(isPatch);
    }
    const after = (await detectionsInWindow(api, videoId)).find((d) => d.id === dets[1].id)!;
    expect(after.coordinates).toEqual(before.coordinates);

    // Change placement of the selected dets[1], then undo.
    await editor.row(dets[1].id).click();
    await editor.detections.getByRole('button', { name: 'Change placement' }).click();
    await page.getByRole('menuitem', { name: placements[1].localized_name }).click();
    await expectStatus(page, 'Successfully updated selected detection');
    // Keys go to an open menu, not the editor: wait until it has left the page (the role query stops
    // seeing it when its exit transition starts, while its focused item still takes keys).
    await page.locator('[role="menu"]').waitFor({ state: 'detached' });
    await waitFor(
      () => editor.detections.getByRole('button', { name: 'Change placement' }).isEnabled(),
      'saved',
    );
    await page.keyboard.press('Control+z');
    await waitFor(
      async () =>
        (await detectionsInWindow(api, videoId)).find((d) => d.id === dets[1].id)?.placement.id ===
        placements[0].id,
      'the placement undone',
    );

    // Finish a new detection, then undo: it is deleted (not listed); redo lists it again.
    await editor.drawDraft([
      [400 * s, 250 * s],
      [460 * s, 250 * s],
      [460 * s, 290 * s],
      [400 * s, 290 * s],
    ]);
    await editor.newDetections.getByRole('button', { name: 'Set Brand' }).click();
    await page.getByRole('menuitem', { name: brands[0].name }).click();
    await editor.newDetections.getByRole('button', { name: 'Set placement' }).click();
    await page.getByRole('menuitem', { name: placements[0].localized_name }).click();
    for (let i = 0; i < 3; i++) await editor.button('Next frame').click();
    await editor.button('Finish selected new detections').click();
    await expectStatus(page, 'Uploaded 1 new detection.');
    const manual = () => detectionsInWindow(api, videoId).then((l) => l.filter((d) => d.review === 'MANUAL'));
    expect(await manual()).toHaveLength(1);
    await page.keyboard.press('Control+z');
    await waitFor(async () => (await manual()).length === 0, 'the finish undone');
    await page.keyboard.press('Control+Shift+Z');
    await waitFor(async () => (await manual()).length === 1, 'the finish redone');
  });

  // Skipped in session 13 after one failure in a full .ci/run under load, read as "'u' selected dets[1], what
  // time order gives". But dets[1] was already selected when 'u' was pressed (the placement test above selects
  // its row), and it is also the real server's answer (the seeded detections have no confidence): the failure
  // said only that the selection had not changed within the 8 s wait, not which step was late or wrong.
  // Session 14 did not reproduce it (runs alone, beside CPU hogs at load 15-20, and with Chromium throttled
  // 30x: the selection came 0.3-2.7 s after the key). The test now starts from a selection that no order
  // gives, checks the order the bar shows and the queue's answer itself, waits up to 30 s, and its failure
  // names the step that was late or wrong.
  it('by confidence, the most confident unreviewed detection comes next', async () => {
    const page = session.page();
    // dets[0] is confirmed: no review order picks it, so a selection left unchanged cannot pass for an answer.
    // (A row click toggles its detection in the selection.)
    for (const id of await selectedIds(page)) if (id !== dets[0].id) await editor.row(id).click();
    if (!(await selectedIds(page)).includes(dets[0].id)) await editor.row(dets[0].id).click();
    await waitFor(async () => (await selectedIds(page)).join() === String(dets[0].id), 'dets[0] selected');
    await page.keyboard.press('o');
    await expectStatus(page, 'Review order: by confidence.');
    expect(await page.getByRole('toolbar', { name: 'Review' }).innerText()).toContain('By confidence');
    const answer = page.waitForResponse((r) => new URL(r.url()).pathname === API.detectionsNext, {
      timeout: 30_000,
    });
    await page.keyboard.press('u');
    const queue = (await (await answer).json()) as { detection: Detection | null };
    expect(queue.detection?.id, "the queue's answer").toBe(dets[4].id);
    let seen = '';
    await waitFor(
      async () => (seen = (await selectedIds(page)).join()) === String(dets[4].id),
      'dets[4] (97%) selected',
      30_000,
    ).catch((e: Error) => {
      throw new Error(`${e.message}; selected: ${seen || 'none'}`);
    });
  });

  it('the filters hide reviewed detections and those below the confidence threshold', async () => {
    const page = session.page();
    // The hand-drawn detection the undo test finished (and redid) is listed too: reviewed, no confidence.
    const manual = (await detectionsInWindow(api, videoId, 0, 1000))
      .filter((d) => d.review === 'MANUAL')
      .map((d) => d.id);
    await editor.open(videoId, 1000);
    await editor.expectListed([dets[0].id, dets[1].id, ...manual]);
    await page.keyboard.press('f');
    const dialog = page.getByRole('dialog', { name: 'Filters' });
    await dialog.getByRole('checkbox', { name: 'Unreviewed only' }).check();
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await editor.expectListed([dets[1].id]);
    await page.keyboard.press('f');
    await dialog.getByRole('checkbox', { name: 'Unreviewed only' }).uncheck();
    const slider = dialog.getByRole('slider');
    await slider.focus();
    for (let i = 0; i < 8; i++) await page.keyboard.press('ArrowRight'); // 40%
    expect(await dialog.innerText()).toContain('Confidence threshold: 40%');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await editor.expectListed([dets[0].id, ...manual]); // dets[1] has 35%; hand-drawn ones stay
    await page.keyboard.press('f');
    await dialog.getByRole('button', { name: 'Clear' }).click();
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await editor.expectListed([dets[0].id, dets[1].id, ...manual]);
  });

  it('video cards show the share reviewed', async () => {
    const page = session.page();
    const video = await api.call<{ detections_reviewed: number; detections_total: number }>(
      'GET',
      API.video(videoId),
    );
    await page.goto('/videos');
    const share = page.getByRole('article', { name: videoName }).getByTestId('reviewed-share');
    const pct = Math.round((100 * video.detections_reviewed) / video.detections_total);
    expect(await share.innerText()).toBe(
      `${pct}% reviewed (${video.detections_reviewed} of ${video.detections_total})`,
    );
  });

  it("u shows the frame's first unreviewed detection when nothing was decided here yet", async () => {
    const page = session.page();
    await editor.open(videoId, 1000);
    await page.keyboard.press('u');
    await waitFor(async () => (await selectedIds(page)).join() === String(dets[1].id), 'dets[1] selected');
  });
});

/** Issue 17, item 4: a hundred detections decided without the mouse. */
describe('editor: 100 detections by keyboard', () => {
  const tag = uniqueName('c').split(' ')[1];
  let api: ApiClient;
  let videoId: number;
  let editor: EditorPageObject;

  beforeAll(async () => {
    api = await loginApi();
    const setup = await seedEditorSetup(api, {
      brands: [`Mapei ${tag}`],
      placements: [[`Led ${tag}`, '#43a047']],
      videoName: uniqueName('Hundred'),
    });
    videoId = setup.video.id;
    const list = [];
    for (let i = 0; i < 100; i++) {
      const begin = i * 90;
      list.push(
        still(
          videoId,
          setup.brands[0].id,
          setup.placements[0].id,
          begin,
          begin + 400,
          box(10 + (i % 10) * 60, 20 + Math.floor(i / 10) * 32, 40, 24),
        ),
      );
    }
    await seedUnreviewed(api, list);
    editor = new EditorPageObject(session.page());
    await editor.open(videoId, 0);
  });

  it('t, r and d decide all of them, each advancing to the next', async () => {
    const page = session.page();
    const progress = page.getByTestId('review-progress');
    await waitFor(async () => (await progress.innerText()) === '0 of 100 reviewed', 'the count');
    await page.keyboard.press('u');
    for (let i = 0; i < 100; i++) {
      const selected = await waitFor(
        async () => (await selectedIds(page)).length === 1,
        `selection ${i}`,
      ).then(() => selectedIds(page));
      await page.keyboard.press(i % 10 === 3 ? 'r' : i % 10 === 7 ? 'd' : 't');
      if (i < 99)
        await waitFor(async () => {
          const now = await selectedIds(page);
          return now.length === 1 && now[0] !== selected[0];
        }, `advance ${i}`);
    }
    await expectStatus(page, 'No unreviewed detection left.');
    const decided = async () => {
      const left = await detectionsInWindow(api, videoId);
      return left.length === 80 && left.every((d) => d.review === 'TRUE_POSITIVE');
    };
    await waitFor(decided, 'every verdict on the server');
  });
});
