import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eventually, multipart, startTestServer, type Client, type TestServer } from './harness.ts';
import { pngLogo } from './fixtures.ts';
import { activateBrandJob } from '../src/jobs/activate-brand.job.ts';
import { brandsRepository } from '../src/repositories/brands.repository.ts';

let s: TestServer;
let c: Client;
beforeAll(async () => {
  s = await startTestServer();
  c = await s.user('Acme', 'ann');
});
afterAll(() => s.close());

const upload = (
  method: 'POST' | 'PUT',
  fields: Record<string, string>,
  files: Parameters<typeof multipart>[1] = [],
) => c.req({ method, url: '/api/brands/create/', ...multipart(fields, files) });

describe('brands', () => {
  it('creates a brand with example logos (201), stores them on disk and activates it', async () => {
    const logo = await pngLogo();
    const r = await upload(
      'POST',
      { name: 'Acme Cola', localized_name: 'Acme Cola DE', url: 'https://acme.example' },
      [
        { field: 'example_logos', name: 'front.png', data: logo, type: 'image/png' },
        { field: 'example_logos', name: 'side.png', data: await pngLogo('#1976d2'), type: 'image/png' },
      ],
    );
    expect(r.statusCode).toBe(201);
    const b = r.json();
    expect(b).toMatchObject({
      name: 'Acme Cola',
      localized_name: 'Acme Cola DE',
      url: 'https://acme.example',
    });
    expect(b.logos).toHaveLength(2);
    expect(b.logos[0].precision).toBeNull();
    expect(b.icon_url).toMatch(/^\/media\/logos\/\d+\/logo\.png\?exp=\d+&sig=/);
    // The icon loads like an <img> would: no Authorization header.
    const img = await s.app.inject({ method: 'GET', url: b.icon_url });
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(img.rawPayload, logo)).toBe(0);
    // A tampered signature is refused (its first character changed: to X, or to Y where it was X).
    const tampered = b.icon_url.replace(/sig=(.)/, (_: string, c: string) => `sig=${c === 'X' ? 'Y' : 'X'}`);
    expect(tampered).not.toBe(b.icon_url);
    expect((await s.app.inject({ method: 'GET', url: tampered })).statusCode).toBe(403);
    const active = await eventually(async () => {
      const list = (await c.get('/api/brands/?refresh=false')).json();
      const x = list.find((y: { id: number }) => y.id === b.id);
      return x.status === 'ACTIVE' && x;
    });
    expect(active.activation_progress).toBe(100);

    // A progress write that is slow to reach the database (on PostgreSQL it runs on another pooled
    // connection) must not land after the index and leave the brand ACTIVATING for good.
    const [{ organization_id }] = await s.ctx.db.query<{ organization_id: number }>(
      'SELECT organization_id FROM brands WHERE id = $1',
      [b.id],
    );
    const setStatus = brandsRepository.setStatus;
    const writes: Promise<void>[] = [];
    const slow = vi.spyOn(brandsRepository, 'setStatus').mockImplementation((...args) => {
      const delay = args[3].activation_progress === 100 ? 300 : 0;
      const w = new Promise((r) => setTimeout(r, delay)).then(() => setStatus(...args));
      writes.push(w);
      return w;
    });
    try {
      await activateBrandJob(s.ctx, { organizationId: organization_id, brandId: b.id });
      await Promise.all(writes); // whatever the job left running has landed now
      expect(slow.mock.calls.some((call) => call[3].activation_progress === 100)).toBe(true);
    } finally {
      slow.mockRestore();
    }
    const again = (await c.get('/api/brands/')).json().find((y: { id: number }) => y.id === b.id);
    expect([again.status, again.activation_progress]).toEqual(['ACTIVE', 100]);
  });

  it('a brand without logos is NO LOGOS; update (200) changes localized name and url, adds logos, keeps the name', async () => {
    const r = await upload('POST', { name: 'Bare' });
    expect(r.statusCode).toBe(201);
    expect(r.json()).toMatchObject({ status: 'NO LOGOS', localized_name: 'Bare', logos: [] });
    const u = await upload(
      'PUT',
      { id: String(r.json().id), name: 'Renamed', localized_name: 'Bare FR', url: 'u' },
      [{ field: 'example_logos', name: 'a.png', data: await pngLogo() }],
    );
    expect(u.statusCode).toBe(200);
    expect(u.json()).toMatchObject({ name: 'Bare', localized_name: 'Bare FR', url: 'u' });
    expect(u.json().logos).toHaveLength(1);
  });

  it('accepts SVG logos and unicode names', async () => {
    const svg = Buffer.from(
      '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="20" height="10"><rect width="20" height="10" fill="red"/></svg>',
    );
    const r = await upload('POST', { name: 'Ünïcødé 品牌 ../x' }, [
      { field: 'example_logos', name: '../../etc/passwd.svg', data: svg },
    ]);
    expect(r.statusCode).toBe(201);
    expect(r.json().name).toBe('Ünïcødé 品牌 ../x');
    expect(r.json().logos[0].file_name).toBe('passwd.svg');
    expect(r.json().logos[0].icon_url).toMatch(/logo\.svg\?/);
  });

  it('rejects bad input with a detail naming the field and stores nothing', async () => {
    const before = (await c.get('/api/brands/')).json().length;
    const noName = await upload('POST', { localized_name: 'x' });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().detail).toBe('name: is required.');
    const notImage = await upload('POST', { name: 'Evil' }, [
      {
        field: 'example_logos',
        name: 'logo.png',
        data: Buffer.from('MZ this is an executable, not a png'),
        type: 'image/png',
      },
    ]);
    expect(notImage.statusCode).toBe(400);
    expect(notImage.json().detail).toMatch(/^example_logos: logo\.png: is not an image/);
    const json = await c.post('/api/brands/create/', { name: 'json' });
    expect(json.statusCode).toBe(400);
    expect(json.json().detail).toMatch(/multipart/);
    const tooLong = await upload('POST', { name: 'x'.repeat(201) });
    expect(tooLong.statusCode).toBe(400);
    expect((await c.get('/api/brands/')).json().length).toBe(before);
    const noId = await upload('PUT', { name: 'x' });
    expect(noId.json().detail).toBe('id: is required.');
    expect((await upload('PUT', { id: '999999', localized_name: 'x' })).statusCode).toBe(404);
    expect((await upload('PUT', { id: 'abc' })).statusCode).toBe(400);
  });

  it('refuses a second brand of the same name in the organization (case and spaces aside), also when two race', async () => {
    expect((await upload('POST', { name: 'Inter' })).statusCode).toBe(201);
    const before = (await c.get('/api/brands/')).json().length;
    for (const name of ['Inter', 'inter', '  INTER ']) {
      const r = await upload('POST', { name }, [
        { field: 'example_logos', name: 'logo.png', data: await pngLogo(), type: 'image/png' },
      ]);
      expect(r.statusCode).toBe(400);
      expect(r.json().detail).toBe("name: a brand named 'Inter' already exists.");
    }
    expect((await c.get('/api/brands/')).json().length).toBe(before);
    // another organization may use the name
    const other = await s.user('Other org', 'olga');
    const theirs = await other.req({
      method: 'POST',
      url: '/api/brands/create/',
      ...multipart({ name: 'Inter' }),
    });
    expect(theirs.statusCode).toBe(201);
    // two requests at once: one brand, the other a 400 (the unique index decides, no 500)
    const both = await Promise.all([upload('POST', { name: 'Milan' }), upload('POST', { name: 'milan' })]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 400]);
  });

  it('rejects an oversized logo with 413', async () => {
    const big = Buffer.alloc(21 * 1024 * 1024, 1);
    const r = await upload('POST', { name: 'Big' }, [{ field: 'example_logos', name: 'big.png', data: big }]);
    expect(r.statusCode).toBe(413);
    expect(r.json().detail).toMatch(/too large/);
  });

  it('deactivates (kept, status DEACTIVATED) and deletes (logo files removed)', async () => {
    const r = await upload('POST', { name: 'Gone' }, [
      { field: 'example_logos', name: 'a.png', data: await pngLogo() },
    ]);
    const id = r.json().id;
    const d = await c.put('/api/brands/deactivate/', { id });
    expect(d.statusCode).toBe(200);
    expect(d.json().status).toBe('DEACTIVATED');
    const paths = await s.ctx.db.query<{ stored_path: string }>(
      'SELECT stored_path FROM brand_logos WHERE brand_id = $1',
      [id],
    );
    expect(existsSync(s.ctx.storage.resolve(paths[0].stored_path))).toBe(true);
    const del = await c.del('/api/brands/deactivate/', { id });
    expect(del.statusCode).toBe(200);
    expect(del.json().detail).toMatch(/Deleted brand Gone/);
    expect(existsSync(s.ctx.storage.resolve(paths[0].stored_path))).toBe(false);
    expect((await c.get('/api/brands/')).json().find((b: { id: number }) => b.id === id)).toBeUndefined();
    expect((await c.del('/api/brands/deactivate/', { id })).statusCode).toBe(404);
    expect((await c.put('/api/brands/deactivate/', {})).json().detail).toBe('id: is required.');
    expect((await c.put('/api/brands/deactivate/', { id: 'x' })).statusCode).toBe(400);
  });

  it('validates the refresh flag', async () => {
    expect((await c.get('/api/brands/?refresh=true')).statusCode).toBe(200);
    expect((await c.get('/api/brands/?refresh=maybe')).statusCode).toBe(400);
  });
});
