/**
 * Excel reports are built off the server's event loop: on a small pool of worker threads
 * (piscina), so that a report of a long video or a whole campaign (seconds to a minute of exceljs
 * and zip work) does not hold up every other call of the API process.
 *
 * The server's thread still reads the database (the embedded PGlite database lives in it) and
 * runs ffmpeg for the best frames: it answers the thread's `next` and `call` messages
 * (report-protocol.ts), a batch of rows at a time, and writes the bytes the thread sends into the
 * HTTP response, acknowledging each message once the response has taken it (or drained), so memory
 * stays bounded at both ends. REPORT_THREADS=0 builds reports in the server's thread, as before.
 *
 * A client that goes away ends its report: the thread's task is aborted (piscina ends that
 * thread; the pool starts another when needed).
 */
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { buildReport, type ReportJob, type ReportSources } from './report-job.ts';
import type { ReportTask, ToServer, ToThread } from './report-protocol.ts';

/** What the caller serves to a report (see ReportSources in report-job.ts). */
export interface SourceHandlers {
  streams: Record<string, (arg: never) => AsyncIterable<unknown> | Iterable<unknown>>;
  calls?: Record<string, (arg: never) => Promise<unknown>>;
}

export interface ReportThreadsOptions {
  /** Threads at most (reports beyond wait their turn); 0: build reports in the calling thread. */
  threads: number;
  /** The thread's entry (tests give their own); default report-thread.mjs. */
  filename?: URL;
  workerData?: unknown;
}

/** How long an idle report thread is kept for the next report (ms). */
const IDLE_MS = 60_000;
/** A report thread's old-generation heap limit. */
const REPORT_HEAP_MIB = 512;

export class ReportThreads {
  private readonly pool: Piscina<ReportTask, void> | null;

  constructor(options: ReportThreadsOptions) {
    this.pool =
      options.threads > 0
        ? new Piscina<ReportTask, void>({
            filename: (options.filename ?? new URL('./report-thread.mjs', import.meta.url)).href,
            minThreads: 0,
            maxThreads: options.threads,
            idleTimeout: IDLE_MS,
            // A thread waits for its next task on its event loop, not blocked in Atomics.wait.
            atomics: 'disabled',
            workerData: options.workerData,
            // A guard far above what a streamed report holds: a runaway report fails on its own
            // thread instead of growing the API process without bound.
            resourceLimits: { maxOldGenerationSizeMb: REPORT_HEAP_MIB },
          })
        : null;
  }

  /**
   * Builds the report into `out` and ends it; rejects (leaving `out` to the caller to destroy)
   * when the report cannot be completed. Destroying `out` early aborts the report.
   */
  async build(job: ReportJob, handlers: SourceHandlers, out: NodeJS.WritableStream): Promise<void> {
    if (!this.pool) return buildReport(job, localSources(handlers), out);
    const { port1, port2 } = new MessageChannel();
    const abort = new AbortController();
    const iterators = new Map<number, AsyncIterator<unknown> | Iterator<unknown>>();
    const writable = out as NodeJS.WritableStream & {
      destroyed?: boolean;
      writableEnded?: boolean;
      once(event: string, fn: () => void): unknown;
    };
    let ended = false;
    let endSeen: () => void = () => undefined;
    const endMessage = new Promise<void>((resolve) => (endSeen = resolve));
    const send = (m: ToThread, transfer: ArrayBuffer[] = []) => {
      if (!abort.signal.aborted) port1.postMessage(m, transfer);
    };
    const onClose = () => {
      if (!ended) abort.abort(new Error('The report output was closed before the report was complete'));
    };
    writable.once('close', onClose);
    // The thread closes its port when its task ends; messages it posted before arrive first.
    port1.once('close', () => endSeen());

    port1.on('message', (m: ToServer) => {
      switch (m.t) {
        case 'next':
          void nextBatch(m);
          break;
        case 'close':
          void closeStream(m.stream);
          break;
        case 'call':
          void call(m);
          break;
        case 'data': {
          if (writable.destroyed) break; // the client went away: the abort is on its way
          let ok = true;
          for (const chunk of m.chunks) {
            ok = out.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          }
          if (ok) send({ t: 'ack' });
          else writable.once('drain', () => send({ t: 'ack' }));
          break;
        }
        case 'end':
          ended = true;
          endSeen();
          break;
      }
    });

    const nextBatch = async (m: Extract<ToServer, { t: 'next' }>) => {
      try {
        let it = iterators.get(m.stream);
        if (!it) {
          const make = m.name === undefined ? undefined : handlers.streams[m.name];
          if (!make) throw new Error(`no report stream '${m.name}'`);
          const source = make(m.arg as never);
          it =
            Symbol.asyncIterator in source
              ? (source as AsyncIterable<unknown>)[Symbol.asyncIterator]()
              : (source as Iterable<unknown>)[Symbol.iterator]();
          iterators.set(m.stream, it);
        }
        const items: unknown[] = [];
        let done = false;
        while (items.length < m.max) {
          const r = await it.next();
          if (r.done) {
            done = true;
            break;
          }
          items.push(r.value);
          // A page of rows as JSON text (streamDetectionPages) is a batch by itself.
          if (typeof r.value === 'string') break;
        }
        if (done) iterators.delete(m.stream);
        send({ t: 'items', stream: m.stream, items, done });
      } catch (err) {
        iterators.delete(m.stream);
        send({ t: 'fail', stream: m.stream, message: (err as Error).message });
      }
    };
    const closeStream = async (id: number) => {
      const it = iterators.get(id);
      iterators.delete(id);
      try {
        await it?.return?.();
      } catch {
        // a stream that fails as it closes has nothing more to give
      }
    };
    const call = async (m: Extract<ToServer, { t: 'call' }>) => {
      try {
        const fn = handlers.calls?.[m.name];
        if (!fn) throw new Error(`no report call '${m.name}'`);
        const value = await fn(m.arg as never);
        // Packed spans (report-job.ts) are handed over rather than copied.
        send({ t: 'return', call: m.call, value }, value instanceof Float64Array ? transferable(value) : []);
      } catch (err) {
        send({ t: 'fail', call: m.call, message: (err as Error).message });
      }
    };

    try {
      const transferList = [port2, ...(job.kind === 'excel' ? transferable(job.clutterSpans) : [])];
      await this.pool.run({ job, port: port2 }, { transferList, signal: abort.signal });
      // The thread posted 'end' before its task returned; the port may deliver it a little later.
      await endMessage;
      if (!ended) throw new Error('The report thread stopped before the report was complete');
      out.end();
    } catch (err) {
      throw abort.signal.aborted ? (abort.signal.reason as Error) : err;
    } finally {
      writable.removeListener?.('close', onClose);
      port1.close();
      for (const id of [...iterators.keys()]) await closeStream(id);
    }
  }

  /** Ends the threads (running reports fail). */
  async close(): Promise<void> {
    await this.pool?.destroy();
  }
}

/**
 * The buffer of packed spans to hand over, or none: an empty one is not worth it, and one already
 * handed over (detached) cannot be (Node 24 throws DataCloneError).
 */
function transferable(a: Float64Array): ArrayBuffer[] {
  return a.byteLength > 0 ? [a.buffer as ArrayBuffer] : [];
}

/** The handlers as ReportSources, for a report built in this thread. */
function localSources(handlers: SourceHandlers): ReportSources {
  return {
    stream(name, arg) {
      const make = handlers.streams[name];
      if (!make) throw new Error(`no report stream '${name}'`);
      const source = make(arg as never);
      return (async function* () {
        yield* source;
      })();
    },
    async call(name, arg) {
      const fn = handlers.calls?.[name];
      if (!fn) throw new Error(`no report call '${name}'`);
      return fn(arg as never);
    },
  };
}
