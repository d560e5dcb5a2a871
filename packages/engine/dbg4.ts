import { readFile } from 'node:fs/promises';
import { buildBrandIndex } from './src/brand-index.ts';
import { DescriptorIndex } from './src/descriptor-index.ts';
import { computeOrb } from './src/features.ts';
import { getCv } from './src/opencv.ts';
import { streamFrames } from './src/video.ts';
import { applyH } from './src/geometry.ts';
const cv = await getCv();
const OUT = '/work/main/.bench-out/engine';
const clips = JSON.parse(await readFile(OUT + '/clips/truth.json', 'utf8'));
for (const ci of process.argv.slice(2).map(Number)) {
const clip = clips[ci];
const inst = clip.instances[0];
const b = await buildBrandIndex({ id: 1, name: 'x', examples: [{ id: 1, file: `${OUT}/logos/${inst.brand}.svg` }] }).catch(async () => buildBrandIndex({ id: 1, name: 'x', examples: [{ id: 1, file: (await import('node:fs')).readdirSync('/work/shared/data/logos/logohunter/test_brands').map(f => '/work/shared/data/logos/logohunter/test_brands/' + f).find(f => f.includes(inst.brand.replace('real-', '')))! }] }));
const idx = new DescriptorIndex([b]);
const W = b.examples[0].width, Hh = b.examples[0].height;
let good = 0, tot = 0;
for await (const f of streamFrames(clip.file, { sampleFps: 2, width: Number(process.env.FW ?? 1280), height: Number(process.env.FH ?? 720) })) {
  const fi = Math.round(f.timeMs * 12 / 1000);
  const q0 = inst.quads[fi]; if (!q0?.length) continue; const q = q0.map((v: number) => v * Number(process.env.FH ?? 720) / 720);
  const feats = computeOrb(cv, f, { maxFeatures: 3200, nLevels: 6, scaleFactor: 1.25, patchSize: 23 });
  const Hm = cv.getPerspectiveTransform(cv.matFromArray(4,1,cv.CV_32FC2,[0,0,W,0,W,Hh,0,Hh]), cv.matFromArray(4,1,cv.CV_32FC2,q));
  const h = Array.from(Hm.data64F as Float64Array);
  const m = idx.match(feats, 64, 0.8);
  good += m.filter((mm) => { const [px, py] = applyH(h, idx.xy[mm.t*2], idx.xy[mm.t*2+1]); return Math.hypot(px - feats.xy[mm.q*2], py - feats.xy[mm.q*2+1]) < 6; }).length; tot++;
}
console.log(ci, inst.brand, 'size', inst.size.toFixed(0), 'kps', b.count, 'good matches/frame', (good / tot).toFixed(1));
}
