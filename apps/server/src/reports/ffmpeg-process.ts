import { spawn, type ChildProcess } from 'node:child_process';
import { basename } from 'node:path';

/** ffmpeg and ffprobe from PATH unless FFMPEG_PATH / FFPROBE_PATH say otherwise. */
export const FFMPEG = process.env.FFMPEG_PATH ?? 'ffmpeg';
export const FFPROBE = process.env.FFPROBE_PATH ?? 'ffprobe';

/**
 * Keeps the end of a process's stderr: that is where ffmpeg says what went wrong. Paths in
 * `hide` are cut out, because the message ends up in a status reason that users read.
 */
function stderrTail(child: ChildProcess, hide: string[], limit = 2000): () => string {
  let tail = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    tail = (tail + chunk).slice(-limit);
  });
  return () => {
    // Drop ffmpeg's '[demuxer @ 0x55d7...] ' prefixes: noise to a reader.
    let text = tail
      .trim()
      .split('\n')
      .slice(-3)
      .join(' | ')
      .replace(/\[[^\]]* @ 0x[0-9a-f]+\] /g, '');
    for (const path of hide) text = text.replaceAll(`${path}: `, '').replaceAll(path, basename(path));
    return text;
  };
}

export interface RunningProcess {
  child: ChildProcess;
  /** Resolves on exit code 0, rejects with `what` and the end of stderr otherwise. */
  done: Promise<void>;
}

export function startProcess(
  command: string,
  args: string[],
  what: string,
  hide: string[] = [],
): RunningProcess {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  const tail = stderrTail(child, hide);
  const done = new Promise<void>((resolve, reject) => {
    child.once('error', (err) => reject(new Error(`${what}: ${err.message}`)));
    child.once('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${what}: ${tail() || (signal ? `killed by ${signal}` : `exit code ${code}`)}`));
    });
  });
  return { child, done };
}

export interface SourceInfo {
  hasAudio: boolean;
  /** ffprobe's color_space of the first video stream, e.g. 'bt709', or undefined. */
  colorSpace: string | undefined;
}

interface ProbeOutput {
  streams?: { codec_type?: string; color_space?: string }[];
}

/** Reads the streams of a media file; rejects with a readable message when it is not a video. */
export async function probeSource(input: string): Promise<SourceInfo> {
  const proc = startProcess(
    FFPROBE,
    ['-v', 'error', '-print_format', 'json', '-show_streams', input],
    'Cannot read the source video',
    [input],
  );
  let json = '';
  proc.child.stdout?.setEncoding('utf8');
  proc.child.stdout?.on('data', (chunk: string) => (json += chunk));
  proc.child.stdin?.end();
  await proc.done;
  const parsed = JSON.parse(json || '{}') as ProbeOutput;
  const streams = parsed.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video');
  if (!video) throw new Error('Cannot read the source video: it has no video stream');
  return {
    hasAudio: streams.some((s) => s.codec_type === 'audio'),
    colorSpace: video.color_space,
  };
}
