/**
 * One throughput measurement in its own process, so that its peak memory (maxRSS) is its own:
 * `node --import tsx throughput-worker.ts <video> <index-list.json> <sampleFps> <analysisHeight>`.
 * Prints one JSON line.
 */
import { readFile } from 'node:fs/promises';
import { analyzeVideo, deserializeBrandIndex, probeVideo } from '../../packages/engine/src/index.ts';

const [video, list, fps, height] = process.argv.slice(2);
const files = JSON.parse(await readFile(list, 'utf8')) as string[];
const brands = await Promise.all(files.map(async (f) => deserializeBrandIndex(await readFile(f))));
const info = await probeVideo(video);
const c0 = process.cpuUsage();
const t0 = performance.now();
const res = await analyzeVideo(video, brands, { sampleFps: Number(fps), analysisHeight: Number(height) });
const wall = (performance.now() - t0) / 1000;
const c = process.cpuUsage(c0);
const cpu = (c.user + c.system) / 1e6;
process.stdout.write(
  `${JSON.stringify({ wall, cpu, duration: info.duration, detections: res.detections.length, maxRssMb: process.resourceUsage().maxRSS / 1024 })}\n`,
);
