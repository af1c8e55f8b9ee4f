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
    flags = arr.flags
    if not (flags.c_contiguous and flags.writeable):
        arr = np.array(arr, copy=True, order="C")
    return _generic_const(core.from_dlpack(arr), None)


_generic_const = core.get_global_func("ir.GenericConst")


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


def _filled(dims: list, value: Any, dtype: str) -> np.ndarray:
    """np.full(dims, value, dtype) (without np.full's Python-level overhead)."""
    arr = np.empty(dims, dtype)
    np.copyto(arr, value, casting="unsafe")
    return arr


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
            return _const_array(_filled(dims, value, dtype))
        shape = dims  # (broadcast_to makes the ShapeExpr)
    elif isinstance(shape, ShapeExpr) and len(shape) == 1 \
            and isinstance(shape.values[0], IntImm):
        return _const_array(_filled([int(shape.values[0].value)], value, dtype))
    if not isinstance(shape, (ShapeExpr, list)):
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
    return _unsqueeze(inputs[0], [int(a) for a in attr.get("axes", ())])


@converter("Unsqueeze", 13)
def unsqueeze(g, inputs, attr):
    data, axes = inputs[0], g.get_constant(inputs[1])
    if not _is_const(axes):
        raise NotImplementedError("Unsqueeze with axes computed at run time is not supported yet")
    return _unsqueeze(data, [int(a) for a in _numpy(axes).tolist()])


def _unsqueeze(data, axes_list: list):
    if _is_const(data):
        arr = _numpy(data)
        norm = sorted(_normalize_axes(axes_list, arr.ndim + len(axes_list), "Unsqueeze"))
        dims = iter(arr.shape)
        shape = [1 if i in norm else next(dims) for i in range(arr.ndim + len(norm))]
        return _const_array(arr.reshape(shape).copy())
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
