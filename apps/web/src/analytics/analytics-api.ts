import {
  API,
  type AnalyticsQuery,
  type AnalyticsSettings,
  type AnalyticsSettingsBody,
  type Dashboard,
  type Processing,
} from '@logo-review/contract';
import { http, send } from '../api/http-client';

/** The analytics calls (issue 20; the contract is /work/contracts/analytics-api.md). */
export type { AnalyticsSettings, AnalyticsSettingsBody, Dashboard, Processing };

/** The scope of the dashboard, the processing list and the campaign report. */
export type AnalyticsScope = AnalyticsQuery;
export type BrandName = Dashboard['brands'][number]['brand'];

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
    http.get<Dashboard>(API.analyticsDashboard, { query: query(scope), signal }),
  processing: (scope: AnalyticsScope, signal?: AbortSignal) =>
    http.get<Processing>(API.analyticsProcessing, { query: query(scope), signal }),
  settings: () => http.get<AnalyticsSettings>(API.analyticsSettings),
  saveSettings: (body: AnalyticsSettingsBody) =>
    http.put<AnalyticsSettings>(API.analyticsSettings, { json: body }),
  /** Downloads the campaign report (the Authorization header rules out a plain link). */
  async campaignReport(scope: AnalyticsScope): Promise<{ blob: Blob; fileName: string }> {
    const response = await send('GET', API.analyticsCampaignReport, { query: query(scope) });
    const fileName = fileNameOf(response.headers.get('Content-Disposition'), 'Campaign.xlsx');
    return { blob: await response.blob(), fileName };
  },
};
