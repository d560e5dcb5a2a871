/**
 * Data shapes of the editor core. They mirror the API's JSON (spec section 3) structurally, so the
 * shell can pass API answers straight in without this package depending on the contract package.
 */

/** A placement as embedded in a detection. */
export interface PlacementRef {
  id: number;
  localized_name: string;
  /** Hex colour, e.g. `#ff8800`. */
  color: string;
}

/** One time segment of a detection: the quad shown from `start_time` to `end_time` (ms, inclusive). */
export interface Segment {
  start_time: number;
  end_time: number;
  /** Eight numbers: four corners x0,y0,x1,y1,x2,y2,x3,y3 in video pixels. */
  points: number[];
}

/** A detection as the API returns it. Times in ms. */
export interface Detection {
  id: number;
  brand: number;
  placement: PlacementRef;
  coordinates: Segment[];
  time_begin: number;
  time_end: number;
  video: number;
  /** The engine's score in [0, 1]; null or absent for hand-drawn detections. */
  confidence?: number | null;
  /** Review state ({@link REVIEW_STATES}); absent means unreviewed. */
  review?: string;
  /** 'engine' or 'manual'. */
  source?: string;
}

/** Review states of a listed detection (false positives and deleted ones are never listed). */
export const REVIEW_STATES = {
  UNREVIEWED: 'UNREVIEWED',
  TRUE_POSITIVE: 'TRUE_POSITIVE',
  EDITED: 'EDITED',
  MANUAL: 'MANUAL',
} as const;

/** The states the server also accepts when an undo or redo sets a state back. */
export type ReviewState = (typeof REVIEW_STATES)[keyof typeof REVIEW_STATES] | 'FALSE_POSITIVE' | 'DELETED';

/** Whether a detection still waits for a verdict. */
export function isUnreviewed(d: Pick<Detection, 'review'>): boolean {
  return d.review === undefined || d.review === REVIEW_STATES.UNREVIEWED;
}

/**
 * A new detection drawn by hand (spec section 3 "New-detection draft"). It stays local until finished.
 * `id` is a local key (1, 2, 3, ...), never sent to the server.
 */
export interface Draft {
  id: number;
  videoId: number;
  time_begin: number;
  time_end: number;
  coordinates: Segment[];
  brandId: number | null;
  placementId: number | null;
}

/** Editor filter. Empty id lists mean "all"; `visible` shows filtered detections thinly instead of hiding them. */
export interface DetectionFilter {
  brandIds: readonly number[];
  placementIds: readonly number[];
  visible: boolean;
  /** Hit every detection that already has a verdict (review queue view). Default false. */
  unreviewedOnly?: boolean;
  /**
   * Hit engine detections whose confidence is below this (0..1). Default 0 (none). Hand-drawn ones have no
   * confidence and are never hit by it.
   */
  minConfidence?: number;
}

/** A 2D point (display or video pixels, as documented where used). */
export interface Point {
  x: number;
  y: number;
}

/** Axis-aligned rectangle. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Something on the overlay that can be selected or manipulated. */
export type TargetRef = { kind: 'detection'; id: number } | { kind: 'draft'; id: number };

/** Video mode (spec section 4). */
export type VideoMode = 'NORMAL' | 'NEW_DETECTION';

/** Play mode (spec section 4). */
export type PlayMode = 'NORMAL' | 'SECONDS';
