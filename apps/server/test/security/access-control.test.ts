import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestServer, type Client, type TestServer } from '../harness.ts';
import { seedOrganization, type SeededOrganization } from '../seed-organization.ts';
import { attack } from './ledger.ts';

// OWASP ASVS 5.0 V8 Authorization (V8.2.1 function-level, V8.2.2 data-specific access). Every
// operation of the API document is tried, so a new route cannot be forgotten: without a token,
// and by organization B with organization A's ids in its path, query and body. Per-route answers
// are tested in ../tenancy.test.ts; here the property is general: B never sees A's data in any
// answer, changes nothing of A's, and no attempt makes a 5xx.
let s: TestServer;
let a: Client;
let b: Client;
let A: SeededOrganization;
const SECRET = 'Zq7secret';

beforeAll(async () => {
  s = await startTestServer();
  a = await s.user('Org A', 'alice');
  b = await s.user('Org B', 'bob');
  A = await seedOrganization(a, SECRET);
  // the brand's activation runs on its own: let it end before A's data is compared
  await eventually(async () => (await a.get('/api/brands/')).json()[0].status === 'ACTIVE');
  // the verification render runs on its own too: let it end before A's data is compared
  await eventually(async () => (await a.get('/api/videos/verification/')).json()[0].status === 'FINISHED');
});
afterAll(() => s.close());

/** Everything of A's that B could change, as A sees it. */
async function snapshotOfA(): Promise<string> {
  const urls = [
    '/api/brands/',
    '/api/videos/placements/',
    '/api/videos/',
    '/api/videos/project/',
    '/api/videos/tags/',
    '/api/videos/verification/',
    `/api/videos/detections/?videoId=${A.video}&startTime=0&endTime=5000`,
    '/api/profile/',
  ];
  const parts = await Promise.all(urls.map(async (u) => (await a.get(u)).body));
  // progress and signed URLs move on their own; ids, names, states and coordinates must not
  return parts
    .join('\n')
    .replace(/\?exp=\d+&sig=[\w-]+/g, '')
    .replace(/"progress":\d+/g, '');
}

/** A's id for a path parameter or field, by the resource the path names. */
function idFor(path: string): number {
  if (path.includes('placements')) return A.placement;
  if (path.includes('detections')) return A.detection;
  if (path.includes('verification')) return A.verification;
  if (path.includes('project')) return A.project;
  if (path.includes('tags')) return A.tag;
  if (path.includes('folder')) return A.folder;
  if (path.includes('brands')) return A.brand;
  return A.video;
}

/** A body naming A's objects in every field an operation could take an id in. */
function bodyFor(path: string): Record<string, unknown> {
  return {
    id: idFor(path),
    ids: [idFor(path)],
    name: 'taken over',
    localized_name: 'taken over',
    video: A.video,
    brand: A.brand,
    placement: A.placement,
    folder: A.folder,
    parent: A.folder,
    project: A.project,
    tag: A.tag,
    detectionIds: [A.detection],
    placementId: A.placement,
    type: 'delete',
    // the review loop: a state for the review call, a time inside A's detection for the split,
    // and A's video with a box for the tracker
    review: 'DELETED',
    videoId: A.video,
    time: 250,
    points: [1, 1, 9, 1, 9, 9, 1, 9],
    user: { first_name: 'taken over' },
    detections: [
      {
        id: A.detection,
        video: A.video,
        brand: A.brand,
        placement: A.placement,
        time_begin: 0,
        time_end: 500,
        coordinates: [{ start_time: 0, end_time: 500, points: [1, 1, 9, 1, 9, 9, 1, 9] }],
      },
    ],
  };
}

describe('access control on every route', () => {
  it('V8.2.1: every operation but login answers 401 without a token', async () => {
    const doc = (await s.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    let operations = 0;
    for (const [path, ops] of Object.entries<Record<string, unknown>>(doc.paths)) {
      for (const method of Object.keys(ops)) {
        if (path === '/api/profile/login/') continue;
        operations++;
        await attack(`no token: ${method.toUpperCase()} ${path}`, async () => {
          const url = path.replace(/\{[^}]+\}/g, String(idFor(path)));
          const r = await s.app.inject({
            method: method.toUpperCase() as 'GET',
            url,
            payload: bodyFor(path),
          });
          expect(r.statusCode).toBe(401);
        });
      }
    }
    expect(operations).toBeGreaterThan(25);
  });

  it("V8.2.2: organization B, naming A's ids in paths, queries and bodies, never sees or changes A's data", async () => {
    const before = await snapshotOfA();
    const doc = (await s.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    for (const [path, ops] of Object.entries<Record<string, { parameters?: { in: string; name: string }[] }>>(
      doc.paths,
    )) {
      for (const [method, op] of Object.entries(ops)) {
        if (path === '/api/profile/login/' || path === '/api/profile/logout/') continue;
        if (path === '/api/profile/api-key/rotate/') continue; // B's own key: nothing of A's
        const query = (op.parameters ?? [])
          .filter((p) => p.in === 'query')
          .map((p) => {
            const v = /video/i.test(p.name)
              ? A.video
              : /brand|bFilter/i.test(p.name)
                ? A.brand
                : /placement|pFilter/i.test(p.name)
                  ? A.placement
                  : /tag/i.test(p.name)
                    ? A.tag
                    : /time|Time/.test(p.name)
                      ? 0
                      : idFor(path);
            return `${p.name}=${p.name === 'endTime' ? 5000 : v}`;
          })
          .join('&');
        const url = path.replace(/\{[^}]+\}/g, String(idFor(path))) + (query ? `?${query}` : '');
        await attack(`B with A's ids: ${method.toUpperCase()} ${url}`, async () => {
          const r = await b.req({ method: method.toUpperCase() as 'GET', url, payload: bodyFor(path) });
          expect(r.statusCode, `${method} ${url}: ${r.body.slice(0, 200)}`).toBeLessThan(500);
          expect(r.body, `${method} ${url}`).not.toContain(SECRET);
          if (r.statusCode < 300 && r.headers['content-type']?.toString().includes('spreadsheet'))
            expect(r.rawPayload.includes(Buffer.from(SECRET))).toBe(false);
        });
      }
    }
    await attack("A's data unchanged after every attempt", async () => {
      expect(await snapshotOfA()).toBe(before);
    });
  });
});
