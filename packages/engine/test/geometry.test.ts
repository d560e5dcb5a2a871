import { describe, expect, it } from 'vitest';
import { clipToFrame, isConvexClockwise, quadIoU } from '../src/geometry.ts';

const W = 848;
const H = 478;

describe('a quad cut to the frame', () => {
  it('leaves a quad inside the frame as it is', () => {
    const q = [10, 20, 200, 30, 198, 60, 12, 50];
    expect(clipToFrame(q, W, H)).toEqual(q);
  });

  it('slides the corners beyond the left edge along the words, keeping the slant', () => {
    // A board running off the left edge: its top edge from (-60, 100) to (140, 80).
    const q = [-60, 100, 140, 80, 140, 110, -60, 130];
    const c = clipToFrame(q, W, H);
    expect(c[0]).toBe(0);
    expect(c[6]).toBe(0);
    // on the lines of the board's top and bottom edges
    expect(c[1]).toBeCloseTo(100 - (60 / 200) * 20, 6);
    expect(c[7]).toBeCloseTo(130 - (60 / 200) * 20, 6);
    expect(c.slice(2, 6)).toEqual(q.slice(2, 6));
    expect(isConvexClockwise(c)).toBe(true);
  });

  it('cuts at the right and bottom edges alike, and the result is what shows of the quad', () => {
    const q = [800, 450, 900, 450, 900, 500, 800, 500];
    const c = clipToFrame(q, W, H);
    expect(c).toEqual([800, 450, W, 450, W, H, 800, H]);
    expect(quadIoU(c, [800, 450, W, 450, W, H, 800, H])).toBeCloseTo(1, 6);
  });
});
