"""The ONNX op converters: a table from ONNX op type and opset version to a function.

A converter is registered for the first opset version it handles:

    @converter("Relu", 13)
    def relu(g, inputs, attr):
        return relax.op.nn.relu(inputs[0])

and is used for every model opset from that version up to the next version registered for the
same op type.  A model whose opset is older than every registered version gets the oldest one
(apache-tvm's frontend chooses the same way).  A converter receives

    g       the graph importer: g.bb (the BlockBuilder), g.opset, g.get_constant(expr)
            (an initializer kept as a parameter, read as a constant);
    inputs  the node's inputs as Relax expressions (None for an omitted optional input;
            indexing past the end gives None too);
    attr    the node's attributes by name: int, float, bytes (strings), tuples for the list
            kinds, onnx TensorProto / GraphProto for tensors and graphs;

and returns a Relax expression (a Call is normalized by the importer; its bindings are made
where its value is first used) or a relax.Tuple for a node with several outputs.  Converters
fold constant operands with numpy where apache-tvm's frontend does, so that the module is the
one TVM builds.
"""
from __future__ import annotations

import functools

import numpy as np
from onnx import helper as onnx_helper

from .... import core
from ... import op as _op
from ...expr import GenericConst, ShapeExpr, Tuple, TupleGetItem, Var, const
from ...ty import TensorType
from ....ir import IntImm

# Typing names for annotations only.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Dict, List, Optional

__all__ = ["converter", "get_converter", "supported_ops", "ConverterError"]

# op type -> {first opset version handled -> converter}
_TABLE: Dict[str, Dict[int, Callable]] = {}


class ConverterError(ValueError):
    """A node the converter cannot import (a bad attribute, an operand of the wrong kind)."""


def converter(op_type: str, since: int = 1) -> Callable:
    """Decorator: register fn as the converter of `op_type` for opsets >= since (until the
    next version registered for op_type).  Registering the same (op_type, since) again
    replaces the converter."""
    if not isinstance(op_type, str) or not op_type:
        raise TypeError(f"converter: op_type must be a non-empty str, but got {op_type!r}")
    if not isinstance(since, int) or since < 1:
        raise ValueError(f"converter: since must be an opset version >= 1, but got {since!r}")

    def register(fn: Callable) -> Callable:
        _TABLE.setdefault(op_type, {})[since] = fn
        return fn

    return register


def get_converter(op_type: str, opset: int) -> Optional[Callable]:
    """The converter for op_type at opset: the one registered for the largest version <= opset,
    else the oldest one; None when op_type has none."""
    versions = _TABLE.get(op_type)
    if not versions:
        return None
    fit = [v for v in versions if v <= opset]
    return versions[max(fit) if fit else min(versions)]


def supported_ops() -> Dict[str, List[int]]:
    """Every ONNX op type with a converter, with the opset versions registered for it."""
    return {name: sorted(versions) for name, versions in sorted(_TABLE.items())}


# ---- helpers ----------------------------------------------------------------------------------

def _is_const(x: Any) -> bool:
    return isinstance(x, GenericConst)


def _numpy(c: GenericConst) -> np.ndarray:
    """The value of a tensor constant as a numpy array (a view of its data)."""
    return np.from_dlpack(c.value)


def _const_array(arr: Any, dtype: Optional[str] = None) -> GenericConst:
    """A constant holding the array arr with its own dtype (or converted to dtype); what
    relax.const(arr, dtype) builds, without its conversions when arr is ready as it is."""
    arr = np.asarray(arr)
    if dtype is not None and arr.dtype != dtype:
        arr = arr.astype(dtype)
    if not (arr.flags.c_contiguous and arr.flags.writeable):
        arr = np.array(arr, copy=True, order="C")
    return GenericConst(core.from_dlpack(arr))


_DTYPE_NAMES: Dict[Any, str] = {}


def _dtype_name(dtype: np.dtype) -> str:
    """str(dtype), remembered (numpy builds the name anew each time)."""
    name = _DTYPE_NAMES.get(dtype)
    if name is None:
        name = _DTYPE_NAMES[dtype] = str(dtype)
    return name


def _dtype(x: Any) -> str:
    return str(x.ty.dtype)


def _shape_values(x: Any) -> list:
    """The dims of x's static shape (IntImm or symbolic PrimExpr)."""
    shape = x.ty.shape
    if shape is None:
        raise ConverterError("the input's shape is not known statically")
    return list(shape.values)


def _ndim(x: Any) -> int:
    ty = x.ty
    if isinstance(ty, TensorType):
        return int(ty.ndim)
    raise ConverterError(f"expected a tensor input, but got a value of type {ty}")


def _known_rank(x: Any) -> Optional[int]:
    """The statically known rank of x, or None."""
    if _is_const(x):
        return _numpy(x).ndim
    if isinstance(x, ShapeExpr):
        return 1
    ty = x.ty
    if isinstance(ty, TensorType):
        return None if ty.ndim == -1 else int(ty.ndim)
    return None


def _str_attr(attr: dict, name: str, default: str) -> str:
    value = attr.get(name, default)
    return value.decode("utf-8") if isinstance(value, bytes) else value


# ---- elementwise --------------------------------------------------------------------------------

def _relax_op(name: str) -> Callable:
    """The tether.relax.op function `name` ("add", "nn.relu"), looked up when first used."""
    return functools.reduce(getattr, name.split("."), _op)


def _binary(relax_op: str, numpy_op: Callable) -> Callable:
    """A binary elementwise converter: constant operands are folded with numpy (keeping the
    operands' dtype when they agree), anything else becomes relax_op(a, b)."""

    def convert(g, inputs, attr):
        a, b = inputs[0], inputs[1]
        if all(_is_const(x) for x in (a, b)):
            x, y = _numpy(a), _numpy(b)
            out = np.asarray(numpy_op(x, y))
            if x.dtype == y.dtype and out.dtype != np.bool_:
                out = out.astype(x.dtype)
            return _const_array(out)
        return _relax_op(relax_op)(a, b)

    return convert


for _name, _since, _rop, _nop in (
        ("Add", 1, "add", np.add), ("Sub", 7, "subtract", np.subtract),
        ("Mul", 7, "multiply", np.multiply), ("Pow", 1, "power", np.power),
        ("Less", 1, "less", np.less), ("LessOrEqual", 1, "less_equal", np.less_equal),
        ("Greater", 1, "greater", np.greater),
        ("GreaterOrEqual", 1, "greater_equal", np.greater_equal)):
    converter(_name, _since)(_binary(_rop, _nop))


@converter("Equal", 13)
def equal(g, inputs, attr):
    a, b = inputs[0], inputs[1]
    if _is_const(a) and _is_const(b):
        return _const_array(np.asarray(_numpy(a) == _numpy(b)))
    if all(_is_const(x) or isinstance(x, ShapeExpr) for x in (a, b)):
        lhs, rhs = (list(x.values) if isinstance(x, ShapeExpr) else _numpy(x).tolist()
                    for x in (a, b))
        if len(lhs) != len(rhs):
            raise ConverterError("Cannot compare two tensors with different shapes")
        return const([_dims_equal(x, y) for x, y in zip(lhs, rhs)], "bool")
    return _op.equal(a, b)


def _dims_equal(x: Any, y: Any) -> bool:
    """Whether two dims (ints, IntImm, symbolic expressions) are structurally equal."""
    from ....ir import structural_equal

    x = int(x.value) if isinstance(x, IntImm) else x
    y = int(y.value) if isinstance(y, IntImm) else y
    if isinstance(x, int) or isinstance(y, int):
        return isinstance(x, int) and isinstance(y, int) and x == y
    return bool(structural_equal(x, y))


@converter("Div", 7)
def div(g, inputs, attr):
    a, b = inputs[0], inputs[1]
    if _is_const(a) and _is_const(b):
        x, y = _numpy(a), _numpy(b)
        if np.issubdtype(x.dtype, np.integer) and np.issubdtype(y.dtype, np.integer):
            out = np.trunc(np.divide(x, y)).astype(x.dtype)
        else:
            out = np.asarray(np.divide(x, y))
            if x.dtype == y.dtype:
                out = out.astype(x.dtype)
        return _const_array(out)
    return _op.divide(a, b)


def _unary(relax_op: str) -> Callable:
    def convert(g, inputs, attr):
        return _relax_op(relax_op)(inputs[0])

    return convert


# ONNX op, the opset its converter is registered for, the Relax op.
_UNARY = (
    ("Relu", 13, "nn.relu"), ("Sigmoid", 13, "sigmoid"), ("Tanh", 7, "tanh"),
    ("Sqrt", 1, "sqrt"), ("Erf", 13, "erf"), ("Floor", 1, "floor"), ("Ceil", 1, "ceil"),
    ("Round", 1, "round"), ("IsInf", 10, "isinf"), ("IsNaN", 9, "isnan"), ("Sign", 9, "sign"),
    ("Not", 1, "logical_not"), ("Sin", 7, "sin"), ("Cos", 7, "cos"), ("Tan", 7, "tan"),
    ("Asin", 7, "asin"), ("Acos", 7, "acos"), ("Atan", 7, "atan"), ("Sinh", 9, "sinh"),
    ("Cosh", 9, "cosh"), ("Asinh", 9, "asinh"), ("Acosh", 9, "acosh"), ("Atanh", 9, "atanh"),
)
for _name, _since, _rop in _UNARY:
    converter(_name, _since)(_unary(_rop))


@converter("Neg", 13)
def neg(g, inputs, attr):
    if _is_const(inputs[0]):
        return const(np.negative(_numpy(inputs[0])), _dtype(inputs[0]))
    return _op.negative(inputs[0])


@converter("Abs", 13)
def abs_(g, inputs, attr):
    if _is_const(inputs[0]):
        return _const_array(np.abs(_numpy(inputs[0])))
    return _relax_op("abs")(inputs[0])


@converter("Log", 13)
def log(g, inputs, attr):
    if _is_const(inputs[0]):
        return const(np.log(_numpy(inputs[0])), _dtype(inputs[0]))
    return _relax_op("log")(inputs[0])


@converter("Reciprocal", 13)
def reciprocal(g, inputs, attr):
    return _op.divide(const(1, dtype=_dtype(inputs[0])), inputs[0])


def _exp(valid: tuple) -> Callable:
    def convert(g, inputs, attr):
        dtype = _dtype(inputs[0])
        if dtype not in valid:
            raise ConverterError(f"Types {list(valid)} are supported only, but {dtype} is given")
        return _op.exp(inputs[0])

    return convert


converter("Exp", 1)(_exp(("float", "float32", "double", "float64", "float16")))
converter("Exp", 13)(_exp(("float", "float32", "double", "float64", "float16", "bfloat16")))


@converter("LeakyRelu", 1)
def leaky_relu(g, inputs, attr):
    return _relax_op("nn.leakyrelu")(inputs[0], attr.get("alpha", 0.01))


@converter("Identity", 1)
def identity(g, inputs, attr):
    return inputs[0]


@converter("Dropout", 1)
def dropout_v1(g, inputs, attr):
    return _op.nn.dropout(inputs[0], float(attr.get("ratio", 0.5)))


@converter("Dropout", 12)
def dropout_v12(g, inputs, attr):
    # From opset 12 the ratio is the optional second input.
    ratio = 0.5
    if inputs[1] is not None:
        r = g.get_constant(inputs[1])
        if _is_const(r):
            ratio = float(_numpy(r))
    return _op.nn.dropout(inputs[0], ratio)


@converter("Where", 16)
def where(g, inputs, attr):
    cond, x, y = inputs[0], inputs[1], inputs[2]
    if all(_is_const(v) for v in (cond, x, y)):
        return _const_array(np.where(_numpy(cond), _numpy(x), _numpy(y)))
    if any(isinstance(v, ShapeExpr) for v in (cond, x, y)):
        raise NotImplementedError("Where over shape values is not supported yet")
    return _op.where(cond, x, y)


# ---- casts --------------------------------------------------------------------------------------

def _is_float_dtype(dtype: str) -> bool:
    return dtype.startswith(("float", "bfloat"))


def _wrap_to_int(g, data, src: str, to: str):
    """data (a float tensor) cast to the integer dtype `to` as onnxruntime casts: NaN and inf
    become 0, then the value wraps modulo 2**bits (apache-tvm's sequence of Relax ops)."""
    x = g.bb.emit(_op.where(_relax_op("logical_not")(_relax_op("isfinite")(data)),
                            const(0.0, src), data))
    signed = to.startswith("int")
    bits = int(to[3:] if signed else to[4:])
    if bits == 64:
        return _op.astype(x, to)
    tmp = "int64" if bits >= 32 else "int32"
    t = _op.astype(x, tmp)
    if bits == 32:
        two_pow = const(1 << bits, tmp)
        unsigned = _relax_op("floor_mod")(t, two_pow)
    else:
        mask = const((1 << bits) - 1, tmp)
        unsigned = _relax_op("bitwise_and")(t, mask)
    if signed:
        if bits != 32:
            two_pow = _op.add(mask, const(1, tmp))
        wrapped = _op.where(_relax_op("greater_equal")(unsigned, const(1 << (bits - 1), tmp)),
                            _op.subtract(unsigned, two_pow), unsigned)
    else:
        wrapped = unsigned
    return _op.astype(wrapped, to)


@converter("Cast", 13)
def cast(g, inputs, attr):
    to = str(onnx_helper.tensor_dtype_to_np_dtype(attr["to"]))
    data = inputs[0]
    if isinstance(data, ShapeExpr):
        if all(isinstance(v, IntImm) for v in data.values):
            return const([int(v.value) for v in data.values], to)
        data = g.bb.normalize(_relax_op("shape_to_tensor")(data))
    if _is_const(data):
        return const(_numpy(data).astype(to), to)
    src = _dtype(data)
    if to.startswith(("int", "uint")) and _is_float_dtype(src):
        return _wrap_to_int(g, data, src, to)
    return _op.astype(data, to)


# ---- constants ----------------------------------------------------------------------------------

# Constant's scalar and list attributes (beyond apache-tvm 0.27, which reads only `value`):
# attribute -> numpy dtype of the constant.
_CONSTANT_ATTRS = {"value_float": "float32", "value_floats": "float32", "value_int": "int64",
                   "value_ints": "int64"}


@converter("Constant", 13)
def constant(g, inputs, attr):
    if "value" in attr:
        value = attr["value"]
        if isinstance(value, bytes):  # a string constant: TVM imports it as int64 0
            arr = np.asarray([0]).astype("int64")
        else:
            arr = g.tensor_array(value)
        return _const_array(arr)
    for name, dtype in _CONSTANT_ATTRS.items():
        if name in attr:
            return _const_array(np.array(attr[name], dtype=dtype))
    if "value_string" in attr or "value_strings" in attr:
        raise NotImplementedError("Constant with a string value (value_string / value_strings):"
                                  " Relax tensors hold no strings")
    raise ConverterError("no value in Constant")


@converter("ConstantOfShape", 9)
def constant_of_shape(g, inputs, attr):
    shape = g.get_constant(inputs[0])
    proto = attr.get("value")
    value = g.tensor_array(proto) if proto is not None else 0
    dtype = _dtype_name(value.dtype) if isinstance(value, np.ndarray) else "float32"
    if _is_const(shape):
        dims = _numpy(shape)
        if dims.ndim != 1:
            raise ConverterError(f"ConstantOfShape: the shape must be 1-D, but it has "
                                 f"{dims.ndim} dims")
        dims = [int(v) for v in dims.tolist()]
        if len(dims) == 1:  # a 1-D result is built as a constant
            return _const_array(np.full(dims, value, dtype))
        shape = ShapeExpr(dims)
    elif isinstance(shape, ShapeExpr) and len(shape) == 1 \
            and isinstance(shape.values[0], IntImm):
        return _const_array(np.full([int(shape.values[0].value)], value, dtype))
    if not isinstance(shape, ShapeExpr):
        shape = _op.tensor_to_shape(shape)
    fill = _const_array(value) if isinstance(value, np.ndarray) else const(value, dtype)
    return _op.broadcast_to(fill, shape)


# ---- nn -----------------------------------------------------------------------------------------

_CONV = {3: ("conv1d", "NCW", "OIW"), 4: ("conv2d", "NCHW", "OIHW"),
         5: ("conv3d", "NCDHW", "OIDHW")}


@converter("Conv", 11)
def conv(g, inputs, attr):
    data, weight = inputs[0], inputs[1]
    ndim = _ndim(data)
    if ndim not in _CONV:
        raise NotImplementedError("Ndim > 5 not supported for convolution.")
    name, data_layout, kernel_layout = _CONV[ndim]
    auto_pad = _str_attr(attr, "auto_pad", "NOTSET")
    pads = attr.get("pads", 0)
    if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        raise NotImplementedError(f"Conv with auto_pad={auto_pad} is not supported yet")
    if auto_pad == "VALID":
        pads = [0] * (ndim - 2)
    elif auto_pad != "NOTSET":
        raise ConverterError(f'Value {auto_pad} in attribute "auto_pad" of operator Conv is '
                             "invalid.")
    out = g.bb.normalize(getattr(_op.nn, name)(
        data=data, weight=weight, strides=attr.get("strides", 1), padding=pads,
        dilation=attr.get("dilations", 1), groups=attr.get("group", 1),
        data_layout=data_layout, kernel_layout=kernel_layout))
    if inputs[2] is not None:
        bias = _op.reshape(inputs[2], [1, -1] + [1] * (ndim - 2))
        out = _op.add(out, bias)
    return out


@converter("BatchNormalization", 15)
def batch_norm(g, inputs, attr):
    data, scale, bias, mean, var = inputs[0], inputs[1], inputs[2], inputs[3], inputs[4]
    dts = [_dtype(x) for x in (data, scale, bias, mean, var)]
    if dts[1] != dts[2]:
        raise ConverterError("ONNX BatchNormalization requires scale and bias to have the same "
                             f"dtype, but received {dts[1]} and {dts[2]}.")
    if dts[3] != dts[4]:
        raise ConverterError("ONNX BatchNormalization requires mean and var to have the same "
                             f"dtype, but received {dts[3]} and {dts[4]}.")
    training = attr.get("training_mode", 0)
    if dts[0] == dts[1] == dts[3]:
        compute = dts[0]
    elif dts[0] == "float16" and dts[1] in ("float16", "float32") \
            and dts[3] in ("float16", "float32"):
        compute = "float32"
    else:
        raise NotImplementedError(
            "ONNX BatchNormalization with mixed input dtypes is supported only for float16 "
            f"data with float16/float32 parameters, but received data={dts[0]}, "
            f"scale/bias={dts[1]}, mean/var={dts[3]}.")
    if training and dts[0] == "float16":
        compute = "float32"

    def cast(x, dt):
        return x if dt == compute else _op.astype(x, compute)

    out = _op.nn.batch_norm(cast(data, dts[0]), gamma=cast(scale, dts[1]),
                            beta=cast(bias, dts[2]), moving_mean=cast(mean, dts[3]),
                            moving_var=cast(var, dts[4]), axis=1,
                            epsilon=attr.get("epsilon", 1e-05),
                            momentum=attr.get("momentum", 0.9), training=bool(training))
    items = [TupleGetItem(out, i) for i in range(3)]
    for i, dt in ((0, dts[0]), (1, dts[3]), (2, dts[4])):
        if compute != dt:
            items[i] = _op.astype(items[i], dt)
    return Tuple(items)


def _pool(kind: str) -> Callable:
    def convert(g, inputs, attr):
        data = inputs[0]
        ndim = len(_shape_values(data))
        auto_pad = _str_attr(attr, "auto_pad", "NOTSET")
        kernel = attr.get("kernel_shape")
        if kernel is None or len(kernel) not in (1, 2, 3):
            raise ConverterError("Currently only 1D/2D/3D/ pooling is supported.")
        strides = attr.get("strides", [1] * (ndim - 2))
        dilations = attr.get("dilations", [1] * (ndim - 2))
        pads = attr.get("pads", 0)
        if auto_pad not in ("NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"):
            raise ConverterError(f"Value {auto_pad} in attribute auto_pad is invalid.")
        if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
            raise NotImplementedError(f"{kind} with auto_pad={auto_pad} is not supported yet")
        fn = getattr(_op.nn, f"{kind}{len(kernel)}d")
        return fn(data, kernel, strides, pads, dilations, attr.get("ceil_mode", 0),
                  attr.get("count_include_pad", False))

    return convert


converter("MaxPool", 1)(_pool("max_pool"))
converter("AveragePool", 1)(_pool("avg_pool"))


@converter("GlobalAveragePool", 1)
def global_average_pool(g, inputs, attr):
    return _op.mean(inputs[0], axis=list(range(2, len(_shape_values(inputs[0])))),
                    keepdims=True)


@converter("GlobalMaxPool", 1)
def global_max_pool(g, inputs, attr):
    return _op.max(inputs[0], axis=list(range(2, len(_shape_values(inputs[0])))),
                   keepdims=True)


@converter("LRN", 13)
def lrn(g, inputs, attr):
    data = inputs[0]
    size = attr["size"]
    ndim = _ndim(data)
    if ndim not in (3, 4):
        raise ConverterError(f"LRN only supports 3D or 4D input, got {ndim}D.")
    squared = _op.expand_dims(_op.multiply(data, data), axis=1)
    half = size // 2
    if ndim == 3:
        pooled = _op.nn.avg_pool2d(squared, pool_size=(size, 1), strides=(1, 1),
                                   padding=[half, 0, half, 0], layout="NCHW",
                                   ceil_mode=False, count_include_pad=True)
    else:
        pooled = _op.nn.avg_pool3d(squared, pool_size=(size, 1, 1), strides=(1, 1, 1),
                                   padding=[half, 0, 0, half, 0, 0], layout="NCDHW",
                                   ceil_mode=False, count_include_pad=True)
    scale = _op.multiply(_op.squeeze(pooled, axis=1),
                         const(attr.get("alpha", 0.0001), dtype="float32"))
    scale = _op.add(scale, const(attr.get("bias", 1.0), dtype="float32"))
    return _op.divide(data, _op.power(scale, const(attr.get("beta", 0.75), dtype="float32")))


def _softmax_legacy(kind: str) -> Callable:
    """Softmax before opset 13: over the input flattened to 2-D at `axis`."""

    def convert(g, inputs, attr):
        data = inputs[0]
        axis = attr.get("axis", 1)
        rank = _known_rank(data)
        fn = getattr(_op.nn, kind)
        if rank is None or not isinstance(data.ty, TensorType) or data.ty.shape is None:
            return fn(data, axis=axis)
        if axis < -rank or axis > rank:
            raise ConverterError(f"Softmax axis {axis} is out of range for rank {rank}.")
        if axis < 0:
            axis += rank
        dims = _shape_values(data)
        lead, tail = 1, 1
        for d in dims[:axis]:
            lead = lead * (int(d.value) if isinstance(d, IntImm) else d)
        for d in dims[axis:]:
            tail = tail * (int(d.value) if isinstance(d, IntImm) else d)
        out = fn(_op.reshape(data, (lead, tail)), axis=-1)
        return _op.reshape(out, tuple(dims))

    return convert


converter("Softmax", 1)(_softmax_legacy("softmax"))


@converter("Softmax", 13)
def softmax(g, inputs, attr):
    return _op.nn.softmax(inputs[0], axis=attr.get("axis", -1))


# ---- linear algebra -----------------------------------------------------------------------------

@converter("MatMul", 13)
def matmul(g, inputs, attr):
    return _op.matmul(inputs[0], inputs[1])


@converter("Gemm", 13)
def gemm(g, inputs, attr):
    a, b, c = inputs[0], inputs[1], inputs[2]
    alpha, beta = attr.get("alpha"), attr.get("beta")
    dtype = _dtype(a)
    if alpha is not None and alpha != 1.0:
        a = _op.multiply(a, const(alpha, dtype=dtype))
    if attr.get("transA", False):
        a = _op.permute_dims(a, [1, 0])
    if attr.get("transB", False):
        b = _op.permute_dims(b, [1, 0])
    y = _op.matmul(a, b)
    if c is not None:
        if beta is not None and beta != 1.0:
            c = _op.multiply(c, const(beta, dtype=dtype))
        y = _op.add(y, c)
    return y


# ---- shape manipulation ------------------------------------------------------------------------

@converter("Flatten", 13)
def flatten(g, inputs, attr):
    axis = attr.get("axis", 1)
    dims = _shape_values(inputs[0])
    rank = len(dims)
    if axis < 0:
        axis += rank
    if not 0 <= axis <= rank:
        raise ConverterError(f"Flatten axis {attr.get('axis', 1)} is out of range "
                             f"[-{rank}, {rank}] for an input of rank {rank}")
    if axis == 0:
        return _op.reshape(inputs[0], (1, -1))
    lead = 1
    if all(isinstance(d, IntImm) for d in dims[:axis]):
        for d in dims[:axis]:
            lead *= int(d.value)
    else:
        for d in dims[:axis]:
            lead = lead * d
    return _op.reshape(inputs[0], (lead, -1))


@converter("Reshape", 13)
def reshape(g, inputs, attr):
    data, shape = inputs[0], g.get_constant(inputs[1])
    allowzero = attr.get("allowzero", 0)
    if isinstance(data, ShapeExpr):
        if _is_const(shape) and _numpy(shape).tolist() == [-1]:
            return data
        data = g.bb.normalize(_op.shape_to_tensor(data))
    if _is_const(data) and _is_const(shape):
        arr = _numpy(data)
        dims = _numpy(shape).tolist()
        if not allowzero:
            dims = [arr.shape[i] if d == 0 else d for i, d in enumerate(dims)]
        return _const_array(np.reshape(arr, dims))
    if _is_const(shape):
        dims = _numpy(shape).tolist()
        if allowzero and 0 in dims:
            raise NotImplementedError("Reshape with allowzero=1 and a 0 dim is not supported yet")
        shape = dims
    return _op.reshape(data, shape)


def _normalize_axes(axes: list, rank: int, op_name: str) -> list:
    out = []
    for axis in axes:
        if not -rank <= axis < rank:
            raise ConverterError(f"{op_name} axis {axis} is out of range for rank {rank}.")
        out.append(axis + rank if axis < 0 else axis)
    return out


@converter("Unsqueeze", 1)
def unsqueeze_v1(g, inputs, attr):
    # Before opset 13 the axes are an attribute.
    return unsqueeze(g, [inputs[0], const(list(attr.get("axes", ())), "int64")], attr)


@converter("Unsqueeze", 13)
def unsqueeze(g, inputs, attr):
    data, axes = inputs[0], g.get_constant(inputs[1])
    if not _is_const(axes):
        raise NotImplementedError("Unsqueeze with axes computed at run time is not supported yet")
    axes_list = [int(a) for a in _numpy(axes).tolist()]
    if _is_const(data):
        arr = _numpy(data)
        norm = sorted(_normalize_axes(axes_list, arr.ndim + len(axes_list), "Unsqueeze"))
        dims = iter(arr.shape)
        shape = [1 if i in norm else next(dims) for i in range(arr.ndim + len(norm))]
        return const(arr.reshape(shape), _dtype(data))
    rank = _known_rank(data)
    if rank is None:
        raise ConverterError("Unsqueeze requires a statically known input rank.")
    for axis in sorted(_normalize_axes(axes_list, rank + len(axes_list), "Unsqueeze")):
        data = _op.expand_dims(data, axis=axis)
    return data


@converter("Squeeze", 1)
def squeeze_v1(g, inputs, attr):
    # Before opset 13 the axes are an attribute.
    return _squeeze(g, inputs[0], attr.get("axes"))


@converter("Squeeze", 13)
def squeeze(g, inputs, attr):
    axes = g.get_constant(inputs[1])
    if _is_const(axes):
        axes = tuple(int(a) for a in _numpy(axes).tolist())
    return _squeeze(g, inputs[0], axes)


def _squeeze(g, data, axes):
    if axes is not None and not isinstance(axes, tuple):
        raise NotImplementedError("Squeeze with axes computed at run time is not supported yet")
    if _is_const(data):
        return const(np.squeeze(_numpy(data), axes), _dtype(data))
    if isinstance(data, ShapeExpr):
        raise NotImplementedError("Squeeze of a shape value is not supported yet")
    if axes is None:
        return _op.squeeze(data)
    rank = _known_rank(data)
    if rank is not None and data.ty.shape is not None:
        dims = _shape_values(data)
        for axis in _normalize_axes(list(axes), rank, "Squeeze"):
            if not isinstance(dims[axis], IntImm):
                raise ConverterError(
                    f"Squeeze axis {axis} has a symbolic extent that cannot be proven to be 1 "
                    "at import time; only statically known unit-size axes can be squeezed.")
            if int(dims[axis].value) != 1:
                raise ConverterError(f"Squeeze axis {axis} has size {int(dims[axis].value)}, "
                                     "but only axes of size 1 can be squeezed.")
    return _op.squeeze(data, list(axes))


@converter("Transpose", 13)
def transpose(g, inputs, attr):
    data = inputs[0]
    perm = attr.get("perm")
    rank = _known_rank(data)
    if rank == 0:
        return data
    if rank is not None and perm is not None and len(perm) != rank:
        raise ConverterError(f"Transpose: number of axes in perm attribute ({len(perm)}) must "
                             f"equal the number of input tensor dimensions ({rank})")
    if _is_const(data):
        return _const_array(np.transpose(_numpy(data), perm))
    return _op.permute_dims(data, perm)


@converter("Concat", 13)
def concat(g, inputs, attr):
    axis = attr.get("axis", 0)

    def resolve(x):  # a 1-D int64 parameter, for the shape fast path
        if isinstance(x, Var) and x.name in g.params:
            arr = g.params[x.name][1]
            if arr.ndim == 1 and arr.dtype == np.int64:
                return const(arr, "int64")
        return x

    resolved = [resolve(x) for x in inputs]

    def shape_like(x):
        if isinstance(x, ShapeExpr):
            return True
        return _is_const(x) and _ndim(x) == 1 and _dtype(x) == "int64"

    if all(shape_like(x) for x in resolved):
        dims = []
        for x in resolved:
            dims.extend(x.values if isinstance(x, ShapeExpr) else _numpy(x).tolist())
        return ShapeExpr(dims)
    if all(_is_const(x) for x in inputs):
        out = np.concatenate([_numpy(x) for x in inputs], axis=axis)
        return const(out, _dtype(inputs[0]))
    return _op.concat(list(inputs), axis=axis)


# ---- multi-input reductions ---------------------------------------------------------------------

def _broadcast_dims(a: list, b: list) -> list:
    """The static broadcast of two shapes (dims as IntImm, ints or symbolic expressions).  A
    symbolic dim broadcasts against 1 and against itself; against a constant other than 1 or
    another symbolic dim its broadcast is not known at import time (ConverterError: either
    may be 1 at run time, and broadcast_to needs to know which)."""
    a = [int(d.value) if isinstance(d, IntImm) else d for d in a]
    b = [int(d.value) if isinstance(d, IntImm) else d for d in b]
    if len(a) < len(b):
        a, b = b, a
    b = [1] * (len(a) - len(b)) + b
    out = []
    for x, y in zip(a, b):
        if isinstance(x, int) and isinstance(y, int):
            if x != y and 1 not in (x, y):
                raise ConverterError(f"shapes do not broadcast: {a} and {b}")
            out.append(max(x, y) if 1 in (x, y) else x)
        elif isinstance(x, int) or isinstance(y, int):  # a constant against a symbolic dim
            fixed, symbolic = (x, y) if isinstance(x, int) else (y, x)
            if fixed != 1:
                raise ConverterError(f"the symbolic dim {symbolic} and the dim {fixed} have no "
                                     "broadcast known at import time")
            out.append(symbolic)
        elif _dims_equal(x, y):
            out.append(x)
        else:
            raise ConverterError(f"the symbolic dims {x} and {y} differ: their broadcast is "
                                 "not known at import time (name them alike in the model)")
    return out


def _multi(name: str, reduce_op: str, pair_op: str, numpy_op: Callable) -> Callable:
    """Sum / Max / Min / Mean of several inputs: the inputs broadcast to their common shape,
    stacked and reduced (apache-tvm's form); for an input of unknown shape, the pairwise op
    (whose broadcasting is ONNX's) folded over the inputs."""

    def convert(g, inputs, attr):
        inputs = list(inputs)
        if all(_is_const(x) for x in inputs):
            arrs = [_numpy(x) for x in inputs]
            target = np.broadcast_shapes(*(a.shape for a in arrs))
            out = np.asarray(numpy_op(np.stack([np.broadcast_to(a, target) for a in arrs]),
                                      axis=0))
            return _const_array(out)
        if any(x.ty.shape is None for x in inputs):
            out = functools.reduce(
                lambda a, b: g.bb.normalize(getattr(_op, pair_op)(a, b)), inputs)
            if name == "Mean":
                out = _op.divide(out, const(len(inputs), _dtype(inputs[0])))
            return out
        try:
            target = functools.reduce(_broadcast_dims, [_shape_values(x) for x in inputs])
        except ConverterError as err:
            raise ConverterError(f"{name}: {err}") from None
        parts = [g.bb.normalize(_op.broadcast_to(x, target)) for x in inputs]
        return getattr(_op, reduce_op)(g.bb.normalize(_op.stack(parts, axis=0)), axis=0)

    return convert


for _name, _red, _pair, _nop in (("Sum", "sum", "add", np.sum), ("Max", "max", "maximum", np.max),
                                 ("Min", "min", "minimum", np.min),
                                 ("Mean", "mean", "add", np.mean)):
    converter(_name, 1)(_multi(_name, _red, _pair, _nop))


# ---- reductions, arg-reductions, gathers, scatters, search -------------------------------------

def _const_input(g, value: Any, op_name: str, what: str) -> Optional[np.ndarray]:
    """The value of an optional operand that must be known at import time (an initializer or
    a constant), as a numpy array; None when the operand is omitted.  An operand computed at
    run time raises NotImplementedError naming the op and the operand."""
    if value is None:
        return None
    value = g.get_constant(value)
    if not _is_const(value):
        raise NotImplementedError(
            f"{op_name}: the {what!r} input is computed at run time, but it must be a constant "
            "(an initializer or a Constant node): the Relax op needs its value when the graph "
            "is imported")
    return _numpy(value)


# The reductions that are one Relax op.
_REDUCE_OPS = {"ReduceMax": "max", "ReduceMin": "min", "ReduceSum": "sum",
               "ReduceMean": "mean", "ReduceProd": "prod"}


def _reduce_body(name: str, data: Any, axes: Optional[list], keepdims: Any) -> Any:
    """The Relax expression of ONNX reduction `name` over axes (None: every axis)."""
    if name == "ReduceLogSumExp":
        # log(sum(exp(x - max))) + max, the max kept as a broadcastable tensor.
        peak = _op.max(data, axes, True)
        total = _op.sum(_op.exp(_op.subtract(data, peak)), axes, True)
        out = _op.add(_op.log(total), peak)
        return out if keepdims else _op.squeeze(out, axes)
    if name == "ReduceLogSum":
        return _op.log(_op.sum(data, axes, keepdims))
    if name == "ReduceSumSquare":
        return _op.sum(_op.multiply(data, data), axes, keepdims)
    if name == "ReduceL1":
        return _op.sum(_op.abs(data), axes, keepdims)
    if name == "ReduceL2":
        return _op.sqrt(_op.sum(_op.multiply(data, data), axes, keepdims))
    return _relax_op(_REDUCE_OPS[name])(data, axes, keepdims)


def _reduce_attr_axes(name: str) -> Callable:
    """A reduction whose axes are the `axes` attribute (absent: every axis)."""

    def convert(g, inputs, attr):
        axes = attr.get("axes")
        return _reduce_body(name, inputs[0], list(axes) if axes is not None else None,
                            attr.get("keepdims", 1))

    return convert


def _reduce_input_axes(name: str) -> Callable:
    """A reduction whose axes are the optional second input, which must be a constant; empty
    or omitted axes reduce every axis, or, with noop_with_empty_axes, leave the input as it
    is."""

    def convert(g, inputs, attr):
        data, axes = inputs[0], inputs[1]
        keepdims = attr.get("keepdims", 1)
        if isinstance(axes, Var) and axes.name in g.empty_inputs:
            # (beyond apache-tvm 0.27) a graph input declared with the shape (0,) is empty:
            # its value is known, though it is given at run time.
            axes = None
        elif axes is not None and _known_rank(data) == 1 \
                and not attr.get("noop_with_empty_axes", 0) \
                and not _is_const(g.get_constant(axes)):
            # (beyond apache-tvm 0.27) over a 1-D input every axes value (empty, [0], [-1])
            # reduces the one axis.
            axes = None
        axes = _const_input(g, axes, name, "axes")
        if axes is not None and axes.ndim > 1:
            raise ConverterError(f"{name}: axes must be a 1-D tensor, but it has shape "
                                 f"{list(axes.shape)}")
        axes = [int(a) for a in axes.reshape(-1).tolist()] if axes is not None else []
        if not axes:
            if attr.get("noop_with_empty_axes", 0):
                return data
            return _reduce_body(name, data, None, keepdims)
        return _reduce_body(name, data, axes, keepdims)

    return convert


# ONNX reduction, the opset its axes became an input, the oldest opset converted with axes as
# an attribute (apache-tvm's choice of versions: an older model uses that one too).
for _name, _input_since, _attr_since in (
        ("ReduceMax", 18, 11), ("ReduceMin", 18, 11), ("ReduceSum", 13, 11),
        ("ReduceMean", 18, 13), ("ReduceProd", 18, 13), ("ReduceLogSumExp", 18, 13),
        ("ReduceLogSum", 18, 13), ("ReduceSumSquare", 18, 13), ("ReduceL1", 18, 13),
        ("ReduceL2", 18, 13)):
    converter(_name, _attr_since)(_reduce_attr_axes(_name))
    converter(_name, _input_since)(_reduce_input_axes(_name))


def _arg_reduce(name: str, relax_op: str, negative_axis: bool) -> Callable:
    """ArgMax / ArgMin: the index of the extreme along `axis` (int64).  With
    select_last_index the input is flipped along the axis and the index mapped back
    (extent - 1 - index).  negative_axis: whether a negative axis counts from the end (from
    opset 11)."""

    def convert(g, inputs, attr):
        data = inputs[0]
        rank = _ndim(data)
        if rank < 0:
            raise ConverterError(f"{name}: the input's rank must be known at import time")
        axis = attr.get("axis", 0)
        if negative_axis and axis < 0:
            axis += rank
        if not 0 <= axis < rank:
            raise ConverterError(f"{name}: axis {attr.get('axis', 0)} is out of range for an "
                                 f"input of rank {rank}")
        keepdims = attr.get("keepdims", True)
        fn = _relax_op(relax_op)
        if not attr.get("select_last_index", False):
            return fn(data, axis, keepdims)
        index = g.bb.normalize(fn(_op.flip(data, axis=axis), axis, keepdims))
        extent = _shape_values(data)[axis]
        if isinstance(extent, IntImm):
            last = const(int(extent.value) - 1, "int64")
        else:
            extent = g.bb.normalize(_op.take(_runtime_dims(g, data), const(axis, "int64"),
                                             axis=0))
            last = g.bb.normalize(_op.subtract(extent, const(1, "int64")))
        return _op.subtract(last, index)

    return convert


for _name, _rop in (("ArgMax", "argmax"), ("ArgMin", "argmin")):
    converter(_name, 1)(_arg_reduce(_name, _rop, False))
    converter(_name, 11)(_arg_reduce(_name, _rop, True))


def _index_dtype(x: Any) -> str:
    return str(x.ty.dtype)


def _wrap_negative(g, indices: Any, extent: Any) -> Any:
    """indices with each negative index i replaced by i + extent (extent broadcasts against
    indices and has their dtype); unsigned indices are returned as they are."""
    dtype = _index_dtype(indices)
    if dtype.startswith("uint"):
        return indices
    return g.bb.normalize(_op.where(_op.less(indices, const(0, dtype)),
                                    _op.add(indices, extent), indices))


def _runtime_dims(g, data: Any) -> Any:
    """data's shape as an int64 tensor computed at run time."""
    return g.bb.normalize(_op.shape_to_tensor(_op.shape_of(data)))


def _runtime_extent(g, data: Any, axis: int, dtype: str) -> Any:
    """data.shape[axis] computed at run time, as a 0-d tensor of dtype."""
    extent = g.bb.normalize(_op.take(_runtime_dims(g, data), const(axis, "int64"), axis=0,
                                     mode="wrap"))
    return extent if dtype == "int64" else g.bb.normalize(_op.astype(extent, dtype))


def _runtime_extents(g, data: Any, indices: Any, start: int) -> Any:
    """data.shape[start : start + indices.shape[-1]] computed at run time (the extents of the
    axes an index tuple of GatherND / ScatterND addresses), in the indices' dtype."""
    count = _shape_values(indices)[-1]
    count = int(count.value) if isinstance(count, IntImm) else count
    extents = g.bb.normalize(_op.strided_slice(_runtime_dims(g, data), axes=[0], begin=[start],
                                               end=[start + count]))
    dtype = _index_dtype(indices)
    return extents if dtype == "int64" else g.bb.normalize(_op.astype(extents, dtype))


@converter("GatherElements", 13)
def gather_elements(g, inputs, attr):
    data, indices = inputs[0], inputs[1]
    axis = attr.get("axis", 0)
    extent = _runtime_extent(g, data, axis, _index_dtype(indices))
    return _op.gather_elements(data, _wrap_negative(g, indices, extent), axis)


@converter("GatherND", 13)
def gather_nd(g, inputs, attr):
    data, indices = inputs[0], inputs[1]
    batch_dims = attr.get("batch_dims", 0)
    extents = _runtime_extents(g, data, indices, batch_dims)
    return _op.gather_nd(data, _wrap_negative(g, indices, extents), batch_dims)


def _same_dims(a: Optional[list], b: Optional[list]) -> bool:
    """Whether two static shapes are the same: equal ints, or the same symbolic vars."""
    if a is None or b is None or len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if isinstance(x, IntImm) and isinstance(y, IntImm):
            if int(x.value) != int(y.value):
                return False
        elif isinstance(x, IntImm) or isinstance(y, IntImm) or not x.same_as(y):
            return False
    return True


def _static_dims(x: Any) -> Optional[list]:
    """The dims of x's shape (IntImm or symbolic), None when its shape is not known."""
    shape = x.ty.shape if isinstance(x.ty, TensorType) else None
    return None if shape is None else list(shape.values)


@converter("Scatter", 9)
def scatter(g, inputs, attr):
    data, indices, updates = inputs[0], inputs[1], inputs[2]
    axis = attr.get("axis", 0)
    data_dims, index_dims = _static_dims(data), _static_dims(indices)
    if _same_dims(index_dims, data_dims):
        return _op.scatter_elements(data, indices, updates, axis=axis)
    # indices smaller than data: every entry of indices names its target position (its own
    # coordinates, with the `axis` coordinate replaced by the index), a scatter_nd.
    if index_dims is None or data_dims is None:
        raise ConverterError("Scatter: data and indices need a known rank when their shapes "
                             "differ (the target coordinates are built at import time)")
    if not all(isinstance(d, IntImm) for d in index_dims):
        raise ConverterError("Scatter: indices with a symbolic shape that is not data's shape "
                             "is not supported (the target coordinates are built at import "
                             "time)")
    rank = len(data_dims)
    axis %= rank
    dtype = _index_dtype(indices)
    shape = tuple(int(d.value) for d in index_dims)
    count = int(np.prod(shape))
    coords = np.indices(shape).reshape(len(shape), count).T
    on_axis = np.broadcast_to(np.eye(rank, dtype="bool")[axis], (count, rank))
    targets = _op.where(const(on_axis, "bool"), _op.reshape(indices, (count, 1)),
                        const(coords.astype(dtype), dtype))
    return _op.scatter_nd(data, targets, _op.reshape(updates, (count,)))


@converter("Scatter", 11)
def scatter_v11(g, inputs, attr):
    raise ConverterError("Scatter is deprecated from opset 11 (ScatterElements replaces it)")


def _reduction(name: str, attr: dict, valid: tuple) -> str:
    """The `reduction` attribute of a scatter ("none" is "update"), checked against valid."""
    reduction = _str_attr(attr, "reduction", "") or "update"
    reduction = "update" if reduction == "none" else reduction
    if reduction not in valid:
        raise ConverterError(f"{name}: reduction must be one of {list(valid)}, but got "
                             f"{reduction!r}")
    return reduction


def _scatter_elements(valid: tuple) -> Callable:
    def convert(g, inputs, attr):
        reduction = _reduction("ScatterElements", attr, valid)
        return _op.scatter_elements(inputs[0], inputs[1], inputs[2], axis=attr.get("axis", 0),
                                    reduction=reduction)

    return convert


def _scatter_nd(valid: tuple) -> Callable:
    def convert(g, inputs, attr):
        data, indices, updates = inputs[0], inputs[1], inputs[2]
        reduction = _reduction("ScatterND", attr, valid)
        extents = _runtime_extents(g, data, indices, 0)
        return _op.scatter_nd(data, _wrap_negative(g, indices, extents), updates, reduction)

    return convert


# Opset 11: no reduction attribute (only "update" is valid); 16: add, mul; 18: min, max.
for _since, _valid in ((11, ("update",)), (16, ("update", "add", "mul")),
                       (18, ("update", "add", "mul", "min", "max"))):
    converter("ScatterElements", _since)(_scatter_elements(_valid))
    converter("ScatterND", _since)(_scatter_nd(_valid))


@converter("Einsum", 12)
def einsum(g, inputs, attr):
    # apache-tvm lowers Einsum to a TIR function (call_tir); tether emits relax.einsum.
    return _op.einsum(list(inputs), _str_attr(attr, "equation", ""))


@converter("TopK", 1)
def topk_v1(g, inputs, attr):
    # k is an attribute up to opset 9.
    return _op.topk(inputs[0], attr.get("k", 1), attr.get("axis", -1), ret_type="both",
                    dtype="int64")


@converter("TopK", 10)
def topk(g, inputs, attr):
    k = _const_input(g, inputs[1], "TopK", "k")
    if k is None or k.size != 1:
        raise ConverterError("TopK: k must be a single value")
    if attr.get("sorted", 1) != 1:
        raise NotImplementedError("TopK with sorted=0 is not supported (Relax's topk sorts)")
    return _op.topk(inputs[0], int(k.reshape(-1)[0]), attr.get("axis", -1), ret_type="both",
                    largest=attr.get("largest", 1), dtype="int64")


@converter("CumSum", 11)
def cumsum(g, inputs, attr):
    data, axis = inputs[0], inputs[1]
    if _known_rank(data) == 1 and axis is not None and not _is_const(g.get_constant(axis)):
        # (beyond apache-tvm 0.27) a 1-D input has one axis: an axis given at run time can
        # only be 0 or -1.
        axis = const(0, "int64")
    axis = _const_input(g, axis, "CumSum", "axis")
    if axis is None or axis.size != 1 or axis.ndim > 1:
        raise ConverterError("CumSum: the axis input must be a scalar or a 1-element 1-D "
                             "tensor")
    axis = int(axis.reshape(-1)[0])
    # reverse: a cumsum of the input flipped along the axis, flipped back (apache-tvm emits
    # the flips as TIR functions through call_tir; tether emits relax.flip, bound in the same
    # places).
    reverse = attr.get("reverse", 0) != 0
    if reverse:
        data = g.bb.emit(_op.flip(data, axis=axis))
    out = g.bb.normalize(_op.cumsum(data, axis, exclusive=attr.get("exclusive", 0) != 0))
    return g.bb.emit(_op.flip(out, axis=axis)) if reverse else out


@converter("OneHot", 9)
def one_hot(g, inputs, attr):
    indices = inputs[0]
    depth = _const_input(g, inputs[1], "OneHot", "depth")
    values = _const_input(g, inputs[2], "OneHot", "values")
    if depth is None or depth.size != 1:
        raise ConverterError("OneHot: depth must be a single value")
    if values is None or values.size != 2:
        raise ConverterError("OneHot: values must hold two values (off, on)")
    depth = int(depth.reshape(-1)[0])
    # The result has the dtype of `values` (apache-tvm makes int64 / float64 scalars of them
    # whatever their dtype, which is the same text for int64 and float64 values).
    off, on = (_scalar_imm(v, _dtype_name(values.dtype)) for v in values.reshape(-1))
    extent = const(depth, _index_dtype(indices))
    indices = _wrap_negative(g, indices, extent)
    return _op.one_hot(indices, on, off, depth, attr.get("axis", -1))


def _scalar_imm(value: Any, dtype: str) -> Any:
    """A primitive scalar of dtype holding value (an IntImm or a FloatImm)."""
    from ....ir import FloatImm

    if dtype.startswith(("float", "bfloat")):
        return FloatImm(dtype, float(value))
    return IntImm(dtype, int(value))


@converter("MatMulInteger16", 1)
def matmul_integer16(g, inputs, attr):
    a, b = inputs[0], inputs[1]
    dtypes = [_index_dtype(x) for x in (a, b)]
    for name, dt in zip("AB", dtypes):
        if dt not in ("int16", "uint16"):
            raise ConverterError(f"MatMulInteger16: input {name} must be int16 or uint16, but "
                                 f"it is {dt}")
    out = "uint32" if dtypes == ["uint16", "uint16"] else "int32"
    return _op.matmul(_op.astype(a, out), _op.astype(b, out))


# ---- losses and TensorScatter (beyond apache-tvm 0.27, which converts none of them) ------------

def _nll_loss(g, name: str, log_prob: Any, target: Any, weight: Any, attr: dict) -> Any:
    """ONNX's negative log-likelihood loss of log_prob (N, C, d1, ...) at the classes target
    (N, d1, ...): -log_prob[n, target[n, d], d] * weight[target[n, d]], zero where target is
    ignore_index; reduced by `reduction` ("mean": divided by the sum of the weights taken)."""
    reduction = _str_attr(attr, "reduction", "mean")
    if reduction not in ("none", "sum", "mean"):
        raise ConverterError(f"{name}: reduction must be 'none', 'sum' or 'mean', but got "
                             f"{reduction!r}")
    if _ndim(log_prob) < 2:
        raise ConverterError(f"{name}: the input must have a class axis (rank >= 2), but its "
                             f"rank is {_ndim(log_prob)}")
    dtype, index_dtype = _dtype(log_prob), _index_dtype(target)
    bb = g.bb
    keep = None
    if "ignore_index" in attr:
        # An ignored target may lie outside [0, C): it is replaced by class 0 and masked out.
        keep = bb.emit(_op.not_equal(target, const(attr["ignore_index"], index_dtype)))
        target = bb.emit(_op.where(keep, target, const(0, index_dtype)))
    picked = _op.gather_elements(log_prob, _op.expand_dims(target, 1), axis=1)
    loss = _op.negative(_op.squeeze(picked, [1]))
    scale = None
    if weight is not None:
        scale = _op.take(weight, target, axis=0)
    if keep is not None:
        mask = _op.astype(keep, dtype)
        scale = mask if scale is None else _op.multiply(scale, mask)
    if scale is not None:
        scale = bb.emit(scale)
        loss = _op.multiply(loss, scale)
    if reduction == "none":
        return loss
    if reduction == "sum":
        return _op.sum(loss)
    if scale is None:
        return _op.mean(loss)
    return _op.divide(_op.sum(loss), _op.sum(scale))


@converter("NegativeLogLikelihoodLoss", 12)
def negative_log_likelihood_loss(g, inputs, attr):
    return _nll_loss(g, "NegativeLogLikelihoodLoss", inputs[0], inputs[1], inputs[2], attr)


@converter("SoftmaxCrossEntropyLoss", 12)
def softmax_cross_entropy_loss(g, inputs, attr):
    # The loss and (the optional second output) the log-probabilities over the class axis.
    log_prob = g.bb.emit(_op.nn.log_softmax(inputs[0], axis=1))
    loss = _nll_loss(g, "SoftmaxCrossEntropyLoss", log_prob, inputs[1], inputs[2], attr)
    return Tuple([loss, log_prob])


@converter("TensorScatter", 24)
def tensor_scatter(g, inputs, attr):
    # update written into past_cache along `axis` from each batch row's write index (0 without write_indices), wrapping around with mode="circular": a
    # scatter_elements whose indices are write_indices[b] + the position along the axis.
    past, update, starts = inputs[0], inputs[1], inputs[2]
    mode = _str_attr(attr, "mode", "linear")
    if mode not in ("linear", "circular"):
        raise ConverterError(f"TensorScatter: mode must be 'linear' or 'circular', but got "
                             f"{mode!r}")
    rank = _ndim(past)
    if rank < 0:
        raise ConverterError("TensorScatter: the cache's rank must be known at import time")
    axis = attr.get("axis", -2)
    axis = axis + rank if axis < 0 else axis
    if not 1 <= axis < rank:
        raise ConverterError(f"TensorScatter: axis {attr.get('axis', -2)} must name a "
                             f"sequence axis after the batch axis, for a cache of rank {rank}")
    dims = _shape_values(update)
    along = [1] * rank
    along[axis] = dims[axis]
    index = _op.reshape(_op.arange(0, dims[axis], 1, "int64"), along)
    if starts is not None:
        if _index_dtype(starts) != "int64":
            starts = _op.astype(starts, "int64")
        index = _op.add(_op.reshape(starts, [-1] + [1] * (rank - 1)), index)
    if mode == "circular":
        extent = _shape_values(past)[axis]
        if isinstance(extent, IntImm):
            extent = const(int(extent.value), "int64")
        else:
            extent = _runtime_extent(g, past, axis, "int64")
        index = _op.floor_mod(index, extent)
    index = g.bb.normalize(_op.broadcast_to(index, dims))
    return _op.scatter_elements(past, index, update, axis=axis)
