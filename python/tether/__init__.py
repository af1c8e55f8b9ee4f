"""tether: apache tvm-ffi's stable C ABI, implemented in C11, with this Python binding.

The binding is the extension module tether.core (written in C against the CPython API);
this package re-exports it and adds the pure-Python layer: the registry helpers, the
container classes, modules, and error-kind registration.  tether.testing binds the types
of the testing library (loaded with the extension, so testing.* globals always exist).
`python -m tether --cflags ...` prints the flags to build C code against this install.
"""
import os as _os
import sys as _sys

# tether.core, and with it libtether, is loaded RTLD_LOCAL even when the interpreter's dlopen
# flags ask for RTLD_GLOBAL: in the global scope, libtether's TVMFFI* names would shadow
# apache-tvm-ffi's for every library loaded later (README.md, "tether beside tvm-ffi").
_flags = _sys.getdlopenflags()
_sys.setdlopenflags(_flags & ~_os.RTLD_GLOBAL)
try:
    from . import core
finally:
    _sys.setdlopenflags(_flags)
del _os, _sys, _flags

# Type reflection (TypeInfo, TypeField, ...): written in Python, installed into tether.core.
from . import _reflection
_reflection._install()

from .core import (
    DLDeviceType,
    Bytes,
    Device,
    Function,
    Object,
    Shape,
    SignatureFunction,
    String,
    Tensor,
    convert,
    dtype,
    from_dlpack,
)
from .registry import (
    get_global_func,
    get_global_func_metadata,
    init_ffi_api,
    list_global_func_names,
    register_global_func,
    register_object,
    remove_global_func,
)
from .error import register_error
from .container import Array, Dict, List, Map
from .module import Module, load_module, system_lib

__version__ = "0.1.0"

__all__ = [
    "Array", "Bytes", "DLDeviceType", "Device", "Dict", "Function", "List", "Map", "Module",
    "Object", "Shape", "SignatureFunction", "String", "Tensor", "__version__", "convert", "device", "dtype",
    "from_dlpack", "get_global_func", "get_global_func_metadata", "init_ffi_api",
    "list_global_func_names", "load_module", "register_error", "register_global_func",
    "register_object", "remove_global_func", "system_lib",
]


try:
    from .core import device
except ImportError:  # an extension without its own device(): the constructor does the same
    def device(device_type, index=None) -> Device:
        """A Device from a type (a name such as "cpu" or "cuda", a DLDeviceType / int, or a
        Device) and an index (default 0), or from a string "name:index" such as "cuda:1"."""
        return Device(device_type, index)
