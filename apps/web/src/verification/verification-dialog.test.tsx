import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Video, VideoTree } from '@logo-review/contract';
import { createQueryClient } from '../api/query-client';
import { QK } from '../api/query-keys';
import { renderWithApp } from '../../test/render';
import { VerificationDialog } from './verification-dialog';

function video(id: number, name: string, status = 'OK'): Video {
  return { id, name, status, folder: null } as Video;
}

function treeResponse(tree: VideoTree) {
  return new Response(JSON.stringify(tree), { headers: { 'content-type': 'application/json' } });
}

afterEach(() => vi.unstubAllGlobals());

describe('VerificationDialog', () => {
  it('asks for the videos again when it opens, even with a recent copy cached', async () => {
    // The cached tree is seconds old and empty; a video was uploaded since (through the API or by a colleague).
    const fetchMock = vi.fn(async () => treeResponse({ folders: [], videos: [video(5, 'Final 2026')] }));
    vi.stubGlobal('fetch', fetchMock);
    const queryClient = createQueryClient();
    queryClient.setQueryData<VideoTree>(QK.videos, { folders: [], videos: [] });
    renderWithApp(<VerificationDialog target={{ verification: null }} onClose={() => undefined} />, {
      queryClient,
    });

    await userEvent.click(screen.getByRole('combobox', { name: /^Video/ }));
    expect(await screen.findByRole('option', { name: 'Final 2026' })).toBeEnabled();
    expect(fetchMock).toHaveBeenCalledWith('/api/videos/', expect.anything());
  });

  it('says it is loading rather than that there are no videos while the list is on its way', async () => {
    let answer: (r: Response) => void = () => undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))),
    );
    renderWithApp(<VerificationDialog target={{ verification: null }} onClose={() => undefined} />);

    expect(await screen.findByText('Loading videos…')).toBeInTheDocument();
    expect(screen.queryByText('Upload a video on the Videos page first.')).toBeNull();
    answer(treeResponse({ folders: [], videos: [] }));
    expect(await screen.findByText('Upload a video on the Videos page first.')).toBeInTheDocument();
  });

  it('offers only analysed videos; the others are listed with their status and cannot be chosen', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        treeResponse({ folders: [], videos: [video(1, 'Derby'), video(2, 'Cup', 'PROCESSING')] }),
      ),
    );
    renderWithApp(<VerificationDialog target={{ verification: null }} onClose={() => undefined} />);
    await waitFor(() => expect(screen.queryByText('Loading videos…')).toBeNull());
    await userEvent.click(screen.getByRole('combobox', { name: /^Video/ }));
    expect(await screen.findByRole('option', { name: 'Derby' })).toBeEnabled();
    expect(screen.getByRole('option', { name: 'Cup (processing)' })).toHaveAttribute('aria-disabled', 'true');
  });
});
