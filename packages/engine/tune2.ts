import { readFile } from 'node:fs/promises';
import { deserializeBrandIndex } from './src/brand-index.ts';
import { DescriptorIndex } from './src/descriptor-index.ts';
import { detectInFrame, DEFAULT_DETECTOR } from './src/frame-detector.ts';
import { quadIoU } from './src/geometry.ts';
import { getCv } from './src/opencv.ts';
import { streamFrames } from './src/video.ts';
const cv = await getCv();
const OUT = '/work/main/.bench-out/engine';
const clips = JSON.parse(await readFile(OUT + '/clips/truth.json', 'utf8')).filter((_: unknown, i: number) => i % Number(process.env.EVERY ?? 1) === 0);
import { buildBrandIndex } from './src/brand-index.ts';
import { buildCatalog } from '../../bench/engine/catalog.ts';
const cat = (await buildCatalog('/tmp/eng/cat-full', 1, { textured: 12, wordmarks: 10, icons: 30 })).slice(0, 50);
const brands = [];
for (const l of cat) brands.push(await buildBrandIndex({ id: l.name, name: l.name, examples: [{ id: l.name, file: l.file }] }));
const idx = new DescriptorIndex(brands);
const variants = JSON.parse(process.argv[2]);
const frames: any[] = [];
for (const clip of clips) for await (const f of streamFrames(clip.file, { sampleFps: 2, width: 1280, height: 720 })) frames.push({ clip, f });
for (const v of variants) {
  const opts = { ...DEFAULT_DETECTOR, ...v };
  const B = (s: number) => s < 48 ? 'S' : s < 200 ? 'M' : 'L';
  const T: Record<string, [number, number]> = {}; let fp = 0;
  const c0 = process.cpuUsage();
  for (const { clip, f } of frames) {
    const fi = Math.round(f.timeMs * 12 / 1000);
    const truths = clip.instances.filter((i: any) => fi >= i.from && fi < i.to);
    const hits = detectInFrame(cv, f, idx, opts);
    const used = new Set();
    for (const h of hits) {
      const name = String(brands[h.brand].brandId);
      const g = truths.find((t: any) => !used.has(t) && t.brand === name && quadIoU(t.quads[fi], h.quad) >= 0.5);
      if (g) used.add(g); else fp++;
    }
    for (const t of truths) { for (const k of [B(t.size), t.kind]) { T[k] ??= [0, 0]; T[k][1]++; if (used.has(t)) T[k][0]++; } }
  }
  const c = process.cpuUsage(c0);
  console.log(JSON.stringify(v), 'fp', fp, Object.entries(T).map(([k, [a, b]]) => `${k} ${(a / b).toFixed(2)} (${b})`).join(' | '), 'cpu ms/frame', ((c.user + c.system) / 1000 / frames.length).toFixed(0));
}
