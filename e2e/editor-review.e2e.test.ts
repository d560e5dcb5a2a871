import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Brand, Detection, Placement, Video } from '@logo-review/contract';
import type { ApiClient } from './support/api-client.ts';
import { uniqueName } from './support/browser.ts';
import { expectStatus, loginApi, useSignedInPage } from './support/session.ts';
import { box, seedDetections, seedEditorSetup, still } from './editor-seed.ts';
import { detectionsInWindow, EditorPageObject } from './editor-page-objects.ts';

const session = useSignedInPage();

/**
 * Reviewing seeded detections on a 10 s 640x360 25 fps clip (shown at its native size, so overlay pixels are
 * video pixels): the table follows the frame, selection by row and marquee, move and resize persisted through
 * PATCH, reports, placement changes.
 */
describe('editor: review detections', () => {
  const tag = uniqueName('r').split(' ')[1];
  let api: ApiClient;
  let videoId: number;
  let videoName: string;
  let placements: Placement[];
  /** A: 0-2 s, B: 1-3 s, C: 2-4 s, E: 2-3 s (for Delete), D: 6-8 s. */
  let A: Detection, B: Detection, C: Detection, D: Detection, E: Detection;
  let editor: EditorPageObject;

  beforeAll(async () => {
    api = await loginApi();
    videoName = uniqueName('Review clip');
    let brands: Brand[];
    let video: Video;
    ({ brands, placements, video } = await seedEditorSetup(api, {
      brands: [`Adidas ${tag}`, `Nike ${tag}`, `Puma ${tag}`],
      placements: [
        [`Shirt ${tag}`, '#1e88e5'],
        [`LED board ${tag}`, '#e53935'],
        [`Score bug ${tag}`, '#43a047'],
      ],
      videoName,
    }));
    videoId = video.id;
    const [b0, b1, b2] = brands.map((b) => b.id);
    const [p0, p1, p2] = placements.map((p) => p.id);
    [A, B, C, E, D] = await seedDetections(api, [
      still(videoId, b0, p0, 0, 2000, box(40, 40, 120, 80)),
      still(videoId, b1, p1, 1000, 3000, box(300, 200, 160, 80)),
      still(videoId, b2, p2, 2000, 4000, box(450, 40, 120, 60)),
      still(videoId, b2, p0, 2000, 3000, box(60, 250, 100, 60)),
      still(videoId, b1, p0, 6000, 8000, box(100, 220, 140, 70)),
    ]);
    editor = new EditorPageObject(session.page());
  });

  it("shows 'There is no selected video...' without a video, and 'Loading Editor.' while the editor loads", async () => {
    const page = session.page();
    await page.evaluate(() => localStorage.removeItem('VIDEO'));
    await page.goto('/editor');
    await page.getByText('There is no selected video. Please select a video from video list.').waitFor();
    await page.getByRole('heading', { level: 1, name: 'editor', exact: true }).waitFor();

    // Hold the video's answer: the full overlay reads 'Loading Editor.' until it arrives.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const isVideoCall = (url: URL) => url.pathname === `/api/videos/${videoId}/`;
    await page.route(isVideoCall, async (route) => {
      await held;
      await route.continue();
    });
    await page.evaluate((id) => localStorage.setItem('VIDEO', String(id)), videoId);
    await page.goto('/editor');
    await page.getByRole('progressbar', { name: 'Loading Editor.' }).waitFor();
    release();
    await page.getByRole('progressbar', { name: 'Loading Editor.' }).waitFor({ state: 'hidden' });
    await editor.overlay.waitFor();
    await page.unroute(isVideoCall);
  });

  it('opens the video with its detections, title and time display', async () => {
    const page = session.page();
    await editor.open(videoId, 0);
    await page.getByRole('heading', { level: 1, name: `Editor: ${videoName}` }).waitFor();
    await editor.expectTime('00:00:00:00 / 00:00:10:00');
    await editor.expectListed([A.id]);
    const row = editor.row(A.id);
    expect(await row.textContent()).toContain(`Adidas ${tag}`);
    expect(await row.textContent()).toContain(`Shirt ${tag}`);
    // The video is fitted to the container and capped at its native width.
    const overlay = (await editor.overlay.boundingBox())!;
    expect(Math.round(overlay.width)).toBe(640);
    expect(Math.round(overlay.height)).toBe(360);
    // Table height = video height - 52 - 16.
    const table = await page
      .getByRole('table', { name: 'Active detections' })
      .evaluate((el) => el.parentElement!.clientHeight);
    expect(table).toBe(360 - 52 - 16);
  });

  it('steps frames and seconds and the table follows the frame', async () => {
    await editor.button('Next second').click();
    await editor.expectTime('00:00:01:00 / 00:00:10:00');
    await editor.expectListed([A.id, B.id]);
    await editor.button('Next second').click();
    await editor.expectTime('00:00:02:00 / 00:00:10:00');
    // A ends at 2000 ms: still on the frame starting at 2000, gone one frame later.
    await editor.expectListed([A.id, B.id, C.id, E.id]);
    await editor.button('Next frame').click();
    await editor.expectTime('00:00:02:01 / 00:00:10:00');
    await editor.expectListed([B.id, C.id, E.id]);
    await editor.button('Previous frame').click();
    await editor.expectTime('00:00:02:00 / 00:00:10:00');
    await editor.expectListed([A.id, B.id, C.id, E.id]);
    await editor.button('Previous second').click();
    await editor.expectTime('00:00:01:00 / 00:00:10:00');
    await editor.expectListed([A.id, B.id]);
    await editor.button('Next second').click();
    await editor.expectListed([A.id, B.id, C.id, E.id]);
  });

  it('selects by row click and by marquee; the toolbar follows the selection', async () => {
    const truePositive = editor.detections.getByRole('button', { name: 'True Positive' });
    expect(await truePositive.isDisabled()).toBe(true);
    await editor.row(B.id).click();
    expect(await editor.row(B.id).getAttribute('aria-selected')).toBe('true');
    expect(await truePositive.isEnabled()).toBe(true);
    await editor.row(B.id).click();
    expect(await editor.row(B.id).getAttribute('aria-selected')).toBe('false');
    expect(await truePositive.isDisabled()).toBe(true);

    // A box around B only (B: 300..460 x 200..280).
    await editor.drag([270, 170], [480, 300]);
    expect(await editor.row(B.id).getAttribute('aria-selected')).toBe('true');
    expect(await editor.row(C.id).getAttribute('aria-selected')).toBe('false');
    // A box touching A and C (A: 40..160 x 40..120, C: 450..570 x 40..100) replaces the selection.
    await editor.drag([140, 10], [470, 60]);
    expect(await editor.row(A.id).getAttribute('aria-selected')).toBe('true');
    expect(await editor.row(C.id).getAttribute('aria-selected')).toBe('true');
    expect(await editor.row(B.id).getAttribute('aria-selected')).toBe('false');
    // A click on empty space clears it.
    await editor.click(620, 340);
    expect(await editor.row(A.id).getAttribute('aria-selected')).toBe('false');
    expect(await truePositive.isDisabled()).toBe(true);
  });

  it('moves B by an edge and resizes C by a corner; both persist (PATCH) and survive a reload', async () => {
    const page = session.page();
    const patched = (id: number) =>
      page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().endsWith(`/detections/${id}/`));
    // Top edge of B, away from its corners: translate by (+30, +20).
    let done = patched(B.id);
    await editor.drag([380, 200], [410, 220]);
    expect((await done).status()).toBe(200);
    // Bottom-right corner of C (570, 100) to (590, 120): only that vertex moves.
    done = patched(C.id);
    await editor.drag([570, 100], [590, 120]);
    expect((await done).status()).toBe(200);

    const byId = new Map((await detectionsInWindow(api, videoId)).map((d) => [d.id, d]));
    expect(byId.get(B.id)!.coordinates[0].points).toEqual(box(330, 220, 160, 80));
    expect(byId.get(C.id)!.coordinates[0].points).toEqual([450, 40, 570, 40, 590, 120, 450, 100]);

    // After a reload the overlay has the new geometry: B's new top edge is grabbable, its old one is not.
    await editor.open(videoId, 2000);
    await editor.expectListed([A.id, B.id, C.id, E.id]);
    expect(await editor.cursorAt(410, 220)).toBe('move');
    expect(await editor.cursorAt(380, 175)).toBe('default');
    expect(await editor.cursorAt(590, 120)).toBe('pointer');
  });

  it('puts a detection back when the server refuses the move', async () => {
    const page = session.page();
    const isPatch = (url: URL) => url.pathname === `/api/videos/detections/${A.id}/`;
    await page.route(isPatch, (route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({
            status: 400,
            contentType: 'application/json',
            body: JSON.stringify({ detail: 'coordinates: outside the video.' }),
          })
        : route.continue(),
    );
    // A's bottom edge (40..160 x 40..120) down by 30.
    await editor.drag([100, 120], [100, 150]);
    await expectStatus(page, 'Bad Request: coordinates: outside the video.');
    await page.unroute(isPatch);
    expect(await editor.cursorAt(100, 120)).toBe('move');
    expect(await editor.cursorAt(100, 150)).toBe('default');
    const a = (await detectionsInWindow(api, videoId)).find((d) => d.id === A.id)!;
    expect(a.coordinates[0].points).toEqual(box(40, 40, 120, 80));
  });

  it('reports a true positive, a false positive and a delete with their messages', async () => {
    const page = session.page();
    const toolbar = editor.detections;
    await editor.row(A.id).click();
    await toolbar.getByRole('button', { name: 'True Positive' }).click();
    await expectStatus(page, 'Reported True positive to the provider.');
    await editor.expectListed([A.id, B.id, C.id, E.id]);
    await editor.row(A.id).click();

    await editor.row(C.id).click();
    await toolbar.getByRole('button', { name: 'False Positive' }).click();
    await expectStatus(page, 'Reported False Positive to the provider and deleted the detection.');
    await editor.expectListed([A.id, B.id, E.id]);

    await editor.row(E.id).click();
    await toolbar.getByRole('button', { name: 'Delete' }).click();
    await expectStatus(page, 'Successfully deleted the detection');
    await editor.expectListed([A.id, B.id]);

    const listed = (await detectionsInWindow(api, videoId)).map((d) => d.id);
    expect(listed).toContain(A.id);
    expect(listed).not.toContain(C.id); // false positives are no longer listed
    expect(listed).not.toContain(E.id);
    const a = (await detectionsInWindow(api, videoId)).find((d) => d.id === A.id)!;
    // A is hand-drawn (the API creates those only): a true positive keeps it MANUAL, and records who said so.
    expect(a.review).toBe('MANUAL');
    expect(a.reviewed_by).toBe(inject('username'));
  });

  it('changes the placement of the selected detection through the toolbar menu', async () => {
    const page = session.page();
    await editor.row(B.id).click();
    await editor.detections.getByRole('button', { name: 'Change placement' }).click();
    await page.getByRole('menuitem', { name: `Score bug ${tag}` }).click();
    await expectStatus(page, 'Successfully updated selected detection');
    expect(await editor.row(B.id).textContent()).toContain(`Score bug ${tag}`);
    const b = (await detectionsInWindow(api, videoId)).find((d) => d.id === B.id)!;
    expect(b.placement.id).toBe(placements[2].id);
  });

  it('changes the placement for all detections, with the required-placement warning', async () => {
    const page = session.page();
    await page.getByRole('button', { name: 'Change placement for all detections' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change placement for all detections' });
    await dialog.getByRole('button', { name: 'Change' }).click();
    await expectStatus(page, 'New Placement is required!');
    // Only Nike's detections (B and D), whatever their placement.
    await dialog.getByRole('combobox', { name: 'Brands' }).click();
    await page.getByRole('option', { name: `Nike ${tag}` }).click();
    await dialog.getByRole('combobox', { name: 'New placement' }).click();
    await page.getByRole('option', { name: `LED board ${tag}` }).click();
    await dialog.getByRole('button', { name: 'Change' }).click();
    await expectStatus(page, 'Changed the placement of 2 detections.');
    await dialog.waitFor({ state: 'detached' });
    // The editor reloads its detections.
    await editor.expectListed([A.id, B.id]);
    await page.waitForFunction(
      ([sel, text]) => document.querySelector(sel)?.textContent?.includes(text) ?? false,
      ['table[aria-label="Active detections"] tbody', `LED board ${tag}`] as const,
    );
    const all = await detectionsInWindow(api, videoId);
    expect(all.find((d) => d.id === B.id)!.placement.id).toBe(placements[1].id);
    expect(all.find((d) => d.id === D.id)!.placement.id).toBe(placements[1].id);
    expect(all.find((d) => d.id === A.id)!.placement.id).toBe(placements[0].id);
  });

  it('exports the Excel report of the video', async () => {
    const page = session.page();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export Excel report' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`${videoName}.xlsx`);
    const bytes = await file.createReadStream().then(
      (stream) =>
        new Promise<Buffer>((resolve, reject) => {
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => resolve(Buffer.concat(chunks)));
          stream.on('error', reject);
        }),
    );
    // An xlsx file is a zip archive.
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
  });
});
