/** Quad as 8 numbers: x1,y1 .. x4,y4, corners clockwise (in y-down image space) from top-left. */
export type Quad = number[];

type Pt = [number, number];

function toPts(q: Quad): Pt[] {
  return [
    [q[0], q[1]],
    [q[2], q[3]],
    [q[4], q[5]],
    [q[6], q[7]],
  ];
}

/** Signed area (shoelace); positive for clockwise order in y-down image coordinates. */
export function signedArea(q: Quad): number {
  let a = 0;
  for (let i = 0; i < 4; i++) {
    const j = (i + 1) % 4;
    a += q[i * 2] * q[j * 2 + 1] - q[j * 2] * q[i * 2 + 1];
  }
  return a / 2;
}

/**
 * True when the quad is strictly convex and keeps the example's orientation. A mirrored logo
 * maps to a quad with the opposite winding, so this is also the "not mirrored" test.
 */
export function isConvexClockwise(q: Quad): boolean {
  for (let i = 0; i < 4; i++) {
    const a = i * 2;
    const b = ((i + 1) % 4) * 2;
    const c = ((i + 2) % 4) * 2;
    const cross = (q[b] - q[a]) * (q[c + 1] - q[b + 1]) - (q[b + 1] - q[a + 1]) * (q[c] - q[b]);
    if (!(cross > 0)) return false;
  }
  return true;
}

function sideLen(q: Quad, i: number): number {
  const a = i * 2;
  const b = ((i + 1) % 4) * 2;
  return Math.hypot(q[b] - q[a], q[b + 1] - q[a + 1]);
}

/** Lengths of top, right, bottom, left sides. */
export function sides(q: Quad): [number, number, number, number] {
  return [sideLen(q, 0), sideLen(q, 1), sideLen(q, 2), sideLen(q, 3)];
}

/** Applies a row-major 3x3 homography to a point. */
export function applyH(h: ArrayLike<number>, x: number, y: number): Pt {
  const w = h[6] * x + h[7] * y + h[8];
  return [(h[0] * x + h[1] * y + h[2]) / w, (h[3] * x + h[4] * y + h[5]) / w];
}

/** The quad that the homography maps the example rectangle (w x h) to. */
export function projectRect(h: ArrayLike<number>, w: number, hgt: number): Quad {
  const out: number[] = [];
  for (const [x, y] of [
    [0, 0],
    [w, 0],
    [w, hgt],
    [0, hgt],
  ] as Pt[]) {
    const p = applyH(h, x, y);
    out.push(p[0], p[1]);
  }
  return out;
}

function clip(subject: Pt[], a: Pt, b: Pt): Pt[] {
  const out: Pt[] = [];
  const inside = (p: Pt) => (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) >= 0;
  const inter = (p: Pt, q: Pt): Pt => {
    const a1 = b[1] - a[1];
    const b1 = a[0] - b[0];
    const c1 = a1 * a[0] + b1 * a[1];
    const a2 = q[1] - p[1];
    const b2 = p[0] - q[0];
    const c2 = a2 * p[0] + b2 * p[1];
    const det = a1 * b2 - a2 * b1;
    if (Math.abs(det) < 1e-12) return p;
    return [(b2 * c1 - b1 * c2) / det, (a1 * c2 - a2 * c1) / det];
  };
  for (let i = 0; i < subject.length; i++) {
    const cur = subject[i];
    const prev = subject[(i + subject.length - 1) % subject.length];
    const cin = inside(cur);
    const pin = inside(prev);
    if (cin) {
      if (!pin) out.push(inter(prev, cur));
      out.push(cur);
    } else if (pin) out.push(inter(prev, cur));
  }
  return out;
}

function polyArea(p: Pt[]): number {
  let a = 0;
  for (let i = 0; i < p.length; i++) {
    const j = (i + 1) % p.length;
    a += p[i][0] * p[j][1] - p[j][0] * p[i][1];
  }
  return Math.abs(a) / 2;
}

/** Orders a convex quad clockwise (y-down) so clipping works whatever its winding. */
function clockwise(q: Quad): Pt[] {
  const p = toPts(q);
  return signedArea(q) >= 0 ? p : p.reverse();
}

/** Intersection over union of two convex quads (Sutherland-Hodgman clipping). */
export function quadIoU(a: Quad, b: Quad): number {
  const { inter, areaA, areaB } = overlap(a, b);
  const ua = areaA + areaB - inter;
  return ua > 0 ? inter / ua : 0;
}

/** Intersection of two convex quads over the smaller one's area (1 = one lies inside the other). */
export function quadOverlapOfSmaller(a: Quad, b: Quad): number {
  const { inter, areaA, areaB } = overlap(a, b);
  const m = Math.min(areaA, areaB);
  return m > 0 ? inter / m : 0;
}

function overlap(a: Quad, b: Quad): { inter: number; areaA: number; areaB: number } {
  const pa = clockwise(a);
  const pb = clockwise(b);
  let inter = pb;
  for (let i = 0; i < 4 && inter.length > 0; i++) inter = clip(inter, pa[i], pa[(i + 1) % 4]);
  return { inter: inter.length >= 3 ? polyArea(inter) : 0, areaA: polyArea(pa), areaB: polyArea(pb) };
}

/** Largest distance between corresponding corners. */
export function maxCornerDist(a: Quad, b: Quad): number {
  let m = 0;
  for (let i = 0; i < 4; i++) m = Math.max(m, Math.hypot(a[i * 2] - b[i * 2], a[i * 2 + 1] - b[i * 2 + 1]));
  return m;
}

/** Centre of a quad (mean of its corners). */
export function quadCenter(q: Quad): Pt {
  return [(q[0] + q[2] + q[4] + q[6]) / 4, (q[1] + q[3] + q[5] + q[7]) / 4];
}

/**
 * Homography taking the unit square (0,0),(1,0),(1,1),(0,1) to the quad's corners (Heckbert's
 * closed form), row-major 3x3.
 */
export function squareToQuad(q: Quad): number[] {
  const [x0, y0, x1, y1, x2, y2, x3, y3] = q;
  const dx1 = x1 - x2;
  const dx2 = x3 - x2;
  const dy1 = y1 - y2;
  const dy2 = y3 - y2;
  const sx = x0 - x1 + x2 - x3;
  const sy = y0 - y1 + y2 - y3;
  const den = dx1 * dy2 - dx2 * dy1;
  const g = (sx * dy2 - dx2 * sy) / den;
  const h = (dx1 * sy - sx * dy1) / den;
  return [x1 - x0 + g * x1, x3 - x0 + h * x3, x0, y1 - y0 + g * y1, y3 - y0 + h * y3, y0, g, h, 1];
}

/**
 * Homography from an example's pixel-centre coordinates (its rectangle is -0.5..w-0.5) to frame
 * pixel-centre coordinates, given the quad of its outer edge in frame edge coordinates.
 */
export function exampleToFrame(q: Quad, w: number, h: number): number[] {
  const S = squareToQuad(q.map((v) => v - 0.5));
  // unit square <- example centre coords: u = (x + 0.5) / w, v = (y + 0.5) / h
  const A = [1 / w, 0, 0.5 / w, 0, 1 / h, 0.5 / h, 0, 0, 1];
  const r: number[] = [];
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++) r.push(S[i * 3] * A[j] + S[i * 3 + 1] * A[3 + j] + S[i * 3 + 2] * A[6 + j]);
  return r;
}

/** The homography taking quad `a` onto quad `b` (corner for corner), or null when `a` is degenerate. */
export function quadToQuad(a: Quad, b: Quad): number[] | null {
  const A = squareToQuad(a);
  const B = squareToQuad(b);
  const inv = invert3(A);
  if (!inv) return null;
  const r: number[] = [];
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++)
      r.push(B[i * 3] * inv[j] + B[i * 3 + 1] * inv[3 + j] + B[i * 3 + 2] * inv[6 + j]);
  return r;
}

function invert3(m: number[]): number[] | null {
  const [a, b, c, d, e, f, g, h, i] = m;
  const A = e * i - f * h;
  const B = -(d * i - f * g);
  const C = d * h - e * g;
  const det = a * A + b * B + c * C;
  if (!Number.isFinite(det) || Math.abs(det) < 1e-12) return null;
  const k = 1 / det;
  return [
    A * k,
    -(b * i - c * h) * k,
    (b * f - c * e) * k,
    B * k,
    (a * i - c * g) * k,
    -(a * f - c * d) * k,
    C * k,
    -(a * h - b * g) * k,
    (a * e - b * d) * k,
  ];
}

/** Whether a quad reaches within `near` px of the edge of a w x h frame (or beyond it). */
export function nearEdge(q: Quad, w: number, h: number, near: number): boolean {
  const xs = [q[0], q[2], q[4], q[6]];
  const ys = [q[1], q[3], q[5], q[7]];
  return (
    Math.min(...xs) < near ||
    Math.min(...ys) < near ||
    Math.max(...xs) > w - near ||
    Math.max(...ys) > h - near
  );
}

/**
 * A logo's quad (corners clockwise from the top-left) cut to the frame: a logo partly out of the
 * picture is reported as the part that shows, as a reviewer would draw it. A corner beyond a
 * frame edge slides along the quad's side towards its neighbour on the other side of that edge
 * (along the words for the left and right edges, across them for the top and bottom), so the quad
 * keeps four corners and its slant. Corners whose neighbour lies beyond the edge too are clamped.
 */
export function clipToFrame(q: Quad, w: number, h: number): Quad {
  const out = [...q];
  // For each corner: its neighbour along the words (top-left <-> top-right, bottom-right <->
  // bottom-left) and across them (top-left <-> bottom-left, top-right <-> bottom-right).
  const along = [1, 0, 3, 2];
  const across = [3, 2, 1, 0];
  const slide = (axis: 0 | 1, limit: number, beyond: (v: number) => boolean, partner: number[]) => {
    const from = [...out];
    for (let k = 0; k < 4; k++) {
      const v = from[k * 2 + axis];
      const p = partner[k];
      const pv = from[p * 2 + axis];
      if (!beyond(v) || beyond(pv)) continue;
      const f = (limit - v) / (pv - v);
      out[k * 2] = from[k * 2] + f * (from[p * 2] - from[k * 2]);
      out[k * 2 + 1] = from[k * 2 + 1] + f * (from[p * 2 + 1] - from[k * 2 + 1]);
    }
  };
  slide(0, 0, (v) => v < 0, along);
  slide(0, w, (v) => v > w, along);
  slide(1, 0, (v) => v < 0, across);
  slide(1, h, (v) => v > h, across);
  return out.map((v, i) => Math.min(i % 2 === 0 ? w : h, Math.max(0, v)));
}
