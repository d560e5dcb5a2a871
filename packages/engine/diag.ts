import { readFile } from 'node:fs/promises';
import { analyzeVideo, deserializeBrandIndex } from './src/index.ts';
import { quadIoU } from './src/geometry.ts';
const OUT = '/work/main/.bench-out/engine';
const clips = JSON.parse(await readFile(OUT + '/clips/truth.json', 'utf8'));
const files = JSON.parse(await readFile(OUT + '/brands-50.json', 'utf8'));
const brands = await Promise.all(files.map(async (f: string) => deserializeBrandIndex(await readFile(f))));
const minS = Number(process.argv[2] ?? 200), maxS = Number(process.argv[3] ?? 1e9);
for (const [ci, clip] of clips.entries()) {
  const sel = clip.instances.filter((i: any) => i.size >= minS && i.size < maxS);
  if (!sel.length) continue;
  const res = await analyzeVideo(clip.file, brands, { sampleFps: 4 });
  for (const inst of sel) {
    let hit = 0, tot = 0; const ious: string[] = [];
    for (let k = 0; k < 12; k++) {
      const t = k * 250; const f = Math.round(t * 12 / 1000);
      if (f < inst.from || f >= inst.to) continue;
      tot++;
      let best = 0;
      for (const d of res.detections) { if (d.brandId !== inst.brand) continue; const s = d.coordinates.find((c) => c.start_time <= t && t < c.end_time); if (s) best = Math.max(best, quadIoU(s.points, inst.quads[f])); }
      if (best >= 0.5) hit++; ious.push(best.toFixed(2));
    }
    console.log(ci, clip.footage.split('/')[1], inst.brand, inst.kind, 'size', inst.size.toFixed(0), `hit ${hit}/${tot}`, ious.join(' '), 'dets:', res.detections.map((d) => d.brandId).join(','));
  }
}
