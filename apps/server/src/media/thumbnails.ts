import { execFile } from 'node:child_process';
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
