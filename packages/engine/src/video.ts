import { spawn, execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { chromaPlane } from './features.ts';

const run = promisify(execFile);

/** Facts about a video file from ffprobe. */
export interface VideoInfo {
  width: number;
  height: number;
  fps: number;
  frames: number;
  /** seconds */
  duration: number;
}

const IMAGE_FORMATS = /(^|,)(image2|png_pipe|jpeg_pipe|webp_pipe|svg_pipe|bmp_pipe|gif|tiff_pipe)(,|$)/;

function ratio(r: string | undefined): number {
  if (!r) return 0;
  const [a, b] = r.split('/').map(Number);
  return b ? a / b : a || 0;
}

/** Reads a video's size, frame rate, frame count and duration with ffprobe. */
export async function probeVideo(file: string): Promise<VideoInfo> {
  let out: string;
  try {
    ({ stdout: out } = await run('ffprobe', [
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-show_entries',
      'stream=width,height,r_frame_rate,avg_frame_rate,nb_frames,duration:stream_tags=rotate:stream_side_data=rotation:format=duration,format_name',
      '-of',
      'json',
      file,
    ]));
  } catch (err) {
    const msg = ((err as { stderr?: string }).stderr ?? (err as Error).message).trim().split('\n').pop();
    throw new Error(`not a readable video: ${file} (${msg})`);
  }
  const j = JSON.parse(out) as {
    streams?: {
      width?: number;
      height?: number;
      r_frame_rate?: string;
      avg_frame_rate?: string;
      nb_frames?: string;
      duration?: string;
      tags?: { rotate?: string };
      side_data_list?: { rotation?: number }[];
    }[];
    format?: { duration?: string; format_name?: string };
  };
  const s = j.streams?.[0];
  if (!s || !s.width || !s.height) throw new Error(`not a video (no video stream): ${file}`);
  if (IMAGE_FORMATS.test(j.format?.format_name ?? ''))
    throw new Error(`not a video (a still image): ${file}`);
  const fps = ratio(s.avg_frame_rate) || ratio(s.r_frame_rate);
  const duration = Number(s.duration ?? j.format?.duration ?? 0);
  if (!fps || !(duration > 0)) throw new Error(`not a video (no frame rate or duration): ${file}`);
  const frames = Number(s.nb_frames) || Math.round(duration * fps);
  // ffmpeg applies the display rotation when decoding, so report the size of what it outputs.
  const rot = Number(
    s.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? s.tags?.rotate ?? 0,
  );
  const quarter = Math.abs(Math.round(rot / 90)) % 2 === 1;
  return quarter
    ? { width: s.height, height: s.width, fps, frames, duration }
    : { width: s.width, height: s.height, fps, frames, duration };
}

/** One decoded, sampled, downscaled grey frame. */
export interface SampledFrame {
  index: number;
  timeMs: number;
  width: number;
  height: number;
  /** luma */
  data: Uint8Array;
  /** chroma: U then V planes at half resolution (see {@link GrayImage.uv}) */
  uv: Uint8Array;
}

/**
 * Streams sampled frames (luma, and chroma at half resolution) from ffmpeg: rawvideo on a pipe,
 * never the whole video in memory. The consumer's pace throttles ffmpeg through the pipe's
 * back-pressure.
 */
export async function* streamFrames(
  file: string,
  opts: {
    sampleFps: number;
    width: number;
    height: number;
    signal?: AbortSignal;
    /** ms: decode from here (frame times stay times in the video), and at most this long */
    startMs?: number;
    durationMs?: number;
    /** decoder threads (ffmpeg's own choice when unset) */
    threads?: number;
  },
): AsyncGenerator<SampledFrame> {
  const { width, height, sampleFps } = opts;
  const startMs = opts.startMs ?? 0;
  // Seeking before -i decodes from the keyframe before and drops frames up to the time: exact.
  const range = [
    ...(opts.threads ? ['-threads', String(opts.threads)] : []),
    ...(startMs > 0 ? ['-ss', (startMs / 1000).toFixed(3)] : []),
    '-i',
    file,
    ...(opts.durationMs !== undefined ? ['-t', (opts.durationMs / 1000).toFixed(3)] : []),
  ];
  const proc = spawn(
    'ffmpeg',
    [
      '-v',
      'error',
      '-nostdin',
      ...range,
      '-map',
      '0:v:0',
      '-an',
      '-sn',
      '-vf',
      // round=up: sample k is the frame on screen at k / sampleFps (the last one that started by
      // then); the default rounding gives the frame after it, one source frame late.
      `fps=${sampleFps}:round=up,scale=${width}:${height}:flags=area:out_range=full`,
      '-f',
      'rawvideo',
      '-pix_fmt',
      'yuv420p',
      'pipe:1',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  proc.stderr.on('data', (d: Buffer) => {
    if (stderr.length < 4000) stderr += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => proc.on('close', (code) => resolve(code)));
  const abort = () => proc.kill('SIGKILL');
  opts.signal?.addEventListener('abort', abort);
  const { cw, ch } = chromaPlane(width, height);
  const lumaSize = width * height;
  const frameSize = lumaSize + 2 * cw * ch;
  let buf = Buffer.alloc(frameSize);
  let fill = 0;
  let index = 0;
  try {
    for await (const chunk of proc.stdout as AsyncIterable<Buffer>) {
      let off = 0;
      while (off < chunk.length) {
        const n = Math.min(frameSize - fill, chunk.length - off);
        chunk.copy(buf, fill, off, off + n);
        fill += n;
        off += n;
        if (fill === frameSize) {
          // One buffer per frame (it travels to a detector thread and back): luma, then chroma.
          const data = new Uint8Array(buf.buffer, buf.byteOffset, lumaSize);
          const uv = new Uint8Array(buf.buffer, buf.byteOffset + lumaSize, frameSize - lumaSize);
          yield { index, timeMs: startMs + (index * 1000) / sampleFps, width, height, data, uv };
          index++;
          buf = Buffer.alloc(frameSize);
          fill = 0;
        }
      }
      if (opts.signal?.aborted) break;
    }
    const code = await exited;
    if (opts.signal?.aborted) throw new DOMException('analysis aborted', 'AbortError');
    if (code !== 0) throw new Error(`ffmpeg failed on ${file}: ${stderr.trim() || `exit code ${code}`}`);
  } finally {
    opts.signal?.removeEventListener('abort', abort);
    if (proc.exitCode === null) proc.kill('SIGKILL');
  }
}
