import { beforeAll, describe, expect, it } from 'vitest';
import type { Brand, Placement, Video } from '@logo-review/contract';
import type { ApiClient } from './support/api-client.ts';
import { uniqueName } from './support/browser.ts';
import { expectStatus, loginApi, useSignedInPage } from './support/session.ts';
import { seedEditorSetup } from './editor-seed.ts';
import { detectionsInWindow, EditorPageObject } from './editor-page-objects.ts';

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
