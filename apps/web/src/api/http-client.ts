import { ApiError, NetworkError, detailFromBody } from './api-error';
import { getToken } from '../auth/token-store';

/** Fired on any 401: the app clears the token, resets all state and goes to /login. */
export const UNAUTHORIZED_EVENT = 'logo-review:unauthorized';

type QueryValue = string | number | boolean | null | undefined | Array<string | number>;

export interface RequestOptions {
  /** JSON body (sent with Content-Type application/json). */
  json?: unknown;
  /** Multipart body. */
  form?: FormData;
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
  /** Skip the Authorization header (login). */
  anonymous?: boolean;
}

export function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) value.forEach((v) => params.append(key, String(v)));
    else params.append(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

export function authHeaders(): Record<string, string> {
  const token = getToken();
  return token ? { Authorization: `Token ${token}` } : {};
}

/** Turns a non-2xx response into an ApiError (and announces a 401). */
export async function failFromResponse(response: Response, anonymous = false): Promise<never> {
  const text = await response.text().catch(() => '');
  if (response.status === 401 && !anonymous) window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
  throw new ApiError(response.status, response.statusText, detailFromBody(text));
}

/** Sends a request and returns the raw Response once it is known to be 2xx. */
export async function send(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = options.anonymous ? {} : authHeaders();
  let body: BodyInit | undefined;
  if (options.form) body = options.form;
  else if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query), { method, headers, body, signal: options.signal });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new NetworkError(error instanceof Error ? error.message : String(error));
  }
  if (!response.ok) await failFromResponse(response, options.anonymous);
  return response;
}

/** Sends a request and parses the JSON answer (undefined for an empty body). */
export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(method, path, options);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export const http = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
  post: <T>(path: string, options?: RequestOptions) => request<T>('POST', path, options),
  put: <T>(path: string, options?: RequestOptions) => request<T>('PUT', path, options),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
};
