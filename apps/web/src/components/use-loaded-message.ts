import { useEffect, useRef } from 'react';

/**
 * Shows a message once per page visit, when its list first arrives from the server
 * (spec: 'Retrieved tags.', 'Retrieved verification videos.'). Background polling stays quiet.
 */
export function useLoadedMessage(isFetchedOk: boolean, dataUpdatedAt: number, show: () => void): void {
  const mountedAt = useRef(Date.now());
  const shown = useRef(false);
  useEffect(() => {
    if (shown.current || !isFetchedOk || dataUpdatedAt < mountedAt.current) return;
    shown.current = true;
    show();
  }, [isFetchedOk, dataUpdatedAt, show]);
}
