import { describe, expect, it, vi } from 'vitest';
import { ReviewEditor } from '../src/review-editor.ts';
import {
  EDITED_MARK_PX,
  MAX_LABELS,
  MIN_LABELLED_BOX_PX,
  PROPOSAL_COLOR,
  UNREVIEWED_DASH,
} from '../src/renderer.ts';
import { bestFrameTime, nextInQueue } from '../src/review-queue.ts';
import { reviewHotkey, REVIEW_KEYS } from '../src/review-keys.ts';
import { hotkeyAction } from '../src/hotkeys.ts';
import { UndoStack } from '../src/undo-stack.ts';
import { clampView, MAX_ZOOM, zoomAt } from '../src/view.ts';
import { LabelLayout, LABEL_HEIGHT } from '../src/labels.ts';
import type { Detection } from '../src/types.ts';
import { box, det, RecordingCanvas, RED } from './helpers.ts';

/** A detection with review fields. */
function rev(id: number, begin: number, review: string, confidence: number | null = 0.5): Detection {
  return { ...det(id, begin, begin + 1000, box(10 * id, 10, 40, 30)), review, confidence };
}

/** A RecordingCanvas that also records text (labels). */
class TextCanvas extends RecordingCanvas {
  font = '';
  textBaseline = '';
  texts: Array<{ text: string; x: number; y: number }> = [];
  fillText(text: string, x: number, y: number): void {
    this.texts.push({ text, x, y });
  }
  measureText(text: string): { width: number } {
    return { width: text.length * 6 };
  }
}

describe('review styles and labels', () => {
  function setup() {
    const editor = new ReviewEditor({ videoId: 7, fps: 25 });
    editor.setViewport(640, 360, 1);
    editor.model.setDetections([
      { ...det(1, 0, 5000, box(100, 100, 40, 30)), review: 'UNREVIEWED', confidence: 0.87 },
      { ...det(2, 0, 5000, box(300, 100, 40, 30)), review: 'TRUE_POSITIVE', confidence: 0.6 },
      { ...det(3, 0, 5000, box(500, 100, 40, 30)), review: 'EDITED', confidence: 0.4 },
      { ...det(4, 0, 5000, box(100, 250, 20, 20)), review: 'MANUAL', confidence: null },
    ]);
    editor.model.setTime(1000);
    editor.setLabelText(
      (d) => `Brand${d.brand}${d.confidence != null ? ` ${Math.round(d.confidence * 100)}%` : ''}`,
    );
    return editor;
  }

  it('unreviewed boxes are dashed, confirmed solid, edited and manual solid with a corner mark', () => {
    const editor = setup();
    const ctx = new TextCanvas();
    editor.render(ctx);
    const first = (x: number) => ctx.strokes.find((s) => s.paths[0][0] === x && s.paths[0][1] === 100)!;
    expect(first(100).dash).toEqual(UNREVIEWED_DASH);
    expect(first(300).dash).toEqual([]);
    expect(first(500).dash).toEqual([]);
    expect(ctx.strokes.every((s) => s.lineWidth === 3)).toBe(true);
    const marks = ctx.calls.filter((c) => c.op === 'fillRect' && c.args[2] === EDITED_MARK_PX);
    expect(marks.map((c) => [c.args[0] + EDITED_MARK_PX / 2, c.args[1] + EDITED_MARK_PX / 2])).toEqual([
      [500, 100],
      [100, 250],
    ]);
  });

  it('labels name the brand, with the confidence for engine detections, above the box', () => {
    const editor = setup();
    const ctx = new TextCanvas();
    editor.render(ctx);
    expect(ctx.texts.map((t) => t.text).sort()).toEqual([
      'Brand10',
      'Brand10 40%',
      'Brand10 60%',
      'Brand10 87%',
    ]);
    const t87 = ctx.texts.find((t) => t.text === 'Brand10 87%')!;
    expect(t87.y).toBeLessThan(100);
    expect(t87.y).toBeGreaterThan(100 - LABEL_HEIGHT - 2);
  });

  it('a key toggles the labels off and on', () => {
    const editor = setup();
    editor.toggleLabels();
    let ctx = new TextCanvas();
    editor.render(ctx);
    expect(ctx.texts).toHaveLength(0);
    editor.toggleLabels();
    ctx = new TextCanvas();
    editor.render(ctx);
    expect(ctx.texts).toHaveLength(4);
  });

  it('labels of close boxes do not cover each other; the selected one is always shown', () => {
    const editor = new ReviewEditor({ videoId: 7, fps: 25 });
    editor.setViewport(640, 360, 1);
    // Five 24 px boxes 6 px apart: their labels cannot all fit.
    editor.model.setDetections([1, 2, 3, 4, 5].map((i) => det(i, 0, 5000, box(100 + 30 * i, 100, 24, 24))));
    editor.model.setTime(0);
    editor.model.select([{ kind: 'detection', id: 5 }]);
    const ctx = new TextCanvas();
    editor.render(ctx);
    const bgs = ctx.calls.filter((c) => c.op === 'fillRect' && c.args[3] === LABEL_HEIGHT).map((c) => c.args);
    for (let i = 0; i < bgs.length; i++)
      for (let j = i + 1; j < bgs.length; j++) {
        const [a, b] = [bgs[i], bgs[j]];
        const overlap = a[0] < b[0] + b[2] && a[0] + a[2] > b[0] && a[1] < b[1] + b[3] && a[1] + a[3] > b[1];
        expect(overlap).toBe(false);
      }
    expect(ctx.texts.length).toBeGreaterThanOrEqual(2);
    expect(bgs.some((r) => r[0] === 250)).toBe(true); // the selected box (x 250) kept its label
  });

  it('draws at most MAX_LABELS labels, the selected and unreviewed ones first', () => {
    const editor = new ReviewEditor({ videoId: 7, fps: 25 });
    editor.setViewport(4000, 4000, 1);
    const many: Detection[] = [];
    for (let i = 1; i <= 200; i++) {
      const d = det(i, 0, 5000, box(100 * (i % 30), 100 * Math.floor(i / 30) + 50, 30, 20));
      many.push({ ...d, review: i % 2 === 0 ? 'UNREVIEWED' : 'TRUE_POSITIVE' });
    }
    editor.model.setDetections(many);
    editor.model.setTime(0);
    editor.model.select([{ kind: 'detection', id: 199 }]);
    editor.setLabelText((d) => `L${d.id}`);
    const ctx = new TextCanvas();
    editor.render(ctx);
    expect(ctx.texts).toHaveLength(MAX_LABELS);
    const ids = ctx.texts.map((t) => Number(t.text.slice(1)));
    expect(ids).toContain(199);
    expect(ids.filter((id) => id !== 199).every((id) => id % 2 === 0)).toBe(true);
  });

  it('lays labels out again only when the labelled boxes, their priority or the view change', () => {
    const editor = setup();
    const place = vi.spyOn(LabelLayout.prototype, 'place');
    try {
      editor.render(new TextCanvas());
      expect(place).toHaveBeenCalledTimes(4);
      // The same frame redrawn (hover, a tool): the placement is reused, the labels are still drawn.
      const again = new TextCanvas();
      editor.render(again);
      expect(place).toHaveBeenCalledTimes(4);
      expect(again.texts).toHaveLength(4);
      // A selection changes the priority order: laid out afresh.
      editor.model.select([{ kind: 'detection', id: 2 }]);
      editor.render(new TextCanvas());
      expect(place).toHaveBeenCalledTimes(8);
      // Another view: afresh too.
      editor.setViewport(800, 450, 1.25);
      editor.render(new TextCanvas());
      expect(place).toHaveBeenCalledTimes(12);
    } finally {
      place.mockRestore();
    }
  });

  it('leaves out labels of boxes too small to read on, unless selected, and places them at whole pixels', () => {
    const editor = new ReviewEditor({ videoId: 7, fps: 25 });
    editor.setViewport(640, 360, 0.37);
    const s = (MIN_LABELLED_BOX_PX - 1) / 0.37;
    editor.model.setDetections([
      det(1, 0, 5000, box(100, 300, s, s)),
      det(2, 0, 5000, box(400, 300, s, s)),
      det(3, 0, 5000, box(700, 300, 20 / 0.37, 20 / 0.37)),
    ]);
    editor.model.setTime(0);
    editor.model.select([{ kind: 'detection', id: 2 }]);
    editor.setLabelText((d) => `L${d.id}`);
    const ctx = new TextCanvas();
    editor.render(ctx);
    expect(ctx.texts.map((t) => t.text).sort()).toEqual(['L2', 'L3']);
    const bgs = ctx.calls.filter((c) => c.op === 'fillRect' && c.args[3] === LABEL_HEIGHT).map((c) => c.args);
    expect(bgs).toHaveLength(2);
    for (const b of bgs) {
      expect(Number.isInteger(b[0])).toBe(true);
      expect(Number.isInteger(b[1])).toBe(true);
    }
  });

  it('LabelLayout falls back below, then inside, and drops a label with no free spot', () => {
    const l = new LabelLayout();
    expect(l.place(0, 50, 10, 50, 80, 640, 360, false)).toBe(true); // above
    expect(l.place(1, 50, 10, 50, 80, 640, 360, false)).toBe(true); // below
    expect(l.place(2, 50, 10, 50, 80, 640, 360, false)).toBe(true); // inside
    expect(l.place(3, 50, 10, 50, 80, 640, 360, false)).toBe(false);
    expect(l.count).toBe(3);
  });

  it('draws a proposed track dotted in its own colour while it is active', () => {
    const editor = setup();
    editor.model.setProposal({
      target: { kind: 'detection', id: 1 },
      time_begin: 0,
      time_end: 2000,
      coordinates: [{ start_time: 0, end_time: 2000, points: box(120, 120, 40, 30) }],
    });
    const ctx = new TextCanvas();
    editor.render(ctx);
    expect(ctx.strokes.find((s) => s.color === PROPOSAL_COLOR)?.paths).toEqual([box(120, 120, 40, 30)]);
  });
});

describe('filter: unreviewed only and confidence threshold', () => {
  it('hits decided detections and engine ones below the threshold, never hand-drawn ones', () => {
    const editor = new ReviewEditor({ videoId: 7, fps: 25 });
    editor.model.setDetections([
      rev(1, 0, 'UNREVIEWED', 0.9),
      rev(2, 0, 'TRUE_POSITIVE', 0.9),
      rev(3, 0, 'UNREVIEWED', 0.2),
      rev(4, 0, 'MANUAL', null),
    ]);
    editor.model.setTime(0);
    const shown = () => editor.model.detectionRows().map((r) => r.detection.id);
    editor.model.setFilter({ brandIds: [], placementIds: [], visible: false, minConfidence: 0.5 });
    expect(shown()).toEqual([1, 2, 4]);
    editor.model.setFilter({ brandIds: [], placementIds: [], visible: false, unreviewedOnly: true });
    expect(shown()).toEqual([1, 3]);
  });
});

describe('review queue', () => {
  const list = [
    rev(1, 0, 'TRUE_POSITIVE', 0.99),
    rev(2, 1000, 'UNREVIEWED', 0.3),
    rev(3, 1000, 'UNREVIEWED', 0.8),
    rev(4, 500, 'UNREVIEWED', null),
    rev(5, 3000, 'UNREVIEWED', 0.8),
  ];
  it('in time order takes the next unreviewed one after the current, by start then id', () => {
    expect(nextInQueue(list, 'time', null)?.id).toBe(4);
    expect(nextInQueue(list, 'time', list[3])?.id).toBe(2);
    expect(nextInQueue(list, 'time', list[1])?.id).toBe(3);
    expect(nextInQueue(list, 'time', list[4])).toBeNull();
  });
  it('by confidence takes the most confident unreviewed one, hand-drawn last', () => {
    expect(nextInQueue(list, 'confidence', null)?.id).toBe(3);
    expect(nextInQueue(list.slice(3), 'confidence', null)?.id).toBe(5);
    expect(nextInQueue([list[3]], 'confidence', null)?.id).toBe(4);
  });
  it('respects the filter predicate', () => {
    expect(nextInQueue(list, 'time', null, (d) => d.id !== 4)?.id).toBe(2);
  });
  it('the best frame is the middle of the largest box, inside the span', () => {
    const d: Detection = {
      ...det(9, 0, 3000, box(0, 0, 10, 10)),
      coordinates: [
        { start_time: 0, end_time: 999, points: box(0, 0, 10, 10) },
        { start_time: 1000, end_time: 1999, points: box(0, 0, 50, 50) },
        { start_time: 2000, end_time: 3000, points: box(0, 0, 20, 20) },
      ],
    };
    expect(bestFrameTime(d)).toBe(1499);
  });
});

describe('review keys', () => {
  const no = () => false;
  it('maps every listed key and clashes with none of the spec hotkeys', () => {
    expect(reviewHotkey({ key: 't' }, no)).toBe('truePositive');
    expect(reviewHotkey({ key: 'r' }, no)).toBe('falsePositive');
    expect(reviewHotkey({ key: 'Delete' }, no)).toBe('delete');
    expect(reviewHotkey({ key: 'z', ctrlKey: true }, no)).toBe('undo');
    expect(reviewHotkey({ key: 'Z', ctrlKey: true, shiftKey: true }, no)).toBe('redo');
    expect(reviewHotkey({ key: '?' }, no)).toBe('help');
    expect(reviewHotkey({ key: 't' }, () => true)).toBeNull();
    for (const key of 'abcdefghijklmnopqrstuvwxyz0[]?'.split('').concat(['Delete', 'Enter'])) {
      if (reviewHotkey({ key }, no) !== null) expect(hotkeyAction({ key }, no)).toBeNull();
    }
    const actions = new Set(REVIEW_KEYS.map((k) => k.action));
    expect(actions.size).toBe(REVIEW_KEYS.length);
  });
});

describe('UndoStack', () => {
  it('undoes and redoes in order, clears redo on a new change, keeps at most depth steps', async () => {
    const log: string[] = [];
    const s = new UndoStack(50);
    const step = (n: number) => ({
      label: `s${n}`,
      undo: () => void log.push(`-${n}`),
      redo: () => void log.push(`+${n}`),
    });
    for (let i = 1; i <= 60; i++) s.push(step(i));
    expect(s.size).toBe(50);
    await s.undo();
    await s.undo();
    await s.redo();
    expect(log).toEqual(['-60', '-59', '+59']);
    s.push(step(61));
    expect(s.canRedo).toBe(false);
    for (let i = 0; i < 50; i++) await s.undo();
    expect(s.canUndo).toBe(false);
    expect(await s.undo()).toBeNull();
    expect(log.filter((x) => x.startsWith('-'))).toHaveLength(52);
  });

  it('a failed undo stays undoable, and queued steps run one after the other', async () => {
    const s = new UndoStack();
    let fail = true;
    const order: string[] = [];
    s.push({ label: 'a', undo: () => void order.push('a'), redo: () => undefined });
    s.push({
      label: 'b',
      undo: async () => {
        await new Promise((r) => setTimeout(r, 5));
        if (fail) throw new Error('offline');
        order.push('b');
      },
      redo: () => undefined,
    });
    await expect(s.undo()).rejects.toThrow('offline');
    expect(s.undoLabel).toBe('b');
    fail = false;
    const p1 = s.undo();
    const p2 = s.undo();
    await Promise.all([p1, p2]);
    expect(order).toEqual(['b', 'a']);
  });
});

describe('zoom and pan', () => {
  it('zooms around the pointer up to 4x and keeps the video covering the overlay', () => {
    let v = zoomAt({ zoom: 1, panX: 0, panY: 0 }, 2, 320, 180, 640, 360);
    expect(v).toEqual({ zoom: 2, panX: -320, panY: -180 });
    v = zoomAt(v, 10, 0, 0, 640, 360);
    expect(v.zoom).toBe(MAX_ZOOM);
    expect(clampView({ zoom: 2, panX: 50, panY: -1000 }, 640, 360)).toEqual({ zoom: 2, panX: 0, panY: -360 });
  });

  it('draws and hit-tests exactly when zoomed: a 20 px screen margin, video coordinates for edits', () => {
    const editor = new ReviewEditor({ videoId: 7, fps: 25 });
    editor.setViewport(640, 360, 0.5);
    editor.model.setDetections([det(1, 0, 5000, box(200, 200, 100, 60), RED)]);
    editor.model.setTime(0);
    editor.zoomAt(4, 0, 0); // scale 2, origin kept at 0,0
    editor.setView({ zoom: 4, panX: -100, panY: -100 });
    const ctx = new RecordingCanvas();
    editor.render(ctx);
    // Video (200,200) at scale 2 minus the pan of 100: (300,300).
    expect(ctx.strokes[0].paths[0].slice(0, 2)).toEqual([300, 300]);
    // 19 screen px above the top edge grabs it; 21 does not.
    expect(editor.hoverAt(350, 281)?.mode).toBe('translate');
    expect(editor.hoverAt(350, 279)).toBeNull();
    // Drag the edge 40 screen px right: the box moves 20 video px.
    let moved: number[] = [];
    editor.on('detectionMoved', (e) => (moved = e.points));
    editor.pointerDown({ x: 350, y: 300 });
    editor.pointerMove({ x: 370, y: 300 });
    editor.pointerUp({ x: 390, y: 300 });
    expect(moved).toEqual(box(220, 200, 100, 60));
    editor.resetZoom();
    expect(editor.scale).toBe(0.5);
  });

  it('draws new points where they are clicked when zoomed', () => {
    const editor = new ReviewEditor({ videoId: 7, fps: 25 });
    editor.setViewport(640, 360, 0.5);
    editor.setView({ zoom: 2, panX: -200, panY: -100 });
    editor.startDrawing();
    for (const [x, y] of [
      [0, 0],
      [100, 0],
      [100, 50],
      [0, 50],
    ])
      editor.pointerDown({ x, y });
    // Screen (0,0) is video ((0 + 200) / 1, (0 + 100) / 1).
    expect(editor.model.drafts[0].coordinates[0].points).toEqual([200, 100, 300, 100, 300, 150, 200, 150]);
  });
});
