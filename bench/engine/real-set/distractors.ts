import { buildCatalog, type CatalogLogo } from '../catalog.ts';
import type { Truth } from './truth.ts';

/** A name lower-cased with everything but letters and digits left out. */
export const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * The generated catalogue's logos that may stand beside the real set's brands as distractors, in
 * the catalogue's order (written under `dir`). No distractor may be one of the set's own brands
 * under another name: the catalogue's logohunter templates are the examples of the logohunter
 * photos' brands (real-duff is Duff), and simple-icons holds some of them too (icon-underarmour,
 * icon-wellsfargo, icon-aldinord); `setFiles` are the files the set's brands use as examples.
 */
export async function distractorLogos(
  truth: Truth,
  setFiles: Set<string>,
  dir: string,
): Promise<CatalogLogo[]> {
  const catalog = await buildCatalog(dir, 1, { textured: 12, wordmarks: 10, icons: 180 });
  const setNames = truth.brands.map((b) => squash(b.name)).filter((n) => n.length >= 4);
  return catalog.filter(
    (l) =>
      !setFiles.has(l.file) &&
      !setNames.some((n) => squash(l.name.replace(/^(real|icon)-/, '')).startsWith(n)),
  );
}
