import type { Tag } from '@logo-review/contract';
import type { Queryable } from '@logo-review/db';

export const tagsRepository = {
  async list(db: Queryable, org: number, ids?: number[]): Promise<Tag[]> {
    const rows = await db.query<{
      id: number;
      name: string;
      brand_id: number;
      project_id: number | null;
      archived: boolean;
      placements: number[] | null;
    }>(
      `SELECT t.id, t.name, t.brand_id, t.project_id, t.archived,
              array_remove(array_agg(tp.placement_id ORDER BY tp.placement_id), NULL) AS placements
       FROM tags t LEFT JOIN tag_placements tp ON tp.tag_id = t.id
       WHERE t.organization_id = $1 AND ($2::int[] IS NULL OR t.id = ANY($2::int[]))
       GROUP BY t.id ORDER BY lower(t.name), t.id`,
      [org, ids ?? null],
    );
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      brand: r.brand_id,
      placements: r.placements ?? [],
      project: r.project_id,
      archived: r.archived,
    }));
  },
  async save(
    db: Queryable,
    org: number,
    t: {
      id?: number;
      name: string;
      brand: number;
      placements: number[];
      project: number | null;
      archived?: boolean;
    },
  ): Promise<boolean> {
    let id = t.id;
    if (id === undefined) {
      [{ id }] = await db.query<{ id: number }>(
        'INSERT INTO tags(organization_id, name, brand_id, project_id) VALUES ($1, $2, $3, $4) RETURNING id',
        [org, t.name, t.brand, t.project],
      );
    } else {
      const r = await db.query(
        `UPDATE tags SET name = $3, brand_id = $4, project_id = $5, archived = COALESCE($6, archived)
         WHERE organization_id = $1 AND id = $2 RETURNING id`,
        [org, id, t.name, t.brand, t.project, t.archived ?? null],
      );
      if (r.length === 0) return false;
      await db.query('DELETE FROM tag_placements WHERE tag_id = $1', [id]);
    }
    await db.query(
      'INSERT INTO tag_placements(tag_id, placement_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING',
      [id, t.placements],
    );
    return true;
  },
};
