import type { CoordinateSegment, Detection } from '@logo-review/contract';
import type { Queryable } from '@logo-review/db';

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
}

const SELECT = `SELECT d.id, d.brand_id, d.placement_id, pl.localized_name AS placement_name, pl.color AS placement_color,
  d.coordinates, d.time_begin, d.time_end, d.video_id, d.confidence, d.review, d.source
  FROM detections d JOIN placements pl ON pl.id = d.placement_id`;

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
   * Listed detections (false positives excluded) of one video whose span overlaps [start, end] ms,
   * as JSON built by the database itself: the editor's hottest call skips parsing jsonb into objects
   * and stringifying them again.
   */
  async windowJson(db: Queryable, org: number, videoId: number, start: number, end: number): Promise<string> {
    const [r] = await db.query<{ body: string }>(
      `SELECT coalesce(json_agg(json_build_object(
                'id', d.id, 'brand', d.brand_id,
                'placement', json_build_object('id', pl.id, 'localized_name', pl.localized_name, 'color', pl.color),
                'coordinates', d.coordinates, 'time_begin', d.time_begin, 'time_end', d.time_end, 'video', d.video_id,
                'confidence', d.confidence, 'review', d.review, 'source', d.source) ORDER BY d.time_begin, d.id), '[]')::text AS body
       FROM detections d JOIN placements pl ON pl.id = d.placement_id
       WHERE d.video_id = $1 AND d.organization_id = $2 AND d.review <> 'FALSE_POSITIVE'
       AND ${SPAN} && int8range($3::bigint, $4::bigint, '[]')`,
      [videoId, org, Math.floor(start), Math.ceil(end)],
    );
    return r.body;
  },
  async byIds(db: Queryable, org: number, ids: number[]): Promise<Detection[]> {
    const rows = await db.query<DetectionRow>(
      `${SELECT} WHERE d.organization_id = $1 AND d.id = ANY($2::bigint[]) ORDER BY d.id`,
      [org, ids],
    );
    return rows.map(toDetection);
  },
  async spans(
    db: Queryable,
    org: number,
    id: number,
  ): Promise<{ time_begin: number; time_end: number } | undefined> {
    return (
      await db.query<{ time_begin: number; time_end: number }>(
        'SELECT time_begin, time_end FROM detections WHERE organization_id = $1 AND id = $2',
        [org, id],
      )
    )[0];
  },
  /** Inserts many rows in chunks (one statement per chunk through unnest of JSON). */
  async insertMany(db: Queryable, org: number, rows: NewDetectionRow[]): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < rows.length; i += 500) {
      const chunk = rows.slice(i, i + 500);
      const r = await db.query<{ id: number }>(
        `INSERT INTO detections(organization_id, video_id, brand_id, placement_id, auto_placement_id, logo_id,
                                time_begin, time_end, coordinates, confidence, review, source)
         SELECT $1, x.video_id, x.brand_id, x.placement_id, x.auto_placement_id, x.logo_id,
                x.time_begin, x.time_end, x.coordinates, x.confidence, x.review, x.source
         FROM jsonb_to_recordset($2::jsonb) AS x(video_id int, brand_id int, placement_id int, auto_placement_id int,
              logo_id int, time_begin float8, time_end float8, coordinates jsonb, confidence real, review text, source text)
         RETURNING id`,
        [org, JSON.stringify(chunk)],
      );
      ids.push(...r.map((x) => Number(x.id)));
    }
    return ids;
  },
  async setPlacement(db: Queryable, org: number, ids: number[], placementId: number): Promise<void> {
    await db.query(
      'UPDATE detections SET placement_id = $3, updated_at = now() WHERE organization_id = $1 AND id = ANY($2::bigint[])',
      [org, ids, placementId],
    );
  },
  async changeAll(
    db: Queryable,
    org: number,
    c: { videoId: number; brandIds: number[]; placementIds: number[]; newPlacementId: number },
  ): Promise<number> {
    const r = await db.query(
      `UPDATE detections SET placement_id = $5, updated_at = now()
       WHERE organization_id = $1 AND video_id = $2 AND review <> 'FALSE_POSITIVE'
         AND (cardinality($3::int[]) = 0 OR brand_id = ANY($3::int[]))
         AND (cardinality($4::int[]) = 0 OR placement_id = ANY($4::int[]))
       RETURNING id`,
      [org, c.videoId, c.brandIds, c.placementIds, c.newPlacementId],
    );
    return r.length;
  },
  async setReview(db: Queryable, org: number, ids: number[], review: string): Promise<number> {
    const r = await db.query(
      'UPDATE detections SET review = $3, updated_at = now() WHERE organization_id = $1 AND id = ANY($2::bigint[]) RETURNING id',
      [org, ids, review],
    );
    return r.length;
  },
  async delete(db: Queryable, org: number, ids: number[]): Promise<number> {
    const r = await db.query(
      'DELETE FROM detections WHERE organization_id = $1 AND id = ANY($2::bigint[]) RETURNING id',
      [org, ids],
    );
    return r.length;
  },
  async setGeometry(
    db: Queryable,
    org: number,
    id: number,
    g: { time_begin: number; time_end: number; coordinates: CoordinateSegment[] },
  ): Promise<void> {
    await db.query(
      `UPDATE detections SET time_begin = $3, time_end = $4, coordinates = $5::jsonb, updated_at = now()
       WHERE organization_id = $1 AND id = $2`,
      [org, id, g.time_begin, g.time_end, JSON.stringify(g.coordinates)],
    );
  },
  /** Engine results replace the earlier engine results of the video; reviewed and manual ones stay. */
  async deleteEngineUnreviewed(db: Queryable, videoId: number): Promise<void> {
    await db.query(
      "DELETE FROM detections WHERE video_id = $1 AND source = 'engine' AND review = 'UNREVIEWED'",
      [videoId],
    );
  },
};

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
}

/**
 * Listed detections of a video in id order, a page at a time (keyset paging), so a report over
 * 100,000 detections never holds them all. Empty brand/placement lists mean all; `hidden*` are
 * left out (a project's hidden brands and placements).
 */
export async function* streamDetections(
  db: Queryable,
  org: number,
  f: {
    videoId: number;
    brandIds: number[];
    placementIds: number[];
    hiddenBrandIds: number[];
    hiddenPlacementIds: number[];
  },
  pageSize = 2000,
): AsyncGenerator<ReportRow> {
  let last = 0;
  for (;;) {
    const rows = await db.query<ReportRow>(
      `SELECT id, brand_id, placement_id, time_begin, time_end, coordinates, confidence, review, source
       FROM detections
       WHERE organization_id = $1 AND video_id = $2 AND review <> 'FALSE_POSITIVE' AND id > $3
         AND (cardinality($4::int[]) = 0 OR brand_id = ANY($4::int[]))
         AND (cardinality($5::int[]) = 0 OR placement_id = ANY($5::int[]))
         AND NOT (brand_id = ANY($6::int[])) AND NOT (placement_id = ANY($7::int[]))
       ORDER BY id LIMIT $8`,
      [org, f.videoId, last, f.brandIds, f.placementIds, f.hiddenBrandIds, f.hiddenPlacementIds, pageSize],
    );
    for (const r of rows) yield { ...r, id: Number(r.id) };
    if (rows.length < pageSize) return;
    last = Number(rows[rows.length - 1].id);
  }
}
