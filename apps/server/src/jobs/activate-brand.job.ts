import type { ActivateBrandJob } from '@logo-review/contract';
import type { AppContext } from '../context.ts';
import { brandsRepository as repo } from '../repositories/brands.repository.ts';

/**
 * STAND-IN until the detection engine builds real matching indexes: marks the brand ACTIVE.
 */
export async function activateBrandJob(ctx: AppContext, job: ActivateBrandJob): Promise<void> {
  const brand = await repo.get(ctx.db, job.organizationId, job.brandId);
  if (!brand || brand.deactivated) return;
  await repo.setStatus(ctx.db, job.organizationId, brand.id, { status: 'ACTIVATING', activation_progress: 0 });
  await repo.setIndex(ctx.db, job.organizationId, brand.id, null, brand.index_version + 1);
}
