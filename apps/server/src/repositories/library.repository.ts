import { VIDEO_STATUS } from '@logo-review/contract';
import type { Queryable } from '@logo-review/db';
import { listedSql } from './detections.repository.ts';

export interface FolderRow {
  id: number;
  name: string;
  parent_id: number | null;
}
export interface VideoRow {
  id: number;
  organization_id: number;
  name: string;
  folder_id: number | null;
  project_id: number | null;
  project_name: string | null;
  status: string;
  status_reason: string;
  progress: number;
  request_hash: string;
  content_sha256: string;
  frames: number;
  fps: number;
  width: number;
  height: number;
  duration: number;
  file_name: string;
  stored_path: string;
  size: number;
  thumbnails: {
    path: string;
    interval: number;
    columns: number;
    count: number;
    tile_width: number;
    tile_height: number;
  } | null;
  created_at: Date;
  detections_total: number;
  detections_reviewed: number;
}

/**
 * Each video with its review progress. The counts come from one index-only scan per video of
 * detections_video_review_idx inside the same statement (no query per video, and no scan of the
 * organization's other videos' detections when one video is asked for).
 */
const VIDEO_SELECT = `SELECT v.*, p.name AS project_name, c.total AS detections_total, c.reviewed AS detections_reviewed
  FROM videos v LEFT JOIN projects p ON p.id = v.project_id
  CROSS JOIN LATERAL (
    SELECT count(*)::int AS total, count(*) FILTER (WHERE d.review <> 'UNREVIEWED')::int AS reviewed
    FROM detections d WHERE d.video_id = v.id AND ${listedSql('d.review')}
  ) c`;

export const libraryRepository = {
  async folders(db: Queryable, org: number): Promise<FolderRow[]> {
    return db.query<FolderRow>(
      'SELECT id, name, parent_id FROM folders WHERE organization_id = $1 ORDER BY lower(name), id',
      [org],
    );
  },
  async folder(db: Queryable, org: number, id: number): Promise<FolderRow | undefined> {
    return (
      await db.query<FolderRow>(
        'SELECT id, name, parent_id FROM folders WHERE organization_id = $1 AND id = $2',
        [org, id],
      )
    )[0];
  },
  async folderNameTaken(db: Queryable, org: number, parent: number | null, name: string): Promise<boolean> {
    const r = await db.query(
      'SELECT 1 FROM folders WHERE organization_id = $1 AND parent_id IS NOT DISTINCT FROM $2 AND lower(name) = lower($3)',
      [org, parent, name],
    );
    return r.length > 0;
  },
  async insertFolder(db: Queryable, org: number, name: string, parent: number | null): Promise<void> {
    await db.query('INSERT INTO folders(organization_id, name, parent_id) VALUES ($1, $2, $3)', [
      org,
      name,
      parent,
    ]);
  },
  async folderContents(db: Queryable, org: number, id: number): Promise<{ folders: number; videos: number }> {
    const [r] = await db.query<{ folders: number; videos: number }>(
      `SELECT (SELECT count(*) FROM folders WHERE organization_id = $1 AND parent_id = $2)::int AS folders,
              (SELECT count(*) FROM videos WHERE organization_id = $1 AND folder_id = $2)::int AS videos`,
      [org, id],
    );
    return r;
  },
  async deleteFolder(db: Queryable, org: number, id: number): Promise<void> {
    await db.query('DELETE FROM folders WHERE organization_id = $1 AND id = $2', [org, id]);
  },
  async videos(db: Queryable, org: number): Promise<VideoRow[]> {
    return db.query<VideoRow>(`${VIDEO_SELECT} WHERE v.organization_id = $1 ORDER BY lower(v.name), v.id`, [
      org,
    ]);
  },
  async video(db: Queryable, org: number, id: number): Promise<VideoRow | undefined> {
    return (
      await db.query<VideoRow>(`${VIDEO_SELECT} WHERE v.organization_id = $1 AND v.id = $2`, [org, id])
    )[0];
  },
  /** Unscoped: for jobs and signed media paths, which carry no caller. */
  async videoById(db: Queryable, id: number): Promise<VideoRow | undefined> {
    return (await db.query<VideoRow>(`${VIDEO_SELECT} WHERE v.id = $1`, [id]))[0];
  },
  async insertVideo(
    db: Queryable,
    org: number,
    v: {
      name: string;
      folder_id: number | null;
      project_id: number | null;
      file_name: string;
      stored_path: string;
      size: number;
      content_sha256: string;
    },
  ): Promise<number> {
    const [r] = await db.query<{ id: number }>(
      `INSERT INTO videos(organization_id, name, folder_id, project_id, file_name, stored_path, size, content_sha256)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
      [org, v.name, v.folder_id, v.project_id, v.file_name, v.stored_path, v.size, v.content_sha256],
    );
    return r.id;
  },
  async setProbe(
    db: Queryable,
    id: number,
    p: { frames: number; fps: number; width: number; height: number; duration: number },
  ): Promise<void> {
    await db.query(
      'UPDATE videos SET frames = $2, fps = $3, width = $4, height = $5, duration = $6, updated_at = now() WHERE id = $1',
      [id, p.frames, p.fps, p.width, p.height, p.duration],
    );
  },
  async setStatus(
    db: Queryable,
    id: number,
    s: { status: string; status_reason?: string; progress?: number; request_hash?: string },
  ): Promise<void> {
    await db.query(
      `UPDATE videos SET status = $2, status_reason = COALESCE($3, status_reason), progress = COALESCE($4, progress),
              request_hash = COALESCE($5, request_hash), updated_at = now() WHERE id = $1`,
      [id, s.status, s.status_reason ?? null, s.progress ?? null, s.request_hash ?? null],
    );
  },
  /**
   * Shows the video as waiting (QUEUED with `reason`) unless an attempt holding a live analysis
   * lease is working on it: that attempt's PROCESSING and progress stay on screen.
   */
  async setQueuedUnlessLeased(
    db: Queryable,
    id: number,
    reason: string,
    leaseSeconds: number,
  ): Promise<void> {
    await db.query(
      `UPDATE videos SET status = $2, status_reason = $3, updated_at = now()
        WHERE id = $1 AND (analysis_owner IS NULL OR analysis_beat < now() - make_interval(secs => $4))`,
      [id, VIDEO_STATUS.QUEUED, reason, leaseSeconds],
    );
  },
  /**
   * Takes the analysis lease of a video: true when nobody holds it or its holder has not renewed it
   * for `leaseSeconds` (that worker died); the video is then PROCESSING at 0 %.
   */
  async claimAnalysis(db: Queryable, id: number, owner: string, leaseSeconds: number): Promise<boolean> {
    const rows = await db.query(
      `UPDATE videos SET analysis_owner = $2, analysis_beat = now(), status = $4, progress = 0, status_reason = '',
              updated_at = now()
        WHERE id = $1 AND (analysis_owner IS NULL OR analysis_beat < now() - make_interval(secs => $3))
        RETURNING id`,
      [id, owner, leaseSeconds, VIDEO_STATUS.PROCESSING],
    );
    return rows.length === 1;
  },
  /** Renews the lease; false when another attempt has taken it over. */
  async renewAnalysis(db: Queryable, id: number, owner: string): Promise<boolean> {
    const rows = await db.query(
      'UPDATE videos SET analysis_beat = now() WHERE id = $1 AND analysis_owner = $2 RETURNING id',
      [id, owner],
    );
    return rows.length === 1;
  },
  /** Locks the video row for the rest of the transaction; true when `owner` still holds the lease. */
  async holdsAnalysis(db: Queryable, id: number, owner: string): Promise<boolean> {
    const rows = await db.query<{ analysis_owner: string | null }>(
      'SELECT analysis_owner FROM videos WHERE id = $1 FOR UPDATE',
      [id],
    );
    return rows[0]?.analysis_owner === owner;
  },
  async releaseAnalysis(db: Queryable, id: number, owner: string): Promise<void> {
    await db.query(
      'UPDATE videos SET analysis_owner = NULL, analysis_beat = NULL WHERE id = $1 AND analysis_owner = $2',
      [id, owner],
    );
  },
  /** Drops every analysis lease: their holders are known dead (a restart on the embedded database). */
  async releaseAllAnalyses(db: Queryable): Promise<void> {
    await db.query(
      'UPDATE videos SET analysis_owner = NULL, analysis_beat = NULL WHERE analysis_owner IS NOT NULL',
    );
    // and those of long videos' chunks
    await db.query('UPDATE analysis_chunks SET owner = NULL, beat = NULL WHERE owner IS NOT NULL');
  },
  /** The progress of the analysis that `owner` holds the lease of (none once it has ended). */
  async setProgress(db: Queryable, id: number, progress: number, owner: string): Promise<void> {
    await db.query(
      'UPDATE videos SET progress = $2, updated_at = now() WHERE id = $1 AND analysis_owner = $3',
      [id, progress, owner],
    );
  },
  async setThumbnails(db: Queryable, id: number, t: VideoRow['thumbnails']): Promise<void> {
    await db.query('UPDATE videos SET thumbnails = $2 WHERE id = $1', [
      id,
      t === null ? null : JSON.stringify(t),
    ]);
  },
  async updateVideo(
    db: Queryable,
    org: number,
    id: number,
    v: { name: string; folder_id: number | null; project_id?: number | null },
  ): Promise<void> {
    await db.query(
      `UPDATE videos SET name = $3, folder_id = $4,
              project_id = CASE WHEN $5::boolean THEN $6::int ELSE project_id END, updated_at = now()
       WHERE organization_id = $1 AND id = $2`,
      [org, id, v.name, v.folder_id, v.project_id !== undefined, v.project_id ?? null],
    );
  },
  async deleteVideo(db: Queryable, org: number, id: number): Promise<string[]> {
    const renders = await db.query<{ stored_path: string | null }>(
      'SELECT stored_path FROM verification_videos WHERE organization_id = $1 AND video_id = $2',
      [org, id],
    );
    await db.query('DELETE FROM videos WHERE organization_id = $1 AND id = $2', [org, id]);
    return renders.map((r) => r.stored_path).filter((p): p is string => !!p);
  },
};
