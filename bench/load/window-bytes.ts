/**
 * What the API's thread spends to send one editor window, as a string or as bytes (session 17).
 * The window query's answer is the JSON of ~1,300 detections joined together (1.3-1.5 MB). Joined
 * as a string, Fastify encodes it to UTF-8 for every answer; joined from each detection's bytes
 * (what DetectionJsonCache now keeps, joined by the window query's own `jsonArray`), it is copied. Both variants run side by side in one
 * process, alternating, against a Fastify server on loopback; the client reads every body.
 *
 *   node --import tsx bench/load/window-bytes.ts [--rounds 5] [--requests 100] [--detections 1325]
 *
 * Prints, per variant, the server's CPU time per answer (the route's synchronous part and the whole
 * process, client included) and the wall time per request, then the ratio.
 */
import { parseArgs } from 'node:util';
import Fastify from 'fastify';
import { jsonArray } from '../../apps/server/src/repositories/detection-json-cache.ts';
import { generateDetections, percentile } from '../editor/generate-detections.ts';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    requests: { type: 'string', default: '100' },
    detections: { type: 'string', default: '1325' },
  },
});
const ROUNDS = Number(args.rounds);
const REQUESTS = Number(args.requests);

// Detections of the editor benchmarks' generator, each as the JSON the database builds for it.
const dets = generateDetections(Number(args.detections), 10_000);
const pieces = dets.map((d) =>
  JSON.stringify({
    ...d,
    video: 1,
    review: 'UNREVIEWED',
    source: 'engine',
    reviewed_by: null,
    reviewed_at: null,
  }),
);
const bytes = pieces.map((p) => Buffer.from(p));

type Variant = 'string' | 'bytes';
const handlerCpu: Record<Variant, number[]> = { string: [], bytes: [] };
const app = Fastify({ logger: false });
app.get<{ Querystring: { v: Variant } }>('/w', async (req, reply) => {
  const t = process.cpuUsage();
  let body: string | Buffer;
  if (req.query.v === 'string') body = `[${pieces.join(', ')}]`;
  else body = jsonArray(bytes);
  reply.type('application/json; charset=utf-8').send(body);
  const d = process.cpuUsage(t);
  handlerCpu[req.query.v].push((d.user + d.system) / 1000);
  return reply;
});
const url = await app.listen({ host: '127.0.0.1', port: 0 });

const wall: Record<Variant, number[]> = { string: [], bytes: [] };
const cpu: Record<Variant, number> = { string: 0, bytes: 0 };
let size = 0;
for (let r = 0; r < ROUNDS; r++) {
  for (const v of (r % 2 ? ['bytes', 'string'] : ['string', 'bytes']) as Variant[]) {
    const c0 = process.cpuUsage();
    for (let i = 0; i < REQUESTS; i++) {
      const t0 = performance.now();
      const body = await (await fetch(`${url}/w?v=${v}`)).arrayBuffer();
      wall[v].push(performance.now() - t0);
      size = body.byteLength;
    }
    const c = process.cpuUsage(c0);
    cpu[v] += (c.user + c.system) / 1000;
  }
}
await app.close();

const n = ROUNDS * REQUESTS;
const f = (x: number) => x.toFixed(2);
console.log(
  `window of ${pieces.length} detections, ${(size / 1e6).toFixed(2)} MB; ${ROUNDS} rounds of ${REQUESTS} requests each`,
);
console.log('variant | route CPU ms (p50) | process CPU ms per request | wall ms per request (p50)');
for (const v of ['string', 'bytes'] as Variant[])
  console.log(
    `${v.padEnd(7)} | ${f(percentile(handlerCpu[v], 50)).padStart(18)} | ${f(cpu[v] / n).padStart(26)} | ${f(percentile(wall[v], 50)).padStart(25)}`,
  );
console.log(
  `string / bytes: route CPU ${f(percentile(handlerCpu.string, 50) / percentile(handlerCpu.bytes, 50))}x, ` +
    `process CPU ${f(cpu.string / cpu.bytes)}x, wall ${f(percentile(wall.string, 50) / percentile(wall.bytes, 50))}x`,
);
