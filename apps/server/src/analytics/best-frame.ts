import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** One frame of a video as a 320 px wide JPEG, cut with ffmpeg (null when it cannot be read). */
export async function cutFrame(file: string, seconds: number): Promise<Buffer | null> {
  try {
    const { stdout } = await run(
      'ffmpeg',
      [
        '-v',
        'error',
        '-ss',
        Math.max(0, seconds).toFixed(3),
        '-i',
        file,
        '-frames:v',
        '1',
        '-vf',
        'scale=320:-2',
        '-q:v',
        '4',
        '-f',
        'image2pipe',
        '-c:v',
        'mjpeg',
        'pipe:1',
      ],
      { encoding: 'buffer', timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
    );
    return stdout.length > 0 ? stdout : null;
  } catch {
    return null;
  }
}
