import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, type Dashboard } from '@logo-review/contract';
import { smallVideo } from '../fixtures.ts';
import { startTestServer, TEST_DB, type Client, type TestServer } from '../harness.ts';

// Runs on the embedded database by default and on PostgreSQL with TEST_DB=postgres.
let server: TestServer;
let client: Client;
let org: number;
const ids: Record<string, number> = {};

const rect = (x: number, y: number, w: number, h: number) => [x, y, x + w, y, x + w, y + h, x, y + h];

async function one<T>(sql: string, params: unknown[] = []): Promise<T> {
  return (await server.ctx.db.query<T>(sql, params))[0];
}

async function insertVideo(
  name: string,
  folder: number | null,
  created: string,
  extra: {
    project?: number;
    status?: string;
    progress?: number;
    duration?: number;
    reason?: string;
    wall?: number;
  } = {},
): Promise<number> {
  const r = await one<{ id: number }>(
    `INSERT INTO videos (organization_id, name, folder_id, project_id, status, status_reason, progress, frames, fps,
       width, height, duration, file_name, stored_path, created_at, analysis_wall_seconds, analysis_finished_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 20, 10, 160, 120, $8, 'v.mp4', 'videos/analytics-test.mp4', $9, $10,
       CASE WHEN $10::float8 IS NULL THEN NULL ELSE now() END) RETURNING id`,
    [
      org,
      name,
      folder,
      extra.project ?? null,
      extra.status ?? 'OK',
      extra.reason ?? '',
      extra.progress ?? 100,
      extra.duration ?? 2,
      created,
      extra.wall ?? null,
    ],
  );
  return r.id;
}

async function insertDetection(
  video: number,
  brand: number,
  placement: number,
  begin: number,
  end: number,
  points: number[],
  review = 'UNREVIEWED',
): Promise<number> {
  const r = await one<{ id: number }>(
    `INSERT INTO detections (organization_id, video_id, brand_id, placement_id, auto_placement_id, time_begin, time_end,
       coordinates, confidence, review) VALUES ($1, $2, $3, $4, $4, $5, $6, $7, 0.9, $8) RETURNING id`,
    [
      org,
      video,
      brand,
      placement,
      begin,
      end,
      JSON.stringify([{ start_time: begin, end_time: end, points }]),
      review,
    ],
  );
  return Number(r.id);
}

beforeAll(async () => {
  server = await startTestServer();
  client = await server.user('Analytics org', 'ana');
  org = (await one<{ organization_id: number }>("SELECT organization_id FROM users WHERE username = 'ana'"))
    .organization_id;
  mkdirSync(path.join(server.ctx.storage.root, 'videos'), { recursive: true });
  writeFileSync(path.join(server.ctx.storage.root, 'videos/analytics-test.mp4'), smallVideo());
  for (const name of ['Acme', 'Bolt', 'Hidden']) {
    ids[name] = (
      await one<{ id: number }>(
        "INSERT INTO brands (organization_id, name, status) VALUES ($1, $2, 'ACTIVE') RETURNING id",
        [org, name],
      )
    ).id;
  }
  for (const name of ['Board', 'Shirt']) {
    const list = (await client.post(API.placements, { localized_name: name, color: '#112233' })).json();
    ids[name] = list.find((p: { localized_name: string }) => p.localized_name === name).id;
  }
  const folder = async (name: string, parent: number | null) =>
    (
      await one<{ id: number }>(
        'INSERT INTO folders (organization_id, name, parent_id) VALUES ($1, $2, $3) RETURNING id',
        [org, name, parent],
      )
    ).id;
  ids.Season = await folder('Season', null);
  ids.Cup = await folder('Cup', ids.Season);
  ids.Other = await folder('Other', null);
  ids.Project = (
    await one<{ id: number }>(
      "INSERT INTO projects (organization_id, name) VALUES ($1, 'Sponsor') RETURNING id",
      [org],
    )
  ).id;
  await server.ctx.db.query('INSERT INTO project_hidden_brands (project_id, brand_id) VALUES ($1, $2)', [
    ids.Project,
    ids.Hidden,
  ]);
  // Three analysed videos: one in Season, one in its subfolder Cup (in the project), one elsewhere.
  ids.v1 = await insertVideo('Match 1', ids.Season, '2026-01-10T12:00:00Z');
  ids.v2 = await insertVideo('Match 2', ids.Cup, '2026-02-10T12:00:00Z', { project: ids.Project });
  ids.v3 = await insertVideo('Match 3', ids.Other, '2026-03-01T12:00:00Z');
  const { Acme, Bolt, Hidden, Board, Shirt } = ids;
  // Match 1: Acme on the board 0-1.5 s (large, centre) and 1-2 s (small, corner; overlaps),
  // Bolt on the shirt 1-2 s, a false positive and a deleted one that never count.
  ids.d1 = await insertDetection(ids.v1, Acme, Board, 0, 1500, rect(40, 30, 80, 60), 'TRUE_POSITIVE');
  ids.d2 = await insertDetection(ids.v1, Acme, Board, 1000, 2000, rect(0, 0, 16, 12));
  ids.d3 = await insertDetection(ids.v1, Bolt, Shirt, 1000, 2000, rect(100, 80, 40, 30), 'EDITED');
  await insertDetection(ids.v1, Bolt, Board, 0, 2000, rect(0, 0, 160, 120), 'FALSE_POSITIVE');
  await insertDetection(ids.v1, Acme, Shirt, 0, 2000, rect(0, 0, 160, 120), 'DELETED');
  // Match 2: Acme manual on the shirt, the project's hidden brand (left out).
  ids.d6 = await insertDetection(ids.v2, Acme, Shirt, 500, 1500, rect(20, 20, 40, 40), 'MANUAL');
  await insertDetection(ids.v2, Hidden, Board, 0, 2000, rect(0, 0, 160, 120), 'TRUE_POSITIVE');
  // Match 3: Bolt unreviewed only.
  ids.d8 = await insertDetection(ids.v3, Bolt, Board, 0, 1000, rect(60, 40, 40, 40));
  // Processing: one measured video (100 s in 50 s: x2), one analysing at 50 %, one queued, one failed.
  await insertVideo('Measured', ids.Other, '2026-03-02T12:00:00Z', { duration: 100, wall: 50 });
  ids.analysing = await insertVideo('Analysing', ids.Other, '2026-03-03T12:00:00Z', {
    status: 'PROCESSING',
    progress: 50,
    duration: 100,
  });
  ids.queued = await insertVideo('Waiting', ids.Other, '2026-03-04T12:00:00Z', {
    status: 'QUEUED',
    progress: 0,
    duration: 40,
  });
  ids.failed = await insertVideo('Broken', ids.Other, '2026-03-05T12:00:00Z', {
    status: 'ERROR PROCESSING',
    progress: 0,
    reason: 'Analysis failed: cannot decode',
  });
  await client.put(API.analyticsSettings, {
    currency: 'USD',
    rates: [
      { placement_id: Board, rate_per_second: 10 },
      { placement_id: Shirt, rate_per_second: 4 },
    ],
  });
});

afterAll(async () => {
  await server?.close();
});

async function dash(query = ''): Promise<Dashboard> {
  const r = await client.get(`${API.analyticsDashboard}${query}`);
  expect(r.statusCode, r.body).toBe(200);
  return r.json();
}

async function download(url: string): Promise<ExcelJS.Workbook> {
  const r = await client.get(url);
  expect(r.statusCode, r.body.slice(0, 200)).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(r.rawPayload as unknown as ExcelJS.Buffer);
  return workbook;
}

function table(sheet: ExcelJS.Worksheet, headerRow: number): Record<string, unknown>[] {
  const headers = (sheet.getRow(headerRow).values as unknown[]).slice(1).map(String);
  const rows: Record<string, unknown>[] = [];
  for (let r = headerRow + 1; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    if (!row.hasValues) break;
    rows.push(Object.fromEntries(headers.map((h, i) => [h, row.getCell(i + 1).value])));
  }
  return rows;
}

describe(`analytics API (${TEST_DB})`, () => {
  it('dashboard of the whole organization: exposure, share of voice, placements, media value', async () => {
    const d = await dash();
    expect(d.currency).toBe('USD');
    // The timeline's series: the scope's largest brands (at most 5).
    expect(d.timeline[0].brands.map((b) => b.brand_id).sort()).toEqual([ids.Acme, ids.Bolt].sort());
    expect(d.scope.include_unreviewed).toBe(true);
    const acme = d.brands.find((b) => b.brand.name === 'Acme')!;
    const bolt = d.brands.find((b) => b.brand.name === 'Bolt')!;
    // Acme: Match 1 union [0, 2 s] = 2 s, Match 2 1 s. Bolt: Match 1 1 s, Match 3 1 s.
    expect(acme.exposure_seconds).toBeCloseTo(3, 9);
    expect(acme.detections).toBe(3);
    expect(acme.videos).toBe(2);
    expect(bolt.exposure_seconds).toBeCloseTo(2, 9);
    expect(acme.share_of_voice).toBeCloseTo(0.6, 9);
    // Hidden only appears in the project that hides it.
    expect(d.brands.map((b) => b.brand.name)).toEqual(['Acme', 'Bolt']);
    const board = d.placements.find((p) => p.placement.localized_name === 'Board')!;
    expect(board.rate_per_second).toBe(10);
    // Board: Acme 2 s in Match 1, Bolt 1 s in Match 3.
    expect(board.exposure_seconds).toBeCloseTo(3, 9);
    expect(d.totals.media_value).toBeCloseTo(acme.media_value + bolt.media_value, 9);
    expect(acme.media_value).toBeGreaterThan(0);
    // Timeline: every video in upload order.
    expect(d.timeline.map((t) => t.video.name).slice(0, 3)).toEqual(['Match 1', 'Match 2', 'Match 3']);
    expect(d.timeline[0].exposure_seconds).toBeCloseTo(3, 9); // Acme 2 s + Bolt 1 s
    const top = d.top_videos.find((t) => t.brand_id === acme.brand.id)!;
    expect(top.videos.map((v) => v.video.name)).toEqual(['Match 1', 'Match 2']);
    expect(top.videos[0].share_of_video).toBeCloseTo(1, 9);
  });

  it('Match 3 alone: Bolt on the board, 1 s, 25% of the frame in the centre, alone: value = 10 x 1', async () => {
    // 40x40 px of 160x120 = 1/12 of the frame, centred at (80, 60): position weight 1, clutter 0.
    const d = await dash(`?folder=${ids.Other}&from=2026-03-01&to=2026-03-01`);
    expect(d.videos).toBe(1);
    const bolt = d.brands[0];
    expect(bolt.brand.name).toBe('Bolt');
    expect(bolt.mean_share_of_frame).toBeCloseTo(1 / 12, 9);
    expect(bolt.size_weighted_seconds).toBeCloseTo(1 / 12, 9);
    expect(bolt.position_weight).toBeCloseTo(1, 9);
    expect(bolt.clutter).toBe(0);
    expect(bolt.media_value).toBeCloseTo(10, 9);
    // A new rate rewrites the stored media values at once.
    await client.put(API.analyticsSettings, { rates: [{ placement_id: ids.Board, rate_per_second: 25 }] });
    const dearer = await dash(`?folder=${ids.Other}&from=2026-03-01&to=2026-03-01`);
    expect(dearer.brands[0].media_value).toBeCloseTo(25, 9);
    expect(dearer.placements[0]).toMatchObject({ rate_per_second: 25 });
    expect(dearer.placements[0].media_value).toBeCloseTo(25, 9);
    await client.put(API.analyticsSettings, { rates: [{ placement_id: ids.Board, rate_per_second: 10 }] });
  });

  it('a folder covers its subfolders; a project leaves out its hidden brands; dates filter uploads', async () => {
    const season = await dash(`?folder=${ids.Season}`);
    expect(season.videos).toBe(2);
    expect(season.brands.map((b) => [b.brand.name, b.exposure_seconds])).toEqual([
      ['Acme', 3],
      ['Bolt', 1],
    ]);
    const project = await dash(`?project=${ids.Project}`);
    expect(project.brands.map((b) => b.brand.name)).toEqual(['Acme']);
    const february = await dash('?from=2026-02-01&to=2026-02-28');
    expect(february.timeline.map((t) => t.video.name)).toEqual(['Match 2']);
    // 'to' includes its whole day.
    expect((await dash('?from=2026-01-10&to=2026-01-10')).videos).toBe(1);
  });

  it('include_unreviewed=false counts reviewed-true detections only; the setting is the default', async () => {
    const reviewed = await dash('?include_unreviewed=false');
    const acme = reviewed.brands.find((b) => b.brand.name === 'Acme')!;
    // Acme: d1 (TRUE_POSITIVE, 0-1.5 s) and d6 (MANUAL, 1 s); the unreviewed d2 is out.
    expect(acme.exposure_seconds).toBeCloseTo(2.5, 9);
    const bolt = reviewed.brands.find((b) => b.brand.name === 'Bolt')!;
    expect(bolt.exposure_seconds).toBeCloseTo(1, 9); // Match 3's unreviewed one is out
    await client.put(API.analyticsSettings, { count_unreviewed: false });
    expect((await dash()).scope.include_unreviewed).toBe(false);
    expect((await dash()).brands.find((b) => b.brand.name === 'Acme')!.exposure_seconds).toBeCloseTo(2.5, 9);
    await client.put(API.analyticsSettings, { count_unreviewed: true });
  });

  it('review share per video and overall (listed detections; hidden or not)', async () => {
    const d = await dash(`?folder=${ids.Season}`);
    const m1 = d.review.videos.find((v) => v.video.name === 'Match 1')!;
    // Match 1 lists d1, d2, d3 (the false positive and the deleted one are not listed); d1, d3 reviewed.
    expect(m1).toMatchObject({ total: 3, reviewed: 2 });
    expect(m1.share).toBe(0.6667); // rounded to 0.0001
    // Match 2: both reviewed.
    expect(d.review.overall).toMatchObject({ total: 5, reviewed: 4 });
  });

  it('processing: ETA from the measured speed, failed videos with their reason', async () => {
    const r = await client.get(API.analyticsProcessing);
    expect(r.statusCode).toBe(200);
    const p = r.json();
    expect(p.speed).toBeCloseTo(2, 9);
    expect(p.active.map((a: { video: { name: string } }) => a.video.name)).toEqual(['Analysing', 'Waiting']);
    // Analysing: 50 s left at x2 = 25 s; Waiting: after those 50 s, its own 40 s -> 45 s.
    expect(p.active[0].eta_seconds).toBeCloseTo(25, 9);
    expect(p.active[1].eta_seconds).toBeCloseTo(45, 9);
    expect(p.failed).toEqual([
      expect.objectContaining({
        video: { id: ids.failed, name: 'Broken' },
        reason: 'Analysis failed: cannot decode',
      }),
    ]);
    expect((await dash()).processing.active).toHaveLength(2);
  });

  it('follows changes of detections (the triggers mark the video, the dashboard refreshes it)', async () => {
    const before = (await dash(`?folder=${ids.Other}&from=2026-03-01&to=2026-03-01`)).brands[0]
      .exposure_seconds;
    expect(before).toBeCloseTo(1, 9);
    await server.ctx.db.query('UPDATE detections SET time_end = 2000 WHERE id = $1', [ids.d8]);
    const after = await dash(`?folder=${ids.Other}&from=2026-03-01&to=2026-03-01`);
    expect(after.brands[0].exposure_seconds).toBeCloseTo(2, 9);
    await server.ctx.db.query("UPDATE detections SET review = 'FALSE_POSITIVE' WHERE id = $1", [ids.d8]);
    expect((await dash(`?folder=${ids.Other}&from=2026-03-01&to=2026-03-01`)).brands).toEqual([]);
    await server.ctx.db.query("UPDATE detections SET review = 'UNREVIEWED', time_end = 1000 WHERE id = $1", [
      ids.d8,
    ]);
  });

  it('bad scopes answer with the contract texts', async () => {
    const both = await client.get(`${API.analyticsDashboard}?project=${ids.Project}&folder=${ids.Season}`);
    expect(both.statusCode).toBe(400);
    expect(both.json().detail).toBe('Give either project or folder, not both.');
    const folder = await client.get(`${API.analyticsDashboard}?folder=999999`);
    expect(folder.statusCode).toBe(404);
    expect(folder.json().detail).toBe('Folder not found.');
    expect((await client.get(`${API.analyticsCampaignReport}?project=999999`)).json().detail).toBe(
      'Project not found.',
    );
    const order = await client.get(`${API.analyticsDashboard}?from=2026-03-01&to=2026-01-01`);
    expect(order.json().detail).toBe('from must not be after to.');
    const date = await client.get(`${API.analyticsDashboard}?from=yesterday`);
    expect(date.statusCode).toBe(400);
    expect(date.json().detail).toBe('from: must match format "date".');
    // Another organization's folder is not found either.
    const other = await server.user('Other org', 'otto');
    expect((await other.get(`${API.analyticsDashboard}?folder=${ids.Season}`)).statusCode).toBe(404);
    expect((await other.get(API.analyticsDashboard)).json().brands).toEqual([]);
  });

  it('settings: defaults, partial updates, validation without a partial save', async () => {
    const other = await server.user('Settings org', 'sam');
    const defaults = (await other.get(API.analyticsSettings)).json();
    expect(defaults.currency).toBe('EUR');
    expect(defaults.count_unreviewed).toBe(true);
    expect(defaults.rates.every((r: { rate_per_second: number }) => r.rate_per_second === 0)).toBe(true);
    const mine = (await client.get(API.analyticsSettings)).json();
    expect(mine.currency).toBe('USD');
    expect(
      mine.rates.find((r: { placement: { id: number } }) => r.placement.id === ids.Board).rate_per_second,
    ).toBe(10);
    const bad = await client.put(API.analyticsSettings, { currency: 'usd' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toBe('currency: must match pattern "^[A-Z]{3}$".');
    const negative = await client.put(API.analyticsSettings, {
      rates: [{ placement_id: ids.Board, rate_per_second: -1 }],
    });
    expect(negative.json().detail).toBe('rates.0.rate_per_second: must be >= 0.');
    // Another organization's placement: refused, and nothing of the call is saved.
    const foreign = await other.put(API.analyticsSettings, {
      currency: 'GBP',
      rates: [{ placement_id: ids.Board, rate_per_second: 1 }],
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().detail).toBe(`rates: placement ${ids.Board} not found.`);
    expect((await other.get(API.analyticsSettings)).json().currency).toBe('EUR');
  });

  it('the dashboard, the per-video Excel reports and the campaign report agree', async () => {
    const d = await dash();
    const campaign = await download(API.analyticsCampaignReport);
    expect(campaign.worksheets.map((s) => s.name).slice(0, 5)).toEqual([
      'Summary',
      'Brand x video',
      'Brand x placement',
      'Media value',
      'Best frames',
    ]);
    const summary = table(campaign.getWorksheet('Summary')!, 4);
    // Per-video Excel reports, summed over the videos.
    const perVideo = new Map<string, { exposure: number; value: number; detections: number }>();
    for (const video of [ids.v1, ids.v2, ids.v3]) {
      const report = await download(`${API.excel}?videoId=${video}`);
      for (const row of table(report.getWorksheet('Summary')!, 4)) {
        const name = String(row.Brand);
        const acc = perVideo.get(name) ?? { exposure: 0, value: 0, detections: 0 };
        acc.exposure += Number(row['Exposure (s)']);
        acc.value += Number(row['Media value (USD)']);
        acc.detections += Number(row.Detections);
        perVideo.set(name, acc);
      }
    }
    for (const brand of d.brands) {
      const row = summary.find((r) => r.Brand === brand.brand.name)!;
      expect(row.Detections).toBe(brand.detections);
      expect(row.Videos).toBe(brand.videos);
      expect(Number(row['Exposure (s)'])).toBeCloseTo(brand.exposure_seconds, 9);
      expect(Number(row['Share of voice'])).toBeCloseTo(brand.share_of_voice, 9);
      expect(Number(row['Size-weighted exposure (s)'])).toBeCloseTo(brand.size_weighted_seconds, 9);
      expect(Number(row['Position weight'])).toBeCloseTo(brand.position_weight, 9);
      expect(Number(row.Clutter)).toBeCloseTo(brand.clutter, 9);
      expect(Number(row['Media value (USD)'])).toBeCloseTo(brand.media_value, 9);
      const excel = perVideo.get(brand.brand.name)!;
      expect(excel.detections).toBe(brand.detections);
      expect(excel.exposure).toBeCloseTo(brand.exposure_seconds, 9);
      expect(excel.value).toBeCloseTo(brand.media_value, 9);
    }
    const total = campaign.getWorksheet('Summary')!.getRow(4 + summary.length + 2);
    expect(total.getCell(1).value).toBe('All brands');
    expect(Number(total.getCell(11).value)).toBeCloseTo(d.totals.media_value, 9);
    // Media value sheet total = the dashboard's total.
    const mv = campaign.getWorksheet('Media value')!;
    const mvRows = table(mv, 4);
    const mvTotal = mv.getRow(4 + mvRows.length + 2);
    expect(mvTotal.getCell(1).value).toBe('All placements');
    expect(Number(mvTotal.getCell(5).value)).toBeCloseTo(d.totals.media_value, 9);
    // Brand x placement: Bolt on the shirt.
    const bp = table(campaign.getWorksheet('Brand x placement')!, 1);
    expect(bp.find((r) => r.Brand === 'Bolt' && r.Placement === 'Shirt')!['Exposure (s)']).toBeCloseTo(1, 9);
    // Brand x video: one row per brand and video with exposure.
    expect(table(campaign.getWorksheet('Brand x video')!, 1)).toHaveLength(4);
  });

  it('campaign report: a sheet per video with its counted detections, and a best frame per brand', async () => {
    const r = await client.get(`${API.analyticsCampaignReport}?folder=${ids.Season}`);
    expect(r.headers['content-disposition']).toContain('filename="Campaign - Season.xlsx"');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(r.rawPayload as unknown as ExcelJS.Buffer);
    expect(workbook.worksheets.map((s) => s.name).slice(5)).toEqual(['Match 1', 'Match 2']);
    const match1 = table(workbook.getWorksheet('Match 1')!, 4);
    expect(match1.map((row) => row.ID)).toEqual([ids.d1, ids.d2, ids.d3]);
    const frames = workbook.getWorksheet('Best frames')!;
    const rows = table(frames, 1);
    expect(rows.map((row) => row.Brand)).toEqual(['Acme', 'Bolt']);
    // Acme's best: d1 (80x60 of 160x120 = 25% of the frame).
    expect(rows[0].Detection).toBe(ids.d1);
    expect(rows[0]['Share of frame']).toBeCloseTo(0.25, 9);
    const images = frames.getImages();
    expect(images).toHaveLength(2);
    const image = workbook.getImage(Number(images[0].imageId));
    expect(image.extension).toBe('jpeg');
    const buffer = image.buffer as unknown as Buffer;
    expect(buffer.subarray(0, 2).toString('hex')).toBe('ffd8'); // a JPEG
  });
});
