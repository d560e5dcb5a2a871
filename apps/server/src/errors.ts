/** An error with an HTTP status whose message is safe to show to the user as `detail`. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (detail: string) => new HttpError(400, detail);
export const notFound = (what: string) => new HttpError(404, `${what} not found.`);
export const unauthorized = (detail = 'Invalid token.') => new HttpError(401, detail);
export const forbidden = (detail: string) => new HttpError(403, detail);
