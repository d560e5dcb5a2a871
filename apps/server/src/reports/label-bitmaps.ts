import sharp from 'sharp';
import { parseHex, rgbaToYuva, type ColorMatrix, type YuvaBitmap } from './yuv-frame.ts';

/** DejaVu ships with Debian's fonts-dejavu-core; the file path avoids depending on fontconfig names. */
const SANS_BOLD = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';
const MONO = 'DejaVu Sans Mono';

/** Escapes text for Pango markup and SVG alike. */
function escapeMarkup(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Black or white, whichever reads better on the background. */
function textColorOn(hex: string): string {
  const [r, g, b] = parseHex(hex);
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? '#000000' : '#ffffff';
}

/**
 * A brand label: the name on a box of the detection's colour, `fontPx` high text, even width and
 * height so that it lines up with the frame's 2x2 chroma blocks. Rendered once per brand and colour.
 */
export async function renderLabel(
  text: string,
  backgroundHex: string,
  fontPx: number,
  matrix: ColorMatrix,
): Promise<YuvaBitmap> {
  const [r, g, b] = parseHex(backgroundHex);
  const background = { r, g, b, alpha: 1 };
  const boxHeight = even(Math.round(fontPx * 1.5));
  const pad = even(Math.max(2, Math.round(fontPx * 0.35)));
  const label = text.trim() === '' ? '?' : text;
  const { data, info } = await sharp({
    text: {
      text: `<span foreground="${textColorOn(backgroundHex)}">${escapeMarkup(label)}</span>`,
      font: 'DejaVu Sans Bold 12',
      fontfile: SANS_BOLD,
      // Pango sizes are points: 12 pt at this dpi is fontPx pixels.
      dpi: Math.round((72 * fontPx) / 12),
      rgba: true,
    },
  })
    .png()
    .toBuffer({ resolveWithObject: true });
  const width = even(Math.min(info.width + 2 * pad, 2000));
  const raw = await sharp({ create: { width, height: boxHeight, channels: 4, background } })
    .composite([
      {
        input: data,
        left: pad,
        top: Math.max(0, Math.floor((boxHeight - info.height) / 2)),
      },
    ])
    .raw()
    .toBuffer();
  return rgbaToYuva(raw, width, boxHeight, matrix);
}

/** Fixed-size cells of white monospace characters on a translucent black box, for the timecode. */
export interface GlyphSet {
  cellWidth: number;
  cellHeight: number;
  glyphs: Map<string, YuvaBitmap>;
}

export async function renderGlyphs(chars: string, fontPx: number, matrix: ColorMatrix): Promise<GlyphSet> {
  // DejaVu Sans Mono advances 0.602 em per character; even cells keep chroma blocks aligned.
  const cellWidth = even(Math.ceil(fontPx * 0.61));
  const cellHeight = even(Math.round(fontPx * 1.4));
  const glyphs = new Map<string, YuvaBitmap>();
  for (const ch of new Set(chars)) {
    const svg =
      `<svg xmlns="http://www.w3.org/2000/svg" width="${cellWidth}" height="${cellHeight}">` +
      `<rect width="${cellWidth}" height="${cellHeight}" fill="#000000" fill-opacity="0.6"/>` +
      `<text x="${cellWidth / 2}" y="${Math.round(cellHeight * 0.75)}" text-anchor="middle" ` +
      `font-family="${MONO}" font-size="${fontPx}" fill="#ffffff">${escapeMarkup(ch)}</text></svg>`;
    const raw = await sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer();
    glyphs.set(ch, rgbaToYuva(raw, cellWidth, cellHeight, matrix));
  }
  return { cellWidth, cellHeight, glyphs };
}

function even(n: number): number {
  return n + (n & 1);
}
