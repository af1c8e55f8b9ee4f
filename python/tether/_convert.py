"""convert_func: a Python callable as an ffi.Function, optionally receiving its tensor
arguments as a framework's tensors."""
from __future__ import annotations

from . import core

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Optional

__all__ = ["convert_func"]


def convert_func(pyfunc: Callable[..., Any], tensor_cls: Optional[type] = None) -> core.Function:
    """`pyfunc` as a Function.  With `tensor_cls` (a tensor class with a DLPack exchange API,
    ``__dlpack_c_exchange_api__``, such as torch.Tensor), every Tensor argument reaches
    `pyfunc` as a `tensor_cls` tensor sharing its memory.  TypeError if `tensor_cls` has no
    such API."""
    if tensor_cls is None:
        return core.Function(pyfunc)
    api = getattr(tensor_cls, "__dlpack_c_exchange_api__", None)
    if api is None:
        raise TypeError(f"convert_func: tensor_cls {tensor_cls!r} has no "
                        "__dlpack_c_exchange_api__ (a DLPack exchange API capsule)")
    to_framework = core._tensor_to_framework
    tensor_type = core.Tensor

    def call(*args: Any) -> Any:
        return pyfunc(*[to_framework(a, api) if isinstance(a, tensor_type) else a
                        for a in args])

    call.__name__ = getattr(pyfunc, "__name__", "call")
    return core.Function(call)
