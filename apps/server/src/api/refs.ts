import type { Queryable } from '@logo-review/db';
import { HttpError } from '../errors.ts';
import { missingIds } from '../repositories/common.ts';

type Table = Parameters<typeof missingIds>[1];

/** 404 naming the field when an id is not a row of the caller's organization (unknown or another's). */
export async function assertRefs(
  db: Queryable,
  org: number,
  table: Table,
  ids: (number | null | undefined)[],
  field: string,
) {
  const wanted = ids.filter((id): id is number => typeof id === 'number');
  const missing = await missingIds(db, table, org, wanted);
  if (missing.length > 0) throw new HttpError(404, `${field}: unknown id ${missing.join(', ')}.`);
}

/** Ids from a list of ids or `{id}` objects. */
export const idsOf = (list: (number | { id: number })[] | undefined): number[] => [
  ...new Set((list ?? []).map((x) => (typeof x === 'number' ? x : x.id))),
];
