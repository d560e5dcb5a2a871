import { Worker } from 'node:worker_threads';
import type {
  BrandExampleInput,
  FollowBoxOptions,
  FollowedSegment,
  MediaAnalysis,
} from '@logo-review/engine';

export type EngineTask =
  | { kind: 'index'; brand: { id: number; name: string; examples: BrandExampleInput[] } }
  | {
      kind: 'analyze';
      file: string;
      indexFiles: string[];
      sampleFps?: number;
      analysisHeight?: number;
      /** ms: only this span of the video (a chunk); default all of it */
      startMs?: number;
      endMs?: number;
      /** detector threads (the engine's default: one per core, at most 2) */
      workers?: number;
    }
  | { kind: 'follow'; file: string; options: Omit<FollowBoxOptions, 'signal'> };

export type EngineMessage =
  | { type: 'progress'; fraction: number }
  | { type: 'index'; data: ArrayBuffer; version: string }
  | { type: 'analysis'; analysis: MediaAnalysis }
  | { type: 'follow'; segments: FollowedSegment[] }
  | { type: 'error'; message: string };

type Result<T extends EngineTask> = T extends { kind: 'index' }
  ? { data: Buffer; version: string }
  : T extends { kind: 'follow' }
    ? FollowedSegment[]
    : MediaAnalysis;

/** The engine thread ran past the time limit given to {@link runEngineTask}. */
export class EngineTimeoutError extends Error {}

/**
 * Runs an engine task on its own thread; progress (0..1) is reported as it comes. Aborting the
 * signal ends the thread and rejects with the signal's reason; with `timeLimitMs` the thread is
 * stopped after that long and the promise rejects with {@link EngineTimeoutError}.
 */
export function runEngineTask<T extends EngineTask>(
  task: T,
  onProgress: (fraction: number) => void,
  { signal, timeLimitMs }: { signal?: AbortSignal; timeLimitMs?: number } = {},
): Promise<Result<T>> {
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    // The thread runs TypeScript source: its .mjs entry registers tsx, whatever the parent runs on.
    const worker = new Worker(new URL('./engine-thread.mjs', import.meta.url), { workerData: task });
    let settled = false;
    const timer =
      timeLimitMs === undefined
        ? undefined
        : setTimeout(
            () => finish(() => reject(new EngineTimeoutError(`engine task ran past ${timeLimitMs} ms`))),
            timeLimitMs,
          );
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', abort);
      clearTimeout(timer);
      fn();
      void worker.terminate();
    };
    const abort = () => finish(() => reject(signal?.reason));
    signal?.addEventListener('abort', abort, { once: true });
    worker.on('message', (m: EngineMessage) => {
      if (m.type === 'progress') onProgress(m.fraction);
      else if (m.type === 'error') finish(() => reject(new Error(m.message)));
      else if (m.type === 'index')
        finish(() => resolve({ data: Buffer.from(m.data), version: m.version } as Result<T>));
      else if (m.type === 'follow') finish(() => resolve(m.segments as Result<T>));
      else finish(() => resolve(m.analysis as Result<T>));
    });
    worker.on('error', (err) => finish(() => reject(err)));
    worker.on('exit', (code) => finish(() => reject(new Error(`engine thread exited with code ${code}`))));
  });
}
