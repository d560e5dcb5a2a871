/**
 * Excel report benchmark: generated detections streamed through writeExcelReport into a file.
 *
 *   node --import tsx bench/reports/excel.ts            # 10k, 100k and 300k rows side by side
 *   node --import tsx bench/reports/excel.ts 250000     # other sizes
 *
 * Each size runs in its own child process so that peak RSS (the kernel's maxrss) belongs to that run.
 */
import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  writeExcelReport,
  type ReportDetection,
  type ReportInput,
} from '../../apps/server/src/reports/excel-report.ts';

interface RunResult {
  rows: number;
  seconds: number;
  peakRssMiB: number;
  peakHeapMiB: number;
  fileMiB: number;
}

const VIDEO_SECONDS = 2 * 3600;
const WIDTH = 1920;
const HEIGHT = 1080;
const BRANDS = 30;
const PLACEMENTS = 8;

/** Small deterministic PRNG (mulberry32) so every run writes the same workbook. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Detections in id order with start times spread over the video, 1 to 4 segments each. */
async function* generate(count: number, sample: () => void): AsyncIterable<ReportDetection> {
  const rnd = random(42);
  for (let id = 1; id <= count; id++) {
    const begin = Math.floor((id / count) * VIDEO_SECONDS * 1000 + rnd() * 5000);
    const end = begin + 500 + Math.floor(rnd() * 9500);
    const segments = 1 + Math.floor(rnd() * 4);
    const coordinates = [];
    for (let s = 0; s < segments; s++) {
      const w = 40 + rnd() * 400;
      const h = 20 + rnd() * 200;
      const x = rnd() * (WIDTH - w);
      const y = rnd() * (HEIGHT - h);
      const skew = rnd() * 20;
      coordinates.push({
        start_time: begin + ((end - begin) * s) / segments,
        end_time: begin + ((end - begin) * (s + 1)) / segments,
        points: [x, y + skew, x + w, y, x + w, y + h, x, y + h - skew],
      });
    }
    yield {
      id,
      brandId: 1 + Math.floor(rnd() * BRANDS),
      placementId: 1 + Math.floor(rnd() * PLACEMENTS),
      time_begin: begin,
      time_end: end,
      coordinates,
      confidence: rnd() < 0.1 ? null : rnd(),
      review: rnd() < 0.2 ? 'TRUE_POSITIVE' : 'UNREVIEWED',
      source: rnd() < 0.05 ? 'manual' : 'engine',
      // Half reviewed: the report writes who and when for them.
      reviewed_by: id % 2 ? 'reviewer' : null,
      reviewed_at: id % 2 ? new Date(1_764_000_000_000 + id * 1000).toISOString() : null,
    };
    if (id % 1000 === 0) sample();
  }
}

async function runOne(rows: number): Promise<RunResult> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-excel-'));
  const file = join(dir, 'report.xlsx');
  let peakHeap = 0;
  const sample = () => {
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  };
  const timer = setInterval(sample, 20);
  const input: ReportInput = {
    video: {
      id: 1,
      name: 'Benchmark match',
      fps: 25,
      frames: VIDEO_SECONDS * 25,
      duration: VIDEO_SECONDS,
      width: WIDTH,
      height: HEIGHT,
    },
    brands: new Map(
      Array.from({ length: BRANDS }, (_, i) => [
        i + 1,
        { id: i + 1, name: `brand-${i + 1}`, localized_name: `Brand ${i + 1}` },
      ]),
    ),
    placements: new Map(
      Array.from({ length: PLACEMENTS }, (_, i) => [
        i + 1,
        { id: i + 1, localized_name: `Placement ${i + 1}`, color: '#ff8800', manual: i >= 6 },
      ]),
    ),
    tags: [
      { id: 1, name: 'Boards of brand 1', brand: 1, placements: [1, 2] },
      { id: 2, name: 'Brand 2 everywhere', brand: 2, placements: [] },
    ],
    withoutPlacement: false,
    detections: generate(rows, sample),
  };
  const started = process.hrtime.bigint();
  await writeExcelReport(input, createWriteStream(file));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  clearInterval(timer);
  sample();
  const result: RunResult = {
    rows,
    seconds,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
    peakHeapMiB: peakHeap / 2 ** 20,
    fileMiB: statSync(file).size / 2 ** 20,
  };
  rmSync(dir, { recursive: true, force: true });
  return result;
}

async function main(): Promise<void> {
  const child = process.argv[2] === '--child';
  if (child) {
    const result = await runOne(Number(process.argv[3]));
    process.stdout.write(JSON.stringify(result));
    return;
  }
  const sizes = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [10_000, 100_000, 300_000];
  const self = fileURLToPath(import.meta.url);
  const results: RunResult[] = sizes.map((rows) =>
    JSON.parse(
      execFileSync(process.execPath, ['--import', 'tsx', self, '--child', String(rows)], {
        encoding: 'utf8',
        maxBuffer: 1 << 20,
      }),
    ),
  );
  console.log('Excel report (streaming writer), one child process per size');
  console.log('rows      seconds  rows/s    peak RSS MiB  peak heap MiB  file MiB');
  for (const r of results) {
    console.log(
      [
        String(r.rows).padEnd(9),
        r.seconds.toFixed(2).padStart(7),
        String(Math.round(r.rows / r.seconds)).padStart(7),
        r.peakRssMiB.toFixed(1).padStart(13),
        r.peakHeapMiB.toFixed(1).padStart(14),
        r.fileMiB.toFixed(1).padStart(9),
      ].join('  '),
    );
  }
  if (results.length >= 2) {
    const [a, b] = [results[0], results[results.length - 1]];
    console.log(
      `${b.rows / a.rows}x rows: time x${(b.seconds / a.seconds).toFixed(2)}, ` +
        `peak RSS x${(b.peakRssMiB / a.peakRssMiB).toFixed(2)}, peak heap x${(b.peakHeapMiB / a.peakHeapMiB).toFixed(2)}`,
    );
  }
}

await main();
