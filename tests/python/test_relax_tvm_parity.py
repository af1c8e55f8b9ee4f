"""Whole modules built with tether.relax, printed byte for byte as apache-tvm 0.27 prints the
same construction (the expected texts were produced by running this code's twin against
apache-tvm 0.27.0.post1: `relax.TensorType`, `tvm.tirx.Var("n", "int64")` for the symbolic
dims).  They cover inference and the simplifier across many ops at once: a static chain of
tensor ops, a symbolic conv / pool / conv_transpose / reshape(-1) chain, whose dims need
TVM's nested-floordiv folding and exact symbolic division, and a symbolic module using most of
the other ops."""
import numpy as np

from tether import relax

R = relax
TT = relax.TensorType


def _static_module():
    x = R.Var("x", TT([2, 3, 4], "float32"))
    y = R.Var("y", TT([4, 5], "float32"))
    z = R.Var("z", TT([2, 3, 4], "int32"))
    op = R.op
    bb = R.BlockBuilder()
    with bb.function("main", [x, y, z]):
        with bb.dataflow():
            a = bb.emit(op.matmul(x, y))
            b = bb.emit(op.add(a, a))
            c = bb.emit(op.reshape(b, (6, 5)))
            d = bb.emit(op.permute_dims(c))
            e = bb.emit(op.nn.softmax(d, axis=0))
            f = bb.emit(op.mean(e, axis=[1], keepdims=True))
            g = bb.emit(op.concat([c, c], axis=0))
            h = bb.emit(op.split(g, 3, axis=0))
            i = bb.emit(R.TupleGetItem(h, 1))
            j = bb.emit(op.astype(z, "float32"))
            k = bb.emit(op.where(op.less(j, x), j, x))
            l = bb.emit(op.expand_dims(k, axis=-1))
            m = bb.emit(op.squeeze(l, axis=[3]))
            n = bb.emit(op.sum(m, axis=None))
            o = bb.emit(op.flatten(k))
            p = bb.emit(op.take(o, R.const(1, "int64"), axis=0))
            q = bb.emit(op.broadcast_to(f, (5, 1)))
            r = bb.emit(op.nn.layer_norm(x, R.const(np.ones(4, "float32")),
                                         R.const(np.zeros(4, "float32")), axes=-1))
            out = bb.emit_output(R.Tuple([i, n, q, p, r]))
        bb.emit_func_output(out)
    return bb.get()


def _symbolic_module():
    n = R.Var("n", "int64")
    m = R.Var("m", "int64")
    op = R.op
    x = R.Var("x", TT([n, 3, 32, m], "float32"))
    w = R.Var("w", TT([8, 3, 3, 3], "float32"))
    u = R.Var("u", TT(None, "float32", ndim=4))
    bb = R.BlockBuilder()
    with bb.function("main", [x, w, u]):
        with bb.dataflow():
            a = bb.emit(op.nn.conv2d(x, w, strides=2, padding=1))
            b = bb.emit(op.nn.relu(a))
            c = bb.emit(op.nn.max_pool2d(b, pool_size=(2, 2), strides=(2, 2)))
            d = bb.emit(op.nn.avg_pool2d(c, 3, padding=1, ceil_mode=True))
            e = bb.emit(op.nn.adaptive_avg_pool2d(d, output_size=1))
            f = bb.emit(op.flatten(e))
            g = bb.match_cast(u, TT([n, 8, 4, 4], "float32"))
            k = R.Var("k", TT([8, 4, 3, 3], "float32"))
            h = bb.emit(op.nn.conv2d_transpose(g, k, strides=2, output_padding=1))
            i = bb.emit(op.nn.gelu(h))
            j = bb.emit(op.multiply(i, op.sigmoid(i)))
            r = bb.emit(op.reshape(j, (n, -1)))
            s = bb.emit(op.nn.log_softmax(r))
            out = bb.emit_output(R.Tuple([f, s]))
        bb.emit_func_output(out)
    return bb.get()


def _many_ops_module():
    n = R.Var("n", "int64")
    m = R.Var("m", "int64")
    op = R.op
    x = R.Var("x", TT([n, 16, m], "float32"))
    w = R.Var("w", TT([8, 16, 3], "float32"))
    y = R.Var("y", TT([1, m], "float32"))
    bm = R.Var("bm", TT([4, n, 5, 6], "float32"))
    bn = R.Var("bn", TT([6, 7], "float32"))
    v = R.Var("v", TT([16], "float32"))
    bb = R.BlockBuilder()
    with bb.function("main", [x, w, y, bm, bn, v]):
        with bb.dataflow():
            outs = [
                bb.emit(op.nn.conv1d(x, w, strides=2, padding=2, dilation=2)),
                bb.emit(op.strided_slice(x, axes=[2], begin=[1], end=[5], strides=[2])),
                bb.emit(op.split(x, [4, 10], axis=1)),
                bb.emit(op.concat([x, x], axis=2)),
                bb.emit(op.matmul(bm, bn)),
                bb.emit(op.nn.batch_norm(x, v, v, v, v, axis=1)),
                bb.emit(op.nn.dropout(x, 0.2)),
                bb.emit(op.permute_dims(x, axes=[2, 0, 1])),
                bb.emit(op.reshape(x, (0, -1))),
                bb.emit(op.clip(x, 0.0, 6.0)),
                bb.emit(op.power(op.maximum(x, y), op.minimum(x, y))),
                bb.emit(op.equal(op.divide(x, y), op.subtract(x, y))),
                bb.emit(op.greater(op.exp(x), op.sqrt(op.tanh(op.negative(x))))),
                bb.emit(op.nn.silu(x)),
                bb.emit(op.max(x, axis=[1, 2], keepdims=False)),
                bb.emit(op.take(op.flatten(x), R.const(2, "int64"), axis=None)),
                bb.emit(op.broadcast_to(y, (n, 3, m))),
                bb.emit(op.squeeze(op.expand_dims(x, axis=[0, 2]))),
                bb.emit(op.mean(x)),
            ]
            out = bb.emit_output(R.Tuple(outs))
        bb.emit_func_output(out)
    return bb.get()


STATIC_TEXT = """\
# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3, 4), dtype="float32"), y: R.Tensor((4, 5), dtype="float32"), z: R.Tensor((2, 3, 4), dtype="int32")) -> R.Tuple(R.Tensor((4, 5), dtype="float32"), R.Tensor((), dtype="float32"), R.Tensor((5, 1), dtype="float32"), R.Tensor((), dtype="float32"), R.Tensor((2, 3, 4), dtype="float32")):
        with R.dataflow():
            lv: R.Tensor((2, 3, 5), dtype="float32") = R.matmul(x, y, out_dtype=None)
            lv1: R.Tensor((2, 3, 5), dtype="float32") = R.add(lv, lv)
            lv2: R.Tensor((6, 5), dtype="float32") = R.reshape(lv1, R.shape([6, 5]))
            lv3: R.Tensor((5, 6), dtype="float32") = R.permute_dims(lv2, axes=None)
            lv4: R.Tensor((5, 6), dtype="float32") = R.nn.softmax(lv3, axis=0)
            lv5: R.Tensor((5, 1), dtype="float32") = R.mean(lv4, axis=[1], keepdims=True)
            lv6: R.Tensor((12, 5), dtype="float32") = R.concat((lv2, lv2), axis=0)
            lv7: R.Tuple(R.Tensor((4, 5), dtype="float32"), R.Tensor((4, 5), dtype="float32"), R.Tensor((4, 5), dtype="float32")) = R.split(lv6, indices_or_sections=3, axis=0)
            lv8: R.Tensor((4, 5), dtype="float32") = lv7[1]
            lv9: R.Tensor((2, 3, 4), dtype="float32") = R.astype(z, dtype="float32")
            lv10: R.Tensor((2, 3, 4), dtype="bool") = R.less(lv9, x)
            lv11: R.Tensor((2, 3, 4), dtype="float32") = R.where(lv10, lv9, x)
            lv12: R.Tensor((2, 3, 4, 1), dtype="float32") = R.expand_dims(lv11, axis=[-1])
            lv13: R.Tensor((2, 3, 4), dtype="float32") = R.squeeze(lv12, axis=[3])
            lv14: R.Tensor((), dtype="float32") = R.sum(lv13, axis=None, keepdims=False)
            lv15: R.Tensor((24,), dtype="float32") = R.flatten(lv11)
            lv16: R.Tensor((), dtype="float32") = R.take(lv15, R.const(1, "int64"), axis=0, mode="fast")
            lv17: R.Tensor((5, 1), dtype="float32") = R.broadcast_to(lv5, R.shape([5, 1]))
            lv18: R.Tensor((2, 3, 4), dtype="float32") = R.nn.layer_norm(x, metadata["ir.GenericConst"][0], metadata["ir.GenericConst"][1], axes=[-1], epsilon=1.0000000000000001e-05, center=True, scale=True)
            gv: R.Tuple(R.Tensor((4, 5), dtype="float32"), R.Tensor((), dtype="float32"), R.Tensor((5, 1), dtype="float32"), R.Tensor((), dtype="float32"), R.Tensor((2, 3, 4), dtype="float32")) = lv8, lv14, lv17, lv16, lv18
            R.output(gv)
        return gv

# Metadata omitted. Use show_meta=True in script() method to show it.
"""

SYMBOLIC_TEXT = """\
# from typing import TypeVar
# from tvm.script import ir as I
# from tvm.script import relax as R

m = TypeVar("m")
n = TypeVar("n")
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((n, 3, 32, m), dtype="float32"), w: R.Tensor((8, 3, 3, 3), dtype="float32"), u: R.Tensor(dtype="float32", ndim=4)) -> R.Tuple(R.Tensor(("n * 8",), dtype="float32"), R.Tensor((n, 400), dtype="float32")):
        k: R.Tensor((8, 4, 3, 3), dtype="float32")
        with R.dataflow():
            lv: R.Tensor((n, 8, 16, (m - 1) // 2 + 1), dtype="float32") = R.nn.conv2d(x, w, strides=[2, 2], padding=[1, 1, 1, 1], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype=None)
            lv1: R.Tensor((n, 8, 16, (m - 1) // 2 + 1), dtype="float32") = R.nn.relu(lv)
            lv2: R.Tensor((n, 8, 8, (m - 3) // 4 + 1), dtype="float32") = R.nn.max_pool2d(lv1, pool_size=[2, 2], strides=[2, 2], dilation=[1, 1], padding=[0, 0, 0, 0], ceil_mode=False, count_include_pad=False, layout="NCHW", out_layout="NCHW")
            lv3: R.Tensor((n, 8, 8, (m - 3) // 4 + 1), dtype="float32") = R.nn.avg_pool2d(lv2, pool_size=[3, 3], strides=[1, 1], dilation=[1, 1], padding=[1, 1, 1, 1], ceil_mode=True, count_include_pad=False, layout="NCHW", out_layout="NCHW")
            lv4: R.Tensor((n, 8, 1, 1), dtype="float32") = R.nn.adaptive_avg_pool2d(lv3, output_size=[1, 1], layout="NCHW", out_layout="NCHW")
            lv5: R.Tensor((n * 8,), dtype="float32") = R.flatten(lv4)
            lv6: R.Tensor((n, 8, 4, 4), dtype="float32") = R.match_cast(u, R.Tensor((n, 8, 4, 4), dtype="float32"))
            lv7: R.Tensor((n, 4, 10, 10), dtype="float32") = R.nn.conv2d_transpose(lv6, k, strides=[2, 2], padding=[0, 0, 0, 0], output_padding=[1, 1], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="IOHW", out_layout="NCHW", out_dtype=None)
            lv8: R.Tensor((n, 4, 10, 10), dtype="float32") = R.nn.gelu(lv7)
            lv9: R.Tensor((n, 4, 10, 10), dtype="float32") = R.sigmoid(lv8)
            lv10: R.Tensor((n, 4, 10, 10), dtype="float32") = R.multiply(lv8, lv9)
            lv11: R.Tensor((n, 400), dtype="float32") = R.reshape(lv10, R.shape([n, 400]))
            lv12: R.Tensor((n, 400), dtype="float32") = R.nn.log_softmax(lv11, axis=-1)
            gv: R.Tuple(R.Tensor((n * 8,), dtype="float32"), R.Tensor((n, 400), dtype="float32")) = lv5, lv12
            R.output(gv)
        return gv
"""


MANY_OPS_TEXT = """\
# from typing import TypeVar
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis
# from tvm.script import relax as R

m = TypeVar("m")
n = TypeVar("n")
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((n, 16, m), dtype="float32"), w: R.Tensor((8, 16, 3), dtype="float32"), y: R.Tensor((1, m), dtype="float32"), bm: R.Tensor((4, n, 5, 6), dtype="float32"), bn: R.Tensor((6, 7), dtype="float32"), v: R.Tensor((16,), dtype="float32")) -> R.Tuple(R.Tensor((n, 8, "(m - 1) // 2 + 1"), dtype="float32"), R.Tensor((n, 16, "(T.min(5, m) + 1 - T.min(1, m)) // 2"), dtype="float32"), R.Tuple(R.Tensor((n, 4, m), dtype="float32"), R.Tensor((n, 6, m), dtype="float32"), R.Tensor((n, 6, m), dtype="float32")), R.Tensor((n, 16, "m * 2"), dtype="float32"), R.Tensor((4, n, 5, 7), dtype="float32"), R.Tuple(R.Tensor((n, 16, m), dtype="float32"), R.Tensor((16,), dtype="float32"), R.Tensor((16,), dtype="float32")), R.Tuple(R.Tensor((n, 16, m), dtype="float32"), R.Tensor((n, 16, m), dtype="float32")), R.Tensor((m, n, 16), dtype="float32"), R.Tensor((n, "m * 16"), dtype="float32"), R.Tensor((n, 16, m), dtype="float32"), R.Tensor((n, 16, m), dtype="float32"), R.Tensor((n, 16, m), dtype="bool"), R.Tensor((n, 16, m), dtype="bool"), R.Tensor((n, 16, m), dtype="float32"), R.Tensor((n,), dtype="float32"), R.Tensor((), dtype="float32"), R.Tensor((n, 3, m), dtype="float32"), R.Tensor(dtype="float32"), R.Tensor((), dtype="float32")):
        with R.dataflow():
            lv: R.Tensor((n, 8, (m - 1) // 2 + 1), dtype="float32") = R.nn.conv1d(x, w, strides=[2], padding=[2, 2], dilation=[2], groups=1, data_layout="NCW", kernel_layout="OIW", out_layout="NCW", out_dtype=None)
            lv1: R.Tensor((n, 16, (T.min(5, m) + 1 - T.min(1, m)) // 2), dtype="float32") = R.strided_slice(x, (2,), (1,), (5,), (2,), assume_inbound=False)
            lv2: R.Tuple(R.Tensor((n, 4, m), dtype="float32"), R.Tensor((n, 6, m), dtype="float32"), R.Tensor((n, 6, m), dtype="float32")) = R.split(x, indices_or_sections=[4, 10], axis=1)
            lv3: R.Tensor((n, 16, m * 2), dtype="float32") = R.concat((x, x), axis=2)
            lv4: R.Tensor((4, n, 5, 7), dtype="float32") = R.matmul(bm, bn, out_dtype=None)
            lv5: R.Tuple(R.Tensor((n, 16, m), dtype="float32"), R.Tensor((16,), dtype="float32"), R.Tensor((16,), dtype="float32")) = R.nn.batch_norm(x, v, v, v, v, axis=1, epsilon=1.0000000000000001e-05, center=True, scale=True, momentum=0.10000000000000001, training=True)
            lv6: R.Tuple(R.Tensor((n, 16, m), dtype="float32"), R.Tensor((n, 16, m), dtype="float32")) = R.nn.dropout(x, rate=0.20000000000000001)
            lv7: R.Tensor((m, n, 16), dtype="float32") = R.permute_dims(x, axes=[2, 0, 1])
            lv8: R.Tensor((n, m * 16), dtype="float32") = R.reshape(x, R.shape([n, m * 16]))
            lv9: R.Tensor((n, 16, m), dtype="float32") = R.clip(x, T.float64(0.0), T.float64(6.0))
            lv10: R.Tensor((n, 16, m), dtype="float32") = R.maximum(x, y)
            lv11: R.Tensor((n, 16, m), dtype="float32") = R.minimum(x, y)
            lv12: R.Tensor((n, 16, m), dtype="float32") = R.power(lv10, lv11)
            lv13: R.Tensor((n, 16, m), dtype="float32") = R.divide(x, y)
            lv14: R.Tensor((n, 16, m), dtype="float32") = R.subtract(x, y)
            lv15: R.Tensor((n, 16, m), dtype="bool") = R.equal(lv13, lv14)
            lv16: R.Tensor((n, 16, m), dtype="float32") = R.exp(x)
            lv17: R.Tensor((n, 16, m), dtype="float32") = R.negative(x)
            lv18: R.Tensor((n, 16, m), dtype="float32") = R.tanh(lv17)
            lv19: R.Tensor((n, 16, m), dtype="float32") = R.sqrt(lv18)
            lv20: R.Tensor((n, 16, m), dtype="bool") = R.greater(lv16, lv19)
            lv21: R.Tensor((n, 16, m), dtype="float32") = R.nn.silu(x)
            lv22: R.Tensor((n,), dtype="float32") = R.max(x, axis=[1, 2], keepdims=False)
            lv23: R.Tensor((n * 16 * m,), dtype="float32") = R.flatten(x)
            lv24: R.Tensor((), dtype="float32") = R.take(lv23, R.const(2, "int64"), axis=None, mode="fast")
            lv25: R.Tensor((n, 3, m), dtype="float32") = R.broadcast_to(y, R.shape([n, 3, m]))
            lv26: R.Tensor((1, n, 1, 16, m), dtype="float32") = R.expand_dims(x, axis=[0, 2])
            lv27: R.Tensor(dtype="float32") = R.squeeze(lv26, axis=None)
            lv28: R.Tensor((), dtype="float32") = R.mean(x, axis=None, keepdims=False)
            gv: R.Tuple(R.Tensor((n, 8, (m - 1) // 2 + 1), dtype="float32"), R.Tensor((n, 16, (T.min(5, m) + 1 - T.min(1, m)) // 2), dtype="float32"), R.Tuple(R.Tensor((n, 4, m), dtype="float32"), R.Tensor((n, 6, m), dtype="float32"), R.Tensor((n, 6, m), dtype="float32")), R.Tensor((n, 16, m * 2), dtype="float32"), R.Tensor((4, n, 5, 7), dtype="float32"), R.Tuple(R.Tensor((n, 16, m), dtype="float32"), R.Tensor((16,), dtype="float32"), R.Tensor((16,), dtype="float32")), R.Tuple(R.Tensor((n, 16, m), dtype="float32"), R.Tensor((n, 16, m), dtype="float32")), R.Tensor((m, n, 16), dtype="float32"), R.Tensor((n, m * 16), dtype="float32"), R.Tensor((n, 16, m), dtype="float32"), R.Tensor((n, 16, m), dtype="float32"), R.Tensor((n, 16, m), dtype="bool"), R.Tensor((n, 16, m), dtype="bool"), R.Tensor((n, 16, m), dtype="float32"), R.Tensor((n,), dtype="float32"), R.Tensor((), dtype="float32"), R.Tensor((n, 3, m), dtype="float32"), R.Tensor(dtype="float32"), R.Tensor((), dtype="float32")) = lv, lv1, lv2, lv3, lv4, lv5, lv6, lv7, lv8, lv9, lv12, lv15, lv20, lv21, lv22, lv24, lv25, lv27, lv28
            R.output(gv)
        return gv
"""


def test_static_chain_prints_as_tvm():
    assert str(_static_module()) + "\n" == STATIC_TEXT


def test_symbolic_chain_prints_as_tvm():
    assert str(_symbolic_module()) + "\n" == SYMBOLIC_TEXT


def test_many_ops_print_as_tvm():
    """Term order of symbolic sums (`T.min(5, m) + 1 - T.min(1, m)`), flatten's unsimplified
    product (`n * 16 * m`), split, strided_slice, batch_norm, broadcasting binops."""
    assert str(_many_ops_module()) + "\n" == MANY_OPS_TEXT


# ---- symbolic facts TVM's analyzer knows (observed with apache-tvm 0.27) -------------------------

def _slice_type(case):
    """The type strided_slice(x, axes=[0], begin=[0], end=[2]) gets in each builder context."""
    n, m, k = R.Var("n", "int64"), R.Var("m", "int64"), R.Var("k", "int64")
    bb = R.BlockBuilder()
    x = R.Var("x", TT([n, 4], "float32"))
    if case == "outside":
        return str(bb.normalize(R.op.strided_slice(x, [0], [0], [2])).ty)
    u = R.Var("u", TT(None, "float32", ndim=2))
    if case == "param":
        with bb.function("f", [x]):
            y = bb.emit(R.op.strided_slice(x, [0], [0], [2]))
            bb.emit_func_output(y)
    elif case == "match_cast":
        with bb.function("f", [u]):
            z = bb.match_cast(u, TT([m, 4], "float32"))
            y = bb.emit(R.op.strided_slice(z, [0], [0], [2]))
            bb.emit_func_output(y)
    elif case == "free":
        with bb.function("f", [u]):
            y = bb.emit(R.op.strided_slice(R.Var("w", TT([k, 4], "float32")), [0], [0], [2]))
            bb.emit_func_output(y)
    elif case == "deferred":
        with bb.function("f"):
            y = bb.emit(R.op.strided_slice(x, [0], [0], [2]))
            bb.emit_func_output(y, params=[x])
    return str(y.ty)


import pytest  # noqa: E402


@pytest.mark.parametrize("case, expected", [
    # Dims bound by a function's params or a match_cast are known non-negative (min(0, n) = 0);
    # free vars, deferred params and normalize() outside a function know nothing.
    ("outside", 'R.Tensor((T.min(2, n) - T.min(0, n), 4), dtype="float32")'),
    ("param", 'R.Tensor((T.min(2, n), 4), dtype="float32")'),
    ("match_cast", 'R.Tensor((T.min(2, m), 4), dtype="float32")'),
    ("free", 'R.Tensor((T.min(2, k) - T.min(0, k), 4), dtype="float32")'),
    ("deferred", 'R.Tensor((T.min(2, n) - T.min(0, n), 4), dtype="float32")'),
])
def test_dims_known_non_negative(case, expected):
    assert _slice_type(case) == expected


def test_constant_folds_into_min_and_zero_dim_reduction_has_a_shape():
    m = R.Var("m", "int64")
    bb = R.BlockBuilder()
    x = R.Var("x", TT([m + 1], "float32"))
    v = R.Var("v", TT([m], "float32"))  # defines m (a bare dim): m + 1 >= 1
    u = R.Var("u", TT(None, "float32", ndim=1))
    with bb.function("f", [x, v, u]):
        y = bb.emit(R.op.strided_slice(x, [0], [1], [100]))
        z = bb.emit(R.op.mean(u, axis=[0]))
        bb.emit_func_output(R.Tuple([y, z]))
    assert str(y.ty) == 'R.Tensor((T.min(99, m),), dtype="float32")'  # min(100, m + 1) - 1
    assert str(z.ty) == 'R.Tensor((), dtype="float32")'
    # without v, m is not known non-negative and min(1, m + 1) stays
    bb = R.BlockBuilder()
    with bb.function("g", [x]):
        y = bb.emit(R.op.strided_slice(x, [0], [1], [100]))
        bb.emit_func_output(y)
    assert str(y.ty) == 'R.Tensor((T.min(100, m + 1) - T.min(1, m + 1),), dtype="float32")'


@pytest.mark.parametrize("xs, ts, error_dim", [
    # broadcast_to fails where an input dim other than 1 is provably different from the target's
    # (a constant difference, or a parity argument); unknown pairs are accepted.
    (lambda n, m: [n * 2], lambda n, m: [1], 0),
    (lambda n, m: [n], lambda n, m: [1], None),
    (lambda n, m: [n], lambda n, m: [3], None),
    (lambda n, m: [8], lambda n, m: [1], 0),
    (lambda n, m: [n + 1], lambda n, m: [n], 0),
    (lambda n, m: [n], lambda n, m: [m], None),
    (lambda n, m: [n * 2], lambda n, m: [3], 0),
    (lambda n, m: [n * 2], lambda n, m: [4], None),
    (lambda n, m: [n * 2 + 1], lambda n, m: [4], 0),
    (lambda n, m: [8, n * 2], lambda n, m: [1, 1], 1),  # the innermost dim is checked first
])
def test_broadcast_to_rejects_provably_different_dims(xs, ts, error_dim):
    n, m = R.Var("n", "int64"), R.Var("m", "int64")
    x = R.Var("x", TT(xs(n, m), "float32"))
    bb = R.BlockBuilder()
    call = R.op.broadcast_to(x, ts(n, m))
    if error_dim is None:
        bb.normalize(call)
        return
    with pytest.raises(ValueError, match=f"The target shape at dim {error_dim} is "):
        bb.normalize(call)


def test_products_of_sums_stay_factored():
    """A sum times a non-constant stays a product (k * (m + 1)); exact division opens it up."""
    k, m = R.Var("k", "int64"), R.Var("m", "int64")
    x = R.Var("x", TT([k, m + 1, 16], "int32"))
    y = R.Var("y", TT([m, k], "int32"))
    bb = R.BlockBuilder()
    with bb.function("f", [x, y]):
        out = [bb.emit(R.op.reshape(x, [-1])), bb.emit(R.op.reshape(x, [k, -1])),
               bb.emit(R.op.reshape(x, [-1, 16])), bb.emit(R.op.flatten(x))]
        bb.emit_func_output(R.Tuple(out))
    assert [str(v.ty) for v in out] == [
        'R.Tensor((k * (m + 1) * 16,), dtype="int32")',
        'R.Tensor((k, m * 16 + 16), dtype="int32")',
        'R.Tensor((k * (m + 1), 16), dtype="int32")',
        'R.Tensor((k * (m + 1) * 16,), dtype="int32")',
    ]


def test_reshape_keeps_given_dims_as_given():
    """reshape's symbolic target dims are kept as written (n * 3 * 4, n + 1 - 1); only the
    inferred -1 dim is simplified (observed in apache-tvm 0.27)."""
    n = R.Var("n", "int64")
    x = R.Var("x", TT([n, 12], "float32"))
    got = [str(R.op.reshape(x, dims).args[1]) for dims in (
        (1, n * 3 * 4), (n * 3 * 4, -1), (n + 1 - 1, 12), (n * 4 // 4, -1), (-1, 4), (2, -1))]
    assert got == ["R.shape([1, n * 3 * 4])", "R.shape([n * 3 * 4, 1])",
                   "R.shape([n + 1 - 1, 12])", "R.shape([n * 4 // 4, 12])",
                   "R.shape([n * 3, 4])", "R.shape([2, n * 6])"]


def test_known_ranges_disprove_equality():
    """min(3, k) - min(1, k) is at most 3 once k >= 0 is known, so it cannot broadcast to 6
    (observed in apache-tvm 0.27: its analyzer bounds min/max terms)."""
    k = R.Var("k", "int64")
    p = R.Var("p", TT([k, 1], "float32"))
    bb = R.BlockBuilder()
    with pytest.raises(ValueError, match="The target shape at dim 1 is T.int64.6. while the "
                                         "input tensor shape at dim 0 is"):
        with bb.function("main", [p]):
            s = bb.emit(R.op.strided_slice(p, axes=[0], begin=[1], end=[3]))
            bb.emit(R.op.broadcast_to(s, [k, 6, 1]))


@pytest.mark.parametrize("ty, expected", [
    # strided_slice range-checks its axes only against a known shape (observed in TVM 0.27)
    (TT([2, 3], "float32"), ValueError),
    (TT(None, "float32", ndim=0), 'R.Tensor(dtype="float32", ndim=0)'),
    (TT([], "float32"), ValueError),
    (TT(None, "float32", ndim=2), 'R.Tensor(dtype="float32", ndim=2)'),
])
def test_strided_slice_checks_axes_only_with_a_known_shape(ty, expected):
    x = R.Var("x", ty)
    call = R.op.strided_slice(x, axes=[5], begin=[0], end=[1])
    if expected is ValueError:
        with pytest.raises(ValueError, match="the input axis 5 is out of range"):
            R.BlockBuilder().normalize(call)
    else:
        assert str(R.BlockBuilder().normalize(call).ty) == expected
