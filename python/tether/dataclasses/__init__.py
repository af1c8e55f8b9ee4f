"""FFI dataclasses: `@c_class` binds a Python class to a type defined in C with dataclass
behaviour; `@py_class` defines a new FFI type from a Python class body.  Both keep their
fields in the C object, so other languages see the same data.  The `dataclasses`-module
helpers (`fields`, `asdict`, `astuple`, `replace`, `is_dataclass`) and enum singletons
(`Enum`, `IntEnum`, `StrEnum`) work over both.
"""
from ..core import MISSING, Object
from .c_class import c_class
from .common import asdict, astuple, fields, is_dataclass, replace
from .field import KW_ONLY, Field, field, init_property
from .gen_abi_cpp import gen_abi_cpp
from .py_class import py_class

__all__ = [
    "KW_ONLY", "MISSING", "Enum", "EnumAttrMap", "EnumState", "Field", "IntEnum", "Object",
    "StrEnum", "asdict", "astuple", "auto", "c_class", "entry", "field", "fields",
    "gen_abi_cpp", "init_property", "is_dataclass", "py_class", "replace",
]

# The enum classes bind FFI types at import: they load on first use.
_LAZY = {"Enum": "enum", "EnumAttrMap": "enum", "EnumState": "enum", "IntEnum": "enum",
         "StrEnum": "enum", "auto": "enum", "entry": "enum"}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
