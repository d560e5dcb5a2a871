import { renderGlyphs, renderLabel, type GlyphSet } from './label-bitmaps.ts';
import { hexToYuv, type ColorMatrix, type YuvaBitmap, type YuvColor, type YuvFrame } from './yuv-frame.ts';

/** A detection to burn into the footage. Points are in source video pixels, times in ms. */
export interface RenderDetection {
  brandName: string;
  /** '#rrggbb', the placement's colour. */
  color: string;
  time_begin: number;
  time_end: number;
  coordinates: { start_time: number; end_time: number; points: number[] }[];
}

export interface OverlayOptions {
  /** Output frame size and the factors from source pixels to output pixels. */
  width: number;
  height: number;
  scaleX: number;
  scaleY: number;
  fps: number;
  matrix: ColorMatrix;
  lineWidth?: number;
}

interface PreparedDetection {
  begin: number;
  end: number;
  color: YuvColor;
  label: YuvaBitmap;
  /** Segments sorted by start, points already scaled to the output. */
  segments: { start: number; points: number[] }[];
  /** Index of the segment in use; only moves forward because frames come in time order. */
  cursor: number;
}

const TIMECODE_CHARS = '0123456789:';

/**
 * Draws the detections active at each frame (quad outline, brand label) and a timecode.
 * Frames must be drawn in increasing order: active detections are found by a sweep over the
 * detections sorted by start, so a frame costs only what is on screen, however long the list.
 */
export class DetectionOverlay {
  private next = 0;
  private active: PreparedDetection[] = [];

  private constructor(
    private readonly options: OverlayOptions,
    private readonly sorted: PreparedDetection[],
    private readonly glyphs: GlyphSet,
  ) {}

  static async create(
    detections: readonly RenderDetection[],
    options: OverlayOptions,
  ): Promise<DetectionOverlay> {
    const labelPx = Math.max(12, Math.round(options.height / 36));
    const labels = new Map<string, Promise<YuvaBitmap>>();
    const labelFor = (name: string, color: string) => {
      const key = `${color}\u0000${name}`;
      let label = labels.get(key);
      if (!label) {
        label = renderLabel(name, color, labelPx, options.matrix);
        labels.set(key, label);
      }
      return label;
    };
    const prepared = await Promise.all(
      detections
        .filter((d) => d.coordinates.length > 0 && d.time_end >= d.time_begin)
        .map(async (d) => ({
          begin: d.time_begin,
          end: d.time_end,
          color: hexToYuv(d.color, options.matrix),
          label: await labelFor(d.brandName, d.color),
          segments: [...d.coordinates]
            .sort((a, b) => a.start_time - b.start_time)
            .map((s) => ({
              start: s.start_time,
              points: s.points.map((v, i) => v * (i % 2 === 0 ? options.scaleX : options.scaleY)),
            })),
          cursor: 0,
        })),
    );
    prepared.sort((a, b) => a.begin - b.begin);
    const glyphs = await renderGlyphs(
      TIMECODE_CHARS,
      Math.max(10, Math.round(options.height / 45)),
      options.matrix,
    );
    return new DetectionOverlay(options, prepared, glyphs);
  }

  /** Draws frame number `index` (0-based, at index / fps seconds). */
  draw(frame: YuvFrame, index: number): void {
    const t = (index * 1000) / this.options.fps;
    while (this.next < this.sorted.length && this.sorted[this.next].begin <= t) {
      this.active.push(this.sorted[this.next++]);
    }
    if (this.active.length > 0) this.active = this.active.filter((d) => d.end >= t);
    const lineWidth = this.options.lineWidth ?? 3;
    // Outlines first, labels on top, so a label is never cut by another detection's edge.
    for (const d of this.active) frame.polygon(this.segmentAt(d, t), lineWidth, d.color);
    for (const d of this.active) this.drawLabel(frame, d, this.segmentAt(d, t));
    this.drawTimecode(frame, t);
  }

  /** The segment in force at t: the last one that started by then (the first before any starts). */
  private segmentAt(d: PreparedDetection, t: number): number[] {
    while (d.cursor + 1 < d.segments.length && d.segments[d.cursor + 1].start <= t) d.cursor++;
    return d.segments[d.cursor].points;
  }

  private drawLabel(frame: YuvFrame, d: PreparedDetection, points: number[]): void {
    let minX = Infinity;
    let minY = Infinity;
    let maxY = -Infinity;
    for (let i = 0; i < points.length; i += 2) {
      minX = Math.min(minX, points[i]);
      minY = Math.min(minY, points[i + 1]);
      maxY = Math.max(maxY, points[i + 1]);
    }
    const { label } = d;
    const gap = 4;
    // Above the quad when there is room, else below it; even coordinates keep chroma aligned.
    let top = minY - gap - label.height;
    if (top < 0) top = maxY + gap;
    top = clamp(Math.round(top), 0, frame.height - label.height) & ~1;
    const left = clamp(Math.round(minX), 0, frame.width - label.width) & ~1;
    frame.blit(label, left, top);
  }

  private drawTimecode(frame: YuvFrame, t: number): void {
    const { cellWidth, cellHeight, glyphs } = this.glyphs;
    const text = timecode(t, this.options.fps);
    const margin = 8;
    const top = Math.max(0, frame.height - cellHeight - margin) & ~1;
    let left = margin;
    for (const ch of text) {
      const glyph = glyphs.get(ch);
      if (glyph) frame.blit(glyph, left, top);
      left += cellWidth;
    }
  }
}

/** HH:MM:SS:FF at the video's frame rate, as the editor shows it. */
export function timecode(ms: number, fps: number): string {
  const seconds = Math.floor(ms / 1000 + 1e-9);
  const frames = Math.floor(((ms - seconds * 1000) * fps) / 1000 + 1e-6);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}:${pad(frames)}`;
}

function clamp(x: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, x));
}
