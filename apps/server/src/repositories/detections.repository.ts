import {
  LISTED_REVIEW_STATES,
  type CoordinateSegment,
  type Detection,
  type DetectionHistoryEntry,
  type ReviewState,
} from '@logo-review/contract';
import type { Queryable } from '@logo-review/db';
import { jsonArray, type DetectionJsonCache } from './detection-json-cache.ts';

/** SQL condition: the detection is listed (not a false positive, not deleted). States are constants. */
export const listedSql = (col = 'review') =>
  `${col} IN (${LISTED_REVIEW_STATES.map((s) => `'${s}'`).join(', ')})`;

/** ISO 8601 in UTC from a timestamptz, the same text on PGlite and PostgreSQL. */
const iso = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Who makes a review action: a user, or null for a call made with the organization's API key. */
export interface Actor {
  userId: number | null;
}

/** One history entry to write. */
export interface HistoryEvent {
  id: number;
  action: string;
  detail: string;
}

interface DetectionRow {
  id: number;
  brand_id: number;
  placement_id: number;
  placement_name: string;
  placement_color: string;
  coordinates: CoordinateSegment[];
  time_begin: number;
  time_end: number;
  video_id: number;
  confidence: number | null;
  review: string;
  source: string;
  reviewed_by: string | null;
  reviewed_at: string | null;
}

/** A detection's row with its placement and reviewer. */
const FROM = `FROM detections d JOIN placements pl ON pl.id = d.placement_id LEFT JOIN users u ON u.id = d.reviewed_by`;

const SELECT = `SELECT d.id, d.brand_id, d.placement_id, pl.localized_name AS placement_name, pl.color AS placement_color,
  d.coordinates, d.time_begin, d.time_end, d.video_id, d.confidence, d.review, d.source,
  u.username AS reviewed_by, ${iso('d.reviewed_at')} AS reviewed_at
  ${FROM}`;

/** One detection's JSON (the Detection schema, built by the database). */
const DETECTION_JSON = `json_build_object(
  'id', d.id, 'brand', d.brand_id,
  'placement', json_build_object('id', pl.id, 'localized_name', pl.localized_name, 'color', pl.color),
  'coordinates', d.coordinates, 'time_begin', d.time_begin, 'time_end', d.time_end, 'video', d.video_id,
  'confidence', d.confidence, 'review', d.review, 'source', d.source,
  'reviewed_by', u.username, 'reviewed_at', ${iso('d.reviewed_at')})`;
/** The version of the rows a detection's JSON is built from (see DetectionJsonCache). */
const VERSION = `d.xmin::text || '.' || pl.xmin::text || '.' || coalesce(u.xmin::text, '')`;

/** A detection's stored row, for edits that rebuild it (split, merge). */
export type StoredDetection = NewDetectionRow & { id: number };

/** The indexed span expression (must match detections_window_idx). */
const SPAN = `int8range(floor(d.time_begin)::bigint, ceil(d.time_end)::bigint, '[]')`;

export const toDetection = (r: DetectionRow): Detection => ({
  id: Number(r.id),
  brand: r.brand_id,
  placement: { id: r.placement_id, localized_name: r.placement_name, color: r.placement_color },
  coordinates: r.coordinates,
  time_begin: r.time_begin,
  time_end: r.time_end,
  video: r.video_id,
  confidence: r.confidence,
  review: r.review,
  source: r.source,
  reviewed_by: r.reviewed_by,
  reviewed_at: r.reviewed_at,
});

export interface NewDetectionRow {
  video_id: number;
  brand_id: number;
  placement_id: number;
  auto_placement_id: number;
  logo_id: number | null;
  time_begin: number;
  time_end: number;
  coordinates: CoordinateSegment[];
  confidence: number | null;
  review: string;
  source: string;
}

export const detectionsRepository = {
  /**
   * Listed detections (false positives and deleted ones excluded) of one video whose span overlaps [start, end] ms,
   * as JSON built by the database itself: the editor's hottest call skips parsing jsonb into objects
   * and stringifying them again. With a `cache`, each detection's JSON is built once per version of its
   * rows and the database only finds the window's detections (WINDOW_CACHE_MB). Null when the
   * organization has no such video: the same statement answers both, so that a window costs one
   * round trip to the database when its JSON is cached (under load each round trip waits its turn
   * for a core).
   */
  async windowJson(
    db: Queryable,
    org: number,
    videoId: number,
    start: number,
    end: number,
    cache: DetectionJsonCache | null = null,
  ): Promise<Buffer | null> {
    const where = `d.video_id = $1 AND d.organization_id = $2 AND ${listedSql('d.review')}
       AND ${SPAN} && int8range($3::bigint, $4::bigint, '[]')`;
    const params = [videoId, org, Math.floor(start), Math.ceil(end)];
    if (!cache) {
      const [r] = await db.query<{ body: string }>(
        `SELECT (SELECT coalesce(json_agg(${DETECTION_JSON} ORDER BY d.time_begin, d.id), '[]')::text
                 ${FROM} WHERE ${where}) AS body
         FROM videos vid WHERE vid.id = $1 AND vid.organization_id = $2`,
        params,
      );
      return r ? Buffer.from(r.body) : null;
    }
    // Which detections, at which versions: cheap (no JSON); their JSON from the cache where current.
    // (No row: no such video. One row with no id: the video, and no detection in the window.)
    const found = await db.query<{ id: string | null; v: string }>(
      `SELECT w.id, w.v FROM videos vid
       LEFT JOIN LATERAL (SELECT d.id, ${VERSION} AS v, d.time_begin ${FROM} WHERE ${where}) w ON true
       WHERE vid.id = $1 AND vid.organization_id = $2
       ORDER BY w.time_begin, w.id`,
      params,
    );
    if (found.length === 0) return null;
    const rows = found.filter((r): r is { id: string; v: string } => r.id !== null);
    const parts: (Buffer | undefined)[] = rows.map((r) => cache.get(Number(r.id), r.v));
    const missing = rows.filter((_, i) => parts[i] === undefined).map((r) => Number(r.id));
    if (missing.length > 0) {
      // Built now, at their versions now (a row changed since the first query is served as it is now;
      // one no longer listed is left out).
      const built = await db.query<{ id: string; v: string; body: string }>(
        `SELECT d.id, ${VERSION} AS v, ${DETECTION_JSON}::text AS body ${FROM}
         WHERE d.id = ANY($1::bigint[]) AND d.organization_id = $2 AND ${listedSql('d.review')}`,
        [missing, org],
      );
      const byId = new Map<number, Buffer>();
      for (const b of built) {
        const json = Buffer.from(b.body);
        cache.set(Number(b.id), b.v, json);
        byId.set(Number(b.id), json);
      }
      rows.forEach((r, i) => (parts[i] ??= byId.get(Number(r.id))));
    }
    // The same bytes with the cache or without.
    return jsonArray(parts.filter((p) => p !== undefined));
  },
  /**
   * The review queue's next detection by confidence over the whole video: the most confident UNREVIEWED one
   * (no confidence last; ties by start, then id) that the filter lets through, leaving out the video's
   * project's hidden brands and placements and the `exclude` ids. Undefined when none is left.
   */
  /** The review queue by confidence: its first `limit` detections (see GET /api/videos/detections/next/). */
  async queueByConfidence(
    db: Queryable,
    org: number,
    f: {
      videoId: number;
      exclude: number[];
      brandIds: number[];
      placementIds: number[];
      minConfidence: number;
      limit: number;
    },
  ): Promise<Detection[]> {
    // Served by detections_review_queue_idx (migration 014): the literal review state matches its predicate.
    const rows = await db.query<DetectionRow>(
      `${SELECT} JOIN videos v ON v.id = d.video_id
       WHERE d.organization_id = $1 AND d.video_id = $2 AND d.review = 'UNREVIEWED'
         AND NOT (d.id = ANY($3::bigint[]))
         AND (cardinality($4::int[]) = 0 OR d.brand_id = ANY($4::int[]))
         AND (cardinality($5::int[]) = 0 OR d.placement_id = ANY($5::int[]))
         AND ($6::float8 <= 0 OR d.confidence IS NULL OR d.confidence >= $6::float8)
         AND NOT EXISTS (SELECT 1 FROM project_hidden_brands h
                         WHERE h.project_id = v.project_id AND h.brand_id = d.brand_id)
         AND NOT EXISTS (SELECT 1 FROM project_hidden_placements h
                         WHERE h.project_id = v.project_id AND h.placement_id = d.placement_id)
       ORDER BY d.confidence DESC NULLS LAST, d.time_begin, d.id
       LIMIT $7`,
      [org, f.videoId, f.exclude, f.brandIds, f.placementIds, f.minConfidence, f.limit],
    );
    return rows.map(toDetection);
  },
  async byIds(db: Queryable, org: number, ids: number[]): Promise<Detection[]> {
    const rows = await db.query<DetectionRow>(
      `${SELECT} WHERE d.organization_id = $1 AND d.id = ANY($2::bigint[]) ORDER BY d.id`,
      [org, ids],
    );
    return rows.map(toDetection);
  },
  /** The stored row, locked for the rest of the transaction (edits that rebuild a detection). */
  async stored(db: Queryable, org: number, id: number): Promise<StoredDetection | undefined> {
    const [r] = await db.query<StoredDetection>(
      `SELECT id, video_id, brand_id, placement_id, auto_placement_id, logo_id, time_begin, time_end, coordinates,
              confidence, review, source
       FROM detections WHERE organization_id = $1 AND id = $2 FOR UPDATE`,
      [org, id],
    );
    return r && { ...r, id: Number(r.id) };
  },
  /**
   * Inserts many rows in chunks (one statement per chunk through unnest of JSON). With an actor (a
   * person's detections) they are marked reviewed by them now; engine results carry none.
   */
  async insertMany(db: Queryable, org: number, rows: NewDetectionRow[], actor?: Actor): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < rows.length; i += 500) {
      const chunk = rows.slice(i, i + 500);
      const r = await db.query<{ id: number }>(
        `INSERT INTO detections(organization_id, video_id, brand_id, placement_id, auto_placement_id, logo_id,
                                time_begin, time_end, coordinates, confidence, review, source, reviewed_by, reviewed_at)
         SELECT $1, x.video_id, x.brand_id, x.placement_id, x.auto_placement_id, x.logo_id,
                x.time_begin, x.time_end, x.coordinates, x.confidence, x.review, x.source,
                $3::int, CASE WHEN $4::boolean THEN now() END
         FROM jsonb_to_recordset($2::jsonb) AS x(video_id int, brand_id int, placement_id int, auto_placement_id int,
              logo_id int, time_begin float8, time_end float8, coordinates jsonb, confidence real, review text, source text)
         RETURNING id`,
        [org, JSON.stringify(chunk), actor?.userId ?? null, !!actor],
      );
      ids.push(...r.map((x) => Number(x.id)));
    }
    return ids;
  },
  /**
   * Sets the placement of the given detections (a review action: who and when are kept) and writes
   * their history. Returns the ids changed.
   */
  async setPlacement(
    db: Queryable,
    org: number,
    ids: number[],
    placementId: number,
    actor: Actor,
  ): Promise<number[]> {
    return placementChange(db, org, actor, placementId, 'd.id = ANY($3::bigint[])', [ids]);
  },
  /** Changes the placement of all listed detections of a video that match the brand/placement filters. */
  async changeAll(
    db: Queryable,
    org: number,
    c: { videoId: number; brandIds: number[]; placementIds: number[]; newPlacementId: number },
    actor: Actor,
  ): Promise<number> {
    const ids = await placementChange(
      db,
      org,
      actor,
      c.newPlacementId,
      `d.video_id = $3 AND ${listedSql('d.review')}
         AND (cardinality($4::int[]) = 0 OR d.brand_id = ANY($4::int[]))
         AND (cardinality($5::int[]) = 0 OR d.placement_id = ANY($5::int[]))`,
      [c.videoId, c.brandIds, c.placementIds],
    );
    return ids.length;
  },
  /**
   * Sets the review state of the given detections, keeping who and when; those in one of the `keep`
   * states keep it (still marked reviewed now). Returns each detection with the state it had before
   * and the one it has now (the history says what changed).
   */
  async setReview(
    db: Queryable,
    org: number,
    ids: number[],
    review: ReviewState,
    actor: Actor,
    keep: readonly ReviewState[] = [],
  ): Promise<{ id: number; before: ReviewState; after: ReviewState }[]> {
    const rows = await db.query<{ id: number; before: ReviewState; after: ReviewState }>(
      `WITH old AS (
         SELECT id, review FROM detections WHERE organization_id = $1 AND id = ANY($2::bigint[]) FOR UPDATE
       )
       UPDATE detections d
       SET review = CASE WHEN old.review = ANY($5::text[]) THEN old.review ELSE $3 END,
           reviewed_by = $4, reviewed_at = now(), updated_at = now()
       FROM old WHERE d.id = old.id
       RETURNING d.id, old.review AS before, d.review AS after`,
      [org, ids, review, actor.userId, keep],
    );
    return rows.map((r) => ({ id: Number(r.id), before: r.before, after: r.after }));
  },
  /**
   * New geometry by a person: an unreviewed or confirmed detection becomes EDITED; MANUAL stays
   * MANUAL, and a false positive or deleted one keeps its state (an undo may restore its geometry
   * before or after its state).
   */
  async setGeometry(
    db: Queryable,
    org: number,
    id: number,
    g: { time_begin: number; time_end: number; coordinates: CoordinateSegment[] },
    actor: Actor,
  ): Promise<void> {
    await db.query(
      `UPDATE detections SET time_begin = $3, time_end = $4, coordinates = $5::jsonb,
         review = CASE WHEN review IN ('UNREVIEWED', 'TRUE_POSITIVE') THEN 'EDITED' ELSE review END,
         reviewed_by = $6, reviewed_at = now(), updated_at = now()
       WHERE organization_id = $1 AND id = $2`,
      [org, id, g.time_begin, g.time_end, JSON.stringify(g.coordinates), actor.userId],
    );
  },
  /** Writes history entries (one statement). */
  async addHistory(db: Queryable, org: number, actor: Actor, events: HistoryEvent[]): Promise<void> {
    if (events.length === 0) return;
    await db.query(
      `INSERT INTO detection_history (organization_id, detection_id, user_id, action, detail)
       SELECT $1, x.id, $2::int, x.action, x.detail
       FROM jsonb_to_recordset($3::jsonb) AS x(id bigint, action text, detail text)`,
      [org, actor.userId, JSON.stringify(events)],
    );
  },
  /** A detection's history, newest first. */
  async history(db: Queryable, org: number, id: number): Promise<DetectionHistoryEntry[]> {
    return db.query<DetectionHistoryEntry>(
      `SELECT ${iso('h.at')} AS at, u.username AS "user", h.action, h.detail
       FROM detection_history h LEFT JOIN users u ON u.id = h.user_id
       WHERE h.organization_id = $1 AND h.detection_id = $2
       ORDER BY h.id DESC`,
      [org, id],
    );
  },
  /**
   * Engine results replace the earlier engine results of the video; reviewed and manual ones stay,
   * and so do those a person touched (a placement change, a verdict undone back to unreviewed).
   */
  async deleteEngineUnreviewed(db: Queryable, videoId: number): Promise<void> {
    await db.query(
      "DELETE FROM detections WHERE video_id = $1 AND source = 'engine' AND review = 'UNREVIEWED' AND reviewed_at IS NULL",
      [videoId],
    );
  },
};

/**
 * Moves the detections chosen by `where` (over `d`, parameters from $3) to a placement, keeps who
 * and when, and writes "Placement changed to X" with the former placement in one statement.
 */
async function placementChange(
  db: Queryable,
  org: number,
  actor: Actor,
  placementId: number,
  where: string,
  params: unknown[],
): Promise<number[]> {
  const p = params.length + 3;
  const rows = await db.query<{ id: number }>(
    `WITH old AS (
       SELECT d.id, pl.localized_name AS was FROM detections d JOIN placements pl ON pl.id = d.placement_id
       WHERE d.organization_id = $1 AND ${where} FOR UPDATE OF d
     ), upd AS (
       UPDATE detections d SET placement_id = $${p}, reviewed_by = $2, reviewed_at = now(), updated_at = now()
       FROM old WHERE d.id = old.id RETURNING d.id, old.was
     )
     INSERT INTO detection_history (organization_id, detection_id, user_id, action, detail)
     SELECT $1, upd.id, $2::int, 'Placement changed to ' || pl.localized_name, 'Was ' || upd.was
     FROM upd JOIN placements pl ON pl.id = $${p}
     RETURNING detection_id AS id`,
    [org, actor.userId, ...params, placementId],
  );
  return rows.map((r) => Number(r.id));
}

export interface ReportRow {
  id: number;
  brand_id: number;
  placement_id: number;
  time_begin: number;
  time_end: number;
  coordinates: CoordinateSegment[];
  confidence: number | null;
  review: string;
  source: string;
  reviewed_by: string | null;
  reviewed_at: string | null;
}

/**
 * Listed detections of a video in id order, a page at a time (keyset paging), so a report over
 * 100,000 detections never holds them all. Empty brand/placement lists mean all; `hidden*` are
 * left out (a project's hidden brands and placements).
 */
export function streamDetections(
  db: Queryable,
  org: number,
  f: DetectionStreamFilter,
  pageSize = 2000,
): AsyncGenerator<ReportRow> {
  return streamRows(db, org, f, pageSize);
}

/**
 * The same rows a page at a time, each page one JSON text (an array of ReportRow) built by the
 * database: for a report thread to parse, so that the server's thread neither parses nor copies
 * the rows one by one.
 */
export async function* streamDetectionPages(
  db: Queryable,
  org: number,
  f: DetectionStreamFilter,
  pageSize = 2000,
): AsyncGenerator<string> {
  let last = 0;
  for (;;) {
    const [page] = await db.query<{ n: number; last: number | null; rows: string }>(
      `SELECT count(*)::int AS n, max(r.id) AS last, coalesce(json_agg(r ORDER BY r.id), '[]')::text AS rows
       FROM (${rowsSql()}) r`,
      rowsParams(org, f, last, pageSize),
    );
    if (page.n > 0) yield page.rows;
    if (page.n < pageSize) return;
    last = Number(page.last);
  }
}

export interface DetectionStreamFilter {
  videoId: number;
  brandIds: number[];
  placementIds: number[];
  hiddenBrandIds: number[];
  hiddenPlacementIds: number[];
  /** Only these review states (analytics: the counted ones); absent: every listed state. */
  reviews?: readonly string[];
}

function rowsSql(): string {
  return `SELECT d.id, d.brand_id, d.placement_id, d.time_begin, d.time_end, d.coordinates, d.confidence,
              d.review, d.source, u.username AS reviewed_by, ${iso('d.reviewed_at')} AS reviewed_at
       FROM detections d LEFT JOIN users u ON u.id = d.reviewed_by
       WHERE d.organization_id = $1 AND d.video_id = $2 AND ${listedSql('d.review')} AND d.id > $3
         AND (cardinality($4::int[]) = 0 OR d.brand_id = ANY($4::int[]))
         AND (cardinality($5::int[]) = 0 OR d.placement_id = ANY($5::int[]))
         AND NOT (d.brand_id = ANY($6::int[])) AND NOT (d.placement_id = ANY($7::int[]))
         AND ($9::text[] IS NULL OR d.review = ANY($9::text[]))
       ORDER BY d.id LIMIT $8`;
}

function rowsParams(org: number, f: DetectionStreamFilter, last: number, pageSize: number): unknown[] {
  return [
    org,
    f.videoId,
    last,
    f.brandIds,
    f.placementIds,
    f.hiddenBrandIds,
    f.hiddenPlacementIds,
    pageSize,
    f.reviews ?? null,
  ];
}

async function* streamRows(
  db: Queryable,
  org: number,
  f: DetectionStreamFilter,
  pageSize: number,
): AsyncGenerator<ReportRow> {
  let last = 0;
  for (;;) {
    const rows = await db.query<ReportRow>(rowsSql(), rowsParams(org, f, last, pageSize));
    for (const r of rows) yield { ...r, id: Number(r.id) };
    if (rows.length < pageSize) return;
    last = Number(rows[rows.length - 1].id);
  }
}
