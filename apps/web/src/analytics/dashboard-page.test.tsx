import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithApp } from '../../test/render';
import type { Dashboard, Processing } from './analytics-api';
import DashboardPage from './dashboard-page';

const processing: Processing = {
  speed: 2,
  active: [
    {
      video: { id: 5, name: 'Queued match' },
      status: 'QUEUED',
      progress: 0,
      duration: 600,
      eta_seconds: 300,
    },
  ],
  failed: [
    {
      video: { id: 6, name: 'Broken.mp4' },
      reason: 'Analysis failed: no video stream',
      updated_at: '2026-01-01',
    },
  ],
};
const dashboard: Dashboard = {
  scope: { project: 3, folder: null, from: null, to: null, include_unreviewed: true },
  currency: 'EUR',
  videos: 2,
  totals: { detections: 12, exposure_seconds: 80, size_weighted_seconds: 4, media_value: 160 },
  brands: [
    {
      brand: { id: 1, name: 'acme', localized_name: 'Acme' },
      detections: 12,
      videos: 2,
      exposure_seconds: 80,
      share_of_voice: 1,
      size_weighted_seconds: 4,
      mean_share_of_frame: 0.05,
      position_weight: 0.9,
      clutter: 0,
      media_value: 160,
    },
  ],
  placements: [],
  timeline: [],
  top_videos: [],
  review: {
    overall: { total: 12, reviewed: 3, share: 0.25 },
    videos: [{ video: { id: 9, name: 'Match 1' }, total: 12, reviewed: 3, share: 0.25 }],
  },
  processing,
};

// A whole page with MUI and user events: slower than the 5 s default on a busy machine.
describe('DashboardPage', { timeout: 30_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks for the scope of the URL and shows totals, a table alternative, processing and review', async () => {
    const fetchMock = vi.fn((url: string) => {
      const body = url.startsWith('/api/analytics/dashboard/')
        ? dashboard
        : url.startsWith('/api/analytics/processing/')
          ? processing
          : url.startsWith('/api/videos/project/')
            ? [{ id: 3, name: 'Season', description: '', filtered_brands: [], filtered_placements: [] }]
            : url.startsWith('/api/videos/')
              ? { folders: [], videos: [] }
              : null;
      return Promise.resolve(new Response(JSON.stringify(body), { status: body ? 200 : 404 }));
    });
    vi.stubGlobal('fetch', fetchMock);
    renderWithApp(<DashboardPage />, { route: '/under-test?project=3&from=2026-01-01' });

    await waitFor(() => expect(screen.getByLabelText('Exposure')).toHaveTextContent('80.0 s'));
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/analytics/dashboard/?project=3&from=2026-01-01',
      expect.anything(),
    );
    expect(screen.getByLabelText('Media value')).toHaveTextContent('€160');

    const card = screen.getByRole('region', { name: 'Exposure per brand' });
    await userEvent.click(within(card).getByRole('button', { name: 'Table' }));
    const table = within(card).getByRole('table', { name: 'Exposure per brand' });
    expect(within(table).getByText('Acme')).toBeInTheDocument();
    expect(within(table).getByText('100.0 %')).toBeInTheDocument();

    const proc = screen.getByRole('region', { name: 'Processing' });
    await waitFor(() => expect(within(proc).getByText(/Queued · ETA 5 min/)).toBeInTheDocument());
    expect(within(proc).getByText(/no video stream/)).toBeInTheDocument();
    const review = screen.getByRole('region', { name: 'Review' });
    expect(within(review).getByText(/25\.0 % of 12 detections reviewed \(3\)/)).toBeInTheDocument();
  });

  it('a backwards date range asks nothing and says why', async () => {
    const fetchMock = vi.fn((_url: string) => Promise.resolve(new Response('[]', { status: 200 })));
    vi.stubGlobal('fetch', fetchMock);
    renderWithApp(<DashboardPage />, { route: '/under-test?from=2026-07-01&to=2026-06-01' });
    expect(await screen.findByText('The start date must not be after the end date.')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([u]) => String(u).startsWith('/api/analytics/'))).toBe(false);
  });

  it('two dates changed before the router commits the first keep both (the e2e flake of stop 25)', async () => {
    const fetchMock = vi.fn((_url: string) => Promise.resolve(new Response('[]', { status: 200 })));
    vi.stubGlobal('fetch', fetchMock);
    renderWithApp(<DashboardPage />, { route: '/under-test?folder=4' });
    const from = screen.getByLabelText('Uploaded from');
    const to = screen.getByLabelText('Uploaded to');
    // One act: the router's navigation for "from" is a transition that has not rendered yet when
    // "to" changes, as on a busy machine.
    act(() => {
      fireEvent.change(from, { target: { value: '2026-07-01' } });
      fireEvent.change(to, { target: { value: '2026-06-01' } });
    });
    expect(await screen.findByText('The start date must not be after the end date.')).toBeInTheDocument();
    expect(screen.getByLabelText('Uploaded from')).toHaveValue('2026-07-01');
    expect(screen.getByLabelText('Uploaded to')).toHaveValue('2026-06-01');
  });
});
