import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { useStore } from '../state/create-store';
import { tokenStore } from './token-store';

/** Every route but /login needs the stored token. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const token = useStore(tokenStore);
  return token ? <>{children}</> : <Navigate to="/login" replace />;
}

/** /login sends a signed-in user to the dashboard. */
export function RedirectIfAuthed({ children }: { children: ReactNode }) {
  const token = useStore(tokenStore);
  return token ? <Navigate to="/" replace /> : <>{children}</>;
}
