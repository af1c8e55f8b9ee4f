"""Helpers shared by the op wrappers: the C constructor globals and argument shaping."""
from __future__ import annotations

from ... import core
from ...ir import Expr, FloatImm, IntImm

# Typing names for annotations only.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def ffi(name: str) -> core.Function:
    """The constructor global "relax.op.<name>"."""
    return core.get_global_func("relax.op." + name)


def repeat(value: Any, n: int) -> Any:
    """An int becomes an n-tuple of it; anything else is passed through."""
    if isinstance(value, int) and not isinstance(value, bool):
        return (value,) * n
    return value


def int_list(value: Any) -> Any:
    """An int axis becomes [axis]; None and sequences are passed through."""
    if isinstance(value, int) and not isinstance(value, bool):
        return [value]
    return value


def prim(value: Any) -> Any:
    """A Python number becomes an IntImm int64 / FloatImm float64 (as TVM's wrappers do)."""
    if isinstance(value, Expr):
        return value
    if isinstance(value, bool):
        return IntImm("bool", int(value))
    if isinstance(value, int):
        return IntImm("int64", value)
    if isinstance(value, float):
        return FloatImm("float64", value)
    return value
