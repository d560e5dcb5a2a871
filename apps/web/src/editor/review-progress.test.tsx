import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import type { Video } from '@logo-review/contract';
import { renderWithApp } from '../../test/render';
import { ReviewedShare } from '../videos/video-card';
import { ReviewProgress } from './review-bar';

const video = (total: number, reviewed: number) =>
  ({ id: 1, name: 'Match', detections_total: total, detections_reviewed: reviewed }) as Video;

describe('review progress (issue 17)', () => {
  it('the editor shows "N of M reviewed", and "No detections" for a video without any', () => {
    const { unmount } = renderWithApp(<ReviewProgress reviewed={3} total={8} />);
    expect(screen.getByTestId('review-progress').textContent).toBe('3 of 8 reviewed');
    expect(screen.getByRole('progressbar', { name: 'Share reviewed' })).toBeTruthy();
    unmount();
    renderWithApp(<ReviewProgress reviewed={0} total={0} />);
    expect(screen.getByTestId('review-progress').textContent).toBe('No detections');
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('a video card shows the share reviewed, and "No detections" rather than "100% reviewed (0 of 0)"', () => {
    const { unmount } = renderWithApp(<ReviewedShare video={video(8, 2)} />);
    expect(screen.getByTestId('reviewed-share').textContent).toBe('25% reviewed (2 of 8)');
    unmount();
    renderWithApp(<ReviewedShare video={video(0, 0)} />);
    expect(screen.getByTestId('reviewed-share').textContent).toBe('No detections');
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});
