"""run_with_gpu_lock: one advisory file lock per machine, held while a test uses the GPU.

Test workers running in parallel (pytest -n) take the lock around the part of a test that
lives on the device, so they never share it.  The lock file is ``gpu.lock`` in
$TVM_FFI_TEST_LOCK_DIR, or else in a per-user folder of the temporary directory.
"""
from __future__ import annotations

import os
import tempfile

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, TypeVar

    R = TypeVar("R")

_lock_path = None


def _gpu_lock_path() -> str:
    global _lock_path
    if _lock_path is None:
        folder = os.environ.get("TVM_FFI_TEST_LOCK_DIR")
        if folder:
            folder = os.path.expanduser(folder)
        else:
            try:
                import getpass

                user = getpass.getuser()
            except Exception:  # no login name: fall back to the uid
                user = str(os.getuid()) if hasattr(os, "getuid") else "unknown"
            folder = os.path.join(tempfile.gettempdir(), f"tvm-ffi-test-locks-{user}")
        os.makedirs(folder, exist_ok=True)
        _lock_path = os.path.join(folder, "gpu.lock")
    return _lock_path


def run_with_gpu_lock(func: Callable[..., R], /, *args: Any, **kwargs: Any) -> R:
    """func(*args, **kwargs) with the machine's GPU lock held; returns what func returns."""
    fd = os.open(_gpu_lock_path(), os.O_RDWR | os.O_CREAT, 0o666)
    try:
        try:
            import fcntl
        except ImportError:  # no advisory locks on this platform: run unserialized
            fcntl = None
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            return func(*args, **kwargs)
        finally:
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
