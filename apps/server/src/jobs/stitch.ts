import { quadIoU, type EngineDetection } from '@logo-review/engine';

/** One analysed chunk: its span (ms) and the engine detections found in it. */
export interface ChunkResult {
  start_ms: number;
  end_ms: number;
  detections: EngineDetection[];
}

/**
 * How far from a boundary (ms) a track may end, or start, and still continue across it: the
 * tracker closes a track after 0.75 s without a hit, and the detector may find a logo a few
 * samples after the chunk's first frame (its pixels follow it back to that frame only when they
 * correlate).
 */
export const STITCH_GAP_MS = 1000;
/** The quads on either side of the boundary overlap at least this much (IoU), or nearly touch. */
const MIN_IOU = 0.2;

const centre = (q: number[]) => [(q[0] + q[2] + q[4] + q[6]) / 4, (q[1] + q[3] + q[5] + q[7]) / 4];
const diagonal = (q: number[]) => Math.hypot(q[4] - q[0], q[5] - q[1]);

/** How well the end of `a` and the start of `b` are one logo's place (higher is better); null: not. */
function continuity(a: EngineDetection, b: EngineDetection): number | null {
  const qa = a.coordinates[a.coordinates.length - 1].points;
  const qb = b.coordinates[0].points;
  const iou = quadIoU(qa, qb);
  if (iou >= MIN_IOU) return iou;
  // A logo moving with the camera may have left its last place: near enough for its size.
  const [ax, ay] = centre(qa);
  const [bx, by] = centre(qb);
  const d = Math.hypot(ax - bx, ay - by);
  const size = Math.max(diagonal(qa), diagonal(qb));
  return d < size * 0.5 ? iou : null;
}

/** `a` continued by `b` (same brand, b starting at or after the boundary a reaches): one detection. */
function join(a: EngineDetection, b: EngineDetection): EngineDetection {
  const longer = a.time_end - a.time_begin >= b.time_end - b.time_begin ? a : b;
  const coordinates = a.coordinates.map((s) => ({ ...s }));
  const last = coordinates[coordinates.length - 1];
  const first = b.coordinates[0];
  // The same still quad on both sides of the boundary is one segment, as one analysis makes it.
  const same = last.points.every((v, i) => Math.abs(v - first.points[i]) <= 1);
  if (same && first.start_time - last.end_time <= STITCH_GAP_MS) {
    last.end_time = first.end_time;
    coordinates.push(...b.coordinates.slice(1).map((s) => ({ ...s })));
  } else {
    // A gap the tracker would have bridged: the earlier quad holds until the next one starts.
    if (first.start_time > last.end_time) last.end_time = first.start_time;
    coordinates.push(...b.coordinates.map((s) => ({ ...s })));
  }
  return {
    brandId: a.brandId,
    exampleId: longer.exampleId,
    confidence: Math.max(a.confidence, b.confidence),
    time_begin: a.time_begin,
    time_end: b.time_end,
    coordinates,
    placement: longer.placement,
  };
}

/**
 * Joins the chunks' detections into the video's: a track that reaches a chunk's end and one of the
 * same brand that starts at the next chunk's beginning in the same place are one logo seen across
 * the boundary, and become one detection (over as many chunks as it lasts). Pairs are matched
 * best overlap first, each track at most once. Chunks must be in order and adjacent.
 */
export function stitchChunks(chunks: ChunkResult[]): EngineDetection[] {
  const out: EngineDetection[] = [];
  /** Detections of the previous chunk that reach its end: they may continue. */
  let open: EngineDetection[] = [];
  for (const c of chunks) {
    const starting = c.detections.filter((d) => d.time_begin <= c.start_ms + STITCH_GAP_MS);
    const pairs: { a: EngineDetection; b: EngineDetection; score: number }[] = [];
    for (const a of open)
      for (const b of starting) {
        if (String(a.brandId) !== String(b.brandId)) continue;
        const score = continuity(a, b);
        if (score !== null) pairs.push({ a, b, score });
      }
    pairs.sort((x, y) => y.score - x.score);
    const joined = new Map<EngineDetection, EngineDetection>();
    const usedA = new Set<EngineDetection>();
    for (const p of pairs) {
      if (usedA.has(p.a) || joined.has(p.b)) continue;
      usedA.add(p.a);
      joined.set(p.b, join(p.a, p.b));
    }
    // The open tracks that nothing continued end here.
    for (const a of open) if (!usedA.has(a)) out.push(a);
    const current = c.detections.map((d) => joined.get(d) ?? d);
    open = [];
    for (const d of current) {
      if (d.time_end >= c.end_ms - STITCH_GAP_MS) open.push(d);
      else out.push(d);
    }
  }
  out.push(...open);
  return out.sort((a, b) => a.time_begin - b.time_begin);
}

/**
 * The chunks' spans (ms) of a video `durationMs` long: `chunkMs` each, every start on the sample
 * grid (`stepMs`), so that each chunk samples the frames the whole video's analysis would. A last
 * piece shorter than a quarter chunk is added to the chunk before it.
 */
export function chunkSpans(
  durationMs: number,
  chunkMs: number,
  stepMs: number,
): { start: number; end: number }[] {
  const step = Math.max(stepMs, Math.round(chunkMs / stepMs) * stepMs);
  const spans: { start: number; end: number }[] = [];
  for (let start = 0; start < durationMs; start += step)
    spans.push({ start: Math.round(start), end: Math.round(Math.min(durationMs, start + step)) });
  if (spans.length > 1 && spans[spans.length - 1].end - spans[spans.length - 1].start < step / 4) {
    const last = spans.pop()!;
    spans[spans.length - 1].end = last.end;
  }
  return spans;
}
