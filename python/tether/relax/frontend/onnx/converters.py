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
from ....ir import FloatImm, IntImm

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


def _unary_folded(relax_op: str, numpy_op: Callable) -> Callable:
    """A unary converter folding a constant operand with numpy (keeping its dtype)."""

    def convert(g, inputs, attr):
        x = inputs[0]
        if _is_const(x):
            return const(numpy_op(_numpy(x)), _dtype(x))
        return _relax_op(relax_op)(x)

    return convert


for _name, _since, _rop, _nop in (("Neg", 13, "negative", np.negative),
                                  ("Log", 13, "log", np.log),
                                  ("BitwiseNot", 18, "bitwise_not", np.bitwise_not)):
    converter(_name, _since)(_unary_folded(_rop, _nop))


@converter("Abs", 13)
def abs_(g, inputs, attr):
    if _is_const(inputs[0]):
        return _const_array(np.abs(_numpy(inputs[0])))
    return _relax_op("abs")(inputs[0])


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
    return _cast(g, inputs[0], str(onnx_helper.tensor_dtype_to_np_dtype(attr["to"])))


def _wraps_as_int(dtype: str) -> bool:
    """Whether a float cast to dtype wraps modulo 2**bits: the integer dtypes numpy knows
    (int4, uint2 and the other sub-byte types are cast directly)."""
    try:
        return np.dtype(dtype).kind in ("i", "u")
    except TypeError:
        return False


def _cast(g, data, to: str):
    """data cast to the dtype named `to` (Cast, CastLike)."""
    if isinstance(data, ShapeExpr):
        if all(isinstance(v, IntImm) for v in data.values):
            return const([int(v.value) for v in data.values], to)
        data = g.bb.normalize(_relax_op("shape_to_tensor")(data))
    if _is_const(data):
        return const(_numpy(data).astype(to), to)
    src = _dtype(data)
    if _wraps_as_int(to) and _is_float_dtype(src):
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

    # ONNX's momentum weighs the running statistics (running = momentum * running + (1 -
    # momentum) * batch); Relax's weighs the batch statistics.  It only matters in training
    # mode (apache-tvm passes ONNX's value as is, so its running mean and var are wrong there).
    momentum = attr.get("momentum", 0.9)
    if training:
        momentum = 1.0 - momentum
    out = _op.nn.batch_norm(cast(data, dts[0]), gamma=cast(scale, dts[1]),
                            beta=cast(bias, dts[2]), moving_mean=cast(mean, dts[3]),
                            moving_var=cast(var, dts[4]), axis=1,
                            epsilon=attr.get("epsilon", 1e-05),
                            momentum=momentum, training=bool(training))
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


def _flatten_2d(data: Any, axis: int, name: str) -> Optional[tuple]:
    """The legacy (opset < 13) view of Softmax, LogSoftmax and Hardmax: data reshaped to 2-D at
    `axis` (which may equal the rank), with data's dims to reshape the result back; None when
    the rank or the shape is not known statically."""
    rank = _known_rank(data)
    if rank is None:
        return None
    if axis < -rank or axis > rank:
        raise ConverterError(f"{name} axis {axis} is out of range for rank {rank}.")
    if axis < 0:
        axis += rank
    if not isinstance(data.ty, TensorType) or data.ty.shape is None:
        return None
    dims = _shape_values(data)
    lead, tail = 1, 1
    for d in dims[:axis]:
        lead = lead * (int(d.value) if isinstance(d, IntImm) else d)
    for d in dims[axis:]:
        tail = tail * (int(d.value) if isinstance(d, IntImm) else d)
    return _op.reshape(data, (lead, tail)), tuple(dims)


def _softmax_legacy(kind: str, name: str) -> Callable:
    """Softmax or LogSoftmax before opset 13: over the input flattened to 2-D at `axis`."""

    def convert(g, inputs, attr):
        axis = attr.get("axis", 1)
        fn = getattr(_op.nn, kind)
        flat = _flatten_2d(inputs[0], axis, name)
        if flat is None:
            return fn(inputs[0], axis=axis)
        return _op.reshape(fn(flat[0], axis=-1), flat[1])

    return convert


converter("Softmax", 1)(_softmax_legacy("softmax", "Softmax"))


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
    """The static broadcast of two shapes (dims as IntImm or ints)."""
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
        elif isinstance(x, int) and x == 1:
            out.append(y)
        else:
            out.append(x)
    return out


def _multi(name: str, reduce_op: str, pair_op: str, numpy_op: Callable) -> Callable:
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
        target = functools.reduce(_broadcast_dims, [_shape_values(x) for x in inputs])
        parts = [g.bb.normalize(_op.broadcast_to(x, target)) for x in inputs]
        return getattr(_op, reduce_op)(g.bb.normalize(_op.stack(parts, axis=0)), axis=0)

    return convert


for _name, _red, _pair, _nop in (("Sum", "sum", "add", np.sum), ("Max", "max", "maximum", np.max),
                                 ("Min", "min", "minimum", np.min),
                                 ("Mean", "mean", "add", np.mean)):
    converter(_name, 1)(_multi(_name, _red, _pair, _nop))


# ---- logic, bitwise, activations ----------------------------------------------------------------

for _name, _since, _rop, _nop in (
        ("And", 1, "logical_and", np.logical_and), ("Or", 1, "logical_or", np.logical_or),
        ("Xor", 1, "logical_xor", np.logical_xor)):
    converter(_name, _since)(_binary(_rop, _nop))


@converter("Mod", 10)
def mod(g, inputs, attr):
    # fmod=0: the remainder takes the divisor's sign (floor_mod); fmod=1: the dividend's (mod).
    if attr.get("fmod", 0) == 0:
        return _binary("floor_mod", np.mod)(g, inputs, attr)
    return _binary("mod", np.fmod)(g, inputs, attr)


_INT_DTYPES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")


def _check_int_operands(inputs: Any) -> None:
    for i, x in enumerate(inputs):
        dtype = _dtype(x)
        if dtype not in _INT_DTYPES:
            raise ConverterError("Bitwise operations expect all inputs to have integer types, "
                                 f"got {dtype} for input {i}")


def _bitwise(relax_op: str, numpy_op: Callable) -> Callable:
    """A binary converter over integer operands only."""
    binary = _binary(relax_op, numpy_op)

    def convert(g, inputs, attr):
        _check_int_operands(inputs[:2])
        return binary(g, inputs, attr)

    return convert


for _name, _rop, _nop in (("BitwiseAnd", "bitwise_and", np.bitwise_and),
                          ("BitwiseOr", "bitwise_or", np.bitwise_or),
                          ("BitwiseXor", "bitwise_xor", np.bitwise_xor)):
    converter(_name, 18)(_bitwise(_rop, _nop))

_SHIFTS = {"LEFT": _bitwise("left_shift", np.left_shift),
           "RIGHT": _bitwise("right_shift", np.right_shift)}


@converter("BitShift", 11)
def bit_shift(g, inputs, attr):
    direction = _str_attr(attr, "direction", "LEFT")
    shift = _SHIFTS.get(direction)
    if shift is None:
        raise ConverterError(f"Unsupported Shift Direction: {direction}")
    return shift(g, inputs, attr)


@converter("CastLike", 15)
def cast_like(g, inputs, attr):
    target = inputs[1]
    to = "int64" if isinstance(target, ShapeExpr) else _dtype(target)
    return _cast(g, inputs[0], to)


def _nan_as_unbounded(g, bound: Any, lower: bool) -> Any:
    """A float Clip bound with NaN replaced by -inf (lower) or +inf (upper): onnxruntime treats
    a NaN bound as no bound.  A constant bound is replaced at import time."""
    dtype = _dtype(bound)
    if not _is_float_dtype(dtype):
        return bound
    if _is_const(bound):
        arr = _numpy(bound)
        if not np.isnan(arr).any():
            return bound
        return _const_array(np.where(np.isnan(arr), -np.inf if lower else np.inf, arr), dtype)
    inf = const(-np.inf if lower else np.inf, dtype)
    return g.bb.emit(_op.where(_relax_op("isnan")(bound), inf, bound))


@converter("Clip", 1)
def clip_v1(g, inputs, attr):
    # Before opset 11 the bounds are float attributes.
    x = inputs[0]
    dtype = _dtype(x)
    out = g.bb.emit(_op.maximum(x, const(float(attr.get("min", -np.inf)), dtype)))
    return g.bb.emit(_op.minimum(out, const(float(attr.get("max", np.inf)), dtype)))


@converter("Clip", 11)
def clip(g, inputs, attr):
    # The bounds are optional inputs, applied one after the other (max, then min).  apache-tvm
    # lowers each to a TIR PrimFunc; these are the Relax ops computing the same values.
    out = inputs[0]
    if inputs[1] is not None:
        out = g.bb.emit(_op.maximum(out, _nan_as_unbounded(g, inputs[1], True)))
    if inputs[2] is not None:
        out = g.bb.emit(_op.minimum(out, _nan_as_unbounded(g, inputs[2], False)))
    return out


def _elu_terms(x: Any, alpha: float) -> Any:
    """-alpha * relu(1 - exp(x)) + relu(x): Elu, and Selu before its scale.  The constants
    take x's dtype (apache-tvm makes them float32 and so rejects float16 and float64 inputs)."""
    dtype = _dtype(x)
    relu = _op.nn.relu
    neg = _op.multiply(const(-alpha, dtype), relu(_op.subtract(const(1.0, dtype), _op.exp(x))))
    return _op.add(neg, relu(x))


@converter("Elu", 1)
def elu(g, inputs, attr):
    return _elu_terms(inputs[0], float(attr.get("alpha", 1.0)))


@converter("Selu", 1)
def selu(g, inputs, attr):
    alpha = attr.get("alpha", 1.67326319217681884765625)
    gamma = attr.get("gamma", 1.05070102214813232421875)
    return _op.multiply(const(gamma, _dtype(inputs[0])), _elu_terms(inputs[0], alpha))


@converter("ThresholdedRelu", 1)
def thresholded_relu(g, inputs, attr):
    x = inputs[0]
    dtype = _dtype(x)
    above = _op.astype(_op.greater(x, const(attr.get("alpha", 1.0), dtype)), dtype)
    return _op.multiply(above, x)


@converter("PRelu", 1)
def prelu(g, inputs, attr):
    x, slope = inputs[0], inputs[1]
    ndim = len(_shape_values(x))
    dims = [int(d.value) if isinstance(d, IntImm) else d for d in _shape_values(slope)]
    if all(d == 1 for d in dims):
        return _op.nn.prelu(x, _op.reshape(slope, (1,)), ndim - 1)
    if len(dims) == 1:
        return _op.nn.prelu(x, _op.reshape(slope, (dims[0],)), ndim - 1)
    if len(dims) <= ndim:
        wide = [i for i, d in enumerate(dims) if not (isinstance(d, int) and d == 1)]
        if len(wide) == 1:
            # One axis that does not broadcast: a per-channel slope on that axis of x.
            return _op.nn.prelu(x, _op.reshape(slope, (dims[wide[0]],)),
                                ndim - len(dims) + wide[0])
        # nn.prelu takes a slope along one axis only: the general case is elementwise.
        return _op.where(_op.less(x, const(0, _dtype(x))), _op.multiply(x, slope), x)
    raise ConverterError(f"Unsupported PRelu slope shape: {dims}")


@converter("Gelu", 1)
def gelu_v1(g, inputs, attr):
    return _op.nn.gelu(inputs[0])


@converter("Gelu", 20)
def gelu(g, inputs, attr):
    approximate = _str_attr(attr, "approximate", "none")
    if approximate == "tanh":
        return _relax_op("nn.gelu_tanh")(inputs[0])
    if approximate == "none":
        return _op.nn.gelu(inputs[0])
    raise ConverterError(f"Unsupported approximate mode for Gelu: {approximate}")


@converter("BiasGelu", 1)
def bias_gelu(g, inputs, attr):
    # com.microsoft: gelu(x + bias).
    return _op.nn.gelu(_op.add(inputs[0], inputs[1]))


@converter("FastGelu", 1)
def fast_gelu(g, inputs, attr):
    # com.microsoft: 0.5 x (1 + tanh(c1 x + c2 x^3)), c1 = sqrt(2/pi), c2 = 0.044715 c1, on
    # x + bias when the optional 1-D bias is given.
    bb, x = g.bb, inputs[0]
    if inputs[1] is not None:
        if len(_shape_values(inputs[1])) != 1:
            raise ConverterError("FastGelu: bias term must be a 1D tensor")
        x = bb.emit(_op.add(x, inputs[1]))
    dtype = _dtype(x)
    c1 = float(np.sqrt(2 / np.pi))
    half = bb.emit(_op.multiply(const(0.5, dtype), x))
    linear = bb.emit(_op.multiply(const(c1, dtype), x))
    cube = bb.emit(_op.multiply(_op.multiply(x, x), x))
    cubic = bb.emit(_op.multiply(const(0.044715 * c1, dtype), cube))
    tanh = bb.emit(_op.tanh(_op.add(linear, cubic)))
    return bb.emit(_op.multiply(half, _op.add(const(1.0, dtype), tanh)))


@converter("HardSigmoid", 1)
def hard_sigmoid(g, inputs, attr):
    x = inputs[0]
    dtype = _dtype(x)
    alpha = const(float(attr.get("alpha", 0.2)), dtype)
    beta = const(float(attr.get("beta", 0.5)), dtype)
    return _op.clip(_op.add(_op.multiply(alpha, x), beta), 0, 1)


@converter("HardSwish", 14)
def hard_swish(g, inputs, attr):
    x = inputs[0]
    dtype = _dtype(x)
    gate = _op.clip(_op.add(x, const(3, dtype)), 0, 6)
    return _op.multiply(x, _op.divide(gate, const(6, dtype)))


@converter("Mish", 18)
def mish(g, inputs, attr):
    # x * tanh(softplus(x)), softplus written log(1 + exp(x)).
    x = inputs[0]
    return _op.multiply(x, _op.tanh(_op.log(_op.add(const(1.0, _dtype(x)), _op.exp(x)))))


@converter("Softplus", 1)
def softplus(g, inputs, attr):
    # log(1 + exp(x)) computed without overflow: max(x, 0) + log(1 + exp(-|x|)).
    x = inputs[0]
    dtype = _dtype(x)
    tail = _op.log(_op.add(const(1, dtype), _op.exp(_op.negative(_relax_op("abs")(x)))))
    return _op.add(_op.maximum(x, const(0, dtype)), tail)


@converter("Softsign", 1)
def softsign(g, inputs, attr):
    x = inputs[0]
    return _op.divide(x, _op.add(_relax_op("abs")(x), const(1, _dtype(x))))


@converter("Shrink", 9)
def shrink(g, inputs, attr):
    x = inputs[0]
    dtype = _dtype(x)
    lambd = const(attr.get("lambd", 0.5), dtype)
    bias = const(attr.get("bias", 0.0), dtype)
    zeros = _relax_op("zeros_like")(x)
    above = _op.where(_op.greater(x, lambd), _op.subtract(x, bias), zeros)
    below = _op.where(_op.less(x, _op.negative(lambd)), _op.add(x, bias), zeros)
    return _op.add(above, below)


converter("LogSoftmax", 1)(_softmax_legacy("log_softmax", "LogSoftmax"))


@converter("LogSoftmax", 13)
def log_softmax(g, inputs, attr):
    return _op.nn.log_softmax(inputs[0], axis=attr.get("axis", -1))


def _hardmax(g, data: Any, axis: int) -> Any:
    """one_hot(argmax(data, axis)) with data's dtype, the extent of axis as depth."""
    data = g.bb.normalize(data)
    rank = _known_rank(data)
    if rank is None:
        raise ConverterError("Hardmax requires a statically known input rank.")
    if not -rank <= axis < rank:
        raise ConverterError(f"Hardmax axis {axis} is out of range for rank {rank}.")
    axis = axis + rank if axis < 0 else axis
    if not isinstance(data.ty, TensorType) or data.ty.shape is None:
        raise ConverterError("Hardmax requires a statically known axis extent.")
    depth = _shape_values(data)[axis]
    if isinstance(depth, IntImm):
        depth = int(depth.value)
    dtype = _dtype(data)
    return _op.one_hot(_op.argmax(data, axis=axis), FloatImm(dtype, 1.0), FloatImm(dtype, 0.0),
                       depth, axis)


@converter("Hardmax", 1)
def hardmax_v1(g, inputs, attr):
    # Before opset 13: over the input flattened to 2-D at `axis`.
    axis = attr.get("axis", 1)
    flat = _flatten_2d(inputs[0], axis, "Hardmax")
    if flat is None:
        return _hardmax(g, inputs[0], axis)
    return _op.reshape(_hardmax(g, flat[0], -1), flat[1])


@converter("Hardmax", 13)
def hardmax(g, inputs, attr):
    return _hardmax(g, inputs[0], attr.get("axis", -1))


# Elementwise ops apache-tvm 0.27 does not convert.

@converter("Celu", 12)
def celu(g, inputs, attr):
    # max(0, x) + min(0, alpha * (exp(x / alpha) - 1))
    x = inputs[0]
    dtype = _dtype(x)
    alpha = const(float(attr.get("alpha", 1.0)), dtype)
    zero = const(0.0, dtype)
    neg = _op.multiply(alpha, _op.subtract(_op.exp(_op.divide(x, alpha)), const(1.0, dtype)))
    return _op.add(_op.maximum(x, zero), _op.minimum(zero, neg))


def _swish(x: Any, alpha: float) -> Any:
    """x * sigmoid(alpha * x)."""
    gate = x if alpha == 1.0 else _op.multiply(const(alpha, _dtype(x)), x)
    return _op.multiply(x, _op.sigmoid(gate))


@converter("Swish", 24)
def swish(g, inputs, attr):
    return _swish(inputs[0], float(attr.get("alpha", 1.0)))


@converter("SwiGLU", 28)
def swiglu(g, inputs, attr):
    # Swish of the gate A times the value B (same shapes, no broadcasting).
    return _op.multiply(_swish(inputs[0], float(attr.get("alpha", 1.0))), inputs[1])


@converter("Binarizer", 1)
def binarizer(g, inputs, attr):
    # ai.onnx.ml: 1 where x > threshold, else 0, in x's dtype.
    x = inputs[0]
    dtype = _dtype(x)
    return _op.astype(_op.greater(x, const(float(attr.get("threshold", 0.0)), dtype)), dtype)
