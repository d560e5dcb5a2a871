import { createHash } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';

const RASTER = new Map([
  ['image/png', '.png'],
  ['image/jpeg', '.jpg'],
  ['image/webp', '.webp'],
  ['image/gif', '.gif'],
  ['image/bmp', '.bmp'],
  ['image/tiff', '.tif'],
]);

export interface CheckedImage {
  mime: string;
  ext: string;
  width: number;
  height: number;
  sha256: string;
}

function looksLikeSvg(buf: Buffer): boolean {
  const head = buf
    .subarray(0, 2048)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  return /^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(head);
}

/**
 * Checks by content (magic bytes, then a real decode) that the bytes are an image; the file name
 * and the declared content type are not trusted. Throws a message naming the file.
 */
export async function checkImage(buf: Buffer, fileName: string): Promise<CheckedImage> {
  const type = await fileTypeFromBuffer(buf);
  let mime: string;
  let ext: string;
  if (type && RASTER.has(type.mime)) {
    mime = type.mime;
    ext = RASTER.get(type.mime)!;
  } else if ((!type || type.mime === 'application/xml') && looksLikeSvg(buf)) {
    mime = 'image/svg+xml';
    ext = '.svg';
  } else {
    throw new Error(`${fileName}: is not an image (PNG, JPEG, WebP, GIF, BMP, TIFF or SVG).`);
  }
  try {
    const meta = await sharp(buf, { limitInputPixels: 100_000_000 }).metadata();
    if (!meta.width || !meta.height) throw new Error('no size');
    return {
      mime,
      ext,
      width: meta.width,
      height: meta.height,
      sha256: createHash('sha256').update(buf).digest('hex'),
    };
  } catch {
    throw new Error(`${fileName}: the image cannot be decoded.`);
  }
}

/** A file name that is safe to show and to put in a URL path segment or a header. */
export function displayFileName(name: string, fallback = 'file'): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = base
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
    .replace(/[\u0000-\u001f\u007f"<>|:*?]/g, '')
    .replace(/^\.+/, '')
    .trim()
    .slice(0, 200);
  return clean || fallback;
}
