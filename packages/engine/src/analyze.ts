import { decodeThumbs, type BrandIndex } from './brand-index.ts';
import { availableParallelism } from 'node:os';
import { DetectorPool, type FrameResult, type WarmDetectors } from './detector-pool.ts';
import type { GrayImage } from './features.ts';
import { FOLLOW_SAME_LOOK, followCorrelation, followInFrame, looksAsBefore } from './follow.ts';
import { appearance, correlate, exampleFromFrame, polishCorners, type ThumbExample } from './appearance.ts';
import {
  DEFAULT_DETECTOR,
  EDGE_INSIDE,
  plausible,
  SAME_INSTANCE,
  type DetectorOptions,
  type FrameHit,
} from './hits.ts';
import { hitLogo } from './content.ts';
import {
  clipToFrame,
  exampleToFrame,
  isConvexClockwise,
  maxCornerDist,
  quadCenter,
  quadIoU,
  sides,
} from './geometry.ts';
import { loadGray } from './image-io.ts';
import { estimateMotion, motionThumb, type FrameMotion, type MotionThumb } from './motion.ts';
import {
  classifyPlacement,
  movesWithScene,
  trackConfidence,
  trackSegments,
  Tracker,
  withoutOddFits,
  oneSample,
  wordsAgainst,
  stuckInPlace,
  type Placement,
  type TimedHit,
  type Track,
} from './tracker.ts';
import { probeVideo, streamFrames } from './video.ts';
import { twinHits } from './twins.ts';
import { WordCheck } from './word-check.ts';

/** One brand instance over a time span. */
export interface EngineDetection {
  brandId: string | number;
  /** The example whose keypoints found it (most hits), for per-logo precision. */
  exampleId: string | number | null;
  /** 0..1 */
  confidence: number;
  /** ms */
  time_begin: number;
  /** ms */
  time_end: number;
  /** Time segments (ms) each with the quad (8 numbers, corners clockwise from top-left, input pixels). */
  coordinates: { start_time: number; end_time: number; points: number[] }[];
  /** Fixed in screen space (overlay) or moving with the scene. */
  placement: Placement;
}

/** Result of analysing one video or image. */
export interface MediaAnalysis {
  width: number;
  height: number;
  /** null for a still image */
  fps: number | null;
  frames: number;
  detections: EngineDetection[];
}

/** Options of {@link analyzeVideo}. */
export interface AnalyzeVideoOptions {
  /** Frames analysed per second of video (default {@link DEFAULT_SAMPLE_FPS}). */
  sampleFps?: number;
  /** Frames are downscaled to this height for analysis (default {@link DEFAULT_ANALYSIS_HEIGHT}); never upscaled. */
  analysisHeight?: number;
  /** Called with 0..1 after each analysed frame. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  /**
   * Worker threads for per-frame detection (default: one per core, at most 2; 0 = main thread).
   * Frames are analysed in parallel and linked in order.
   */
  workers?: number;
  /** Detector settings over the defaults, e.g. `{ textRoute: false }` to measure what a route adds. */
  detector?: Partial<DetectorOptions>;
  /**
   * ms: analyse only the span [startMs, endMs) of the video (default: all of it). ffmpeg seeks to
   * startMs and decodes no further than endMs; times stay times in the whole video, and the span's
   * tracks end at endMs at the latest. A span starting on the sample grid (a multiple of
   * 1000 / sampleFps) samples the frames that the whole video's analysis samples there.
   */
  startMs?: number;
  endMs?: number;
  /**
   * Detector threads kept between analyses: the analysis takes the kept ones when they were
   * started for the same brands and settings (else starts its own), and leaves its own there when
   * it ends well, for the next chunk of a long video (see {@link WarmDetectors}). Without it the
   * threads are started and ended with the analysis.
   */
  warm?: WarmDetectors;
  /** Filled in when the analysis ends well: how the detector threads fared (for benchmarks). */
  stats?: AnalysisStats;
}

/** See {@link AnalyzeVideoOptions.stats}. */
export interface AnalysisStats {
  /** per detector thread, seconds without a frame to work on between its first and its last */
  detectorWaitSeconds?: number[];
}

/** Defaults chosen from the benchmark (bench/engine). */
export const DEFAULT_SAMPLE_FPS = 4;
export const DEFAULT_ANALYSIS_HEIGHT = 720;
/**
 * Tracks (and an image's detections) below this confidence are not reported. 0.35 until 0.39.0:
 * over the real set's five runs the only tracks under 0.4 were two false INTER ACADEMY tracks
 * (0.371 and 0.373: a keypoint fit scoring 0.40 whose words read as nothing in particular, on
 * another board), and one false photo detection; the generated set's table stayed line for line
 * the same. The held-out way's photos lost one true Adidas detection with the brand's own file as
 * its example, and one false one with crops and with files (bench/engine/RESULTS.md).
 */
export const MIN_CONFIDENCE = 0.4;
/** A track is followed by its pixels alone for at most this long, forwards and back. */
export const MAX_FOLLOW_SECONDS = 3;
/**
 * The text route reads one sample in this many seconds (it costs a few hundred ms a frame);
 * tracking carries its hits over the samples between.
 */
const TEXT_INTERVAL_SECONDS = 2;
/** The colour route looks for boards on one sample in this many seconds (`DetectorOptions.boardsEvery`). */
const BOARDS_INTERVAL_SECONDS = 0.5;
/** The keypoint route's half-size ORB pass runs on one sample in this many seconds (`DetectorOptions.coarseEvery`). */
const COARSE_INTERVAL_SECONDS = 0.5;
/**
 * A photo may be a close-up of one logo: the labelled photos hold a logo over 41 % of the image
 * (video frames: see MAX_FRAME_SHARE in hits.ts).
 */
const IMAGE_MAX_LOGO_SHARE = 0.8;
/** Largest side at which still images are analysed. */
const IMAGE_MAX_SIDE = 1920;

/**
 * Finds the brands' logos in a video: streams sampled grey frames from ffmpeg, detects per frame
 * against one shared index of all brands, links hits into tracks and returns one detection per
 * track with its time segments and automatic placement.
 */
export async function analyzeVideo(
  file: string,
  brands: BrandIndex[],
  opts: AnalyzeVideoOptions = {},
): Promise<MediaAnalysis> {
  const info = await probeVideo(file);
  const sampleFps = Math.min(opts.sampleFps ?? DEFAULT_SAMPLE_FPS, info.fps);
  const targetH = Math.min(opts.analysisHeight ?? DEFAULT_ANALYSIS_HEIGHT, info.height);
  const height = Math.max(2, Math.round(targetH / 2) * 2);
  const width = Math.max(2, Math.round((info.width * height) / info.height / 2) * 2);
  const sx = info.width / width;
  const sy = info.height / height;
  const stepMs = 1000 / sampleFps;
  const startMs = Math.max(0, opts.startMs ?? 0);
  const endMs = Math.min(info.duration * 1000, opts.endMs ?? Infinity);
  if (!(endMs > startMs)) throw new Error(`empty span ${startMs}-${endMs} ms of ${file}`);
  const span = opts.startMs !== undefined || opts.endMs !== undefined;
  const expected = Math.max(1, Math.ceil(((endMs - startMs) / 1000) * sampleFps));
  const examples = exampleTable(brands);
  const tracks: Track[] = [];
  const maxGap = Math.max(1, Math.round(sampleFps * 0.75));
  const tracker = new Tracker({ stepMs, maxGap }, (t) => tracks.push(t));
  opts.onProgress?.(0);
  const workers = opts.workers ?? Math.min(2, availableParallelism());
  const detector: DetectorOptions = {
    ...DEFAULT_DETECTOR,
    textEvery: Math.max(1, Math.round(sampleFps * TEXT_INTERVAL_SECONDS)),
    boardsEvery: Math.max(1, Math.round(sampleFps * BOARDS_INTERVAL_SECONDS)),
    coarseEvery: Math.max(1, Math.round(sampleFps * COARSE_INTERVAL_SECONDS)),
    ...opts.detector,
  };
  // ffmpeg starts and decodes the first frames while the detector threads start (each loads
  // OpenCV and the index, about 2.5 s of a cold start): it would otherwise start only after them,
  // and the threads would wait for its first frame.
  const frames = streamFrames(file, {
    sampleFps,
    width,
    height,
    threads: info.width * info.height <= ONE_DECODER_THREAD_PIXELS ? 1 : undefined,
    signal: opts.signal,
    ...(span ? { startMs, durationMs: endMs - startMs } : {}),
  });
  const early = Array.from({ length: EARLY_FRAMES }, () => frames.next());
  for (const e of early) e.catch(() => undefined); // awaited below; no unhandled rejection meanwhile
  let pool: DetectorPool;
  try {
    pool = opts.warm
      ? await opts.warm.take(brands, workers, detector)
      : await DetectorPool.create(brands, workers, detector);
  } catch (err) {
    await frames.return(undefined); // ends ffmpeg
    throw err;
  }
  let ended = false;
  // a kept pool's waits so far, and the time since its last analysis, are not this one's
  pool.resetWaits();
  const thumbs = thumbTable(brands);
  const words = detector.wordCheck ? wordCheck(brands, thumbs) : null;
  let seq = 0;
  // Frames in flight, oldest first: results are linked in frame order whatever finishes first.
  const inFlight: { timeMs: number; result: Promise<FrameResult> }[] = [];
  const maxFollow = Math.max(2, Math.round(sampleFps * MAX_FOLLOW_SECONDS));
  // The last few analysed frames of the shot, so that a track found late can be followed back in time.
  const recent: { timeMs: number; frame: GrayImage; into: [number, number] }[] = [];
  let prevThumb: MotionThumb | null = null;
  let done = 0;
  const settle = async () => {
    const f = inFlight.shift()!;
    const res = await f.result;
    const thumb = motionThumb(res.frame);
    const m = prevThumb && estimateMotion(prevThumb, thumb);
    prevThumb = thumb;
    const motion: FrameMotion | undefined = m ? { ...m, dx: m.dx * sx, dy: m.dy * sy } : undefined;
    // Nothing before a cut is the same scene: no following back into it.
    if (motion?.cut) recent.length = 0;
    // the scene's shift into this frame (input pixels), or null across a cut
    const shift: [number, number] | null = motion?.cut ? null : motion ? [motion.dx, motion.dy] : [0, 0];
    const found = res.hits.map((h) => toInput(h, sx, sy));
    const hits = words ? await words.check(res.frame, found, f.timeMs, shift, [sx, sy]) : found;
    const tracked = follow(
      res.frame,
      hits,
      tracker.openTracks(),
      thumbs,
      sx,
      sy,
      maxFollow,
      shift && [tracker.camera[0] + shift[0], tracker.camera[1] + shift[1]],
      recent,
    );
    let followed = tracked.map((x) => x.hit);
    if (words) {
      // a follow whose words read as another brand's is moved to its own row, or else dropped and
      // tells against its track
      const read = await words.readings(res.frame, followed, f.timeMs, shift, [sx, sy]);
      const kept = await words.keptOrMoved(res.frame, followed, read, [sx, sy], hits);
      tracked.forEach((x, i) => {
        if (!kept[i] || kept[i].brand !== x.hit.brand) x.track.contradicted = true;
      });
      followed = kept.filter((h) => h !== null);
      // what neither continued, a wordmark's track is carried where the camera took it, if its
      // words read there as its own
      if (shift)
        followed.push(
          ...(await followByWords(
            res.frame,
            [...hits, ...followed],
            tracker.openTracks(),
            [tracker.camera[0] + shift[0], tracker.camera[1] + shift[1]],
            thumbs,
            words,
            sx,
            sy,
            maxFollow,
            recent,
          )),
        );
    }
    if (detector.twins) {
      // a board that the detector found in this frame, its twin beside it by the board's own
      // pixels (see twinHits); not from a follow, which may have stayed on an LED board that
      // changed sponsor
      const twins = twinHits(res.frame, hits, thumbs, sx, sy, followed);
      followed.push(...(words ? await words.check(res.frame, twins, f.timeMs, shift, [sx, sy]) : twins));
    }
    const started = tracker.push(f.timeMs, [...hits, ...followed], motion);
    // the scene's shift into this frame, which following back undoes
    const into: [number, number] = motion && !motion.cut ? [motion.dx, motion.dy] : [0, 0];
    for (const t of started)
      await followBack(t, recent, into, [...tracker.openTracks(), ...tracks], thumbs, sx, sy, words, {
        timeMs: f.timeMs,
        frame: res.frame,
      });
    recent.push({ timeMs: f.timeMs, frame: res.frame, into });
    if (recent.length > maxFollow) recent.shift();
    done++;
    opts.onProgress?.(Math.min(0.999, done / expected));
  };
  try {
    const send = (frame: GrayImage & { timeMs: number }, last: boolean) => {
      const result = pool.detect(frame, seq++, last);
      result.catch(() => undefined); // awaited in order by settle(); no unhandled rejection meanwhile
      inFlight.push({ timeMs: frame.timeMs, result });
    };
    // Each frame is sent once the next has arrived, so that the span's last is known as such.
    let held: (GrayImage & { timeMs: number }) | null = null;
    for await (const frame of startedEarly(early, frames)) {
      if (held) send(held, false);
      held = frame;
      while (inFlight.length > pool.parallelism) await settle();
      // Let timers and I/O (progress reporting, abort) run between frames.
      await new Promise((r) => setImmediate(r));
    }
    if (held) send(held, true);
    while (inFlight.length) await settle();
    ended = true;
    if (opts.stats) opts.stats.detectorWaitSeconds = pool.waitedSeconds;
  } finally {
    // kept for the next analysis only when this one ended well (nothing in flight, no error)
    if (opts.warm && ended) await opts.warm.keep(pool, brands, workers, detector);
    else await pool.close();
  }
  tracker.flush();
  const detections = tracks
    .filter((t) => !wordsAgainst(t) && !stuckInPlace(t))
    .filter((t) => !oneSample(t, startMs, endMs, stepMs, info.duration * 1000))
    .map((t) => toDetection(withoutOddFits(t), brands, examples, stepMs, endMs, info))
    .filter((d) => d.confidence >= MIN_CONFIDENCE)
    .sort((a, b) => a.time_begin - b.time_begin);
  opts.onProgress?.(1);
  return { width: info.width, height: info.height, fps: info.fps, frames: info.frames, detections };
}

/** Finds the brands' logos in a still image (times are 0). */
export async function analyzeImage(
  file: string,
  brands: BrandIndex[],
  opts: { detector?: Partial<DetectorOptions> } = {},
): Promise<MediaAnalysis> {
  const img = { ...(await loadGray(file, IMAGE_MAX_SIDE)), maxLogoShare: IMAGE_MAX_LOGO_SHARE };
  const detector = { ...DEFAULT_DETECTOR, ...opts.detector };
  const pool = await DetectorPool.create(brands, 0, detector);
  const sx = img.originalWidth / img.width;
  const sy = img.originalHeight / img.height;
  const found = (await pool.detect(img)).hits.map((h) => toInput(h, sx, sy));
  const hits = detector.wordCheck ? await wordCheck(brands).check(img, found, 0, null, [sx, sy]) : found;
  await pool.close();
  const examples = exampleTable(brands);
  const detections = hits
    .map((h) =>
      toDetection({ brand: h.brand, hits: [{ ...h, timeMs: 0 }] }, brands, examples, 0, 0, {
        width: img.originalWidth,
        height: img.originalHeight,
      }),
    )
    .filter((d) => d.confidence >= MIN_CONFIDENCE);
  return { width: img.originalWidth, height: img.originalHeight, fps: null, frames: 1, detections };
}

/**
 * Largest source (pixels a frame) that ffmpeg decodes on one thread. Its frame threads cost CPU:
 * decoding the throughput clip (1280x720, 60 fps, 4 samples a second kept) took 9.5 % less CPU on
 * one thread (27.8 against 30.8 CPU s for 3 x 60 s, the same frames to the bit), and one thread
 * still decodes it at about 6x real time, three times what analysis needs. A larger source keeps
 * ffmpeg's own choice, so that decoding does not become the slowest part.
 */
const ONE_DECODER_THREAD_PIXELS = 1280 * 720;

/**
 * Frames that ffmpeg decodes before the detector threads are up (see `analyzeVideo`): enough to
 * give both threads their first frames at once, few enough to hold (1.4 MB each at 720p).
 */
const EARLY_FRAMES = 3;

/** The frames asked for early (in order), then the rest of the stream. */
async function* startedEarly<T>(
  early: Promise<IteratorResult<T>>[],
  rest: AsyncGenerator<T>,
): AsyncGenerator<T> {
  try {
    for (const e of early) {
      const r = await e;
      if (r.done) return;
      yield r.value;
    }
    yield* rest;
  } finally {
    // (a stream ended early or by an error ends ffmpeg; `yield*` has done so when it ran)
    await rest.return(undefined);
  }
}

function toInput(h: FrameHit, sx: number, sy: number): FrameHit {
  return { ...h, quad: h.quad.map((v, i) => (i % 2 === 0 ? v * sx : v * sy)) };
}

/**
 * A follow back stops where the words at this many steps in a row read as no character at all
 * (see {@link followBack}).
 */
const BLANK_STEPS = 2;

/** The camera moved the scene at least this far (input px) for a follow back to start where it moved a logo from. */
const CAMERA_SHIFT = 2;

/** How far the camera moved the scene between two of its positions (see the hits' `cam`). */
function cameraMoved(a: readonly [number, number], b: readonly [number, number]): number {
  return Math.hypot(b[0] - a[0], b[1] - a[1]);
}

/**
 * Whether a follow from `was` to `quad` moved off both where it was and where the camera's motion
 * `moved` (input pixels since) took it, by more than a quarter of its longer side.
 */
function drifted(was: number[], quad: number[], moved: [number, number]): boolean {
  const [ax, ay] = quadCenter(was);
  const [bx, by] = quadCenter(quad);
  const off = Math.min(Math.hypot(bx - ax, by - ay), Math.hypot(bx - ax - moved[0], by - ay - moved[1]));
  return off > Math.max(...sides(was)) / 4;
}

/** A hit moved by (dx, dy) input pixels. */
function shifted<H extends FrameHit>(h: H, [dx, dy]: [number, number]): H {
  return { ...h, quad: h.quad.map((v, i) => v + (i % 2 === 0 ? dx : dy)) };
}

/**
 * A track's last hit, if no hit of this frame continues the track (overlapping it) and the track
 * has been followed fewer than `maxFollow` samples in a row; else null.
 */
function unfollowed(t: Track, hits: FrameHit[], maxFollow: number): TimedHit | null {
  const last = t.hits[t.hits.length - 1];
  if (hits.some((h) => h.brand === t.brand && quadIoU(h.quad, last.quad) > 0.1)) return null;
  let run = 0;
  for (let i = t.hits.length - 1; i >= 0 && t.hits[i].followed; i--) run++;
  return run < maxFollow ? last : null;
}

/**
 * Open tracks that no keypoint hit of this frame continues are followed by their pixels (see
 * {@link followInFrame}), at most `maxFollow` samples in a row without a keypoint hit; a track that
 * the detector found in two frames or more is searched for around its last place. The follow must
 * correlate nearly as well as the detector's hits did (see {@link followCorrelation}), and look as
 * the track did in the frame before (see {@link looksAsBefore}): over the real set's five runs
 * (bench/engine/RESULTS.md) that took off 25 of 102 false detections for 7 true ones alone, and
 * with the tracker's linking by the camera's motion, 51 for 2 more true ones. It must not slide
 * off both where the logo was and where the camera's motion took it (see {@link drifted}): over
 * the five runs that took off the last false track and 3 false detections, for 1 true one.
 *
 * (Starting forward follows also where the camera carried the logo found 4 more true boards on
 * the real set but made 7 more false detections, as a board's follow slid along the repeated
 * words of the next board: it is done going back only, see {@link followBack}. Tried again once
 * the camera's motion was measured right in fast pans: no more true boards, 2 more false ones.)
 *
 * `camera` is where the camera has moved the scene since the shot began, at this frame (input
 * pixels, as the hits' `cam`), or null across a cut. Exported for its test.
 */
export function follow(
  frame: GrayImage,
  hits: FrameHit[],
  open: readonly Track[],
  thumbs: ThumbExample[],
  sx: number,
  sy: number,
  maxFollow: number,
  camera: [number, number] | null,
  recent: readonly { timeMs: number; frame: GrayImage }[],
): { hit: FrameHit; track: Track }[] {
  const cut = camera === null;
  const out: { hit: FrameHit; track: Track }[] = [];
  const toFrame = (q: number[]) => q.map((v, i) => (i % 2 === 0 ? v / sx : v / sy));
  for (const t of open) {
    const last = unfollowed(t, hits, maxFollow);
    if (!last) continue;
    const found = t.hits.filter((h) => !h.followed);
    // From where it was last seen and from where the detector saw it best: one poor fit (a
    // corner pulled onto the background) must not lead the follow away from a logo that stayed.
    // Not for a logo that moves with the scene once the camera moved it more than half its size
    // since: it is no longer where the detector saw it on screen, and a follow from there finds
    // whatever stands there now (on the real set at 1280x720, an OVUNQUE track jumped 265 px onto
    // a stand's white balcony in a pan and ran on there). Carrying that place by the camera's
    // motion instead slid follows onto the other row of two-row boards (2 true detections fewer,
    // 3 false ones more at CRF 18). Dropping the place for every track once the camera moved at
    // all lost 3 logo-frames of 48 px and more on the generated set, whose logos move on paths of
    // their own over moving footage, a few pixels a sample.
    const top = found.reduce((a, b) => (b.score > a.score ? b : a), found[0] ?? last);
    const best =
      camera &&
      top.cam &&
      cameraMoved(top.cam, camera) > Math.max(...sides(top.quad)) / 2 &&
      movesWithScene(t)
        ? last
        : top;
    let f: { quad: number[]; ncc: number } | null = null;
    for (const from of maxCornerDist(best.quad, last.quad) > 2 ? [last, best] : [last]) {
      // Across a cut a logo is followed only where it was (no search): what continues a shot
      // change in place is an overlay, or a logo whose pixels are still there.
      const g = followHit(frame, from, t, thumbs, sx, sy, found.length >= 2 && !cut);
      // A follow goes where the logo went: where it was, or where the camera's motion took it
      // since. One that slid off both by more than a quarter of the logo's size has found
      // something alike beside it (on the real set at CRF 19, an IM INTER CLUB track slid 35 px
      // along its board, and was scored there).
      if (
        g &&
        camera &&
        from.cam &&
        drifted(from.quad, g.quad, [camera[0] - from.cam[0], camera[1] - from.cam[1]])
      )
        continue;
      if (g && (!f || g.ncc > f.ncc)) f = g;
    }
    if (!f) continue;
    // what the track showed in the frame before must still be there (an LED board changes sponsor)
    const before = recent.find((r) => r.timeMs === last.timeMs);
    if (before && !looksAsBefore(before.frame, toFrame(last.quad), frame, toFrame(f.quad))) continue;
    out.push({
      hit: { ...last, quad: f.quad, inliers: 0, score: last.score * 0.95, followed: true, ncc: f.ncc },
      track: t,
    });
  }
  return out;
}

/**
 * Carries a wordmark's track that neither the detector nor its pixels continued into this frame
 * where the camera's motion took it, when its words read there as its own brand's (see
 * {@link WordCheck.read}). In a pan a board moves beyond the reach of a follow from its place, and
 * a follow that searches slides onto the next row or board that shares its letters (the two rows
 * of a two-row board correlate with either example about alike); the words tell those apart, so
 * a place the words confirm is the logo. The text route reads a frame every 2 s; this keeps its
 * boards between. The quad is not polished on the pixels: polishing twisted it over the rows
 * (on the real set at 720p, 1 more true board and a partly false track).
 *
 * `camera` is where the camera has moved the scene since the shot began, at this frame (input
 * pixels, as the hits' `cam`): a track that nothing continued for a sample or two is carried by
 * all the motion since it was last seen. (Until 0.24.0 it was carried by the last sample's motion
 * alone, from a place samples old: in a pan a board missed once was then looked for where it no
 * longer was, and lost.) Exported for its test.
 */
export async function followByWords(
  frame: GrayImage,
  hits: FrameHit[],
  open: readonly Track[],
  camera: [number, number],
  thumbs: ThumbExample[],
  words: WordCheck,
  sx: number,
  sy: number,
  maxFollow: number,
  recent: readonly { timeMs: number; frame: GrayImage }[] = [],
): Promise<FrameHit[]> {
  const out: FrameHit[] = [];
  for (const t of open) {
    const last = unfollowed(t, hits, maxFollow);
    if (!last) continue;
    // the scene's shift since the track was last seen, which may be samples ago
    const moved = shifted(last, [camera[0] - (last.cam?.[0] ?? 0), camera[1] - (last.cam?.[1] ?? 0)]);
    const before = recent.find((r) => r.timeMs === last.timeMs)?.frame;
    const f = await carried(frame, last, before, moved, thumbs, words, sx, sy);
    if (f) out.push({ ...last, ...f, inliers: 0, score: last.score * 0.95, followed: true, words: 'own' });
  }
  return out;
}

/**
 * `moved` (a track's last hit `last` carried by the camera's motion, input pixels) moved to where
 * the pixels that `last` showed in the frame `before` went (whole shifts, as a follow's first
 * step), or null where nothing there looks as they did. The camera's motion is one shift for the
 * whole frame; a board at the frame's edge in a fast pan moves by some pixels more or less (on the
 * real set at 1280x720, an IM INTER CLUB board at the top-left corner went 175 px in the half
 * second to 4 s where the camera's motion said 140, and its words still read in the carried quad).
 */
function byLook(
  before: GrayImage,
  last: FrameHit,
  frame: GrayImage,
  moved: FrameHit,
  sx: number,
  sy: number,
): FrameHit | null {
  const toFrame = (q: number[]) => q.map((v, i) => (i % 2 === 0 ? v / sx : v / sy));
  const look = exampleFromFrame(before, toFrame(last.quad));
  if (!look) return null;
  const q = toFrame(moved.quad);
  const p = polishCorners(frame, q, look, appearance(frame, q, look, false), 40, true, Infinity);
  if (p.ncc < FOLLOW_SAME_LOOK || p.quad.every((v, i) => v === q[i])) return null;
  return { ...moved, quad: p.quad.map((v, i) => (i % 2 === 0 ? v * sx : v * sy)) };
}

/**
 * A track's hit `last` carried into `frame` where the camera's motion took it (`moved`), if its
 * words read there as its own: first where the pixels it showed in its own frame (`seen`) went
 * (see {@link byLook}), else where the camera's motion says.
 */
async function carried(
  frame: GrayImage,
  last: FrameHit,
  seen: GrayImage | undefined,
  moved: FrameHit,
  thumbs: ThumbExample[],
  words: WordCheck,
  sx: number,
  sy: number,
): Promise<{ quad: number[]; ncc: number } | null> {
  const looked = seen && byLook(seen, last, frame, moved, sx, sy);
  return (
    (looked && (await carriedByWords(frame, looked, thumbs, words, sx, sy))) ||
    (await carriedByWords(frame, moved, thumbs, words, sx, sy))
  );
}

/**
 * `hit` (input pixels) where it stands, if its words read there as its own brand's and only as
 * its (see {@link WordCheck.read}), with its correlation there; null otherwise.
 */
async function carriedByWords(
  frame: GrayImage,
  hit: FrameHit,
  thumbs: ThumbExample[],
  words: WordCheck,
  sx: number,
  sy: number,
): Promise<{ quad: number[]; ncc: number } | null> {
  if (!words.hasWords(hit.example)) return null;
  const ex = thumbs[hit.example];
  const moved = hit.quad.map((v, i) => (i % 2 === 0 ? v / sx : v / sy));
  if (!isConvexClockwise(moved) || !plausible(moved, ex, frame, EDGE_INSIDE)) return null;
  if ((await words.read(frame, { ...hit, quad: moved }, true)) !== 'own') return null;
  return {
    quad: moved.map((v, i) => (i % 2 === 0 ? v * sx : v * sy)),
    ncc: correlate(frame, exampleToFrame(moved, ex.width, ex.height), ex),
  };
}

/**
 * Follows a newly started track backwards through the buffered frames: keypoints often find a
 * logo only once it is well in view, while the pixels say it was there a moment earlier. Stops
 * at the first frame where it does not correlate, or where another track of the brand is.
 *
 * Each step back starts where the logo is and also where it stood if it moved with the scene (the
 * camera's shift into the later frame undone; `into` is that of the frame the track starts in): in
 * a pan a board moves tens of pixels between two samples, beyond the reach of a follow from its
 * place, while an overlay stays put. On the real set this found 6 more true boards at the scored
 * frames (broadcast F1 0.517 -> 0.541). With `words`, a step back whose words read as another
 * brand's ends the follow (see {@link WordCheck.read}): once the camera's motion was
 * measured right in fast pans, follows went back further and some slid onto the next board's row
 * (on the real set, 4 fewer false detections for 1 true one). So does a step whose words read
 * surely as words of no brand (`foreign`): an LED board that showed another sponsor before the
 * brand's, one that the catalogue lacks (engine 0.38.0). So do {@link BLANK_STEPS} steps in
 * a row whose words read as no character at all, and those steps are dropped: a follow that slid
 * off a board onto the white edge of the pitch below it (a flat band that correlates with a
 * line of letters) had run back 3 s there (on the real set, 3 fewer false detections and no true
 * one lost; stopping at the first blank step lost 2 true boards, whose small, blurred words read
 * as nothing once). In a pan, a step back whose pixels do not correlate as a follow must (the
 * frame blurred by the pan) is taken where the camera's motion puts the logo when its words read
 * there as its own (engine 0.41.0; on the real set's five runs 5 more true detections and 2 more
 * off their quads, 3 more boards). Exported for its test.
 */
export async function followBack(
  track: Track,
  recent: { timeMs: number; frame: GrayImage; into: [number, number] }[],
  into: [number, number],
  others: Track[],
  thumbs: ThumbExample[],
  sx: number,
  sy: number,
  words: WordCheck | null = null,
  now: { timeMs: number; frame: GrayImage } | null = null,
): Promise<void> {
  // the scene's shift from recent[i] to the frame after it
  let after = into;
  // steps back in a row whose words read as no character at all
  let blanks = 0;
  for (let i = recent.length - 1; i >= 0; i--) {
    const first = track.hits[0];
    const { timeMs, frame } = recent[i];
    const back: [number, number] = [-after[0], -after[1]];
    after = recent[i].into;
    if (timeMs >= first.timeMs) continue;
    // where the logo stood if it moved with the scene, or where it is (an overlay)
    let f = followHit(frame, first, track, thumbs, sx, sy, false);
    const panned = Math.hypot(back[0], back[1]) >= CAMERA_SHIFT;
    if (panned) {
      const g = followHit(frame, shifted(first, back), track, thumbs, sx, sy, false);
      if (g && (!f || g.ncc > f.ncc)) f = g;
    }
    // In a pan's blur a board's pixels may not correlate as a follow must; a wordmark whose words
    // read as its own where the camera's motion puts it is there all the same (as forward, see
    // {@link followByWords}; at the real set's 10 s at CRF 18 with `textPhase` 1, a JOIN THE
    // FAMILY board found at 10.25 s correlated under the 0.71 its track asks at 10 s).
    let own = false;
    if (!f && panned && words) {
      const seen =
        first.timeMs === now?.timeMs ? now.frame : recent.find((r) => r.timeMs === first.timeMs)?.frame;
      f = await carried(frame, first, seen, shifted(first, back), thumbs, words, sx, sy);
      own = f !== null;
    }
    if (!f) return;
    const { quad, ncc } = f;
    const clash = others.some(
      (o) =>
        o !== track &&
        o.brand === track.brand &&
        o.hits.some((h) => h.timeMs === timeMs && quadIoU(h.quad, quad) > SAME_INSTANCE),
    );
    if (clash) return;
    if (own) blanks = 0;
    else if (words) {
      const read = await words.read(frame, {
        ...first,
        quad: quad.map((v, i) => (i % 2 === 0 ? v / sx : v / sy)),
      });
      if (read === 'rival' || read === 'foreign') return;
      blanks = read === 'blank' ? blanks + 1 : 0;
      if (blanks >= BLANK_STEPS) {
        // the follow slid off the words some steps ago: the blank steps before this one go too
        track.hits.splice(0, BLANK_STEPS - 1);
        return;
      }
    }
    track.hits.unshift({
      ...first,
      quad,
      inliers: 0,
      score: first.score * 0.95,
      followed: true,
      ncc,
      timeMs,
      // where the camera stood then, for telling an overlay from an in-scene logo
      ...(first.cam ? { cam: [first.cam[0] + back[0], first.cam[1] + back[1]] as [number, number] } : {}),
    });
  }
}

/**
 * {@link followInFrame} of a track from one of its hits (input pixels) into an analysed frame,
 * at the correlation the track asks of a follow; the quad comes back in input pixels.
 */
function followHit(
  frame: GrayImage,
  from: FrameHit,
  track: Track,
  thumbs: ThumbExample[],
  sx: number,
  sy: number,
  search: boolean,
): { quad: number[]; ncc: number } | null {
  const f = followInFrame(
    frame,
    from.quad.map((v, i) => (i % 2 === 0 ? v / sx : v / sy)),
    thumbs[from.example],
    followCorrelation(track, DEFAULT_DETECTOR.minCorrelation),
    DEFAULT_DETECTOR.maxChroma,
    search,
  );
  return f && { quad: f.quad.map((v, i) => (i % 2 === 0 ? v * sx : v * sy)), ncc: f.ncc };
}

/** The words check over every example of the brands, numbered as hits number them. */
function wordCheck(brands: BrandIndex[], thumbs: ThumbExample[] = thumbTable(brands)): WordCheck {
  return new WordCheck(
    brands.flatMap((b, brand) =>
      b.examples.map((e) => ({ brand, width: e.width, height: e.height, text: e.text ?? [] })),
    ),
    thumbs,
  );
}

function thumbTable(brands: BrandIndex[]): ThumbExample[] {
  return brands.flatMap((b) => b.examples.map(decodeThumbs));
}

/** Global example number (as the descriptor index numbers them) -> brand and local example. */
function exampleTable(brands: BrandIndex[]): { brand: number; local: number }[] {
  return brands.flatMap((b, bi) => b.examples.map((_, li) => ({ brand: bi, local: li })));
}

function toDetection(
  t: Track,
  brands: BrandIndex[],
  examples: { brand: number; local: number }[],
  stepMs: number,
  endMs: number,
  frame: { width: number; height: number },
): EngineDetection {
  const votes = new Map<number, number>();
  for (const h of t.hits) votes.set(h.example, (votes.get(h.example) ?? 0) + h.score);
  const example = [...votes].sort((a, b) => b[1] - a[1])[0][0];
  const ex = examples[example];
  // Each hit places its example's outline; what is reported is the logo inside it, the part
  // of it that is in the picture.
  const logo = (h: { example: number; quad: number[]; part?: number[] }) => {
    const e = examples[h.example];
    return clipToFrame(hitLogo(h, brands[e.brand].examples[e.local]), frame.width, frame.height);
  };
  const coordinates = trackSegments(
    { ...t, hits: t.hits.map((h) => ({ ...h, quad: logo(h) })) },
    stepMs,
    endMs,
  );
  return {
    brandId: brands[t.brand].brandId,
    exampleId: brands[ex.brand].examples[ex.local]?.id ?? null,
    confidence: trackConfidence(t),
    time_begin: coordinates[0].start_time,
    time_end: coordinates[coordinates.length - 1].end_time,
    coordinates,
    placement: classifyPlacement(t),
  };
}
