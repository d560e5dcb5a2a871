import { describe, expect, it } from 'vitest';
import { fileNameOf, type Dashboard } from './analytics-api';
import {
  BRAND_COLORS,
  OTHER_COLOR,
  OTHER_LABEL,
  exposureBars,
  filtersFromParams,
  formatEta,
  formatMoney,
  paramsFromFilters,
  placementBars,
  scopeFromFilters,
  shareOfVoice,
  timeline,
  topVideoRows,
} from './dashboard-data';
import { settingsBody } from './media-value-dialog';

const brand = (id: number, name: string, seconds: number, share: number, localized = '') => ({
  brand: { id, name, localized_name: localized },
  detections: 1,
  videos: 1,
  exposure_seconds: seconds,
  share_of_voice: share,
  size_weighted_seconds: 0,
  mean_share_of_frame: 0,
  position_weight: 1,
  clutter: 0,
  media_value: seconds * 2,
});

// Exposure 50 / 30 / 10 / 6 / 4 s: shares 0.5, 0.3, 0.1, 0.06, 0.04 (sorted by exposure, as the API does).
const d: Pick<Dashboard, 'brands' | 'placements' | 'timeline' | 'top_videos'> = {
  brands: [
    brand(1, 'acme', 50, 0.5, 'Acme'),
    brand(2, 'bolt', 30, 0.3),
    brand(3, 'cora', 10, 0.1),
    brand(4, 'dune', 6, 0.06),
    brand(5, 'echo', 4, 0.04),
  ],
  placements: [
    {
      placement: { id: 7, localized_name: 'Shirt', color: '#ff0000' },
      exposure_seconds: 20,
      media_value: 40,
      rate_per_second: 2,
      brands: [],
    },
    {
      placement: { id: 8, localized_name: 'LED', color: '#00ff00' },
      exposure_seconds: 80,
      media_value: 0,
      rate_per_second: 0,
      brands: [],
    },
  ],
  timeline: [
    {
      video: { id: 10, name: 'Match 1', created_at: '2026-02-01T10:00:00.000Z' },
      exposure_seconds: 60,
      brands: [
        { brand_id: 1, exposure_seconds: 40 },
        { brand_id: 3, exposure_seconds: 20 },
      ],
    },
    {
      video: { id: 11, name: 'Match 2', created_at: '2026-02-08T10:00:00.000Z' },
      exposure_seconds: 40,
      brands: [
        { brand_id: 2, exposure_seconds: 30 },
        { brand_id: 1, exposure_seconds: 10 },
      ],
    },
  ],
  top_videos: [
    {
      brand_id: 1,
      videos: [
        { video: { id: 10, name: 'Match 1' }, exposure_seconds: 40, share_of_video: 0.4, media_value: 80 },
        { video: { id: 11, name: 'Match 2' }, exposure_seconds: 10, share_of_video: 0.1, media_value: 20 },
      ],
    },
    {
      brand_id: 99,
      videos: [
        { video: { id: 11, name: 'Match 2' }, exposure_seconds: 1, share_of_video: 0.01, media_value: 0 },
      ],
    },
  ],
};

describe('dashboard filters', () => {
  it('reads the URL: a project wins over a folder, bad ids and dates are ignored', () => {
    expect(filtersFromParams(new URLSearchParams('project=3&folder=4&from=2026-01-01&to=2026-13'))).toEqual({
      target: 'project:3',
      from: '2026-01-01',
      to: '',
    });
    expect(filtersFromParams(new URLSearchParams('project=x&folder=4'))).toEqual({
      target: 'folder:4',
      from: '',
      to: '',
    });
    expect(filtersFromParams(new URLSearchParams(''))).toEqual({ target: 'all', from: '', to: '' });
  });

  it('writes the URL and the API scope back; a backwards range is an error, not a query', () => {
    const f = { target: 'folder:12', from: '2026-01-01', to: '2026-06-30' };
    expect(paramsFromFilters(f)).toEqual({ folder: '12', from: '2026-01-01', to: '2026-06-30' });
    expect(scopeFromFilters(f)).toEqual({ scope: { folder: 12, from: '2026-01-01', to: '2026-06-30' } });
    expect(scopeFromFilters({ target: 'all', from: '', to: '' })).toEqual({ scope: {} });
    expect(scopeFromFilters({ target: 'project:3', from: '2026-07-01', to: '2026-06-30' })).toEqual({
      error: 'The start date must not be after the end date.',
    });
  });
});

describe('dashboard chart data', () => {
  it('bars: most exposed first, localized name first, a colour per brand rank, bounded', () => {
    expect(exposureBars(d).map((b) => [b.label, b.seconds, b.color])).toEqual([
      ['Acme', 50, BRAND_COLORS[0]],
      ['bolt', 30, BRAND_COLORS[1]],
      ['cora', 10, BRAND_COLORS[2]],
      ['dune', 6, BRAND_COLORS[3]],
      ['echo', 4, BRAND_COLORS[4]],
    ]);
    expect(exposureBars(d, 2)).toHaveLength(2);
  });

  it('share of voice: the largest brands, the rest summed as one slice, in percent', () => {
    const slices = shareOfVoice(d, 3);
    expect(slices.map((s) => [s.label, Math.round(s.value * 10) / 10, s.color])).toEqual([
      ['Acme', 50, BRAND_COLORS[0]],
      ['bolt', 30, BRAND_COLORS[1]],
      [OTHER_LABEL, 20, OTHER_COLOR],
    ]);
    // Exactly `limit` brands: no 'Other' slice.
    expect(shareOfVoice(d, 5).map((s) => s.label)).toEqual(['Acme', 'bolt', 'cora', 'dune', 'echo']);
    expect(shareOfVoice({ brands: [] })).toEqual([]);
  });

  it('placements: sorted by exposure with their own colours', () => {
    expect(placementBars(d)).toEqual([
      { id: 8, label: 'LED', seconds: 80, mediaValue: 0, color: '#00ff00' },
      { id: 7, label: 'Shirt', seconds: 20, mediaValue: 40, color: '#ff0000' },
    ]);
  });

  it('timeline: one point per video, a series per top brand with 0 where it is absent', () => {
    const t = timeline(d, 3);
    expect(t.videos).toEqual([
      { id: 10, name: 'Match 1', date: '2026-02-01', total: 60 },
      { id: 11, name: 'Match 2', date: '2026-02-08', total: 40 },
    ]);
    expect(t.series.map((s) => [s.label, s.data])).toEqual([
      ['Acme', [40, 10]],
      ['bolt', [0, 30]],
      ['cora', [20, 0]],
    ]);
  });

  it('top videos: rows ranked per brand, an unknown brand named by id', () => {
    expect(topVideoRows(d).map((r) => [r.brand, r.rank, r.video, r.seconds])).toEqual([
      ['Acme', 1, 'Match 1', 40],
      ['Acme', 2, 'Match 2', 10],
      ['#99', 1, 'Match 2', 1],
    ]);
  });
});

describe('formatting', () => {
  it('ETA in s, min, h; unknown without a measured speed', () => {
    expect(formatEta(null)).toBe('unknown');
    // Units are joined with a no-break space.
    expect(formatEta(44.6)).toBe('45\u00a0s');
    expect(formatEta(12 * 60 + 10)).toBe('12\u00a0min');
    expect(formatEta(2 * 3600 + 5 * 60)).toBe('2\u00a0h 05\u00a0min');
  });
  it('money in the currency; an unknown code is shown as text', () => {
    expect(formatMoney(1520.4, 'EUR')).toBe('€1,520');
    expect(formatMoney(3, 'XQQ')).toMatch(/3/);
    expect(formatMoney(3, 'bad!')).toBe('3 bad!');
  });
  it('file name of Content-Disposition: filename* first', () => {
    expect(
      fileNameOf(
        `attachment; filename="Campaign - A.xlsx"; filename*=UTF-8''Campaign%20-%20%C3%84.xlsx`,
        'x',
      ),
    ).toBe('Campaign - Ä.xlsx');
    expect(fileNameOf('attachment; filename="Campaign - A.xlsx"', 'x')).toBe('Campaign - A.xlsx');
    expect(fileNameOf(null, 'Campaign.xlsx')).toBe('Campaign.xlsx');
  });
});

describe('media value settings form', () => {
  it('checks the currency and the rates; an empty rate is 0', () => {
    expect(settingsBody({ currency: 'USD', countUnreviewed: false, rates: { 2: '4.5', 3: '' } })).toEqual({
      body: {
        currency: 'USD',
        count_unreviewed: false,
        rates: [
          { placement_id: 2, rate_per_second: 4.5 },
          { placement_id: 3, rate_per_second: 0 },
        ],
      },
    });
    expect(settingsBody({ currency: 'us', countUnreviewed: true, rates: { 2: '-1', 3: 'abc' } })).toEqual({
      errors: {
        currency: 'Three capital letters (ISO 4217), e.g. EUR.',
        2: 'A number, 0 or more.',
        3: 'A number, 0 or more.',
      },
    });
  });
});
