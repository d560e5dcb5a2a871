import type { Queryable } from '@logo-review/db';

const SCOPED_TABLES = [
  'brands',
  'placements',
  'projects',
  'folders',
  'videos',
  'tags',
  'detections',
  'verification_videos',
] as const;

/** Ids among `ids` that are not rows of this organization in `table` (so a foreign id is "missing"). */
export async function missingIds(
  db: Queryable,
  table: (typeof SCOPED_TABLES)[number],
  org: number,
  ids: number[],
): Promise<number[]> {
  if (!SCOPED_TABLES.includes(table)) throw new Error(`not a scoped table: ${table}`);
  if (ids.length === 0) return [];
  const found = await db.query<{ id: number }>(
    `SELECT id FROM ${table} WHERE organization_id = $1 AND id = ANY($2::bigint[])`,
    [org, ids],
  );
  const set = new Set(found.map((r) => Number(r.id)));
  return [...new Set(ids)].filter((id) => !set.has(id));
}
