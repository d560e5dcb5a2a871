import { readFile } from 'node:fs/promises';
import { buildBrandIndex } from './src/brand-index.ts';
import { DescriptorIndex } from './src/descriptor-index.ts';
import { detectInFrame, DEFAULT_DETECTOR } from './src/frame-detector.ts';
import { getCv } from './src/opencv.ts';
import { streamFrames } from './src/video.ts';
const cv = await getCv();
const OUT = '/work/main/.bench-out/engine';
const clips = JSON.parse(await readFile(OUT + '/clips/truth.json', 'utf8'));
const clip = clips[Number(process.argv[2])];
const inst = clip.instances[Number(process.argv[3] ?? 0)];
const file = inst.brand.startsWith('real-') ? (await import('node:fs')).readdirSync('/work/shared/data/logos/logohunter/test_brands').map((f: string) => '/work/shared/data/logos/logohunter/test_brands/' + f).find((f: string) => f.includes(inst.brand.replace('real-', '')))! : `${OUT}/logos/${inst.brand}.svg`;
const b = await buildBrandIndex({ id: 1, name: 'x', examples: [{ id: 1, file }] });
const idx = new DescriptorIndex([b]);
for await (const f of streamFrames(clip.file, { sampleFps: 1, width: 1280, height: 720 })) {
  const fi = Math.round(f.timeMs * 12 / 1000);
  console.log('t', f.timeMs, 'truth', inst.quads[fi]?.map(Math.round).join(','));
  const hits = detectInFrame(cv, f, idx, DEFAULT_DETECTOR);
  console.log(' hits', hits.map(h => h.quad.map(Math.round).join(',')));
}
