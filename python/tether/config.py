"""`python -m tether.config --includedir/--libdir/--cflags/...`: the build configuration in
the terms of tvm-ffi's own `tvm_ffi.config` (same flags, same output forms), answered with
tether's files: code compiled with these flags includes tether's tvm/ffi/c_api.h and links
tether's libtvm_ffi.so alias.  `python -m tether` prints tether's native flags (-ltether,
with an rpath).
"""
import sys
from pathlib import Path

from . import libinfo


def _libdir() -> str:
    return str(Path(libinfo.find_libtvm_ffi()).parent)


def _include_flags() -> str:
    return f"-I{libinfo.find_include_path()} -I{libinfo.find_dlpack_include_path()}"


ITEMS = [
    ("--includedir", "Print the include directory", libinfo.find_include_path),
    ("--dlpack-includedir", "Print the directory of dlpack/dlpack.h",
     libinfo.find_dlpack_include_path),
    ("--cmakedir", "Print the directory of the CMake package files", libinfo.find_cmake_path),
    ("--libdir", "Print the library directory", _libdir),
    ("--libfiles", "Print the full path of the library to link", libinfo.find_libtvm_ffi),
    ("--sourcedir", "Print the source directory", libinfo.find_source_path),
    ("--cython-lib-path", "Print the path of the compiled Python binding (tether.core)",
     libinfo.find_cython_lib),
    ("--cxxflags", "Print the C++ compiler flags", lambda: f"{_include_flags()} -std=c++17"),
    ("--cflags", "Print the C compiler flags", _include_flags),
    ("--libs", "Print the libraries to link", lambda: "-ltvm_ffi"),
    ("--ldflags", "Print the linker flags", lambda: f"-L{_libdir()}"),
]


def main(argv=None) -> int:
    from .__main__ import run_cli
    return run_cli("python -m tether.config",
                   "Print the configuration needed to compile against tether as tvm-ffi",
                   ITEMS, argv)


if __name__ == "__main__":
    sys.exit(main())
