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
import { defaultLabelText, LABEL_FONT, LABEL_HEIGHT, LABEL_PAD, LabelLayout } from './labels.ts';
import { quadAt } from './segments.ts';
import type { ToolOverlay } from './tools/tool-state.ts';
import { REVIEW_STATES, type Detection } from './types.ts';

/**
 * The part of CanvasRenderingContext2D the renderer uses. A real 2D context satisfies it; tests pass a
 * recording fake. Style properties are typed `string | object` so a DOM context (whose styles may be
 * gradients) is assignable. The text members are optional: without them no labels are drawn.
 */
export interface CanvasLike {
  lineWidth: number;
  strokeStyle: string | object;
  fillStyle: string | object;
  shadowBlur: number;
  shadowColor: string;
  font?: string;
  textBaseline?: string;
  clearRect(x: number, y: number, w: number, h: number): void;
  fillRect(x: number, y: number, w: number, h: number): void;
  strokeRect(x: number, y: number, w: number, h: number): void;
  beginPath(): void;
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  closePath(): void;
  stroke(): void;
  setLineDash(segments: number[]): void;
  fillText?(text: string, x: number, y: number): void;
  createPattern?(image: OffscreenCanvas, repetition: string): object | null;
  drawImage?(image: ImageBitmap, x: number, y: number, w?: number, h?: number): void;
  measureText?(text: string): { width: number };
}

/**
 * Size of the overlay in display pixels and the display scale (display px per video px, zoom included). A
 * zoomed view shifts the video by `offsetX`, `offsetY` (display px): a video point v is drawn at
 * `v * scale + offset`.
 */
export interface Viewport {
  width: number;
  height: number;
  scale: number;
  offsetX?: number;
  offsetY?: number;
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

/** Unreviewed detections are dashed (display px). */
export const UNREVIEWED_DASH = [6, 4];
/** Edited and hand-drawn detections carry a filled square of this size on their first corner. */
export const EDITED_MARK_PX = 8;
/** The proposed track (Follow): dotted magenta, so it never reads as a placement colour. */
export const PROPOSAL_COLOR = '#ff00ff';
export const PROPOSAL_DASH = [2, 4];
const LABEL_BG = 'rgba(0, 0, 0, 0.7)';
const MAX_LABEL_BITMAPS = 4000;
/**
 * Labels drawn per frame at most (the selection's always). Each costs about as much as a box in the redraw
 * budget, and a frame of hundreds of boxes fully labelled is covered in text anyway; ordinary frames (tens
 * of boxes) get every label.
 */
export const MAX_LABELS = 100;
const LABEL_FG = '#ffffff';

/** Below this size on both sides (display px) a box's label is left out unless it is selected. */
export const MIN_LABELLED_BOX_PX = 12;

/** A label's text, measured width (display px) and cached bitmap. */
interface LabelEntry {
  text: string;
  width: number;
  bitmap: ImageBitmap | null;
  /** The bitmap cache generation the bitmap belongs to (the cache is emptied when full). */
  bitmapGen: number;
}

/** A reusable list of quads sharing one stroke style, so the style is set once for all of them. */
interface Bucket {
  color: string;
  quads: number[][];
  count: number;
}

const NO_DASH: number[] = [];
const MARQUEE_DASH = [4, 4];

/** Stripe tile of the unreviewed style: 10 px period, 6 on and 4 off along both axes. */
const STRIPE_PERIOD = 10;
const STRIPE_ON = 6;

function stripePattern(ctx: CanvasLike, color: string): string | object {
  const tile = new OffscreenCanvas(STRIPE_PERIOD, STRIPE_PERIOD);
  const t = tile.getContext('2d');
  if (t === null) return color;
  t.fillStyle = color;
  for (let y = 0; y < STRIPE_PERIOD; y++)
    for (let x = 0; x < STRIPE_PERIOD; x++) if ((x + y) % STRIPE_PERIOD < STRIPE_ON) t.fillRect(x, y, 1, 1);
  return ctx.createPattern!(tile, 'repeat') ?? color;
}

/** How a detection's review state shows. */
function reviewStyle(d: Detection): 'dashed' | 'solid' | 'marked' {
  const r = d.review;
  if (r === REVIEW_STATES.EDITED || r === REVIEW_STATES.MANUAL) return 'marked';
  if (r === REVIEW_STATES.TRUE_POSITIVE) return 'solid';
  return 'dashed';
}

/**
 * Draws the overlay for the model's current frame: detections with the spec's styles (width 3; selected 5
 * with a glow in the colour brightened by 40%; filtered 1, or hidden unless the filter's `visible` is on),
 * dashed while unreviewed, solid once confirmed, solid with a corner mark once edited or hand-drawn; their
 * labels (brand and confidence); drafts (dashed); a proposed track; the marquee; and in drawing mode the dark
 * overlay with the red 3 px outline that follows the pointer. Quads are grouped by colour and style so each
 * style is set once; buffers are reused between frames.
 */
export class OverlayRenderer {
  private readonly solid = new Map<string, Bucket>();
  private readonly dashed = new Map<string, Bucket>();
  private readonly thin = new Map<string, Bucket>();
  private readonly solidList: Bucket[] = [];
  private readonly dashedList: Bucket[] = [];
  private readonly thinList: Bucket[] = [];
  private readonly selectedQuads: number[][] = [];
  private readonly selectedColors: string[] = [];
  private readonly selectedDashed: boolean[] = [];
  private readonly markQuads: number[][] = [];
  private readonly markColors: string[] = [];
  private readonly labelQuads: number[][] = [];
  private readonly labelDets: Detection[] = [];
  private readonly labelSelected: number[] = [];
  private readonly layout = new LabelLayout();
  private labelCache = new WeakMap<Detection, LabelEntry>();
  /** The label of each placed rectangle of the layout. */
  private readonly placedLabels: LabelEntry[] = [];
  /** What the last layout was made for (see sameLabelFrame). */
  private readonly prevLabel = {
    n: -1,
    scale: 0,
    w: 0,
    h: 0,
    ox: 0,
    oy: 0,
    textVersion: -1,
    quads: [] as number[][],
    dets: [] as Detection[],
    prio: [] as number[],
  };
  private textVersion = 0;
  private bitmapGen = 0;
  private scratch: OffscreenCanvas | null = null;
  private scratchCtx: OffscreenCanvasRenderingContext2D | null = null;
  private readonly widthCache = new Map<string, number>();
  private readonly dashPatterns = new Map<string, string | object>();
  private readonly bitmaps = new Map<string, ImageBitmap>();
  /** Device pixels per display pixel, for crisp label bitmaps (the shell sets devicePixelRatio). */
  pixelRatio = 1;
  private labelText: (d: Detection) => string = (d) => defaultLabelText(d);
  /** Whether box labels are drawn (toggled by a key in the shell). */
  showLabels = true;

  constructor(private readonly theme: RendererTheme = DEFAULT_THEME) {}

  /** Sets how a detection's label reads (brand names come from the shell); clears the cached labels. */
  setLabelText(fn: (d: Detection) => string): void {
    this.labelText = fn;
    this.labelCache = new WeakMap();
    this.textVersion++;
  }

  /** Clears and redraws everything. `tools` is the interactive state (marquee, preview, drawing). */
  render(ctx: CanvasLike, model: EditorModel, viewport: Viewport, tools: ToolOverlay | null = null): void {
    const { scale } = viewport;
    const ox = viewport.offsetX ?? 0;
    const oy = viewport.offsetY ?? 0;
    ctx.clearRect(0, 0, viewport.width, viewport.height);
    ctx.shadowBlur = 0;
    ctx.setLineDash(NO_DASH);

    for (const b of this.solidList) b.count = 0;
    for (const b of this.dashedList) b.count = 0;
    for (const b of this.thinList) b.count = 0;
    let selectedCount = 0;
    let markCount = 0;
    let labelCount = 0;
    const labels = this.showLabels && ctx.fillText !== undefined && ctx.measureText !== undefined;
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
      if (filtered) {
        this.push(this.thin, this.thinList, color, quad);
        continue;
      }
      const style = reviewStyle(det);
      const selected = model.selectedDetectionIds.has(det.id);
      if (selected) {
        this.selectedQuads[selectedCount] = quad;
        this.selectedDashed[selectedCount] = style === 'dashed';
        this.selectedColors[selectedCount++] = color;
      } else if (style === 'dashed') this.push(this.dashed, this.dashedList, color, quad);
      else this.push(this.solid, this.solidList, color, quad);
      if (style === 'marked') {
        this.markQuads[markCount] = quad;
        this.markColors[markCount++] = selected ? brighten(color, SELECTED_BRIGHTEN_PERCENT) : color;
      }
      if (labels) {
        this.labelQuads[labelCount] = quad;
        // Label priority: 0 selected, 1 unreviewed (what the reviewer decides next), 2 the rest.
        this.labelSelected[labelCount] = selected ? 0 : style === 'dashed' ? 1 : 2;
        this.labelDets[labelCount++] = det;
      }
    }

    ctx.lineWidth = LINE_WIDTH;
    this.strokeBuckets(ctx, this.solidList, scale, ox, oy);
    this.strokeDashedBuckets(ctx, scale, ox, oy);
    ctx.lineWidth = FILTERED_LINE_WIDTH;
    this.strokeBuckets(ctx, this.thinList, scale, ox, oy);

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
          this.selectedDashed[selectedCount] = true;
          this.selectedColors[selectedCount++] = color;
          continue;
        }
        ctx.lineWidth = LINE_WIDTH;
        ctx.strokeStyle = color;
        ctx.beginPath();
        this.quadPath(ctx, quad, scale, ox, oy);
        ctx.stroke();
      }
      ctx.setLineDash(NO_DASH);
    }

    // The proposed track of the Follow tool, on top of the boxes but under the selection.
    const proposal = model.proposal;
    if (proposal !== null && model.isSpanActive(proposal.time_begin, proposal.time_end)) {
      const quad = quadAt(proposal.coordinates, t);
      if (quad !== null) {
        ctx.lineWidth = LINE_WIDTH;
        ctx.strokeStyle = PROPOSAL_COLOR;
        ctx.setLineDash(PROPOSAL_DASH);
        ctx.beginPath();
        this.quadPath(ctx, quad, scale, ox, oy);
        ctx.stroke();
        ctx.setLineDash(NO_DASH);
      }
    }

    // Selected last, on top, with the glow (shadowBlur is costly, and selections are small).
    if (selectedCount > 0) {
      ctx.lineWidth = SELECTED_LINE_WIDTH;
      ctx.shadowBlur = SELECTED_GLOW_BLUR;
      for (let i = 0; i < selectedCount; i++) {
        const bright = brighten(this.selectedColors[i], SELECTED_BRIGHTEN_PERCENT);
        ctx.strokeStyle = bright;
        ctx.shadowColor = bright;
        ctx.setLineDash(this.selectedDashed[i] ? UNREVIEWED_DASH : NO_DASH);
        ctx.beginPath();
        this.quadPath(ctx, this.selectedQuads[i], scale, ox, oy);
        ctx.stroke();
      }
      ctx.shadowBlur = 0;
      ctx.setLineDash(NO_DASH);
      // Drop references so removed detections can be collected.
      for (let i = 0; i < selectedCount; i++) this.selectedQuads[i] = NO_DASH;
    }

    // Corner marks of edited and hand-drawn detections: a filled square on the first corner.
    for (let i = 0; i < markCount; i++) {
      const q = this.markQuads[i];
      ctx.fillStyle = this.markColors[i];
      const h = EDITED_MARK_PX / 2;
      ctx.fillRect(q[0] * scale + ox - h, q[1] * scale + oy - h, EDITED_MARK_PX, EDITED_MARK_PX);
      this.markQuads[i] = NO_DASH;
    }

    if (labelCount > 0) {
      // A drag preview's points may be a reused array, changed in place: lay out afresh while it lasts.
      if (preview !== null) this.prevLabel.n = -1;
      this.drawLabels(ctx, viewport, labelCount, ox, oy);
    }

    if (tools?.marquee) {
      const r = tools.marquee;
      ctx.fillStyle = this.theme.marqueeFill;
      ctx.fillRect(r.x + ox, r.y + oy, r.width, r.height);
      ctx.lineWidth = 1;
      ctx.strokeStyle = this.theme.marqueeStroke;
      ctx.setLineDash(MARQUEE_DASH);
      ctx.strokeRect(r.x + ox, r.y + oy, r.width, r.height);
      ctx.setLineDash(NO_DASH);
    }

    if (tools?.drawing) this.drawDrawing(ctx, viewport, tools.drawing, ox, oy);
  }

  /**
   * Labels: selected ones first (always placed), then unreviewed ones, then the rest, greedily where they do
   * not cover an earlier label, up to {@link MAX_LABELS}. The placement is kept while the labelled boxes, their
   * order and the view stay the same (a paused frame redrawn for hover or a tool), and each distinct label is
   * a cached bitmap copied at whole pixels.
   */
  private drawLabels(ctx: CanvasLike, viewport: Viewport, n: number, ox: number, oy: number): void {
    const { scale, width, height } = viewport;
    const layout = this.layout;
    if (!this.sameLabelFrame(n, scale, width, height, ox, oy)) {
      ctx.font = LABEL_FONT;
      layout.reset(width, height);
      for (let pass = 0; pass < 3; pass++) {
        for (let i = 0; i < n; i++) {
          if (this.labelSelected[i] !== pass) continue;
          if (pass > 0 && layout.count >= MAX_LABELS) break;
          const q = this.labelQuads[i];
          let minX = Infinity;
          let minY = Infinity;
          let maxX = -Infinity;
          let maxY = -Infinity;
          for (let k = 0; k < q.length; k += 2) {
            const x = q[k] * scale + ox;
            const y = q[k + 1] * scale + oy;
            if (x < minX) minX = x;
            if (x > maxX) maxX = x;
            if (y < minY) minY = y;
            if (y > maxY) maxY = y;
          }
          if (minX > width || minY > height || maxY < 0 || maxX < 0) continue;
          // Boxes too small to read on get no label unless selected (a 20 px box still gets one).
          if (pass > 0 && maxX - minX < MIN_LABELLED_BOX_PX && maxY - minY < MIN_LABELLED_BOX_PX) continue;
          const label = this.label(ctx, this.labelDets[i]);
          if (layout.place(i, label.width + 2 * LABEL_PAD, minX, minY, maxY, width, height, pass === 0))
            this.placedLabels[layout.count - 1] = label;
        }
      }
      this.rememberLabelFrame(n, scale, width, height, ox, oy);
    }
    const r = layout.rects;
    if (ctx.drawImage !== undefined && typeof OffscreenCanvas !== 'undefined') {
      // Each distinct label is rasterized once into a small bitmap and then only copied: shaping and
      // rasterizing a few hundred texts per frame cost more than the whole rest of the overlay.
      const whole = this.pixelRatio === 1;
      for (let j = 0; j < layout.count; j++) {
        const label = this.placedLabels[j];
        const img = label.bitmapGen === this.bitmapGen ? label.bitmap! : this.labelBitmap(label);
        if (whole) ctx.drawImage(img, r[4 * j], r[4 * j + 1]);
        else ctx.drawImage(img, r[4 * j], r[4 * j + 1], r[4 * j + 2], r[4 * j + 3]);
      }
    } else {
      ctx.font = LABEL_FONT;
      ctx.fillStyle = LABEL_BG;
      for (let j = 0; j < layout.count; j++) ctx.fillRect(r[4 * j], r[4 * j + 1], r[4 * j + 2], r[4 * j + 3]);
      ctx.fillStyle = LABEL_FG;
      ctx.textBaseline = 'middle';
      for (let j = 0; j < layout.count; j++) {
        ctx.fillText!(this.placedLabels[j].text, r[4 * j] + LABEL_PAD, r[4 * j + 1] + LABEL_HEIGHT / 2 + 0.5);
      }
    }
  }

  /** Whether the labelled boxes (same quads, detections and priorities) and the view match the last layout. */
  private sameLabelFrame(n: number, scale: number, w: number, h: number, ox: number, oy: number): boolean {
    const p = this.prevLabel;
    if (p.n !== n || p.scale !== scale || p.w !== w || p.h !== h || p.ox !== ox || p.oy !== oy) return false;
    if (p.textVersion !== this.textVersion) return false;
    for (let i = 0; i < n; i++) {
      if (
        p.quads[i] !== this.labelQuads[i] ||
        p.dets[i] !== this.labelDets[i] ||
        p.prio[i] !== this.labelSelected[i]
      )
        return false;
    }
    return true;
  }

  private rememberLabelFrame(n: number, scale: number, w: number, h: number, ox: number, oy: number): void {
    const p = this.prevLabel;
    p.n = n;
    p.scale = scale;
    p.w = w;
    p.h = h;
    p.ox = ox;
    p.oy = oy;
    p.textVersion = this.textVersion;
    for (let i = 0; i < n; i++) {
      p.quads[i] = this.labelQuads[i];
      p.dets[i] = this.labelDets[i];
      p.prio[i] = this.labelSelected[i];
    }
  }

  /**
   * The label's bitmap (background and text) at the device pixel ratio, made once per text on one reused
   * scratch canvas (a new canvas and context per label cost more than drawing it).
   */
  private labelBitmap(label: LabelEntry): ImageBitmap {
    const key = label.text;
    let img = this.bitmaps.get(key);
    if (img === undefined) {
      // Bounded: confidences make many distinct texts over a long video; start afresh rather than grow.
      if (this.bitmaps.size >= MAX_LABEL_BITMAPS) {
        for (const b of this.bitmaps.values()) b.close();
        this.bitmaps.clear();
        this.bitmapGen++;
      }
      const k = this.pixelRatio;
      const w = label.width + 2 * LABEL_PAD;
      const cw = Math.ceil(w * k);
      const ch = Math.ceil(LABEL_HEIGHT * k);
      let canvas = this.scratch;
      if (canvas === null) canvas = this.scratch = new OffscreenCanvas(cw, ch);
      else {
        // Resizing resets the context's state and clears it.
        canvas.width = cw;
        canvas.height = ch;
      }
      const c = (this.scratchCtx ??= canvas.getContext('2d')!);
      c.setTransform(k, 0, 0, k, 0, 0);
      c.fillStyle = LABEL_BG;
      c.fillRect(0, 0, w, LABEL_HEIGHT);
      c.font = LABEL_FONT;
      c.textBaseline = 'middle';
      c.fillStyle = LABEL_FG;
      c.fillText(key, LABEL_PAD, LABEL_HEIGHT / 2 + 0.5);
      // An ImageBitmap: drawing an OffscreenCanvas takes a snapshot of it on every draw.
      img = canvas.transferToImageBitmap();
      this.bitmaps.set(key, img);
    }
    label.bitmap = img;
    label.bitmapGen = this.bitmapGen;
    return img;
  }

  /** A detection's label text and width, measured once per detection object and text. */
  private label(ctx: CanvasLike, d: Detection): LabelEntry {
    let hit = this.labelCache.get(d);
    if (hit === undefined) {
      const text = this.labelText(d);
      let width = this.widthCache.get(text);
      if (width === undefined) {
        width = Math.ceil(ctx.measureText!(text).width);
        this.widthCache.set(text, width);
      }
      hit = { text, width, bitmap: null, bitmapGen: -1 };
      this.labelCache.set(d, hit);
    }
    return hit;
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

  /**
   * Unreviewed boxes. Where the context can make patterns, each is stroked solid with a pattern of diagonal
   * stripes (6 px on, 4 off along any horizontal or vertical edge): it reads as dashed, and costs a plain
   * stroke, while Skia's dash effect made a frame of ~500 boxes several times slower to rasterize. Elsewhere
   * (tests) the real dash is used.
   */
  private strokeDashedBuckets(ctx: CanvasLike, scale: number, ox: number, oy: number): void {
    const list = this.dashedList;
    if (ctx.createPattern === undefined || typeof OffscreenCanvas === 'undefined') {
      ctx.setLineDash(UNREVIEWED_DASH);
      this.strokeBuckets(ctx, list, scale, ox, oy);
      ctx.setLineDash(NO_DASH);
      return;
    }
    for (const b of list) {
      if (b.count === 0) continue;
      let pattern = this.dashPatterns.get(b.color);
      if (pattern === undefined) {
        pattern = stripePattern(ctx, b.color);
        this.dashPatterns.set(b.color, pattern);
      }
      this.strokeBucket(ctx, b, pattern, scale, ox, oy);
    }
  }

  private strokeBucket(
    ctx: CanvasLike,
    b: Bucket,
    style: string | object,
    scale: number,
    ox: number,
    oy: number,
  ): void {
    ctx.strokeStyle = style;
    for (let i = 0; i < b.count; i++) {
      ctx.beginPath();
      this.quadPath(ctx, b.quads[i], scale, ox, oy);
      ctx.stroke();
    }
    for (let i = 0; i < b.count; i++) b.quads[i] = NO_DASH;
  }

  private strokeBuckets(ctx: CanvasLike, list: Bucket[], scale: number, ox: number, oy: number): void {
    for (const b of list) {
      if (b.count === 0) continue;
      ctx.strokeStyle = b.color;
      // One small path per quad: measured faster than one many-contour path per colour in Chromium's
      // software rasterizer (Skia strokes a multi-contour path as one big outline). The colour is set once.
      for (let i = 0; i < b.count; i++) {
        ctx.beginPath();
        this.quadPath(ctx, b.quads[i], scale, ox, oy);
        ctx.stroke();
      }
      for (let i = 0; i < b.count; i++) b.quads[i] = NO_DASH;
    }
  }

  private quadPath(ctx: CanvasLike, p: ArrayLike<number>, scale: number, ox: number, oy: number): void {
    if (p.length < 4) return;
    ctx.moveTo(p[0] * scale + ox, p[1] * scale + oy);
    for (let i = 2; i < p.length; i += 2) ctx.lineTo(p[i] * scale + ox, p[i + 1] * scale + oy);
    ctx.closePath();
  }

  private drawDrawing(
    ctx: CanvasLike,
    viewport: Viewport,
    drawing: NonNullable<ToolOverlay['drawing']>,
    ox: number,
    oy: number,
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
    ctx.moveTo(pts[0].x * scale + ox, pts[0].y * scale + oy);
    for (let i = 1; i < pts.length; i++) ctx.lineTo(pts[i].x * scale + ox, pts[i].y * scale + oy);
    if (cursor) ctx.lineTo(cursor.x * scale + ox, cursor.y * scale + oy);
    // With three corners placed the pointer is the fourth: show the closed quad it would create.
    if (cursor && pts.length === 3) ctx.closePath();
    ctx.stroke();
  }
}
