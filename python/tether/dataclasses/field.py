"""Field specifiers of FFI dataclasses: `field()`, the `Field` record it returns,
`KW_ONLY`, and `init_property` (a field computed from the object right after construction).

A `Field` made by `field()` has no name and no type yet; `@py_class` fills both from the
class annotations.  `@c_class` builds one per reflected C field so that
`tether.dataclasses.fields()` answers the same way for both kinds of class.
"""
from __future__ import annotations

import sys
from typing import Any, Callable, Dict, Generic, Mapping, Optional, TypeVar

from ..core import MISSING

if sys.version_info >= (3, 10):
    from dataclasses import KW_ONLY
else:  # pragma: no cover - 3.9 has no dataclasses.KW_ONLY
    class KW_ONLY:
        """Annotation marker: the fields annotated after `_: KW_ONLY` are keyword-only."""

_T = TypeVar("_T")

# Accepted values of `field(structural_eq=...)`.
_FIELD_STRUCTURAL_EQ = (None, "ignore", "def", "def-pattern", "def-simple")


def _field_converter(value: Any) -> Any:
    """Marker for type checkers: the FFI converts field values; at run time, identity."""
    return value


def _annotations_of(obj: Any) -> Dict[str, Any]:
    """`obj`'s own annotations, unresolved names kept as forward references (3.14+)."""
    import annotationlib  # type: ignore[import-not-found]

    return annotationlib.get_annotations(obj, format=annotationlib.Format.FORWARDREF)


class init_property(Generic[_T]):
    """Decorator turning a method into a stored field that is computed once, at construction.

    The class gets a field of the method's return annotation (`Any` if none) that takes no
    constructor argument and is left out of repr, comparison, hashing and structural
    equality; `__init__` stores `func(self)` in it once the object exists.
    """

    def __init__(self, func: Callable[[Any], _T]) -> None:
        self.func = func
        self.name: Optional[str] = None
        if sys.version_info >= (3, 14):
            self._return_annotation: Any = _annotations_of(func).get("return")
        else:
            self._return_annotation = getattr(func, "__annotations__", {}).get("return")

    def __get__(self, obj: Any, objtype: Any = None) -> Any:
        return self

    def __set_name__(self, owner: type, name: str) -> None:
        # The class body saw no annotation for `name`: add one so field resolution finds it.
        self.name = name
        ann = Any if self._return_annotation is None else self._return_annotation
        if sys.version_info >= (3, 14):
            anns = _annotations_of(owner)
            anns[name] = ann
            owner.__annotations__ = anns
            return
        if "__annotations__" not in owner.__dict__:
            owner.__annotations__ = {}
        owner.__annotations__[name] = ann


class Field:
    """What is known of one field of an FFI dataclass.

    `name`, `type` (the resolved annotation) and `_ty_schema` (its TypeSchema) are filled by
    the decorators.  `default` / `default_factory` (MISSING when absent; at most one of the
    two), `init`, `repr`, `compare`, `hash` (None: same as `compare`), `kw_only` (None: the
    decorator's), `frozen`, `structural_eq` (None, "ignore", "def" / "def-pattern",
    "def-simple"), `doc` and `metadata` (a private dict) follow `dataclasses.field`.
    Unknown keyword options are kept in `extra_kwargs` for field-resolution hooks;
    `@py_class` rejects any that no hook consumed.
    """

    __slots__ = ("name", "_ty_schema", "type", "default", "default_factory", "frozen", "init",
                 "repr", "hash", "compare", "kw_only", "metadata", "structural_eq", "doc",
                 "converter", "extra_kwargs")

    def __init__(self, name: Optional[str] = None, _ty_schema: Any = None, *,
                 default: Any = MISSING, default_factory: Any = MISSING, frozen: bool = False,
                 init: bool = True, repr: bool = True, hash: Optional[bool] = True,
                 compare: bool = False, kw_only: Optional[bool] = False,
                 metadata: Optional[Mapping[str, Any]] = None,
                 structural_eq: Optional[str] = None, doc: Optional[str] = None,
                 converter: Callable[[Any], Any] = _field_converter, **extra_kwargs: Any) -> None:
        if default_factory is not MISSING:
            if default is not MISSING:
                raise ValueError("cannot specify both default and default_factory")
            if not callable(default_factory):
                raise TypeError("default_factory must be a callable, got "
                                f"{type(default_factory).__name__}")
        if structural_eq not in _FIELD_STRUCTURAL_EQ:
            allowed = sorted(_FIELD_STRUCTURAL_EQ, key=str)
            raise ValueError(f"structural_eq must be one of {allowed}, got {structural_eq!r}")
        self.name = name
        self._ty_schema = _ty_schema
        self.type = None
        self.default = default
        self.default_factory = default_factory
        self.frozen = frozen
        self.init = init
        self.repr = repr
        self.hash = hash
        self.compare = compare
        self.kw_only = kw_only
        self.metadata = {} if metadata is None else dict(metadata)
        self.structural_eq = structural_eq
        self.doc = doc
        self.converter = converter
        self.extra_kwargs = dict(extra_kwargs)

    def __copy__(self) -> "Field":
        dup = object.__new__(type(self))
        if hasattr(self, "__dict__"):
            dup.__dict__.update(self.__dict__)
        for klass in type(self).__mro__:
            slots = klass.__dict__.get("__slots__", ())
            for slot in (slots,) if isinstance(slots, str) else slots:
                if slot in ("__dict__", "__weakref__") or not hasattr(self, slot):
                    continue
                setattr(dup, slot, getattr(self, slot))
        dup.metadata = dict(self.metadata)
        dup.extra_kwargs = dict(self.extra_kwargs)
        return dup


def field(*, default: Any = MISSING, default_factory: Any = MISSING, frozen: bool = False,
          init: bool = True, repr: bool = True, hash: Optional[bool] = None,
          compare: bool = True, kw_only: Optional[bool] = None,
          metadata: Optional[Mapping[str, Any]] = None, structural_eq: Optional[str] = None,
          doc: Optional[str] = None, converter: Callable[[Any], Any] = _field_converter,
          **extra_kwargs: Any) -> Any:
    """Options of one `@py_class` field, as `dataclasses.field` (see `Field`).

    ``x: int = field(default=0, repr=False)``.  `frozen` removes the field's setter (the
    descriptor's `.set(obj, value)` still writes); `structural_eq` says how the field takes
    part in structural equality and hashing.
    """
    return Field(default=default, default_factory=default_factory, frozen=frozen, init=init,
                 repr=repr, hash=hash, compare=compare, kw_only=kw_only, metadata=metadata,
                 structural_eq=structural_eq, doc=doc, converter=converter, **extra_kwargs)


__all__ = ["KW_ONLY", "Field", "field", "init_property"]
