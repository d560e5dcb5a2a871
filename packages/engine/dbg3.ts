import { readFile } from 'node:fs/promises';
import { deserializeBrandIndex } from './src/brand-index.ts';
import { computeOrb } from './src/features.ts';
import { getCv } from './src/opencv.ts';
import { streamFrames } from './src/video.ts';
import { applyH } from './src/geometry.ts';
const cv = await getCv();
const OUT = '/work/main/.bench-out/engine';
const clips = JSON.parse(await readFile(OUT + '/clips/truth.json', 'utf8'));
const clip = clips[Number(process.argv[2])];
const inst = clip.instances[0];
const b = deserializeBrandIndex(await readFile(`${OUT}/indexes/${inst.brand}.bin`));
const W = b.examples[0].width, Hh = b.examples[0].height;
function ham(a: Uint8Array, ai: number, c: Uint8Array, ci: number) { let d = 0; for (let k = 0; k < 32; k++) { let x = a[ai + k] ^ c[ci + k]; while (x) { d += x & 1; x >>= 1; } } return d; }
for await (const f of streamFrames(clip.file, { sampleFps: 1, width: 1280, height: 720 })) {
  const fi = Math.round(f.timeMs * 12 / 1000);
  const q = inst.quads[fi]; if (!q?.length) continue;
  const feats = computeOrb(cv, f, { maxFeatures: 3200, nLevels: 6, scaleFactor: 1.25, patchSize: 23 });
  // inverse homography: frame -> example
  const Hm = cv.getPerspectiveTransform(cv.matFromArray(4,1,cv.CV_32FC2,q), cv.matFromArray(4,1,cv.CV_32FC2,[0,0,W,0,W,Hh,0,Hh]));
  const h = Array.from(Hm.data64F as Float64Array);
  const hist: Record<string, number> = {}; let n = 0;
  const byLevel: Record<number, number[]> = {};
  for (let i = 0; i < feats.count; i++) {
    const [ex, ey] = applyH(h, feats.xy[i*2], feats.xy[i*2+1]);
    if (ex < 0 || ey < 0 || ex > W || ey > Hh) continue;
    // nearest index kp within 8 px (example coords) with best descriptor
    let best = 999;
    for (let t = 0; t < b.count; t++) { if (Math.hypot(b.xy[t*2]-ex, b.xy[t*2+1]-ey) > 8) continue; best = Math.min(best, ham(feats.desc, i*32, b.desc, t*32)); }
    if (best === 999) continue;
    n++; const bin = best < 40 ? '<40' : best < 64 ? '40-64' : best < 90 ? '64-90' : '90+'; hist[bin] = (hist[bin] ?? 0) + 1;
    const lvl = Math.round(Math.log(feats.size[i] / 23) / Math.log(1.25)); (byLevel[lvl] ??= []).push(best);
  }
  console.log('t', f.timeMs, 'kps in logo w/ index neighbour', n, JSON.stringify(hist), Object.entries(byLevel).map(([l, v]) => `L${l}:${v.length} med ${v.sort((a,b)=>a-b)[v.length>>1]}`).join(' '));
}
