import { createStore } from '../state/create-store';

/** Local-storage key of the session token (spec section 3). */
export const TOKEN_KEY = 'token';

function read(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export const tokenStore = createStore<string | null>(read());

export function setToken(token: string | null): void {
  if (token) localStorage.setItem(TOKEN_KEY, token);
  else localStorage.removeItem(TOKEN_KEY);
  tokenStore.set(token);
}

export function getToken(): string | null {
  return tokenStore.get();
}

// Another tab logging out or in keeps this tab in step.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === TOKEN_KEY) tokenStore.set(event.newValue);
  });
}
