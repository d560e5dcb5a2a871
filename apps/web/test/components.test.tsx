import { describe, expect, it, vi, afterEach } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ConfirmDialog } from '../src/components/confirm-dialog';
import LoginPage from '../src/pages/login-page';
import { OngoingTasksPanel } from '../src/shell/ongoing-tasks-panel';
import { PlacementDialog } from '../src/placements/placement-dialog';
import { TagDialog } from '../src/tags/tag-dialog';
import { uploadStore } from '../src/state/upload-store';
import { getToken } from '../src/auth/token-store';
import { renderWithApp } from './render';

afterEach(() => {
  vi.unstubAllGlobals();
  uploadStore.set([]);
});

describe('ConfirmDialog', () => {
  it('enables delete only once the name is typed, case-insensitively', async () => {
    const onConfirm = vi.fn();
    renderWithApp(
      <ConfirmDialog
        open
        title="Delete Nike?"
        message="Irreversible"
        confirmLabel="Delete"
        requireName="Nike"
        onConfirm={onConfirm}
        onClose={() => undefined}
      />,
    );
    const button = screen.getByRole('button', { name: 'Delete' });
    expect(button).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Type "Nike" to confirm'), 'nik');
    expect(button).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Type "Nike" to confirm'), 'E');
    expect(button).toBeEnabled();
    await userEvent.click(button);
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });
});

describe('LoginPage', () => {
  const fill = async () => {
    await userEvent.type(screen.getByLabelText(/^Username/), 'ada');
    await userEvent.type(screen.getByLabelText(/^Password/), 'secret');
  };

  it('needs both fields and toggles the password visibility', async () => {
    renderWithApp(<LoginPage />, { route: '/login', path: '/login' });
    const button = screen.getByRole('button', { name: 'Log in' });
    expect(button).toBeDisabled();
    await fill();
    expect(button).toBeEnabled();
    const password = screen.getByLabelText(/^Password/);
    expect(password).toHaveAttribute('type', 'password');
    await userEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    await userEvent.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password).toHaveAttribute('type', 'password');
  });

  it.each([
    [new Response('{"detail":"bad"}', { status: 400 }), 'Wrong username or password'],
    [new Response('oops', { status: 502 }), 'Server error occured. Please try again later.'],
    [new TypeError('Failed to fetch'), 'Server is unreachable. Please try again later.'],
  ])('shows the spec message for %s', async (answer, message) => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => (answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer))),
    );
    renderWithApp(<LoginPage />, { route: '/login', path: '/login' });
    await fill();
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(getToken()).toBeNull();
  });

  it('stores the token and goes to the dashboard', async () => {
    const session = {
      token: 't0k',
      user: { id: 1, username: 'ada', first_name: '', last_name: '', email: '' },
      organization: { id: 1, name: 'Org', api_key: 'k' },
    };
    const fetchMock = vi.fn(() => Promise.resolve(new Response(JSON.stringify(session), { status: 200 })));
    vi.stubGlobal('fetch', fetchMock);
    renderWithApp(<LoginPage />, { route: '/login', path: '/login' });
    await fill();
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Home page')).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBe('t0k');
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/profile/login/',
      expect.objectContaining({ method: 'POST' }),
    );
  });
});

describe('OngoingTasksPanel', () => {
  it('lists uploads with their titles and lets finished ones be dismissed', async () => {
    act(() =>
      uploadStore.set([
        { uploadId: '1', name: 'running.mp4', percentCompleted: 40 },
        { uploadId: '2', name: 'done.mp4', percentCompleted: 100 },
        { uploadId: '3', name: 'broken.mp4', percentCompleted: -1 },
      ]),
    );
    renderWithApp(<OngoingTasksPanel open onClose={() => undefined} />);
    expect(screen.getByText('Uploading video')).toBeInTheDocument();
    expect(screen.getByText('Uploaded video')).toBeInTheDocument();
    expect(screen.getByText('Failed uploading video')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Dismiss running.mp4' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss done.mp4' }));
    await waitFor(() => expect(screen.queryByText('done.mp4')).toBeNull());
    expect(uploadStore.get().map((t) => t.name)).toEqual(['running.mp4', 'broken.mp4']);
  });
});

describe('form validation', () => {
  it('a new placement defaults to black and needs a name', async () => {
    renderWithApp(<PlacementDialog placement={null} onClose={() => undefined} />);
    expect(screen.getByLabelText(/^Color/)).toHaveValue('#000000');
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    await userEvent.type(screen.getByLabelText(/^Name/), 'Shirt');
    expect(save).toBeEnabled();
    await userEvent.clear(screen.getByLabelText(/^Color/));
    await userEvent.type(screen.getByLabelText(/^Color/), 'red');
    expect(save).toBeDisabled();
  });

  it('a tag needs a name and a brand', async () => {
    const brand = {
      id: 7,
      name: 'Nike',
      localized_name: 'Nike',
      url: '',
      logograb_id: null,
      icon_url: null,
      status: 'ACTIVE',
      activation_progress: 100,
      logos: [],
    };
    renderWithApp(
      <TagDialog tag={null} brands={[brand]} placements={[]} projects={[]} onClose={() => undefined} />,
    );
    expect(screen.getByText('Create new tag.')).toBeInTheDocument();
    const save = screen.getByRole('button', { name: 'Save' });
    await userEvent.type(screen.getByLabelText(/^Name/), 'Shirts');
    expect(save).toBeDisabled();
    await userEvent.click(screen.getByLabelText(/^Brand/));
    await userEvent.click(await screen.findByRole('option', { name: 'Nike' }));
    expect(save).toBeEnabled();
  });
});
