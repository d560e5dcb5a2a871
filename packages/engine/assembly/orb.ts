/**
 * The descriptor half of ORB (packages/engine/src/features.ts), in AssemblyScript with SIMD, built
 * into `src/orb.wasm` by `npm run build:wasm -w @logo-review/engine`. OpenCV's WebAssembly build
 * has no SIMD, and its 7x7 Gaussian blur of every pyramid level took over half of a frame's ORB.
 * These functions compute the same bytes as OpenCV's `ORB::detectAndCompute` (features.test.ts
 * compares them): the blur in single precision with OpenCV's order of operations, and the rotated
 * BRIEF tests with its rounding. Nothing here allocates; the JavaScript side lays out the memory.
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
