/**
 * Drawing on raw yuv420p frames (the layout ffmpeg writes with `-f rawvideo -pix_fmt yuv420p`).
 *
 * The render draws in the encoder's own pixel format so that frames cross the pipes at 1.5 bytes
 * per pixel and neither ffmpeg process has to convert colours.
 */

/** A colour as limited-range Y, Cb, Cr. */
export interface YuvColor {
  y: number;
  u: number;
  v: number;
}

export type ColorMatrix = 'bt601' | 'bt709';

/** '#rrggbb' (or '#rgb') to limited-range YCbCr with the given matrix; unparsable colours are red. */
export function hexToYuv(hex: string, matrix: ColorMatrix): YuvColor {
  const [r, g, b] = parseHex(hex);
  return rgbToYuv(r, g, b, matrix);
}

export function parseHex(hex: string): [number, number, number] {
  let h = hex.trim().replace(/^#/, '');
  if (/^[0-9a-f]{3}$/i.test(h)) h = h.replace(/./g, (c) => c + c);
  if (!/^[0-9a-f]{6}$/i.test(h)) return [255, 0, 0];
  return [parseInt(h.slice(0, 2), 16), parseInt(h.slice(2, 4), 16), parseInt(h.slice(4, 6), 16)];
}

export function rgbToYuv(r8: number, g8: number, b8: number, matrix: ColorMatrix): YuvColor {
  const r = r8 / 255;
  const g = g8 / 255;
  const b = b8 / 255;
  const c =
    matrix === 'bt709'
      ? [46.559, 156.629, 15.812, -25.664, -86.336, 112, 112, -101.73, -10.27]
      : [65.481, 128.553, 24.966, -37.797, -74.203, 112, 112, -93.786, -18.214];
  return {
    y: clampByte(16 + c[0] * r + c[1] * g + c[2] * b),
    u: clampByte(128 + c[3] * r + c[4] * g + c[5] * b),
    v: clampByte(128 + c[6] * r + c[7] * g + c[8] * b),
  };
}

function clampByte(x: number): number {
  return Math.max(0, Math.min(255, Math.round(x)));
}

/** A bitmap with alpha, already in YUV: Y and alpha per pixel, U/V per 2x2 block. */
export interface YuvaBitmap {
  width: number;
  height: number;
  y: Uint8Array;
  a: Uint8Array;
  /** ceil(width/2) x ceil(height/2), premultiplied-free chroma and the block's mean alpha. */
  u: Uint8Array;
  v: Uint8Array;
  ca: Uint8Array;
}

/** A view of one yuv420p frame in a buffer. */
export class YuvFrame {
  readonly chromaWidth: number;
  readonly chromaHeight: number;
  readonly uOffset: number;
  readonly vOffset: number;
  readonly byteLength: number;

  constructor(
    readonly width: number,
    readonly height: number,
    public data: Uint8Array = new Uint8Array(0),
  ) {
    this.chromaWidth = (width + 1) >> 1;
    this.chromaHeight = (height + 1) >> 1;
    this.uOffset = width * height;
    this.vOffset = this.uOffset + this.chromaWidth * this.chromaHeight;
    this.byteLength = this.vOffset + this.chromaWidth * this.chromaHeight;
  }

  /** Sets one pixel's luma and its 2x2 block's chroma. */
  private plot(x: number, y: number, color: YuvColor): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const d = this.data;
    d[y * this.width + x] = color.y;
    const ci = (y >> 1) * this.chromaWidth + (x >> 1);
    d[this.uOffset + ci] = color.u;
    d[this.vOffset + ci] = color.v;
  }

  /**
   * A line `thickness` pixels wide: walks the major axis one pixel at a time and fills a short span
   * across it, which is all a 3 px outline needs and costs a few hundred writes per edge.
   */
  line(x0: number, y0: number, x1: number, y1: number, thickness: number, color: YuvColor): void {
    const dx = x1 - x0;
    const dy = y1 - y0;
    const steps = Math.max(Math.abs(dx), Math.abs(dy));
    const alongX = Math.abs(dx) >= Math.abs(dy);
    const lo = -Math.floor((thickness - 1) / 2);
    const hi = lo + thickness - 1;
    const n = Math.max(1, Math.ceil(steps));
    for (let i = 0; i <= n; i++) {
      const t = i / n;
      const px = Math.round(x0 + dx * t);
      const py = Math.round(y0 + dy * t);
      for (let k = lo; k <= hi; k++) {
        if (alongX) this.plot(px, py + k, color);
        else this.plot(px + k, py, color);
      }
    }
    // Square caps so that corners of a polygon close without notches.
    for (let ky = lo; ky <= hi; ky++) {
      for (let kx = lo; kx <= hi; kx++) {
        this.plot(Math.round(x0) + kx, Math.round(y0) + ky, color);
        this.plot(Math.round(x1) + kx, Math.round(y1) + ky, color);
      }
    }
  }

  /** Closed polygon outline through the x/y pairs of `points`. */
  polygon(points: readonly number[], thickness: number, color: YuvColor): void {
    const n = points.length >> 1;
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      this.line(points[2 * i], points[2 * i + 1], points[2 * j], points[2 * j + 1], thickness, color);
    }
  }

  /** Alpha-blends a bitmap with its top-left corner at (left, top); parts off the frame are cut. */
  blit(bitmap: YuvaBitmap, left: number, top: number): void {
    const d = this.data;
    const x0 = Math.max(0, left);
    const y0 = Math.max(0, top);
    const x1 = Math.min(this.width, left + bitmap.width);
    const y1 = Math.min(this.height, top + bitmap.height);
    for (let y = y0; y < y1; y++) {
      const row = (y - top) * bitmap.width;
      const out = y * this.width;
      for (let x = x0; x < x1; x++) {
        const i = row + (x - left);
        const a = bitmap.a[i];
        if (a === 0) continue;
        d[out + x] = a === 255 ? bitmap.y[i] : (bitmap.y[i] * a + d[out + x] * (255 - a) + 127) / 255;
      }
    }
    // Chroma blocks: the bitmap is placed on even coordinates (see alignment in callers) so its
    // 2x2 blocks coincide with the frame's.
    const cLeft = left >> 1;
    const cTop = top >> 1;
    const cw = (bitmap.width + 1) >> 1;
    const ch = (bitmap.height + 1) >> 1;
    const cx0 = Math.max(0, cLeft);
    const cy0 = Math.max(0, cTop);
    const cx1 = Math.min(this.chromaWidth, cLeft + cw);
    const cy1 = Math.min(this.chromaHeight, cTop + ch);
    for (let y = cy0; y < cy1; y++) {
      const row = (y - cTop) * cw;
      const out = y * this.chromaWidth;
      for (let x = cx0; x < cx1; x++) {
        const i = row + (x - cLeft);
        const a = bitmap.ca[i];
        if (a === 0) continue;
        const u = this.uOffset + out + x;
        const v = this.vOffset + out + x;
        d[u] = (bitmap.u[i] * a + d[u] * (255 - a) + 127) / 255;
        d[v] = (bitmap.v[i] * a + d[v] * (255 - a) + 127) / 255;
      }
    }
  }
}

/** Converts straight-alpha RGBA pixels to a YuvaBitmap. */
export function rgbaToYuva(rgba: Uint8Array, width: number, height: number, matrix: ColorMatrix): YuvaBitmap {
  const cw = (width + 1) >> 1;
  const ch = (height + 1) >> 1;
  const bitmap: YuvaBitmap = {
    width,
    height,
    y: new Uint8Array(width * height),
    a: new Uint8Array(width * height),
    u: new Uint8Array(cw * ch),
    v: new Uint8Array(cw * ch),
    ca: new Uint8Array(cw * ch),
  };
  const su = new Float64Array(cw * ch);
  const sv = new Float64Array(cw * ch);
  const sa = new Float64Array(cw * ch);
  const count = new Uint8Array(cw * ch);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = (y * width + x) * 4;
      const a = rgba[p + 3];
      const c = rgbToYuv(rgba[p], rgba[p + 1], rgba[p + 2], matrix);
      bitmap.y[y * width + x] = c.y;
      bitmap.a[y * width + x] = a;
      const ci = (y >> 1) * cw + (x >> 1);
      // Alpha-weighted chroma, so transparent pixels do not tint the block.
      su[ci] += c.u * a;
      sv[ci] += c.v * a;
      sa[ci] += a;
      count[ci]++;
    }
  }
  for (let i = 0; i < cw * ch; i++) {
    bitmap.u[i] = sa[i] > 0 ? Math.round(su[i] / sa[i]) : 128;
    bitmap.v[i] = sa[i] > 0 ? Math.round(sv[i] / sa[i]) : 128;
    bitmap.ca[i] = count[i] > 0 ? Math.round(sa[i] / count[i]) : 0;
  }
  return bitmap;
}
