import { beforeAll, describe, expect, it } from 'vitest';
import {
  API,
  type Brand,
  type Detection,
  type Placement,
  type Project,
  type Video,
} from '@logo-review/contract';
import type { ApiClient } from './support/api-client.ts';
import { uniqueName } from './support/browser.ts';
import { expectStatus, loginApi, useSignedInPage, waitFor } from './support/session.ts';
import { box, seedDetections, seedEditorSetup, still } from './editor-seed.ts';
import { detectionsInWindow, drawnAlong, EditorPageObject } from './editor-page-objects.ts';

const session = useSignedInPage();

/** Issue 17, item 1: the editor's spec fixes (draft extension, why Finish is disabled, the header's case). */
describe('editor: spec fixes of the review loop', () => {
  const tag = uniqueName('r').split(' ')[1];
  const videoName = `Inter v Lecce broadcast ${tag}`;
  let api: ApiClient;
  let videoId: number;
  let brands: Brand[];
  let placements: Placement[];
  let editor: EditorPageObject;

  beforeAll(async () => {
    api = await loginApi();
    let video: Video;
    ({ brands, placements, video } = await seedEditorSetup(api, {
      brands: [`Pirelli ${tag}`],
      placements: [[`Board ${tag}`, '#1e88e5']],
      videoName,
    }));
    videoId = video.id;
    editor = new EditorPageObject(session.page());
    await editor.open(videoId, 1000);
  });

  it("the header keeps the video name's case", async () => {
    const title = session.page().getByTestId('page-title');
    // innerText is the rendered text, after any CSS text-transform.
    expect(await title.innerText()).toBe(`Editor: ${videoName}`);
  });

  it('a draft that is not selected still extends with playback, and Finish says why it is disabled', async () => {
    const page = session.page();
    const finish = editor.button('Finish selected new detections');
    const reason = page.getByTestId('finish-blocked-reason');
    await editor.drawDraft([
      [200, 100],
      [320, 100],
      [320, 180],
      [200, 180],
    ]);
    await page.getByRole('img', { name: 'Detection overlay' }).waitFor();
    const row = page.getByRole('table', { name: 'New detections' }).getByRole('row').nth(1);
    expect(await row.getAttribute('aria-selected')).toBe('true');
    expect(await reason.innerText()).toBe('Set a brand for new detection #1.');
    // The button names its reason for assistive technology too.
    expect(await finish.getAttribute('aria-describedby')).toBe('finish-blocked-reason');

    // Deselect it, then move the time: it extends anyway (spec section 4).
    await row.click();
    expect(await row.getAttribute('aria-selected')).toBe('false');
    expect(await reason.innerText()).toBe('Select a new detection to finish it.');
    for (let i = 0; i < 5; i++) await editor.button('Next frame').click();
    await editor.expectTime(/^00:00:01:05 /);

    // Select it again and complete it: Finish is enabled at once, without moving the time again.
    await row.click();
    await editor.newDetections.getByRole('button', { name: 'Set Brand' }).click();
    await page.getByRole('menuitem', { name: `Pirelli ${tag}` }).click();
    expect(await reason.innerText()).toBe('Set a placement for new detection #1.');
    await editor.newDetections.getByRole('button', { name: 'Set placement' }).click();
    await page.getByRole('menuitem', { name: `Board ${tag}` }).click();
    await reason.waitFor({ state: 'detached' });
    expect(await finish.isEnabled()).toBe(true);

    await finish.click();
    await expectStatus(page, 'Uploaded 1 new detection.');
    const created = (await detectionsInWindow(api, videoId)).find((d) => d.brand === brands[0].id)!;
    expect(created.placement.id).toBe(placements[0].id);
    expect(created.time_begin).toBe(1000);
    expect(created.time_end).toBe(1200);
  });

  it('a complete draft drawn at one instant is blocked for want of a duration', async () => {
    const page = session.page();
    await editor.drawDraft([
      [400, 200],
      [480, 200],
      [480, 260],
      [400, 260],
    ]);
    await page.getByRole('img', { name: 'Detection overlay' }).waitFor();
    await editor.newDetections.getByRole('button', { name: 'Set Brand' }).click();
    await page.getByRole('menuitem', { name: `Pirelli ${tag}` }).click();
    await editor.newDetections.getByRole('button', { name: 'Set placement' }).click();
    await page.getByRole('menuitem', { name: `Board ${tag}` }).click();
    expect(await page.getByTestId('finish-blocked-reason').innerText()).toBe(
      'New detection #1 has no duration yet: move the time to extend it.',
    );
    expect(await editor.button('Finish selected new detections').isDisabled()).toBe(true);
  });
});

/** Issue 17, item 1: the video's project hides its hidden brands and placements, as its report does. */
describe("editor: the project's hidden brands and placements", () => {
  const tag = uniqueName('h').split(' ')[1];
  let editor: EditorPageObject;
  let shown: Detection;
  let later: Detection;

  beforeAll(async () => {
    const api = await loginApi();
    const { brands, placements, video } = await seedEditorSetup(api, {
      brands: [`Shown ${tag}`, `Hidden ${tag}`],
      placements: [
        [`Pitch ${tag}`, '#1e88e5'],
        [`Overlay ${tag}`, '#8e24aa'],
      ],
      videoName: uniqueName('Hidden clip'),
    });
    const [visibleBrand, hiddenBrand] = brands.map((b) => b.id);
    const [visiblePlacement, hiddenPlacement] = placements.map((p) => p.id);
    [shown, , , , later] = await seedDetections(api, [
      still(video.id, visibleBrand, visiblePlacement, 0, 5000, box(20, 20, 80, 60)),
      still(video.id, hiddenBrand, visiblePlacement, 0, 5000, box(200, 100, 80, 60)),
      still(video.id, visibleBrand, hiddenPlacement, 0, 5000, box(400, 200, 80, 60)),
      // Hidden, so next detection skips it and goes on to the one at 9 s.
      still(video.id, hiddenBrand, visiblePlacement, 7000, 8000, box(20, 20, 80, 60)),
      still(video.id, visibleBrand, visiblePlacement, 9000, 9500, box(20, 20, 80, 60)),
    ]);
    const projects = await api.call<Project[]>('POST', API.projects, {
      name: `Hiding ${tag}`,
      description: '',
      filtered_brands: [hiddenBrand],
      filtered_placements: [hiddenPlacement],
    });
    const project = projects.find((p) => p.name === `Hiding ${tag}`)!;
    await api.call('PUT', API.videoCreate, {
      id: video.id,
      name: video.name,
      folder: null,
      project: project.id,
    });
    editor = new EditorPageObject(session.page());
    await editor.open(video.id, 1000);
  });

  it('lists only the detections the project shows', async () => {
    await editor.expectListed([shown.id]);
  });

  // It failed one time in two or three in runs of several e2e files (the click on the shown box's edge
  // selected nothing); the cause was not reproduced here. It now waits for what the click depends on: the
  // shown box drawn where it clicks, and the overlay itself under the pointer (editor.click: the status
  // snackbar or a closing menu can cover the canvas for a moment).
  it('a hidden box on the canvas cannot be selected', async () => {
    const page = session.page();
    // The shown box's top edge is drawn; the hidden brand's is not.
    await waitFor(async () => (await drawnAlong(page, 40, 80, 20)) > 0.9, "the shown box's top edge drawn");
    expect(await drawnAlong(page, 220, 260, 100)).toBe(0);
    await editor.click(240, 102); // the top edge of the hidden brand's box
    expect(await editor.row(shown.id).getAttribute('aria-selected')).not.toBe('true');
    await editor.click(60, 20); // the top edge of the shown one
    await editor.row(shown.id).and(session.page().locator('[aria-selected="true"]')).waitFor();
  });

  it('next detection skips a hidden one', async () => {
    await editor.button('Next detection').click();
    await editor.expectTime(/^00:00:09:00 /);
    await editor.expectListed([later.id]);
  });
});
