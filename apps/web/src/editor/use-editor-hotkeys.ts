import { useEffect } from 'react';
import {
  hotkeyAction,
  isTextEntryElement,
  reviewHotkey,
  type HotkeyAction,
  type ReviewAction,
} from '@logo-review/review-canvas';
import type { EditorSession } from './editor-session';

/** True while a dialog or a menu is open: its own keys (typing, Escape, arrows) must not drive the video. */
function popupOpen(): boolean {
  return document.querySelector('[role="dialog"], [role="menu"], [role="listbox"]') !== null;
}

/**
 * The editor's hotkeys (spec section 2): m play mode, f filters, v toggle filtered, p play/pause, arrows
 * frame, Ctrl+arrows second, + and - speed, n and b next and previous detection; and the review keys of
 * issue 17 (REVIEW_KEYS: verdicts, queue, labels, zoom, undo/redo, tracks, `?` help). Nothing happens while a
 * text field has focus. Escape first goes to the core (cancels drawing or a drag), then dismisses a proposed
 * track.
 */
export function useEditorHotkeys(
  session: EditorSession | null,
  openFilters: () => void,
  openHelp: () => void,
  openHistory: (id: number) => void,
): void {
  useEffect(() => {
    if (!session) return;
    const { review, editor } = session;
    const actions: Record<HotkeyAction, () => void> = {
      togglePlayMode: () => session.togglePlayMode(),
      openFilters,
      toggleFilteredVisible: () => editor.model.toggleFilteredVisible(),
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
    const reviewActions: Record<ReviewAction, () => void> = {
      truePositive: () => void review.verdict('truePositive'),
      falsePositive: () => void review.verdict('falsePositive'),
      delete: () => void review.verdict('delete'),
      nextUnreviewed: () => void review.advance(),
      toggleOrder: () => review.toggleOrder(),
      toggleLabels: () => {
        editor.toggleLabels();
        session.scheduleRender();
        session.version.set((v) => v + 1);
      },
      resetZoom: () => session.resetZoom(),
      help: openHelp,
      undo: () => void review.undo(),
      redo: () => void review.redo(),
      follow: () => void review.follow(),
      acceptTrack: () => void review.acceptTrack(),
      trimBegin: () => void review.trim('begin'),
      trimEnd: () => void review.trim('end'),
      split: () => void review.split(),
      merge: () => void review.merge(),
      history: () => {
        const ids = editor.model.activeSelectedIds();
        if (ids.length === 1) openHistory(ids[0]);
      },
    };
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.defaultPrevented || popupOpen()) return;
      if (editor.keyDown(e)) {
        e.preventDefault();
        session.scheduleRender();
        return;
      }
      if (e.key === 'Escape' && review.dismissTrack()) {
        e.preventDefault();
        return;
      }
      const textFocused = () => isTextEntryElement(document.activeElement as HTMLInputElement | null);
      const action = hotkeyAction(e, textFocused);
      if (action) {
        e.preventDefault();
        actions[action]();
        return;
      }
      // Enter on a focused button or link is that control's own key.
      const tag = (document.activeElement as HTMLElement | null)?.tagName;
      if (e.key === 'Enter' && (tag === 'BUTTON' || tag === 'A')) return;
      const r = reviewHotkey(e, textFocused);
      if (!r || e.repeat) return;
      e.preventDefault();
      reviewActions[r]();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [session, openFilters, openHelp, openHistory]);
}
