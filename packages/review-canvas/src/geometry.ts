import type { Point, Rect } from './types.ts';

/** Squared distance from (px,py) to the segment (ax,ay)-(bx,by). */
export function distanceToSegmentSq(
  px: number,
  py: number,
  ax: number,
  ay: number,
  bx: number,
  by: number,
): number {
  const dx = bx - ax;
  const dy = by - ay;
  const lenSq = dx * dx + dy * dy;
  let t = lenSq === 0 ? 0 : ((px - ax) * dx + (py - ay) * dy) / lenSq;
  if (t < 0) t = 0;
  else if (t > 1) t = 1;
  const cx = ax + t * dx - px;
  const cy = ay + t * dy - py;
  return cx * cx + cy * cy;
}

/** Even-odd point-in-polygon test for a flat [x0,y0,x1,y1,...] polygon. */
export function polygonContains(points: ArrayLike<number>, x: number, y: number): boolean {
  let inside = false;
  const n = points.length >> 1;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const xi = points[2 * i];
    const yi = points[2 * i + 1];
    const xj = points[2 * j];
    const yj = points[2 * j + 1];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function segmentsIntersect(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  dx: number,
  dy: number,
): boolean {
  const d1 = (dx - cx) * (ay - cy) - (dy - cy) * (ax - cx);
  const d2 = (dx - cx) * (by - cy) - (dy - cy) * (bx - cx);
  const d3 = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  const d4 = (bx - ax) * (dy - ay) - (by - ay) * (dx - ax);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  // Collinear touching counts as intersecting.
  return (
    (d1 === 0 && onSegment(cx, cy, dx, dy, ax, ay)) ||
    (d2 === 0 && onSegment(cx, cy, dx, dy, bx, by)) ||
    (d3 === 0 && onSegment(ax, ay, bx, by, cx, cy)) ||
    (d4 === 0 && onSegment(ax, ay, bx, by, dx, dy))
  );
}

function onSegment(ax: number, ay: number, bx: number, by: number, px: number, py: number): boolean {
  return Math.min(ax, bx) <= px && px <= Math.max(ax, bx) && Math.min(ay, by) <= py && py <= Math.max(ay, by);
}

/**
 * True when the polygon and the rectangle share at least one point: a vertex of either lies inside the
 * other, or two edges cross. A zero-size rectangle (a click) therefore hits a polygon that contains the point.
 */
export function polygonIntersectsRect(points: ArrayLike<number>, rect: Rect): boolean {
  const x0 = rect.x;
  const y0 = rect.y;
  const x1 = rect.x + rect.width;
  const y1 = rect.y + rect.height;
  const n = points.length >> 1;
  for (let i = 0; i < n; i++) {
    const px = points[2 * i];
    const py = points[2 * i + 1];
    if (px >= x0 && px <= x1 && py >= y0 && py <= y1) return true;
  }
  if (polygonContains(points, x0, y0)) return true;
  if (rect.width === 0 && rect.height === 0) return false;
  const rx = [x0, x1, x1, x0];
  const ry = [y0, y0, y1, y1];
  for (let i = 0, j = n - 1; i < n; j = i++) {
    for (let k = 0; k < 4; k++) {
      const l = (k + 1) & 3;
      if (
        segmentsIntersect(
          points[2 * j],
          points[2 * j + 1],
          points[2 * i],
          points[2 * i + 1],
          rx[k],
          ry[k],
          rx[l],
          ry[l],
        )
      )
        return true;
    }
  }
  return false;
}

/** Normalizes a drag from `a` to `b` into a rectangle with non-negative size. */
export function rectFromPoints(a: Point, b: Point): Rect {
  return {
    x: Math.min(a.x, b.x),
    y: Math.min(a.y, b.y),
    width: Math.abs(b.x - a.x),
    height: Math.abs(b.y - a.y),
  };
}
