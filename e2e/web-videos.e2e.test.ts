import { describe, expect, it } from 'vitest';
import type { Dialog } from 'playwright-core';
import { API, type VideoTree } from '@logo-review/contract';
import { box, seedBrands, seedDetections, seedPlacements, still } from './editor-seed.ts';
import { uniqueName } from './support/browser.ts';
import { testVideo } from './support/fixtures.ts';
import { expectStatus, loginApi, openSection, useSignedInPage } from './support/session.ts';

const session = useSignedInPage();
const LEAVE_WARNING =
  'There are currently active uploads. If you leave, uploading will be canceled. Are you sure you want to continue?';

describe('videos', () => {
  const folder = uniqueName('Matches');
  const videoName = uniqueName('Clip');

  it('creates folders and walks them with the breadcrumb', async () => {
    const page = session.page();
    await openSection(page, 'Videos');
    await page.getByRole('button', { name: 'Create New Folder' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New Folder' });
    expect(await dialog.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await dialog.getByLabel(/^Name/).fill(folder);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: `Open folder ${folder}` }).click();
    const crumbs = page.getByRole('navigation', { name: 'Folder path' });
    await crumbs.getByText(folder).waitFor();
    await page.getByText('This folder is empty').waitFor();

    // Six levels deep: the breadcrumb collapses to at most 5 items.
    const api = await loginApi();
    let tree = await api.call<VideoTree>('GET', API.videos);
    let parent = tree.folders.find((f) => f.name === folder)!.id;
    for (let level = 1; level <= 6; level += 1) {
      tree = await api.call<VideoTree>('POST', API.folder, { name: `Level ${level}`, parent });
      const find = (list: VideoTree['folders']): number | undefined => {
        for (const f of list) {
          if (f.parent === parent && f.name === `Level ${level}`) return f.id;
          const deeper = find(f.folders);
          if (deeper) return deeper;
        }
        return undefined;
      };
      parent = find(tree.folders)!;
    }
    await page.goto(`/videos?folder=${parent}`);
    await crumbs.getByText('Level 6').waitFor();
    expect(await crumbs.getByRole('listitem').count()).toBeLessThanOrEqual(5);
    await crumbs.getByRole('button', { name: 'Show path' }).click();
    await crumbs.getByText('Level 2').waitFor();
    await crumbs.getByRole('link', { name: folder }).click();
    await page.getByRole('button', { name: 'Open folder Level 1' }).waitFor();
  });

  it('says what a non-empty folder holds and offers no Delete; deletes an empty one', async () => {
    const page = session.page();
    await page.getByRole('button', { name: 'Delete folder Level 1' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete folder Level 1?' });
    await dialog
      .getByText(
        'This folder holds 1 folder. Only an empty folder can be deleted: move or delete them first.',
      )
      .waitFor();
    expect(await dialog.getByRole('button', { name: 'Delete' }).isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    const api = await loginApi();
    const tree = await api.call<VideoTree>('GET', API.videos);
    const top = tree.folders.find((f) => f.name === folder)!;
    await api.call('POST', API.folder, { name: 'Empty one', parent: top.id });
    await page.goto(`/videos?folder=${top.id}`);
    await page.getByRole('button', { name: 'Delete folder Empty one' }).click();
    const empty = page.getByRole('dialog', { name: 'Delete folder Empty one?' });
    await empty.getByText('The empty folder is removed.').waitFor();
    await empty.getByRole('button', { name: 'Delete' }).click();
    await expectStatus(page, 'Successfully deleted folder');
    await page.getByRole('button', { name: 'Open folder Empty one' }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Open folder Level 1' }).waitFor();
  });

  it('uploads a generated video with its entry in Ongoing tasks', async () => {
    const page = session.page();
    await page.getByRole('button', { name: 'Upload video' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add video' });
    await dialog.getByLabel('Video file').setInputFiles(testVideo());
    expect(await dialog.getByLabel(/^Name/).inputValue()).toBe('testsrc');
    await dialog.getByLabel(/^Name/).fill(videoName);
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await expectStatus(page, `Starting to upload video ${videoName}`);
    await page.getByRole('button', { name: 'Ongoing tasks' }).click();
    const panel = page.getByRole('region', { name: 'Ongoing tasks' });
    await panel.getByText(videoName).waitFor();
    await panel.getByRole('progressbar', { name: `Upload progress of ${videoName}` }).waitFor();
    await expectStatus(page, 'Successfully uploaded new video.');
    await panel.getByText('Uploaded video').waitFor();
    expect(
      await panel
        .getByRole('progressbar', { name: `Upload progress of ${videoName}` })
        .getAttribute('aria-valuenow'),
    ).toBe('100');
    await panel.getByRole('button', { name: `Dismiss ${videoName}` }).click();
    await panel.getByText(videoName).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Close ongoing tasks' }).click();
    await page.getByRole('article', { name: videoName }).waitFor();
  });

  it("refuses a file that is no video: the upload fails with the server's reason, and no card appears", async () => {
    const page = session.page();
    await page.getByRole('button', { name: 'Upload video' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add video' });
    await dialog.getByLabel('Video file').setInputFiles({
      name: 'notes.mp4',
      mimeType: 'video/mp4',
      buffer: Buffer.from('just some text, definitely not a video'),
    });
    await dialog.getByLabel(/^Name/).fill('Not a video');
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /^Bad Request: videoFile: The file is not a video/ })
      .waitFor();
    await page.getByRole('button', { name: 'Ongoing tasks' }).click();
    const panel = page.getByRole('region', { name: 'Ongoing tasks' });
    await panel.getByText('Failed uploading video').waitFor();
    // percentCompleted -1: the bar shows the failure
    await panel.getByText('failed', { exact: true }).waitFor();
    await panel.getByRole('button', { name: 'Dismiss Not a video' }).click();
    await page.getByRole('button', { name: 'Close ongoing tasks' }).click();
    expect(await page.getByRole('article', { name: 'Not a video' }).count()).toBe(0);
  });

  it('shows details once processed and edits the video', { timeout: 200_000 }, async () => {
    const page = session.page();
    const card = page.getByRole('article', { name: videoName });
    // The list polls while the server analyses the video.
    await card.getByText('OK', { exact: true }).waitFor({ timeout: 180_000 });
    await card.getByRole('button', { name: `Show details of ${videoName}` }).click();
    await card.getByText('Request Hash').waitFor();
    // The expanded Duration (the poster's badge shows it too).
    await card.getByTitle('0:02').waitFor();

    await card.getByRole('button', { name: `Edit ${videoName}` }).click();
    const dialog = page.getByRole('dialog', { name: `Edit video ${videoName}` });
    await dialog.getByLabel(/^Name/).fill(`${videoName} edited`);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('article', { name: `${videoName} edited` }).waitFor();
  });

  it('shows a poster frame, the duration and the detection count on the card', async () => {
    const page = session.page();
    const name = `${videoName} edited`;
    const api = await loginApi();
    const tree = await api.call<VideoTree>('GET', API.videos);
    const video = tree.folders.find((f) => f.name === folder)!.videos.find((v) => v.name === name)!;
    expect(video.thumbnails).not.toBeNull();
    expect(video.poster_url).not.toBeNull();

    const card = page.getByRole('article', { name });
    const poster = card.getByRole('img', { name: `Frame of ${name}` });
    await poster.waitFor();
    // The frame is the signed poster (one tile of the sprite): no token in the URL, and it loads.
    await expect.poll(() => poster.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(160);
    const url = await poster.evaluate((img: HTMLImageElement) => img.currentSrc);
    const signed = new URL(url);
    expect(signed.pathname).toBe(`/media/posters/${video.id}/poster.jpg`);
    expect(signed.searchParams.get('sig')).toBeTruthy();
    expect(url).not.toMatch(/token|Bearer/i);
    const loaded = await page.evaluate(async (u) => {
      const r = await fetch(u, { credentials: 'omit' });
      return { status: r.status, type: r.headers.get('content-type') };
    }, url);
    expect(loaded).toEqual({ status: 200, type: 'image/jpeg' });

    // testsrc is 2 s long. Three hand-drawn detections later, the count is the API's.
    expect(await card.getByTestId('video-duration').textContent()).toBe('0:02');
    const [brand] = await seedBrands(api, [uniqueName('Card brand')]);
    const [placement] = await seedPlacements(api, [[uniqueName('Card placement'), '#ff0000']]);
    await seedDetections(
      api,
      [0, 500, 1000].map((t) => still(video.id, brand.id, placement.id, t, t + 400, box(10, 10, 50, 30))),
    );
    await page.reload();
    const after = await api.call<VideoTree>('GET', API.videos);
    const total = after.folders
      .find((f) => f.name === folder)!
      .videos.find((v) => v.id === video.id)!.detections_total;
    expect(total).toBe(video.detections_total + 3);
    expect(await card.getByTestId('detection-count').textContent()).toBe(
      `${total} ${total === 1 ? 'detection' : 'detections'}`,
    );
    await card.getByTestId('reviewed-share').waitFor();
  });

  it('searches videos in every folder and shows their folder path', async () => {
    const page = session.page();
    const name = `${videoName} edited`;
    const back = page.url();
    const crumbs = page.getByRole('navigation', { name: 'Folder path' });
    // From a subfolder the video is not in, case-insensitively.
    await page.getByRole('button', { name: 'Open folder Level 1' }).click();
    await crumbs.getByText('Level 1').waitFor();
    const search = page.getByRole('searchbox', { name: 'Search videos' });
    await search.fill('EDITED');
    const card = page.getByRole('article', { name });
    await card.waitFor();
    expect(await card.getByTestId('video-path').textContent()).toBe(`/${folder}`);
    expect(await page.getByRole('article').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Open folder Level 2' }).count()).toBe(0);
    await search.fill('nothing-like-this');
    await page.getByText('Nothing matches your search').waitFor();

    // An empty search is the folder again: its folder cards, its breadcrumb, no paths.
    await search.fill('');
    await page.getByRole('button', { name: 'Open folder Level 2' }).waitFor();
    await crumbs.getByText('Level 1').waitFor();
    expect(await page.getByTestId('video-path').count()).toBe(0);
    expect(await page.getByRole('article', { name }).count()).toBe(0);

    // The result opens the editor like any OK card.
    await search.fill('edited');
    await page.getByRole('button', { name: `Open ${name} in the editor` }).click();
    await page.waitForURL('**/editor');
    await page.getByRole('heading', { level: 1, name: `Editor: ${name}` }).waitFor();
    await page.goto(back);
    await page.getByRole('article', { name }).waitFor();
  });

  it('exports the Excel report through the wizard', async () => {
    const page = session.page();
    const name = `${videoName} edited`;
    await page.getByRole('button', { name: `Export detections of ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: `Export detections of ${name}` });
    expect(await dialog.getByRole('radio', { name: 'Default' }).isChecked()).toBe(true);
    await dialog.getByRole('radio', { name: 'With tags' }).check();
    expect(await dialog.getByRole('button', { name: 'Export' }).isDisabled()).toBe(true);
    await dialog.getByRole('radio', { name: 'Without placement' }).check();
    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Export' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`${name}.xlsx`);
    const stream = await file.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    // An .xlsx file is a zip archive.
    expect(Buffer.concat(chunks).subarray(0, 2).toString()).toBe('PK');
  });

  it('creates a verification video from the card', async () => {
    const page = session.page();
    const name = `${videoName} edited`;
    await page.getByRole('button', { name: `Create verification video of ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Create new verification video.' });
    await dialog.getByLabel(/^Name/).fill(`${name} check`);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectStatus(page, `Created new verification video ${name} check.`);
  });

  it('opens the editor from an OK card and remembers the video', async () => {
    const page = session.page();
    const name = `${videoName} edited`;
    const url = page.url();
    await page.getByRole('button', { name: `Open ${name} in the editor` }).click();
    await page.waitForURL('**/editor');
    await page.getByRole('heading', { level: 1, name: `Editor: ${name}` }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('VIDEO'))).toMatch(/^\d+$/);
    await page.goto(url);
  });

  it('warns before leaving the page during an upload', async () => {
    const page = session.page();
    // Slow the upload down so it is still running while we try to leave.
    const cdp = await session.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 4 * 1024,
    });
    await page.getByRole('button', { name: 'Upload video' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add video' });
    // Into the folder shown (the page has just been loaded: the button waits for the folder tree).
    expect(await dialog.getByRole('combobox', { name: /^Folder/ }).textContent()).toBe(`/${folder}`);
    // About 100 KB: at 4 KB/s it is still uploading for the whole check.
    await dialog.getByLabel('Video file').setInputFiles(testVideo(8, 'testsrc-8s.mp4'));
    await dialog.getByLabel(/^Name/).fill(`${videoName} slow`);
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await expectStatus(page, `Starting to upload video ${videoName} slow`);

    // Logging out asks first, with the spec's text. A click that opens a dialog only returns once
    // the dialog is answered, so the answer is given from the handler.
    const asked: Array<{ type: string; message: string }> = [];
    const answer = (d: Dialog) => {
      asked.push({ type: d.type(), message: d.message() });
      void d.dismiss();
    };
    page.on('dialog', answer);
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await expect.poll(() => asked.length).toBe(1);
    expect(asked[0]).toEqual({ type: 'confirm', message: LEAVE_WARNING });
    expect(new URL(page.url()).pathname).toBe('/videos');

    // Reloading asks through the browser's beforeunload prompt; staying keeps the upload.
    await page.reload({ timeout: 3000 }).catch(() => undefined);
    await expect.poll(() => asked.length).toBe(2);
    expect(asked[1].type).toBe('beforeunload');
    page.off('dialog', answer);
    await page.getByRole('button', { name: 'Ongoing tasks' }).click();
    await page.getByRole('region', { name: 'Ongoing tasks' }).getByText('Uploading video').waitFor();
    await page.getByRole('button', { name: 'Close ongoing tasks' }).click();
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await expectStatus(page, 'Successfully uploaded new video.');
  });

  it('deletes a video and an empty folder', async () => {
    const page = session.page();
    const name = `${videoName} slow`;
    await page.getByRole('button', { name: `Delete ${name}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expectStatus(page, 'Successfully deleted video');
    await page.getByRole('article', { name }).waitFor({ state: 'detached' });

    await page.goto('/videos');
    await page.getByRole('button', { name: 'Create New Folder' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New Folder' });
    await dialog.getByLabel(/^Name/).fill(`${folder} empty`);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: `Delete folder ${folder} empty` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expectStatus(page, 'Successfully deleted folder');
    await page.getByRole('article', { name: `Folder ${folder} empty` }).waitFor({ state: 'detached' });
  });
});
