"""Where the installed package keeps its C parts: tether/lib (libtether.so.0, libtether.so,
libtether_testing.so, libtvm_ffi.so) and tether/include (tether/*.h, tvm/ffi/c_api.h,
dlpack/dlpack.h).

Two sets of names: tether's own (find_libdir, find_includedir, cflags, ... used by
`python -m tether`), and the names tvm-ffi's libinfo has (find_include_path,
find_libtvm_ffi, ... used by `python -m tether.config` and tether.cpp), answered with
tether's files: code built "against tvm-ffi" through them links tether's libtvm_ffi.so
alias.  tether ships no C++ headers; find_tvm_ffi_cxx_include_path finds those of an
installed apache-tvm-ffi, for C++ sources that use them.

Everything is found relative to the extension module tether.core, which lives in the
installed package directory next to lib/ and include/ (in an editable install the .py files
stay in the source tree while tether.core and its companions are installed into
site-packages, so the package's own __file__ would be the wrong anchor).
"""
import importlib.util
import os
import sys
from pathlib import Path
from typing import List, Optional

__all__ = ["find_package_dir", "find_libdir", "find_includedir", "find_libfiles",
           "cflags", "ldflags", "libs",
           "find_include_path", "find_dlpack_include_path", "find_libtvm_ffi",
           "find_cython_lib", "find_cmake_path", "find_source_path",
           "find_python_helper_include_path", "find_windows_implib", "include_paths",
           "find_tvm_ffi_cxx_include_path", "load_lib_ctypes", "load_lib_module"]


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


# ---- the names of tvm-ffi's libinfo, answered with tether's files ----

def _lib_names(target_name: str) -> tuple:
    if sys.platform.startswith("win32"):
        return (f"{target_name}.dll",)
    if sys.platform.startswith("darwin"):
        return (f"lib{target_name}.dylib", f"lib{target_name}.so")
    return (f"lib{target_name}.so",)


def _env_dirs(*names: str) -> List[Path]:
    dirs = []
    for name in names:
        dirs += [Path(p) for p in os.environ.get(name, "").split(os.pathsep) if p.strip()]
    return dirs


def _find_library_by_basename(package: str, target_name: str,
                              extra_lib_paths: Optional[List[Path]] = None, *,
                              use_fallback_build_path: bool = True,
                              use_env_path: bool = True) -> Path:
    """The resolved path of the shared library `target_name` (a basename: "tvm_ffi" is
    libtvm_ffi.so here).  Searched in order: the files the installed distribution `package`
    recorded, `extra_lib_paths` (pathlib.Path directories), tether's own lib/ (when
    use_fallback_build_path), then LD_LIBRARY_PATH / DYLD_LIBRARY_PATH and PATH (when
    use_env_path).  RuntimeError listing every directory searched if none has it."""
    for i, p in enumerate(extra_lib_paths or ()):
        if not isinstance(p, Path):
            raise TypeError(f"_find_library_by_basename: extra_lib_paths[{i}] must be a "
                            f"pathlib.Path, got {type(p).__name__}: {p!r}")
    names = _lib_names(target_name)
    try:
        import importlib.metadata as metadata
        dist = metadata.distribution(package)
        for record in dist.files or ():
            if record.name in names:
                path = Path(dist.locate_file(record)).resolve()
                if path.is_file():
                    return path
    except Exception:  # not installed, or without a file list: search the directories
        pass
    dirs: List[Path] = list(extra_lib_paths or ())
    if use_fallback_build_path:
        try:
            dirs.append(Path(find_libdir()))
        except RuntimeError:
            pass
    if use_env_path:
        dirs += _env_dirs("DYLD_LIBRARY_PATH" if sys.platform == "darwin" else
                          "LD_LIBRARY_PATH", "PATH")
    for d in dirs:
        for name in names:
            try:
                path = (d / name).resolve()
            except OSError:
                continue
            if path.is_file():
                return path
    raise RuntimeError(f"cannot find {' or '.join(names)}; searched:\n  " +
                       "\n  ".join(str(d) for d in dirs))


def find_libtvm_ffi() -> str:
    """tether's libtvm_ffi.so: the alias of libtether that code linked with -ltvm_ffi
    loads (it answers to tvm-ffi's SONAME)."""
    path = Path(find_libdir()) / _lib_names("tvm_ffi")[0]
    if not path.is_file():
        raise RuntimeError(f"tether: no {path.name} in {path.parent}")
    return str(path)


def find_windows_implib() -> str:
    raise RuntimeError("tether is built for POSIX systems only: there is no tvm_ffi.lib")


def find_include_path() -> str:
    """tether's include directory (tvm/ffi/c_api.h, tether/*.h, dlpack/dlpack.h)."""
    path = find_includedir()
    if not os.path.isdir(path):
        raise RuntimeError(f"tether: no include directory at {path}")
    return path


def find_dlpack_include_path() -> str:
    """The directory holding dlpack/dlpack.h (tether's include directory)."""
    path = find_include_path()
    if not os.path.isdir(os.path.join(path, "dlpack")):
        raise RuntimeError(f"tether: no dlpack/ in {path}")
    return path


def include_paths() -> List[str]:
    """The include directories to compile against tether, without duplicates."""
    return sorted({find_include_path(), find_dlpack_include_path(),
                   find_python_helper_include_path()})


def find_cython_lib() -> str:
    """The file of the compiled Python binding (tether.core, which is C, not Cython)."""
    spec = importlib.util.find_spec("tether.core")
    if spec is None or spec.origin is None:
        raise RuntimeError("tether: the extension module tether.core is not installed")
    return str(Path(spec.origin).resolve())


def find_cmake_path() -> str:
    """The directory of tether's CMake package files (share/cmake/tvm_ffi, when installed)."""
    path = Path(find_package_dir()) / "share" / "cmake" / "tvm_ffi"
    if not path.is_dir():
        raise RuntimeError(f"tether: this installation has no CMake package files ({path})")
    return str(path)


def find_source_path() -> str:
    """The directory holding libtether's C sources (src/ffi/*.c, *.h) next to include/: the
    installed package directory (the package ships them) or the root of a source checkout.
    With it a project can compile the runtime into its own binary instead of linking
    libtether.so:
        cc -std=c11 -D_GNU_SOURCE -DTETHER_BUILD_CORE -I<dir>/include <dir>/src/ffi/*.c ...
        -lpthread -ldl
    """
    for base in (Path(find_package_dir()), Path(__file__).resolve().parent):
        for root in (base, base.parent, base.parent.parent):
            if (root / "src" / "ffi").is_dir() and (root / "include" / "tether").is_dir():
                return str(root)
    raise RuntimeError("tether: found neither the package's src/ffi nor a source checkout")


def find_python_helper_include_path() -> str:
    """The directory of tvm_ffi_python_helpers.h, the C API tether.core offers other CPython
    extensions (converting between Python objects and TVMFFIAny by tether's rules, raising
    an FFI error as the Python exception tether raises): the package's include directory."""
    path = find_include_path()
    if not os.path.isfile(os.path.join(path, "tvm_ffi_python_helpers.h")):
        raise RuntimeError(f"tether: no tvm_ffi_python_helpers.h in {path}")
    return path


def find_tvm_ffi_cxx_include_path() -> Optional[str]:
    """The include directory of an installed apache-tvm-ffi (its C++ headers, tvm/ffi/*.h),
    found from the distribution's metadata without importing tvm_ffi; None when absent.
    TETHER_TVM_FFI_INCLUDE_DIR, when set, is used instead."""
    override = os.environ.get("TETHER_TVM_FFI_INCLUDE_DIR")
    if override:
        return override if os.path.isfile(os.path.join(override, "tvm", "ffi",
                                                       "function.h")) else None
    try:
        import importlib.metadata as metadata
        dist = metadata.distribution("apache-tvm-ffi")
    except Exception:
        return None
    path = Path(dist.locate_file("tvm_ffi/include"))
    return str(path.resolve()) if (path / "tvm" / "ffi" / "function.h").is_file() else None


def load_lib_ctypes(package: str, target_name: str, mode: str = "RTLD_LOCAL"):
    """ctypes.CDLL of the library `target_name` of `package` (found as
    _find_library_by_basename does), loaded with dlopen mode `mode`."""
    import ctypes
    path = _find_library_by_basename(package, target_name)
    return ctypes.CDLL(str(path), getattr(ctypes, mode))


def load_lib_module(package: str, target_name: str, keep_module_alive: bool = True):
    """The library `target_name` of `package` loaded as a tether Module."""
    from .module import load_module
    path = _find_library_by_basename(package, target_name)
    return load_module(str(path), keep_module_alive=keep_module_alive)
