import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';

/** The calling thread's id and nice value, as the kernel has them (/proc/thread-self/stat). */
const self = () => {
  const stat = readFileSync('/proc/thread-self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { tid: Number(stat.split(' ')[0]), nice: Number(fields[16]) };
};

/** Runs lowerThisThread on a worker thread with `env`; its thread's id and nice value after. */
function inThread(env: NodeJS.ProcessEnv): Promise<{ tid: number; nice: number }> {
  const helper = new URL('../src/ops/thread-priority.ts', import.meta.url).href;
  const code = `
    const { parentPort } = require('node:worker_threads');
    const { readFileSync } = require('node:fs');
    import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(helper)}); })
      .then((m) => {
        m.lowerThisThread();
        const stat = readFileSync('/proc/thread-self/stat', 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        parentPort.postMessage({ tid: Number(stat.split(' ')[0]), nice: Number(fields[16]) });
      });`;
  const w = new Worker(code, { eval: true, env });
  return new Promise((resolve, reject) => {
    w.once('message', (m: { tid: number; nice: number }) => {
      void w.terminate();
      resolve(m);
    });
    w.once('error', reject);
  });
}

// Linux only: elsewhere a nice value is the whole process's, and lowerThisThread leaves it alone.
describe.skipIf(process.platform !== 'linux')('background threads (BACKGROUND_NICE)', () => {
  it('lowers the calling thread alone, by 10 unless told otherwise', async () => {
    const main = self();
    const lowered = await inThread({ ...process.env, BACKGROUND_NICE: '' });
    expect(lowered.tid).not.toBe(main.tid);
    expect(lowered.nice).toBe(Math.min(19, main.nice + 10));
    // the process's own thread (the API's event loop) keeps its priority
    expect(self().nice).toBe(main.nice);
    expect((await inThread({ ...process.env, BACKGROUND_NICE: '3' })).nice).toBe(Math.min(19, main.nice + 3));
    expect((await inThread({ ...process.env, BACKGROUND_NICE: '0' })).nice).toBe(main.nice);
  });

  it('refuses a value that is not 0 to 19 at start', () => {
    expect(loadConfig({ BACKGROUND_NICE: '7' }).backgroundNice).toBe(7);
    expect(loadConfig({}).backgroundNice).toBe(10);
    for (const bad of ['20', '-1', 'low', '2.5'])
      expect(() => loadConfig({ BACKGROUND_NICE: bad })).toThrow(
        `BACKGROUND_NICE must be a whole number from 0 to 19 (got '${bad}')`,
      );
  });
});
