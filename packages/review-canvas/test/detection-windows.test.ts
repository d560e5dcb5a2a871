import { describe, expect, it } from 'vitest';
import { addWindow, planWindowRequest, WindowTracker, type TimeWindow } from '../src/detection-windows.ts';

const S = 1000;

describe('planWindowRequest (spec sections 4 and 9)', () => {
  it('with nothing loaded requests from 1 s before the position to 10 s beyond it', () => {
    expect(planWindowRequest([], 30 * S)).toEqual({ start: 29 * S, end: 40 * S });
    expect(planWindowRequest([], 0)).toEqual({ start: 0, end: 10 * S });
    expect(planWindowRequest([], 500)).toEqual({ start: 0, end: 10_500 });
  });

  it('requests nothing while the 10 s ahead are loaded', () => {
    const loaded = [{ start: 0, end: 40 * S }];
    expect(planWindowRequest(loaded, 25 * S)).toBeNull();
    expect(planWindowRequest(loaded, 30 * S)).toBeNull();
  });

  it('continues from the end of the loaded window, at least 10 s and up to 10 s beyond the position', () => {
    const loaded = [{ start: 0, end: 40 * S }];
    expect(planWindowRequest(loaded, 31 * S)).toEqual({ start: 40 * S, end: 50 * S });
    expect(planWindowRequest(loaded, 38 * S)).toEqual({ start: 40 * S, end: 50 * S });
  });

  it('bridges a gap ahead of the loaded data up to 300 s, so the data stays contiguous', () => {
    const loaded = [{ start: 0, end: 40 * S }];
    expect(planWindowRequest(loaded, 100 * S)).toEqual({ start: 40 * S, end: 110 * S });
    expect(planWindowRequest(loaded, 340 * S)).toEqual({ start: 40 * S, end: 350 * S });
  });

  it('requests nothing for a gap ahead over 300 s: the request starts 1 s before the position instead', () => {
    const loaded = [{ start: 0, end: 40 * S }];
    expect(planWindowRequest(loaded, 341 * S)).toEqual({ start: 340 * S, end: 351 * S });
  });

  it('stretches the request to a loaded window starting within the 10 s error margin after it', () => {
    const loaded = [{ start: 55 * S, end: 90 * S }];
    // Needed 29..40 s; the next window starts 15 s later: not merged.
    expect(planWindowRequest(loaded, 30 * S)).toEqual({ start: 29 * S, end: 40 * S });
    // Needed 39..50 s; the next window starts 5 s later: merged.
    expect(planWindowRequest(loaded, 40 * S)).toEqual({ start: 39 * S, end: 55 * S });
  });

  it('stops at a loaded window that starts inside the request and resumes after it', () => {
    const loaded = [{ start: 35 * S, end: 37 * S }];
    expect(planWindowRequest(loaded, 30 * S)).toEqual({ start: 29 * S, end: 35 * S });
    const after = addWindow(loaded, { start: 29 * S, end: 35 * S });
    expect(after).toEqual([{ start: 29 * S, end: 37 * S }]);
    expect(planWindowRequest(after, 30 * S)).toEqual({ start: 37 * S, end: 47 * S });
  });

  it('clamps to the duration and asks nothing once the end is loaded', () => {
    expect(planWindowRequest([], 95 * S, 100 * S)).toEqual({ start: 94 * S, end: 100 * S });
    expect(planWindowRequest([{ start: 94 * S, end: 100 * S }], 99 * S, 100 * S)).toBeNull();
    expect(planWindowRequest([{ start: 90 * S, end: 100 * S }], 100 * S, 100 * S)).toBeNull();
  });

  it('a seek backwards requests around the new position', () => {
    const loaded = [{ start: 100 * S, end: 200 * S }];
    expect(planWindowRequest(loaded, 10 * S)).toEqual({ start: 9 * S, end: 20 * S });
  });
});

describe('addWindow', () => {
  it('merges overlapping and touching windows and keeps the list sorted', () => {
    let w: TimeWindow[] = [];
    w = addWindow(w, { start: 50, end: 60 });
    w = addWindow(w, { start: 10, end: 20 });
    w = addWindow(w, { start: 30, end: 40 });
    expect(w).toEqual([
      { start: 10, end: 20 },
      { start: 30, end: 40 },
      { start: 50, end: 60 },
    ]);
    w = addWindow(w, { start: 20, end: 50 });
    expect(w).toEqual([{ start: 10, end: 60 }]);
  });
});

describe('WindowTracker: playing a video with checks every 2 s', () => {
  it('loads contiguous windows ahead of playback, never twice, and retries a failure', () => {
    const tracker = new WindowTracker();
    const requested: TimeWindow[] = [];
    for (let pos = 0; pos <= 60 * S; pos += 2 * S) {
      const w = tracker.next(pos, 600 * S);
      if (w) {
        requested.push(w);
        expect(tracker.loading).toBe(true);
        // A second check while the request is in flight asks nothing.
        expect(tracker.next(pos, 600 * S)).toBeNull();
        tracker.done(w);
      }
      // The position and the 10 s ahead are always loaded after each check.
      expect(planWindowRequest(tracker.loaded, pos, 600 * S)).toBeNull();
    }
    expect(tracker.loaded).toEqual([{ start: 0, end: 70 * S }]);
    for (let i = 1; i < requested.length; i++) expect(requested[i].start).toBe(requested[i - 1].end);

    const w = tracker.next(300 * S, 600 * S)!;
    tracker.failed(w);
    expect(tracker.loading).toBe(false);
    expect(tracker.next(300 * S, 600 * S)).toEqual(w);
    tracker.reset();
    expect(tracker.loaded).toEqual([]);
  });
});
