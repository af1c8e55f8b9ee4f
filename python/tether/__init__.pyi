# Type stubs of the public API of the `tether` package.
from types import ModuleType
from typing import Any, Callable, Dict as _PyDict, List as _PyList, Optional, Type, TypeVar, \
    Union, overload

from . import core as core
from .container import Array as Array, Dict as Dict, List as List, Map as Map
from .core import (
    Bytes as Bytes,
    Device as Device,
    DLDeviceType as DLDeviceType,
    Function as Function,
    SignatureFunction as SignatureFunction,
    Object as Object,
    Shape as Shape,
    String as String,
    Tensor as Tensor,
    convert as convert,
    device as device,
    dtype as dtype,
    from_dlpack as from_dlpack,
)
from .module import Module as Module, load_module as load_module, system_lib as system_lib

_F = TypeVar("_F", bound=Callable[..., Any])
_C = TypeVar("_C", bound=type)
_E = TypeVar("_E", bound=Type[BaseException])

__version__: str
__all__: _PyList[str]

def get_global_func(name: str, allow_missing: bool = False) -> Function: ...
@overload
def register_global_func(func_name: str, f: None = None,
                         override: bool = False) -> Callable[[Callable[..., Any]], Function]: ...
@overload
def register_global_func(func_name: str, f: Callable[..., Any], override: bool = False) -> Function: ...
@overload
def register_global_func(func_name: Callable[..., Any], f: None = None,
                         override: bool = False) -> Function: ...
def remove_global_func(name: str) -> bool: ...
def list_global_func_names() -> _PyList[str]: ...
def get_global_func_metadata(name: str) -> _PyDict[str, Any]: ...
def init_ffi_api(namespace: str, target_module: Union[str, ModuleType, None] = None) -> None: ...
@overload
def register_object(type_key: str) -> Callable[[_C], _C]: ...
@overload
def register_object(type_key: None = None) -> Callable[[_C], _C]: ...
@overload
def register_object(type_key: _C) -> _C: ...
@overload
def register_error(name_or_cls: str, cls: _E) -> _E: ...
@overload
def register_error(name_or_cls: str, cls: None = None) -> Callable[[_E], _E]: ...
@overload
def register_error(name_or_cls: _E, cls: None = None) -> _E: ...
