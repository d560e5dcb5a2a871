import {
  API,
  type Detection,
  type DetectionHistoryEntry,
  type DetectionPatchBody,
  type DetectionTrackAnswer,
  type DetectionTrackBody,
  type ReviewNextQuery,
  type ReviewState,
} from '@logo-review/contract';
import { http, request } from './http-client';

/**
 * The review loop's calls (issue 17). Every change here is a review action: the server records
 * who and when (reviewed_by, reviewed_at) and a history entry.
 */
export const reviewApi = {
  /**
   * Sets the review state of detections: a verdict, or the undo/redo of one (any state back, e.g.
   * DELETED back to the state it had). Answers the detections that are listed afterwards.
   */
  setReview: (detectionIds: number[], review: ReviewState) =>
    http.put<Detection[]>(API.detectionsReview, { json: { detectionIds, review } }),
  /** A detection's history, newest first. */
  history: (id: number) => http.get<DetectionHistoryEntry[]>(API.detectionHistory(id)),
  /** Splits at `time` (ms, strictly inside the span): answers [left (same id), right (new id)]. */
  split: (id: number, time: number) =>
    http.post<[Detection, Detection]>(API.detectionSplit(id), { json: { time } }),
  /**
   * Merges two detections of one video and brand: the earlier keeps its id and is answered; the
   * other becomes DELETED (undo: PATCH the merged one back, then setReview the other to its state).
   */
  merge: (a: number, b: number) =>
    http.post<Detection>(API.detectionsMerge, { json: { detectionIds: [a, b] } }),
  /** Trims to a new span (segments outside it are cut); sets EDITED unless MANUAL. */
  trim: (id: number, span: Pick<DetectionPatchBody, 'time_begin' | 'time_end'>) =>
    request<Detection>('PATCH', API.detection(id), { json: span }),
  /**
   * The review queue's next detection over the whole video by confidence (the project's hidden brands and
   * placements left out by the server); null when none is left. `queue` holds the queue's first `limit`
   * detections (default 1) in order.
   */
  next: (query: ReviewNextQuery, signal?: AbortSignal) =>
    http.get<{ detection: Detection | null; queue?: Detection[] }>(API.detectionsNext, {
      query: { ...query },
      signal,
    }),
  /** Follows a box through the video's frames from `time`; answers the proposed segments. */
  track: (body: DetectionTrackBody) => http.post<DetectionTrackAnswer>(API.detectionsTrack, { json: body }),
};
