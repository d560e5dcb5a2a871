import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timecode } from '../../src/reports/detection-overlay.ts';
import {
  renderVerificationVideo,
  type RenderDetection,
  type RenderOptions,
} from '../../src/reports/verification-render.ts';

const run = promisify(execFile);
const FPS = 25;

/** Renders a 2 s 320x240 source (the test clips' size); `extra` overrides or adds options. */
const render320 = (input: string, output: string, extra: Partial<RenderOptions> = {}) =>
  renderVerificationVideo({
    input,
    output,
    width: 320,
    height: 240,
    fps: FPS,
    duration: 2,
    detections: [],
    ...extra,
  });
let dir: string;
let withAudio: string;
let silent: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verification-render-'));
  withAudio = join(dir, 'gray-with-audio.mp4');
  silent = join(dir, 'pattern-silent.mp4');
  // A flat grey picture makes "the quad colour is on the edge and nowhere else" a clean check.
  // The sound stops after 1 s: the render must still keep all 2 s of picture.
  await run('ffmpeg', [
    ...['-v', 'error', '-f', 'lavfi', '-t', '2', '-i', `color=c=gray:size=320x240:rate=${FPS}`],
    ...['-f', 'lavfi', '-t', '1', '-i', 'sine=frequency=440:sample_rate=48000'],
    ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-y', withAudio],
  ]);
  await run('ffmpeg', [
    ...['-v', 'error', '-f', 'lavfi', '-i', `testsrc2=size=320x240:rate=${FPS}`, '-t', '2'],
    ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-y', silent],
  ]);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Probe {
  streams: {
    codec_type: string;
    codec_name: string;
    width?: number;
    height?: number;
    pix_fmt?: string;
    duration?: string;
  }[];
  format: { duration: string };
}

async function probe(file: string): Promise<Probe> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-print_format',
    'json',
    '-show_streams',
    '-show_format',
    file,
  ]);
  return JSON.parse(stdout) as Probe;
}

/** The decoded frame at `seconds` (output seeking, so frame-accurate) as RGB pixels. */
async function frameAt(file: string, seconds: number) {
  const png = join(dir, `frame-${seconds}-${Math.random().toString(36).slice(2)}.png`);
  await run('ffmpeg', ['-v', 'error', '-i', file, '-ss', String(seconds), '-frames:v', '1', '-y', png]);
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return (x: number, y: number) => {
    const i = (y * info.width + x) * 3;
    return { r: data[i], g: data[i + 1], b: data[i + 2] };
  };
}

const isRed = (p: { r: number; g: number; b: number }) => p.r > 170 && p.g < 90 && p.b < 90;
const isGrey = (p: { r: number; g: number; b: number }) =>
  Math.abs(p.r - p.g) < 16 && Math.abs(p.g - p.b) < 16 && p.r > 90 && p.r < 170;

// A quad from (60,100) to (260,200) between 0.6 s and 1.4 s; it moves 20 px right at 1.0 s.
const DETECTION: RenderDetection = {
  brandName: 'Acme',
  color: '#ff0000',
  time_begin: 600,
  time_end: 1400,
  coordinates: [
    { start_time: 600, end_time: 1000, points: [60, 100, 260, 100, 260, 200, 60, 200] },
    { start_time: 1000, end_time: 1400, points: [80, 100, 280, 100, 280, 200, 80, 200] },
  ],
};

describe('renderVerificationVideo', () => {
  it('encodes a browser-playable MP4 of the right size and duration, with the audio', async () => {
    const output = join(dir, 'out', 'with-detection.mp4');
    const progress: number[] = [];
    await render320(withAudio, output, {
      detections: [DETECTION],
      onProgress: (f) => progress.push(f),
    });
    const info = await probe(output);
    const video = info.streams.find((s) => s.codec_type === 'video')!;
    expect(video).toMatchObject({ codec_name: 'h264', width: 320, height: 240, pix_fmt: 'yuv420p' });
    expect(Math.abs(Number(video.duration) - 2)).toBeLessThanOrEqual(2 / FPS);
    expect(info.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe('aac');
    // +faststart: the index (moov) comes before the media data so playback starts at once.
    const bytes = await readFile(output);
    expect(bytes.indexOf('moov')).toBeGreaterThan(0);
    expect(bytes.indexOf('moov')).toBeLessThan(bytes.indexOf('mdat'));
    expect(progress.at(-1)).toBe(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    // Only the finished file is left in the folder.
    expect(await readdir(join(dir, 'out'))).toEqual(['with-detection.mp4']);
  });

  it('draws the quad in its colour along its edges at its time, and nothing elsewhere', async () => {
    const output = join(dir, 'out', 'pixels.mp4');
    await render320(withAudio, output, {
      detections: [DETECTION],
    });
    const during = await frameAt(output, 0.8);
    // Middle of each edge of the first segment's quad.
    expect(isRed(during(160, 100))).toBe(true);
    expect(isRed(during(160, 200))).toBe(true);
    expect(isRed(during(60, 150))).toBe(true);
    expect(isRed(during(260, 150))).toBe(true);
    // Inside the quad, and well away from it (away from the label and the timecode too).
    expect(isGrey(during(160, 150))).toBe(true);
    expect(isGrey(during(300, 30))).toBe(true);
    expect(isGrey(during(20, 150))).toBe(true);
    let red = 0;
    for (let y = 0; y < 240; y += 2) for (let x = 0; x < 320; x += 2) if (isRed(during(x, y))) red++;
    // The outline (about 600 px of 3 px line) plus the red label box, not a filled area.
    expect(red).toBeGreaterThan(300 / 4);
    expect(red).toBeLessThan(5000 / 4);

    // The second segment moved right by 20 px: the old left edge is gone, the new one is drawn.
    const later = await frameAt(output, 1.2);
    expect(isGrey(later(60, 150))).toBe(true);
    expect(isRed(later(80, 150))).toBe(true);

    // Before and after the detection's time span there is no quad.
    for (const t of [0.2, 1.8]) {
      const frame = await frameAt(output, t);
      expect(isGrey(frame(160, 100))).toBe(true);
      expect(isGrey(frame(260, 150))).toBe(true);
    }
  });

  it('renders a video without detections (and without audio) as a playable file', async () => {
    const output = join(dir, 'out', 'empty.mp4');
    await render320(silent, output);
    const info = await probe(output);
    expect(info.streams.map((s) => s.codec_type)).toEqual(['video']);
    expect(info.streams[0]).toMatchObject({ codec_name: 'h264', width: 320, height: 240 });
    expect(Math.abs(Number(info.format.duration) - 2)).toBeLessThanOrEqual(2 / FPS);
    // Decoding the whole file succeeds.
    await run('ffmpeg', ['-v', 'error', '-i', output, '-f', 'null', '-']);
  });

  it('scales odd-sized and tall sources to even dimensions, with the quads scaled alike', async () => {
    const odd = join(dir, 'odd.mkv');
    // FFV1 accepts odd sizes, which H.264 in 4:2:0 does not.
    await run('ffmpeg', [
      ...['-v', 'error', '-f', 'lavfi', '-i', `color=c=gray:size=321x241:rate=${FPS}`, '-t', '1'],
      ...['-c:v', 'ffv1', '-y', odd],
    ]);
    const output = join(dir, 'out', 'scaled.mp4');
    await renderVerificationVideo({
      input: odd,
      output,
      width: 321,
      height: 241,
      fps: FPS,
      duration: 1,
      maxHeight: 120,
      detections: [{ ...DETECTION, time_begin: 0, time_end: 1000, coordinates: [DETECTION.coordinates[0]] }],
    });
    const video = (await probe(output)).streams[0];
    expect(video).toMatchObject({ width: 160, height: 120 });
    const frame = await frameAt(output, 0.5);
    // The source quad (60,100)-(260,200) at half size: top edge at y 50 from x 30 to 130.
    expect(isRed(frame(80, 50))).toBe(true);
    expect(isRed(frame(130, 75))).toBe(true);
    expect(isGrey(frame(80, 75))).toBe(true);
    expect(isGrey(frame(150, 50))).toBe(true);
  });

  it('rejects an unreadable source with a readable message and writes nothing', async () => {
    const broken = join(dir, 'not-a-video.mp4');
    await writeFile(broken, 'this is not a video');
    const output = join(dir, 'out', 'broken.mp4');
    const render = (input: string) => render320(input, output);
    await expect(render(broken)).rejects.toThrow(/^Cannot read the source video: .+/);
    // The message goes into a status reason users read: no server paths in it.
    await expect(render(broken)).rejects.not.toThrow(dir);
    await expect(render(join(dir, 'missing.mp4'))).rejects.toThrow(/No such file or directory/);
    expect(existsSync(output)).toBe(false);
  });

  it('stops on abort and leaves no file behind', async () => {
    const output = join(dir, 'aborted', 'render.mp4');
    const controller = new AbortController();
    const rendering = render320(silent, output, {
      detections: [DETECTION],
      signal: controller.signal,
      onProgress: (f) => {
        if (f >= 0.1) controller.abort(new Error('cancelled by test'));
      },
    });
    await expect(rendering).rejects.toThrow('cancelled by test');
    expect(await readdir(join(dir, 'aborted'))).toEqual([]);
  });
});

describe('timecode', () => {
  it('formats HH:MM:SS:FF at the frame rate', () => {
    expect(timecode(0, 25)).toBe('00:00:00:00');
    expect(timecode(1040, 25)).toBe('00:00:01:01');
    expect(timecode(3_723_960, 25)).toBe('01:02:03:24');
    expect(timecode((1001 / 30000) * 1000 * 30, 30000 / 1001)).toBe('00:00:01:00');
  });
});
