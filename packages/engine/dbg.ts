import { readFile } from 'node:fs/promises';
import { deserializeBrandIndex } from './src/brand-index.ts';
import { DescriptorIndex } from './src/descriptor-index.ts';
import { computeOrb } from './src/features.ts';
import { getCv } from './src/opencv.ts';
import { streamFrames } from './src/video.ts';
import { applyH } from './src/geometry.ts';
const cv = await getCv();
const OUT = '/work/main/.bench-out/engine';
const clips = JSON.parse(await readFile(OUT + '/clips/truth.json', 'utf8'));
const clip = clips[Number(process.argv[2] ?? 0)];
const inst = clip.instances[0];
const b = deserializeBrandIndex(await readFile(`${OUT}/indexes/${inst.brand}.bin`));
console.log(inst.brand, 'index kps', b.count, b.examples[0].width, b.examples[0].height);
const idx = new DescriptorIndex([b]);
for await (const f of streamFrames(clip.file, { sampleFps: 1, width: 1280, height: 720 })) {
  const feats = computeOrb(cv, f, { maxFeatures: 3200, nLevels: 6, scaleFactor: 1.25, patchSize: 23 });
  const fi = Math.round(f.timeMs * 12 / 1000);
  const q = inst.quads[fi];
  if (!q?.length) continue;
  // how many frame keypoints fall inside the logo's bbox
  const xs = [q[0], q[2], q[4], q[6]], ys = [q[1], q[3], q[5], q[7]];
  let inside = 0;
  for (let i = 0; i < feats.count; i++) { const x = feats.xy[i*2], y = feats.xy[i*2+1]; if (x >= Math.min(...xs) && x <= Math.max(...xs) && y >= Math.min(...ys) && y <= Math.max(...ys)) inside++; }
  const m = idx.match(feats, 64, 0.8);
  const m2 = idx.match(feats, 80, 1.0);
  // count matches consistent with truth: project index kp via truth homography
  const H = cv.getPerspectiveTransform(cv.matFromArray(4,1,cv.CV_32FC2,[0,0,b.examples[0].width,0,b.examples[0].width,b.examples[0].height,0,b.examples[0].height]), cv.matFromArray(4,1,cv.CV_32FC2,q));
  const h = Array.from(H.data64F as Float64Array);
  const good = (ms: any[]) => ms.filter((mm) => { const [px, py] = applyH(h, idx.xy[mm.t*2], idx.xy[mm.t*2+1]); return Math.hypot(px - feats.xy[mm.q*2], py - feats.xy[mm.q*2+1]) < 6; }).length;
  console.log('t', f.timeMs, 'feats', feats.count, 'inside logo', inside, 'matches', m.length, 'good', good(m), '| loose', m2.length, 'good', good(m2));
}
