/**
 * Messages between the server's thread and a report thread, over the MessagePort that each
 * report task carries (report-threads.ts is the server's side, report-thread.ts the thread's).
 *
 * The thread pulls rows (a batch per `next`, one batch read ahead) and calls the server for what
 * only the server can do (the database, ffmpeg); it pushes the .xlsx bytes back as `data`, and
 * writes no more than its buffer while a `data` waits for its `ack` (the HTTP response's
 * back-pressure reaches exceljs this way).
 */
import type { ReportJob } from './report-job.ts';

/** Rows per `next` answer (a page of rows as one JSON text counts as a whole batch). */
export const STREAM_BATCH = 1000;

export type ToServer =
  /** The next batch of a stream; `name`/`arg` open it on its first `next`. */
  | { t: 'next'; stream: number; name?: string; arg?: unknown; max: number }
  | { t: 'close'; stream: number }
  | { t: 'call'; call: number; name: string; arg?: unknown }
  | { t: 'data'; chunks: Uint8Array[] }
  | { t: 'end' };

export type ToThread =
  | { t: 'items'; stream: number; items: unknown[]; done: boolean }
  | { t: 'return'; call: number; value: unknown }
  | { t: 'fail'; stream?: number; call?: number; message: string }
  | { t: 'ack' };

/** What a pool task receives (the port is transferred with it). */
export interface ReportTask {
  job: ReportJob;
  port: import('node:worker_threads').MessagePort;
}
