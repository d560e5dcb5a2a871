import type { RgbaImage } from './image-io.ts';
import type { Quad } from './geometry.ts';
import { getCv } from './opencv.ts';

/** An RGB raster (3 bytes per pixel). */
export interface RgbImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/**
 * Composites an RGBA logo into an RGB image so that its rectangle lands exactly on `quad`
 * (perspective warp with bilinear sampling, then alpha blending). Used by the tests and the
 * benchmark to make labelled inputs whose ground truth is the quad itself.
 */
export async function compositeLogo(
  dst: RgbImage,
  logo: RgbaImage,
  quad: Quad,
  opts: { opacity?: number; brightness?: number; blur?: number } = {},
): Promise<void> {
  const cv = await getCv();
  const xs = [quad[0], quad[2], quad[4], quad[6]];
  const ys = [quad[1], quad[3], quad[5], quad[7]];
  const x0 = Math.max(0, Math.floor(Math.min(...xs)) - 1);
  const y0 = Math.max(0, Math.floor(Math.min(...ys)) - 1);
  const x1 = Math.min(dst.width, Math.ceil(Math.max(...xs)) + 2);
  const y1 = Math.min(dst.height, Math.ceil(Math.max(...ys)) + 2);
  if (x1 <= x0 || y1 <= y0) return;
  const w = x1 - x0;
  const h = y1 - y0;
  // Pixel centres: the logo's outer edge is at -0.5 .. width-0.5 in OpenCV's sampling convention.
  const srcPts = cv.matFromArray(4, 1, cv.CV_32FC2, [
    -0.5,
    -0.5,
    logo.width - 0.5,
    -0.5,
    logo.width - 0.5,
    logo.height - 0.5,
    -0.5,
    logo.height - 0.5,
  ]);
  const dstPts = cv.matFromArray(4, 1, cv.CV_32FC2, [
    quad[0] - x0 - 0.5,
    quad[1] - y0 - 0.5,
    quad[2] - x0 - 0.5,
    quad[3] - y0 - 0.5,
    quad[4] - x0 - 0.5,
    quad[5] - y0 - 0.5,
    quad[6] - x0 - 0.5,
    quad[7] - y0 - 0.5,
  ]);
  const full = new cv.Mat(logo.height, logo.width, cv.CV_8UC4);
  // Premultiplied alpha, so that resampling and blur do not pull black into the logo's edge.
  const pm = Uint8Array.from(logo.data);
  for (let i = 0; i < pm.length; i += 4) {
    const a = pm[i + 3] / 255;
    pm[i] = Math.round(pm[i] * a);
    pm[i + 1] = Math.round(pm[i + 1] * a);
    pm[i + 2] = Math.round(pm[i + 2] * a);
  }
  full.data.set(pm);
  // Shrink first with area averaging: a bilinear warp straight from a large logo aliases, which
  // real cameras do not do.
  const side = Math.max(
    Math.hypot(quad[2] - quad[0], quad[3] - quad[1]),
    Math.hypot(quad[4] - quad[2], quad[5] - quad[3]),
    Math.hypot(quad[6] - quad[4], quad[7] - quad[5]),
    Math.hypot(quad[0] - quad[6], quad[1] - quad[7]),
  );
  const shrink = Math.min(1, (1.5 * side) / Math.max(logo.width, logo.height));
  const src = new cv.Mat();
  if (shrink < 1) {
    cv.resize(
      full,
      src,
      new cv.Size(
        Math.max(2, Math.round(logo.width * shrink)),
        Math.max(2, Math.round(logo.height * shrink)),
      ),
      0,
      0,
      cv.INTER_AREA,
    );
  } else full.copyTo(src);
  full.delete();
  const sw = src.cols as number;
  const sh = src.rows as number;
  srcPts.data32F.set([-0.5, -0.5, sw - 0.5, -0.5, sw - 0.5, sh - 0.5, -0.5, sh - 0.5]);
  const M = cv.getPerspectiveTransform(srcPts, dstPts);
  const out = new cv.Mat();
  try {
    cv.warpPerspective(
      src,
      out,
      M,
      new cv.Size(w, h),
      cv.INTER_LINEAR,
      cv.BORDER_CONSTANT,
      new cv.Scalar(0, 0, 0, 0),
    );
    // Optical blur after the warp (it softens the logo's edge against the scene, as a lens does).
    if (opts.blur && opts.blur > 0.2) {
      cv.GaussianBlur(out, out, new cv.Size(0, 0), opts.blur, opts.blur, cv.BORDER_CONSTANT);
    }
    const o = out.data as Uint8Array;
    const opacity = opts.opacity ?? 1;
    const bright = opts.brightness ?? 1;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const s = (y * w + x) * 4;
        const a = (o[s + 3] / 255) * opacity;
        if (a <= 0) continue;
        const d = ((y + y0) * dst.width + x + x0) * 3;
        for (let c = 0; c < 3; c++) {
          const v = Math.min(255 * a, o[s + c] * bright * opacity);
          dst.data[d + c] = Math.round(dst.data[d + c] * (1 - a) + v);
        }
      }
    }
  } finally {
    srcPts.delete();
    dstPts.delete();
    M.delete();
    src.delete();
    out.delete();
  }
}
