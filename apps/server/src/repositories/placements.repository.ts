import type { Placement } from '@logo-review/contract';
import type { Queryable } from '@logo-review/db';

/** The automatic placements every organization has; the engine assigns them, nobody deletes them. */
export const AUTOMATIC_PLACEMENTS = [
  { key: 'BROADCAST_OVERLAY', name: 'Broadcast overlay', color: '#1e88e5' },
  { key: 'IN_SCENE', name: 'In-scene', color: '#43a047' },
] as const;
export type AutomaticPlacementKey = (typeof AUTOMATIC_PLACEMENTS)[number]['key'];

const COLS = 'id, localized_name, color, manual';

export const placementsRepository = {
  async ensureAutomatic(db: Queryable, organizationId: number): Promise<void> {
    for (const p of AUTOMATIC_PLACEMENTS) {
      await db.query(
        `INSERT INTO placements(organization_id, localized_name, color, manual, auto_key)
         VALUES ($1, $2, $3, false, $4) ON CONFLICT (organization_id, auto_key) DO NOTHING`,
        [organizationId, p.name, p.color, p.key],
      );
    }
  },
  async automaticIds(db: Queryable, organizationId: number): Promise<Record<AutomaticPlacementKey, number>> {
    const rows = await db.query<{ id: number; auto_key: AutomaticPlacementKey }>(
      'SELECT id, auto_key FROM placements WHERE organization_id = $1 AND auto_key IS NOT NULL',
      [organizationId],
    );
    return Object.fromEntries(rows.map((r) => [r.auto_key, r.id])) as Record<AutomaticPlacementKey, number>;
  },
  async list(db: Queryable, organizationId: number): Promise<Placement[]> {
    return db.query<Placement>(
      `SELECT ${COLS} FROM placements WHERE organization_id = $1 ORDER BY manual, id`,
      [organizationId],
    );
  },
  async get(db: Queryable, organizationId: number, id: number): Promise<Placement | undefined> {
    return (
      await db.query<Placement>(`SELECT ${COLS} FROM placements WHERE organization_id = $1 AND id = $2`, [
        organizationId,
        id,
      ])
    )[0];
  },
  async insert(db: Queryable, organizationId: number, name: string, color: string): Promise<Placement> {
    const [r] = await db.query<Placement>(
      `INSERT INTO placements(organization_id, localized_name, color, manual) VALUES ($1, $2, $3, true) RETURNING ${COLS}`,
      [organizationId, name, color],
    );
    return r;
  },
  async update(
    db: Queryable,
    organizationId: number,
    id: number,
    name: string,
    color: string,
  ): Promise<boolean> {
    const r = await db.query(
      'UPDATE placements SET localized_name = $3, color = $4 WHERE organization_id = $1 AND id = $2 RETURNING id',
      [organizationId, id, name, color],
    );
    return r.length > 0;
  },
  /** Deletes a manual placement; its detections go back to the placement the engine chose. */
  async deleteManual(db: Queryable, organizationId: number, id: number): Promise<void> {
    await db.query(
      'UPDATE detections SET placement_id = auto_placement_id, updated_at = now() WHERE organization_id = $1 AND placement_id = $2',
      [organizationId, id],
    );
    await db.query('DELETE FROM placements WHERE organization_id = $1 AND id = $2 AND manual', [
      organizationId,
      id,
    ]);
  },
};
