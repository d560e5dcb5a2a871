import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { DetectionOverlay, type RenderDetection } from './detection-overlay.ts';
import { FFMPEG, probeSource, startProcess, type RunningProcess } from './ffmpeg-process.ts';
import { YuvFrame, type ColorMatrix } from './yuv-frame.ts';

export type { RenderDetection } from './detection-overlay.ts';

export interface RenderOptions {
  /** Source video file. */
  input: string;
  /** Where the MP4 goes; written to a temporary name beside it and renamed when complete. */
  output: string;
  /** The source's pixel size, which the detection points refer to. */
  width: number;
  height: number;
  fps: number;
  /** Seconds to render from the start. */
  duration: number;
  detections: RenderDetection[];
  /** Called with 0..1 as frames are encoded, at most once per percent, and with 1 at the end. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  /** Taller sources are scaled down to this height (default 1080) to keep the render fast. */
  maxHeight?: number;
}

/**
 * Renders a verification video: the source footage with every detection's quad outlined in its
 * placement's colour at its times, the brand's name beside it and a timecode in the corner,
 * encoded as H.264 (yuv420p, +faststart) in MP4 with the source's audio as AAC.
 *
 * One ffmpeg decodes to raw yuv420p frames on a pipe, the frames are drawn on here, and a second
 * ffmpeg encodes them with libx264 -preset veryfast. Rejects with a readable message when the
 * source cannot be read or ffmpeg fails, and with the signal's reason when aborted; no partial
 * file is left at `output` in either case.
 */
export async function renderVerificationVideo(opts: RenderOptions): Promise<void> {
  const { input, output, fps, duration, signal } = opts;
  if (!(fps > 0) || !(duration > 0) || !(opts.width > 0) || !(opts.height > 0)) {
    throw new Error(
      `Cannot render a verification video with fps ${fps}, duration ${duration} s and size ${opts.width}x${opts.height}`,
    );
  }
  signal?.throwIfAborted();
  const source = await probeSource(input);
  signal?.throwIfAborted();

  const scale = Math.min(1, (opts.maxHeight ?? 1080) / opts.height);
  // libx264 needs even dimensions for yuv420p.
  const width = Math.max(2, Math.round(opts.width * scale) & ~1);
  const height = Math.max(2, Math.round(opts.height * scale) & ~1);
  const matrix: ColorMatrix = source.colorSpace === 'bt709' ? 'bt709' : 'bt601';
  const overlay = await DetectionOverlay.create(opts.detections, {
    width,
    height,
    scaleX: width / opts.width,
    scaleY: height / opts.height,
    fps,
    matrix,
  });
  const totalFrames = Math.max(1, Math.round(duration * fps));

  await mkdir(dirname(output), { recursive: true });
  const partial = join(dirname(output), `.${basename(output)}.${randomUUID()}.part`);
  const decoder = startProcess(
    FFMPEG,
    [
      ...['-v', 'error', '-nostdin', '-i', input, '-map', '0:v:0'],
      ...['-vf', `fps=${fps},scale=${width}:${height},format=yuv420p`, '-frames:v', String(totalFrames)],
      ...['-f', 'rawvideo', '-pix_fmt', 'yuv420p', 'pipe:1'],
    ],
    'Cannot decode the source video',
    [input],
  );
  const maxKbps = Math.max(500, Math.round((width * height * fps * 0.17) / 1000));
  const colorTags =
    matrix === 'bt709'
      ? ['-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709']
      : ['-colorspace', 'smpte170m', '-color_primaries', 'smpte170m', '-color_trc', 'smpte170m'];
  const rawInput = ['-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-s', `${width}x${height}`, '-r', String(fps)];
  // The audio is cut at the render's length rather than with -shortest, which would cut the
  // picture when the sound ends early.
  const audio = source.hasAudio
    ? ['-t', String(duration), '-i', input, '-map', '0:v:0', '-map', '1:a:0', '-c:a', 'aac', '-b:a', '128k']
    : ['-map', '0:v:0'];
  const encoder = startProcess(
    FFMPEG,
    [
      ...['-v', 'error', ...rawInput, '-i', 'pipe:0', ...audio],
      ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23'],
      // A bitrate cap keeps grainy footage from costing the encoder more than real time (x264's
      // entropy coding grows with the bits) and is plenty for a proof video: about 4 Mbit/s at 720p25.
      ...['-maxrate', `${maxKbps}k`, '-bufsize', `${2 * maxKbps}k`],
      ...['-pix_fmt', 'yuv420p', '-color_range', 'tv'],
      ...colorTags,
      ...['-movflags', '+faststart', '-f', 'mp4', '-y', partial],
    ],
    'Cannot encode the verification video',
    [input, partial],
  );

  const stop = () => {
    decoder.child.kill('SIGKILL');
    encoder.child.kill('SIGKILL');
    // A pump paused on a full encoder pipe would wait for a 'drain' (and the decoder's output for
    // an 'end') that a killed encoder never gives: closing the decoder's output settles it.
    decoder.child.stdout?.destroy();
  };
  signal?.addEventListener('abort', stop, { once: true });
  try {
    const pumped = pumpFrames(
      decoder,
      encoder,
      new YuvFrame(width, height),
      overlay,
      totalFrames,
      opts.onProgress,
    );
    // The first failure stops the other side (so nothing hangs on a dead pipe) and is the one
    // reported: later ones are only its consequences.
    let firstError: unknown;
    const watch = <T>(p: Promise<T>) =>
      p.catch((err: unknown) => {
        firstError ??= err;
        stop();
        throw err;
      });
    const settled = await Promise.allSettled([watch(decoder.done), watch(pumped), watch(encoder.done)]);
    if (settled.some((r) => r.status === 'rejected')) throw firstError;
    if ((await pumped) === 0) throw new Error('Cannot decode the source video: it has no frames to render');
    signal?.throwIfAborted();
    await rename(partial, output);
    opts.onProgress?.(1);
  } catch (err) {
    stop();
    await rm(partial, { force: true });
    if (signal?.aborted) throw signal.reason;
    throw err;
  } finally {
    signal?.removeEventListener('abort', stop);
  }
}

/** Cuts the decoder's byte stream into frames, draws on each and feeds the encoder, with back-pressure. */
function pumpFrames(
  decoder: RunningProcess,
  encoder: RunningProcess,
  frame: YuvFrame,
  overlay: DetectionOverlay,
  totalFrames: number,
  onProgress?: (fraction: number) => void,
): Promise<number> {
  const frameBytes = frame.byteLength;
  const from = decoder.child.stdout!;
  const to = encoder.child.stdin!;
  return new Promise<number>((resolve, reject) => {
    let pieces: Buffer[] = [];
    let buffered = 0;
    let index = 0;
    let reported = 0;
    let waiting = false;
    // EPIPE when the encoder died; its exit status carries the real reason.
    to.on('error', () => undefined);
    from.on('data', (chunk: Buffer) => {
      pieces.push(chunk);
      buffered += chunk.length;
      while (buffered >= frameBytes) {
        const data = Buffer.allocUnsafe(frameBytes);
        let filled = 0;
        while (filled < frameBytes) {
          const piece = pieces[0];
          const n = Math.min(piece.length, frameBytes - filled);
          piece.copy(data, filled, 0, n);
          filled += n;
          if (n === piece.length) pieces.shift();
          else pieces[0] = piece.subarray(n);
        }
        buffered -= frameBytes;
        frame.data = data;
        try {
          overlay.draw(frame, index);
        } catch (err) {
          reject(err);
          return;
        }
        index++;
        if (!to.write(data) && !waiting) {
          waiting = true;
          from.pause();
          to.once('drain', () => {
            waiting = false;
            from.resume();
          });
        }
        const fraction = Math.min(1, index / totalFrames);
        if (onProgress && fraction - reported >= 0.01) {
          reported = fraction;
          onProgress(fraction);
        }
      }
    });
    from.once('end', () => {
      pieces = [];
      to.end();
      resolve(index);
    });
    // closed without an end: the render was stopped (see stop), whose reason is reported
    from.once('close', () => resolve(index));
    from.once('error', reject);
  });
}
