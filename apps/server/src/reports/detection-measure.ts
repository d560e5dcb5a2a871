import { quadCentre, quadFrameShare } from './quad-geometry.ts';

/** What the report needs to know about one detection's on-screen presence. */
export interface DetectionMeasure {
  /** Sum over segments of (share of frame x segment weight) and the sum of weights. */
  shareWeighted: number;
  weight: number;
  /** Largest share of the frame any segment covers. */
  maxShare: number;
  /** Weighted mean centre as a share (0..1) of frame width and height; null without coordinates. */
  centreX: number | null;
  centreY: number | null;
}

/**
 * Measures a detection's segments. Each segment weighs its duration (at least 1 ms, so a segment
 * drawn at a single instant still counts), which makes "mean size" the time-weighted mean.
 */
export function measureDetection(
  coordinates: readonly { start_time: number; end_time: number; points: number[] }[],
  width: number,
  height: number,
): DetectionMeasure {
  let shareWeighted = 0;
  let weight = 0;
  let maxShare = 0;
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
  }
  return {
    shareWeighted,
    weight,
    maxShare,
    centreX: weight > 0 && width > 0 ? cx / weight / width : null,
    centreY: weight > 0 && height > 0 ? cy / weight / height : null,
  };
}
