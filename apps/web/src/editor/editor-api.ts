import {
  API,
  type Detection,
  type DetectionPatchBody,
  type DetectionsChangeBody,
  type NewDetection,
} from '@logo-review/contract';
import { http, request } from '../api/http-client';

/** The report types of PUT /api/videos/detections/report/. */
export type ReportType = 'truePositive' | 'falsePositive' | 'delete';

/** Answer of the bulk calls (report, change for all). */
export interface CountAnswer {
  detail: string;
  count: number;
}

/** The editor's calls on the detections endpoints (spec section 7). */
export const editorApi = {
  /** Detections overlapping [startTime, endTime] (ms). */
  window: (videoId: number, startTime: number, endTime: number, signal?: AbortSignal) =>
    http.get<Detection[]>(API.detections, {
      query: { videoId, startTime: Math.floor(startTime), endTime: Math.ceil(endTime) },
      signal,
    }),
  create: (detections: NewDetection[]) => http.post<Detection[]>(API.detections, { json: { detections } }),
  setPlacement: (placementId: number, detectionIds: number[]) =>
    http.put<Detection[]>(API.detections, { json: { placementId, detectionIds } }),
  changeAll: (body: DetectionsChangeBody) => http.put<CountAnswer>(API.detectionsChange, { json: body }),
  report: (detectionIds: number[], type: ReportType) =>
    http.put<CountAnswer>(API.detectionsReport, { json: { detectionIds, type } }),
  patch: (id: number, body: DetectionPatchBody) =>
    request<Detection>('PATCH', API.detection(id), { json: body }),
};
