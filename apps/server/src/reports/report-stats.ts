import type { DetectionMeasure } from './detection-measure.ts';
import { IntervalUnion } from './interval-union.ts';

/** Running totals for one group of detections (a brand, a brand in a placement, a tag, all). */
export class ExposureStats {
  count = 0;
  readonly spans = new IntervalUnion();
  private shareWeighted = 0;
  private weight = 0;
  maxShare = 0;

  add(timeBegin: number, timeEnd: number, measure: DetectionMeasure): void {
    this.count++;
    this.spans.add(timeBegin, timeEnd);
    this.shareWeighted += measure.shareWeighted;
    this.weight += measure.weight;
    if (measure.maxShare > this.maxShare) this.maxShare = measure.maxShare;
  }

  /** Union of the group's time spans, in seconds. */
  get exposureSeconds(): number {
    return this.spans.total() / 1000;
  }

  /** Time-weighted mean share of the frame. */
  get meanShare(): number {
    return this.weight > 0 ? this.shareWeighted / this.weight : 0;
  }
}

/** Keyed ExposureStats that creates entries on first use. */
export class StatsMap<K> {
  readonly entries = new Map<K, ExposureStats>();

  get(key: K): ExposureStats {
    let stats = this.entries.get(key);
    if (!stats) {
      stats = new ExposureStats();
      this.entries.set(key, stats);
    }
    return stats;
  }
}
