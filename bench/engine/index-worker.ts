/**
 * Builds and stores the brand indexes of a logo list with this tree's engine (bench/engine/versus.ts
 * runs it in each version's tree): `node --import tsx index-worker.ts <logos.json> <out dir>`.
 * Prints one JSON line.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildBrandIndex, serializeBrandIndex } from '../../packages/engine/src/index.ts';

const [list, out] = process.argv.slice(2);
const logos = JSON.parse(await readFile(list, 'utf8')) as { name: string; file: string }[];
await mkdir(out, { recursive: true });
const t0 = performance.now();
for (const l of logos) {
  const b = await buildBrandIndex({ id: l.name, name: l.name, examples: [{ id: l.name, file: l.file }] });
  await writeFile(join(out, `${l.name}.bin`), serializeBrandIndex(b));
}
process.stdout.write(`${JSON.stringify({ msPerBrand: (performance.now() - t0) / logos.length })}\n`);
