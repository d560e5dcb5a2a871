import { describe, expect, it } from 'vitest';
import type { Folder, Video, VideoTree } from '@logo-review/contract';
import { detectionCount, formatDuration, searchLibrary } from '../src/videos/video-tree';

const video = (id: number, name: string, extra: Partial<Video> = {}): Video => ({
  id,
  name,
  status: 'OK',
  status_reason: '',
  progress: 100,
  request_hash: '',
  frames: 250,
  fps: 25,
  duration: 10,
  width: 1280,
  height: 720,
  project: null,
  folder: null,
  video_file: `/media/videos/${id}/video.mp4?exp=1&sig=x`,
  file_name: `${name}.mp4`,
  size: 1,
  thumbnails: null,
  poster_url: null,
  created_at: '2026-01-01T00:00:00Z',
  detections_total: 0,
  detections_reviewed: 0,
  ...extra,
});

const folder = (id: number, name: string, path: string, videos: Video[], folders: Folder[] = []): Folder => ({
  id,
  name,
  path,
  parent: null,
  folders,
  videos,
});

const tree: VideoTree = {
  videos: [video(1, 'Final highlights')],
  folders: [
    folder(
      10,
      'Matches',
      '/Matches',
      [video(2, 'Derby FINAL')],
      [folder(11, '2026', '/Matches/2026', [video(3, 'final whistle'), video(4, 'Warm-up')])],
    ),
    folder(20, 'Empty', '/Empty', []),
  ],
};

describe('searchLibrary', () => {
  it('finds videos by a case-insensitive substring of the name in every folder, with their paths', () => {
    expect(searchLibrary(tree, '  FiNaL ').map(({ video, path }) => [video.id, path])).toEqual([
      [2, '/Matches'],
      [1, '/'],
      [3, '/Matches/2026'],
    ]);
    expect(searchLibrary(tree, 'warm').map(({ video, path }) => [video.name, path])).toEqual([
      ['Warm-up', '/Matches/2026'],
    ]);
  });

  it('finds nothing for an empty search, an unknown name or no tree', () => {
    expect(searchLibrary(tree, '')).toEqual([]);
    expect(searchLibrary(tree, '   ')).toEqual([]);
    expect(searchLibrary(tree, 'corner kick')).toEqual([]);
    expect(searchLibrary(undefined, 'final')).toEqual([]);
  });
});

describe('card texts', () => {
  it('counts detections', () => {
    expect(detectionCount(0)).toBe('0 detections');
    expect(detectionCount(1)).toBe('1 detection');
    expect(detectionCount(12345)).toBe('12,345 detections');
  });

  it('shows the duration as frames / fps', () => {
    expect(formatDuration(250, 25)).toBe('0:10');
    expect(formatDuration(90_000, 25)).toBe('1:00:00');
    expect(formatDuration(100, 0)).toBe('-');
  });
});
