/** Actions the editor's hotkeys trigger (spec section 2). */
export type HotkeyAction =
  | 'togglePlayMode'
  | 'openFilters'
  | 'toggleFilteredVisible'
  | 'togglePlay'
  | 'nextFrame'
  | 'previousFrame'
  | 'nextSecond'
  | 'previousSecond'
  | 'speedUp'
  | 'speedDown'
  | 'nextDetection'
  | 'previousDetection';

/** The fields of a KeyboardEvent the map reads. */
export interface HotkeyEvent {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
}

const LETTERS: Record<string, HotkeyAction> = {
  m: 'togglePlayMode',
  f: 'openFilters',
  v: 'toggleFilteredVisible',
  p: 'togglePlay',
  n: 'nextDetection',
  b: 'previousDetection',
};

/**
 * Maps a key event to an editor action, or null. Keys: m play mode, f filters, v toggle filtered, p play/pause,
 * ArrowRight/ArrowLeft next/previous frame, Ctrl+ArrowRight/Ctrl+ArrowLeft next/previous second, + and -
 * speed, n and b next and previous detection.
 *
 * Returns null while a text field has focus (`isTextInputFocused`, e.g. the filter dialog's search), and for
 * letters combined with Ctrl, Meta or Alt (those are the browser's shortcuts, like Ctrl+F).
 */
export function hotkeyAction(e: HotkeyEvent, isTextInputFocused: () => boolean): HotkeyAction | null {
  if (isTextInputFocused()) return null;
  const ctrl = !!e.ctrlKey;
  if (e.key === 'ArrowRight') return e.altKey || e.metaKey ? null : ctrl ? 'nextSecond' : 'nextFrame';
  if (e.key === 'ArrowLeft') return e.altKey || e.metaKey ? null : ctrl ? 'previousSecond' : 'previousFrame';
  if (ctrl || e.metaKey || e.altKey) return null;
  if (e.key === '+') return 'speedUp';
  if (e.key === '-') return 'speedDown';
  return LETTERS[e.key.toLowerCase()] ?? null;
}

/**
 * A predicate for {@link hotkeyAction} in a browser: true when the focused element takes text (input other
 * than buttons/checkboxes, textarea, select, contenteditable). Pass `document.activeElement`.
 */
export function isTextEntryElement(
  el: { tagName?: string; type?: string; isContentEditable?: boolean } | null,
): boolean {
  if (!el || !el.tagName) return false;
  if (el.isContentEditable) return true;
  const tag = el.tagName.toUpperCase();
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  const type = (el.type ?? 'text').toLowerCase();
  return !['button', 'checkbox', 'radio', 'range', 'submit', 'reset', 'color', 'file', 'image'].includes(
    type,
  );
}
