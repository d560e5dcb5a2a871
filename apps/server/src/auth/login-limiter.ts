/**
 * Login throttling, in memory per process. Two fixed windows:
 * - per address: many attempts from one address (credential stuffing) are refused;
 * - per (username, address): guessing one user's password from one address is refused.
 * Failures are counted per (username, address) rather than per username alone, so an attacker
 * elsewhere cannot lock the real user out; a successful login clears that pair's count.
 */
export class LoginLimiter {
  private readonly byAddress = new Map<string, { count: number; until: number }>();
  private readonly byPair = new Map<string, { count: number; until: number }>();

  constructor(
    private readonly maxPerAddress = 100,
    private readonly maxFailuresPerPair = 10,
    private readonly windowMs = 15 * 60 * 1000,
  ) {}

  /** Seconds to wait when the attempt must be refused, else 0. Counts the attempt. */
  check(address: string, username: string, now = Date.now()): number {
    this.sweep(now);
    const a = this.bump(this.byAddress, address, now, 1);
    const p = this.byPair.get(`${username.toLowerCase()}\n${address}`);
    if (a.count > this.maxPerAddress) return Math.ceil((a.until - now) / 1000);
    if (p && p.until > now && p.count >= this.maxFailuresPerPair) return Math.ceil((p.until - now) / 1000);
    return 0;
  }

  failed(address: string, username: string, now = Date.now()): void {
    this.bump(this.byPair, `${username.toLowerCase()}\n${address}`, now, 1);
  }

  succeeded(address: string, username: string): void {
    this.byPair.delete(`${username.toLowerCase()}\n${address}`);
  }

  private bump(map: Map<string, { count: number; until: number }>, key: string, now: number, by: number) {
    let e = map.get(key);
    if (!e || e.until <= now) {
      e = { count: 0, until: now + this.windowMs };
      map.set(key, e);
    }
    e.count += by;
    return e;
  }

  private sweep(now: number) {
    if (this.byAddress.size + this.byPair.size < 10_000) return;
    for (const m of [this.byAddress, this.byPair]) for (const [k, e] of m) if (e.until <= now) m.delete(k);
  }
}
