import type { AnalyticsSettings, AnalyticsSettingsBody } from '@logo-review/contract';
import type { Database, Queryable } from '@logo-review/db';
import { badRequest } from '../errors.ts';
import { rewriteMediaValues } from './analytics-store.ts';

/** The organization's media value settings, with defaults when never saved (EUR, unreviewed count). */
export async function getSettings(
  db: Queryable,
  org: number,
): Promise<{ currency: string; count_unreviewed: boolean }> {
  const [row] = await db.query<{ currency: string; count_unreviewed: boolean }>(
    'SELECT currency, count_unreviewed FROM analytics_settings WHERE organization_id = $1',
    [org],
  );
  return row ?? { currency: 'EUR', count_unreviewed: true };
}

/** Rate per second of each placement of the organization (0 when not set). */
export async function placementRates(db: Queryable, org: number): Promise<Map<number, number>> {
  const rows = await db.query<{ placement_id: number; rate_per_second: number }>(
    'SELECT placement_id, rate_per_second FROM placement_rates WHERE organization_id = $1',
    [org],
  );
  return new Map(rows.map((r) => [r.placement_id, r.rate_per_second]));
}

export async function settingsAnswer(db: Queryable, org: number): Promise<AnalyticsSettings> {
  const settings = await getSettings(db, org);
  const rows = await db.query<{ id: number; localized_name: string; color: string; rate: number | null }>(
    `SELECT p.id, p.localized_name, p.color, r.rate_per_second AS rate FROM placements p
     LEFT JOIN placement_rates r ON r.placement_id = p.id
     WHERE p.organization_id = $1 ORDER BY p.localized_name, p.id`,
    [org],
  );
  return {
    ...settings,
    rates: rows.map((r) => ({
      placement: { id: r.id, localized_name: r.localized_name, color: r.color },
      rate_per_second: r.rate ?? 0,
    })),
  };
}

/** Saves what the body holds; a placement of another organization (or none) is a 400, nothing saved. */
export async function saveSettings(db: Database, org: number, body: AnalyticsSettingsBody): Promise<void> {
  const rates = body.rates ?? [];
  if (rates.length) {
    const known = new Set(
      (
        await db.query<{ id: number }>(
          'SELECT id FROM placements WHERE organization_id = $1 AND id = ANY($2::int[])',
          [org, rates.map((r) => r.placement_id)],
        )
      ).map((r) => r.id),
    );
    const unknown = rates.find((r) => !known.has(r.placement_id));
    if (unknown) throw badRequest(`rates: placement ${unknown.placement_id} not found.`);
  }
  await db.transaction(async (tx) => {
    const current = await getSettings(tx, org);
    await tx.query(
      `INSERT INTO analytics_settings (organization_id, currency, count_unreviewed) VALUES ($1, $2, $3)
       ON CONFLICT (organization_id) DO UPDATE SET currency = EXCLUDED.currency,
         count_unreviewed = EXCLUDED.count_unreviewed`,
      [org, body.currency ?? current.currency, body.count_unreviewed ?? current.count_unreviewed],
    );
    for (const r of rates) {
      await tx.query(
        `INSERT INTO placement_rates (placement_id, organization_id, rate_per_second) VALUES ($1, $2, $3)
         ON CONFLICT (placement_id) DO UPDATE SET rate_per_second = EXCLUDED.rate_per_second`,
        [r.placement_id, org, r.rate_per_second],
      );
    }
  });
  // The stored aggregates carry media values at the old rates.
  if (rates.length) await rewriteMediaValues(db, org);
}
