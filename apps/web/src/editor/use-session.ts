import { useEffect, useState } from 'react';
import type { Placement, Video } from '@logo-review/contract';
import { useStore } from '../state/create-store';
import { EditorSession } from './editor-session';

/**
 * One {@link EditorSession} per opened video, created in an effect (not during render) so StrictMode's
 * double mount disposes the first one instead of leaking its timers.
 */
export function useEditorSession(video: Video, placements: readonly Placement[]): EditorSession | null {
  const [session, setSession] = useState<EditorSession | null>(null);
  useEffect(() => {
    const s = new EditorSession(video, placements);
    setSession(s);
    return () => {
      s.dispose();
      setSession(null);
    };
    // The session follows the video id; a refetched video object or placement list does not restart it.
  }, [video.id]);
  useEffect(() => {
    session?.editor.model.setPlacements(placements);
  }, [session, placements]);
  return session;
}

/** Re-renders on changes the panels show (not on every frame). */
export function usePanelVersion(session: EditorSession): number {
  return useStore(session.version);
}
