import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { profileApi } from '../api/profile-api';
import { resetAllState } from '../state/reset-state';
import { hasActiveUploads, LEAVE_WARNING } from '../state/upload-store';
import { abortAllUploads } from '../videos/upload-manager';

/** Logout: tell the server, then clear the token and all state whatever it answered. */
export function useLogout(): () => void {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(() => {
    // Logging out cancels running uploads just like leaving the page would.
    if (hasActiveUploads() && !window.confirm(LEAVE_WARNING)) return;
    const call = profileApi.logout().catch((error: unknown) => {
      // Spec: a logout failure is only recorded.
      console.warn('Logout failed', error);
    });
    void call.finally(() => {
      abortAllUploads();
      resetAllState(queryClient);
      navigate('/login', { replace: true });
    });
  }, [queryClient, navigate]);
}
