import { writeFile } from 'node:fs/promises';
import type { ActivateBrandJob } from '@logo-review/contract';
import { INDEX_FORMAT } from '@logo-review/engine';
import type { AppContext } from '../context.ts';
import { brandsRepository as repo } from '../repositories/brands.repository.ts';
import { runEngineTask } from './engine-client.ts';
import { throttledProgress } from './progress.ts';

/**
 * Builds the brand's matching index from its example logos (on an engine thread) and stores it
 * under DATA_DIR; activation_progress follows the examples processed.
 */
export async function activateBrandJob(
  ctx: AppContext,
  job: ActivateBrandJob,
  signal?: AbortSignal,
): Promise<void> {
  const org = job.organizationId;
  const brand = await repo.get(ctx.db, org, job.brandId);
  if (!brand || brand.deactivated) return;
  const logos = await repo.logos(ctx.db, org, [brand.id]);
  if (logos.length === 0) {
    await repo.setStatus(ctx.db, org, brand.id, { status: 'NO LOGOS', activation_progress: 0 });
    return;
  }
  await repo.setStatus(ctx.db, org, brand.id, { status: 'ACTIVATING', activation_progress: 0 });
  const progress = throttledProgress((p) =>
    repo.setStatus(ctx.db, org, brand.id, { status: 'ACTIVATING', activation_progress: p }),
  );
  let index;
  try {
    index = await runEngineTask(
      {
        kind: 'index',
        brand: {
          id: brand.id,
          name: brand.name,
          examples: logos.map((l) => ({ id: l.id, file: ctx.storage.resolve(l.stored_path) })),
        },
      },
      progress,
      { signal },
    );
  } catch (err) {
    await progress.flush();
    // Stopped by a shutdown: the job runs again, so the brand stays ACTIVATING rather than ERROR.
    if (!signal?.aborted)
      await repo.setStatus(ctx.db, org, brand.id, { status: 'ERROR', status_reason: (err as Error).message });
    throw err;
  }
  await progress.flush();
  const rel = ctx.storage.newPath(org, 'indexes', '.idx');
  await writeFile(ctx.storage.resolve(rel), index.data);
  await repo.setIndex(ctx.db, org, brand.id, {
    path: rel,
    version: brand.index_version + 1,
    format: INDEX_FORMAT,
  });
  await ctx.storage.remove(brand.index_path);
}

/** After the last try (its process died each time): the brand shows ERROR with the reason. */
export async function activateBrandFailed(ctx: AppContext, job: ActivateBrandJob, err: Error): Promise<void> {
  await repo.setStatus(ctx.db, job.organizationId, job.brandId, {
    status: 'ERROR',
    status_reason: `Activation failed: ${err.message}`,
  });
}
