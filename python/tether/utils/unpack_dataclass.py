"""unpack_dataclass_to_tuple: turn (nested) dataclass instances into plain tuples of their
field values, recursing into lists, tuples, named tuples and dict values, so that a value
can cross the FFI as an Array.  Leaves are passed through as they are (never copied).

Per dataclass type a schema is derived once from its annotations (the `_extract_...`
function below): for each field, None when the annotation says the value is a leaf (int,
float, bool, str, bytes, None, unions and dicts of those), a nested schema when it names a
dataclass, and "unpack" when the value must be inspected at run time (Any, lists, unknown or
unresolvable types, self-references).  From the schema a small function is generated and
cached, so unpacking one instance is a single call with one attribute load per field.
"""
from __future__ import annotations

import dataclasses
import keyword
import typing
from typing import Any, Callable, Dict, Optional, Union

__all__ = ["unpack_dataclass_to_tuple"]

UNPACK = "unpack"
_LEAF_TYPES = (int, float, bool, str, bytes, complex, type(None))

# dataclass type -> generated unpacker
_UNPACKERS: Dict[type, Callable[[Any], tuple]] = {}


def _validate_dataclass_to_tuple_schema(schema: Any, where: str = "schema") -> None:
    """Check a schema: a dict from field names (identifiers that are not keywords) to None,
    "unpack" or a nested schema."""
    if not isinstance(schema, dict):
        raise TypeError(f"{where} must be a dict, got {type(schema).__name__}")
    for key, sub in schema.items():
        if not isinstance(key, str):
            raise TypeError(f"{where}: field name {key!r} must be a string")
        if not key.isidentifier():
            raise ValueError(f"{where}: field name {key!r} is not a valid Python identifier")
        if keyword.iskeyword(key):
            raise ValueError(f"{where}: field name {key!r} is a Python keyword")
        if isinstance(sub, dict):
            _validate_dataclass_to_tuple_schema(sub, f"{where}[{key!r}]")
        elif sub is not None and sub != UNPACK:
            raise ValueError(f"{where}[{key!r}]: expected None, {UNPACK!r} or a nested "
                             f"schema, got {sub!r}")


def _is_leaf_annotation(tp: Any) -> bool:
    """Whether every value an annotation admits is a leaf (needs no unpacking)."""
    if tp is None or tp in _LEAF_TYPES:
        return True
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is Union or (origin is not None and type(tp).__name__ == "UnionType"):
        return all(_is_leaf_annotation(a) for a in args)
    if origin is typing.Literal:
        return True
    if origin is dict:  # values are unpacked in place: a dict of leaves stays as it is
        return len(args) == 2 and _is_leaf_annotation(args[1])
    return False


def _field_schema(tp: Any, memo: Dict[type, Any]) -> Any:
    if _is_leaf_annotation(tp):
        return None
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if tp in memo:  # a type that contains itself: decided at run time
            return UNPACK
        return _schema_of(tp, memo)
    return UNPACK


def _schema_of(cls: type, memo: Dict[type, Any]) -> Dict[str, Any]:
    memo[cls] = True
    fields = [f.name for f in dataclasses.fields(cls)]
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # names the annotations use are not resolvable from the class
        hints = None
    if hints is None:
        schema = {name: UNPACK for name in fields}
    else:
        schema = {name: _field_schema(hints.get(name, Any), memo) for name in fields}
    del memo[cls]
    return schema


def _extract_dataclass_to_tuple_schema(cls: type) -> Dict[str, Any]:
    """The unpacking schema of a dataclass type (see the module docstring)."""
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
        raise TypeError(f"Expected a dataclass class, got {cls!r}")
    return _schema_of(cls, {})


def _emit(schema: Dict[str, Any], expr: str) -> str:
    """Source of a tuple expression unpacking `expr` (an instance) by `schema`."""
    items = []
    for name, sub in schema.items():
        value = f"{expr}.{name}"
        items.append(value if sub is None else f"_dispatch({value})")
    return "(" + "".join(f"{item}, " for item in items) + ")"


def _unpacker_for(cls: type) -> Callable[[Any], tuple]:
    fn = _UNPACKERS.get(cls)
    if fn is None:
        schema = _extract_dataclass_to_tuple_schema(cls)
        _validate_dataclass_to_tuple_schema(schema)
        namespace: Dict[str, Any] = {"_dispatch": unpack_dataclass_to_tuple}
        exec(f"def _unpack(v):\n    return {_emit(schema, 'v')}\n", namespace)
        fn = _UNPACKERS[cls] = namespace["_unpack"]
    return fn


def unpack_dataclass_to_tuple(value: Any) -> Any:
    """`value` with every dataclass instance in it replaced by the tuple of its (unpacked)
    fields; lists stay lists, tuples and named tuples keep their type, dicts keep their keys."""
    cls = type(value)
    fn = _UNPACKERS.get(cls)
    if fn is not None:
        return fn(value)
    if cls in _LEAF_TYPES:
        return value
    if dataclasses.is_dataclass(cls):
        return _unpacker_for(cls)(value)
    if isinstance(value, list):
        return [unpack_dataclass_to_tuple(v) for v in value]
    if isinstance(value, tuple):
        items = [unpack_dataclass_to_tuple(v) for v in value]
        return cls(*items) if hasattr(cls, "_fields") else tuple(items)
    if isinstance(value, dict):
        return {k: unpack_dataclass_to_tuple(v) for k, v in value.items()}
    return value


