import { getPriority, setPriority } from 'node:os';

/**
 * BACKGROUND_NICE: how far below its process's CPU priority a background thread runs (the threads that
 * build Excel reports, and those that index brands and analyse videos, with the ffmpeg they start).
 * On a machine the API shares with them, the reviewers' calls then get a core first, and the
 * background work takes what is left (bench/load/README.md). 0 to 19; 0 leaves them at the process's.
 */
export function backgroundNice(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 10;
  if (!/^\d+$/.test(value.trim()) || Number(value) > 19)
    throw new Error(`BACKGROUND_NICE must be a whole number from 0 to 19 (got '${value}')`);
  return Number(value);
}

/**
 * Lowers the calling thread's CPU priority by BACKGROUND_NICE. On Linux the nice value belongs to each
 * thread: `setPriority` without a pid sets the calling thread's alone, and the threads and processes
 * it starts afterwards inherit it. Elsewhere it would lower the whole process, so it does nothing there.
 * Returns the thread's nice value after.
 */
export function lowerThisThread(env: NodeJS.ProcessEnv = process.env): number {
  const now = getPriority();
  if (process.platform !== 'linux') return now;
  const by = backgroundNice(env.BACKGROUND_NICE);
  if (by === 0) return now;
  try {
    setPriority(Math.min(19, now + by));
  } catch {
    // not permitted here: the thread keeps its process's priority
  }
  return getPriority();
}
