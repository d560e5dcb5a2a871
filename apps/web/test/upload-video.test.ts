import { describe, expect, it } from 'vitest';
import { fingerprintOf, shouldRetry, type UploadVideoInput } from '../src/api/upload-video';

const input = (over: Partial<UploadVideoInput> = {}): UploadVideoInput => ({
  name: 'Final',
  file: new File([new Uint8Array(10)], 'match.mp4', { type: 'video/mp4', lastModified: 1700000000000 }),
  folder: 3,
  project: null,
  ...over,
});

describe('resumable upload (tus-js-client)', () => {
  it('continues an earlier upload only for the same file and the same video', () => {
    expect(fingerprintOf(input())).toBe(fingerprintOf(input()));
    expect(fingerprintOf(input({ name: 'Other' }))).not.toBe(fingerprintOf(input()));
    expect(fingerprintOf(input({ folder: null }))).not.toBe(fingerprintOf(input()));
    expect(fingerprintOf(input({ project: 4 }))).not.toBe(fingerprintOf(input()));
    const edited = new File([new Uint8Array(10)], 'match.mp4', {
      type: 'video/mp4',
      lastModified: 1700000000001,
    });
    expect(fingerprintOf(input({ file: edited }))).not.toBe(fingerprintOf(input()));
  });

  it('retries what may pass later, not a refusal or a full disk', () => {
    for (const status of [0, 500, 502, 503, 409, 423]) expect(shouldRetry(status)).toBe(true);
    for (const status of [400, 401, 403, 404, 410, 413, 507]) expect(shouldRetry(status)).toBe(false);
  });
});
