"""Annotation resolution for `@py_class`, in two phases.

Phase 1 registers the class as an FFI type without fields, so annotations naming the class
itself, or classes of the same module defined later, can be turned into type schemas.
Phase 2 resolves the annotations (`typing.get_type_hints` over each class's own
annotations); when a name is not defined yet the class waits in a pending list, is retried
after every later `@py_class`, and at the latest resolves on its first construction (a
temporary `__init__`).  A failure in phase 2 undoes phase 1 on the Python side, so the type
key may be used again.
"""
from __future__ import annotations

import sys
import typing
from typing import Any, Callable, Dict, List, Optional, Tuple

from .. import core
from .field import KW_ONLY

# (the classes whose annotations become fields, base first; each one's resolved hints)
ResolvedFields = Tuple[List[type], Dict[type, Dict[str, Any]]]

# Classes waiting for a forward reference: (class, its TypeInfo, the globals to resolve in).
_PENDING_CLASSES: List[Tuple[type, Any, Dict[str, Any]]] = []

# module name -> {class name: class} of every @py_class of that module: annotations may
# name a sibling before the module has bound it.
_PY_CLASS_BY_MODULE: Dict[str, Dict[str, type]] = {}


class _KWOnlyAnnotation:
    """Stands for KW_ONLY while typing.get_type_hints runs (3.10 refuses the singleton)."""


def _is_kw_only_annotation(annotation: Any) -> bool:
    if annotation is KW_ONLY or annotation is _KWOnlyAnnotation:
        return True
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__forward_arg__",
                                                                  None)
    return isinstance(text, str) and (text == "KW_ONLY" or text.endswith(".KW_ONLY"))


def own_annotations(cls: type) -> Dict[str, Any]:
    """The annotations `cls` itself declares (not its bases')."""
    if sys.version_info >= (3, 14):
        import annotationlib  # type: ignore[import-not-found]

        return dict(annotationlib.get_annotations(cls, format=annotationlib.Format.FORWARDREF))
    anns = cls.__dict__.get("__annotations__", None)
    return dict(anns) if isinstance(anns, dict) else {}


def _registered_type_info(cls: type) -> Any:
    """The TypeInfo registered for `cls` itself (not one it inherits), or None."""
    info = core._type_cls_to_type_info(cls)
    return info if info is not None else cls.__dict__.get("__tvm_ffi_type_info__")


def register_type_without_fields(cls: type, type_key: Optional[str]) -> Any:
    """Phase 1: register `cls` under `type_key` (default "<module>.<qualname>") as a child
    of its nearest registered base; TypeError if there is none."""
    parent = None
    for base in cls.__mro__[1:]:
        parent = _registered_type_info(base)
        if parent is not None:
            break
    if parent is None:
        raise TypeError(f"{cls.__name__} must inherit from a registered FFI Object type "
                        "(e.g. tether.Object)")
    key = type_key if type_key is not None else f"{cls.__module__}.{cls.__qualname__}"
    info = core._register_py_class(parent, key, cls)
    cls.__tvm_ffi_type_info__ = info
    _PY_CLASS_BY_MODULE.setdefault(cls.__module__, {})[cls.__name__] = cls
    return info


def rollback_registration(cls: type, type_info: Any) -> None:
    """Undo phase 1 on the Python side (the type index stays used)."""
    rollback = getattr(core, "_rollback_py_class", None)
    if rollback is not None:
        rollback(type_info)
    _PY_CLASS_BY_MODULE.get(cls.__module__, {}).pop(cls.__name__, None)
    for attr in ("__tvm_ffi_type_info__", "__ffi_is_dataclass__"):
        if attr in cls.__dict__:
            delattr(cls, attr)


def _field_owner_classes(cls: type) -> List[type]:
    """`cls` and its unregistered mixins (base first) whose annotations become fields of
    `cls`: everything in the MRO above the nearest registered base and not below it."""
    parent = next((b for b in cls.__mro__[1:] if _registered_type_info(b) is not None), object)
    covered = set(parent.__mro__)
    return [b for b in reversed(cls.__mro__)
            if b is not object and b not in covered and own_annotations(b)]


def _build_localns(cls: type, *, cross_module: bool = False) -> Dict[str, Any]:
    """Names annotations of `cls` may use besides its module's globals: the @py_class
    classes of its module and `cls` itself; with `cross_module`, also those of other modules
    (a reference imported only under TYPE_CHECKING), never shadowing a local one."""
    ns = dict(_PY_CLASS_BY_MODULE.get(cls.__module__, {}))
    ns[cls.__name__] = cls
    if cross_module:
        for module, classes in list(_PY_CLASS_BY_MODULE.items()):
            if module != cls.__module__:
                for name, klass in classes.items():
                    ns.setdefault(name, klass)
    return ns


def _resolve_own_type_hints(owner: type, globalns: Dict[str, Any],
                            localns: Dict[str, Any]) -> Dict[str, Any]:
    """Resolve the annotations `owner` declares itself (its bases' are their own fields)."""
    anns = own_annotations(owner)
    if not anns:
        return {}
    stand_in = dict(anns)
    kw_markers = [name for name, ann in anns.items() if _is_kw_only_annotation(ann)]
    for name in kw_markers:
        stand_in[name] = _KWOnlyAnnotation
    holder = type(f"_{owner.__name__}OwnAnnotations", (),
                  {"__annotations__": stand_in, "__module__": owner.__module__})
    options: Dict[str, Any] = {"globalns": globalns, "localns": localns}
    if sys.version_info >= (3, 11):
        options["include_extras"] = True
    hints = typing.get_type_hints(holder, **options)
    for name in kw_markers:
        hints[name] = KW_ONLY
    return hints


def _hints_by_owner(owners: List[type], localns: Dict[str, Any],
                    globalns: Dict[str, Any]) -> Dict[type, Dict[str, Any]]:
    out = {}
    for owner in owners:
        module = sys.modules.get(owner.__module__, None)
        out[owner] = _resolve_own_type_hints(owner, getattr(module, "__dict__", globalns),
                                             localns)
    return out


def resolve_type_hints_by_owner(cls: type, globalns: Dict[str, Any]) -> Optional[ResolvedFields]:
    """Phase 2's resolution: (owners, hints by owner), or None while a name is undefined.
    A registered parent still waiting for its own fields is finished first."""
    info = _registered_type_info(cls)
    parent = info.parent_type_info if info is not None else None
    if parent is not None and parent.fields is None:
        resolved = resolve_type_hints_by_owner(parent.type_cls, globalns)
        if resolved is None:
            return None
        from .py_class import on_fields_resolved

        on_fields_resolved(parent, resolved)
        _remove_from_pending(parent.type_cls)
    owners = _field_owner_classes(cls)
    for cross in (False, True):
        localns = _build_localns(cls, cross_module=cross)
        localns.update({owner.__name__: owner for owner in owners})
        try:
            return owners, _hints_by_owner(owners, localns, globalns)
        except (NameError, AttributeError):
            continue
    return None


def flush_pending() -> None:
    """Retry every pending class until a pass resolves none (finishing one class may make
    another resolvable)."""
    from .py_class import on_fields_resolved

    progress = True
    while progress:
        progress = False
        waiting = []
        for entry in _PENDING_CLASSES:
            cls, info, globalns = entry
            resolved = resolve_type_hints_by_owner(cls, globalns)
            if resolved is None:
                waiting.append(entry)
                continue
            on_fields_resolved(info, resolved)
            progress = True
        _PENDING_CLASSES[:] = waiting


def _remove_from_pending(cls: type) -> None:
    _PENDING_CLASSES[:] = [e for e in _PENDING_CLASSES if e[0] is not cls]


def _raise_unresolved_forward_reference(cls: type, globalns: Dict[str, Any]) -> None:
    """TypeError naming every annotation of `cls` that still does not evaluate."""
    localns = _build_localns(cls, cross_module=True)
    owners = _field_owner_classes(cls)
    localns.update({owner.__name__: owner for owner in owners})
    bad = []
    for owner in owners:
        for name, text in own_annotations(owner).items():
            if not isinstance(text, str):
                continue
            try:
                eval(text, globalns, localns)  # noqa: S307 - the class's own annotation
            except Exception as err:  # noqa: BLE001
                bad.append(f"{name}: {text} ({err})")
    raise TypeError(f"Cannot instantiate {cls.__name__}: unresolved forward references: {bad}")


def _make_temporary_init(cls: type, type_info: Any,
                         globalns: Dict[str, Any]) -> Callable[..., None]:
    """`__init__` of a class whose fields are pending: resolves them (TypeError if still
    impossible, undoing the registration), then calls the real `__init__`."""

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if type_info.fields is None:
            try:
                from .py_class import on_fields_resolved

                resolved = resolve_type_hints_by_owner(cls, globalns)
                if resolved is None:
                    _raise_unresolved_forward_reference(cls, globalns)
                on_fields_resolved(type_info, resolved)
                _remove_from_pending(cls)
                flush_pending()
            except Exception:
                _remove_from_pending(cls)
                rollback_registration(cls, type_info)
                raise
        cls.__init__(self, *args, **kwargs)

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    __init__.__module__ = cls.__module__
    return __init__


def defer_field_registration(cls: type, type_info: Any, globalns: Dict[str, Any]) -> None:
    """Put `cls` on the pending list and give it the temporary `__init__` (a user-defined
    `__init__` is kept aside and restored when the fields are resolved)."""
    _PENDING_CLASSES.append((cls, type_info, globalns))
    if "__init__" in cls.__dict__:
        cls._py_class_user_init = cls.__dict__["__init__"]
    cls.__init__ = _make_temporary_init(cls, type_info, globalns)
    cls.__ffi_py_class_is_deferred_init__ = True
