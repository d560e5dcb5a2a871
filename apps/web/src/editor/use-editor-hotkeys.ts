import { useEffect } from 'react';
import { hotkeyAction, isTextEntryElement, type HotkeyAction } from '@logo-review/review-canvas';
import type { EditorSession } from './editor-session';

/** True while a dialog or a menu is open: its own keys (typing, Escape, arrows) must not drive the video. */
function popupOpen(): boolean {
  return document.querySelector('[role="dialog"], [role="menu"], [role="listbox"]') !== null;
}

/**
 * The editor's hotkeys (spec section 2): m play mode, f filters, v toggle filtered, p play/pause, arrows
 * frame, Ctrl+arrows second, + and - speed, n and b next and previous detection. Nothing happens while a text
 * field has focus. Escape first goes to the core (cancels drawing or a drag).
 */
export function useEditorHotkeys(session: EditorSession | null, openFilters: () => void): void {
  useEffect(() => {
    if (!session) return;
    const actions: Record<HotkeyAction, () => void> = {
      togglePlayMode: () => session.togglePlayMode(),
      openFilters,
      toggleFilteredVisible: () => session.editor.model.toggleFilteredVisible(),
      togglePlay: () => session.togglePlay(),
      nextFrame: () => session.nextFrame(),
      previousFrame: () => session.previousFrame(),
      nextSecond: () => session.nextSecond(),
      previousSecond: () => session.previousSecond(),
      speedUp: () => session.speedUp(),
      speedDown: () => session.speedDown(),
      nextDetection: () => void session.nextDetection(),
      previousDetection: () => void session.previousDetection(),
    };
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.defaultPrevented || popupOpen()) return;
      if (session.editor.keyDown(e)) {
        e.preventDefault();
        session.scheduleRender();
        return;
      }
      const action = hotkeyAction(e, () =>
        isTextEntryElement(document.activeElement as HTMLInputElement | null),
      );
      if (!action) return;
      e.preventDefault();
      actions[action]();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [session, openFilters]);
}
