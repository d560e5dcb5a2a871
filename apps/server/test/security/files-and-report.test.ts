import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, multipart, startTestServer, type Client, type TestServer } from '../harness.ts';
import { pngLogo, smallVideo } from '../fixtures.ts';
import { attack } from './ledger.ts';

// OWASP ASVS 5.0 V5 File Handling (upload validation, serving, path traversal) and V1 Encoding
// (formula injection in the Excel export, V1.2.10 in the 5.0 layout as we read it).
let s: TestServer;
let c: Client;
beforeAll(async () => {
  s = await startTestServer();
  c = await s.user('Acme', 'ann');
});
afterAll(() => s.close());

const uploadVideo = (name: string, data: Buffer) =>
  c.req({
    method: 'POST',
    url: '/api/videos/create/',
    ...multipart({ name }, [{ field: 'videoFile', name: `${name}.mp4`, data, type: 'video/mp4' }]),
  });
const uploadLogo = (name: string, data: Buffer, file = 'logo.png') =>
  c.req({
    method: 'POST',
    url: '/api/brands/create/',
    ...multipart({ name }, [{ field: 'example_logos', name: file, data }]),
  });
const videoCount = async () =>
  JSON.stringify((await c.get('/api/videos/')).json()).match(/"status"/g)?.length ?? 0;

describe('file handling', () => {
  it('V5.2.2: a video upload that is no readable video gets 400 before anything is stored or queued', async () => {
    const before = await videoCount();
    const video = smallVideo();
    for (const [what, data] of [
      ['zero bytes', Buffer.alloc(0)],
      ['a truncated MP4', video.subarray(0, Math.floor(video.length / 3))],
      ['text named .mp4', Buffer.from('just some text, not a video\n'.repeat(100))],
    ] as const)
      await attack(`video upload: ${what}`, async () => {
        const r = await uploadVideo(what, data);
        expect(r.statusCode).toBe(400);
        expect(r.json().detail).toEqual(expect.any(String));
      });
    expect(await videoCount()).toBe(before);
  });

  it('V5.2.1 V5.2.2: logo images that are not images, or claim huge dimensions, get 400', async () => {
    // a PNG whose header claims 100000 x 100000 pixels (a decompression bomb)
    const png = await pngLogo();
    const bomb = Buffer.from(png);
    bomb.writeUInt32BE(100_000, 16);
    bomb.writeUInt32BE(100_000, 20);
    const svgBomb = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="200000" height="200000"><rect width="10" height="10"/></svg>',
    );
    for (const [what, data, file] of [
      ['a PNG claiming 100000x100000', bomb, 'bomb.png'],
      ['an SVG claiming 200000x200000', svgBomb, 'bomb.svg'],
      ['an executable named .png', Buffer.from('MZ\x90\x00 not an image'), 'x.png'],
      ['zero bytes', Buffer.alloc(1), 'empty.png'],
    ] as const)
      await attack(`logo upload: ${what}`, async () => {
        const r = await uploadLogo(`Bad ${what}`, data, file);
        expect(r.statusCode).toBe(400);
        expect(
          (await c.get('/api/brands/')).json().some((b: { name: string }) => b.name === `Bad ${what}`),
        ).toBe(false);
      });
  });

  it('V5.3.2 V5.3.1: media paths refuse traversal, tampered and expired signatures', async () => {
    const brand = (await uploadLogo('Media', await pngLogo())).json();
    const url: string = brand.icon_url;
    expect((await s.app.inject({ method: 'GET', url })).statusCode).toBe(200);
    const sig = url.slice(url.indexOf('?'));
    for (const bad of [
      '/media/../../etc/passwd',
      '/media/%2e%2e/%2e%2e/etc/passwd',
      `/media/logos/..%2f..%2f..%2fetc/passwd${sig}`,
      `/media/logos/${brand.logos[0].id}/..%2f..%2f..%2f..%2fetc%2fpasswd${sig}`,
      `/media/logos/${brand.logos[0].id}/%2e%2e%2f%2e%2e%2fpackage.json${sig}`,
      url.replace(/sig=[\w-]+/, 'sig=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'),
      url.replace(/exp=\d+/, 'exp=1000'),
      url.replace(/exp=(\d+)/, (_m, e) => `exp=${Number(e) + 1}`),
      url.split('?')[0],
    ])
      await attack(`media path ${bad.slice(0, 60)}`, async () => {
        const r = await s.app.inject({ method: 'GET', url: bad });
        // a path that normalises out of /media/ is an app route: the app's page, never a file
        if (r.statusCode === 200) expect(r.headers['content-type']).toMatch(/^text\/html/);
        else expect([400, 403, 404], `${bad}: ${r.statusCode}`).toContain(r.statusCode);
        expect(r.body).not.toMatch(/root:|"workspaces"/);
      });
  });
});

describe('the Excel report', () => {
  it('V1.2.10: names that a spreadsheet would run as formulas are written as text', async () => {
    const evil = ['=HYPERLINK("http://x","y")', '+1+1', '-2+3', '@SUM(A1)', '\t=1+2', '\r=1+3'];
    const video = (await uploadVideo('=cmd|calc', smallVideo())).json();
    await eventually(async () => (await c.get(`/api/videos/${video.id}/`)).json().status === 'OK');
    const placements = (await c.post('/api/videos/placements/', { localized_name: '=EVIL()' })).json();
    const placement = placements.find((p: { localized_name: string }) => p.localized_name === '=EVIL()').id;
    const detections = [];
    for (const name of evil) {
      const b = (await c.req({ method: 'POST', url: '/api/brands/create/', ...multipart({ name }) })).json();
      detections.push({
        video: video.id,
        brand: b.id,
        placement,
        time_begin: 0,
        time_end: 1000,
        coordinates: [{ start_time: 0, end_time: 1000, points: [0, 0, 10, 0, 10, 10, 0, 10] }],
      });
    }
    const created = await c.post('/api/videos/detections/', { detections });
    expect(created.statusCode, created.body).toBeLessThan(300);
    const r = await c.req({ method: 'GET', url: `/api/videos/excel/?videoId=${video.id}` });
    expect(r.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    const bytes = r.rawPayload;
    await wb.xlsx.load(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
    );
    const cells: ExcelJS.Cell[] = [];
    wb.eachSheet((ws) => ws.eachRow((row) => row.eachCell((cell) => cells.push(cell))));
    // names are stored trimmed: the tab and carriage return go, the formula stays
    for (const name of [...evil.map((n) => n.trim()), '=EVIL()', '=cmd|calc'])
      await attack(`formula injection through '${JSON.stringify(name)}'`, async () => {
        const found = cells.filter((cell) => typeof cell.value === 'string' && cell.value.includes(name));
        expect(found.length, name).toBeGreaterThan(0);
        for (const cell of found) expect(String(cell.value)).toMatch(/^'/);
      });
    await attack('no cell of the report is a formula', async () => {
      expect(cells.filter((cell) => cell.type === ExcelJS.ValueType.Formula)).toEqual([]);
    });
  });
});
