import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const dir = path.join(tmpdir(), 'logo-review-e2e-fixtures');

/**
 * The file `name` in the fixtures folder, made by `ffmpeg <args> <file>` unless an earlier run left it there
 * (generated media are cached between runs).
 */
export function cachedFfmpegOutput(name: string, args: string[]): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  if (!existsSync(file)) execFileSync('ffmpeg', ['-loglevel', 'error', '-y', ...args, file]);
  return file;
}

/** An H.264 test pattern (ffmpeg lavfi testsrc) saved as `name`; `gop` sets the keyframe interval in frames. */
export function testPatternVideo(
  name: string,
  spec: { seconds: number; size: string; fps: number; gop?: number },
): string {
  return cachedFfmpegOutput(name, [
    '-f',
    'lavfi',
    '-i',
    `testsrc=duration=${spec.seconds}:size=${spec.size}:rate=${spec.fps}`,
    '-pix_fmt',
    'yuv420p',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    ...(spec.gop === undefined ? [] : ['-g', String(spec.gop)]),
  ]);
}

/** A small test-pattern video made by ffmpeg (cached between runs). */
export function testVideo(seconds = 2, name = 'testsrc.mp4'): string {
  return testPatternVideo(name, { seconds, size: '320x240', fps: 10 });
}

/** A small PNG logo made by ffmpeg. */
export function testLogo(name = 'logo.png', color = 'red'): string {
  return cachedFfmpegOutput(name, [
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=128x96:duration=1,drawbox=x=20:y=20:w=60:h=40:color=${color}:t=fill`,
    '-frames:v',
    '1',
  ]);
}
