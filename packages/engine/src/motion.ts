import type { GrayImage } from './features.ts';

/**
 * Camera motion between consecutive analysed frames, and shot cuts. The tracker needs both:
 * a logo that stays put on screen while the camera pans (or across a cut) is a broadcast overlay,
 * one that moves with the camera is in the scene; and a track must never be linked across a cut
 * to whatever sits at the same place in the next shot (so that looping a clip gives the same
 * tracks in every loop).
 */

/** A frame reduced to about {@link THUMB_WIDTH} px wide, by area averaging. */
export interface MotionThumb {
  width: number;
  height: number;
  data: Float32Array;
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
const BLOCK = 20;
/**
 * A cut: even at the best shift, the frames differ by this much on average (grey levels, after
 * removing the mean brightness change). Measured at 4 samples per second on the real footage of
 * shared/data: within a shot it stays under 10 on the broadcast clips and reaches 19.7 on a fast
 * hand-held pan (VID00003) and 18.6 on a swaying Cinepak tree; the cuts of Megamind measure 42-44
 * and the one of VID00003 29.
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
 * Camera motion from `prev` to `cur`: the median of the best shifts of a grid of blocks (logos,
 * players and overlays cover few blocks), and whether the frames belong to different shots.
 */
export function estimateMotion(prev: MotionThumb, cur: MotionThumb): FrameMotion {
  if (prev.width !== cur.width || prev.height !== cur.height)
    return { dx: 0, dy: 0, cut: true, residual: Infinity };
  const { width: w, height: h } = cur;
  const shifts: [number, number][] = [];
  const cols = Math.max(1, Math.floor((w - 2 * RADIUS) / (BLOCK * 1.5)));
  const rows = Math.max(1, Math.floor((h - 2 * RADIUS) / (BLOCK * 1.5)));
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const bx = Math.round(RADIUS + ((c + 0.5) * (w - 2 * RADIUS)) / cols - BLOCK / 2);
      const by = Math.round(RADIUS + ((r + 0.5) * (h - 2 * RADIUS)) / rows - BLOCK / 2);
      if (bx < RADIUS || by < RADIUS || bx + BLOCK + RADIUS > w || by + BLOCK + RADIUS > h) continue;
      // A flat block (sky, pitch) matches anywhere: it says nothing about the motion.
      if (contrast(cur, bx, by) < 4) continue;
      shifts.push(bestShift(prev, cur, bx, by));
    }
  }
  const dx = shifts.length ? median(shifts.map((s) => s[0])) : 0;
  const dy = shifts.length ? median(shifts.map((s) => s[1])) : 0;
  const res = residual(prev, cur, Math.round(dx), Math.round(dy));
  return { dx: dx * cur.scale, dy: dy * cur.scale, cut: res > CUT_RESIDUAL, residual: res };
}

function contrast(img: MotionThumb, bx: number, by: number): number {
  let s = 0;
  let s2 = 0;
  for (let y = by; y < by + BLOCK; y++)
    for (let x = bx; x < bx + BLOCK; x++) {
      const v = img.data[y * img.width + x];
      s += v;
      s2 += v * v;
    }
  const n = BLOCK * BLOCK;
  return Math.sqrt(Math.max(0, s2 / n - (s / n) ** 2));
}

/** The shift (dx, dy) that best maps the block of `prev` at (bx - dx, by - dy) onto `cur` at (bx, by). */
function bestShift(prev: MotionThumb, cur: MotionThumb, bx: number, by: number): [number, number] {
  const w = cur.width;
  let best = Infinity;
  let bdx = 0;
  let bdy = 0;
  for (let dy = -RADIUS; dy <= RADIUS; dy++) {
    for (let dx = -RADIUS; dx <= RADIUS; dx++) {
      let sad = 0;
      // Stop once worse (not once equal: a tie is decided on the whole block below).
      for (let y = 0; y < BLOCK && sad <= best; y++) {
        const rc = (by + y) * w + bx;
        const rp = (by + y - dy) * w + bx - dx;
        for (let x = 0; x < BLOCK; x++) sad += Math.abs(cur.data[rc + x] - prev.data[rp + x]);
      }
      // Ties go to the smaller shift: a still scene is not a pan.
      if (sad < best || (sad === best && Math.abs(dx) + Math.abs(dy) < Math.abs(bdx) + Math.abs(bdy))) {
        best = sad;
        bdx = dx;
        bdy = dy;
      }
    }
  }
  return [bdx, bdy];
}

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
