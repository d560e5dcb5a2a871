import { Worker, type WorkerOptions } from 'node:worker_threads';
import type { BrandIndex } from './brand-index.ts';
import { DescriptorIndex } from './descriptor-index.ts';
import { transferList, type GrayImage } from './features.ts';
import type { DetectorOptions, FrameHit } from './hits.ts';
import { detectInFrame } from './pipeline.ts';
import { getCv } from './opencv.ts';

/** Hits of one frame, and the frame itself (its pixel buffer travels to a worker and back). */
export interface FrameResult {
  hits: FrameHit[];
  frame: GrayImage;
}

type Pending = {
  resolve: (h: FrameResult) => void;
  reject: (e: Error) => void;
};

/**
 * Frames a worker holds at once: the one it works on and the next, so that it never waits for the
 * main thread (busy tracking) to hand it a frame.
 */
const PER_WORKER = 2;

/**
 * Frames in flight per worker thread (see {@link DetectorPool.parallelism}). With 3, the two
 * detector threads of the throughput clip (120 s at 1280x720, 50 brands) waited 8.6 and 11.2 s
 * for a frame ({@link DetectorPool.waitedSeconds}) while the analysis waited for a text-read
 * frame on the other; with 8, 1.5 and 2.1 s. 16 frames in flight hold 22 MB at 720p.
 */
const FRAMES_PER_WORKER = 8;

/**
 * Runs the frame detector on `size` worker threads (or inline when size is 0 or workers cannot
 * start). Each worker holds its own copy of the shared descriptor index (a few MB for 200 brands).
 */
export class DetectorPool {
  private seq = 0;
  private readonly pending = new Map<number, Pending>();
  /** frames sent to each worker and not answered yet */
  private readonly busy: number[];
  /** frames not sent to a worker yet, oldest first */
  private readonly queue: { id: number; frame: GrayImage; seq: number; last: boolean }[] = [];
  /** ms each worker has waited for a frame, from its first frame on (see {@link waitedSeconds}) */
  private readonly waited: number[];
  /** when each worker last ran out of frames; -1 while it has one, or before its first */
  private readonly idleSince: number[];

  private constructor(
    private readonly workers: Worker[],
    private readonly inline: DescriptorIndex | null,
    private readonly opts: DetectorOptions,
  ) {
    this.busy = workers.map(() => 0);
    this.waited = workers.map(() => 0);
    this.idleSince = workers.map(() => -1);
    for (const [k, w] of workers.entries()) {
      w.on(
        'message',
        (m: { type: string; id: number; hits?: FrameHit[]; frame?: GrayImage; message?: string }) => {
          const p = this.pending.get(m.id);
          if (!p) return;
          this.pending.delete(m.id);
          if (--this.busy[k] === 0) this.idleSince[k] = performance.now();
          this.pump();
          if (m.type === 'hits') p.resolve({ hits: m.hits!, frame: m.frame! });
          else p.reject(new Error(m.message));
        },
      );
      w.on('error', (err) => this.failAll(err));
    }
  }

  /**
   * Number of frames worth keeping in flight (sent and not yet taken in frame order by the
   * analysis): enough per worker that a worker is not left idle while another spends a while on
   * one frame. The analysis takes results in frame order, so while the oldest frame is one that
   * the text route reads (4-5 times a plain frame's time), the other worker must find work
   * further on (see {@link FRAMES_PER_WORKER}).
   */
  get parallelism(): number {
    return Math.max(1, this.workers.length * FRAMES_PER_WORKER);
  }

  /**
   * Seconds each worker thread has spent without a frame between its first frame and its last
   * (a pipeline stall, where a core may have nothing to do): printed by the throughput benchmark.
   */
  get waitedSeconds(): number[] {
    return this.waited.map((ms) => ms / 1000);
  }

  /**
   * Starts {@link waitedSeconds} afresh, as if no thread had had a frame yet: an analysis that
   * takes a kept pool counts neither the waits of the analyses before nor the time between them.
   */
  resetWaits(): void {
    this.waited.fill(0);
    this.idleSince.fill(-1);
  }

  /** Whether every worker thread still runs (a kept pool whose thread died is not taken again). */
  get alive(): boolean {
    // threadId is -1 once a thread has ended
    return this.workers.every((w) => w.threadId >= 0);
  }

  static async create(brands: BrandIndex[], size: number, opts: DetectorOptions): Promise<DetectorPool> {
    if (size > 0) {
      const workers: Worker[] = [];
      try {
        // Started together: each loads OpenCV's WASM and builds its index (about a second).
        const started = await Promise.allSettled(
          Array.from({ length: size }, () => startWorker(brands, opts)),
        );
        for (const s of started) if (s.status === 'fulfilled') workers.push(s.value);
        const failed = started.find((s) => s.status === 'rejected');
        if (failed) throw failed.reason;
        if (process.env.ENGINE_DEBUG) console.error(`detector pool: ${size} worker(s)`);
        return new DetectorPool(workers, null, opts);
      } catch (err) {
        if (process.env.ENGINE_DEBUG) console.error('detector workers unavailable:', err);
        // Worker threads need the TS loader; where it is missing, fall back to the main thread.
        await Promise.all(workers.map((w) => w.terminate()));
      }
    }
    await getCv();
    return new DetectorPool([], new DescriptorIndex(brands), opts);
  }

  /** Hits of one frame; `seq` is its sample number and `last` marks the span's last (see RouteInput). */
  async detect(frame: GrayImage, seq = 0, last = false): Promise<FrameResult> {
    if (this.inline)
      return { hits: await detectInFrame(await getCv(), frame, this.inline, this.opts, seq, last), frame };
    const id = this.seq++;
    return new Promise<FrameResult>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.queue.push({ id, frame: ownBuffer(frame), seq, last });
      this.pump();
    });
  }

  /**
   * Sends queued frames to workers that hold fewer than {@link PER_WORKER}: a frame waits in the
   * pool, not behind a costly frame (one the text route reads) on one worker while the other
   * worker has nothing to do.
   */
  private pump(): void {
    while (this.queue.length > 0) {
      const k = this.busy.indexOf(Math.min(...this.busy));
      if (this.busy[k] >= PER_WORKER) return;
      const { id, frame, seq, last } = this.queue.shift()!;
      this.busy[k]++;
      if (this.idleSince[k] >= 0) {
        this.waited[k] += performance.now() - this.idleSince[k];
        this.idleSince[k] = -1;
      }
      this.workers[k].postMessage({ type: 'frame', id, frame, seq, last }, transferList(frame));
    }
  }

  /**
   * Ends the worker threads: each is asked to end itself once its frames in flight are done (see
   * detect-worker.ts and {@link endThread}; the text route runs an ONNX model).
   */
  async close(): Promise<void> {
    this.failAll(new Error('detector pool closed'));
    await Promise.all(this.workers.map((w) => endThread(w, { type: 'close' })));
  }

  private failAll(err: Error): void {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    this.queue.length = 0;
  }
}

/**
 * Keeps the detector threads of an analysis for the next one with the same brands and settings:
 * starting them (each loads OpenCV's two runtimes, builds the brands' index and creates the ONNX
 * sessions on its first read frame) takes 3-4.5 s, which a long video analysed in chunks would
 * otherwise pay again for every chunk. Holds at most one pool; taking one for other brands or
 * settings ends the one kept. A pool is kept only after an analysis that ended well (see
 * `analyzeVideo`'s `warm` option): one that failed or was stopped is closed.
 */
export class WarmDetectors {
  private kept: { key: string; pool: DetectorPool } | null = null;
  /** pools started by {@link take}, for tests and diagnostics */
  started = 0;

  /** The kept pool when it was made for these brands and settings, else a new one. */
  async take(brands: BrandIndex[], size: number, opts: DetectorOptions): Promise<DetectorPool> {
    const key = poolKey(brands, size, opts);
    const kept = this.kept;
    this.kept = null;
    if (kept?.key === key && kept.pool.alive) return kept.pool;
    await kept?.pool.close();
    this.started++;
    return DetectorPool.create(brands, size, opts);
  }

  /** Keeps `pool` (taken for these brands and settings) for the next {@link take}. */
  async keep(pool: DetectorPool, brands: BrandIndex[], size: number, opts: DetectorOptions): Promise<void> {
    const before = this.kept;
    this.kept = { key: poolKey(brands, size, opts), pool };
    if (before && before.pool !== pool) await before.pool.close();
  }

  /** Ends the kept pool's threads (see {@link DetectorPool.close}). */
  async close(): Promise<void> {
    const kept = this.kept;
    this.kept = null;
    await kept?.pool.close();
  }
}

/** What a pool's threads were started with: the brands (in order: hits name them by position), their indexes, the settings. */
function poolKey(brands: BrandIndex[], size: number, opts: DetectorOptions): string {
  return JSON.stringify([size, opts, brands.map((b) => [b.brandId, b.name, b.version, b.count])]);
}

/** ms that a worker thread asked to end is given to end itself (a frame takes well under a second). */
export const CLOSE_GRACE_MS = 30_000;

/**
 * Asks a worker thread to end (posts `ask`, which the thread answers by ending itself once nothing
 * of it runs) and resolves when it has ended; after `graceMs` it is terminated all the same.
 * `Worker.terminate()` while a thread runs an onnxruntime-node model aborts the whole process
 * ("terminate called after throwing an instance of 'Napi::Error'"), so threads that may run one
 * are ended this way (the detector threads here, the server's engine threads).
 */
export function endThread(w: Worker, ask: unknown, graceMs = CLOSE_GRACE_MS): Promise<void> {
  return new Promise((resolve) => {
    // threadId is -1 once the thread has ended
    if (w.threadId < 0) return resolve();
    const timer = setTimeout(() => void w.terminate().then(() => resolve()), graceMs);
    w.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    try {
      w.postMessage(ask);
    } catch {
      // the thread has ended already ('exit' follows)
    }
  });
}

/** The frame, or a copy of it when its planes share a buffer with other data (a pooled Buffer). */
function ownBuffer(frame: GrayImage): GrayImage {
  const planes = frame.uv ? [frame.data, frame.uv] : [frame.data];
  const bytes = planes.reduce((s, p) => s + p.byteLength, 0);
  // streamFrames gives each frame one buffer that holds exactly its planes
  if (planes.every((p) => p.buffer === frame.data.buffer) && frame.data.buffer.byteLength === bytes)
    return frame;
  return { ...frame, data: frame.data.slice(), uv: frame.uv?.slice() };
}

/**
 * Node options for a thread whose entry registers tsx itself: the parent's, less `--import tsx`.
 * A worker thread takes its parent's options. Node 24 runs a parent's `--import` in a worker
 * thread too, and tsx registered both ways would send each module the thread loads through its
 * hooks twice; Node 20 does not run it there, yet two detector threads started on Node 20 were
 * ready 0.17 s sooner without the option (1955-1971 against 2123-2152 ms, three runs each).
 */
export function threadExecArgv(argv: readonly string[] = process.execArgv): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--import=tsx') continue;
    if (argv[i] === '--import' && argv[i + 1] === 'tsx') {
      i++;
      continue;
    }
    out.push(argv[i]);
  }
  return out;
}

/**
 * A worker thread whose entry registers tsx itself, started with {@link threadExecArgv} of the
 * parent's options (`argv`). Node refuses some options in a worker's own `execArgv` that a worker
 * inherits without complaint (V8's, such as `--liftoff-only`, which hold for the whole process
 * anyway): with those, the thread takes the parent's options as they are.
 */
export function startThread(
  entry: string | URL,
  options: WorkerOptions = {},
  argv: readonly string[] = process.execArgv,
): Worker {
  const execArgv = threadExecArgv(argv);
  if (execArgv.length === argv.length) return new Worker(entry, options);
  try {
    return new Worker(entry, { ...options, execArgv });
  } catch (err) {
    if ((err as { code?: string }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw err;
    return new Worker(entry, options);
  }
}

function startWorker(brands: BrandIndex[], opts: DetectorOptions): Promise<Worker> {
  const w = startThread(new URL('./detect-worker-boot.mjs', import.meta.url));
  return new Promise((resolve, reject) => {
    const fail = (err: Error) => {
      void w.terminate();
      reject(err);
    };
    w.once('error', fail);
    w.once('exit', (code) => fail(new Error(`detector worker exited with ${code}`)));
    w.once('message', (m: { type: string; message?: string }) => {
      w.off('error', fail);
      w.removeAllListeners('exit');
      if (m.type === 'ready') resolve(w);
      else fail(new Error(m.message ?? 'detector worker failed'));
    });
    w.postMessage({ type: 'init', brands, opts });
  });
}
