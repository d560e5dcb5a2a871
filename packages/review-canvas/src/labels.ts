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

  reset(): void {
    this.count = 0;
  }

  private free(x: number, y: number, w: number, h: number): boolean {
    const r = this.rects;
    for (let i = 0; i < this.count; i++) {
      const k = 4 * i;
      if (x < r[k] + r[k + 2] && x + w > r[k] && y < r[k + 1] + r[k + 3] && y + h > r[k + 1]) return false;
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
    const x = Math.max(0, Math.min(vw - w, minX));
    let y = minY - h - 1;
    if (y < 0 || !this.free(x, y, w, h)) {
      y = maxY + 1;
      if (y + h > vh || !this.free(x, y, w, h)) {
        y = Math.max(0, minY + 1);
        if (!force && !this.free(x, y, w, h)) return false;
      }
    }
    const k = 4 * this.count;
    this.rects[k] = x;
    this.rects[k + 1] = y;
    this.rects[k + 2] = w;
    this.rects[k + 3] = h;
    this.items[this.count++] = item;
    return true;
  }
}
