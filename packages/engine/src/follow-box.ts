import { correlate, exampleFromFrame, type ThumbExample } from './appearance.ts';
import type { GrayImage } from './features.ts';
import { FOLLOW_DROP, followInFrame } from './follow.ts';
import { exampleToFrame, maxCornerDist, type Quad } from './geometry.ts';
import { DEFAULT_DETECTOR } from './hits.ts';
import { estimateMotion, motionThumb, type MotionThumb } from './motion.ts';
import { probeVideo, streamFrames, type SampledFrame } from './video.ts';

/** Options of {@link followBox}. */
export interface FollowBoxOptions {
  /** ms: the time at which `points` frame the logo */
  timeMs: number;
  /** the box: four corners x/y, clockwise from top-left, in video pixels */
  points: number[];
  /** which way in time to follow it (default both) */
  direction?: 'forward' | 'backward' | 'both';
  /** ms followed at most in each direction (default 10,000) */
  maxMs?: number;
  /** frames looked at per second (default 10, at most the video's rate) */
  sampleFps?: number;
  /** height at which frames are decoded (default 720, at most the video's) */
  analysisHeight?: number;
  /** ms of work after which the follow stops and returns what it has (default none) */
  timeLimitMs?: number;
  signal?: AbortSignal;
}

/** The box at one span of time, in video pixels. */
export interface FollowedSegment {
  start_time: number;
  end_time: number;
  points: number[];
}

const DEFAULT_FOLLOW_FPS = 10;
const DEFAULT_MAX_MS = 10_000;
/** Frames decoded per ffmpeg run: following backwards decodes a chunk, then walks it in reverse. */
const CHUNK_FRAMES = 20;

/**
 * Follows a box that a person drew (or moved) on a logo through the video's frames, forward and/or
 * backward in time from `timeMs`, the way the analysis follows a track by its pixels (see
 * `followInFrame`): the box's own pixels at `timeMs` are the example (only those: comparing with
 * the last view too let the box creep onto the next line of a two-line board on the real footage);
 * in each next frame the camera
 * motion predicts where it went and the corners move to where the pixels correlate best. It stops
 * where the logo is lost (it leaves the frame, is covered, or no longer correlates nearly as well
 * as at the start), at a shot cut, after `maxMs`, or at the video's ends.
 *
 * Returns the segments in time order: the given box from `timeMs`, and one segment per followed
 * frame until the next one.
 */
export async function followBox(file: string, opts: FollowBoxOptions): Promise<FollowedSegment[]> {
  const info = await probeVideo(file);
  const sampleFps = Math.min(opts.sampleFps ?? DEFAULT_FOLLOW_FPS, info.fps);
  const stepMs = 1000 / sampleFps;
  const targetH = Math.min(opts.analysisHeight ?? 720, info.height);
  const height = Math.max(2, Math.round(targetH / 2) * 2);
  const width = Math.max(2, Math.round((info.width * height) / info.height / 2) * 2);
  const sx = info.width / width;
  const sy = info.height / height;
  const endMs = info.duration * 1000;
  const maxMs = opts.maxMs ?? DEFAULT_MAX_MS;
  const direction = opts.direction ?? 'both';
  const t0 = Math.max(0, Math.min(opts.timeMs, endMs - stepMs));
  const deadline = opts.timeLimitMs === undefined ? Infinity : Date.now() + opts.timeLimitMs;
  const decode = { sampleFps, width, height, signal: opts.signal };

  const toFrame = (q: number[]): Quad => q.map((v, i) => (i % 2 === 0 ? v / sx : v / sy));
  const toVideo = (q: Quad): number[] => q.map((v, i) => round2(i % 2 === 0 ? v * sx : v * sy));
  const start = toFrame(opts.points);

  // The frame at t0 gives the example; forward following goes on from the same decode.
  const firstChunk = await decodeChunk(file, decode, t0, CHUNK_FRAMES * stepMs);
  const seed = firstChunk[0];
  if (!seed) return [];
  const ex = exampleFromFrame(asGray(seed), start);
  if (!ex) return [{ start_time: t0, end_time: Math.min(endMs, t0 + stepMs), points: opts.points }];
  // Nearly as well as at the start: the analysis' rule for following a track (see followCorrelation).
  const seedNcc = correlate(asGray(seed), exampleToFrame(start, ex.width, ex.height), ex);
  const minNcc = Math.max(DEFAULT_DETECTOR.minCorrelation, seedNcc - FOLLOW_DROP);
  const track = (frames: AsyncIterable<SampledFrame>) =>
    followThrough(frames, seed, start, ex, minNcc, deadline, opts.signal);

  const after: { timeMs: number; quad: Quad }[] = [];
  const before: { timeMs: number; quad: Quad }[] = [];
  if (direction !== 'backward') {
    const limit = Math.min(endMs, t0 + maxMs);
    async function* forward(): AsyncGenerator<SampledFrame> {
      for (const f of firstChunk.slice(1)) if (f.timeMs <= limit) yield f;
      for (let from = t0 + CHUNK_FRAMES * stepMs; from <= limit; from += CHUNK_FRAMES * stepMs) {
        const chunk = await decodeChunk(
          file,
          decode,
          from,
          Math.min(CHUNK_FRAMES * stepMs, limit - from + 1),
        );
        if (chunk.length === 0) return;
        yield* chunk.filter((f) => f.timeMs <= limit);
      }
    }
    after.push(...(await track(forward())));
  }
  if (direction !== 'forward') {
    const limit = Math.max(0, t0 - maxMs);
    async function* backward(): AsyncGenerator<SampledFrame> {
      for (let to = t0; to > limit; to -= CHUNK_FRAMES * stepMs) {
        const from = Math.max(limit, to - CHUNK_FRAMES * stepMs);
        const chunk = await decodeChunk(file, decode, from, to - from);
        yield* chunk.filter((f) => f.timeMs < to - stepMs / 2).reverse();
      }
    }
    before.push(...(await track(backward())));
  }

  const points = [
    ...before.reverse().map((p) => ({ timeMs: p.timeMs, points: toVideo(p.quad) })),
    { timeMs: t0, points: opts.points },
    ...after.map((p) => ({ timeMs: p.timeMs, points: toVideo(p.quad) })),
  ];
  return points.map((p, i) => ({
    start_time: round2(p.timeMs),
    end_time: round2(i + 1 < points.length ? points[i + 1].timeMs : Math.min(endMs, p.timeMs + stepMs)),
    points: p.points,
  }));
}

/** The quads of the box in each frame, in the frames' order, until it is lost or a cut. */
async function followThrough(
  frames: AsyncIterable<SampledFrame>,
  seed: SampledFrame,
  start: Quad,
  ex: ThumbExample,
  minNcc: number,
  deadline: number,
  signal: AbortSignal | undefined,
): Promise<{ timeMs: number; quad: Quad }[]> {
  const out: { timeMs: number; quad: Quad }[] = [];
  let prev: MotionThumb = motionThumb(asGray(seed));
  let quad = start;
  // whether the box last stayed where it was on screen while the camera moved (an overlay)
  let fixed = false;
  for await (const f of frames) {
    if (Date.now() > deadline || signal?.aborted) break;
    const frame = asGray(f);
    const thumb = motionThumb(frame);
    const motion = estimateMotion(prev, thumb);
    prev = thumb;
    // A cut: whatever sits at the same place in the next shot is another scene.
    if (motion.cut) break;
    const moved = quad.map((v, i) => v + (i % 2 === 0 ? motion.dx : motion.dy));
    let best: { quad: Quad; ncc: number } | null = null;
    // From where the camera motion puts it, and from where it was (a logo that moves on its own).
    // The second start only when the first did not find it about as well as at the start (it
    // costs as much again).
    const moving = motion.dx !== 0 || motion.dy !== 0;
    // enough to tell a box that stays on screen from one carried with the scene
    const panned = Math.hypot(motion.dx, motion.dy) >= 2;
    // An overlay (it stayed put on screen while the camera moved) is kept exactly where it was
    // drawn while it correlates there at all: a semi-transparent score bug's pixels change with
    // what passes behind it, and polishing its corners in every frame finds a pixel or two that
    // fit that better, so it crept (2-4 px over 2 s on the real clip's bug).
    if (fixed) {
      const ncc = correlate(frame, exampleToFrame(start, ex.width, ex.height), ex);
      if (ncc >= minNcc - FOLLOW_DROP) best = { quad: start, ncc };
    }
    for (const from of best ? [] : !moving ? [quad] : fixed ? [quad, moved] : [moved, quad]) {
      if (best && best.ncc >= minNcc + FOLLOW_DROP / 2) break;
      const f2 = followInFrame(frame, from, ex, minNcc, DEFAULT_DETECTOR.maxChroma, true);
      if (f2 && (!best || f2.ncc > best.ncc)) best = f2;
    }
    if (!best) break;
    if (panned) fixed = maxCornerDist(best.quad, quad) < maxCornerDist(best.quad, moved);
    quad = best.quad;
    out.push({ timeMs: f.timeMs, quad });
    // Let an abort or a time limit be seen between frames.
    await new Promise((r) => setImmediate(r));
  }
  return out;
}

async function decodeChunk(
  file: string,
  opts: { sampleFps: number; width: number; height: number; signal?: AbortSignal },
  startMs: number,
  durationMs: number,
): Promise<SampledFrame[]> {
  const frames: SampledFrame[] = [];
  if (durationMs <= 0) return frames;
  for await (const f of streamFrames(file, { ...opts, startMs, durationMs })) frames.push(f);
  return frames;
}

const asGray = (f: SampledFrame): GrayImage => ({ width: f.width, height: f.height, data: f.data, uv: f.uv });
const round2 = (v: number) => Math.round(v * 100) / 100;
