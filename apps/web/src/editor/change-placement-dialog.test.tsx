import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Brand, Placement } from '@logo-review/contract';
import { statusStore } from '../state/status-store';
import { renderWithApp } from '../../test/render';
import { ChangePlacementDialog } from './change-placement-dialog';

const placements: Placement[] = [
  { id: 3, localized_name: 'Shirt', color: '#1e88e5', manual: true },
  { id: 4, localized_name: 'LED board', color: '#e53935', manual: true },
];
const brands = [{ id: 9, name: 'Nike', localized_name: 'Nike' }] as Brand[];

function open(videoId: number | null, onChanged = vi.fn()) {
  renderWithApp(
    <ChangePlacementDialog
      open
      videoId={videoId}
      brands={brands}
      placements={placements}
      onClose={() => undefined}
      onChanged={onChanged}
    />,
  );
  return onChanged;
}

async function choosePlacement(name: string) {
  await userEvent.click(screen.getByRole('combobox', { name: 'New placement' }));
  await userEvent.click(await screen.findByRole('option', { name }));
}

afterEach(() => {
  vi.unstubAllGlobals();
  statusStore.set(null);
});

describe('ChangePlacementDialog', () => {
  it("warns 'New Placement is required!' and sends nothing without a new placement", async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    open(7);
    await userEvent.click(screen.getByRole('button', { name: 'Change' }));
    expect(statusStore.get()?.message).toBe('New Placement is required!');
    expect(statusStore.get()?.level).toBe(2);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("warns 'Unknown video id!' without a video", async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    open(null);
    await choosePlacement('LED board');
    await userEvent.click(screen.getByRole('button', { name: 'Change' }));
    expect(statusStore.get()?.message).toBe('Unknown video id!');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends empty brand and placement lists (meaning all) and reloads the editor', async () => {
    const fetchMock = vi.fn(
      async () =>
        new Response(JSON.stringify({ detail: 'Changed the placement of 3 detections.', count: 3 })),
    );
    vi.stubGlobal('fetch', fetchMock);
    const onChanged = open(7);
    await choosePlacement('Shirt');
    await userEvent.click(screen.getByRole('button', { name: 'Change' }));
    await waitFor(() => expect(onChanged).toHaveBeenCalledTimes(1));
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/videos/detections/change/');
    expect(init.method).toBe('PUT');
    expect(JSON.parse(String(init.body))).toEqual({
      brandIds: [],
      placementIds: [],
      newPlacementId: 3,
      videoId: 7,
    });
    expect(statusStore.get()?.message).toBe('Changed the placement of 3 detections.');
  });

  it("shows '{status text}: {detail}' when the server refuses", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ detail: 'Video not found.' }), {
            status: 404,
            statusText: 'Not Found',
          }),
      ),
    );
    open(7);
    await choosePlacement('Shirt');
    await userEvent.click(screen.getByRole('button', { name: 'Change' }));
    await waitFor(() => expect(statusStore.get()?.message).toBe('Not Found: Video not found.'));
  });
});
