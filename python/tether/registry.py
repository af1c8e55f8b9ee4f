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
