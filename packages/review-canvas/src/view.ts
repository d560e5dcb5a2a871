/**
 * Zoom and pan of the video (issue 17, item 7). The overlay keeps its size; the video is drawn at
 * `zoom` times its fitted size and shifted by `panX`, `panY` (display px, never positive: the zoomed video
 * always covers the overlay). A video point v is shown at `v * baseScale * zoom + pan`.
 */
export interface ZoomView {
  zoom: number;
  panX: number;
  panY: number;
}

/** Largest zoom (4x the fitted size). */
export const MAX_ZOOM = 4;
/** The unzoomed view. */
export const IDENTITY_VIEW: ZoomView = Object.freeze({ zoom: 1, panX: 0, panY: 0 });

/** Keeps the zoom in [1, MAX_ZOOM] and the pan inside the zoomed video. */
export function clampView(view: ZoomView, width: number, height: number): ZoomView {
  const zoom = Math.min(MAX_ZOOM, Math.max(1, Number.isFinite(view.zoom) ? view.zoom : 1));
  const clamp = (pan: number, size: number) => Math.min(0, Math.max(size - size * zoom, pan));
  return { zoom, panX: clamp(view.panX, width), panY: clamp(view.panY, height) };
}

/**
 * Zooms by `factor` keeping the display point (x, y) over the same video point (wheel or pinch centre).
 */
export function zoomAt(
  view: ZoomView,
  factor: number,
  x: number,
  y: number,
  width: number,
  height: number,
): ZoomView {
  const zoom = Math.min(MAX_ZOOM, Math.max(1, view.zoom * factor));
  const k = zoom / view.zoom;
  return clampView({ zoom, panX: x - (x - view.panX) * k, panY: y - (y - view.panY) * k }, width, height);
}

/** Pans by a display-pixel delta. */
export function panBy(view: ZoomView, dx: number, dy: number, width: number, height: number): ZoomView {
  return clampView({ zoom: view.zoom, panX: view.panX + dx, panY: view.panY + dy }, width, height);
}

/** Wheel delta (px) to zoom factor: one notch (100 px) zooms by 1.2. */
export function wheelZoomFactor(deltaY: number): number {
  return Math.pow(1.2, -deltaY / 100);
}
