import { execFile } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadLogo } from '../src/image-io.ts';
import { compositeLogo } from '../src/synth.ts';
import { background, maxCornerError, tempDir, texturedLogoSvg, writePng, writeSvg } from './fixtures.ts';

const run = promisify(execFile);
const CLI = resolve(import.meta.dirname, '../src/cli.ts');

function cli(args: string[]) {
  return run(process.execPath, ['--import', 'tsx', CLI, ...args], {
    cwd: resolve(import.meta.dirname, '../../..'),
  });
}

describe('engine CLI', () => {
  it('detects brands in a folder of images and writes the documented JSON', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'brands/Acme Corp'), { recursive: true });
    await mkdir(join(dir, 'brands/Other'), { recursive: true });
    const acme = await writeSvg(join(dir, 'brands/Acme Corp'), 'logo.svg', texturedLogoSvg(11));
    await writeSvg(join(dir, 'brands/Other'), 'other.svg', texturedLogoSvg(12));
    await mkdir(join(dir, 'input/sub'), { recursive: true });
    const quad = [200, 120, 420, 140, 410, 260, 196, 250];
    const bg = await background(5, 640, 400);
    await compositeLogo(bg, await loadLogo(acme, 400), quad);
    await writePng(join(dir, 'input/sub/with-logo.png'), bg);
    await writePng(join(dir, 'input/empty.png'), await background(6, 640, 400));
    const out = join(dir, 'out.json');
    const { stderr } = await cli([
      'detect',
      '--brands',
      join(dir, 'brands'),
      '--input',
      join(dir, 'input'),
      '--out',
      out,
    ]);
    expect(stderr).toMatch(/100%/);
    const json = JSON.parse(await readFile(out, 'utf8'));
    expect(typeof json.seconds).toBe('number');
    expect(json.inputs.map((i: { file: string }) => i.file)).toEqual([
      'empty.png',
      join('sub', 'with-logo.png'),
    ]);
    expect(json.inputs[0]).toEqual({
      file: 'empty.png',
      width: 640,
      height: 400,
      fps: null,
      frames: 1,
      detections: [],
    });
    const [d] = json.inputs[1].detections;
    expect(json.inputs[1].detections).toHaveLength(1);
    expect(Object.keys(d).sort()).toEqual(['brand', 'confidence', 'coordinates', 'time_begin', 'time_end']);
    expect(d).toMatchObject({ brand: 'Acme Corp', time_begin: 0, time_end: 0 });
    expect(d.coordinates).toHaveLength(1);
    expect(Object.keys(d.coordinates[0]).sort()).toEqual(['end_time', 'points', 'start_time']);
    expect(maxCornerError(d.coordinates[0].points, quad)).toBeLessThanOrEqual(3);
  });

  it('exits non-zero with a clear message on bad arguments', async () => {
    await expect(
      cli(['detect', '--brands', '/nonexistent-brands', '--input', '/tmp', '--out', '/tmp/x.json']),
    ).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--brands \/nonexistent-brands is not a folder/),
    });
    await expect(cli(['detect', '--input', '/tmp'])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--brands is required/),
    });
    await expect(cli(['frobnicate'])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/unknown command/),
    });
  });
});
