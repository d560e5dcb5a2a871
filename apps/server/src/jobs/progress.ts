/**
 * Progress writes, at most one per `everyMs` (plus the last), so a job reports 0..100 as it runs
 * without flooding the database.
 */
export function throttledProgress(write: (percent: number) => Promise<void>, everyMs = 1000) {
  let last = 0;
  let pending: Promise<void> = Promise.resolve();
  return (fraction: number) => {
    const now = Date.now();
    if (now - last < everyMs && fraction < 1) return;
    last = now;
    const percent = Math.max(0, Math.min(100, Math.round(fraction * 100)));
    pending = pending.then(() => write(percent)).catch(() => undefined);
  };
}
