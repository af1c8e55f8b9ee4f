"""to_cpp_dtype: the C/C++ type that holds one element of a dtype, for generating kernels."""
from __future__ import annotations

import sys
from typing import Any, Optional

__all__ = ["to_cpp_dtype"]

# (dtype name, C type on the host, CUDA type, ROCm type); None where there is none.
_TABLE = (
    ("bool", "bool", None, None),
    ("int8", "int8_t", None, None),
    ("int16", "int16_t", None, None),
    ("int32", "int32_t", None, None),
    ("int64", "int64_t", None, None),
    ("uint8", "uint8_t", None, None),
    ("uint16", "uint16_t", None, None),
    ("uint32", "uint32_t", None, None),
    ("uint64", "uint64_t", None, None),
    ("float32", "float", None, None),
    ("float64", "double", None, None),
    ("float16", None, "__half", "__half"),
    ("bfloat16", None, "__nv_bfloat16", "__hip_bfloat16"),
    ("float8_e4m3fn", None, "__nv_fp8_e4m3", "__hip_fp8_e4m3"),
    ("float8_e4m3fnuz", None, None, "__hip_fp8_e4m3_fnuz"),
    ("float8_e5m2", None, "__nv_fp8_e5m2", "__hip_fp8_e5m2"),
    ("float8_e5m2fnuz", None, None, "__hip_fp8_e5m2_fnuz"),
    ("float8_e8m0fnu", None, "__nv_fp8_e8m0", None),
    ("float4_e2m1", None, "__nv_fp4_e2m1", "__hip_fp4_e2m1"),
    ("float4_e2m1fn_x2", None, "__nv_fp4x2_e2m1", "__hip_fp4x2_e2m1"),
)
_COLUMN = {"cpu": 1, "cuda": 2, "rocm": 3}


def _detect_backend() -> str:
    """"cuda" or "rocm" when an already imported torch sees such a GPU, else "cpu"."""
    torch = sys.modules.get("torch")
    try:
        if torch is not None and torch.cuda.is_available():
            return "rocm" if getattr(torch.version, "hip", None) else "cuda"
    except Exception:
        pass
    return "cpu"


def to_cpp_dtype(dtype: Any, backend: Optional[str] = None) -> str:
    """The C++ element type of `dtype` (a name such as "float32", a tether dtype, or a
    torch.dtype).  Host types always; the GPU types (__half, __nv_bfloat16, ...) for
    backend "cuda" / "rocm" (default: detected from torch).  ValueError otherwise."""
    name = str(dtype)
    if name.startswith("torch."):
        name = name[len("torch."):]
    backend = backend or _detect_backend()
    if backend not in _COLUMN:
        raise ValueError(f"to_cpp_dtype: unknown backend {backend!r}")
    for row in _TABLE:
        if row[0] == name:
            found = row[1] or (row[_COLUMN[backend]] if backend != "cpu" else None)
            if found:
                return found
            break
    raise ValueError(f"to_cpp_dtype: no C++ type for dtype {name!r} on backend {backend!r}")
