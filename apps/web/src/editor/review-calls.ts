import type { CoordinateSegment, Detection } from '@logo-review/contract';
import type { ReviewState } from '@logo-review/review-canvas';
import { http, request } from '../api/http-client';

// TODO(contract): these calls and paths are declared here until the review-server branch's
// apps/web/src/api/review-api.ts and the contract's API paths land; the lead reconciles them.

/** One entry of GET /api/videos/detections/:id/history/ (newest first). */
export interface HistoryEntry {
  at: string;
  user: string | null;
  action: string;
  detail: string;
}

/** One followed stretch of POST /api/videos/detections/track/. */
export type TrackSegment = CoordinateSegment;

/** Counts the video gains for the review progress (TODO(contract): Video.detections_total/_reviewed). */
export interface ReviewCounts {
  detections_total?: number;
  detections_reviewed?: number;
}

const BASE = '/api/videos/detections';

/** The review loop's calls (issue 17). */
export const reviewCalls = {
  /** Sets any state back (undo and redo of verdicts, deletes and finish); answers the detections now listed. */
  setReview: (detectionIds: number[], review: ReviewState) =>
    http.put<Detection[]>(`${BASE}/review/`, { json: { detectionIds, review } }),
  history: (id: number) => http.get<HistoryEntry[]>(`${BASE}/${id}/history/`),
  split: (id: number, time: number) =>
    http.post<[Detection, Detection]>(`${BASE}/${id}/split/`, { json: { time: Math.round(time) } }),
  merge: (a: number, b: number) => http.post<Detection>(`${BASE}/merge/`, { json: { detectionIds: [a, b] } }),
  /** Moves, resizes, trims (time_begin/time_end) or accepts a track; the server marks it EDITED. */
  patch: (id: number, body: { coordinates: CoordinateSegment[]; time_begin?: number; time_end?: number }) =>
    request<Detection>('PATCH', `${BASE}/${id}/`, { json: body }),
  track: (videoId: number, time: number, points: number[], maxMs?: number) =>
    http.post<{ segments: TrackSegment[] }>(`${BASE}/track/`, {
      json: { videoId, time: Math.round(time), points, ...(maxMs ? { maxMs } : {}) },
    }),
};
