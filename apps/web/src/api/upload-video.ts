import { API } from '@logo-review/contract';
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

/**
 * Uploads a video with XMLHttpRequest, the only browser API that reports upload progress.
 * The file part goes last because the server streams it to disk while reading the fields first.
 */
export function uploadVideo(input: UploadVideoInput, onProgress: (percent: number) => void): UploadHandle {
  const xhr = new XMLHttpRequest();
  const form = new FormData();
  form.append('name', input.name);
  form.append('folder', input.folder === null ? '' : String(input.folder));
  if (input.project !== null) form.append('project', String(input.project));
  form.append('videoFile', input.file, input.file.name);

  const promise = new Promise<void>((resolve, reject) => {
    xhr.open('POST', API.videoCreate);
    for (const [key, value] of Object.entries(authHeaders())) xhr.setRequestHeader(key, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress((event.loaded / event.total) * 100);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve();
      if (xhr.status === 401) window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
      reject(new ApiError(xhr.status, xhr.statusText, detailFromBody(xhr.responseText)));
    };
    xhr.onerror = () => reject(new NetworkError('Network error'));
    xhr.onabort = () => reject(new NetworkError('Upload canceled'));
    xhr.send(form);
  });
  return { promise, abort: () => xhr.abort() };
}
