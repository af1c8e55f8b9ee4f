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
    from typing import Any, Callable, Dict, List, Optional, Union

__all__ = ["get_global_func", "register_global_func", "remove_global_func",
           "list_global_func_names", "get_global_func_metadata", "init_ffi_api",
           "register_object"]

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


def register_object(type_key: Union[str, type, None] = None):
    """Class decorator binding a Python subclass of Object to the FFI type `type_key`:
    results of that type come back as instances of the class, which gets properties for
    the reflected fields, the reflected methods and an __init__ from __ffi_init__.

    ``@register_object("ns.Type")``, or ``@register_object`` to use the class's name.
    Raises ValueError if the type key is unknown.
    """
    def register(cls: type, key: Optional[str] = None) -> type:
        return core._register_object(key if key is not None else cls.__name__, cls)

    if isinstance(type_key, str):
        return lambda cls: register(cls, type_key)
    if isinstance(type_key, type):
        return register(type_key)
    if type_key is None:
        return register
    raise TypeError("register_object: `type_key` must be a str, got "
                    f"{type(type_key).__name__}")


_remove_global = core.get_global_func("ffi.FunctionRemoveGlobal")
_list_names_functor = core.get_global_func("ffi.FunctionListGlobalNamesFunctor")
_metadata = core.get_global_func("ffi.GetGlobalFuncMetadata")


# ---- class attributes from reflection (used by register_object, @c_class, @py_class) ----

def _add_class_attrs(type_cls: type, type_info: Any, type_attr_names: Any = ()) -> type:
    """Put on `type_cls` a descriptor per reflected field and a method per reflected
    method of `type_info` (names the class defines itself are kept), `__ffi_init__` when the
    type has a constructor, and the type attributes named in `type_attr_names`."""
    own = type_cls.__dict__
    for f in type_info.fields:
        if f.name not in own:
            setattr(type_cls, f.name, f.as_property(type_cls))
    ffi_init = None
    for m in type_info.methods:
        if m.name == "__ffi_init__":
            ffi_init = m.func
        elif not hasattr(type_cls, m.name):
            setattr(type_cls, m.name, m.as_callable(type_cls))
    if ffi_init is None:
        ffi_init = core._lookup_type_attr(type_info.type_index, "__ffi_init__")
    if ffi_init is not None:
        _install_ffi_init_attr(type_cls, type_info, ffi_init)
    _add_type_attr_class_attrs(type_cls, type_info, type_attr_names)
    return type_cls


def _add_type_attr_class_attrs(type_cls: type, type_info: Any, type_attr_names: Any) -> None:
    """Copy the type attributes named in `type_attr_names` that the type has onto
    `type_cls` (unless its body defines the name)."""
    for name in type_attr_names or ():
        value = core._lookup_type_attr(type_info.type_index, name)
        if value is not None and name not in type_cls.__dict__:
            setattr(type_cls, name, value)


def _install_ffi_init_attr(cls: type, type_info: Any, ffi_init: Any) -> None:
    """`cls.__ffi_init__(self, *args, **kwargs)`: build self through the type's constructor
    (for a custom `__init__`); TypeError on an instance of another (sub)type."""
    kwargs_marker = core.KWARGS
    missing = core.MISSING
    name = cls.__name__

    def __ffi_init__(self: Any, /, *args: Any, **kwargs: Any) -> None:
        if type(self).__tvm_ffi_type_info__ is not type_info:
            other = type(self).__name__
            raise TypeError(f"Calling `{name}.__ffi_init__()` on a `{other}` instance is not "
                            f"supported. Define `{other}` with init=True.")
        packed = list(args)
        if kwargs:
            packed.append(kwargs_marker)
            for key, value in kwargs.items():
                if value is not missing:
                    packed.append(key)
                    packed.append(value)
        self.__init_handle_by_constructor__(ffi_init, *packed)

    __ffi_init__.__qualname__ = f"{cls.__qualname__}.__ffi_init__"
    __ffi_init__.__module__ = cls.__module__
    cls.__ffi_init__ = __ffi_init__


def _warn_missing_field_annotations(cls: type, type_info: Any, *, stacklevel: int) -> None:
    """UserWarning naming the reflected fields of `type_info` (its own) that the body of
    `cls` does not annotate."""
    import warnings

    names = {f.name for f in type_info.fields}
    if not names:
        return
    anns = cls.__dict__.get("__annotations__", {})
    missing = sorted(names - set(anns))
    if missing:
        warnings.warn(
            f"@c_class({type_info.type_key!r}): class `{cls.__qualname__}` does not annotate "
            f"the following reflected field(s): {', '.join(missing)}. Add type annotations "
            "(e.g. `field_name: type`) to the class body for IDE support and documentation.",
            UserWarning, stacklevel=stacklevel)
