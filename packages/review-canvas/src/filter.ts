import { isUnreviewed, type Detection, type DetectionFilter } from './types.ts';

/** The default filter: everything shown, filtered ones hidden. */
export const EMPTY_FILTER: DetectionFilter = { brandIds: [], placementIds: [], visible: false };

/** A filter prepared for per-frame use (set look-ups instead of array scans). */
export interface CompiledFilter {
  readonly filter: DetectionFilter;
  readonly brands: ReadonlySet<number> | null;
  readonly placements: ReadonlySet<number> | null;
}

/** Prepares a filter for per-frame checks. */
export function compileFilter(filter: DetectionFilter): CompiledFilter {
  return {
    filter,
    brands: filter.brandIds.length > 0 ? new Set(filter.brandIds) : null,
    placements: filter.placementIds.length > 0 ? new Set(filter.placementIds) : null,
  };
}

/**
 * True when the filter hits the detection, i.e. it is filtered out: its brand is not among the chosen
 * brands, or its placement is not among the chosen placements (an empty list means all), or it already has a
 * verdict while `unreviewedOnly` is on, or its confidence is below `minConfidence`.
 */
export function isFilteredOut(detection: Detection, compiled: CompiledFilter): boolean {
  if (compiled.brands !== null && !compiled.brands.has(detection.brand)) return true;
  if (compiled.placements !== null && !compiled.placements.has(detection.placement.id)) return true;
  const f = compiled.filter;
  if (f.unreviewedOnly && !isUnreviewed(detection)) return true;
  const min = f.minConfidence ?? 0;
  if (min > 0 && detection.confidence != null && detection.confidence < min) return true;
  return false;
}
