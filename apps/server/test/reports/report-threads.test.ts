import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExcelJob } from '../../src/reports/report-job.ts';
import { ReportThreads } from '../../src/reports/report-threads.ts';
import { eventually, startTestServer, type Client, type TestServer } from '../harness.ts';

// Runs on the embedded database by default and on PostgreSQL with TEST_DB=postgres.
let server: TestServer;
let client: Client;
let org: number;
let videoId: number;
let brand: number;
let placement: number;
const DETECTIONS = 3000;

async function one<T>(sql: string, params: unknown[] = []): Promise<T> {
  return (await server.ctx.db.query<T>(sql, params))[0];
}

beforeAll(async () => {
  server = await startTestServer();
  client = await server.user('Threads org', 'tess');
  org = (await one<{ organization_id: number }>("SELECT organization_id FROM users WHERE username = 'tess'"))
    .organization_id;
  brand = (
    await one<{ id: number }>(
      "INSERT INTO brands (organization_id, name, status) VALUES ($1, 'Acme', 'ACTIVE') RETURNING id",
      [org],
    )
  ).id;
  placement = (await client.post('/api/videos/placements/', { localized_name: 'Board', color: '#112233' }))
    .json()
    .find((p: { localized_name: string }) => p.localized_name === 'Board').id;
  videoId = (
    await one<{ id: number }>(
      `INSERT INTO videos (organization_id, name, status, progress, frames, fps, width, height, duration,
         file_name, stored_path)
       VALUES ($1, 'Long match', 'OK', 100, 15000, 25, 1280, 720, 600, 'v.mp4', 'videos/none.mp4') RETURNING id`,
      [org],
    )
  ).id;
  // One detection every 200 ms over 10 minutes, each 2 s long, its box drifting across the frame.
  await server.ctx.db.query(
    `INSERT INTO detections (organization_id, video_id, brand_id, placement_id, auto_placement_id, time_begin,
       time_end, coordinates, confidence, review)
     SELECT $1, $2, $3, $4, $4, i * 200, i * 200 + 2000,
       jsonb_build_array(jsonb_build_object('start_time', i * 200, 'end_time', i * 200 + 2000,
         'points', jsonb_build_array(i % 1000, 100, i % 1000 + 200, 100, i % 1000 + 200, 180, i % 1000, 180))),
       0.9, 'UNREVIEWED'
     FROM generate_series(0, $5::int - 1) AS i`,
    [org, videoId, brand, placement, DETECTIONS],
  );
});
afterAll(() => server.close());

async function workbookOf(body: Buffer): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(body as unknown as ExcelJS.Buffer);
  return wb;
}

/** Every sheet's name and its rows' values, for comparing two workbooks cell by cell. */
function cells(wb: ExcelJS.Workbook) {
  return wb.worksheets.map((ws) => {
    const rows: unknown[] = [];
    ws.eachRow({ includeEmpty: true }, (row) => rows.push(row.values));
    return { name: ws.name, rows };
  });
}

/** Runs fn with the server's reports built by `reports`, then puts the server's own back. */
async function withReports<T>(reports: ReportThreads, fn: () => Promise<T>): Promise<T> {
  const own = server.ctx.reports;
  server.ctx.reports = reports;
  try {
    return await fn();
  } finally {
    server.ctx.reports = own;
    await reports.close();
  }
}

describe('Excel reports on report threads', () => {
  it("the API answers while a report's thread is stuck on it", async () => {
    const gate = new Int32Array(new SharedArrayBuffer(8));
    const gated = new ReportThreads({
      threads: 1,
      filename: new URL('./gated-report-thread.mjs', import.meta.url),
      workerData: { gate: gate.buffer },
    });
    await withReports(gated, async () => {
      let reportDone = false;
      const report = client.get(`/api/videos/excel/?videoId=${videoId}`).finally(() => (reportDone = true));
      // The report's thread has taken it and is blocked: had the report been built in the
      // server's thread, nothing below could be answered until the gate opens.
      await eventually(async () => Atomics.load(gate, 1) === 1, 60_000);

      const window = await client.get(`/api/videos/detections/?videoId=${videoId}&startTime=0&endTime=10000`);
      expect(window.statusCode).toBe(200);
      expect(window.json().length).toBeGreaterThan(40);
      const list = await client.get(`/api/videos/${videoId}/`);
      expect(list.statusCode).toBe(200);
      expect(reportDone).toBe(false);

      Atomics.store(gate, 0, 1);
      Atomics.notify(gate, 0);
      const r = await report;
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-disposition']).toContain('Long match.xlsx');
      const wb = await workbookOf(r.rawPayload);
      expect(wb.worksheets.map((ws) => ws.name)).toEqual(['Summary', 'By placement', 'Detections']);
      expect(wb.getWorksheet('Detections')!.rowCount).toBe(DETECTIONS + 1);
    });
  });

  it('a report built on a thread has the same cells as one built in the server thread', async () => {
    const url = `/api/videos/excel/?videoId=${videoId}`;
    const inThread = await withReports(new ReportThreads({ threads: 0 }), () => client.get(url));
    const offThread = await withReports(new ReportThreads({ threads: 2 }), () => client.get(url));
    expect(inThread.statusCode).toBe(200);
    expect(offThread.statusCode).toBe(200);
    expect(offThread.headers['content-type']).toBe(inThread.headers['content-type']);
    expect(offThread.headers['content-disposition']).toBe(inThread.headers['content-disposition']);
    const a = cells(await workbookOf(inThread.rawPayload));
    const b = cells(await workbookOf(offThread.rawPayload));
    expect(b.map((s) => s.name)).toEqual(['Summary', 'By placement', 'Detections']);
    expect(b).toEqual(a);
  });
});

describe('ReportThreads', () => {
  // A new job for each report, as the server makes: its packed spans are transferred to the thread
  // (and so detached from this one).
  const job = (): ExcelJob => ({
    kind: 'excel',
    video: { id: 1, name: 'v', fps: 25, frames: 250, duration: 10, width: 100, height: 100 },
    brands: new Map([[1, { id: 1, name: 'Acme', localized_name: 'Acme' }]]),
    placements: new Map([[1, { id: 1, localized_name: 'Board', color: '#112233', manual: false }]]),
    tags: [],
    withoutPlacement: false,
    clutterSpans: new Float64Array(0),
    rates: new Map(),
    currency: 'EUR',
  });
  function* rows(n: number, failAt = -1) {
    for (let i = 1; i <= n; i++) {
      if (i === failAt) throw new Error('the database went away');
      yield {
        id: i,
        brand_id: 1,
        placement_id: 1,
        time_begin: i,
        time_end: i + 10,
        coordinates: [{ start_time: i, end_time: i + 10, points: [0, 0, 10, 0, 10, 10, 0, 10] }],
        confidence: 0.5,
        review: 'UNREVIEWED',
        source: 'auto',
        reviewed_by: null,
        reviewed_at: null,
      };
    }
  }
  const threads = new ReportThreads({ threads: 1 });
  afterAll(() => threads.close());

  it('a failing row source fails the report, and the thread takes the next one', async () => {
    await expect(
      threads.build(job(), { streams: { detections: () => rows(5000, 2500) } }, new PassThrough()),
    ).rejects.toThrow('the database went away');

    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    await threads.build(job(), { streams: { detections: () => rows(2000) } }, out);
    const wb = await workbookOf(Buffer.concat(chunks));
    expect(wb.getWorksheet('Detections')!.rowCount).toBe(2001);
  });

  it('closing the output ends the report', async () => {
    const out = new PassThrough();
    // Nobody reads: the thread stops at its output buffer; the client then goes away.
    const built = threads.build(job(), { streams: { detections: () => rows(200_000) } }, out);
    await eventually(async () => out.readableLength > 0, 60_000);
    out.destroy();
    await expect(built).rejects.toThrow('The report output was closed before the report was complete');
  });
});
