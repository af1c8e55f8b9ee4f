"""Packaging: `python -m tether` flags, the shared libraries and headers the installed
package carries and loads from its own directory, C code built against the install, and
a copy of the package that still works from another directory."""
import os
import re
import shutil
import subprocess
import sys

import pytest

import tether
from tether import core, libinfo


def run_config(*flags):
    out = subprocess.run([sys.executable, "-m", "tether", *flags], check=True,
                         capture_output=True, text=True).stdout
    return out.splitlines()


def test_version():
    assert re.fullmatch(r"\d+\.\d+\.\d+", tether.__version__)
    from importlib.metadata import version

    assert version("tether") == tether.__version__
    assert run_config("--version") == [tether.__version__]


def test_version_matches_cmake(repo_dir):
    with open(os.path.join(repo_dir, "CMakeLists.txt")) as f:
        m = re.search(r"project\(tether VERSION ([0-9.]+)", f.read())
    assert m and m.group(1) == tether.__version__


def test_config_no_flag_prints_usage():
    out = subprocess.run([sys.executable, "-m", "tether"], check=True, capture_output=True,
                         text=True).stdout
    assert "usage:" in out and "--includedir" in out and "--ldflags" in out


def test_config_bad_flag():
    r = subprocess.run([sys.executable, "-m", "tether", "--no-such-flag"], capture_output=True,
                       text=True)
    assert r.returncode == 2 and "unrecognized arguments" in r.stderr


def test_config_includedir_has_headers():
    (inc,) = run_config("--includedir")
    assert os.path.isabs(inc) and inc == libinfo.find_includedir()
    for header in ("tether/c_api.h", "tether/tether.h", "tether/dlpack.h", "tvm/ffi/c_api.h",
                   "tvm/ffi/extra/c_env_api.h", "dlpack/dlpack.h"):
        assert os.path.isfile(os.path.join(inc, header)), header
    assert run_config("--dlpack-includedir") == [inc]


def test_config_libdir_has_libraries():
    (libdir,) = run_config("--libdir")
    assert libdir == libinfo.find_libdir()
    names = set(os.listdir(libdir))
    for lib in ("libtether.so", "libtether.so.0", "libtether_testing.so", "libtvm_ffi.so"):
        assert lib in names, lib
    # One real runtime file: no second copy under another name.
    runtime = [n for n in names if n.startswith("libtether.so.")]
    assert runtime == ["libtether.so.0"]


def test_config_flags():
    inc, libdir = libinfo.find_includedir(), libinfo.find_libdir()
    assert run_config("--cflags") == [f"-I{inc}"]
    assert run_config("--libs") == ["-ltether"]
    (ld,) = run_config("--ldflags")
    assert f"-L{libdir}" in ld.split()
    # several flags: one line each, in the documented order
    assert run_config("--libs", "--includedir") == [inc, "-ltether"]


def test_config_libfiles_is_the_loaded_runtime():
    (libfile,) = run_config("--libfiles")
    assert os.path.realpath(libfile) == os.path.realpath(core._lib_path())


def _mapped_files():
    with open("/proc/self/maps") as f:
        return {line.split()[-1] for line in f if "/" in line.split()[-1]}


def test_runtime_loaded_from_the_package():
    libdir = os.path.realpath(libinfo.find_libdir())
    assert os.path.dirname(os.path.realpath(core._lib_path())) == libdir
    assert os.path.dirname(os.path.realpath(core.__file__)) == os.path.dirname(libdir)
    mapped = _mapped_files()
    tether_libs = [p for p in mapped if re.search(r"/libtether(_testing)?\.so", p)]
    assert sorted(os.path.dirname(os.path.realpath(p)) for p in tether_libs) == [libdir] * 2, \
        tether_libs


def test_testing_globals_always_present():
    # libtether_testing is a DT_NEEDED of tether.core (--no-as-needed).
    assert tether.get_global_func("testing.nop", allow_missing=True) is not None


@pytest.fixture(scope="module")
def built_kernel(tmp_path_factory, c_compiler, repo_dir):
    """examples/kernel/add_one_kernel.c compiled against the installed headers and libs."""
    out = str(tmp_path_factory.mktemp("kernel") / "add_one_from_install.so")
    cflags, = run_config("--cflags")
    ldflags, = run_config("--ldflags")
    libs, = run_config("--libs")
    cmd = [c_compiler, "-shared", "-fPIC", "-std=c11", *cflags.split(),
           os.path.join(repo_dir, "examples", "kernel", "add_one_kernel.c"), "-o", out,
           *ldflags.split(), *libs.split()]
    subprocess.run(cmd, check=True)
    return out


def test_kernel_built_against_install(built_kernel):
    np = pytest.importorskip("numpy")
    mod = tether.load_module(built_kernel)
    x = np.arange(4, dtype="float32")
    y = np.empty(4, dtype="float32")
    mod.add_one_cpu(x, y)
    assert list(y) == [1, 2, 3, 4]
    # linking with -ltether recorded the runtime's SONAME: no second runtime was loaded
    runtimes = [p for p in _mapped_files() if re.search(r"/libtether\.so", p)]
    assert len(runtimes) == 1, runtimes


def test_c_program_built_against_install(tmp_path, c_compiler):
    src = tmp_path / "prog.c"
    src.write_text(r'''
#include <stdio.h>
#include <string.h>
#include <tvm/ffi/c_api.h>
int main(void) {
  const char* name = "ffi.FunctionListGlobalNamesFunctor";
  TVMFFIByteArray n = {name, strlen(name)};
  TVMFFIObjectHandle f = NULL;
  if (TVMFFIFunctionGetGlobal(&n, &f) != 0 || f == NULL) return 1;
  TVMFFIObjectDecRef(f);
  puts("ok");
  return 0;
}
''')
    exe = str(tmp_path / "prog")
    cflags, = run_config("--cflags")
    ldflags, = run_config("--ldflags")
    libs, = run_config("--libs")
    subprocess.run([c_compiler, "-std=c11", *cflags.split(), str(src), "-o", exe,
                    *ldflags.split(), *libs.split()], check=True)
    env = dict(os.environ)
    env.pop("LD_LIBRARY_PATH", None)
    assert subprocess.run([exe], check=True, capture_output=True, text=True,
                          env=env).stdout == "ok\n"


def test_package_works_after_moving(tmp_path):
    """Copy the installed package somewhere else: it finds its libraries there."""
    pkg = tmp_path / "site" / "tether"
    shutil.copytree(os.path.dirname(core.__file__), str(pkg),
                    ignore=shutil.ignore_patterns("__pycache__"))
    # In an editable install the .py files live in the source tree: bring them along.
    for name in os.listdir(os.path.dirname(tether.__file__)):
        if name.endswith((".py", ".pyi")):
            shutil.copy(os.path.join(os.path.dirname(tether.__file__), name), str(pkg / name))
    code = ("import tether, tether.core as c; print(c._lib_path()); "
            "print(tether.get_global_func('testing.add_one')(1)); "
            "print(tether.system_lib('testing.').add_one(2))")
    env = dict(os.environ, PYTHONPATH=str(tmp_path / "site"))
    env.pop("LD_LIBRARY_PATH", None)
    # -S: no site-packages (and no editable-install hooks), only the copy.
    out = subprocess.run([sys.executable, "-S", "-c", code], check=True, capture_output=True,
                         text=True, env=env, cwd=str(tmp_path)).stdout.split()
    assert out[0] == str(pkg / "lib" / "libtether.so.0")
    assert out[1:] == ["2", "3"]
