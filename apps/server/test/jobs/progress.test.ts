import { describe, expect, it } from 'vitest';
import { throttledProgress } from '../../src/jobs/progress.ts';

describe('throttled progress', () => {
  it('writes at most one value per interval plus the last, in order, and flush waits for them', async () => {
    const written: number[] = [];
    const p = throttledProgress(async (percent) => {
      await new Promise((r) => setTimeout(r, 20));
      written.push(percent);
    }, 60_000);
    p(0.1);
    p(0.5); // within the interval: dropped
    p(1); // the last one is always written
    expect(written).toEqual([]);
    await p.flush();
    expect(written).toEqual([10, 100]);
  });

  it('a failed write does not stop the later ones', async () => {
    const written: number[] = [];
    const p = throttledProgress(async (percent) => {
      if (percent === 10) throw new Error('connection lost');
      written.push(percent);
    }, 0);
    p(0.1);
    p(0.2);
    await p.flush();
    expect(written).toEqual([20]);
  });
});
