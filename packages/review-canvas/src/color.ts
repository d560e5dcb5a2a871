const cache = new Map<string, string>();

function parseHex(color: string): [number, number, number] | null {
  let hex = color.trim();
  if (hex.startsWith('#')) hex = hex.slice(1);
  if (hex.length === 3) hex = hex[0] + hex[0] + hex[1] + hex[1] + hex[2] + hex[2];
  if (!/^[0-9a-fA-F]{6}$/.test(hex)) return null;
  const n = parseInt(hex, 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/**
 * Brightens a hex colour by `percent` (spec: selected detections are brightened by 40%). Each channel gains
 * `percent`% of 255 (the tinycolor `brighten` rule). Chosen over scaling HSL lightness so that black, the default
 * colour of a new placement, still visibly changes. Results are cached: the renderer calls this every frame.
 * Unparseable colours are returned unchanged.
 */
export function brighten(color: string, percent: number): string {
  const key = `${color}|${percent}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const rgb = parseHex(color);
  let out = color;
  if (rgb) {
    const add = Math.round((255 * percent) / 100);
    out =
      '#' +
      rgb
        .map((c) =>
          Math.max(0, Math.min(255, c + add))
            .toString(16)
            .padStart(2, '0'),
        )
        .join('');
  }
  cache.set(key, out);
  return out;
}
