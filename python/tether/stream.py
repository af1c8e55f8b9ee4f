"""The current stream of a device, as kernels read it with TVMFFIEnvGetStream: set it for a
block of code with use_raw_stream (a raw handle such as a cudaStream_t as an int) or
use_torch_stream (torch's current CUDA stream), read it with get_raw_stream.

    with tether.use_raw_stream(tether.device("cuda:0"), handle):
        kernel(x, y)        # TVMFFIEnvGetStream(kDLCUDA, 0) == handle inside
"""
from __future__ import annotations

from ctypes import c_void_p
from typing import Any, Optional, Union

from . import core

__all__ = ["StreamContext", "get_raw_stream", "use_raw_stream", "use_torch_stream"]


def _handle(stream: Union[int, c_void_p, None]) -> int:
    if isinstance(stream, c_void_p):
        return stream.value or 0
    return int(stream or 0)


class StreamContext:
    """Makes `stream` the current stream of `device` while the block runs; the previous
    stream is restored on exit."""

    def __init__(self, device: core.Device, stream: Union[int, c_void_p]) -> None:
        self.device_type = int(device.dlpack_device_type())
        self.device_id = int(device.index)
        self.stream = _handle(stream)
        self.prev_stream: Optional[int] = None

    def __enter__(self) -> "StreamContext":
        self.prev_stream = core._env_set_current_stream(self.device_type, self.device_id,
                                                        self.stream)
        return self

    def __exit__(self, *exc: Any) -> None:
        core._env_set_current_stream(self.device_type, self.device_id, self.prev_stream or 0)


def use_raw_stream(device: core.Device, stream: Union[int, c_void_p]) -> StreamContext:
    """A StreamContext for a raw stream handle (an int or a ctypes.c_void_p)."""
    if not isinstance(stream, (int, c_void_p)):
        raise ValueError(f"use_raw_stream: the stream must be an int or ctypes.c_void_p "
                         f"handle, got {type(stream).__name__}; use use_torch_stream for "
                         "torch streams and graphs")
    return StreamContext(device, stream)


def get_raw_stream(device: core.Device) -> int:
    """The current stream of `device` as an int (0: the default stream)."""
    return core._env_get_current_stream(int(device.dlpack_device_type()), int(device.index))


class TorchStreamContext:
    """Enters `context` (a torch stream or graph context, or None), then makes torch's
    current CUDA stream the current stream of its device until exit."""

    def __init__(self, context: Any) -> None:
        self.torch_context = context
        self.ffi_context: Optional[StreamContext] = None

    def __enter__(self) -> "TorchStreamContext":
        import torch
        if self.torch_context is not None:
            self.torch_context.__enter__()
        current = torch.cuda.current_stream()
        self.ffi_context = StreamContext(core.device(str(current.device)), current.cuda_stream)
        self.ffi_context.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.torch_context is not None:
            self.torch_context.__exit__(*exc)
        if self.ffi_context is not None:
            self.ffi_context.__exit__(*exc)


def use_torch_stream(context: Any = None) -> TorchStreamContext:
    """A context that follows torch's CUDA stream: `context` is e.g.
    torch.cuda.stream(s) or torch.cuda.graph(g); None uses torch's current stream."""
    try:
        import torch  # noqa: F401
    except ImportError:
        raise ImportError("use_torch_stream needs torch") from None
    return TorchStreamContext(context)
