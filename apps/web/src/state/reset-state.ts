import type { QueryClient } from '@tanstack/react-query';
import { setToken } from '../auth/token-store';
import { stopLoading } from './loading-store';
import { notify } from './status-store';
import { uploadStore } from './upload-store';

/** Logout or an unauthorized event: clear the token and reset the whole state (spec section 4). */
export function resetAllState(queryClient: QueryClient): void {
  setToken(null);
  queryClient.clear();
  uploadStore.set([]);
  stopLoading();
  notify.clear();
}
