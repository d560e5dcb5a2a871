import { readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { API, type Video } from '@logo-review/contract';
import { uniqueName } from './support/browser.ts';
import { testVideo } from './support/fixtures.ts';
import { expectStatus, loginApi, openSection, useSignedInPage } from './support/session.ts';

const session = useSignedInPage();

describe('verification videos', () => {
  const videoName = uniqueName('Verifsource');
  const name = uniqueName('Check');

  it('creates one for a chosen video', { timeout: 200_000 }, async () => {
    const api = await loginApi();
    const form = new FormData();
    form.append('name', videoName);
    form.append('folder', '');
    form.append('videoFile', new Blob([readFileSync(testVideo())], { type: 'video/mp4' }), 'testsrc.mp4');
    const video = await api.call<Video>('POST', API.videoCreate, form);
    // Only an analysed video can be verified.
    await expect
      .poll(async () => (await api.call<Video>('GET', API.video(video.id))).status, {
        timeout: 180_000,
        interval: 1000,
      })
      .toBe('OK');

    const page = session.page();
    await openSection(page, 'Verification');
    await expectStatus(page, 'Retrieved verification videos.');
    await page.getByRole('button', { name: 'Add verification video' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create new verification video.' });
    await dialog.getByLabel(/^Name/).fill(name);
    expect(await dialog.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await dialog.getByRole('combobox', { name: /^Video/ }).click();
    await page.getByRole('option', { name: videoName }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectStatus(page, `Created new verification video ${name}.`);
    const card = page.getByRole('article', { name });
    await card.getByText(`Video name: ${videoName}`).waitFor();
    await card.getByText(/^ID: \d+$/).waitFor();
    await card.getByText(/^Status: /).waitFor();
  });

  it('shows the URL from the current host once rendered', { timeout: 200_000 }, async () => {
    const page = session.page();
    const card = page.getByRole('article', { name });
    // The list polls while the server renders.
    const link = card.getByRole('link', { name: new RegExp(`^${inject('baseURL')}/`) });
    await link.waitFor({ timeout: 180_000 });
    await card.getByText('Status: FINISHED').waitFor();
    expect(await card.getByRole('link', { name: `Open ${name} in a new tab` }).getAttribute('href')).toBe(
      await link.getAttribute('href'),
    );
  });

  it('searches and edits the name (the video is read-only)', async () => {
    const page = session.page();
    await page.getByRole('searchbox', { name: 'Search verification videos' }).fill(name.toUpperCase());
    await page.getByRole('article', { name }).waitFor();
    await page.getByRole('button', { name: `Edit ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: `Edit verification video ${name}` });
    expect(await dialog.getByRole('combobox', { name: /^Video/ }).getAttribute('aria-disabled')).toBe('true');
    await dialog.getByLabel(/^Name/).fill(`${name} 2`);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectStatus(page, 'Updated verification video');
    await page.getByRole('searchbox', { name: 'Search verification videos' }).fill('');
    await page.getByRole('article', { name: `${name} 2` }).waitFor();
  });

  it('deletes', async () => {
    const page = session.page();
    await page.getByRole('button', { name: `Delete ${name} 2` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('article', { name: `${name} 2` }).waitFor({ state: 'detached' });
  });
});
