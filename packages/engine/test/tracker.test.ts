import { describe, expect, it } from 'vitest';
import type { FrameHit, Reading } from '../src/hits.ts';
import {
  classifyPlacement,
  oneSample,
  stuckInPlace,
  Tracker,
  trackSegments,
  withoutOddFits,
  wordsAgainst,
  type Track,
} from '../src/tracker.ts';

const hit = (quad: number[]): FrameHit => ({ brand: 0, example: 0, quad, inliers: 20, score: 0.8 });
const at = (x: number, y: number) => [x, y, x + 100, y, x + 100, y + 40, x, y + 40];
/** A tracker at 4 samples/s, the tracks it closes, and a pan of 50 px a sample. */
const panning = () => {
  const closed: Track[] = [];
  const tracker = new Tracker({ stepMs: 250, maxGap: 3 }, (t) => closed.push(t));
  return { closed, tracker, pan: { dx: 50, dy: 0, cut: false, residual: 4 } };
};

describe('Tracker across cuts and camera motion', () => {
  it('ends a track at a cut, so the next shot starts its own', () => {
    const closed: Track[] = [];
    const tracker = new Tracker({ stepMs: 250, maxGap: 3 }, (t) => closed.push(t));
    tracker.push(0, [hit(at(200, 100))]);
    tracker.push(250, [hit(at(210, 100))], { dx: 10, dy: 0, cut: false, residual: 3 });
    // after the cut the same brand shows up near where the old logo was
    tracker.push(500, [hit(at(215, 105))], { dx: 0, dy: 0, cut: true, residual: 40 });
    tracker.flush();
    expect(closed.map((t) => t.hits.length)).toEqual([2, 1]);
  });

  it("adds up the camera's motion over the shot, as each hit's cam, and starts again at a cut", () => {
    const closed: Track[] = [];
    const tracker = new Tracker({ stepMs: 250, maxGap: 3 }, (t) => closed.push(t));
    tracker.push(0, [hit(at(200, 100))]);
    tracker.push(250, [], { dx: -30, dy: 2, cut: false, residual: 3 });
    tracker.push(500, [hit(at(150, 102))], { dx: -25, dy: 1, cut: false, residual: 3 });
    expect(tracker.camera).toEqual([-55, 3]);
    tracker.push(750, [], { dx: 0, dy: 0, cut: true, residual: 40 });
    expect(tracker.camera).toEqual([0, 0]);
    tracker.flush();
    expect(closed[0].hits.map((h) => h.cam)).toEqual([
      [0, 0],
      [-55, 3],
    ]);
  });

  it('takes a logo found twice in one frame (its follow and a fresh fit) as one instance, not a twin track', () => {
    const closed: Track[] = [];
    const tracker = new Tracker({ stepMs: 250, maxGap: 3 }, (t) => closed.push(t));
    tracker.push(0, [hit(at(200, 100))]);
    // at 250 ms the follow of the track and a detection a little off it; at 500 ms it moves on
    const followed = { ...hit(at(210, 100)), score: 0.6, followed: true };
    const started = tracker.push(250, [hit(at(204, 98)), followed]);
    expect(started).toEqual([]);
    tracker.push(500, [hit(at(220, 100))]);
    // two logos of the brand side by side are two instances
    tracker.push(750, [hit(at(230, 100)), hit(at(340, 100))]);
    tracker.flush();
    expect(closed.map((t) => t.hits.map((h) => h.timeMs))).toEqual([[0, 250, 500, 750], [750]]);
    expect(closed[0].hits[1].score).toBe(0.8);
  });

  it("does not link a follow that slid onto another logo of its brand found in the frame: the follow's track would run on as its twin", () => {
    const closed: Track[] = [];
    const tracker = new Tracker({ stepMs: 250, maxGap: 3 }, (t) => closed.push(t));
    // two boards of the brand, one above the other (as two IM INTER CLUB rows of a stand)
    tracker.push(0, [hit(at(200, 100)), hit(at(200, 150))]);
    // the lower board found again, and the upper one's follow slid down onto it, scoring higher
    const slid = { ...hit(at(207, 148)), score: 0.9, followed: true };
    tracker.push(250, [hit(at(205, 150)), slid]);
    tracker.flush();
    const rows = closed.map((t) => t.hits.map((h) => h.quad[1])).sort((a, b) => a[0] - b[0]);
    expect(rows).toEqual([[100], [150, 150]]);
  });

  it('keeps an overlay that stays in place across a cut as one track, placed as an overlay', () => {
    const closed: Track[] = [];
    const tracker = new Tracker({ stepMs: 250, maxGap: 3 }, (t) => closed.push(t));
    tracker.push(0, [hit(at(40, 600))]);
    tracker.push(250, [hit(at(40, 600))], { dx: 0, dy: 0, cut: false, residual: 2 });
    tracker.push(500, [hit(at(40, 600))], { dx: 0, dy: 0, cut: true, residual: 40 });
    tracker.flush();
    expect(closed).toHaveLength(1);
    expect(classifyPlacement(closed[0])).toBe('BROADCAST_OVERLAY');
  });

  it('places a logo that moves with the panning camera in the scene, one that stays put as an overlay', () => {
    const moving: Track[] = [];
    const fixed: Track[] = [];
    const a = new Tracker({ stepMs: 250, maxGap: 3 }, (t) => moving.push(t));
    const b = new Tracker({ stepMs: 250, maxGap: 3 }, (t) => fixed.push(t));
    for (let i = 0; i < 6; i++) {
      const motion = i ? { dx: -20, dy: 0, cut: false, residual: 4 } : undefined;
      a.push(i * 250, [hit(at(600 - 20 * i, 300))], motion);
      // an overlay drifting a pixel now and then (footage replayed off a screen)
      b.push(i * 250, [hit(at(40 + (i % 2), 600))], motion);
    }
    a.flush();
    b.flush();
    expect(classifyPlacement(moving[0])).toBe('IN_SCENE');
    expect(classifyPlacement(fixed[0])).toBe('BROADCAST_OVERLAY');
  });

  it('after a gap in a pan, links a board where the camera carried it, not another board where it was', () => {
    const { closed, tracker, pan } = panning();
    // a board found in two samples, moving with the camera's pan of 50 px a sample...
    tracker.push(0, [hit(at(400, 100))]);
    tracker.push(250, [hit(at(450, 100))], pan);
    // ...missed for three samples, then found 200 px on; where it stood on screen stands the
    // brand's next board along the perimeter (found too)
    tracker.push(500, [], pan);
    tracker.push(750, [], pan);
    tracker.push(1000, [], pan);
    tracker.push(1250, [hit(at(460, 100)), hit(at(650, 100))], pan);
    tracker.flush();
    const boards = closed.map((t) => t.hits.map((h) => h.quad[0]));
    expect(boards).toContainEqual([400, 450, 650]);
    expect(boards).toContainEqual([460]);
  });

  it("links each board's hit to its own track where a better hit of the brand's next board continues it too", () => {
    const { closed, tracker, pan } = panning();
    tracker.push(0, [hit(at(200, 300))]);
    tracker.push(250, [hit(at(250, 300))], pan);
    // the board where the camera carried it, and the brand's board just above it, come into view
    // and found with a better score: near enough to continue the track too, but less well
    tracker.push(
      500,
      [
        { ...hit(at(300, 300)), score: 0.6 },
        { ...hit(at(290, 245)), score: 0.9 },
      ],
      pan,
    );
    tracker.flush();
    expect(closed.map((t) => t.hits.map((h) => h.quad.slice(0, 2)))).toEqual([
      [
        [200, 300],
        [250, 300],
        [300, 300],
      ],
      [[290, 245]],
    ]);
  });

  it('links an overlay where it stayed on screen, and a logo whose motion is not known yet at either place', () => {
    const { closed, tracker, pan } = panning();
    tracker.push(0, [hit(at(40, 600))]);
    tracker.push(250, [hit(at(40, 600))], pan);
    // a logo seen once, then again where the camera carried it after a gap
    tracker.push(500, [hit(at(300, 300))], pan);
    tracker.push(750, [], pan);
    tracker.push(1000, [hit(at(40, 600)), hit(at(400, 300))], pan);
    tracker.flush();
    expect(closed.map((t) => t.hits.map((h) => h.quad[0]))).toEqual([
      [40, 40, 40],
      [300, 400],
    ]);
  });

  it('drops a twisted fit in the middle of a steady track, and keeps a logo that grows', () => {
    const steady = at(40, 340);
    const twisted = [41, 345, 81, 346, 93, 394, 26, 400];
    const hits = [steady, steady, steady, twisted, steady, steady, steady].map((q, i) => ({
      ...hit(q),
      timeMs: i * 250,
    }));
    expect(withoutOddFits({ brand: 0, hits }).hits.map((h) => h.timeMs)).toEqual([
      0, 250, 500, 1000, 1250, 1500,
    ]);
    const zoom = Array.from({ length: 7 }, (_, i) => {
      const s = 1 + 0.05 * i;
      return {
        ...hit([300, 300, 300 + 100 * s, 300, 300 + 100 * s, 300 + 40 * s, 300, 300 + 40 * s]),
        timeMs: i * 250,
      };
    });
    expect(withoutOddFits({ brand: 0, hits: zoom }).hits).toHaveLength(7);
  });
});

describe('what the words say about a track', () => {
  const track = (words: (FrameHit['words'] | undefined)[], contradicted?: boolean): Track => ({
    brand: 0,
    hits: words.map((w, i) => ({ ...hit(at(40, 340)), timeMs: i * 250, ...(w ? { words: w } : {}) })),
    ...(contradicted === undefined ? {} : { contradicted }),
  });

  it('tells against a track whose follow read as another brand and that never read as its own', () => {
    expect(wordsAgainst(track(['unsure', 'blank'], true))).toBe(true);
    expect(wordsAgainst(track([undefined], true))).toBe(true);
  });

  it('leaves a track that read as its own once, or whose follows never read as another brand', () => {
    expect(wordsAgainst(track(['unsure', 'own', 'unsure'], true))).toBe(false);
    expect(wordsAgainst(track(['unsure', 'unsure']))).toBe(false);
    expect(wordsAgainst(track(['unsure'], false))).toBe(false);
  });
});

describe('trackSegments', () => {
  const timed = (timeMs: number, x: number) => ({ ...hit(at(x, 100)), timeMs });

  it('moves the quad in a straight line over the samples a track missed, not holding it behind a pan', () => {
    // found at 0 and 750 ms (two samples missed), 30 px to the right by then; then still
    const t: Track = { brand: 0, hits: [timed(0, 200), timed(750, 230), timed(1000, 230)] };
    const segs = trackSegments(t, 250, 2000);
    expect(segs.map((s) => [s.start_time, s.end_time, s.points[0]])).toEqual([
      [0, 250, 200],
      [250, 500, 210],
      [500, 750, 220],
      [750, 1250, 230],
    ]);
  });

  it('keeps a logo that stood still over a gap as one segment', () => {
    const t: Track = { brand: 0, hits: [timed(0, 200), timed(750, 200)] };
    expect(trackSegments(t, 250, 2000)).toEqual([{ start_time: 0, end_time: 1000, points: at(200, 100) }]);
  });
});

describe('oneSample', () => {
  const seen = (...times: number[]): Track => ({
    brand: 0,
    hits: times.map((timeMs) => ({ ...hit(at(200, 100)), timeMs })),
  });

  it('tells a track seen in one sample inside the analysed span', () => {
    // 4 samples a second over 0-10 s
    expect(oneSample(seen(5000), 0, 10_000, 250)).toBe(true);
    expect(oneSample(seen(5000, 5250), 0, 10_000, 250)).toBe(false);
  });

  it('keeps one at an edge of the span, which the next chunk may go on with', () => {
    // a chunk 60-120 s of a 10-minute video
    expect(oneSample(seen(60_000), 60_000, 120_000, 250, 600_000)).toBe(false);
    expect(oneSample(seen(119_750), 60_000, 120_000, 250, 600_000)).toBe(false);
    expect(oneSample(seen(60_250), 60_000, 120_000, 250, 600_000)).toBe(true);
    expect(oneSample(seen(119_500), 60_000, 120_000, 250, 600_000)).toBe(true);
    // the video's length unknown: every edge of the span may be a chunk's
    expect(oneSample(seen(9750), 5000, 10_000, 250)).toBe(false);
  });

  it("keeps one at the video's own first or last sample whose words read as its brand's own", () => {
    const read = (timeMs: number, words: Reading): Track => ({
      brand: 0,
      hits: [{ ...hit(at(200, 100)), timeMs, words }],
    });
    // a 10 s video: nothing after its last sample could have seen the logo again
    expect(oneSample(read(9750, 'own'), 0, 10_000, 250, 10_000)).toBe(false);
    expect(oneSample(read(0, 'own'), 0, 10_000, 250, 10_000)).toBe(false);
    // inside the video it could: read or not, one sample is a chance fit
    expect(oneSample(read(5000, 'own'), 0, 10_000, 250, 10_000)).toBe(true);
    // at the end, words that said nothing of it leave it one too
    expect(oneSample(read(9750, 'unsure'), 0, 10_000, 250, 10_000)).toBe(true);
    expect(oneSample(read(9750, 'blank'), 0, 10_000, 250, 10_000)).toBe(true);
  });

  it("drops one at the video's own start or end, which no chunk goes on with", () => {
    // the whole of a 10 s video, and its last chunk
    expect(oneSample(seen(0), 0, 10_000, 250, 10_000)).toBe(true);
    expect(oneSample(seen(9750), 0, 10_000, 250, 10_000)).toBe(true);
    expect(oneSample(seen(9750), 5000, 10_000, 250, 10_000)).toBe(true);
    expect(oneSample(seen(5000), 5000, 10_000, 250, 10_000)).toBe(false);
  });
});

describe('stuckInPlace', () => {
  // the camera pans the scene 20 px a sample to the left
  const panned = (hits: { x: number; followed?: boolean }[]): Track => {
    const closed: Track[] = [];
    const tracker = new Tracker({ stepMs: 250, maxGap: 3 }, (t) => closed.push(t));
    hits.forEach(({ x, followed }, i) =>
      tracker.push(
        i * 250,
        [{ ...hit(at(x, 300)), followed }],
        i ? { dx: -20, dy: 0, cut: false, residual: 4 } : undefined,
      ),
    );
    tracker.flush();
    expect(closed).toHaveLength(1);
    return closed[0];
  };

  it('tells a track found once and then followed in place while the camera moved the scene', () => {
    const stuck = panned([{ x: 600 }, { x: 600, followed: true }, { x: 601, followed: true }]);
    expect(classifyPlacement(stuck)).toBe('BROADCAST_OVERLAY');
    expect(stuckInPlace(stuck)).toBe(true);
  });

  it('keeps an overlay that the detector finds again, a board followed with the scene, and a still shot', () => {
    const overlay = panned([{ x: 40 }, { x: 40, followed: true }, { x: 41 }]);
    expect(classifyPlacement(overlay)).toBe('BROADCAST_OVERLAY');
    expect(stuckInPlace(overlay)).toBe(false);
    const board = panned([{ x: 600 }, { x: 580, followed: true }, { x: 560, followed: true }]);
    expect(stuckInPlace(board)).toBe(false);
    // without camera motion nothing tells a stuck follow from a board that stays put
    const still: Track = {
      brand: 0,
      hits: [0, 250, 500].map((timeMs, i) => ({
        ...hit(at(200, 100)),
        timeMs,
        followed: i > 0,
        cam: [0, 0],
      })),
    };
    expect(classifyPlacement(still)).toBe('BROADCAST_OVERLAY');
    expect(stuckInPlace(still)).toBe(false);
  });
});
