import { Worker } from 'node:worker_threads';
import {
  endThread,
  startThread,
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
 * Analysis threads kept between tasks (see `keepWarmMs` of {@link runEngineTask}), the last kept
 * last, each with what it last analysed for (its detector threads' brands and settings) and the
 * timer that ends it when no task has come for it.
 */
const kept: { worker: Worker; key: string; timer: NodeJS.Timeout }[] = [];

/**
 * Analysis threads kept at most: as many as a worker process runs analyses at once (chunks at
 * once, ANALYSIS_CHUNK_CONCURRENCY, and a whole short video beside them) on a machine of a few cores.
 */
const MAX_KEPT = 4;

/** What an analysis's detector threads are started for (see WarmDetectors in the engine). */
const warmKey = (t: Extract<EngineTask, { kind: 'analyze' }>) =>
  JSON.stringify([t.indexFiles, t.sampleFps, t.analysisHeight, t.workers]);

/** Takes a kept analysis thread, one kept for the same brands and settings first; null if none is kept. */
function takeKept(key: string): Worker | null {
  // one that has ended (its 'exit' not handled yet) is dropped: a task posted to it would wait forever
  for (const k of kept.filter((x) => x.worker.threadId < 0)) retire(k.worker);
  const same = kept.map((k) => k.key).lastIndexOf(key);
  const at = same >= 0 ? same : kept.length - 1;
  if (at < 0) return null;
  const [k] = kept.splice(at, 1);
  clearTimeout(k.timer);
  k.worker.ref();
  return k.worker;
}

/** Asks a kept thread to end (it ends its detector threads first), and forgets it. */
function retire(worker: Worker): void {
  const at = kept.findIndex((k) => k.worker === worker);
  if (at >= 0) clearTimeout(kept.splice(at, 1)[0].timer);
  void endThread(worker, { type: 'close' }, STOP_GRACE_MS);
}

/**
 * Ends the kept analysis threads, then resolves once every engine thread started so far has ended
 * (those asked to stop end at their task's next step): the process must not exit while one runs a
 * model (see runEngineTask).
 */
export async function engineThreadsEnded(): Promise<void> {
  for (const k of [...kept]) retire(k.worker);
  await Promise.all([...live]);
}

/** Engine threads started so far, and those kept between analyses now (for tests). */
export function engineThreadCounts(): { started: number; kept: number } {
  return { started, kept: kept.length };
}
let started = 0;

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
  {
    signal,
    timeLimitMs,
    keepWarmMs = 0,
  }: { signal?: AbortSignal; timeLimitMs?: number; keepWarmMs?: number } = {},
): Promise<Result<T>> {
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    // An analysis with `keepWarmMs` runs on a kept thread (one started `warm`, which keeps its
    // detector threads between analyses) and leaves it kept for that long after; any other task
    // runs on a thread of its own, ended with the task.
    const key = task.kind === 'analyze' && keepWarmMs > 0 ? warmKey(task) : null;
    let worker = key === null ? null : takeKept(key);
    if (!worker) {
      // The thread runs TypeScript source: its .mjs entry registers tsx, whatever the parent runs on
      // (and the parent's `--import tsx`, which Node 24 would run in the thread too, is left out).
      worker = startThread(new URL('./engine-thread.mjs', import.meta.url), {
        workerData: key === null ? task : { kind: 'warm' },
      });
      started++;
      // between tasks no task listens: an error then is the thread's end, which 'exit' handles
      worker.on('error', () => undefined);
      const ended = new Promise<void>((r) => worker!.once('exit', () => r()));
      live.add(ended);
      const w = worker;
      void ended.then(() => {
        live.delete(ended);
        const at = kept.findIndex((k) => k.worker === w);
        if (at >= 0) clearTimeout(kept.splice(at, 1)[0].timer);
      });
    }
    const thread = worker;
    if (key !== null) thread.postMessage({ type: 'task', task });
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
    // otherwise it has ended (posted its result or error, or exited) and the thread is ended at
    // once, or kept (`keep`: an analysis that ended well on a kept thread).
    const finish = (fn: () => void, running = false, keep = false) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', abort);
      clearTimeout(timer);
      thread.off('message', onMessage);
      thread.off('error', onError);
      thread.off('exit', onExit);
      fn();
      if (running) return void endThread(thread, { type: 'abort' }, STOP_GRACE_MS);
      if (key === null) return void thread.terminate();
      if (!keep || thread.threadId < 0) return retire(thread);
      // kept: it does not hold the process open, and ends itself after keepWarmMs without a task
      thread.unref();
      const idle = setTimeout(() => retire(thread), keepWarmMs);
      idle.unref();
      kept.push({ worker: thread, key, timer: idle });
      // each holds its detector threads (a few hundred MB): the oldest beyond the cap ends now
      while (kept.length > MAX_KEPT) retire(kept[0].worker);
    };
    const abort = () => finish(() => reject(signal?.reason), true);
    signal?.addEventListener('abort', abort, { once: true });
    const onMessage = (m: EngineMessage) => {
      if (m.type === 'progress') onProgress(m.fraction);
      else if (m.type === 'error') finish(() => reject(new Error(m.message)));
      else if (m.type === 'index')
        finish(() => resolve({ data: Buffer.from(m.data), version: m.version } as Result<T>));
      else if (m.type === 'follow') finish(() => resolve(m.segments as Result<T>));
      else finish(() => resolve(m.analysis as Result<T>), false, true);
    };
    const onError = (err: Error) => finish(() => reject(err));
    const onExit = (code: number) =>
      finish(() => reject(new Error(`engine thread exited with code ${code}`)));
    thread.on('message', onMessage);
    thread.on('error', onError);
    thread.on('exit', onExit);
  });
}
