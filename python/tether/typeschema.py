"""TypeSchema: the description of an FFI type (``int``, ``Array[str]``, ``Optional[T]``,
a registered object type, ...) and the conversion of Python values to it.

The schema itself -- building it from JSON, a type index or a Python annotation, printing
it, writing it back to JSON -- is plain Python (it runs once per field or signature).
Checking and converting values is the C converter of ``tether.core`` (``_build_converter``),
built lazily per schema the first time a value goes through it.

tether/__init__.py installs ``TypeSchema`` into ``tether.core``, where tvm_ffi has it.
"""
from __future__ import annotations

import collections.abc
import ctypes
import dataclasses
import json
import typing
from functools import cached_property
from typing import Any, Callable, Optional

from . import core

try:
    from types import UnionType as _PipeUnion  # X | Y, Python 3.10+
except ImportError:  # pragma: no cover - Python 3.9
    _PipeUnion = None

# Type indices of the ABI (include/tether/c_api.h).
_ANY, _NONE, _INT, _BOOL, _FLOAT, _OPAQUE_PTR, _DTYPE, _DEVICE = -1, 0, 1, 2, 3, 4, 5, 6
_DLTENSOR_PTR, _RAW_STR, _BYTE_ARRAY_PTR, _RVALUE_REF, _SMALL_STR, _SMALL_BYTES = 7, 8, 9, 10, 11, 12
_OBJECT, _STR, _BYTES, _FUNCTION, _TENSOR, _ARRAY, _MAP = 64, 65, 66, 68, 70, 71, 72
_LIST, _DICT, _BIGINT = 75, 76, 78
_STATIC_OBJECT_BEGIN = 64

#: origin_type_index of Optional / Union, which stand for no single type.
_STRUCTURAL = -2
#: origin_type_index of an origin that names no known type (yet).
_UNRESOLVED = -3

# The canonical origin of each type index a schema can name directly.
_ORIGIN_INDEX = {
    "None": _NONE, "int": _INT, "bool": _BOOL, "float": _FLOAT, "str": _STR,
    "bytes": _BYTES, "Device": _DEVICE, "dtype": _DTYPE, "ctypes.c_void_p": _OPAQUE_PTR,
    "Tensor": _TENSOR, "Object": _OBJECT, "Callable": _FUNCTION, "Array": _ARRAY,
    "List": _LIST, "Map": _MAP, "Dict": _DICT, "Any": _ANY,
}
_INDEX_ORIGIN = {index: origin for origin, index in _ORIGIN_INDEX.items()}
_INDEX_ORIGIN.update({
    _DLTENSOR_PTR: "Tensor", _RAW_STR: "str", _BYTE_ARRAY_PTR: "bytes", _SMALL_STR: "str",
    _SMALL_BYTES: "bytes", _RVALUE_REF: "Object", _BIGINT: "int",
})

# Type names the C++ side writes in its JSON schemas, folded into the origins above.
_JSON_ORIGIN = {
    "Variant": "Union", "std::variant": "Union",
    "Optional": "Optional", "std::optional": "Optional",
    "Tuple": "tuple", "std::tuple": "tuple",
    "ffi.Function": "Callable", "std::function": "Callable",
    "ffi.Array": "Array", "std::vector": "Array",
    "ffi.List": "List",
    "ffi.Map": "Map", "std::map": "Map", "std::unordered_map": "Map",
    "ffi.Dict": "Dict",
    "ffi.OpaquePyObject": "Any",  # any Python value crosses as an opaque object
    "ffi.Object": "Object", "ObjectRValueRef": "Object",
    "ffi.Tensor": "Tensor", "DLTensor*": "Tensor",
    "ffi.BigInt": "int",
    "void*": "ctypes.c_void_p",
    "TVMFFIByteArray*": "bytes", "ffi.SmallBytes": "bytes", "ffi.Bytes": "bytes",
    "std::string": "str", "const char*": "str", "ffi.SmallStr": "str", "ffi.String": "str",
    "DataType": "dtype",
}
# Folds that lose a distinction (int is also a native type): the schema keeps the key.
_KEPT_KEYS = {_BIGINT: "ffi.BigInt"}


def _nonempty_str(x: object) -> bool:
    return isinstance(x, str) and bool(x)


@dataclasses.dataclass(repr=False)
class TypeSchema:
    """An FFI type: ``origin`` (``"int"``, ``"Array"``, ``"Optional"``, a type key, ...),
    positional ``args`` (element types; ``None`` only for a bare ``tuple``), and
    ``named_args``, groups of schemas by name (a Callable's ``return`` and ``params``).
    ``fallback`` is what a binding shows when the origin names no known type;
    ``type_key`` keeps the JSON key an origin was folded from when the fold loses it."""

    origin: str
    args: Optional[tuple] = None
    origin_type_index: int = dataclasses.field(default=_UNRESOLVED, repr=False)
    fallback: Optional["TypeSchema"] = None
    named_args: Optional[dict] = None
    type_key: Optional[str] = dataclasses.field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        origin = self.origin
        if not _nonempty_str(origin):
            raise ValueError("schema type must be a nonempty string")
        args = self.args
        if args is None and origin != "tuple":
            args = ()
        elif args is not None and not isinstance(args, tuple):
            args = tuple(args)
        if args is not None and not all(isinstance(a, TypeSchema) for a in args):
            raise TypeError("schema arguments must be TypeSchema instances")
        self.args = args
        self._normalize_named_args()
        if origin == "Callable":
            self._normalize_callable()
            args = self.args
        self._check_arity(origin, args)
        if self.origin_type_index == _UNRESOLVED:
            self.origin_type_index = _resolve_origin_index(origin)

    def _normalize_named_args(self) -> None:
        named = self.named_args
        if named is None:
            return
        if not isinstance(named, dict):
            raise TypeError("named_args must be a map of names to type lists")
        groups = {}
        for name, group in named.items():
            if not _nonempty_str(name):
                raise ValueError("named_args keys must be nonempty strings")
            if not isinstance(group, (list, tuple)):
                raise TypeError("named_args values must be lists of type schemas")
            if not all(isinstance(s, TypeSchema) for s in group):
                raise TypeError("named_args values must contain type schemas")
            groups[name] = tuple(group)
        self.named_args = groups

    def _normalize_callable(self) -> None:
        args, named = self.args, self.named_args
        if args and named is None:
            # The flat form: args = (return, param0, param1, ...).
            named = {"return": (args[0],)}
            if len(args) > 1:
                named["params"] = args[1:]
            self.named_args, self.args = named, ()
            args = ()
        if named is not None:
            if args or set(named) - {"return", "params"}:
                raise ValueError("Callable uses only named return and params groups")
            if len(named.get("return", ())) != 1:
                raise ValueError("Callable return group must contain exactly one type")

    def _check_arity(self, origin: str, args: Optional[tuple]) -> None:
        n = 0 if args is None else len(args)
        if origin == "Union" and n < 2:
            raise ValueError("Union must have at least two arguments")
        if origin == "Optional" and n != 1:
            raise ValueError("Optional must have exactly one argument")
        if origin in ("list", "Array", "List"):
            if n > 1:
                raise ValueError(f"{origin} must have 0 or 1 argument")
            if n == 0:
                self.args = (TypeSchema("Any"),)
        elif origin in ("dict", "Map", "Dict"):
            if n not in (0, 2):
                raise ValueError(f"{origin} must have 0 or 2 arguments")
            if n == 0:
                self.args = (TypeSchema("Any"), TypeSchema("Any"))

    # ---- relations -----------------------------------------------------------------------

    def is_subtype_of(self, target_cls: type) -> bool:
        """True if this schema's origin is the FFI object class ``target_cls`` or derives
        from it; False for non-object classes and for structural or value origins."""
        target = core._type_index_of_class(target_cls) if isinstance(target_cls, type) else None
        if target is None:
            return False
        mine = self.origin_type_index
        if mine < _STATIC_OBJECT_BEGIN:
            return False
        return mine == target or target in core._type_index_ancestors(mine)

    # ---- conversion ----------------------------------------------------------------------

    @cached_property
    def _converter(self):
        # Built on first use, once every type the schema names is registered.
        return core._build_converter(self)

    def check_value(self, value: object) -> None:
        """Raise TypeError (naming the schema and the offending element) unless ``value``
        converts to this schema."""
        self._converter.check_value(value)

    def convert(self, value: object) -> "core.CAny":
        """``value`` converted to this schema, as an owned :class:`CAny` (TypeError if it
        does not convert); ``_to_py_class_value`` gives the Python value back."""
        return self._converter.convert(value)

    # ---- construction --------------------------------------------------------------------

    @staticmethod
    def from_json_obj(obj: dict) -> "TypeSchema":
        """The schema of a parsed JSON schema ``{"type": ..., "args": [...], ...}``.
        Non-object items of ``args`` (``std::array`` lengths) are skipped."""
        if not isinstance(obj, dict) or "type" not in obj:
            raise TypeError(f"expected schema dict with 'type' key, got {type(obj).__name__}")
        key = obj["type"]
        if not isinstance(key, str):
            raise TypeError("schema type must be a string")
        origin = _JSON_ORIGIN.get(key, key)
        kept = key if key in _KEPT_KEYS.values() else None
        fallback = TypeSchema.from_json_obj(obj["fallback"]) if "fallback" in obj else None
        named = _named_args_from_json(obj["named_args"]) if "named_args" in obj else None
        if "args" not in obj:
            return TypeSchema(origin, fallback=fallback, named_args=named, type_key=kept)
        raw = obj["args"]
        if (key == "std::function" and isinstance(raw, (list, tuple)) and len(raw) == 2
                and isinstance(raw[1], (list, tuple))):
            # The older std::function form: [return, [param, ...]].
            named = {"return": (TypeSchema.from_json_obj(raw[0]),),
                     "params": tuple(TypeSchema.from_json_obj(p) for p in raw[1])}
            return TypeSchema(origin, fallback=fallback, named_args=named, type_key=kept)
        items = raw if isinstance(raw, (list, tuple)) else ()
        args = tuple(TypeSchema.from_json_obj(a) for a in items if isinstance(a, dict))
        return TypeSchema(origin, args, fallback=fallback, named_args=named, type_key=kept)

    @staticmethod
    def from_json_str(s: str) -> "TypeSchema":
        """The schema of a JSON schema text."""
        return TypeSchema.from_json_obj(json.loads(s))

    @staticmethod
    def from_type_index(type_index: int, args: tuple = ()) -> "TypeSchema":
        """The schema of a type index (a value index such as 1 for int, or a registered
        object type's), with optional type arguments."""
        origin = _INDEX_ORIGIN.get(type_index)
        if origin is None:
            origin = core._lookup_type_key(type_index)
        return TypeSchema(origin, args, origin_type_index=type_index,
                          type_key=_KEPT_KEYS.get(type_index))

    @staticmethod
    def from_annotation(annotation: object) -> "TypeSchema":
        """The schema of a Python annotation: ``int``, ``list[int]``, ``tuple[int, ...]``
        (an Array), ``Optional[str]``, ``int | str``, ``Callable[[int], str]``, a
        registered object class (bare or parameterised), String, dtype, Device, ...
        TypeError for anything else."""
        return _from_annotation(annotation)

    # ---- printing ------------------------------------------------------------------------

    def __repr__(self) -> str:
        return self.repr()

    def repr(self, ty_map: Optional[Callable[[str], str]] = None) -> str:
        """The schema in Python typing syntax (``int | None``, ``Map[str, int]``,
        ``Callable[[str], int]``); ``ty_map`` renames each origin first."""
        return self.output_repr(ty_map)

    def input_repr(self, ty_map: Optional[Callable[[str], str]] = None) -> str:
        """The annotation of what a parameter of this schema accepts: an object type with
        a ``__ffi_convert_type_schema__`` attribute shows that schema instead."""
        return _render(self, ty_map, True, frozenset())

    def output_repr(self, ty_map: Optional[Callable[[str], str]] = None) -> str:
        """The annotation of what a value of this schema is."""
        return _render(self, ty_map, False, frozenset())

    def to_json(self) -> dict:
        """The JSON object form (``from_json_obj`` reads it back; a kept ``type_key`` is
        written in place of the origin it was folded into)."""
        out: dict = {"type": self.type_key or self.origin}
        if self.args is not None and (self.args or self.origin == "tuple"):
            out["args"] = [a.to_json() for a in self.args]
        if self.named_args is not None:
            out["named_args"] = {name: [s.to_json() for s in group]
                                 for name, group in self.named_args.items()}
        if self.fallback is not None:
            out["fallback"] = self.fallback.to_json()
        return out


def _resolve_origin_index(origin: str) -> int:
    if origin in ("Optional", "Union"):
        return _STRUCTURAL
    if origin in _ORIGIN_INDEX:
        return _ORIGIN_INDEX[origin]
    index = core._object_type_key_to_index(origin)
    return _UNRESOLVED if index is None else index


def _named_args_from_json(raw: object) -> dict:
    if not isinstance(raw, dict):
        raise TypeError("named_args must be a map of names to type lists")
    groups = {}
    for name, group in raw.items():
        if not _nonempty_str(name) or not isinstance(group, list):
            raise TypeError("named_args must map names to type lists")
        if not all(isinstance(s, dict) for s in group):
            raise TypeError("named_args lists must contain type schemas")
        groups[name] = tuple(TypeSchema.from_json_obj(s) for s in group)
    return groups


def _schema_of_any_form(raw: object) -> TypeSchema:
    """A TypeSchema given as itself, as JSON text or as a parsed JSON object."""
    if isinstance(raw, TypeSchema):
        return raw
    if isinstance(raw, str):
        return TypeSchema.from_json_str(raw)
    if isinstance(raw, dict):
        return TypeSchema.from_json_obj(raw)
    raise TypeError(f"expected TypeSchema, JSON string, or JSON dict, got {type(raw).__name__}")


def _render(s: TypeSchema, ty_map, input_mode: bool, expanded: frozenset) -> str:
    if (s.fallback is not None and s.origin_type_index == _UNRESOLVED
            and s.origin not in ("tuple", "list", "dict")):
        return _render(s.fallback, ty_map, input_mode, expanded)
    index = s.origin_type_index
    if input_mode and index >= _STATIC_OBJECT_BEGIN and index not in expanded:
        accepted = core._lookup_type_attr(index, "__ffi_convert_type_schema__")
        if accepted is not None:
            return _render(_schema_of_any_form(accepted), ty_map, True, expanded | {index})
    origin = s.origin if ty_map is None else ty_map(s.origin)

    def sub(x: TypeSchema) -> str:
        return _render(x, ty_map, input_mode, expanded)

    if origin == "Callable":
        named = s.named_args
        if not named:
            return "Callable[..., Any]"
        ret = sub(named["return"][0])
        if "params" not in named:
            return f"Callable[..., {ret}]"
        return f"Callable[[{', '.join(sub(p) for p in named['params'])}], {ret}]"
    parts = [sub(a) for a in (s.args or ())]
    if origin == "Union":
        return " | ".join(parts)
    if origin == "Optional":
        return f"{parts[0]} | None"
    if origin == "tuple" and s.args == ():
        return "tuple[()]"
    return f"{origin}[{', '.join(parts)}]" if parts else origin


# ---- annotations -------------------------------------------------------------------------

_SCALARS = {bool: "bool", int: "int", float: "float", str: "str", bytes: "bytes",
            list: "List", dict: "Dict", tuple: "tuple", collections.abc.Callable: "Callable",
            ctypes.c_void_p: "ctypes.c_void_p"}


def _from_annotation(ann: object) -> TypeSchema:
    if ann is None or ann is type(None):
        return TypeSchema("None")
    if ann is typing.Any:
        return TypeSchema("Any")
    if isinstance(ann, type) and ann in _SCALARS:
        return TypeSchema(_SCALARS[ann])
    if _PipeUnion is not None and isinstance(ann, _PipeUnion):
        return _union_of(typing.get_args(ann))
    origin, targs = typing.get_origin(ann), typing.get_args(ann)
    if origin is typing.Union:
        return _union_of(targs)
    if origin is list:
        if len(targs) > 1:
            raise TypeError(f"list takes at most 1 type argument, got {len(targs)}")
        return TypeSchema("List", tuple(_from_annotation(a) for a in targs))
    if origin is dict:
        if len(targs) not in (0, 2):
            raise TypeError(f"dict requires 0 or 2 type arguments, got {len(targs)}")
        return TypeSchema("Dict", tuple(_from_annotation(a) for a in targs))
    if origin is tuple:
        if len(targs) == 2 and targs[1] is Ellipsis:
            return TypeSchema("Array", (_from_annotation(targs[0]),))
        return TypeSchema("tuple", tuple(_from_annotation(a) for a in targs))
    if origin is collections.abc.Callable:
        return _callable_of(targs)
    if isinstance(origin, type) and issubclass(origin, core.CObject):
        return _object_class_of(origin, targs)
    if isinstance(ann, type):
        return _class_of(ann)
    raise TypeError(f"Cannot convert {ann!r} to TypeSchema")


def _union_of(members: tuple) -> TypeSchema:
    rest = tuple(m for m in members if m is not type(None) and m is not None)
    schemas = tuple(_from_annotation(m) for m in rest)
    if len(rest) == len(members):
        return TypeSchema("Union", schemas)
    inner = schemas[0] if len(schemas) == 1 else TypeSchema("Union", schemas)
    return TypeSchema("Optional", (inner,))


def _callable_of(targs: tuple) -> TypeSchema:
    if len(targs) != 2:
        return TypeSchema("Callable")
    params, ret = targs
    named = {"return": (_from_annotation(ret),)}
    if isinstance(params, list):
        named["params"] = tuple(_from_annotation(p) for p in params)
    return TypeSchema("Callable", named_args=named)


def _class_of(cls: type) -> TypeSchema:
    if issubclass(cls, core.CObject):
        return _object_class_of(cls, ())
    if issubclass(cls, core.String):
        return TypeSchema("str")
    if issubclass(cls, core.Bytes):
        return TypeSchema("bytes")
    if cls is core.dtype or cls is getattr(core, "DataType", None):
        return TypeSchema("dtype")
    if cls is core.Device:
        return TypeSchema("Device")
    if hasattr(cls, "__dlpack__"):
        return TypeSchema("Tensor")
    raise TypeError(f"Cannot convert {cls!r} to TypeSchema")


def _object_class_of(cls: type, targs: tuple) -> TypeSchema:
    index = core._type_index_of_class(cls)
    if index is None:
        raise TypeError(f"CObject subclass {cls!r} is not registered as an FFI type; "
                        f"use @register_object to register it")
    origin = _INDEX_ORIGIN.get(index) or core._lookup_type_key(index)
    n = len(targs)
    if n and origin in ("Array", "List") and n != 1:
        raise TypeError(f"{origin} requires 1 type argument, got {n}")
    if n and origin in ("Map", "Dict") and n != 2:
        raise TypeError(f"{origin} requires 2 type arguments, got {n}")
    return TypeSchema(origin, tuple(_from_annotation(a) for a in targs),
                      origin_type_index=index)


__all__ = ["TypeSchema"]
