"""relax.op: Relax operators as plain Python functions with TVM's signatures and defaults.

Each shapes its arguments the way TVM's wrapper does (an int axis becomes [axis], a list of
tensors becomes a relax.Tuple, a Python number a primitive constant, ...) and calls the C
constructor global "relax.op.<name>", which returns the Call node (un-normalized: its type is
filled in by BlockBuilder.normalize / emit).  relax.op.nn holds the neural-network ops.
"""
from __future__ import annotations

from ...ir import Expr, PrimType, Tuple
from ..expr import ShapeExpr
from . import nn
from ._util import ffi, prim, widen

# Typing names for annotations only.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import List, Optional, Sequence, Union

__all__ = [
    "nn", "add", "subtract", "multiply", "divide", "power", "maximum", "minimum", "equal",
    "less", "greater", "sigmoid", "tanh", "exp", "sqrt", "negative", "matmul", "linear",
    "reshape", "permute_dims", "expand_dims", "squeeze", "flatten", "concat", "split",
    "strided_slice", "take", "mean", "sum", "max", "astype", "broadcast_to", "clip", "where",
]

_add = ffi("add")
_subtract = ffi("subtract")
_multiply = ffi("multiply")
_divide = ffi("divide")
_power = ffi("power")
_maximum = ffi("maximum")
_minimum = ffi("minimum")
_equal = ffi("equal")
_less = ffi("less")
_greater = ffi("greater")
_sigmoid = ffi("sigmoid")
_tanh = ffi("tanh")
_exp = ffi("exp")
_sqrt = ffi("sqrt")
_negative = ffi("negative")
_matmul = ffi("matmul")
_reshape = ffi("reshape")
_permute_dims = ffi("permute_dims")
_expand_dims = widen("expand_dims", (0, 1))
_squeeze = widen("squeeze", (0, 1))
_flatten = ffi("flatten")
_concat = ffi("concat")
_split = ffi("split")
_strided_slice = ffi("strided_slice")
_take = ffi("take")
_mean = widen("mean", (0, 1, 0))
_sum = widen("sum", (0, 1, 0))
_max = widen("max", (0, 1, 0))
_astype = ffi("astype")
_broadcast_to = ffi("broadcast_to")
_clip = ffi("clip")
_where = ffi("where")


# ---- elementwise binary (broadcasting) -------------------------------------------------------

def add(x1: Expr, x2: Expr) -> Expr:
    """x1 + x2 with broadcasting (relax.add)."""
    return _add(x1, x2)


def subtract(x1: Expr, x2: Expr) -> Expr:
    """x1 - x2 with broadcasting (relax.subtract)."""
    return _subtract(x1, x2)


def multiply(x1: Expr, x2: Expr) -> Expr:
    """x1 * x2 with broadcasting (relax.multiply)."""
    return _multiply(x1, x2)


def divide(x1: Expr, x2: Expr) -> Expr:
    """x1 / x2 with broadcasting (relax.divide)."""
    return _divide(x1, x2)


def power(x1: Expr, x2: Expr):
    """x1 ** x2 with broadcasting (relax.power)."""
    return _power(x1, x2)


def maximum(x1: Expr, x2: Expr) -> Expr:
    """Elementwise maximum (relax.maximum)."""
    return _maximum(x1, x2)


def minimum(x1: Expr, x2: Expr) -> Expr:
    """Elementwise minimum (relax.minimum)."""
    return _minimum(x1, x2)


def equal(x1: Expr, x2: Expr) -> Expr:
    """x1 == x2, a bool tensor (relax.equal)."""
    return _equal(x1, x2)


def less(x1: Expr, x2: Expr) -> Expr:
    """x1 < x2, a bool tensor (relax.less)."""
    return _less(x1, x2)


def greater(x1: Expr, x2: Expr) -> Expr:
    """x1 > x2, a bool tensor (relax.greater)."""
    return _greater(x1, x2)


# ---- elementwise unary ---------------------------------------------------------------------

def sigmoid(x: Expr) -> Expr:
    """1 / (1 + exp(-x)) (relax.sigmoid); float input."""
    return _sigmoid(x)


def tanh(x: Expr) -> Expr:
    """tanh(x) (relax.tanh); float input."""
    return _tanh(x)


def exp(x: Expr) -> Expr:
    """exp(x) (relax.exp); float input."""
    return _exp(x)


def sqrt(x: Expr) -> Expr:
    """sqrt(x) (relax.sqrt); float input."""
    return _sqrt(x)


def negative(x: Expr) -> Expr:
    """-x (relax.negative)."""
    return _negative(x)


def clip(x: Expr, min: Expr, max: Expr) -> Expr:
    """x clipped to [min, max] (relax.clip); Python numbers become primitive constants."""
    return _clip(x, prim(min), prim(max))


# ---- linear algebra ------------------------------------------------------------------------

def matmul(x1: Expr, x2: Expr, out_dtype: Optional[str] = None) -> Expr:
    """Matrix product with array-API semantics (relax.matmul)."""
    return _matmul(x1, x2, out_dtype)


def linear(data: Expr, weight: Expr, bias: Optional[Expr] = None,
           out_dtype: Optional[str] = None) -> Expr:
    """data @ weight^T (+ bias): matmul(data, permute_dims(weight), out_dtype) then add."""
    out = matmul(data, permute_dims(weight, axes=None), out_dtype=out_dtype)
    return out if bias is None else add(out, bias)


# ---- manipulation ---------------------------------------------------------------------------

def reshape(x: Expr, shape: Union[Sequence[Union[int, Expr]], Expr]) -> Expr:
    """Reshape x to shape (a 0 copies the input dimension, one -1 is inferred)."""
    if isinstance(shape, tuple):
        shape = list(shape)
    return _reshape(x, shape)


def permute_dims(x: Expr, axes: Optional[List[int]] = None) -> Expr:
    """Permute the axes (None reverses them)."""
    return _permute_dims(x, axes)


def expand_dims(x: Expr, axis: Union[int, List[int]]) -> Expr:
    """Insert size-1 axes at the given positions."""
    return _expand_dims(x, axis)


def squeeze(x: Expr, axis: Union[int, List[int], None] = None) -> Expr:
    """Remove size-1 axes (all of them when axis is None)."""
    return _squeeze(x, axis)


def flatten(x: Expr) -> Expr:
    """Flatten to 1-D."""
    return _flatten(x)


def concat(tensors: Union[Expr, List[Expr]], axis: Optional[int] = 0) -> Expr:
    """Concatenate tensors along axis (a list becomes a relax.Tuple; None: flatten first)."""
    if isinstance(tensors, (list, tuple)):
        tensors = Tuple(tensors)
    return _concat(tensors, axis)


def split(x: Expr, indices_or_sections: Union[int, List[Union[int, Expr]]],
          axis: int = 0) -> Expr:
    """Split x along axis into that many equal sections, or at the given indices."""
    if isinstance(indices_or_sections, (list, tuple)):
        indices_or_sections = [prim(i) for i in indices_or_sections]
    else:
        indices_or_sections = prim(indices_or_sections)
    return _split(x, indices_or_sections, axis)


def _int_tuple(values):
    """A list of ints / exprs becomes a relax.Tuple of int64 constants / exprs."""
    if isinstance(values, (list, tuple)):
        return Tuple([prim(v) for v in values])
    return values


def strided_slice(x: Expr, axes: Expr, begin: Expr, end: Expr,
                  strides: Optional[Expr] = None, assume_inbound: bool = False) -> Expr:
    """Slice x along axes from begin to end (exclusive) with strides."""
    return _strided_slice(x, _int_tuple(axes), _int_tuple(begin), _int_tuple(end),
                          _int_tuple(strides), assume_inbound)


def take(x: Expr, indices: Expr, axis: Optional[int] = None, mode: str = "fast") -> Expr:
    """Gather x at indices along axis (None: the flattened input)."""
    return _take(x, indices, axis, mode)


def broadcast_to(x: Expr, shape: Union[Sequence[Union[int, Expr]], Expr]) -> Expr:
    """Broadcast x to shape (a list becomes a ShapeExpr)."""
    if isinstance(shape, (list, tuple)):
        shape = ShapeExpr(shape)
    return _broadcast_to(x, shape)


# ---- statistical ----------------------------------------------------------------------------

def mean(x: Expr, axis: Union[int, List[int], None] = None, keepdims: bool = False) -> Expr:
    """Mean over axis (all axes when None)."""
    return _mean(x, axis, keepdims)


def sum(x: Expr, axis: Union[int, List[int], None] = None, keepdims: bool = False) -> Expr:
    """Sum over axis (all axes when None)."""
    return _sum(x, axis, keepdims)


def max(x: Expr, axis: Union[int, List[int], None] = None, keepdims: bool = False) -> Expr:
    """Maximum over axis (all axes when None)."""
    return _max(x, axis, keepdims)


# ---- datatype / search ------------------------------------------------------------------------

def astype(x: Expr, dtype: Union[str, PrimType]) -> Expr:
    """Cast x to dtype."""
    if isinstance(dtype, PrimType):
        dtype = dtype.dtype
    return _astype(x, dtype)


def where(condition: Expr, x1: Expr, x2: Expr) -> Expr:
    """Elementwise select: x1 where condition, else x2."""
    return _where(condition, x1, x2)
