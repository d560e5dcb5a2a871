"""Trains the learned appearance route's model and exports it as ONNX (recipe: README.md).

A small fully convolutional network maps a grey image to unit-length 32-d features every 8 px.
A brand example, fitted into a 64x64 canvas, gives an 8x8 template of those features (the cells
its logo covers); the template's mean cosine with the frame's features at each place, calibrated
by a learned scale and bias, is the chance that the example's logo stands there (SiamFC-style
matching, trained for invariance to contrast polarity, blur, noise, perspective and clutter).

Training pairs are synthesised on the fly: simple-icons marks and random words (DejaVu fonts),
composited onto frames of the footage that no benchmark scores, with distractor marks and words
around the target. Brands of the real sets are excluded (excluded.ts).

    /usr/bin/python3 tools/learned-route/train.py --steps 2500 --out packages/engine/models
"""

import argparse
import glob
import json
import math
import os
import random
import string
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from PIL import Image, ImageDraw, ImageFilter, ImageFont

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "../.."))
CACHE = os.path.join(ROOT, ".cache/learned")
FONTS = sorted(glob.glob("/usr/share/fonts/truetype/dejavu/DejaVu*.ttf"))
CANVAS = 64  # example canvas (px); template = CANVAS / STRIDE cells a side
STRIDE = 8
SEARCH = 128
DIM = 32


def conv(cin, cout, stride=1):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)
    )


class Embed(nn.Module):
    """Grey image (N,1,H,W) in 0..1 -> unit features (N,DIM,H/8,W/8)."""

    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            conv(1, 16, 2), conv(16, 24), conv(24, 32, 2), conv(32, 48), conv(48, 64, 2), conv(64, 64),
            nn.Conv2d(64, DIM, 1),
        )

    def forward(self, x):
        return F.normalize(self.body(x * 2 - 1), dim=1)


class Correlate(nn.Module):
    """features (1,DIM,H,W), templates (T,DIM,8,8) already divided by their cell count -> P(logo)."""

    def __init__(self, scale, bias):
        super().__init__()
        self.register_buffer("scale", torch.tensor(float(scale)))
        self.register_buffer("bias", torch.tensor(float(bias)))

    def forward(self, feats, templates):
        return torch.sigmoid(F.conv2d(feats, templates) * self.scale + self.bias)


# ---------------------------------------------------------------- synthesis


def load_masks():
    masks = []
    for f in sorted(glob.glob(os.path.join(CACHE, "icons/*.png"))):
        m = np.asarray(Image.open(f).convert("L"), dtype=np.float32) / 255
        ys, xs = np.nonzero(m > 0.5)
        if len(xs) < 30:
            continue
        m = m[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
        masks.append(m)
    return masks


def word_mask(rng):
    n = rng.randint(2, 9)
    letters = string.ascii_uppercase if rng.random() < 0.6 else string.ascii_letters
    text = "".join(rng.choice(letters + "0123456789" * (rng.random() < 0.2)) for _ in range(n))
    font = ImageFont.truetype(rng.choice(FONTS), 48)
    box = font.getbbox(text)
    im = Image.new("L", (box[2] + 8, box[3] + 8), 0)
    ImageDraw.Draw(im).text((4 - box[0], 4 - box[1]), text, fill=255, font=font)
    m = np.asarray(im, dtype=np.float32) / 255
    ys, xs = np.nonzero(m > 0.5)
    return m[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


class Source:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.masks = load_masks()
        self.bgs = [Image.open(f).convert("L") for f in sorted(glob.glob(os.path.join(CACHE, "bg/*.png")))]
        print(f"{len(self.masks)} marks, {len(self.bgs)} backgrounds, {len(FONTS)} fonts", flush=True)

    def logo(self):
        r = self.rng
        return word_mask(r) if r.random() < 0.35 else r.choice(self.masks)

    def background(self, w, h):
        r = self.rng
        bg = r.choice(self.bgs)
        s = r.uniform(0.5, 1.5)
        bw, bh = max(w, int(bg.width * s)), max(h, int(bg.height * s))
        bg = bg.resize((bw, bh), Image.BILINEAR)
        x, y = r.randint(0, bw - w), r.randint(0, bh - h)
        img = np.asarray(bg.crop((x, y, x + w, y + h)), dtype=np.float32) / 255
        if r.random() < 0.3:
            img = 1 - img
        return img

    def paint(self, mask, w, h):
        """The logo as (grey image, alpha) at w x h: a fill on an optional plate, random polarity."""
        r = self.rng
        m = np.asarray(Image.fromarray((mask * 255).astype(np.uint8)).resize((w, h), Image.BILINEAR), np.float32) / 255
        fg = r.uniform(0, 1)
        plate = r.random() < 0.6
        bgv = fg + r.choice([-1, 1]) * r.uniform(0.25, 0.8)
        bgv = min(1, max(0, bgv))
        if abs(bgv - fg) < 0.2:
            bgv = 1 - fg
        img = m * fg + (1 - m) * bgv
        alpha = np.ones_like(m) if plate else np.clip(m * 1.5, 0, 1)
        return img, alpha

    def degrade(self, img, strength):
        r = self.rng
        pil = Image.fromarray((np.clip(img, 0, 1) * 255).astype(np.uint8))
        if r.random() < 0.6 * strength:
            pil = pil.filter(ImageFilter.GaussianBlur(r.uniform(0.3, 1.6)))
        if r.random() < 0.4 * strength:
            f = r.uniform(0.35, 0.8)
            w, h = pil.size
            pil = pil.resize((max(8, int(w * f)), max(8, int(h * f))), Image.BILINEAR).resize((w, h), Image.BILINEAR)
        out = np.asarray(pil, np.float32) / 255
        if r.random() < 0.5 * strength:
            out = out + np.random.default_rng(r.randrange(1 << 30)).normal(0, r.uniform(0.01, 0.06), out.shape)
        gain, off = r.uniform(0.6, 1.2), r.uniform(-0.2, 0.2)
        return np.clip(out * gain + off, 0, 1).astype(np.float32)

    def warp(self, img, alpha):
        """A mild perspective and rotation of a painted logo; returns the warped pair and its box."""
        r = self.rng
        h, w = img.shape
        pad = int(max(w, h) * 0.3) + 2
        W, H = w + 2 * pad, h + 2 * pad
        src = [(pad, pad), (pad + w, pad), (pad + w, pad + h), (pad, pad + h)]
        ang = math.radians(r.uniform(-12, 12))
        cx, cy = W / 2, H / 2
        dst = []
        for x, y in src:
            x2 = cx + (x - cx) * math.cos(ang) - (y - cy) * math.sin(ang)
            y2 = cy + (x - cx) * math.sin(ang) + (y - cy) * math.cos(ang)
            dst.append((x2 + r.uniform(-0.08, 0.08) * w, y2 + r.uniform(-0.08, 0.08) * h))
        coeffs = perspective_coeffs(dst, src)
        big_i = np.zeros((H, W), np.float32)
        big_a = np.zeros((H, W), np.float32)
        big_i[pad : pad + h, pad : pad + w] = img
        big_a[pad : pad + h, pad : pad + w] = alpha
        wi = np.asarray(Image.fromarray(big_i, "F").transform((W, H), Image.PERSPECTIVE, coeffs, Image.BILINEAR))
        wa = np.asarray(Image.fromarray(big_a, "F").transform((W, H), Image.PERSPECTIVE, coeffs, Image.BILINEAR))
        xs = [p[0] for p in dst]
        ys = [p[1] for p in dst]
        return wi, wa, (min(xs), min(ys), max(xs), max(ys))

    def example(self, mask):
        """What a user crops: the logo on some ground, with a little margin, fitted into the canvas."""
        r = self.rng
        ar = mask.shape[1] / mask.shape[0] * r.uniform(0.9, 1.1)
        lw, lh = (CANVAS, max(6, int(CANVAS / ar))) if ar >= 1 else (max(6, int(CANVAS * ar)), CANVAS)
        img, alpha = self.paint(mask, lw, lh)
        m = r.uniform(0, 0.12)
        mw, mh = int(lw * m), int(lh * m)
        ground = self.background(lw + 2 * mw, lh + 2 * mh)
        ground[mh : mh + lh, mw : mw + lw] = img * alpha + ground[mh : mh + lh, mw : mw + lw] * (1 - alpha)
        ground = self.degrade(ground, 0.3)
        return fit_canvas(ground)


def perspective_coeffs(dst, src):
    """PIL's PERSPECTIVE takes the map from output to input: solve it from 4 point pairs."""
    A, b = [], []
    for (x, y), (u, v) in zip(dst, src):
        A.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        A.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        b += [u, v]
    return np.linalg.solve(np.array(A, np.float64), np.array(b, np.float64)).tolist()


def fit_canvas(img):
    """The example fitted into the CANVAS square (long side CANVAS), grey 0.5 around it; and the cell mask."""
    h, w = img.shape
    s = CANVAS / max(h, w)
    nw, nh = max(1, round(w * s)), max(1, round(h * s))
    pil = Image.fromarray((np.clip(img, 0, 1) * 255).astype(np.uint8)).resize((nw, nh), Image.BILINEAR)
    canvas = np.full((CANVAS, CANVAS), 0.5, np.float32)
    x0, y0 = (CANVAS - nw) // 2, (CANVAS - nh) // 2
    canvas[y0 : y0 + nh, x0 : x0 + nw] = np.asarray(pil, np.float32) / 255
    return canvas, cell_mask(x0, y0, nw, nh)


def cell_mask(x0, y0, w, h):
    n = CANVAS // STRIDE
    m = np.zeros((n, n), np.float32)
    for i in range(n):
        for j in range(n):
            ox = max(0, min(x0 + w, (j + 1) * STRIDE) - max(x0, j * STRIDE))
            oy = max(0, min(y0 + h, (i + 1) * STRIDE) - max(y0, i * STRIDE))
            m[i, j] = 1.0 if ox * oy >= 0.4 * STRIDE * STRIDE else 0.0
    if m.sum() == 0:
        m[(y0 + h // 2) // STRIDE, (x0 + w // 2) // STRIDE] = 1
    return m


def sample(src):
    """One training pair: example canvas, its cell mask, a search image and its label map."""
    r = src.rng
    mask = src.logo()
    ex, exmask = src.example(mask)
    search = src.background(SEARCH, SEARCH)
    n_out = SEARCH // STRIDE - CANVAS // STRIDE + 1
    label = np.zeros((n_out, n_out), np.float32)
    present = r.random() > 0.15
    placed = []

    def paste(m, scale, where=None):
        ar = m.shape[1] / m.shape[0] * r.uniform(0.88, 1.12)
        long = CANVAS * scale
        lw, lh = (long, long / ar) if ar >= 1 else (long * ar, long)
        lw, lh = max(5, int(lw)), max(5, int(lh))
        img, alpha = src.paint(m, lw, lh)
        wi, wa, box = src.warp(img, alpha)
        H, W = wi.shape
        cx, cy = where if where else (r.uniform(10, SEARCH - 10), r.uniform(10, SEARCH - 10))
        x0, y0 = int(cx - W / 2), int(cy - H / 2)
        for yy in range(max(0, y0), min(SEARCH, y0 + H)):
            row_a = wa[yy - y0, max(0, -x0) : max(0, -x0) + min(SEARCH, x0 + W) - max(0, x0)]
            row_i = wi[yy - y0, max(0, -x0) : max(0, -x0) + len(row_a)]
            sl = slice(max(0, x0), max(0, x0) + len(row_a))
            search[yy, sl] = row_i * row_a + search[yy, sl] * (1 - row_a)
        placed.append((cx, cy, max(lw, lh)))

    if present:
        # the target's centre sits where some output cell's canvas centre is, +-4 px
        i, j = r.randrange(n_out), r.randrange(n_out)
        cx = j * STRIDE + CANVAS / 2 + r.uniform(-4, 4)
        cy = i * STRIDE + CANVAS / 2 + r.uniform(-4, 4)
        paste(mask, r.uniform(0.78, 1.25), (cx, cy))
        for ii in range(n_out):
            for jj in range(n_out):
                d = math.hypot(jj * STRIDE + CANVAS / 2 - cx, ii * STRIDE + CANVAS / 2 - cy)
                if d <= 6:
                    label[ii, jj] = 1
        if label.sum() == 0:
            label[i, j] = 1
    for _ in range(r.randint(1, 3)):
        other = src.logo()
        paste(other, r.uniform(0.5, 1.3))
    if present and r.random() < 0.25:  # partly covered
        cx, cy, s = placed[0]
        x = int(cx + r.uniform(-0.5, 0.5) * s)
        y = int(cy + r.uniform(-0.5, 0.5) * s)
        w = int(s * r.uniform(0.15, 0.35))
        search[max(0, y - w) : y + w, max(0, x - w) : x + w] = r.uniform(0, 1)
    search = src.degrade(search, 1.0)
    return ex, exmask, search, label


def batch(src, n):
    exs, masks, searches, labels = zip(*(sample(src) for _ in range(n)))
    t = lambda a: torch.from_numpy(np.stack(a))
    return t(exs)[:, None], t(masks), t(searches)[:, None], t(labels)


# ---------------------------------------------------------------- training


def templates_of(net, ex, masks):
    f = net(ex) * masks[:, None]
    return f / masks.sum((1, 2)).clamp(min=1)[:, None, None, None]


def scores(net, ex, masks, search):
    tpl = templates_of(net, ex, masks)
    fs = net(search)
    n = fs.shape[0]
    out = F.conv2d(fs.reshape(1, n * DIM, *fs.shape[2:]), tpl, groups=n)
    return out.reshape(n, *out.shape[2:])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=2500)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=os.path.join(ROOT, "packages/engine/models"))
    ap.add_argument("--resume", action="store_true", help="start from .cache/learned/checkpoint.pt")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    src = Source(args.seed)
    net = Embed()
    calib = nn.Parameter(torch.tensor([10.0, -5.0]))
    if args.resume:
        state = torch.load(os.path.join(CACHE, "checkpoint.pt"))
        net.load_state_dict(state["net"])
        calib.data.copy_(state["calib"])
    opt = torch.optim.AdamW(list(net.parameters()) + [calib], lr=2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=args.steps, pct_start=0.1)
    vsrc = Source(999)
    val = [batch(vsrc, args.batch) for _ in range(4)]
    t0 = time.time()
    for step in range(1, args.steps + 1):
        net.train()
        ex, masks, search, label = batch(src, args.batch)
        logit = scores(net, ex, masks, search) * calib[0] + calib[1]
        pos = label.sum().clamp(min=1)
        neg = (1 - label).sum()
        w = label * 0.5 / pos + (1 - label) * 0.5 / neg
        loss = F.binary_cross_entropy_with_logits(logit, label, weight=w, reduction="sum")
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 100 == 0 or step == args.steps:
            net.eval()
            hit = tot = fp = 0
            with torch.no_grad():
                for ex, masks, search, label in val:
                    p = torch.sigmoid(scores(net, ex, masks, search) * calib[0] + calib[1])
                    for k in range(len(p)):
                        peak = p[k].max()
                        at = p[k].flatten().argmax()
                        if label[k].sum() > 0:
                            tot += 1
                            hit += int(peak > 0.5 and label[k].flatten()[at] > 0)
                        else:
                            fp += int(peak > 0.5)
            print(
                f"step {step} loss {loss.item():.4f} val top-1 {hit}/{tot} false-on-absent {fp} "
                f"calib {calib[0].item():.2f} {calib[1].item():.2f} {time.time() - t0:.0f}s",
                flush=True,
            )
            if step % 300 == 0:
                export(net, calib, args.out)  # usable weights at every stage of a long run
    export(net, calib, args.out)


def export(net, calib, out):
    os.makedirs(out, exist_ok=True)
    # the weights before BatchNorm is folded into the convolutions, to go on training from them
    torch.save({"net": net.state_dict(), "calib": calib.detach()}, os.path.join(CACHE, "checkpoint.pt"))
    net.eval()
    dummy = torch.rand(1, 1, 96, 128)
    torch.onnx.export(
        net, dummy, os.path.join(out, "logo-embed.onnx"), input_names=["image"], output_names=["features"],
        dynamic_axes={"image": {2: "h", 3: "w"}, "features": {2: "fh", 3: "fw"}}, opset_version=13,
    )
    corr = Correlate(calib[0].item(), calib[1].item())
    torch.onnx.export(
        corr, (torch.rand(1, DIM, 20, 20), torch.rand(3, DIM, 8, 8)), os.path.join(out, "logo-correlate.onnx"),
        input_names=["features", "templates"], output_names=["scores"],
        dynamic_axes={"features": {2: "fh", 3: "fw"}, "templates": {0: "t"}, "scores": {1: "t", 2: "sh", 3: "sw"}},
        opset_version=13,
    )
    with open(os.path.join(out, "logo-embed.json"), "w") as f:
        json.dump({"canvas": CANVAS, "stride": STRIDE, "dim": DIM, "scale": calib[0].item(), "bias": calib[1].item()}, f)
    print("exported to", out, flush=True)


if __name__ == "__main__":
    main()
