import { existsSync, rmSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, multipart, startTestServer, type Client, type TestServer } from './harness.ts';
import { smallVideo } from './fixtures.ts';
import { libraryRepository } from '../src/repositories/library.repository.ts';
import { renderVerificationFailed, renderVerificationJob } from '../src/jobs/render-verification.job.ts';

let s: TestServer;
let a: Client;
let b: Client;
let videoId: number;
let nike: number;
let evil: number;
let hidden: number;
let overlay: number;
let shirt: number;
let tagId: number;

const quad = [10, 10, 60, 10, 60, 40, 10, 40];
const det = (brand: number, placement: number, begin: number, end: number) => ({
  video: videoId,
  brand,
  placement,
  time_begin: begin,
  time_end: end,
  coordinates: [{ start_time: begin, end_time: end, points: quad }],
});

beforeAll(async () => {
  s = await startTestServer();
  a = await s.user('Org A', 'alice');
  b = await s.user('Org B', 'bob');
  const brand = async (name: string) =>
    (await a.req({ method: 'POST', url: '/api/brands/create/', ...multipart({ name }) })).json().id;
  nike = await brand('Nike');
  evil = await brand('=HYPERLINK("http://x","y")');
  hidden = await brand('Hidden');
  const pl = (await a.post('/api/videos/placements/', { localized_name: 'Shirt', color: '#ff0000' })).json();
  [overlay, , shirt] = pl.map((p: { id: number }) => p.id);
  const project = (
    await a.post('/api/videos/project/', { name: 'League', filtered_brands: [hidden] })
  ).json()[0].id;
  videoId = (
    await a.req({
      method: 'POST',
      url: '/api/videos/create/',
      ...multipart({ name: 'Final: day 1', project: String(project) }, [
        { field: 'videoFile', name: 'v.mp4', data: smallVideo() },
      ]),
    })
  ).json().id;
  await eventually(async () => (await a.get(`/api/videos/${videoId}/`)).json().status === 'OK');
  await a.post('/api/videos/detections/', {
    detections: [
      det(nike, overlay, 0, 1000),
      det(nike, shirt, 500, 1500),
      det(evil, overlay, 0, 2000),
      det(hidden, overlay, 0, 2000),
    ],
  });
  tagId = (
    await a.post('/api/videos/tags/', { name: 'Kit deal', brand: nike, placements: [shirt] })
  ).json()[0].id;
});
afterAll(() => s.close());

async function report(client: Client, query: string) {
  const r = await client.req({ method: 'GET', url: `/api/videos/excel/?videoId=${videoId}${query}` });
  if (r.statusCode !== 200) return { r, wb: null };
  const wb = new ExcelJS.Workbook();
  const bytes = r.rawPayload;
  await wb.xlsx.load(
    bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
  );
  return { r, wb };
}
const detectionRows = (wb: ExcelJS.Workbook) => {
  const sheet = wb.getWorksheet('Detections')!;
  const rows: unknown[][] = [];
  sheet.eachRow((row, i) => {
    if (i > 1) rows.push(row.values as unknown[]);
  });
  return rows;
};

describe('Excel report', () => {
  it('streams the report named after the video, leaving out the project-hidden brand, escaping formulas', async () => {
    const { r, wb } = await report(a, '');
    expect(r.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(r.headers['content-disposition']).toContain('attachment; filename="Final_ day 1.xlsx"');
    const names = wb!.worksheets.map((w) => w.name);
    expect(names).toEqual(expect.arrayContaining(['Summary', 'By placement', 'Detections']));
    const rows = detectionRows(wb!);
    expect(rows).toHaveLength(3); // the hidden brand's detection is left out
    const text = JSON.stringify(rows);
    expect(text).not.toContain('Hidden');
    expect(text).toContain(`'=HYPERLINK`);
  });

  it('bFilter, pFilter, tags and without_placement shape the report', async () => {
    let { wb } = await report(a, `&bFilter=${nike}`);
    expect(detectionRows(wb!)).toHaveLength(2);
    ({ wb } = await report(a, `&bFilter=${nike}&pFilter=${shirt}`));
    expect(detectionRows(wb!)).toHaveLength(1);
    ({ wb } = await report(a, `&bFilter=${nike}&bFilter=${evil}&pFilter=${overlay}`));
    expect(detectionRows(wb!)).toHaveLength(2);
    ({ wb } = await report(a, `&tag_ids=${tagId}&without_placement=true`));
    const names = wb!.worksheets.map((w) => w.name);
    expect(names).not.toContain('By placement');
    expect(names.some((n) => n.includes('Kit deal'))).toBe(true);
  });

  it('rejects bad parameters and other organizations', async () => {
    expect((await a.get('/api/videos/excel/')).json().detail).toBe(
      'videoId: is required in the querystring.',
    );
    expect((await a.get('/api/videos/excel/?videoId=abc')).statusCode).toBe(400);
    expect((await a.get(`/api/videos/excel/?videoId=${videoId}&bFilter=999999`)).statusCode).toBe(404);
    expect((await b.get(`/api/videos/excel/?videoId=${videoId}`)).statusCode).toBe(404);
    const bTag = (
      await b.post('/api/videos/tags/', {
        name: 'B tag',
        brand: (
          await b.req({ method: 'POST', url: '/api/brands/create/', ...multipart({ name: 'B' }) })
        ).json().id,
      })
    ).json()[0].id;
    expect((await a.get(`/api/videos/excel/?videoId=${videoId}&tag_ids=${bTag}`)).statusCode).toBe(404);
  });
});

describe('verification videos', () => {
  it('renders SUBMITTED -> PROCESSING -> FINISHED into a playable file served only through its signed path', async () => {
    const created = await a.post('/api/videos/verification/', { name: 'Proof', video: videoId });
    expect(created.statusCode).toBe(201);
    const id = created.json()[0].id;
    const seen = new Set<string>([created.json()[0].status]);
    const done = await eventually(async () => {
      const v = (await a.get('/api/videos/verification/')).json()[0];
      seen.add(v.status);
      return v.status === 'FINISHED' && v;
    }, 60_000);
    expect([...seen].every((x) => ['SUBMITTED', 'PROCESSING', 'FINISHED'].includes(x))).toBe(true);
    expect(done.file_path).toMatch(/^\/media\/renders\/\d+\/verification\.mp4\?exp=/);
    const file = await s.app.inject({ method: 'GET', url: done.file_path, headers: { range: 'bytes=0-7' } });
    expect(file.statusCode).toBe(206);
    expect(file.headers['content-type']).toBe('video/mp4');
    expect(file.rawPayload.subarray(4, 8).toString()).toBe('ftyp');
    // Not listed for, nor deletable by, another organization; a forged path is refused.
    expect((await b.get('/api/videos/verification/')).json()).toEqual([]);
    expect((await b.del(`/api/videos/verification/${id}`)).statusCode).toBe(404);
    expect(
      (await s.app.inject({ method: 'GET', url: done.file_path.replace(/sig=[^&]+/, 'sig=forged') }))
        .statusCode,
    ).toBe(403);
    const [row] = await s.ctx.db.query<{ stored_path: string }>(
      'SELECT stored_path FROM verification_videos WHERE id = $1',
      [id],
    );
    const abs = s.ctx.storage.resolve(row.stored_path);
    expect(existsSync(abs)).toBe(true);
    await a.del(`/api/videos/verification/${id}`);
    expect(existsSync(abs)).toBe(false);
  });

  it('refuses a video that is not analysed, and ends as ERROR PROCESSING with a reason when rendering fails', async () => {
    // An unreadable upload is refused outright now: a video whose analysis failed stands in.
    const [{ organization_id: orgA }] = await s.ctx.db.query<{ organization_id: number }>(
      'SELECT organization_id FROM videos WHERE id = $1',
      [videoId],
    );
    const broken = {
      id: await libraryRepository.insertVideo(s.ctx.db, orgA, {
        name: 'Broken',
        folder_id: null,
        project_id: null,
        file_name: 'b.mp4',
        stored_path: 'orgs/none/b.mp4',
        size: 1,
        content_sha256: '0'.repeat(64),
      }),
    };
    await s.ctx.db.query(
      "UPDATE videos SET status = 'ERROR PROCESSING', status_reason = 'test' WHERE id = $1",
      [broken.id],
    );
    expect((await a.post('/api/videos/verification/', { name: 'x', video: broken.id })).json().detail).toBe(
      'video: Broken is not analysed yet (status ERROR PROCESSING).',
    );
    const id = (await a.post('/api/videos/verification/', { name: 'Doomed', video: videoId })).json()[0].id;
    const [{ organization_id: org }] = await s.ctx.db.query<{ organization_id: number }>(
      'SELECT organization_id FROM videos WHERE id = $1',
      [videoId],
    );
    const [{ stored_path }] = await s.ctx.db.query<{ stored_path: string }>(
      'SELECT stored_path FROM videos WHERE id = $1',
      [videoId],
    );
    await eventually(
      async () =>
        (await a.get('/api/videos/verification/')).json().find((v: { id: number }) => v.id === id).status ===
        'FINISHED',
      60_000,
    );
    rmSync(s.ctx.storage.resolve(stored_path)); // the source is gone: the render must fail
    const job = { organizationId: org, verificationId: id };
    const err = await renderVerificationJob(s.ctx, job).then(
      () => null,
      (e: Error) => e,
    );
    expect(err).toBeInstanceOf(Error);
    await renderVerificationFailed(s.ctx, job, err!);
    const v = (await a.get('/api/videos/verification/')).json().find((x: { id: number }) => x.id === id);
    expect(v.status).toBe('ERROR PROCESSING');
    expect(v.status_reason).toMatch(/Cannot read the source video/);
    expect(v.file_path).toBeNull();
  });
});
