/**
 * How Chromium's software rasterizer pays for the overlay's box outlines (issue 17, item 9): 500 quads of
 * 67 x 33 px, width 3, on a 1280 x 720 canvas, drawn and rasterized (a 1 x 1 `getImageData`) 120 times per
 * way, axis-aligned and with corners moved by up to 3 and 6 px. The ways: a stroked path per quad (what
 * the renderer does), the outline as a filled ring per quad (outer quad and inner quad, both offset by half
 * the width), all rings in one filled path, and `strokeRect` (axis-aligned only). It shows whether a
 * different way of drawing the same outlines would be cheaper to rasterize; it is not a test.
 *
 * Run: node --import tsx bench/editor/stroke-raster.bench.ts
 */
import { launchBrowser } from '../../e2e/support/browser.ts';

// The page's script is plain JavaScript in a string: tsx would add helpers to a function that the page lacks.
const PAGE_SCRIPT = String.raw`(() => {
  const c = document.createElement('canvas');
  c.width = 1280; c.height = 720;
  document.body.append(c);
  const ctx = c.getContext('2d');
  let seed = 1;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const quads = (skew) => Array.from({ length: 500 }, () => {
    const x = rnd() * 1200, y = rnd() * 680, w = 67, h = 33;
    const j = () => (rnd() * 2 - 1) * skew;
    return [x + j(), y + j(), x + w + j(), y + j(), x + w + j(), y + h + j(), x + j(), y + h + j()];
  });
  const W = 3;
  // The quad's edges moved by d along their normals (d < 0 outwards), joined as mitres.
  const offset = (q, d) => {
    let area = 0;
    for (let i = 0; i < 4; i++) { const j = (i + 1) % 4; area += q[2 * i] * q[2 * j + 1] - q[2 * j] * q[2 * i + 1]; }
    const s = area > 0 ? 1 : -1;
    const lines = [];
    for (let i = 0; i < 4; i++) {
      const j = (i + 1) % 4, dx = q[2 * j] - q[2 * i], dy = q[2 * j + 1] - q[2 * i + 1], len = Math.hypot(dx, dy) || 1;
      lines.push([q[2 * i] + (-dy / len) * s * d, q[2 * i + 1] + (dx / len) * s * d, dx, dy]);
    }
    const out = [];
    for (let i = 0; i < 4; i++) {
      const a = lines[(i + 3) % 4], b = lines[i], den = a[2] * b[3] - a[3] * b[2];
      const t = ((b[0] - a[0]) * b[3] - (b[1] - a[1]) * b[2]) / den;
      out.push(a[0] + a[2] * t, a[1] + a[3] * t);
    }
    return out;
  };
  const ring = (q) => {
    const o = offset(q, -W / 2), n = offset(q, W / 2);
    ctx.moveTo(o[0], o[1]); ctx.lineTo(o[2], o[3]); ctx.lineTo(o[4], o[5]); ctx.lineTo(o[6], o[7]); ctx.closePath();
    ctx.moveTo(n[0], n[1]); ctx.lineTo(n[6], n[7]); ctx.lineTo(n[4], n[5]); ctx.lineTo(n[2], n[3]); ctx.closePath();
  };
  const ways = {
    'stroked path per quad': (qs) => {
      ctx.lineWidth = W; ctx.strokeStyle = '#e53935';
      for (const q of qs) {
        ctx.beginPath(); ctx.moveTo(q[0], q[1]); ctx.lineTo(q[2], q[3]); ctx.lineTo(q[4], q[5]); ctx.lineTo(q[6], q[7]);
        ctx.closePath(); ctx.stroke();
      }
    },
    'filled ring per quad': (qs) => { ctx.fillStyle = '#e53935'; for (const q of qs) { ctx.beginPath(); ring(q); ctx.fill(); } },
    'all rings, one fill': (qs) => { ctx.fillStyle = '#e53935'; ctx.beginPath(); for (const q of qs) ring(q); ctx.fill(); },
    'strokeRect': (qs) => { ctx.lineWidth = W; ctx.strokeStyle = '#e53935'; for (const q of qs) ctx.strokeRect(q[0], q[1], q[2] - q[0], q[5] - q[1]); },
  };
  const rows = [];
  for (const skew of [0, 3, 6]) {
    const qs = quads(skew), times = {};
    for (let r = 0; r < 120; r++)
      for (const [name, draw] of Object.entries(ways)) {
        if (name === 'strokeRect' && skew) continue;
        ctx.clearRect(0, 0, 1280, 720);
        const t = performance.now();
        draw(qs);
        ctx.getImageData(0, 0, 1, 1);
        (times[name] ??= []).push(performance.now() - t);
      }
    for (const [name, ts] of Object.entries(times)) {
      ts.sort((a, b) => a - b);
      rows.push({ skew, name, p50: ts[Math.floor(ts.length * 0.5)], p95: ts[Math.floor(ts.length * 0.95)] });
    }
  }
  return rows;
})()`;

const browser = await launchBrowser();
try {
  const page = await browser.newPage();
  const rows = (await page.evaluate(PAGE_SCRIPT)) as {
    skew: number;
    name: string;
    p50: number;
    p95: number;
  }[];
  console.log('500 outlines of 67x33 px, width 3, drawn + rasterized, 120 times each (ms)');
  console.log('corners moved | way                    | p50   | p95');
  for (const r of rows)
    console.log(
      `${`${r.skew} px`.padEnd(13)} | ${r.name.padEnd(22)} | ${r.p50.toFixed(2).padStart(5)} | ${r.p95.toFixed(2)}`,
    );
} finally {
  await browser.close();
}
