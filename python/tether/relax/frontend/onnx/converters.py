"""The ONNX op converters: a table from ONNX op type and opset version to a function.

A converter is registered for the first opset version it handles:

    @converter("Relu", 13)
    def relu(g, inputs, attr):
        return relax.op.nn.relu(inputs[0])

and is used for every model opset from that version up to the next version registered for the
same op type.  A model whose opset is older than every registered version gets the oldest one
(apache-tvm's frontend chooses the same way).  A converter receives

    g       the graph importer: g.bb (the BlockBuilder), g.opset, g.get_constant(expr)
            (an initializer kept as a parameter, read as a constant), g.node (the
            onnx NodeProto being converted: its domain, its outputs);
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


def _conv_kind(table: dict, data: Any) -> tuple:
    """(rank of data, its row of table: Relax op, data layout, kernel layout)."""
    ndim = _ndim(data)
    if ndim not in table:
        raise NotImplementedError("Ndim > 5 not supported for convolution.")
    return ndim, table[ndim]


def _conv_same_pad_width(data: Any, weight: Any, attr: dict, mode: str) -> list:
    """nn.pad's pad_width (before, after per axis) for Conv's auto_pad SAME_UPPER /
    SAME_LOWER: the input padded so that the output has ceil(size / stride) elements per
    spatial axis (apache-tvm pads in a TIR function; tether pads with nn.pad)."""
    dims = _static_dims(data, f"Conv with auto_pad={mode}")
    spatial = len(dims) - 2
    kernel = attr.get("kernel_shape")
    if kernel is None:
        kernel = _static_dims(weight, "Conv's weight")[2:]
    strides = attr.get("strides", [1] * spatial)
    dilations = attr.get("dilations", [1] * spatial)
    extents = [(k - 1) * d + 1 for k, d in zip(kernel, dilations)]
    width = [0, 0, 0, 0]
    for pair in _same_pad_pairs(dims[2:], extents, strides, mode):
        width += list(pair)
    return width


@converter("Conv", 11)
def conv(g, inputs, attr):
    data, weight = inputs[0], inputs[1]
    ndim, (name, data_layout, kernel_layout) = _conv_kind(_CONV, data)
    auto_pad = _str_attr(attr, "auto_pad", "NOTSET")
    pads = attr.get("pads", 0)
    if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        data = g.bb.emit(_op.nn.pad(data, _conv_same_pad_width(data, weight, attr, auto_pad)))
    elif auto_pad == "VALID":
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


def _same_pad_pairs(sizes: list, extents: list, strides: tuple, mode: str,
                    ceil_out: bool = False) -> list:
    """(before, after) per spatial axis for auto_pad SAME_UPPER / SAME_LOWER: the extra pad of an
    odd total goes after for SAME_UPPER, before for SAME_LOWER.  The total is what
    ceil(size / stride) outputs of windows of `extent` need when ceil_out (max pools); otherwise
    extent - stride, or extent - size % stride when the stride does not divide the size (convs
    and average pools, as apache-tvm computes them)."""
    pairs = []
    for size, extent, s in zip(sizes, extents, strides):
        if ceil_out:
            out = -(-size // s) if mode == "SAME_UPPER" else size // s
            total = (out - 1) * s + extent - size
        else:
            total = max(extent - (s if size % s == 0 else size % s), 0)
        small, large = total // 2, total - total // 2
        pairs.append((small, large) if mode == "SAME_UPPER" else (large, small))
    return pairs


def _pool_call(kind: str, data: Any, attr: dict) -> Any:
    """The Relax pool `kind` (max_pool, avg_pool) for a pool node's attributes."""
    dims = _shape_values(data)
    ndim = len(dims)
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
        spatial = [int(d.value) if isinstance(d, IntImm) else None for d in dims[2:]]
        if None in spatial:
            raise NotImplementedError(f"{kind} with auto_pad={auto_pad} needs static spatial "
                                      "dims")
        if kind == "avg_pool":  # (apache-tvm's average pools ignore the dilations here)
            pairs = _same_pad_pairs(spatial, kernel, strides, auto_pad)
        else:
            extents = [(k - 1) * d + 1 for k, d in zip(kernel, dilations)]
            pairs = _same_pad_pairs(spatial, extents, strides, auto_pad, ceil_out=True)
        pads = tuple(p[0] for p in pairs) + tuple(p[1] for p in pairs)
    fn = getattr(_op.nn, f"{kind}{len(kernel)}d")
    return fn(data, kernel, strides, pads, dilations, attr.get("ceil_mode", 0),
              attr.get("count_include_pad", False))


def _pool(kind: str) -> Callable:
    def convert(g, inputs, attr):
        return _pool_call(kind, inputs[0], attr)

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


# ---- normalization ------------------------------------------------------------------------------

def _static_dims(x: Any, what: str) -> list:
    """x's static shape as ints (ConverterError when a dim is symbolic)."""
    dims = []
    for d in _shape_values(x):
        if not isinstance(d, IntImm):
            raise ConverterError(f"{what} needs a static shape, but a dim is {d}")
        dims.append(int(d.value))
    return dims


@converter("LayerNormalization", 17)
def layer_normalization(g, inputs, attr):
    data, scale, bias = inputs[0], inputs[1], inputs[2]
    gamma_shape = _static_dims(scale, "LayerNormalization's scale")
    if bias is None:
        bias = const(np.zeros(gamma_shape), _dtype(scale))
    elif _static_dims(bias, "LayerNormalization's bias") != gamma_shape:
        raise ConverterError("gamma and beta shapes do not match")
    axis = attr.get("axis", -1)
    axes = list(axis) if isinstance(axis, tuple) else [axis]
    if len(axes) < len(gamma_shape):
        # The normalized axes run from `axis` over as many dims as the scale has.
        start = axes[-1] + 1
        axes.extend(range(start, start + len(gamma_shape) - len(axes)))
    out = _op.nn.layer_norm(data, scale, bias, axes, attr.get("epsilon", 1e-05))
    # Mean and InvStdDev (outputs 2 and 3) are not computed: float32 zeros stand for them.
    return Tuple([out, const(0, "float32"), const(0, "float32")])


@converter("RMSNormalization", 23)
def rms_normalization(g, inputs, attr):
    data, scale = inputs[0], inputs[1]
    rank = _known_rank(data)
    if rank is None:
        raise ConverterError("RMSNormalization requires a statically known input rank.")
    axis = _normalize_axes([attr.get("axis", -1)], rank, "RMSNormalization")[0]
    dtype = _dtype(data)
    widen = attr.get("stash_type", 1) == 1 and dtype != "float32"
    if widen:  # stash_type 1: computed in float32
        data, scale = _op.astype(data, "float32"), _op.astype(scale, "float32")
    out = _op.nn.rms_norm(data, scale, list(range(axis, rank)), attr.get("epsilon", 1e-05))
    return _op.astype(out, dtype) if widen else out


def _group_norm_checks(data: Any, num_groups: int) -> tuple:
    """GroupNormalization's input checks: (rank, channel dim)."""
    rank = _known_rank(data)
    if rank is None:
        raise ConverterError("GroupNormalization requires a statically known input rank.")
    if data.ty.shape is None or rank < 2:
        raise ConverterError("GroupNormalization requires a statically typed input with "
                             "rank >= 2.")
    if num_groups <= 0:
        raise ConverterError("GroupNormalization requires num_groups to be positive, got "
                             f"{num_groups}.")
    channels = _shape_values(data)[1]
    if isinstance(channels, IntImm) and int(channels.value) % num_groups:
        raise ConverterError("GroupNormalization requires num_groups to divide channel count, "
                             f"but got C={int(channels.value)} and num_groups={num_groups}.")
    return rank, channels


@converter("GroupNormalization", 18)
def group_normalization_v18(g, inputs, attr):
    # Opset 18: scale and bias are per group, widened here to per channel.
    data, scale, bias = inputs[0], inputs[1], inputs[2]
    groups = attr["num_groups"]
    if _known_rank(data) is not None and data.ty.shape is not None \
            and _known_rank(data) >= 2 and _dtype(data) != "float32":
        raise ConverterError("GroupNormalization-18 currently only supports float32 inputs.")
    rank, channels = _group_norm_checks(data, groups)
    if not isinstance(channels, IntImm):
        raise ConverterError("GroupNormalization-18 requires a statically known channel count "
                             "to expand per-group scale/bias to per-channel.")
    channels = int(channels.value)

    def per_channel(x):
        x = _op.broadcast_to(_op.reshape(x, [groups, 1]), [groups, channels // groups])
        return _op.reshape(x, [channels])

    return _op.nn.group_norm(data, per_channel(scale), per_channel(bias), groups, channel_axis=1,
                             axes=list(range(2, rank)), epsilon=attr.get("epsilon", 1e-05))


@converter("GroupNormalization", 21)
def group_normalization(g, inputs, attr):
    data, scale, bias = inputs[0], inputs[1], inputs[2]
    groups = attr["num_groups"]
    stash = attr.get("stash_type", 1)
    if stash != 1:
        raise ConverterError("GroupNormalization currently only supports stash_type=1 (FLOAT), "
                             f"but got stash_type={stash}.")
    rank, channels = _group_norm_checks(data, groups)
    dtype = _dtype(data)
    norm_scale, norm_bias = scale, bias
    if dtype != "float32":
        data = _op.astype(data, "float32")
        norm_scale, norm_bias = _op.astype(scale, "float32"), _op.astype(bias, "float32")
    # Normalized without the affine part, which is applied per channel afterwards.
    out = _op.nn.group_norm(data, _op.ones_like(norm_scale), _op.zeros_like(norm_bias), groups,
                            channel_axis=1, axes=list(range(2, rank)),
                            epsilon=attr.get("epsilon", 1e-05), center=False, scale=False)
    if dtype != "float32":
        out = _op.astype(out, dtype)
    affine = [channels] + [1] * (rank - 2)
    out = _op.multiply(out, _op.reshape(scale, affine))
    return _op.add(out, _op.reshape(bias, affine))


@converter("InstanceNormalization", 6)
def instance_normalization(g, inputs, attr):
    data, scale, bias = inputs[0], inputs[1], inputs[2]
    eps = const(attr.get("epsilon", 1e-05), _dtype(data))
    rank = len(_shape_values(data))
    axes = list(range(2, rank))
    mean = _op.mean(data, axis=axes, keepdims=True)
    std = _op.sqrt(_op.add(_op.variance(data, axis=axes, keepdims=True), eps))
    out = _op.divide(_op.subtract(data, mean), std)
    per_channel = [-1] + [1] * (rank - 2)
    if scale is not None:
        out = _op.multiply(out, _op.reshape(scale, per_channel))
    if bias is not None:
        out = _op.add(out, _op.reshape(bias, per_channel))
    return out


@converter("MeanVarianceNormalization", 9)
def mean_variance_normalization(g, inputs, attr):
    data = inputs[0]
    axes = attr.get("axes", (0, 2, 3))
    two = const(2, "float32")
    mean = _op.mean(data, axis=axes, keepdims=True)
    mean_sq = _op.power(mean, two)
    sq_mean = _op.mean(_op.power(data, two), axis=axes, keepdims=True)
    return _op.divide(_op.subtract(data, mean), _op.sqrt(_op.subtract(sq_mean, mean_sq)))


# ---- pooling ------------------------------------------------------------------------------------

@converter("LpPool", 1)
def lp_pool(g, inputs, attr):
    # (sum over the window of |x|^p)^(1/p): an average pool counting the padding, times the
    # window size.
    dtype = _dtype(inputs[0])
    p = attr.get("p", 2.0)
    powered = g.bb.emit(_op.power(_op.abs(inputs[0]), const(p, dtype)))
    pooled = _pool_call("avg_pool", powered, dict(attr, count_include_pad=True))
    summed = _op.multiply(pooled, const(np.prod(attr["kernel_shape"]), dtype))
    return _op.power(summed, const(1.0 / p, dtype))


@converter("GlobalLpPool", 2)
def global_lp_pool(g, inputs, attr):
    data = inputs[0]
    dtype = _dtype(data)
    p = attr.get("p", 2.0)
    axes = list(range(2, len(_shape_values(data))))
    summed = _op.sum(_op.power(_op.abs(data), const(p, dtype)), axes, keepdims=True)
    return _op.power(summed, const(1.0 / p, dtype))


@converter("MaxUnpool", 9)
def max_unpool(g, inputs, attr):
    # The values scattered at their indices into a zero tensor of the output shape.
    data, indices, output_shape = inputs[0], inputs[1], inputs[2]
    kernel = attr.get("kernel_shape")
    pads = attr.get("pads", [0] * len(kernel) * 2)
    strides = attr.get("strides", [1] * len(kernel))
    if output_shape is not None:
        raise NotImplementedError("MaxUnpool with an output_shape input is not supported")
    shape = np.array(_static_dims(data, "MaxUnpool"), dtype="int64")
    shape = shape * np.array([1, 1] + list(strides)) + np.array([0, 0] + list(kernel)) \
        - np.array([0, 0] + list(strides))
    if pads is not None:
        pairs = np.reshape(np.array([0, 0, 0, 0] + list(pads)), [-1, 2])
        shape = shape - np.sum(pairs, axis=-1)
    out_shape = ShapeExpr([int(d) for d in shape])
    zeros = g.bb.emit(_op.zeros(out_shape, _dtype(data)))
    flat = _op.scatter_elements(_op.reshape(zeros, [-1]), _op.reshape(indices, [-1]),
                                _op.reshape(data, [-1]), axis=0)
    return _op.reshape(flat, out_shape)


_CONV_TRANSPOSE = {3: ("conv1d_transpose", "NCW", "IOW"), 4: ("conv2d_transpose", "NCHW", "IOHW"),
                   5: ("conv3d_transpose", "NCDHW", "IODHW")}


@converter("ConvTranspose", 1)
def conv_transpose(g, inputs, attr):
    data, weight = inputs[0], inputs[1]
    ndim, (name, data_layout, kernel_layout) = _conv_kind(_CONV_TRANSPOSE, data)
    spatial = ndim - 2
    strides = attr.get("strides", [1] * spatial)
    dilations = attr.get("dilations", [1] * spatial)
    output_padding = attr.get("output_padding", [0] * spatial)
    pads = attr.get("pads", 0)
    auto_pad = _str_attr(attr, "auto_pad", "NOTSET")
    if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        # The output is input * stride: the total pad depends on the attributes only.
        kernel = attr.get("kernel_shape")
        kernel = list(kernel) if kernel is not None else \
            [int(d.value) for d in _shape_values(weight)[2:]]
        begins, ends = [], []
        for k, s, d, op in zip(kernel, strides, dilations, output_padding):
            total = max((k - 1) * d + 1 + op - s, 0)
            begin = total // 2 if auto_pad == "SAME_UPPER" else total - total // 2
            begins.append(begin)
            ends.append(total - begin)
        pads = begins + ends
    elif auto_pad == "VALID":
        pads = [0] * (2 * spatial)
    elif auto_pad != "NOTSET":
        raise ConverterError(f'Value {auto_pad} in attribute "auto_pad" of operator '
                             "ConvTranspose is invalid.")
    out = getattr(_op.nn, name)(
        data=data, weight=weight, strides=strides, padding=pads, output_padding=output_padding,
        dilation=dilations, groups=attr.get("group", 1), data_layout=data_layout,
        kernel_layout=kernel_layout)
    if inputs[2] is not None:
        out = _op.add(out, _op.reshape(inputs[2], [1, -1] + [1] * spatial))
    return out


# ---- image and vision ---------------------------------------------------------------------------

# ONNX GridSample mode -> Relax method.
_GRID_SAMPLE_METHODS = {"linear": "bilinear", "cubic": "bicubic"}


@converter("GridSample", 16)
def grid_sample(g, inputs, attr):
    data, grid = inputs[0], inputs[1]
    method = _str_attr(attr, "mode", "bilinear")
    method = _GRID_SAMPLE_METHODS.get(method, method)
    ndim = _ndim(data)
    if ndim == 5 and method == "bicubic":
        raise NotImplementedError("5D (volumetric) GridSample with mode='cubic' is not supported "
                                  "(TOPI 3D grid_sample supports only bilinear and nearest).")
    # ONNX's grid has the coordinates last; Relax's has them second.
    if ndim == 4:
        grid, layout = _op.permute_dims(grid, [0, 3, 1, 2]), "NCHW"
    elif ndim == 5:
        grid, layout = _op.permute_dims(grid, [0, 4, 1, 2, 3]), "NCDHW"
    else:
        raise NotImplementedError(f"GridSample only supports 4D or 5D input, got {ndim}D.")
    return _op.image.grid_sample(data, grid, method=method, layout=layout,
                                 padding_mode=_str_attr(attr, "padding_mode", "zeros"),
                                 align_corners=bool(attr.get("align_corners", 0)))


@converter("AffineGrid", 20)
def affine_grid(g, inputs, attr):
    theta, size = inputs[0], g.get_constant(inputs[1])
    if _is_const(size):
        dims = [int(v) for v in _numpy(size).astype("int64").tolist()]
    elif isinstance(size, ShapeExpr):
        dims = [int(v.value) for v in size.values]
    else:
        raise NotImplementedError(f"Dynamic size of type {type(size)} is not supported")
    if len(dims) not in (4, 5):
        raise ConverterError("AffineGrid expects size to be [N,C,H,W] (2D) or [N,C,D,H,W] (3D)")
    # Relax's grid has the coordinates second; ONNX's has them last.
    grid = g.bb.emit(_op.image.affine_grid(theta, tuple(dims[2:]),
                                           bool(attr.get("align_corners", 0))))
    return g.bb.emit(_op.permute_dims(grid, axes=[0, *range(2, len(dims)), 1]))


def _roi_align(default_mode: str) -> Callable:
    def convert(g, inputs, attr):
        if len(inputs) != 3:
            raise ConverterError("RoiAlign expects exactly 3 inputs")
        data, rois, batch_indices = inputs[0], inputs[1], inputs[2]
        dtype = _dtype(rois)
        mode = _str_attr(attr, "mode", "avg")
        if mode not in ("avg", "max"):
            raise NotImplementedError("RoiAlign in Relax only supports avg and max modes")
        transform = _str_attr(attr, "coordinate_transformation_mode", default_mode)
        if transform == "half_pixel":
            rois = _op.add(rois, const([-0.5] * 4, dtype))
        elif transform != "output_half_pixel":
            raise NotImplementedError("RoiAlign only supports coordinate_transformation_mode "
                                      "'half_pixel' and 'output_half_pixel'")
        # Relax's rois carry their batch index in a first column.
        index = _op.astype(_op.expand_dims(batch_indices, axis=1), dtype)
        rois = _op.concat([index, rois], axis=1)
        return _op.vision.roi_align(
            data, rois, pooled_size=(attr.get("output_height", 1), attr.get("output_width", 1)),
            spatial_scale=attr.get("spatial_scale", 1.0),
            sample_ratio=attr.get("sampling_ratio", 0), aligned=transform == "half_pixel",
            layout="NCHW", mode=mode)

    return convert


converter("RoiAlign", 10)(_roi_align("output_half_pixel"))
converter("RoiAlign", 16)(_roi_align("half_pixel"))


def _scalar_operand(g, x: Any, default: Any, cast: Callable) -> Any:
    """The value of an NMS scalar operand: a constant's, a kept parameter's, else default
    (an operand computed at run time is not read: apache-tvm uses the default too)."""
    if x is None:
        return default
    if _is_const(x):
        return cast(_numpy(x).item())
    if isinstance(x, Var):
        if x.name in g.params:
            return cast(g.params[x.name][1].item())
    return default


def _nms(g, inputs, attr):
    """All-class non-max suppression: Relax's tuple (selected indices, their count)."""
    boxes, scores = inputs[0], inputs[1]
    max_boxes = _scalar_operand(g, inputs[2], 0, int)
    iou = _scalar_operand(g, inputs[3], 0.5, float)
    score = _scalar_operand(g, inputs[4], 0.0, float)
    if attr.get("center_point_box", 0) != 0:
        # (x_center, y_center, width, height) -> (y1, x1, y2, x2)
        parts = _op.split(boxes, 4, axis=2)
        xc, yc, w, h = (parts[i] for i in range(4))
        two = const(2.0, _dtype(boxes))
        half_w, half_h = _op.divide(w, two), _op.divide(h, two)
        boxes = _op.concat([_op.subtract(yc, half_h), _op.subtract(xc, half_w),
                            _op.add(yc, half_h), _op.add(xc, half_w)], axis=2)
    return g.bb.normalize(_op.vision.all_class_non_max_suppression(
        boxes, scores, const(max_boxes, "int64"), const(iou, "float32"),
        const(score, "float32"), output_format="onnx"))


@converter("NonMaxSuppression", 10)
def non_max_suppression(g, inputs, attr):
    return g.bb.emit(TupleGetItem(_nms(g, inputs, attr), 0))


# ---- quantization -------------------------------------------------------------------------------

def _qdq_axis(x: Any, attr: dict) -> int:
    """The quantization axis: the attribute (default 1), 0 for a scalar or 1-D input."""
    axis = attr.get("axis", 1)
    ty = x.ty
    if isinstance(ty, TensorType) and ty.ndim != -1 and ty.ndim <= 1 and axis == 1:
        axis = 0
    return axis


def _block_expand(g, v: Any, x: Any, axis: int, block: int) -> Any:
    """The per-block v (x's shape, but ceil(n / block) along axis) repeated to x's shape."""
    x_dims = _static_dims(x, "blocked quantization")
    v_dims = _static_dims(v, "blocked quantization's scale and zero point")
    rank = len(x_dims)
    if not -rank <= axis < rank or len(v_dims) != rank:
        raise ConverterError("blocked quantization: the scale must have the input's rank and "
                             "the axis must be one of its dims")
    axis %= rank
    if v_dims[axis] != -(-x_dims[axis] // block):
        raise ConverterError(f"blocked quantization: {v_dims[axis]} blocks of {block} do not "
                             f"cover the {x_dims[axis]} elements of axis {axis}")
    wide = v_dims[:axis + 1] + [block] + v_dims[axis + 1:]
    v = _op.broadcast_to(_op.expand_dims(v, axis=axis + 1), wide)
    merged = v_dims[:axis] + [v_dims[axis] * block] + v_dims[axis + 1:]
    v = _op.reshape(v, merged)
    if merged[axis] != x_dims[axis]:
        v = _op.strided_slice(v, axes=[axis], begin=[0], end=[x_dims[axis]])
    return g.bb.emit(v)


def _quantize_blocked(g, x: Any, scale: Any, zp: Any, attr: dict, out_dtype: str) -> Any:
    """Blocked QuantizeLinear (beyond apache-tvm): clip(round(x / scale) + zero_point) with
    scale and zero point repeated over their blocks."""
    axis, block = attr.get("axis", 1), attr["block_size"]
    if not out_dtype.startswith(("int", "uint")):
        raise NotImplementedError(f"blocked QuantizeLinear to {out_dtype} is not supported")
    dtype = _dtype(x)
    y = _op.round(_op.divide(x, _block_expand(g, scale, x, axis, block)))
    if zp is not None:
        y = _op.add(y, _op.astype(_block_expand(g, zp, x, axis, block), dtype))
    info = np.iinfo(out_dtype)
    return _op.astype(_op.clip(y, int(info.min), int(info.max)), out_dtype)


def _dequantize_blocked(g, x: Any, scale: Any, zp: Any, attr: dict, out_dtype: str) -> Any:
    """Blocked DequantizeLinear (beyond apache-tvm): (x - zero_point) * scale in float32 with
    scale and zero point repeated over their blocks."""
    axis, block = attr.get("axis", 1), attr["block_size"]
    if not _dtype(x).startswith(("int", "uint")):
        raise NotImplementedError(f"blocked DequantizeLinear of {_dtype(x)} is not supported")
    y = _op.astype(x, "float32")
    if zp is not None:
        y = _op.subtract(y, _op.astype(_block_expand(g, zp, x, axis, block), "float32"))
    scale = _block_expand(g, scale, x, axis, block)
    if _dtype(scale) != "float32":
        scale = _op.astype(scale, "float32")
    y = _op.multiply(y, scale)
    return y if out_dtype == "float32" else _op.astype(y, out_dtype)


def _quantize_linear(opset: int) -> Callable:
    def convert(g, inputs, attr):
        if opset >= 23 and attr.get("precision", 0) != 0:
            raise ConverterError("QuantizeLinear with a non-default precision attribute is not "
                                 "supported yet.")
        x, scale, zp = inputs[0], inputs[1], inputs[2]
        axis = _qdq_axis(x, attr)
        out_dtype = "uint8" if zp is None else _dtype(zp)
        if opset >= 21 and attr.get("output_dtype", 0):
            out_dtype = str(onnx_helper.tensor_dtype_to_np_dtype(attr["output_dtype"]))
        if opset >= 19 and attr.get("saturate", 1) != 1 and out_dtype.startswith("float8"):
            raise ConverterError("QuantizeLinear float8 quantization with saturate=0 is not "
                                 "supported yet.")
        if opset >= 21 and zp is not None and _dtype(zp) != out_dtype:
            raise ConverterError("QuantizeLinear output_dtype must match the zero-point dtype, "
                                 f"but got {out_dtype} and {_dtype(zp)}.")
        if opset >= 21 and attr.get("block_size", 0):
            return _quantize_blocked(g, x, scale, zp, attr, out_dtype)
        if zp is None:
            zp = const(0, out_dtype)
        return _op.quantize(x, scale, zp, axis=axis, out_dtype=out_dtype)

    return convert


for _since in (10, 13, 19, 21, 23):
    converter("QuantizeLinear", _since)(_quantize_linear(_since))


def _dequantize_linear(opset: int) -> Callable:
    def convert(g, inputs, attr):
        x, scale, zp = inputs[0], inputs[1], inputs[2]
        axis = _qdq_axis(x, attr)
        # The result has the scale's dtype from opset 19 (float32 before), or output_dtype.
        out_dtype = "float32" if opset < 19 else _dtype(scale)
        if opset >= 23 and attr.get("output_dtype", 0):
            out_dtype = str(onnx_helper.tensor_dtype_to_np_dtype(attr["output_dtype"]))
        if opset >= 21 and attr.get("block_size", 0):
            return _dequantize_blocked(g, x, scale, zp, attr, out_dtype)
        if zp is None:
            zp = const(0, _dtype(x))
        return _op.dequantize(x, scale, zp, axis=axis, out_dtype=out_dtype)

    return convert


for _since in (10, 19, 21, 23):
    converter("DequantizeLinear", _since)(_dequantize_linear(_since))


@converter("DynamicQuantizeLinear", 11)
def dynamic_quantize_linear(g, inputs, attr):
    # uint8 quantization over the range of x widened to include 0.
    x = inputs[0]
    dtype = _dtype(x)
    qmin, qmax = const(0, dtype), const(255, dtype)
    x_max = _op.maximum(qmin, _op.max(x))
    x_min = _op.minimum(qmin, _op.min(x))
    scale = _op.divide(_op.subtract(x_max, x_min), qmax)
    zero = _op.subtract(qmin, _op.divide(x_min, scale))
    zero = _op.astype(_op.round(_op.clip(zero, 0, 255)), "uint8")
    return Tuple([_op.quantize(x, scale, zero, axis=0, out_dtype="uint8"), scale, zero])


@converter("MatMulInteger", 10)
def matmul_integer(g, inputs, attr):
    # (A - a_zero_point) @ (B - b_zero_point), accumulated in int32.
    a, b = _op.astype(inputs[0], "int32"), _op.astype(inputs[1], "int32")
    if inputs[2] is not None:
        zp = g.bb.normalize(_op.astype(inputs[2], "int32"))
        if len(_shape_values(zp)) == 1:  # one per row of A
            zp = _op.expand_dims(zp, axis=-1)
        a = _op.subtract(a, zp)
    if inputs[3] is not None:
        zp = g.bb.normalize(_op.astype(inputs[3], "int32"))
        if len(_shape_values(zp)) == 1:  # one per column of B
            zp = _op.expand_dims(zp, axis=0)
        b = _op.subtract(b, zp)
    return _op.matmul(a, b, out_dtype="int32")


@converter("MatMulInteger16", 1)
def matmul_integer16(g, inputs, attr):
    # com.microsoft: int16/uint16 operands, an int32 product (uint32 for two uint16).
    if len(inputs) != 2:
        raise ConverterError(f"MatMulInteger16 expects two inputs, but got {len(inputs)}")
    a, b = inputs[0], inputs[1]
    for name, x in (("A", a), ("B", b)):
        if _dtype(x) not in ("int16", "uint16"):
            raise ConverterError(f"MatMulInteger16 expects input {name} to have int16 or uint16 "
                                 f"dtype, but got {_dtype(x)}")
    out = "uint32" if _dtype(a) == _dtype(b) == "uint16" else "int32"
    return _op.matmul(_op.astype(a, out), _op.astype(b, out))


# ---- resize -------------------------------------------------------------------------------------

def _const_or_shape_values(x: Any, what: str) -> Any:
    """The values of a constant or ShapeExpr operand; ConverterError for an operand computed
    at run time or omitted."""
    if _is_const(x):
        return _numpy(x)
    if isinstance(x, ShapeExpr):
        return [int(v.value) for v in x.values]
    raise ConverterError(f"Type {type(x)} for {what} is currently unsupported.")


@converter("Resize", 10)
def resize(g, inputs, attr):
    x = inputs[0]
    roi = g.get_constant(inputs[1]) if inputs[1] is not None else None
    scales = g.get_constant(inputs[2]) if len(inputs) > 2 else None
    sizes = g.get_constant(inputs[3]) if len(inputs) > 3 else None
    dims = _shape_values(x)
    rank = len(dims)
    if rank not in (3, 4, 5):
        raise ConverterError("Only resize1d/resize2d/resize3d are supported.")
    if scales is not None and sizes is not None:
        raise ConverterError("Only one of scales and sizes can be provided in Resize.")
    if roi is None:
        roi = [0.0] * (2 * (rank - 2))
    elif _is_const(roi):
        values = _numpy(roi).tolist()
        if len(values) == 2 * rank:  # the spatial starts and ends
            roi = values[2:rank] + values[rank + 2:]
        elif not values:
            roi = [0.0] * (2 * (rank - 2))
        else:
            roi = values
    else:
        raise NotImplementedError("Resize with a region of interest computed at run time is "
                                  "not supported")
    if scales is not None:
        values = _const_or_shape_values(scales, "scale")
        out = []
        for scale, dim in zip(values[2:], dims[2:]):
            if not isinstance(dim, IntImm):
                raise NotImplementedError("Resize by scales of a symbolic spatial dim is not "
                                          "supported")
            out.append(int(np.float32(scale) * np.float32(int(dim.value))))
    else:
        values = _const_or_shape_values(sizes, "size")
        out = [int(v) for v in (values.astype("int64").tolist() if isinstance(values, np.ndarray)
                                else values)][2:]
    if rank == 3:
        raise NotImplementedError("Resize of a 3-D (NCW) input is not supported: Relax has no "
                                  "resize1d")
    mode = _str_attr(attr, "mode", "nearest")
    kwargs = dict(
        method="nearest_neighbor" if mode == "nearest" else mode,
        coordinate_transformation_mode=_str_attr(attr, "coordinate_transformation_mode",
                                                 "half_pixel"),
        rounding_method=_str_attr(attr, "nearest_mode", "round_prefer_floor"),
        cubic_alpha=attr.get("cubic_coeff_a", -0.75), cubic_exclude=attr.get("exclude_outside", 0),
        extrapolation_value=attr.get("extrapolation_value", 0.0))
    if rank == 4:
        return _op.image.resize2d(x, size=ShapeExpr(out), roi=roi, layout="NCHW", **kwargs)
    if len(roi) == 6:  # resize3d's roi runs (w, h, d) where ONNX's runs (d, h, w)
        roi = [roi[2], roi[1], roi[0], roi[5], roi[4], roi[3]]
    return _op.image.resize3d(x, size=ShapeExpr(out), roi=roi, layout="NCDHW", **kwargs)


@converter("Upsample", 9)
def upsample(g, inputs, attr):
    # Nearest/linear/cubic upsampling of an NCHW input with asymmetric coordinates.  The scales
    # are the attribute (opset 7) or, from opset 9, a constant second input.
    scales = attr.get("scales")
    if scales is None and inputs[1] is not None:
        value = g.get_constant(inputs[1])
        if not _is_const(value):
            raise NotImplementedError("Upsample with scales computed at run time is not "
                                      "supported")
        scales = _numpy(value).tolist()
    if scales is None or len(scales) != 4:
        raise ConverterError("Upsample supports only 4-D inputs, with 4 scales")
    if not scales[0] == scales[1] == 1:
        raise ConverterError("Upsample scales the spatial dims only: the batch and channel "
                             "scales must be 1")
    dims = _static_dims(inputs[0], "Upsample")
    if len(dims) != 4:
        raise ConverterError("Upsample supports only 4-D inputs")
    size = [int(d * s) for d, s in zip(dims[2:], scales[2:])]
    mode = _str_attr(attr, "mode", "nearest")
    mode = "nearest_neighbor" if mode == "nearest" else mode
    if mode not in ("linear", "nearest_neighbor", "cubic"):
        raise ConverterError(f'Value {mode} in attribute "mode" of operator Upsample is not '
                             "valid.")
    return _op.image.resize2d(inputs[0], roi=None, size=ShapeExpr(size), layout="NCHW",
                              method=mode, coordinate_transformation_mode="asymmetric")


@converter("AllClassNMS", 1)
def all_class_nms(g, inputs, attr):
    return _nms(g, inputs, attr)


# ---- com.microsoft ------------------------------------------------------------------------------

@converter("SkipLayerNormalization", 1)
def skip_layer_normalization(g, inputs, attr):
    # layer_norm(input + skip + bias) over the last axis.
    data, skip, gamma, beta, bias = (inputs[i] for i in range(5))
    if beta is None or bias is None:
        raise NotImplementedError("SkipLayerNormalization import currently only supports "
                                  "required beta and bias")
    data = _op.add(_op.add(data, skip), bias)
    out = _op.nn.layer_norm(data, gamma, beta, axes=-1, epsilon=attr.get("epsilon", 1e-12))
    # Mean, InvStdDev and the sum (outputs 2-4) are not computed.
    return Tuple([out, const(0, "float32"), const(0, "float32")])


@converter("EmbedLayerNormalization", 1)
def embed_layer_normalization(g, inputs, attr):
    # layer_norm(word + position (+ segment) embeddings), and the mask's count per sentence.
    input_ids, segment_ids, word_emb, pos_emb, segment_emb, gamma, beta, mask, pos_ids = (
        inputs[i] for i in range(9))
    batch, seq_len = _static_dims(input_ids, "EmbedLayerNormalization's input_ids")
    if segment_ids is not None and segment_emb is None:
        raise ConverterError("EmbedLayerNormalization: segment_ids need a segment_embedding")
    if pos_ids is None:
        pos_ids = const([list(range(seq_len))] * batch, "int64")
    word = _op.take(word_emb, input_ids, axis=0)
    segment = _op.take(segment_emb, segment_ids, axis=0) if segment_ids is not None else None
    total = _op.add(word, _op.take(pos_emb, pos_ids, axis=0))
    if segment is not None:
        total = _op.add(total, segment)
    out = _op.nn.layer_norm(total, gamma, beta, axes=-1, epsilon=attr.get("epsilon", 1e-12))
    mask_index = const(np.zeros((batch,), dtype="int64")) if mask is None \
        else _op.sum(mask, axis=1)
    return Tuple([out, mask_index])



# ---- Attention (ai.onnx, opset 23) --------------------------------------------------------------
# Beyond apache-tvm 0.27, which sends every Attention node to its com.microsoft converter.  Built
# from Relax ops per the ONNX spec: Q, K, V as (batch, heads, seq, head_size) (3-D inputs split
# into heads first), K and V after past_key / past_value, K and V heads repeated for grouped
# queries; scores (Q * sqrt(scale)) @ (K * sqrt(scale))^T, softcapped, plus a bias (attn_mask,
# the causal frontier, the sliding window, the padding of nonpad_kv_seqlen); a softmax in which a
# row the bias masks entirely gives zeros; times V.

_ATTENTION_ATTRS = frozenset(["is_causal", "kv_num_heads", "q_num_heads", "qk_matmul_output_mode",
                              "scale", "softcap", "softmax_precision", "left_window_size",
                              "right_window_size"])
_NEG_INF = float("-inf")


def _typed_const(value: Any, dtype: str) -> Any:
    """A float constant of dtype (bfloat16 through a float32 constant and astype: numpy has no
    bfloat16)."""
    arr = np.asarray(value, dtype="float64")
    if dtype == "bfloat16":
        return _op.astype(_const_array(arr.astype("float32")), dtype)
    return _const_array(arr.astype(dtype))


def _split_heads(x: Any, heads: int, what: str) -> Any:
    """(batch, seq, heads * size) -> (batch, heads, seq, size)."""
    batch, seq, hidden = _shape_values(x)
    if not isinstance(hidden, IntImm) or int(hidden.value) % heads:
        raise ConverterError(f"Attention: the hidden size of {what} ({hidden}) is not a multiple "
                             f"of its number of heads ({heads})")
    x = _op.reshape(x, (batch, seq, heads, int(hidden.value) // heads))
    return _op.permute_dims(x, [0, 2, 1, 3])


def _static_dim(dim: Any, what: str) -> int:
    if not isinstance(dim, IntImm):
        raise NotImplementedError(f"Attention: {what} must be static, but it is {dim}")
    return int(dim.value)


def _frontier(g, q_len: int, kv_len: int, offset: Any, low: Optional[int],
              high: Optional[int], dtype: str) -> tuple:
    """The bias (0 where allowed, -inf elsewhere) letting query i see key j iff
    low <= i + offset - j <= high (None: unbounded), as (numpy array, None) for an int offset
    or (None, Relax expression of shape (batch, 1, q, kv)) for a per-batch offset tensor."""
    diff = np.arange(q_len).reshape(q_len, 1) - np.arange(kv_len).reshape(1, kv_len)
    if isinstance(offset, int):
        diff = diff + offset
        allowed = np.ones(diff.shape, dtype=bool)
        if low is not None:
            allowed &= diff >= low
        if high is not None:
            allowed &= diff <= high
        return np.where(allowed, 0.0, _NEG_INF), None
    odtype = _dtype(offset)
    full = _op.add(_op.reshape(offset, (-1, 1, 1)), _const_array(diff.astype(odtype)))
    conds = []
    if low is not None:
        conds.append(_op.greater_equal(full, const(low, odtype)))
    if high is not None:
        conds.append(_op.less_equal(full, const(high, odtype)))
    allowed = functools.reduce(_op.logical_and, conds)
    bias = g.bb.emit(_op.where(allowed, _typed_const(0.0, dtype),
                               _typed_const(_NEG_INF, dtype)))
    return None, _op.reshape(bias, (-1, 1, q_len, kv_len))


def _repeat_heads(x: Any, reps: int) -> Any:
    """(b, h, s, d) -> (b, h * reps, s, d), each head repeated reps times in place."""
    b, h, s, d = _shape_values(x)
    x = _op.broadcast_to(_op.expand_dims(x, axis=2), (b, h, reps, s, d))
    return _op.reshape(x, (b, h * reps, s, d))


def _attention(g, inputs, attr):
    q, k, v = inputs[0], inputs[1], inputs[2]
    mask, past_key, past_value, nonpad = inputs[3], inputs[4], inputs[5], inputs[6]
    for name in attr:
        if name not in _ATTENTION_ATTRS:
            raise NotImplementedError(f"Attention: the attribute {name!r} is not supported")
    mode = attr.get("qk_matmul_output_mode", 0)
    if mode not in (0, 1, 2, 3):
        raise ConverterError(f"Attention: qk_matmul_output_mode must be 0, 1, 2 or 3, but it "
                             f"is {mode}")
    if (past_key is None) != (past_value is None):
        raise ConverterError("Attention: past_key and past_value must be given together")
    if nonpad is not None and past_key is not None:
        raise ConverterError("Attention: nonpad_kv_seqlen cannot be combined with past_key / "
                             "past_value")
    dtype = _dtype(q)
    rank = _ndim(q)
    if not rank == _ndim(k) == _ndim(v) or rank not in (3, 4):
        raise ConverterError("Attention: Q, K and V must be all 3-D or all 4-D")
    if rank == 3:
        q_heads, kv_heads = attr.get("q_num_heads"), attr.get("kv_num_heads")
        if q_heads is None or kv_heads is None:
            raise ConverterError("Attention: 3-D inputs need the q_num_heads and kv_num_heads "
                                 "attributes")
        q = g.bb.emit(_split_heads(q, q_heads, "Q"))
        k = g.bb.emit(_split_heads(k, kv_heads, "K"))
        v = g.bb.emit(_split_heads(v, kv_heads, "V"))
    elif g.opset >= 25 and ("q_num_heads" in attr or "kv_num_heads" in attr):
        raise ConverterError("Attention: q_num_heads and kv_num_heads must not be given for "
                             "4-D inputs")
    batch, q_heads, q_len, head_size = _shape_values(q)
    q_len = _static_dim(q_len, "the query sequence length")
    past_len = 0
    if past_key is not None:
        past_len = _static_dim(_shape_values(past_key)[2], "the past sequence length")
        k = g.bb.emit(_op.concat([past_key, k], axis=2))
        v = g.bb.emit(_op.concat([past_value, v], axis=2))
    present_key, present_value = k, v
    kv_len = _static_dim(_shape_values(k)[2], "the key sequence length")

    # The bias: a static part (numpy, None when zero) and the parts computed at run time.
    static_bias, dynamic = None, []
    if mask is not None:
        mask_dims = _shape_values(mask)
        pad = kv_len - _static_dim(mask_dims[-1], "the last dim of attn_mask")
        mask_dtype = _dtype(mask)
        if pad > 0:  # a short mask: the keys after it are masked
            fill_shape = [_static_dim(d, "attn_mask's shape") for d in mask_dims[:-1]] + [pad]
            fill = _const_array(np.zeros(fill_shape, "bool")) if mask_dtype == "bool" \
                else _typed_const(np.full(fill_shape, _NEG_INF), mask_dtype)
            mask = _op.concat([mask, fill], axis=-1)
        if mask_dtype == "bool":
            mask = _op.where(mask, _typed_const(0.0, dtype), _typed_const(_NEG_INF, dtype))
        dynamic.append(mask)
    offset = past_len
    if nonpad is not None:  # an external cache: the offset of each batch's query block
        offset = g.bb.emit(_op.subtract(nonpad, const(q_len, _dtype(nonpad))))
    bounds = []
    if attr.get("is_causal", 0):
        bounds.append((0, None))
    left, right = attr.get("left_window_size", -1), attr.get("right_window_size", -1)
    if left >= 0 or right >= 0:
        bounds.append((-right if right >= 0 else None, left if left >= 0 else None))
    for low, high in bounds:
        fixed, computed = _frontier(g, q_len, kv_len, offset, low, high, dtype)
        if fixed is not None:
            static_bias = fixed if static_bias is None else static_bias + fixed
        else:
            dynamic.append(computed)
    if nonpad is not None:  # keys from nonpad_kv_seqlen on are padding
        valid = _op.less(_const_array(np.arange(kv_len, dtype=_dtype(nonpad))),
                         _op.reshape(nonpad, (-1, 1)))
        padding = g.bb.emit(_op.where(valid, _typed_const(0.0, dtype),
                                      _typed_const(_NEG_INF, dtype)))
        dynamic.append(_op.reshape(padding, (-1, 1, 1, kv_len)))
    parts = ([_typed_const(static_bias, dtype)] if static_bias is not None else []) + dynamic
    bias = functools.reduce(_op.add, parts) if parts else None
    if bias is not None and not _is_const(bias):
        bias = g.bb.emit(bias)

    # Grouped queries: each K/V head serves q_heads / kv_heads query heads.
    kv_heads = _shape_values(k)[1]
    q_h = _static_dim(q_heads, "the number of query heads")
    kv_h = _static_dim(kv_heads, "the number of key/value heads")
    if q_h != kv_h:
        if q_h % kv_h:
            raise ConverterError(f"Attention: {q_h} query heads cannot be grouped over {kv_h} "
                                 "key/value heads")
        k, v = _repeat_heads(k, q_h // kv_h), _repeat_heads(v, q_h // kv_h)

    scale = attr.get("scale")
    if scale is None:
        scale = 1.0 / np.sqrt(_static_dim(head_size, "the head size"))
    root = _typed_const(np.sqrt(np.float64(scale)), dtype)
    scores = g.bb.emit(_op.matmul(_op.multiply(q, root),
                                  _op.permute_dims(_op.multiply(k, root), [0, 1, 3, 2])))
    qk_out = scores  # mode 0: the product of Q and K
    softcap = attr.get("softcap", 0.0)
    if softcap > 0:
        cap = _typed_const(softcap, dtype)
        scores = g.bb.emit(_op.multiply(_op.tanh(_op.divide(scores, cap)), cap))
        if mode == 1:
            qk_out = scores
    if bias is not None:
        scores = g.bb.emit(_op.add(scores, bias))
    if mode == 2:
        qk_out = scores
    precision = dtype
    if attr.get("softmax_precision") is not None:
        precision = str(onnx_helper.tensor_dtype_to_np_dtype(attr["softmax_precision"]))
        if precision != dtype:
            scores = _op.astype(scores, precision)
    probs = _op.nn.softmax(scores, axis=-1)
    # A query row whose bias is -inf for every key attends to nothing: zeros, not NaN.
    if dynamic:
        # (counted, not max-reduced: a max reduction may start from the lowest finite value)
        open_keys = _op.astype(_op.greater(bias, _typed_const(_NEG_INF, dtype)), "int32")
        masked = _op.equal(_op.sum(open_keys, axis=-1, keepdims=True), const(0, "int32"))
        probs = _op.where(masked, _typed_const(0.0, precision), probs)
    elif static_bias is not None and np.isneginf(static_bias.max(axis=-1)).any():
        masked = np.isneginf(static_bias.max(axis=-1, keepdims=True))
        probs = _op.where(_const_array(masked), _typed_const(0.0, precision), probs)
    probs = g.bb.emit(probs)
    if precision != dtype:
        probs = g.bb.emit(_op.astype(probs, dtype))
    if mode == 3:
        qk_out = probs
    out = _op.matmul(probs, v)
    if rank == 3:
        out = _op.reshape(g.bb.emit(_op.permute_dims(out, [0, 2, 1, 3])), (batch, q_len, -1))
    # The optional outputs the node asks for (float32 zeros stand for the others).
    node = g.node if g.node is not None and g.node.op_type == "Attention" else None
    wanted = list(node.output) if node is not None else []
    results = [out]
    for index, value in ((1, present_key), (2, present_value), (3, qk_out)):
        asked = index < len(wanted) and wanted[index] != ""
        results.append(value if asked else const(0, "float32"))
    while len(results) > max(len(wanted), 1):
        results.pop()
    return results[0] if len(results) == 1 else Tuple(results)


@converter("Attention", 1)
def attention(g, inputs, attr):
    domain = g.node.domain if g.node is not None and g.node.op_type == "Attention" else ""
    if domain == "com.microsoft":
        raise NotImplementedError("Attention (domain com.microsoft) is not supported: it needs "
                                  "relax.nn.attention, which tether's op library does not have")
    return _attention(g, inputs, attr)


# ---- beyond apache-tvm: LpNormalization, ConvInteger --------------------------------------------

@converter("LpNormalization", 1)
def lp_normalization(g, inputs, attr):
    # x / ||x||_p along axis (p 1 or 2), 0 where the norm is 0.
    data = inputs[0]
    axis, p = attr.get("axis", -1), attr.get("p", 2)
    dtype = _dtype(data)
    if p == 1:
        norm = _op.sum(_op.abs(data), axis=[axis], keepdims=True)
    elif p == 2:
        norm = _op.sqrt(_op.sum(_op.multiply(data, data), axis=[axis], keepdims=True))
    else:
        raise ConverterError(f"LpNormalization: p must be 1 or 2, but it is {p}")
    norm = g.bb.emit(norm)
    zero = const(0, dtype)
    return _op.where(_op.equal(norm, zero), zero, _op.divide(data, norm))


@converter("ConvInteger", 10)
def conv_integer(g, inputs, attr):
    # Conv of (x - x_zero_point) and (w - w_zero_point) in int32 (the padding is 0 after the
    # zero point is taken off).
    x, w = _op.astype(inputs[0], "int32"), _op.astype(inputs[1], "int32")
    if inputs[2] is not None:
        x = _op.subtract(x, _op.astype(inputs[2], "int32"))
    if inputs[3] is not None:
        zp = g.bb.normalize(_op.astype(inputs[3], "int32"))
        rank = _known_rank(zp)
        if rank == 1:  # one per output channel
            zp = _op.reshape(zp, [-1] + [1] * (_ndim(inputs[1]) - 1))
        elif rank != 0:
            raise ConverterError("ConvInteger: w_zero_point must be a scalar or 1-D")
        w = _op.subtract(w, zp)
    return conv(g, [g.bb.normalize(x), g.bb.normalize(w), None], attr)
