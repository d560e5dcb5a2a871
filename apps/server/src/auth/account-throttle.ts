import type { Queryable } from '@logo-review/db';

/** Failures on one account name, from anywhere, before any wait. */
export const FREE_FAILURES = 10;
/** The longest wait between two attempts on one account name. */
export const MAX_DELAY_SECONDS = 15 * 60;
/** Failures are forgotten this long after the last one. */
const FORGET_AFTER_MS = 24 * 3600_000;
/** An address stays known this long after a successful login from it. */
const KNOWN_FOR_MS = 90 * 86_400_000;

/** Seconds to wait after the last failure, once `failures` failures are counted. */
export function delaySeconds(failures: number): number {
  return failures < FREE_FAILURES ? 0 : Math.min(MAX_DELAY_SECONDS, 2 ** (failures - FREE_FAILURES));
}

/**
 * The per-account slowdown, beside the per-address limit of LoginLimiter: guessing one account's
 * password from many addresses (a botnet, or a spoofed client address) gets slower and slower.
 * After FREE_FAILURES failures on a name, the next attempt must wait 1 s after the last failure, then
 * 2 s, 4 s ... up to 15 minutes: about a hundred guesses a day at most, however many addresses.
 *
 * Not a lockout: the slowdown never refuses an attempt from an address that user has logged in
 * from before (within 90 days). An attacker elsewhere therefore cannot keep the real user out,
 * while the attacker, not being at the user's address, gets the slowdown. A new address of the
 * real user waits at most MAX_DELAY_SECONDS, and a successful login clears the count.
 * Kept in the database, so that every API process counts the same failures.
 */
export class AccountThrottle {
  private failuresSinceCleanup = 0;

  /** Seconds before an attempt on `username` from `address` is taken; 0 = now. */
  async wait(db: Queryable, username: string, address: string, now = new Date()): Promise<number> {
    const row = (
      await db.query<{ failures: number; last_failure: Date }>(
        'SELECT failures, last_failure FROM login_failures WHERE username = $1',
        [username.toLowerCase()],
      )
    )[0];
    if (!row) return 0;
    const last = new Date(row.last_failure).getTime();
    if (now.getTime() - last > FORGET_AFTER_MS) return 0;
    const until = last + delaySeconds(row.failures) * 1000;
    if (until <= now.getTime()) return 0;
    const known = await db.query(
      `SELECT 1 FROM login_known_addresses k JOIN users u ON u.id = k.user_id
        WHERE u.username = $1 AND k.address = $2 AND k.last_success > $3`,
      [username, address, new Date(now.getTime() - KNOWN_FOR_MS)],
    );
    if (known.length > 0) return 0;
    return Math.ceil((until - now.getTime()) / 1000);
  }

  async failed(db: Queryable, username: string, now = new Date()): Promise<void> {
    await db.query(
      `INSERT INTO login_failures (username, failures, last_failure) VALUES ($1, 1, $2)
       ON CONFLICT (username) DO UPDATE SET
         failures = CASE WHEN login_failures.last_failure < $3 THEN 1 ELSE login_failures.failures + 1 END,
         last_failure = $2`,
      [username.toLowerCase(), now, new Date(now.getTime() - FORGET_AFTER_MS)],
    );
    // Names that match no user are counted too: forget the stale ones now and then.
    if (++this.failuresSinceCleanup >= 1000) {
      this.failuresSinceCleanup = 0;
      await db.query('DELETE FROM login_failures WHERE last_failure < $1', [
        new Date(now.getTime() - FORGET_AFTER_MS),
      ]);
    }
  }

  async succeeded(db: Queryable, userId: number, username: string, address: string, now = new Date()) {
    await db.query('DELETE FROM login_failures WHERE username = $1', [username.toLowerCase()]);
    await db.query(
      `INSERT INTO login_known_addresses (user_id, address, last_success) VALUES ($1, $2, $3)
       ON CONFLICT (user_id, address) DO UPDATE SET last_success = $3`,
      [userId, address, now],
    );
  }
}
