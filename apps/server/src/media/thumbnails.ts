import { execFile } from 'node:child_process';
import { rename } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface ThumbnailSprite {
  interval: number;
  columns: number;
  count: number;
  tile_width: number;
  tile_height: number;
}

export const TILE_WIDTH = 160;
const MAX_TILES = 200;
const COLUMNS = 10;

/**
 * Renders the editor's hover previews: one JPEG sprite sheet of 160 px wide frames, one every
 * `interval` seconds (at most 200 tiles, so that a long match stays one small image).
 */
export async function renderThumbnailSprite(
  input: string,
  output: string,
  video: { duration: number; width: number; height: number },
): Promise<ThumbnailSprite> {
  const interval = Math.max(1, Math.ceil(video.duration / MAX_TILES));
  const count = Math.max(1, Math.ceil(video.duration / interval));
  const rows = Math.ceil(count / COLUMNS);
  const tileHeight = Math.max(2, 2 * Math.round((TILE_WIDTH * video.height) / video.width / 2));
  await run(
    'ffmpeg',
    [
      '-v',
      'error',
      '-y',
      '-i',
      input,
      '-vf',
      `fps=1/${interval},scale=${TILE_WIDTH}:${tileHeight},tile=${COLUMNS}x${rows}`,
      '-frames:v',
      '1',
      '-q:v',
      '5',
      output,
    ],
    { timeout: 30 * 60_000 },
  );
  return { interval, columns: COLUMNS, count, tile_width: TILE_WIDTH, tile_height: tileHeight };
}

/** The stored path of a video's poster frame: next to its sprite sheet. */
export function posterPath(spritePath: string): string {
  return `${spritePath.replace(/\.jpg$/, '')}-poster.jpg`;
}

/**
 * Cuts the poster frame of the video cards out of the sprite sheet: its middle tile, as a small JPEG (a card
 * then loads one frame, not the whole sheet). Written to a temporary name and renamed, so that two requests
 * at once never serve half a file.
 */
export async function renderPoster(
  sprite: string,
  output: string,
  t: Pick<ThumbnailSprite, 'columns' | 'count' | 'tile_width' | 'tile_height'>,
): Promise<void> {
  const index = Math.floor((t.count - 1) / 2);
  const x = (index % t.columns) * t.tile_width;
  const y = Math.floor(index / t.columns) * t.tile_height;
  const tmp = `${output}.${process.pid}.${Date.now()}.tmp.jpg`;
  await run(
    'ffmpeg',
    [
      '-v',
      'error',
      '-y',
      '-i',
      sprite,
      '-vf',
      `crop=${t.tile_width}:${t.tile_height}:${x}:${y}`,
      '-frames:v',
      '1',
      '-q:v',
      '3',
      tmp,
    ],
    { timeout: 60_000 },
  );
  await rename(tmp, output);
}
