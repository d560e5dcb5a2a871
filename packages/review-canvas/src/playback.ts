import { SECOND_STEP_MS, SPEED_MAX, SPEED_MIN, SPEED_STEP } from './constants.ts';
import type { PlayMode } from './types.ts';

/**
 * The play mode to use for a stored PLAY_MODE value: the stored one when it is 'NORMAL' or 'SECONDS', else
 * 'SECONDS' (spec section 4: SECONDS is the default and applies when the stored value is invalid).
 */
export function parsePlayMode(stored: string | null | undefined): PlayMode {
  return stored === 'NORMAL' || stored === 'SECONDS' ? stored : 'SECONDS';
}

/** The other play mode (hotkey m, the tools panel toggle). */
export function togglePlayMode(mode: PlayMode): PlayMode {
  return mode === 'NORMAL' ? 'SECONDS' : 'NORMAL';
}

function snapSpeed(rate: number): number {
  const snapped = Math.round(rate / SPEED_STEP) * SPEED_STEP;
  return Math.min(SPEED_MAX, Math.max(SPEED_MIN, snapped));
}

/** Playback rate one step (0.5) faster, at most 6. */
export function speedUp(rate: number): number {
  return snapSpeed(rate + SPEED_STEP);
}

/** Playback rate one step (0.5) slower, at least 0. */
export function speedDown(rate: number): number {
  return snapSpeed(rate - SPEED_STEP);
}

/**
 * Period of the SECONDS-mode ticker: while "playing" in SECONDS mode the video element stays paused and the
 * shell calls {@link secondsModeTick} this often (spec: time jumps forward one whole second each second).
 */
export const SECONDS_MODE_TICK_MS = 1000;

/**
 * Next position in SECONDS mode: one whole second later, clamped to the duration. Returns null once the end
 * is reached, so the shell stops playing.
 */
export function secondsModeTick(timeMs: number, durationMs?: number | null): number | null {
  const end = typeof durationMs === 'number' && Number.isFinite(durationMs) ? durationMs : Infinity;
  if (timeMs >= end) return null;
  return Math.min(timeMs + SECOND_STEP_MS, end);
}

/** Minimal logger so the warning can be captured in tests. */
export interface WarnLogger {
  warn(message: string): void;
}

/** The exact warning logged when the progress bar is clicked before the duration is known. */
export const DURATION_UNKNOWN_WARNING = 'Cannot seek: the video duration is not loaded yet.';

/**
 * Progress-bar click (spec section 2): the clicked fraction (`offsetX / width`) of the duration, rounded to
 * whole seconds, in ms. When the duration is unknown only a warning is logged and null is returned.
 */
export function progressClickTime(
  offsetX: number,
  width: number,
  durationMs: number | null | undefined,
  logger: WarnLogger = console,
): number | null {
  if (typeof durationMs !== 'number' || !Number.isFinite(durationMs) || durationMs <= 0 || !(width > 0)) {
    logger.warn(DURATION_UNKNOWN_WARNING);
    return null;
  }
  const fraction = Math.min(1, Math.max(0, offsetX / width));
  return Math.min(Math.round((fraction * durationMs) / 1000) * 1000, Math.floor(durationMs / 1000) * 1000);
}

/** Time (ms) under the pointer while hovering the progress bar (for the 160 px preview), or null. */
export function progressHoverTime(
  offsetX: number,
  width: number,
  durationMs: number | null | undefined,
): number | null {
  if (typeof durationMs !== 'number' || !Number.isFinite(durationMs) || durationMs <= 0 || !(width > 0))
    return null;
  return Math.min(1, Math.max(0, offsetX / width)) * durationMs;
}

/** The end of an interaction as reported by the `interactionEnded` event. */
export interface InteractionOutcome {
  /** True when the interaction left something newly selected (a marquee or click that hit, a drawn draft). */
  selectedSomething: boolean;
}

/**
 * Spec section 4: a manipulation pauses a playing video and resumes it afterwards unless something was
 * selected. The shell records `wasPlaying` on `interactionStarted` (and pauses), then calls this on
 * `interactionEnded`.
 */
export function shouldResumeAfterInteraction(wasPlaying: boolean, outcome: InteractionOutcome): boolean {
  return wasPlaying && !outcome.selectedSomething;
}
