"""Module: the Python class of ffi.Module (a loaded library, the system library, or a
module built by other means), plus load_module and system_lib.

Functions are found by name through the ffi.Module* globals.  ``mod.name`` looks the
function up once and caches it on the instance; ``mod["name"]`` and ``mod.get_function``
look up every time.  A module keeps its library loaded while any of its functions lives.
"""
from __future__ import annotations

import os

from . import core
from .registry import register_object

# Typing names for annotations only (not imported at run time: `import tether` stays fast).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Dict, List, Optional, Union

__all__ = ["Module", "load_module", "system_lib"]

_g = core.get_global_func
_get_function = _g("ffi.ModuleGetFunction")
_implements = _g("ffi.ModuleImplementsFunction")
_get_metadata = _g("ffi.ModuleGetFunctionMetadata")
_get_doc = _g("ffi.ModuleGetFunctionDoc")
_get_kind = _g("ffi.ModuleGetKind")
_import_module = _g("ffi.ModuleImportModule")
_clear_imports = _g("ffi.ModuleClearImports")
_property_mask = _g("ffi.ModuleGetPropertyMask")
_inspect_source = _g("ffi.ModuleInspectSource")
_write_formats = _g("ffi.ModuleGetWriteFormats")
_write_to_file = _g("ffi.ModuleWriteToFile")
_load_from_file = _g("ffi.ModuleLoadFromFile")
_system_lib = _g("ffi.SystemLib")
_globals_add = _g("ffi.ModuleGlobalsAdd")

# ffi.ModuleGetPropertyMask bits.
BINARY_SERIALIZABLE = 1
RUNNABLE = 2
COMPILATION_EXPORTABLE = 4


@register_object("ffi.Module")
class Module(core.Object):
    """A module of functions (ffi.Module).  Made by load_module / system_lib, not directly."""

    # An instance dict: __getattr__ caches the functions it looked up there.
    __slots__ = ("__dict__",)

    def __new__(cls, *args: Any, **kwargs: Any) -> "Module":
        raise TypeError("Module cannot be created directly; use tether.load_module(path) or "
                        "tether.system_lib(prefix)")

    @property
    def kind(self) -> str:
        """The module's kind ("library" for a loaded shared library or the system library)."""
        return str(_get_kind(self))

    @property
    def imports(self) -> List["Module"]:
        """The modules this module imports (searched by get_function(query_imports=True))."""
        for klass in type(self).__mro__:
            if "imports_" in klass.__dict__:
                return list(klass.__dict__["imports_"].__get__(self, type(self)))
        raise NotImplementedError("Module.imports: ffi.Module has no reflected field `imports_`")

    def get_function(self, name: str, query_imports: bool = False) -> core.Function:
        """The function `name`; AttributeError if the module has none."""
        f = _get_function(self, name, query_imports)
        if f is None:
            raise AttributeError(f"Module has no function '{name}'")
        return f

    def implements_function(self, name: str, query_imports: bool = False) -> bool:
        return bool(_implements(self, name, query_imports))

    def get_function_metadata(self, name: str,
                              query_imports: bool = False) -> Optional[Dict[str, Any]]:
        """The function's metadata (type_schema, ...) as a dict; None if it has none."""
        text = _get_metadata(self, name, query_imports)
        if text is None:
            return None
        import json

        return json.loads(text)

    def get_function_doc(self, name: str, query_imports: bool = False) -> Optional[str]:
        doc = _get_doc(self, name, query_imports)
        return None if doc is None else str(doc)

    def import_module(self, other: "Module") -> None:
        """Make `other` an import of this module (RuntimeError if that would form a cycle)."""
        _import_module(self, other)

    def clear_imports(self) -> None:
        _clear_imports(self)

    def get_property_mask(self) -> int:
        return int(_property_mask(self))

    def is_binary_serializable(self) -> bool:
        return bool(self.get_property_mask() & BINARY_SERIALIZABLE)

    def is_runnable(self) -> bool:
        return bool(self.get_property_mask() & RUNNABLE)

    def is_compilation_exportable(self) -> bool:
        return bool(self.get_property_mask() & COMPILATION_EXPORTABLE)

    def inspect_source(self, fmt: str = "") -> str:
        return str(_inspect_source(self, fmt))

    def get_write_formats(self) -> List[str]:
        return [str(f) for f in _write_formats(self)]

    def write_to_file(self, file_name: Union[str, "os.PathLike[str]"], fmt: str = "") -> None:
        _write_to_file(self, os.fspath(file_name), fmt)

    def __getitem__(self, name: str) -> core.Function:
        if not isinstance(name, str):
            raise TypeError(f"Module indices must be function names (str), not "
                            f"{type(name).__name__}")
        return self.get_function(name)

    def __getattr__(self, name: str) -> core.Function:
        # Only called for names not found normally; private names are never functions here.
        if name.startswith("_"):
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        f = self.get_function(name)
        self.__dict__[name] = f
        return f


def load_module(path: Union[str, "os.PathLike[str]"], keep_module_alive: bool = True) -> Module:
    """Load a module from a file (a shared library: ".so"; the loader is chosen by the file's
    extension).  With `keep_module_alive` the library stays loaded for the life of the
    process, even after every reference to the module is gone (as in tvm-ffi: functions
    handed out to C code may outlive the Python objects).  RuntimeError if it cannot load.
    """
    mod = _load_from_file(os.fspath(path))
    if keep_module_alive:
        _globals_add(mod)
    return mod


def system_lib(prefix: str = "") -> Module:
    """The system library: functions that libraries linked into the process registered with
    TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_<prefix><name>").  ``name`` is looked up
    as ``prefix + name``, then as ``name``."""
    return _system_lib(prefix)
