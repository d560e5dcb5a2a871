import { send, http } from '../api/http-client';

/**
 * The analytics calls (issue 20), as /work/contracts/analytics-api.md writes them. The types mirror
 * the server's answers; once `@logo-review/contract` exports them (packages/contract/src/analytics.ts)
 * these can be replaced by imports.
 */
export const ANALYTICS_API = {
  dashboard: '/api/analytics/dashboard/',
  processing: '/api/analytics/processing/',
  settings: '/api/analytics/settings/',
  campaignReport: '/api/analytics/campaign-report/',
} as const;

/** The scope of the dashboard, the processing list and the campaign report. */
export interface AnalyticsScope {
  project?: number;
  folder?: number;
  /** YYYY-MM-DD, upload date on or after. */
  from?: string;
  /** YYYY-MM-DD, upload date on or before (inclusive). */
  to?: string;
  include_unreviewed?: boolean;
}

export interface BrandName {
  id: number;
  name: string;
  localized_name: string;
}
export interface VideoRef {
  id: number;
  name: string;
}
export interface PlacementRef {
  id: number;
  localized_name: string;
  color: string;
}

export interface BrandStats {
  brand: BrandName;
  detections: number;
  videos: number;
  exposure_seconds: number;
  share_of_voice: number;
  size_weighted_seconds: number;
  mean_share_of_frame: number;
  position_weight: number;
  clutter: number;
  media_value: number;
}
export interface PlacementStats {
  placement: PlacementRef;
  exposure_seconds: number;
  media_value: number;
  rate_per_second: number;
  brands: { brand_id: number; exposure_seconds: number; media_value: number }[];
}
export interface TimelinePoint {
  video: VideoRef & { created_at: string };
  exposure_seconds: number;
  brands: { brand_id: number; exposure_seconds: number }[];
}
export interface TopVideos {
  brand_id: number;
  videos: { video: VideoRef; exposure_seconds: number; share_of_video: number; media_value: number }[];
}
export interface ReviewShare {
  total: number;
  reviewed: number;
  share: number;
}
export interface Processing {
  speed: number | null;
  active: {
    video: VideoRef;
    status: string;
    progress: number;
    duration: number;
    eta_seconds: number | null;
  }[];
  failed: { video: VideoRef; reason: string; updated_at: string }[];
}
export interface Dashboard {
  scope: {
    project: number | null;
    folder: number | null;
    from: string | null;
    to: string | null;
    include_unreviewed: boolean;
  };
  currency: string;
  videos: number;
  totals: {
    detections: number;
    exposure_seconds: number;
    size_weighted_seconds: number;
    media_value: number;
  };
  brands: BrandStats[];
  placements: PlacementStats[];
  timeline: TimelinePoint[];
  top_videos: TopVideos[];
  review: { overall: ReviewShare; videos: ({ video: VideoRef } & ReviewShare)[] };
  processing: Processing;
}
export interface AnalyticsSettings {
  currency: string;
  count_unreviewed: boolean;
  rates: { placement: PlacementRef; rate_per_second: number }[];
}
export interface AnalyticsSettingsBody {
  currency?: string;
  count_unreviewed?: boolean;
  rates?: { placement_id: number; rate_per_second: number }[];
}

const query = (scope: AnalyticsScope) => ({ ...scope });

/** The file name of a Content-Disposition header (filename* first), or the fallback. */
export function fileNameOf(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition);
  if (star) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"([^"]*)"/i.exec(disposition) ?? /filename\s*=\s*([^;]+)/i.exec(disposition);
  return plain ? plain[1].trim() : fallback;
}

export const analyticsApi = {
  dashboard: (scope: AnalyticsScope, signal?: AbortSignal) =>
    http.get<Dashboard>(ANALYTICS_API.dashboard, { query: query(scope), signal }),
  processing: (scope: AnalyticsScope, signal?: AbortSignal) =>
    http.get<Processing>(ANALYTICS_API.processing, { query: query(scope), signal }),
  settings: () => http.get<AnalyticsSettings>(ANALYTICS_API.settings),
  saveSettings: (body: AnalyticsSettingsBody) =>
    http.put<AnalyticsSettings>(ANALYTICS_API.settings, { json: body }),
  /** Downloads the campaign report (the Authorization header rules out a plain link). */
  async campaignReport(scope: AnalyticsScope): Promise<{ blob: Blob; fileName: string }> {
    const response = await send('GET', ANALYTICS_API.campaignReport, { query: query(scope) });
    const fileName = fileNameOf(response.headers.get('Content-Disposition'), 'Campaign.xlsx');
    return { blob: await response.blob(), fileName };
  },
};
