import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { API, type Brand } from '@logo-review/contract';
import { launchBrowser, loginThroughUi, newPage, uniqueName } from './support/browser.ts';
import { testLogo } from './support/fixtures.ts';
import { loginApi, openSection } from './support/session.ts';
import { editorTestVideo, uploadVideo } from './editor-seed.ts';
import { EditorPageObject } from './editor-page-objects.ts';

const baseURL = inject('baseURL');
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** Every CSP violation the pages reported, as "directive: blocked URI" (from events and the console). */
const violations: string[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  ({ context, page } = await newPage(browser, baseURL));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const w = window as unknown as { __csp?: string[] };
      (w.__csp ??= []).push(`${e.violatedDirective}: ${e.blockedURI}`);
    });
  });
  page.on('console', (m) => {
    if (/Content[- ]Security[- ]Policy/i.test(m.text())) violations.push(`console: ${m.text()}`);
  });
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

/** The violations the current page has reported so far (the list lives in the page). */
async function collect(where: string): Promise<void> {
  const list = await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []);
  violations.push(...list.map((v) => `${where}: ${v}`));
  await page.evaluate(() => ((window as unknown as { __csp?: string[] }).__csp = []));
}

describe('security headers in the browser', () => {
  it('the page, its script and the API carry the CSP, frame and referrer headers', async () => {
    const res = await page.goto('/login');
    const h = res!.headers();
    expect(h['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(h['content-security-policy']).toContain("script-src 'self'");
    expect(h['x-frame-options']).toBe('DENY');
    expect(h['referrer-policy']).toBe('same-origin');
    expect(h['x-content-type-options']).toBe('nosniff');
    const script = await page.locator('script[src]').first().getAttribute('src');
    expect(script).toMatch(/^\/assets\//);
    const asset = await context.request.get(script!);
    expect(asset.status()).toBe(200);
    expect(asset.headers()['x-content-type-options']).toBe('nosniff');
    expect(asset.headers()['content-security-policy']).toContain("default-src 'self'");
    const api = await context.request.get('/api/brands/');
    expect(api.status()).toBe(401);
    expect(api.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(api.headers()['referrer-policy']).toBe('same-origin');
  });

  it('every page of the app, the editor playing a video and the API docs load with no CSP violation', async () => {
    const api = await loginApi();
    // a brand with a logo (images), and a processed video for the editor and a verification render
    const form = new FormData();
    form.append('name', uniqueName('CSP brand'));
    form.append('example_logos', new Blob([readFileSync(testLogo('csp.png', 'blue'))]), 'csp.png');
    await api.call<Brand>('POST', API.brandCreate, form);
    const video = await uploadVideo(api, editorTestVideo(4), uniqueName('CSP clip'));

    await loginThroughUi(page, inject('username'), inject('password'));
    await collect('login and dashboard');
    for (const section of ['Brands', 'Placements', 'Videos', 'Verification', 'Projects', 'Tags']) {
      await openSection(page, section);
      await page.waitForLoadState('networkidle');
      await collect(section);
    }
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await page.getByRole('dialog').waitFor();
    await collect('profile dialog');
    await page.keyboard.press('Escape');

    const editor = new EditorPageObject(page);
    await editor.open(video.id);
    const playing = await page.evaluate(async () => {
      const v = document.querySelector('video')!;
      v.muted = true;
      await v.play();
      await new Promise((r) => setTimeout(r, 500));
      return v.currentTime > 0 && v.readyState >= 2;
    });
    expect(playing).toBe(true);
    await collect('editor');

    await page.goto('/api/docs/');
    await page.getByText('Logo review API').first().waitFor();
    await collect('API docs');

    expect(violations).toEqual([]);
  });
});
