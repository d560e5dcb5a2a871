import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, multipart, startTestServer, type Client, type TestServer } from './harness.ts';
import { smallVideo } from './fixtures.ts';

let s: TestServer;
let c: Client;
let brandId: number;
let placementIds: number[];
beforeAll(async () => {
  s = await startTestServer();
  c = await s.user('Acme', 'ann');
  brandId = (
    await c.req({ method: 'POST', url: '/api/brands/create/', ...multipart({ name: 'Nike' }) })
  ).json().id;
  placementIds = (await c.get('/api/videos/placements/')).json().map((p: { id: number }) => p.id);
});
afterAll(() => s.close());

describe('projects', () => {
  it('creates, updates with hidden brands and placements as objects, deletes', async () => {
    const r = await c.post('/api/videos/project/', {
      name: 'League',
      description: 'line 1\nline 2',
      filtered_brands: [{ id: brandId }],
      filtered_placements: [placementIds[0]],
    });
    expect(r.statusCode).toBe(201);
    const p = r.json().find((x: { name: string }) => x.name === 'League');
    expect(p.filtered_brands).toEqual([{ id: brandId, name: 'Nike', localized_name: 'Nike' }]);
    expect(p.filtered_placements).toEqual([
      expect.objectContaining({ id: placementIds[0], localized_name: 'Broadcast overlay' }),
    ]);
    const u = await c.put('/api/videos/project/', {
      id: p.id,
      name: 'League 2',
      description: '',
      filtered_brands: [],
      filtered_placements: [],
    });
    expect(u.statusCode).toBe(200);
    expect(u.json().find((x: { id: number }) => x.id === p.id)).toMatchObject({
      name: 'League 2',
      filtered_brands: [],
      filtered_placements: [],
    });
    const d = await c.del('/api/videos/project/', { id: p.id });
    expect(d.json().find((x: { id: number }) => x.id === p.id)).toBeUndefined();
  });

  it('rejects bad input', async () => {
    expect((await c.post('/api/videos/project/', { description: 'x' })).json().detail).toBe(
      'name: is required.',
    );
    expect((await c.post('/api/videos/project/', { name: '   ' })).json().detail).toBe('name: is required.');
    expect(
      (await c.post('/api/videos/project/', { name: 'x', filtered_brands: [999999] })).json().detail,
    ).toBe('filtered_brands: unknown id 999999.');
    expect((await c.post('/api/videos/project/', { name: 'x', filtered_brands: 'all' })).statusCode).toBe(
      400,
    );
    expect((await c.put('/api/videos/project/', { name: 'x' })).json().detail).toBe('id: is required.');
    expect((await c.put('/api/videos/project/', { id: 999999, name: 'x' })).statusCode).toBe(404);
    expect((await c.del('/api/videos/project/', { id: 999999 })).statusCode).toBe(404);
  });
});

describe('tags', () => {
  it('creates and updates (archived) tags, answering the full list', async () => {
    const r = await c.post('/api/videos/tags/', {
      name: 'Kit',
      brand: brandId,
      placements: placementIds,
      project: null,
    });
    expect(r.statusCode).toBe(201);
    const t = r.json().find((x: { name: string }) => x.name === 'Kit');
    expect(t).toEqual({
      id: t.id,
      name: 'Kit',
      brand: brandId,
      placements: [...placementIds].sort((a, b) => a - b),
      project: null,
      archived: false,
    });
    const u = await c.put('/api/videos/tags/', {
      id: t.id,
      name: 'Kit 2',
      brand: brandId,
      placements: [],
      project: null,
      archived: true,
    });
    expect(u.statusCode).toBe(200);
    expect(u.json().find((x: { id: number }) => x.id === t.id)).toMatchObject({
      name: 'Kit 2',
      placements: [],
      archived: true,
    });
    expect((await c.get('/api/videos/tags/')).json()).toHaveLength(1);
  });

  it('rejects bad input', async () => {
    expect((await c.post('/api/videos/tags/', { name: 'x' })).json().detail).toBe('brand: is required.');
    expect((await c.post('/api/videos/tags/', { name: 'x', brand: 'abc' })).statusCode).toBe(400);
    expect((await c.post('/api/videos/tags/', { name: 'x', brand: 999999 })).json().detail).toBe(
      'brand: unknown id 999999.',
    );
    expect(
      (await c.post('/api/videos/tags/', { name: 'x', brand: brandId, placements: [999999] })).json().detail,
    ).toBe('placements: unknown id 999999.');
    expect(
      (await c.post('/api/videos/tags/', { name: 'x', brand: brandId, project: 999999 })).json().detail,
    ).toBe('project: unknown id 999999.');
    expect((await c.put('/api/videos/tags/', { id: 999999, name: 'x', brand: brandId })).statusCode).toBe(
      404,
    );
  });
});

describe('verification videos', () => {
  it('creates as SUBMITTED, renames, refuses a video change, deletes', async () => {
    const v = (
      await c.req({
        method: 'POST',
        url: '/api/videos/create/',
        ...multipart({ name: 'Clip' }, [{ field: 'videoFile', name: 'c.mp4', data: smallVideo() }]),
      })
    ).json();
    await eventually(async () => (await c.get(`/api/videos/${v.id}/`)).json().status === 'OK');
    const r = await c.post('/api/videos/verification/', { name: 'Proof', video: v.id });
    expect(r.statusCode).toBe(201);
    const ver = r.json()[0];
    expect(ver).toMatchObject({ name: 'Proof', video: v.id });
    expect(['SUBMITTED', 'PROCESSING', 'FINISHED']).toContain(ver.status);
    const u = await c.put('/api/videos/verification/', { id: ver.id, name: 'Proof 2' });
    expect(u.json()[0].name).toBe('Proof 2');
    expect((await c.put('/api/videos/verification/', { id: ver.id, video: 999999 })).statusCode).toBe(400);
    expect((await c.post('/api/videos/verification/', { name: 'x', video: 999999 })).json().detail).toBe(
      'video: unknown id 999999.',
    );
    expect((await c.post('/api/videos/verification/', { name: '', video: v.id })).statusCode).toBe(400);
    expect((await c.post('/api/videos/verification/', { video: v.id })).json().detail).toBe(
      'name: is required.',
    );
    const d = await c.del(`/api/videos/verification/${ver.id}`);
    expect(d.statusCode).toBe(200);
    expect(d.json()).toEqual([]);
    expect((await c.del(`/api/videos/verification/${ver.id}`)).statusCode).toBe(404);
  });
});
