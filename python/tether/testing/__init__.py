"""tether.testing: the Python side of libtether_testing (loaded with tether.core).

Every ``testing.*`` global is an attribute of this package (from ._ffi_api); the classes in
.testing bind the library's reflected test types; run_with_gpu_lock serializes tests that
use a machine-local device across processes.
"""
from ._ffi_api import *  # noqa: F401,F403
from ._ffi_api import __all__ as _ffi_names
from ._locking import run_with_gpu_lock
from .testing import *  # noqa: F401,F403
from .testing import __all__ as _class_names

__all__ = sorted(set(_ffi_names) | set(_class_names) | {"run_with_gpu_lock"})
del _ffi_names, _class_names
