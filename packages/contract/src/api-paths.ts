/** Every path of the API, as the spec writes them (trailing slashes included). */
export const API = {
  login: '/api/profile/login/',
  logout: '/api/profile/logout/',
  profile: '/api/profile/',
  /** POST: a new API key for the organization (shown once); the old one stops working. */
  apiKeyRotate: '/api/profile/api-key/rotate/',
  brands: '/api/brands/',
  brandCreate: '/api/brands/create/',
  brandDeactivate: '/api/brands/deactivate/',
  placements: '/api/videos/placements/',
  placement: (id: number) => `/api/videos/placements/${id}/`,
  videos: '/api/videos/',
  video: (id: number) => `/api/videos/${id}/`,
  folder: '/api/videos/folder/',
  videoCreate: '/api/videos/create/',
  detections: '/api/videos/detections/',
  detection: (id: number) => `/api/videos/detections/${id}/`,
  detectionsChange: '/api/videos/detections/change/',
  detectionsReport: '/api/videos/detections/report/',
  /** PUT: sets the review state of detections (a verdict, or the undo/redo of one). */
  detectionsReview: '/api/videos/detections/review/',
  /** GET: the review queue's next detection over the whole video (by confidence). */
  detectionsNext: '/api/videos/detections/next/',
  detectionHistory: (id: number) => `/api/videos/detections/${id}/history/`,
  detectionSplit: (id: number) => `/api/videos/detections/${id}/split/`,
  detectionsMerge: '/api/videos/detections/merge/',
  /** POST: follows a box through the video's frames from a time (the engine's tracker). */
  detectionsTrack: '/api/videos/detections/track/',
  /** GET ?videoId&segments: per brand, where its listed detections are over the whole video (merged spans). */
  detectionSpans: '/api/videos/detections/spans/',
  excel: '/api/videos/excel/',
  projects: '/api/videos/project/',
  tags: '/api/videos/tags/',
  verification: '/api/videos/verification/',
  verificationItem: (id: number) => `/api/videos/verification/${id}`,
  /** GET: exposure, share of voice, placements, timeline, top videos, review and processing. */
  analyticsDashboard: '/api/analytics/dashboard/',
  /** GET: videos queued, analysing (with an ETA) and failed. */
  analyticsProcessing: '/api/analytics/processing/',
  /** GET, PUT: the organization's media value currency, rates per placement, count_unreviewed. */
  analyticsSettings: '/api/analytics/settings/',
  /** GET: the campaign report (.xlsx) of a project or folder with subfolders. */
  analyticsCampaignReport: '/api/analytics/campaign-report/',
  openapi: '/api/openapi.json',
  docs: '/api/docs',
} as const;
