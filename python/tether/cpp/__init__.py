"""Building C/C++/CUDA sources into libraries and loading them: tether.cpp.build,
build_inline, load, load_inline (see tether.cpp.extension), and to_cpp_dtype."""
from .dtype import to_cpp_dtype
from .extension import build, build_inline, load, load_inline

__all__ = ["build", "build_inline", "load", "load_inline", "to_cpp_dtype"]
