/** Draws quads (with labels) onto a frame and writes a PNG, to check detections by eye. */
import sharp from 'sharp';

export interface Drawn {
  q: number[];
  label: string;
  color: string;
}

export async function renderFrame(
  rgb: Uint8Array,
  width: number,
  height: number,
  items: Drawn[],
  file: string,
) {
  const esc = (s: string) => s.replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c]!);
  const shapes = items
    .map(
      (d) =>
        `<polygon points="${d.q.map((v) => v.toFixed(1)).join(' ')}" fill="none" stroke="${d.color}" stroke-width="2"/>` +
        `<text x="${d.q[0].toFixed(0)}" y="${(d.q[1] - 4).toFixed(0)}" font-size="14" font-family="sans-serif" fill="${d.color}" stroke="black" stroke-width="0.6">${esc(d.label)}</text>`,
    )
    .join('');
  const svg = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${shapes}</svg>`,
  );
  await sharp(Buffer.from(rgb), { raw: { width, height, channels: 3 } })
    .composite([{ input: svg, top: 0, left: 0 }])
    .png()
    .toFile(file);
}
