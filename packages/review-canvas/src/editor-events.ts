import type { Detection, Draft, Segment, TargetRef, VideoMode } from './types.ts';

/** What a pointer interaction does; `select` covers marquee and click selection. */
export type InteractionKind = 'select' | 'translate' | 'resize' | 'draw';

/** Payload of `detectionMoved` and `detectionResized`, emitted once at pointer-up. */
export interface DetectionEditEvent {
  id: number;
  /** Frame time (ms) at which the quad was edited. */
  time: number;
  /** Index of the edited segment in `coordinates`. */
  segmentIndex: number;
  /** The new quad (8 numbers, video pixels). */
  points: number[];
  /** The detection's whole new coordinates list (what the shell PATCHes). */
  coordinates: Segment[];
  /** For `detectionResized`: the corner (0..3) that moved. */
  vertex?: number;
}

/** Why the model changed (for the shell's re-render). */
export type ChangeReason = 'detections' | 'drafts' | 'selection' | 'filter' | 'time' | 'placements';

/** Every event of the editor core, by name. `D` is the shell's detection type (extra API fields are kept). */
export interface EditorEvents<D extends Detection = Detection> {
  /** The selection changed (detections and drafts are selected separately: two tables). */
  selectionChanged: { detectionIds: number[]; draftIds: number[] };
  /** A saved detection was translated by an edge (at pointer-up). The model is already updated. */
  detectionMoved: DetectionEditEvent;
  /** A saved detection's corner was dragged (at pointer-up). The model is already updated. */
  detectionResized: DetectionEditEvent;
  /** Four points were drawn: a draft now exists at the current time and is selected. */
  draftCreated: { draft: Draft };
  /** A draft's quad, span, brand or placement changed. */
  draftChanged: { draft: Draft; cause: 'moved' | 'resized' | 'extended' | 'brand' | 'placement' };
  /** Drafts were removed (discarded, or finished and uploaded). */
  draftsRemoved: { ids: number[] };
  /** Detections were removed (false positive, delete). */
  detectionsRemoved: { ids: number[] };
  /** A placement change was applied to detections. */
  detectionsUpdated: { detections: D[] };
  /** A pointer interaction or drawing began: the shell pauses a playing video and remembers it was playing. */
  interactionStarted: { kind: InteractionKind; target: TargetRef | null };
  /** It ended: pass this payload to `shouldResumeAfterInteraction`. */
  interactionEnded: { kind: InteractionKind; cancelled: boolean; selectedSomething: boolean };
  /** NORMAL or NEW_DETECTION (drawing). */
  videoModeChanged: { mode: VideoMode };
  /** Something visible changed; the shell re-renders tables (cheap to subscribe with useSyncExternalStore). */
  changed: { reason: ChangeReason };
}
