import { Worker } from 'node:worker_threads';
import {
  endThread,
  type BrandExampleInput,
  type FollowBoxOptions,
  type FollowedSegment,
  type MediaAnalysis,
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
 * ms that an engine thread asked to stop is given to stop by itself before it is terminated (a
 * step of any task, a frame or an example, takes well under a second).
 */
export const STOP_GRACE_MS = 30_000;

/** Engine threads that have not ended yet, each as the promise of its end. */
const live = new Set<Promise<void>>();

/**
 * Resolves once every engine thread started so far has ended (those asked to stop end at their
 * task's next step): the process must not exit while one runs a model (see runEngineTask).
 */
export async function engineThreadsEnded(): Promise<void> {
  await Promise.all([...live]);
}

/**
 * Runs an engine task on its own thread; progress (0..1) is reported as it comes. Aborting the
 * signal rejects with the signal's reason and stops the thread; with `timeLimitMs` the thread is
 * stopped after that long and the promise rejects with {@link EngineTimeoutError}. A thread that
 * is stopped while its task runs is asked to stop, and ends itself at the task's next step; it is
 * terminated from outside only if it has not ended after {@link STOP_GRACE_MS}: terminating a
 * thread while onnxruntime-node runs a model in it aborts the whole process ("terminate called
 * after throwing an instance of 'Napi::Error'").
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
    const ended = new Promise<void>((r) => worker.once('exit', () => r()));
    live.add(ended);
    void ended.then(() => live.delete(ended));
    let settled = false;
    const timer =
      timeLimitMs === undefined
        ? undefined
        : setTimeout(
            () =>
              finish(() => reject(new EngineTimeoutError(`engine task ran past ${timeLimitMs} ms`)), true),
            timeLimitMs,
          );
    // `running`: the task may still run in the thread, which is then asked to stop (see above);
    // otherwise it has ended (posted its result or error, or exited) and is ended at once.
    const finish = (fn: () => void, running = false) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', abort);
      clearTimeout(timer);
      fn();
      if (!running) return void worker.terminate();
      void endThread(worker, { type: 'abort' }, STOP_GRACE_MS);
    };
    const abort = () => finish(() => reject(signal?.reason), true);
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
