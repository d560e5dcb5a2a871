import type { AnalyticsQuery } from '@logo-review/contract';
import type { Queryable } from '@logo-review/db';
import { badRequest, notFound } from '../errors.ts';
import { getSettings } from './settings.ts';

/** The videos a dashboard, processing list or campaign report covers. */
export interface Scope {
  org: number;
  project: number | null;
  folder: number | null;
  /** The folder and all its subfolders (null: no folder filter). */
  folderIds: number[] | null;
  from: string | null;
  to: string | null;
  includeUnreviewed: boolean;
  /** Project or folder name, for file names ('All videos' without either). */
  title: string;
}

/** Checks the scope parameters and resolves the folder's subtree. Errors as the contract says. */
export async function resolveScope(db: Queryable, org: number, q: AnalyticsQuery): Promise<Scope> {
  if (q.project !== undefined && q.folder !== undefined) {
    throw badRequest('Give either project or folder, not both.');
  }
  if (q.from && q.to && q.from > q.to) throw badRequest('from must not be after to.');
  let title = 'All videos';
  let folderIds: number[] | null = null;
  if (q.project !== undefined) {
    const [p] = await db.query<{ name: string }>(
      'SELECT name FROM projects WHERE id = $1 AND organization_id = $2',
      [q.project, org],
    );
    if (!p) throw notFound('Project');
    title = p.name;
  }
  if (q.folder !== undefined) {
    const folders = await db.query<{ id: number; name: string; parent_id: number | null }>(
      'SELECT id, name, parent_id FROM folders WHERE organization_id = $1',
      [org],
    );
    const root = folders.find((f) => f.id === q.folder);
    if (!root) throw notFound('Folder');
    title = root.name;
    const children = new Map<number, number[]>();
    for (const f of folders) {
      if (f.parent_id === null) continue;
      const list = children.get(f.parent_id) ?? [];
      list.push(f.id);
      children.set(f.parent_id, list);
    }
    folderIds = [];
    const stack = [root.id];
    while (stack.length) {
      const id = stack.pop()!;
      folderIds.push(id);
      stack.push(...(children.get(id) ?? []));
    }
  }
  const includeUnreviewed = q.include_unreviewed ?? (await getSettings(db, org)).count_unreviewed;
  return {
    org,
    project: q.project ?? null,
    folder: q.folder ?? null,
    folderIds,
    from: q.from ?? null,
    to: q.to ?? null,
    includeUnreviewed,
    title,
  };
}

/**
 * SQL condition on `videos v` for a scope, with its parameters starting at $`first`.
 * Upload dates are whole UTC days: `to` includes its day.
 */
export function scopeSql(scope: Scope, first = 1): { sql: string; params: unknown[] } {
  const p = (i: number) => `$${first + i}`;
  return {
    sql: `v.organization_id = ${p(0)}
      AND (${p(1)}::int IS NULL OR v.project_id = ${p(1)}::int)
      AND (${p(2)}::int[] IS NULL OR v.folder_id = ANY(${p(2)}::int[]))
      AND (${p(3)}::date IS NULL OR v.created_at >= (${p(3)}::date)::timestamp AT TIME ZONE 'UTC')
      AND (${p(4)}::date IS NULL OR v.created_at < (${p(4)}::date + 1)::timestamp AT TIME ZONE 'UTC')`,
    params: [scope.org, scope.project, scope.folderIds, scope.from, scope.to],
  };
}
