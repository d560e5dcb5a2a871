import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';

/** A small PNG logo (a coloured square with a contrasting bar). */
export async function pngLogo(color = '#d32f2f', size = 64): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}">
    <rect width="100%" height="100%" fill="${color}"/><rect x="10%" y="40%" width="80%" height="20%" fill="#fff"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

let cachedVideo: Buffer | undefined;
/** A 2-second 160x120 H.264 MP4 made by ffmpeg's test source. */
export function smallVideo(): Buffer {
  if (cachedVideo) return cachedVideo;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lr-vid-'));
  const file = path.join(dir, 'v.mp4');
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=160x120:rate=10:duration=2',
    '-pix_fmt',
    'yuv420p',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    file,
  ]);
  cachedVideo = readFileSync(file);
  rmSync(dir, { recursive: true, force: true });
  return cachedVideo;
}
