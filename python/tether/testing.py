"""Python classes for the reflected types of libtether_testing (always loaded with
tether.core), and small helpers for tests.

The classes get their fields, methods and __init__ from reflection; what is declared here is
only the binding.  testing.TestUnregistered* are deliberately left unbound, to exercise the
classes tether.core makes on its own for unknown type keys.
"""
from __future__ import annotations


from . import core
from .registry import register_object

# Typing names for annotations only (not imported at run time: `import tether` stays fast).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["TestIntPair", "TestObjectBase", "TestObjectDerived", "create_object",
           "object_use_count", "add_one", "echo", "nop", "apply"]


@register_object("testing.TestIntPair")
class TestIntPair(core.Object):
    """testing.TestIntPair(a, b): read-only int fields a, b; method sum()."""

    __slots__ = ()
    __test__ = False  # not a pytest test class


@register_object("testing.TestObjectBase")
class TestObjectBase(core.Object):
    """testing.TestObjectBase: v_i64 (writable, default 10), v_f64 (read-only, default 10.0),
    v_str (writable, default "hello"); method add_i64."""

    __slots__ = ()
    __test__ = False


@register_object("testing.TestObjectDerived")
class TestObjectDerived(TestObjectBase):
    """testing.TestObjectDerived: TestObjectBase plus v_map and v_array."""

    __slots__ = ()
    __test__ = False


_make_object = core.get_global_func("ffi.MakeObjectFromPackedArgs")
_use_count = core.get_global_func("testing.object_use_count")
add_one = core.get_global_func("testing.add_one")
echo = core.get_global_func("testing.echo")
nop = core.get_global_func("testing.nop")
apply = core.get_global_func("testing.apply")


def create_object(type_key: str, **fields: Any) -> core.Object:
    """A new object of `type_key` with the given fields (others take their defaults)."""
    args = []
    for name, value in fields.items():
        args.append(name)
        args.append(value)
    return _make_object(type_key, *args)


def object_use_count(obj: core.Object) -> int:
    """The strong reference count of `obj`'s FFI object (arguments are passed as borrowed
    views, so the call itself adds nothing: a fresh object held only by `obj` reports 1)."""
    return int(_use_count(obj))
