import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { UNAUTHORIZED_EVENT } from '../api/http-client';
import { resetAllState } from '../state/reset-state';
import { abortAllUploads } from '../videos/upload-manager';

/** Turns the unauthorized event of any call into: clear the token, reset all state, go to /login. */
export function UnauthorizedListener() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  useEffect(() => {
    const onUnauthorized = () => {
      abortAllUploads();
      resetAllState(queryClient);
      navigate('/login', { replace: true });
    };
    window.addEventListener(UNAUTHORIZED_EVENT, onUnauthorized);
    return () => window.removeEventListener(UNAUTHORIZED_EVENT, onUnauthorized);
  }, [queryClient, navigate]);
  return null;
}
