/**
 * The camera-motion estimate (packages/engine/src/motion.ts) against the labelled boards of the real
 * set: `node --import tsx bench/engine/motion.ts [--engine <tree>]`.
 *
 * Where two scored frames of a broadcast clip lie half a second apart, the boards' own motion between
 * them is read off the labels: every pair of in-scene labels of one brand (one in each frame) gives
 * a displacement of their centres, and the displacement that the most pairs agree on (within 8 px)
 * is the scene's, averaged over those pairs (a board and its neighbour of the same brand give wrong
 * pairs, which scatter). The engine's estimate over the same half second is the sum of its steps
 * between the 4 fps samples in between, at the analysis size that analyzeVideo uses. Prints both
 * for each pair of frames and the mean error, and the estimate's time per frame.
 *
 * `--engine <tree>` measures another checkout's motion.ts (e.g. the worktree that versus.ts makes).
 * `--video-size WxH` measures on the clips' re-encodes at that size that `real.ts --video-size`
 * made (under .bench-out/engine/encodes, the newest of each clip), as the real set is scored at
 * 1280x720; errors are still in the labels' pixels.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Quad, Truth } from './real-set/truth.ts';

const { values: args } = parseArgs({
  options: { engine: { type: 'string' }, 'video-size': { type: 'string' } },
});
const ROOT = resolve(import.meta.dirname, '../..');
const tree = resolve(args.engine ?? ROOT);
type Motion = typeof import('../../packages/engine/src/motion.ts');
type Video = typeof import('../../packages/engine/src/video.ts');
type Analyze = typeof import('../../packages/engine/src/analyze.ts');
const motion = (await import(join(tree, 'packages/engine/src/motion.ts'))) as Motion;
const video = (await import(join(tree, 'packages/engine/src/video.ts'))) as Video;
// the sampling and analysis size that analyzeVideo uses by default, as that tree has them
const { DEFAULT_SAMPLE_FPS, DEFAULT_ANALYSIS_HEIGHT } = (await import(
  join(tree, 'packages/engine/src/analyze.ts')
)) as Analyze;
const SHARED = resolve(ROOT, '../shared/data');
const truth = JSON.parse(await readFile(join(import.meta.dirname, 'real-set/truth.json'), 'utf8')) as Truth;

const STEP_MS = 1000 / DEFAULT_SAMPLE_FPS;
const PAIR_MS = 500;
const AGREE = 8;
const centre = (q: Quad): [number, number] => [
  (q[0] + q[2] + q[4] + q[6]) / 4,
  (q[1] + q[3] + q[5] + q[7]) / 4,
];
const say = (s: string) => console.log(s);

/** The newest re-encode of a clip at `size` (WxH) that real.ts made. */
async function encoded(id: string, size: string): Promise<string> {
  const dir = join(ROOT, '.bench-out/engine/encodes');
  const names = (await readdir(dir).catch(() => [] as string[])).filter(
    (n) => n.startsWith(`${id}-${size}-`) && n.endsWith('.mp4'),
  );
  if (names.length === 0)
    throw new Error(`no ${size} encode of ${id} in ${dir}: run real.ts --video-size ${size} first`);
  const times = await Promise.all(names.map(async (n) => (await stat(join(dir, n))).mtimeMs));
  return join(dir, names[times.indexOf(Math.max(...times))]);
}

say(
  `Camera motion (${args.engine ? `tree ${args.engine}` : 'this tree'}) against the labelled boards, over ${PAIR_MS} ms${args['video-size'] ? `, on the ${args['video-size']} re-encodes` : ''}:`,
);
say('\n| source | from s | boards moved (pairs agreeing) | estimate | error px |');
say('|---|---|---|---|---|');
const errors: number[] = [];
let ms = 0;
let steps = 0;
for (const s of truth.sources.filter((x) => x.kind === 'video')) {
  const frames = truth.frames.filter((f) => f.source === s.id && f.time_ms !== undefined);
  const at = new Map(frames.map((f) => [f.time_ms!, f]));
  const pairs = frames.filter((f) => at.has(f.time_ms! + PAIR_MS));
  if (pairs.length === 0) continue;
  // the engine's step estimates, by the time of the later frame (input pixels)
  const source = await video.probeVideo(join(SHARED, s.path));
  const file = args['video-size'] ? await encoded(s.id, args['video-size']) : join(SHARED, s.path);
  const info = await video.probeVideo(file);
  const height = Math.max(2, Math.round(Math.min(DEFAULT_ANALYSIS_HEIGHT, info.height) / 2) * 2);
  const width = Math.max(2, Math.round((info.width * height) / info.height / 2) * 2);
  const est = new Map<number, [number, number]>();
  let prev: ReturnType<Motion['motionThumb']> | null = null;
  for await (const f of video.streamFrames(file, { sampleFps: DEFAULT_SAMPLE_FPS, width, height })) {
    const thumb = motion.motionThumb(f);
    if (prev) {
      const t = performance.now();
      const m = motion.estimateMotion(prev, thumb);
      ms += performance.now() - t;
      steps++;
      // in the labels' pixels (the source's)
      est.set(f.timeMs, [(m.dx * source.width) / width, (m.dy * source.height) / height]);
    }
    prev = thumb;
  }
  for (const a of pairs) {
    const b = at.get(a.time_ms! + PAIR_MS)!;
    const moved: [number, number][] = [];
    for (const p of a.instances.filter((i) => i.placement === 'In-scene'))
      for (const q of b.instances.filter((i) => i.placement === 'In-scene' && i.brand === p.brand)) {
        const [ca, cb] = [centre(p.quad), centre(q.quad)];
        moved.push([cb[0] - ca[0], cb[1] - ca[1]]);
      }
    let agree: [number, number][] = [];
    for (const [x, y] of moved) {
      const near = moved.filter(([u, v]) => Math.hypot(u - x, v - y) <= AGREE);
      if (near.length > agree.length) agree = near;
    }
    if (agree.length < 2) continue;
    const truthMove = [0, 1].map((k) => agree.reduce((n, v) => n + v[k], 0) / agree.length);
    let sum: [number, number] | null = [0, 0];
    for (let t = a.time_ms! + STEP_MS; t <= b.time_ms!; t += STEP_MS) {
      const e = est.get(t);
      sum = e && sum ? [sum[0] + e[0], sum[1] + e[1]] : null;
    }
    if (!sum) continue;
    const err = Math.hypot(sum[0] - truthMove[0], sum[1] - truthMove[1]);
    errors.push(err);
    say(
      `| ${s.id} | ${a.time_ms! / 1000} | ${truthMove.map((v) => v.toFixed(1)).join(', ')} (${agree.length}) | ${sum.map((v) => v.toFixed(1)).join(', ')} | ${err.toFixed(1)} |`,
    );
  }
}
say(
  `\nmean error ${(errors.reduce((n, e) => n + e, 0) / errors.length).toFixed(1)} px over ${errors.length} half seconds; ` +
    `${(ms / steps).toFixed(1)} ms a frame estimating (${steps} frames)`,
);
