import type { HotkeyEvent } from './hotkeys.ts';

/** Actions of the review keys (issue 17); they add to the spec's hotkeys and never reuse one. */
export type ReviewAction =
  | 'truePositive'
  | 'falsePositive'
  | 'delete'
  | 'nextUnreviewed'
  | 'toggleOrder'
  | 'toggleLabels'
  | 'resetZoom'
  | 'help'
  | 'undo'
  | 'redo'
  | 'follow'
  | 'acceptTrack'
  | 'trimBegin'
  | 'trimEnd'
  | 'split'
  | 'merge'
  | 'history';

/**
 * Every review key with its help text, in the order the help overlay lists them. The spec's keys (m f v p,
 * arrows, Ctrl+arrows, + -, n b) stay theirs; these avoid them and the browser's Ctrl+letter shortcuts
 * (except Ctrl+Z and Ctrl+Shift+Z, which are what every editor uses for undo and redo).
 */
export const REVIEW_KEYS: ReadonlyArray<{ keys: string; action: ReviewAction; help: string }> = [
  { keys: 't', action: 'truePositive', help: 'True positive (selection, or the current detection)' },
  { keys: 'r', action: 'falsePositive', help: 'False positive (reject)' },
  { keys: 'Delete / d', action: 'delete', help: 'Delete' },
  { keys: 'u', action: 'nextUnreviewed', help: 'Go to the next unreviewed detection' },
  { keys: 'o', action: 'toggleOrder', help: 'Review order: by time or by confidence' },
  { keys: 'l', action: 'toggleLabels', help: 'Show or hide the box labels' },
  { keys: '0', action: 'resetZoom', help: 'Reset zoom (wheel or pinch zooms, drag with Alt pans)' },
  { keys: 'Ctrl+Z', action: 'undo', help: 'Undo' },
  { keys: 'Ctrl+Shift+Z / Ctrl+Y', action: 'redo', help: 'Redo' },
  { keys: 'k', action: 'follow', help: 'Follow: propose the track of the selected box' },
  { keys: 'Enter', action: 'acceptTrack', help: 'Accept the proposed track (Esc dismisses it)' },
  { keys: '[', action: 'trimBegin', help: 'Trim the selected track to begin at this frame' },
  { keys: ']', action: 'trimEnd', help: 'Trim the selected track to end at this frame' },
  { keys: 's', action: 'split', help: 'Split the selected track at this frame' },
  { keys: 'g', action: 'merge', help: 'Merge the two selected tracks (same brand)' },
  { keys: 'h', action: 'history', help: "The selected detection's history (who did what, when)" },
  { keys: '?', action: 'help', help: 'This help' },
];

const LETTERS: Record<string, ReviewAction> = {
  t: 'truePositive',
  r: 'falsePositive',
  d: 'delete',
  u: 'nextUnreviewed',
  o: 'toggleOrder',
  l: 'toggleLabels',
  k: 'follow',
  s: 'split',
  g: 'merge',
  h: 'history',
};

/**
 * Maps a key event to a review action, or null. Like the spec's hotkeys, nothing while a text field has
 * focus; letters only without Ctrl, Meta or Alt.
 */
export function reviewHotkey(
  e: HotkeyEvent & { shiftKey?: boolean },
  isTextInputFocused: () => boolean,
): ReviewAction | null {
  if (isTextInputFocused()) return null;
  const mod = !!e.ctrlKey || !!e.metaKey;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  if (mod && !e.altKey) {
    if (key === 'z') return e.shiftKey ? 'redo' : 'undo';
    if (key === 'y' && !e.shiftKey) return 'redo';
    return null;
  }
  if (mod || e.altKey) return null;
  switch (e.key) {
    case 'Delete':
      return 'delete';
    case 'Enter':
      return 'acceptTrack';
    case '?':
      return 'help';
    case '0':
      return 'resetZoom';
    case '[':
      return 'trimBegin';
    case ']':
      return 'trimEnd';
  }
  return LETTERS[key] ?? null;
}
