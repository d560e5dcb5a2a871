import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeVideo, buildBrandIndex, probeVideo, WarmDetectors, type BrandIndex } from '../src/index.ts';
import { chromaPlane } from '../src/features.ts';
import { loadLogo } from '../src/image-io.ts';
import { streamFrames } from '../src/video.ts';
import { compositeLogo, type RgbImage } from '../src/synth.ts';
import {
  background,
  maxCornerError,
  SERIEA_CLIP,
  tempDir,
  texturedLogoSvg,
  writeSvg,
  writeVideo,
} from './fixtures.ts';

const FPS = 10;
const W = 640;
const H = 360;
let dir: string;
let brand: BrandIndex;
let logoFile: string;

beforeAll(async () => {
  dir = await tempDir();
  logoFile = await writeSvg(dir, 'brand.svg', texturedLogoSvg(5));
  brand = await buildBrandIndex({ id: 7, name: 'Brand', examples: [{ id: 'ex-1', file: logoFile }] });
});

/** 3 s video; the logo is visible from frame `from` to frame `to` (exclusive), quad per frame. */
async function makeVideo(name: string, from: number, to: number, quadAt: (i: number) => number[]) {
  const logo = await loadLogo(logoFile, 300);
  const bg = await background(3, W, H);
  const frames: RgbImage[] = [];
  for (let i = 0; i < 3 * FPS; i++) {
    const f = { ...bg, data: Uint8Array.from(bg.data) };
    if (i >= from && i < to) await compositeLogo(f, logo, quadAt(i));
    frames.push(f);
  }
  return writeVideo(join(dir, name), frames, FPS);
}

describe('analyzeVideo', () => {
  it('links a static logo into one broadcast-overlay track with the right time span', async () => {
    const quad = [420, 20, 600, 20, 600, 110, 420, 110];
    const file = await makeVideo('overlay.mp4', 5, 25, () => quad);
    const progress: number[] = [];
    const res = await analyzeVideo(file, [brand], { sampleFps: 5, onProgress: (f) => progress.push(f) });
    expect(res).toMatchObject({ width: W, height: H, fps: FPS, frames: 30 });
    expect(res.detections).toHaveLength(1);
    const d = res.detections[0];
    expect(d.brandId).toBe(7);
    expect(d.exampleId).toBe('ex-1');
    expect(d.placement).toBe('BROADCAST_OVERLAY');
    // truth: 500 ms .. 2500 ms; one sampled frame is 200 ms
    expect(Math.abs(d.time_begin - 500)).toBeLessThanOrEqual(200);
    expect(Math.abs(d.time_end - 2500)).toBeLessThanOrEqual(200);
    expect(d.coordinates).toHaveLength(1);
    expect(maxCornerError(d.coordinates[0].points, quad)).toBeLessThanOrEqual(3);
    expect(progress.length).toBeGreaterThan(5);
    expect(progress[progress.length - 1]).toBe(1);
  });

  it('follows a moving logo as one in-scene track with segments along its path', async () => {
    const at = (i: number) => {
      const x = 60 + i * 12;
      const y = 150 + i * 3;
      return [x, y, x + 170, y + 12, x + 166, y + 100, x - 4, y + 92];
    };
    const file = await makeVideo('moving.mp4', 0, 30, at);
    const res = await analyzeVideo(file, [brand], { sampleFps: 5 });
    expect(res.detections).toHaveLength(1);
    const d = res.detections[0];
    expect(d.placement).toBe('IN_SCENE');
    expect(d.time_begin).toBe(0);
    expect(Math.abs(d.time_end - 3000)).toBeLessThanOrEqual(200);
    expect(d.coordinates.length).toBeGreaterThanOrEqual(10);
    for (const seg of d.coordinates) {
      const frame = Math.round((seg.start_time / 1000) * FPS);
      expect(maxCornerError(seg.points, at(frame))).toBeLessThanOrEqual(3);
    }
  });

  it('can be aborted', async () => {
    const file = await makeVideo('abort.mp4', 0, 30, () => [100, 100, 200, 100, 200, 160, 100, 160]);
    const ctrl = new AbortController();
    const p = analyzeVideo(file, [brand], {
      sampleFps: 10,
      signal: ctrl.signal,
      onProgress: (f) => f > 0.2 && ctrl.abort(),
    });
    await expect(p).rejects.toThrow(/abort/i);
  });
});

describe('probeVideo', () => {
  it('reads size, fps, frames and duration', async () => {
    const file = await makeVideo('probe.mp4', 0, 0, () => []);
    expect(await probeVideo(file)).toMatchObject({ width: W, height: H, fps: FPS, frames: 30, duration: 3 });
  });

  it('throws a readable error for a file that is not a video', async () => {
    const bogus = join(dir, 'bogus.mp4');
    await writeFile(bogus, 'this is not a video');
    await expect(probeVideo(bogus)).rejects.toThrow(/not a readable video/);
  });
});

describe('streamFrames', () => {
  it('gives, for sample k, the frame on screen at k / sampleFps, with its colour', async () => {
    // 12 fps, frame n a flat grey of level 8n, and a red square from frame 6 on
    const frames: RgbImage[] = Array.from({ length: 24 }, (_, n) => {
      const img = { width: 64, height: 48, data: new Uint8Array(64 * 48 * 3).fill(8 * n) };
      if (n >= 6)
        for (let y = 0; y < 16; y++)
          for (let x = 0; x < 16; x++) img.data.set([230, 20, 20], (y * 64 + x) * 3);
      return img;
    });
    const file = await writeVideo(join(dir, 'numbered.mp4'), frames, 12);
    const got: { level: number; red: number; grey: number }[] = [];
    for await (const f of streamFrames(file, { sampleFps: 4, width: 64, height: 48 })) {
      const { cw } = chromaPlane(f.width, f.height);
      const v = f.uv.subarray(cw * Math.ceil(f.height / 2)); // V plane
      got.push({ level: f.data[40 * 64 + 40], red: v[4 * cw + 4], grey: v[20 * cw + 28] });
    }
    // samples at 0, 250, 500 ... ms are source frames 0, 3, 6 ... (not the frame after)
    expect(got.map((g) => Math.round(g.level / 8))).toEqual([0, 3, 6, 9, 12, 15, 18, 21]);
    expect(got.map((g) => g.red > 180)).toEqual([false, false, true, true, true, true, true, true]);
    expect(got.every((g) => Math.abs(g.grey - 128) <= 3)).toBe(true);
  });
});

describe('streamFrames on one decoder thread', () => {
  it('gives the frames that ffmpeg decodes on its own threads, to the bit (a real H.264 broadcast clip)', async () => {
    const sample = async (threads?: number) => {
      const out: Buffer[] = [];
      const opts = { sampleFps: 4, width: 848, height: 478, startMs: 2000, durationMs: 3000, threads };
      for await (const f of streamFrames(SERIEA_CLIP, opts)) out.push(Buffer.from(f.data), Buffer.from(f.uv));
      return out;
    };
    const own = await sample();
    const one = await sample(1);
    expect(own).toHaveLength(2 * 12);
    expect(one.length).toBe(own.length);
    one.forEach((b, i) => expect(b.equals(own[i])).toBe(true));
  });
});

describe('worker threads', () => {
  it('give the same detections as the main thread', async () => {
    const at = (i: number) => [100 + i * 8, 60, 300 + i * 8, 70, 296 + i * 8, 170, 96 + i * 8, 160];
    const file = await makeVideo('workers.mp4', 3, 27, at);
    const inline = await analyzeVideo(file, [brand], { sampleFps: 5, workers: 0 });
    const threaded = await analyzeVideo(file, [brand], { sampleFps: 5, workers: 2 });
    expect(inline.detections).toHaveLength(1);
    expect(threaded.detections).toEqual(inline.detections);
  });

  it('kept warm between analyses, give the same detections and start once per brands and settings', async () => {
    const at = (i: number) => [100 + i * 8, 60, 300 + i * 8, 70, 296 + i * 8, 170, 96 + i * 8, 160];
    const file = await makeVideo('warm.mp4', 3, 27, at);
    const cold = await analyzeVideo(file, [brand], { sampleFps: 5, workers: 2 });
    const warm = new WarmDetectors();
    try {
      // two chunks of the video, then the whole video again: the threads of the first serve all three
      const first = await analyzeVideo(file, [brand], { sampleFps: 5, workers: 2, warm, endMs: 1600 });
      const second = await analyzeVideo(file, [brand], { sampleFps: 5, workers: 2, warm, startMs: 1600 });
      const again = await analyzeVideo(file, [brand], { sampleFps: 5, workers: 2, warm });
      expect(warm.started).toBe(1);
      expect(again.detections).toEqual(cold.detections);
      expect(first.detections).toHaveLength(1);
      expect(second.detections).toHaveLength(1);
      // other settings (another sampling rate gives the text route another reading interval)
      await analyzeVideo(file, [brand], { sampleFps: 2, workers: 2, warm });
      expect(warm.started).toBe(2);
      // one that fails (stopped before its first frame, after it took the kept threads) leaves
      // nothing kept: the next starts its own
      const stopped = analyzeVideo(file, [brand], {
        sampleFps: 2,
        workers: 2,
        warm,
        signal: AbortSignal.abort(),
      });
      await expect(stopped).rejects.toThrow('analysis aborted');
      await analyzeVideo(file, [brand], { sampleFps: 2, workers: 2, warm });
      expect(warm.started).toBe(3);
    } finally {
      await warm.close();
    }
  });
});
