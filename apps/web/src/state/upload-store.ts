import { createStore } from './create-store';

/** Spec section 3: percentCompleted is 0..99 while uploading, 100 when done, -1 when failed. */
export interface UploadTask {
  uploadId: string;
  name: string;
  percentCompleted: number;
}

export const UPLOAD_FAILED = -1;
export const UPLOAD_DONE = 100;

export const uploadStore = createStore<UploadTask[]>([]);

export function isActive(task: UploadTask): boolean {
  return task.percentCompleted >= 0 && task.percentCompleted < UPLOAD_DONE;
}

export function hasActiveUploads(): boolean {
  return uploadStore.get().some(isActive);
}

export function uploadTitle(task: UploadTask): string {
  if (task.percentCompleted === UPLOAD_FAILED) return 'Failed uploading video';
  if (task.percentCompleted >= UPLOAD_DONE) return 'Uploaded video';
  return 'Uploading video';
}

export function addTask(task: UploadTask): void {
  uploadStore.set((tasks) => [...tasks, task]);
}

export function updateTask(uploadId: string, percentCompleted: number): void {
  uploadStore.set((tasks) => tasks.map((t) => (t.uploadId === uploadId ? { ...t, percentCompleted } : t)));
}

/** Only finished or failed entries can be dismissed. */
export function dismissTask(uploadId: string): void {
  uploadStore.set((tasks) => tasks.filter((t) => t.uploadId !== uploadId || isActive(t)));
}

/** Spec: leaving the page during an active upload warns with this text. */
export const LEAVE_WARNING =
  'There are currently active uploads. If you leave, uploading will be canceled. Are you sure you want to continue?';
