import { brighten } from './color.ts';
import {
  DRAWING_COLOR,
  DRAWING_LINE_WIDTH,
  FILTERED_LINE_WIDTH,
  LINE_WIDTH,
  SELECTED_BRIGHTEN_PERCENT,
  SELECTED_GLOW_BLUR,
  SELECTED_LINE_WIDTH,
} from './constants.ts';
import type { EditorModel } from './editor-model.ts';
import { quadAt } from './segments.ts';
import type { ToolOverlay } from './tools/tool-state.ts';

/**
 * The part of CanvasRenderingContext2D the renderer uses. A real 2D context satisfies it; tests pass a
 * recording fake. Style properties are typed `string | object` so a DOM context (whose styles may be
 * gradients) is assignable.
 */
export interface CanvasLike {
  lineWidth: number;
  strokeStyle: string | object;
  fillStyle: string | object;
  shadowBlur: number;
  shadowColor: string;
  clearRect(x: number, y: number, w: number, h: number): void;
  fillRect(x: number, y: number, w: number, h: number): void;
  strokeRect(x: number, y: number, w: number, h: number): void;
  beginPath(): void;
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  closePath(): void;
  stroke(): void;
  setLineDash(segments: number[]): void;
}

/** Size of the overlay in display pixels and the display scale (display px per video px). */
export interface Viewport {
  width: number;
  height: number;
  scale: number;
}

/** Colours of the interactive layer; override to match a theme. */
export interface RendererTheme {
  marqueeStroke: string;
  marqueeFill: string;
  drawingOverlay: string;
  draftColor: string;
  draftDash: number[];
}

/** Default colours of the interactive layer. */
export const DEFAULT_THEME: RendererTheme = {
  marqueeStroke: '#ffffff',
  marqueeFill: 'rgba(33, 150, 243, 0.15)',
  drawingOverlay: 'rgba(0, 0, 0, 0.5)',
  draftColor: DRAWING_COLOR,
  draftDash: [8, 4],
};

/** A reusable list of quads sharing one stroke style, so the style is set once for all of them. */
interface Bucket {
  color: string;
  quads: number[][];
  count: number;
}

const NO_DASH: number[] = [];
const MARQUEE_DASH = [4, 4];

/**
 * Draws the overlay for the model's current frame: detections with the spec's styles (width 3; selected 5
 * with a glow in the colour brightened by 40%; filtered 1, or hidden unless the filter's `visible` is on),
 * drafts (dashed), the marquee, and in drawing mode the dark overlay with the red 3 px outline that follows the
 * pointer. Quads are grouped by colour and width so each style is set once; buffers are reused between frames.
 */
export class OverlayRenderer {
  private readonly normal = new Map<string, Bucket>();
  private readonly thin = new Map<string, Bucket>();
  private readonly normalList: Bucket[] = [];
  private readonly thinList: Bucket[] = [];
  private readonly selectedQuads: number[][] = [];
  private readonly selectedColors: string[] = [];

  constructor(private readonly theme: RendererTheme = DEFAULT_THEME) {}

  /** Clears and redraws everything. `tools` is the interactive state (marquee, preview, drawing). */
  render(ctx: CanvasLike, model: EditorModel, viewport: Viewport, tools: ToolOverlay | null = null): void {
    const { scale } = viewport;
    ctx.clearRect(0, 0, viewport.width, viewport.height);
    ctx.shadowBlur = 0;
    ctx.setLineDash(NO_DASH);

    for (const b of this.normalList) b.count = 0;
    for (const b of this.thinList) b.count = 0;
    let selectedCount = 0;
    const preview = tools?.preview ?? null;
    const showFiltered = model.filter.visible;
    const t = model.frameTime;

    const active = model.activeEntries();
    for (let i = 0; i < active.length; i++) {
      const det = active[i].det;
      const filtered = model.isFiltered(det);
      if (filtered && !showFiltered) continue;
      const quad =
        preview !== null && preview.target.kind === 'detection' && preview.target.id === det.id
          ? preview.points
          : quadAt(det.coordinates, t);
      if (quad === null) continue;
      const color = det.placement.color;
      if (filtered) this.push(this.thin, this.thinList, color, quad);
      else if (model.selectedDetectionIds.has(det.id)) {
        this.selectedQuads[selectedCount] = quad;
        this.selectedColors[selectedCount++] = color;
      } else this.push(this.normal, this.normalList, color, quad);
    }

    this.strokeBuckets(ctx, this.normalList, LINE_WIDTH, scale);
    this.strokeBuckets(ctx, this.thinList, FILTERED_LINE_WIDTH, scale);

    // Drafts: few, drawn one by one, dashed so they read as "not saved yet".
    const drafts = model.drafts;
    if (drafts.length > 0) {
      ctx.setLineDash(this.theme.draftDash);
      for (const d of drafts) {
        if (!model.isSpanActive(d.time_begin, d.time_end)) continue;
        const quad =
          preview !== null && preview.target.kind === 'draft' && preview.target.id === d.id
            ? preview.points
            : quadAt(d.coordinates, t);
        if (quad === null) continue;
        const color = model.getPlacement(d.placementId)?.color ?? this.theme.draftColor;
        if (model.selectedDraftIds.has(d.id)) {
          this.selectedQuads[selectedCount] = quad;
          this.selectedColors[selectedCount++] = color;
          continue;
        }
        ctx.lineWidth = LINE_WIDTH;
        ctx.strokeStyle = color;
        ctx.beginPath();
        this.quadPath(ctx, quad, scale);
        ctx.stroke();
      }
      ctx.setLineDash(NO_DASH);
    }

    // Selected last, on top, with the glow (shadowBlur is costly, and selections are small).
    if (selectedCount > 0) {
      ctx.lineWidth = SELECTED_LINE_WIDTH;
      ctx.shadowBlur = SELECTED_GLOW_BLUR;
      for (let i = 0; i < selectedCount; i++) {
        const bright = brighten(this.selectedColors[i], SELECTED_BRIGHTEN_PERCENT);
        ctx.strokeStyle = bright;
        ctx.shadowColor = bright;
        ctx.beginPath();
        this.quadPath(ctx, this.selectedQuads[i], scale);
        ctx.stroke();
      }
      ctx.shadowBlur = 0;
      // Drop references so removed detections can be collected.
      for (let i = 0; i < selectedCount; i++) this.selectedQuads[i] = NO_DASH;
    }

    if (tools?.marquee) {
      const r = tools.marquee;
      ctx.fillStyle = this.theme.marqueeFill;
      ctx.fillRect(r.x, r.y, r.width, r.height);
      ctx.lineWidth = 1;
      ctx.strokeStyle = this.theme.marqueeStroke;
      ctx.setLineDash(MARQUEE_DASH);
      ctx.strokeRect(r.x, r.y, r.width, r.height);
      ctx.setLineDash(NO_DASH);
    }

    if (tools?.drawing) this.drawDrawing(ctx, viewport, tools.drawing);
  }

  private push(map: Map<string, Bucket>, list: Bucket[], color: string, quad: number[]): void {
    let b = map.get(color);
    if (b === undefined) {
      b = { color, quads: [], count: 0 };
      map.set(color, b);
      list.push(b);
    }
    b.quads[b.count++] = quad;
  }

  private strokeBuckets(ctx: CanvasLike, list: Bucket[], width: number, scale: number): void {
    ctx.lineWidth = width;
    for (const b of list) {
      if (b.count === 0) continue;
      ctx.strokeStyle = b.color;
      // One small path per quad: measured faster than one many-contour path per colour in Chromium's
      // software rasterizer (Skia strokes a multi-contour path as one big outline). The colour is set once.
      for (let i = 0; i < b.count; i++) {
        ctx.beginPath();
        this.quadPath(ctx, b.quads[i], scale);
        ctx.stroke();
      }
      for (let i = 0; i < b.count; i++) b.quads[i] = NO_DASH;
    }
  }

  private quadPath(ctx: CanvasLike, p: ArrayLike<number>, scale: number): void {
    if (p.length < 4) return;
    ctx.moveTo(p[0] * scale, p[1] * scale);
    for (let i = 2; i < p.length; i += 2) ctx.lineTo(p[i] * scale, p[i + 1] * scale);
    ctx.closePath();
  }

  private drawDrawing(
    ctx: CanvasLike,
    viewport: Viewport,
    drawing: NonNullable<ToolOverlay['drawing']>,
  ): void {
    const { scale } = viewport;
    ctx.fillStyle = this.theme.drawingOverlay;
    ctx.fillRect(0, 0, viewport.width, viewport.height);
    const pts = drawing.points;
    const cursor = drawing.cursor;
    if (pts.length === 0) return;
    ctx.lineWidth = DRAWING_LINE_WIDTH;
    ctx.strokeStyle = DRAWING_COLOR;
    ctx.beginPath();
    ctx.moveTo(pts[0].x * scale, pts[0].y * scale);
    for (let i = 1; i < pts.length; i++) ctx.lineTo(pts[i].x * scale, pts[i].y * scale);
    if (cursor) ctx.lineTo(cursor.x * scale, cursor.y * scale);
    // With three corners placed the pointer is the fourth: show the closed quad it would create.
    if (cursor && pts.length === 3) ctx.closePath();
    ctx.stroke();
  }
}
