import { uploadVideo, type UploadHandle, type UploadVideoInput } from '../api/upload-video';
import { formatError } from '../api/api-error';
import { notify } from '../state/status-store';
import { addTask, updateTask, UPLOAD_DONE, UPLOAD_FAILED } from '../state/upload-store';

/** Spec section 9: upload progress is reported at most every 5 s. */
export const PROGRESS_REPORT_MS = 5000;
/** Spec section 4: the success message and 100 % follow 1 s after the list reload. */
export const SUCCESS_DELAY_MS = 1000;

const handles = new Map<string, UploadHandle>();
let sequence = 0;

/**
 * Starts an upload that lives outside any component, so it keeps running while the user
 * moves between pages; progress goes to the Ongoing tasks panel.
 */
export function startUpload(input: UploadVideoInput, reloadList: () => Promise<unknown>): string {
  sequence += 1;
  const uploadId = `upload-${Date.now()}-${sequence}`;
  addTask({ uploadId, name: input.name, percentCompleted: 0 });
  notify.info(`Starting to upload video ${input.name}`);

  let lastReport = Date.now();
  const handle = uploadVideo(input, (percent) => {
    const now = Date.now();
    if (now - lastReport < PROGRESS_REPORT_MS) return;
    lastReport = now;
    // 100 is reserved for "done": the server still has to store the file when the bytes are sent.
    updateTask(uploadId, Math.min(99, Math.floor(percent)));
  });
  handles.set(uploadId, handle);

  handle.promise
    .then(async () => {
      await reloadList().catch(() => undefined);
      setTimeout(() => {
        updateTask(uploadId, UPLOAD_DONE);
        notify.success('Successfully uploaded new video.');
      }, SUCCESS_DELAY_MS);
    })
    .catch((error: unknown) => {
      updateTask(uploadId, UPLOAD_FAILED);
      notify.error(formatError(error, 'Error creating new video'));
    })
    .finally(() => handles.delete(uploadId));
  return uploadId;
}

/** Cancels every running upload (logout). */
export function abortAllUploads(): void {
  handles.forEach((h) => h.abort());
  handles.clear();
}
