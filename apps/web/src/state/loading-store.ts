import { createStore } from './create-store';

/** Spec: loading state is a flag plus a message; the shell shows it as a full-screen overlay. */
export interface LoadingState {
  active: boolean;
  label: string;
}

export const loadingStore = createStore<LoadingState>({ active: false, label: '' });

export function startLoading(label: string): void {
  loadingStore.set({ active: true, label });
}

export function stopLoading(): void {
  loadingStore.set({ active: false, label: '' });
}
