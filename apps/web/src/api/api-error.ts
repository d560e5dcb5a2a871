import { reasonPhrase } from './status-text';

/** An answer from the server with a non-2xx status. */
export class ApiError extends Error {
  readonly status: number;
  readonly statusText: string;
  /** The `detail` of the JSON error body, or the raw body text when it is not JSON. */
  readonly detail: string;

  constructor(status: number, statusText: string, detail: string) {
    super(`${reasonPhrase(status, statusText)}: ${detail}`);
    this.name = 'ApiError';
    this.status = status;
    this.statusText = reasonPhrase(status, statusText);
    this.detail = detail;
  }
}

/** No answer at all (server down, connection refused, aborted). */
export class NetworkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NetworkError';
  }
}

/** Reads `{detail}` from an error body; falls back to the raw text (spec: '{status text}: {body}'). */
export function detailFromBody(text: string): string {
  if (!text) return '';
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && 'detail' in parsed) {
      const detail = (parsed as { detail: unknown }).detail;
      return typeof detail === 'string' ? detail : JSON.stringify(detail);
    }
  } catch {
    // not JSON: the body itself is the detail
  }
  return text;
}

/**
 * Spec section 8: with a server response '{status text}: {detail}', otherwise
 * '{default message}: {error message}'.
 */
export function formatError(error: unknown, defaultMessage: string): string {
  if (error instanceof ApiError) return `${error.statusText}: ${error.detail}`;
  const message = error instanceof Error ? error.message : String(error);
  return `${defaultMessage}: ${message}`;
}
