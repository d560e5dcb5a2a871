import { Type, type Static } from '@sinclair/typebox';
import { Id, Nullable } from './entities.ts';

/**
 * Analytics (issue 20): the dashboard, the processing list, the media value settings and the
 * campaign report. The contract between server and web app is /work/contracts/analytics-api.md;
 * the measures are defined in apps/server/src/analytics/exposure.ts.
 */

/** Scope of the dashboard, the processing list and the campaign report. */
export const AnalyticsQuery = Type.Object({
  project: Type.Optional(Id),
  folder: Type.Optional(Id),
  from: Type.Optional(Type.String({ format: 'date', description: 'Upload date from (YYYY-MM-DD, UTC)' })),
  to: Type.Optional(Type.String({ format: 'date', description: 'Upload date to, inclusive' })),
  include_unreviewed: Type.Optional(
    Type.Boolean({ description: "Count UNREVIEWED detections; default: the organization's setting" }),
  ),
});
export type AnalyticsQuery = Static<typeof AnalyticsQuery>;

const VideoRef = Type.Object({ id: Id, name: Type.String() });
const BrandRef = Type.Object({ id: Id, name: Type.String(), localized_name: Type.String() });
const PlacementRef = Type.Object({ id: Id, localized_name: Type.String(), color: Type.String() });

export const ProcessingAnswer = Type.Object({
  speed: Nullable(Type.Number({ description: 'x real time over the last 20 analysed videos' })),
  active: Type.Array(
    Type.Object({
      video: VideoRef,
      status: Type.String(),
      progress: Type.Number(),
      duration: Type.Number(),
      eta_seconds: Nullable(Type.Number()),
    }),
  ),
  failed: Type.Array(Type.Object({ video: VideoRef, reason: Type.String(), updated_at: Type.String() })),
});
export type Processing = Static<typeof ProcessingAnswer>;

const Exposure = {
  detections: Type.Integer(),
  exposure_seconds: Type.Number(),
};

export const DashboardAnswer = Type.Object({
  scope: Type.Object({
    project: Nullable(Id),
    folder: Nullable(Id),
    from: Nullable(Type.String()),
    to: Nullable(Type.String()),
    include_unreviewed: Type.Boolean(),
  }),
  currency: Type.String(),
  videos: Type.Integer(),
  totals: Type.Object({
    ...Exposure,
    size_weighted_seconds: Type.Number(),
    media_value: Type.Number(),
  }),
  brands: Type.Array(
    Type.Object({
      brand: BrandRef,
      ...Exposure,
      videos: Type.Integer(),
      share_of_voice: Type.Number(),
      size_weighted_seconds: Type.Number(),
      mean_share_of_frame: Type.Number(),
      position_weight: Type.Number(),
      clutter: Type.Number(),
      media_value: Type.Number(),
    }),
  ),
  placements: Type.Array(
    Type.Object({
      placement: PlacementRef,
      exposure_seconds: Type.Number(),
      media_value: Type.Number(),
      rate_per_second: Type.Number(),
      brands: Type.Array(
        Type.Object({ brand_id: Id, exposure_seconds: Type.Number(), media_value: Type.Number() }),
      ),
    }),
  ),
  timeline: Type.Array(
    Type.Object({
      video: Type.Object({ id: Id, name: Type.String(), created_at: Type.String() }),
      exposure_seconds: Type.Number(),
      brands: Type.Array(Type.Object({ brand_id: Id, exposure_seconds: Type.Number() })),
    }),
  ),
  top_videos: Type.Array(
    Type.Object({
      brand_id: Id,
      videos: Type.Array(
        Type.Object({
          video: VideoRef,
          exposure_seconds: Type.Number(),
          share_of_video: Type.Number(),
          media_value: Type.Number(),
        }),
      ),
    }),
  ),
  review: Type.Object({
    overall: Type.Object({ total: Type.Integer(), reviewed: Type.Integer(), share: Type.Number() }),
    videos: Type.Array(
      Type.Object({ video: VideoRef, total: Type.Integer(), reviewed: Type.Integer(), share: Type.Number() }),
    ),
  }),
  processing: ProcessingAnswer,
});
export type Dashboard = Static<typeof DashboardAnswer>;

export const AnalyticsSettingsAnswer = Type.Object({
  currency: Type.String(),
  count_unreviewed: Type.Boolean(),
  rates: Type.Array(Type.Object({ placement: PlacementRef, rate_per_second: Type.Number() })),
});
export type AnalyticsSettings = Static<typeof AnalyticsSettingsAnswer>;

export const AnalyticsSettingsBody = Type.Object({
  currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code' })),
  count_unreviewed: Type.Optional(Type.Boolean()),
  rates: Type.Optional(
    Type.Array(
      Type.Object({
        placement_id: Id,
        rate_per_second: Type.Number({ minimum: 0, maximum: 1e9 }),
      }),
      { maxItems: 1000 },
    ),
  ),
});
export type AnalyticsSettingsBody = Static<typeof AnalyticsSettingsBody>;
