"""Enum singletons shared across languages: `Enum`, `IntEnum`, `StrEnum`.

A subclass given a `type_key` (``class Color(Enum, type_key="my.Color")``) becomes an FFI
type whose variants are singleton objects, each with a canonical integer index
(`_int_index`) and string index (`_str_index`).  The variants, the index -> variant table and
per-variant extensible attributes live in one `EnumState` object stored as the type
attribute `__ffi_enum__`, so C code (and other languages) find the same singletons.

Variants are declared in the class body: ``red = entry(weight=1)`` (field values),
``green = auto()``, or an annotation-only ``blue: ClassVar[Color]`` (for a type whose
variants are registered in C).  In an `IntEnum` / `StrEnum` a plain value is the variant's
payload: ``low = 10`` is the variant whose `value` (its integer index) is 10.

libtether defines the base types ffi.Enum, ffi.IntEnum, ffi.StrEnum and ffi.EnumState in C
(<tether/enum.h>); the classes here bind to them.  A subclass whose `type_key` C code
registered binds to that type (its variants may come from C); any other `type_key` is
defined here as a Python type derived from the C base.
"""
from __future__ import annotations

import typing
from typing import Any, Callable, ClassVar, Dict, Iterator, List, Optional, Tuple

from .. import core
from ..container import Dict as FFIDict
from ..container import List as FFIList
from ..core import Object
from .c_class import c_class
from .py_class import py_class

__all__ = ["ENUM_STATE_ATTR", "Enum", "EnumAttrMap", "EnumState", "IntEnum", "StrEnum", "auto",
           "entry"]

ENUM_STATE_ATTR = "__ffi_enum__"
_INT64 = (-(1 << 63), (1 << 63) - 1)


def _native(type_key: str) -> bool:
    return core._object_type_key_to_index(type_key) is not None


@c_class("ffi.EnumState")
class EnumState(Object):
    """The variants of one enum type: `entries` (in order), `indexes` (integer and
    string index -> variant) and `attrs` (attribute name -> {variant: value})."""

    entries: FFIList
    indexes: FFIDict
    attrs: FFIDict


class _EnumEntry:
    """A variant declaration of a class body: positional and keyword field values."""

    __slots__ = ("args", "kwargs")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.args = args
        self.kwargs = kwargs

    def __repr__(self) -> str:
        parts = [repr(a) for a in self.args] + [f"{k}={v!r}" for k, v in self.kwargs.items()]
        return f"entry({', '.join(parts)})"


def entry(*args: Any, **kwargs: Any) -> Any:
    """Declare a variant with the given field values."""
    return _EnumEntry(*args, **kwargs)


def auto() -> Any:
    """Declare a variant whose indices come from its position and name."""
    return _EnumEntry()


class _ClassProperty:
    """A read-only property of the class itself."""

    __slots__ = ("fget",)

    def __init__(self, fget: Callable[[type], Any]) -> None:
        self.fget = fget

    def __get__(self, instance: Any, owner: Optional[type] = None) -> Any:
        return self.fget(type(instance) if owner is None else owner)


def _normalize_index(index: Any) -> Any:
    """An int (bools are ints, int64 range) or str index; TypeError / OverflowError else."""
    if isinstance(index, bool):
        return int(index)
    if isinstance(index, int):
        if not _INT64[0] <= index <= _INT64[1]:
            raise OverflowError(f"enum integer index {index} is outside int64")
        return index
    if isinstance(index, str):
        return index
    raise TypeError(f"enum index must be int or str, got {type(index).__name__}")


def _state(cls: type, *, create: bool = False) -> Any:
    """The EnumState of an enum class (made and stored if `create`), or None."""
    info = getattr(cls, "__tvm_ffi_type_info__", None)
    if info is None:
        return None
    state = core._lookup_type_attr(info.type_index, ENUM_STATE_ATTR)
    if state is None and create:
        core._register_type_attr(info.type_index, ENUM_STATE_ATTR, EnumState())
        state = core._lookup_type_attr(info.type_index, ENUM_STATE_ATTR)
    return state


def _entries(cls: type) -> List[Any]:
    state = _state(cls)
    return [] if state is None else list(state.entries)


class _EnumMeta(type(Object)):  # type: ignore[misc]
    """Iteration and length over the variants; ``Color(0)`` / ``Color("red")`` look a
    variant up by index (ValueError if there is none)."""

    def __iter__(cls) -> Iterator[Any]:
        return iter(_entries(cls))

    def __len__(cls) -> int:
        return len(_entries(cls))

    def __init__(cls, name: str, bases: Any, ns: Any, **kwargs: Any) -> None:
        super().__init__(name, bases, ns)
        # The variants are made here, once the class object is complete: tether.core's
        # metaclass settles how instances are allocated only after __init_subclass__ ran.
        pending = cls.__dict__.get("_ffi_enum_pending")
        if pending is not None:
            delattr(cls, "_ffi_enum_pending")
            _resolve(cls, *pending)

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        if len(args) == 1 and not kwargs:
            value = args[0]
            if isinstance(value, cls):
                return value
            if isinstance(value, (int, str)):
                try:
                    return cls.get(value)
                except KeyError:
                    raise ValueError(f"{value!r} is not a valid {cls.__name__}") from None
        return super().__call__(*args, **kwargs)


@c_class("ffi.Enum", init=False)
class Enum(Object, metaclass=_EnumMeta):
    """Base of enum types (see the module docstring).  ``Color.get(index)``, iteration,
    ``len(Color)``, ``Color.def_attr(name)`` for per-variant attributes."""

    __slots__ = ()
    _int_index: int
    _str_index: str

    def __init_subclass__(cls, *, type_key: Optional[str] = None, frozen: bool = True,
                          init: bool = True, repr: bool = True, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if type_key is None:
            return
        payload = int if issubclass(cls, IntEnum) else str if issubclass(cls, StrEnum) else None
        user_repr = "__repr__" in cls.__dict__
        binders, declared = _collect_declarations(cls, payload)
        native = _native(type_key)
        if native:
            c_class(type_key, init=init, repr=repr)(cls)
        else:
            py_class(type_key, frozen=frozen, structural_eq="singleton")(cls)
        if payload is not None:
            _install_payload_behavior(cls, payload, user_repr)
        cls._ffi_enum_pending = (binders, declared, type_key, native, payload)

    @classmethod
    def get(cls, index: Any) -> Any:
        """The variant at an integer or string index; KeyError if there is none."""
        index = _normalize_index(index)
        state = _state(cls)
        if state is not None and index in state.indexes:
            return state.indexes[index]
        raise KeyError(index)

    @classmethod
    def all_entries(cls) -> Iterator[Any]:
        """The variants in registration order."""
        return iter(_entries(cls))

    @_ClassProperty
    def attr_dict(cls: type) -> Any:
        """The live {attribute name: {variant: value}} map."""
        state = _state(cls)
        return FFIDict({}) if state is None else state.attrs

    @classmethod
    def def_attr(cls, name: str, *, default: Any = core.MISSING) -> "EnumAttrMap":
        """A per-variant attribute `name` (a mapping keyed by variant)."""
        return EnumAttrMap(cls, name, default=default)


class EnumAttrMap:
    """One per-variant attribute of an enum class: ``m[variant] = value``, ``m[variant]``
    (the default, or KeyError, when unset), ``variant in m``, ``m.get(variant)``."""

    __slots__ = ("_default", "_enum_cls", "_name")

    def __init__(self, enum_cls: type, name: str, *, default: Any = core.MISSING) -> None:
        self._enum_cls = enum_cls
        self._name = name
        self._default = default

    def _check(self, variant: Any) -> None:
        if not isinstance(variant, self._enum_cls):
            raise TypeError(f"expected {self._enum_cls.__name__}, got {type(variant).__name__}")

    def _column(self, create: bool) -> Any:
        state = _state(self._enum_cls, create=create)
        if state is None:
            return None
        column = state.attrs.get(self._name)
        if column is None and create:
            column = FFIDict({})
            state.attrs[self._name] = column
        return column

    def __setitem__(self, variant: Any, value: Any) -> None:
        self._check(variant)
        self._column(True)[variant] = value

    def __getitem__(self, variant: Any) -> Any:
        self._check(variant)
        column = self._column(False)
        if column is not None and variant in column:
            return column[variant]
        if self._default is not core.MISSING:
            return self._default
        raise KeyError(f"{variant!r} has no extensible attribute {self._name!r}")

    def __contains__(self, variant: Any) -> bool:
        if not isinstance(variant, self._enum_cls):
            return False
        column = self._column(False)
        return column is not None and variant in column

    def get(self, variant: Any, default: Any = None) -> Any:
        return self[variant] if variant in self else default

    @property
    def name(self) -> str:
        return self._name


def _install_payload_behavior(cls: type, payload: type, user_repr: bool) -> None:
    """IntEnum / StrEnum variants compare and hash as their payload, print as it (str),
    and repr as ``Class.name`` (unless the body defines these)."""

    def __eq__(self: Any, other: Any) -> Any:
        if isinstance(other, type(self)):
            return self.value == other.value
        if isinstance(other, payload):
            return self.value == other
        return NotImplemented

    def __ne__(self: Any, other: Any) -> Any:
        same = __eq__(self, other)
        return same if same is NotImplemented else not same

    methods = {"__eq__": __eq__, "__ne__": __ne__, "__str__": lambda self: str(self.value),
               "__hash__": lambda self: hash(self.value)}
    for name, method in methods.items():
        if name not in cls.__dict__:
            setattr(cls, name, method)
    if "name" not in cls.__dict__:
        cls.name = property(lambda self: str(self._str_index))
    if not user_repr:
        cls.__repr__ = lambda self: f"{type(self).__name__}.{self.name}"


def _reject_value_field(cls: type, base: str) -> None:
    if "value" in cls.__dict__ or "value" in _own_annotations(cls):
        raise TypeError(f"{base} reserves `value` as its canonical index alias")


@c_class("ffi.IntEnum", init=False)
class IntEnum(Enum):
    """Enum whose `value` is its (int64) integer index (a reflected field aliasing it)."""

    __slots__ = ()
    value: int

    def __init_subclass__(cls, **kwargs: Any) -> None:
        _reject_value_field(cls, "IntEnum")
        super().__init_subclass__(**kwargs)


@c_class("ffi.StrEnum", init=False)
class StrEnum(Enum):
    """Enum whose `name` and `value` are its string index (a reflected field aliasing it)."""

    __slots__ = ()
    value: str

    def __init_subclass__(cls, **kwargs: Any) -> None:
        _reject_value_field(cls, "StrEnum")
        super().__init_subclass__(**kwargs)



def _own_annotations(cls: type) -> Dict[str, Any]:
    anns = cls.__dict__.get("__annotations__", None)
    return dict(anns) if isinstance(anns, dict) else {}


def _is_class_var(annotation: Any) -> bool:
    if annotation is ClassVar or typing.get_origin(annotation) is ClassVar:
        return True
    return isinstance(annotation, str) and annotation.replace(" ", "").startswith(
        ("ClassVar", "typing.ClassVar"))


def _collect_declarations(cls: type, payload: Optional[type]) -> Tuple[List[str], Dict[str, Any]]:
    """(names annotated ClassVar without a value: variants to bind by string index,
    {name: _EnumEntry} of the body's declarations, removed from the class)."""
    anns = _own_annotations(cls)
    binders = [n for n, a in anns.items()
               if not n.startswith("_") and _is_class_var(a) and n not in cls.__dict__]
    fields = {n for n, a in anns.items() if not _is_class_var(a)}
    declared: Dict[str, _EnumEntry] = {}
    for name, value in list(cls.__dict__.items()):
        if name.startswith("_") or name in fields:
            continue
        if isinstance(value, _EnumEntry):
            declared[name] = value
        elif payload is not None and not (
                isinstance(value, (staticmethod, classmethod, property)) or callable(value)):
            declared[name] = _EnumEntry(value=value)
        else:
            continue
        delattr(cls, name)
    return binders, declared


def _indices(cls: type, alias: str, ordinal: int, decl: _EnumEntry,
             payload: Optional[type]) -> Tuple[int, str, _EnumEntry]:
    """(integer index, string index, the declaration's remaining field values)."""
    kwargs = dict(decl.kwargs)
    if "_int_index" in kwargs or "_str_index" in kwargs:
        raise TypeError(f"{cls.__name__}.{alias}: enum indices are inferred")
    if payload is None:
        return ordinal, alias, decl
    if "value" not in kwargs:
        raise TypeError(f"{cls.__name__}.{alias} requires a {payload.__name__} value")
    value = kwargs.pop("value")
    if type(value) is not payload:
        raise TypeError(f"{cls.__name__}.{alias} value must be {payload.__name__}")
    rest = _EnumEntry(*decl.args, **kwargs)
    if payload is int:
        _normalize_index(value)
        return value, alias, rest
    return ordinal, value, rest


def _create(cls: type, int_index: int, str_index: str, decl: _EnumEntry, native: bool) -> Any:
    """A new variant object; TypeError naming the variant if its fields are rejected."""
    try:
        if not native:
            return cls(*decl.args, _int_index=int_index, _str_index=str_index, **decl.kwargs)
        if decl.args:
            raise TypeError("C++-backed enum entries require keyword fields")
        ffi_new = core._lookup_type_attr(cls.__tvm_ffi_type_info__.type_index, "__ffi_new__")
        if ffi_new is None:
            raise TypeError("enum type has no allocator")
        obj = ffi_new()
        values = {"_int_index": int_index, "_str_index": str_index, **decl.kwargs}
        for name, value in values.items():
            prop = getattr(cls, name, None)
            if prop is None or not hasattr(prop, "set"):
                raise TypeError(f"field {name!r} has no reflected setter")
            prop.set(obj, value)
        return obj
    except Exception as err:  # noqa: BLE001 - reported with the variant's name
        raise TypeError(f"{cls.__name__}.{str_index}: invalid enum entry: {err}") from None


def _add(state: Any, variant: Any) -> None:
    state.entries.append(variant)
    state.indexes[variant._int_index] = variant
    state.indexes[variant._str_index] = variant


def _resolve(cls: type, binders: List[str], declared: Dict[str, _EnumEntry], type_key: str,
             native: bool, payload: Optional[type]) -> None:
    """Create (or find, for aliases and C-registered variants) every variant and bind it
    as a class attribute."""
    state = _state(cls, create=True)
    for alias in binders:
        variant = state.indexes.get(alias)
        if variant is None:
            if native:
                raise RuntimeError(f"{type_key!r} has no enum at string index {alias!r}")
            if payload is int:
                raise TypeError(f"{cls.__name__}.{alias} requires an integer value")
            variant = _create(cls, len(state.entries), alias, _EnumEntry(), native)
            _add(state, variant)
        setattr(cls, alias, variant)
    for alias, decl in declared.items():
        int_index, str_index, rest = _indices(cls, alias, len(state.entries), decl, payload)
        variant = state.indexes.get(int_index if payload is int else str_index)
        if variant is None:
            if int_index in state.indexes or str_index in state.indexes:
                raise ValueError(f"duplicate enum index in {cls.__name__}.{alias}")
            variant = _create(cls, int_index, str_index, rest, native)
            _add(state, variant)
        setattr(cls, alias, variant)
