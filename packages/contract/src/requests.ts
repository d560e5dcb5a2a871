import { Type, type Static } from '@sinclair/typebox';
import { CoordinateSegment, Id, Nullable, Points, ReviewStateSchema } from './entities.ts';

/** Limits shared by the server's validation and the web app's forms. */
export const LIMITS = {
  nameMax: 200,
  descriptionMax: 5000,
  urlMax: 2000,
  /** Largest accepted video upload. */
  videoMaxBytes: 8 * 1024 ** 3,
  /** Largest accepted example logo image. */
  logoMaxBytes: 20 * 1024 ** 2,
  maxLogosPerBrand: 50,
  /** Largest JSON body. */
  jsonBodyMaxBytes: 5 * 1024 ** 2,
  /** Detections accepted in one POST. */
  detectionsPerPost: 1000,
  /** Largest window of the detection query, ms. */
  detectionWindowMaxMs: 24 * 3600 * 1000,
  /** Default and largest span that one track call follows a box through, ms. */
  trackDefaultMs: 10_000,
  trackMaxMs: 60_000,
} as const;

const Name = Type.String({ minLength: 1, maxLength: LIMITS.nameMax });
const Color = Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: 'Hex colour #rrggbb' });

export const LoginBody = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 150 }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
});
export type LoginBody = Static<typeof LoginBody>;

export const ProfileUpdateBody = Type.Object({
  user: Type.Object({
    first_name: Type.Optional(Type.String({ maxLength: 150 })),
    last_name: Type.Optional(Type.String({ maxLength: 150 })),
    email: Type.String({ format: 'email', maxLength: 254 }),
  }),
});
export type ProfileUpdateBody = Static<typeof ProfileUpdateBody>;

export const BrandListQuery = Type.Object({
  refresh: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
});

/** Multipart fields of POST/PUT /api/brands/create/ (example_logos are file parts). */
export interface BrandForm {
  id?: number;
  name?: string;
  localized_name?: string;
  url?: string;
  example_logos: File[];
}

export const IdBody = Type.Object({ id: Id });
export type IdBody = Static<typeof IdBody>;

export const PlacementCreateBody = Type.Object({
  localized_name: Name,
  color: Type.Optional(Color),
});
export type PlacementCreateBody = Static<typeof PlacementCreateBody>;

export const PlacementUpdateBody = Type.Object({
  id: Id,
  localized_name: Name,
  color: Color,
});
export type PlacementUpdateBody = Static<typeof PlacementUpdateBody>;

export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });

export const FolderCreateBody = Type.Object({ name: Name, parent: Nullable(Id) });
export type FolderCreateBody = Static<typeof FolderCreateBody>;

/** Multipart fields of POST /api/videos/create/ (videoFile is the file part). */
export interface VideoCreateForm {
  name: string;
  videoFile: File;
  folder?: number | null;
  project?: number | null;
}

export const VideoUpdateBody = Type.Object({
  id: Id,
  name: Name,
  folder: Nullable(Id),
  project: Type.Optional(Nullable(Id)),
});
export type VideoUpdateBody = Static<typeof VideoUpdateBody>;

const RefOrId = Type.Union([Id, Type.Object({ id: Id })]);
export const ProjectBody = Type.Object({
  id: Type.Optional(Id),
  name: Name,
  description: Type.Optional(Type.String({ maxLength: LIMITS.descriptionMax })),
  filtered_brands: Type.Optional(Type.Array(RefOrId)),
  filtered_placements: Type.Optional(Type.Array(RefOrId)),
});
export type ProjectBody = Static<typeof ProjectBody>;

export const TagCreateBody = Type.Object({
  name: Name,
  brand: Id,
  placements: Type.Optional(Type.Array(Id)),
  project: Type.Optional(Nullable(Id)),
});
export type TagCreateBody = Static<typeof TagCreateBody>;

export const TagUpdateBody = Type.Object({
  id: Id,
  name: Name,
  brand: Id,
  placements: Type.Optional(Type.Array(Id)),
  project: Type.Optional(Nullable(Id)),
  archived: Type.Optional(Type.Boolean()),
});
export type TagUpdateBody = Static<typeof TagUpdateBody>;

export const VerificationCreateBody = Type.Object({ name: Name, video: Id });
export type VerificationCreateBody = Static<typeof VerificationCreateBody>;

export const VerificationUpdateBody = Type.Object({
  id: Id,
  name: Type.Optional(Name),
  video: Type.Optional(Id),
});
export type VerificationUpdateBody = Static<typeof VerificationUpdateBody>;

export const DetectionWindowQuery = Type.Object({
  videoId: Type.Integer({ minimum: 1 }),
  startTime: Type.Number({ minimum: 0 }),
  endTime: Type.Number({ minimum: 0 }),
});
export type DetectionWindowQuery = Static<typeof DetectionWindowQuery>;

/** A finished new detection in upload form. */
export const NewDetection = Type.Object({
  video: Id,
  brand: Id,
  placement: Id,
  time_begin: Type.Number({ minimum: 0 }),
  time_end: Type.Number({ minimum: 0 }),
  coordinates: Type.Array(CoordinateSegment, { minItems: 1, maxItems: 10000 }),
});
export type NewDetection = Static<typeof NewDetection>;

export const DetectionsCreateBody = Type.Object({
  detections: Type.Array(NewDetection, { minItems: 1, maxItems: LIMITS.detectionsPerPost }),
});
export type DetectionsCreateBody = Static<typeof DetectionsCreateBody>;

export const DetectionsPlacementBody = Type.Object({
  placementId: Id,
  detectionIds: Type.Array(Id, { minItems: 1, maxItems: 10000 }),
});
export type DetectionsPlacementBody = Static<typeof DetectionsPlacementBody>;

export const DetectionsChangeBody = Type.Object({
  brandIds: Type.Array(Id),
  placementIds: Type.Array(Id),
  newPlacementId: Id,
  videoId: Id,
});
export type DetectionsChangeBody = Static<typeof DetectionsChangeBody>;

export const REPORT_TYPES = ['truePositive', 'falsePositive', 'delete'] as const;
export const DetectionsReportBody = Type.Object({
  detectionIds: Type.Array(Id, { minItems: 1, maxItems: 10000 }),
  type: Type.Union(REPORT_TYPES.map((t) => Type.Literal(t))),
});
export type DetectionsReportBody = Static<typeof DetectionsReportBody>;

/**
 * Move, resize or trim. Without coordinates the current ones are kept; with time_begin or time_end
 * (a trim) the segments are cut to the new span and those outside it dropped.
 */
export const DetectionPatchBody = Type.Object({
  coordinates: Type.Optional(Type.Array(CoordinateSegment, { minItems: 1, maxItems: 10000 })),
  time_begin: Type.Optional(Type.Number({ minimum: 0 })),
  time_end: Type.Optional(Type.Number({ minimum: 0 })),
});
export type DetectionPatchBody = Static<typeof DetectionPatchBody>;

/** Sets the review state of detections: a verdict, or its undo/redo (any state back). */
export const DetectionsReviewBody = Type.Object({
  detectionIds: Type.Array(Id, { minItems: 1, maxItems: 10000 }),
  review: ReviewStateSchema,
});
export type DetectionsReviewBody = Static<typeof DetectionsReviewBody>;

export const DetectionSplitBody = Type.Object({
  time: Type.Number({ minimum: 0, description: 'ms, strictly inside the detection span' }),
});
export type DetectionSplitBody = Static<typeof DetectionSplitBody>;

export const DetectionsMergeBody = Type.Object({
  detectionIds: Type.Array(Id, {
    minItems: 2,
    maxItems: 2,
    description: 'Two detections of one video and brand; the earlier one keeps its id, the other is deleted',
  }),
});
export type DetectionsMergeBody = Static<typeof DetectionsMergeBody>;

export const TRACK_DIRECTIONS = ['forward', 'backward', 'both'] as const;
export const DetectionTrackBody = Type.Object({
  videoId: Id,
  time: Type.Number({ minimum: 0, description: 'ms: the time at which points frame the logo' }),
  points: Points,
  direction: Type.Optional(
    Type.Union(
      TRACK_DIRECTIONS.map((d) => Type.Literal(d)),
      { default: 'both' },
    ),
  ),
  maxMs: Type.Optional(
    Type.Number({
      minimum: 1,
      maximum: LIMITS.trackMaxMs,
      description: `ms followed at most in each direction (default ${LIMITS.trackDefaultMs})`,
    }),
  ),
});
export type DetectionTrackBody = Static<typeof DetectionTrackBody>;

export const DetectionTrackAnswer = Type.Object({
  segments: Type.Array(CoordinateSegment, {
    description: 'The box followed through the frames, in time order (the given time included)',
  }),
});
export type DetectionTrackAnswer = Static<typeof DetectionTrackAnswer>;

export const DetectionHistoryEntry = Type.Object({
  at: Type.String({ description: 'ISO time' }),
  user: Nullable(Type.String({ description: 'Username; null for a call made with the API key' })),
  action: Type.String({ description: "Human-readable, e.g. 'True positive', 'Moved', 'Split'" }),
  detail: Type.String(),
});
export type DetectionHistoryEntry = Static<typeof DetectionHistoryEntry>;
export const DetectionHistory = Type.Array(DetectionHistoryEntry);

const IdList = Type.Union([Type.Integer({ minimum: 1 }), Type.Array(Type.Integer({ minimum: 1 }))]);
export const ExcelQuery = Type.Object({
  videoId: Type.Integer({ minimum: 1 }),
  tag_ids: Type.Optional(IdList),
  bFilter: Type.Optional(IdList),
  pFilter: Type.Optional(IdList),
  without_placement: Type.Optional(Type.Boolean()),
});
export type ExcelQuery = Static<typeof ExcelQuery>;

/** The most detections one review-queue answer holds. */
export const REVIEW_QUEUE_MAX = 50;

/**
 * The review queue's next detection over the whole video (issue 17): the most confident unreviewed one that
 * the filter lets through, leaving out the video's project's hidden brands and placements and `exclude`
 * (verdicts on their way). Hand-drawn ones (no confidence) come last; ties by start time, then id.
 */
export const ReviewNextQuery = Type.Object({
  videoId: Type.Integer({ minimum: 1 }),
  order: Type.Literal('confidence'),
  exclude: Type.Optional(IdList),
  brandIds: Type.Optional(IdList),
  placementIds: Type.Optional(IdList),
  minConfidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  /** How many of the queue's first detections to answer in `queue` (default 1). */
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: REVIEW_QUEUE_MAX })),
});
export type ReviewNextQuery = Static<typeof ReviewNextQuery>;

export const ReportAnswer = Type.Object({ detail: Type.String(), count: Type.Integer() });
