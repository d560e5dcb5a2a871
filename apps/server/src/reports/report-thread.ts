/**
 * The report thread's side (a piscina task, loaded through report-thread.mjs): builds one report
 * with buildReport, reading its rows from the server's thread and sending the bytes back, both
 * over the task's MessagePort (report-protocol.ts).
 */
import { finished, Writable } from 'node:stream';
import { promisify } from 'node:util';
import { buildReport, type ReportSources } from './report-job.ts';
import { lowerThisThread } from '../ops/thread-priority.ts';
import { STREAM_BATCH, type ReportTask, type ToServer, type ToThread } from './report-protocol.ts';

// A report is background work next to the reviewers' calls (the thread is loaded once and reused).
lowerThisThread();

/** Bytes the thread may have written ahead of the server's acknowledgements. */
const OUTPUT_BUFFER = 1 << 20;

interface Waiting {
  resolve(value: unknown): void;
  reject(err: Error): void;
}

export default async function runReportTask({ job, port }: ReportTask): Promise<void> {
  const streams = new Map<number, Waiting>();
  const calls = new Map<number, Waiting>();
  let acked: (() => void) | null = null;
  let ids = 0;
  const post = (m: ToServer, transfer?: ArrayBuffer[]) => port.postMessage(m, transfer);

  port.on('message', (m: ToThread) => {
    if (m.t === 'ack') {
      const done = acked;
      acked = null;
      done?.();
      return;
    }
    const table = m.t === 'items' || (m.t === 'fail' && m.stream !== undefined) ? streams : calls;
    const id = m.t === 'items' ? m.stream : m.t === 'return' ? m.call : (m.stream ?? m.call!);
    const w = table.get(id);
    table.delete(id);
    if (!w) return;
    if (m.t === 'fail') w.reject(new Error(m.message));
    else w.resolve(m.t === 'items' ? m : m.value);
  });

  const request = <T>(table: Map<number, Waiting>, id: number, message: ToServer) =>
    new Promise<T>((resolve, reject) => {
      table.set(id, { resolve: resolve as (v: unknown) => void, reject });
      post(message);
    });

  const sources: ReportSources = {
    async *stream(name, arg) {
      const id = ++ids;
      type Batch = { items: unknown[]; done: boolean };
      const next = (open: boolean) => {
        const p = request<Batch>(streams, id, {
          t: 'next',
          stream: id,
          max: STREAM_BATCH,
          ...(open ? { name, arg } : {}),
        });
        p.catch(() => undefined); // awaited below; a failure surfaces there
        return p;
      };
      let ahead = next(true);
      let done = false;
      try {
        while (!done) {
          const batch = await ahead;
          done = batch.done;
          // The next batch is read while this one is written.
          if (!done) ahead = next(false);
          yield* batch.items;
        }
      } finally {
        if (!done) post({ t: 'close', stream: id });
      }
    },
    call(name, arg) {
      const id = ++ids;
      return request(calls, id, { t: 'call', call: id, name, arg });
    },
  };

  const out = new Writable({
    highWaterMark: OUTPUT_BUFFER,
    writev(chunks, callback) {
      // Copies: exceljs's chunks may be views of a shared pool buffer, which cannot be transferred.
      const data = chunks.map(({ chunk }) => new Uint8Array(chunk as Buffer));
      acked = () => callback();
      post(
        { t: 'data', chunks: data },
        data.map((d) => d.buffer as ArrayBuffer),
      );
    },
    final(callback) {
      post({ t: 'end' });
      callback();
    },
  });

  try {
    await buildReport(job, sources, out);
    await promisify(finished)(out);
  } finally {
    port.close();
  }
}
