/**
 * The last overlay redraw durations (ms), kept in a fixed ring so measuring costs nothing per frame. The
 * in-browser benchmark (bench/editor) reads them through `window.__editorRenderTimes`.
 */
class RenderTimes {
  private readonly ring = new Float64Array(4096);
  private count = 0;

  add(ms: number): void {
    this.ring[this.count % this.ring.length] = ms;
    this.count += 1;
  }

  /** Forgets what was measured. */
  clear(): void {
    this.count = 0;
  }

  /** The kept samples, oldest first. */
  samples(): number[] {
    const n = Math.min(this.count, this.ring.length);
    const start = this.count - n;
    return Array.from({ length: n }, (_, i) => this.ring[(start + i) % this.ring.length]);
  }
}

export const renderTimes = new RenderTimes();

declare global {
  interface Window {
    __editorRenderTimes?: RenderTimes;
  }
}
window.__editorRenderTimes = renderTimes;
