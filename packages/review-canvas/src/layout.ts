import { TABLE_HEIGHT_OFFSETS } from './constants.ts';

/** Displayed video size and the display scale (display px per video px). */
export interface FittedVideo {
  width: number;
  height: number;
  scale: number;
}

/**
 * Spec section 2: the video's width fits the container, capped at the native width, with the height in
 * proportion. The scale is what pointer coordinates are divided by to get video pixels.
 */
export function fitVideo(containerWidth: number, nativeWidth: number, nativeHeight: number): FittedVideo {
  if (!(nativeWidth > 0) || !(nativeHeight > 0) || !(containerWidth > 0))
    return { width: 0, height: 0, scale: 1 };
  const width = Math.min(containerWidth, nativeWidth);
  const scale = width / nativeWidth;
  return { width, height: nativeHeight * scale, scale };
}

/** Spec section 9: the Detections table is the video height minus 52 minus 16. */
export function detectionTableHeight(videoHeight: number): number {
  return Math.max(0, videoHeight - TABLE_HEIGHT_OFFSETS[0] - TABLE_HEIGHT_OFFSETS[1]);
}

const MIME_BY_EXT: Record<string, string> = {
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  ogv: 'video/ogg',
  ogg: 'video/ogg',
  mkv: 'video/x-matroska',
  avi: 'video/x-msvideo',
  ts: 'video/mp2t',
};

/** The `<source type>` for a video file name (spec: "a type derived from the file name"). Query strings are ignored. */
export function videoMimeType(fileName: string): string {
  const clean = fileName.split(/[?#]/)[0];
  const dot = clean.lastIndexOf('.');
  const ext = dot >= 0 ? clean.slice(dot + 1).toLowerCase() : '';
  return MIME_BY_EXT[ext] ?? (ext ? `video/${ext}` : 'video/mp4');
}

/** Brands for the Set Brand menu: alphabetical by localized_name, falling back to name (spec section 2). */
export function sortBrandsForMenu<B extends { name: string; localized_name?: string | null }>(
  brands: readonly B[],
): B[] {
  const label = (b: B) => (b.localized_name && b.localized_name.trim() !== '' ? b.localized_name : b.name);
  return brands.slice().sort((a, b) => label(a).localeCompare(label(b), undefined, { sensitivity: 'base' }));
}
