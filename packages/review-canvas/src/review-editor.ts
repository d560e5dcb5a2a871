import type { EditorEvents } from './editor-events.ts';
import { EditorModel, type EditorModelOptions } from './editor-model.ts';
import { OverlayRenderer, type CanvasLike, type RendererTheme } from './renderer.ts';
import { hitHandle, type HandleHit } from './hit-test.ts';
import type { KeyInput, PointerInput, ToolStateId } from './tools/tool-state.ts';
import { ToolMachine, type ToolMachineOptions } from './tools/tool-machine.ts';
import type { Detection, VideoMode } from './types.ts';
import { clampView, IDENTITY_VIEW, panBy, zoomAt, type ZoomView } from './view.ts';

/** Options of {@link ReviewEditor}. */
export interface ReviewEditorOptions extends EditorModelOptions, ToolMachineOptions {
  /** Display pixels per video pixel; change with {@link ReviewEditor.setViewport}. Default 1. */
  scale?: number;
  theme?: RendererTheme;
}

/**
 * The editor core in one object: the model (detections, time, selection, filter, drafts), the tool state
 * machine and the renderer. The shell forwards pointer and key events, sets the time on every video frame,
 * calls {@link ReviewEditor.render}, and turns events into API calls.
 *
 * @example
 * const editor = new ReviewEditor({ videoId: 7, fps: 25 });
 * editor.on('detectionMoved', (e) => api.patchDetection(e.id, { coordinates: e.coordinates }));
 * editor.setViewport(640, 360, 640 / video.videoWidth);
 * editor.model.upsertDetections(await api.detections(7, 0, 10_000));
 * editor.model.setTime(video.currentTime * 1000);
 * editor.render(canvas.getContext('2d')!);
 */
export class ReviewEditor<D extends Detection = Detection> {
  readonly model: EditorModel<D>;
  readonly tools: ToolMachine;
  readonly renderer: OverlayRenderer;
  private width = 0;
  private height = 0;
  private baseScale = 1;
  private zoomView: ZoomView = IDENTITY_VIEW;

  constructor(options: ReviewEditorOptions) {
    this.model = new EditorModel<D>(options);
    // The tools, hit test and renderer only read Detection fields and never emit D-typed events, so viewing
    // the model as EditorModel<Detection> is sound (the emitter's listener map is what makes it invariant).
    this.tools = new ToolMachine(this.model as unknown as EditorModel, options);
    this.tools.scale = options.scale ?? 1;
    this.renderer = new OverlayRenderer(options.theme);
  }

  /** Subscribes to an event; returns the unsubscribe function. */
  on<K extends keyof EditorEvents<D>>(type: K, listener: (payload: EditorEvents<D>[K]) => void): () => void {
    return this.model.events.on(type, listener);
  }

  /** Overlay size in display pixels and the display scale (displayed width / native video width). */
  setViewport(width: number, height: number, scale: number): void {
    this.width = width;
    this.height = height;
    this.baseScale = scale > 0 ? scale : 1;
    this.applyView(this.zoomView);
  }

  /** Display pixels per video pixel, zoom included. */
  get scale(): number {
    return this.tools.scale;
  }

  /** The current zoom and pan (display px). */
  get view(): ZoomView {
    return this.zoomView;
  }

  /** Sets zoom and pan (clamped: zoom 1..4, the zoomed video always covers the overlay). */
  setView(view: ZoomView): void {
    this.applyView(view);
  }

  /** Zooms by `factor` around a display point (wheel, pinch). */
  zoomAt(factor: number, x: number, y: number): void {
    this.applyView(zoomAt(this.zoomView, factor, x, y, this.width, this.height));
  }

  /** Pans by a display-pixel delta. */
  panBy(dx: number, dy: number): void {
    this.applyView(panBy(this.zoomView, dx, dy, this.width, this.height));
  }

  /** Back to the fitted, unzoomed video. */
  resetZoom(): void {
    this.applyView(IDENTITY_VIEW);
  }

  private applyView(view: ZoomView): void {
    this.zoomView = clampView(view, this.width, this.height);
    // The tools, hit test and marquee work in "display minus pan" coordinates with the zoomed scale, so the
    // click margin stays 20 screen pixels at every zoom.
    this.tools.scale = this.baseScale * this.zoomView.zoom;
  }

  private local(e: PointerInput): PointerInput {
    const v = this.zoomView;
    return v.panX === 0 && v.panY === 0 ? e : { ...e, x: e.x - v.panX, y: e.y - v.panY };
  }

  /** Whether box labels (brand, confidence) are drawn. */
  get labelsVisible(): boolean {
    return this.renderer.showLabels;
  }

  /** Shows or hides the box labels. */
  toggleLabels(): void {
    this.renderer.showLabels = !this.renderer.showLabels;
  }

  /** Sets the label text of a detection (the shell knows brand names). */
  setLabelText(fn: (d: D) => string): void {
    this.renderer.setLabelText(fn as (d: Detection) => string);
  }

  /** Pointer down on the overlay, display coordinates. Use pointer capture so move/up keep arriving. */
  pointerDown(e: PointerInput): void {
    this.tools.pointerDown(this.local(e));
  }

  pointerMove(e: PointerInput): void {
    this.tools.pointerMove(this.local(e));
  }

  pointerUp(e: PointerInput): void {
    this.tools.pointerUp(this.local(e));
  }

  pointerCancel(): void {
    this.tools.pointerCancel();
  }

  /** Escape cancels an interaction or drawing; returns true when the key was used. */
  keyDown(e: KeyInput): boolean {
    return this.tools.keyDown(e);
  }

  /** "Add new detection": enters NEW_DETECTION mode. */
  startDrawing(): void {
    this.tools.startDrawing();
  }

  cancelDrawing(): void {
    this.tools.cancelDrawing();
  }

  /** The handle under a display point (for hover feedback), or null. */
  hoverAt(x: number, y: number): HandleHit | null {
    const v = this.zoomView;
    return hitHandle(this.tools.model, x - v.panX, y - v.panY, this.tools.scale, this.tools.clickMarginPx);
  }

  /**
   * CSS cursor for a display point: 'crosshair' while drawing, 'grabbing' while dragging, 'move' over an edge,
   * 'pointer' over a corner, else 'default'.
   */
  cursorAt(x: number, y: number): string {
    const state = this.tools.state;
    if (state === 'drawing') return 'crosshair';
    if (state === 'translating' || state === 'resizing') return 'grabbing';
    if (state !== 'idle') return 'default';
    const hit = this.hoverAt(x, y);
    return hit === null ? 'default' : hit.mode === 'translate' ? 'move' : 'pointer';
  }

  get videoMode(): VideoMode {
    return this.tools.videoMode;
  }

  get toolState(): ToolStateId {
    return this.tools.state;
  }

  /** Redraws the overlay for the model's current frame. Call once per video frame (redraw rate = fps). */
  render(ctx: CanvasLike): void {
    this.renderer.render(
      ctx,
      this.tools.model,
      {
        width: this.width,
        height: this.height,
        scale: this.tools.scale,
        offsetX: this.zoomView.panX,
        offsetY: this.zoomView.panY,
      },
      this.tools.overlay(),
    );
  }
}
