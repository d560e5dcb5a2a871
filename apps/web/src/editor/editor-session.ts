import type { CoordinateSegment as Segment, Detection, Placement, Video } from '@logo-review/contract';
import {
  NEXT_DETECTION_NOT_FOUND,
  PREVIOUS_DETECTION_NOT_FOUND,
  ReviewEditor,
  SECONDS_MODE_TICK_MS,
  STORAGE_KEYS,
  TIME_SAVE_PERIOD_MS,
  WINDOW_CHECK_PERIOD_MS,
  WindowTracker,
  DEFAULT_WINDOW_POLICY,
  firstUncovered,
  windowAt,
  type WindowPolicy,
  effectiveFps,
  nextFrameTime,
  nextSecondTime,
  parsePlayMode,
  previousFrameTime,
  previousSecondTime,
  secondsModeTick,
  shouldResumeAfterInteraction,
  speedDown,
  speedUp,
  togglePlayMode,
  type PlayMode,
  type TimeWindow,
  type ZoomView,
} from '@logo-review/review-canvas';
import { formatError } from '../api/api-error';
import { createStore, type Store } from '../state/create-store';
import { notify } from '../state/status-store';
import { editorApi } from './editor-api';
import { renderTimes } from './render-stats';
import { ReviewController } from './review-controller';

/** Playback state the controls show. The position lives in {@link EditorSession.time} (it changes per frame). */
export interface PlaybackState {
  /** The user's intent: playing (NORMAL: the element plays; SECONDS: a 1 s ticker seeks). */
  playing: boolean;
  playMode: PlayMode;
  rate: number;
  /** ms, null until the element knows it (the API's duration is used before that). */
  durationMs: number | null;
  /** Buffered ranges in ms. */
  buffered: Array<[number, number]>;
  /** The element can show a frame ('Loading video..' until then). */
  videoReady: boolean;
  /** A detection window is loading (the loading overlay over the video). */
  loadingDetections: boolean;
}

/** How far one step of the next/previous detection search loads beyond the loaded data (ms). */
const SEARCH_CHUNK_MS = 60_000;

/** How often the panels follow the active set while the video element plays (ms). */
const PLAYING_TABLE_PERIOD_MS = 125;

/** Anything with a `getContext('2d')` we draw on. */
type Canvas = HTMLCanvasElement;

function storedTime(durationMs: number | null): number {
  const raw = Number(localStorage.getItem(STORAGE_KEYS.TIME));
  if (!Number.isFinite(raw) || raw <= 0) return 0;
  return durationMs !== null && raw > durationMs ? 0 : raw;
}

/**
 * The editor page's controller: one per opened video. It owns the core ({@link ReviewEditor}), binds it to the
 * `<video>` element and the overlay canvas, runs playback (play modes, steps, speed), loads detection windows
 * and turns the core's events into API calls. React components only render its stores and call its methods.
 */
export class EditorSession {
  readonly editor: ReviewEditor<Detection>;
  readonly playback: Store<PlaybackState>;
  /** Current position (ms), updated once per shown frame. */
  readonly time: Store<number>;
  /**
   * Bumped when what the panels show changes: any model change but the time, and a time change that
   * changes the active set. Per-frame time changes alone do not re-render the tables.
   */
  readonly version: Store<number>;
  /** Zoom and pan of the video (the stage applies it to the `<video>` element as a CSS transform). */
  readonly zoom: Store<ZoomView>;
  private lastActive: readonly Detection[] | null = null;
  readonly fps: number;
  readonly video: Video;
  /** The review loop: verdicts, queue, undo/redo, tracks (issue 17). */
  readonly review: ReviewController;

  private el: HTMLVideoElement | null = null;
  private canvas: Canvas | null = null;
  private ctx: CanvasRenderingContext2D | null = null;
  private dpr = 1;
  /**
   * The tracker's policy, kept by reference so a seek can plan with no gap bridging (see checkWindows); every
   * other check uses the spec's constants unchanged.
   */
  private readonly windowPolicy: WindowPolicy = { ...DEFAULT_WINDOW_POLICY };
  private readonly tracker = new WindowTracker(this.windowPolicy);
  private readonly timers: Array<ReturnType<typeof setInterval>> = [];
  private secondsTimer: ReturnType<typeof setInterval> | null = null;
  private renderQueued = 0;
  private tableTimer: ReturnType<typeof setTimeout> | null = null;
  private frameCallback = 0;
  private wasPlaying = false;
  private resumeAfterLoad = false;
  private pendingLoads = 0;
  private announcedLoad = false;
  private disposed = false;
  private readonly abort = new AbortController();
  /** The detection before a drag, to restore it when the PATCH fails and to undo it. */
  private readonly beforeEdit = new Map<number, Detection>();
  private readonly unsubscribe: Array<() => void> = [];
  private readonly elementListeners: Array<[string, () => void, boolean]> = [];

  constructor(video: Video, placements: readonly Placement[]) {
    this.video = video;
    this.fps = effectiveFps(video.fps);
    this.editor = new ReviewEditor<Detection>({ videoId: video.id, fps: this.fps });
    this.editor.model.setPlacements(placements);
    const durationMs = video.duration > 0 ? video.duration * 1000 : null;
    this.playback = createStore<PlaybackState>({
      playing: false,
      playMode: parsePlayMode(localStorage.getItem(STORAGE_KEYS.PLAY_MODE)),
      rate: 1,
      durationMs,
      buffered: [],
      videoReady: false,
      loadingDetections: false,
    });
    this.version = createStore(0);
    this.zoom = createStore(this.editor.view);
    const start = storedTime(durationMs);
    this.time = createStore(start);
    this.editor.model.setTime(start);
    this.review = new ReviewController(this);
    this.wireCore();
    this.timers.push(setInterval(() => this.checkWindows(), WINDOW_CHECK_PERIOD_MS));
    this.timers.push(setInterval(() => this.saveTime(), TIME_SAVE_PERIOD_MS));
    this.checkWindows();
  }

  // ---- binding ----------------------------------------------------------------------------------

  /** Binds the `<video>` element (null on unmount). */
  attachVideo(el: HTMLVideoElement | null): void {
    if (this.el === el) return;
    if (this.el) {
      for (const [type, fn, capture] of this.elementListeners) this.el.removeEventListener(type, fn, capture);
      this.elementListeners.length = 0;
      if (this.frameCallback) this.el.cancelVideoFrameCallback(this.frameCallback);
      this.frameCallback = 0;
    }
    this.el = el;
    if (!el) return;
    const on = (type: string, fn: () => void, capture = false) => {
      el.addEventListener(type, fn, capture);
      this.elementListeners.push([type, fn, capture]);
    };
    const metadata = () => {
      if (Number.isFinite(el.duration) && el.duration > 0)
        this.patchPlayback({ durationMs: el.duration * 1000 });
      const t = this.editor.model.time;
      if (t > 0) el.currentTime = t / 1000;
    };
    on('loadedmetadata', metadata);
    on('loadeddata', () => {
      this.patchPlayback({ videoReady: true });
      this.readBuffered();
    });
    on('timeupdate', () => this.readBuffered());
    on('progress', () => this.readBuffered());
    on('seeked', () => this.readBuffered());
    on('ended', () => this.patchPlayback({ playing: false }));
    // An unplayable file keeps 'Loading video..'; the cause goes to the console (like the spec's API failure).
    on('error', () =>
      console.error('Editor: the video cannot be played', el.error?.message ?? el.error?.code),
    );
    el.playbackRate = this.playback.get().rate || 0;
    // An element bound after it loaded its metadata gets no 'loadedmetadata': it would stay at 0 s
    // while the editor stands at the saved position (an e2e run opened at 12 s played from 0 s).
    if (el.readyState >= 1) metadata();
    if (el.readyState >= 2) this.patchPlayback({ videoReady: true });
    this.readBuffered();
    this.requestFrame();
  }

  /** Binds the overlay canvas (null on unmount). */
  attachCanvas(canvas: Canvas | null): void {
    this.canvas = canvas;
    this.ctx = canvas ? canvas.getContext('2d') : null;
    this.scheduleRender();
  }

  /** The displayed video size (display px) and scale (display / native). */
  setViewport(width: number, height: number, scale: number): void {
    this.dpr = window.devicePixelRatio || 1;
    if (this.canvas) {
      this.canvas.width = Math.round(width * this.dpr);
      this.canvas.height = Math.round(height * this.dpr);
    }
    this.editor.setViewport(width, height, scale);
    this.editor.renderer.pixelRatio = this.dpr;
    this.zoom.set(this.editor.view);
    this.scheduleRender();
  }

  /** Zooms by `factor` around a display point of the overlay (wheel, pinch). */
  zoomAt(factor: number, x: number, y: number): void {
    this.editor.zoomAt(factor, x, y);
    this.viewChanged();
  }

  /** Pans a zoomed video by a display-pixel delta. */
  panBy(dx: number, dy: number): void {
    this.editor.panBy(dx, dy);
    this.viewChanged();
  }

  /** Back to the fitted video (key 0). */
  resetZoom(): void {
    this.editor.resetZoom();
    this.viewChanged();
  }

  private viewChanged(): void {
    this.zoom.set(this.editor.view);
    this.scheduleRender();
  }

  /** Stops timers, requests and listeners. */
  dispose(): void {
    this.disposed = true;
    this.review.dispose();
    this.saveTime();
    this.abort.abort();
    this.stopSecondsTicker();
    this.timers.forEach(clearInterval);
    if (this.tableTimer !== null) clearTimeout(this.tableTimer);
    this.unsubscribe.forEach((u) => u());
    if (this.renderQueued) cancelAnimationFrame(this.renderQueued);
    this.el?.pause();
    this.attachVideo(null);
  }

  // ---- rendering ----------------------------------------------------------------------------------

  /** Redraws on the next animation frame (pointer feedback, selection, filter, table clicks). */
  scheduleRender(): void {
    if (this.renderQueued || this.disposed) return;
    this.renderQueued = requestAnimationFrame(() => {
      this.renderQueued = 0;
      this.renderNow();
    });
  }

  private renderNow(): void {
    const ctx = this.ctx;
    if (!ctx) return;
    const t0 = performance.now();
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    this.editor.render(ctx);
    renderTimes.add(performance.now() - t0);
  }

  /**
   * Follows the element frame by frame (requestVideoFrameCallback: called once per presented frame, so the
   * redraw rate is the video's fps); requestAnimationFrame where it is missing.
   */
  private requestFrame(): void {
    const el = this.el;
    if (!el || this.disposed) return;
    if (typeof el.requestVideoFrameCallback === 'function') {
      this.frameCallback = el.requestVideoFrameCallback((_now, meta) => {
        if (!el.paused) this.setPosition(meta.mediaTime * 1000, false);
        this.requestFrame();
      });
    } else {
      requestAnimationFrame(() => {
        if (!el.paused) this.setPosition(el.currentTime * 1000, false);
        this.requestFrame();
      });
    }
  }

  /** Moves the model (and the stores) to a position; `seek` also moves the element. */
  private setPosition(ms: number, seek: boolean): void {
    const t = Math.max(0, ms);
    if (seek && this.el) this.el.currentTime = t / 1000;
    this.editor.model.setTime(t);
    this.time.set(t);
    this.renderNow();
    if (seek) this.checkWindows(true);
  }

  // ---- playback -----------------------------------------------------------------------------------

  private patchPlayback(patch: Partial<PlaybackState>): void {
    this.playback.set((s) => ({ ...s, ...patch }));
  }

  private readBuffered(): void {
    const el = this.el;
    if (!el) return;
    const ranges: Array<[number, number]> = [];
    for (let i = 0; i < el.buffered.length; i++)
      ranges.push([el.buffered.start(i) * 1000, el.buffered.end(i) * 1000]);
    const prev = this.playback.get().buffered;
    const same =
      prev.length === ranges.length && prev.every((r, i) => r[0] === ranges[i][0] && r[1] === ranges[i][1]);
    if (!same) this.patchPlayback({ buffered: ranges });
  }

  get durationMs(): number | null {
    return this.playback.get().durationMs;
  }

  play(): void {
    const s = this.playback.get();
    this.patchPlayback({ playing: true });
    if (this.pendingLoads > 0) {
      this.resumeAfterLoad = true;
      return;
    }
    if (s.playMode === 'SECONDS') {
      this.el?.pause();
      this.startSecondsTicker();
    } else if (this.el) {
      if (this.el.ended) this.el.currentTime = 0;
      this.el.play().catch(() => this.patchPlayback({ playing: false }));
    }
  }

  pause(): void {
    this.patchPlayback({ playing: false });
    this.haltElement();
  }

  private haltElement(): void {
    this.stopSecondsTicker();
    if (this.el && !this.el.paused) {
      this.el.pause();
      this.setPosition(this.el.currentTime * 1000, false);
    }
  }

  togglePlay(): void {
    if (this.playback.get().playing) this.pause();
    else this.play();
  }

  private startSecondsTicker(): void {
    this.stopSecondsTicker();
    this.secondsTimer = setInterval(() => {
      const next = secondsModeTick(this.editor.model.time, this.durationMs);
      if (next === null) this.pause();
      else this.setPosition(next, true);
    }, SECONDS_MODE_TICK_MS);
  }

  private stopSecondsTicker(): void {
    if (this.secondsTimer !== null) clearInterval(this.secondsTimer);
    this.secondsTimer = null;
  }

  togglePlayMode(): void {
    const wasPlaying = this.playback.get().playing;
    if (wasPlaying) this.pause();
    const playMode = togglePlayMode(this.playback.get().playMode);
    localStorage.setItem(STORAGE_KEYS.PLAY_MODE, playMode);
    this.patchPlayback({ playMode });
    if (wasPlaying) this.play();
  }

  /** Seeks to a position (ms); while playing in NORMAL mode the element keeps playing from there. */
  seek(ms: number): void {
    const duration = this.durationMs;
    const t = duration !== null ? Math.min(ms, duration) : ms;
    this.setPosition(t, true);
  }

  /** Frame steps pause first: a frame-accurate position only makes sense on a still picture. */
  nextFrame(): void {
    this.pause();
    this.seek(nextFrameTime(this.editor.model.time, this.fps, this.durationMs));
  }

  previousFrame(): void {
    this.pause();
    this.seek(previousFrameTime(this.editor.model.time, this.fps));
  }

  nextSecond(): void {
    this.seek(nextSecondTime(this.editor.model.time, this.durationMs));
  }

  previousSecond(): void {
    this.seek(previousSecondTime(this.editor.model.time));
  }

  private setRate(rate: number): void {
    this.patchPlayback({ rate });
    if (this.el) this.el.playbackRate = rate;
  }

  speedUp(): void {
    this.setRate(speedUp(this.playback.get().rate));
  }

  speedDown(): void {
    this.setRate(speedDown(this.playback.get().rate));
  }

  /**
   * Jumps to the start of the next detection (hotkey n). Only loaded windows are in the model, so when none
   * is found inside the loaded stretch that contains the position, the stretch is extended forward
   * ({@link SEARCH_CHUNK_MS} at a time, up to the end of the video) before alerting 'Cannot find next
   * detection'. A hit beyond the contiguous stretch is not trusted: an unloaded gap could hold an earlier one.
   */
  async nextDetection(): Promise<void> {
    const model = this.editor.model;
    const end = this.durationMs ?? Infinity;
    for (;;) {
      const covered = firstUncovered(this.tracker.loaded, model.frameTime);
      const t = model.nextDetectionTime();
      if (t !== null && (t <= covered || covered >= end)) return this.seek(t);
      if (covered >= end || this.disposed) break;
      if (!(await this.loadExtra({ start: covered, end: Math.min(end, covered + SEARCH_CHUNK_MS) }))) return;
    }
    notify.warning(NEXT_DETECTION_NOT_FOUND);
  }

  /** Jumps to the start of the previous detection (hotkey b), extending the loaded stretch backwards as needed. */
  async previousDetection(): Promise<void> {
    const model = this.editor.model;
    for (;;) {
      const from = windowAt(this.tracker.loaded, model.frameTime)?.start ?? model.frameTime;
      const t = model.previousDetectionTime();
      // A detection starting in the loaded stretch (or a long one starting before it) is the nearest one.
      if (t !== null && (t >= from || from <= 0)) return this.seek(t);
      if (from <= 0 || this.disposed) break;
      if (!(await this.loadExtra({ start: Math.max(0, from - SEARCH_CHUNK_MS), end: from }))) return;
    }
    notify.warning(PREVIOUS_DETECTION_NOT_FOUND);
  }

  private saveTime(): void {
    localStorage.setItem(STORAGE_KEYS.TIME, String(Math.round(this.editor.model.time)));
  }

  // ---- detection windows --------------------------------------------------------------------------

  /**
   * Runs every 2 s (and after a seek): asks the tracker for the next window and loads it. While a window
   * loads, a playing video pauses and resumes afterwards (spec section 4).
   *
   * After a seek (`jump`) the window is planned without bridging the gap behind the new position: bridging
   * up to 300 s keeps loaded data contiguous while playing, but after a jump it would load minutes of
   * detections (tens of thousands on a busy match) before the frame the user jumped to can show its own.
   * The skipped stretch loads later if playback gets there.
   */
  checkWindows(jump = false): void {
    if (this.disposed) return;
    if (jump) this.windowPolicy.maxGapMs = 0;
    try {
      const w = this.tracker.next(this.editor.model.time, this.durationMs);
      if (w) void this.loadWindow(w);
    } finally {
      this.windowPolicy.maxGapMs = DEFAULT_WINDOW_POLICY.maxGapMs;
    }
  }

  /** Loads a window outside the tracker's plan (next/previous detection search); true when it loaded. */
  private loadExtra(w: TimeWindow): Promise<boolean> {
    return this.loadWindow(w);
  }

  /** Loads a window outside the plan for the review queue; true when it loaded. */
  loadRange(w: TimeWindow): Promise<boolean> {
    return this.loadWindow(w);
  }

  /** The end of the loaded stretch that contains `t` (`t` itself when it is not loaded). */
  loadedUntil(t: number): number {
    return firstUncovered(this.tracker.loaded, t);
  }

  private async loadWindow(w: TimeWindow): Promise<boolean> {
    this.pendingLoads += 1;
    if (this.pendingLoads === 1) {
      if (this.playback.get().playing) {
        this.resumeAfterLoad = true;
        this.haltElement();
      }
      this.patchPlayback({ loadingDetections: true });
    }
    let ok = false;
    try {
      const list = await editorApi.window(this.video.id, w.start, w.end, this.abort.signal);
      if (this.disposed) return false;
      this.editor.model.upsertDetections(list);
      this.tracker.done(w);
      ok = true;
      if (!this.announcedLoad) {
        this.announcedLoad = true;
        notify.success('Successfully loaded detections.');
      }
    } catch (error) {
      if (this.disposed) return false;
      this.tracker.failed(w);
      notify.error(formatError(error, 'Error while retrieving detections'));
    } finally {
      this.pendingLoads -= 1;
      if (!this.disposed && this.pendingLoads === 0) {
        this.patchPlayback({ loadingDetections: false });
        this.scheduleRender();
        if (this.resumeAfterLoad) {
          this.resumeAfterLoad = false;
          if (this.playback.get().playing) this.play();
        }
        // More may be needed right away (a far seek during the request).
        if (ok) this.checkWindows();
      }
    }
    return ok;
  }

  /** After "Change placement for all detections": forget everything and load again. */
  reloadDetections(): void {
    this.tracker.reset();
    this.editor.model.setDetections([]);
    this.checkWindows();
  }

  // ---- core events ----------------------------------------------------------------------------------

  private wireCore(): void {
    const { editor } = this;
    const on: ReviewEditor<Detection>['on'] = (type, fn) => {
      const off = editor.on(type, fn);
      this.unsubscribe.push(off);
      return off;
    };
    on('changed', (e) => {
      if (e.reason !== 'time') {
        this.scheduleRender();
        this.version.set((v) => v + 1);
        return;
      }
      const active = editor.model.activeDetections();
      if (active !== this.lastActive) {
        this.lastActive = active;
        this.bumpForPlayback();
      }
    });
    on('videoModeChanged', () => {
      this.version.set((v) => v + 1);
      this.scheduleRender();
    });
    on('interactionStarted', (e) => {
      this.wasPlaying = this.playback.get().playing;
      if (this.wasPlaying) this.pause();
      if (e.target?.kind === 'detection') {
        const d = editor.model.getDetection(e.target.id);
        if (d) this.beforeEdit.set(d.id, { ...d, coordinates: structuredClone(d.coordinates) });
      }
    });
    on('interactionEnded', (e) => {
      if (shouldResumeAfterInteraction(this.wasPlaying, e)) this.play();
      this.wasPlaying = false;
    });
    // Known to undo while its PATCH is on its way, so that Ctrl+Z right after a drag undoes the drag.
    const persist = (e: { id: number; coordinates: Segment[] }) =>
      void this.review.whileEditing(() => this.persistGeometry(e.id, e.coordinates));
    on('detectionMoved', persist);
    on('detectionResized', persist);
  }

  /**
   * While the element plays, the active set changes nearly every frame on a busy video; the tables follow at
   * most every {@link PLAYING_TABLE_PERIOD_MS} so that re-rendering hundreds of rows never starves the video
   * and the overlay (which still redraw every frame). Paused, stepping or seeking, they follow at once.
   */
  private bumpForPlayback(): void {
    if (!this.el || this.el.paused) {
      this.version.set((v) => v + 1);
      return;
    }
    if (this.tableTimer !== null) return;
    this.tableTimer = setTimeout(() => {
      this.tableTimer = null;
      this.version.set((v) => v + 1);
    }, PLAYING_TABLE_PERIOD_MS);
  }

  private async persistGeometry(id: number, coordinates: Segment[]): Promise<void> {
    const before = this.beforeEdit.get(id);
    this.beforeEdit.delete(id);
    try {
      const saved = await editorApi.patch(id, { coordinates });
      if (this.disposed) return;
      this.editor.model.upsertDetections([saved]);
      if (before) this.review.recordGeometry(before, saved);
      this.review.refreshCounts();
    } catch (error) {
      notify.error(formatError(error, 'Error updating detection'));
      const current = this.editor.model.getDetection(id);
      if (current && before && !this.disposed)
        this.editor.model.upsertDetections([{ ...current, coordinates: before.coordinates }]);
    }
  }
}
