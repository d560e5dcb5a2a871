import { describe, expect, it } from 'vitest';
import {
  formatTimeDisplay,
  formatTimecode,
  frameIndexAt,
  nextFrameTime,
  nextSecondTime,
  previousFrameTime,
  previousSecondTime,
} from '../src/time.ts';
import {
  DURATION_UNKNOWN_WARNING,
  parsePlayMode,
  progressClickTime,
  progressHoverTime,
  secondsModeTick,
  shouldResumeAfterInteraction,
  speedDown,
  speedUp,
  togglePlayMode,
} from '../src/playback.ts';

describe('play modes', () => {
  it('uses the stored mode, SECONDS by default and for invalid values', () => {
    expect(parsePlayMode('NORMAL')).toBe('NORMAL');
    expect(parsePlayMode('SECONDS')).toBe('SECONDS');
    expect(parsePlayMode(null)).toBe('SECONDS');
    expect(parsePlayMode(undefined)).toBe('SECONDS');
    expect(parsePlayMode('normal')).toBe('SECONDS');
    expect(parsePlayMode('"NORMAL"')).toBe('SECONDS');
    expect(togglePlayMode('SECONDS')).toBe('NORMAL');
    expect(togglePlayMode('NORMAL')).toBe('SECONDS');
  });

  it('SECONDS mode while playing jumps one whole second per tick and stops at the end', () => {
    const positions: number[] = [];
    let t: number | null = 7500;
    while (t !== null) {
      positions.push(t);
      t = secondsModeTick(t, 10_000);
    }
    expect(positions).toEqual([7500, 8500, 9500, 10_000]);
    expect(secondsModeTick(0)).toBe(1000);
  });
});

describe('speed', () => {
  it('steps by 0.5 within [0, 6]', () => {
    expect(speedUp(1)).toBe(1.5);
    expect(speedDown(1)).toBe(0.5);
    expect(speedDown(0.5)).toBe(0);
    expect(speedDown(0)).toBe(0);
    expect(speedUp(5.5)).toBe(6);
    expect(speedUp(6)).toBe(6);
    let r = 0;
    for (let i = 0; i < 20; i++) r = speedUp(r);
    expect(r).toBe(6);
  });
});

describe('frame and second steps', () => {
  it('steps one frame (1/fps) on the frame grid', () => {
    expect(nextFrameTime(0, 25)).toBe(40);
    expect(nextFrameTime(1010, 25)).toBe(1040);
    expect(previousFrameTime(1040, 25)).toBe(1000);
    expect(previousFrameTime(10, 25)).toBe(0);
    expect(nextFrameTime(9990, 25, 10_000)).toBe(10_000);
    // 29.97 fps: frame 31 starts at 1034.3666.. ms; a time a hair before it (float error) still is frame 31.
    expect(frameIndexAt(1034.366, 30000 / 1001)).toBe(31);
    expect(nextFrameTime(1034.366, 30000 / 1001)).toBeCloseTo((32 * 1001) / 30, 6);
  });

  it('steps one second, clamped to [0, duration]', () => {
    expect(nextSecondTime(1500)).toBe(2500);
    expect(nextSecondTime(9500, 10_000)).toBe(10_000);
    expect(previousSecondTime(1500)).toBe(500);
    expect(previousSecondTime(500)).toBe(0);
  });
});

describe('timecode', () => {
  it('formats HH:MM:SS:FF with the video fps', () => {
    expect(formatTimecode(0, 25)).toBe('00:00:00:00');
    expect(formatTimecode(1040, 25)).toBe('00:00:01:01');
    expect(formatTimecode(3_723_960, 25)).toBe('01:02:03:24');
    expect(formatTimecode(NaN, 25)).toBe('00:00:00:00');
    expect(formatTimeDisplay(61_000, 120_000, 30)).toBe('00:01:01:00 / 00:02:00:00');
  });
});

describe('progress bar', () => {
  it('seeks to the clicked fraction rounded to whole seconds', () => {
    const warn: string[] = [];
    const logger = { warn: (m: string) => warn.push(m) };
    expect(progressClickTime(250, 1000, 60_000, logger)).toBe(15_000);
    expect(progressClickTime(333, 1000, 60_000, logger)).toBe(20_000); // 19.98 s -> 20 s
    expect(progressClickTime(1000, 1000, 60_600, logger)).toBe(60_000); // never beyond the end
    expect(progressClickTime(-5, 1000, 60_000, logger)).toBe(0);
    expect(warn).toEqual([]);
  });

  it('only logs a warning when the duration is unknown', () => {
    const warn: string[] = [];
    const logger = { warn: (m: string) => warn.push(m) };
    expect(progressClickTime(250, 1000, NaN, logger)).toBeNull();
    expect(progressClickTime(250, 1000, null, logger)).toBeNull();
    expect(warn).toEqual([DURATION_UNKNOWN_WARNING, DURATION_UNKNOWN_WARNING]);
  });

  it('gives the hover preview time', () => {
    expect(progressHoverTime(500, 1000, 60_000)).toBe(30_000);
    expect(progressHoverTime(500, 1000, undefined)).toBeNull();
  });
});

describe('resume after a manipulation', () => {
  it('resumes a video that was playing unless the interaction selected something', () => {
    expect(shouldResumeAfterInteraction(true, { selectedSomething: false })).toBe(true);
    expect(shouldResumeAfterInteraction(true, { selectedSomething: true })).toBe(false);
    expect(shouldResumeAfterInteraction(false, { selectedSomething: false })).toBe(false);
  });
});
