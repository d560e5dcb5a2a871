/** Lower-cased substring match (spec: tag search); used by every search box. */
export function matchesSearch(search: string, ...fields: Array<string | null | undefined>): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return fields.some((f) => f?.toLowerCase().includes(needle));
}
