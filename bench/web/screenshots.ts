/**
 * Takes screenshots of every screen, empty and filled, at 1280x800 and 420x800 in headless
 * Chromium. Usage: node --import tsx bench/web/screenshots.ts [outDir]
 * Starts its own server (fresh data folder) unless BASE_URL, USERNAME and PASSWORD are set.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { API, type Brand, type Placement, type Project, type VideoTree } from '@logo-review/contract';
import { ApiClient } from '../../e2e/support/api-client.ts';
import { launchBrowser, loginThroughUi, newPage } from '../../e2e/support/browser.ts';
import { buildWebPrivately } from '../../e2e/support/build-web.ts';
import { startServer, type RunningServer } from '../../e2e/support/server-process.ts';

const outDir = path.resolve(process.argv[2] ?? '/tmp/shots');
mkdirSync(outDir, { recursive: true });
const ROUTES = ['/', '/brands', '/placements', '/videos', '/verification', '/projects', '/tags', '/editor'];
const VIEWPORTS = { wide: { width: 1280, height: 800 }, narrow: { width: 420, height: 800 } };

async function shootAll(page: Page, phase: string) {
  for (const [vpName, vp] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(vp);
    for (const route of ROUTES) {
      await page.goto(route);
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(400);
      const name = route === '/' ? 'dashboard' : route.slice(1);
      await page.screenshot({ path: path.join(outDir, `${phase}-${vpName}-${name}.png`) });
    }
  }
}

/** Dialogs and panels, opened the way a user would. */
async function shootDialogs(page: Page) {
  const open: Array<[string, string, (p: Page) => Promise<void>]> = [
    ['/brands', 'brand-dialog', (p) => p.getByRole('button', { name: 'Add brand' }).first().click()],
    [
      '/brands',
      'brand-delete',
      (p) =>
        p
          .getByRole('button', { name: /^Delete / })
          .first()
          .click(),
    ],
    [
      '/brands',
      'brand-expanded',
      (p) =>
        p
          .getByRole('button', { name: /^Show logos of / })
          .first()
          .click(),
    ],
    [
      '/placements',
      'placement-dialog',
      (p) => p.getByRole('button', { name: 'Add placement' }).first().click(),
    ],
    [
      '/videos',
      'video-dialog',
      (p) =>
        p
          .getByRole('button', { name: /Upload video|Add video/ })
          .first()
          .click(),
    ],
    ['/videos', 'folder-dialog', (p) => p.getByRole('button', { name: 'Create New Folder' }).click()],
    [
      '/videos',
      'export-wizard',
      (p) =>
        p
          .getByRole('button', { name: /^Export detections of / })
          .first()
          .click(),
    ],
    [
      '/videos',
      'video-expanded',
      (p) =>
        p
          .getByRole('button', { name: /^Show details of / })
          .first()
          .click(),
    ],
    [
      '/projects',
      'project-dialog',
      (p) =>
        p
          .getByRole('button', { name: /^Edit / })
          .first()
          .click(),
    ],
    [
      '/projects',
      'project-dialog-brands',
      async (p) => {
        await p
          .getByRole('button', { name: /^Edit / })
          .first()
          .click();
        await p.getByRole('tab', { name: 'Brand' }).click();
      },
    ],
    [
      '/tags',
      'tag-dialog',
      (p) =>
        p
          .getByRole('button', { name: /^Edit / })
          .first()
          .click(),
    ],
    [
      '/verification',
      'verification-dialog',
      (p) => p.getByRole('button', { name: 'Add verification video' }).first().click(),
    ],
    [
      '/',
      'profile-dialog',
      async (p) => {
        await p.getByRole('button', { name: 'Profile menu' }).click();
        await p.getByRole('menuitem', { name: 'Profile' }).click();
      },
    ],
    [
      '/',
      'organization-dialog',
      async (p) => {
        await p.getByRole('button', { name: 'Profile menu' }).click();
        await p.getByRole('menuitem', { name: 'My organization' }).click();
      },
    ],
    ['/', 'ongoing-tasks', (p) => p.getByRole('button', { name: 'Ongoing tasks' }).click()],
    ['/', 'drawer-toggled', (p) => p.getByRole('button', { name: /navigation$/ }).click()],
  ];
  for (const [vpName, vp] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(vp);
    for (const [route, name, action] of open) {
      await page.goto(route);
      await page.waitForLoadState('networkidle');
      await action(page);
      await page.waitForTimeout(500);
      await page.screenshot({ path: path.join(outDir, `dialog-${vpName}-${name}.png`) });
    }
  }
}

async function seed(api: ApiClient) {
  const logoDir = path.resolve(import.meta.dirname, '../../../shared/data/logos/logohunter/test_brands');
  const names = ['Nike', 'Nike Football', 'Adidas', 'Addidas Originals', 'Puma', 'Lexus', 'Duff', 'Aldi'];
  for (const name of names) {
    const form = new FormData();
    form.append('name', name);
    form.append('localized_name', name.toUpperCase());
    form.append('url', `https://${name.toLowerCase().replace(/\s+/g, '')}.example`);
    const stem = name.split(' ')[0].toLowerCase();
    const file = readdirSync(logoDir).find((f) => f.startsWith(`test_${stem}`));
    // A brand without logos is a valid state to look at too.
    if (file) {
      const type = file.endsWith('.png') ? 'image/png' : 'image/jpeg';
      form.append('example_logos', new Blob([readFileSync(path.join(logoDir, file))], { type }), file);
    }
    await api.call('POST', API.brandCreate, form);
  }
  for (const [name, color] of [
    ['Shirt', '#1e88e5'],
    ['LED board', '#e53935'],
    ['Score bug', '#43a047'],
  ]) {
    await api.call<Placement[]>('POST', API.placements, { localized_name: name, color });
  }
  const brands = await api.call<Brand[]>('GET', `${API.brands}?refresh=false`);
  const placements = await api.call<Placement[]>('GET', API.placements);
  const projects = await api.call<Project[]>('POST', API.projects, {
    name: 'Serie A 2026',
    description: 'Every home match of the season.\nBoards and shirts only.',
    filtered_brands: [brands[0].id],
    filtered_placements: [],
  });
  await api.call('POST', API.projects, { name: 'LaLiga close-ups', description: '' });
  await api.call('POST', API.tags, {
    name: 'Nike shirts',
    brand: brands[0].id,
    placements: [placements[0].id],
    project: projects[0].id,
  });
  const tags = await api.call<Array<{ id: number }>>('POST', API.tags, {
    name: 'Adidas everywhere',
    brand: brands[2].id,
  });
  await api.call('PUT', API.tags, {
    id: tags[tags.length - 1].id,
    name: 'Old Adidas tag',
    brand: brands[2].id,
    archived: true,
  });
  const tree = await api.call<VideoTree>('POST', API.folder, { name: 'Matches', parent: null });
  await api.call('POST', API.folder, { name: '2026', parent: tree.folders[0].id });
  const footage = path.resolve(import.meta.dirname, '../../../shared/data/footage/big_buck_bunny.mp4');
  const video = new FormData();
  video.append('name', 'Big Buck Bunny');
  video.append('folder', '');
  video.append('videoFile', new Blob([readFileSync(footage)], { type: 'video/mp4' }), 'big_buck_bunny.mp4');
  await api.call('POST', API.videoCreate, video);
}

async function main() {
  let server: RunningServer | undefined;
  const webDist = process.env.BASE_URL ? undefined : buildWebPrivately('logo-review-shots-web-');
  const baseURL =
    process.env.BASE_URL ?? (server = await startServer({ env: { WEB_DIST: webDist! } })).baseURL;
  const username = process.env.USERNAME ?? server!.username;
  const password = process.env.PASSWORD ?? server!.password;
  const browser = await launchBrowser();
  try {
    const { page } = await newPage(browser, baseURL);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    await page.screenshot({ path: path.join(outDir, 'login-wide.png') });
    await page.setViewportSize(VIEWPORTS.narrow);
    await page.screenshot({ path: path.join(outDir, 'login-narrow.png') });
    await page.setViewportSize(VIEWPORTS.wide);
    await loginThroughUi(page, username, password);
    if (!process.env.SKIP_EMPTY) await shootAll(page, 'empty');
    await seed(await ApiClient.login(baseURL, username, password));
    await page.waitForTimeout(8000);
    await shootAll(page, 'filled');
    await shootDialogs(page);
    console.log(`screenshots in ${outDir}`);
  } finally {
    await browser.close();
    await server?.stop();
    if (webDist) rmSync(webDist, { recursive: true, force: true });
  }
}

await main();
