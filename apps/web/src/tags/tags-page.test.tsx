import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { API, type Project } from '@logo-review/contract';
import { QK } from '../api/query-keys';
import { createQueryClient } from '../api/query-client';
import { renderWithApp } from '../../test/render';
import TagsPage from './tags-page';

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });

afterEach(() => vi.unstubAllGlobals());

describe('TagsPage', () => {
  it('offers in the tag dialog a project made after the page got its list', async () => {
    // The dashboard fetched the projects a moment ago (younger than staleTime), so mounting the
    // Tags page asks nothing; since then a project was made through the API or another tab.
    const queryClient = createQueryClient();
    queryClient.setQueryData(QK.projects, [] satisfies Project[]);
    const made: Project = {
      id: 4,
      name: 'Derby',
      description: '',
      filtered_brands: [],
      filtered_placements: [],
    };
    const fetch = vi.fn((url: string) =>
      Promise.resolve(json(url.split('?')[0] === API.projects ? [made] : [])),
    );
    vi.stubGlobal('fetch', fetch);
    renderWithApp(<TagsPage />, { queryClient });
    await screen.findByText('No tags yet');
    expect(fetch.mock.calls.some(([url]) => url.startsWith(API.projects))).toBe(false);

    await userEvent.click(screen.getAllByRole('button', { name: 'Add tag' })[0]);
    const dialog = await screen.findByRole('dialog', { name: 'Create new tag.' });
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Project' }));
    expect(await screen.findByRole('option', { name: 'Derby' })).toBeInTheDocument();
  });
});
