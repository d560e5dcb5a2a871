/**
 * Verification render benchmark: 720p generated footage with moving detections.
 *
 *   node --import tsx bench/reports/render.ts [seconds=20] [detections=20]
 *
 * Prints the realtime factor (video seconds / wall seconds) of renderVerificationVideo and the CPU
 * seconds it used (ffmpeg processes included), next to a plain ffmpeg transcode of the same file
 * with the same encoder settings, for a clean and a grainy source. Wall time depends on what else
 * runs on the machine; CPU seconds per video second do not, and below 2 means faster than real
 * time on two idle cores.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  renderVerificationVideo,
  type RenderDetection,
} from '../../apps/server/src/reports/verification-render.ts';

const run = promisify(execFile);
const WIDTH = 1280;
const HEIGHT = 720;
const FPS = 25;
// The parent runs itself as `--child <source> <output> <seconds> <detections>` to time one render.
const isChild = process.argv[2] === '--child';
const positional = isChild ? process.argv.slice(5) : process.argv.slice(2);
const seconds = Number(positional[0] ?? 20);
const detectionCount = Number(positional[1] ?? 20);

/** Detections spread over the video, each drifting and rotating, a new quad every 200 ms. */
function movingDetections(): RenderDetection[] {
  const colors = ['#e53935', '#43a047', '#1e88e5', '#fdd835', '#8e24aa', '#00acc1'];
  return Array.from({ length: detectionCount }, (_, i) => {
    const begin = Math.round(((i * 0.37) % 0.5) * seconds * 1000);
    const end = Math.min(seconds * 1000, begin + Math.round(seconds * 500));
    const coordinates = [];
    for (let t = begin; t < end; t += 200) {
      const p = (t - begin) / Math.max(1, end - begin);
      const cx = 100 + ((i * 97 + p * 900) % (WIDTH - 200));
      const cy = 80 + ((i * 53 + p * 300) % (HEIGHT - 160));
      const w = 80 + (i % 5) * 30;
      const h = 40 + (i % 3) * 20;
      const angle = p * Math.PI * 0.5 + i;
      const corners = [
        [-w / 2, -h / 2],
        [w / 2, -h / 2],
        [w / 2, h / 2],
        [-w / 2, h / 2],
      ].flatMap(([x, y]) => [
        cx + x * Math.cos(angle) - y * Math.sin(angle),
        cy + x * Math.sin(angle) + y * Math.cos(angle),
      ]);
      coordinates.push({ start_time: t, end_time: Math.min(end, t + 200), points: corners });
    }
    return {
      brandName: `Brand ${i + 1}`,
      color: colors[i % colors.length],
      time_begin: begin,
      time_end: end,
      coordinates,
    };
  });
}

interface Timing {
  wall: number;
  /** User + system CPU seconds of the process and the ffmpeg processes it waited for. */
  cpu: number | null;
}

/** Runs a command under GNU time (if installed) to get the CPU of the whole process tree. */
async function timed(command: string, args: string[]): Promise<Timing> {
  const started = performance.now();
  try {
    const { stderr } = await run('/usr/bin/time', ['-f', 'CPU %U %S', command, ...args], {
      maxBuffer: 1 << 24,
    });
    const match = /CPU ([\d.]+) ([\d.]+)\s*$/.exec(stderr);
    return {
      wall: (performance.now() - started) / 1000,
      cpu: match ? Number(match[1]) + Number(match[2]) : null,
    };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    await run(command, args, { maxBuffer: 1 << 24 });
    return { wall: (performance.now() - started) / 1000, cpu: null };
  }
}

async function renderInThisProcess(source: string, output: string): Promise<void> {
  await renderVerificationVideo({
    input: source,
    output,
    width: WIDTH,
    height: HEIGHT,
    fps: FPS,
    duration: seconds,
    detections: movingDetections(),
  });
}

function describe(name: string, t: Timing): string {
  const cpu =
    t.cpu === null
      ? 'cpu n/a'
      : `${t.cpu.toFixed(1)} CPU s (${(t.cpu / seconds).toFixed(2)} CPU s per video s)`;
  return `${name.padEnd(44)} ${t.wall.toFixed(2).padStart(6)} s wall, realtime x${(seconds / t.wall).toFixed(2)}, ${cpu}`;
}

async function main(): Promise<void> {
  if (isChild) {
    await renderInThisProcess(process.argv[3], process.argv[4]);
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), 'bench-render-'));
  const self = fileURLToPath(import.meta.url);
  try {
    console.log(
      `Verification render, ${WIDTH}x${HEIGHT} @ ${FPS} fps, ${seconds} s, ${detectionCount} moving detections, ` +
        `${cpus().length} cores, load average ${loadavg()[0].toFixed(1)} at start`,
    );
    const sources = [
      { name: 'clean', filter: '' },
      // Temporal noise makes every frame expensive to encode: a grainy-broadcast worst case.
      { name: 'grainy', filter: ',noise=alls=8:allf=t' },
    ];
    for (const { name, filter } of sources) {
      const source = join(dir, `${name}.mp4`);
      await run('ffmpeg', [
        ...['-v', 'error', '-f', 'lavfi', '-i', `testsrc2=size=${WIDTH}x${HEIGHT}:rate=${FPS}${filter}`],
        ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-t', String(seconds)],
        ...[
          '-c:v',
          'libx264',
          '-preset',
          'veryfast',
          '-pix_fmt',
          'yuv420p',
          '-c:a',
          'aac',
          '-shortest',
          '-y',
          source,
        ],
      ]);
      const render = await timed(process.execPath, [
        '--import',
        'tsx',
        self,
        '--child',
        source,
        join(dir, 'render.mp4'),
      ]);
      // The same decode and encode by ffmpeg alone: what the pipeline costs on top of the codec work.
      const transcode = await timed('ffmpeg', [
        ...['-v', 'error', '-i', source, '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23'],
        ...['-maxrate', '3917k', '-bufsize', '7834k', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '128k'],
        ...['-movflags', '+faststart', '-y', join(dir, 'transcode.mp4')],
      ]);
      console.log(describe(`${name}: render (decode | draw in JS | x264)`, render));
      console.log(describe(`${name}: plain ffmpeg transcode, same settings`, transcode));
    }
    console.log(`load average ${loadavg()[0].toFixed(1)} at end`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
