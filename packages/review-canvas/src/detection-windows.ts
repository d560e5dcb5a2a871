import {
  WINDOW_ERROR_MARGIN_MS,
  WINDOW_LEAD_MS,
  WINDOW_MAX_GAP_MS,
  WINDOW_MIN_SPAN_MS,
} from './constants.ts';

/** A closed time range in ms for which detections are loaded (or requested). */
export interface TimeWindow {
  start: number;
  end: number;
}

/** Tunables of the window scheduler; the defaults are the spec's (section 9). */
export interface WindowPolicy {
  /** Minimum request span and how far beyond the position a request reaches. Default 10 s. */
  minSpanMs: number;
  /** A request for an unloaded position starts this much before it. Default 1 s. */
  leadMs: number;
  /** Largest unloaded gap ahead of the loaded data that a request bridges. Default 300 s. */
  maxGapMs: number;
  /** Windows closer than this merge (the request is stretched to touch its neighbour). Default 10 s. */
  errorMarginMs: number;
}

/** The spec's window policy (section 9). */
export const DEFAULT_WINDOW_POLICY: WindowPolicy = {
  minSpanMs: WINDOW_MIN_SPAN_MS,
  leadMs: WINDOW_LEAD_MS,
  maxGapMs: WINDOW_MAX_GAP_MS,
  errorMarginMs: WINDOW_ERROR_MARGIN_MS,
};

/** Adds `w` to a sorted, disjoint window list, merging overlapping or touching windows. Returns a new list. */
export function addWindow(windows: readonly TimeWindow[], w: TimeWindow): TimeWindow[] {
  const out: TimeWindow[] = [];
  let cur = { start: w.start, end: w.end };
  let placed = false;
  for (const x of windows) {
    if (x.end < cur.start) out.push(x);
    else if (x.start > cur.end) {
      if (!placed) {
        out.push(cur);
        placed = true;
      }
      out.push(x);
    } else cur = { start: Math.min(cur.start, x.start), end: Math.max(cur.end, x.end) };
  }
  if (!placed) out.push(cur);
  return out;
}

/** The first instant at or after `t` that no window covers (windows sorted and disjoint). */
export function firstUncovered(windows: readonly TimeWindow[], t: number): number {
  let x = t;
  for (const w of windows) {
    if (w.start <= x && w.end >= x) x = w.end;
    else if (w.start > x) break;
  }
  return x;
}

/** The window containing `t`, or null. */
export function windowAt(windows: readonly TimeWindow[], t: number): TimeWindow | null {
  for (const w of windows) if (w.start <= t && t <= w.end) return w;
  return null;
}

/**
 * The next detection window to request, or null when nothing is needed (spec sections 4 and 9). Pure: the
 * shell calls it every 2 s (`WINDOW_CHECK_PERIOD_MS`) with the loaded and in-flight windows.
 *
 * The rules, with the spec's constants:
 * 1. Look-ahead: data is needed from 1 s before the position (`leadMs`) to 10 s beyond it (`minSpanMs`),
 *    clamped to [0, duration]. When the windows cover that stretch, nothing is requested.
 * 2. Continuation: when the position lies in a loaded window, or at most 300 s (`maxGapMs`) ahead of the end
 *    of the last loaded window before it, the request starts at that window's end, so loaded data stays one
 *    contiguous window. When the gap ahead exceeds 300 s, that gap is not requested; the request starts 1 s
 *    before the position instead (a seek far ahead does not load everything skipped).
 * 3. Span: a request reaches at least 10 s beyond the position and spans at least 10 s.
 * 4. Merging: when the next loaded window starts within 10 s (`errorMarginMs`) after the request's end, the
 *    request is stretched to it; when it starts inside the request, the request stops there.
 */
export function planWindowRequest(
  windows: readonly TimeWindow[],
  positionMs: number,
  durationMs?: number | null,
  policy: WindowPolicy = DEFAULT_WINDOW_POLICY,
): TimeWindow | null {
  const duration =
    typeof durationMs === 'number' && Number.isFinite(durationMs) && durationMs > 0 ? durationMs : Infinity;
  const pos = Math.min(Math.max(0, positionMs), duration);
  const needFrom = Math.max(0, pos - policy.leadMs);
  const needTo = Math.min(duration, pos + policy.minSpanMs);

  if (firstUncovered(windows, needFrom) >= needTo) return null;

  // Continuation from the last loaded window that starts at or before the position.
  let candidate = needFrom;
  let behind: TimeWindow | null = null;
  for (const w of windows) {
    if (w.start <= pos) behind = w;
    else break;
  }
  if (behind !== null && behind.end < needFrom && pos - behind.end <= policy.maxGapMs) candidate = behind.end;
  const start = firstUncovered(windows, candidate);

  let end = Math.min(duration, Math.max(needTo, start + policy.minSpanMs));
  for (const w of windows) {
    if (w.start <= start) continue;
    if (w.start < end) end = w.start;
    else if (w.start - end <= policy.errorMarginMs) end = w.start;
    break;
  }
  if (end <= start) return null;
  return { start, end };
}

/**
 * Book-keeping for the shell's loader: loaded windows plus the ones in flight, so a check during a slow
 * request does not ask again. Not time-driven itself; the shell calls {@link WindowTracker.next} every 2 s.
 */
export class WindowTracker {
  private loadedWindows: TimeWindow[] = [];
  private readonly pending: TimeWindow[] = [];

  constructor(private readonly policy: WindowPolicy = DEFAULT_WINDOW_POLICY) {}

  /** Windows whose detections are loaded, sorted and merged. */
  get loaded(): readonly TimeWindow[] {
    return this.loadedWindows;
  }

  /** True while a request is in flight (the shell shows its loading overlay). */
  get loading(): boolean {
    return this.pending.length > 0;
  }

  /** The window to request now (and marks it in flight), or null. */
  next(positionMs: number, durationMs?: number | null): TimeWindow | null {
    let covered = this.loadedWindows;
    for (const p of this.pending) covered = addWindow(covered, p);
    const w = planWindowRequest(covered, positionMs, durationMs, this.policy);
    if (w) this.pending.push(w);
    return w;
  }

  /** Marks a requested window as loaded. */
  done(w: TimeWindow): void {
    this.dropPending(w);
    this.loadedWindows = addWindow(this.loadedWindows, w);
  }

  /** Forgets a failed request so it is asked again at the next check. */
  failed(w: TimeWindow): void {
    this.dropPending(w);
  }

  /** Forgets everything (another video, or detections reloaded after a bulk change). */
  reset(): void {
    this.loadedWindows = [];
    this.pending.length = 0;
  }

  private dropPending(w: TimeWindow): void {
    const i = this.pending.findIndex((p) => p.start === w.start && p.end === w.end);
    if (i >= 0) this.pending.splice(i, 1);
  }
}
