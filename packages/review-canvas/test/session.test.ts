import { describe, expect, it } from 'vitest';
import { WindowTracker } from '../src/detection-windows.ts';
import { ReviewEditor } from '../src/review-editor.ts';
import { shouldResumeAfterInteraction, secondsModeTick } from '../src/playback.ts';
import { nextFrameTime } from '../src/time.ts';
import type { Detection } from '../src/types.ts';
import { BLUE, box, det, recordEvents, RED } from './helpers.ts';

/** A fake of GET /api/videos/detections/?videoId&startTime&endTime: detections overlapping the window. */
function fakeApi(all: Detection[]) {
  const calls: [number, number][] = [];
  return {
    calls,
    get(start: number, end: number): Detection[] {
      calls.push([start, end]);
      return all.filter((d) => d.time_begin <= end && d.time_end >= start);
    },
  };
}

describe('a review session, shell-like wiring', () => {
  it('loads windows while playing, the table follows the time, a marquee pauses and a move resumes', () => {
    const all: Detection[] = [];
    for (let i = 0; i < 120; i++) {
      all.push(det(i + 1, i * 1000, i * 1000 + 2500, box((i % 10) * 150, 100, 100, 60), i % 2 ? RED : BLUE));
    }
    const api = fakeApi(all);
    const editor = new ReviewEditor({ videoId: 7, fps: 25 });
    editor.setViewport(1280, 720, 1);
    const tracker = new WindowTracker();
    const events = recordEvents(editor);
    let playing = true;
    let wasPlaying = false;
    editor.on('interactionStarted', () => {
      wasPlaying = playing;
      playing = false;
    });
    editor.on('interactionEnded', (e) => {
      if (shouldResumeAfterInteraction(wasPlaying, e)) playing = true;
    });

    // Play 60 s in SECONDS mode with a window check every 2 s.
    let t: number | null = 0;
    while (t !== null && t <= 60_000) {
      if (t % 2000 === 0) {
        const w = tracker.next(t, 120_000);
        if (w) {
          editor.model.upsertDetections(api.get(w.start, w.end));
          tracker.done(w);
        }
      }
      editor.model.setTime(t);
      const want = all.filter((d) => d.time_begin <= t! && d.time_end >= t!).map((d) => d.id);
      expect(editor.model.detectionRows().map((r) => r.detection.id)).toEqual(want);
      t = secondsModeTick(t, 120_000);
    }
    // Loaded contiguously, ahead of the position, never the whole video at once.
    expect(tracker.loaded).toEqual([{ start: 0, end: 70_000 }]);
    expect(api.calls.every(([s, e]) => e - s <= 11_000)).toBe(true);

    // At 30 s ids 29 (28..30.5 s, x 1200..1300), 30 (29..31.5 s, x 1350..1450) and 31 (30..32.5 s, x 0..100)
    // are active.
    editor.model.setTime(30_000);
    editor.pointerDown({ x: 1300, y: 50 });
    editor.pointerUp({ x: 1280, y: 200 });
    expect([...editor.model.selectedDetectionIds]).toEqual([29]);
    expect(playing).toBe(false); // something was selected: stays paused

    playing = true;
    editor.pointerDown({ x: 50, y: 100 }); // top edge of id 31
    editor.pointerMove({ x: 60, y: 110 });
    editor.pointerUp({ x: 60, y: 110 });
    expect(playing).toBe(true); // moved, nothing newly selected: resumes
    const moved = events.find((e) => e.type === 'detectionMoved')?.payload as {
      id: number;
      points: number[];
    };
    expect(moved).toMatchObject({ id: 31, points: box(10, 110, 100, 60) });

    // Step one frame: the table and the overlay agree on the frame.
    editor.model.setTime(nextFrameTime(31_500, 25));
    expect(editor.model.frameTime).toBe(31_520);
    expect(editor.model.detectionRows().map((r) => r.detection.id)).toEqual([31, 32]);
  });
});
