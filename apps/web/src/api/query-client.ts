import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError, formatError } from './api-error';
import { notify } from '../state/status-store';

/** Per-query meta: `errorMessage` is the spec's default message for that call (section 8). */
export interface AppQueryMeta extends Record<string, unknown> {
  errorMessage?: string;
}

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: AppQueryMeta;
  }
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError(error, query) {
        // A 401 is handled once, globally (logout + redirect); no snackbar for it.
        if (error instanceof ApiError && error.status === 401) return;
        const message = query.meta?.errorMessage;
        if (message) notify.error(formatError(error, message));
      },
    }),
    mutationCache: new MutationCache(),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (count, error) => !(error instanceof ApiError) && count < 1,
      },
    },
  });
}
