import { readdirSync } from 'node:fs';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, multipart, startTestServer, type Client, type TestServer } from './harness.ts';
import { smallVideo } from './fixtures.ts';

let s: TestServer;
let c: Client;
beforeAll(async () => {
  s = await startTestServer();
  c = await s.user('Acme', 'ann');
});
afterAll(() => s.close());

interface Tree {
  folders: {
    id: number;
    name: string;
    path: string;
    parent: number | null;
    folders: Tree['folders'];
    videos: { id: number }[];
  }[];
  videos: { id: number }[];
}

const uploadVideo = (fields: Record<string, string>, data: Buffer | null = smallVideo(), name = 'clip.mp4') =>
  c.req({
    method: 'POST',
    url: '/api/videos/create/',
    ...multipart(fields, data ? [{ field: 'videoFile', name, data, type: 'video/mp4' }] : []),
  });

describe('folders', () => {
  it('builds the nested tree with paths; rejects duplicates and unknown parents', async () => {
    let r = await c.post('/api/videos/folder/', { name: 'Matches', parent: null });
    expect(r.statusCode).toBe(201);
    const matches = (r.json() as Tree).folders.find((f) => f.name === 'Matches')!;
    expect(matches).toMatchObject({ path: '/Matches', parent: null, folders: [], videos: [] });
    r = await c.post('/api/videos/folder/', { name: '2026 ../étoile', parent: matches.id });
    const sub = (r.json() as Tree).folders.find((f) => f.id === matches.id)!.folders[0];
    expect(sub).toMatchObject({
      name: '2026 ../étoile',
      path: '/Matches/2026 ../étoile',
      parent: matches.id,
    });
    const dup = await c.post('/api/videos/folder/', { name: 'matches', parent: null });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().detail).toBe('name: a folder named matches already exists here.');
    expect((await c.post('/api/videos/folder/', { name: 'x', parent: 999999 })).json().detail).toBe(
      'parent: unknown id 999999.',
    );
    expect((await c.post('/api/videos/folder/', { name: 'x' })).json().detail).toBe('parent: is required.');
    expect((await c.post('/api/videos/folder/', { name: '', parent: null })).statusCode).toBe(400);
  });

  it('refuses to delete a non-empty folder and deletes an empty one', async () => {
    const tree = (await c.get('/api/videos/')).json() as Tree;
    const matches = tree.folders.find((f) => f.name === 'Matches')!;
    const r = await c.del('/api/videos/folder/', { id: matches.id });
    expect(r.statusCode).toBe(400);
    expect(r.json().detail).toBe(
      'Folder Matches is not empty (0 videos, 1 folders): move or delete its contents first.',
    );
    const sub = matches.folders[0];
    const ok = await c.del('/api/videos/folder/', { id: sub.id });
    expect(ok.statusCode).toBe(200);
    expect((ok.json() as Tree).folders.find((f) => f.id === matches.id)!.folders).toEqual([]);
    expect((await c.del('/api/videos/folder/', { id: sub.id })).statusCode).toBe(404);
  });
});

describe('videos', () => {
  it('uploads (streamed to disk), probes, analyses and serves the file with Range', async () => {
    const tree = (await c.get('/api/videos/')).json() as Tree;
    const folder = tree.folders[0].id;
    const r = await uploadVideo({ name: 'Final', folder: String(folder) });
    expect(r.statusCode).toBe(201);
    const v = r.json();
    expect(v).toMatchObject({
      name: 'Final',
      folder,
      width: 160,
      height: 120,
      fps: 10,
      frames: 20,
      file_name: 'clip.mp4',
    });
    expect(v.duration).toBeCloseTo(2, 1);
    expect(v.size).toBe(smallVideo().length);
    const done = await eventually(async () => {
      const x = (await c.get(`/api/videos/${v.id}/`)).json();
      return x.status === 'OK' && x;
    });
    expect(done.progress).toBe(100);
    expect(done.request_hash).not.toBe('');
    // The <video> element sends no Authorization header, and seeks with Range.
    const part = await s.app.inject({
      method: 'GET',
      url: done.video_file,
      headers: { range: 'bytes=0-99' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-99/${smallVideo().length}`);
    expect(part.rawPayload.length).toBe(100);
    expect(Buffer.compare(part.rawPayload, smallVideo().subarray(0, 100))).toBe(0);
    // The editor's hover previews: a sprite sheet of 160 px tiles.
    expect(done.thumbnails).toMatchObject({
      tile_width: 160,
      tile_height: 120,
      columns: 10,
      interval: 1,
      count: 2,
    });
    const sprite = await s.app.inject({ method: 'GET', url: done.thumbnails.url });
    expect(sprite.statusCode).toBe(200);
    expect(sprite.headers['content-type']).toBe('image/jpeg');
    // The cards' poster frame: one tile cut from the sprite, signed the same way.
    expect(done.poster_url).toMatch(new RegExp(`^/media/posters/${v.id}/poster\\.jpg\\?exp=\\d+&sig=`));
    const poster = await s.app.inject({ method: 'GET', url: done.poster_url! });
    expect(poster.statusCode).toBe(200);
    expect(poster.headers['content-type']).toBe('image/jpeg');
    expect(jpegSize(poster.rawPayload)).toEqual({ width: 160, height: 120 });
    expect(poster.rawPayload.length).toBeLessThan(sprite.rawPayload.length);
    const again = await s.app.inject({ method: 'GET', url: done.poster_url! });
    expect(Buffer.compare(again.rawPayload, poster.rawPayload)).toBe(0);
    const unsigned = await s.app.inject({ method: 'GET', url: `/media/posters/${v.id}/poster.jpg` });
    expect(unsigned.statusCode).toBe(403);
    const forged = done.poster_url!.replace(`/posters/${v.id}/`, `/posters/${v.id + 1000}/`);
    expect((await s.app.inject({ method: 'GET', url: forged })).statusCode).toBe(403);
    const inTree = ((await c.get('/api/videos/')).json() as Tree).folders[0].videos.map((x) => x.id);
    expect(inTree).toContain(v.id);
  });

  it('refuses a file that ffprobe cannot read as a video before anything is stored or queued', async () => {
    const rows = async () => (await s.ctx.db.query('SELECT id FROM videos')).length;
    const jobs = async () => (await s.ctx.db.query('SELECT id FROM pgboss.job')).length;
    const files = () =>
      readdirSync(s.ctx.storage.resolve(''), { recursive: true, withFileTypes: true }).filter((d) =>
        d.isFile(),
      ).length;
    const [r0, j0, f0] = [await rows(), await jobs(), files()];
    for (const data of [
      Buffer.from('just some text, definitely not a video'),
      // an mp4 header with nothing after it: a truncated upload
      Buffer.from('000000186674797069736f6d0000020069736f6d69736f32', 'hex'),
    ]) {
      const r = await uploadVideo({ name: 'Not a video' }, data, 'notes.mp4');
      expect(r.statusCode).toBe(400);
      expect(r.json().detail).toMatch(/^videoFile: The file is not a video/);
    }
    expect([await rows(), await jobs(), files()]).toEqual([r0, j0, f0]);
  });

  it('rejects bad uploads and leaves no file behind', async () => {
    const countFiles = async () => (await s.ctx.db.query('SELECT id FROM videos')).length;
    const before = await countFiles();
    expect((await uploadVideo({ name: 'x' }, null)).json().detail).toBe('videoFile: is required.');
    expect((await uploadVideo({})).json().detail).toBe('name: is required.');
    expect((await uploadVideo({ name: 'x', folder: '999999' })).json().detail).toBe(
      'folder: unknown id 999999.',
    );
    expect((await uploadVideo({ name: 'x', folder: 'abc' })).json().detail).toBe(
      'folder: must be an id (a whole number).',
    );
    expect((await uploadVideo({ name: 'x', project: '999999' })).json().detail).toBe(
      'project: unknown id 999999.',
    );
    expect(await countFiles()).toBe(before);
  });

  it('updates name, folder and project; deletes the video with its file', async () => {
    const r = await uploadVideo({ name: 'Temp' });
    const v = r.json();
    const proj = (await c.post('/api/videos/project/', { name: 'P1' })).json()[0];
    const u = await c.put('/api/videos/create/', {
      id: v.id,
      name: 'Renamed',
      folder: null,
      project: proj.id,
    });
    expect(u.statusCode).toBe(200);
    const again = (await c.get(`/api/videos/${v.id}/`)).json();
    expect(again).toMatchObject({ name: 'Renamed', folder: null, project: { id: proj.id, name: 'P1' } });
    expect((await c.put('/api/videos/create/', { id: v.id, name: 'x', folder: 999999 })).statusCode).toBe(
      404,
    );
    expect((await c.put('/api/videos/create/', { id: v.id, folder: null })).json().detail).toBe(
      'name: is required.',
    );
    const [row] = await s.ctx.db.query<{ stored_path: string }>(
      'SELECT stored_path FROM videos WHERE id = $1',
      [v.id],
    );
    const file = s.ctx.storage.resolve(row.stored_path);
    expect(existsSync(file)).toBe(true);
    await eventually(async () => (await c.get(`/api/videos/${v.id}/`)).json().status === 'OK');
    const d = await c.del('/api/videos/create/', { id: v.id });
    expect(d.statusCode).toBe(200);
    expect(existsSync(file)).toBe(false);
    expect((await c.get(`/api/videos/${v.id}/`)).statusCode).toBe(404);
    expect((await c.del('/api/videos/create/', { id: v.id })).statusCode).toBe(404);
  });
});

/** Width and height from a JPEG's start-of-frame marker. */
function jpegSize(jpeg: Buffer): { width: number; height: number } {
  let at = 2;
  while (at < jpeg.length) {
    const marker = jpeg[at + 1];
    const length = jpeg.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xc3) {
      return { width: jpeg.readUInt16BE(at + 7), height: jpeg.readUInt16BE(at + 5) };
    }
    at += 2 + length;
  }
  throw new Error('no SOF marker');
}
