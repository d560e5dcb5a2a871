import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { truthProblems, type Instance, type Truth } from '../../../bench/engine/real-set/truth.ts';

// The labels of the team's real set (bench/engine/real-set), which the benchmark scores the engine on.
const TRUTH = new URL('../../../bench/engine/real-set/truth.json', import.meta.url);

const board = (brand: string, quad: number[]): Instance => ({
  brand,
  quad,
  kind: 'board',
  placement: 'In-scene',
  difficult: false,
});
const oneFrame = (instances: Instance[]): Truth => ({
  sources: [{ id: 'seriea', path: 'footage/seriea-broadcast.mp4', kind: 'video' }],
  brands: [],
  frames: [{ source: 'seriea', time_ms: 4000, width: 848, height: 478, instances }],
});

describe('the real set labels', () => {
  it('label no logo twice', async () => {
    const truth = JSON.parse(await readFile(TRUTH, 'utf8')) as Truth;
    expect(truthProblems(truth)).toEqual([]);
  });

  it('a part of a board labelled again inside the whole board is found', () => {
    // seriea at 4 s as it was labelled until session 47: the EVERYWHERE, ALWAYS, NERAZZURRI row, and
    // its first letters again as a second label of the brand
    const row = [245.2, 11.2, 405.5, 25.2, 404.2, 40.4, 243.9, 26.2];
    const letters = [244.3, 9.7, 283.6, 13, 282.1, 29.9, 242.8, 26.6];
    const problems = truthProblems(
      oneFrame([board('Everywhere Always Nerazzurri', row), board('Everywhere Always Nerazzurri', letters)]),
    );
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^seriea 4000 ms: two Everywhere Always Nerazzurri labels, one inside the other/,
    );
  });

  it('the two rows of a two-row board, or two boards side by side, are not', () => {
    // the OVUNQUE, SEMPRE, NERAZZURRI row over the EVERYWHERE one, overlapping at the slant
    const everywhere = [245.2, 11.2, 405.5, 25.2, 404.2, 40.4, 243.9, 26.2];
    const ovunque = [284, 0, 420, 10, 419, 27, 283, 16];
    const beside = [406, 25, 566, 39, 565, 54, 405, 40];
    const truth = oneFrame([
      board('Everywhere Always Nerazzurri', everywhere),
      board('Ovunque Sempre Nerazzurri', ovunque),
      board('Everywhere Always Nerazzurri', beside),
    ]);
    expect(truthProblems(truth)).toEqual([]);
  });
});
