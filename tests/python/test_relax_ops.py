"""relax.op / relax.op.nn from Python: every wrapper's signature and defaults (TVM's), the
printed Call, the inferred type after normalization (or the inference error), and the bad-input
errors with the spec's exception classes and texts.  Expected values were observed with
apache-tvm 0.27 on the same inputs."""
import inspect
import types

import pytest

import tether
from tether import ir, relax as R

op = R.op
nn = R.op.nn


def T(shape, dtype="float32"):
    return R.TensorType(shape, dtype)


x = R.Var("x", T([2, 3, 8, 8]))
w = R.Var("w", T([4, 3, 3, 3]))
x3 = R.Var("x3", T([2, 3, 8]))
w3 = R.Var("w3", T([4, 3, 3]))
g = R.Var("g", T([3]))
m2 = R.Var("m2", T([3, 4]))
i = R.Var("i", T([2], "int64"))
PARAMS = [x, w, x3, w3, g, m2, i]
NS = {"nn": nn, "op": op, "R": R, "x": x, "w": w, "x3": x3, "w3": w3, "g": g, "m2": m2, "i": i}

# (expression, printed Call, inferred type or "ERR <ExceptionClass> <message prefix>")
OPS = [
    ('nn.conv2d(x, w)',
     'R.nn.conv2d(x, w, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype=None)',
     'R.Tensor((2, 4, 6, 6), dtype="float32")'),
    ('nn.conv2d(x, w, 2, 1, 1)',
     'R.nn.conv2d(x, w, strides=[2, 2], padding=[1, 1, 1, 1], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype=None)',
     'R.Tensor((2, 4, 4, 4), dtype="float32")'),
    ('nn.conv2d(x, w, [2], [1, 2], [1])',
     'R.nn.conv2d(x, w, strides=[2, 2], padding=[1, 2, 1, 2], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype=None)',
     'R.Tensor((2, 4, 4, 5), dtype="float32")'),
    ('nn.conv1d(x3, w3)',
     'R.nn.conv1d(x3, w3, strides=[1], padding=[0, 0], dilation=[1], groups=1, data_layout="NCW", kernel_layout="OIW", out_layout="NCW", out_dtype=None)',
     'R.Tensor((2, 4, 6), dtype="float32")'),
    ('nn.conv1d(x3, w3, 2, 1, 1)',
     'R.nn.conv1d(x3, w3, strides=[2], padding=[1, 1], dilation=[1], groups=1, data_layout="NCW", kernel_layout="OIW", out_layout="NCW", out_dtype=None)',
     'R.Tensor((2, 4, 4), dtype="float32")'),
    ('nn.conv2d_transpose(x, w)',
     'R.nn.conv2d_transpose(x, w, strides=[1, 1], padding=[0, 0, 0, 0], output_padding=[0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="IOHW", out_layout="NCHW", out_dtype=None)',
     'ERR ValueError Conv2dTranspose expects the channel size of the data should equal to the input channel size of the weight. However, the data channel size is T.int64(3'),
    ('nn.conv2d_transpose(x, w, 2, 1, 1, 1)',
     'R.nn.conv2d_transpose(x, w, strides=[2, 2], padding=[1, 1, 1, 1], output_padding=[1, 1], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="IOHW", out_layout="NCHW", out_dtype=None)',
     'ERR ValueError Conv2dTranspose expects the channel size of the data should equal to the input channel size of the weight. However, the data channel size is T.int64(3'),
    ('nn.max_pool2d(x)',
     'R.nn.max_pool2d(x, pool_size=[1, 1], strides=[1, 1], dilation=[1, 1], padding=[0, 0, 0, 0], ceil_mode=False, count_include_pad=False, layout="NCHW", out_layout="NCHW")',
     'R.Tensor((2, 3, 8, 8), dtype="float32")'),
    ('nn.max_pool2d(x, 2, 2, 1, 1)',
     'R.nn.max_pool2d(x, pool_size=[2, 2], strides=[2, 2], dilation=[1, 1], padding=[1, 1, 1, 1], ceil_mode=False, count_include_pad=False, layout="NCHW", out_layout="NCHW")',
     'R.Tensor((2, 3, 5, 5), dtype="float32")'),
    ('nn.avg_pool2d(x, (3, 3), padding=(1, 1))',
     'R.nn.avg_pool2d(x, pool_size=[3, 3], strides=[1, 1], dilation=[1, 1], padding=[1, 1, 1, 1], ceil_mode=False, count_include_pad=False, layout="NCHW", out_layout="NCHW")',
     'R.Tensor((2, 3, 8, 8), dtype="float32")'),
    ('nn.adaptive_avg_pool2d(x)',
     'R.nn.adaptive_avg_pool2d(x, output_size=None, layout="NCHW", out_layout="NCHW")',
     'R.Tensor((2, 3, 8, 8), dtype="float32")'),
    ('nn.adaptive_avg_pool2d(x, 1)',
     'R.nn.adaptive_avg_pool2d(x, output_size=[1, 1], layout="NCHW", out_layout="NCHW")',
     'R.Tensor((2, 3, 1, 1), dtype="float32")'),
    ('nn.adaptive_avg_pool2d(x, (2, 3))',
     'R.nn.adaptive_avg_pool2d(x, output_size=[2, 3], layout="NCHW", out_layout="NCHW")',
     'R.Tensor((2, 3, 2, 3), dtype="float32")'),
    ('nn.relu(x)',
     'R.nn.relu(x)',
     'R.Tensor((2, 3, 8, 8), dtype="float32")'),
    ('nn.gelu(x)',
     'R.nn.gelu(x)',
     'R.Tensor((2, 3, 8, 8), dtype="float32")'),
    ('nn.gelu_tanh(x)',
     'R.nn.gelu_tanh(x)',
     'R.Tensor((2, 3, 8, 8), dtype="float32")'),
    ('nn.silu(x)',
     'R.nn.silu(x)',
     'R.Tensor((2, 3, 8, 8), dtype="float32")'),
    ('nn.selu(x)',
     'R.nn.selu(x)',
     'R.Tensor((2, 3, 8, 8), dtype="float32")'),
    ('nn.softmax(x)',
     'R.nn.softmax(x, axis=-1)',
     'R.Tensor((2, 3, 8, 8), dtype="float32")'),
    ('nn.log_softmax(x, 1)',
     'R.nn.log_softmax(x, axis=1)',
     'R.Tensor((2, 3, 8, 8), dtype="float32")'),
    ('nn.batch_norm(x, g, g, g, g, 1)',
     'R.nn.batch_norm(x, g, g, g, g, axis=1, epsilon=1.0000000000000001e-05, center=True, scale=True, momentum=0.10000000000000001, training=True)',
     'T.Tuple(R.Tensor((T.int64(2), T.int64(3), T.int64(8), T.int64(8)), dtype="float32"), R.Tensor((T.int64(3),), dtype="float32"), R.Tensor((T.int64(3),), dtype="float32"))'),
    ('nn.layer_norm(x, g, g, 1)',
     'R.nn.layer_norm(x, g, g, axes=[1], epsilon=1.0000000000000001e-05, center=True, scale=True)',
     'R.Tensor((2, 3, 8, 8), dtype="float32")'),
    ('nn.layer_norm(x, g, g, [-1])',
     'R.nn.layer_norm(x, g, g, axes=[-1], epsilon=1.0000000000000001e-05, center=True, scale=True)',
     'ERR ValueError ir.Op(span=None, ty=ir.Type(span=None), name="relax.nn.layer_norm", description="", arguments=(ir.ArgumentInfo(name="data", type_info="Tensor", descri'),
    ('nn.dropout(x)',
     'R.nn.dropout(x, rate=0.5)',
     'T.Tuple(R.Tensor((T.int64(2), T.int64(3), T.int64(8), T.int64(8)), dtype="float32"), R.Tensor((T.int64(2), T.int64(3), T.int64(8), T.int64(8)), dtype="float32"))'),
    ('op.sigmoid(x)',
     'R.sigmoid(x)',
     'R.Tensor((2, 3, 8, 8), dtype="float32")'),
    ('op.tanh(x)',
     'R.tanh(x)',
     'R.Tensor((2, 3, 8, 8), dtype="float32")'),
    ('op.exp(x)',
     'R.exp(x)',
     'R.Tensor((2, 3, 8, 8), dtype="float32")'),
    ('op.sqrt(x)',
     'R.sqrt(x)',
     'R.Tensor((2, 3, 8, 8), dtype="float32")'),
    ('op.negative(x)',
     'R.negative(x)',
     'R.Tensor((2, 3, 8, 8), dtype="float32")'),
    ('op.matmul(m2, m2)',
     'R.matmul(m2, m2, out_dtype=None)',
     'ERR ValueError Matmul requires the reduction length of the operands to be equal.  However, the LHS m2 has shape R.shape([3, 4]), while the RHS m2 has shape R.shape(['),
    ('op.matmul(m2, m2, "float16")',
     'R.matmul(m2, m2, out_dtype="float16")',
     'ERR ValueError Matmul requires the reduction length of the operands to be equal.  However, the LHS m2 has shape R.shape([3, 4]), while the RHS m2 has shape R.shape(['),
    ('op.add(x, x)',
     'R.add(x, x)',
     'R.Tensor((2, 3, 8, 8), dtype="float32")'),
    ('op.subtract(x, x)',
     'R.subtract(x, x)',
     'R.Tensor((2, 3, 8, 8), dtype="float32")'),
    ('op.multiply(x, x)',
     'R.multiply(x, x)',
     'R.Tensor((2, 3, 8, 8), dtype="float32")'),
    ('op.divide(x, x)',
     'R.divide(x, x)',
     'R.Tensor((2, 3, 8, 8), dtype="float32")'),
    ('op.power(x, x)',
     'R.power(x, x)',
     'R.Tensor((2, 3, 8, 8), dtype="float32")'),
    ('op.maximum(x, x)',
     'R.maximum(x, x)',
     'R.Tensor((2, 3, 8, 8), dtype="float32")'),
    ('op.minimum(x, x)',
     'R.minimum(x, x)',
     'R.Tensor((2, 3, 8, 8), dtype="float32")'),
    ('op.equal(x, x)',
     'R.equal(x, x)',
     'R.Tensor((2, 3, 8, 8), dtype="bool")'),
    ('op.less(x, x)',
     'R.less(x, x)',
     'R.Tensor((2, 3, 8, 8), dtype="bool")'),
    ('op.greater(x, x)',
     'R.greater(x, x)',
     'R.Tensor((2, 3, 8, 8), dtype="bool")'),
    ('op.reshape(x, (2, 3, 64))',
     'R.reshape(x, R.shape([2, 3, 64]))',
     'R.Tensor((2, 3, 64), dtype="float32")'),
    ('op.reshape(x, [2, -1])',
     'R.reshape(x, R.shape([2, 192]))',
     'R.Tensor((2, 192), dtype="float32")'),
    ('op.reshape(x, R.ShapeExpr([6, 64]))',
     'R.reshape(x, R.shape([6, 64]))',
     'R.Tensor((6, 64), dtype="float32")'),
    ('op.permute_dims(x)',
     'R.permute_dims(x, axes=None)',
     'R.Tensor((8, 8, 3, 2), dtype="float32")'),
    ('op.permute_dims(x, [0, 2, 3, 1])',
     'R.permute_dims(x, axes=[0, 2, 3, 1])',
     'R.Tensor((2, 8, 8, 3), dtype="float32")'),
    ('op.expand_dims(x, 0)',
     'R.expand_dims(x, axis=[0])',
     'R.Tensor((1, 2, 3, 8, 8), dtype="float32")'),
    ('op.expand_dims(x, [0, 1])',
     'R.expand_dims(x, axis=[0, 1])',
     'R.Tensor((1, 1, 2, 3, 8, 8), dtype="float32")'),
    ('op.squeeze(x)',
     'R.squeeze(x, axis=None)',
     'R.Tensor((2, 3, 8, 8), dtype="float32")'),
    ('op.squeeze(x, 0)',
     'R.squeeze(x, axis=[0])',
     'R.Tensor((2, 3, 8, 8), dtype="float32")'),
    ('op.squeeze(x, [0])',
     'R.squeeze(x, axis=[0])',
     'R.Tensor((2, 3, 8, 8), dtype="float32")'),
    ('op.flatten(x)',
     'R.flatten(x)',
     'R.Tensor((384,), dtype="float32")'),
    ('op.concat([x, x])',
     'R.concat((x, x), axis=0)',
     'R.Tensor((4, 3, 8, 8), dtype="float32")'),
    ('op.concat((x, x), axis=1)',
     'R.concat((x, x), axis=1)',
     'R.Tensor((2, 6, 8, 8), dtype="float32")'),
    ('op.concat(R.Tuple([x, x]), None)',
     'R.concat((x, x), axis=None)',
     'ERR ValueError Concat expects all input tensors to have same ndim. However, the input contains tensors with ndim 1 and 4'),
    ('op.split(x, 2)',
     'R.split(x, indices_or_sections=2, axis=0)',
     'T.Tuple(R.Tensor((T.int64(1), T.int64(3), T.int64(8), T.int64(8)), dtype="float32"), R.Tensor((T.int64(1), T.int64(3), T.int64(8), T.int64(8)), dtype="float32"))'),
    ('op.split(x, [1, 2], axis=1)',
     'R.split(x, indices_or_sections=[1, 2], axis=1)',
     'T.Tuple(R.Tensor((T.int64(2), T.int64(1), T.int64(8), T.int64(8)), dtype="float32"), R.Tensor((T.int64(2), T.int64(1), T.int64(8), T.int64(8)), dtype="float32"), R.Tensor((T.int64(2), T.int64(1), T.int64(8), T.int64(8)), dtype="float32"))'),
    ('op.strided_slice(x, [0], [1], [2])',
     'R.strided_slice(x, (0,), (1,), (2,), assume_inbound=False)',
     'R.Tensor((1, 3, 8, 8), dtype="float32")'),
    ('op.strided_slice(x, [0, 1], [0, 0], [1, 2], [1, 1], True)',
     'R.strided_slice(x, (0, 1), (0, 0), (1, 2), (1, 1), assume_inbound=True)',
     'R.Tensor((1, 2, 8, 8), dtype="float32")'),
    ('op.take(x, i)',
     'R.take(x, i, axis=None, mode="fast")',
     'ERR ValueError Take op expects the input data to be 1-dimensional tensor when the axis is not specified. However, the given data tensor has ndim 4'),
    ('op.take(x, i, 1)',
     'R.take(x, i, axis=1, mode="fast")',
     'R.Tensor((2, 2, 8, 8), dtype="float32")'),
    ('op.take(x, i, 1, "clip")',
     'R.take(x, i, axis=1, mode="clip")',
     'R.Tensor((2, 2, 8, 8), dtype="float32")'),
    ('op.mean(x)',
     'R.mean(x, axis=None, keepdims=False)',
     'R.Tensor((), dtype="float32")'),
    ('op.mean(x, 1)',
     'R.mean(x, axis=[1], keepdims=False)',
     'R.Tensor((2, 8, 8), dtype="float32")'),
    ('op.sum(x, [1, 2], True)',
     'R.sum(x, axis=[1, 2], keepdims=True)',
     'R.Tensor((2, 1, 1, 8), dtype="float32")'),
    ('op.max(x, -1)',
     'R.max(x, axis=[-1], keepdims=False)',
     'R.Tensor((2, 3, 8), dtype="float32")'),
    ('op.astype(x, "float16")',
     'R.astype(x, dtype="float16")',
     'R.Tensor((2, 3, 8, 8), dtype="float16")'),
    ('op.broadcast_to(g, (2, 3))',
     'R.broadcast_to(g, R.shape([2, 3]))',
     'R.Tensor((2, 3), dtype="float32")'),
    ('op.broadcast_to(g, [4, 3])',
     'R.broadcast_to(g, R.shape([4, 3]))',
     'R.Tensor((4, 3), dtype="float32")'),
    ('op.clip(x, 0, 6)',
     'R.clip(x, 0, 6)',
     'R.Tensor((2, 3, 8, 8), dtype="float32")'),
    ('op.clip(x, 0.0, 6.0)',
     'R.clip(x, T.float64(0.0), T.float64(6.0))',
     'R.Tensor((2, 3, 8, 8), dtype="float32")'),
    ('op.where(x, x, x)',
     'R.where(x, x, x)',
     'ERR TypeError Where requires the input condition tensor to have boolean dtype. However, the given condition dtype is T.float32'),
    ('op.linear(m2, m2)',
     'R.matmul(m2, R.permute_dims(m2, axes=None), out_dtype=None)',
     'R.Tensor((3, 3), dtype="float32")'),
    ('op.linear(m2, R.Var("w4", R.TensorType([5, 4], "float32")), g)',
     'R.add(R.matmul(m2, R.permute_dims(w4, axes=None), out_dtype=None), g)',
     'ERR ValueError In ir.Op(span=None, ty=ir.Type(span=None), name="relax.add", description="", arguments=(ir.ArgumentInfo(name="x1", type_info="Tensor", description="Th'),
]


def _normalized_ty(call):
    bb = R.BlockBuilder()
    with bb.function("f", PARAMS):
        e = bb.normalize(call)
        bb.emit_func_output(e)
    return e.ty


@pytest.mark.parametrize("expr,printed,inferred", OPS, ids=[o[0] for o in OPS])
def test_op_table(expr, printed, inferred):
    call = eval(expr, NS)
    assert str(call) == printed
    if inferred.startswith("ERR "):
        kind, message = inferred[4:].split(" ", 1)
        with pytest.raises(Exception) as info:
            _normalized_ty(eval(expr, NS))
        assert type(info.value).__name__ == kind
        assert str(info.value).startswith(message)
    else:
        assert str(_normalized_ty(call)) == inferred


# ---- wrappers: plain Python functions with TVM's signatures ------------------------------------

# Parameter names and defaults of apache-tvm 0.27's wrappers (inspect.signature).
REQUIRED = "<required>"
SIGNATURES = {
    "add": [('x1', REQUIRED), ('x2', REQUIRED)],
    "astype": [('x', REQUIRED), ('dtype', REQUIRED)],
    "broadcast_to": [('x', REQUIRED), ('shape', REQUIRED)],
    "clip": [('x', REQUIRED), ('min', REQUIRED), ('max', REQUIRED)],
    "concat": [('tensors', REQUIRED), ('axis', 0)],
    "divide": [('x1', REQUIRED), ('x2', REQUIRED)],
    "equal": [('x1', REQUIRED), ('x2', REQUIRED)],
    "exp": [('x', REQUIRED)],
    "expand_dims": [('x', REQUIRED), ('axis', REQUIRED)],
    "flatten": [('x', REQUIRED)],
    "greater": [('x1', REQUIRED), ('x2', REQUIRED)],
    "less": [('x1', REQUIRED), ('x2', REQUIRED)],
    "matmul": [('x1', REQUIRED), ('x2', REQUIRED), ('out_dtype', None)],
    "max": [('x', REQUIRED), ('axis', None), ('keepdims', False)],
    "maximum": [('x1', REQUIRED), ('x2', REQUIRED)],
    "mean": [('x', REQUIRED), ('axis', None), ('keepdims', False)],
    "minimum": [('x1', REQUIRED), ('x2', REQUIRED)],
    "multiply": [('x1', REQUIRED), ('x2', REQUIRED)],
    "negative": [('x', REQUIRED)],
    "permute_dims": [('x', REQUIRED), ('axes', None)],
    "power": [('x1', REQUIRED), ('x2', REQUIRED)],
    "reshape": [('x', REQUIRED), ('shape', REQUIRED)],
    "sigmoid": [('x', REQUIRED)],
    "split": [('x', REQUIRED), ('indices_or_sections', REQUIRED), ('axis', 0)],
    "sqrt": [('x', REQUIRED)],
    "squeeze": [('x', REQUIRED), ('axis', None)],
    "strided_slice": [('x', REQUIRED), ('axes', REQUIRED), ('begin', REQUIRED), ('end', REQUIRED), ('strides', None), ('assume_inbound', False)],
    "subtract": [('x1', REQUIRED), ('x2', REQUIRED)],
    "sum": [('x', REQUIRED), ('axis', None), ('keepdims', False)],
    "take": [('x', REQUIRED), ('indices', REQUIRED), ('axis', None), ('mode', 'fast')],
    "tanh": [('x', REQUIRED)],
    "where": [('condition', REQUIRED), ('x1', REQUIRED), ('x2', REQUIRED)],
    "linear": [('data', REQUIRED), ('weight', REQUIRED), ('bias', None), ('out_dtype', None)],
    "nn.adaptive_avg_pool2d": [('data', REQUIRED), ('output_size', None), ('layout', 'NCHW'), ('out_layout', None)],
    "nn.avg_pool2d": [('data', REQUIRED), ('pool_size', (1, 1)), ('strides', (1, 1)), ('padding', (0, 0)), ('dilation', (1, 1)), ('ceil_mode', False), ('count_include_pad', False), ('layout', 'NCHW'), ('out_layout', None)],
    "nn.batch_norm": [('data', REQUIRED), ('gamma', REQUIRED), ('beta', REQUIRED), ('moving_mean', REQUIRED), ('moving_var', REQUIRED), ('axis', REQUIRED), ('epsilon', 1e-05), ('center', True), ('scale', True), ('momentum', 0.1), ('training', True)],
    "nn.conv1d": [('data', REQUIRED), ('weight', REQUIRED), ('strides', 1), ('padding', 0), ('dilation', 1), ('groups', 1), ('data_layout', 'NCW'), ('kernel_layout', 'OIW'), ('out_layout', None), ('out_dtype', None)],
    "nn.conv2d": [('data', REQUIRED), ('weight', REQUIRED), ('strides', (1, 1)), ('padding', (0, 0)), ('dilation', (1, 1)), ('groups', 1), ('data_layout', 'NCHW'), ('kernel_layout', 'OIHW'), ('out_layout', None), ('out_dtype', None)],
    "nn.conv2d_transpose": [('data', REQUIRED), ('weight', REQUIRED), ('strides', (1, 1)), ('padding', (0, 0)), ('output_padding', (0, 0)), ('dilation', (1, 1)), ('groups', 1), ('data_layout', 'NCHW'), ('kernel_layout', 'IOHW'), ('out_layout', None), ('out_dtype', None)],
    "nn.dropout": [('data', REQUIRED), ('rate', 0.5)],
    "nn.gelu": [('data', REQUIRED)],
    "nn.gelu_tanh": [('data', REQUIRED)],
    "nn.layer_norm": [('data', REQUIRED), ('gamma', REQUIRED), ('beta', REQUIRED), ('axes', REQUIRED), ('epsilon', 1e-05), ('center', True), ('scale', True)],
    "nn.log_softmax": [('data', REQUIRED), ('axis', -1)],
    "nn.max_pool2d": [('data', REQUIRED), ('pool_size', (1, 1)), ('strides', (1, 1)), ('padding', (0, 0)), ('dilation', (1, 1)), ('ceil_mode', False), ('count_include_pad', False), ('layout', 'NCHW'), ('out_layout', None)],
    "nn.relu": [('data', REQUIRED)],
    "nn.selu": [('data', REQUIRED)],
    "nn.silu": [('data', REQUIRED)],
    "nn.softmax": [('data', REQUIRED), ('axis', -1)],
}



def _lookup(name):
    return getattr(nn, name[3:]) if name.startswith("nn.") else getattr(op, name)


@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_wrapper_signature(name):
    f = _lookup(name)
    assert isinstance(f, types.FunctionType)
    assert f.__name__ == name.split(".")[-1]
    got = [(p.name, p.default if p.default is not inspect.Parameter.empty else REQUIRED)
           for p in inspect.signature(f).parameters.values()]
    assert got == SIGNATURES[name]


@pytest.mark.parametrize("name", sorted(n for n in SIGNATURES if n != "linear"))
def test_wrapper_calls_the_c_constructor_global(name):
    g = tether.get_global_func("relax.op." + name)
    assert type(g) is tether.core.Function and repr(g) == "ffi.Function"


def test_conv2d_is_a_plain_function():
    assert type(nn.conv2d) is types.FunctionType
    assert repr(nn.conv2d).startswith("<function conv2d at 0x")
    assert nn.conv2d.__module__ == "tether.relax.op.nn"
    g = tether.get_global_func("relax.op.nn.conv2d")
    assert type(g) is tether.core.Function and str(g) == "ffi.Function"


def test_wrapper_and_global_build_equal_calls():
    g = tether.get_global_func("relax.op.nn.conv2d")
    a = g(x, w, (1, 1), (0, 0, 0, 0), (1, 1), 1, "NCHW", "OIHW", None, None)
    b = nn.conv2d(x, w)
    assert ir.structural_equal(a, b)
    assert str(a) == str(b)


@pytest.mark.parametrize("make, attr, expected", [
    (lambda: nn.conv2d(x, w, strides=2), "strides", [2, 2]),
    (lambda: nn.conv2d(x, w, padding=1), "padding", [1, 1, 1, 1]),
    (lambda: nn.conv2d(x, w, dilation=3000), "dilation", [3000, 3000]),
    (lambda: nn.conv2d(x, w, padding=(1, 2)), "padding", [1, 2, 1, 2]),
    (lambda: nn.max_pool2d(x, 3), "pool_size", [3, 3]),
    (lambda: nn.avg_pool2d(x, (2, 2), 2, 1), "strides", [2, 2]),
    (lambda: op.mean(x, 1), "axis", [1]),
    (lambda: op.sum(x, [0, 1]), "axis", [0, 1]),
    (lambda: op.expand_dims(x, -1), "axis", [-1]),
])
def test_wrappers_widen_ints_like_tvm(make, attr, expected):
    """TVM's wrappers turn an int stride / padding / axis into a tuple; tether does it in C
    (_util.widen), before the constructor global sees the argument."""
    assert [int(v) for v in getattr(make().attrs, attr)] == expected


def test_widening_keeps_the_globals_strict():
    g = tether.get_global_func("relax.op.nn.conv2d")
    with pytest.raises(TypeError, match="Expected `Array<int>`"):
        g(x, w, 2, (0, 0, 0, 0), (1, 1), 1, "NCHW", "OIHW", None, None)


# ---- bad input -------------------------------------------------------------------------------------

_bb = R.BlockBuilder()
ERR_NS = dict(NS, bb=_bb, T=T, w5=R.Var("w", T([4, 5, 3, 3])), tvm=tether, x=R.Var("x", T([1, 3, 8, 8])),
              w=R.Var("w", T([4, 3, 3, 3])))

# (case, expression, exception class name, exact message) -- observed with apache-tvm 0.27.
ERRORS = [
    ('conv_channels',
     'bb.normalize(R.op.nn.conv2d(x, w5))',
     'ValueError',
     'The channel size of the data should equal to the product of input channel size of the weight and the number of groups. However, the data channel size is T.int64(3) while the weight input channel size and number of groups are T.int64(5) and 1'),
    ('conv_groups_div',
     'bb.normalize(R.op.nn.conv2d(R.Var("x", T([1, 4, 8, 8])), R.Var("w", T([6, 2, 3, 3])), groups=4))',
     'ValueError',
     'The channel size of the data should equal to the product of input channel size of the weight and the number of groups. However, the data channel size is T.int64(4) while the weight input channel size and number of groups are T.int64(2) and 4'),
    ('conv_bad_data_layout',
     'bb.normalize(R.op.nn.conv2d(x, w, data_layout="NCHX"))',
     'ValueError',
     'ir.Op(span=None, ty=ir.Type(span=None), name="relax.nn.conv2d", description="", arguments=(ir.ArgumentInfo(name="data", type_info="Tensor", description="The input tensor."), ir.ArgumentInfo(name="weight", type_info="Tensor", description="The weight tensor.")), attrs_type_key="relax.attrs.Conv2DAttrs", num_inputs=2, support_level=10) requires the given data layout to be convertible from NCHW layout. However, the given layout NCHX is not convertible.'),
    ('conv_bad_kernel_layout',
     'bb.normalize(R.op.nn.conv2d(x, w, kernel_layout="OIHH"))',
     'ValueError',
     'ir.Op(span=None, ty=ir.Type(span=None), name="relax.nn.conv2d", description="", arguments=(ir.ArgumentInfo(name="data", type_info="Tensor", description="The input tensor."), ir.ArgumentInfo(name="weight", type_info="Tensor", description="The weight tensor.")), attrs_type_key="relax.attrs.Conv2DAttrs", num_inputs=2, support_level=10) requires the given kernel layout to be convertible from OIHW layout. However, the given layout OIHH is not convertible.'),
    ('conv_ndim',
     'bb.normalize(R.op.nn.conv2d(R.Var("y", T([1, 3, 8])), w))',
     'ValueError',
     'In ir.Op(span=None, ty=ir.Type(span=None), name="relax.nn.conv2d", description="", arguments=(ir.ArgumentInfo(name="data", type_info="Tensor", description="The input tensor."), ir.ArgumentInfo(name="weight", type_info="Tensor", description="The weight tensor.")), attrs_type_key="relax.attrs.Conv2DAttrs", num_inputs=2, support_level=10), layout NCHW requires the input to be 4-dim tensor. However, the given input has ndim 3'),
    ('conv_kernel_ndim',
     'bb.normalize(R.op.nn.conv2d(x, R.Var("k", T([4, 3, 3]))))',
     'ValueError',
     'In ir.Op(span=None, ty=ir.Type(span=None), name="relax.nn.conv2d", description="", arguments=(ir.ArgumentInfo(name="data", type_info="Tensor", description="The input tensor."), ir.ArgumentInfo(name="weight", type_info="Tensor", description="The weight tensor.")), attrs_type_key="relax.attrs.Conv2DAttrs", num_inputs=2, support_level=10), layout OIHW requires the input to be 4-dim tensor. However, the given input has ndim 3'),
    ('conv_padding_len',
     'R.op.nn.conv2d(x, w, padding=(1, 2, 3))',
     'InternalError',
     'The input padding length is expected to be either 1, 2 or 4. However, the given padding is (1, 2, 3)'),
    ('conv_groups0',
     'R.op.nn.conv2d(x, w, groups=0)',
     'InternalError',
     'Check failed: groups > 0 (0 vs. 0) : The number of groups in convolution is expected to be positive. However, the given number of groups is 0'),
    ('conv_strides_len',
     'R.op.nn.conv2d(x, w, strides=(1, 2, 3))',
     'InternalError',
     'Check failed: strides.size() == 2 (3 vs. 2) : The input strides length is expected to be 2. However, the given strides is (1, 2, 3)'),
    ('conv_not_tensor',
     'bb.normalize(R.op.nn.conv2d(x, R.Var("s", R.ShapeType([1, 2]))))',
     'TypeError',
     'Operator ir.Op(span=None, ty=ir.Type(span=None), name="relax.nn.conv2d", description="", arguments=(ir.ArgumentInfo(name="data", type_info="Tensor", description="The input tensor."), ir.ArgumentInfo(name="weight", type_info="Tensor", description="The weight tensor.")), attrs_type_key="relax.attrs.Conv2DAttrs", num_inputs=2, support_level=10) requires argument 1 (weight) to be a tensor.  However, the argument s is instead of type R.Shape([1, 2])'),
    ('conv_dtype',
     'bb.normalize(R.op.nn.conv2d(x, R.Var("w", T([4, 3, 3, 3], "float16"))))',
     'TypeError',
     'Binary operators must have the same datatype for both operands.  However, R.nn.conv2d(x, w, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype=None) uses datatype T.float32 on the LHS (Type of R.Tensor((1, 3, 8, 8), dtype="float32")), and datatype T.float16 on the RHS (Type of R.Tensor((4, 3, 3, 3), dtype="float16")).'),
    ('conv_raw_argcount',
     'tvm.get_global_func("relax.op.nn.conv2d")(x, w)',
     'TypeError',
     'Mismatched number of arguments when calling: `relax.op.nn.conv2d(0: ir.Expr, 1: ir.Expr, 2: Array<int>, 3: Array<int>, 4: Array<int>, 5: int, 6: str, 7: str, 8: Optional<str>, 9: Optional<DataType>) -> ir.Expr`. Expected 10 but got 2 arguments'),
    ('conv_raw_argtype',
     'tvm.get_global_func("relax.op.nn.conv2d")(x, w, "a", (0, 0, 0, 0), (1, 1), 1, "NCHW", "OIHW", None, None)',
     'TypeError',
     'Mismatched type on argument #2 when calling: `relax.op.nn.conv2d(0: ir.Expr, 1: ir.Expr, 2: Array<int>, 3: Array<int>, 4: Array<int>, 5: int, 6: str, 7: str, 8: Optional<str>, 9: Optional<DataType>) -> ir.Expr`. Expected `Array<int>` but got `ffi.SmallStr`'),
    ('reshape',
     'bb.normalize(R.op.reshape(x, (3, 7)))',
     'ValueError',
     'Reshape expects the new shape to be convertible from the old shape. However, the old shape is R.shape([1, 3, 8, 8]), with product T.int64(192), while the new shape is R.shape([3, 7]), with product T.int64(21)'),
    ('reshape_two_neg',
     'R.op.reshape(x, (-1, -1))',
     'InternalError',
     'Check failed: dim_to_infer == -1 (0 vs. -1) : Reshape accepts at most one "-1" in the new shape. However, there are multiple "-1" in the given new shape  (-1, -1)'),
    ('matmul',
     'bb.normalize(R.op.matmul(R.Var("x", T([3, 4])), R.Var("y", T([5, 6]))))',
     'ValueError',
     'Matmul requires the reduction length of the operands to be equal.  However, the LHS x has shape R.shape([3, 4]), while the RHS y has shape R.shape([5, 6]).  The reduction dimensions of T.int64(4) and T.int64(5) are not equal.'),
    ('matmul_scalar',
     'bb.normalize(R.op.matmul(R.Var("x", T([])), R.Var("y", T([5, 6]))))',
     'ValueError',
     'Matmul operands must not be scalar.  However, the expression R.matmul(x, y, out_dtype=None) has a LHS of x with type R.Tensor((), dtype="float32"), which is scalar (zero-dimensional) tensor.'),
    ('concat',
     'bb.normalize(R.op.concat([x, R.Var("z", T([1, 4, 9, 8]))], axis=1))',
     'ValueError',
     'Concat expects the input tensors to have the same shape on every dimension except the one indicated by the input axis. However, the input contains tensors whose shapes on dimension 2 is T.int64(8) and T.int64(9)'),
    ('concat_dtype',
     'bb.normalize(R.op.concat([x, R.Var("z", T([1, 3, 8, 8], "float16"))], axis=1))',
     'TypeError',
     'Concat expects all input tensors to have the same dtype. However, the input contains tensors with dtype T.float32 and T.float16'),
    ('concat_ndim',
     'bb.normalize(R.op.concat([x, R.Var("z", T([1, 3, 8]))], axis=1))',
     'ValueError',
     'Concat expects all input tensors to have same ndim. However, the input contains tensors with ndim 4 and 3'),
    ('add_broadcast',
     'bb.normalize(R.op.add(R.Var("a", T([2, 3])), R.Var("b", T([4, 3]))))',
     'ValueError',
     'In ir.Op(span=None, ty=ir.Type(span=None), name="relax.add", description="", arguments=(ir.ArgumentInfo(name="x1", type_info="Tensor", description="The first input tensor."), ir.ArgumentInfo(name="x2", type_info="Tensor", description="The second input tensor.")), attrs_type_key="", num_inputs=2, support_level=10), the first input shape at dim 0 is T.int64(2) and the second input shape at dim 0 is T.int64(4), which are not broadcastable.'),
    ('add_dtype',
     'bb.normalize(R.op.add(R.Var("a", T([2, 3])), R.Var("b", T([2, 3], "int32"))))',
     'TypeError',
     'Binary operators must have the same datatype for both operands.  However, R.add(a, b) uses datatype T.float32 on the LHS (Type of R.Tensor((2, 3), dtype="float32")), and datatype T.int32 on the RHS (Type of R.Tensor((2, 3), dtype="int32")).'),
    ('softmax_int',
     'bb.normalize(R.op.nn.softmax(R.Var("a", T([2, 3], "int32"))))',
     'TypeError',
     'Softmax requires the input tensor to have float dtype. However, the given input dtype is T.int32'),
    ('softmax_axis',
     'bb.normalize(R.op.nn.softmax(R.Var("a", T([2, 3])), axis=2))',
     'ValueError',
     'In ir.Op(span=None, ty=ir.Type(span=None), name="relax.nn.softmax", description="", arguments=(ir.ArgumentInfo(name="data", type_info="Tensor", description="The input tensor."),), attrs_type_key="relax.attrs.SoftmaxAttrs", num_inputs=1, support_level=10), the input axis 2 is out of range. The input tensor has 2 dimensions, so axis should be in range [-2, 2).'),
    ('permute_axes',
     'bb.normalize(R.op.permute_dims(x, [0, 1]))',
     'ValueError',
     'PermuteDims expects the number of input axes to equal the ndim of the input tensor. However, the tensor ndim is 4 while the given number of axes is 2'),
    ('gelu_int',
     'bb.normalize(R.op.nn.gelu(R.Var("a", T([2, 3], "int32"))))',
     'TypeError',
     'ir.Op(span=None, ty=ir.Type(span=None), name="relax.nn.gelu", description="", arguments=(ir.ArgumentInfo(name="x", type_info="Tensor", description="The input tensor."),), attrs_type_key="", num_inputs=1, support_level=10) requires the input tensor to have float dtype. However, the given input dtype is T.int32'),
]


@pytest.mark.parametrize("case,expr,kind,message", ERRORS, ids=[e[0] for e in ERRORS])
def test_bad_input(case, expr, kind, message):
    with pytest.raises(Exception) as info:
        eval(expr, ERR_NS)
    assert type(info.value).__name__ == kind
    assert str(info.value) == message
    if kind == "InternalError":
        assert isinstance(info.value, ir.InternalError) and isinstance(info.value, RuntimeError)


@pytest.mark.parametrize("new_shape,printed", [
    ([0, -1], "R.shape([2, 12])"),       # 0 keeps the input's dim, -1 is inferred
    ([2, 0, 4], "R.shape([2, 3, 4])"),
    ([2, 3, 4], "R.shape([2, 3, 4])"),
])
def test_reshape_reads_a_shape_expr_like_a_list(new_shape, printed):
    # As TVM: a ShapeExpr target's values are resolved as a given list's are.
    x = R.Var("x", R.TensorType([2, 3, 4], "float32"))
    call = R.op.reshape(x, R.ShapeExpr(new_shape))
    assert str(call.args[1]) == printed
    n = ir.Var("n", "int64")
    y = R.Var("y", R.TensorType([n, 4], "float32"))
    assert str(R.op.reshape(y, R.ShapeExpr([n, -1])).args[1]) == "R.shape([n, 4])"
