import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface ProbeResult {
  width: number;
  height: number;
  fps: number;
  frames: number;
  duration: number;
  codec: string;
}

function rate(r: string | undefined): number {
  if (!r) return 0;
  const [a, b] = r.split('/').map(Number);
  return b ? a / b : a;
}

/** Reads a video's geometry and timing with ffprobe; throws an Error a person understands. */
export async function probeVideo(file: string): Promise<ProbeResult> {
  let out: string;
  try {
    ({ stdout: out } = await run(
      'ffprobe',
      ['-v', 'error', '-select_streams', 'v:0', '-show_entries',
        'stream=width,height,avg_frame_rate,r_frame_rate,nb_frames,duration,codec_name:format=duration,format_name',
        '-of', 'json', file],
      { timeout: 60_000, maxBuffer: 4 * 1024 * 1024 },
    ));
  } catch (err) {
    const stderr = String((err as { stderr?: string }).stderr ?? '').trim().split('\n').pop() ?? '';
    throw new Error(`The file is not a video that can be read (${stderr || 'ffprobe failed'}).`);
  }
  const json = JSON.parse(out) as {
    streams?: { width?: number; height?: number; avg_frame_rate?: string; r_frame_rate?: string; nb_frames?: string; duration?: string; codec_name?: string }[];
    format?: { duration?: string; format_name?: string };
  };
  const s = json.streams?.[0];
  if (!s || !s.width || !s.height) throw new Error('The file has no video stream.');
  if (s.codec_name && ['png', 'mjpeg', 'bmp', 'gif', 'webp', 'tiff'].includes(s.codec_name) && json.format?.format_name?.includes('image2')) {
    throw new Error('The file is a still image, not a video.');
  }
  const fps = rate(s.avg_frame_rate) || rate(s.r_frame_rate);
  const duration = Number(s.duration ?? json.format?.duration ?? 0);
  if (!fps || !Number.isFinite(duration) || duration <= 0) throw new Error('The video has no readable duration or frame rate.');
  const frames = Number(s.nb_frames) || Math.round(duration * fps);
  return { width: s.width, height: s.height, fps, frames, duration, codec: s.codec_name ?? '' };
}
