import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, multipart, startTestServer, type Client, type TestServer } from './harness.ts';
import { smallVideo } from './fixtures.ts';
import { TusClient } from './tus-client.ts';

let s: TestServer;
let ann: Client;
let base: string;
let tus: TusClient;
beforeAll(async () => {
  s = await startTestServer();
  ann = await s.user('Acme', 'ann');
  await s.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(s.app.server.address() as { port: number }).port}`;
  tus = new TusClient(base, `Token ${ann.token}`);
});
afterAll(() => s.close());

const uploadsDir = () => s.ctx.storage.resolve('uploads');
/** What is left of uploads under way (finished ones leave a small `.done` record). */
const partials = () =>
  existsSync(uploadsDir()) ? readdirSync(uploadsDir()).filter((f) => !f.endsWith('.done')) : [];
const videoRows = () => s.ctx.db.query<{ id: number }>('SELECT id FROM videos ORDER BY id');

describe('resumable uploads (tus)', () => {
  it('makes a video from an upload sent in two parts, exactly as the multipart route does', async () => {
    const tree = (await ann.post('/api/videos/folder/', { name: 'Tus', parent: null })).json();
    const folder = tree.folders.find((f: { name: string }) => f.name === 'Tus').id;
    const project = (
      await ann.post('/api/videos/project/', {
        name: 'P',
        description: '',
        filtered_brands: [],
        filtered_placements: [],
      })
    ).json()[0].id;
    const data = smallVideo();
    const created = await tus.create(data.length, {
      name: 'Resumed match',
      folder: String(folder),
      project: String(project),
      filename: 'match.mp4',
    });
    expect(created.status).toBe(201);
    const url = tus.urlOf(created);
    expect(new URL(url).pathname).toMatch(/^\/api\/videos\/uploads\/[0-9a-f]{32}$/);

    const half = Math.floor(data.length / 2);
    let r = await tus.patch(url, 0, data.subarray(0, half));
    expect(r.status).toBe(204);
    expect(r.headers.get('upload-offset')).toBe(String(half));
    expect(await tus.offset(url)).toBe(half);
    // A part sent at the wrong offset changes nothing.
    expect((await tus.patch(url, 0, data.subarray(0, 10))).status).toBe(409);
    r = await tus.patch(url, half, data.subarray(half));
    expect(r.status).toBe(204);
    const videoId = Number(r.headers.get('video-id'));
    expect(videoId).toBeGreaterThan(0);

    const v = (await ann.get(`/api/videos/${videoId}/`)).json();
    expect(v).toMatchObject({
      name: 'Resumed match',
      folder,
      project: { id: project },
      file_name: 'match.mp4',
      size: data.length,
    });
    // Probed, queued and analysed like any upload.
    const done = await eventually(async () => {
      const x = (await ann.get(`/api/videos/${videoId}/`)).json();
      return x.status === 'OK' && x;
    });
    expect(done.fps).toBe(10);
    // Same content hash as the multipart route stores (the analysis' request hash builds on it).
    const [row] = await s.ctx.db.query<{ content_sha256: string; stored_path: string }>(
      'SELECT content_sha256, stored_path FROM videos WHERE id = $1',
      [videoId],
    );
    expect(row.content_sha256).toBe(createHash('sha256').update(data).digest('hex'));
    expect(row.stored_path).toMatch(/^orgs\/\d+\/videos\/[0-9a-f]{32}\.mp4$/);
    const m = await ann.req({
      method: 'POST',
      url: '/api/videos/create/',
      ...multipart({ name: 'Same by multipart' }, [
        { field: 'videoFile', name: 'match.mp4', data, type: 'video/mp4' },
      ]),
    });
    expect(m.statusCode).toBe(201);
    const [mrow] = await s.ctx.db.query<{ content_sha256: string }>(
      'SELECT content_sha256 FROM videos WHERE id = $1',
      [m.json().id],
    );
    expect(mrow.content_sha256).toBe(row.content_sha256);
    // The bytes were moved, not copied: nothing of the upload is left but its record, and a
    // client that asks again (its answer lost) hears that the upload is complete.
    expect(partials()).toEqual([]);
    const head = await tus.head(url);
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe(String(data.length));
    expect(head.headers.get('video-id')).toBe(String(videoId));
    // The upload's calls are in the audit trail like the rest of the API.
    const audit = await s.ctx.db.query<{ method: string; route: string }>(
      `SELECT method, route FROM audit_log WHERE route LIKE '/api/videos/uploads/%' ORDER BY id`,
    );
    expect(audit.map((a) => a.method)).toEqual(['POST', 'PATCH', 'PATCH']);
  });

  it('makes the video when a client asks (HEAD) about an upload whose last bytes arrived but which was never finished', async () => {
    // As if the server stopped between storing the last byte and making the video: the bytes
    // are all on disk, the upload is still open. A client that resumes asks with HEAD; it must
    // not be told "complete" without a video behind it.
    const data = smallVideo();
    const url = tus.urlOf(await tus.create(data.length, { name: 'Interrupted', filename: 'i.mp4' }));
    expect((await tus.patch(url, 0, data.subarray(0, data.length - 100))).status).toBe(204);
    const id = new URL(url).pathname.split('/').pop()!;
    appendFileSync(path.join(uploadsDir(), id), data.subarray(data.length - 100));
    const head = await tus.head(url);
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe(String(data.length));
    const videoId = Number(head.headers.get('video-id'));
    expect((await ann.get(`/api/videos/${videoId}/`)).json()).toMatchObject({
      name: 'Interrupted',
      file_name: 'i.mp4',
      size: data.length,
    });
    // Asked again, the same video: made once.
    expect((await tus.head(url)).headers.get('video-id')).toBe(String(videoId));
    const rows = await s.ctx.db.query('SELECT id FROM videos WHERE name = $1', ['Interrupted']);
    expect(rows).toHaveLength(1);
  });

  it('answers a HEAD that comes while the last PATCH is making the video once the video is made', async () => {
    // A client whose last PATCH seemed lost asks with HEAD while the server, all bytes stored, is
    // still making the video (the file already moved, the row not yet written). "Gone" would make
    // it upload the file again as a second video; "complete" would report a video not in the list yet.
    const data = smallVideo();
    const url = tus.urlOf(await tus.create(data.length, { name: 'Asked early', filename: 'a.mp4' }));
    const db = s.ctx.db;
    const query = db.query.bind(db);
    let atInsert: () => void = () => undefined;
    const reached = new Promise<void>((r) => (atInsert = r));
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    db.query = (async (text: string, params?: unknown[]) => {
      if (/^\s*INSERT INTO videos\b/.test(text)) {
        atInsert();
        await gate;
      }
      return query(text, params);
    }) as typeof db.query;
    try {
      const patch = tus.patch(url, 0, data);
      await reached;
      let answered = false;
      const head = tus.head(url).finally(() => (answered = true));
      await new Promise((r) => setTimeout(r, 300));
      expect(answered).toBe(false);
      release();
      const [h, p] = await Promise.all([head, patch]);
      expect(p.status).toBe(204);
      expect(h.status).toBe(200);
      expect(h.headers.get('upload-offset')).toBe(String(data.length));
      expect(h.headers.get('video-id')).toBe(p.headers.get('video-id'));
    } finally {
      db.query = query;
      release();
    }
    const rows = await db.query('SELECT id FROM videos WHERE name = $1', ['Asked early']);
    expect(rows).toHaveLength(1);
  });

  it("checks the form when the upload is created, with the multipart route's messages", async () => {
    const detail = async (r: Promise<Response>) => {
      const res = await r;
      return [res.status, ((await res.json()) as { detail: string }).detail];
    };
    expect(await detail(tus.create(1000, { filename: 'a.mp4' }))).toEqual([400, 'name: is required.']);
    expect(await detail(tus.create(1000, { name: '  ' }))).toEqual([400, 'name: is required.']);
    expect(await detail(tus.create(1000, { name: 'A', folder: '999999' }))).toEqual([
      404,
      'folder: unknown id 999999.',
    ]);
    expect(await detail(tus.create(1000, { name: 'A', project: 'abc' }))).toEqual([
      400,
      'project: must be an id (a whole number).',
    ]);
    expect(await detail(tus.create(0, { name: 'A' }))).toEqual([400, 'videoFile: is required.']);
    expect(await detail(tus.create(1000, { name: 'x'.repeat(300) }))).toEqual([
      400,
      'name: must NOT have more than 200 characters.',
    ]);
    // The same token check as every /api call.
    const anon = new TusClient(base, '');
    expect(await detail(anon.create(1000, { name: 'A' }))).toEqual([
      401,
      'Authentication credentials were not provided.',
    ]);
    expect(partials()).toEqual([]);
  });

  it('refuses an upload larger than UPLOAD_MAX_BYTES before a byte is sent', async () => {
    const limit = s.ctx.config.uploadMaxBytes;
    s.ctx.config.uploadMaxBytes = 1000;
    try {
      const r = await tus.create(1001, { name: 'Too big' });
      expect(r.status).toBe(413);
      expect(((await r.json()) as { detail: string }).detail).toBe(
        'videoFile: the file is too large (at most 1000 bytes).',
      );
      expect((await tus.create(1000, { name: 'Fits' })).status).toBe(201);
    } finally {
      s.ctx.config.uploadMaxBytes = limit;
    }
    // The multipart route has the same limit.
    s.ctx.config.uploadMaxBytes = 1000;
    try {
      const m = await ann.req({
        method: 'POST',
        url: '/api/videos/create/',
        ...multipart({ name: 'Too big' }, [
          { field: 'videoFile', name: 'big.mp4', data: smallVideo(), type: 'video/mp4' },
        ]),
      });
      expect(m.statusCode).toBe(413);
    } finally {
      s.ctx.config.uploadMaxBytes = limit;
    }
  });

  it('refuses a file that is no video once it has arrived, and leaves nothing behind', async () => {
    const rowsBefore = await videoRows();
    const data = Buffer.from('just some text, definitely not a video');
    const url = tus.urlOf(await tus.create(data.length, { name: 'Not a video', filename: 'n.mp4' }));
    const r = await tus.patch(url, 0, data);
    expect(r.status).toBe(400);
    expect(((await r.json()) as { detail: string }).detail).toMatch(/^videoFile: The file is not a video/);
    expect(await videoRows()).toEqual(rowsBefore);
    expect(partials().filter((f) => url.endsWith(f.replace('.json', '')))).toEqual([]);
    expect((await tus.head(url)).status).toBe(404);
  });

  it("is seen only by its organization's callers", async () => {
    const bob = await s.user('Other org', 'bob');
    const other = new TusClient(base, `Token ${bob.token}`);
    const url = tus.urlOf(await tus.create(100, { name: 'Private' }));
    expect((await other.head(url)).status).toBe(404);
    expect((await other.patch(url, 0, Buffer.alloc(100))).status).toBe(404);
    expect((await other.del(url)).status).toBe(404);
    expect(await tus.offset(url)).toBe(0);
    // Its owner may give it up (the tus termination extension).
    expect((await tus.del(url)).status).toBe(204);
    expect((await tus.head(url)).status).toBe(404);
  });
});

describe('abandoned uploads', () => {
  it('are removed UPLOAD_EXPIRE_HOURS after they began', async () => {
    const t = await startTestServer({ uploadExpireHours: 5 / 3600 }); // 5 s; swept every 1.25 s
    try {
      const carol = await t.user('Acme', 'carol');
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const c = new TusClient(
        `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`,
        `Token ${carol.token}`,
      );
      const url = c.urlOf(await c.create(1000, { name: 'Left' }));
      const r = await c.patch(url, 0, Buffer.alloc(400, 1));
      expect(r.headers.get('upload-expires')).toBeTruthy();
      const id = new URL(url).pathname.split('/').pop()!;
      const dir = t.ctx.storage.resolve('uploads');
      expect(readdirSync(dir).sort()).toEqual([id, `${id}.json`]);
      await eventually(async () => readdirSync(dir).length === 0, 20_000);
      expect((await c.head(url)).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});

/** A small tmpfs over DATA_DIR/files: a real full disk (needs root, as .ci/run is). */
function mountSmallDisk(dir: string, mib: number): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${mib}m`, 'tmpfs', dir], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}
const canMount = (() => {
  if (process.getuid?.() !== 0) return false;
  const probe = path.join(process.env.TMPDIR ?? '/tmp', `lr-mount-probe-${process.pid}`);
  execFileSync('mkdir', ['-p', probe]);
  const ok = mountSmallDisk(probe, 1);
  if (ok) execFileSync('umount', [probe]);
  rmSync(probe, { recursive: true, force: true });
  return ok;
})();

describe('a full disk', () => {
  it.skipIf(!canMount)(
    'stops the upload with a clear error (507) and leaves no half video behind (needs root: it mounts a small tmpfs)',
    async () => {
      const root = s.ctx.storage.root;
      expect(mountSmallDisk(root, 40)).toBe(true);
      try {
        const rowsBefore = await videoRows();
        // An upload the disk cannot hold is refused when it is created.
        let r = await tus.create(64 * 1024 * 1024, { name: 'Huge' });
        expect(r.status).toBe(507);
        const message =
          "videoFile: the server's disk is full, the upload was stopped and its partial file removed. Please try again later.";
        expect(((await r.json()) as { detail: string }).detail).toBe(message);

        // One that fitted when it began, but the disk filled up meanwhile: the write fails.
        const size = 20 * 1024 * 1024;
        const url = tus.urlOf(await tus.create(size, { name: 'Filled', filename: 'f.mp4' }));
        const free = statfsSync(root).bavail * statfsSync(root).bsize;
        writeFileSync(path.join(root, 'filler'), Buffer.alloc(free - 4 * 1024 * 1024));
        r = await tus.patch(url, 0, Buffer.alloc(size, 3)).catch((e: Error) => {
          // The server may close the connection while the body is still being sent.
          return new Response(JSON.stringify({ detail: `connection closed: ${e.message}` }), {
            status: 599,
          });
        });
        if (r.status !== 599) {
          expect(r.status).toBe(507);
          expect(((await r.json()) as { detail: string }).detail).toBe(message);
        }
        // Either way: the partial file is gone (the space is free again), there is no upload
        // to resume, and no video row.
        await eventually(async () => partials().length === 0, 5000);
        expect((await tus.head(url)).status).toBe(404);
        expect(await videoRows()).toEqual(rowsBefore);
        rmSync(path.join(root, 'filler'));
        // With room again, an upload goes through.
        const data = smallVideo();
        const ok = tus.urlOf(await tus.create(data.length, { name: 'After', filename: 'a.mp4' }));
        expect((await tus.patch(ok, 0, data)).status).toBe(204);
      } finally {
        execFileSync('umount', ['-l', root]);
      }
    },
  );
});
