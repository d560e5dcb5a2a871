import { beforeEach, describe, expect, it } from 'vitest';
import { ReviewEditor } from '../src/review-editor.ts';
import { shouldResumeAfterInteraction } from '../src/playback.ts';
import { BLUE, box, det, recordEvents } from './helpers.ts';

// 25 fps, display scale 0.5: video pixel (x, y) is display pixel (x/2, y/2).
function setup() {
  const editor = new ReviewEditor({ videoId: 7, fps: 25 });
  editor.setViewport(960, 540, 0.5);
  editor.model.setDetections([
    det(1, 0, 10_000, box(100, 100, 200, 100)), // display (50,50)-(150,100)
    det(2, 0, 10_000, box(600, 400, 200, 200), BLUE), // display (300,200)-(400,300)
    det(3, 20_000, 30_000, box(100, 100, 200, 100)), // not active at t=1000
  ]);
  editor.model.setTime(1000);
  const events = recordEvents(editor);
  return { editor, events };
}

const types = (events: { type: string }[]) => events.map((e) => e.type);

describe('marquee selection', () => {
  let editor: ReviewEditor;
  let events: ReturnType<typeof recordEvents>;
  beforeEach(() => ({ editor, events } = setup()));

  it('selects the active detections whose quad intersects the dragged box', () => {
    editor.pointerDown({ x: 200, y: 20 });
    expect(editor.toolState).toBe('marquee');
    editor.pointerMove({ x: 120, y: 500 });
    editor.pointerMove({ x: 320, y: 500 });
    // The box (200..320, 20..500) crosses detection 2 (300..400) only; 1 ends at x=150.
    editor.pointerUp({ x: 320, y: 500 });
    expect([...editor.model.selectedDetectionIds]).toEqual([2]);
    expect(types(events)).toEqual(['interactionStarted', 'selectionChanged', 'interactionEnded']);
    expect(events[0].payload).toEqual({ kind: 'select', target: null });
    expect(events[2].payload).toEqual({ kind: 'select', cancelled: false, selectedSomething: true });
    expect(editor.toolState).toBe('idle');
  });

  it('selects a box drawn entirely inside a quad, and a plain click inside a quad', () => {
    editor.pointerDown({ x: 320, y: 220 });
    editor.pointerUp({ x: 330, y: 230 });
    expect([...editor.model.selectedDetectionIds]).toEqual([2]);
    editor.pointerDown({ x: 90, y: 75 });
    editor.pointerUp({ x: 90, y: 75 });
    expect([...editor.model.selectedDetectionIds]).toEqual([1]);
  });

  it('a click on empty space clears the selection and lets playback resume', () => {
    editor.model.select([{ kind: 'detection', id: 1 }]);
    events.length = 0;
    editor.pointerDown({ x: 800, y: 500 });
    editor.pointerUp({ x: 800, y: 500 });
    expect(editor.model.selectedDetectionIds.size).toBe(0);
    const ended = events.find((e) => e.type === 'interactionEnded');
    expect(ended?.payload).toEqual({ kind: 'select', cancelled: false, selectedSomething: false });
    expect(shouldResumeAfterInteraction(true, { selectedSomething: false })).toBe(true);
  });

  it('shift adds to the selection; inactive detections are never selected', () => {
    editor.pointerDown({ x: 0, y: 0 });
    editor.pointerUp({ x: 160, y: 110 });
    editor.pointerDown({ x: 290, y: 190, shiftKey: true });
    editor.pointerUp({ x: 410, y: 310, shiftKey: true });
    expect([...editor.model.selectedDetectionIds].sort()).toEqual([1, 2]);
  });

  it('detections hit by the filter are not selectable', () => {
    editor.model.setFilter({ brandIds: [], placementIds: [BLUE.id], visible: true });
    editor.pointerDown({ x: 0, y: 0 });
    editor.pointerUp({ x: 500, y: 500 });
    expect([...editor.model.selectedDetectionIds]).toEqual([2]);
  });

  it('Escape cancels the marquee without touching the selection', () => {
    editor.model.select([{ kind: 'detection', id: 1 }]);
    events.length = 0;
    editor.pointerDown({ x: 200, y: 20 });
    editor.pointerMove({ x: 500, y: 500 });
    expect(editor.keyDown({ key: 'Escape' })).toBe(true);
    expect(editor.toolState).toBe('idle');
    expect([...editor.model.selectedDetectionIds]).toEqual([1]);
    expect(events.at(-1)?.payload).toEqual({ kind: 'select', cancelled: true, selectedSomething: false });
  });
});

describe('translate by an edge', () => {
  it('moves the whole quad by the drag divided by the scale and emits detectionMoved at pointer-up only', () => {
    const { editor, events } = setup();
    // Top edge of detection 1 is at display y=50, x 50..150; press 12 px below it, in the middle.
    editor.pointerDown({ x: 100, y: 62 });
    expect(events[0]).toEqual({
      type: 'interactionStarted',
      payload: { kind: 'translate', target: { kind: 'detection', id: 1 } },
    });
    editor.pointerMove({ x: 110, y: 72 });
    editor.pointerMove({ x: 120, y: 82 });
    expect(editor.toolState).toBe('translating');
    expect(types(events)).toEqual(['interactionStarted']);
    // Live preview, model untouched until pointer-up.
    expect(editor.tools.overlay().preview?.points).toEqual(box(140, 140, 200, 100));
    expect(editor.model.getDetection(1)?.coordinates[0].points).toEqual(box(100, 100, 200, 100));

    editor.pointerUp({ x: 120, y: 82 });
    expect(types(events)).toEqual(['interactionStarted', 'detectionMoved', 'interactionEnded']);
    const moved = events[1].payload as { id: number; points: number[]; segmentIndex: number; time: number };
    expect(moved.id).toBe(1);
    expect(moved.points).toEqual(box(140, 140, 200, 100));
    expect(moved.segmentIndex).toBe(0);
    expect(moved.time).toBe(1000);
    expect(editor.model.getDetection(1)?.coordinates[0].points).toEqual(box(140, 140, 200, 100));
    expect(events[2].payload).toEqual({ kind: 'translate', cancelled: false, selectedSomething: false });
    // Spec: a manipulation resumes playback afterwards (nothing was selected by it).
    expect(shouldResumeAfterInteraction(true, events[2].payload as { selectedSomething: boolean })).toBe(
      true,
    );
  });

  it('edits only the segment shown at the current time', () => {
    const { editor } = setup();
    editor.model.upsertDetections([
      {
        ...det(1, 0, 10_000, []),
        coordinates: [
          { start_time: 0, end_time: 4999, points: box(0, 0, 10, 10) },
          { start_time: 5000, end_time: 10_000, points: box(100, 100, 200, 100) },
        ],
      },
    ]);
    editor.model.setTime(6000);
    editor.pointerDown({ x: 100, y: 50 });
    editor.pointerMove({ x: 100, y: 60 });
    editor.pointerUp({ x: 100, y: 60 });
    const coords = editor.model.getDetection(1)!.coordinates;
    expect(coords[0].points).toEqual(box(0, 0, 10, 10));
    expect(coords[1].points).toEqual(box(100, 120, 200, 100));
  });

  it('a press on an edge released without dragging selects that detection (and keeps the video paused)', () => {
    const { editor, events } = setup();
    editor.pointerDown({ x: 100, y: 45 });
    editor.pointerMove({ x: 101, y: 46 }); // below the 3 px drag threshold
    editor.pointerUp({ x: 101, y: 46 });
    expect([...editor.model.selectedDetectionIds]).toEqual([1]);
    expect(types(events)).toEqual(['interactionStarted', 'selectionChanged', 'interactionEnded']);
    expect(events[2].payload).toEqual({ kind: 'select', cancelled: false, selectedSomething: true });
    expect(shouldResumeAfterInteraction(true, events[2].payload as { selectedSomething: boolean })).toBe(
      false,
    );
  });

  it('Escape during a drag restores the quad and emits no move', () => {
    const { editor, events } = setup();
    editor.pointerDown({ x: 100, y: 50 });
    editor.pointerMove({ x: 200, y: 200 });
    editor.keyDown({ key: 'Escape' });
    editor.pointerUp({ x: 200, y: 200 });
    expect(types(events)).toEqual(['interactionStarted', 'interactionEnded']);
    expect(editor.model.getDetection(1)?.coordinates[0].points).toEqual(box(100, 100, 200, 100));
  });

  it('ignores a press farther than the 20 px margin from any outline (it starts a marquee)', () => {
    const { editor } = setup();
    editor.pointerDown({ x: 100, y: 25 }); // 25 px above the top edge
    expect(editor.toolState).toBe('marquee');
  });
});

describe('resize by the nearest vertex', () => {
  it('moves only the corner nearest to the press', () => {
    const { editor, events } = setup();
    // Bottom-right corner of detection 2 is display (400,300); press 8 px away.
    editor.pointerDown({ x: 405, y: 306 });
    expect(events[0].payload).toEqual({ kind: 'resize', target: { kind: 'detection', id: 2 } });
    editor.pointerMove({ x: 425, y: 336 });
    editor.pointerUp({ x: 425, y: 336 });
    const resized = events.find((e) => e.type === 'detectionResized')?.payload as {
      id: number;
      vertex: number;
      points: number[];
    };
    expect(resized.id).toBe(2);
    expect(resized.vertex).toBe(2);
    // The corner moved by (20, 30) display px = (40, 60) video px.
    expect(resized.points).toEqual([600, 400, 800, 400, 840, 660, 600, 600]);
    expect(editor.model.getDetection(2)?.coordinates[0].points).toEqual(resized.points);
  });

  it('near the middle of a short edge it translates instead (small boxes stay movable)', () => {
    const editor = new ReviewEditor({ videoId: 7, fps: 25 });
    editor.setViewport(960, 540, 1);
    editor.model.setDetections([det(5, 0, 1000, box(100, 100, 30, 30))]);
    editor.model.setTime(500);
    const events = recordEvents(editor);
    editor.pointerDown({ x: 115, y: 100 }); // middle of the top edge, 15 px from both corners
    expect(events[0].payload).toMatchObject({ kind: 'translate' });
    editor.pointerUp({ x: 115, y: 100 });
    editor.pointerDown({ x: 104, y: 101 }); // 4 px from the top-left corner
    expect(events.at(-1)?.payload).toMatchObject({ kind: 'resize' });
  });
});

describe('drawing four points', () => {
  it('adds a corner per click, outlines to the pointer, creates an auto-selected draft at the current time', () => {
    const { editor, events } = setup();
    editor.model.setTime(2040);
    editor.startDrawing();
    expect(editor.videoMode).toBe('NEW_DETECTION');
    expect(types(events)).toEqual(['videoModeChanged', 'interactionStarted']);
    const clicks = [
      [10, 10],
      [60, 10],
      [60, 40],
    ];
    for (const [x, y] of clicks) {
      editor.pointerDown({ x, y });
      editor.pointerUp({ x, y });
    }
    editor.pointerMove({ x: 12, y: 41 });
    const drawing = editor.tools.overlay().drawing!;
    expect(drawing.points).toEqual([
      { x: 20, y: 20 },
      { x: 120, y: 20 },
      { x: 120, y: 80 },
    ]);
    expect(drawing.cursor).toEqual({ x: 24, y: 82 });
    expect(editor.model.drafts).toHaveLength(0);

    editor.pointerDown({ x: 10, y: 40 });
    editor.pointerUp({ x: 10, y: 40 });
    expect(editor.videoMode).toBe('NORMAL');
    expect(editor.toolState).toBe('idle');
    const draft = editor.model.drafts[0];
    expect(draft).toMatchObject({
      videoId: 7,
      time_begin: 2040,
      time_end: 2040,
      brandId: null,
      placementId: null,
    });
    expect(draft.coordinates).toEqual([
      { start_time: 2040, end_time: 2040, points: [20, 20, 120, 20, 120, 80, 20, 80] },
    ]);
    expect([...editor.model.selectedDraftIds]).toEqual([draft.id]);
    expect(types(events).slice(2)).toEqual([
      'videoModeChanged',
      'draftCreated',
      'selectionChanged',
      'interactionEnded',
    ]);
    expect(events.at(-1)?.payload).toEqual({ kind: 'draw', cancelled: false, selectedSomething: true });
  });

  it('Escape cancels and clears the points', () => {
    const { editor, events } = setup();
    editor.startDrawing();
    editor.pointerDown({ x: 10, y: 10 });
    editor.pointerDown({ x: 50, y: 10 });
    expect(editor.keyDown({ key: 'Escape' })).toBe(true);
    expect(editor.videoMode).toBe('NORMAL');
    expect(editor.model.drafts).toHaveLength(0);
    expect(events.at(-1)?.payload).toEqual({ kind: 'draw', cancelled: true, selectedSomething: false });
    editor.startDrawing();
    expect(editor.tools.overlay().drawing?.points).toEqual([]);
  });

  it('a drawn draft can then be moved; the edit overwrites its segment at the same frame', () => {
    const { editor, events } = setup();
    editor.startDrawing();
    for (const [x, y] of [
      [500, 20],
      [560, 20],
      [560, 60],
      [500, 60],
    ]) {
      editor.pointerDown({ x, y });
    }
    const id = editor.model.drafts[0].id;
    events.length = 0;
    editor.pointerDown({ x: 530, y: 22 }); // top edge of the draft
    editor.pointerMove({ x: 540, y: 32 });
    editor.pointerUp({ x: 540, y: 32 });
    const changed = events.find((e) => e.type === 'draftChanged')?.payload as { cause: string };
    expect(changed.cause).toBe('moved');
    expect(editor.model.getDraft(id)?.coordinates).toEqual([
      { start_time: 1000, end_time: 1000, points: [1020, 60, 1140, 60, 1140, 140, 1020, 140] },
    ]);
  });
});

describe('hover feedback', () => {
  it('reports the cursor for edges, corners, drawing and empty space', () => {
    const { editor } = setup();
    expect(editor.cursorAt(100, 55)).toBe('move');
    expect(editor.cursorAt(52, 52)).toBe('pointer');
    expect(editor.cursorAt(700, 500)).toBe('default');
    editor.startDrawing();
    expect(editor.cursorAt(100, 55)).toBe('crosshair');
  });
});

describe('robustness', () => {
  it('a press after a lost pointer-up cancels the open drag and starts a new interaction', () => {
    const { editor, events } = setup();
    editor.pointerDown({ x: 100, y: 50 });
    editor.pointerMove({ x: 150, y: 80 });
    // pointer-up never arrives
    editor.pointerDown({ x: 800, y: 500 });
    expect(editor.toolState).toBe('marquee');
    expect(types(events)).toEqual(['interactionStarted', 'interactionEnded', 'interactionStarted']);
    expect(events[1].payload).toMatchObject({ kind: 'translate', cancelled: true });
    expect(editor.model.getDetection(1)?.coordinates[0].points).toEqual(box(100, 100, 200, 100));
  });

  it('ignores secondary buttons', () => {
    const { editor, events } = setup();
    editor.pointerDown({ x: 100, y: 50, button: 2 });
    expect(editor.toolState).toBe('idle');
    expect(events).toHaveLength(0);
  });
});
