"""The `ffi.*` global functions as attributes of this module (``_ffi_api.DeepCopy``, ...)."""
from .registry import init_ffi_api as _init_ffi_api

_init_ffi_api("ffi", __name__)
