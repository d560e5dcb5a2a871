import { beforeAll, describe, expect, it } from 'vitest';
import type { Detection } from '@logo-review/contract';
import { uniqueName } from './support/browser.ts';
import { expectStatus, loginApi, useSignedInPage } from './support/session.ts';
import { box, seedDetections, seedEditorSetup, still } from './editor-seed.ts';
import { EditorPageObject } from './editor-page-objects.ts';

const session = useSignedInPage();

/** Every hotkey, the play modes, the progress bar and the local storage keys. */
describe('editor: hotkeys, playback and storage', () => {
  const tag = uniqueName('h').split(' ')[1];
  let videoId: number;
  let A: Detection, C: Detection, B: Detection;
  let editor: EditorPageObject;
  const key = (k: string) => session.page().keyboard.press(k);
  const speed = () => session.page().getByRole('status', { name: 'Playback speed' }).textContent();

  beforeAll(async () => {
    const api = await loginApi();
    const { brands, placements, video } = await seedEditorSetup(api, {
      brands: [`Kappa ${tag}`, `Lotto ${tag}`],
      placements: [[`Board ${tag}`, '#fb8c00']],
      videoName: uniqueName('Hotkey clip'),
    });
    const [placement] = placements;
    videoId = video.id;
    [A, C, B] = await seedDetections(api, [
      still(videoId, brands[0].id, placement.id, 1000, 2000, box(40, 40, 100, 60)),
      still(videoId, brands[1].id, placement.id, 1000, 2000, box(300, 200, 100, 60)),
      still(videoId, brands[0].id, placement.id, 4000, 5000, box(200, 100, 100, 60)),
    ]);
    editor = new EditorPageObject(session.page());
    await session.page().evaluate(() => localStorage.removeItem('PLAY_MODE'));
    await editor.open(videoId, 0);
  });

  it('arrows step a frame, Ctrl+arrows a second', async () => {
    await key('ArrowRight');
    await editor.expectTime('00:00:00:01 / 00:00:10:00');
    await key('ArrowLeft');
    await editor.expectTime('00:00:00:00 / 00:00:10:00');
    await key('Control+ArrowRight');
    await editor.expectTime('00:00:01:00 / 00:00:10:00');
    await editor.expectListed([A.id, C.id]);
    await key('Control+ArrowLeft');
    await editor.expectTime('00:00:00:00 / 00:00:10:00');
    await editor.expectListed([]);
  });

  it('n and b jump to the next and previous detection, with the two alerts', async () => {
    const page = session.page();
    await key('n');
    await editor.expectTime('00:00:01:00 / 00:00:10:00');
    await key('n');
    await editor.expectTime('00:00:04:00 / 00:00:10:00');
    await editor.expectListed([B.id]);
    await key('n');
    await expectStatus(page, 'Cannot find next detection');
    await key('b');
    await editor.expectTime('00:00:01:00 / 00:00:10:00');
    await key('b');
    await expectStatus(page, 'Cannot find previous detection');
    await editor.expectTime('00:00:01:00 / 00:00:10:00');
  });

  it('+ and - change the speed in steps of 0.5 within 0..6', async () => {
    expect(await speed()).toBe('1x');
    await key('+');
    expect(await speed()).toBe('1.5x');
    await key('-');
    await key('-');
    expect(await speed()).toBe('0.5x');
    await key('-');
    await key('-');
    expect(await speed()).toBe('0x');
    for (let i = 0; i < 14; i++) await key('+');
    expect(await speed()).toBe('6x');
    for (let i = 0; i < 10; i++) await key('-');
    expect(await speed()).toBe('1x');
  });

  it('f opens the filters, v shows and hides filtered detections (greyed and disabled)', async () => {
    const page = session.page();
    await editor.expectListed([A.id, C.id]);
    await key('f');
    const dialog = page.getByRole('dialog', { name: 'Filters' });
    await dialog.getByRole('combobox', { name: 'Brands' }).click();
    await page.getByRole('option', { name: `Kappa ${tag}` }).click();
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await dialog.waitFor({ state: 'detached' });
    await editor.expectListed([A.id]);
    await key('v');
    await editor.expectListed([A.id, C.id]);
    expect(await editor.row(C.id).getAttribute('aria-disabled')).toBe('true');
    // A filtered row is not selectable (Playwright refuses a disabled element unless forced).
    await editor.row(C.id).click({ force: true });
    expect(await editor.row(C.id).getAttribute('aria-selected')).toBe('false');
    expect(
      await page.getByRole('button', { name: 'Show filtered detections' }).getAttribute('aria-pressed'),
    ).toBe('true');
    await key('v');
    await editor.expectListed([A.id]);
    // Clear the filter again.
    await page.getByRole('button', { name: 'Filters' }).click();
    await dialog.getByRole('button', { name: 'Clear' }).click();
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await editor.expectListed([A.id, C.id]);
  });

  it('m toggles the play mode (SECONDS by default), stored as PLAY_MODE', async () => {
    const page = session.page();
    await page.getByRole('button', { name: 'Play mode SECONDS' }).waitFor();
    await key('m');
    await page.getByRole('button', { name: 'Play mode NORMAL' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('PLAY_MODE'))).toBe('NORMAL');
    await key('m');
    await page.getByRole('button', { name: 'Play mode SECONDS' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('PLAY_MODE'))).toBe('SECONDS');
  });

  it('p plays in SECONDS mode one whole second per second, and pauses', async () => {
    const page = session.page();
    await editor.expectTime('00:00:01:00 / 00:00:10:00');
    await key('p');
    await editor.button('Pause').waitFor();
    await editor.expectTime('00:00:02:00 / 00:00:10:00', 3000);
    await editor.expectTime('00:00:03:00 / 00:00:10:00', 3000);
    await key('p');
    await editor.button('Play').waitFor();
    const stopped = await editor.time.textContent();
    await page.waitForTimeout(1300);
    expect(await editor.time.textContent()).toBe(stopped);
  });

  it('p plays the video continuously in NORMAL mode', async () => {
    await key('m');
    await key('Control+ArrowLeft');
    await key('p');
    await editor.button('Pause').waitFor();
    // Continuous: frames between whole seconds show up while it plays.
    await editor.expectTime(/^00:00:0\d:(0[1-9]|1\d|2[0-4]) \//, 8000);
    await key('p');
    await editor.button('Play').waitFor();
    await key('m');
  });

  it('hotkeys do nothing while a text field has focus', async () => {
    const page = session.page();
    const before = await editor.time.textContent();
    await page.evaluate(() => {
      const input = document.createElement('input');
      input.setAttribute('aria-label', 'Scratch field');
      document.body.appendChild(input);
      input.focus();
    });
    for (const k of ['ArrowRight', 'Control+ArrowRight', 'n', 'p', 'm', '+', 'v', 'f']) await key(k);
    expect(await page.getByRole('textbox', { name: 'Scratch field' }).inputValue()).toBe('npm+vf');
    expect(await editor.time.textContent()).toBe(before);
    expect(await speed()).toBe('1x');
    await page.getByRole('button', { name: 'Play mode SECONDS' }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.evaluate(() => document.querySelector('input[aria-label="Scratch field"]')!.remove());
  });

  it('the progress bar seeks to the clicked fraction in whole seconds and previews the time', async () => {
    const page = session.page();
    const bar = page.getByRole('slider', { name: 'Video progress' });
    const b = (await bar.boundingBox())!;
    await page.mouse.click(b.x + b.width * 0.47, b.y + b.height / 2);
    await editor.expectTime('00:00:05:00 / 00:00:10:00');
    await page.mouse.move(b.x + b.width * 0.25, b.y + b.height / 2);
    const preview = page.getByRole('tooltip', { name: 'Preview' });
    await preview.getByText(/^00:00:02:1\d$/).waitFor();
    const thumb = preview.getByTestId('preview-thumbnail');
    const style = await thumb.evaluate((el) => ({
      w: el.clientWidth,
      bg: getComputedStyle(el).backgroundImage,
    }));
    expect(style.w).toBe(160);
    expect(style.bg).toContain('/media/thumbnails/');
    // The sprite is a real image the server serves.
    const url = style.bg.replace(/^url\("?/, '').replace(/"?\)$/, '');
    const res = await page.request.get(url);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toContain('image/jpeg');
    await page.mouse.move(b.x, b.y - 200);
  });

  it('TIME is saved every 5 s and restored; an invalid PLAY_MODE falls back to SECONDS', async () => {
    const page = session.page();
    await editor.expectTime('00:00:05:00 / 00:00:10:00');
    await page.waitForFunction(() => localStorage.getItem('TIME') === '5000', undefined, { timeout: 7000 });
    await page.evaluate(() => localStorage.setItem('PLAY_MODE', 'FAST'));
    await page.reload();
    await editor.overlay.waitFor();
    await editor.expectTime('00:00:05:00 / 00:00:10:00');
    await page.getByRole('button', { name: 'Play mode SECONDS' }).waitFor();
  });
});
