"""The current stream of a device, as kernels read it (TVMFFIEnvGetStream).

``with use_raw_stream(device, stream): ...`` makes `stream` (an address, as an int or a
ctypes.c_void_p) the current stream of `device` for the block, and restores the previous
one after; blocks nest.  ``get_raw_stream(device)`` reads the current one (0 if none).
``use_torch_stream()`` follows torch's current CUDA stream (or a torch stream context).
"""
from __future__ import annotations

from . import core

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Optional

__all__ = ["StreamContext", "get_raw_stream", "use_raw_stream", "use_torch_stream"]


def _address(stream: Any) -> int:
    value = getattr(stream, "value", stream)  # a ctypes.c_void_p, or an int
    if value is None:
        return 0
    if not isinstance(value, int):
        raise TypeError(f"stream must be an int or a ctypes.c_void_p, got {type(stream).__name__}")
    return value


class StreamContext:
    """A context manager making `stream` the current stream of `device` inside its block."""

    def __init__(self, device: core.Device, stream: Any) -> None:
        self.device_type = int(device.dlpack_device_type())
        self.device_id = device.index
        self.stream = _address(stream)
        self.prev_stream: Optional[int] = None

    def __enter__(self) -> StreamContext:
        self.prev_stream = core._env_set_current_stream(self.device_type, self.device_id,
                                                        self.stream)
        return self

    def __exit__(self, *exc: Any) -> None:
        core._env_set_current_stream(self.device_type, self.device_id, self.prev_stream)


def use_raw_stream(device: core.Device, stream: Any) -> StreamContext:
    """A StreamContext for `device` and the raw stream address `stream`."""
    if not isinstance(device, core.Device):
        raise TypeError(f"use_raw_stream: device must be a Device, got {type(device).__name__}")
    return StreamContext(device, stream)


def get_raw_stream(device: core.Device) -> int:
    """The current stream address of `device` (0 when none is set)."""
    if not isinstance(device, core.Device):
        raise TypeError(f"get_raw_stream: device must be a Device, got {type(device).__name__}")
    return core._env_get_current_stream(int(device.dlpack_device_type()), device.index)


class _TorchStreamContext:
    """Enters a torch stream context (if any), then makes torch's current CUDA stream the
    current stream of its device for the block."""

    def __init__(self, context: Any) -> None:
        self.torch_context = context
        self.inner: Optional[StreamContext] = None

    def __enter__(self) -> _TorchStreamContext:
        import torch

        if self.torch_context is not None:
            self.torch_context.__enter__()
        stream = torch.cuda.current_stream()
        device = core.device("cuda", stream.device.index or 0)
        self.inner = StreamContext(device, stream.cuda_stream)
        self.inner.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.inner is not None:
            self.inner.__exit__(*exc)
        if self.torch_context is not None:
            self.torch_context.__exit__(*exc)


def use_torch_stream(context: Any = None) -> _TorchStreamContext:
    """Follow torch's current CUDA stream inside the block (entering `context`, a
    torch.cuda.stream(...) or graph context, first when given)."""
    return _TorchStreamContext(context)
