import { readFile } from 'node:fs/promises';
import path from 'node:path';
// The engine's own fixture generators: a seeded textured logo, a busy background, frames to MP4.
import { loadLogo } from '../../../packages/engine/src/image-io.ts';
import { compositeLogo, type RgbImage } from '../../../packages/engine/src/synth.ts';
import {
  background,
  tempDir,
  texturedLogoSvg,
  writeSvg,
  writeVideo,
} from '../../../packages/engine/test/fixtures.ts';

export { frameCrop, maxCornerError } from '../../../packages/engine/test/fixtures.ts';

/** A seeded textured logo as an SVG file. */
export async function logoFile(seed: number): Promise<string> {
  return writeSvg(await tempDir(), `logo-${seed}.svg`, texturedLogoSvg(seed));
}

/**
 * An MP4 of `seconds` at `fps`, 640x360, showing the logo at `quad` while `shown(frame)` is true.
 */
export async function videoWithLogo(
  logo: string,
  opts: { seconds: number; fps: number; quad: number[]; shown: (frame: number) => boolean },
): Promise<Buffer> {
  const image = await loadLogo(logo, 300);
  const bg = await background(3, 640, 360);
  const frames: RgbImage[] = [];
  const withLogo = { ...bg, data: Uint8Array.from(bg.data) };
  await compositeLogo(withLogo, image, opts.quad);
  for (let i = 0; i < opts.seconds * opts.fps; i++) frames.push(opts.shown(i) ? withLogo : bg);
  const file = path.join(await tempDir(), 'video.mp4');
  return readFile(await writeVideo(file, frames, opts.fps));
}
