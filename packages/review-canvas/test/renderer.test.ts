import { describe, expect, it } from 'vitest';
import { ReviewEditor } from '../src/review-editor.ts';
import { BLUE, box, det, RecordingCanvas, RED } from './helpers.ts';

function setup() {
  const editor = new ReviewEditor({ videoId: 7, fps: 25 });
  editor.setViewport(960, 540, 0.5);
  editor.model.setDetections([
    det(1, 0, 10_000, box(100, 100, 200, 100), RED, 10),
    det(2, 0, 10_000, box(600, 400, 200, 200), BLUE, 11),
    det(3, 0, 10_000, box(0, 0, 50, 50), RED, 10),
    det(4, 20_000, 30_000, box(0, 0, 50, 50), RED, 10),
  ]);
  editor.model.setTime(1000);
  return editor;
}

describe('OverlayRenderer', () => {
  it('clears, then strokes active detections at width 3 in their placement colour, grouped by colour', () => {
    const editor = setup();
    const ctx = new RecordingCanvas();
    editor.render(ctx);
    expect(ctx.calls[0]).toMatchObject({ op: 'clearRect', args: [0, 0, 960, 540] });
    expect(ctx.strokes).toHaveLength(3);
    expect(ctx.strokes.every((s) => s.lineWidth === 3 && s.shadowBlur === 0)).toBe(true);
    // The two red detections come one after the other, in display coordinates (video * 0.5).
    expect(ctx.strokes.map((s) => [s.color, s.paths])).toEqual([
      [RED.color, [box(50, 50, 100, 50)]],
      [RED.color, [box(0, 0, 25, 25)]],
      [BLUE.color, [box(300, 200, 100, 100)]],
    ]);
  });

  it('draws selected detections at width 5 with a glow in the colour brightened by 40%', () => {
    const editor = setup();
    editor.model.select([{ kind: 'detection', id: 2 }]);
    const ctx = new RecordingCanvas();
    editor.render(ctx);
    const sel = ctx.strokes.find((s) => s.lineWidth === 5)!;
    // #0000ff + 40% of 255 (102 = 0x66) per channel.
    expect(sel).toMatchObject({ color: '#6666ff', shadowColor: '#6666ff' });
    expect(sel.shadowBlur).toBeGreaterThan(0);
    expect(sel.paths).toEqual([box(300, 200, 100, 100)]);
    // The selected one is not also drawn normally, and the glow does not leak into later strokes.
    expect(ctx.strokes.filter((s) => s.color === BLUE.color)).toHaveLength(0);
    expect(ctx.strokes.at(-1)).toBe(sel);
    expect(ctx.shadowBlur).toBe(0);
  });

  it('hides filtered detections, or draws them at width 1 when the filter is visible', () => {
    const editor = setup();
    editor.model.setFilter({ brandIds: [10], placementIds: [], visible: false });
    let ctx = new RecordingCanvas();
    editor.render(ctx);
    expect(ctx.strokes.map((s) => s.color)).toEqual([RED.color, RED.color]);
    editor.model.toggleFilteredVisible();
    ctx = new RecordingCanvas();
    editor.render(ctx);
    const thin = ctx.strokes.find((s) => s.lineWidth === 1)!;
    expect(thin.color).toBe(BLUE.color);
    expect(thin.paths).toEqual([box(300, 200, 100, 100)]);
  });

  it('draws the live preview of a drag instead of the stored quad', () => {
    const editor = setup();
    editor.pointerDown({ x: 100, y: 50 });
    editor.pointerMove({ x: 110, y: 50 });
    const ctx = new RecordingCanvas();
    editor.render(ctx);
    const red = ctx.strokes.find((s) => s.color === RED.color)!;
    expect(red.paths[0]).toEqual(box(60, 50, 100, 50));
  });

  it('draws the marquee rectangle while selecting', () => {
    const editor = setup();
    editor.pointerDown({ x: 700, y: 10 });
    editor.pointerMove({ x: 650, y: 60 });
    const ctx = new RecordingCanvas();
    editor.render(ctx);
    expect(ctx.calls.filter((c) => c.op === 'fillRect' || c.op === 'strokeRect').map((c) => c.args)).toEqual([
      [650, 10, 50, 50],
      [650, 10, 50, 50],
    ]);
  });

  it('in drawing mode darkens the overlay and draws the red 3 px outline to the pointer', () => {
    const editor = setup();
    editor.startDrawing();
    editor.pointerDown({ x: 10, y: 10 });
    editor.pointerDown({ x: 60, y: 10 });
    editor.pointerMove({ x: 60, y: 40 });
    const ctx = new RecordingCanvas();
    editor.render(ctx);
    const dark = ctx.calls.find((c) => c.op === 'fillRect')!;
    expect(dark.args).toEqual([0, 0, 960, 540]);
    const outline = ctx.strokes.at(-1)!;
    expect(outline).toMatchObject({ color: '#ff0000', lineWidth: 3 });
    expect(outline.paths).toEqual([[10, 10, 60, 10, 60, 40]]);
  });

  it('draws drafts dashed, in their placement colour once set', () => {
    const editor = setup();
    editor.model.setPlacements([RED, BLUE]);
    const d = editor.model.addDraft(box(1000, 0, 100, 100));
    editor.model.clearSelection();
    let ctx = new RecordingCanvas();
    editor.render(ctx);
    let draft = ctx.strokes.find((s) => s.dash.join() === '8,4')!;
    expect(draft).toMatchObject({ color: '#ff0000', lineWidth: 3 });
    expect(draft.paths).toEqual([box(500, 0, 50, 50)]);
    editor.model.setDraftsPlacement([d.id], BLUE.id);
    ctx = new RecordingCanvas();
    editor.render(ctx);
    draft = ctx.strokes.find((s) => s.dash.join() === '8,4')!;
    expect(draft.color).toBe(BLUE.color);
  });

  it('reuses its buffers: a second frame draws the same thing with no leftovers', () => {
    const editor = setup();
    const a = new RecordingCanvas();
    editor.render(a);
    editor.model.setTime(20_000);
    const b = new RecordingCanvas();
    editor.render(b);
    expect(b.strokes).toHaveLength(1);
    expect(b.strokes[0].paths).toEqual([box(0, 0, 25, 25)]);
  });
});
