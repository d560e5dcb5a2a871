/** A progress callback (fraction 0..1) whose database writes can be waited for. */
export interface ThrottledProgress {
  (fraction: number): void;
  /**
   * Resolves when every write asked for so far is done. A job awaits it before writing its final
   * state: a progress write still in flight could otherwise land after it (on PostgreSQL the two run
   * on different pooled connections) and put the row back to its working state.
   */
  flush(): Promise<void>;
}

/**
 * Progress writes, at most one per `everyMs` (plus the last), so a job reports 0..100 as it runs
 * without flooding the database. Writes run one after the other; a failed one is skipped.
 */
export function throttledProgress(
  write: (percent: number) => Promise<void>,
  everyMs = 1000,
): ThrottledProgress {
  let last = 0;
  let pending: Promise<void> = Promise.resolve();
  const report = (fraction: number) => {
    const now = Date.now();
    if (now - last < everyMs && fraction < 1) return;
    last = now;
    const percent = Math.max(0, Math.min(100, Math.round(fraction * 100)));
    pending = pending.then(() => write(percent)).catch(() => undefined);
  };
  return Object.assign(report, { flush: () => pending });
}
