import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, inject } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ApiClient } from './api-client.ts';
import { launchBrowser, loginThroughUi, newPage } from './browser.ts';

/**
 * One browser and one signed-in page per test file, on the server the global setup started.
 * Returns getters because the values exist only once beforeAll ran.
 */
export function useSignedInPage(viewport?: { width: number; height: number }) {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    browser = await launchBrowser();
    ({ context, page } = await newPage(browser, inject('baseURL'), viewport));
    await loginThroughUi(page, inject('username'), inject('password'));
  });
  // A failing test leaves a screenshot behind for whoever reads the log.
  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail' || !page) return;
    const dir = path.join(tmpdir(), 'logo-review-e2e-failures');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${ctx.task.name.replace(/[^a-z0-9]+/gi, '-')}.png`);
    await page.screenshot({ path: file }).catch(() => undefined);
    console.log(`screenshot of the failure: ${file}`);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });
  return {
    page: () => page,
    context: () => context,
    browser: () => browser,
  };
}

/** Waits for the status snackbar to show this exact text. */
export async function expectStatus(page: Page, text: string): Promise<void> {
  await page.getByRole('alert').filter({ hasText: text }).first().waitFor();
}

/** Opens a section through the side navigation. */
export async function openSection(page: Page, label: string): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: label, exact: true })
    .click();
  await page.getByRole('heading', { level: 1, name: label.toLowerCase(), exact: true }).waitFor();
}

/** An API client signed in as the test user on the server the global setup started. */
export function loginApi(): Promise<ApiClient> {
  return ApiClient.login(inject('baseURL'), inject('username'), inject('password'));
}

/** Polls `fn` every 50 ms until it holds; throws naming `what` after `timeout` ms. */
export async function waitFor(fn: () => Promise<boolean>, what: string, timeout = 8000): Promise<void> {
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    if (await fn()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}
