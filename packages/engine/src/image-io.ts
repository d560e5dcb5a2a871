import sharp from 'sharp';
import { extname } from 'node:path';
import { chromaPlane, type GrayImage } from './features.ts';

/** File extensions accepted as example logos and as still images. */
export const IMAGE_EXTENSIONS = ['.png', '.jpg', '.jpeg', '.svg', '.webp'];

export function isImageFile(file: string): boolean {
  return IMAGE_EXTENSIONS.includes(extname(file).toLowerCase());
}

/** RGBA raster. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Buffer;
  /** true when some pixel is not fully opaque (a cut-out logo). */
  hasAlpha: boolean;
}

/**
 * Loads an example logo as RGBA with its long side near `longSide`. SVGs are rasterised at a
 * density that gives that size directly (no blurry upscaling); transparent margins are trimmed so
 * that the logo's rectangle is the quad reported later.
 */
export async function loadLogo(file: string, longSide: number): Promise<RgbaImage> {
  const isSvg = extname(file).toLowerCase() === '.svg';
  let input = sharp(file, { failOn: 'error' });
  if (isSvg) {
    const meta = await input.metadata();
    const base = Math.max(meta.width ?? 24, meta.height ?? 24);
    const density = Math.min(72 * ((longSide * 1.5) / base), 20000);
    input = sharp(file, { density });
  }
  let { data, info } = await input.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  let hasAlpha = false;
  for (let i = 3; i < data.length; i += 4) {
    if (data[i] < 250) {
      hasAlpha = true;
      break;
    }
  }
  if (hasAlpha) {
    const box = alphaBox(data, info.width, info.height);
    if (!box) throw new Error(`example logo ${file} is fully transparent`);
    ({ data, info } = await sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } })
      .extract(box)
      .raw()
      .toBuffer({ resolveWithObject: true }));
  }
  const scale = longSide / Math.max(info.width, info.height);
  const width = Math.max(1, Math.round(info.width * scale));
  const height = Math.max(1, Math.round(info.height * scale));
  const out = await sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } })
    .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer();
  return { width, height, data: out, hasAlpha };
}

function alphaBox(data: Buffer, w: number, h: number) {
  let x0 = w;
  let y0 = h;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (data[(y * w + x) * 4 + 3] > 16) {
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
    }
  }
  if (x1 < 0) return null;
  return { left: x0, top: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 };
}

/**
 * Flattens an RGBA logo onto a plain background, scales it and pads it so that ORB (which ignores
 * a border of patch-size pixels) still finds the keypoints on the logo's outline. A cut-out is
 * padded with its background; an opaque example with the colour of the `ground` it was cut from
 * where it shows one (a mark cut from a photo: the ground goes on round it there), else with its
 * edge's pixels repeated (words cut from a board, which goes on round them with more of itself).
 */
export async function logoToGray(
  logo: RgbaImage,
  scale: number,
  background: number | null,
  pad: number,
  ground?: readonly [number, number, number],
): Promise<GrayImage & { scale: number }> {
  const width = Math.max(8, Math.round(logo.width * scale));
  const height = Math.max(8, Math.round(logo.height * scale));
  const bg = background ?? 128;
  let img = sharp(logo.data, { raw: { width: logo.width, height: logo.height, channels: 4 } })
    .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
    .flatten({ background: { r: bg, g: bg, b: bg } });
  img = sharp(await img.raw().toBuffer(), { raw: { width, height, channels: 3 } }).extend({
    top: pad,
    bottom: pad,
    left: pad,
    right: pad,
    ...(background !== null
      ? { background: { r: bg, g: bg, b: bg } }
      : ground
        ? { background: { r: ground[0], g: ground[1], b: ground[2] } }
        : { extendWith: 'copy' as const }),
  });
  const data = await img.greyscale().raw().toBuffer();
  return { width: width + 2 * pad, height: height + 2 * pad, data: new Uint8Array(data), scale };
}

/** Loads any still image (png/jpg/webp/svg) as grey, downscaled to at most `maxSide`. */
export async function loadGray(
  file: string,
  maxSide: number,
): Promise<GrayImage & { originalWidth: number; originalHeight: number }> {
  let rgb;
  try {
    rgb = await sharp(file, { failOn: 'error' })
      .rotate()
      .flatten({ background: '#808080' })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (err) {
    throw new Error(`not a readable image: ${file} (${(err as Error).message})`);
  }
  const raw = { width: rgb.info.width, height: rgb.info.height, channels: rgb.info.channels };
  const meta = await sharp(rgb.data, { raw }).greyscale().raw().toBuffer({ resolveWithObject: true });
  const ow = meta.info.width;
  const oh = meta.info.height;
  const scale = Math.min(1, maxSide / Math.max(ow, oh));
  const { data, info } = await sharp(meta.data, {
    raw: { width: ow, height: oh, channels: meta.info.channels },
  })
    .resize(Math.round(ow * scale), Math.round(oh * scale), { fit: 'fill' })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 1) throw new Error(`unexpected channel count ${info.channels}`);
  const { cw, ch } = chromaPlane(info.width, info.height);
  const colour = await sharp(rgb.data, { raw })
    .resize(cw, ch, { fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    data: new Uint8Array(data.buffer, data.byteOffset, info.width * info.height),
    uv: rgbToUv(colour.data, colour.info.channels, cw * ch),
    originalWidth: ow,
    originalHeight: oh,
  };
}

/**
 * BT.601 chroma, full range (as the engine has ffmpeg decode video frames), of interleaved
 * pixels: U then V, one byte per pixel each.
 */
export function rgbToUv(rgb: Uint8Array, channels: number, pixels: number): Uint8Array {
  const out = new Uint8Array(pixels * 2);
  for (let i = 0; i < pixels; i++) {
    const r = rgb[i * channels];
    const g = rgb[i * channels + 1];
    const b = rgb[i * channels + 2];
    const y = 0.299 * r + 0.587 * g + 0.114 * b;
    out[i] = Math.max(0, Math.min(255, Math.round(128 + 0.564 * (b - y))));
    out[pixels + i] = Math.max(0, Math.min(255, Math.round(128 + 0.713 * (r - y))));
  }
  return out;
}

/** The logo's colour on a w x h grid: U then V (see {@link rgbToUv}). */
export async function chromaThumb(logo: RgbaImage, w: number, h: number): Promise<Uint8Array> {
  const data = await sharp(logo.data, { raw: { width: logo.width, height: logo.height, channels: 4 } })
    .resize(w, h, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer();
  return rgbToUv(data, 4, w * h);
}

/** The logo's alpha channel resized to w x h (255 = logo, 0 = transparent). */
export async function alphaThumb(logo: RgbaImage, w: number, h: number): Promise<Uint8Array> {
  const data = await sharp(logo.data, { raw: { width: logo.width, height: logo.height, channels: 4 } })
    .resize(w, h, { fit: 'fill', kernel: 'lanczos3' })
    .extractChannel(3)
    .raw()
    .toBuffer();
  return new Uint8Array(data);
}
