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


def widen(name: str, expand: tuple) -> core.SignatureFunction:
    """The constructor global "relax.op.<name>" called positionally, with int arguments
    widened in C: parameter i with expand[i] = n > 0 turns an int v into the n-tuple
    (v, ..., v) -- TVM's `if isinstance(x, int): x = (x,) * n` without a Python call per
    argument (tether.core.SignatureFunction)."""
    params = tuple("arg%d" % i for i in range(len(expand)))
    return core.SignatureFunction(ffi(name), "relax.op." + name, params, (), expand)


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
