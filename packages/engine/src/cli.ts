/**
 * Command line of the engine:
 * `npm run engine -- detect --brands <dir> --input <video | image | folder of images> --out <file.json>`
 */
import { readdir, stat, writeFile } from 'node:fs/promises';
import { basename, extname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildBrandIndex, type BrandIndex } from './brand-index.ts';
import { analyzeImage, analyzeVideo, type MediaAnalysis } from './analyze.ts';
import { IMAGE_EXTENSIONS, isImageFile } from './image-io.ts';
import { ProgressBar } from './progress-bar.ts';

const USAGE = `usage: npm run engine -- detect --brands <dir> --input <video | image | folder of images> --out <file.json>
  --brands   folder with one sub-folder per brand (its name is the brand name) holding example logos (png, jpg, jpeg, svg)
  --input    a video file, an image file, or a folder of images
  --out      where to write the JSON result
  --sample-fps <n>       frames analysed per second of video (optional)
  --analysis-height <n>  analysis height in pixels (optional)`;

class UsageError extends Error {}

const LOGO_EXTENSIONS = ['.png', '.jpg', '.jpeg', '.svg', '.webp'];

async function loadBrands(dir: string): Promise<BrandIndex[]> {
  const st = await stat(dir).catch(() => null);
  if (!st?.isDirectory()) throw new UsageError(`--brands ${dir} is not a folder`);
  const names = (await readdir(dir, { withFileTypes: true }))
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  const brands: { name: string; files: string[] }[] = [];
  for (const name of names) {
    const files = (await readdir(join(dir, name)))
      .filter((f) => LOGO_EXTENSIONS.includes(extname(f).toLowerCase()))
      .sort()
      .map((f) => join(dir, name, f));
    if (files.length === 0) process.stderr.write(`warning: brand '${name}' has no example logos, skipped\n`);
    else brands.push({ name, files });
  }
  if (brands.length === 0) throw new UsageError(`--brands ${dir} holds no brand folder with example logos`);
  const bar = new ProgressBar(`indexing ${brands.length} brands`);
  const out: BrandIndex[] = [];
  for (const [i, b] of brands.entries()) {
    out.push(
      await buildBrandIndex({
        id: b.name,
        name: b.name,
        examples: b.files.map((f) => ({ id: basename(f), file: f })),
      }),
    );
    bar.update((i + 1) / brands.length);
  }
  bar.done();
  return out;
}

async function listInputs(input: string): Promise<{ file: string; name: string; image: boolean }[]> {
  const st = await stat(input).catch(() => null);
  if (!st) throw new UsageError(`--input ${input} does not exist`);
  if (st.isDirectory()) {
    const files = (await readdir(input, { recursive: true }))
      .map(String)
      .filter((f) => isImageFile(f))
      .sort();
    if (files.length === 0)
      throw new UsageError(`--input folder ${input} holds no images (${IMAGE_EXTENSIONS.join(', ')})`);
    return files.map((f) => ({ file: join(input, f), name: relative(input, join(input, f)), image: true }));
  }
  return [{ file: input, name: basename(input), image: isImageFile(input) }];
}

interface OutputDetection {
  brand: string;
  confidence: number;
  time_begin: number;
  time_end: number;
  coordinates: { start_time: number; end_time: number; points: number[] }[];
}

function toOutput(name: string, a: MediaAnalysis, brands: BrandIndex[]) {
  const nameOf = new Map(brands.map((b) => [b.brandId, b.name ?? String(b.brandId)]));
  return {
    file: name,
    width: a.width,
    height: a.height,
    fps: a.fps,
    frames: a.frames,
    detections: a.detections.map((d): OutputDetection => ({
      brand: nameOf.get(d.brandId) ?? String(d.brandId),
      confidence: d.confidence,
      time_begin: d.time_begin,
      time_end: d.time_end,
      coordinates: d.coordinates,
    })),
  };
}

function positive(v: string | undefined, flag: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!(n > 0)) throw new UsageError(`${flag} must be a positive number, got '${v}'`);
  return n;
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h') {
    process.stdout.write(`${USAGE}\n`);
    if (command === undefined) process.exitCode = 2;
    return;
  }
  if (command !== 'detect') throw new UsageError(`unknown command '${command}'`);
  let values;
  try {
    ({ values } = parseArgs({
      args: rest,
      options: {
        brands: { type: 'string' },
        input: { type: 'string' },
        out: { type: 'string' },
        'sample-fps': { type: 'string' },
        'analysis-height': { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  for (const k of ['brands', 'input', 'out'] as const)
    if (!values[k]) throw new UsageError(`--${k} is required`);
  const sampleFps = positive(values['sample-fps'], '--sample-fps');
  const analysisHeight = positive(values['analysis-height'], '--analysis-height');
  const t0 = performance.now();
  const inputs = await listInputs(resolve(values.input!));
  const brands = await loadBrands(resolve(values.brands!));
  const results = [];
  const bar = new ProgressBar('analysing');
  for (const [i, inp] of inputs.entries()) {
    bar.setLabel(`analysing ${inp.name}${inputs.length > 1 ? ` (${i + 1}/${inputs.length})` : ''}`);
    const analysis = inp.image
      ? await analyzeImage(inp.file, brands)
      : await analyzeVideo(inp.file, brands, { sampleFps, analysisHeight, onProgress: (f) => bar.update(f) });
    bar.update(1);
    results.push(toOutput(inp.name, analysis, brands));
  }
  bar.done();
  const seconds = Math.round((performance.now() - t0) / 10) / 100;
  await writeFile(resolve(values.out!), `${JSON.stringify({ inputs: results, seconds }, null, 2)}\n`);
  const n = results.reduce((s, r) => s + r.detections.length, 0);
  process.stderr.write(`${n} detection(s) in ${results.length} input(s), ${seconds} s -> ${values.out}\n`);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError) {
    process.stderr.write(`error: ${err.message}\n\n${USAGE}\n`);
    process.exitCode = 2;
  } else {
    process.stderr.write(`error: ${(err as Error).message ?? String(err)}\n`);
    process.exitCode = 1;
  }
});
