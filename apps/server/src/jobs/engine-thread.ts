/**
 * Runs engine tasks on a worker thread, so that the CPU-heavy detection (OpenCV in WASM) never
 * blocks the API's event loop when the API and the worker share a process (the embedded default).
 *
 * Two ways (see runEngineTask): given a task (`workerData` is the task), the thread runs it once;
 * started `{ kind: 'warm' }`, it runs the analyses posted to it (`{ type: 'task', task }`) one after
 * another and keeps its detector threads between them (WarmDetectors), until it is asked to end
 * (`{ type: 'close' }`).
 */
import { readFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import {
  analyzeVideo,
  buildBrandIndex,
  deserializeBrandIndex,
  followBox,
  serializeBrandIndex,
  WarmDetectors,
} from '@logo-review/engine';
import { lowerThisThread } from '../ops/thread-priority.ts';
import type { EngineTask, EngineMessage } from './engine-client.ts';

const given = workerData as EngineTask | { kind: 'warm' };
// Indexing and analysis are background work (their detector threads and ffmpeg inherit this); the
// editor's follow of a drawn box is not: a reviewer waits for it.
if (given.kind !== 'follow') lowerThisThread();
const warm = given.kind === 'warm' ? new WarmDetectors() : undefined;
const post = (m: EngineMessage, transfer: ArrayBuffer[] = []) => parentPort!.postMessage(m, transfer);
// Asked to stop ({ type: 'abort' }, see runEngineTask): the task stops at its next step, and the
// thread then ends itself. It is not terminated from outside while it runs: terminating a thread
// while onnxruntime-node runs a model in it (or in its detector threads) aborts the whole process.
// Asked to end ({ type: 'close' }, a kept thread): it ends its detector threads the same way, then itself.
let stop = new AbortController();
let running: Promise<void> | null = null;
let ending = false;
parentPort!.on('message', (m: { type?: string; task?: EngineTask }) => {
  if (m?.type === 'abort' || m?.type === 'close') {
    ending = true;
    stop.abort();
    // asked after the task ended (its result crossed the request): nothing runs, end now
    if (!running) void end();
  } else if (m?.type === 'task' && m.task && !running && !ending) start(m.task);
});

async function end(): Promise<never> {
  await warm?.close();
  process.exit(0);
}

function start(task: EngineTask): void {
  stop = new AbortController();
  running = run(task, stop.signal)
    .catch((err: Error) => post({ type: 'error', message: err.message }))
    .finally(() => {
      running = null;
      // stopped or asked to end: nothing runs any more, so the thread ends (a task run once and
      // done: the parent ends it on the result; a kept thread waits for the next task)
      if (ending) void end();
    });
}

async function run(task: EngineTask, signal: AbortSignal): Promise<void> {
  if (task.kind === 'index') {
    const index = await buildBrandIndex(task.brand, {
      signal,
      onProgress: (done, total) => post({ type: 'progress', fraction: total ? done / total : 1 }),
    });
    const buf = serializeBrandIndex(index);
    const copy = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
    post({ type: 'index', data: copy, version: index.version }, [copy]);
  } else if (task.kind === 'follow') {
    post({ type: 'follow', segments: await followBox(task.file, { ...task.options, signal }) });
  } else {
    const brands = await Promise.all(
      task.indexFiles.map(async (f) => deserializeBrandIndex(await readFile(f))),
    );
    const analysis = await analyzeVideo(task.file, brands, {
      sampleFps: task.sampleFps,
      analysisHeight: task.analysisHeight,
      startMs: task.startMs,
      endMs: task.endMs,
      workers: task.workers,
      signal,
      warm,
      onProgress: (fraction) => post({ type: 'progress', fraction }),
    });
    post({ type: 'analysis', analysis });
  }
}

if (given.kind !== 'warm') start(given);
