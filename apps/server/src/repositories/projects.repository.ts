import type { Project } from '@logo-review/contract';
import type { Queryable } from '@logo-review/db';

export const projectsRepository = {
  async list(db: Queryable, org: number): Promise<Project[]> {
    const projects = await db.query<{ id: number; name: string; description: string }>(
      'SELECT id, name, description FROM projects WHERE organization_id = $1 ORDER BY lower(name), id',
      [org],
    );
    const brands = await db.query<{ project_id: number; id: number; name: string; localized_name: string }>(
      `SELECT h.project_id, b.id, b.name, b.localized_name FROM project_hidden_brands h
       JOIN brands b ON b.id = h.brand_id JOIN projects p ON p.id = h.project_id
       WHERE p.organization_id = $1 ORDER BY b.id`,
      [org],
    );
    const placements = await db.query<{
      project_id: number;
      id: number;
      localized_name: string;
      color: string;
    }>(
      `SELECT h.project_id, pl.id, pl.localized_name, pl.color FROM project_hidden_placements h
       JOIN placements pl ON pl.id = h.placement_id JOIN projects p ON p.id = h.project_id
       WHERE p.organization_id = $1 ORDER BY pl.id`,
      [org],
    );
    return projects.map((p) => ({
      ...p,
      filtered_brands: brands
        .filter((b) => b.project_id === p.id)
        .map(({ id, name, localized_name }) => ({ id, name, localized_name })),
      filtered_placements: placements
        .filter((x) => x.project_id === p.id)
        .map(({ id, localized_name, color }) => ({ id, localized_name, color })),
    }));
  },
  async exists(db: Queryable, org: number, id: number): Promise<boolean> {
    return (
      (await db.query('SELECT 1 FROM projects WHERE organization_id = $1 AND id = $2', [org, id])).length > 0
    );
  },
  async save(
    db: Queryable,
    org: number,
    p: { id?: number; name: string; description: string; brandIds: number[]; placementIds: number[] },
  ): Promise<number> {
    let id = p.id;
    if (id === undefined) {
      [{ id }] = await db.query<{ id: number }>(
        'INSERT INTO projects(organization_id, name, description) VALUES ($1, $2, $3) RETURNING id',
        [org, p.name, p.description],
      );
    } else {
      await db.query(
        'UPDATE projects SET name = $3, description = $4 WHERE organization_id = $1 AND id = $2',
        [org, id, p.name, p.description],
      );
      await db.query('DELETE FROM project_hidden_brands WHERE project_id = $1', [id]);
      await db.query('DELETE FROM project_hidden_placements WHERE project_id = $1', [id]);
    }
    await db.query(
      'INSERT INTO project_hidden_brands(project_id, brand_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING',
      [id, p.brandIds],
    );
    await db.query(
      'INSERT INTO project_hidden_placements(project_id, placement_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING',
      [id, p.placementIds],
    );
    return id!;
  },
  async delete(db: Queryable, org: number, id: number): Promise<void> {
    await db.query('DELETE FROM projects WHERE organization_id = $1 AND id = $2', [org, id]);
  },
  /** Brand and placement ids a project hides (for reports). */
  async hidden(
    db: Queryable,
    org: number,
    id: number,
  ): Promise<{ brandIds: number[]; placementIds: number[] }> {
    const b = await db.query<{ brand_id: number }>(
      'SELECT h.brand_id FROM project_hidden_brands h JOIN projects p ON p.id = h.project_id WHERE p.organization_id = $1 AND p.id = $2',
      [org, id],
    );
    const pl = await db.query<{ placement_id: number }>(
      'SELECT h.placement_id FROM project_hidden_placements h JOIN projects p ON p.id = h.project_id WHERE p.organization_id = $1 AND p.id = $2',
      [org, id],
    );
    return { brandIds: b.map((r) => r.brand_id), placementIds: pl.map((r) => r.placement_id) };
  },
};
