/**
 * Worker thread running the per-frame detector, so that frames are analysed on several cores
 * while the main thread feeds frames and links tracks. Messages: `init` once (brand indexes and
 * detector options), then `frame` -> `hits` per frame.
 */
import { parentPort } from 'node:worker_threads';
import type { BrandIndex } from './brand-index.ts';
import { DescriptorIndex } from './descriptor-index.ts';
import { transferList, type GrayImage } from './features.ts';
import type { DetectorOptions } from './hits.ts';
import { detectInFrame } from './pipeline.ts';
import { getCv } from './opencv.ts';

export type WorkerRequest =
  | { type: 'init'; brands: BrandIndex[]; opts: DetectorOptions }
  | { type: 'frame'; id: number; frame: GrayImage; seq: number; last: boolean }
  | { type: 'close' };

const port = parentPort;
if (!port) throw new Error('detect-worker must run in a worker thread');

let ready: Promise<{ index: DescriptorIndex; opts: DetectorOptions }> | null = null;
/** the frames being detected, and the start-up (either may be inside a native call) */
const busy = new Set<Promise<unknown>>();

port.on('message', (msg: WorkerRequest) => {
  if (msg.type === 'close') {
    // The thread ends itself once nothing of it runs in native code: terminating it from outside
    // while onnxruntime-node runs a model aborts the whole process ("terminate called after
    // throwing an instance of 'Napi::Error'"), see DetectorPool.close.
    void Promise.allSettled([...busy]).then(() => process.exit(0));
    return;
  }
  if (msg.type === 'init') {
    ready = getCv().then(() => ({ index: new DescriptorIndex(msg.brands), opts: msg.opts }));
    track(ready);
    ready.then(
      () => port.postMessage({ type: 'ready' }),
      (err: Error) => port.postMessage({ type: 'error', id: -1, message: err.message }),
    );
    return;
  }
  track(
    (async () => {
      try {
        const { index, opts } = await ready!;
        const cv = await getCv();
        const hits = await detectInFrame(cv, msg.frame, index, opts, msg.seq, msg.last);
        // Hand the frame back too: the main thread follows tracks in it.
        port.postMessage({ type: 'hits', id: msg.id, hits, frame: msg.frame }, transferList(msg.frame));
      } catch (err) {
        port.postMessage({ type: 'error', id: msg.id, message: (err as Error).message });
      }
    })(),
  );
});

function track(p: Promise<unknown>): void {
  busy.add(p);
  const done = () => busy.delete(p);
  p.then(done, done);
}
