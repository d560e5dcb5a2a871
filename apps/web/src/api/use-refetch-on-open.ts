import { useEffect, useRef } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';

/**
 * Asks the server again for the lists a form picks from, once, when the form opens.
 *
 * The page that opens the form may hold a copy of a list younger than `staleTime`, so mounting it
 * fetched nothing: a project made a moment ago (in another tab, by a colleague, or through the
 * API) was then missing from the form's picker. Invalidating marks the copy stale and refetches
 * it wherever it is shown; the picker's options update when the answer arrives.
 */
export function useRefetchOnOpen(...keys: QueryKey[]): void {
  const queryClient = useQueryClient();
  // Once per opening (each opening mounts the form anew), with the keys it opened with.
  const opened = useRef(keys);
  useEffect(() => {
    for (const queryKey of opened.current) void queryClient.invalidateQueries({ queryKey, exact: true });
  }, [queryClient]);
}
