import { describe, expect, it } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { exportOptions } from '../src/videos/export-wizard';
import { RENDER_STEP, useRenderBudget } from '../src/components/progressive-list';
import { verificationUrl } from '../src/verification/verification-url';
import { formatDuration, folderChain } from '../src/videos/video-tree';

describe('export wizard modes', () => {
  const picked = { tagIds: [3], brandIds: [1, 2], placementIds: [9] };
  it('default sends brand and placement filters (empty = everything)', () => {
    expect(exportOptions(5, { mode: 'default', ...picked })).toEqual({
      videoId: 5,
      brandIds: [1, 2],
      placementIds: [9],
    });
    expect(exportOptions(5, { mode: 'default', tagIds: [], brandIds: [], placementIds: [] })).toEqual({
      videoId: 5,
      brandIds: [],
      placementIds: [],
    });
  });
  it('with tags sends only the tags', () => {
    expect(exportOptions(5, { mode: 'tags', ...picked })).toEqual({ videoId: 5, tagIds: [3] });
  });
  it('without placement sends the brands and the flag', () => {
    expect(exportOptions(5, { mode: 'withoutPlacement', ...picked })).toEqual({
      videoId: 5,
      brandIds: [1, 2],
      withoutPlacement: true,
    });
  });
});

describe('render budget', () => {
  it('grows by steps and starts over when the search changes', () => {
    const { result, rerender } = renderHook(({ key }) => useRenderBudget(key), { initialProps: { key: '' } });
    expect(result.current[0]).toBe(RENDER_STEP);
    act(() => result.current[1]());
    act(() => result.current[1]());
    expect(result.current[0]).toBe(3 * RENDER_STEP);
    rerender({ key: 'nike' });
    expect(result.current[0]).toBe(RENDER_STEP);
  });
});

describe('small rules', () => {
  it('builds the verification URL from the current protocol and host', () => {
    expect(verificationUrl('/media/v/1.mp4?sig=x', { protocol: 'https:', host: 'app.example:8443' })).toBe(
      'https://app.example:8443/media/v/1.mp4?sig=x',
    );
    expect(verificationUrl('media/v/1.mp4', { protocol: 'http:', host: 'h' })).toBe('http://h/media/v/1.mp4');
  });
  it('computes the duration as frames divided by fps', () => {
    expect(formatDuration(250, 25)).toBe('0:10');
    expect(formatDuration(90_000, 25)).toBe('1:00:00');
    expect(formatDuration(10, 0)).toBe('-');
  });
  it('finds the folder chain for the breadcrumb', () => {
    const leaf = { id: 3, name: 'c', path: '/a/b/c', parent: 2, folders: [], videos: [] };
    const b = { id: 2, name: 'b', path: '/a/b', parent: 1, folders: [leaf], videos: [] };
    const a = { id: 1, name: 'a', path: '/a', parent: null, folders: [b], videos: [] };
    expect(folderChain({ folders: [a], videos: [] }, 3).map((f) => f.name)).toEqual(['a', 'b', 'c']);
    expect(folderChain({ folders: [a], videos: [] }, 99)).toEqual([]);
    expect(folderChain({ folders: [a], videos: [] }, null)).toEqual([]);
  });
});
