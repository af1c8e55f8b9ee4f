"""`python -m tether --includedir/--libdir/--cflags/--ldflags/--libs/...`: the compiler and
linker flags for building C kernels and programs against the installed tether (the role of
tvm-ffi's `python -m tvm_ffi.config`).  Each requested item is printed on its own line, in
the order of the options below; with no option the usage is printed.

    cc -shared -fPIC $(python -m tether --cflags) kernel.c -o kernel.so \\
       $(python -m tether --ldflags --libs)
"""
import argparse
import sys

from . import __version__, libinfo


def run_cli(prog: str, description: str, items, argv=None) -> int:
    """Parse `argv` against `items`, a table of (flag, help, function), and print what the
    function of each given flag returns, one line each, in table order (the usage when no
    flag is given).  Shared with `python -m tether.config`."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    for flag, text, _ in items:
        parser.add_argument(flag, action="store_true", help=text)
    args = parser.parse_args(argv)
    chosen = [fn for flag, _, fn in items if getattr(args, flag[2:].replace("-", "_"))]
    if not chosen:
        parser.print_help()
        return 0
    for fn in chosen:
        print(fn())
    return 0


def main(argv=None) -> int:
    items = [
        ("--includedir", "Print the include directory (tether/*.h, tvm/ffi/c_api.h)",
         libinfo.find_includedir),
        ("--dlpack-includedir", "Print the directory holding dlpack/dlpack.h",
         libinfo.find_includedir),
        ("--libdir", "Print the library directory", libinfo.find_libdir),
        ("--libfiles", "Print the full path of the runtime library",
         lambda: " ".join(libinfo.find_libfiles())),
        ("--libs", "Print the libraries to link", libinfo.libs),
        ("--cflags", "Print the C compiler flags", libinfo.cflags),
        ("--ldflags", "Print the linker flags (library path and rpath)", libinfo.ldflags),
        ("--version", "Print the package version", lambda: __version__),
    ]
    return run_cli("python -m tether",
                   "Print the configuration needed to compile and link against tether",
                   items, argv)


if __name__ == "__main__":
    sys.exit(main())
