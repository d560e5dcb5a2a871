/**
 * Exposure measures, defined once (issue 20). The dashboard (through the per-video aggregates of
 * analytics-store.ts), the per-video Excel report and the campaign report all measure with this
 * module, so their numbers agree.
 *
 * Inputs: a video's counted detections (see `countedReviews`), each a time span [time_begin,
 * time_end] in ms and coordinate segments {start_time, end_time (ms), points (quad, video px)}.
 *
 * Per detection i with segments k (segment weight d_k = max(1 ms, end_time - start_time)):
 *   a_k  = share of the frame the quad covers, clipped to the frame (0..1)
 *   (x_k, y_k) = the quad's centre as a share of the frame's width and height (0..1)
 *   w_k  = position weight = 1 - 0.5 * rho_k, where rho_k = sqrt((2x_k-1)^2 + (2y_k-1)^2) / sqrt(2)
 *          is the centre's distance from the frame centre, 0 at the centre and 1 in a corner;
 *          so w = 1 in the centre, 0.75 halfway to a corner, 0.5 in a corner (clamped to 0.5..1)
 *   D_i  = time_end - time_begin (ms)
 *   n_i  = clutter = the mean number of OTHER brands on screen during the detection:
 *          sum over brands b != brand(i) of |[begin_i, end_i] ∩ U_b| / D_i, where U_b is the union of
 *          brand b's counted spans in the video (at an instant, D_i = 0: brands whose union holds it)
 *   f_i  = clutter factor = 1 / (1 + n_i)
 *
 * Per group G (a brand, a brand in a placement, all brands ...) within ONE video:
 *   exposure seconds       E   = |union of [time_begin, time_end] over G| / 1000 (overlaps count once)
 *   mean share of frame    s   = sum a_k d_k / sum d_k                          (over G's segments)
 *   size-weighted exposure SWE = E * s                                         (seconds)
 *   position weight        P   = sum w_k d_k / sum d_k            (1 when there are no segments)
 *   clutter                N   = sum n_i D_i / sum D_i            (0 when sum D_i = 0)
 *   clutter factor         K   = sum f_i D_i / sum D_i            (1 when sum D_i = 0)
 *   valued seconds         V   = E * P * K
 *   media value            MV  = rate(placement) * V, for a group within one placement; a brand's
 *                                media value is the sum over its placements.
 *   share of voice              = E(brand) / sum over brands of E(brand)
 *
 * Across videos: E, SWE, V, MV and detection counts are summed over the videos; s, P, N, K are
 * re-weighted from their summed numerators and denominators (`ExposureTotals`).
 */
import { REVIEW_STATE, type ReviewState } from '@logo-review/contract';
import { IntervalUnion } from '../reports/interval-union.ts';
import { quadCentre, quadFrameShare } from '../reports/quad-geometry.ts';

/** The review states that count: reviewed-true always, unreviewed when the setting says so. */
export function countedReviews(includeUnreviewed: boolean): ReviewState[] {
  const states: ReviewState[] = [REVIEW_STATE.TRUE_POSITIVE, REVIEW_STATE.EDITED, REVIEW_STATE.MANUAL];
  if (includeUnreviewed) states.push(REVIEW_STATE.UNREVIEWED);
  return states;
}

/** Weight of a position in the frame: 1 at the centre, 0.5 in a corner (x, y as shares 0..1). */
export function positionWeight(x: number, y: number): number {
  const dx = 2 * x - 1;
  const dy = 2 * y - 1;
  const rho = Math.min(1, Math.sqrt(dx * dx + dy * dy) / Math.SQRT2);
  return 1 - 0.5 * rho;
}

/** 1 / (1 + n): a logo alone keeps its full value, one beside another half, and so on. */
export function clutterFactor(othersOnScreen: number): number {
  return 1 / (1 + othersOnScreen);
}

export interface Segment {
  start_time: number;
  end_time: number;
  points: number[];
}

/** What one detection's segments say about its on-screen presence. */
export interface DetectionMeasure {
  /** sum a_k d_k and sum d_k over segments. */
  shareWeighted: number;
  weight: number;
  /** Largest share of the frame any segment covers. */
  maxShare: number;
  /** sum w_k d_k (position weight). */
  positionWeighted: number;
  /** Weighted mean centre as a share (0..1) of frame width and height; null without coordinates. */
  centreX: number | null;
  centreY: number | null;
}

export function measureDetection(
  coordinates: readonly Segment[],
  width: number,
  height: number,
): DetectionMeasure {
  let shareWeighted = 0;
  let weight = 0;
  let maxShare = 0;
  let positionWeighted = 0;
  let cx = 0;
  let cy = 0;
  for (const segment of coordinates) {
    const w = Math.max(1, segment.end_time - segment.start_time);
    const share = quadFrameShare(segment.points, width, height);
    const centre = quadCentre(segment.points);
    shareWeighted += share * w;
    weight += w;
    if (share > maxShare) maxShare = share;
    cx += centre.x * w;
    cy += centre.y * w;
    positionWeighted +=
      (width > 0 && height > 0 ? positionWeight(centre.x / width, centre.y / height) : 1) * w;
  }
  return {
    shareWeighted,
    weight,
    maxShare,
    positionWeighted,
    centreX: weight > 0 && width > 0 ? cx / weight / width : null,
    centreY: weight > 0 && height > 0 ? cy / weight / height : null,
  };
}

/** Per brand, the union of its counted spans in one video: answers "how many others are on screen". */
export class ClutterIndex {
  private readonly unions = new Map<number, IntervalUnion>();

  constructor(spans: Iterable<{ brand_id: number; time_begin: number; time_end: number }>) {
    for (const s of spans) {
      let u = this.unions.get(s.brand_id);
      if (!u) this.unions.set(s.brand_id, (u = new IntervalUnion()));
      u.add(s.time_begin, s.time_end);
      if (s.time_end === s.time_begin) u.addInstant(s.time_begin);
    }
  }

  /** n: the mean number of other brands on screen during [begin, end] (see the module comment). */
  othersOnScreen(brandId: number, begin: number, end: number): number {
    let n = 0;
    for (const [b, u] of this.unions) {
      if (b === brandId) continue;
      n += end > begin ? u.overlap(begin, end) / (end - begin) : u.covers(begin) ? 1 : 0;
    }
    return n;
  }
}

/** Sums of one group that combine across videos by addition (the derived values are below). */
export interface ExposureTotals {
  detections: number;
  exposure_s: number;
  size_weighted_s: number;
  valued_s: number;
  share_w: number;
  weight: number;
  max_share: number;
  position_w: number;
  clutter_w: number;
  clutter_factor_w: number;
  duration_ms: number;
}

export const emptyTotals = (): ExposureTotals => ({
  detections: 0,
  exposure_s: 0,
  size_weighted_s: 0,
  valued_s: 0,
  share_w: 0,
  weight: 0,
  max_share: 0,
  position_w: 0,
  clutter_w: 0,
  clutter_factor_w: 0,
  duration_ms: 0,
});

/** Adds b into a (for a group across videos). */
export function addTotals(a: ExposureTotals, b: ExposureTotals): ExposureTotals {
  a.detections += b.detections;
  a.exposure_s += b.exposure_s;
  a.size_weighted_s += b.size_weighted_s;
  a.valued_s += b.valued_s;
  a.share_w += b.share_w;
  a.weight += b.weight;
  a.max_share = Math.max(a.max_share, b.max_share);
  a.position_w += b.position_w;
  a.clutter_w += b.clutter_w;
  a.clutter_factor_w += b.clutter_factor_w;
  a.duration_ms += b.duration_ms;
  return a;
}

/** The means of a group's totals: s, P, N, K of the module comment. */
export function means(t: ExposureTotals): {
  mean_share: number;
  position_weight: number;
  clutter: number;
  clutter_factor: number;
} {
  return {
    mean_share: t.weight > 0 ? t.share_w / t.weight : 0,
    position_weight: t.weight > 0 ? t.position_w / t.weight : 1,
    clutter: t.duration_ms > 0 ? t.clutter_w / t.duration_ms : 0,
    clutter_factor: t.duration_ms > 0 ? t.clutter_factor_w / t.duration_ms : 1,
  };
}

/** Running totals of one group within one video. */
export class ExposureAccumulator {
  count = 0;
  readonly spans = new IntervalUnion();
  shareWeighted = 0;
  weight = 0;
  maxShare = 0;
  positionWeighted = 0;
  clutterWeighted = 0;
  clutterFactorWeighted = 0;
  durationMs = 0;

  /** `othersOnScreen`: n of the detection (ClutterIndex); 0 when clutter is not measured. */
  add(timeBegin: number, timeEnd: number, measure: DetectionMeasure, othersOnScreen = 0): void {
    this.count++;
    this.spans.add(timeBegin, timeEnd);
    this.shareWeighted += measure.shareWeighted;
    this.weight += measure.weight;
    this.positionWeighted += measure.positionWeighted;
    if (measure.maxShare > this.maxShare) this.maxShare = measure.maxShare;
    const d = Math.max(0, timeEnd - timeBegin);
    this.durationMs += d;
    this.clutterWeighted += othersOnScreen * d;
    this.clutterFactorWeighted += clutterFactor(othersOnScreen) * d;
  }

  /** E: union of the group's time spans, in seconds. */
  get exposureSeconds(): number {
    return this.spans.total() / 1000;
  }

  /** s: time-weighted mean share of the frame. */
  get meanShare(): number {
    return this.weight > 0 ? this.shareWeighted / this.weight : 0;
  }

  totals(): ExposureTotals {
    const t: ExposureTotals = {
      detections: this.count,
      exposure_s: this.exposureSeconds,
      size_weighted_s: 0,
      valued_s: 0,
      share_w: this.shareWeighted,
      weight: this.weight,
      max_share: this.maxShare,
      position_w: this.positionWeighted,
      clutter_w: this.clutterWeighted,
      clutter_factor_w: this.clutterFactorWeighted,
      duration_ms: this.durationMs,
    };
    const m = means(t);
    t.size_weighted_s = t.exposure_s * m.mean_share;
    t.valued_s = t.exposure_s * m.position_weight * m.clutter_factor;
    return t;
  }
}

/** Keyed accumulators created on first use. */
export class AccumulatorMap<K> {
  readonly entries = new Map<K, ExposureAccumulator>();

  get(key: K): ExposureAccumulator {
    let acc = this.entries.get(key);
    if (!acc) {
      acc = new ExposureAccumulator();
      this.entries.set(key, acc);
    }
    return acc;
  }
}

/** Placement key of the "all placements" group of a brand. */
export const ALL_PLACEMENTS = 0;

export interface VideoStatsRow extends ExposureTotals {
  brand_id: number;
  /** ALL_PLACEMENTS (0) for the brand across placements. */
  placement_id: number;
  best_detection_id: number | null;
  best_share: number;
}

export interface MeasuredDetection {
  id: number;
  brand_id: number;
  placement_id: number;
  time_begin: number;
  time_end: number;
  coordinates: readonly Segment[];
}

/**
 * One video's per-brand and per-brand-and-placement groups, fed its counted detections one by one
 * (in any order; the callers feed them in id order). The dashboard's aggregates, the per-video
 * report and the campaign report are all built with it.
 */
export class VideoExposure {
  readonly byBrand = new AccumulatorMap<number>();
  readonly byBrandPlacement = new AccumulatorMap<string>();
  private readonly best = new Map<string, { id: number; share: number; duration: number }>();

  constructor(
    private readonly width: number,
    private readonly height: number,
    private readonly clutter: ClutterIndex,
  ) {}

  /** Measures and adds one detection; returns its measure and clutter for a detail row. */
  add(d: MeasuredDetection): { measure: DetectionMeasure; clutter: number } {
    const measure = measureDetection(d.coordinates, this.width, this.height);
    const n = this.clutter.othersOnScreen(d.brand_id, d.time_begin, d.time_end);
    this.byBrand.get(d.brand_id).add(d.time_begin, d.time_end, measure, n);
    const key = `${d.brand_id}:${d.placement_id}`;
    this.byBrandPlacement.get(key).add(d.time_begin, d.time_end, measure, n);
    // Best detection: the largest share of the frame; then the longer; then the lower id.
    const duration = d.time_end - d.time_begin;
    for (const k of [`${d.brand_id}:${ALL_PLACEMENTS}`, key]) {
      const b = this.best.get(k);
      if (
        !b ||
        measure.maxShare > b.share ||
        (measure.maxShare === b.share && (duration > b.duration || (duration === b.duration && d.id < b.id)))
      ) {
        this.best.set(k, { id: d.id, share: measure.maxShare, duration });
      }
    }
    return { measure, clutter: n };
  }

  rows(): VideoStatsRow[] {
    const out: VideoStatsRow[] = [];
    for (const [brandId, acc] of this.byBrand.entries) {
      const best = this.best.get(`${brandId}:${ALL_PLACEMENTS}`);
      out.push({
        brand_id: brandId,
        placement_id: ALL_PLACEMENTS,
        ...acc.totals(),
        best_detection_id: best?.id ?? null,
        best_share: best?.share ?? 0,
      });
    }
    for (const [key, acc] of this.byBrandPlacement.entries) {
      const [brandId, placementId] = key.split(':').map(Number);
      const best = this.best.get(key);
      out.push({
        brand_id: brandId,
        placement_id: placementId,
        ...acc.totals(),
        best_detection_id: best?.id ?? null,
        best_share: best?.share ?? 0,
      });
    }
    return out;
  }
}

/** Media value of a brand: sum over its placements of rate x valued seconds. */
export function mediaValue(
  placementRows: Iterable<{ placement_id: number; valued_s: number }>,
  rates: ReadonlyMap<number, number>,
): number {
  let value = 0;
  for (const r of placementRows) {
    if (r.placement_id === ALL_PLACEMENTS) continue;
    value += (rates.get(r.placement_id) ?? 0) * r.valued_s;
  }
  return value;
}
