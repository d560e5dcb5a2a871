import { readFile } from 'node:fs/promises';
import { deserializeBrandIndex } from './src/brand-index.ts';
import { DescriptorIndex } from './src/descriptor-index.ts';
import { computeOrb, PATCH_SIZE } from './src/features.ts';
import { getCv } from './src/opencv.ts';
import { streamFrames } from './src/video.ts';
const cv = await getCv();
const n = Number(process.argv[2] ?? 50);
const files = JSON.parse(await readFile('/work/main/.bench-out/engine/brands-50.json','utf8')).slice(0, n);
const brands = await Promise.all(files.map(async (f: string) => deserializeBrandIndex(await readFile(f))));
const idx = new DescriptorIndex(brands);
const feats = [];
for await (const f of streamFrames('/work/main/.bench-out/engine/throughput-720p.mp4', { sampleFps: 4, width: 1280, height: 720 })) feats.push(computeOrb(cv, f, { maxFeatures: 3200, nLevels: 6, scaleFactor: 1.25, patchSize: PATCH_SIZE }));
let c0 = process.cpuUsage();
let nm = 0; const groups: number[] = [];
for (const f of feats) { const m = idx.match(f); nm += m.length; const by = new Map(); for (const x of m) by.set(idx.exampleOf[x.t], (by.get(idx.exampleOf[x.t]) ?? 0) + 1); groups.push([...by.values()].filter(v => v >= 8).length); }
const c = process.cpuUsage(c0);
console.log('brands', n, 'match cpu ms/frame', ((c.user + c.system) / 1000 / feats.length).toFixed(0), 'matches/frame', (nm / feats.length).toFixed(0), 'examples with >=8 matches per frame', (groups.reduce((a, b) => a + b, 0) / groups.length).toFixed(1), 'kps', idx.count);
