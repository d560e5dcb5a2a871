import { PassThrough } from 'node:stream';
import {
  AnalyticsQuery,
  AnalyticsSettingsAnswer,
  AnalyticsSettingsBody,
  API,
  DashboardAnswer,
  ProcessingAnswer,
} from '@logo-review/contract';
import type { AppContext } from '../context.ts';
import { orgOf } from '../api/auth-hook.ts';
import { errors, routes } from '../api/route-kit.ts';
import { attachmentDisposition } from '../reports/report-file-name.ts';
import { campaignFileName, campaignReport } from './campaign.ts';
import { dashboard, processingList } from './dashboard.ts';
import { resolveScope } from './scope.ts';
import { saveSettings, settingsAnswer } from './settings.ts';

/** The analytics API (issue 20); the contract is /work/contracts/analytics-api.md. */
export const analyticsRoutes = (ctx: AppContext) =>
  routes((app) => {
    app.get(
      API.analyticsDashboard,
      {
        schema: {
          tags: ['analytics'],
          description:
            'Exposure per brand, share of voice, placements, timeline, top videos, review and processing for a project or a folder with its subfolders and an upload-date range.',
          querystring: AnalyticsQuery,
          response: { 200: DashboardAnswer, ...errors },
        },
      },
      async (req) => dashboard(ctx.db, await resolveScope(ctx.db, orgOf(req), req.query)),
    );

    app.get(
      API.analyticsProcessing,
      {
        schema: {
          tags: ['analytics'],
          description: 'Videos queued or analysing (progress, ETA from the measured speed) and failed ones.',
          querystring: AnalyticsQuery,
          response: { 200: ProcessingAnswer, ...errors },
        },
      },
      async (req) => processingList(ctx.db, await resolveScope(ctx.db, orgOf(req), req.query)),
    );

    app.get(
      API.analyticsSettings,
      { schema: { tags: ['analytics'], response: { 200: AnalyticsSettingsAnswer, ...errors } } },
      async (req) => settingsAnswer(ctx.db, orgOf(req)),
    );

    app.put(
      API.analyticsSettings,
      {
        schema: {
          tags: ['analytics'],
          description:
            'Sets the media value currency, rates per placement and whether unreviewed detections count.',
          body: AnalyticsSettingsBody,
          response: { 200: AnalyticsSettingsAnswer, ...errors },
        },
      },
      async (req) => {
        const org = orgOf(req);
        await saveSettings(ctx.db, org, req.body);
        return settingsAnswer(ctx.db, org);
      },
    );

    app.get(
      API.analyticsCampaignReport,
      {
        schema: {
          tags: ['analytics', 'reports'],
          description:
            'The campaign report (.xlsx, streamed) of a project or a folder with its subfolders: summary per brand, brand x video, brand x placement, media value, best frames and a sheet per video.',
          querystring: AnalyticsQuery,
          response: { ...errors },
        },
      },
      async (req, reply) => {
        const scope = await resolveScope(ctx.db, orgOf(req), req.query);
        const out = new PassThrough();
        campaignReport(ctx, scope, out).catch((err: Error) => {
          req.log.error(err);
          out.destroy(err); // a broken download, never a silently truncated file
        });
        return reply
          .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
          .header('content-disposition', attachmentDisposition(campaignFileName(scope.title)))
          .header('cache-control', 'no-store')
          .send(out);
      },
    );
  });
