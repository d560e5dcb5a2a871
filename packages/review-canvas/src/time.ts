import { SECOND_STEP_MS } from './constants.ts';

/** Tolerance in frames when mapping a time to a frame: decoders report times like 1.0333329 for 1.0333333. */
const FRAME_EPSILON = 1e-3;

/** fps used when the video's fps is missing or invalid (0, NaN): the common PAL rate. */
export const FALLBACK_FPS = 25;

/** The fps to compute with: `fps` when it is a positive finite number, else {@link FALLBACK_FPS}. */
export function effectiveFps(fps: number | null | undefined): number {
  return typeof fps === 'number' && Number.isFinite(fps) && fps > 0 ? fps : FALLBACK_FPS;
}

/** Duration of one frame in ms (spec: frame step is 1/fps). */
export function frameDurationMs(fps: number): number {
  return 1000 / effectiveFps(fps);
}

/** Zero-based index of the frame shown at `timeMs`. */
export function frameIndexAt(timeMs: number, fps: number): number {
  const f = effectiveFps(fps);
  return Math.max(0, Math.floor((timeMs * f) / 1000 + FRAME_EPSILON));
}

/**
 * Start time (ms) of the frame shown at `timeMs`. The editor evaluates "active at time t" at this time so
 * the table and the overlay agree for every position inside one frame (spec: "computed from fps").
 */
export function frameTimeMs(timeMs: number, fps: number): number {
  return (frameIndexAt(timeMs, fps) * 1000) / effectiveFps(fps);
}

function clamp(t: number, durationMs: number | null | undefined): number {
  const upper = typeof durationMs === 'number' && Number.isFinite(durationMs) ? durationMs : Infinity;
  return Math.min(Math.max(0, t), upper);
}

/** Start of the next frame (ms), clamped to [0, duration]. */
export function nextFrameTime(timeMs: number, fps: number, durationMs?: number | null): number {
  return clamp(((frameIndexAt(timeMs, fps) + 1) * 1000) / effectiveFps(fps), durationMs);
}

/** Start of the previous frame (ms), not below 0. */
export function previousFrameTime(timeMs: number, fps: number): number {
  return clamp(((frameIndexAt(timeMs, fps) - 1) * 1000) / effectiveFps(fps), null);
}

/** One second later (spec: second step is 1000 ms), clamped to [0, duration]. */
export function nextSecondTime(timeMs: number, durationMs?: number | null): number {
  return clamp(timeMs + SECOND_STEP_MS, durationMs);
}

/** One second earlier, not below 0. */
export function previousSecondTime(timeMs: number): number {
  return clamp(timeMs - SECOND_STEP_MS, null);
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/**
 * SMPTE-style timecode `HH:MM:SS:FF` of `timeMs`, FF being the frame within the second at `fps`.
 * Non-finite or negative input shows as `00:00:00:00`.
 */
export function formatTimecode(timeMs: number, fps: number): string {
  const t = Number.isFinite(timeMs) && timeMs > 0 ? timeMs : 0;
  const f = effectiveFps(fps);
  const totalSeconds = Math.floor(t / 1000 + FRAME_EPSILON / f);
  const frame = Math.min(
    Math.ceil(f) - 1,
    Math.max(0, Math.floor(((t - totalSeconds * 1000) * f) / 1000 + FRAME_EPSILON)),
  );
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = totalSeconds % 60;
  return `${pad2(h)}:${pad2(m)}:${pad2(s)}:${pad2(frame)}`;
}

/** The time display: `'current / duration'` (spec section 2), both as {@link formatTimecode}. */
export function formatTimeDisplay(currentMs: number, durationMs: number, fps: number): string {
  return `${formatTimecode(currentMs, fps)} / ${formatTimecode(durationMs, fps)}`;
}
