/** Background job names and payloads shared by the API (which sends) and the workers (which run them). */
export const JOBS = {
  analyzeVideo: 'analyze-video',
  activateBrand: 'activate-brand',
  renderVerification: 'render-verification',
} as const;
export type JobName = (typeof JOBS)[keyof typeof JOBS];

export interface AnalyzeVideoJob {
  organizationId: number;
  videoId: number;
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
  [JOBS.activateBrand]: ActivateBrandJob;
  [JOBS.renderVerification]: RenderVerificationJob;
}
