"""The Rust target of the stub generator: ``#[repr(C)]`` bindings for the ``tvm_ffi`` crate."""
from .generator import RustGenerator

__all__ = ["RustGenerator"]
