import { canFinishDrafts, createDraft, editDraftPoints, extendDraftToTime } from './drafts.ts';
import type { ChangeReason, EditorEvents } from './editor-events.ts';
import { Emitter } from './emitter.ts';
import { compileFilter, EMPTY_FILTER, isFilteredOut, type CompiledFilter } from './filter.ts';
import { IntervalIndex } from './interval-index.ts';
import { quadAt, replaceSegmentPoints, segmentIndexAt, sortSegments } from './segments.ts';
import { effectiveFps, frameDurationMs, frameTimeMs } from './time.ts';
import type { Detection, DetectionFilter, Draft, PlacementRef, Segment, TargetRef } from './types.ts';

/** Options of {@link EditorModel}. */
export interface EditorModelOptions {
  /** The video's id (drafts carry it). */
  videoId: number;
  /** The video's frames per second; "active at time t" is evaluated at the start of the frame shown at t. */
  fps: number;
  /**
   * Error margin (ms) for editing a draft's points: a segment starting this close to the edit time is
   * overwritten instead of split. The spec does not give the value; default one frame (1000 / fps).
   */
  segmentMarginMs?: number;
}

/** A proposed track: the quads the tracker followed, for one detection or draft. */
export interface TrackProposal {
  target: TargetRef;
  time_begin: number;
  time_end: number;
  coordinates: Segment[];
}

/** One row of the Detections table. */
export interface DetectionRow<D extends Detection = Detection> {
  detection: D;
  /** Hit by the filter: greyed and disabled (only listed when the filter's `visible` is on). */
  filtered: boolean;
  selected: boolean;
}

/** Shared payload of the per-frame `changed` event (no allocation per frame). */
const TIME_CHANGED = Object.freeze({ reason: 'time' as const });

/** Keeps the next frame's start out of the current frame's closed query interval. */
const FRAME_END_EPSILON_MS = 1e-6;

/** Internal holder: the index keeps entries, so replacing a detection object needs no rebuild. */
export interface ActiveEntry<D extends Detection = Detection> {
  det: D;
}

/**
 * The editor's state: detections and their time index, the current time, selection, filter and drafts.
 * Every mutation emits `changed` (and the specific event) on {@link EditorModel.events}.
 */
export class EditorModel<D extends Detection = Detection> {
  /** The event bus shared by the model and the tools. */
  readonly events = new Emitter<EditorEvents<D>>();
  readonly videoId: number;
  readonly fps: number;
  readonly segmentMarginMs: number;

  private readonly entries = new Map<number, ActiveEntry<D>>();
  private readonly index = new IntervalIndex<ActiveEntry<D>>(
    (e) => e.det.time_begin,
    (e) => e.det.time_end,
  );
  private indexDirty = false;
  // Entries added since the last index build, and whether the next build must start from scratch.
  private readonly pendingEntries: ActiveEntry<D>[] = [];
  private fullRebuild = false;
  private version = 0;

  private timeMs = 0;
  private frameMs = 0;
  // Last instant inside the current frame: frames are [start, start + 1000/fps).
  private frameLastMs = 0;

  private readonly selected = new Set<number>();
  private readonly selectedDrafts = new Set<number>();
  private compiled: CompiledFilter = compileFilter(EMPTY_FILTER);
  // The video's project hides these brands and placements everywhere (as its report does): unlike the
  // filter, which greys detections out, hidden ones are never kept in the model.
  private hidden: CompiledFilter | null = null;
  private draftList: Draft[] = [];
  private nextDraftId = 1;
  private readonly placementsById = new Map<number, PlacementRef>();
  private proposalTrack: TrackProposal | null = null;

  // Scratch buffer of the active query (reused: no per-frame allocation) and its cache key.
  private readonly scratch: ActiveEntry<D>[] = [];
  private scratchFrame = NaN;
  private scratchIndexVersion = -1;
  private indexVersion = 0;
  // Public snapshot of active detections: a new array only when the active set changes.
  private activeSnapshot: D[] = [];

  constructor(options: EditorModelOptions) {
    this.videoId = options.videoId;
    this.fps = effectiveFps(options.fps);
    this.segmentMarginMs = options.segmentMarginMs ?? frameDurationMs(this.fps);
    this.frameLastMs = frameDurationMs(this.fps) - FRAME_END_EPSILON_MS;
  }

  // ---- detections -------------------------------------------------------------------------------

  /** Replaces all detections (clears the detection selection of ids that disappear). */
  setDetections(detections: readonly D[]): void {
    this.entries.clear();
    this.pendingEntries.length = 0;
    this.fullRebuild = true;
    this.indexDirty = true;
    this.addAll(detections);
    this.pruneSelection();
    this.touch('detections');
  }

  /** Adds or replaces detections by id (window loads overlap, so the same id arrives more than once). */
  upsertDetections(detections: readonly D[]): void {
    if (detections.length === 0) return;
    this.addAll(detections);
    this.pruneSelection();
    this.touch('detections');
  }

  /**
   * Sets the brands and placements the video's project hides: detections of them leave the model (table,
   * canvas, next/previous and selection) and are not added by later loads.
   */
  setHidden(brandIds: readonly number[], placementIds: readonly number[]): void {
    this.hidden =
      brandIds.length > 0 || placementIds.length > 0
        ? { filter: EMPTY_FILTER, brands: new Set(brandIds), placements: new Set(placementIds) }
        : null;
    const gone = [...this.entries.values()].filter((e) => this.isHidden(e.det)).map((e) => e.det.id);
    this.removeDetections(gone);
  }

  private isHidden(detection: Detection): boolean {
    const h = this.hidden;
    return h !== null && (h.brands!.has(detection.brand) || h.placements!.has(detection.placement.id));
  }

  private addAll(detections: readonly D[]): void {
    for (const d of detections) {
      if (this.isHidden(d)) {
        // A detection moved to a hidden placement leaves the model like one loaded hidden.
        if (this.entries.delete(d.id)) this.indexDirty = true;
        continue;
      }
      // Detections are never mutated (edits replace the object), so the caller's object is kept unless its
      // segments need sorting.
      const sorted = sortSegments(d.coordinates);
      const det = sorted === d.coordinates ? d : { ...d, coordinates: sorted };
      const entry = this.entries.get(d.id);
      if (entry && entry.det.time_begin === det.time_begin && entry.det.time_end === det.time_end)
        entry.det = det;
      else {
        // A replaced entry with another span stays in the index until the rebuild drops it (not in the map).
        const fresh = { det };
        this.entries.set(d.id, fresh);
        this.pendingEntries.push(fresh);
        this.indexDirty = true;
      }
    }
  }

  /** Removes detections (false positive, delete) from the list and the selection. */
  removeDetections(ids: readonly number[]): void {
    let removed = false;
    for (const id of ids) {
      removed = this.entries.delete(id) || removed;
      this.selected.delete(id);
    }
    if (!removed) return;
    this.indexDirty = true;
    this.events.emit('detectionsRemoved', { ids: [...ids] });
    this.emitSelection();
    this.touch('detections');
  }

  /** Sets the placement of the given detections (after the "Change placement" call succeeded). */
  setDetectionsPlacement(ids: readonly number[], placement: PlacementRef): void {
    const updated: D[] = [];
    for (const id of ids) {
      const entry = this.entries.get(id);
      if (!entry) continue;
      entry.det = { ...entry.det, placement: { ...placement } };
      updated.push(entry.det);
    }
    if (updated.length === 0) return;
    this.events.emit('detectionsUpdated', { detections: updated });
    this.touch('detections');
  }

  /** Replaces one detection's segment points (used by the tools; the shell may use it to revert). */
  setDetectionSegmentPoints(id: number, segmentIndex: number, points: number[]): D | null {
    const entry = this.entries.get(id);
    if (!entry || segmentIndex < 0 || segmentIndex >= entry.det.coordinates.length) return null;
    entry.det = {
      ...entry.det,
      coordinates: replaceSegmentPoints(entry.det.coordinates, segmentIndex, points),
    };
    this.touch('detections');
    return entry.det;
  }

  /** Every loaded detection (the review queue searches them). */
  loadedDetections(): IterableIterator<D> {
    return (function* (entries: Map<number, ActiveEntry<D>>) {
      for (const e of entries.values()) yield e.det;
    })(this.entries);
  }

  getDetection(id: number): D | undefined {
    return this.entries.get(id)?.det;
  }

  /** Number of loaded detections. */
  get detectionCount(): number {
    return this.entries.size;
  }

  /** Placements known to the editor (used for draft colours and names). */
  setPlacements(placements: readonly PlacementRef[]): void {
    this.placementsById.clear();
    for (const p of placements) this.placementsById.set(p.id, p);
    this.touch('placements');
  }

  getPlacement(id: number | null): PlacementRef | undefined {
    return id === null ? undefined : this.placementsById.get(id);
  }

  // ---- time ------------------------------------------------------------------------------------

  /**
   * Sets the playback time (ms). Drafts extend when the time leaves their range (spec section 4).
   * Cheap when the frame does not change.
   */
  setTime(timeMs: number): void {
    const t = Number.isFinite(timeMs) ? Math.max(0, timeMs) : 0;
    const frame = frameTimeMs(t, this.fps);
    const frameChanged = frame !== this.frameMs;
    this.timeMs = t;
    this.frameMs = frame;
    this.frameLastMs = frame + frameDurationMs(this.fps) - FRAME_END_EPSILON_MS;
    if (!frameChanged) return;
    // Spec section 4: every draft extends, selected or not (a deselected draft must still gain a duration
    // before it can be finished). Copy the draft list only when a draft actually extends (this runs every
    // frame during playback).
    let list: Draft[] | null = null;
    for (let i = 0; i < this.draftList.length; i++) {
      const d = this.draftList[i];
      const next = extendDraftToTime(d, frame);
      if (next === d) continue;
      list ??= this.draftList.slice();
      list[i] = next;
      this.events.emit('draftChanged', { draft: next, cause: 'extended' });
    }
    if (list) {
      this.draftList = list;
      this.touch('drafts');
    }
    this.events.emit('changed', TIME_CHANGED);
  }

  /** The raw playback time (ms) last set. */
  get time(): number {
    return this.timeMs;
  }

  /** Start (ms) of the frame shown at the current time; quads and edits are taken at this time. */
  get frameTime(): number {
    return this.frameMs;
  }

  /**
   * Whether a span [begin, end] (ms) is active on the current frame, i.e. overlaps the frame's interval
   * [frame start, next frame start). Spec: "active at the current playback time, computed from fps". A span
   * starting or ending mid-frame is therefore shown on that frame.
   */
  isSpanActive(begin: number, end: number): boolean {
    return begin <= this.frameLastMs && end >= this.frameMs;
  }

  // ---- queries ---------------------------------------------------------------------------------

  /** Internal: active entries at the current frame, in a reused buffer. Do not keep the array. */
  activeEntries(): readonly ActiveEntry<D>[] {
    if (this.indexDirty) {
      if (this.fullRebuild) this.index.build([...this.entries.values()]);
      else this.index.update((e) => this.entries.get(e.det.id) === e, this.pendingEntries);
      this.pendingEntries.length = 0;
      this.fullRebuild = false;
      this.indexDirty = false;
      this.indexVersion++;
    }
    if (this.scratchFrame !== this.frameMs || this.scratchIndexVersion !== this.indexVersion) {
      this.index.queryRange(this.frameMs, this.frameLastMs, this.scratch);
      this.scratchFrame = this.frameMs;
      this.scratchIndexVersion = this.indexVersion;
    }
    return this.scratch;
  }

  /**
   * Detections active at the current frame ({@link EditorModel.isSpanActive}), including filtered ones,
   * in time_begin order. The array keeps its identity until the active set changes (React-friendly).
   */
  activeDetections(): readonly D[] {
    const entries = this.activeEntries();
    const snap = this.activeSnapshot;
    let same = snap.length === entries.length;
    for (let i = 0; same && i < entries.length; i++) same = snap[i] === entries[i].det;
    if (!same) this.activeSnapshot = entries.map((e) => e.det);
    return this.activeSnapshot;
  }

  /**
   * Rows of the Detections table: active detections; ones hit by the filter are included (flagged) only when
   * the filter's `visible` is on.
   */
  detectionRows(): DetectionRow<D>[] {
    const rows: DetectionRow<D>[] = [];
    for (const detection of this.activeDetections()) {
      const filtered = this.isFiltered(detection);
      if (filtered && !this.compiled.filter.visible) continue;
      rows.push({ detection, filtered, selected: this.selected.has(detection.id) });
    }
    return rows;
  }

  /** Whether the filter hits this detection. */
  isFiltered(detection: Detection): boolean {
    return isFilteredOut(detection, this.compiled);
  }

  /** Selectable on the overlay and in the table: not hit by the filter. */
  isInteractive(detection: Detection): boolean {
    return !this.isFiltered(detection);
  }

  /** Whether the toolbar (True/False Positive, Delete, Change placement) is enabled. */
  hasActiveSelection(): boolean {
    if (this.selected.size === 0) return false;
    for (const e of this.activeEntries()) if (this.selected.has(e.det.id)) return true;
    return false;
  }

  /** Selected detections active at the current frame (what the toolbar acts on). */
  activeSelectedIds(): number[] {
    return this.activeEntries()
      .filter((e) => this.selected.has(e.det.id))
      .map((e) => e.det.id);
  }

  /**
   * Start time (ms) of the next detection starting after the current frame, skipping detections the filter
   * hides; null when there is none (the shell alerts 'Cannot find next detection').
   */
  nextDetectionTime(): number | null {
    this.activeEntries();
    const hit = this.index.firstStartingAfter(this.frameLastMs, (e) => this.isShown(e.det));
    return hit ? hit.det.time_begin : null;
  }

  /**
   * Start time (ms) of the closest detection starting before the current frame, skipping hidden ones; null when
   * there is none (the shell alerts 'Cannot find previous detection').
   */
  previousDetectionTime(): number | null {
    this.activeEntries();
    const hit = this.index.lastStartingBefore(this.frameMs, (e) => this.isShown(e.det));
    return hit ? hit.det.time_begin : null;
  }

  private isShown(d: Detection): boolean {
    return this.compiled.filter.visible || !this.isFiltered(d);
  }

  /** The quad of a detection or draft at the current frame (no copy), or null when it is not active. */
  pointsOf(target: TargetRef): number[] | null {
    const t = this.frameMs;
    if (target.kind === 'detection') {
      const d = this.entries.get(target.id)?.det;
      if (!d || !this.isSpanActive(d.time_begin, d.time_end)) return null;
      return quadAt(d.coordinates, t);
    }
    const draft = this.draftList.find((x) => x.id === target.id);
    if (!draft || !this.isSpanActive(draft.time_begin, draft.time_end)) return null;
    return quadAt(draft.coordinates, t);
  }

  // ---- filter ----------------------------------------------------------------------------------

  get filter(): DetectionFilter {
    return this.compiled.filter;
  }

  /** Sets the filter. Detections it now hits leave the selection (they are disabled). */
  setFilter(filter: DetectionFilter): void {
    this.compiled = compileFilter({
      brandIds: [...filter.brandIds],
      placementIds: [...filter.placementIds],
      visible: filter.visible,
      unreviewedOnly: filter.unreviewedOnly ?? false,
      minConfidence: filter.minConfidence ?? 0,
    });
    let changed = false;
    for (const id of this.selected) {
      const d = this.entries.get(id)?.det;
      if (d && this.isFiltered(d)) {
        this.selected.delete(id);
        changed = true;
      }
    }
    if (changed) this.emitSelection();
    this.touch('filter');
  }

  /** Shows or hides filtered detections (hotkey v). */
  toggleFilteredVisible(): void {
    this.setFilter({ ...this.compiled.filter, visible: !this.compiled.filter.visible });
  }

  // ---- selection -------------------------------------------------------------------------------

  get selectedDetectionIds(): ReadonlySet<number> {
    return this.selected;
  }

  get selectedDraftIds(): ReadonlySet<number> {
    return this.selectedDrafts;
  }

  isSelected(target: TargetRef): boolean {
    return target.kind === 'detection' ? this.selected.has(target.id) : this.selectedDrafts.has(target.id);
  }

  /**
   * Sets the selection. `mode` 'replace' clears detections and drafts first, 'add' keeps them, 'toggle'
   * flips each target. Detections hit by the filter are never selected.
   */
  select(targets: readonly TargetRef[], mode: 'replace' | 'add' | 'toggle' = 'replace'): void {
    const before = this.selectionKey();
    if (mode === 'replace') {
      this.selected.clear();
      this.selectedDrafts.clear();
    }
    for (const t of targets) {
      const set = t.kind === 'detection' ? this.selected : this.selectedDrafts;
      if (t.kind === 'detection') {
        const d = this.entries.get(t.id)?.det;
        if (!d || this.isFiltered(d)) continue;
      } else if (!this.draftList.some((x) => x.id === t.id)) continue;
      if (mode === 'toggle' && set.has(t.id)) set.delete(t.id);
      else set.add(t.id);
    }
    if (this.selectionKey() !== before) {
      this.emitSelection();
      this.touch('selection');
    }
  }

  /** Table row click: toggles one detection. */
  toggleDetection(id: number): void {
    this.select([{ kind: 'detection', id }], 'toggle');
  }

  /** Table row click in the New Detections table: toggles one draft. */
  toggleDraft(id: number): void {
    this.select([{ kind: 'draft', id }], 'toggle');
  }

  clearSelection(): void {
    this.select([], 'replace');
  }

  private selectionKey(): string {
    return `${[...this.selected].join(',')}|${[...this.selectedDrafts].join(',')}`;
  }

  private pruneSelection(): void {
    let changed = false;
    for (const id of this.selected) {
      if (!this.entries.has(id)) {
        this.selected.delete(id);
        changed = true;
      }
    }
    if (changed) this.emitSelection();
  }

  private emitSelection(): void {
    this.events.emit('selectionChanged', {
      detectionIds: [...this.selected],
      draftIds: [...this.selectedDrafts],
    });
  }

  // ---- drafts ----------------------------------------------------------------------------------

  /** The drafts in creation order (the New Detections table; its # column is the position + 1). */
  get drafts(): readonly Draft[] {
    return this.draftList;
  }

  getDraft(id: number): Draft | undefined {
    return this.draftList.find((d) => d.id === id);
  }

  /**
   * Adds a draft at the current frame with the given quad (8 numbers, video pixels) and selects it alone among
   * drafts (the detection selection is kept). Emits `draftCreated`.
   */
  addDraft(points: readonly number[]): Draft {
    const draft = createDraft(this.nextDraftId++, this.videoId, this.frameMs, points);
    this.draftList = [...this.draftList, draft];
    this.events.emit('draftCreated', { draft });
    this.selectedDrafts.clear();
    this.selectedDrafts.add(draft.id);
    this.emitSelection();
    this.touch('drafts');
    return draft;
  }

  /** Set Brand on drafts. */
  setDraftsBrand(ids: readonly number[], brandId: number): void {
    this.updateDrafts(ids, (d) => ({ ...d, brandId }), 'brand');
  }

  /** Set placement on drafts. */
  setDraftsPlacement(ids: readonly number[], placementId: number): void {
    this.updateDrafts(ids, (d) => ({ ...d, placementId }), 'placement');
  }

  /** Sets a draft's quad at the current frame: overwrite the nearest segment within the margin, or split. */
  editDraftPoints(id: number, points: readonly number[], cause: 'moved' | 'resized'): Draft | null {
    let result: Draft | null = null;
    this.updateDrafts(
      [id],
      (d) => (result = editDraftPoints(d, this.frameMs, points, this.segmentMarginMs)),
      cause,
    );
    return result;
  }

  /**
   * Replaces a draft's whole track (an accepted Follow proposal): its segments and span. Emits `draftChanged`
   * with cause 'moved'.
   */
  setDraftTrack(id: number, coordinates: Segment[], timeBegin: number, timeEnd: number): void {
    this.updateDrafts(
      [id],
      (d) => ({
        ...d,
        coordinates: sortSegments(coordinates.slice()),
        time_begin: timeBegin,
        time_end: timeEnd,
      }),
      'moved',
    );
  }

  private updateDrafts(ids: readonly number[], fn: (d: Draft) => Draft, cause: EditorEventsCause): void {
    const wanted = new Set(ids);
    let changed = false;
    this.draftList = this.draftList.map((d) => {
      if (!wanted.has(d.id)) return d;
      const next = fn(d);
      changed = true;
      this.events.emit('draftChanged', { draft: next, cause });
      return next;
    });
    if (changed) this.touch('drafts');
  }

  /** Removes drafts (Delete, or after a successful upload of finished ones). */
  removeDrafts(ids: readonly number[]): void {
    const wanted = new Set(ids);
    const kept = this.draftList.filter((d) => !wanted.has(d.id));
    if (kept.length === this.draftList.length) return;
    const removed = this.draftList.filter((d) => wanted.has(d.id)).map((d) => d.id);
    this.draftList = kept;
    let selChanged = false;
    for (const id of removed) selChanged = this.selectedDrafts.delete(id) || selChanged;
    this.events.emit('draftsRemoved', { ids: removed });
    if (selChanged) this.emitSelection();
    this.touch('drafts');
  }

  /** Selected drafts, in table order. */
  selectedDraftList(): Draft[] {
    return this.draftList.filter((d) => this.selectedDrafts.has(d.id));
  }

  /** Whether "Finish selected new detections" is enabled (spec section 5). */
  canFinishSelectedDrafts(): boolean {
    return canFinishDrafts(this.selectedDraftList());
  }

  /** Drafts whose span contains the current frame (drawn and hit-testable on the overlay). */
  activeDrafts(): Draft[] {
    return this.draftList.filter((d) => this.isSpanActive(d.time_begin, d.time_end));
  }

  /** Index of the segment shown at the current frame for a detection (for edits). */
  segmentIndexOf(target: TargetRef): number {
    const coords =
      target.kind === 'detection'
        ? this.entries.get(target.id)?.det.coordinates
        : this.getDraft(target.id)?.coordinates;
    return coords ? segmentIndexAt(coords, this.frameMs) : -1;
  }

  // ---- proposed track -----------------------------------------------------------------------------

  /** The track the Follow tool proposes (drawn dotted until accepted or dismissed), or null. */
  get proposal(): TrackProposal | null {
    return this.proposalTrack;
  }

  setProposal(proposal: TrackProposal | null): void {
    this.proposalTrack = proposal;
    this.touch('detections');
  }

  /** Increases on every change; lets callers cache derived data. */
  get changeVersion(): number {
    return this.version;
  }

  private touch(reason: ChangeReason): void {
    this.version++;
    this.events.emit('changed', { reason });
  }
}

type EditorEventsCause = EditorEvents['draftChanged']['cause'];
