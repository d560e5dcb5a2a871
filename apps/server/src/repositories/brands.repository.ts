import type { Queryable } from '@logo-review/db';

export interface BrandRow {
  id: number;
  organization_id: number;
  name: string;
  localized_name: string;
  url: string;
  logograb_id: string | null;
  status: string;
  status_reason: string;
  activation_progress: number;
  deactivated: boolean;
  index_version: number;
  index_path: string | null;
  index_format: string | null;
}
export interface LogoRow {
  id: number;
  brand_id: number;
  file_name: string;
  stored_path: string;
  mime: string;
  sha256: string;
  width: number;
  height: number;
  tp: number;
  fp: number;
}

export const brandsRepository = {
  async list(db: Queryable, org: number): Promise<BrandRow[]> {
    return db.query<BrandRow>('SELECT * FROM brands WHERE organization_id = $1 ORDER BY lower(name), id', [
      org,
    ]);
  },
  async get(db: Queryable, org: number, id: number): Promise<BrandRow | undefined> {
    return (
      await db.query<BrandRow>('SELECT * FROM brands WHERE organization_id = $1 AND id = $2', [org, id])
    )[0];
  },
  /**
   * Logos of the given brands with their reviewed-detection counts (for precision = TP / (TP + FP)).
   * An edited detection is a confirmed logo whose box a person corrected: a true positive. Deleted
   * ones are no verdict on the logo and count for neither.
   */
  async logos(db: Queryable, org: number, brandIds: number[]): Promise<LogoRow[]> {
    if (brandIds.length === 0) return [];
    return db.query<LogoRow>(
      `SELECT l.id, l.brand_id, l.file_name, l.stored_path, l.mime, l.sha256, l.width, l.height,
              COALESCE(s.tp, 0)::int AS tp, COALESCE(s.fp, 0)::int AS fp
       FROM brand_logos l
       LEFT JOIN (
         SELECT logo_id, count(*) FILTER (WHERE review IN ('TRUE_POSITIVE', 'EDITED')) AS tp,
                         count(*) FILTER (WHERE review = 'FALSE_POSITIVE') AS fp
         FROM detections WHERE organization_id = $1 AND brand_id = ANY($2::int[]) AND logo_id IS NOT NULL
         GROUP BY logo_id
       ) s ON s.logo_id = l.id
       WHERE l.organization_id = $1 AND l.brand_id = ANY($2::int[])
       ORDER BY l.brand_id, l.id`,
      [org, brandIds],
    );
  },
  async logo(db: Queryable, id: number): Promise<LogoRow | undefined> {
    return (await db.query<LogoRow>('SELECT *, 0 AS tp, 0 AS fp FROM brand_logos WHERE id = $1', [id]))[0];
  },
  /**
   * Inserts a brand; null when the organization already has a brand of that name (compared
   * without case and surrounding spaces, as the unique index does), also when two requests race.
   */
  async insert(
    db: Queryable,
    org: number,
    b: { name: string; localized_name: string; url: string },
  ): Promise<BrandRow | null> {
    const [r] = await db.query<BrandRow>(
      `INSERT INTO brands(organization_id, name, localized_name, url) VALUES ($1, $2, $3, $4)
       ON CONFLICT (organization_id, lower(btrim(name))) DO NOTHING RETURNING *`,
      [org, b.name, b.localized_name, b.url],
    );
    return r ?? null;
  },
  async byName(db: Queryable, org: number, name: string): Promise<BrandRow | undefined> {
    return (
      await db.query<BrandRow>(
        'SELECT * FROM brands WHERE organization_id = $1 AND lower(btrim(name)) = lower(btrim($2))',
        [org, name],
      )
    )[0];
  },
  async update(
    db: Queryable,
    org: number,
    id: number,
    b: { localized_name?: string; url?: string },
  ): Promise<void> {
    await db.query(
      `UPDATE brands SET localized_name = COALESCE($3, localized_name), url = COALESCE($4, url), updated_at = now()
       WHERE organization_id = $1 AND id = $2`,
      [org, id, b.localized_name ?? null, b.url ?? null],
    );
  },
  async insertLogo(
    db: Queryable,
    org: number,
    brandId: number,
    l: {
      file_name: string;
      stored_path: string;
      mime: string;
      sha256: string;
      width: number;
      height: number;
    },
  ): Promise<void> {
    await db.query(
      `INSERT INTO brand_logos(organization_id, brand_id, file_name, stored_path, mime, sha256, width, height)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [org, brandId, l.file_name, l.stored_path, l.mime, l.sha256, l.width, l.height],
    );
  },
  async setStatus(
    db: Queryable,
    org: number,
    id: number,
    s: { status: string; activation_progress?: number; status_reason?: string },
  ): Promise<void> {
    await db.query(
      `UPDATE brands SET status = $3, activation_progress = COALESCE($4, activation_progress),
              status_reason = COALESCE($5, status_reason), updated_at = now()
       WHERE organization_id = $1 AND id = $2 AND NOT deactivated`,
      [org, id, s.status, s.activation_progress ?? null, s.status_reason ?? null],
    );
  },
  async setIndex(
    db: Queryable,
    org: number,
    id: number,
    index: { path: string; version: number; format: string },
  ): Promise<void> {
    await db.query(
      `UPDATE brands SET index_path = $3, index_version = $4, index_format = $5, status = 'ACTIVE',
              activation_progress = 100, status_reason = '', updated_at = now()
       WHERE organization_id = $1 AND id = $2 AND NOT deactivated`,
      [org, id, index.path, index.version, index.format],
    );
  },
  /** Active brands (any organization) whose index was built with another engine index format. */
  async staleIndexes(db: Queryable, format: string): Promise<{ id: number; organization_id: number }[]> {
    return db.query(
      `SELECT id, organization_id FROM brands
       WHERE NOT deactivated AND status = 'ACTIVE' AND index_format IS DISTINCT FROM $1`,
      [format],
    );
  },
  /** Active brands of the organization with a built index: the ones an analysis looks for. */
  async indexed(db: Queryable, org: number, format: string): Promise<BrandRow[]> {
    return db.query<BrandRow>(
      `SELECT * FROM brands WHERE organization_id = $1 AND NOT deactivated AND status = 'ACTIVE'
         AND index_path IS NOT NULL AND index_format = $2
       ORDER BY id`,
      [org, format],
    );
  },
  /** How many brands of the organization are waiting for or building their index. */
  async activating(db: Queryable, org: number): Promise<number> {
    const [r] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM brands WHERE organization_id = $1 AND NOT deactivated
         AND status IN ('QUEUED', 'ACTIVATING') AND updated_at > now() - interval '1 hour'`,
      [org],
    );
    return r.n;
  },
  async deactivate(db: Queryable, org: number, id: number): Promise<void> {
    await db.query(
      `UPDATE brands SET deactivated = true, status = 'DEACTIVATED', updated_at = now()
       WHERE organization_id = $1 AND id = $2`,
      [org, id],
    );
  },
  async delete(db: Queryable, org: number, id: number): Promise<void> {
    await db.query('DELETE FROM brands WHERE organization_id = $1 AND id = $2', [org, id]);
  },
};
