import { useEffect } from 'react';
import { hasActiveUploads, LEAVE_WARNING } from '../state/upload-store';

/** Warns before the page unloads while an upload runs (the browser shows its own wording). */
export function LeavePageGuard() {
  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!hasActiveUploads()) return;
      event.preventDefault();
      // Legacy browsers display this text; modern ones show a generic prompt.
      event.returnValue = LEAVE_WARNING;
      return LEAVE_WARNING;
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, []);
  return null;
}
