"""Relax programs built the same way with apache-tvm and with tether, and TVM's JSON graph
text of each (tvm.ir.save_json): the record tests/python/test_tvm_schema.py compares
tether's ffi.ToJSONGraphString with, byte for byte, and loads into tether.

Regenerate the record with the Python of a virtualenv that has apache-tvm 0.27.0.post1
(apache-tvm-ffi 0.1.14.post1, under which TVM's save_json works):

    make venv-tvm && .venv-tvm/bin/python tools/tvm_json_cases.py tests/python/data/tvm_json

It writes <case>.json (TVM's save_json text, "metadata" member included) for every case of
CASES.  Each case is a function build(relax, V, np) -> IRModule using only the API the two
share; V(name) makes a symbolic int64 dimension (tirx.Var in TVM, relax.Var in tether).
The test imports this file and builds the cases with tether.
"""
import importlib
import os
import sys

import numpy as np


def _t(relax, shape, dtype="float32"):
    return relax.TensorType(shape, dtype)


def static_add_const(relax, V, np):
    x = relax.Var("x", _t(relax, [2, 3]))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        with bb.dataflow():
            c = relax.const(np.arange(6, dtype="float32").reshape(2, 3))
            y = bb.emit(relax.op.add(x, c))
            z = bb.emit(relax.op.multiply(y, relax.const(2.0, "float32")))
            o = bb.emit_output(z)
        bb.emit_func_output(o)
    return bb.get()


def symbolic_shapes(relax, V, np):
    n, m = V("n"), V("m")
    x = relax.Var("x", _t(relax, [n, m]))
    w = relax.Var("w", _t(relax, [m, 4]))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, w]):
        with bb.dataflow():
            y = bb.emit(relax.op.matmul(x, w))
            s = bb.emit(relax.op.sum(y, axis=[1], keepdims=True))
            r = bb.emit(relax.op.reshape(y, [n * 4]))
            e = bb.emit(relax.op.expand_dims(r, axis=[0]))
            q = bb.emit(relax.op.squeeze(e, axis=None))
            o = bb.emit_output(relax.Tuple([s, q]))
        bb.emit_func_output(o)
    return bb.get()


def match_cast(relax, V, np):
    n = V("n")
    x = relax.Var("x", relax.TensorType(None, "float32", ndim=2))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        y = bb.match_cast(x, _t(relax, [n, 8]))
        z = bb.emit(relax.op.nn.relu(y))
        s = bb.match_cast(relax.ShapeExpr([n, 8]), relax.ShapeType([n, 8]))
        bb.emit_func_output(relax.Tuple([z, s]))
    return bb.get()


def tuples_and_split(relax, V, np):
    x = relax.Var("x", _t(relax, [4, 6]))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        with bb.dataflow():
            parts = bb.emit(relax.op.split(x, 2, axis=1))
            a = bb.emit(relax.TupleGetItem(parts, 0))
            b = bb.emit(relax.TupleGetItem(parts, 1))
            t = bb.emit(relax.Tuple([a, relax.Tuple([b, x])]))
            u = bb.emit(relax.TupleGetItem(relax.TupleGetItem(t, 1), 0))
            o = bb.emit_output(relax.Tuple([u, relax.Tuple([])]))
        bb.emit_func_output(o)
    return bb.get()


def several_functions(relax, V, np):
    bb = relax.BlockBuilder()
    x = relax.Var("x", _t(relax, [3], "int32"))
    with bb.function("helper", [x]):
        bb.emit_func_output(relax.op.negative(x))
    y = relax.Var("y", _t(relax, [3], "int32"))
    with bb.function("main", [y]):
        gv = bb.get().get_global_var("helper")
        r = bb.emit(relax.Call(gv, [y]))
        bb.emit_func_output(relax.op.add(r, y))
    z = relax.Var("z", _t(relax, [2, 2], "float16"))
    with bb.function("third", [z], private=True):
        bb.emit_func_output(relax.op.nn.softmax(z, axis=0))
    return bb.get()


def function_attrs(relax, V, np):
    x = relax.Var("x", _t(relax, [1, 8]))
    bb = relax.BlockBuilder()
    with bb.function("main", [x], attrs={"num_input": 1, "global_symbol": "main",
                                         "note": "a string", "scale": 0.5}):
        bb.emit_func_output(relax.op.nn.relu(x))
    return bb.get()


def concat_take_axes(relax, V, np):
    x = relax.Var("x", _t(relax, [2, 3]))
    i = relax.Var("i", _t(relax, [2], "int64"))
    v = relax.Var("v", _t(relax, [5]))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, i, v]):
        with bb.dataflow():
            a = bb.emit(relax.op.concat([x, x], axis=0))
            b = bb.emit(relax.op.concat([x, x], axis=-1))
            c = bb.emit(relax.op.concat([v, v], axis=None))
            d = bb.emit(relax.op.take(x, i, axis=1))
            e = bb.emit(relax.op.take(v, i, axis=None))
            f = bb.emit(relax.op.take(x, i, axis=0, mode="clip"))
            o = bb.emit_output(relax.Tuple([a, b, c, d, e, f]))
        bb.emit_func_output(o)
    return bb.get()


def conv_net(relax, V, np):
    n = V("n")
    x = relax.Var("x", _t(relax, [n, 3, 16, 16]))
    w = relax.Var("w", _t(relax, [8, 3, 3, 3]))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, w]):
        with bb.dataflow():
            c = bb.emit(relax.op.nn.conv2d(x, w, strides=[1, 1], padding=[1, 1, 1, 1]))
            r = bb.emit(relax.op.nn.relu(c))
            p = bb.emit(relax.op.nn.max_pool2d(r, pool_size=[2, 2], strides=[2, 2]))
            a = bb.emit(relax.op.nn.adaptive_avg_pool2d(p, output_size=[1, 1]))
            f = bb.emit(relax.op.reshape(a, [n, 8]))
            s = bb.emit(relax.op.nn.softmax(f, axis=-1))
            o = bb.emit_output(s)
        bb.emit_func_output(o)
    return bb.get()


def nn_attrs(relax, V, np):
    x1 = relax.Var("x1", _t(relax, [1, 4, 10]))
    w1 = relax.Var("w1", _t(relax, [2, 4, 3]))
    x2 = relax.Var("x2", _t(relax, [1, 4, 5, 5]))
    w2 = relax.Var("w2", _t(relax, [4, 2, 3, 3]))
    g = relax.Var("g", _t(relax, [4]))
    bb = relax.BlockBuilder()
    with bb.function("main", [x1, w1, x2, w2, g]):
        with bb.dataflow():
            a = bb.emit(relax.op.nn.conv1d(x1, w1, padding=[1, 1], out_dtype="float32"))
            b = bb.emit(relax.op.nn.conv2d_transpose(x2, w2, strides=[2, 2]))
            c = bb.emit(relax.op.nn.avg_pool2d(x2, pool_size=[3, 3], padding=[1, 1, 1, 1],
                                               count_include_pad=True))
            bn = bb.emit(relax.op.nn.batch_norm(x2, g, g, g, g, axis=1))
            d = bb.emit(relax.TupleGetItem(bn, 0))
            e = bb.emit(relax.op.nn.layer_norm(x2, g, g, axes=[1], epsilon=1e-3))
            f = bb.emit(relax.op.nn.dropout(x2, rate=0.25))
            h = bb.emit(relax.op.nn.log_softmax(x2, axis=1))
            o = bb.emit_output(relax.Tuple([a, b, c, d, e, f, h]))
        bb.emit_func_output(o)
    return bb.get()


def tensor_attrs(relax, V, np):
    x = relax.Var("x", _t(relax, [2, 3, 4]))
    y = relax.Var("y", _t(relax, [4, 5], "float16"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, y]):
        with bb.dataflow():
            a = bb.emit(relax.op.matmul(x, relax.op.astype(y, "float32"), out_dtype="float32"))
            b = bb.emit(relax.op.permute_dims(x, axes=[2, 0, 1]))
            c = bb.emit(relax.op.permute_dims(x))
            d = bb.emit(relax.op.mean(x, axis=[0, 2]))
            e = bb.emit(relax.op.max(x))
            f = bb.emit(relax.op.strided_slice(x, axes=[1], begin=[0], end=[2],
                                               assume_inbound=True))
            h = bb.emit(relax.op.astype(x, "int8"))
            k = bb.emit(relax.op.split(x, [1, 3], axis=2))
            o = bb.emit_output(relax.Tuple([a, b, c, d, e, f, h, k]))
        bb.emit_func_output(o)
    return bb.get()


def constants(relax, V, np):
    x = relax.Var("x", _t(relax, [2, 2], "int64"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        a = bb.emit(relax.op.add(x, relax.const(np.array([[1, -2], [3, 4]], dtype="int64"), "int64")))
        b = bb.emit(relax.op.add(a, relax.const(7, "int64")))
        c = bb.emit(relax.op.astype(b, "bool"))
        f = bb.emit(relax.op.where(c, relax.const(np.ones((2, 2), "float32")),
                                   relax.const(np.zeros((2, 2), "float32"))))
        bb.emit_func_output(f)
    return bb.get()


def unknown_shapes(relax, V, np):
    x = relax.Var("x", relax.TensorType(None, "float32", ndim=3))
    y = relax.Var("y", relax.TensorType(None, None, ndim=-1))
    s = relax.Var("s", relax.ShapeType(ndim=2))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, y, s]):
        a = bb.emit(relax.op.nn.relu(x))
        b = bb.emit(relax.op.reshape(a, s))
        bb.emit_func_output(relax.Tuple([b, y]))
    return bb.get()


def impure_function(relax, V, np):
    x = relax.Var("x", _t(relax, [4]))
    bb = relax.BlockBuilder()
    with bb.function("main", [x], pure=False):
        a = bb.emit(relax.op.exp(x))
        bb.emit_func_output(a)
    return bb.get()


def clip_and_if(relax, V, np):
    x = relax.Var("x", _t(relax, [2, 3]))
    c = relax.Var("c", relax.TensorType([], "bool"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, c]):
        a = bb.emit(relax.op.clip(x, 0, 6))
        b = bb.emit(relax.op.clip(a, 0.5, 2.5))
        then = relax.SeqExpr([], relax.op.negative(b))
        other = relax.SeqExpr([], b)
        r = bb.emit(relax.If(c, then, other))
        bb.emit_func_output(r)
    return bb.get()


def extern_func(relax, V, np):
    bb = relax.BlockBuilder()
    bb.add_func(relax.ExternFunc("my_kernel"), "kernel")
    x = relax.Var("x", _t(relax, [4]))
    with bb.function("main", [x]):
        bb.emit_func_output(relax.op.add(x, x))
    return bb.get()


def string_imm(relax, V, np):
    # StringImm lives in the ir module of either package (tvm.ir / tether.ir).
    ir = importlib.import_module(relax.__name__.split(".")[0] + ".ir")
    bb = relax.BlockBuilder()
    x = relax.Var("x", _t(relax, [2, 3]))
    with bb.function("main", [x]):
        y = bb.emit(relax.Tuple([x, ir.StringImm("a \"quoted\" \\ string")]))
        bb.emit_func_output(y)
    return bb.get()


CASES = {f.__name__: f for f in (
    static_add_const, symbolic_shapes, match_cast, tuples_and_split, several_functions,
    function_attrs, concat_take_axes, conv_net, nn_attrs, tensor_attrs, constants,
    unknown_shapes, impure_function, clip_and_if, extern_func, string_imm,
)}


def build_tvm(name):
    from tvm import relax, tirx

    return CASES[name](relax, lambda s: tirx.Var(s, "int64"), np)


def build_tether(name):
    from tether import relax

    return CASES[name](relax, lambda s: relax.Var(s, "int64"), np)


def main(argv):
    import tvm

    if len(argv) != 2:
        sys.exit(__doc__)
    os.makedirs(argv[1], exist_ok=True)
    for name in CASES:
        text = tvm.ir.save_json(build_tvm(name))
        with open(os.path.join(argv[1], name + ".json"), "w") as f:
            f.write(text)
        print(f"{name}: {len(text)} bytes")


if __name__ == "__main__":
    main(sys.argv)
