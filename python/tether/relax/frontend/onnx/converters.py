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
            onnx NodeProto being converted: its domain, its outputs), g.num_outputs (the
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
from ....ir import FloatImm, IntImm

# Typing names for annotations only.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Dict, List, Optional

__all__ = ["converter", "get_converter", "supported_ops", "ConverterError"]

# op type -> {first opset version handled -> converter}
_TABLE: Dict[str, Dict[int, Callable]] = {}
# (op type, opset) -> get_converter's answer, emptied whenever _TABLE changes.
_CHOSEN: Dict[tuple, Optional[Callable]] = {}


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
        _CHOSEN.clear()
        return fn

    return register


def get_converter(op_type: str, opset: int) -> Optional[Callable]:
    """The converter for op_type at opset: the one registered for the largest version <= opset,
    else the oldest one; None when op_type has none."""
    key = (op_type, opset)
    fn = _CHOSEN.get(key, _CHOSEN)
    if fn is _CHOSEN:
        versions = _TABLE.get(op_type)
        if not versions:
            fn = None
        else:
            fit = [v for v in versions if v <= opset]
            fn = versions[max(fit) if fit else min(versions)]
        _CHOSEN[key] = fn
    return fn


def supported_ops() -> Dict[str, List[int]]:
    """Every ONNX op type with a converter, with the opset versions registered for it."""
    return {name: sorted(versions) for name, versions in sorted(_TABLE.items())}


# ---- helpers ----------------------------------------------------------------------------------

# What a value is, by its type: isinstance against tether's classes goes through their
# metaclass's __instancecheck__ (~100 ns), and the converters and the importer's walk ask
# several times a node.
OTHER, EXPR, VAR, TUPLE, CONST = 0, 1, 2, 3, 4
_KINDS: Dict[type, int] = {}


def value_kind(x: Any) -> int:
    """OTHER, EXPR, VAR (a Var), TUPLE (a relax Tuple) or CONST (a tensor constant) for x's
    type."""
    kind = _KINDS.get(type(x))
    if kind is None:
        kind = _KINDS[type(x)] = (TUPLE if isinstance(x, Tuple) else
                                  VAR if isinstance(x, Var) else
                                  CONST if isinstance(x, GenericConst) else
                                  EXPR if isinstance(x, Expr) else OTHER)
    return kind


def _is_const(x: Any) -> bool:
    return value_kind(x) == CONST


def _numpy(c: GenericConst) -> np.ndarray:
    """The value of a tensor constant as a numpy array: a read-only view of its data (a
    constant may share an initializer's immutable bytes; see _const_array)."""
    arr = np.from_dlpack(c.value)
    arr.setflags(write=False)
    return arr


def _const_array(arr: Any, dtype: Optional[str] = None) -> GenericConst:
    """A constant holding the array arr with its own dtype (or converted to dtype); what
    relax.const(arr, dtype) builds, without its conversions when arr is ready as it is.  The
    constant shares arr's memory, read-only arrays included (an initializer's raw bytes are
    never copied): arr must not change afterwards."""
    arr = np.asarray(arr)
    if dtype is not None and arr.dtype != dtype:
        arr = arr.astype(dtype)
    if not arr.flags.c_contiguous:
        arr = np.array(arr, copy=True, order="C")
    try:
        tensor = _constant_tensor(arr)
    except TypeError:  # a dtype DLPack has no code for: numpy's exporter explains
        tensor = core.from_dlpack(arr if arr.flags.writeable else arr.copy())
    return _generic_const(tensor, None)


_constant_tensor = core._constant_tensor


_generic_const = core.get_global_func("ir.GenericConst")


_DTYPE_NAMES: Dict[Any, str] = {}


def _dtype_name(dtype: np.dtype) -> str:
    """str(dtype), remembered (numpy builds the name anew each time)."""
    name = _DTYPE_NAMES.get(dtype)
    if name is None:
        name = _DTYPE_NAMES[dtype] = str(dtype)
    return name


def _dtype(x: Any) -> str:
    dtype = x.ty.dtype
    # (str of a PrimType is the name of its dtype: read here without its Python __str__)
    return str(dtype.dtype) if type(dtype) is PrimType else str(dtype)


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

_RELAX_OPS: Dict[str, Callable] = {}


def _relax_op(name: str) -> Callable:
    """The tether.relax.op function `name` ("add", "nn.relu"), looked up when first used."""
    fn = _RELAX_OPS.get(name)
    if fn is None:
        fn = _RELAX_OPS[name] = functools.reduce(getattr, name.split("."), _op)
    return fn


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
        ("Mul", 7, "multiply", np.multiply),
        ("Less", 1, "less", np.less), ("LessOrEqual", 1, "less_equal", np.less_equal),
        ("Greater", 1, "greater", np.greater),
        ("GreaterOrEqual", 1, "greater_equal", np.greater_equal)):
    converter(_name, _since)(_binary(_rop, _nop))


@converter("Pow", 1)
def power(g, inputs, attr):
    """The result has the base's dtype (ONNX's T); the exponent may have another (T1)."""
    a, b = inputs[0], inputs[1]
    if _is_const(a) and _is_const(b):
        x = _numpy(a)
        return _const_array(np.asarray(np.power(x, _numpy(b))).astype(x.dtype))
    da, db = _dtype(a), _dtype(b)
    if da == db or not da or not db:
        return _op.power(a, b)
    # beyond apache-tvm 0.27, which rejects operands of two dtypes: an exponent of another
    # dtype is cast to the base's when the base is a float; an integer base is raised in the
    # exponent's float dtype and the result cast back
    if da.startswith(("float", "bfloat")):
        return _op.power(a, g.bb.normalize(_op.astype(b, da)))
    return _op.astype(g.bb.normalize(_op.power(g.bb.normalize(_op.astype(a, db)), b)), da)


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


def _filled(dims: list, value: Any, dtype: str) -> np.ndarray:
    """np.full(dims, value, dtype) (without np.full's Python-level overhead)."""
    arr = np.empty(dims, dtype)
    np.copyto(arr, value, casting="unsafe")
    return arr


def _filled_1d(g, n: int, value: Any, dtype: str) -> np.ndarray:
    """A new 1-D array of n elements `value` of dtype: a copy of the one made first for
    (n, value, dtype) in the import (g.filled_arrays; light models fill the parameters of
    every BatchNormalization with the same zeros and ones)."""
    key = (n, id(value), dtype)
    hit = g.filled_arrays.get(key)
    if hit is None:  # (holding value: its id stays its own)
        hit = g.filled_arrays[key] = (value, _filled([n], value, dtype))
    return hit[1].copy()


# The fill values of ConstantOfShape read so far: serialized TensorProto -> (value, dtype name).
# A model states the same few fill values over and over (zeros, ones); the arrays here are
# only read (np.copyto's source, or copied into a constant by _const_array).
_FILL_VALUES: Dict[bytes, tuple] = {}


def _fill_value(g, proto: Any) -> tuple:
    """(value, dtype name) of ConstantOfShape's `value` attribute (0 and float32 without
    one)."""
    if proto is None:
        return 0, "float32"
    known = g.fill_values.get(id(proto))  # (the importer gives one TensorProto per value)
    if known is not None:
        return known[1]
    key = proto.SerializeToString()
    hit = _FILL_VALUES.get(key)
    if hit is None:
        value = g.tensor_array(proto)
        hit = (value, _dtype_name(value.dtype))
        if value.size > 1:
            return hit
        value.flags.writeable = False
        if len(_FILL_VALUES) >= 256:
            _FILL_VALUES.clear()
        _FILL_VALUES[key] = hit
    g.fill_values[id(proto)] = (proto, hit)  # (holding proto: its id stays its own)
    return hit


class StaticShape(tuple):
    """The dims held by an int64 initializer that only ConstantOfShape reads, as its shape:
    the importer keeps such an initializer as its dims instead of making it a constant (light
    models state every weight as a ConstantOfShape of one)."""

    __slots__ = ()


@converter("ConstantOfShape", 9)
def constant_of_shape(g, inputs, attr):
    shape = inputs[0]
    value, dtype = _fill_value(g, attr.get("value"))
    if type(shape) is StaticShape:  # an initializer's dims (see the importer)
        shape = list(shape)
    else:
        shape = g.get_constant(shape)
        if _is_const(shape):
            dims = _numpy(shape)
            if dims.ndim != 1:
                raise ConverterError(f"ConstantOfShape: the shape must be 1-D, but it has "
                                     f"{dims.ndim} dims")
            shape = [int(v) for v in dims.tolist()]  # (broadcast_to makes the ShapeExpr)
        elif isinstance(shape, ShapeExpr) and len(shape) == 1 \
                and isinstance(shape.values[0], IntImm):
            shape = [int(shape.values[0].value)]
    if isinstance(shape, list) and len(shape) == 1:  # a 1-D result is built as a constant
        return _const_array(_filled_1d(g, shape[0], value, dtype))
    if not isinstance(shape, (ShapeExpr, list)):
        shape = _op.tensor_to_shape(shape)
    fill = _const_array(value.copy()) if isinstance(value, np.ndarray) else const(value, dtype)
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
    return _unsqueeze_static(inputs[0], [int(a) for a in attr.get("axes", ())])


def _unsqueeze_static(data: Any, axes_list: list) -> Any:
    """Unsqueeze by the axes known at import time."""
    if _is_const(data):
        arr = _numpy(data)
        norm = sorted(_unique_axes(axes_list, arr.ndim + len(axes_list), "Unsqueeze"))
        dims = iter(arr.shape)
        shape = [1 if i in norm else next(dims) for i in range(arr.ndim + len(norm))]
        return _const_array(arr.reshape(shape).copy())  # (its own data)
    if _is_prim(data):  # one dim of a shape: a 1-D shape value
        if _unique_axes(axes_list, 1, "Unsqueeze") == [0]:
            return ShapeExpr([data])
        raise NotImplementedError("Unsqueeze with symbolic scalar inputs only supports axis 0.")
    rank = _static_rank(data)
    if rank is None:
        raise ConverterError("Unsqueeze requires a statically known input rank.")
    for axis in sorted(_unique_axes(axes_list, rank + len(axes_list), "Unsqueeze")):
        data = _op.expand_dims(data, axis=axis)
    return data


@converter("Unsqueeze", 13)
def unsqueeze(g, inputs, attr):
    data, axes = inputs[0], g.get_constant(inputs[1])
    if _is_const(axes):
        return _unsqueeze_static(data, [int(a) for a in _numpy(axes).tolist()])
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
    if "dtype" in attr:
        try:
            out = str(onnx_helper.tensor_dtype_to_np_dtype(attr["dtype"]))
        except (KeyError, ValueError, TypeError):
            raise ConverterError(f"EyeLike: dtype {attr['dtype']} is not an ONNX tensor "
                                 "element type") from None
        if out != dtype:
            # beyond apache-tvm 0.27, which rejects a dtype other than the input's (ONNX's
            # dtype attribute is the output's): the ones and zeros cast exactly.  (Not
            # relax.eye_like's dtype: apache-tvm's legalization of it computes in the input's
            # dtype whatever the attribute says.)
            return _op.astype(g.bb.normalize(_op.eye_like(inputs[0], attr.get("k", 0), dtype)),
                              out)
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
    if not _is_const(pads):
        raise NotImplementedError("Pad with pads computed at run time is not supported yet")
    if value is not None and not _is_const(value):
        raise NotImplementedError("Pad with a constant_value computed at run time is not "
                                  "supported yet (Relax's nn.pad takes the value as an "
                                  "attribute)")
    value = _numpy(value).item() if value is not None else 0.0
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
    # (beyond apache-tvm 0.27: since opset 18 the input is optional, and without one the
    # answer is false)
    value = _optional_operand(inputs, "OptionalHasElement") if len(inputs) else None
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


def _known_dims(x: Any) -> Optional[list]:
    """The dims of x's shape (IntImm or symbolic), None when its shape is not known."""
    shape = x.ty.shape if isinstance(x.ty, TensorType) else None
    return None if shape is None else list(shape.values)


@converter("Scatter", 9)
def scatter(g, inputs, attr):
    data, indices, updates = inputs[0], inputs[1], inputs[2]
    axis = attr.get("axis", 0)
    data_dims, index_dims = _known_dims(data), _known_dims(indices)
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


def _scan(g, inputs, attr, op_name: str, relax_op: Callable):
    """CumSum / CumProd: relax_op(data, axis, exclusive=...) along the constant axis."""
    data, axis = inputs[0], inputs[1]
    if _known_rank(data) == 1 and axis is not None and not _is_const(g.get_constant(axis)):
        # (beyond apache-tvm 0.27) a 1-D input has one axis: an axis given at run time can
        # only be 0 or -1.
        axis = const(0, "int64")
    axis = _const_input(g, axis, op_name, "axis")
    if axis is None or axis.size != 1 or axis.ndim > 1:
        raise ConverterError(f"{op_name}: the axis input must be a scalar or a 1-element 1-D "
                             "tensor")
    axis = int(axis.reshape(-1)[0])
    # reverse: a scan of the input flipped along the axis, flipped back (apache-tvm emits the
    # flips as TIR functions through call_tir; tether emits relax.flip, bound in the same
    # places).
    reverse = attr.get("reverse", 0) != 0
    if reverse:
        data = g.bb.emit(_op.flip(data, axis=axis))
    out = g.bb.normalize(relax_op(data, axis, exclusive=attr.get("exclusive", 0) != 0))
    return g.bb.emit(_op.flip(out, axis=axis)) if reverse else out


@converter("CumSum", 11)
def cumsum(g, inputs, attr):
    return _scan(g, inputs, attr, "CumSum", _op.cumsum)


@converter("CumProd", 26)
def cumprod(g, inputs, attr):
    # beyond apache-tvm 0.27, which has no CumProd converter: CumSum's, with relax.cumprod
    return _scan(g, inputs, attr, "CumProd", _op.cumprod)


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
    dynamic_roi = None
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
    elif _str_attr(attr, "coordinate_transformation_mode", "half_pixel") == "tf_crop_and_resize":
        dynamic_roi = roi
    else:  # only tf_crop_and_resize reads the region of interest
        roi = [0.0] * (2 * (rank - 2))
    if dynamic_roi is not None:
        if scales is not None:
            return _resize_runtime_roi(g, x, dynamic_roi, attr,
                                       scales=_const_or_shape_values(scales, "scale"))
        return _resize_runtime_roi(g, x, dynamic_roi, attr,
                                   sizes=_const_or_shape_values(sizes, "size"))
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



# ---- Resize with a run-time region of interest (tf_crop_and_resize) ----------------------------
#
# Relax's image.resize2d/resize3d take the region of interest as an attribute, so a roi that is a
# graph input cannot reach them.  The resize is then spelled out in Relax ops, one axis at a
# time (the interpolation is separable): per output index i along an axis of input length L and
# output extent M (the scale times L), ONNX's source coordinate is
#     x(i) = start * (L - 1) + i * (end - start) * (L - 1) / (M - 1)      (M != 1)
#     x(i) = (start + end) / 2 * (L - 1)                                  (M == 1)
# with start/end read from the roi tensor; the input is gathered (take) at the neighbours of
# x(i), clamped to [0, L - 1] (ONNX pads by repeating the edge), blended with the mode's
# weights, and every output whose x(i) falls outside [0, L - 1] becomes extrapolation_value.
# Every axis is cropped so, the batch and channel axes too, as ONNX specifies (the constant-roi
# path, like apache-tvm, crops the spatial axes only).

def _coord(value: Any) -> GenericConst:
    """A constant of the coordinate arithmetic, which runs in float64 as ONNX's reference
    implementation does (on vectors as long as an output dim: cheap)."""
    return const(np.asarray(value, dtype="float64"), "float64")


_NEAREST_INDEX = {
    # nearest_mode -> the source index of coordinate x, as a function of x
    "round_prefer_floor": lambda x: _op.ceil(_op.subtract(x, _coord(0.5))),
    "round_prefer_ceil": lambda x: _op.floor(_op.add(x, _coord(0.5))),
    "floor": _op.floor,
    "ceil": _op.ceil,
}


def _cubic_weights(r: Expr, a: float) -> List[Expr]:
    """The weights of the four taps floor(x) - 1 .. floor(x) + 2 at fraction r = x - floor(x):
    Keys' cubic convolution kernel with coefficient a."""
    def near(t):  # |t| <= 1: (a + 2)|t|^3 - (a + 3)|t|^2 + 1
        poly = _op.subtract(_op.multiply(_coord(a + 2), t), _coord(a + 3))
        return _op.add(_op.multiply(_op.multiply(poly, t), t), _coord(1.0))

    def far(t):  # 1 < |t| < 2: a|t|^3 - 5a|t|^2 + 8a|t| - 4a
        poly = _op.subtract(_op.multiply(_coord(a), t), _coord(5 * a))
        poly = _op.add(_op.multiply(poly, t), _coord(8 * a))
        return _op.subtract(_op.multiply(poly, t), _coord(4 * a))

    one = _coord(1.0)
    rest = _op.subtract(one, r)
    return [far(_op.add(r, one)), near(r), near(rest), far(_op.add(rest, one))]


def _resize_runtime_roi(g, x: Expr, roi: Expr, attr: Dict[str, Any], scales: Any = None,
                        sizes: Any = None) -> Expr:
    """Resize with coordinate_transformation_mode tf_crop_and_resize whose roi is computed at
    run time, in Relax ops (see above).  scales / sizes: the constant values of the one given,
    for every axis, or for the axes of the `axes` attribute."""
    dims = _static_dims(x, "Resize with a region of interest computed at run time")
    rank = len(dims)
    if "axes" in attr:
        axes = [int(a) + rank if int(a) < 0 else int(a) for a in attr["axes"]]
        if any(not 0 <= a < rank for a in axes) or len(set(axes)) != len(axes):
            raise ConverterError(f"Resize: axes {list(attr['axes'])} are not distinct axes of "
                                 f"a rank-{rank} input")
    else:
        axes = list(range(rank))
    values = [float(v) for v in (scales if scales is not None else sizes)]
    if len(values) != len(axes):
        raise ConverterError(f"Resize: {len(values)} {'scales' if scales is not None else 'sizes'}"
                             f" for {len(axes)} axes")
    # Per resized axis: (axis, output dim, the fractional output extent ONNX's coordinate
    # formula divides by (the scale times the input dim; the size itself when sizes are given),
    # the index of its start in roi).  The axes not in `axes` stay as they are.
    plan = []
    for k, (axis, v) in enumerate(zip(axes, values)):
        if scales is not None:
            extent = float(np.float32(v)) * dims[axis]
            size = int(extent)
        else:  # the extent as ONNX computes it: the scale size / dim times the dim
            size = int(v)
            extent = size / dims[axis] * dims[axis]
        plan.append((axis, size, extent, k))
    dtype = _dtype(x)
    if dtype not in ("float16", "float32", "float64"):
        raise NotImplementedError(f"Resize of a {dtype} input with a region of interest computed "
                                  "at run time is not supported (floating-point inputs only)")
    if _str_attr(attr, "keep_aspect_ratio_policy", "stretch") != "stretch":
        raise NotImplementedError("Resize with a keep_aspect_ratio_policy and a region of "
                                  "interest computed at run time is not supported")
    mode = _str_attr(attr, "mode", "nearest")
    nearest_mode = _str_attr(attr, "nearest_mode", "round_prefer_floor")
    if mode not in ("nearest", "linear", "cubic"):
        raise ConverterError(f'Value {mode} in attribute "mode" of operator Resize is not valid.')
    if mode == "nearest" and nearest_mode not in _NEAREST_INDEX:
        raise ConverterError(f'Value {nearest_mode} in attribute "nearest_mode" of operator '
                             "Resize is not valid.")
    n_roi = _shape_values(roi)
    if not (len(n_roi) == 1 and isinstance(n_roi[0], IntImm)
            and int(n_roi[0].value) == 2 * len(axes)):
        raise ConverterError(f"Resize: the roi must have {2 * len(axes)} values (a start and "
                             f"an end per resized axis), but it has shape {list(n_roi)}")
    step = len(axes)
    roi_dtype = _dtype(roi)
    if roi_dtype not in ("float16", "float32", "float64"):
        raise ConverterError(f"Resize: the roi must be a float tensor, but it is {roi_dtype}")

    def wide(v):  # a value of the roi's dtype, in the coordinates' float64
        return _op.astype(v, "float64") if roi_dtype != "float64" else v

    fill = const(float(attr.get("extrapolation_value", 0.0)), dtype)
    a = float(attr.get("cubic_coeff_a", -0.75))
    exclude = bool(attr.get("exclude_outside", 0))
    for axis, size, extent, k in sorted(plan):
        length = dims[axis]
        if size == length == 1:
            continue  # x(0) = 0 whatever the roi: the axis stays as it is
        start = _op.strided_slice(roi, [0], [k], [k + 1])
        end = _op.strided_slice(roi, [0], [k + step], [k + step + 1])
        top = _coord(float(length - 1))
        # In the order and precision of ONNX's reference implementation (end - start and
        # start * (L - 1) in the roi's dtype), so that a coordinate on the border of the input
        # lands on the same side.
        diff = g.bb.emit(_op.subtract(end, start))
        offset = _op.multiply(start, const(float(length - 1), roi_dtype))
        if extent == 1:
            half = _op.divide(_op.multiply(diff, const(float(length - 1), roi_dtype)),
                              const(2.0, roi_dtype))
            coord = wide(_op.add(half, offset))
        else:
            coord = _op.multiply(_op.multiply(_coord(np.arange(size)), wide(diff)), top)
            coord = _op.add(_op.divide(coord, _coord(extent - 1)), wide(offset))
        coord = g.bb.emit(coord)
        # Inside [0, L - 1] (False for NaN); elsewhere the output is the fill, and the
        # coordinate is replaced by 0 so that every index computed from it is in range.
        inside = g.bb.emit(_op.logical_and(_op.greater_equal(coord, _coord(0.0)),
                                           _op.less_equal(coord, top)))
        coord = g.bb.emit(_op.where(inside, coord, _coord(0.0)))

        def column(v):  # a per-output-index vector, broadcast along axis
            return _op.reshape(v, [size] + [1] * (rank - 1 - axis)) if axis < rank - 1 else v

        def gather(index):  # x's slices at the float indices `index`, clamped to the input
            index = _op.clip(_op.astype(index, "int64"), 0, length - 1)
            return _op.take(x, index, axis=axis)

        def weight(w):
            w = column(w)
            return _op.astype(w, dtype) if dtype != "float64" else w

        if mode == "nearest":
            blended = gather(_NEAREST_INDEX[nearest_mode](coord))
        else:
            base = g.bb.emit(_op.floor(coord))
            frac = g.bb.emit(_op.subtract(coord, base))
            if mode == "linear":
                offsets, weights = (0, 1), [_op.subtract(_coord(1.0), frac), frac]
            else:
                offsets, weights = (-1, 0, 1, 2), _cubic_weights(frac, a)
            taps = [_op.add(base, _coord(float(o))) if o else base for o in offsets]
            if exclude:  # taps outside the input weigh nothing; the rest are renormalized
                weights = [_op.where(_op.logical_or(_op.less(t, _coord(0.0)),
                                                    _op.greater(t, top)),
                                     _coord(0.0), w) for t, w in zip(taps, weights)]
                weights = [g.bb.emit(w) for w in weights]
                total = g.bb.emit(functools.reduce(_op.add, weights))
                weights = [_op.divide(w, total) for w in weights]
            blended = None
            for t, w in zip(taps, weights):
                term = _op.multiply(gather(t), weight(w))
                blended = term if blended is None else _op.add(blended, term)
        x = g.bb.emit(_op.where(column(inside), blended, fill))
    return x


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
