"""The global function registry and object-class registration, over tether.core.

Globals live in libtether's registry; these helpers only shape the Python side of it:
names are plain str, metadata is parsed from its JSON text, and registration can be used
as a decorator.
"""
from __future__ import annotations

import sys

from . import core

# Typing names for annotations only (not imported at run time: `import tether` stays fast).
TYPE_CHECKING = False
if TYPE_CHECKING:
    import types
    from collections.abc import Collection, Sequence
    from typing import Any, Callable, Dict, List, Optional, Union

__all__ = ["get_global_func", "register_global_func", "remove_global_func",
           "list_global_func_names", "get_global_func_metadata", "init_ffi_api",
           "register_object", "get_registered_type_keys"]

get_global_func = core.get_global_func


def register_global_func(func_name: Union[str, Callable[..., Any]],
                         f: Optional[Callable[..., Any]] = None, override: bool = False):
    """Register `f` (any callable; it becomes an ffi.Function) as the global `func_name`.

    Forms: ``register_global_func("name", f)``, ``@register_global_func("name")`` and
    ``@register_global_func`` (the name is the function's __name__).  Registering a name
    that exists raises RuntimeError unless `override`.  Returns the registered Function.
    """
    name: Any = func_name
    if callable(func_name) and f is None:
        f, name = func_name, getattr(func_name, "__name__", None)
    if not isinstance(name, str):
        raise TypeError("register_global_func: `func_name` must be a str, got "
                        f"{type(name).__name__}")

    def register(fn: Callable[..., Any]):
        if not callable(fn):
            raise TypeError(f"register_global_func: `f` for {name!r} must be callable, got "
                            f"{type(fn).__name__}")
        result = core._register_global_func(name, fn, override)
        return result if result is not None else core.get_global_func(name)

    return register if f is None else register(f)


def remove_global_func(name: str) -> bool:
    """Remove the global `name`; True if it existed."""
    return bool(_remove_global(name))


def list_global_func_names() -> List[str]:
    """Names of every registered global function."""
    at = _list_names_functor()
    return [str(at(i)) for i in range(at(-1))]


def get_global_func_metadata(name: str) -> Dict[str, Any]:
    """The metadata of the global `name` (its type_schema and any attributes) as a dict."""
    import json

    text = _metadata(name)
    return json.loads(text) if text else {}


def init_ffi_api(namespace: str, target_module: Union[str, types.ModuleType, None] = None) -> None:
    """Set every global ``<namespace>.<name>`` (one level deep) as attribute `name` of
    `target_module` (a module or its name in sys.modules; default: the module named
    `namespace`)."""
    if target_module is None:
        target_module = namespace
    module = sys.modules[target_module] if isinstance(target_module, str) else target_module
    prefix = namespace + "."
    for full in list_global_func_names():
        if not full.startswith(prefix):
            continue
        short = full[len(prefix):]
        if not short or "." in short:
            continue
        f = core.get_global_func(full)
        try:
            setattr(f, "__name__", short)
        except (AttributeError, TypeError):
            pass
        setattr(module, short, f)


def register_object(type_key: Union[str, type, None] = None, *, init: bool = True):
    """Class decorator binding a Python subclass of Object to the FFI type `type_key`:
    results of that type come back as instances of the class, which gets properties for
    the reflected fields, the reflected methods, ``__tvm_ffi_type_info__`` (its TypeInfo),
    ``__ffi_init__`` and, when `init` and the class body defines none, an ``__init__``
    from the type's ``__ffi_init__``.

    ``@register_object("ns.Type")``, or ``@register_object`` to use the class's name.
    Raises ValueError if the type key is unknown.
    """
    def register(cls: type, key: Optional[str] = None) -> type:
        name = key if key is not None else cls.__name__
        index = core._object_type_key_to_index(name)
        if index is None:
            raise ValueError(f"Cannot find object type index for {name}")
        core._register_object(name, cls, init)
        info = core._register_object_by_index(index, cls)
        setattr(cls, "__tvm_ffi_type_info__", info)
        ffi_init = _ffi_init_of(info)
        if ffi_init is not None:
            _install_ffi_init_attr(cls, info, ffi_init)
        return cls

    if isinstance(type_key, str):
        return lambda cls: register(cls, type_key)
    if isinstance(type_key, type):
        return register(type_key)
    if type_key is None:
        return register
    raise TypeError("register_object: `type_key` must be a str, got "
                    f"{type(type_key).__name__}")


def _ffi_init_of(type_info: Any) -> Any:
    """The type's __ffi_init__: its reflected method, else its type attribute, else None."""
    for m in type_info.methods:
        if m.name == "__ffi_init__":
            return m.func
    return core._lookup_type_attr(type_info.type_index, "__ffi_init__")


def _add_class_attrs(type_cls: type, type_info: Any, type_attr_names: Collection = ()) -> type:
    """Install the type's own fields and methods (where the class defines no such name),
    ``__ffi_init__``, and the type attributes named in `type_attr_names`."""
    for f in type_info.fields:
        if f.name not in type_cls.__dict__:
            setattr(type_cls, f.name, f.as_property(type_cls))
    for m in type_info.methods:
        if m.name != "__ffi_init__" and not hasattr(type_cls, m.name):
            setattr(type_cls, m.name, m.as_callable(type_cls))
    ffi_init = _ffi_init_of(type_info)
    if ffi_init is not None:
        _install_ffi_init_attr(type_cls, type_info, ffi_init)
    _add_type_attr_class_attrs(type_cls, type_info, type_attr_names)
    return type_cls


def _add_type_attr_class_attrs(type_cls: type, type_info: Any, type_attr_names: Collection) -> None:
    """Set each named type attribute of the type as a class attribute (unless the class
    body defines it)."""
    for name in type_attr_names or ():
        value = core._lookup_type_attr(type_info.type_index, name)
        if value is not None and name not in type_cls.__dict__:
            setattr(type_cls, name, value)


def _install_ffi_init_attr(cls: type, type_info: Any, ffi_init: Any) -> None:
    """Give `cls` ``__ffi_init__(self, *args, **kwargs)``: self adopts the object that the
    type's constructor builds (keyword arguments travel after KWARGS; MISSING ones are
    dropped).  Calling it on an instance of another FFI type raises TypeError."""
    kwargs_marker, missing, type_name = core.KWARGS, core.MISSING, cls.__name__

    def __ffi_init__(self: Any, /, *args: Any, **kwargs: Any) -> None:
        if type(self).__tvm_ffi_type_info__ is not type_info:
            raise TypeError(f"Calling `{type_name}.__ffi_init__()` on a `{type(self).__name__}` "
                            f"instance is not supported. Define `{type(self).__name__}` with "
                            "init=True.")
        packed = list(args)
        if kwargs:
            packed.append(kwargs_marker)
            for k, v in kwargs.items():
                if v is not missing:
                    packed += (k, v)
        self.__init_handle_by_constructor__(ffi_init, *packed)

    __ffi_init__.__qualname__ = f"{cls.__qualname__}.__ffi_init__"
    __ffi_init__.__module__ = cls.__module__
    cls.__ffi_init__ = __ffi_init__


def _warn_missing_field_annotations(cls: type, type_info: Any, *, stacklevel: int) -> None:
    """Warn when the class body annotates none of some of the type's own reflected fields."""
    names = {f.name for f in type_info.fields}
    if not names:
        return
    missing = sorted(names - set(cls.__dict__.get("__annotations__", {})))
    if missing:
        import warnings

        warnings.warn(f"@c_class({type_info.type_key!r}): class `{cls.__qualname__}` does not "
                      f"annotate the following reflected field(s): {', '.join(missing)}. "
                      "Add type annotations (e.g. `field_name: type`) to the class body "
                      "for IDE support and documentation.", UserWarning, stacklevel=stacklevel)


def get_registered_type_keys() -> Sequence[str]:
    """The type keys of every type registered in the FFI type table."""
    return core.get_global_func("ffi.GetRegisteredTypeKeys")()


_remove_global = core.get_global_func("ffi.FunctionRemoveGlobal")
_list_names_functor = core.get_global_func("ffi.FunctionListGlobalNamesFunctor")
_metadata = core.get_global_func("ffi.GetGlobalFuncMetadata")
