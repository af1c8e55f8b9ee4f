"""Relax types: TensorType, ShapeType, AnyType, FuncType, PackedFuncType (TupleType and
PrimType are shared with tether.ir).  Constructors forward to libtether_ir's globals."""
from __future__ import annotations

from .. import core
from ..ir import PrimType, TupleType, Type, Expr
from ..registry import register_object

# Typing names for annotations only.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Optional, Sequence, Union

__all__ = ["Type", "TensorType", "ShapeType", "TupleType", "AnyType", "ObjectType", "PrimType",
           "FuncType", "PackedFuncType"]

_g = core.get_global_func
_tensor_type = _g("relax.TensorType")
_shape_type = _g("relax.ShapeType")
_any_type = _g("relax.AnyType")
_func_type = _g("relax.FuncType")
_packed_func_type = _g("relax.PackedFuncType")


@register_object("relax.TensorType")
class TensorType(Type):
    """TensorType(shape=None, dtype="float32", vdevice=None, ndim=-1): the type of a tensor.

    shape: a list/tuple of ints or int64 exprs (wrapped into a ShapeExpr), a ShapeExpr, or a
    Var of ShapeType; dtype None or "" means unknown; ndim is derived from the shape (giving
    both raises ValueError).  Prints R.Tensor((1, 3), dtype="float32")."""

    __slots__ = ()

    def __init__(self, shape: Union[Expr, Sequence[Any], None] = None,
                 dtype: Union[str, PrimType, None] = "float32", vdevice: Any = None,
                 ndim: int = -1, span: Any = None) -> None:
        if isinstance(dtype, PrimType):
            dtype = dtype.dtype
        if dtype is None:
            dtype = ""
        if isinstance(shape, tuple):
            shape = list(shape)
        self.__init_handle_by_constructor__(_tensor_type, shape, dtype, vdevice, ndim)


@register_object("relax.ShapeType")
class ShapeType(Type):
    """ShapeType(values=None, ndim=-1): the type of a shape value (prints R.Shape([1, 2]))."""

    __slots__ = ()

    def __init__(self, values: Optional[Sequence[Any]] = None, ndim: int = -1,
                 span: Any = None) -> None:
        self.__init_handle_by_constructor__(_shape_type,
                                            list(values) if values is not None else None, ndim)


@register_object("relax.AnyType")
class AnyType(Type):
    """AnyType(): any value (prints R.Any)."""

    __slots__ = ()

    def __init__(self, span: Any = None) -> None:
        self.__init_handle_by_constructor__(_any_type)


ObjectType = AnyType


@register_object("relax.FuncType")
class FuncType(Type):
    """FuncType(params, ret, purity=True): the type of a function (R.Callable(...)).
    FuncType.opaque_func(ret=...) is a function type whose parameters are unknown."""

    __slots__ = ()

    def __init__(self, params: Optional[Sequence[Type]], ret: Type, purity: bool = True,
                 span: Any = None) -> None:
        self.__init_handle_by_constructor__(_func_type,
                                            list(params) if params is not None else None,
                                            ret, purity)

    @staticmethod
    def opaque_func(*, ret: Optional[Type] = None, derive_func: Any = None,
                    purity: bool = False, span: Any = None) -> "FuncType":
        """A FuncType with unknown parameters returning ret (default AnyType)."""
        if derive_func is not None:
            raise NotImplementedError("FuncType.opaque_func: derive_func is not supported")
        return FuncType(None, ret if ret is not None else AnyType(), purity)


@register_object("relax.PackedFuncType")
class PackedFuncType(Type):
    """PackedFuncType(): the type of a packed function (prints R.PackedFunc)."""

    __slots__ = ()

    def __init__(self, span: Any = None) -> None:
        self.__init_handle_by_constructor__(_packed_func_type)
