"""`dataclasses`-module helpers over FFI dataclasses (`@c_class` / `@py_class`):
`is_dataclass`, `fields`, `replace`, `asdict`, `astuple`, and named tuples whose items are
converted as a dataclass's fields would be.
"""
from __future__ import annotations

import copy
import functools
from collections import namedtuple
from typing import Any, Callable, Iterable, Tuple

from .. import core
from ..container import Array, Dict, List, Map
from .field import Field

# Looked up here, not at each call, so tests and tools can substitute them on this module
# (None while the core in use has no type converter).
TypeSchema = getattr(core, "TypeSchema", None)
_to_py_class_value = getattr(core, "_to_py_class_value", None)

__all__ = ["asdict", "astuple", "fields", "is_dataclass", "replace"]

# Values returned as they are (no recursion, no copy).
_ATOMIC_TYPES = frozenset({bool, bytes, complex, float, int, str, type(None), type(Ellipsis),
                           type(NotImplemented)})


def is_dataclass(obj: Any) -> bool:
    """Whether `obj` is a `@c_class` / `@py_class` class or an instance of one (FFI
    containers, though reflected, are not)."""
    klass = obj if isinstance(obj, type) else type(obj)
    return getattr(klass, "__ffi_is_dataclass__", False) is True


def fields(obj_or_cls: Any) -> Tuple[Field, ...]:
    """The `Field`s of an FFI dataclass (class or instance), inherited ones first.
    TypeError for anything else."""
    if not is_dataclass(obj_or_cls):
        raise TypeError("fields() argument must be a c_class or py_class type or instance, "
                        f"got {type(obj_or_cls).__name__}")
    klass = obj_or_cls if isinstance(obj_or_cls, type) else type(obj_or_cls)
    chain = []
    info = getattr(klass, "__tvm_ffi_type_info__", None)
    while info is not None:
        chain.append(info)
        info = info.parent_type_info
    return tuple(tf.dataclass_field for info in reversed(chain) for tf in (info.fields or ())
                 if tf.dataclass_field is not None)


def replace(obj: Any, /, **changes: Any) -> Any:
    """A shallow copy of `obj` with the named fields set (frozen ones too)."""
    return obj.__replace__(**changes)


def _is_instance(obj: Any) -> bool:
    return not isinstance(obj, type) and is_dataclass(obj)


def _asdict_inner(obj: Any, dict_factory: Callable[..., Any]) -> Any:
    """`obj` as plain data: dataclasses become `dict_factory` mappings, FFI sequences lists,
    FFI maps dicts (through `dict_factory`), builtin containers are rebuilt, other values
    deep-copied."""
    rec = functools.partial(_asdict_inner, dict_factory=dict_factory)
    kind = type(obj)
    if kind in _ATOMIC_TYPES:
        return obj
    if isinstance(obj, (Array, List)):
        return [rec(v) for v in obj]
    if isinstance(obj, (Map, Dict)):
        return dict_factory([(rec(k), rec(v)) for k, v in obj.items()])
    if _is_instance(obj):
        pairs = [(f.name, rec(getattr(obj, f.name))) for f in fields(obj)]
        return dict(pairs) if dict_factory is dict else dict_factory(pairs)
    if kind is list:
        return [rec(v) for v in obj]
    if kind is dict:
        return {rec(k): rec(v) for k, v in obj.items()}
    if kind is tuple:
        return tuple(rec(v) for v in obj)
    return _rebuild_builtin(obj, kind, rec)


def _astuple_inner(obj: Any, tuple_factory: Callable[..., Any]) -> Any:
    """`obj` as plain data, dataclasses becoming `tuple_factory` sequences of their field
    values; FFI sequences become lists and FFI maps dicts."""
    rec = functools.partial(_astuple_inner, tuple_factory=tuple_factory)
    kind = type(obj)
    if kind in _ATOMIC_TYPES:
        return obj
    if isinstance(obj, (Array, List)):
        return [rec(v) for v in obj]
    if isinstance(obj, (Map, Dict)):
        return {rec(k): rec(v) for k, v in obj.items()}
    if _is_instance(obj):
        return tuple_factory([rec(getattr(obj, f.name)) for f in fields(obj)])
    return _rebuild_builtin(obj, kind, rec)


def _rebuild_builtin(obj: Any, kind: type, rec: Callable[[Any], Any]) -> Any:
    """A list / tuple / dict subclass rebuilt with `rec` applied to its items (named tuples
    by position, defaultdicts keeping their factory); anything else deep-copied."""
    if issubclass(kind, tuple):
        if hasattr(obj, "_fields"):
            return kind(*[rec(v) for v in obj])
        return kind(rec(v) for v in obj)
    if issubclass(kind, dict):
        if hasattr(kind, "default_factory"):
            out = kind(obj.default_factory)
            for k, v in obj.items():
                out[rec(k)] = rec(v)
            return out
        return kind((rec(k), rec(v)) for k, v in obj.items())
    if issubclass(kind, list):
        return kind(rec(v) for v in obj)
    return copy.deepcopy(obj)


def asdict(obj: Any, *, dict_factory: Callable[..., Any] = dict) -> Any:
    """The fields of an FFI dataclass instance as a dict, recursively (see
    `dataclasses.asdict`).  TypeError unless `obj` is such an instance."""
    if not _is_instance(obj):
        raise TypeError("asdict() should be called on c_class / py_class instances")
    return _asdict_inner(obj, dict_factory)


def astuple(obj: Any, *, tuple_factory: Callable[..., Any] = tuple) -> Any:
    """The field values of an FFI dataclass instance as a tuple, recursively (see
    `dataclasses.astuple`).  TypeError unless `obj` is such an instance."""
    if not _is_instance(obj):
        raise TypeError("astuple() should be called on c_class / py_class instances")
    return _astuple_inner(obj, tuple_factory)


def _make_namedtuple(typename: str, field_specs: Tuple[Field, ...]) -> Any:
    """A named tuple class with one required item per Field (in the given order) whose
    constructor, `_make` and `_replace` convert each item by the field's type schema, as
    setting that field would.  The Fields are not modified."""
    schema_cls = TypeSchema if TypeSchema is not None else core.TypeSchema
    to_value = _to_py_class_value if _to_py_class_value is not None else core._to_py_class_value
    klass: Any = namedtuple(typename, [f.name for f in field_specs])
    names = klass._fields
    schemas = tuple(schema_cls.from_annotation(f.type) if f._ty_schema is None else f._ty_schema
                    for f in field_specs)
    klass.__annotations__ = {f.name: f.type for f in field_specs if f.type is not None}
    plain_new = klass.__new__
    plain_make = klass._make.__func__

    @functools.wraps(plain_new)
    def __new__(cls: type, /, *args: Any, **kwargs: Any) -> Any:
        values = plain_new(cls, *args, **kwargs)
        converted = []
        for name, schema, value in zip(names, schemas, values):
            try:
                converted.append(to_value(schema.convert(value)))
            except TypeError as err:
                raise TypeError(f"{typename}.{name}: {err}") from err
        return plain_new(cls, *converted)

    def _make(cls: Any, iterable: Iterable[Any]) -> Any:
        return cls(*plain_make(cls, iterable))

    klass.__new__ = staticmethod(__new__)
    klass._make = classmethod(_make)
    return klass
