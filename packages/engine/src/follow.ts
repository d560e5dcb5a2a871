import {
  appearance,
  chromaResidual,
  correlate,
  exampleFromFrame,
  polishCorners,
  type ThumbExample,
} from './appearance.ts';
import { plausible } from './hits.ts';
import type { GrayImage } from './features.ts';
import { exampleToFrame, isConvexClockwise, type Quad } from './geometry.ts';
import type { Track } from './tracker.ts';

/**
 * Follows a tracked logo into the next sampled frame by its pixels: starting from its last quad,
 * shifts and then corner moves that raise the correlation with the example. Keypoint matching
 * misses a flat or small logo in some frames (blur, a player in front, too few corners); a logo
 * that was verified a moment ago and still correlates where it moved to is still there.
 *
 * With `search`, the shifts are tried even when nothing correlates at the old place: a small logo
 * that moved by a sixth of its size since the last sample correlates with nothing there. Without
 * it (a track of a single hit, which is more often a chance fit than a logo) a follow must start
 * near the logo: searching around single hits too found no more logos on the benchmark and made
 * false ones (4 more false logo-frames on seed 1). `shiftsReach`: see `polishCorners`.
 */
export function followInFrame(
  frame: GrayImage,
  quad: Quad,
  ex: ThumbExample,
  minCorrelation: number,
  maxChroma: number,
  search: boolean,
  shiftsReach = -Infinity,
): { quad: Quad; ncc: number } | null {
  const ncc0 = correlate(frame, exampleToFrame(quad, ex.width, ex.height), ex);
  if (ncc0 < 0.2 && !search) return null;
  const p = polishCorners(frame, quad, ex, ncc0, 40, true, shiftsReach);
  if (p.ncc < minCorrelation || !isConvexClockwise(p.quad) || !plausible(p.quad, ex, frame)) return null;
  // The colours must still agree, as for a hit found by keypoints: a flat icon's outline can
  // correlate with the texture it leaves behind (grass where a pink icon was).
  const colour = chromaResidual(frame, exampleToFrame(p.quad, ex.width, ex.height), ex);
  if (colour !== null && colour > maxChroma) return null;
  return p;
}

/**
 * Correlation that a follow of a track must reach: the detector's minimum, and no more than
 * {@link FOLLOW_DROP} below the best correlation that the detector found the logo with. A logo
 * that matched its example closely and then leaves or is covered leaves pixels that still
 * correlate a little, enough for the minimum but not for the logo that was there (on the
 * benchmark a flat icon's track ran on for five samples over the background it left).
 */
export function followCorrelation(t: Track, minCorrelation: number): number {
  const best = Math.max(0, ...t.hits.filter((h) => !h.followed).map((h) => h.ncc ?? 0));
  return Math.max(minCorrelation, best - FOLLOW_DROP);
}
export const FOLLOW_DROP = 0.2;

/**
 * The least correlation between what a track's quad showed in the frame before and what the
 * follow's quad shows now (see {@link looksAsBefore}).
 */
export const FOLLOW_SAME_LOOK = 0.5;

/**
 * Whether a follow still shows what its track showed a sample before: the pixels under the track's
 * last quad in that frame, cut as a thumbnail, against the follow's quad now (frame pixels).
 * The example alone does not tell: an LED board changes sponsor every few seconds, in the same
 * typeface on the same dark board, and the new sponsor's board still correlates with the old
 * sponsor's example nearly as well as the detector's hits did (on the real set, Inter Club
 * follows ran on over JOIN THE FAMILY boards and their dark margins after the Serie A clip's
 * boards changed). True when the place was mostly outside the frame before (nothing to compare).
 */
export function looksAsBefore(before: GrayImage, was: Quad, frame: GrayImage, now: Quad): boolean {
  const look = exampleFromFrame(before, was);
  return !look || appearance(frame, now, look, false) >= FOLLOW_SAME_LOOK;
}
