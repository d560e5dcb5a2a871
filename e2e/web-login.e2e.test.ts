import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, loginThroughUi, newPage } from './support/browser.ts';
import { openSection } from './support/session.ts';
import { startStaticApp } from './support/static-app-server.ts';

const baseURL = inject('baseURL');
const username = inject('username');
const password = inject('password');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('login', () => {
  it('redirects to /login without a token', async () => {
    const { context, page } = await newPage(browser, baseURL);
    await page.goto('/brands');
    await page.waitForURL('**/login');
    await expect(page.getByRole('button', { name: 'Log in' }).isDisabled()).resolves.toBe(true);
    await context.close();
  });

  it('toggles the password and rejects a wrong password', async () => {
    const { context, page } = await newPage(browser, baseURL);
    await page.goto('/login');
    await page.getByLabel(/^Username/).fill(username);
    const field = page.getByLabel(/^Password/);
    await field.fill('not-the-password');
    expect(await field.getAttribute('type')).toBe('password');
    await page.getByRole('button', { name: 'Show password' }).click();
    expect(await field.getAttribute('type')).toBe('text');
    await page.getByRole('button', { name: 'Hide password' }).click();
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Wrong username or password' }).waitFor();
    expect(page.url()).toContain('/login');
    // The error snackbar lasts 5 s.
    await page
      .getByRole('alert')
      .filter({ hasText: 'Wrong username or password' })
      .waitFor({ state: 'detached', timeout: 8000 });
    await context.close();
  });

  it('says when the server is unreachable or failing', async () => {
    for (const [mode, message] of [
      ['drop', 'Server is unreachable. Please try again later.'],
      ['fail', 'Server error occured. Please try again later.'],
    ] as const) {
      const app = await startStaticApp(mode, inject('webDist'));
      const { context, page } = await newPage(browser, app.baseURL);
      await page.goto('/login');
      await page.getByLabel(/^Username/).fill('someone');
      await page.getByLabel(/^Password/).fill('secret');
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('alert').filter({ hasText: message }).waitFor();
      await context.close();
      await app.close();
    }
  });

  it('logs in, greets, keeps /login away, edits the profile and logs out', async () => {
    const { context, page } = await newPage(browser, baseURL);
    await loginThroughUi(page, username, password);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
    await page.getByRole('banner').getByText(`Welcome ${username}`).waitFor();

    await page.goto('/login');
    await page.waitForURL((url) => url.pathname === '/');

    // Titles: the last URL segment.
    await openSection(page, 'Placements');

    // Profile: first name only, then both names.
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.getByLabel('Username').inputValue()).toBe(username);
    await dialog.getByLabel(/^Name/).fill('Ada');
    await dialog.getByLabel(/^Email/).fill('ada@example.com');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: 'Your profile has been updated.' }).waitFor();
    // The header's greeting (the profile menu shows it too, and may still be closing).
    await page.getByRole('banner').getByText('Howdy Ada!').waitFor();
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await page
      .getByRole('dialog')
      .getByLabel(/^Last Name/)
      .fill('Lovelace');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await page.getByRole('banner').getByText('Hello, Ada Lovelace!').waitFor();

    // My organization: same dialog, other view.
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menuitem', { name: 'My organization' }).click();
    const keyField = page.getByRole('dialog').getByRole('textbox', { name: 'API key' });
    const masked = await keyField.inputValue();
    expect(masked).toMatch(/^•{12}\w{4}$/);
    // Rotation: confirmed, the new key shown once with a copy button; it works, and is masked after.
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate API key' }).click();
    await page.getByRole('dialog').getByText('Scripts using the current key will stop working.').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate', exact: true }).click();
    await page
      .getByRole('dialog')
      .getByText('Copy the new key now: it is shown only this once.', { exact: false })
      .waitFor();
    const fresh = await keyField.inputValue();
    expect(fresh).toMatch(/^lr_[0-9a-f]{48}$/);
    await page.getByRole('dialog').getByRole('button', { name: 'Copy API key' }).waitFor();
    const byScript = await fetch(`${baseURL}/api/brands/`, {
      headers: { authorization: `Api-Key ${fresh}` },
    });
    expect(byScript.status).toBe(200);
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menuitem', { name: 'My organization' }).click();
    expect(await keyField.inputValue()).toBe(`••••••••••••${fresh.slice(-4)}`);
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

    // Logout clears the token and guards the routes again.
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await page.goto('/videos');
    await page.waitForURL('**/login');
    await context.close();
  });

  it('treats a 401 as logged out', async () => {
    const { context, page } = await newPage(browser, baseURL);
    await page.goto('/login');
    await page.evaluate(() => localStorage.setItem('token', 'not-a-valid-token'));
    await page.goto('/brands');
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await context.close();
  });
});
