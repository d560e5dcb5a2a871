import { describe, expect, it } from 'vitest';
import { sides, type Quad } from '../src/geometry.ts';
import { plausible } from '../src/hits.ts';

const VIDEO = { width: 1280, height: 720 };
const PHOTO = { width: 1280, height: 720, maxLogoShare: 0.8 };

/** A w x h board centred at (cx, cy), its right side shortened by `side` (seen at an angle), as bench/engine/generate.ts composes one. */
function boardAtAngle(cx: number, cy: number, w: number, h: number, side: number): Quad {
  const r = (h / 2) * (1 - side);
  return [cx - w / 2, cy - h / 2, cx + w / 2, cy - r, cx + w / 2, cy + r, cx - w / 2, cy + h / 2];
}

describe('plausible: the perspective a logo may show', () => {
  // A UNICEF track's quad over an OVUNQUE, SEMPRE, NERAZZURRI board (the real set at 1280x720, CRF
  // 19, 12 s; the UNICEF example is 58 x 20 px, cut from a shirt): left side 68 px, right side 31.
  const twisted: Quad = [646, 91, 793, 88, 792, 119, 626, 157];
  const unicef = { width: 58, height: 20 };

  it('rejects in a video frame a quad whose left side is twice its right', () => {
    const [, right, , left] = sides(twisted);
    expect(left / right).toBeGreaterThan(2);
    expect(plausible(twisted, unicef, VIDEO)).toBe(false);
  });

  it('accepts the same quad in a photo, which may be a close-up at a steep angle', () => {
    expect(plausible(twisted, unicef, PHOTO)).toBe(true);
  });

  it('accepts in a video frame a board seen at the generated set’s steepest angle (right side 0.65 of the left)', () => {
    const board = boardAtAngle(640, 200, 240, 40, 0.35);
    expect(plausible(board, { width: 240, height: 40 }, VIDEO)).toBe(true);
    // and rejects one seen steeper than broadcast cameras show a board (right side half the left)
    expect(plausible(boardAtAngle(640, 200, 240, 40, 0.5), { width: 240, height: 40 }, VIDEO)).toBe(false);
  });

  it('leaves a few pixels to the corners of a small board (sides 15 and 8 px, at 848x478)', () => {
    // an OVUNQUE row of the Serie A clip at its own size, its corners polished a few px apart
    const row: Quad = [300, 60, 444, 60, 444, 68, 300, 75];
    const [, right, , left] = sides(row);
    expect([Math.round(left), Math.round(right)]).toEqual([15, 8]);
    expect(plausible(row, { width: 190, height: 14 }, { width: 848, height: 478 })).toBe(true);
  });
});
