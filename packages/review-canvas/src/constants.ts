/** Business constants from spec section 9 that the editor core uses. */

/** Distance in display pixels within which an edge or vertex is grabbed. */
export const CLICK_MARGIN_PX = 20;
/** Movement in display pixels after which a press becomes a drag (smaller = a click). */
export const DRAG_THRESHOLD_PX = 3;

/** Line width of a detection (display px). */
export const LINE_WIDTH = 3;
/** Line width of a selected detection, drawn with a glow. */
export const SELECTED_LINE_WIDTH = 5;
/** Line width of a detection hit by the filter (when filtered ones are visible). */
export const FILTERED_LINE_WIDTH = 1;
/** Drawing mode outline width. */
export const DRAWING_LINE_WIDTH = 3;
/** Drawing mode outline colour (red). */
export const DRAWING_COLOR = '#ff0000';
/** Brightening of the selected colour, in percent. */
export const SELECTED_BRIGHTEN_PERCENT = 40;
/** shadowBlur of the glow around selected detections (display px). */
export const SELECTED_GLOW_BLUR = 10;

/** Points of a finished new detection (4 corners, 8 numbers). */
export const NEW_DETECTION_POINTS = 4;

/** Playback speed step and bounds. */
export const SPEED_STEP = 0.5;
export const SPEED_MIN = 0;
export const SPEED_MAX = 6;
/** Next/previous second step (ms). */
export const SECOND_STEP_MS = 1000;

/** How often the shell checks whether a detection window must be requested. */
export const WINDOW_CHECK_PERIOD_MS = 2000;
/** Minimum request span, and how far beyond the position a request reaches. */
export const WINDOW_MIN_SPAN_MS = 10_000;
/** A request for an unloaded position starts this much before it. */
export const WINDOW_LEAD_MS = 1000;
/** Largest unloaded gap ahead of loaded data that a request bridges. */
export const WINDOW_MAX_GAP_MS = 300_000;
/** Windows closer than this merge. */
export const WINDOW_ERROR_MARGIN_MS = 10_000;

/** Playback position is saved this often (ms). */
export const TIME_SAVE_PERIOD_MS = 5000;

/** Local storage keys (spec section 3). */
export const STORAGE_KEYS = { VIDEO: 'VIDEO', TIME: 'TIME', PLAY_MODE: 'PLAY_MODE' } as const;

/** Detection table height = video height minus these two (spec section 9). */
export const TABLE_HEIGHT_OFFSETS = [52, 16] as const;

/** Alert texts when next/previous detection search finds nothing (spec section 5, exact). */
export const NEXT_DETECTION_NOT_FOUND = 'Cannot find next detection';
/** @see NEXT_DETECTION_NOT_FOUND */
export const PREVIOUS_DETECTION_NOT_FOUND = 'Cannot find previous detection';

/** Shown in the New Detections table when a draft has no brand or placement yet (spec section 2). */
export const NOT_SET_LABEL = 'Not set';
