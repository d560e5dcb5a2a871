import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** Nullable helper: `T | null` in both TypeScript and JSON Schema. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const Id = Type.Integer({ minimum: 1, description: 'Row id' });

/** Body of every error answer; the web app shows '{status text}: {detail}'. */
export const ErrorBody = Type.Object({ detail: Type.String() }, { $id: 'ErrorBody' });
export type ErrorBody = Static<typeof ErrorBody>;

export const User = Type.Object(
  {
    id: Id,
    username: Type.String(),
    first_name: Type.String(),
    last_name: Type.String(),
    email: Type.String(),
  },
  { $id: 'User' },
);
export type User = Static<typeof User>;

export const Organization = Type.Object(
  { id: Id, name: Type.String(), api_key: Type.String() },
  { $id: 'Organization' },
);
export type Organization = Static<typeof Organization>;

export const Profile = Type.Object({ user: User, organization: Organization }, { $id: 'Profile' });
export type Profile = Static<typeof Profile>;

export const Session = Type.Object(
  { token: Type.String(), user: User, organization: Organization },
  { $id: 'Session' },
);
export type Session = Static<typeof Session>;

/** Brand states. */
export const BRAND_STATUS = {
  NO_LOGOS: 'NO LOGOS',
  QUEUED: 'QUEUED',
  ACTIVATING: 'ACTIVATING',
  ACTIVE: 'ACTIVE',
  DEACTIVATED: 'DEACTIVATED',
  ERROR: 'ERROR',
} as const;
export type BrandStatus = (typeof BRAND_STATUS)[keyof typeof BRAND_STATUS];

export const BrandLogo = Type.Object(
  {
    id: Id,
    icon_url: Type.String({ description: 'Signed path of the example image, loadable by an <img>' }),
    file_name: Type.String(),
    precision: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
  },
  { $id: 'BrandLogo' },
);
export type BrandLogo = Static<typeof BrandLogo>;

export const Brand = Type.Object(
  {
    id: Id,
    name: Type.String(),
    localized_name: Type.String(),
    url: Type.String(),
    logograb_id: Nullable(Type.String()),
    icon_url: Nullable(Type.String()),
    status: Type.String(),
    activation_progress: Type.Number({ minimum: 0, maximum: 100 }),
    logos: Type.Array(BrandLogo),
  },
  { $id: 'Brand' },
);
export type Brand = Static<typeof Brand>;

export const Placement = Type.Object(
  {
    id: Id,
    localized_name: Type.String(),
    color: Type.String({ description: 'Hex colour, #rrggbb' }),
    manual: Type.Boolean(),
  },
  { $id: 'Placement' },
);
export type Placement = Static<typeof Placement>;

/** Placement as embedded in a detection. */
export const PlacementRef = Type.Object({
  id: Id,
  localized_name: Type.String(),
  color: Type.String(),
});
export type PlacementRef = Static<typeof PlacementRef>;

export const VIDEO_STATUS = {
  UPLOADED: 'UPLOADED',
  QUEUED: 'QUEUED',
  PROCESSING: 'PROCESSING',
  OK: 'OK',
  ERROR: 'ERROR PROCESSING',
} as const;

export const ProjectRef = Type.Object({ id: Id, name: Type.String() });

export const Video = Type.Object(
  {
    id: Id,
    name: Type.String(),
    status: Type.String(),
    status_reason: Type.String(),
    progress: Type.Number({ minimum: 0, maximum: 100 }),
    request_hash: Type.String(),
    frames: Type.Integer(),
    fps: Type.Number(),
    duration: Type.Number({ description: 'Seconds (frames / fps)' }),
    width: Type.Integer(),
    height: Type.Integer(),
    project: Nullable(ProjectRef),
    folder: Nullable(Id),
    video_file: Type.String({ description: 'Signed path a <video> element can play (Range supported)' }),
    file_name: Type.String(),
    size: Type.Integer({ description: 'Bytes' }),
    thumbnails: Nullable(
      Type.Object({
        url: Type.String({ description: 'Signed path of a JPEG sprite sheet' }),
        interval: Type.Number({ description: 'Seconds between two tiles' }),
        columns: Type.Integer(),
        count: Type.Integer(),
        tile_width: Type.Integer(),
        tile_height: Type.Integer(),
      }),
    ),
    poster_url: Nullable(
      Type.String({
        description: 'Signed path of one JPEG frame (the middle tile of the sprite), for cards',
      }),
    ),
    created_at: Type.String(),
    detections_total: Type.Integer({ description: 'Listed detections (not false positive or deleted)' }),
    detections_reviewed: Type.Integer({ description: 'Listed detections that are not UNREVIEWED' }),
  },
  { $id: 'Video' },
);
export type Video = Static<typeof Video>;

export interface Folder {
  id: number;
  name: string;
  path: string;
  parent: number | null;
  folders: Folder[];
  videos: Video[];
}
export const Folder = Type.Recursive(
  (This: TSchema) =>
    Type.Object({
      id: Id,
      name: Type.String(),
      path: Type.String({ description: "Slash path from the root, e.g. '/Matches/2026'" }),
      parent: Nullable(Id),
      folders: Type.Array(This),
      videos: Type.Array(Type.Ref('Video')),
    }),
  { $id: 'Folder' },
);

export const VideoTree = Type.Object(
  { folders: Type.Array(Type.Ref('Folder')), videos: Type.Array(Type.Ref('Video')) },
  { $id: 'VideoTree' },
);
export interface VideoTree {
  folders: Folder[];
  videos: Video[];
}

export const BrandRef = Type.Object({ id: Id, name: Type.String(), localized_name: Type.String() });

export const Project = Type.Object(
  {
    id: Id,
    name: Type.String(),
    description: Type.String(),
    filtered_brands: Type.Array(BrandRef),
    filtered_placements: Type.Array(PlacementRef),
  },
  { $id: 'Project' },
);
export type Project = Static<typeof Project>;

export const Tag = Type.Object(
  {
    id: Id,
    name: Type.String(),
    brand: Id,
    placements: Type.Array(Id),
    project: Nullable(Id),
    archived: Type.Boolean(),
  },
  { $id: 'Tag' },
);
export type Tag = Static<typeof Tag>;

export const VERIFICATION_STATUS = {
  SUBMITTED: 'SUBMITTED',
  PROCESSING: 'PROCESSING',
  ERROR: 'ERROR PROCESSING',
  FINISHED: 'FINISHED',
} as const;

export const VerificationVideo = Type.Object(
  {
    id: Id,
    name: Type.String(),
    video: Id,
    status: Type.String(),
    status_reason: Type.String(),
    progress: Type.Number({ minimum: 0, maximum: 100 }),
    file_path: Nullable(Type.String({ description: 'Signed path of the rendered MP4' })),
  },
  { $id: 'VerificationVideo' },
);
export type VerificationVideo = Static<typeof VerificationVideo>;

/** Eight numbers: four corners x/y, clockwise from top-left, in video pixels. */
export const Points = Type.Array(Type.Number(), { minItems: 8, maxItems: 8 });

export const CoordinateSegment = Type.Object({
  start_time: Type.Number({ minimum: 0, description: 'ms' }),
  end_time: Type.Number({ minimum: 0, description: 'ms' }),
  points: Points,
});
export type CoordinateSegment = Static<typeof CoordinateSegment>;

/**
 * A detection's review state. UNREVIEWED, TRUE_POSITIVE, EDITED (moved, resized, trimmed, split or
 * merged by a person) and MANUAL (drawn by a person) are listed; FALSE_POSITIVE and DELETED are kept
 * (precision, undo) but never listed, reported or rendered.
 */
export const REVIEW_STATE = {
  UNREVIEWED: 'UNREVIEWED',
  TRUE_POSITIVE: 'TRUE_POSITIVE',
  EDITED: 'EDITED',
  MANUAL: 'MANUAL',
  FALSE_POSITIVE: 'FALSE_POSITIVE',
  DELETED: 'DELETED',
} as const;
export type ReviewState = (typeof REVIEW_STATE)[keyof typeof REVIEW_STATE];
export const REVIEW_STATES = Object.values(REVIEW_STATE);
/** The states a detection is listed in (window query, reports, verification renders, counts). */
export const LISTED_REVIEW_STATES: readonly ReviewState[] = [
  REVIEW_STATE.UNREVIEWED,
  REVIEW_STATE.TRUE_POSITIVE,
  REVIEW_STATE.EDITED,
  REVIEW_STATE.MANUAL,
];
export const ReviewStateSchema = Type.Union(REVIEW_STATES.map((s) => Type.Literal(s)));

export const Detection = Type.Object(
  {
    id: Id,
    brand: Id,
    placement: PlacementRef,
    coordinates: Type.Array(CoordinateSegment, { minItems: 1 }),
    time_begin: Type.Number({ description: 'ms' }),
    time_end: Type.Number({ description: 'ms' }),
    video: Id,
    confidence: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
    review: Type.String({
      description:
        'UNREVIEWED, TRUE_POSITIVE, EDITED (moved, resized, trimmed, split or merged by a person) or MANUAL ' +
        '(drawn by a person); FALSE_POSITIVE and DELETED detections are kept but not listed (the review call ' +
        'answers them too)',
    }),
    source: Type.String({ description: "'engine' or 'manual'" }),
    reviewed_by: Nullable(
      Type.String({
        description: 'Username of the last review action; null if none or made with the API key',
      }),
    ),
    reviewed_at: Nullable(Type.String({ description: 'ISO time of the last review action' })),
  },
  { $id: 'Detection' },
);
export type Detection = Static<typeof Detection>;
