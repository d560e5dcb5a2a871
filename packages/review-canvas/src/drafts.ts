import { NEW_DETECTION_POINTS } from './constants.ts';
import { segmentIndexAt } from './segments.ts';
import type { Draft, Segment } from './types.ts';

/** Creates a draft at time `t` (ms): begin = end = t, one segment holding the drawn quad. */
export function createDraft(id: number, videoId: number, t: number, points: readonly number[]): Draft {
  return {
    id,
    videoId,
    time_begin: t,
    time_end: t,
    coordinates: [{ start_time: t, end_time: t, points: points.slice() }],
    brandId: null,
    placementId: null,
  };
}

/**
 * Spec section 4: when playback moves outside a draft's range, its begin or end extends to the current time.
 * The first segment's start (or the last segment's end) extends with it so every segment stays within the
 * span and the quad at `t` is defined. Returns the same object when `t` is inside the range.
 */
export function extendDraftToTime(draft: Draft, t: number): Draft {
  if (t >= draft.time_begin && t <= draft.time_end) return draft;
  const coordinates = draft.coordinates.slice();
  if (t < draft.time_begin) {
    if (coordinates.length > 0) coordinates[0] = { ...coordinates[0], start_time: t };
    return { ...draft, time_begin: t, coordinates };
  }
  const last = coordinates.length - 1;
  if (last >= 0) coordinates[last] = { ...coordinates[last], end_time: t };
  return { ...draft, time_end: t, coordinates };
}

/**
 * Sets the draft's quad at time `t` (spec section 4): the draft first extends to `t` if needed; then, if a
 * segment starts within `marginMs` of `t`, the nearest such segment is overwritten; otherwise the segment
 * shown at `t` is split at `t`, the part from `t` on getting the new points.
 */
export function editDraftPoints(draft: Draft, t: number, points: readonly number[], marginMs: number): Draft {
  const d = extendDraftToTime(draft, t);
  const coords = d.coordinates;
  const newPoints = points.slice();
  if (coords.length === 0) {
    return { ...d, coordinates: [{ start_time: d.time_begin, end_time: d.time_end, points: newPoints }] };
  }
  const i = segmentIndexAt(coords, t);
  let nearest = -1;
  let nearestDist = Infinity;
  for (const j of [i, i + 1]) {
    if (j < 0 || j >= coords.length) continue;
    const dist = Math.abs(coords[j].start_time - t);
    if (dist <= marginMs && dist < nearestDist) {
      nearest = j;
      nearestDist = dist;
    }
  }
  const next = coords.slice();
  if (nearest >= 0) {
    next[nearest] = { ...coords[nearest], points: newPoints };
    return { ...d, coordinates: next };
  }
  const seg = coords[i];
  // t lies after seg's start here (a start within the margin would have been overwritten).
  const tail: Segment = { start_time: t, end_time: Math.max(t, seg.end_time), points: newPoints };
  next.splice(i, 1, { ...seg, end_time: Math.min(seg.end_time, t) }, tail);
  return { ...d, coordinates: next };
}

/** Why a draft is not valid; an empty list means valid. */
export type DraftProblem =
  'video' | 'time-order' | 'brand' | 'placement' | 'segment-order' | 'segment-outside-span' | 'points';

/**
 * Spec section 5 "Draft detection is valid when": the video id is not negative; time_begin is before
 * time_end; brand and placement are set and not negative; each segment's start is not after its end and
 * lies within the detection span; a new detection needs exactly 4 points (8 numbers per segment, and at
 * least one segment).
 */
export function validateDraft(draft: Draft): DraftProblem[] {
  const problems: DraftProblem[] = [];
  if (!Number.isFinite(draft.videoId) || draft.videoId < 0) problems.push('video');
  if (!(draft.time_begin < draft.time_end)) problems.push('time-order');
  if (draft.brandId === null || !Number.isFinite(draft.brandId) || draft.brandId < 0) problems.push('brand');
  if (draft.placementId === null || !Number.isFinite(draft.placementId) || draft.placementId < 0)
    problems.push('placement');
  if (draft.coordinates.some((s) => s.start_time > s.end_time)) problems.push('segment-order');
  if (draft.coordinates.some((s) => s.start_time < draft.time_begin || s.end_time > draft.time_end))
    problems.push('segment-outside-span');
  if (
    draft.coordinates.length === 0 ||
    draft.coordinates.some(
      (s) => s.points.length !== NEW_DETECTION_POINTS * 2 || s.points.some((v) => !Number.isFinite(v)),
    )
  )
    problems.push('points');
  return problems;
}

/** True when the draft passes every rule of {@link validateDraft}. */
export function isDraftValid(draft: Draft): boolean {
  return validateDraft(draft).length === 0;
}

/**
 * "Finish selected new detections" is enabled only when at least one draft is selected and every selected one
 * is complete (brand and placement set) and valid by spec section 5 (validity includes completeness).
 */
export function canFinishDrafts(selected: readonly Draft[]): boolean {
  return selected.length > 0 && selected.every(isDraftValid);
}

/**
 * Why "Finish selected new detections" is disabled, for the helper text under it (null when Finish is
 * enabled). Names the first blocking draft by its table '#' (`rowNumber`) so the reviewer knows which row
 * to fix.
 */
export function finishBlockedReason(
  selected: readonly Draft[],
  rowNumber: (draft: Draft) => number,
): string | null {
  if (selected.length === 0) return 'Select a new detection to finish it.';
  for (const d of selected) {
    const problems = validateDraft(d);
    if (problems.length === 0) continue;
    const n = rowNumber(d);
    if (problems.includes('brand')) return `Set a brand for new detection #${n}.`;
    if (problems.includes('placement')) return `Set a placement for new detection #${n}.`;
    if (problems.includes('time-order'))
      return `New detection #${n} has no duration yet: move the time to extend it.`;
    return `New detection #${n} is not valid (${problems.join(', ')}).`;
  }
  return null;
}

/** A finished draft in the upload form of `POST /api/videos/detections/` (`{ detections: [...] }`). */
export interface NewDetectionUpload {
  video: number;
  brand: number;
  placement: number;
  time_begin: number;
  time_end: number;
  coordinates: Segment[];
}

/**
 * Converts a valid draft to its upload form. Throws when the draft is not valid (check
 * {@link canFinishDrafts} first; the Finish button is disabled otherwise).
 */
export function draftToUpload(draft: Draft): NewDetectionUpload {
  const problems = validateDraft(draft);
  if (problems.length > 0) throw new Error(`Draft ${draft.id} is not valid: ${problems.join(', ')}`);
  return {
    video: draft.videoId,
    brand: draft.brandId as number,
    placement: draft.placementId as number,
    time_begin: draft.time_begin,
    time_end: draft.time_end,
    coordinates: draft.coordinates.map((s) => ({ ...s, points: s.points.slice() })),
  };
}
