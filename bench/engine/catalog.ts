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

const SYLLABLES = [
  'ka',
  'ro',
  'vin',
  'tel',
  'mar',
  'zo',
  'lux',
  'pre',
  'sta',
  'nor',
  'gi',
  'fex',
  'qua',
  'bel',
  'tri',
  'on',
  'dax',
  'ul',
];
const FONTS = ['DejaVu Sans', 'Liberation Sans', 'DejaVu Serif', 'Liberation Serif'];

/**
 * A sponsor-board style wordmark: a made-up brand word in bold capitals, either on its own board
 * colour (opaque) or as cut-out letters.
 */
function wordmarkSvg(seed: number): string {
  const r = rng(seed);
  let word = '';
  while (word.length < 6) word += SYLLABLES[Math.floor(r() * SYLLABLES.length)];
  word = word.toUpperCase().slice(0, 5 + Math.floor(r() * 5));
  const font = FONTS[Math.floor(r() * FONTS.length)];
  const h = 100;
  const w = Math.round(word.length * 62 + 40);
  const hue = Math.floor(r() * 360);
  const board = r() < 0.6;
  const fg = board ? (r() < 0.5 ? '#ffffff' : `hsl(${(hue + 180) % 360},90%,60%)`) : `hsl(${hue},85%,40%)`;
  const bg = board
    ? `<rect width="${w}" height="${h}" fill="hsl(${hue},70%,${20 + Math.floor(r() * 25)}%)"/>`
    : '';
  const italic = r() < 0.3 ? ' font-style="italic"' : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${bg}<text x="${w / 2}" y="${h * 0.72}" text-anchor="middle" font-family="${font}" font-weight="bold"${italic} font-size="${h * 0.7}" fill="${fg}">${word}</text></svg>`;
}

interface SimpleIcon {
  slug: string;
  hex: string;
  svg: string;
}

/**
 * Builds the catalogue under `dir`: generated textured logos, generated wordmarks, the logohunter
 * templates, then simple-icons (wide ones count as wordmarks), in that order.
 */
export async function buildCatalog(
  dir: string,
  seed: number,
  counts: { textured: number; wordmarks: number; icons: number },
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
  for (let i = 0; i < counts.wordmarks; i++) {
    const file = join(dir, `wordmark-${i}.svg`);
    await writeFile(file, wordmarkSvg(seed * 2000 + i));
    out.push({ name: `wordmark-${i}`, kind: 'wordmark', file });
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
    if (out.filter((l) => l.name.startsWith('icon-')).length >= counts.icons) break;
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
