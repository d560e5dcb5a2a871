import { describe, expect, it } from 'vitest';
import type { GrayImage } from '../src/features.ts';
import { estimateMotion, motionThumb } from '../src/motion.ts';
import { rng } from './fixtures.ts';

/**
 * A 1280 x 720 grey window, its top-left corner at (x, y), of a larger scene of seeded blobs
 * (a crowd, a stand: texture at the scale of the thumbnails that the motion is measured on).
 */
function scene(seed: number) {
  const W = 1600;
  const H = 1000;
  const r = rng(seed);
  const grey = new Uint8Array(W * H).fill(90);
  for (let i = 0; i < 900; i++) {
    const [x0, y0, w, h, v] = [r() * W, r() * H, 10 + r() * 60, 10 + r() * 60, Math.floor(r() * 256)];
    for (let y = Math.floor(y0); y < Math.min(H, y0 + h); y++)
      grey.fill(v, y * W + Math.floor(x0), y * W + Math.min(W, Math.floor(x0 + w)));
  }
  return (x: number, y: number): GrayImage => {
    const data = new Uint8Array(1280 * 720);
    for (let row = 0; row < 720; row++)
      data.set(grey.subarray((y + row) * W + x, (y + row) * W + x + 1280), row * 1280);
    return { width: 1280, height: 720, data };
  };
}

describe('estimateMotion', () => {
  it('measures a camera pan as the shift of the scene on screen', async () => {
    const view = scene(1);
    // the camera moves right and up: the scene moves left and down on screen
    const m = estimateMotion(motionThumb(view(100, 100)), motionThumb(view(164, 68)));
    expect(m.cut).toBe(false);
    expect(Math.abs(m.dx - -64)).toBeLessThanOrEqual(8);
    expect(Math.abs(m.dy - 32)).toBeLessThanOrEqual(8);
  });

  it('follows the stands and boards in a pan where the pitch is flat and the players run their own ways', async () => {
    // A broadcast pan: the textured stands and boards (top fifth) move 40 px to the right; the
    // pitch below is flat grass where each player runs his own way on screen, and the score bug
    // stays put. (A median over a few blocks in the middle of the frame saw only players and grass.)
    const view = scene(3);
    const r = rng(7);
    const players = Array.from({ length: 12 }, () => ({
      x: 80 + r() * 1100,
      y: 200 + r() * 420,
      vx: Math.round((r() - 0.5) * 60),
      vy: Math.round((r() - 0.5) * 30),
      tone: r(),
    }));
    const frame = (x: number, t: number): GrayImage => {
      const stands = view(x, 0);
      const data = new Uint8Array(1280 * 720);
      for (let y = 0; y < 720; y++)
        for (let c = 0; c < 1280; c++)
          data[y * 1280 + c] = y < 144 ? stands.data[y * 1280 + c] : 100 + Math.floor(y / 60);
      const box = (x0: number, y0: number, w: number, h: number, v: (u: number, t: number) => number) => {
        for (let y = y0; y < y0 + h; y++)
          for (let c = x0; c < x0 + w; c++) data[y * 1280 + c] = v(c - x0, y - y0);
      };
      for (const p of players)
        box(Math.round(p.x + p.vx * t), Math.round(p.y + p.vy * t), 24, 60, (u, v) =>
          ((u >> 2) + (v >> 3)) % 2 ? 30 + p.tone * 40 : 220,
        );
      box(60, 600, 90, 70, (u, v) => (((u >> 3) ^ (v >> 3)) & 1 ? 240 : 20)); // the score bug
      return { width: 1280, height: 720, data };
    };
    // the camera pans left: the scene moves right on screen
    const m = estimateMotion(motionThumb(frame(200, 0)), motionThumb(frame(160, 1)));
    expect(m.cut).toBe(false);
    expect(Math.abs(m.dx - 40)).toBeLessThanOrEqual(8);
    expect(Math.abs(m.dy)).toBeLessThanOrEqual(8);
  });

  it('reads a still scene as no motion, and another scene as a cut', async () => {
    const a = scene(1);
    const b = scene(2);
    const still = estimateMotion(motionThumb(a(50, 50)), motionThumb(a(50, 50)));
    expect(still).toMatchObject({ dx: 0, dy: 0, cut: false });
    expect(estimateMotion(motionThumb(a(50, 50)), motionThumb(b(50, 50))).cut).toBe(true);
  });
});
