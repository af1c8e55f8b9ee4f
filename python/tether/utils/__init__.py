"""Helpers of the tether package that are not about the FFI itself: a file lock for build
directories, generated keyword-argument wrappers, unpacking dataclasses into tuples, and
embedding a CUDA binary into an object file."""
from . import kwargs_wrapper
from .lockfile import FileLock

__all__ = ["FileLock", "kwargs_wrapper"]
