// Load generator thread of bench/api/run.ts: random windows, fixed concurrency, latencies back.
import { parentPort, workerData } from 'node:worker_threads';

const { port, token, videoId, videoMs, windowMs, requests, concurrency } = workerData;
let seed = 7;
const rand = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const latencies = [];
let returned = 0;
let next = 0;
async function one(record) {
  const start = Math.floor(rand() * (videoMs - windowMs));
  const t0 = performance.now();
  const res = await fetch(
    `http://127.0.0.1:${port}/api/videos/detections/?videoId=${videoId}&startTime=${start}&endTime=${start + windowMs}`,
    { headers: { authorization: `Token ${token}` } },
  );
  const body = await res.json();
  if (res.status !== 200) throw new Error(`status ${res.status}`);
  if (record) {
    latencies.push(performance.now() - t0);
    returned += body.length;
  }
}
for (let i = 0; i < 50; i++) await one(false); // warm-up
const t = performance.now();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next++ < requests) await one(true);
  }),
);
parentPort.postMessage({ latencies, returned, wall: (performance.now() - t) / 1000 });
