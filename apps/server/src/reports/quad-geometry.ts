/**
 * Geometry of a detection quad (8 numbers: four x/y corners in video pixels) against the frame.
 */

/** Area of the quad's part inside the frame, as a share (0..1) of the frame's area. */
export function quadFrameShare(points: readonly number[], width: number, height: number): number {
  if (width <= 0 || height <= 0 || points.length < 6) return 0;
  const clipped = clipToRect(points, width, height);
  return Math.min(1, Math.abs(polygonArea(clipped)) / (width * height));
}

/** Mean of the corners: good enough as "where on screen" for a quad. */
export function quadCentre(points: readonly number[]): { x: number; y: number } {
  let x = 0;
  let y = 0;
  const n = points.length >> 1;
  for (let i = 0; i < n; i++) {
    x += points[2 * i];
    y += points[2 * i + 1];
  }
  return { x: x / n, y: y / n };
}

const ROWS = ['top', 'middle', 'bottom'] as const;
const COLS = ['left', 'centre', 'right'] as const;

/** Name of the third of the screen a point falls in, e.g. 'top-left', 'centre', 'bottom-right'. */
export function screenRegion(fx: number, fy: number): string {
  const col = COLS[Math.min(2, Math.max(0, Math.floor(fx * 3)))];
  const row = ROWS[Math.min(2, Math.max(0, Math.floor(fy * 3)))];
  if (row === 'middle' && col === 'centre') return 'centre';
  return `${row}-${col}`;
}

/** Shoelace formula over a flat x/y list. */
function polygonArea(flat: readonly number[]): number {
  const n = flat.length >> 1;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    sum += flat[2 * i] * flat[2 * j + 1] - flat[2 * j] * flat[2 * i + 1];
  }
  return sum / 2;
}

/** Sutherland-Hodgman clip of a polygon to [0,w]x[0,h], so off-screen parts do not count as exposure. */
function clipToRect(flat: readonly number[], w: number, h: number): number[] {
  let poly = flat.slice(0, flat.length & ~1);
  const edges: [number, number, number][] = [
    [0, 0, 1], // x >= 0
    [0, w, -1], // x <= w
    [1, 0, 1], // y >= 0
    [1, h, -1], // y <= h
  ];
  for (const [axis, bound, dir] of edges) {
    const out: number[] = [];
    const n = poly.length >> 1;
    for (let i = 0; i < n; i++) {
      const ax = poly[2 * i];
      const ay = poly[2 * i + 1];
      const j = (i + 1) % n;
      const bx = poly[2 * j];
      const by = poly[2 * j + 1];
      const av = (axis === 0 ? ax : ay) - bound;
      const bv = (axis === 0 ? bx : by) - bound;
      const aIn = av * dir >= 0;
      const bIn = bv * dir >= 0;
      if (aIn) out.push(ax, ay);
      if (aIn !== bIn) {
        const t = av / (av - bv);
        out.push(ax + (bx - ax) * t, ay + (by - ay) * t);
      }
    }
    poly = out;
    if (poly.length < 6) return [];
  }
  return poly;
}
