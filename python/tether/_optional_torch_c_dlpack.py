"""Give torch.Tensor a DLPack exchange API (``__dlpack_c_exchange_api__``) when torch lacks one.

tether passes a torch tensor to C, and hands torch tensors back, through the table of C
functions that a tensor class advertises as ``__dlpack_c_exchange_api__`` (a PyCapsule named
"dlpack_exchange_api").  torch 2.9 and later define it; for older torch this module supplies
one: from the ``torch_c_dlpack_ext`` package when installed, else from a small C++ addon
built once against the installed torch (utils/_build_optional_torch_c_dlpack.py) and kept in
$TVM_FFI_CACHE_DIR (default ~/.cache/tvm-ffi).  Importing the module does this, unless
TVM_FFI_DISABLE_TORCH_C_DLPACK is set to something other than "0"; it never raises.
"""
from __future__ import annotations

import ctypes
import hashlib
import os
import subprocess
import sys
import warnings
from pathlib import Path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_CAPSULE_NAME = b"dlpack_exchange_api"


def _torch_extension_device(torch_module: Any) -> str:
    """The backend the addon is built for: "cpu" without a GPU, else "rocm" for a HIP build
    of torch and "cuda" otherwise."""
    if not torch_module.cuda.is_available():
        return "cpu"
    version = torch_module.version
    if getattr(version, "cuda", None) is None and getattr(version, "hip", None) is not None:
        return "rocm"
    return "cuda"


def _create_dlpack_exchange_api_capsule(ptr_as_int: int) -> Any:
    """A PyCapsule named "dlpack_exchange_api" holding the address `ptr_as_int`."""
    new_capsule = ctypes.pythonapi.PyCapsule_New
    new_capsule.restype = ctypes.py_object
    new_capsule.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    return new_capsule(ctypes.c_void_p(ptr_as_int), _CAPSULE_NAME, None)


def _check_and_update_dlpack_c_exchange_api(tensor_cls: object) -> bool:
    """Whether `tensor_cls` has ``__dlpack_c_exchange_api__``; an older spelling
    (``__c_dlpack_exchange_api__``, a capsule or an address) is copied to it first."""
    if hasattr(tensor_cls, "__dlpack_c_exchange_api__"):
        return True
    legacy = getattr(tensor_cls, "__c_dlpack_exchange_api__", None)
    if legacy is None:
        return False
    if isinstance(legacy, int):
        legacy = _create_dlpack_exchange_api_capsule(legacy)
    setattr(tensor_cls, "__dlpack_c_exchange_api__", legacy)
    return True


def _addon_path(torch_module: Any) -> Path:
    """Where the addon for this exact torch build lives: the name carries the torch
    major.minor, the backend and a digest of the full version and C++ ABI, so that two
    incompatible builds never share a cached library."""
    cache = Path(os.environ.get("TVM_FFI_CACHE_DIR", "~/.cache/tvm-ffi")).expanduser()
    major, minor = torch_module.__version__.split(".")[:2]
    build_id = f"{torch_module.__version__}|cxx11abi={int(torch_module.compiled_with_cxx11_abi())}"
    digest = hashlib.sha256(build_id.encode()).hexdigest()[:8]
    suffix = ".dll" if sys.platform.startswith("win") else ".so"
    device = _torch_extension_device(torch_module)
    return cache / f"libtorch_c_dlpack_addon_torch{major}{minor}-{device}-{digest}{suffix}"


def _build_addon(torch_module: Any, lib_path: Path) -> None:
    script = Path(__file__).parent / "utils" / "_build_optional_torch_c_dlpack.py"
    cmd = [sys.executable, str(script), "--output-dir", str(lib_path.parent),
           "--libname", lib_path.name]
    device = _torch_extension_device(torch_module)
    if device != "cpu":
        cmd.append(f"--build-with-{device}")
    done = subprocess.run(cmd, check=False, capture_output=True)
    if done.returncode != 0 or not lib_path.exists():
        raise RuntimeError(f"building the torch DLPack addon failed ({done.returncode}):\n"
                           f"{done.stdout.decode(errors='replace')}\n"
                           f"{done.stderr.decode(errors='replace')}")


def load_torch_c_dlpack_extension() -> Any:
    """Make sure torch.Tensor has ``__dlpack_c_exchange_api__``.  Returns the addon library
    when one was loaded (keep it referenced), else None (torch has the API itself, the
    ``torch_c_dlpack_ext`` package gave it, torch is not installed, or building failed,
    which warns)."""
    try:
        import torch
        import torch.version  # noqa: F401
    except ImportError:
        return None
    if _check_and_update_dlpack_c_exchange_api(torch.Tensor):
        return None
    try:
        import torch_c_dlpack_ext  # noqa: F401

        if _check_and_update_dlpack_c_exchange_api(torch.Tensor):
            return None
    except (ImportError, AttributeError):  # absent, or built for another torch ABI
        pass
    try:
        lib_path = _addon_path(torch)
        if not lib_path.exists():
            _build_addon(torch, lib_path)
        lib = ctypes.CDLL(str(lib_path))
        entry = lib.TorchDLPackExchangeAPIPtr
        entry.restype = ctypes.c_uint64
        entry.argtypes = []
        setattr(torch.Tensor, "__dlpack_c_exchange_api__",
                _create_dlpack_exchange_api_capsule(entry()))
        return lib
    except Exception as err:  # noqa: BLE001 -- an optional speed-up must never break import
        warnings.warn(f"tether: no DLPack exchange API for torch ({err}); torch tensors "
                      "still pass through __dlpack__. `pip install torch-c-dlpack-ext` "
                      "provides one without building.")
    return None


def patch_torch_cuda_stream_protocol() -> None:
    """Give torch.cuda.Stream the ``__cuda_stream__`` protocol when it lacks it."""
    try:
        import torch
    except ImportError:
        return
    if not torch.cuda.is_available() or hasattr(torch.cuda.Stream, "__cuda_stream__"):
        return

    def __cuda_stream__(self: Any) -> tuple:
        return (0, self.cuda_stream)

    torch.cuda.Stream.__cuda_stream__ = __cuda_stream__


if os.environ.get("TVM_FFI_DISABLE_TORCH_C_DLPACK", "0") == "0":
    _LIB = load_torch_c_dlpack_extension()
    patch_torch_cuda_stream_protocol()
