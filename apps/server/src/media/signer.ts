import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signs media paths so that <img> and <video> elements, which cannot send the Authorization
 * header, can load an organization's files: HMAC-SHA256 over the path and an expiry time.
 * Expiries are rounded up to a window so that a path stays the same (and cacheable) for a while.
 */
export class MediaSigner {
  constructor(
    private readonly secret: string,
    private readonly ttlSeconds = 12 * 3600,
    private readonly windowSeconds = 3600,
  ) {}

  sign(pathname: string, now = Date.now()): string {
    const exp = Math.ceil((now / 1000 + this.ttlSeconds) / this.windowSeconds) * this.windowSeconds;
    return `${pathname}?exp=${exp}&sig=${this.mac(pathname, exp)}`;
  }

  verify(pathname: string, exp: string | undefined, sig: string | undefined, now = Date.now()): boolean {
    const e = Number(exp);
    if (!Number.isInteger(e) || !sig || e * 1000 < now) return false;
    const want = Buffer.from(this.mac(pathname, e));
    const got = Buffer.from(sig);
    return want.length === got.length && timingSafeEqual(want, got);
  }

  private mac(pathname: string, exp: number): string {
    return createHmac('sha256', this.secret).update(`${pathname}\n${exp}`).digest('base64url');
  }
}
