/**
 * The hot loop of the descriptor index's `match` (packages/engine/src/descriptor-index.ts), in
 * AssemblyScript, built into `src/lsh.wasm` by `npm run build:wasm -w @logo-review/engine`.
 * WebAssembly has a 64-bit popcount instruction; JavaScript computes a Hamming distance with a
 * dozen operations per 32-bit word, which made this loop about a third of a frame's keypoint
 * route. The JavaScript side keeps the same data in the instance's memory (see `DescriptorIndex`);
 * nothing here allocates.
 */

/**
 * Looks up one query descriptor (32 bytes at `q`) in every LSH table, in table order, visiting each
 * index keypoint once (`stamps[id] == stamp` marks one already seen for this query). Writes
 * (id, distance) pairs of the keypoints within `maxDist` to `cands` (at most `cap` int32s) and
 * returns `count * 1024 + nearest`, where `count` is the number of int32s written and `nearest` the
 * smallest distance seen (999 when none).
 *
 * Layout: `bits` holds `keyBits` u16 bit numbers per table; `offsets` holds `size1` i32 bucket
 * starts per table; `ids` holds `n` i32 keypoint ids per table in bucket order; `words` holds the
 * 32-byte descriptors by id. A bucket of more than `maxBucket` keypoints is skipped.
 */
export function probe(
  q: usize,
  tables: i32,
  keyBits: i32,
  bits: usize,
  offsets: usize,
  size1: i32,
  ids: usize,
  n: i32,
  words: usize,
  stamps: usize,
  stamp: i32,
  maxDist: i32,
  maxBucket: i32,
  cands: usize,
  cap: i32,
): i32 {
  const q0 = load<u64>(q);
  const q1 = load<u64>(q, 8);
  const q2 = load<u64>(q, 16);
  const q3 = load<u64>(q, 24);
  let nearest: i32 = 999;
  let count: i32 = 0;
  for (let t: i32 = 0; t < tables; t++) {
    let key: i32 = 0;
    const tableBits = bits + ((<usize>(t * keyBits)) << 1);
    for (let j: i32 = 0; j < keyBits; j++) {
      const bit = <u32>load<u16>(tableBits + ((<usize>j) << 1));
      key = (key << 1) | (<i32>((load<u32>(q + ((<usize>(bit >>> 5)) << 2)) >>> (bit & 31)) & 1));
    }
    const at = offsets + ((<usize>(t * size1 + key)) << 2);
    const start = load<i32>(at);
    const end = load<i32>(at, 4);
    if (end - start > maxBucket) continue;
    const tableIds = ids + ((<usize>(t * n)) << 2);
    for (let p = start; p < end; p++) {
      const id = load<i32>(tableIds + ((<usize>p) << 2));
      const seen = stamps + ((<usize>id) << 2);
      if (load<i32>(seen) == stamp) continue;
      store<i32>(seen, stamp);
      const w = words + ((<usize>id) << 5);
      const d = <i32>(
        (popcnt<u64>(q0 ^ load<u64>(w)) +
          popcnt<u64>(q1 ^ load<u64>(w, 8)) +
          popcnt<u64>(q2 ^ load<u64>(w, 16)) +
          popcnt<u64>(q3 ^ load<u64>(w, 24)))
      );
      if (d <= maxDist && count < cap) {
        store<i32>(cands + ((<usize>count) << 2), id);
        store<i32>(cands + ((<usize>(count + 1)) << 2), d);
        count += 2;
      }
      if (d < nearest) nearest = d;
    }
  }
  return count * 1024 + nearest;
}
