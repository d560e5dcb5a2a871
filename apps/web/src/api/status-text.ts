/**
 * Standard reason phrases, used when a response carries no statusText (HTTP/2 has none),
 * so the error format '{status text}: {detail}' never starts with an empty string.
 */
const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function reasonPhrase(status: number, statusText?: string): string {
  if (statusText && statusText.trim()) return statusText;
  return REASONS[status] ?? `HTTP ${status}`;
}
