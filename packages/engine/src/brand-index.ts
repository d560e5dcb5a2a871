import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { computeOrb, PATCH_SIZE } from './features.ts';
import { alphaThumb, chromaThumb, loadLogo, logoToGray } from './image-io.ts';
import { readText } from './ocr.ts';
import { inContent, markContent, plainGround, nameCorrected, textContent, uncutRegion } from './content.ts';
import { getCv } from './opencv.ts';
import type { RgbaImage } from './image-io.ts';

/**
 * Format/algorithm version of a brand index; {@link BrandIndex.version} starts with it. A stored
 * index whose version does not start with the current value must be rebuilt (re-activation).
 * orb10 (engine 0.26.0): where an example's crop cuts the next board's row above or below its
 * words, the cells its pixels are compared on (`thumbs.region`, see content.ts `uncutRegion`).
 * orb11 (engine 0.32.0): a graphic mark cut with a margin of its ground has the mark's box as its
 * `content` (see content.ts `markContent`).
 * orb12 (engine 0.33.0): a graphic mark cut as tight as itself from a plain ground is padded with
 * that ground for its keypoints (see image-io.ts `logoToGray`).
 * orb13 (engine 0.37.0): an example's lines of text are read on a bilinear strip, and again on a
 * wider one where the reading is unsure (see ocr.ts `recognize`).
 */
export const INDEX_FORMAT = 'orb13';

/** One example logo given to {@link buildBrandIndex}. */
export interface BrandExampleInput {
  /** The example's id, reported back as `exampleId` on detections it produced. */
  id: string | number;
  /** Path to a png, jpg, jpeg, svg or webp file. */
  file: string;
}

/** Per-example facts kept in the index. */
export interface IndexedExample {
  id: string | number;
  /** Size of the example's normalised raster; keypoint coordinates are in these pixels. */
  width: number;
  height: number;
  /**
   * Small grey renderings (tw x th, base64 of tw*th bytes each) used to verify a match by
   * correlation: two for cut-out logos (on light and on dark), one for opaque examples; for
   * cut-out logos also their alpha (`mask`, same grid); and the colour (`uv`: base64 of the U
   * then the V plane on the same grid, BT.601 full range as the engine decodes video); where the
   * example's crop cuts the next board's row above or below its words, the cells compared
   * (`region`, 1 = compared, same grid; see content.ts `uncutRegion`).
   */
  thumbs: { tw: number; th: number; data: string[]; mask?: string; uv?: string; region?: string };
  /**
   * The lines of text the example reads (PP-OCRv4, see ocr.ts), each with its corners in the
   * example's pixels: what the text route looks for in frames. Empty for a mark without words.
   */
  text?: ExampleText[];
  /**
   * Where the logo is inside the example when that is less than the whole image (a board's words
   * cut from footage with some of the board around them): corners in example pixels. Detections
   * report this part of the placed example. Absent: the whole example is the logo.
   */
  content?: number[];
}

/** A line of text of an example logo. */
export interface ExampleText {
  text: string;
  /** corners clockwise from the top-left along the reading direction, example pixels */
  quad: number[];
}

/**
 * A brand's matching index, built once per brand (activation) and reused by every analysis.
 * Keypoints of all examples at several scales and on light and dark backgrounds, as flat arrays.
 */
export interface BrandIndex {
  brandId: string | number;
  /** Changes whenever results could change: index format plus a hash of the example files. */
  version: string;
  /** Brand name, when known (the CLI reports it). */
  name?: string;
  examples: IndexedExample[];
  /** Number of keypoints. */
  count: number;
  /** Example index (into `examples`) per keypoint. */
  exampleOf: Uint16Array;
  /** x, y per keypoint in the example's normalised pixels. */
  xy: Float32Array;
  /** keypoint size (example pixels) and orientation (degrees) per keypoint */
  sa: Float32Array;
  /** 32-byte ORB descriptor per keypoint. */
  desc: Uint8Array;
}

/** The keypoints (example px) that lie on the example's logo part. */
function keepInside(content: number[], xy: Float32Array, sa: Float32Array, desc: Uint8Array, count: number) {
  const keep: number[] = [];
  for (let k = 0; k < count; k++) if (inContent(content, xy[k * 2], xy[k * 2 + 1])) keep.push(k);
  const out = {
    xy: new Float32Array(keep.length * 2),
    sa: new Float32Array(keep.length * 2),
    desc: new Uint8Array(keep.length * 32),
    count: keep.length,
  };
  keep.forEach((k, i) => {
    out.xy.set(xy.subarray(k * 2, k * 2 + 2), i * 2);
    out.sa.set(sa.subarray(k * 2, k * 2 + 2), i * 2);
    out.desc.set(desc.subarray(k * 32, k * 32 + 32), i * 32);
  });
  return out;
}

/** An example's verification thumbnails, decoded (see {@link IndexedExample.thumbs}). */
export function decodeThumbs(e: IndexedExample) {
  const bytes = (b64: string) => new Uint8Array(Buffer.from(b64, 'base64'));
  return {
    width: e.width,
    height: e.height,
    tw: e.thumbs.tw,
    th: e.thumbs.th,
    thumbs: e.thumbs.data.map(bytes),
    mask: e.thumbs.mask ? bytes(e.thumbs.mask) : undefined,
    uv: e.thumbs.uv ? bytes(e.thumbs.uv) : undefined,
    region: e.thumbs.region ? bytes(e.thumbs.region) : undefined,
    text: e.text ?? [],
    /** where the logo is inside the example (see {@link IndexedExample.content}) */
    content: e.content,
  };
}

/** Long side of the normalised example raster. */
const BASE = 400;
/** Scales at which the example is rendered; ORB's own pyramid fills the gaps between them. */
const SCALES = [1, 0.6, 0.36, 0.22, 0.13];
const MAX_PER_RENDER = 500;
const PAD = 32;
/** Long side of the verification thumbnails. */
const THUMB = 64;

/**
 * Builds a brand's index from its example logos. Each example is rendered at several sizes; cut-out
 * logos (with transparency) are rendered on both a light and a dark background because ORB's
 * binary tests depend on the logo/background contrast polarity, which the scene decides.
 */
export async function buildBrandIndex(
  brand: { id: string | number; name: string; examples: BrandExampleInput[] },
  opts: { onProgress?: (done: number, total: number) => void; signal?: AbortSignal } = {},
): Promise<BrandIndex> {
  const cv = await getCv();
  const hash = createHash('sha256').update(INDEX_FORMAT);
  const examples: IndexedExample[] = [];
  const parts: { ex: number; xy: Float32Array; sa: Float32Array; desc: Uint8Array; count: number }[] = [];
  const total = brand.examples.length;
  opts.onProgress?.(0, total);
  for (const [i, example] of brand.examples.entries()) {
    opts.signal?.throwIfAborted();
    hash.update(String(example.id)).update(await readFile(example.file));
    let logo;
    try {
      logo = await loadLogo(example.file, BASE);
    } catch (err) {
      throw new Error(`cannot read example logo ${example.file}: ${(err as Error).message}`);
    }
    const exIdx = examples.length;
    const backgrounds = logo.hasAlpha ? [235, 20] : [null];
    const ts = THUMB / Math.max(logo.width, logo.height);
    const thumbs: IndexedExample['thumbs'] = {
      tw: Math.max(4, Math.round(logo.width * ts)),
      th: Math.max(4, Math.round(logo.height * ts)),
      data: [],
    };
    for (const bg of backgrounds) {
      const g = await logoToGray(logo, ts, bg, 0);
      thumbs.tw = g.width;
      thumbs.th = g.height;
      thumbs.data.push(Buffer.from(g.data).toString('base64'));
    }
    thumbs.uv = Buffer.from(await chromaThumb(logo, thumbs.tw, thumbs.th)).toString('base64');
    if (logo.hasAlpha)
      thumbs.mask = Buffer.from(await alphaThumb(logo, thumbs.tw, thumbs.th)).toString('base64');
    const read = await exampleText(logo);
    const words = textContent(logo, read, brand.name);
    const region = words ? uncutRegion(logo, read, thumbs.tw, thumbs.th) : undefined;
    // an example with words that are not its logo alone (a badge, a stacked wordmark) is a designed
    // logo: the whole image (see textContent); one without words may be a mark cut with its ground
    const content = words ?? (read.length === 0 ? markContent(logo) : undefined);
    // a mark without words cut as tight as itself from a plain ground (a photo's shoe, shirt or
    // box; the mark reaches the border, so no mark is found inside a margin) is padded with that
    // ground for its keypoints, as the scene goes on round it there (see logoToGray); with a margin
    // of ground, the border's pixels repeated are that ground already
    const ground = read.length === 0 && !content ? plainGround(logo)?.colour : undefined;
    if (region) thumbs.region = Buffer.from(region).toString('base64');
    // Where the logo is a part of the example, the rest (the next board's words) is not looked for:
    // neither its lines by the text route nor its keypoints. A line that nearly reads the brand's
    // name is also looked for as the name (see nameCorrected), beside what OCR read: frames of the
    // same board may be misread as the example was.
    const text = (
      content
        ? read.filter((l) => inContent(content, (l.quad[0] + l.quad[4]) / 2, (l.quad[1] + l.quad[5]) / 2))
        : read
    ).flatMap((l) => {
      const named = nameCorrected(l.text, brand.name);
      return named === l.text ? [l] : [l, { ...l, text: named }];
    });
    examples.push({ id: example.id, width: logo.width, height: logo.height, thumbs, text, content });
    for (const bg of backgrounds) {
      for (const s of SCALES) {
        if (Math.max(logo.width, logo.height) * s < 32) continue;
        const gray = await logoToGray(logo, s, bg, PAD, ground);
        const f = computeOrb(cv, gray, {
          maxFeatures: MAX_PER_RENDER,
          nLevels: 3,
          scaleFactor: 1.2,
          patchSize: PATCH_SIZE,
        });
        const sx = logo.width / (gray.width - 2 * PAD);
        const sy = logo.height / (gray.height - 2 * PAD);
        const xy = new Float32Array(f.count * 2);
        const sa = new Float32Array(f.count * 2);
        for (let k = 0; k < f.count; k++) {
          // pixel-centre convention on both sides of the resize
          xy[k * 2] = (f.xy[k * 2] - PAD + 0.5) * sx - 0.5;
          xy[k * 2 + 1] = (f.xy[k * 2 + 1] - PAD + 0.5) * sy - 0.5;
          sa[k * 2] = f.size[k] * sx;
          sa[k * 2 + 1] = f.angle[k];
        }
        const kept = content
          ? keepInside(content, xy, sa, f.desc, f.count)
          : { xy, sa, desc: f.desc, count: f.count };
        parts.push({ ex: exIdx, ...kept });
      }
    }
    opts.onProgress?.(i + 1, total);
  }
  const count = parts.reduce((n, p) => n + p.count, 0);
  const exampleOf = new Uint16Array(count);
  const xy = new Float32Array(count * 2);
  const sa = new Float32Array(count * 2);
  const desc = new Uint8Array(count * 32);
  let o = 0;
  for (const p of parts) {
    exampleOf.fill(p.ex, o, o + p.count);
    xy.set(p.xy, o * 2);
    sa.set(p.sa, o * 2);
    desc.set(p.desc, o * 32);
    o += p.count;
  }
  return {
    brandId: brand.id,
    name: brand.name,
    version: `${INDEX_FORMAT}-${hash.digest('hex').slice(0, 16)}`,
    examples,
    count,
    exampleOf,
    xy,
    sa,
    desc,
  };
}

/** Lines shorter than this (normalised characters) say too little to find a logo by. */
const MIN_TEXT = 3;

/**
 * The text lines of an example: read on the logo as it is, or for a cut-out logo on a light and
 * then on a dark ground (its letters may be either); the reading with more characters wins.
 */
async function exampleText(logo: RgbaImage): Promise<ExampleText[]> {
  // A tight crop leaves the letters touching the border, where DBNet does not see lines: read
  // the example on a margin of its own ground (its border pixels, stretched outwards).
  const pad = Math.round(0.2 * Math.max(logo.width, logo.height));
  const W = logo.width + 2 * pad;
  const H = logo.height + 2 * pad;
  let best: ExampleText[] = [];
  for (const bg of logo.hasAlpha ? [255, 0] : [255]) {
    const rgb = new Uint8Array(W * H * 3);
    for (let y = 0; y < H; y++) {
      const sy = Math.min(logo.height - 1, Math.max(0, y - pad));
      for (let x = 0; x < W; x++) {
        const sx = Math.min(logo.width - 1, Math.max(0, x - pad));
        const i = sy * logo.width + sx;
        const a = logo.data[i * 4 + 3] / 255;
        for (let c = 0; c < 3; c++)
          rgb[(y * W + x) * 3 + c] = Math.round(logo.data[i * 4 + c] * a + bg * (1 - a));
      }
    }
    const lines = (await readText({ width: W, height: H, data: rgb }, { maxSide: 640 }))
      .filter((l) => l.confidence >= 0.6 && l.text.replace(/[^\p{L}\p{N}]/gu, '').length >= MIN_TEXT)
      .map((l) => ({ text: l.text, quad: l.quad.map((v) => Math.round((v - pad) * 10) / 10) }));
    const chars = (ls: ExampleText[]) => ls.reduce((n, l) => n + l.text.length, 0);
    if (chars(lines) > chars(best)) best = lines;
  }
  return best;
}

const MAGIC = 'LGIX';

/** Serialises an index to a compact binary buffer (JSON header + raw typed arrays). */
export function serializeBrandIndex(index: BrandIndex): Buffer {
  const header = Buffer.from(
    JSON.stringify({
      brandId: index.brandId,
      version: index.version,
      name: index.name,
      examples: index.examples,
      count: index.count,
    }),
  );
  const head = Buffer.alloc(8);
  head.write(MAGIC, 0, 'ascii');
  head.writeUInt32LE(header.length, 4);
  return Buffer.concat([
    head,
    header,
    Buffer.from(index.exampleOf.buffer, index.exampleOf.byteOffset, index.exampleOf.byteLength),
    Buffer.from(index.xy.buffer, index.xy.byteOffset, index.xy.byteLength),
    Buffer.from(index.sa.buffer, index.sa.byteOffset, index.sa.byteLength),
    Buffer.from(index.desc.buffer, index.desc.byteOffset, index.desc.byteLength),
  ]);
}

/** Reads a buffer written by {@link serializeBrandIndex}; throws a readable Error if it is not one. */
export function deserializeBrandIndex(buf: Buffer): BrandIndex {
  if (buf.length < 8 || buf.toString('ascii', 0, 4) !== MAGIC) throw new Error('not a brand index buffer');
  const hl = buf.readUInt32LE(4);
  const h = JSON.parse(buf.toString('utf8', 8, 8 + hl)) as Omit<
    BrandIndex,
    'exampleOf' | 'xy' | 'sa' | 'desc'
  >;
  const n = h.count;
  let o = 8 + hl;
  if (buf.length !== o + n * 2 + n * 16 + n * 32)
    throw new Error('brand index buffer is truncated or corrupt');
  // Copy into fresh, aligned arrays: a Buffer slice may sit at an odd offset in a shared pool.
  const exampleOf = new Uint16Array(n);
  new Uint8Array(exampleOf.buffer).set(buf.subarray(o, o + n * 2));
  o += n * 2;
  const xy = new Float32Array(n * 2);
  new Uint8Array(xy.buffer).set(buf.subarray(o, o + n * 8));
  o += n * 8;
  const sa = new Float32Array(n * 2);
  new Uint8Array(sa.buffer).set(buf.subarray(o, o + n * 8));
  o += n * 8;
  const desc = new Uint8Array(buf.subarray(o, o + n * 32));
  return { ...h, exampleOf, xy, sa, desc };
}
