"""Where the installed package keeps its C parts: tether/lib (libtether.so.0, libtether.so,
libtether_testing.so, libtvm_ffi.so) and tether/include (tether/*.h, tvm/ffi/c_api.h,
dlpack/dlpack.h).

Everything is found relative to the extension module tether.core, which lives in the
installed package directory next to lib/ and include/ (in an editable install the .py files
stay in the source tree while tether.core and its companions are installed into
site-packages, so the package's own __file__ would be the wrong anchor).
"""
import importlib.util
import os
from typing import List

__all__ = ["find_package_dir", "find_libdir", "find_includedir", "find_libfiles",
           "cflags", "ldflags", "libs"]


def find_package_dir() -> str:
    """The directory holding tether.core (and lib/, include/)."""
    spec = importlib.util.find_spec("tether.core")
    if spec is None or spec.origin is None:
        raise RuntimeError("tether: the extension module tether.core is not installed")
    return os.path.dirname(os.path.abspath(spec.origin))


def find_libdir() -> str:
    """Directory of libtether.so and its companions."""
    return os.path.join(find_package_dir(), "lib")


def find_includedir() -> str:
    """Directory to put on the include path: tether/*.h, tvm/ffi/c_api.h, dlpack/dlpack.h."""
    return os.path.join(find_package_dir(), "include")


def find_libfiles() -> List[str]:
    """Full path of the runtime library (the file the extension itself loads)."""
    libdir = find_libdir()
    names = sorted(n for n in os.listdir(libdir) if n.startswith("libtether.so."))
    if not names:
        raise RuntimeError(f"tether: no libtether.so.* in {libdir}")
    return [os.path.join(libdir, names[0])]


def cflags() -> str:
    return f"-I{find_includedir()}"


def ldflags() -> str:
    libdir = find_libdir()
    return f"-L{libdir} -Wl,-rpath,{libdir}"


def libs() -> str:
    return "-ltether"
