import { describe, expect, it } from 'vitest';
import { brighten } from '../src/color.ts';
import { distanceToSegmentSq, polygonContains, polygonIntersectsRect } from '../src/geometry.ts';
import { box } from './helpers.ts';

describe('polygonIntersectsRect (the marquee rule)', () => {
  const quad = box(100, 100, 100, 100);
  const diamond = [150, 100, 200, 150, 150, 200, 100, 150];

  it('hits when a quad corner is inside the box, the box is inside the quad, or edges cross', () => {
    expect(polygonIntersectsRect(quad, { x: 190, y: 190, width: 50, height: 50 })).toBe(true);
    expect(polygonIntersectsRect(quad, { x: 120, y: 120, width: 10, height: 10 })).toBe(true);
    // A thin box crossing the quad: no vertex of either inside the other.
    expect(polygonIntersectsRect(quad, { x: 50, y: 140, width: 300, height: 5 })).toBe(true);
  });

  it('misses a box beside the quad, and the empty corner next to a diamond', () => {
    expect(polygonIntersectsRect(quad, { x: 210, y: 100, width: 20, height: 100 })).toBe(false);
    expect(polygonIntersectsRect(diamond, { x: 100, y: 100, width: 20, height: 20 })).toBe(false);
    expect(polygonIntersectsRect(diamond, { x: 100, y: 100, width: 40, height: 40 })).toBe(true);
  });

  it('treats touching as intersecting and a zero-size box as a point test', () => {
    expect(polygonIntersectsRect(quad, { x: 200, y: 150, width: 10, height: 0 })).toBe(true);
    expect(polygonIntersectsRect(quad, { x: 150, y: 150, width: 0, height: 0 })).toBe(true);
    expect(polygonIntersectsRect(quad, { x: 250, y: 150, width: 0, height: 0 })).toBe(false);
  });
});

describe('geometry helpers', () => {
  it('point in polygon and distance to a segment', () => {
    expect(polygonContains(box(0, 0, 10, 10), 5, 5)).toBe(true);
    expect(polygonContains(box(0, 0, 10, 10), 15, 5)).toBe(false);
    expect(distanceToSegmentSq(5, 3, 0, 0, 10, 0)).toBe(9);
    expect(distanceToSegmentSq(13, 4, 0, 0, 10, 0)).toBe(25);
    expect(distanceToSegmentSq(3, 4, 0, 0, 0, 0)).toBe(25);
  });
});

describe('brighten', () => {
  it('adds 40% of 255 per channel, clamped, and keeps unknown colours', () => {
    expect(brighten('#000000', 40)).toBe('#666666');
    expect(brighten('#ff8000', 40)).toBe('#ffe666');
    expect(brighten('#123', 40)).toBe('#778899');
    expect(brighten('red', 40)).toBe('red');
  });
});
