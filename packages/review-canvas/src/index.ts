/**
 * @logo-review/review-canvas: the framework-free core of the review editor (spec section 2 "Editor").
 * See README.md for the whole API on one page.
 */
export * from './types.ts';
export * from './constants.ts';
export { Emitter } from './emitter.ts';
export type { EditorEvents, DetectionEditEvent, InteractionKind, ChangeReason } from './editor-events.ts';
export {
  EditorModel,
  type EditorModelOptions,
  type DetectionRow,
  type ActiveEntry,
  type TrackProposal,
} from './editor-model.ts';
export { MAX_ZOOM, IDENTITY_VIEW, clampView, zoomAt, panBy, wheelZoomFactor, type ZoomView } from './view.ts';
export { LabelLayout, defaultLabelText, LABEL_FONT, LABEL_HEIGHT } from './labels.ts';
export { UndoStack, type UndoEntry } from './undo-stack.ts';
export { nextInQueue, bestFrameTime, type ReviewOrder } from './review-queue.ts';
export { reviewHotkey, REVIEW_KEYS, type ReviewAction } from './review-keys.ts';
export { ToolMachine, type ToolMachineOptions } from './tools/tool-machine.ts';
export type { PointerInput, KeyInput, ToolStateId, ToolOverlay } from './tools/tool-state.ts';
export {
  OverlayRenderer,
  DEFAULT_THEME,
  UNREVIEWED_DASH,
  EDITED_MARK_PX,
  PROPOSAL_COLOR,
  type CanvasLike,
  type Viewport,
  type RendererTheme,
} from './renderer.ts';
export { ReviewEditor, type ReviewEditorOptions } from './review-editor.ts';
export { hitHandle, targetsInRect, type HandleHit } from './hit-test.ts';
export { IntervalIndex } from './interval-index.ts';
export { segmentIndexAt, quadAt } from './segments.ts';
export {
  createDraft,
  extendDraftToTime,
  editDraftPoints,
  validateDraft,
  isDraftValid,
  canFinishDrafts,
  finishBlockedReason,
  draftToUpload,
  type DraftProblem,
  type NewDetectionUpload,
} from './drafts.ts';
export { EMPTY_FILTER, isFilteredOut, compileFilter, type CompiledFilter } from './filter.ts';
export { brighten } from './color.ts';
export { distanceToSegmentSq, polygonContains, polygonIntersectsRect, rectFromPoints } from './geometry.ts';
export {
  FALLBACK_FPS,
  effectiveFps,
  frameDurationMs,
  frameIndexAt,
  frameTimeMs,
  nextFrameTime,
  previousFrameTime,
  nextSecondTime,
  previousSecondTime,
  formatTimecode,
  formatTimeDisplay,
} from './time.ts';
export {
  parsePlayMode,
  togglePlayMode,
  speedUp,
  speedDown,
  SECONDS_MODE_TICK_MS,
  secondsModeTick,
  DURATION_UNKNOWN_WARNING,
  progressClickTime,
  progressHoverTime,
  shouldResumeAfterInteraction,
  type WarnLogger,
  type InteractionOutcome,
} from './playback.ts';
export {
  DEFAULT_WINDOW_POLICY,
  addWindow,
  firstUncovered,
  windowAt,
  planWindowRequest,
  WindowTracker,
  type TimeWindow,
  type WindowPolicy,
} from './detection-windows.ts';
export { hotkeyAction, isTextEntryElement, type HotkeyAction, type HotkeyEvent } from './hotkeys.ts';
export {
  fitVideo,
  detectionTableHeight,
  videoMimeType,
  sortBrandsForMenu,
  type FittedVideo,
} from './layout.ts';
