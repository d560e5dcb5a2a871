/**
 * One throughput measurement in its own process, so that its peak memory (maxRSS) is its own:
 * `node --import tsx throughput-worker.ts <video> <index-list.json> <sampleFps> <analysisHeight>`.
 * Prints one JSON line.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import {
  analyzeVideo,
  deserializeBrandIndex,
  probeVideo,
  type AnalysisStats,
} from '../../packages/engine/src/index.ts';

const [video, list, fps, height] = process.argv.slice(2);
const files = JSON.parse(await readFile(list, 'utf8')) as string[];
const brands = await Promise.all(files.map(async (f) => deserializeBrandIndex(await readFile(f))));
const info = await probeVideo(video);
const c0 = process.cpuUsage();
const t0 = performance.now();
// until the first frame is through: the detector threads start (each loads OpenCV's WASM, the
// ONNX models and the brands' index), which a long video or a warm worker pays once
let startup = NaN;
// (an engine before the detector threads' waits were counted leaves them unset)
const stats: AnalysisStats = {};
const res = await analyzeVideo(video, brands, {
  sampleFps: Number(fps),
  analysisHeight: Number(height),
  stats,
  onProgress: (p) => {
    if (p > 0 && Number.isNaN(startup)) startup = (performance.now() - t0) / 1000;
  },
});
const wall = (performance.now() - t0) / 1000;
const c = process.cpuUsage(c0);
const cpu = (c.user + c.system) / 1e6;
// Peak resident memory of this process. On Linux maxRSS survives exec, so a child spawned from a
// big parent would report the parent's peak; VmHWM belongs to this process image only.
function peakRssMb(): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]) / 1024;
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS / 1024;
}
/**
 * CPU seconds of this process's children that have ended (ffmpeg, which decodes the video): Linux's
 * cutime and cstime, in clock ticks of 1/100 s. NaN elsewhere.
 */
function childrenCpu(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields 16 and 17 of proc(5), counted from 1 with pid and comm as 1 and 2
    return (Number(f[13]) + Number(f[14])) / 100;
  } catch {
    return NaN;
  }
}
process.stdout.write(
  `${JSON.stringify({ wall, startup, cpu, childCpu: childrenCpu(), duration: info.duration, detections: res.detections.length, maxRssMb: peakRssMb(), detectorWait: stats.detectorWaitSeconds ?? null })}\n`,
);
