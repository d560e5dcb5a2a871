import { DetailedError, Upload } from 'tus-js-client';
import { ApiError, NetworkError, detailFromBody } from './api-error';
import { UNAUTHORIZED_EVENT, authHeaders } from './http-client';

export interface UploadVideoInput {
  name: string;
  file: File;
  folder: number | null;
  project: number | null;
}

export interface UploadHandle {
  promise: Promise<void>;
  abort(): void;
}

/** The server's resumable upload endpoint (tus 1.0, apps/server/src/api/tus-uploads.ts). */
export const TUS_ENDPOINT = '/api/videos/uploads/';

/**
 * After a dropped connection or a server restart the upload asks the server how far it got and
 * goes on from there: at once, then after 1, 3, 5, 10 ... seconds, for about two and a half
 * minutes before it gives up.
 */
export const RETRY_DELAYS = [0, 1000, 3000, 5000, 10000, 10000, 20000, 30000, 60000];

/**
 * Each PATCH carries at most this much, so that no single request runs for long behind a proxy
 * or a server timeout; a dropped one costs at most this much again.
 */
export const CHUNK_SIZE = 64 * 1024 * 1024;

/**
 * Which earlier upload this one continues: the same file (name, size, date) for the same
 * video (name, folder, project). Kept in localStorage by tus-js-client, so choosing the same
 * file again after a page reload resumes it instead of starting over.
 */
export function fingerprintOf(input: UploadVideoInput): string {
  const f = input.file;
  return [
    'logo-review-video',
    f.name,
    f.type,
    f.size,
    f.lastModified,
    input.name,
    input.folder ?? '',
    input.project ?? '',
  ].join('/');
}

/**
 * Whether a failed request is tried again (after RETRY_DELAYS): no answer (0), a server error
 * or a conflict may pass later; a refusal (4xx) or a full disk (507) will not.
 */
export function shouldRetry(status: number): boolean {
  if (status === 507) return false;
  return !(status >= 400 && status < 500) || status === 409 || status === 423;
}

/** The answer the server gave (status, reason, detail) as the rest of the app shows it. */
function toAppError(error: Error | DetailedError): Error {
  const response = error instanceof DetailedError ? error.originalResponse : null;
  if (!response) {
    const cause = error instanceof DetailedError ? error.causingError : null;
    return new NetworkError(cause?.message ?? error.message);
  }
  const status = response.getStatus();
  if (status === 401) window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
  const xhr = response.getUnderlyingObject() as XMLHttpRequest | undefined;
  return new ApiError(status, xhr?.statusText ?? '', detailFromBody(response.getBody() ?? ''));
}

/**
 * Uploads a video with the tus resumable upload protocol (tus-js-client). The form's fields go
 * in the upload's metadata and are checked by the server before any byte is sent; the video is
 * made when the last byte arrives. Progress is the share of the file the server has received.
 */
export function uploadVideo(input: UploadVideoInput, onProgress: (percent: number) => void): UploadHandle {
  let upload: Upload | undefined;
  let aborted = false;
  let rejectUpload: (error: Error) => void = () => undefined;

  const promise = new Promise<void>((resolve, reject) => {
    rejectUpload = reject;
    upload = new Upload(input.file, {
      endpoint: new URL(TUS_ENDPOINT, window.location.origin).href,
      chunkSize: CHUNK_SIZE,
      retryDelays: RETRY_DELAYS,
      metadata: {
        name: input.name,
        folder: input.folder === null ? '' : String(input.folder),
        project: input.project === null ? '' : String(input.project),
        filename: input.file.name,
        filetype: input.file.type,
      },
      headers: authHeaders(),
      fingerprint: () => Promise.resolve(fingerprintOf(input)),
      removeFingerprintOnSuccess: true,
      onShouldRetry: (error) => shouldRetry(error.originalResponse?.getStatus() ?? 0),
      onProgress: (sent, total) => {
        if (total > 0) onProgress((sent / total) * 100);
      },
      onSuccess: () => resolve(),
      onError: (error) => reject(toAppError(error)),
    });
    const started = upload;
    // A file chosen again for the same video continues the upload it began (page reload,
    // browser restart), if the server still has it.
    started
      .findPreviousUploads()
      .then((previous) => {
        if (previous.length > 0) started.resumeFromPreviousUpload(previous[0]);
      })
      .catch(() => undefined)
      .finally(() => {
        if (!aborted) started.start();
      });
  });
  return {
    promise,
    abort: () => {
      // Cancelled on purpose (logout): the partial upload is deleted on the server too.
      aborted = true;
      void upload?.abort(true).catch(() => undefined);
      rejectUpload(new NetworkError('Upload canceled'));
    },
  };
}
