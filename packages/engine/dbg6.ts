import { readFile } from 'node:fs/promises';
import { buildBrandIndex } from './src/brand-index.ts';
import { DescriptorIndex } from './src/descriptor-index.ts';
import { computeOrb, halve, mergeFeatures, PATCH_SIZE } from './src/features.ts';
import { getCv } from './src/opencv.ts';
import { streamFrames } from './src/video.ts';
import { applyH } from './src/geometry.ts';
const cv = await getCv();
const OUT = '/work/main/.bench-out/engine';
const clips = JSON.parse(await readFile(OUT + '/clips/truth.json', 'utf8'));
const clip = clips[Number(process.argv[2])];
const inst = clip.instances[0];
const b = await buildBrandIndex({ id: 1, name: 'x', examples: [{ id: 1, file: `${OUT}/logos/${inst.brand}.svg` }] });
const idx = new DescriptorIndex([b]);
const W = b.examples[0].width, Hh = b.examples[0].height;
for await (const f of streamFrames(clip.file, { sampleFps: 1, width: 1280, height: 720 })) {
  const fi = Math.round(f.timeMs * 12 / 1000);
  const q = inst.quads[fi]; if (!q?.length) continue;
  const orb = { nLevels: 6, scaleFactor: 1.25, patchSize: PATCH_SIZE };
  const feats = mergeFeatures([{ f: computeOrb(cv, f, { ...orb, maxFeatures: 3200 }), scale: 1 }, { f: computeOrb(cv, halve(f), { ...orb, nLevels: 4, maxFeatures: 960 }), scale: 2 }]);
  const Hm = cv.getPerspectiveTransform(cv.matFromArray(4,1,cv.CV_32FC2,[0,0,W,0,W,Hh,0,Hh]), cv.matFromArray(4,1,cv.CV_32FC2,q));
  const h = Array.from(Hm.data64F as Float64Array);
  const m = idx.match(feats, 64, 0.8);
  for (const mm of m) {
    const [px, py] = applyH(h, idx.xy[mm.t*2], idx.xy[mm.t*2+1]);
    if (Math.hypot(px - feats.xy[mm.q*2], py - feats.xy[mm.q*2+1]) >= 6) continue;
    const [px2, py2] = applyH(h, idx.xy[mm.t*2] + 10, idx.xy[mm.t*2+1]);
    const localScale = Math.hypot(px2 - px, py2 - py) / 10; const localRot = Math.atan2(py2 - py, px2 - px) * 180 / Math.PI;
    console.log('fsize', feats.size[mm.q].toFixed(1), 'isize', idx.sa[mm.t*2].toFixed(1), 'ratio', (feats.size[mm.q]/idx.sa[mm.t*2]).toFixed(2), 'local scale', localScale.toFixed(2), '| fang', feats.angle[mm.q].toFixed(0), 'iang', idx.sa[mm.t*2+1].toFixed(0), 'diff', (feats.angle[mm.q]-idx.sa[mm.t*2+1]).toFixed(0), 'local rot', localRot.toFixed(0));
  }
}
