import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { API, type Project } from '@logo-review/contract';
import { seedCampaign, type CampaignSeed } from './analytics-seed.ts';
import { uniqueName } from './support/browser.ts';
import { loginApi, useSignedInPage } from './support/session.ts';
import type { ApiClient } from './support/api-client.ts';

const session = useSignedInPage({ width: 1440, height: 900 });

/** The dashboard answer's parts these tests read (the contract: /work/contracts/analytics-api.md). */
interface DashboardAnswer {
  videos: number;
  totals: { detections: number; exposure_seconds: number; media_value: number };
  brands: {
    brand: { id: number; name: string };
    detections: number;
    exposure_seconds: number;
    media_value: number;
  }[];
}

let seed: CampaignSeed;
let api: ApiClient;
let prefix: string;

beforeAll(async () => {
  prefix = uniqueName('Camp');
  api = await loginApi();
  seed = await seedCampaign(api, prefix);
}, 600_000);

const dashboardOf = (query: string) => api.call<DashboardAnswer>('GET', `/api/analytics/dashboard/?${query}`);
/** Seconds as the dashboard writes them (a no-break space before the unit). */
const s1 = (n: number) =>
  `${n.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })}\u00a0s`;

async function chooseScope(page: Page, option: string): Promise<void> {
  await page.getByRole('combobox', { name: 'Videos' }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** The rows of the 'Exposure per brand' table alternative: brand name -> [exposure text, detections text]. */
async function exposureTable(page: Page): Promise<Map<string, [string, string]>> {
  const card = page.getByRole('region', { name: 'Exposure per brand' });
  await card.getByRole('button', { name: 'Table' }).click();
  const table = card.getByRole('table', { name: 'Exposure per brand' });
  await table.waitFor();
  const rows = await table
    .locator('tbody tr')
    .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
  return new Map(rows.map((r) => [r[0], [r[1], r[3]] as [string, string]]));
}

describe('dashboard', () => {
  it('filters by folder (with subfolders), by project and by upload date, keeping the filter in the URL', async () => {
    const page = session.page();
    const alpha = `${prefix} Alpha`;
    const beta = `${prefix} Beta`;
    await page.goto('/');
    await chooseScope(page, `/${prefix} Season`);
    await page.waitForURL(new RegExp(`[?&]folder=${seed.folder.id}`));
    await page.getByLabel('Videos', { exact: true }).filter({ hasText: /^2$/ }).waitFor();

    const season = await dashboardOf(`folder=${seed.folder.id}`);
    expect(season.videos).toBe(2);
    // Hand-computed: Alpha 4 s + 1.5 s, Beta 1 s + 4 s (the Friendlies folder's 6 s of Beta left out).
    expect(season.brands.map((b) => [b.brand.name, b.detections, b.exposure_seconds])).toEqual([
      [alpha, 2, 5.5],
      [beta, 2, 5],
    ]);
    let table = await exposureTable(page);
    expect(table.get(alpha)).toEqual([s1(5.5), '2']);
    expect(table.get(beta)).toEqual([s1(5), '2']);
    expect(await page.getByLabel('Exposure', { exact: true }).textContent()).toBe(s1(10.5));

    // A reload keeps the filter.
    await page.reload();
    await page.getByLabel('Videos', { exact: true }).filter({ hasText: /^2$/ }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Videos' }).textContent()).toBe(`/${prefix} Season`);

    await chooseScope(page, `/${prefix} Season/Cup`);
    await page.waitForURL(new RegExp(`[?&]folder=${seed.sub.id}`));
    await page.getByLabel('Videos', { exact: true }).filter({ hasText: /^1$/ }).waitFor();
    table = await exposureTable(page);
    expect([...table.keys()]).toEqual([beta, alpha]);
    expect(table.get(beta)).toEqual([s1(4), '1']);
    expect(table.get(alpha)).toEqual([s1(1.5), '1']);

    await chooseScope(page, `/${prefix} Friendlies`);
    await page.waitForURL(new RegExp(`[?&]folder=${seed.other.id}`));
    // Cup showed one video too: the table, not the count, says the new scope's answer is in.
    await expect.poll(async () => [...(await exposureTable(page)).entries()]).toEqual([[beta, [s1(6), '1']]]);

    // A project: only its video (Match 1) counts.
    const projects = await api.call<Project[]>('POST', API.projects, { name: `${prefix} project` });
    const project = projects.find((p) => p.name === `${prefix} project`)!;
    const match1 = seed.videos[0];
    await api.call('PUT', API.videoCreate, {
      id: match1.id,
      name: match1.name,
      folder: seed.folder.id,
      project: project.id,
    });
    await page.reload();
    await chooseScope(page, `${prefix} project`);
    await page.waitForURL(new RegExp(`[?&]project=${project.id}`));
    // (as Friendlies, which the reload showed first, has one video)
    await expect
      .poll(async () => [...(await exposureTable(page)).entries()])
      .toEqual([
        [alpha, [s1(4), '1']],
        [beta, [s1(1), '1']],
      ]);
    await chooseScope(page, `/${prefix} Friendlies`);
    await page.waitForURL(new RegExp(`[?&]folder=${seed.other.id}`));

    // Upload date: the videos were uploaded today (UTC).
    const today = new Date().toISOString().slice(0, 10);
    await page.getByLabel('Uploaded from').fill(today);
    await page.waitForURL(new RegExp(`from=${today}`));
    await page.getByLabel('Videos', { exact: true }).filter({ hasText: /^1$/ }).waitFor();
    await page.getByLabel('Uploaded to').fill('2000-01-01');
    await page.getByText('The start date must not be after the end date.').waitFor();
    await page.getByLabel('Uploaded from').fill('1999-01-01');
    await page.getByLabel('Videos', { exact: true }).filter({ hasText: /^0$/ }).waitFor();
    await page.getByText('No counted detections in this selection.').waitFor();
    expect(page.url()).toContain(`folder=${seed.other.id}`);
  });
});

/** Reads the Summary sheet: brand name -> [detections, exposure seconds, media value], and the 'All brands' row. */
async function readSummary(file: string) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  const sheet = wb.getWorksheet('Summary');
  expect(sheet, 'a Summary sheet').toBeDefined();
  const text = (v: ExcelJS.CellValue): unknown =>
    v !== null && typeof v === 'object' && 'result' in v ? v.result : v;
  let header: string[] | null = null;
  const rows = new Map<string, { detections: number; exposure: number; value: number }>();
  sheet!.eachRow((row) => {
    const cells = (row.values as ExcelJS.CellValue[]).slice(1).map(text);
    if (!header) {
      if (cells[0] === 'Brand') header = cells.map(String);
      return;
    }
    const col = (name: string) => Number(cells[header!.findIndex((h) => h.startsWith(name))]);
    rows.set(String(cells[0]), {
      detections: col('Detections'),
      exposure: col('Exposure (s)'),
      value: col('Media value'),
    });
  });
  expect(header, 'a header row starting with Brand').not.toBeNull();
  return rows;
}

async function expectSummaryMatchesApi(file: string, query: string) {
  const summary = await readSummary(file);
  const answer = await dashboardOf(query);
  expect(answer.brands.length).toBeGreaterThan(0);
  for (const b of answer.brands) {
    const row = summary.get(b.brand.name);
    expect(row, `a Summary row for ${b.brand.name}`).toBeDefined();
    expect(row!.detections).toBe(b.detections);
    expect(row!.exposure).toBeCloseTo(b.exposure_seconds, 2);
    expect(row!.value).toBeCloseTo(b.media_value, 2);
  }
  const all = summary.get('All brands');
  expect(all, "the 'All brands' row").toBeDefined();
  expect(all!.detections).toBe(answer.totals.detections);
  expect(all!.exposure).toBeCloseTo(answer.totals.exposure_seconds, 2);
  expect(all!.value).toBeCloseTo(answer.totals.media_value, 2);
}

describe('campaign report', () => {
  it('downloads from the dashboard for the chosen folder; its totals equal the API', async () => {
    const page = session.page();
    await page.goto(`/?folder=${seed.folder.id}`);
    await page.getByLabel('Videos', { exact: true }).filter({ hasText: /^2$/ }).waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export campaign report' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`Campaign - ${prefix} Season.xlsx`);
    const saved = path.join(tmpdir(), `campaign-${Date.now()}.xlsx`);
    await file.saveAs(saved);
    await expectSummaryMatchesApi(saved, `folder=${seed.folder.id}`);
  });

  it("downloads from a folder card's menu on the videos page (with subfolders)", async () => {
    const page = session.page();
    await page.goto('/videos');
    await page.getByRole('button', { name: `More actions for folder ${prefix} Season` }).click();
    const download = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: 'Export campaign report' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`Campaign - ${prefix} Season.xlsx`);
    const saved = path.join(tmpdir(), `campaign-folder-${Date.now()}.xlsx`);
    await file.saveAs(saved);
    const summary = await readSummary(saved);
    // Both videos of the folder and its subfolder count: Alpha 2 detections, Beta 2.
    expect(summary.get(`${prefix} Alpha`)?.detections).toBe(2);
    expect(summary.get(`${prefix} Beta`)?.detections).toBe(2);
    await expectSummaryMatchesApi(saved, `folder=${seed.folder.id}`);
  });
});
