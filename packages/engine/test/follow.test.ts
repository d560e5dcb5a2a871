import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeThumbs } from '../src/brand-index.ts';
import { follow as followTracks, followBack, followByWords } from '../src/analyze.ts';
import type { Track } from '../src/tracker.ts';
import type { GrayImage } from '../src/features.ts';
import type { WordCheck } from '../src/word-check.ts';
import { followInFrame, looksAsBefore } from '../src/follow.ts';
import { correlate, type ThumbExample } from '../src/appearance.ts';
import { DEFAULT_DETECTOR, type Reading } from '../src/hits.ts';
import { exampleToFrame } from '../src/geometry.ts';
import { loadGray, loadLogo } from '../src/image-io.ts';
import { buildBrandIndex } from '../src/index.ts';
import { compositeLogo } from '../src/synth.ts';
import {
  background,
  exists,
  framePng,
  maxCornerError,
  SERIEA_CLIP,
  tempDir,
  texturedLogoSvg,
  writePng,
  writeSvg,
} from './fixtures.ts';

let dir: string;
let logoFile: string;
let ex: ThumbExample;

beforeAll(async () => {
  dir = await tempDir();
  logoFile = await writeSvg(dir, 'acme.svg', texturedLogoSvg(1));
  const index = await buildBrandIndex({ id: 'acme', name: 'Acme', examples: [{ id: 1, file: logoFile }] });
  ex = decodeThumbs(index.examples[0]);
});

async function frame(name: string, quad: number[] | null) {
  const img = await background(5, 960, 540);
  if (quad) await compositeLogo(img, await loadLogo(logoFile, 400), quad);
  return loadGray(await writePng(join(dir, name), img), 960);
}

const follow = (f: Awaited<ReturnType<typeof frame>>, q: number[], search = true) =>
  followInFrame(f, q, ex, DEFAULT_DETECTOR.minCorrelation, DEFAULT_DETECTOR.maxChroma, search);

/**
 * A words check whose verdict on every place is `verdict` (its reading is tested in
 * word-check.test.ts); example 0 has words. Each place asked is noted in `asked`.
 */
function wordsReading(verdict: Reading, asked: { quad: number[]; distinct?: boolean }[] = []): WordCheck {
  return {
    hasWords: (example: number) => example === 0,
    read: async (_f: GrayImage, h: { quad: number[] }, distinct?: boolean) => {
      asked.push({ quad: h.quad, distinct });
      return verdict;
    },
  } as unknown as WordCheck;
}

describe('followInFrame', () => {
  // a small logo (about 130 x 64 px) that moved right by a sixth of its width since the last sample
  const now = [420, 240, 552, 236, 556, 302, 422, 306];
  const before = now.map((v, i) => (i % 2 === 0 ? v - 22 : v));

  it('finds a small logo that moved since the last sample, although nothing correlates at its old place', async () => {
    const f = await frame('moved.png', now);
    // where it was, its fine texture no longer lines up with anything
    expect(correlate(f, exampleToFrame(before, ex.width, ex.height), ex)).toBeLessThan(0.2);
    const found = follow(f, before);
    expect(found).not.toBeNull();
    expect(maxCornerError(found!.quad, now)).toBeLessThanOrEqual(3);
    // without the search (a track of a single hit) it is not looked for away from its old place
    expect(follow(f, before, false)).toBeNull();
  });

  it('does not follow a logo that has gone onto the background', async () => {
    expect(follow(await frame('gone.png', null), before)).toBeNull();
  });
});

describe('following a new track back in time', () => {
  // the logo found at 250 ms; 250 ms earlier the camera had it 60 px further left (a pan)
  const now = [420, 240, 552, 236, 556, 302, 422, 306];
  const pan = 60;
  const before = now.map((v, i) => (i % 2 === 0 ? v - pan : v));
  const track = () => ({
    brand: 0,
    hits: [
      {
        brand: 0,
        example: 0,
        quad: now,
        inliers: 20,
        score: 0.8,
        ncc: 0.9,
        timeMs: 250,
        cam: [pan, 0] as [number, number],
      },
    ],
  });

  it('looks where the camera had the logo before it panned, and marks where the camera stood', async () => {
    const earlier = await frame('pan-before.png', before);
    const t = track();
    await followBack(t, [{ timeMs: 0, frame: earlier, into: [0, 0] }], [pan, 0], [], [ex], 1, 1);
    expect(t.hits.map((h) => h.timeMs)).toEqual([0, 250]);
    expect(maxCornerError(t.hits[0].quad, before)).toBeLessThanOrEqual(3);
    expect(t.hits[0].cam).toEqual([0, 0]);
  });

  it('without the camera shift it finds nothing there (the logo is beyond a follow from its place)', async () => {
    const earlier = await frame('pan-before.png', before);
    const t = track();
    await followBack(t, [{ timeMs: 0, frame: earlier, into: [0, 0] }], [0, 0], [], [ex], 1, 1);
    expect(t.hits.map((h) => h.timeMs)).toEqual([250]);
  });

  it('stops where the words at the step back read as another brand', async () => {
    const earlier = await frame('pan-before.png', before);
    const asked: number[][] = [];
    // the words check's verdict on the place found (its reading is tested in word-check.test.ts)
    const words = (verdict: Reading) =>
      ({
        read: async (_f: GrayImage, h: { quad: number[] }) => {
          asked.push(h.quad);
          return verdict;
        },
      }) as unknown as WordCheck;
    const kept = track();
    await followBack(
      kept,
      [{ timeMs: 0, frame: earlier, into: [0, 0] }],
      [pan, 0],
      [],
      [ex],
      1,
      1,
      words('unsure'),
    );
    expect(kept.hits.map((h) => h.timeMs)).toEqual([0, 250]);
    expect(maxCornerError(asked[0], before)).toBeLessThanOrEqual(3);
    const t = track();
    await followBack(
      t,
      [{ timeMs: 0, frame: earlier, into: [0, 0] }],
      [pan, 0],
      [],
      [ex],
      1,
      1,
      words('rival'),
    );
    expect(t.hits.map((h) => h.timeMs)).toEqual([250]);
  });

  it("where the pixels do not correlate in a pan, steps back where the camera's motion puts it if its words read as its own", async () => {
    // the frame before shows nothing the example correlates with (as a board blurred by a pan)
    const blurred = await frame('pan-blurred.png', null);
    const asked: { quad: number[]; distinct?: boolean }[] = [];
    const words = (verdict: Reading) => wordsReading(verdict, asked);
    const recent = [{ timeMs: 0, frame: blurred, into: [0, 0] as [number, number] }];
    const t = track();
    await followBack(t, recent, [pan, 0], [], [ex], 1, 1, words('own'));
    expect(t.hits.map((h) => h.timeMs)).toEqual([0, 250]);
    expect(maxCornerError(t.hits[0].quad, before)).toBeLessThanOrEqual(0.001);
    expect(t.hits[0]).toMatchObject({ followed: true, inliers: 0 });
    // read once, as the forward carry reads: its own brand's words and no other's
    expect(asked).toEqual([{ quad: before, distinct: true }]);
    for (const verdict of ['unsure', 'blank', 'rival'] as const) {
      const kept = track();
      await followBack(kept, recent, [pan, 0], [], [ex], 1, 1, words(verdict));
      expect(kept.hits.map((h) => h.timeMs)).toEqual([250]);
    }
    // where the camera stood still the words are not asked: nothing moved the logo off its place
    asked.length = 0;
    const still = track();
    await followBack(still, recent, [0, 0], [], [ex], 1, 1, words('own'));
    expect(still.hits.map((h) => h.timeMs)).toEqual([250]);
    expect(asked).toEqual([]);
  });

  it('stops where the words read as nothing at two steps back in a row, and drops both', async () => {
    // the logo stands still at its place in three earlier samples
    const still = await frame('still.png', now);
    const recent = [0, 250, 500].map((timeMs) => ({
      timeMs,
      frame: still,
      into: [0, 0] as [number, number],
    }));
    const at750 = () => {
      const t = track();
      t.hits[0] = { ...t.hits[0], timeMs: 750, cam: [0, 0] };
      return t;
    };
    // the readings of the steps back, newest first (the words check itself is tested in word-check.test.ts)
    const words = (...readings: Reading[]) => {
      let step = 0;
      return { read: async () => readings[step++] } as unknown as WordCheck;
    };
    const blankTwice = at750();
    await followBack(blankTwice, recent, [0, 0], [], [ex], 1, 1, words('blank', 'blank', 'own'));
    expect(blankTwice.hits.map((h) => h.timeMs)).toEqual([750]);
    // one blank reading (a blurred frame, a line too faint to read) does not stop it
    const blankOnce = at750();
    await followBack(blankOnce, recent, [0, 0], [], [ex], 1, 1, words('blank', 'unsure', 'blank'));
    expect(blankOnce.hits.map((h) => h.timeMs)).toEqual([0, 250, 500, 750]);
  });
});

describe('carrying a wordmark where the camera took it, by its words', () => {
  // the logo at `before` 250 ms ago, with the camera at 0; the camera panned it 60 px right since
  // (beyond a follow): it stands at `pan` now
  const now = [420, 240, 552, 236, 556, 302, 422, 306];
  const pan = 60;
  const before = now.map((v, i) => (i % 2 === 0 ? v - pan : v));
  const last = { brand: 0, example: 0, quad: before, inliers: 20, score: 0.8, ncc: 0.9, timeMs: 0 };
  const track = (followed = 0) => ({
    brand: 0,
    hits: [
      last,
      ...Array.from({ length: followed }, (_, i) => ({ ...last, timeMs: 250 * (i + 1), followed: true })),
    ],
  });
  const words = wordsReading;

  it('carries it there when its words read there as its own brand, and only as its', async () => {
    const f = await frame('pan-words.png', now);
    const asked: { quad: number[]; distinct?: boolean }[] = [];
    const out = await followByWords(f, [], [track()], [pan, 0], [ex], words('own', asked), 1, 1, 12);
    expect(out).toHaveLength(1);
    expect(maxCornerError(out[0].quad, now)).toBeLessThanOrEqual(0.001);
    expect(out[0]).toMatchObject({ followed: true, words: 'own', inliers: 0 });
    expect(asked).toHaveLength(1);
    expect(asked[0].distinct).toBe(true);
  });

  it('carries a track missed in the samples before by the whole of the camera motion since it was seen', async () => {
    const f = await frame('pan-words.png', now);
    // seen 3 samples ago where the camera stood at x 15; it has moved the scene 20 px a sample since
    const stale = { brand: 0, hits: [{ ...last, cam: [15, 0] as [number, number] }] };
    const out = await followByWords(f, [], [stale], [15 + pan, 0], [ex], words('own'), 1, 1, 12);
    expect(out).toHaveLength(1);
    expect(maxCornerError(out[0].quad, now)).toBeLessThanOrEqual(0.001);
  });

  it('carries it where its pixels went when the board moved further than the camera', async () => {
    // the camera's motion (one shift for the whole frame) says 45 px; the board went 60
    const f = await frame('pan-words.png', now);
    const seen = await frame('pan-words-before.png', before);
    const byCamera = await followByWords(f, [], [track()], [45, 0], [ex], words('own'), 1, 1, 12);
    expect(maxCornerError(byCamera[0].quad, now)).toBeCloseTo(15, 3);
    const recent = [{ timeMs: 0, frame: seen }];
    const out = await followByWords(f, [], [track()], [45, 0], [ex], words('own'), 1, 1, 12, recent);
    expect(out).toHaveLength(1);
    expect(maxCornerError(out[0].quad, now)).toBeLessThanOrEqual(2);
    // where the words do not read at the pixels' place, the camera's place is read too
    const asked: { quad: number[] }[] = [];
    await followByWords(f, [], [track()], [45, 0], [ex], words('unsure', asked), 1, 1, 12, recent);
    expect(asked.map((a) => Math.round(a.quad[0]))).toEqual([420, 405]);
  });

  it('leaves it where the words do not read as its own', async () => {
    const f = await frame('pan-words.png', now);
    for (const verdict of ['unsure', 'blank', 'rival'] as const)
      expect(await followByWords(f, [], [track()], [pan, 0], [ex], words(verdict), 1, 1, 12)).toEqual([]);
  });

  it('reads nothing for a track that a hit continues, that has no words, or that was followed long enough', async () => {
    const f = await frame('pan-words.png', now);
    const asked: { quad: number[] }[] = [];
    const continued = { ...last, quad: now, timeMs: 250 };
    expect(
      await followByWords(f, [continued], [track()], [pan, 0], [ex], words('own', asked), 1, 1, 12),
    ).toEqual([]);
    const icon = { ...track(), hits: [{ ...last, example: 1 }] };
    expect(await followByWords(f, [], [icon], [pan, 0], [ex, ex], words('own', asked), 1, 1, 12)).toEqual([]);
    expect(await followByWords(f, [], [track(12)], [pan, 0], [ex], words('own', asked), 1, 1, 12)).toEqual(
      [],
    );
    expect(asked).toEqual([]);
  });
});

describe('following an open track from where the detector saw it best', () => {
  // The detector found the logo best at `seen` (camera at 0); a follow carried the track since to
  // `last`. Now the frame shows the logo at `seen` on screen alone: the track's logo, or another one
  // that stands where the track's logo stood before a pan.
  const seen = [420, 240, 552, 236, 556, 302, 422, 306];
  const last = seen.map((v, i) => (i % 2 === 0 ? v + 200 : v));
  const detected = {
    brand: 0,
    example: 0,
    quad: seen,
    inliers: 20,
    score: 0.9,
    ncc: 0.9,
    timeMs: 0,
    cam: [0, 0],
  };
  const track = (cam: [number, number]) => ({
    brand: 0,
    hits: [
      detected,
      { ...detected, quad: last, score: 0.85, followed: true, timeMs: 250, cam },
    ] as Track['hits'],
  });

  it('finds the logo there where the camera stayed (the follow had slid off it)', async () => {
    const f = await frame('best-still.png', seen);
    const out = followTracks(f, [], [track([0, 0])], [ex], 1, 1, 12, [0, 0], []);
    expect(out).toHaveLength(1);
    expect(maxCornerError(out[0].hit.quad, seen)).toBeLessThanOrEqual(3);
  });

  it('still looks there for a logo that stays on screen while the camera pans (an overlay)', async () => {
    const f = await frame('best-overlay.png', seen);
    // found at the same place on screen while the camera moved 100 px, then followed off it
    const overlay = {
      brand: 0,
      hits: [
        detected,
        { ...detected, score: 0.8, timeMs: 250, cam: [50, 0] },
        { ...detected, score: 0.8, timeMs: 500, cam: [100, 0] },
        { ...detected, quad: last, score: 0.75, followed: true, timeMs: 750, cam: [150, 0] },
      ] as Track['hits'],
    };
    const out = followTracks(f, [], [overlay], [ex], 1, 1, 12, [200, 0], []);
    expect(out).toHaveLength(1);
    expect(maxCornerError(out[0].hit.quad, seen)).toBeLessThanOrEqual(3);
  });

  it("does not look there once the camera has panned: the logo that stood there is not the track's", async () => {
    const f = await frame('best-panned.png', seen);
    expect(followTracks(f, [], [track([200, 0])], [ex], 1, 1, 12, [200, 0], [])).toEqual([]);
  });
});

describe.skipIf(!(await exists(SERIEA_CLIP)))('a follow looks as its track did a sample before', () => {
  const gray = async (seconds: number) => {
    const file = join(await tempDir(), 'frame.png');
    await writeFile(file, await framePng(SERIEA_CLIP, seconds));
    return loadGray(file, 848);
  };
  const moved = (q: number[], dx: number, dy: number) => q.map((v, i) => v + (i % 2 === 0 ? dx : dy));
  // The Serie A clip's own 848x478 frames. At 7 s an LED board at the right shows IM INTER CLUB
  // (its line's quad); the scene moves 35 px right and 3 px down by 7.25 s (where the two frames
  // correlate best) and about 45 px more by 7.5 s (estimateMotion on the clip), and between the
  // two samples the board changes to JOIN THE FAMILY.
  const at7 = [545, 25, 617, 32, 615, 48, 543, 41];
  const at725 = moved(at7, 35, 3);

  it('where the board still shows what it showed, a pan later', async () => {
    expect(looksAsBefore(await gray(7), at7, await gray(7.25), at725)).toBe(true);
  });

  it('not where the LED board changed its sponsor', async () => {
    const [g725, g75] = [await gray(7.25), await gray(7.5)];
    expect(looksAsBefore(g725, at725, g75, moved(at725, 45, 0))).toBe(false);
    // nor where the follow stayed, at the board's left end
    expect(looksAsBefore(g725, at725, g75, moved(at725, 5, 0))).toBe(false);
  });
});

describe('a follow goes where its logo went', () => {
  // The detector saw the logo twice at `was` (camera at 0); now the frame shows it 32 px right,
  // within a follow's reach and more than a quarter of its width (100 px) away.
  const was = [420, 240, 520, 237, 523, 287, 422, 290];
  const shift = 32;
  const now = was.map((v, i) => (i % 2 === 0 ? v + shift : v));
  const seen = { brand: 0, example: 0, quad: was, inliers: 20, score: 0.8, ncc: 0.9, cam: [0, 0] };
  const track = {
    brand: 0,
    hits: [
      { ...seen, timeMs: 0 },
      { ...seen, timeMs: 250 },
    ] as Track['hits'],
  };

  it('follows it there when the camera moved the scene that far', async () => {
    const f = await frame('went-pan.png', now);
    const out = followTracks(f, [], [track], [ex], 1, 1, 12, [shift, 0], []);
    expect(out).toHaveLength(1);
    expect(maxCornerError(out[0].hit.quad, now)).toBeLessThanOrEqual(3);
  });

  it('not when the camera stayed: what it found beside its place is something alike', async () => {
    expect(followTracks(await frame('went-still.png', now), [], [track], [ex], 1, 1, 12, [0, 0], [])).toEqual(
      [],
    );
    // where it stayed, it is followed in place
    const out = followTracks(await frame('stayed.png', was), [], [track], [ex], 1, 1, 12, [0, 0], []);
    expect(out).toHaveLength(1);
    expect(maxCornerError(out[0].hit.quad, was)).toBeLessThanOrEqual(3);
  });
});
