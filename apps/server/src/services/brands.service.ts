import path from 'node:path';
import { writeFile } from 'node:fs/promises';
import { JOBS, type Brand } from '@logo-review/contract';
import type { AppContext } from '../context.ts';
import { brandsRepository as repo, type BrandRow, type LogoRow } from '../repositories/brands.repository.ts';
import type { CheckedImage } from '../media/images.ts';

export interface UploadedLogo {
  fileName: string;
  buffer: Buffer;
  image: CheckedImage;
}

export function logoUrl(ctx: AppContext, logo: Pick<LogoRow, 'id' | 'stored_path'>): string {
  return ctx.signer.sign(`/media/logos/${logo.id}/logo${path.extname(logo.stored_path)}`);
}

export function toBrand(ctx: AppContext, b: BrandRow, logos: LogoRow[]): Brand {
  return {
    id: b.id,
    name: b.name,
    localized_name: b.localized_name,
    url: b.url,
    logograb_id: b.logograb_id,
    icon_url: logos.length > 0 ? logoUrl(ctx, logos[0]) : null,
    status: b.status,
    activation_progress: Math.round(b.activation_progress),
    logos: logos.map((l) => ({
      id: l.id,
      file_name: l.file_name,
      icon_url: logoUrl(ctx, l),
      precision: l.tp + l.fp > 0 ? l.tp / (l.tp + l.fp) : null,
    })),
  };
}

export async function listBrands(ctx: AppContext, org: number): Promise<Brand[]> {
  const brands = await repo.list(ctx.db, org);
  const logos = await repo.logos(
    ctx.db,
    org,
    brands.map((b) => b.id),
  );
  const byBrand = new Map<number, LogoRow[]>();
  for (const l of logos) byBrand.set(l.brand_id, [...(byBrand.get(l.brand_id) ?? []), l]);
  return brands.map((b) => toBrand(ctx, b, byBrand.get(b.id) ?? []));
}

export async function getBrand(ctx: AppContext, org: number, id: number): Promise<Brand | undefined> {
  const b = await repo.get(ctx.db, org, id);
  if (!b) return undefined;
  return toBrand(ctx, b, await repo.logos(ctx.db, org, [id]));
}

/** Stores the logo files, then the rows; a failed insert removes the files again. */
export async function addLogos(
  ctx: AppContext,
  org: number,
  brandId: number,
  logos: UploadedLogo[],
): Promise<void> {
  const written: string[] = [];
  try {
    for (const l of logos) {
      const rel = ctx.storage.newPath(org, 'logos', l.image.ext);
      await writeFile(ctx.storage.resolve(rel), l.buffer);
      written.push(rel);
    }
    await ctx.db.transaction(async (tx) => {
      for (const [i, l] of logos.entries()) {
        await repo.insertLogo(tx, org, brandId, {
          file_name: l.fileName,
          stored_path: written[i],
          mime: l.image.mime,
          sha256: l.image.sha256,
          width: l.image.width,
          height: l.image.height,
        });
      }
    });
  } catch (err) {
    await Promise.all(written.map((rel) => ctx.storage.remove(rel)));
    throw err;
  }
}

/** Queues the building of the brand's matching index (status QUEUED, progress 0). */
export async function requestActivation(ctx: AppContext, org: number, brandId: number): Promise<void> {
  await repo.setStatus(ctx.db, org, brandId, { status: 'QUEUED', activation_progress: 0, status_reason: '' });
  await ctx.jobs.send(JOBS.activateBrand, { organizationId: org, brandId });
}

export async function deleteBrand(ctx: AppContext, org: number, b: BrandRow): Promise<void> {
  const logos = await repo.logos(ctx.db, org, [b.id]);
  await repo.delete(ctx.db, org, b.id); // detections, logos and tags go with it (ON DELETE CASCADE)
  await Promise.all([
    ...logos.map((l) => ctx.storage.remove(l.stored_path)),
    ctx.storage.remove(b.index_path),
  ]);
}
