"""Relax expressions: the node classes bound to libtether_ir's expression types, and const().

Var, Call, Tuple, TupleGetItem, GlobalVar and the constants are shared with tether.ir (as
tvm.relax.Var is tvm.ir.Var); the Relax-only nodes are defined here.  Every constructor
forwards to its C constructor global; fields are read through reflection.
"""
from __future__ import annotations

from .. import core
from ..ir import (BaseFunc, Call, Constant, DataTypeImm, Expr, FloatImm, GenericConst,
                  GlobalVar, IntImm, Node, StringImm, Tuple, TupleGetItem, Type, Var)
from ..registry import register_object

# Typing names for annotations only.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Optional, Sequence, Union

__all__ = [
    "Expr", "Var", "DataflowVar", "Call", "Tuple", "TupleGetItem", "GlobalVar", "Constant",
    "IntImm", "FloatImm", "StringImm", "DataTypeImm", "GenericConst", "ShapeExpr", "Function",
    "ExternFunc", "SeqExpr", "If", "Binding", "VarBinding", "MatchCast", "BindingBlock",
    "DataflowBlock", "const", "prim_value", "BaseFunc",
]

_g = core.get_global_func
_dataflow_var = _g("relax.DataflowVar")
_shape_expr = _g("relax.ShapeExpr")
_function = _g("relax.Function")
_extern_func = _g("relax.ExternFunc")
_seq_expr = _g("relax.SeqExpr")
_if = _g("relax.If")
_var_binding = _g("relax.VarBinding")
_match_cast = _g("relax.MatchCast")
_binding_block = _g("relax.BindingBlock")
_dataflow_block = _g("relax.DataflowBlock")
_generic_const = _g("ir.GenericConst")


@register_object("relax.expr.DataflowVar")
class DataflowVar(Var):
    """DataflowVar(name, ty=None): a variable visible only inside its dataflow block."""

    __slots__ = ()

    def __init__(self, name: Optional[str] = None, ty: Optional[Type] = None, span: Any = None,
                 *, name_hint: Optional[str] = None) -> None:
        if name is None:
            name = name_hint if name_hint is not None else ""
        self.__init_handle_by_constructor__(_dataflow_var, name, ty)


@register_object("relax.expr.ShapeExpr")
class ShapeExpr(Expr):
    """ShapeExpr(values): a shape value (ints become int64 IntImm); ty = ShapeType(values).
    Prints R.shape([1, 2, 3])."""

    __slots__ = ()

    def __init__(self, values: Sequence[Union[int, Expr]], span: Any = None) -> None:
        self.__init_handle_by_constructor__(_shape_expr, list(values))

    def __getitem__(self, index: int) -> Expr:
        return self.values[index]

    def __len__(self) -> int:
        return len(self.values)


@register_object("relax.expr.Function")
class Function(BaseFunc):
    """Function(params, body, ret_ty=None, is_pure=True, attrs=None): a Relax function.  Every
    param must be typed; ret_ty defaults to the body's type; ty = FuncType(params, ret)."""

    __slots__ = ()

    def __init__(self, params: Sequence[Var], body: Expr, ret_ty: Optional[Type] = None,
                 is_pure: Optional[bool] = True, attrs: Any = None, span: Any = None) -> None:
        self.__init_handle_by_constructor__(_function, list(params), body, ret_ty, is_pure, attrs)


@register_object("relax.expr.ExternFunc")
class ExternFunc(BaseFunc):
    """ExternFunc(global_symbol, ty=None): a function implemented outside the IR."""

    __slots__ = ()

    def __init__(self, global_symbol: str, ty: Optional[Type] = None, span: Any = None) -> None:
        self.__init_handle_by_constructor__(_extern_func, global_symbol, ty)


@register_object("relax.expr.SeqExpr")
class SeqExpr(Expr):
    """SeqExpr(blocks, body): binding blocks evaluated in order, then body."""

    __slots__ = ()

    def __init__(self, blocks: Sequence["BindingBlock"], body: Expr, span: Any = None) -> None:
        self.__init_handle_by_constructor__(_seq_expr, list(blocks), body)


@register_object("relax.expr.If")
class If(Expr):
    """If(cond, true_branch, false_branch)."""

    __slots__ = ()

    def __init__(self, cond: Expr, true_branch: Expr, false_branch: Expr, span: Any = None) -> None:
        self.__init_handle_by_constructor__(_if, cond, true_branch, false_branch)


@register_object("relax.expr.Binding")
class Binding(Node):
    """Base of bindings (VarBinding, MatchCast); field var."""

    __slots__ = ()


@register_object("relax.expr.VarBinding")
class VarBinding(Binding):
    """VarBinding(var, value): var = value."""

    __slots__ = ()

    def __init__(self, var: Var, value: Expr, span: Any = None) -> None:
        self.__init_handle_by_constructor__(_var_binding, var, value)


@register_object("relax.expr.MatchCast")
class MatchCast(Binding):
    """MatchCast(var, value, ty): var = value, checked against ty (defines ty's shape vars)."""

    __slots__ = ()

    def __init__(self, var: Var, value: Expr, ty: Type, span: Any = None) -> None:
        self.__init_handle_by_constructor__(_match_cast, var, value, ty)


@register_object("relax.expr.BindingBlock")
class BindingBlock(Node):
    """BindingBlock(bindings): a block of bindings."""

    __slots__ = ()

    def __init__(self, bindings: Sequence[Binding], span: Any = None) -> None:
        self.__init_handle_by_constructor__(_binding_block, list(bindings))


@register_object("relax.expr.DataflowBlock")
class DataflowBlock(BindingBlock):
    """DataflowBlock(bindings): a side-effect-free block (prints `with R.dataflow():`)."""

    __slots__ = ()

    def __init__(self, bindings: Sequence[Binding], span: Any = None) -> None:
        self.__init_handle_by_constructor__(_dataflow_block, list(bindings))


# Python scalars given a dtype name, converted so far: (type, value, dtype) -> 0-d array, copied
# into each constant (callers such as the ONNX converters make the same few -- 0, 1, an axis --
# over and over).
_SCALARS: dict = {}
_SCALAR_TYPES = (int, float, bool)


def const(value: Any, dtype: Optional[str] = None) -> GenericConst:
    """A tensor constant from a Python scalar, a (nested) list, a numpy array or a Tensor.

    Without dtype, int64 and float64 values (Python scalars and lists, and numpy values too)
    become int32 and float32, bool stays bool, other numpy dtypes are kept (as TVM does).  The
    data lives on the CPU: a copy of the given values (later changes to a numpy array do not
    reach the constant, as in TVM), or the given Tensor itself."""
    if type(dtype) is str and type(value) in _SCALAR_TYPES:
        key = (type(value), value, dtype)
        arr = _SCALARS.get(key)
        if arr is None:
            import numpy as np

            arr = np.array(value, dtype=dtype)
            if len(_SCALARS) >= 4096:
                _SCALARS.clear()
            _SCALARS[key] = arr
        return _generic_const(core._constant_tensor(arr.copy()), None)
    import numpy as np

    if isinstance(value, core.Tensor):
        if dtype is not None and str(value.dtype) != str(dtype):
            raise ValueError(f"const: the Tensor has dtype {value.dtype}, but dtype={dtype} was given")
        return GenericConst(value)
    if isinstance(value, (np.ndarray, np.generic)):
        if dtype is None:
            dtype = value.dtype
            dtype = (_NARROWED or _narrowed()).get(dtype, dtype)
        else:
            dtype = str(dtype)
        # np.array copies (the constant never shares the caller's array) into C order.
        arr = np.array(value, dtype=dtype, order="C")
    elif dtype is not None:
        arr = np.array(value, dtype=str(dtype))
    else:
        arr = np.array(value)
        if isinstance(value, bool) or arr.dtype == np.bool_:
            arr = arr.astype("bool")
        elif arr.dtype == np.int64:
            arr = arr.astype("int32")
        elif arr.dtype == np.float64:
            arr = arr.astype("float32")
    if not arr.flags.c_contiguous:
        arr = arr.copy(order="C")  # (np.ascontiguousarray would make a 0-d array 1-d)
    return _generic_const(core.from_dlpack(arr), None)


def _narrowed() -> dict:
    """numpy dtype -> the dtype const() gives a numpy value of that dtype when no dtype is
    given (made on first use: numpy is imported only when needed)."""
    import numpy as np

    global _NARROWED
    _NARROWED = {np.dtype("int64"): np.dtype("int32"), np.dtype("float64"): np.dtype("float32")}
    return _NARROWED


_NARROWED: Optional[dict] = None


def prim_value(value: Union[int, float, Expr]) -> Expr:
    """A primitive scalar expression: an int becomes IntImm int64, a float FloatImm float64;
    an Expr is returned unchanged."""
    if isinstance(value, Expr):
        return value
    if isinstance(value, bool):
        return IntImm("bool", int(value))
    if isinstance(value, int):
        return IntImm("int64", value)
    if isinstance(value, float):
        return FloatImm("float64", value)
    raise TypeError(f"prim_value expects an int, float or Expr, but got {type(value).__name__}")
