import { readFile } from 'node:fs/promises';
import { deserializeBrandIndex } from './src/brand-index.ts';
import { DescriptorIndex } from './src/descriptor-index.ts';
import { detectInFrame, DEFAULT_DETECTOR } from './src/frame-detector.ts';
import { getCv } from './src/opencv.ts';
import { streamFrames } from './src/video.ts';
const cv = await getCv();
const OUT = '/work/main/.bench-out/engine';
const clips = JSON.parse(await readFile(OUT + '/clips/truth.json', 'utf8'));
const clip = clips[Number(process.argv[2] ?? 0)];
const inst = clip.instances[Number(process.argv[3] ?? 0)];
const b = deserializeBrandIndex(await readFile(`${OUT}/indexes/${inst.brand}.bin`)); console.log(inst.brand, b.count, b.examples[0].width, b.examples[0].height);
const idx = new DescriptorIndex([b]);
for await (const f of streamFrames(clip.file, { sampleFps: 1, width: 1280, height: 720 })) {
  const fi = Math.round(f.timeMs * 12 / 1000);
  console.log('t', f.timeMs, 'truth', inst.quads[fi]?.map(Math.round).join(','));
  const hits = detectInFrame(cv, f, idx, DEFAULT_DETECTOR);
  console.log(' hits', hits.length);
}
