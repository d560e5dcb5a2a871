"""Proposes tight boxes for the adidas-puma photos of the real set (bench/engine/real-set).

The Roboflow export's YOLO boxes leave a margin of 10-40 % round each mark, where the set's
convention (real-set/README.md) is a quad tight round the logo. For each instance this cuts the
photo inside its box at Otsu's threshold, takes the tone that touches the box's border less as
the mark, and proposes the bounding box of its regions (small specks dropped), grown by 1 px.
It writes proposals and a contact sheet (truth in green, proposal in red) to check by eye; a
proposal is applied to truth.json only with --apply, and only for the instances listed on the
command line after it (file stems), once each was looked at.

  /usr/bin/python3 tools/real-set/tighten.py            # proposals + /tmp/tighten.png
  /usr/bin/python3 tools/real-set/tighten.py --apply img_a_24 img_a_2 ...
"""
import json, sys
from pathlib import Path
import numpy as np
from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / 'shared' / 'data'
TRUTH = ROOT / 'bench/engine/real-set/truth.json'


def otsu(v):
    hist = np.bincount(v.ravel(), minlength=256).astype(float)
    n = hist.sum(); tot = (np.arange(256) * hist).sum()
    wb = sb = 0.0; best = 0; t = 128
    for i in range(256):
        wb += hist[i]
        if wb == 0 or wb == n: continue
        sb += i * hist[i]
        mb = sb / wb; mf = (tot - sb) / (n - wb)
        b = wb * (n - wb) * (mb - mf) ** 2
        if b > best: best, t = b, i
    return t


def regions(mask):
    h, w = mask.shape; lab = np.zeros((h, w), int); out = []
    for y in range(h):
        for x in range(w):
            if mask[y, x] and not lab[y, x]:
                k = len(out) + 1; st = [(y, x)]; lab[y, x] = k; pts = []
                while st:
                    cy, cx = st.pop(); pts.append((cy, cx))
                    for ny, nx in ((cy - 1, cx), (cy + 1, cx), (cy, cx - 1), (cy, cx + 1)):
                        if 0 <= ny < h and 0 <= nx < w and mask[ny, nx] and not lab[ny, nx]:
                            lab[ny, nx] = k; st.append((ny, nx))
                out.append(np.array(pts))
    return out


def propose(img, q):
    x0, y0, x1, y1 = int(q[0]), int(q[1]), int(np.ceil(q[4])), int(np.ceil(q[5]))
    g = np.asarray(img.convert('L').crop((x0, y0, x1, y1)), dtype=np.uint8)
    t = otsu(g); dark = g <= t
    border = np.concatenate([dark[0], dark[-1], dark[:, 0], dark[:, -1]])
    fg = dark if border.mean() < 0.5 else ~dark
    rs = [r for r in regions(fg) if len(r) >= 0.03 * fg.sum()]
    # drop regions that touch the box's border: background that Otsu put on the mark's side
    rs = [r for r in rs if r[:, 0].min() > 0 and r[:, 1].min() > 0 and r[:, 0].max() < fg.shape[0] - 1 and r[:, 1].max() < fg.shape[1] - 1] or rs
    pts = np.concatenate(rs)
    ty0, tx0 = pts.min(0); ty1, tx1 = pts.max(0)
    return [x0 + tx0 - 1, y0 + ty0 - 1, x0 + tx1 + 2, y0 + ty0 - 1, x0 + tx1 + 2, y0 + ty1 + 2, x0 + tx0 - 1, y0 + ty1 + 2]


def main():
    truth = json.loads(TRUTH.read_text())
    apply = '--apply' in sys.argv
    chosen = set(sys.argv[sys.argv.index('--apply') + 1:]) if apply else set()
    tiles = []
    for f in truth['frames']:
        if f['source'] != 'adidas-puma': continue
        img = Image.open(SHARED / f['file']).convert('RGB')
        stem = Path(f['file']).name.split('_jpg')[0]
        for inst in f['instances']:
            p = [float(round(float(v), 1)) for v in propose(img, inst['quad'])]
            print(stem, inst['brand'], inst['quad'], '->', p)
            if apply and stem in chosen: inst['quad'] = p
            x0, y0 = max(0, inst['quad'][0] - 30), max(0, inst['quad'][1] - 30)
            crop = img.crop((x0, y0, x0 + 160, y0 + 160)).resize((320, 320), Image.NEAREST)
            d = ImageDraw.Draw(crop)
            for quad, col in ((inst['quad'], 'lime'), (p, 'red')):
                d.polygon([((quad[i] - x0) * 2, (quad[i + 1] - y0) * 2) for i in range(0, 8, 2)], outline=col)
            d.text((4, 4), stem, fill='yellow')
            tiles.append(crop)
    sheet = Image.new('RGB', (320 * 5, 320 * ((len(tiles) + 4) // 5)))
    for i, t in enumerate(tiles): sheet.paste(t, ((i % 5) * 320, (i // 5) * 320))
    sheet.save('/tmp/tighten.png')
    if apply: TRUTH.write_text(json.dumps(truth, indent=1) + '\n')


main()
