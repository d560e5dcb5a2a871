import type { Detection } from './types.ts';

/** Label font: 11 px bold reads on a 20 px box without covering it (the label sits outside the box). */
export const LABEL_FONT = '600 11px system-ui, "DejaVu Sans", sans-serif';
/** Label box height and inner horizontal padding (display px). */
export const LABEL_HEIGHT = 14;
export const LABEL_PAD = 3;

/** The default label: the brand id, and the engine's confidence in percent. The shell passes brand names. */
export function defaultLabelText(d: Detection, brandName: (id: number) => string = (id) => `#${id}`): string {
  const name = brandName(d.brand);
  return d.confidence != null ? `${name} ${Math.round(d.confidence * 100)}%` : name;
}

/**
 * Greedy non-overlapping label placement, reused between frames (no allocation per frame). Each label tries
 * above its box, then below it, then inside its top edge; the first spot free of earlier labels wins. A label
 * with no free spot is dropped unless `force` (the selection's labels are always shown).
 */
export class LabelLayout {
  /** Placed rectangles, 4 numbers each (x, y, w, h). */
  readonly rects: number[] = [];
  /** Index of the label text per placed rectangle. */
  readonly items: number[] = [];
  count = 0;
  // A coarse grid of the placed rectangles, so a check looks at a few neighbours rather than every label
  // (hundreds of boxes per frame). Cells are emptied lazily by frame stamp: nothing is allocated per frame.
  private cols = 1;
  private rows = 1;
  private cells: number[][] = [[]];
  private cellStamp: number[] = [0];
  private stamp = 0;

  /** Starts a frame for a viewport of `vw` x `vh` display pixels. */
  reset(vw = 0, vh = 0): void {
    this.count = 0;
    this.stamp++;
    const cols = Math.max(1, Math.ceil(vw / CELL_W));
    const rows = Math.max(1, Math.ceil(vh / CELL_H));
    if (cols !== this.cols || rows !== this.rows) {
      this.cols = cols;
      this.rows = rows;
      this.cells = Array.from({ length: cols * rows }, () => []);
      this.cellStamp = new Array<number>(cols * rows).fill(0);
    }
  }

  // The cell range of the last cellRange() call (fields, not a returned tuple: no allocation per check).
  private c0 = 0;
  private c1 = 0;
  private r0 = 0;
  private r1 = 0;

  private cellRange(x: number, y: number, w: number, h: number): void {
    this.c0 = Math.max(0, Math.min(this.cols - 1, Math.floor(x / CELL_W)));
    this.c1 = Math.max(0, Math.min(this.cols - 1, Math.floor((x + w) / CELL_W)));
    this.r0 = Math.max(0, Math.min(this.rows - 1, Math.floor(y / CELL_H)));
    this.r1 = Math.max(0, Math.min(this.rows - 1, Math.floor((y + h) / CELL_H)));
  }

  private free(x: number, y: number, w: number, h: number): boolean {
    const r = this.rects;
    this.cellRange(x, y, w, h);
    for (let row = this.r0; row <= this.r1; row++) {
      for (let col = this.c0; col <= this.c1; col++) {
        const i = row * this.cols + col;
        if (this.cellStamp[i] !== this.stamp) continue;
        const cell = this.cells[i];
        for (let n = 0; n < cell.length; n++) {
          const k = 4 * cell[n];
          if (x < r[k] + r[k + 2] && x + w > r[k] && y < r[k + 1] + r[k + 3] && y + h > r[k + 1])
            return false;
        }
      }
    }
    return true;
  }

  /**
   * Places a label of width `w` for a box whose screen bounds are (minX, minY)-(maxX, maxY), inside a
   * viewport `vw` x `vh`. Returns false when it was dropped.
   */
  place(
    item: number,
    w: number,
    minX: number,
    minY: number,
    maxY: number,
    vw: number,
    vh: number,
    force: boolean,
  ): boolean {
    const h = LABEL_HEIGHT;
    // Whole pixels: a label bitmap copied at an integer offset is a plain blit, with no resampling.
    const x = Math.round(Math.max(0, Math.min(vw - w, minX)));
    minY = Math.round(minY);
    maxY = Math.round(maxY);
    let y = minY - h - 1;
    if (y < 0 || !this.free(x, y, w, h)) {
      y = maxY + 1;
      if (y + h > vh || !this.free(x, y, w, h)) {
        y = Math.max(0, minY + 1);
        if (!force && !this.free(x, y, w, h)) return false;
      }
    }
    const idx = this.count++;
    const k = 4 * idx;
    this.rects[k] = x;
    this.rects[k + 1] = y;
    this.rects[k + 2] = w;
    this.rects[k + 3] = h;
    this.items[idx] = item;
    this.cellRange(x, y, w, h);
    for (let row = this.r0; row <= this.r1; row++) {
      for (let col = this.c0; col <= this.c1; col++) {
        const i = row * this.cols + col;
        if (this.cellStamp[i] !== this.stamp) {
          this.cellStamp[i] = this.stamp;
          this.cells[i].length = 0;
        }
        this.cells[i].push(idx);
      }
    }
    return true;
  }
}

/** Grid cell of the label layout (display px): about a label's size. */
const CELL_W = 64;
const CELL_H = 16;
