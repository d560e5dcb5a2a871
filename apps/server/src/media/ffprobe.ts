import { probeVideo as engineProbe, type VideoInfo } from '@logo-review/engine';

/**
 * Probes an uploaded file with ffprobe (through the engine) and turns a failure into a sentence
 * a person understands, without the server's file path.
 */
export async function probeUpload(file: string): Promise<VideoInfo> {
  try {
    return await engineProbe(file);
  } catch (err) {
    const msg = (err as Error).message;
    const reason = (/\(([^)]*)\)\s*$/.exec(msg)?.[1] ?? msg)
      .replaceAll(`${file}: `, '')
      .replaceAll(file, '')
      .trim();
    if (msg.startsWith('not a readable video'))
      throw new Error(`The file is not a video that can be read (${reason}).`);
    throw new Error(`The file is not a video (${reason}).`);
  }
}
