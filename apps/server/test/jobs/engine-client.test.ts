import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildBrandIndex, serializeBrandIndex } from '@logo-review/engine';
import { engineThreadCounts, engineThreadsEnded, runEngineTask } from '../../src/jobs/engine-client.ts';
import { exists, SERIEA_CLIP, tempDir, wordmarkSvg } from '../../../../packages/engine/test/fixtures.ts';

const have = await exists(SERIEA_CLIP);

/** An index file of an IM INTER CLUB wordmark brand (boards of the Serie A clip). */
async function clubIndex(): Promise<string> {
  const svg = await wordmarkSvg('INTER CLUB');
  const index = await buildBrandIndex({ id: 1, name: 'Inter Club', examples: [{ id: 1, file: svg }] });
  const file = path.join(await tempDir(), 'club.idx');
  await writeFile(file, serializeBrandIndex(index));
  return file;
}

describe('engine thread', () => {
  // Terminating a thread from outside while onnxruntime-node runs a model in it (the text route's
  // reading in the detector threads, the words check in the engine thread) aborts the whole
  // process with "terminate called after throwing an instance of 'Napi::Error'". An aborted task
  // now asks its thread to stop, and the thread ends itself at the task's next step.
  it.skipIf(!have)(
    'an analysis aborted while it reads boards rejects with the reason, and the process lives on',
    async () => {
      const indexFile = await clubIndex();
      for (const at of [0.05, 0.2, 0.35, 0.5]) {
        const ctl = new AbortController();
        const run = runEngineTask(
          { kind: 'analyze', file: SERIEA_CLIP, indexFiles: [indexFile], workers: 2 },
          (fraction) => {
            if (fraction >= at) ctl.abort(new Error(`stopped at ${at}`));
          },
          { signal: ctl.signal },
        );
        await expect(run).rejects.toThrow(`stopped at ${at}`);
      }
      // the threads ended themselves (or would have taken the process with them): one more runs
      const done = await runEngineTask(
        { kind: 'analyze', file: SERIEA_CLIP, indexFiles: [indexFile], workers: 2, endMs: 1000 },
        () => undefined,
      );
      expect(done.width).toBe(848);
    },
    300_000,
  );

  it.skipIf(!have)(
    'analyses kept warm run one after another on one thread, as they would on threads of their own, until it is ended',
    async () => {
      const indexFile = await clubIndex();
      const chunk = (startMs: number, keepWarmMs?: number, signal?: AbortSignal) =>
        runEngineTask(
          {
            kind: 'analyze',
            file: SERIEA_CLIP,
            indexFiles: [indexFile],
            workers: 1,
            startMs,
            endMs: startMs + 1500,
          },
          () => undefined,
          { keepWarmMs, signal },
        );
      const alone = [await chunk(6000), await chunk(7500)];
      const before = engineThreadCounts();
      expect(before.kept).toBe(0);
      const warm = [await chunk(6000, 60_000), await chunk(7500, 60_000)];
      // one thread started, kept after each, and taken again by the second
      expect(engineThreadCounts()).toEqual({ started: before.started + 1, kept: 1 });
      expect(warm.map((a) => a.detections)).toEqual(alone.map((a) => a.detections));
      expect(warm[0].detections.length).toBeGreaterThan(0);
      // stopped while it runs, the kept thread ends (it is not kept again)
      const ctl = new AbortController();
      const stopped = chunk(6000, 60_000, ctl.signal);
      setTimeout(() => ctl.abort(new Error('stopped')), 300);
      await expect(stopped).rejects.toThrow('stopped');
      expect(engineThreadCounts().kept).toBe(0);
      await chunk(7500, 60_000);
      expect(engineThreadCounts()).toEqual({ started: before.started + 2, kept: 1 });
      // shutting down ends the kept thread and its detector threads
      await engineThreadsEnded();
      expect(engineThreadCounts().kept).toBe(0);
    },
    300_000,
  );
});
