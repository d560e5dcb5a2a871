/** Background job names and payloads shared by the API (which sends) and the workers (which run them). */
export const JOBS = {
  analyzeVideo: 'analyze-video',
  /** One span of a video longer than a chunk (ANALYSIS_CHUNK_SECONDS), queued by analyze-video. */
  analyzeChunk: 'analyze-chunk',
  activateBrand: 'activate-brand',
  renderVerification: 'render-verification',
} as const;
export type JobName = (typeof JOBS)[keyof typeof JOBS];

export interface AnalyzeVideoJob {
  organizationId: number;
  videoId: number;
}
export interface AnalyzeChunkJob {
  organizationId: number;
  videoId: number;
  /** The analysis (its request_hash) the chunk belongs to; a chunk of a replaced one does nothing. */
  requestHash: string;
  /** 0-based */
  chunk: number;
}
export interface ActivateBrandJob {
  organizationId: number;
  brandId: number;
}
export interface RenderVerificationJob {
  organizationId: number;
  verificationId: number;
}
export interface JobPayloads {
  [JOBS.analyzeVideo]: AnalyzeVideoJob;
  [JOBS.analyzeChunk]: AnalyzeChunkJob;
  [JOBS.activateBrand]: ActivateBrandJob;
  [JOBS.renderVerification]: RenderVerificationJob;
}
