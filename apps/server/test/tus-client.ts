/**
 * A bare tus 1.0 client over fetch for the tests: each protocol step on its own, so a test can
 * stop between them (tus-js-client, which the web app uses, is driven in tus-large.test.ts).
 */
export const TUS = '/api/videos/uploads/';

export function tusMetadata(meta: Record<string, string>): string {
  return Object.entries(meta)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');
}

export class TusClient {
  constructor(
    readonly base: string,
    readonly authorization: string,
  ) {}

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return { 'tus-resumable': '1.0.0', authorization: this.authorization, ...extra };
  }

  /** POST: creates an upload; resolves to the answer (its Location is the upload's URL). */
  create(length: number, meta: Record<string, string>): Promise<Response> {
    return fetch(`${this.base}${TUS}`, {
      method: 'POST',
      headers: this.headers({ 'upload-length': String(length), 'upload-metadata': tusMetadata(meta) }),
    });
  }

  /** The upload's absolute URL from a creation answer. */
  urlOf(created: Response): string {
    const location = created.headers.get('location');
    if (!location) throw new Error(`no Location (status ${created.status})`);
    return new URL(location, this.base).href;
  }

  head(url: string): Promise<Response> {
    return fetch(url, { method: 'HEAD', headers: this.headers() });
  }

  async offset(url: string): Promise<number> {
    const r = await this.head(url);
    if (r.status !== 200) throw new Error(`HEAD ${r.status}`);
    return Number(r.headers.get('upload-offset'));
  }

  patch(url: string, offset: number, body: Uint8Array | ReadableStream): Promise<Response> {
    return fetch(url, {
      method: 'PATCH',
      headers: this.headers({
        'upload-offset': String(offset),
        'content-type': 'application/offset+octet-stream',
      }),
      body: body as BodyInit,
      duplex: 'half',
    } as RequestInit);
  }

  del(url: string): Promise<Response> {
    return fetch(url, { method: 'DELETE', headers: this.headers() });
  }
}
