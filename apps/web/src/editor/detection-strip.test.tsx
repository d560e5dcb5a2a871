import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { DetectionSpansAnswer } from '@logo-review/contract';
import { renderWithApp } from '../../test/render';
import { DetectionStrip, STRIP_COLORS, stripClickTime, stripRows } from './detection-strip';

const brands = [
  { id: 1, name: 'zeta', localized_name: 'Zeta' },
  { id: 2, name: 'alpha', localized_name: '' },
  { id: 3, name: 'hidden', localized_name: 'Hidden' },
];
const answer: DetectionSpansAnswer = [
  {
    brand: 1,
    count: 4,
    spans: [
      [0, 10_000],
      [50_000, 50_010],
    ],
  },
  { brand: 2, count: 1, spans: [[90_000, 120_000]] },
  { brand: 3, count: 2, spans: [[20_000, 30_000]] },
];

describe('stripRows', () => {
  it('keeps shown brands sorted by label, places marks in % of the duration, widens tiny ones', () => {
    const rows = stripRows(answer, brands, new Set([3]), 100_000);
    expect(rows.map((r) => [r.label, r.count, r.color])).toEqual([
      ['alpha', 1, STRIP_COLORS[0]],
      ['Zeta', 4, STRIP_COLORS[1]],
    ]);
    // 90 s .. 120 s of a 100 s video: clamped to the end.
    expect(rows[0].marks).toEqual([{ begin: 90_000, end: 120_000, left: 90, width: 10 }]);
    expect(rows[1].marks[0]).toEqual({ begin: 0, end: 10_000, left: 0, width: 10 });
    // 10 ms out of 100 s is 0.01 %: shown 0.3 % wide.
    expect(rows[1].marks[1]).toEqual({ begin: 50_000, end: 50_010, left: 50, width: 0.3 });
  });

  it('names an unknown brand by id and shows nothing without a duration', () => {
    expect(stripRows(answer, [], new Set(), 100_000)[0].label).toBe('#1');
    expect(stripRows(answer, brands, new Set(), 0)).toEqual([]);
  });
});

describe('stripClickTime', () => {
  const [row] = stripRows([{ brand: 1, count: 1, spans: [[40_000, 60_000]] }], brands, new Set(), 100_000);
  it('seeks to the start of a clicked mark, otherwise to the clicked time', () => {
    expect(stripClickTime(row, 250, 500, 100_000)).toBe(40_000); // 50 % is inside 40..60 %
    expect(stripClickTime(row, 100, 500, 100_000)).toBe(20_000);
    expect(stripClickTime(row, 600, 500, 100_000)).toBe(100_000);
    expect(stripClickTime(row, 100, 0, 100_000)).toBeNull();
  });
});

describe('DetectionStrip', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('draws a row per shown brand from the spans call and seeks on click', async () => {
    const project = {
      id: 7,
      name: 'P',
      description: '',
      filtered_brands: [{ id: 3 }],
      filtered_placements: [],
    };
    const fetchMock = vi.fn((url: string) => {
      const body = url.startsWith('/api/videos/detections/spans/')
        ? answer
        : url.startsWith('/api/brands/')
          ? brands
          : url.startsWith('/api/videos/project/')
            ? [project]
            : null;
      return Promise.resolve(new Response(JSON.stringify(body), { status: body ? 200 : 404 }));
    });
    vi.stubGlobal('fetch', fetchMock);
    const onSeek = vi.fn();
    renderWithApp(
      <DetectionStrip
        videoId={5}
        projectId={7}
        durationMs={100_000}
        fps={25}
        onSeek={onSeek}
        onDetectionsChanged={() => () => {}}
      />,
    );
    await waitFor(() => expect(screen.getAllByTestId('strip-row')).toHaveLength(2));
    expect(screen.queryByLabelText(/^Hidden/)).toBeNull();
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/videos/detections/spans/?videoId=5&segments=300',
      expect.anything(),
    );
    const zeta = screen.getByLabelText('Zeta: 4 detections');
    expect(zeta.querySelectorAll('[data-testid="strip-mark"]')).toHaveLength(2);
    // jsdom has no layout: give the row a width so the click lands at 5 % (inside the first mark).
    zeta.getBoundingClientRect = () => ({ left: 0, width: 200, top: 0, height: 8 }) as DOMRect;
    fireEvent.click(zeta, { clientX: 10 });
    expect(onSeek).toHaveBeenCalledWith(0);
    fireEvent.click(zeta, { clientX: 60 });
    expect(onSeek).toHaveBeenLastCalledWith(30_000);
  });
});
