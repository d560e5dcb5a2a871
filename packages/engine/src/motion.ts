import type { GrayImage } from './features.ts';

/**
 * Camera motion between consecutive analysed frames, and shot cuts. The tracker needs both:
 * a logo that stays put on screen while the camera pans (or across a cut) is a broadcast overlay,
 * one that moves with the camera is in the scene; and a track must never be linked across a cut
 * to whatever sits at the same place in the next shot (so that looping a clip gives the same
 * tracks in every loop).
 */

interface Plane {
  width: number;
  height: number;
  data: Float32Array;
}

/** A frame reduced to about {@link THUMB_WIDTH} px wide, by area averaging. */
export interface MotionThumb extends Plane {
  /** analysis pixels per thumbnail pixel */
  scale: number;
}

/** What changed from the previous analysed frame to this one. */
export interface FrameMotion {
  /** camera shift in analysis pixels (how far the scene moved on screen) */
  dx: number;
  dy: number;
  /** a shot cut: the frame does not continue the previous one */
  cut: boolean;
  /** mean grey difference left at the best shift (see {@link CUT_RESIDUAL}) */
  residual: number;
}

const THUMB_WIDTH = 160;
/** search radius in thumbnail pixels (about 100 px at 720p: a fast pan between two 4 fps samples) */
const RADIUS = 12;
const BLOCK = 16;
const STEP = 16;
/** a block's shift counts when it fits at most this share of the difference CHECK px away */
const DISTINCT = 0.7;
const CHECK = 2;
/**
 * A cut: even at the best shift, the frames differ by this much on average (grey levels, after
 * removing the mean brightness change). Measured at 4 samples per second on the real footage of
 * shared/data: within a shot it stays under 13 on the broadcast clips and reaches 21.6 on a fast
 * hand-held pan (VID00003) and on a hand turning a cup before a plain wall, and 19 on a swaying
 * Cinepak tree; the cuts of Megamind measure 40.6-45.4 and the one of VID00003 29.0.
 */
const CUT_RESIDUAL = 25;

/** Reduces a grey frame for motion estimation. */
export function motionThumb(frame: GrayImage): MotionThumb {
  const scale = Math.max(1, Math.floor(frame.width / THUMB_WIDTH));
  const w = Math.floor(frame.width / scale);
  const h = Math.floor(frame.height / scale);
  const data = new Float32Array(w * h);
  const src = frame.data;
  const inv = 1 / (scale * scale);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let s = 0;
      for (let yy = 0; yy < scale; yy++) {
        const row = (y * scale + yy) * frame.width + x * scale;
        for (let xx = 0; xx < scale; xx++) s += src[row + xx];
      }
      data[y * w + x] = s * inv;
    }
  }
  return { width: w, height: h, data, scale };
}

/**
 * Camera motion from `prev` to `cur`, and whether the frames belong to different shots. Each
 * textured block of the thumbnail finds its own best shift; the motion is the shift that the most
 * blocks agree on (see {@link consensus}), those whose shift stands out (see {@link blockShift})
 * counting in full.
 *
 * Measured against the labelled boards of the real broadcast clip over half seconds
 * (`bench/engine/motion.ts`): mean error 4.1 input px, where the median of a 4 x 2 grid of blocks
 * that it replaces (on a broadcast frame they lie on the pitch: grass, and players whom the camera
 * follows) made 42.1: fast pans were read at a quarter of their speed, so a board found late could
 * not be followed back to where the camera had it. It costs 14-16 ms a frame where that cost 5.
 */
export function estimateMotion(prev: MotionThumb, cur: MotionThumb): FrameMotion {
  if (prev.width !== cur.width || prev.height !== cur.height)
    return { dx: 0, dy: 0, cut: true, residual: Infinity };
  const all: [number, number][] = [];
  const shifts: [number, number][] = [];
  let guess: [number, number] = [0, 0];
  const sums = blockSums(prev);
  for (let by = 0; by + BLOCK <= cur.height; by += STEP)
    for (let bx = 0; bx + BLOCK <= cur.width; bx += STEP) {
      // A flat block (sky, pitch) matches anywhere: it says nothing about the motion.
      if (contrast(cur, bx, by, BLOCK) < 4) continue;
      const found = blockShift(prev, cur, bx, by, guess, sums);
      if (!found) continue;
      all.push(found.shift);
      if (found.distinct) shifts.push(found.shift);
      guess = found.shift;
    }
  const agree = consensus(shifts, all);
  const dx = agree.length ? mean(agree.map((s) => s[0])) : 0;
  const dy = agree.length ? mean(agree.map((s) => s[1])) : 0;
  // A cut is when neither that shift nor the median of all blocks' shifts explains the frame: where
  // only a moving object has texture (a hand turning a cup before a plain wall), the distinct blocks
  // agree on its motion while the wall is still.
  const [mx, my] = all.length ? [median(all.map((v) => v[0])), median(all.map((v) => v[1]))] : [0, 0];
  const res = Math.min(
    residual(prev, cur, Math.round(dx), Math.round(dy)),
    residual(prev, cur, Math.round(mx), Math.round(my)),
  );
  return { dx: dx * cur.scale, dy: dy * cur.scale, cut: res > CUT_RESIDUAL, residual: res };
}

function contrast(img: Plane, bx: number, by: number, size: number): number {
  let s = 0;
  let s2 = 0;
  for (let y = by; y < by + size; y++)
    for (let x = bx; x < bx + size; x++) {
      const v = img.data[y * img.width + x];
      s += v;
      s2 += v * v;
    }
  const n = size * size;
  return Math.sqrt(Math.max(0, s2 / n - (s / n) ** 2));
}

/** Sum of absolute differences of the block at (bx, by) of `cur` and at (bx - dx, by - dy) of `prev`, stopping once over `limit`. */
function sad(prev: Plane, cur: Plane, bx: number, by: number, dx: number, dy: number, limit: number): number {
  const w = cur.width;
  let sum = 0;
  for (let y = 0; y < BLOCK && sum <= limit; y++) {
    const rc = (by + y) * w + bx;
    const rp = (by + y - dy) * w + bx - dx;
    for (let x = 0; x < BLOCK; x++) sum += Math.abs(cur.data[rc + x] - prev.data[rp + x]);
  }
  return sum;
}

/**
 * The sum of every BLOCK x BLOCK block of `p`, by its top-left corner (`width` per row): the
 * difference of two blocks' sums is a lower bound of their sum of absolute differences, which rules
 * out most shifts of a search at the cost of one subtraction (successive elimination).
 */
function blockSums(p: Plane): Float64Array {
  const { width: w, height: h } = p;
  const integral = new Float64Array((w + 1) * (h + 1));
  for (let y = 0; y < h; y++) {
    let row = 0;
    for (let x = 0; x < w; x++) {
      row += p.data[y * w + x];
      integral[(y + 1) * (w + 1) + x + 1] = integral[y * (w + 1) + x + 1] + row;
    }
  }
  const out = new Float64Array(w * h);
  for (let y = 0; y + BLOCK <= h; y++)
    for (let x = 0; x + BLOCK <= w; x++)
      out[y * w + x] =
        integral[(y + BLOCK) * (w + 1) + x + BLOCK] -
        integral[y * (w + 1) + x + BLOCK] -
        integral[(y + BLOCK) * (w + 1) + x] +
        integral[y * (w + 1) + x];
  return out;
}

function inside(p: Plane, bx: number, by: number, dx: number, dy: number): boolean {
  return bx - dx >= 0 && bx - dx + BLOCK <= p.width && by - dy >= 0 && by - dy + BLOCK <= p.height;
}

/**
 * The shift (dx, dy) within {@link RADIUS} that best maps the block of `prev` at (bx - dx, by - dy)
 * onto `cur` at (bx, by), or null when the search could mostly not follow the block inside the
 * frame. `distinct` when it fits clearly better than the shifts {@link CHECK} px away from it in x
 * and in y (not so a faint or repeated pattern: the stripes of a mown pitch fit all along the
 * stripe).
 *
 * The best shift is the one of least difference; of equal ones the smallest (a still scene is not a
 * pan), then the first in row order, so the answer does not depend on the order of the search.
 * The search tries `guess` (the previous block's shift: neighbours mostly move alike) first, so
 * that the difference of most other shifts is abandoned after a few rows.
 */
function blockShift(
  prev: Plane,
  cur: Plane,
  bx: number,
  by: number,
  guess: [number, number],
  prevSums: Float64Array,
): { shift: [number, number]; distinct: boolean } | null {
  let own = 0;
  for (let y = by; y < by + BLOCK; y++)
    for (let x = bx; x < bx + BLOCK; x++) own += cur.data[y * cur.width + x];
  let best = Infinity;
  let bdx = 0;
  let bdy = 0;
  let tried = 0;
  const better = (d: number, dx: number, dy: number) => {
    if (d !== best) return d < best;
    const m = Math.abs(dx) + Math.abs(dy);
    const bm = Math.abs(bdx) + Math.abs(bdy);
    return m < bm || (m === bm && (dy < bdy || (dy === bdy && dx < bdx)));
  };
  if (inside(prev, bx, by, guess[0], guess[1])) {
    best = sad(prev, cur, bx, by, guess[0], guess[1], Infinity);
    [bdx, bdy] = guess;
  }
  for (let dy = -RADIUS; dy <= RADIUS; dy++)
    for (let dx = -RADIUS; dx <= RADIUS; dx++) {
      if (!inside(prev, bx, by, dx, dy)) continue;
      tried++;
      // A shift whose block sums alone differ by more than the best difference cannot beat it (a
      // hair of margin for rounding: ties must still be decided on the whole block).
      if (Math.abs(own - prevSums[(by - dy) * prev.width + bx - dx]) > best * (1 + 1e-9) + 1e-6) continue;
      // Stop once worse (not once equal: a tie is decided on the whole block).
      const d = sad(prev, cur, bx, by, dx, dy, best);
      if (better(d, dx, dy)) {
        best = d;
        bdx = dx;
        bdy = dy;
      }
    }
  if (tried < ((2 * RADIUS + 1) * (2 * RADIUS + 1)) / 2) return null;
  const distinct = [
    [CHECK, 0],
    [-CHECK, 0],
    [0, CHECK],
    [0, -CHECK],
  ].every(([ox, oy]) => {
    const [dx, dy] = [bdx + ox, bdy + oy];
    return !inside(prev, bx, by, dx, dy) || best <= DISTINCT * sad(prev, cur, bx, by, dx, dy, Infinity);
  });
  return { shift: [bdx, bdy], distinct };
}

/**
 * The distinct blocks' shifts that agree (within a thumbnail pixel) with the most others: the
 * scene's textured parts (stands, boards, lines) move together, while players, a fixed overlay and
 * patches of grass each go their own way. (The median of all blocks' shifts mixed them: in the real
 * broadcast clip's fast pans it gave a quarter of the boards' motion.) A block that is not distinct
 * counts half: in a fast pan the motion blur leaves few distinct blocks on the boards, while the
 * blurred ones still agree on the pan (`bench/engine/motion.ts`: mean error 8.7 -> 4.1 px).
 */
function consensus(distinct: [number, number][], all: [number, number][]): [number, number][] {
  let best: [number, number][] = [];
  let bestVotes = 0;
  for (const [x, y] of distinct) {
    const near = (v: [number, number][]) =>
      v.filter(([u, t]) => Math.abs(u - x) <= 1 && Math.abs(t - y) <= 1);
    const agree = near(distinct);
    const votes = agree.length + 0.5 * (near(all).length - agree.length);
    if (votes > bestVotes) {
      bestVotes = votes;
      best = agree;
    }
  }
  return best;
}

const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;

/** Mean absolute grey difference over the overlap at the shift, after removing the mean change. */
function residual(prev: MotionThumb, cur: MotionThumb, dx: number, dy: number): number {
  const w = cur.width;
  const x0 = Math.max(0, dx);
  const x1 = Math.min(w, w + dx);
  const y0 = Math.max(0, dy);
  const y1 = Math.min(cur.height, cur.height + dy);
  let n = 0;
  let mean = 0;
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      mean += cur.data[y * w + x] - prev.data[(y - dy) * w + x - dx];
      n++;
    }
  if (n === 0) return Infinity;
  mean /= n;
  let sad = 0;
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++)
      sad += Math.abs(cur.data[y * w + x] - prev.data[(y - dy) * w + x - dx] - mean);
  return sad / n;
}

function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
