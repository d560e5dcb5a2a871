import { createStore } from './create-store';

/** Spec section 3: level 0 success, 1 info, 2 warning, 3 error. */
export const STATUS_LEVEL = { success: 0, info: 1, warning: 2, error: 3 } as const;
export type StatusLevel = (typeof STATUS_LEVEL)[keyof typeof STATUS_LEVEL];

/** Status messages last 6 s unless told otherwise (spec section 9). */
export const STATUS_DURATION_MS = 6000;

export interface StatusMessage {
  /** Increases with every message so the same text twice still re-opens the snackbar. */
  key: number;
  level: StatusLevel;
  message: string;
  duration: number;
}

export const statusStore = createStore<StatusMessage | null>(null);
let counter = 0;

function push(level: StatusLevel, message: string, duration = STATUS_DURATION_MS): void {
  counter += 1;
  statusStore.set({ key: counter, level, message, duration });
}

export const notify = {
  success: (message: string, duration?: number) => push(STATUS_LEVEL.success, message, duration),
  info: (message: string, duration?: number) => push(STATUS_LEVEL.info, message, duration),
  warning: (message: string, duration?: number) => push(STATUS_LEVEL.warning, message, duration),
  error: (message: string, duration?: number) => push(STATUS_LEVEL.error, message, duration),
  clear: () => statusStore.set(null),
};
