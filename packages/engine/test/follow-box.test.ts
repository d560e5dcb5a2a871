import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { followBox } from '../src/index.ts';
import { loadLogo } from '../src/image-io.ts';
import { compositeLogo } from '../src/synth.ts';
import { background, maxCornerError, tempDir, texturedLogoSvg, writeSvg, writeVideo } from './fixtures.ts';

// A 120 x 60 logo crossing a still 640 x 360 scene to the right at 200 px/s, filmed at 10 fps for
// 3.6 s: at t seconds its left edge is at 100 + 200 t, and from about 2.3 s less than 60 % of it is
// in the frame.
const FPS = 10;
const at = (t: number) => {
  const x = 100 + 200 * t;
  return [x, 150, x + 120, 150, x + 120, 210, x, 210];
};

let video: string;

beforeAll(async () => {
  const dir = await tempDir();
  const logo = await loadLogo(await writeSvg(dir, 'logo.svg', texturedLogoSvg(3)), 400);
  const scene = await background(7, 640, 360);
  const frames = [];
  for (let i = 0; i < 36; i++) {
    const img = { ...scene, data: scene.data.slice() };
    await compositeLogo(img, logo, at(i / FPS));
    frames.push(img);
  }
  video = await writeVideo(join(dir, 'crossing.mp4'), frames, FPS);
}, 60_000);

describe('followBox', () => {
  it('follows a moving logo both ways from a drawn box, and stops when it leaves the frame', async () => {
    const drawn = at(1);
    const segments = await followBox(video, { timeMs: 1000, points: drawn });
    expect(segments.find((s) => s.start_time === 1000)?.points).toEqual(drawn);
    // Back to the first frame, and each followed box on the logo.
    expect(segments[0].start_time).toBe(0);
    for (const s of segments) expect(maxCornerError(s.points, at(s.start_time / 1000))).toBeLessThan(4);
    for (let i = 1; i < segments.length; i++) expect(segments[i].start_time).toBe(segments[i - 1].end_time);
    // Lost as it leaves on the right, not followed to the end of the video.
    const last = segments.at(-1)!;
    expect(last.start_time).toBeGreaterThanOrEqual(2000);
    expect(last.start_time).toBeLessThan(2500);
  }, 60_000);

  it('goes one way only, and no further than maxMs', async () => {
    const segments = await followBox(video, {
      timeMs: 1000,
      points: at(1),
      direction: 'backward',
      maxMs: 500,
    });
    expect(segments.map((s) => s.start_time)).toEqual([500, 600, 700, 800, 900, 1000]);
    expect(segments.at(-1)!.end_time).toBe(1100);
  }, 60_000);
});
