/**
 * The benchmark's logo catalogue: real logos (logohunter templates), generated textured logos and
 * simple-icons brand icons rendered in their brand colour. Each logo becomes one brand with one
 * example file; its kind is textured, flat icon or wordmark.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { loadLogo } from '../../packages/engine/src/image-io.ts';
import { rng, shuffle } from './random.ts';

export type LogoKind = 'textured' | 'flat icon' | 'wordmark';

export interface CatalogLogo {
  name: string;
  kind: LogoKind;
  file: string;
}

export const SHARED = join(import.meta.dirname, '../../../shared/data');

/** Footage may show these for real; keep them out so a real sighting is not counted as false. */
const EXCLUDE = /unicef|seriea|laliga|inter|blender|nike|adidas|puma|opencv|dazn|sky/i;

/** An asymmetric textured logo as SVG (seeded shapes), like the tests' fixture. */
function texturedSvg(seed: number, w: number, h: number): string {
  const r = rng(seed);
  const c = () => `hsl(${Math.floor(r() * 360)},${60 + Math.floor(r() * 40)}%,${25 + Math.floor(r() * 50)}%)`;
  let body = `<rect width="${w}" height="${h}" rx="${r() * 20}" fill="${c()}"/>`;
  for (let i = 0; i < 24; i++) {
    const x = r() * w;
    const y = r() * h;
    const s = 10 + r() * 50;
    if (r() < 0.4)
      body += `<rect x="${x}" y="${y}" width="${s}" height="${s * (0.3 + r())}" fill="${c()}" transform="rotate(${r() * 90} ${x} ${y})"/>`;
    else if (r() < 0.7)
      body += `<polygon points="${x},${y} ${x + s},${y + s * 0.2} ${x + s * 0.4},${y + s}" fill="${c()}"/>`;
    else body += `<circle cx="${x}" cy="${y}" r="${s / 3}" fill="${c()}"/>`;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${body}</svg>`;
}

interface SimpleIcon {
  slug: string;
  hex: string;
  svg: string;
}

/** Builds the catalogue under `dir`: `textured` generated + logohunter + `icons` simple-icons. */
export async function buildCatalog(
  dir: string,
  seed: number,
  counts: { textured: number; icons: number },
): Promise<CatalogLogo[]> {
  await mkdir(dir, { recursive: true });
  const out: CatalogLogo[] = [];
  const r = rng(seed);
  for (let i = 0; i < counts.textured; i++) {
    const w = 300 + Math.floor(r() * 200);
    const h = Math.floor(w * (0.35 + r() * 0.5));
    const file = join(dir, `textured-${i}.svg`);
    await writeFile(file, texturedSvg(seed * 1000 + i, w, h));
    out.push({ name: `textured-${i}`, kind: 'textured', file });
  }
  const hunter = join(SHARED, 'logos/logohunter/test_brands');
  for (const f of (await readdir(hunter)).sort()) {
    const name = f.replace(/^test_/, '').replace(/\.\w+$/, '');
    if (EXCLUDE.test(name)) continue;
    out.push({ name: `real-${name}`, kind: 'textured', file: join(hunter, f) });
  }
  const require = createRequire(import.meta.url);
  const icons = Object.values(require('simple-icons') as Record<string, SimpleIcon>).filter(
    (i) => i && typeof i.svg === 'string' && !EXCLUDE.test(i.slug),
  );
  shuffle(icons, r);
  for (const icon of icons) {
    if (out.filter((l) => l.kind !== 'textured').length >= counts.icons) break;
    const file = join(dir, `icon-${icon.slug}.svg`);
    const svg = icon.svg.replace('<svg ', `<svg fill="#${icon.hex}" `);
    await writeFile(file, svg);
    const logo = await loadLogo(file, 200);
    const aspect = logo.width / logo.height;
    // Very thin or near-white icons are invisible on many scenes and say nothing about matching.
    if (aspect > 8 || aspect < 0.2 || isPale(icon.hex)) continue;
    out.push({ name: `icon-${icon.slug}`, kind: aspect >= 2.2 ? 'wordmark' : 'flat icon', file });
  }
  return out;
}

function isPale(hex: string): boolean {
  const v = parseInt(hex, 16);
  const l = 0.299 * ((v >> 16) & 255) + 0.587 * ((v >> 8) & 255) + 0.114 * (v & 255);
  return l > 225;
}
