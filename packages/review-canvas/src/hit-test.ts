import type { EditorModel } from './editor-model.ts';
import { distanceToSegmentSq, polygonIntersectsRect } from './geometry.ts';
import type { Rect, TargetRef } from './types.ts';

/** What is under the pointer: a corner to resize or an edge to translate. */
export interface HandleHit {
  target: TargetRef;
  mode: 'resize' | 'translate';
  /** Corner index 0..3 for 'resize'. */
  vertex: number;
  /** The target's quad at the current frame (video pixels). */
  points: number[];
}

/**
 * Finds the handle under a display-space point (spec: click margin 20 px for edges and vertices).
 *
 * - Candidates: active detections not hit by the filter, and active drafts.
 * - The target is the one whose outline is nearest to the pointer, within `marginPx` (display pixels). Ties go
 *   to selected targets, then drafts, then the later one (drawn on top).
 * - On that target: within `marginPx` of a corner, the nearest corner resizes, unless the pointer is nearer to
 *   the middle of the edge it is on (on small boxes every edge point is within 20 px of a corner, and the
 *   edge must stay draggable); otherwise the edge translates the whole quad.
 */
export function hitHandle(
  model: EditorModel,
  x: number,
  y: number,
  scale: number,
  marginPx: number,
): HandleHit | null {
  const marginSq = marginPx * marginPx;
  let best: HandleHit | null = null;
  let bestKey = Infinity;
  let bestEdge = -1;
  const consider = (target: TargetRef, points: number[] | null, rank: number) => {
    if (!points || points.length < 4) return;
    const n = points.length >> 1;
    let edgeSq = Infinity;
    let edge = -1;
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      const d = distanceToSegmentSq(
        x,
        y,
        points[2 * i] * scale,
        points[2 * i + 1] * scale,
        points[2 * j] * scale,
        points[2 * j + 1] * scale,
      );
      if (d < edgeSq) {
        edgeSq = d;
        edge = i;
      }
    }
    if (edgeSq > marginSq) return;
    // Smaller key wins; rank breaks ties (fractional so it never outweighs a real distance difference).
    const key = Math.sqrt(edgeSq) + rank * 1e-3;
    if (key <= bestKey) {
      bestKey = key;
      bestEdge = edge;
      best = { target, mode: 'translate', vertex: -1, points };
    }
  };
  const active = model.activeEntries();
  for (let i = 0; i < active.length; i++) {
    const det = active[i].det;
    if (!model.isInteractive(det)) continue;
    const target: TargetRef = { kind: 'detection', id: det.id };
    consider(target, model.pointsOf(target), model.isSelected(target) ? 1 : 3);
  }
  for (const draft of model.activeDrafts()) {
    const target: TargetRef = { kind: 'draft', id: draft.id };
    consider(target, model.pointsOf(target), model.isSelected(target) ? 0 : 2);
  }
  const hit = best as HandleHit | null;
  if (!hit) return null;
  const p = hit.points;
  const n = p.length >> 1;
  let vertex = -1;
  let vertexSq = Infinity;
  for (let i = 0; i < n; i++) {
    const dx = p[2 * i] * scale - x;
    const dy = p[2 * i + 1] * scale - y;
    const d = dx * dx + dy * dy;
    if (d < vertexSq) {
      vertexSq = d;
      vertex = i;
    }
  }
  const j = (bestEdge + 1) % n;
  const mx = ((p[2 * bestEdge] + p[2 * j]) / 2) * scale - x;
  const my = ((p[2 * bestEdge + 1] + p[2 * j + 1]) / 2) * scale - y;
  if (vertexSq <= marginSq && vertexSq <= mx * mx + my * my) {
    hit.mode = 'resize';
    hit.vertex = vertex;
  }
  return hit;
}

/**
 * Targets a marquee selects: active detections not hit by the filter and active drafts whose quad intersects
 * the rectangle (touching, crossing, containing or contained). A zero-size rectangle (a click) selects the
 * quads that contain the point. `rect` is in display pixels.
 */
export function targetsInRect(model: EditorModel, rect: Rect, scale: number): TargetRef[] {
  const videoRect: Rect = {
    x: rect.x / scale,
    y: rect.y / scale,
    width: rect.width / scale,
    height: rect.height / scale,
  };
  const out: TargetRef[] = [];
  for (const e of model.activeEntries()) {
    if (!model.isInteractive(e.det)) continue;
    const target: TargetRef = { kind: 'detection', id: e.det.id };
    const pts = model.pointsOf(target);
    if (pts && polygonIntersectsRect(pts, videoRect)) out.push(target);
  }
  for (const d of model.activeDrafts()) {
    const target: TargetRef = { kind: 'draft', id: d.id };
    const pts = model.pointsOf(target);
    if (pts && polygonIntersectsRect(pts, videoRect)) out.push(target);
  }
  return out;
}
