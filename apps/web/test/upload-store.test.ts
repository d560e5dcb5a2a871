import { beforeEach, describe, expect, it } from 'vitest';
import {
  addTask,
  dismissTask,
  hasActiveUploads,
  updateTask,
  uploadStore,
  uploadTitle,
} from '../src/state/upload-store';

describe('upload tasks', () => {
  beforeEach(() => uploadStore.set([]));

  it('titles follow the progress', () => {
    expect(uploadTitle({ uploadId: 'a', name: 'v', percentCompleted: 0 })).toBe('Uploading video');
    expect(uploadTitle({ uploadId: 'a', name: 'v', percentCompleted: 99 })).toBe('Uploading video');
    expect(uploadTitle({ uploadId: 'a', name: 'v', percentCompleted: 100 })).toBe('Uploaded video');
    expect(uploadTitle({ uploadId: 'a', name: 'v', percentCompleted: -1 })).toBe('Failed uploading video');
  });

  it('only finished or failed tasks can be dismissed', () => {
    addTask({ uploadId: 'a', name: 'A', percentCompleted: 40 });
    addTask({ uploadId: 'b', name: 'B', percentCompleted: 0 });
    expect(hasActiveUploads()).toBe(true);
    dismissTask('a');
    expect(uploadStore.get()).toHaveLength(2);
    updateTask('a', 100);
    updateTask('b', -1);
    expect(hasActiveUploads()).toBe(false);
    dismissTask('a');
    dismissTask('b');
    expect(uploadStore.get()).toEqual([]);
  });
});
