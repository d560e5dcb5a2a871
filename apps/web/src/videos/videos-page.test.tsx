import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { API, type Folder, type VideoTree } from '@logo-review/contract';
import { renderWithApp } from '../../test/render';
import VideosPage from './videos-page';

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });

afterEach(() => vi.unstubAllGlobals());

describe('VideosPage', () => {
  it('offers the upload once the folder tree has arrived, into the folder shown', async () => {
    // A page just loaded on a folder: the tree is still on its way. The dialog takes its folder
    // from the tree; opened now it would offer the root, and the video would land there.
    let answerTree: (r: Response) => void = () => undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) =>
        url === API.videos
          ? new Promise<Response>((resolve) => (answerTree = resolve))
          : Promise.resolve(json([])),
      ),
    );
    renderWithApp(<VideosPage />, { route: '/videos?folder=7', path: '/videos' });

    const upload = await screen.findByRole('button', { name: 'Upload video' });
    expect(upload).toBeDisabled();

    const matches: Folder = {
      id: 7,
      name: 'Matches',
      path: '/Matches',
      parent: null,
      folders: [],
      videos: [],
    };
    answerTree(json({ folders: [matches], videos: [] } satisfies VideoTree));
    await screen.findByText('This folder is empty');
    const enabled = screen.getAllByRole('button', { name: 'Upload video' })[0];
    expect(enabled).toBeEnabled();
    await userEvent.click(enabled);
    const dialog = await screen.findByRole('dialog', { name: 'Add video' });
    expect(within(dialog).getByRole('combobox', { name: /^Folder/ })).toHaveTextContent('/Matches');
  });
});
