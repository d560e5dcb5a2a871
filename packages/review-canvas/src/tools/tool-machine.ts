import { CLICK_MARGIN_PX, DRAG_THRESHOLD_PX, NEW_DETECTION_POINTS } from '../constants.ts';
import type { EditorModel } from '../editor-model.ts';
import type { InteractionKind } from '../editor-events.ts';
import { rectFromPoints } from '../geometry.ts';
import { hitHandle, targetsInRect, type HandleHit } from '../hit-test.ts';
import { movePointsVertex, translatePoints } from '../segments.ts';
import type { Point, TargetRef, VideoMode } from '../types.ts';
import {
  ToolState,
  type KeyInput,
  type PointerInput,
  type ToolOverlay,
  type ToolStateId,
} from './tool-state.ts';

/** Options of {@link ToolMachine}. */
export interface ToolMachineOptions {
  /** Grab distance for edges and vertices, display pixels. Default 20 (spec section 9). */
  clickMarginPx?: number;
  /** Movement that turns a press on an outline into a drag, display pixels. Default 3. */
  dragThresholdPx?: number;
}

/**
 * The overlay's tool state machine: idle, pointing (pressed on an outline), marquee, translating, resizing,
 * drawing. Feed it pointer and key events in display coordinates; it changes the model and emits events
 * on `model.events`.
 */
export class ToolMachine {
  readonly clickMarginPx: number;
  readonly dragThresholdPx: number;
  /** Display pixels per video pixel (video pixels = display / scale). */
  scale = 1;
  private current: ToolState<never>;
  private readonly states: { [K in ToolStateId]: ToolState<never> };

  constructor(
    readonly model: EditorModel,
    options: ToolMachineOptions = {},
  ) {
    this.clickMarginPx = options.clickMarginPx ?? CLICK_MARGIN_PX;
    this.dragThresholdPx = options.dragThresholdPx ?? DRAG_THRESHOLD_PX;
    this.states = {
      idle: new IdleState(this),
      pointing: new PointingState(this),
      marquee: new MarqueeState(this),
      translating: new TranslatingState(this),
      resizing: new ResizingState(this),
      drawing: new DrawingState(this),
    } as { [K in ToolStateId]: ToolState<never> };
    this.current = this.states.idle;
  }

  /** The current state's id. */
  get state(): ToolStateId {
    return this.current.id;
  }

  /** NEW_DETECTION while drawing, else NORMAL. */
  get videoMode(): VideoMode {
    return this.current.id === 'drawing' ? 'NEW_DETECTION' : 'NORMAL';
  }

  /** @internal Switches state (exit the old one, enter the new one with `info`). */
  transition<I>(id: ToolStateId, info?: I): void {
    this.current.onExit();
    this.current = this.states[id];
    (this.current as ToolState<I | undefined>).onEnter(info);
  }

  pointerDown(e: PointerInput): void {
    if ((e.button ?? 0) !== 0) return;
    // A press while a drag is still open means its pointer-up was lost (released outside the window without
    // capture): cancel that interaction and start afresh.
    if (this.current.id !== 'idle' && this.current.id !== 'drawing') this.current.onCancel();
    this.current.onPointerDown(e);
  }

  pointerMove(e: PointerInput): void {
    this.current.onPointerMove(e);
  }

  pointerUp(e: PointerInput): void {
    if ((e.button ?? 0) !== 0) return;
    this.current.onPointerUp(e);
  }

  /** The pointer was lost (pointercancel, or capture lost): cancels the current interaction. */
  pointerCancel(): void {
    if (this.current.id !== 'drawing') this.current.onCancel();
  }

  /** Returns true when the key was used (Escape during an interaction or drawing). */
  keyDown(e: KeyInput): boolean {
    if (e.key !== 'Escape' || this.current.id === 'idle') return false;
    this.current.onCancel();
    return true;
  }

  /** Enters drawing mode (Add new detection). Cancels any interaction in progress. */
  startDrawing(): void {
    if (this.current.id === 'drawing') return;
    if (this.current.id !== 'idle') this.current.onCancel();
    this.transition('drawing');
  }

  /** Leaves drawing mode without creating a draft (same as Escape). */
  cancelDrawing(): void {
    if (this.current.id === 'drawing') this.current.onCancel();
  }

  private readonly overlayOut: ToolOverlay = { marquee: null, preview: null, drawing: null };

  /** What the renderer draws for the current interaction (one reused object: read it, do not keep it). */
  overlay(): ToolOverlay {
    const out = this.overlayOut;
    out.marquee = null;
    out.preview = null;
    out.drawing = null;
    this.current.overlay(out);
    return out;
  }

  /** @internal */
  started(kind: InteractionKind, target: TargetRef | null): void {
    this.model.events.emit('interactionStarted', { kind, target });
  }

  /** @internal */
  ended(kind: InteractionKind, cancelled: boolean, selectedSomething: boolean): void {
    this.model.events.emit('interactionEnded', { kind, cancelled, selectedSomething });
  }
}

class IdleState extends ToolState {
  readonly id = 'idle';
  constructor(private readonly tools: ToolMachine) {
    super();
  }

  override onPointerDown(e: PointerInput): void {
    const { tools } = this;
    const hit = hitHandle(tools.model, e.x, e.y, tools.scale, tools.clickMarginPx);
    if (hit) {
      tools.started(hit.mode, hit.target);
      tools.transition<PointingInfo>('pointing', { hit, origin: { x: e.x, y: e.y } });
    } else {
      tools.started('select', null);
      tools.transition<Point>('marquee', { x: e.x, y: e.y });
    }
  }
}

interface PointingInfo {
  hit: HandleHit;
  origin: Point;
}

/** Pressed on an outline: a drag translates or resizes, a release without drag selects the target. */
class PointingState extends ToolState<PointingInfo> {
  readonly id = 'pointing';
  private info!: PointingInfo;
  constructor(private readonly tools: ToolMachine) {
    super();
  }

  override onEnter(info: PointingInfo): void {
    this.info = info;
  }

  override onPointerMove(e: PointerInput): void {
    const { origin, hit } = this.info;
    const t = this.tools.dragThresholdPx;
    if ((e.x - origin.x) ** 2 + (e.y - origin.y) ** 2 <= t * t) return;
    this.tools.transition<PointingInfo>(hit.mode === 'resize' ? 'resizing' : 'translating', this.info);
    this.tools.pointerMove(e);
  }

  override onPointerUp(e: PointerInput): void {
    const { model } = this.tools;
    const target = this.info.hit.target;
    model.select([target], e.shiftKey ? 'toggle' : 'replace');
    this.tools.transition('idle');
    this.tools.ended('select', false, model.isSelected(target));
  }

  override onCancel(): void {
    this.tools.transition('idle');
    this.tools.ended(this.info.hit.mode, true, false);
  }
}

/** Dragging a selection box from an empty spot (or a click on empty space / inside a quad). */
class MarqueeState extends ToolState<Point> {
  readonly id = 'marquee';
  private origin: Point = { x: 0, y: 0 };
  private corner: Point = { x: 0, y: 0 };
  constructor(private readonly tools: ToolMachine) {
    super();
  }

  override onEnter(origin: Point): void {
    this.origin = origin;
    this.corner = { ...origin };
  }

  override onPointerMove(e: PointerInput): void {
    this.corner = { x: e.x, y: e.y };
  }

  override onPointerUp(e: PointerInput): void {
    this.corner = { x: e.x, y: e.y };
    const { model, scale } = this.tools;
    const targets = targetsInRect(model, rectFromPoints(this.origin, this.corner), scale);
    model.select(targets, e.shiftKey ? 'add' : 'replace');
    this.tools.transition('idle');
    this.tools.ended('select', false, targets.length > 0);
  }

  override onCancel(): void {
    this.tools.transition('idle');
    this.tools.ended('select', true, false);
  }

  override overlay(out: ToolOverlay): void {
    out.marquee = rectFromPoints(this.origin, this.corner);
  }
}

/** Shared by translating and resizing: a live preview quad committed at pointer-up. */
abstract class EditingState extends ToolState<PointingInfo> {
  protected info!: PointingInfo;
  protected original: number[] = [];
  protected readonly preview: number[] = [];
  protected abstract readonly kind: 'translate' | 'resize';
  constructor(protected readonly tools: ToolMachine) {
    super();
  }

  override onEnter(info: PointingInfo): void {
    this.info = info;
    this.original = info.hit.points.slice();
    this.preview.length = 0;
    this.preview.push(...this.original);
  }

  protected abstract update(dx: number, dy: number): void;

  override onPointerMove(e: PointerInput): void {
    const s = this.tools.scale;
    this.update((e.x - this.info.origin.x) / s, (e.y - this.info.origin.y) / s);
  }

  override onPointerUp(e: PointerInput): void {
    this.onPointerMove(e);
    const { model } = this.tools;
    const { target, vertex } = this.info.hit;
    const points = this.preview.slice();
    this.tools.transition('idle');
    if (points.some((v, i) => v !== this.original[i])) {
      if (target.kind === 'detection') {
        const segmentIndex = model.segmentIndexOf(target);
        const det = model.setDetectionSegmentPoints(target.id, segmentIndex, points);
        if (det) {
          const payload = {
            id: det.id,
            time: model.frameTime,
            segmentIndex,
            points,
            coordinates: det.coordinates,
          };
          if (this.kind === 'translate') model.events.emit('detectionMoved', payload);
          else model.events.emit('detectionResized', { ...payload, vertex });
        }
      } else {
        model.editDraftPoints(target.id, points, this.kind === 'translate' ? 'moved' : 'resized');
      }
    }
    this.tools.ended(this.kind, false, false);
  }

  override onCancel(): void {
    this.tools.transition('idle');
    this.tools.ended(this.kind, true, false);
  }

  override overlay(out: ToolOverlay): void {
    out.preview = { target: this.info.hit.target, points: this.preview };
  }
}

/** Dragging an edge: the whole quad moves. */
class TranslatingState extends EditingState {
  readonly id = 'translating';
  protected readonly kind = 'translate';
  protected update(dx: number, dy: number): void {
    translatePoints(this.original, dx, dy, this.preview);
  }
}

/** Dragging near a corner: that corner moves. */
class ResizingState extends EditingState {
  readonly id = 'resizing';
  protected readonly kind = 'resize';
  protected update(dx: number, dy: number): void {
    const v = this.info.hit.vertex;
    movePointsVertex(
      this.original,
      v,
      this.original[2 * v] + dx,
      this.original[2 * v + 1] + dy,
      this.preview,
    );
  }
}

/** NEW_DETECTION mode: each click adds a corner; the fourth creates a draft at the current time. */
class DrawingState extends ToolState {
  readonly id = 'drawing';
  private points: Point[] = [];
  private cursor: Point | null = null;
  constructor(private readonly tools: ToolMachine) {
    super();
  }

  override onEnter(): void {
    this.points = [];
    this.cursor = null;
    this.tools.model.events.emit('videoModeChanged', { mode: 'NEW_DETECTION' });
    this.tools.started('draw', null);
  }

  override onPointerDown(e: PointerInput): void {
    const s = this.tools.scale;
    // Spec section 3: new-detection points are stored relative to the video, divided by the display scale.
    this.points.push({ x: e.x / s, y: e.y / s });
    if (this.points.length < NEW_DETECTION_POINTS) return;
    const flat = this.points.flatMap((p) => [p.x, p.y]);
    this.points = [];
    this.tools.transition('idle');
    this.tools.model.addDraft(flat);
    this.tools.ended('draw', false, true);
  }

  override onPointerMove(e: PointerInput): void {
    const s = this.tools.scale;
    this.cursor = { x: e.x / s, y: e.y / s };
  }

  override onCancel(): void {
    this.points = [];
    this.tools.transition('idle');
    this.tools.ended('draw', true, false);
  }

  override onExit(): void {
    this.cursor = null;
    this.tools.model.events.emit('videoModeChanged', { mode: 'NORMAL' });
  }

  override overlay(out: ToolOverlay): void {
    out.drawing = { points: this.points, cursor: this.cursor };
  }
}
