import { describe, expect, it, vi } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { AppShell } from '../src/shell/app-shell';
import { QK } from '../src/api/query-keys';
import { setToken } from '../src/auth/token-store';
import { uploadStore, LEAVE_WARNING } from '../src/state/upload-store';
import { renderWithApp } from './render';

const profile = {
  user: { id: 1, username: 'ada', first_name: 'Ada', last_name: '', email: 'ada@example.com' },
  organization: { id: 1, name: 'Org', api_key: 'k'.repeat(24) },
};

function renderShell(route: string) {
  const fetchMock = vi.fn(() => Promise.resolve(new Response(JSON.stringify(profile), { status: 200 })));
  vi.stubGlobal('fetch', fetchMock);
  setToken('t0k');
  const utils = renderWithApp(
    <Routes>
      <Route element={<AppShell />}>
        <Route path="/brands" element={<p>Brands content</p>} />
        <Route path="/" element={<p>Dashboard content</p>} />
      </Route>
      <Route path="/login" element={<p>Login page</p>} />
    </Routes>,
    { route, path: '*' },
  );
  utils.queryClient.setQueryData(QK.profile, profile);
  return { ...utils, fetchMock };
}

describe('AppShell', () => {
  it('shows the title rule, the greeting and the eight entries', async () => {
    renderShell('/brands');
    expect(await screen.findByRole('heading', { level: 1, name: 'brands' })).toBeInTheDocument();
    expect(await screen.findByText('Howdy Ada!')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Open navigation' }));
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['Dashboard', 'Brands', 'Placements', 'Videos', 'Verification', 'Projects', 'Tags', 'Editor']);
    vi.unstubAllGlobals();
  });

  it('asks before logging out during an upload, then clears the token', async () => {
    const { fetchMock } = renderShell('/brands');
    act(() => uploadStore.set([{ uploadId: 'u', name: 'a.mp4', percentCompleted: 10 }]));
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const logout = async () => {
      await userEvent.click(screen.getByRole('button', { name: 'Profile menu' }));
      await userEvent.click(await screen.findByRole('menuitem', { name: 'Logout' }));
    };
    await logout();
    expect(confirm).toHaveBeenCalledWith(LEAVE_WARNING);
    expect(localStorage.getItem('token')).toBe('t0k');
    await logout();
    expect(await screen.findByText('Login page')).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();
    expect(uploadStore.get()).toEqual([]);
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/profile/logout/',
      expect.objectContaining({ method: 'POST' }),
    );
    confirm.mockRestore();
    vi.unstubAllGlobals();
  });
});
