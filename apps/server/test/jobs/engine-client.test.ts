import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildBrandIndex, serializeBrandIndex } from '@logo-review/engine';
import { runEngineTask } from '../../src/jobs/engine-client.ts';
import { exists, SERIEA_CLIP, tempDir, wordmarkSvg } from '../../../../packages/engine/test/fixtures.ts';

const have = await exists(SERIEA_CLIP);

describe('engine thread', () => {
  // Terminating a thread from outside while onnxruntime-node runs a model in it (the text route's
  // reading in the detector threads, the words check in the engine thread) aborts the whole
  // process with "terminate called after throwing an instance of 'Napi::Error'". An aborted task
  // now asks its thread to stop, and the thread ends itself at the task's next step.
  it.skipIf(!have)(
    'an analysis aborted while it reads boards rejects with the reason, and the process lives on',
    async () => {
      const dir = await tempDir();
      const svg = await wordmarkSvg('INTER CLUB');
      const index = await buildBrandIndex({ id: 1, name: 'Inter Club', examples: [{ id: 1, file: svg }] });
      const indexFile = path.join(dir, 'club.idx');
      await writeFile(indexFile, serializeBrandIndex(index));
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
});
