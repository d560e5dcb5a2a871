import { VIDEO_STATUS } from '@logo-review/contract';

/** Spec section 4: OK is clickable; 'ERROR PROCESSING' is an error; anything else is processing. */
export type VideoState = 'ok' | 'error' | 'processing';

export function videoState(status: string): VideoState {
  if (status === VIDEO_STATUS.OK) return 'ok';
  if (status === VIDEO_STATUS.ERROR) return 'error';
  return 'processing';
}
