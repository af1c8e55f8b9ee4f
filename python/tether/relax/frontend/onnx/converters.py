"""The ONNX op converters: a table from ONNX op type and opset version to a function.

A converter is registered for the first opset version it handles:

    @converter("Relu", 13)
    def relu(g, inputs, attr):
        return relax.op.nn.relu(inputs[0])

and is used for every model opset from that version up to the next version registered for the
same op type.  A model whose opset is older than every registered version gets the oldest one
(apache-tvm's frontend chooses the same way).  A converter receives

    g       the graph importer: g.bb (the BlockBuilder), g.opset, g.get_constant(expr)
            (an initializer kept as a parameter, read as a constant), g.num_outputs (the
            node's output count), g.fold_constants (from_onnx's keyword: fold static shape
            computations into constants instead of apache-tvm's shape values);
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
from ...expr import (Call, Expr, ExternFunc, GenericConst, ShapeExpr, Tuple, TupleGetItem, Var,
                    const)
from ...ty import PrimType, ShapeType, TensorType
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
    operands = (cond, x, y)
    if all(_is_const(v) or isinstance(v, ShapeExpr) for v in operands) \
            and all(_known_rank(v) == 1 for v in operands):
        # 1-D shape-like operands: the chosen dims, as a shape value
        cond, x, y = (_prim_list(v) for v in operands)
        n = max(len(cond), len(x), len(y))
        if not all(len(v) in (1, n) for v in (cond, x, y)):
            raise ConverterError("Cannot broadcast condition, x and y with lengths "
                                 f"{len(cond)}, {len(x)}, {len(y)}")
        cond, x, y = (v * n if len(v) == 1 else v for v in (cond, x, y))
        return ShapeExpr([a if c else b for c, a, b in zip(cond, x, y)])
    return _op.where(*(_op.shape_to_tensor(v) if isinstance(v, ShapeExpr) else v
                       for v in operands))


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
        if allowzero and 0 in dims:  # a 0 dim is a real 0: the shape is taken at run time
            return _op.reshape(data, _dims_from_tensor(g, shape, len(dims), "reshape_dim"))
        shape = dims
    elif isinstance(getattr(shape, "ty", None), TensorType) and _known_rank(data) is not None \
            and _static_length(shape) is not None:
        shape = _reshape_target(g, data, shape, allowzero)
    return _op.reshape(data, shape)


def _reshape_target(g, data, target, allowzero: int) -> ShapeExpr:
    """A target shape computed at run time (beyond apache-tvm, whose reshape takes shape
    values only): its 0s (without allowzero) and -1 resolved against data's shape at run time,
    then bound to new symbolic dims."""
    n, rank = _static_length(target), _known_rank(data)
    target = _to_int64(g, target)
    dims = _shape_tensor(g, data)
    if not allowzero:  # a 0 copies the input's dim at its position
        k = min(n, rank)
        same = g.bb.normalize(_op.take(dims, _op.arange(k, dtype="int64"), axis=0))
        if n > k:
            same = g.bb.normalize(_op.concat([same, const(np.zeros(n - k, "int64"), "int64")]))
        target = g.bb.normalize(_op.where(_op.equal(target, const(0, "int64")), same, target))
    infer = g.bb.normalize(_op.equal(target, const(-1, "int64")))
    known = g.bb.normalize(_op.prod(_op.where(infer, const(1, "int64"), target)))
    # (at least 1: a target with a 0 and no -1 must not divide by zero where it is not used)
    known = g.bb.normalize(_op.maximum(known, const(1, "int64")))
    rest = g.bb.normalize(_op.floor_divide(_op.prod(dims), known))
    target = g.bb.normalize(_op.where(infer, rest, target))
    return _dims_from_tensor(g, target, n, "reshape_dim")


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
    if _is_prim(data) and _is_const(axes):  # one dim of a shape: a 1-D shape value
        if _unique_axes([int(a) for a in _numpy(axes).tolist()], 1, "Unsqueeze") == [0]:
            return ShapeExpr([data])
        raise NotImplementedError("Unsqueeze with symbolic scalar inputs only supports axis 0.")
    if _is_const(axes):
        axes_list = [int(a) for a in _numpy(axes).tolist()]
        if _is_const(data):
            arr = _numpy(data)
            norm = sorted(_unique_axes(axes_list, arr.ndim + len(axes_list), "Unsqueeze"))
            dims = iter(arr.shape)
            shape = [1 if i in norm else next(dims) for i in range(arr.ndim + len(norm))]
            return const(arr.reshape(shape), _dtype(data))
        rank = _static_rank(data)
        if rank is None:
            raise ConverterError("Unsqueeze requires a statically known input rank.")
        for axis in sorted(_unique_axes(axes_list, rank + len(axes_list), "Unsqueeze")):
            data = _op.expand_dims(data, axis=axis)
        return data
    # axes known at run time: the output shape is computed as a tensor
    rank = _static_rank(data)
    if rank is None:
        raise ConverterError("Unsqueeze with dynamic axes requires a statically known input "
                             "rank.")
    if _static_length(axes) is None:
        raise ConverterError("Unsqueeze requires a statically known axes length.")
    dims = _shape_tensor(g, data)
    axes = _to_int64(g, axes)
    out_rank = rank + _static_length(axes)
    inserted = _axes_mask(g, axes, out_rank)
    kept = g.bb.normalize(_op.subtract(const(1, "int64"), inserted))
    source = g.bb.normalize(_op.subtract(_op.cumsum(kept, axis=0), const(1, "int64")))
    source = g.bb.normalize(_op.where(_op.less(source, const(0, "int64")), const(0, "int64"),
                                      source))
    picked = g.bb.normalize(_op.take(dims, source, axis=0))
    out = g.bb.normalize(_op.where(_op.greater(inserted, const(0, "int64")),
                                   const(1, "int64"), picked))
    return _op.reshape(data, _dims_from_tensor(g, out, out_rank, "unsqueeze_dim"))


def _axes_mask(g, axes, rank: int):
    """For each position in [0, rank), how many of the int64 tensor `axes` (negative ones
    counted from the end) name it."""
    axes = _wrap_axes(g, axes, const(rank, "int64"))
    positions = g.bb.normalize(_op.expand_dims(_op.arange(rank, dtype="int64"), axis=1))
    axes = g.bb.normalize(_op.expand_dims(axes, axis=0))
    return g.bb.normalize(_op.sum(_op.astype(_op.equal(positions, axes), "int64"), axis=1))


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
    if _is_const(data):
        if axes is not None and not isinstance(axes, tuple):
            raise NotImplementedError("Squeeze with symbolic axes not supported")
        return const(np.squeeze(_numpy(data), axes), _dtype(data))
    if isinstance(data, ShapeExpr):
        if axes is None:
            return data[0] if len(data) == 1 else data
        if _unique_axes(list(axes), 1, "Squeeze") == [0] and len(data) == 1:
            return data[0]
        raise NotImplementedError("Squeeze on symbolic shape tensors only supports removing "
                                  "the sole axis.")
    if axes is None:
        return _op.squeeze(data)
    if isinstance(axes, tuple):
        rank = _known_rank(data)
        if rank is not None and data.ty.shape is not None:
            dims = _shape_values(data)
            for axis in _unique_axes(list(axes), rank, "Squeeze"):
                if not isinstance(dims[axis], IntImm):
                    raise ConverterError(
                        f"Squeeze axis {axis} has a symbolic extent that cannot be proven to be "
                        "1 at import time; only statically known unit-size axes can be "
                        "squeezed.")
                if int(dims[axis].value) != 1:
                    raise ConverterError(f"Squeeze axis {axis} has size "
                                         f"{int(dims[axis].value)}, but only axes of size 1 "
                                         "can be squeezed.")
        return _op.squeeze(data, list(axes))
    # axes known at run time: the kept dims are picked from the shape at run time
    rank = _static_rank(data)
    if rank is None:
        raise ConverterError("Squeeze with dynamic axes requires a statically known input "
                             "rank.")
    count = _static_length(axes)
    if count is None:
        raise ConverterError("Squeeze requires a statically known axes length.")
    dims = _shape_tensor(g, data)
    removed = _axes_mask(g, _to_int64(g, axes), rank)
    keep = g.bb.normalize(_op.equal(removed, const(0, "int64")))
    kept = g.bb.match_cast(g.bb.normalize(_op.nonzero(keep)),
                           TensorType([1, Var("squeeze_num_keep_dims", "int64")], "int64"))
    kept = g.bb.normalize(_op.reshape(kept, [-1]))
    out = g.bb.normalize(_op.take(dims, kept, axis=0))
    return _op.reshape(data, _dims_from_tensor(g, out, rank - count, "squeeze_dim"))


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
    if g.fold_constants and all(_is_const(x) for x in resolved):
        return _const_array(np.concatenate([_numpy(x) for x in resolved], axis=axis))

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
    # beyond apache-tvm (whose concat rejects shape values): shape values as int64 tensors
    return _op.concat([shape_as_tensor(g, x) for x in inputs], axis=axis)


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


# ---- shapes, indexing and data movement ---------------------------------------------------------
#
# apache-tvm's frontend keeps a static shape as a ShapeExpr (Shape of a tensor with a known
# shape), takes one dim of it as a PrimExpr (Gather with a scalar index), and slices, concats
# and compares such values at import time; the converters here follow those paths, and fall back
# to run-time shape arithmetic (shape_of, shape_to_tensor, ...) where a value is not static.

def _is_prim(x: Any) -> bool:
    """Whether x is a primitive scalar expression (an IntImm or a symbolic dim)."""
    return isinstance(getattr(x, "ty", None), PrimType)


def _prim_list(x: Any) -> list:
    """The values of a 1-D constant (ints), a ShapeExpr (dims) or a PrimExpr (itself)."""
    if _is_const(x):
        arr = _numpy(x)
        if arr.ndim != 1:
            raise ConverterError(f"Cannot cast {type(x).__name__} to list of Expr")
        return arr.tolist()
    if isinstance(x, ShapeExpr):
        return list(x.values)
    if _is_prim(x):
        return [x]
    raise ConverterError(f"Cannot cast {type(x).__name__} to list of Expr")


def _static_rank(x: Any) -> Optional[int]:
    """The statically known rank of x (a PrimExpr has rank 0), or None."""
    if _is_prim(x):
        return 0
    return _known_rank(x)


def _static_length(x: Any) -> Optional[int]:
    """The statically known length of the 1-D tensor-like x, or None."""
    if x is None:
        return None
    if _is_const(x):
        arr = _numpy(x)
        if arr.ndim != 1:
            raise ConverterError(f"Expected a 1-D tensor, but got ndim={arr.ndim}.")
        return int(arr.shape[0])
    if isinstance(x, ShapeExpr):
        return len(x.values)
    if _is_prim(x):
        return 1
    ty = x.ty
    if not isinstance(ty, TensorType) or ty.ndim == -1:
        return None
    if ty.ndim != 1:
        raise ConverterError(f"Expected a 1-D tensor, but got ndim={ty.ndim}.")
    if ty.shape is not None and isinstance(ty.shape.values[0], IntImm):
        return int(ty.shape.values[0].value)
    return None


def _unique_axes(axes: list, rank: int, op_name: str) -> list:
    """axes normalized into [0, rank), each at most once."""
    out = _normalize_axes(axes, rank, op_name)
    if len(out) != len(set(out)):
        raise ConverterError(f"{op_name} axes must be unique.")
    return out


def _to_int64(g, x: Any) -> Any:
    """x as an int64 tensor expression."""
    if isinstance(x, ShapeExpr):
        return g.bb.normalize(_op.shape_to_tensor(x))
    if _is_prim(x):
        return g.bb.normalize(_op.full((1,), x, dtype="int64"))
    if isinstance(x.ty, TensorType) and _dtype(x) != "int64":
        return g.bb.normalize(_op.astype(x, "int64"))
    return x


def _wrap_axes(g, x: Any, extent: Any) -> Any:
    """where(x < 0, x + extent, x), normalized (x: an int64 tensor of axes)."""
    return g.bb.normalize(_op.where(_op.less(x, const(0, "int64")), _op.add(x, extent), x))


def _dims_from_tensor(g, tensor: Any, ndim: int, prefix: str) -> ShapeExpr:
    """The int64 tensor `tensor` of ndim dims as a ShapeExpr of new symbolic dims
    prefix_0, prefix_1, ... (bound through match_cast)."""
    tensor = g.bb.match_cast(tensor, TensorType([ndim], "int64"))
    shape = g.bb.emit(_op.tensor_to_shape(tensor))
    dims = [Var(f"{prefix}_{i}", "int64") for i in range(ndim)]
    g.bb.match_cast(shape, ShapeType(dims))
    return ShapeExpr(dims)


def shape_as_tensor(g, value: Any) -> Any:
    """A shape value as the int64 tensor ONNX's Shape gives (a constant when every dim is
    static, else shape_to_tensor); any other value as it is."""
    if value is None or not isinstance(getattr(value, "ty", None), ShapeType):
        return value
    if isinstance(value, ShapeExpr) and all(isinstance(d, IntImm) for d in value.values):
        return const(np.array([int(d.value) for d in value.values], dtype="int64"), "int64")
    return g.bb.normalize(_op.shape_to_tensor(value))


def _shape_tensor(g, data: Any) -> Any:
    """The run-time shape of data as an int64 tensor."""
    return g.bb.normalize(_op.shape_to_tensor(g.bb.normalize(_op.shape_of(data))))


@converter("Shape", 1)
def shape(g, inputs, attr):
    data = inputs[0]
    ty = data.ty
    if isinstance(ty, ShapeType):
        if ty.ndim == -1:
            raise ConverterError("The ndim of ShapeExpr is expected to a real number, but got "
                                 "-1.")
        return _folded_shape(g, ShapeExpr([ty.ndim]))
    if ty.shape is None:
        return g.bb.normalize(_op.shape_of(data))
    return _folded_shape(g, ty.shape)


def _folded_shape(g, value: ShapeExpr):
    """value, or with fold_constants its int64 constant when every dim is static."""
    if g.fold_constants and all(isinstance(d, IntImm) for d in value.values):
        return const(np.array([int(d.value) for d in value.values], dtype="int64"), "int64")
    return value


@converter("Shape", 15)
def shape_v15(g, inputs, attr):
    out = shape(g, inputs, attr)
    start, end = attr.get("start", 0), attr.get("end")
    if start == 0 and end is None:
        return out
    if _is_const(out):
        return const(_numpy(out)[start:end], "int64")
    if isinstance(out, ShapeExpr):
        return _folded_shape(g, ShapeExpr(list(out.values)[start:end]))
    sliced = g.bb.normalize(_op.strided_slice(
        g.bb.normalize(_op.shape_to_tensor(out)), axes=[0], begin=[start],
        end=[end if end is not None else 2 ** 63 - 1], strides=[1], assume_inbound=False))
    return g.bb.normalize(_op.tensor_to_shape(sliced))


@converter("Gather", 1)
def gather(g, inputs, attr):
    data, indices = inputs[0], inputs[1]
    axis = attr.get("axis", 0)
    if _is_const(data) and _is_const(indices):
        return _const_array(np.take(_numpy(data), _numpy(indices), axis=axis))
    if isinstance(data, ShapeExpr):
        if _is_const(indices) and _numpy(indices).ndim == 0:
            return data[int(_numpy(indices).item())]
        data = g.bb.normalize(_op.shape_to_tensor(data))
    if isinstance(indices, ShapeExpr):
        indices = g.bb.normalize(_op.shape_to_tensor(indices))
    idtype = _dtype(indices)
    extent = g.bb.normalize(_op.take(_shape_tensor(g, data), const(axis, "int64"), axis=0,
                                     mode="wrap"))
    if idtype != "int64":
        extent = g.bb.normalize(_op.astype(extent, idtype))
    if not idtype.startswith("uint"):  # unsigned indices are never negative
        indices = g.bb.normalize(_op.where(_op.less(indices, const(0, idtype)),
                                           _op.add(indices, extent), indices))
    return _op.take(data, indices, axis)


def _is_zero(v: Any) -> bool:
    return (isinstance(v, int) and v == 0) or (isinstance(v, IntImm) and int(v.value) == 0)


@converter("Slice", 1)
def slice_v1(g, inputs, attr):
    # Before opset 10 starts, ends and axes are attributes.
    starts = const(list(attr["starts"]), "int64")
    ends = const(list(attr["ends"]), "int64")
    axes = const(list(attr["axes"]), "int64") if "axes" in attr else None
    return slice_(g, [inputs[0], starts, ends, axes], {})


@converter("Slice", 10)
def slice_(g, inputs, attr):
    data = inputs[0]
    starts, ends, axes, steps = (g.get_constant(inputs[i]) for i in range(1, 5))
    params = (starts, ends, axes, steps)
    if g.fold_constants and _is_const(data) and all(p is None or _is_const(p) for p in params):
        return _slice_constant(data, starts, ends, axes, steps)
    if all(p is None or _is_const(p) or isinstance(p, ShapeExpr) or _is_prim(p)
           for p in params):
        return _slice_static(data, starts, ends, axes, steps)
    return _slice_dynamic(g, data, starts, ends, axes, steps)


def _slice_constant(data, starts, ends, axes, steps):
    """Slice of a constant, folded with numpy (fold_constants)."""
    arr = _numpy(data)
    starts, ends = _numpy(starts).tolist(), _numpy(ends).tolist()
    axes = _numpy(axes).tolist() if axes is not None else list(range(len(starts)))
    steps = _numpy(steps).tolist() if steps is not None else [1] * len(starts)
    if not len(starts) == len(ends) == len(axes) == len(steps):
        raise ConverterError("Slice expects starts, ends, axes and steps of one length")
    if 0 in steps:
        raise ConverterError("Slice step values must be non-zero.")
    index = [slice(None)] * arr.ndim
    for axis, lo, hi, step in zip(_unique_axes(axes, arr.ndim, "Slice"), starts, ends, steps):
        index[axis] = slice(lo, hi, step)
    return _const_array(arr[tuple(index)])


def _slice_static(data, starts, ends, axes, steps):
    """Slice with parameters known at import time: strided_slice (or the sliced dims of a
    ShapeExpr)."""
    starts, ends = _prim_list(starts), _prim_list(ends)
    if len(starts) != len(ends):
        raise ConverterError("Slice expects starts and ends to have the same length, but got "
                             f"{len(starts)} and {len(ends)}.")
    if axes is None:
        axes = list(range(len(starts)))
    else:
        axes = _prim_list(axes)
        if len(axes) != len(starts):
            raise ConverterError("Slice expects axes and starts to have the same length, but "
                                 f"got {len(axes)} and {len(starts)}.")
    rank = _static_rank(data)
    if rank is None:
        raise ConverterError("Slice requires a statically known input rank.")
    axes = _unique_axes([int(a) for a in axes], rank, "Slice")
    if steps is None:
        steps = [1] * len(axes)
    else:
        steps = _prim_list(steps)
        if len(steps) != len(starts):
            raise ConverterError("Slice expects steps and starts to have the same length, but "
                                 f"got {len(steps)} and {len(starts)}.")
    if any(_is_zero(s) for s in steps):
        raise ConverterError("Slice step values must be non-zero.")
    if isinstance(data, ShapeExpr):
        if not len(starts) == len(ends) == len(steps) == 1:
            raise ConverterError("Slice of a shape value takes one start, end and step")
        dims = list(data.values)[starts[0]:ends[0]:steps[0]]
        if all(isinstance(d, IntImm) for d in dims):
            return const([int(d.value) for d in dims], "int64")
        return ShapeExpr(dims)
    inbound = not all(isinstance(v, (int, IntImm)) for v in (*starts, *ends, *steps))
    return _op.strided_slice(data, axes, starts, ends, steps, assume_inbound=inbound)


def _slice_operand(g, x, name: str, count: int):
    """Slice's ends / axes / steps operand as an int64 tensor of count entries."""
    x = _to_int64(g, x)
    n = _static_length(x)
    if n is None:
        raise ConverterError(f"Slice requires a statically known {name} length.")
    if n != count:
        pair = f"starts and ends to have the same length, but got {count} and {n}" \
            if name == "ends" else \
            f"{name} and starts to have the same length, but got {n} and {count}"
        raise ConverterError(f"Slice expects {pair}.")
    return x


def _slice_dynamic(g, data, starts, ends, axes, steps):
    """Slice with run-time parameters: dynamic_strided_slice over full-rank begin / end /
    strides tensors (the given entries scattered into the defaults)."""
    rank = _static_rank(data)
    if rank is None:
        raise ConverterError("Slice with dynamic parameters requires a statically known input "
                             "rank.")
    if isinstance(data, ShapeExpr):
        raise ConverterError("Slice with dynamic parameters does not support ShapeExpr input.")
    starts = _to_int64(g, starts)
    count = _static_length(starts)
    if count is None:
        raise ConverterError("Slice requires a statically known starts length.")
    ends = _slice_operand(g, ends, "ends", count)
    if axes is None:
        axes = _op.arange(count, dtype="int64")
    else:
        axes = _slice_operand(g, axes, "axes", count)
    if steps is None:
        steps = const(np.ones((count,), dtype="int64"), "int64")
    else:
        steps = _slice_operand(g, steps, "steps", count)
        if _is_const(steps) and np.any(_numpy(steps) == 0):
            raise ConverterError("Slice step values must be non-zero.")
    axes = _wrap_axes(g, axes, const(rank, "int64"))
    dims = _shape_tensor(g, data)
    begin = g.bb.normalize(_op.scatter_elements(
        const(np.zeros((rank,), dtype="int64"), "int64"), axes, starts))
    end = g.bb.normalize(_op.scatter_elements(dims, axes, ends))
    strides = g.bb.normalize(_op.scatter_elements(
        const(np.ones((rank,), dtype="int64"), "int64"), axes, steps))
    return _op.dynamic_strided_slice(data, begin, end, strides)


@converter("Split", 1)
def split_v1(g, inputs, attr):
    # Before opset 13 the split sizes are an attribute.
    sizes = attr.get("split")
    if sizes is not None and len(sizes) > 1:
        return _op.split(inputs[0], [int(v) for v in np.cumsum(sizes[:-1])], attr.get("axis", 0))
    return _op.split(inputs[0], g.num_outputs, attr.get("axis", 0))


@converter("Split", 13)
def split(g, inputs, attr):
    sizes = inputs[1]
    if sizes is not None:
        sizes = g.get_constant(sizes)
    if sizes is not None and _known_rank(sizes) != 0:
        if not _is_const(sizes):
            raise NotImplementedError("Split with sizes computed at run time is not supported "
                                      "yet")
        sections = [int(v) for v in np.cumsum(_numpy(sizes)[:-1])]
    else:
        sections = g.num_outputs
    return _op.split(inputs[0], sections, attr.get("axis", 0))


@converter("Trilu", 14)
def trilu(g, inputs, attr):
    x, k = inputs[0], inputs[1]
    upper = attr.get("upper", True)
    k = 0 if k is None else g.get_constant(k)
    if _is_const(k):
        k = int(_numpy(k).item())
    elif isinstance(k, IntImm):
        k = int(k.value)
    if isinstance(k, int):
        return _op.triu(x, k) if upper else _op.tril(x, k)
    # k known at run time only: a mask from the column-minus-row offsets.
    dims = x.ty.shape
    rows, cols = dims.values[-2], dims.values[-1]
    offset = _op.subtract(_op.reshape(_op.arange(0, cols, dtype="int64"), (1, cols)),
                          _op.reshape(_op.arange(0, rows, dtype="int64"), (rows, 1)))
    if _is_prim(k):
        dim = k if str(k.ty) == "int64" else k.astype("int64")
        k64 = g.bb.normalize(_op.shape_to_tensor(ShapeExpr([dim])))
        k64 = g.bb.normalize(_op.squeeze(k64, axis=[0]))
    else:
        k64 = _op.astype(k, "int64")
    mask = _op.greater_equal(offset, k64) if upper else _op.less_equal(offset, k64)
    return _op.where(_op.broadcast_to(mask, dims), x, const(0, _dtype(x)))


@converter("Size", 1)
def size(g, inputs, attr):
    data = inputs[0]
    if g.fold_constants and isinstance(data.ty, TensorType) and data.ty.shape is not None \
            and all(isinstance(d, IntImm) for d in data.ty.shape.values):
        return const(np.int64(np.prod([int(d.value) for d in data.ty.shape.values])), "int64")
    return _op.size(data)


@converter("EyeLike", 9)
def eye_like(g, inputs, attr):
    dtype = _dtype(inputs[0])
    if "dtype" in attr and str(onnx_helper.tensor_dtype_to_np_dtype(attr["dtype"])) != dtype:
        raise ConverterError(f"dtype mismatch between input ({dtype}) and attribute "
                             f"({attr['dtype']})")
    return _op.eye_like(inputs[0], attr.get("k", 0), dtype)


def _nchw(x: Any, op_name: str) -> list:
    dims = _shape_values(x)
    if len(dims) != 4:
        raise ConverterError(f"{op_name} expects a 4-D input, but it has {len(dims)} dims")
    return dims


@converter("DepthToSpace", 1)
def depth_to_space(g, inputs, attr):
    block = int(attr["blocksize"])
    mode = _str_attr(attr, "mode", "DCR")
    b, c, h, w = _nchw(inputs[0], "DepthToSpace")
    depth = c // (block * block)
    if mode == "DCR":
        x = _op.reshape(inputs[0], (b, block, block, depth, h, w))
        x = _op.permute_dims(x, [0, 3, 4, 1, 5, 2])
    elif mode == "CRD":
        x = _op.reshape(inputs[0], (b, depth, block, block, h, w))
        x = _op.permute_dims(x, [0, 1, 4, 2, 5, 3])
    else:
        raise ConverterError(f"Unsupported mode: {mode}, expected DCR or CRD")
    return _op.reshape(x, (b, depth, h * block, w * block))


@converter("SpaceToDepth", 1)
def space_to_depth(g, inputs, attr):
    block = int(attr["blocksize"])
    b, c, h, w = _nchw(inputs[0], "SpaceToDepth")
    x = _op.reshape(inputs[0], (b, c, h // block, block, w // block, block))
    x = _op.permute_dims(x, [0, 3, 5, 1, 2, 4])
    return _op.reshape(x, (b, c * block * block, h // block, w // block))


@converter("NonZero", 9)
def nonzero(g, inputs, attr):
    ndim = max(_ndim(inputs[0]), 1)
    count = Var("nonzero_numbers", "int64")
    return g.bb.match_cast(_op.nonzero(inputs[0]), TensorType([ndim, count], "int64"))


@converter("Compress", 9)
def compress(g, inputs, attr):
    data, cond = inputs[0], inputs[1]
    axis = attr.get("axis")
    if _dtype(cond) != "bool":
        raise ConverterError("Condition tensor is expected to be a boolean tensor")
    if _ndim(cond) != 1:
        raise ConverterError("Condition tensor is expected to be a 1D boolean tensor")
    count = Var("num_nonzero", "int64")
    picked = g.bb.match_cast(_op.nonzero(cond), TensorType([1, count], "int64"))
    picked = _op.reshape(picked, [-1])
    if axis is None:
        return _op.take(_op.reshape(data, (-1,)), picked, axis=0)
    return _op.take(data, picked, axis=axis)


@converter("Unique", 11)
def unique(g, inputs, attr):
    data = inputs[0]
    axis = attr.get("axis")
    n = g.num_outputs
    out = _op.unique(data, sorted=bool(attr.get("sorted", 1)), return_index=n > 1,
                     return_inverse=n > 2, return_counts=n > 3, axis=axis)
    count = Var("unique_numbers", "int64")
    dims = _shape_values(data)
    if axis is None:
        values_shape = [count]
    else:
        if axis < 0:
            axis += len(dims)
        if not 0 <= axis < len(dims):
            raise ConverterError(f"Axis {axis} is out of bounds")
        values_shape = [count if i == axis else d for i, d in enumerate(dims)]
    values_ty = TensorType(values_shape, _dtype(data))
    if n == 1:
        return g.bb.match_cast(out, values_ty)
    items = [g.bb.match_cast(TupleGetItem(out, 0), values_ty)]
    for i in range(1, n):
        # indices and counts have one entry per unique value; the inverse, one per element
        extent = Var("inverse_numbers", "int64") if i == 2 else count
        items.append(g.bb.match_cast(TupleGetItem(out, i), TensorType([extent], "int64")))
    return Tuple(items)


@converter("Range", 11)
def range_(g, inputs, attr):
    start, limit, delta = (g.get_constant(inputs[i]) for i in range(3))
    dtype = str(start.ty) if _is_prim(start) else _dtype(start)

    def scalar(x):
        if isinstance(x, IntImm):  # a static dim of a shape (beyond apache-tvm: folded)
            return int(x.value)
        if _is_const(x):
            arr = _numpy(x)
            if arr.size != 1:
                raise ConverterError("Range scalar input must have exactly one element.")
            return arr.item()
        return x

    start, limit, delta = scalar(start), scalar(limit), scalar(delta)
    is_float = _is_float_dtype(dtype)
    if not any(isinstance(v, Expr) for v in (start, limit, delta)):
        if is_float:
            kind = np.dtype(dtype).type
            start, limit, delta = kind(start), kind(limit), kind(delta)
            count = max(int(np.ceil(np.float64(limit - start) / np.float64(delta))), 0)
            values = np.arange(count, dtype=dtype) * delta + start
        else:
            values = np.arange(start=start, stop=limit, step=delta)
        return const(values, dtype)
    # a bound known at run time: the length is computed, then bound to a symbolic dim
    count_dtype = "float64" if is_float else "int64"

    def tensor(x, to):
        if _is_prim(x):
            if str(x.ty) != "int64":
                x = x.astype("int64")
            x = g.bb.normalize(_op.shape_to_tensor(ShapeExpr([x])))
            x = g.bb.normalize(_op.reshape(x, ()))
            return x if to == "int64" else g.bb.normalize(_op.astype(x, to))
        if isinstance(x, Expr):
            return x if _dtype(x) == to else g.bb.normalize(_op.astype(x, to))
        return const(x, to)

    if is_float:
        first, step = tensor(start, dtype), tensor(delta, dtype)
        span = g.bb.normalize(_op.subtract(tensor(limit, dtype), first))
        span = g.bb.normalize(_op.astype(span, count_dtype))
        count = _op.ceil(_op.divide(span, g.bb.normalize(_op.astype(step, count_dtype))))
    else:
        lo, hi, by = (tensor(v, count_dtype) for v in (start, limit, delta))
        count = _op.negative(_op.floor_divide(_op.subtract(lo, hi), by))
        first, step = tensor(start, dtype), tensor(delta, dtype)
    count = g.bb.normalize(_op.maximum(count, const(0, count_dtype)))
    count = g.bb.normalize(_op.astype(count, "int64"))
    count = g.bb.normalize(_op.reshape(count, (1,)))
    length = _dims_from_tensor(g, count, 1, "range_len").values[0]
    positions = g.bb.normalize(_op.astype(_op.arange(0, length, 1, "int64"), dtype))
    return _op.add(_op.multiply(positions, step), first)


def _expand_target(dims: list, want: list, show_data: list, show_want: list) -> list:
    """ONNX Expand's target dims against the data dims (right-aligned, data already padded
    with leading 1s; ints, IntImm or symbolic): -1 keeps the data dim, a 1 under a larger
    data dim keeps it too; a symbolic target dim is left to broadcast_to."""
    for i, t in enumerate(want):
        t = int(t.value) if isinstance(t, IntImm) else t
        if not isinstance(t, int):
            continue
        d = int(dims[i].value) if isinstance(dims[i], IntImm) else dims[i]
        d = d if isinstance(d, int) else None
        if t == -1:
            want[i] = dims[i]
        elif d == 1:
            if t < 1:
                raise ConverterError(f"ONNX Expand: Invalid target dimension {t} at possition "
                                     f"{i}. Target dimensions must be >= 1.")
        elif d is not None and t == d:
            pass
        elif t == 1:
            want[i] = dims[i]
        elif d is not None:
            raise ConverterError(
                f"ONNX Expand: Cannot broadcast input shape {show_data} to target shape "
                f"{show_want}. At dimension {i}: input size {d} is incompatible with target "
                f"size {t}. ONNX broadcasting requires corresponding dimensions to have the "
                "same value or one of them to be 1.")
    return want


@converter("Expand", 8)
def expand(g, inputs, attr):
    data, target = inputs[0], inputs[1]
    if isinstance(target, ShapeExpr):
        return _expand_to_shape(data, target)
    if _is_const(target):
        want = _numpy(target).tolist()
        dims = [_int_dim(d) for d in _shape_values(data)]
        show_data, show_want = list(dims), list(want)
        if len(want) > len(dims):
            dims = [1] * (len(want) - len(dims)) + dims
        else:
            want = [1] * (len(dims) - len(want)) + want
        return _op.broadcast_to(data, ShapeExpr(_expand_target(dims, want, show_data,
                                                               show_want)))
    # a target shape known at run time: its dims become symbolic through match_cast
    ndim = _static_length(target)
    shape_var = g.bb.emit(Call(ExternFunc("vm.builtin.tensor_to_shape"), [target],
                               ty_args=[ShapeType(ndim=ndim)]))
    dims = [Var(f"x_{i}", "int64") for i in range(ndim)]
    g.bb.match_cast(shape_var, ShapeType(dims))
    data_dims = _shape_values(data)
    if ndim > len(data_dims):
        padded = [IntImm("int64", 1)] * (ndim - len(data_dims)) + data_dims
        data = g.bb.normalize(_op.reshape(data, ShapeExpr(padded)))
    return g.bb.normalize(_op.broadcast_to(data, ShapeExpr(dims)))


def _int_dim(d: Any) -> Any:
    if not isinstance(d, IntImm):
        raise ConverterError("Expand to a constant shape needs the input's dims known")
    return int(d.value)


def _expand_to_shape(data, target: ShapeExpr):
    """Expand to a shape value: static dims follow ONNX's rules, symbolic ones are left to
    broadcast_to."""
    dims = _shape_values(data)
    ndim = len(dims)
    want = list(target.values)
    show_data = [int(d.value) if isinstance(d, IntImm) else str(d) for d in dims]
    show_want = [int(d.value) if isinstance(d, IntImm) else str(d) for d in want]
    dims = [IntImm("int64", 1)] * (len(want) - len(dims)) + dims
    if len(dims) != len(want):
        raise ConverterError(f"ONNX Expand: the target shape {show_want} has fewer dims than "
                             f"the input shape {show_data}")
    want = _expand_target(dims, want, show_data, show_want)
    if len(want) == ndim and all(_dims_equal(a, b) for a, b in zip(want, dims)):
        return data
    return _op.broadcast_to(data, ShapeExpr(want))


# Where apache-tvm lowers through TE / TIR (Tile, Pad: bb.emit_te -> call_tir of a PrimFunc),
# tether has no TE and emits the Relax op instead (relax.tile, relax.nn.pad); those cases are
# listed in DIFFERS of tests/python/onnx_corpus_known.py.

@converter("Tile", 6)
def tile(g, inputs, attr):
    data, reps = inputs[0], g.get_constant(inputs[1])
    if _is_const(reps):
        return _op.tile(data, [int(r) for r in _numpy(reps).tolist()])
    rank, count = _static_rank(data), _static_length(reps)
    if rank is None or count is None:
        raise ConverterError("Dynamic Tile requires known input rank and repeats length.")
    if count != rank:
        raise ConverterError(f"Tile: repeats has {count} entries for an input of rank {rank}")
    if data.ty.shape is None:
        raise NotImplementedError("Tile with run-time repeats of an input of unknown shape is "
                                  "not supported")
    # repeats known at run time: data as (1, d0, 1, d1, ...) broadcast to (r0, d0, r1, d1, ...)
    # and merged pairwise, the r_i bound to symbolic dims through match_cast.
    reps = _to_int64(g, reps)
    counts = _dims_from_tensor(g, reps, rank, "tile_rep").values
    dims = _shape_values(data)
    spread = g.bb.normalize(_op.reshape(data, ShapeExpr(
        [v for d in dims for v in (IntImm("int64", 1), d)])))
    grown = g.bb.normalize(_op.broadcast_to(spread, ShapeExpr(
        [v for r, d in zip(counts, dims) for v in (r, d)])))
    return _op.reshape(grown, ShapeExpr([r * d for r, d in zip(counts, dims)]))


# ONNX Pad mode -> relax.nn.pad mode.
_PAD_MODES = {"constant": "constant", "reflect": "reflect", "edge": "replicate",
              "wrap": "circular"}


def _pad(data, before: list, after: list, mode: str, value: float, modes: tuple):
    if mode not in modes:
        raise ConverterError(f'Value {mode} in attribute "mode" is invalid for operator Pad.')
    if any(v < 0 for v in before + after):
        raise NotImplementedError("Pad with negative pads (cropping) is not supported yet")
    widths = [w for pair in zip(before, after) for w in pair]
    return _op.nn.pad(data, widths, _PAD_MODES[mode], float(value))


@converter("Pad", 2)
def pad_v2(g, inputs, attr):
    # Before opset 11 pads and the constant value are attributes.
    pads = [int(p) for p in attr["pads"]]
    half = len(pads) // 2
    return _pad(inputs[0], pads[:half], pads[half:], _str_attr(attr, "mode", "constant"),
                attr.get("value", 0.0), ("constant", "edge", "reflect"))


def _pad_inputs(g, inputs, modes: tuple, attr):
    pads, value = g.get_constant(inputs[1]), g.get_constant(inputs[2])
    value = _numpy(value).item() if value is not None else 0.0
    if not _is_const(pads):
        raise NotImplementedError("Pad with pads computed at run time is not supported yet")
    pads = [int(p) for p in _numpy(pads).tolist()]
    half = len(pads) // 2
    before, after = pads[:half], pads[half:]
    if inputs[3] is not None:
        axes = g.get_constant(inputs[3])
        if not _is_const(axes):
            raise NotImplementedError("Pad with axes computed at run time is not supported yet")
        axes = [int(a) for a in _numpy(axes).tolist()]
        if len(before) != len(axes):
            raise ConverterError(f"Pad expects pads length 2 * len(axes), got {len(pads)} pads "
                                 f"and {len(axes)} axes.")
        rank = _static_rank(inputs[0])
        if rank is None:
            raise ConverterError("Pad with axes requires a statically known input rank.")
        full_before, full_after = [0] * rank, [0] * rank
        for i, axis in enumerate(_unique_axes(axes, rank, "Pad")):
            full_before[axis], full_after[axis] = before[i], after[i]
        before, after = full_before, full_after
    return _pad(inputs[0], before, after, _str_attr(attr, "mode", "constant"), value, modes)


@converter("Pad", 11)
def pad_v11(g, inputs, attr):
    return _pad_inputs(g, inputs, ("constant", "edge", "reflect"), attr)


@converter("Pad", 19)
def pad_v19(g, inputs, attr):
    return _pad_inputs(g, inputs, ("constant", "edge", "reflect", "wrap"), attr)


# ---- optionals and sequences --------------------------------------------------------------------
#
# As in apache-tvm's frontend, an Optional holding a value is that value, an empty one is the
# EmptyOptional marker (never part of the module: a graph output holding one is an error), and
# a sequence is a relax Tuple of its tensors, indexed at import time.

class EmptyOptional:
    """An empty ONNX Optional during the import (type_proto: its declared element type)."""

    __slots__ = ("type_proto",)

    def __init__(self, type_proto: Any) -> None:
        self.type_proto = type_proto


def _optional_operand(inputs, op_name: str):
    if len(inputs) != 1:
        raise ConverterError(f"{op_name} expects one input, but got {len(inputs)}")
    return inputs[0]


@converter("Optional", 15)
def optional(g, inputs, attr):
    if len(inputs) > 1:
        raise ConverterError(f"Optional accepts at most one input, but got {len(inputs)}")
    if len(inputs) == 0 or inputs[0] is None:
        if "type" not in attr:
            raise ConverterError("Optional without an input must specify the type attribute.")
        return EmptyOptional(attr["type"])
    return inputs[0]


@converter("OptionalHasElement", 15)
def optional_has_element(g, inputs, attr):
    value = _optional_operand(inputs, "OptionalHasElement")
    return const(not (value is None or isinstance(value, EmptyOptional)), "bool")


@converter("OptionalGetElement", 15)
def optional_get_element(g, inputs, attr):
    value = _optional_operand(inputs, "OptionalGetElement")
    if value is None or isinstance(value, EmptyOptional):
        raise ConverterError("OptionalGetElement cannot access an empty optional.")
    return value


def _position(value, default: int, op_name: str) -> int:
    if value is None:
        return default
    if not _is_const(value):
        raise NotImplementedError(f"{op_name}: the position must be a constant")
    return int(_numpy(value))


def _sequence(value, op_name: str) -> list:
    if not isinstance(value, Tuple):
        raise NotImplementedError(f"{op_name}: the sequence must be known at import time (a "
                                  "SequenceConstruct / SequenceEmpty / Sequence* result)")
    return list(value.fields)


@converter("SequenceConstruct", 11)
def sequence_construct(g, inputs, attr):
    return Tuple(list(inputs))


@converter("SequenceEmpty", 11)
def sequence_empty(g, inputs, attr):
    return Tuple([])


@converter("SequenceErase", 11)
def sequence_erase(g, inputs, attr):
    items = _sequence(inputs[0], "SequenceErase")
    pos = _position(inputs[1], -1, "SequenceErase")
    n = len(items)
    if not -n <= pos < n:
        raise ConverterError(f"Position is out of bounds, expected [-{n}, {n}), got {pos}")
    del items[pos]
    return Tuple(items)


@converter("SequenceInsert", 11)
def sequence_insert(g, inputs, attr):
    items = _sequence(inputs[0], "SequenceInsert")
    pos = _position(inputs[2], -1, "SequenceInsert")
    n = len(items)
    if pos < 0:
        pos += n + 1
    if not 0 <= pos <= n:  # n: append
        raise ConverterError(f"SequenceInsert position out of bounds for length {n}, got {pos}")
    items.insert(pos, inputs[1])
    return Tuple(items)


@converter("SequenceLength", 11)
def sequence_length(g, inputs, attr):
    return const(len(_sequence(inputs[0], "SequenceLength")), "int64")


@converter("SequenceAt", 11)
def sequence_at(g, inputs, attr):
    if not _is_const(inputs[1]):
        raise NotImplementedError("SequenceAt: the position must be a constant")
    return inputs[0][int(_numpy(inputs[1]))]


@converter("ConcatFromSequence", 11)
def concat_from_sequence(g, inputs, attr):
    axis, new_axis = attr.get("axis", 0), attr.get("new_axis", 0)
    if new_axis not in (0, 1):
        raise ConverterError(f"ConcatFromSequence only supports new_axis in (0, 1), got "
                             f"{new_axis}")
    items = _sequence(inputs[0], "ConcatFromSequence")
    if new_axis == 1:
        items = [_op.expand_dims(t, axis=axis) for t in items]
    return _op.concat(items, axis=axis)


@converter("SplitToSequence", 11)
def split_to_sequence(g, inputs, attr):
    data = inputs[0]
    axis, keepdims = attr.get("axis", 0), attr.get("keepdims", 1)
    if inputs[1] is None:
        sizes = np.array(1)
    elif _is_const(inputs[1]):
        sizes = _numpy(inputs[1])
    else:
        raise NotImplementedError("SplitToSequence: the split sizes must be constants")
    if sizes.ndim == 1 and sizes.shape[0] > 1:
        sections = [int(v) for v in np.cumsum(sizes)[:-1]]
    else:
        extent = _shape_values(data)[axis]
        if not isinstance(extent, IntImm):
            raise NotImplementedError("SplitToSequence with dynamic dim size and scalar split "
                                      "is not supported.")
        chunk = int(sizes)
        sections = -(-int(extent.value) // chunk)
    out = _op.split(data, sections, axis=axis)
    if not keepdims and inputs[1] is None:  # keepdims applies to the default split only
        out = g.bb.emit(out)
        return Tuple([_op.squeeze(g.bb.emit(TupleGetItem(out, i)), axis=[axis])
                      for i in range(len(out.ty.fields))])
    return out
