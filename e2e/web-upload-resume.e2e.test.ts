import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Request } from 'playwright-core';
import { uniqueName } from './support/browser.ts';
import { testPatternVideo } from './support/fixtures.ts';
import { expectStatus, openSection, useSignedInPage } from './support/session.ts';

const session = useSignedInPage();

describe('resumable video upload', () => {
  it('continues after a page reload from where the server stopped receiving, when the same file is chosen again', async () => {
    const page = session.page();
    const name = uniqueName('Resumed');
    // About 650 KB: at 64 KB/s a part of it has arrived when the page is reloaded.
    const file = testPatternVideo('resume-640x480-30s.mp4', { seconds: 30, size: '640x480', fps: 25 });
    const size = statSync(file).size;
    expect(size).toBeGreaterThan(500_000);

    const tus: { method: string; offset: number }[] = [];
    page.on('request', (r: Request) => {
      if (!new URL(r.url()).pathname.startsWith('/api/videos/uploads/')) return;
      tus.push({ method: r.method(), offset: Number(r.headers()['upload-offset'] ?? -1) });
    });
    const cdp = await session.context().newCDPSession(page);
    await cdp.send('Network.enable');
    const throttle = (uploadThroughput: number) =>
      cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput,
      });

    const upload = async () => {
      await openSection(page, 'Videos');
      await page.getByRole('button', { name: 'Upload video' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Add video' });
      await dialog.getByLabel('Video file').setInputFiles(file);
      await dialog.getByLabel(/^Name/).fill(name);
      await dialog.getByRole('button', { name: 'Upload' }).click();
      await expectStatus(page, `Starting to upload video ${name}`);
    };

    await throttle(64 * 1024);
    await upload();
    await expect.poll(() => tus.some((t) => t.method === 'PATCH'), { timeout: 10_000 }).toBe(true);
    await page.waitForTimeout(4000);
    // Leaving: the spec's warning is answered "leave".
    page.once('dialog', (d) => void d.accept());
    await page.reload();
    await throttle(-1);
    const firstAttempt = tus.length;

    await upload();
    await expectStatus(page, 'Successfully uploaded new video.');
    const second = tus.slice(firstAttempt);
    // No new upload: the stored one is asked how far it got, then continued from there.
    expect(second.map((t) => t.method)).toEqual(['HEAD', 'PATCH']);
    expect(second[1].offset).toBeGreaterThan(0);
    expect(second[1].offset).toBeLessThan(size);
    await page.getByRole('article', { name }).waitFor();
    expect(await page.getByRole('article', { name }).count()).toBe(1);
  });
});
