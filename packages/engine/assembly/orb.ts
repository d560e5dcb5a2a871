/**
 * ORB (packages/engine/src/orb.ts), in AssemblyScript with SIMD, built into `src/orb.wasm` by
 * `npm run build:wasm -w @logo-review/engine`. OpenCV's WebAssembly builds have no SIMD. These
 * functions compute what OpenCV's `ORB::detectAndCompute` computes, to the bit (features.test.ts
 * compares them): FAST-9 scores and their non-maximum suppression, Harris responses, the intensity
 * centroid's orientation with the `fastAtan2` of OpenCV's WebAssembly builds, the 7x7 Gaussian blur
 * in single precision with OpenCV's order of operations, and the rotated BRIEF tests with its
 * rounding. Nothing here allocates; the JavaScript side lays out the memory.
 */

/**
 * Blurs a `w` x `h` grey image at `src` into `dst` with the symmetric 7-tap kernel
 * (k0, k1, k2, k3, k2, k1, k0), reflecting at the edges (OpenCV's BORDER_REFLECT_101), as OpenCV's
 * separable filter does for 8-bit images with a kernel that is not a whole number of 1/256ths:
 * each row in f32, the taps summed left to right (`row` holds one padded row, `tmp` the `w` x `h`
 * f32 results), then each column as k3 * centre + k2 * (up1 + down1) + ... in that order, rounded
 * half to even and saturated to 0..255. Requires w >= 4 and h >= 4.
 */
export function blur7(
  src: usize,
  dst: usize,
  w: i32,
  h: i32,
  row: usize,
  tmp: usize,
  k0: f32,
  k1: f32,
  k2: f32,
  k3: f32,
): void {
  const v0 = f32x4.splat(k0);
  const v1 = f32x4.splat(k1);
  const v2 = f32x4.splat(k2);
  const v3 = f32x4.splat(k3);
  // rows: `row` holds the row as f32 with 3 reflected pixels on each side
  for (let y = 0; y < h; y++) {
    const s = src + <usize>(y * w);
    for (let x = 0; x < w; x++) store<f32>(row + <usize>((x + 3) << 2), <f32>load<u8>(s + <usize>x));
    for (let i = 1; i <= 3; i++) {
      store<f32>(row + <usize>((3 - i) << 2), <f32>load<u8>(s + <usize>i));
      store<f32>(row + <usize>((w + 2 + i) << 2), <f32>load<u8>(s + <usize>(w - 1 - i)));
    }
    const t = tmp + <usize>((y * w) << 2);
    let x = 0;
    for (; x + 4 <= w; x += 4) {
      const p = row + <usize>(x << 2);
      let acc = f32x4.mul(v0, v128.load(p));
      acc = f32x4.add(acc, f32x4.mul(v1, v128.load(p, 4)));
      acc = f32x4.add(acc, f32x4.mul(v2, v128.load(p, 8)));
      acc = f32x4.add(acc, f32x4.mul(v3, v128.load(p, 12)));
      acc = f32x4.add(acc, f32x4.mul(v2, v128.load(p, 16)));
      acc = f32x4.add(acc, f32x4.mul(v1, v128.load(p, 20)));
      acc = f32x4.add(acc, f32x4.mul(v0, v128.load(p, 24)));
      v128.store(t + <usize>(x << 2), acc);
    }
    for (; x < w; x++) {
      const p = row + <usize>(x << 2);
      let a: f32 = k0 * load<f32>(p);
      a += k1 * load<f32>(p, 4);
      a += k2 * load<f32>(p, 8);
      a += k3 * load<f32>(p, 12);
      a += k2 * load<f32>(p, 16);
      a += k1 * load<f32>(p, 20);
      a += k0 * load<f32>(p, 24);
      store<f32>(t + <usize>(x << 2), a);
    }
  }
  // columns
  const stride = <usize>(w << 2);
  for (let y = 0; y < h; y++) {
    const c = tmp + <usize>y * stride;
    const u1 = tmp + <usize>reflect(y - 1, h) * stride;
    const d1 = tmp + <usize>reflect(y + 1, h) * stride;
    const u2 = tmp + <usize>reflect(y - 2, h) * stride;
    const d2 = tmp + <usize>reflect(y + 2, h) * stride;
    const u3 = tmp + <usize>reflect(y - 3, h) * stride;
    const d3 = tmp + <usize>reflect(y + 3, h) * stride;
    const o = dst + <usize>(y * w);
    let x = 0;
    for (; x + 8 <= w; x += 8) {
      const b = <usize>(x << 2);
      const lo = column(c + b, u1 + b, d1 + b, u2 + b, d2 + b, u3 + b, d3 + b, v0, v1, v2, v3);
      const hi = column(
        c + b + 16,
        u1 + b + 16,
        d1 + b + 16,
        u2 + b + 16,
        d2 + b + 16,
        u3 + b + 16,
        d3 + b + 16,
        v0,
        v1,
        v2,
        v3,
      );
      const words = i16x8.narrow_i32x4_s(lo, hi);
      v128.store64_lane(o + <usize>x, i8x16.narrow_i16x8_u(words, words), 0);
    }
    for (; x < w; x++) {
      const b = <usize>(x << 2);
      let a: f32 = k3 * load<f32>(c + b);
      a += k2 * (load<f32>(d1 + b) + load<f32>(u1 + b));
      a += k1 * (load<f32>(d2 + b) + load<f32>(u2 + b));
      a += k0 * (load<f32>(d3 + b) + load<f32>(u3 + b));
      const r = <i32>nearest<f32>(a);
      store<u8>(o + <usize>x, <u8>(r < 0 ? 0 : r > 255 ? 255 : r));
    }
  }
}

/** Four columns of {@link blur7}'s second pass, rounded half to even to i32. */
function column(
  c: usize,
  u1: usize,
  d1: usize,
  u2: usize,
  d2: usize,
  u3: usize,
  d3: usize,
  v0: v128,
  v1: v128,
  v2: v128,
  v3: v128,
): v128 {
  let acc = f32x4.mul(v3, v128.load(c));
  acc = f32x4.add(acc, f32x4.mul(v2, f32x4.add(v128.load(d1), v128.load(u1))));
  acc = f32x4.add(acc, f32x4.mul(v1, f32x4.add(v128.load(d2), v128.load(u2))));
  acc = f32x4.add(acc, f32x4.mul(v0, f32x4.add(v128.load(d3), v128.load(u3))));
  return i32x4.trunc_sat_f32x4_s(f32x4.nearest(acc));
}

/** Row or column `i` of an image `n` long, reflected at its ends as BORDER_REFLECT_101 does. */
function reflect(i: i32, n: i32): i32 {
  return i < 0 ? -i : i >= n ? 2 * n - 2 - i : i;
}

/**
 * Computes the 32-byte rotated BRIEF descriptors of `count` keypoints of one blurred pyramid level
 * (`img`, `stride` bytes a row). For keypoint j, `kps` holds f32 cos and sin of its angle and the
 * i32 byte offset of its centre pixel (12 bytes). `pattern` holds OpenCV's 512 test points as four
 * f32 arrays of 256: x and y of each test's first point, then x and y of its second (OpenCV's
 * points 2p and 2p + 1 make test p, bit p % 8 of byte p / 8). A point is rotated in f32
 * (x * cos - y * sin, x * sin + y * cos) and rounded half to even, as OpenCV's
 * `computeOrbDescriptors` does. `scratch` holds 512 bytes: the two points' pixels of every test.
 */
export function describe(
  img: usize,
  stride: i32,
  kps: usize,
  count: i32,
  pattern: usize,
  scratch: usize,
  out: usize,
): void {
  const vs = i32x4.splat(stride);
  for (let j = 0; j < count; j++) {
    const k = kps + <usize>(j * 12);
    const a = f32x4.splat(load<f32>(k));
    const b = f32x4.splat(load<f32>(k, 4));
    const centre = img + <usize>load<i32>(k, 8);
    for (let half = 0; half < 2; half++) {
      const px = pattern + <usize>(half * 2048);
      const py = px + 1024;
      const s = scratch + <usize>(half * 256);
      for (let q = 0; q < 256; q += 4) {
        const x = v128.load(px + <usize>(q << 2));
        const y = v128.load(py + <usize>(q << 2));
        const rx = i32x4.trunc_sat_f32x4_s(f32x4.nearest(f32x4.sub(f32x4.mul(x, a), f32x4.mul(y, b))));
        const ry = i32x4.trunc_sat_f32x4_s(f32x4.nearest(f32x4.add(f32x4.mul(x, b), f32x4.mul(y, a))));
        const off = i32x4.add(i32x4.mul(ry, vs), rx);
        const d = s + <usize>q;
        store<u8>(d, load<u8>(centre + <usize>i32x4.extract_lane(off, 0)));
        store<u8>(d, load<u8>(centre + <usize>i32x4.extract_lane(off, 1)), 1);
        store<u8>(d, load<u8>(centre + <usize>i32x4.extract_lane(off, 2)), 2);
        store<u8>(d, load<u8>(centre + <usize>i32x4.extract_lane(off, 3)), 3);
      }
    }
    const d = out + <usize>(j << 5);
    for (let m = 0; m < 16; m++) {
      const t0 = v128.load(scratch + <usize>(m << 4));
      const t1 = v128.load(scratch + <usize>(256 + (m << 4)));
      store<u16>(d + <usize>(m << 1), <u16>i8x16.bitmask(i8x16.lt_u(t0, t1)));
    }
  }
}

/**
 * FAST-9 corner scores of a grey image (`w` wide, one byte a pixel) on the pixels x0 <= x < x1,
 * y0 <= y < y1 (which must lie 3 pixels or more inside the image), written to `scores` (`w` bytes
 * a row, zeroed by the caller): for a corner its score, else 0. A pixel is a corner when 9
 * contiguous pixels of the 16 on the circle of radius 3 (byte offsets at `offsets`, 16 i32, in
 * OpenCV's order) are all darker than it by more than `threshold` or all brighter by more. Its
 * score is OpenCV's: the largest difference d such that some such arc is darker or brighter by at
 * least d, less 1. Sixteen pixels at a time: the arcs' least differences are running minima over
 * the circle (saturating, so a side that is not darker counts 0), and a pixel is a corner exactly
 * when its best arc passes the threshold, so one computation gives both. `scratch` holds 768 bytes.
 * Reads up to 16 bytes past a row's x1, which the caller keeps in memory.
 */
export function fastScores(
  img: usize,
  w: i32,
  x0: i32,
  x1: i32,
  y0: i32,
  y1: i32,
  threshold: i32,
  offsets: usize,
  scores: usize,
  scratch: usize,
): void {
  const t = i8x16.splat(<i8>threshold);
  const lanes = i8x16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  const dark = scratch;
  const bright = scratch + 256;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x += 16) {
      const p = img + <usize>(y * w + x);
      const v = v128.load(p);
      const hi = i8x16.add_sat_u(v, t);
      const lo = i8x16.sub_sat_u(v, t);
      // a run of 9 holds two neighbouring pixels of 0, 4, 8 and 12
      const c0 = v128.load(p + <usize>load<i32>(offsets));
      const c4 = v128.load(p + <usize>load<i32>(offsets, 16));
      const c8 = v128.load(p + <usize>load<i32>(offsets, 32));
      const c12 = v128.load(p + <usize>load<i32>(offsets, 48));
      const b0 = i8x16.gt_u(c0, hi);
      const b4 = i8x16.gt_u(c4, hi);
      const b8 = i8x16.gt_u(c8, hi);
      const b12 = i8x16.gt_u(c12, hi);
      const d0 = i8x16.lt_u(c0, lo);
      const d4 = i8x16.lt_u(c4, lo);
      const d8 = i8x16.lt_u(c8, lo);
      const d12 = i8x16.lt_u(c12, lo);
      const quick = v128.or(
        v128.or(v128.or(v128.and(b0, b4), v128.and(b4, b8)), v128.or(v128.and(b8, b12), v128.and(b12, b0))),
        v128.or(v128.or(v128.and(d0, d4), v128.and(d4, d8)), v128.or(v128.and(d8, d12), v128.and(d12, d0))),
      );
      if (!v128.any_true(quick)) continue;
      for (let k = 0; k < 16; k++) {
        const c = v128.load(p + <usize>load<i32>(offsets + <usize>(k << 2)));
        v128.store(dark + <usize>(k << 4), i8x16.sub_sat_u(v, c));
        v128.store(bright + <usize>(k << 4), i8x16.sub_sat_u(c, v));
      }
      const best = i8x16.max_u(bestArc(dark, scratch + 512), bestArc(bright, scratch + 512));
      const valid = i8x16.lt_s(lanes, i8x16.splat(<i8>min(16, x1 - x)));
      const corner = v128.and(i8x16.gt_u(best, t), valid);
      if (!v128.any_true(corner)) continue;
      const out = scores + <usize>(y * w + x);
      // lanes that are not corners keep what is there (0, or a corner of the block before)
      v128.store(out, v128.bitselect(i8x16.sub(best, i8x16.splat(1)), v128.load(out), corner));
    }
  }
}

/**
 * Of 16 pixels' differences with the circle (16 u8x16 at `d`, one per circle pixel), the largest
 * over the 16 arcs of 9 contiguous circle pixels of the arc's least difference. `tmp` holds 256
 * bytes: the least of 2 neighbours, then of 4.
 */
function bestArc(d: usize, tmp: usize): v128 {
  // m2[k] = min(d[k], d[k+1]); m4[k] = min(m2[k], m2[k+2]); arc[k] = min(m4[k], m4[k+4], d[k+8])
  for (let k = 0; k < 16; k++)
    v128.store(
      tmp + <usize>(k << 4),
      i8x16.min_u(v128.load(d + <usize>(k << 4)), v128.load(d + <usize>(((k + 1) & 15) << 4))),
    );
  let best = i8x16.splat(0);
  for (let k = 0; k < 16; k++) {
    const m4 = i8x16.min_u(v128.load(tmp + <usize>(k << 4)), v128.load(tmp + <usize>(((k + 2) & 15) << 4)));
    const m4b = i8x16.min_u(
      v128.load(tmp + <usize>(((k + 4) & 15) << 4)),
      v128.load(tmp + <usize>(((k + 6) & 15) << 4)),
    );
    const arc = i8x16.min_u(i8x16.min_u(m4, m4b), v128.load(d + <usize>(((k + 8) & 15) << 4)));
    best = i8x16.max_u(best, arc);
  }
  return best;
}

/**
 * The corners of a FAST score map (`scores`, `w` bytes a row) that score more than each of their 8
 * neighbours (OpenCV's non-maximum suppression), on x0 <= x < x1, y0 <= y < y1 (1 pixel or more
 * inside the map), in raster order: x, y and score as three i32 each at `out`. Returns how many.
 */
export function fastMaxima(scores: usize, w: i32, x0: i32, x1: i32, y0: i32, y1: i32, out: usize): i32 {
  const lanes = i8x16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  let n = 0;
  for (let y = y0; y < y1; y++) {
    const row = scores + <usize>(y * w);
    const up = row - <usize>w;
    const down = row + <usize>w;
    for (let x = x0; x < x1; x += 16) {
      const c = v128.load(row + <usize>x);
      if (!v128.any_true(c)) continue;
      let m = v128.and(
        i8x16.gt_u(c, v128.load(row + <usize>(x - 1))),
        i8x16.gt_u(c, v128.load(row + <usize>(x + 1))),
      );
      m = v128.and(
        m,
        v128.and(i8x16.gt_u(c, v128.load(up + <usize>(x - 1))), i8x16.gt_u(c, v128.load(up + <usize>x))),
      );
      m = v128.and(m, i8x16.gt_u(c, v128.load(up + <usize>(x + 1))));
      m = v128.and(
        m,
        v128.and(i8x16.gt_u(c, v128.load(down + <usize>(x - 1))), i8x16.gt_u(c, v128.load(down + <usize>x))),
      );
      m = v128.and(m, i8x16.gt_u(c, v128.load(down + <usize>(x + 1))));
      m = v128.and(m, i8x16.lt_s(lanes, i8x16.splat(<i8>min(16, x1 - x))));
      let bits = i8x16.bitmask(m);
      while (bits != 0) {
        const k = ctz(bits);
        bits &= bits - 1;
        const o = out + <usize>(n * 12);
        store<i32>(o, x + k);
        store<i32>(o, y, 4);
        store<i32>(o, <i32>load<u8>(row + <usize>(x + k)), 8);
        n++;
      }
    }
  }
  return n;
}

/**
 * Harris responses of `count` keypoints of one pyramid level (`img`, `stride` bytes a row), as
 * OpenCV's ORB computes them: over the 7x7 block around each centre (i32 byte offsets at `centres`),
 * the sums of Ix^2, Iy^2 and Ix*Iy of its 3x3 Sobel gradients in integers, then
 * (a*b - c*c - k*(a + b)^2) * scale^4 in f32, with k = 0.04 and scale = 1 / (4 * 7 * 255). f32 out.
 */
export function harris(img: usize, stride: i32, centres: usize, count: i32, out: usize): void {
  const scale: f32 = <f32>1 / (<f32>28 * <f32>255);
  const scale4: f32 = scale * scale * scale * scale;
  const k: f32 = <f32>0.04;
  const s = <usize>stride;
  for (let j = 0; j < count; j++) {
    const p0 = img + <usize>load<i32>(centres + <usize>(j << 2)) - 3 * s - 3;
    let a = 0;
    let b = 0;
    let c = 0;
    for (let dy = 0; dy < 7; dy++) {
      const r = p0 + <usize>dy * s;
      for (let dx = 0; dx < 7; dx++) {
        const p = r + <usize>dx;
        const ix =
          (<i32>load<u8>(p + 1) - <i32>load<u8>(p - 1)) * 2 +
          (<i32>load<u8>(p - s + 1) - <i32>load<u8>(p - s - 1)) +
          (<i32>load<u8>(p + s + 1) - <i32>load<u8>(p + s - 1));
        const iy =
          (<i32>load<u8>(p + s) - <i32>load<u8>(p - s)) * 2 +
          (<i32>load<u8>(p + s - 1) - <i32>load<u8>(p - s - 1)) +
          (<i32>load<u8>(p + s + 1) - <i32>load<u8>(p - s + 1));
        a += ix * ix;
        b += iy * iy;
        c += ix * iy;
      }
    }
    const fa = <f32>a;
    const fb = <f32>b;
    const fc = <f32>c;
    const sum = fa + fb;
    store<f32>(out + <usize>(j << 2), (fa * fb - fc * fc - k * sum * sum) * scale4);
  }
}

/**
 * Orientations in degrees of `count` keypoints of one pyramid level (`img`, `stride` bytes a row;
 * i32 byte offsets of their centres at `centres`), as OpenCV's ORB computes them: the intensity
 * centroid's moments m10 and m01 over the circular patch of radius `half` (`umax`: i32 half-width
 * of each row from the centre), then OpenCV's `fastAtan2(m01, m10)` as built for WebAssembly. f32 out.
 */
export function angles(
  img: usize,
  stride: i32,
  centres: usize,
  count: i32,
  umax: usize,
  half: i32,
  out: usize,
): void {
  const s = <usize>stride;
  for (let j = 0; j < count; j++) {
    const centre = img + <usize>load<i32>(centres + <usize>(j << 2));
    let m01 = 0;
    let m10 = 0;
    for (let u = -half; u <= half; u++) m10 += u * <i32>load<u8>(centre + <usize>u);
    for (let v = 1; v <= half; v++) {
      let vSum = 0;
      const d = load<i32>(umax + <usize>(v << 2));
      const plus = centre + <usize>v * s;
      const minus = centre - <usize>v * s;
      for (let u = -d; u <= d; u++) {
        const vp = <i32>load<u8>(plus + <usize>u);
        const vm = <i32>load<u8>(minus + <usize>u);
        vSum += vp - vm;
        m10 += u * (vp + vm);
      }
      m01 += v * vSum;
    }
    store<f32>(out + <usize>(j << 2), fastAtan2(<f32>m01, <f32>m10));
  }
}

/**
 * OpenCV's `fastAtan2(y, x)` in its WebAssembly builds (`__EMSCRIPTEN__`: `atan2(y, x) * 180.0f /
 * CV_PI`, the division in double, then brought into [0, 360)), with emscripten's `atan2f`.
 */
function fastAtan2(y: f32, x: f32): f32 {
  const t: f32 = atan2f(y, x) * <f32>180;
  let a = <f32>(<f64>t / Math.PI);
  if (a < 0) a += <f32>360;
  if (a >= <f32>360) a -= <f32>360;
  return a;
}

/**
 * `atan2f` of the C library that emscripten builds in (musl's, from FreeBSD's e_atan2f.c), the
 * same f32 operations in the same order, for finite arguments.
 */
function atan2f(y: f32, x: f32): f32 {
  const pi = reinterpret<f32>(0x40490fdb);
  const piLo = reinterpret<f32>(0xb3bbbd2e);
  let ix = reinterpret<u32>(x);
  let iy = reinterpret<u32>(y);
  if (ix == 0x3f800000) return atanf(y);
  const m = ((iy >> 31) & 1) | ((ix >> 30) & 2);
  ix &= 0x7fffffff;
  iy &= 0x7fffffff;
  if (iy == 0) return m < 2 ? y : m == 2 ? pi : -pi;
  if (ix == 0) return m & 1 ? -pi / <f32>2 : pi / <f32>2;
  if (ix + (26 << 23) < iy) return m & 1 ? -pi / <f32>2 : pi / <f32>2;
  const z: f32 = m & 2 && iy + (26 << 23) < ix ? <f32>0 : atanf(abs<f32>(y / x));
  if (m == 0) return z;
  if (m == 1) return -z;
  if (m == 2) return pi - (z - piLo);
  return z - piLo - pi;
}

/** musl's `atanf` (FreeBSD's s_atanf.c), for finite arguments. */
function atanf(x: f32): f32 {
  let ix = reinterpret<u32>(x);
  const sign = ix >> 31;
  ix &= 0x7fffffff;
  if (ix >= 0x4c800000) {
    // |x| >= 2^26: atan(inf) + 2^-120
    const z: f32 = reinterpret<f32>(0x3fc90fda) + reinterpret<f32>(0x03800000);
    return sign ? -z : z;
  }
  let id = -1;
  if (ix < 0x3ee00000) {
    if (ix < 0x39800000) return x;
  } else {
    x = abs<f32>(x);
    if (ix < 0x3f980000) {
      if (ix < 0x3f300000) {
        id = 0;
        x = (<f32>2 * x - <f32>1) / (<f32>2 + x);
      } else {
        id = 1;
        x = (x - <f32>1) / (x + <f32>1);
      }
    } else if (ix < 0x401c0000) {
      id = 2;
      x = (x - <f32>1.5) / (<f32>1 + <f32>1.5 * x);
    } else {
      id = 3;
      x = <f32>-1 / x;
    }
  }
  const z = x * x;
  const w = z * z;
  const s1 = z * (<f32>3.3333328366e-1 + w * (<f32>1.4253635705e-1 + w * <f32>6.1687607318e-2));
  const s2 = w * (<f32>-1.9999158382e-1 + w * <f32>-1.0648017377e-1);
  if (id < 0) return x - x * (s1 + s2);
  let hi: f32;
  let lo: f32;
  if (id == 0) {
    hi = reinterpret<f32>(0x3eed6338);
    lo = reinterpret<f32>(0x31ac3769);
  } else if (id == 1) {
    hi = reinterpret<f32>(0x3f490fda);
    lo = reinterpret<f32>(0x33222168);
  } else if (id == 2) {
    hi = reinterpret<f32>(0x3f7b985e);
    lo = reinterpret<f32>(0x33140fb4);
  } else {
    hi = reinterpret<f32>(0x3fc90fda);
    lo = reinterpret<f32>(0x33a22168);
  }
  const r = hi - (x * (s1 + s2) - lo - x);
  return sign ? -r : r;
}
