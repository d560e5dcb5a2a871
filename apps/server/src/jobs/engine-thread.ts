/**
 * Runs one engine task on a worker thread, so that the CPU-heavy detection (OpenCV in WASM) never
 * blocks the API's event loop when the API and the worker share a process (the embedded default).
 */
import { readFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import {
  analyzeVideo,
  buildBrandIndex,
  deserializeBrandIndex,
  followBox,
  serializeBrandIndex,
} from '@logo-review/engine';
import { lowerThisThread } from '../ops/thread-priority.ts';
import type { EngineTask, EngineMessage } from './engine-client.ts';

const task = workerData as EngineTask;
// Indexing and analysis are background work (their detector threads and ffmpeg inherit this); the
// editor's follow of a drawn box is not: a reviewer waits for it.
if (task.kind !== 'follow') lowerThisThread();
const post = (m: EngineMessage, transfer: ArrayBuffer[] = []) => parentPort!.postMessage(m, transfer);
// Asked to stop ({ type: 'abort' }, see runEngineTask): the task stops at its next step, and the
// thread then ends itself. It is not terminated from outside while it runs: terminating a thread
// while onnxruntime-node runs a model in it (or in its detector threads) aborts the whole process.
const stop = new AbortController();
let finished = false;
parentPort!.on('message', (m: { type?: string }) => {
  if (m?.type !== 'abort') return;
  // asked after the task ended (its result crossed the request): nothing runs, end now
  if (finished) process.exit(0);
  stop.abort();
});

async function run(): Promise<void> {
  if (task.kind === 'index') {
    const index = await buildBrandIndex(task.brand, {
      signal: stop.signal,
      onProgress: (done, total) => post({ type: 'progress', fraction: total ? done / total : 1 }),
    });
    const buf = serializeBrandIndex(index);
    const copy = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
    post({ type: 'index', data: copy, version: index.version }, [copy]);
  } else if (task.kind === 'follow') {
    post({ type: 'follow', segments: await followBox(task.file, { ...task.options, signal: stop.signal }) });
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
      signal: stop.signal,
      onProgress: (fraction) => post({ type: 'progress', fraction }),
    });
    post({ type: 'analysis', analysis });
  }
}

run()
  .catch((err: Error) => post({ type: 'error', message: err.message }))
  .finally(() => {
    finished = true;
    // stopped: nothing runs any more, so the thread ends (done, the parent ends it on the result)
    if (stop.signal.aborted) process.exit(0);
  });
