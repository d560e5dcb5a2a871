import type { Queryable } from '@logo-review/db';

export interface VerificationRow {
  id: number;
  organization_id: number;
  name: string;
  video_id: number;
  status: string;
  status_reason: string;
  progress: number;
  stored_path: string | null;
}

export const verificationRepository = {
  async list(db: Queryable, org: number): Promise<VerificationRow[]> {
    return db.query<VerificationRow>(
      'SELECT * FROM verification_videos WHERE organization_id = $1 ORDER BY id DESC',
      [org],
    );
  },
  async get(db: Queryable, org: number, id: number): Promise<VerificationRow | undefined> {
    return (
      await db.query<VerificationRow>(
        'SELECT * FROM verification_videos WHERE organization_id = $1 AND id = $2',
        [org, id],
      )
    )[0];
  },
  /** Unscoped: for jobs and signed media paths. */
  async byId(db: Queryable, id: number): Promise<VerificationRow | undefined> {
    return (await db.query<VerificationRow>('SELECT * FROM verification_videos WHERE id = $1', [id]))[0];
  },
  async insert(db: Queryable, org: number, name: string, videoId: number): Promise<number> {
    const [r] = await db.query<{ id: number }>(
      'INSERT INTO verification_videos(organization_id, name, video_id) VALUES ($1, $2, $3) RETURNING id',
      [org, name, videoId],
    );
    return r.id;
  },
  async rename(db: Queryable, org: number, id: number, name: string): Promise<void> {
    await db.query('UPDATE verification_videos SET name = $3 WHERE organization_id = $1 AND id = $2', [
      org,
      id,
      name,
    ]);
  },
  async setState(
    db: Queryable,
    id: number,
    s: { status: string; progress?: number; status_reason?: string; stored_path?: string | null },
  ): Promise<void> {
    await db.query(
      `UPDATE verification_videos SET status = $2, progress = COALESCE($3, progress),
              status_reason = COALESCE($4, status_reason),
              stored_path = CASE WHEN $5::boolean THEN $6 ELSE stored_path END
       WHERE id = $1`,
      [
        id,
        s.status,
        s.progress ?? null,
        s.status_reason ?? null,
        s.stored_path !== undefined,
        s.stored_path ?? null,
      ],
    );
  },
  async setProgress(db: Queryable, id: number, progress: number): Promise<void> {
    await db.query('UPDATE verification_videos SET progress = $2 WHERE id = $1', [id, progress]);
  },
  async delete(db: Queryable, org: number, id: number): Promise<void> {
    await db.query('DELETE FROM verification_videos WHERE organization_id = $1 AND id = $2', [org, id]);
  },
};
