"""`@py_class`: an FFI object type whose fields a Python class body declares.

The class is registered with libtether (a new type key, child of its nearest registered
base), its annotations become reflected fields stored in the C object (read and written
by C getters/setters through the field descriptors), methods marked with `@method` and the
type-attribute hooks of the body (`__ffi_repr__`, `__s_equal__`, ...) are registered for
other languages to find, and the dataclass special methods are installed (see _dunder).
"""
from __future__ import annotations

import inspect
import json
import sys
import typing
from copy import copy
from typing import Any, Callable, ClassVar, Dict, List, Optional, Tuple, TypeVar

try:
    from typing import dataclass_transform
except ImportError:  # pragma: no cover - Python < 3.11
    from typing_extensions import dataclass_transform

from .._dunder import _install_dataclass_dunders
from ..core import MISSING
from ..registry import _add_class_attrs
from . import _resolve_fields
from .field import KW_ONLY, Field, _field_converter, field, init_property

_T = TypeVar("_T", bound=type)

# `structural_eq=` of the decorator -> the type's structural equality / hash kind
# (TVMFFISEqHashKind: unsupported, tree node, free var, DAG node, const tree node, unique).
_STRUCTURE_KIND_MAP: Dict[Optional[str], int] = {
    None: 0, "tree": 1, "var": 2, "dag": 3, "const-tree": 4, "singleton": 5,
}

# Names of a class body registered as type attributes (per-type hook columns that C code
# dispatches on) instead of reflected methods.
_FFI_TYPE_ATTR_NAMES = frozenset({
    "__ffi_repr__", "__ffi_hash__", "__ffi_eq__", "__ffi_compare__", "__ffi_convert__",
    "__ffi_convert_type_schema__", "__any_hash__", "__any_equal__", "__s_equal__", "__s_hash__",
    "__s_visit__", "__s_mutate__", "__s_maybe_inplace_mutate__", "__data_to_json__",
    "__data_from_json__",
})

# Type attributes a py_class copies from its nearest ancestor that has them, unless the
# class says otherwise with `__ffi_inherit_type_attrs__` (libtether's columns do not
# inherit by themselves).
_DEFAULT_INHERIT_TYPE_ATTRS = ("__s_equal__", "__s_hash__", "__s_visit__", "__data_to_json__",
                               "__data_from_json__")


def _type_attr_options(cls: type) -> Tuple[frozenset, Tuple[str, ...]]:
    """(the type-attribute names `cls` registers, the ones it inherits), from the class
    attributes `__ffi_type_attr_names__` (extra names) and `__ffi_inherit_type_attrs__`
    (replaces the default inherited list; found through the MRO like any attribute)."""
    extra = getattr(cls, "__ffi_type_attr_names__", ())
    inherit = getattr(cls, "__ffi_inherit_type_attrs__", _DEFAULT_INHERIT_TYPE_ATTRS)
    for names in (extra, inherit):
        if not isinstance(names, (tuple, list)) or any(not isinstance(n, str) for n in names):
            raise TypeError("TypeAttr registration lists must be tuples or lists of strings")
    return _FFI_TYPE_ATTR_NAMES | frozenset(extra) | frozenset(inherit), tuple(inherit)


def _inherited_type_attrs(type_info: Any, names: Tuple[str, ...]) -> List[Tuple[Any, ...]]:
    """Registration entries copying, for each name the class body does not define, the
    value of the nearest ancestor that registered one.  An ancestor whose body sets the
    name (even to None) ends the search."""
    from ..core import _lookup_type_attr

    cls = type_info.type_cls
    out = []
    for name in names:
        if name in cls.__dict__:
            continue
        ancestor = type_info.parent_type_info
        while ancestor is not None:
            value = _lookup_type_attr(ancestor.type_index, name)
            if value is not None:
                out.append((name, value, True, None))
                break
            if ancestor.type_cls is not None and name in ancestor.type_cls.__dict__:
                break
            ancestor = ancestor.parent_type_info
    return out


def method(fn: Any) -> Any:
    """Mark a method (plain or staticmethod) of a `@py_class` body for registration as a
    reflected method of the type, callable by name from any language (a name that is a
    type-attribute hook goes to the type attributes instead).  classmethod: TypeError."""
    if isinstance(fn, classmethod):
        raise TypeError("@tether.method: @classmethod is not supported (its first argument "
                        "is the class, the FFI passes the object); use @staticmethod or a "
                        "plain method")
    if isinstance(fn, staticmethod):
        fn.__func__.__ffi_method__ = True
        return fn
    if not callable(fn):
        raise TypeError(f"@tether.method: expected a callable, got {type(fn).__name__}.")
    fn.__ffi_method__ = True
    return fn


def _is_method_marked(value: Any) -> bool:
    if isinstance(value, (staticmethod, classmethod)):
        value = value.__func__
    elif not callable(value):
        return False
    return getattr(value, "__ffi_method__", False) is True


def _callable_type_schema_json() -> str:
    from ..core import TypeSchema

    return json.dumps({"type_schema": TypeSchema("Callable").to_json()})


def _method_type_schema_json(cls: type, func: Any, is_static: bool,
                             globalns: Dict[str, Any]) -> str:
    """The metadata JSON of a registered method: its type schema from its annotations
    (a bare Callable when they cannot be resolved or the signature has *args, **kwargs or
    keyword-only parameters)."""
    from ..core import TypeSchema

    hints = None
    for cross in (False, True):
        options: Dict[str, Any] = {
            "globalns": globalns, "localns": _resolve_fields._build_localns(cls, cross_module=cross)}
        if sys.version_info >= (3, 11):
            options["include_extras"] = True
        try:
            hints = typing.get_type_hints(func, **options)
            break
        except (NameError, AttributeError):
            continue
    if hints is None:
        return _callable_type_schema_json()
    params = list(inspect.signature(func).parameters.values())
    P = inspect.Parameter
    if any(p.kind in (P.VAR_POSITIONAL, P.VAR_KEYWORD, P.KEYWORD_ONLY) for p in params):
        return _callable_type_schema_json()
    args = []
    if not is_static:
        args.append(TypeSchema.from_annotation(cls))
        params = params[1:]
    for p in params:
        args.append(TypeSchema.from_annotation(hints.get(p.name, Any)))
    ret = TypeSchema.from_annotation(hints.get("return", Any))
    schema = TypeSchema("Callable", named_args={"return": (ret,), "params": tuple(args)})
    return json.dumps({"type_schema": schema.to_json()})


def _collect_py_methods(cls: type,
                        globalns: Optional[Dict[str, Any]] = None) -> Optional[List[Tuple]]:
    """The entries of `cls`'s body to register: every type-attribute name it defines and
    every `@method`-marked callable, as (name, function, is_static) -- or, when `globalns`
    is given (the registration path), (name, function, is_static, metadata JSON or None).
    None if there is nothing.  TypeError for a classmethod."""
    attr_names, _ = _type_attr_options(cls)
    with_metadata = globalns is not None
    out: List[Tuple] = []
    for name, value in cls.__dict__.items():
        marked = _is_method_marked(value)
        if not marked and name not in attr_names:
            continue
        if isinstance(value, classmethod):
            raise TypeError(f"@py_class({cls.__name__!r}): method {name!r} is wrapped by "
                            "@classmethod, which cannot be registered with the FFI (its first "
                            "argument is the class); use @staticmethod or a plain method (for "
                            "``@classmethod @method`` write ``@staticmethod @method``)")
        is_static = isinstance(value, staticmethod)
        func = value.__func__ if is_static else value
        if not with_metadata:
            out.append((name, func, is_static))
            continue
        meta = None
        if marked and name not in attr_names:
            meta = _method_type_schema_json(cls, func, is_static, globalns)
        out.append((name, func, is_static, meta))
    return out or None


def _field_from_class_value(owner: type, cls: type, name: str,
                            init_funcs: Dict[str, Any]) -> Field:
    """The Field of annotation `name` of `owner`, from what the class body assigned to it
    (a Field, an init_property, a default value, or nothing); the body's value is removed
    from `cls`."""
    value = owner.__dict__.get(name, MISSING)
    if isinstance(value, Field):
        spec = value if owner is cls else copy(value)
    elif isinstance(value, init_property):
        spec = field(init=False, repr=False, hash=False, compare=False, structural_eq="ignore")
        init_funcs[name] = value.func
    elif value is not MISSING:
        spec = field(default=value)
    else:
        spec = field()
    if owner is cls and value is not MISSING:
        delattr(cls, name)
    return spec


def on_fields_resolved(type_info: Any, resolved_fields: Any) -> None:
    """Phase 2 of `@py_class`, once annotations resolved: build the Fields, run the
    `__ffi_on_fields_resolved__` hooks, register fields, methods and type attributes with
    libtether, and install the dataclass special methods."""
    from ..core import TypeSchema

    cls = type_info.type_cls
    params = type_info._decorator_args
    owners, hints_by_owner = resolved_fields
    hooks = [h for base in reversed(cls.__mro__) for h in base.__dict__.values()
             if callable(h) and getattr(h, "__ffi_on_fields_resolved__", False) is True]
    marker_types = getattr(cls, "__ffi_field_markers__", ())
    if not isinstance(marker_types, (tuple, list)) or any(
            not isinstance(m, type) for m in marker_types):
        raise TypeError("__ffi_field_markers__ must be a tuple or list of types")

    parent = type_info.parent_type_info
    markers = list(getattr(parent, "_decorator_args", {}).get("field_markers", ()))
    n_inherited = 0
    while parent is not None:
        n_inherited += len(parent.fields)
        parent = parent.parent_type_info

    specs: Dict[str, Field] = {}
    init_funcs: Dict[str, Any] = {}
    kw_only = params["kw_only"]
    for owner in owners:
        for name, ann in hints_by_owner[owner].items():
            if ann is ClassVar or typing.get_origin(ann) is ClassVar:
                continue
            if ann is KW_ONLY:
                kw_only = True
                if owner is cls and name in cls.__dict__:
                    delattr(cls, name)
                continue
            if any(ann is m for m in marker_types):
                markers.append((ann, owner, name, n_inherited + len(specs)))
                continue
            spec = _field_from_class_value(owner, cls, name, init_funcs)
            spec.name = name
            spec.type = ann
            spec._ty_schema = TypeSchema.from_annotation(ann)
            if spec.kw_only is None:
                spec.kw_only = kw_only
            if params["frozen"]:
                spec.frozen = True
            if spec.hash is None:
                spec.hash = spec.compare
            specs[name] = spec
    own_fields = list(specs.values())
    if init_funcs:
        cls.__ffi_init_property_funcs__ = init_funcs
    params["field_markers"] = tuple(markers)

    # Hooks see the Fields before registration fixes them in the C type.
    for hook in hooks:
        hook(type_info, own_fields)
    for spec in own_fields:
        if spec.extra_kwargs:
            raise TypeError(f"{cls.__name__}.{spec.name}: unrecognized field options: "
                            + ", ".join(sorted(spec.extra_kwargs)))

    globalns = getattr(sys.modules.get(cls.__module__), "__dict__", {})
    attr_names, inherit = _type_attr_options(cls)
    entries = _collect_py_methods(cls, globalns) or []
    entries.extend(_inherited_type_attrs(type_info, inherit))

    type_info._register_fields(own_fields, _STRUCTURE_KIND_MAP[params["structural_eq"]])
    for spec, type_field in zip(own_fields, type_info.fields):
        type_field.dataclass_field = spec
    type_info._register_py_methods(entries, type_attr_names=attr_names)
    _add_class_attrs(cls, type_info, type_attr_names=attr_names)

    if "__ffi_py_class_is_deferred_init__" in cls.__dict__:
        if "__init__" in cls.__dict__:
            delattr(cls, "__init__")
        delattr(cls, "__ffi_py_class_is_deferred_init__")
        user_init = cls.__dict__.get("_py_class_user_init")
        if user_init is not None:
            cls.__init__ = user_init
            delattr(cls, "_py_class_user_init")

    _install_dataclass_dunders(
        cls, init=params["init"], repr=params["repr"], eq=params["eq"], order=params["order"],
        unsafe_hash=params["unsafe_hash"], match_args=params["match_args"], py_class_mode=True)


@dataclass_transform(eq_default=False, order_default=False, field_specifiers=(Field, field))
def py_class(cls_or_type_key: Any = None, /, *, type_key: Optional[str] = None,
             frozen: bool = False, init: bool = True, repr: bool = True, eq: bool = False,
             order: bool = False, unsafe_hash: bool = False, match_args: bool = True,
             kw_only: bool = False, structural_eq: Optional[str] = "tree",
             slots: bool = True) -> Any:
    """Make a subclass of `tether.Object` an FFI dataclass defined by its annotations.

    ``@py_class``, ``@py_class("my.Point")`` (the type key; default
    "<module>.<qualname>"), ``@py_class(eq=True, order=True)``.  The options follow
    `dataclasses.dataclass`: `frozen` (fields read-only; the descriptor's `.set` still
    writes), `init`, `repr`, `eq` (field-wise `==`; otherwise `==` is identity), `order`
    (needs eq), `unsafe_hash` (field-wise hash), `match_args`, `kw_only`.  `structural_eq`
    is how structural_equal / structural_hash treat the type: "tree" (by content), "var"
    (by binding position), "dag" (content and sharing), "const-tree", "singleton"
    (identity) or None (unsupported); it does not affect `==`.  `slots` is accepted for
    type checkers (Object subclasses have no instance dict anyway).

    Annotations that cannot be resolved yet (a class defined later) delay field
    registration until they can, at the latest until the first construction.
    """
    if order and not eq:
        raise ValueError("order=True requires eq=True")
    if structural_eq not in _STRUCTURE_KIND_MAP:
        kinds = sorted(k for k in _STRUCTURE_KIND_MAP if k is not None)
        raise ValueError(f"structural_eq must be one of {kinds} or None, got {structural_eq!r}")
    options = {"frozen": frozen, "init": init, "repr": repr, "eq": eq, "order": order,
               "unsafe_hash": unsafe_hash, "match_args": match_args, "kw_only": kw_only,
               "structural_eq": structural_eq}
    key = type_key

    def decorate(cls: _T) -> _T:
        globalns = getattr(sys.modules.get(cls.__module__), "__dict__", {})
        info = _resolve_fields.register_type_without_fields(cls, key)
        info._decorator_args = dict(options)  # per class: hooks may edit their copy
        try:
            resolved = _resolve_fields.resolve_type_hints_by_owner(cls, globalns)
            if resolved is None:
                _resolve_fields.defer_field_registration(cls, info, globalns)
            else:
                on_fields_resolved(info, resolved)
                _resolve_fields.flush_pending()
        except Exception:
            _resolve_fields.rollback_registration(cls, info)
            raise
        cls.__ffi_is_dataclass__ = True
        return cls

    if cls_or_type_key is None:
        return decorate
    if isinstance(cls_or_type_key, str):
        key = cls_or_type_key
        return decorate
    if isinstance(cls_or_type_key, type):
        return decorate(cls_or_type_key)
    raise TypeError(f"py_class: expected str or type, got {type(cls_or_type_key)}")


# Type checkers read field specifiers from this metadata; `converter` is added here
# because it is a run-time marker, not part of dataclass_transform's signature.
py_class.__dataclass_transform__["kwargs"]["converter"] = _field_converter
