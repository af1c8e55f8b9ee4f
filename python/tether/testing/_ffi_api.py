"""Every global function named ``testing.<name>`` as attribute ``<name>`` of this module."""
from ..registry import init_ffi_api, list_global_func_names

init_ffi_api("testing", __name__)

__all__ = sorted(n[len("testing."):] for n in list_global_func_names()
                 if n.startswith("testing.") and "." not in n[len("testing."):])
