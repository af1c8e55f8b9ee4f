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
from ._reflection import ObjectConvertible

from .core import (
    CContainerBase,
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
# ---- tools: structural comparison and traversal, access paths, streams ----
from . import access_path, structural
from .structural import (
    DefRegionKind, InplaceMode, StructuralKey, StructuralMutator, StructuralVisitor,
    VisitInterrupt, WalkOrder, WalkResult, get_first_structural_mismatch, structural_equal,
    structural_hash, structural_map, structural_mutate, structural_visit, structural_walk,
)
from .stream import StreamContext, get_raw_stream, use_raw_stream, use_torch_stream


def __getattr__(name):
    # tether.cpp and tether.utils are imported on first use (they pull in subprocess,
    # hashlib, json, ... which `import tether` itself does not need).
    if name in ("cpp", "utils"):
        import importlib
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'tether' has no attribute {name!r}")

__version__ = "0.1.0"

__all__ = [
    "Array", "Bytes", "CContainerBase", "DLDeviceType", "Device", "Dict", "Function", "List", "Map", "Module",
    "Object", "Shape", "SignatureFunction", "String", "Tensor", "__version__", "convert", "device", "dtype",
    "from_dlpack", "get_global_func", "get_global_func_metadata", "init_ffi_api",
    "list_global_func_names", "load_module", "register_error", "register_global_func",
    "register_object", "remove_global_func", "system_lib",
    # tools: structural comparison and traversal, access paths
    "access_path", "cpp", "structural", "DefRegionKind", "InplaceMode", "StructuralKey",
    "StructuralMutator", "StructuralVisitor", "VisitInterrupt", "WalkOrder", "WalkResult",
    "get_first_structural_mismatch", "structural_equal", "structural_hash", "structural_map",
    "structural_mutate", "structural_visit", "structural_walk",
    "StreamContext", "get_raw_stream", "use_raw_stream", "use_torch_stream",
]


try:
    from .core import device
except ImportError:  # an extension without its own device(): the constructor does the same
    def device(device_type, index=None) -> Device:
        """A Device from a type (a name such as "cpu" or "cuda", a DLDeviceType / int, or a
        Device) and an index (default 0), or from a string "name:index" such as "cuda:1"."""
        return Device(device_type, index)


# ---- type schemas: tvm_ffi.core's TypeSchema; its cold half (parsing, printing,
# annotations) is Python, its converter C (tether.core._build_converter).
from .typeschema import TypeSchema as _TypeSchema

core.TypeSchema = _TypeSchema
del _TypeSchema

# ---- FFI dataclasses (@c_class, @py_class) and the @method marker ----
from . import dataclasses, serialization
from .dataclasses.py_class import method

__all__ += ["dataclasses", "method"]

# ---- convert_func, and the dtype literals (tether.float32, ...) tvm_ffi has ----
from ._convert import convert_func

__all__ += ["convert_func"]

bool = dtype("bool")  # noqa: A001 (shadows the builtin inside this module only, as tvm_ffi)
int8, int16, int32, int64 = (dtype(f"int{b}") for b in (8, 16, 32, 64))
uint8, uint16, uint32, uint64 = (dtype(f"uint{b}") for b in (8, 16, 32, 64))
float16, float32, float64, bfloat16 = (dtype(n) for n in ("float16", "float32", "float64",
                                                          "bfloat16"))
float8_e3m4, float8_e4m3, float8_e4m3b11fnuz, float8_e4m3fn = (
    dtype(n) for n in ("float8_e3m4", "float8_e4m3", "float8_e4m3b11fnuz", "float8_e4m3fn"))
float8_e4m3fnuz, float8_e5m2, float8_e5m2fnuz, float8_e8m0fnu = (
    dtype(n) for n in ("float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz", "float8_e8m0fnu"))
float6_e2m3fn, float6_e3m2fn, float4_e2m1fn, float4_e2m1fnx2 = (
    dtype(n) for n in ("float6_e2m3fn", "float6_e3m2fn", "float4_e2m1fn", "float4_e2m1fnx2"))
