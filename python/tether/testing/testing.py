"""Python classes for the reflected types of libtether_testing, and helpers for tests.

The classes get their fields, methods and __init__ from reflection; what is declared here is
the binding (and, for a few, the dataclass options such as frozen or ordering, applied by
tether.dataclasses.c_class when that module is present).  testing.TestUnregistered* are
deliberately left unbound, to exercise the classes tether.core makes for unknown type keys.
"""
from __future__ import annotations

import sys

import pytest

from .. import core
from ..registry import get_global_func, register_object

from collections.abc import Mapping, Sequence
from typing import Any, Optional, Union

from ..core import Device, dtype

try:
    from ..dataclasses import c_class
except ImportError:  # tether.dataclasses absent: bind with register_object
    c_class = None
try:
    from ..dataclasses import IntEnum, StrEnum, entry
except ImportError:  # no FFI enums: the enum test types stay unbound
    IntEnum = None


def _bind(type_key: str, **options: Any):
    """Class decorator binding a class to `type_key`: c_class(type_key, **options) when
    tether.dataclasses exists, else register_object (which ignores the dataclass options)."""
    if c_class is not None:
        return c_class(type_key, **options)
    return register_object(type_key)


requires_py310 = pytest.mark.skipif(sys.version_info < (3, 10), reason="requires Python 3.10+")
requires_py312 = pytest.mark.skipif(sys.version_info < (3, 12), reason="requires Python 3.12+")
requires_py313 = pytest.mark.skipif(sys.version_info < (3, 13), reason="requires Python 3.13+")


@_bind("testing.TestObjectBase")
class TestObjectBase(core.Object):
    """v_i64 (writable, default 10), v_f64 (read-only, default 10.0), v_str (writable,
    default "hello"); method add_i64."""

    v_i64: int
    v_f64: float
    v_str: str

    __test__ = False  # not a pytest test class


@_bind("testing.TestIntPair")
class TestIntPair(core.Object):
    """TestIntPair(a, b): read-only int fields a, b; method sum()."""

    a: int
    b: int

    __test__ = False


@_bind("testing.TestFrozenCxx", frozen=True)
class TestFrozenCxx(core.Object):
    """value: int, tag: str -- writable in C, frozen by the binding."""

    __test__ = False


@_bind("testing.TestObjectDerived")
class TestObjectDerived(TestObjectBase):
    """TestObjectBase plus v_map (Map) and v_array (Array)."""

    v_map: Mapping[Any, Any]
    v_array: Sequence[Any]

    __test__ = False


@_bind("testing.TestObjectPtrHolder")
class TestObjectPtrHolder(core.Object):
    """value: TestObjectBase (required), optional_value: TestObjectBase or None."""

    value: TestObjectBase
    optional_value: Optional[TestObjectBase]

    __test__ = False


@_bind("testing.TestNonCopyable")
class TestNonCopyable(core.Object):
    """value: int; the type has no shallow copy."""

    value: int

    __test__ = False


@_bind("testing.SchemaAllTypes")
class _SchemaAllTypes(core.Object):
    """A field of every kind of declared type, and methods with typed signatures."""

    v_bool: bool
    v_int: int
    v_float: float
    v_device: Device
    v_dtype: dtype
    v_string: str
    v_bytes: bytes
    v_opt_int: Optional[int]
    v_opt_str: Optional[str]
    v_arr_int: Sequence[int]
    v_arr_str: Sequence[str]
    v_map_str_int: Mapping[str, int]
    v_map_str_arr_int: Mapping[str, Sequence[int]]
    v_variant: Union[str, Sequence[int], Mapping[str, int]]
    v_opt_arr_variant: Optional[Sequence[Union[int, str]]]


@_bind("testing.TestCompare")
class TestCompare(core.Object):
    """key, name, ignored_field (left out of comparisons)."""

    key: int
    name: str
    ignored_field: int

    __test__ = False


@_bind("testing.TestHash")
class TestHash(core.Object):
    """key, name, hash_ignored (left out of hashing)."""

    key: int
    name: str
    hash_ignored: int

    __test__ = False


@_bind("testing.TestCustomHash")
class TestCustomHash(core.Object):
    """key, label; its __ffi_hash__ hashes key only."""

    key: int
    label: str

    __test__ = False


@_bind("testing.TestCustomCompare")
class TestCustomCompare(core.Object):
    """key, label; its __ffi_eq__ / __ffi_compare__ / __ffi_hash__ use key only."""

    key: int
    label: str

    __test__ = False


@_bind("testing.TestEqWithoutHash")
class TestEqWithoutHash(core.Object):
    """key, label; an __ffi_eq__ without an __ffi_hash__."""

    key: int
    label: str

    __test__ = False


@_bind("testing.TestCxxClassBase")
class _TestCxxClassBase(core.Object):
    """v_i64, v_i32 (both left out of repr).  The Python constructor adds 1 and 2."""

    v_i64: int
    v_i32: int

    not_field_1 = 1
    not_field_2 = 2

    def __init__(self, v_i64: int, v_i32: int) -> None:
        index = core._type_key_to_index("testing.TestCxxClassBase")
        ffi_init = core._lookup_type_attr(index, "__ffi_init__")
        self.__init_handle_by_constructor__(ffi_init, v_i64 + 1, v_i32 + 2)


@_bind("testing.TestCxxClassDerived", eq=True, order=True, unsafe_hash=True)
class _TestCxxClassDerived(_TestCxxClassBase):
    """Adds v_f64 and v_f32 (default 8.0)."""

    v_f64: float
    v_f32: float


@_bind("testing.TestCxxClassDerivedDerived")
class _TestCxxClassDerivedDerived(_TestCxxClassDerived):
    """Adds v_str (default "default") and v_bool."""

    v_str: str
    v_bool: bool


@_bind("testing.TestCxxInitSubset")
class _TestCxxInitSubset(core.Object):
    """required_field in __init__; optional_field (-1) and note ("default") are not."""

    required_field: int
    optional_field: int
    note: str


@_bind("testing.TestCxxKwOnly")
class _TestCxxKwOnly(core.Object):
    """x, y, z, w (default 100), all keyword-only."""

    x: int
    y: int
    z: int
    w: int


@_bind("testing.TestCxxAutoInit")
class _TestCxxAutoInit(core.Object):
    """a; b not in __init__ (42); c keyword-only; d default 99."""

    a: int
    b: int
    c: int
    d: int

    __test__ = False


@_bind("testing.TestCxxAutoInitSimple")
class _TestCxxAutoInitSimple(core.Object):
    """x, y, both positional."""

    x: int
    y: int

    __test__ = False


@_bind("testing.TestCxxAutoInitAllInitOff")
class _TestCxxAutoInitAllInitOff(core.Object):
    """x (7), y (9), z: none of them in __init__."""

    x: int
    y: int
    z: int

    __test__ = False


@_bind("testing.TestCxxAutoInitKwOnlyDefaults")
class _TestCxxAutoInitKwOnlyDefaults(core.Object):
    """p_required, p_default (11), keyword-only k_required and k_default (22), hidden (33)."""

    p_required: int
    p_default: int
    k_required: int
    k_default: int
    hidden: int

    __test__ = False


@_bind("testing.TestCxxNoAutoInit", init=False)
class _TestCxxNoAutoInit(core.Object):
    """x, y; the type has no __ffi_init__."""

    x: int
    y: int

    __test__ = False


@_bind("testing.TestCxxAutoInitParent")
class _TestCxxAutoInitParent(core.Object):
    """parent_required, parent_default (5)."""

    parent_required: int
    parent_default: int

    __test__ = False


@_bind("testing.TestCxxAutoInitChild")
class _TestCxxAutoInitChild(_TestCxxAutoInitParent):
    """Adds child_required and keyword-only child_kw_only."""

    child_required: int
    child_kw_only: int

    __test__ = False


__all__ = [
    "TestCompare", "TestCustomCompare", "TestCustomHash", "TestEqWithoutHash", "TestFrozenCxx",
    "TestHash", "TestIntPair", "TestNonCopyable", "TestObjectBase", "TestObjectDerived",
    "TestObjectPtrHolder", "_SchemaAllTypes", "_TestCxxAutoInit", "_TestCxxAutoInitAllInitOff",
    "_TestCxxAutoInitChild", "_TestCxxAutoInitKwOnlyDefaults", "_TestCxxAutoInitParent",
    "_TestCxxAutoInitSimple", "_TestCxxClassBase", "_TestCxxClassDerived",
    "_TestCxxClassDerivedDerived", "_TestCxxInitSubset", "_TestCxxKwOnly",
    "_TestCxxNoAutoInit", "add_one", "create_object", "make_unregistered_object",
    "requires_py310", "requires_py312", "requires_py313",
]

if c_class is not None and IntEnum is not None:
    class _TestCxxIntEnum(IntEnum, type_key="testing.TestCxxIntEnum"):
        low = entry(value=10)
        high = entry(value=20)

    class _TestCxxStrEnum(StrEnum, type_key="testing.TestCxxStrEnum"):
        add = entry(value="+")
        mul = entry(value="*")

    @c_class("testing.TestCxxEnumHolder")
    class _TestCxxEnumHolder(core.Object):
        """One field of each payload enum type above."""

        __test__ = False
        priority: _TestCxxIntEnum
        opcode: _TestCxxStrEnum

    __all__ += ["_TestCxxIntEnum", "_TestCxxStrEnum", "_TestCxxEnumHolder"]


def create_object(type_key: str, **fields: Any) -> core.Object:
    """A new object of `type_key` with the given fields (others take their defaults)."""
    args: list = [type_key]
    for name, value in fields.items():
        args.append(name)
        args.append(value)
    return get_global_func("ffi.MakeObjectFromPackedArgs")(*args)


def make_unregistered_object() -> core.Object:
    """An object of testing.TestUnregisteredObject, a type no Python class is bound to."""
    return get_global_func("testing.make_unregistered_object")()


def add_one(x: int) -> int:
    """x + 1, computed by the C global testing.add_one."""
    return get_global_func("testing.add_one")(x)
