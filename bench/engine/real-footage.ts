/**
 * Checks by eye on real broadcast footage: brands whose only example is a crop from one frame of
 * the clip (as customers provide them), detections rendered onto other frames as PNG.
 */
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import {
  analyzeVideo,
  buildBrandIndex,
  type BrandIndex,
  type MediaAnalysis,
} from '../../packages/engine/src/index.ts';
import { framePng } from '../../packages/engine/test/fixtures.ts';
import { SHARED } from './catalog.ts';
import { renderFrame } from './render.ts';

interface Crop {
  brand: string;
  video: string;
  at: number;
  /** left, top, width, height in the video's pixels */
  box: [number, number, number, number];
}

const CROPS: Crop[] = [
  { brand: 'serie-a-bug', video: 'footage/seriea-broadcast.mp4', at: 1, box: [30, 345, 52, 60] },
  { brand: 'im-inter-club', video: 'footage/seriea-broadcast.mp4', at: 6, box: [424, 10, 100, 40] },
  { brand: 'everywhere-always', video: 'footage/seriea-broadcast.mp4', at: 6, box: [208, 4, 194, 36] },
  { brand: 'lea-shirt', video: 'footage/laliga-closeup.mp4', at: 1, box: [536, 298, 72, 34] },
  { brand: 'score-bug', video: 'footage/laliga-closeup.mp4', at: 1, box: [95, 38, 300, 32] },
];

async function frameAt(
  video: string,
  t: number,
): Promise<{ data: Uint8Array; width: number; height: number }> {
  const { data, info } = await sharp(await framePng(video, t))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

/**
 * A stretch of real broadcast for throughput runs: the Serie A clip looped to `seconds`, scaled to
 * w x h, H.264 (x264 veryfast, CRF 20), no audio.
 */
export async function broadcastVideo(file: string, seconds: number, w: number, h: number): Promise<void> {
  await promisify(execFile)('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-stream_loop',
    '-1',
    '-i',
    join(SHARED, 'footage/seriea-broadcast.mp4'),
    '-t',
    String(seconds),
    '-vf',
    `scale=${w}:${h}:flags=bicubic,setsar=1`,
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '20',
    '-pix_fmt',
    'yuv420p',
    '-an',
    file,
  ]);
}

export async function realFootage(outDir: string): Promise<string[]> {
  await mkdir(join(outDir, 'crops'), { recursive: true });
  const brands: BrandIndex[] = [];
  for (const c of CROPS) {
    const f = await frameAt(join(SHARED, c.video), c.at);
    const file = join(outDir, 'crops', `${c.brand}.png`);
    const [left, top, width, height] = c.box;
    await sharp(Buffer.from(f.data), { raw: { width: f.width, height: f.height, channels: 3 } })
      .extract({ left, top, width, height })
      .png()
      .toFile(file);
    brands.push(
      await buildBrandIndex({ id: c.brand, name: c.brand, examples: [{ id: `${c.brand}.png`, file }] }),
    );
  }
  const lines: string[] = [];
  for (const video of [...new Set(CROPS.map((c) => c.video))]) {
    const path = join(SHARED, video);
    const res: MediaAnalysis = await analyzeVideo(path, brands, {});
    const name = video
      .split('/')
      .pop()!
      .replace(/\.\w+$/, '');
    for (const d of res.detections)
      lines.push(
        `${name}: ${d.brandId} ${(d.time_begin / 1000).toFixed(2)}-${(d.time_end / 1000).toFixed(2)} s, conf ${d.confidence}, ${d.placement}, ${d.coordinates.length} segment(s)`,
      );
    for (const t of [0.5, 3, 6, 9, 12]) {
      const tm = t * 1000;
      const active = res.detections.flatMap((d) => {
        const s = d.coordinates.find((c) => c.start_time <= tm && tm < c.end_time);
        return s ? [{ q: s.points, label: `${d.brandId} ${d.confidence.toFixed(2)}`, color: '#ff3030' }] : [];
      });
      if (tm > (res.frames / (res.fps ?? 1)) * 1000) continue;
      const f = await frameAt(path, t);
      await renderFrame(f.data, f.width, f.height, active, join(outDir, `real-${name}-${t}s.png`));
    }
  }
  return lines;
}
