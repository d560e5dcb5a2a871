import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { halve, type GrayImage } from './features.ts';
import { ONE_THREAD } from './ocr.ts';

/**
 * The learned appearance model (tools/learned-route: recipe, data list and training script): a
 * small convolutional network maps a grey image to unit-length features every `stride` px; an
 * example fitted into a `canvas` square gives a template of the features its logo covers, and the
 * template's mean cosine with the frame's features at each place, through a learned calibration,
 * is the chance that the example stands there. Both graphs ship in `packages/engine/models` and
 * run on onnxruntime-node, one thread per caller (the engine runs one detector per core).
 */

const MODELS = join(import.meta.dirname, '../models');

interface ModelMeta {
  canvas: number;
  stride: number;
  dim: number;
}

let loaded: Promise<{
  embed: ort.InferenceSession;
  correlate: ort.InferenceSession;
  meta: ModelMeta;
}> | null = null;

function sessions() {
  loaded ??= (async () => {
    const [embed, correlate] = await Promise.all([
      ort.InferenceSession.create(join(MODELS, 'logo-embed.onnx'), ONE_THREAD),
      ort.InferenceSession.create(join(MODELS, 'logo-correlate.onnx'), ONE_THREAD),
    ]);
    const meta = JSON.parse(readFileSync(join(MODELS, 'logo-embed.json'), 'utf8')) as ModelMeta;
    return { embed, correlate, meta };
  })();
  return loaded;
}

/** The model's geometry (canvas and stride in px), once loaded. */
export async function learnedMeta(): Promise<ModelMeta> {
  return (await sessions()).meta;
}

/** Features of a grey image: `dim` channels on a grid of ceil(h / stride) x ceil(w / stride). */
export async function embed(img: GrayImage): Promise<ort.Tensor> {
  const { embed } = await sessions();
  const px = new Float32Array(img.width * img.height);
  for (let i = 0; i < px.length; i++) px[i] = img.data[i] / 255;
  const out = await embed.run({ image: new ort.Tensor('float32', px, [1, 1, img.height, img.width]) });
  return out.features;
}

/** An example's template: its canvas features on the cells its logo covers, over their count. */
export interface Template {
  /** canvas-cell features, dim x n x n, zero outside the logo */
  data: Float32Array;
  /** the example's box inside the canvas (px) */
  box: { x: number; y: number; w: number; h: number };
}

/**
 * The template of an example thumbnail (at most `canvas` px on its long side): the thumbnail is
 * centred in a mid-grey canvas, as in training, and only the cells that its box covers by at
 * least 40 % count.
 */
export async function template(thumb: GrayImage): Promise<Template> {
  const { meta } = await sessions();
  const { canvas: C, stride: S, dim } = meta;
  const s = Math.min(1, C / Math.max(thumb.width, thumb.height));
  const src = s < 1 ? resize(thumb, Math.round(thumb.width * s), Math.round(thumb.height * s)) : thumb;
  const x0 = (C - src.width) >> 1;
  const y0 = (C - src.height) >> 1;
  const data = new Uint8Array(C * C).fill(128);
  for (let y = 0; y < src.height; y++)
    data.set(src.data.subarray(y * src.width, (y + 1) * src.width), (y0 + y) * C + x0);
  const f = (await embed({ width: C, height: C, data })).data as Float32Array;
  const n = C / S;
  const mask = new Float32Array(n * n);
  let count = 0;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      const ox = Math.max(0, Math.min(x0 + src.width, (j + 1) * S) - Math.max(x0, j * S));
      const oy = Math.max(0, Math.min(y0 + src.height, (i + 1) * S) - Math.max(y0, i * S));
      if (ox * oy >= 0.4 * S * S) {
        mask[i * n + j] = 1;
        count++;
      }
    }
  if (count === 0) {
    mask[(((y0 + (src.height >> 1)) / S) | 0) * n + (((x0 + (src.width >> 1)) / S) | 0)] = 1;
    count = 1;
  }
  const out = new Float32Array(dim * n * n);
  for (let c = 0; c < dim; c++)
    for (let k = 0; k < n * n; k++) out[c * n * n + k] = (f[c * n * n + k] * mask[k]) / count;
  return { data: out, box: { x: x0, y: y0, w: src.width, h: src.height } };
}

/**
 * Scores of every template at every place of one image: (T, gh - n + 1, gw - n + 1) values in
 * 0..1, where place (i, j) puts the template's canvas at (j, i) * stride px of the image.
 */
export async function correlate(
  features: ort.Tensor,
  templates: Float32Array,
  count: number,
): Promise<{ data: Float32Array; rows: number; cols: number }> {
  const { correlate, meta } = await sessions();
  const n = meta.canvas / meta.stride;
  const out = await correlate.run({
    features,
    templates: new ort.Tensor('float32', templates, [count, meta.dim, n, n]),
  });
  const [, , rows, cols] = out.scores.dims;
  return { data: out.scores.data as Float32Array, rows, cols };
}

/** Bilinear resize, halving first while the target is under half the size (no aliasing). */
export function resize(img: GrayImage, w: number, h: number): GrayImage {
  let src = img;
  while (src.width >= 2 * w && src.height >= 2 * h && src.width > 1 && src.height > 1) src = halve(src);
  if (src.width === w && src.height === h) return src;
  const out = new Uint8Array(w * h);
  const sx = src.width / w;
  const sy = src.height / h;
  for (let y = 0; y < h; y++) {
    const fy = Math.max(0, Math.min(src.height - 1, (y + 0.5) * sy - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(src.height - 1, y0 + 1);
    const ty = fy - y0;
    for (let x = 0; x < w; x++) {
      const fx = Math.max(0, Math.min(src.width - 1, (x + 0.5) * sx - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(src.width - 1, x0 + 1);
      const tx = fx - x0;
      const a = src.data[y0 * src.width + x0] * (1 - tx) + src.data[y0 * src.width + x1] * tx;
      const b = src.data[y1 * src.width + x0] * (1 - tx) + src.data[y1 * src.width + x1] * tx;
      out[y * w + x] = Math.round(a * (1 - ty) + b * ty);
    }
  }
  return { width: w, height: h, data: out };
}
