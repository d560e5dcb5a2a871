import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Client, type TestServer } from './harness.ts';

let s: TestServer;
let c: Client;
beforeAll(async () => {
  s = await startTestServer();
  c = await s.user('Acme', 'ann');
});
afterAll(() => s.close());

describe('placements', () => {
  it('every organization has automatic placements that cannot be deleted', async () => {
    const list = (await c.get('/api/videos/placements/')).json();
    const auto = list.filter((p: { manual: boolean }) => !p.manual);
    expect(auto.map((p: { localized_name: string }) => p.localized_name)).toEqual([
      'Broadcast overlay',
      'In-scene',
    ]);
    const r = await c.del(`/api/videos/placements/${auto[0].id}/`);
    expect(r.statusCode).toBe(400);
    expect(r.json().detail).toBe('Placement Broadcast overlay is automatic and cannot be deleted.');
  });

  it('creates (black by default), updates and deletes manual placements, answering the full list', async () => {
    const r = await c.post('/api/videos/placements/', { localized_name: 'Shirt' });
    expect(r.statusCode).toBe(201);
    const shirt = r.json().find((p: { localized_name: string }) => p.localized_name === 'Shirt');
    expect(shirt).toMatchObject({ color: '#000000', manual: true });
    const u = await c.put('/api/videos/placements/', {
      id: shirt.id,
      localized_name: 'Shirt front',
      color: '#FF0000',
    });
    expect(u.statusCode).toBe(200);
    expect(u.json().find((p: { id: number }) => p.id === shirt.id)).toMatchObject({
      localized_name: 'Shirt front',
      color: '#ff0000',
    });
    const d = await c.del(`/api/videos/placements/${shirt.id}/`);
    expect(d.statusCode).toBe(200);
    expect(d.json().find((p: { id: number }) => p.id === shirt.id)).toBeUndefined();
    expect((await c.del(`/api/videos/placements/${shirt.id}/`)).statusCode).toBe(404);
  });

  it('rejects bad input', async () => {
    expect((await c.post('/api/videos/placements/', {})).json().detail).toBe('localized_name: is required.');
    expect((await c.post('/api/videos/placements/', { localized_name: '' })).statusCode).toBe(400);
    const color = await c.post('/api/videos/placements/', { localized_name: 'x', color: 'red' });
    expect(color.json().detail).toBe('color: must be a hex colour like #1e88e5.');
    expect((await c.post('/api/videos/placements/', { localized_name: 7 })).statusCode).toBe(400);
    expect((await c.put('/api/videos/placements/', { id: 1, localized_name: 'x' })).json().detail).toBe(
      'color: is required.',
    );
    expect(
      (await c.put('/api/videos/placements/', { id: 999999, localized_name: 'x', color: '#000000' }))
        .statusCode,
    ).toBe(404);
    expect((await c.del('/api/videos/placements/abc/')).statusCode).toBe(400);
    const huge = await c.req({
      method: 'POST',
      url: '/api/videos/placements/',
      payload: JSON.stringify({ localized_name: 'x'.repeat(6 * 1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().detail).toBe('The request body is too large.');
  });
});
