import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart, startTestServer, type Client, type TestServer } from './harness.ts';
import { smallVideo } from './fixtures.ts';
import { seedOrganization, type SeededOrganization } from './seed-organization.ts';

/** Two organizations: B must never read, change or download A's rows or files. */
let s: TestServer;
let a: Client;
let b: Client;
let A: SeededOrganization;

beforeAll(async () => {
  s = await startTestServer();
  a = await s.user('Org A', 'alice');
  b = await s.user('Org B', 'bob');
  A = await seedOrganization(a, 'Secret');
});
afterAll(() => s.close());

describe('tenancy', () => {
  it("lists show none of the other organization's rows", async () => {
    const text = JSON.stringify([
      (await b.get('/api/brands/')).json(),
      (await b.get('/api/videos/placements/')).json(),
      (await b.get('/api/videos/')).json(),
      (await b.get('/api/videos/project/')).json(),
      (await b.get('/api/videos/tags/')).json(),
      (await b.get('/api/videos/verification/')).json(),
      (await b.get('/api/profile/')).json(),
    ]);
    expect(text).not.toMatch(/Secret|Org A|alice/);
  });

  it("every call naming another organization's id answers 404 and changes nothing", async () => {
    const detectionBody = (over: Record<string, number>) => ({
      detections: [
        {
          video: A.video,
          brand: A.brand,
          placement: A.placement,
          time_begin: 0,
          time_end: 10,
          coordinates: [{ start_time: 0, end_time: 10, points: [0, 0, 1, 0, 1, 1, 0, 1] }],
          ...over,
        },
      ],
    });
    const bPlacement = (await b.get('/api/videos/placements/')).json()[0].id;
    const bBrand = (
      await b.req({ method: 'POST', url: '/api/brands/create/', ...multipart({ name: 'B brand' }) })
    ).json().id;
    const bVideo = (
      await b.req({
        method: 'POST',
        url: '/api/videos/create/',
        ...multipart({ name: 'B video' }, [{ field: 'videoFile', name: 'v.mp4', data: smallVideo() }]),
      })
    ).json().id;
    const calls: [string, () => Promise<{ statusCode: number }>][] = [
      [
        'brand update',
        () =>
          b.req({
            method: 'PUT',
            url: '/api/brands/create/',
            ...multipart({ id: String(A.brand), localized_name: 'hacked' }),
          }),
      ],
      ['brand deactivate', () => b.put('/api/brands/deactivate/', { id: A.brand })],
      ['brand delete', () => b.del('/api/brands/deactivate/', { id: A.brand })],
      [
        'placement update',
        () =>
          b.put('/api/videos/placements/', { id: A.placement, localized_name: 'hacked', color: '#000000' }),
      ],
      ['placement delete', () => b.del(`/api/videos/placements/${A.placement}/`)],
      ['folder create in', () => b.post('/api/videos/folder/', { name: 'x', parent: A.folder })],
      ['folder delete', () => b.del('/api/videos/folder/', { id: A.folder })],
      ['video get', () => b.get(`/api/videos/${A.video}/`)],
      ['video update', () => b.put('/api/videos/create/', { id: A.video, name: 'hacked', folder: null })],
      ['video move into', () => b.put('/api/videos/create/', { id: bVideo, name: 'x', folder: A.folder })],
      ['video delete', () => b.del('/api/videos/create/', { id: A.video })],
      [
        'upload into folder',
        () =>
          b.req({
            method: 'POST',
            url: '/api/videos/create/',
            ...multipart({ name: 'x', folder: String(A.folder) }, [
              { field: 'videoFile', name: 'v.mp4', data: smallVideo() },
            ]),
          }),
      ],
      ['project update', () => b.put('/api/videos/project/', { id: A.project, name: 'hacked' })],
      ['project delete', () => b.del('/api/videos/project/', { id: A.project })],
      [
        'project hides foreign brand',
        () => b.post('/api/videos/project/', { name: 'x', filtered_brands: [A.brand] }),
      ],
      ['tag update', () => b.put('/api/videos/tags/', { id: A.tag, name: 'hacked', brand: bBrand })],
      ['tag with foreign brand', () => b.post('/api/videos/tags/', { name: 'x', brand: A.brand })],
      ['verification create', () => b.post('/api/videos/verification/', { name: 'x', video: A.video })],
      [
        'verification update',
        () => b.put('/api/videos/verification/', { id: A.verification, name: 'hacked' }),
      ],
      ['verification delete', () => b.del(`/api/videos/verification/${A.verification}`)],
      [
        'detection window',
        () => b.get(`/api/videos/detections/?videoId=${A.video}&startTime=0&endTime=10000`),
      ],
      [
        'detection post on foreign video',
        () => b.post('/api/videos/detections/', detectionBody({ brand: bBrand, placement: bPlacement })),
      ],
      [
        'detection post with foreign brand',
        () => b.post('/api/videos/detections/', detectionBody({ video: bVideo, placement: bPlacement })),
      ],
      [
        'detection placement',
        () => b.put('/api/videos/detections/', { placementId: bPlacement, detectionIds: [A.detection] }),
      ],
      [
        'detection change all',
        () =>
          b.put('/api/videos/detections/change/', {
            brandIds: [],
            placementIds: [],
            newPlacementId: bPlacement,
            videoId: A.video,
          }),
      ],
      [
        'detection report',
        () => b.put('/api/videos/detections/report/', { detectionIds: [A.detection], type: 'delete' }),
      ],
      [
        'detection patch',
        () =>
          b.patch(`/api/videos/detections/${A.detection}/`, {
            coordinates: [{ start_time: 0, end_time: 10, points: [0, 0, 1, 0, 1, 1, 0, 1] }],
          }),
      ],
    ];
    for (const [name, call] of calls) {
      const r = await call();
      expect({ name, status: r.statusCode }).toEqual({ name, status: 404 });
    }
    // Nothing of A changed.
    const brand = (await a.get('/api/brands/')).json().find((x: { id: number }) => x.id === A.brand);
    expect(brand).toMatchObject({
      localized_name: 'Secret brand',
      status: expect.not.stringMatching('DEACTIVATED'),
    });
    expect((await a.get(`/api/videos/${A.video}/`)).json()).toMatchObject({
      name: 'Secret video',
      folder: A.folder,
    });
    const dets = (await a.get(`/api/videos/detections/?videoId=${A.video}&startTime=0&endTime=10000`)).json();
    expect(dets).toHaveLength(1);
    expect(dets[0].placement.id).toBe(A.placement);
    expect((await a.get('/api/videos/project/')).json()[0].name).toBe('Secret project');
    expect((await a.get('/api/videos/tags/')).json()[0].name).toBe('Secret tag');
    expect((await a.get('/api/videos/verification/')).json()[0].name).toBe('Secret proof');
    expect(
      (await a.get('/api/videos/placements/'))
        .json()
        .some((p: { localized_name: string }) => p.localized_name === 'Secret place'),
    ).toBe(true);
  });

  it('files are served only through the signed paths handed to their organization', async () => {
    expect((await s.app.inject({ method: 'GET', url: A.videoFile })).statusCode).toBe(200);
    // Another id under the same signature, or no signature, is refused.
    const otherId = A.videoFile.replace(`/videos/${A.video}/`, `/videos/${A.video + 1}/`);
    expect((await s.app.inject({ method: 'GET', url: otherId })).statusCode).toBe(403);
    expect((await s.app.inject({ method: 'GET', url: A.videoFile.split('?')[0] })).statusCode).toBe(403);
    expect((await s.app.inject({ method: 'GET', url: A.logoUrl.split('?')[0] })).statusCode).toBe(403);
    // An expired signature is refused.
    const expired = A.videoFile.replace(/exp=\d+/, 'exp=1000');
    expect((await s.app.inject({ method: 'GET', url: expired })).statusCode).toBe(403);
  });
});
