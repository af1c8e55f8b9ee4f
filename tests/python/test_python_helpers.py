"""What the installed package gives other builds: libtether's C sources
(`python -m tether.config --sourcedir`), compiled into a program of their own, and
tvm_ffi_python_helpers.h, through which another CPython extension converts values and errors
exactly as tether.core does."""
import importlib.machinery
import importlib.util
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import tether
import tether.cpp
from tether import core, libinfo

PROGRAM = r"""
#include <stdio.h>
#include <tvm/ffi/c_api.h>
int main(void) {
  TVMFFIVersion v;
  TVMFFIGetVersion(&v);
  TVMFFIByteArray name = {"ffi.Array", 9};
  TVMFFIObjectHandle f = NULL;
  TVMFFIAny args[2] = {{0}, {0}}, out = {0};
  args[0].type_index = args[1].type_index = kTVMFFIInt;
  args[0].v_int64 = 4;
  args[1].v_int64 = 5;
  if (TVMFFIFunctionGetGlobal(&name, &f) != 0 || f == NULL) return 1;
  if (TVMFFIFunctionCall(f, args, 2, &out) != 0 || out.type_index != kTVMFFIArray) return 2;
  printf("%u.%u\n", v.major, v.minor);
  TVMFFIObjectDecRef(out.v_obj);
  TVMFFIObjectDecRef(f);
  return 0;
}
"""

EXTENSION = r"""
#include <tvm_ffi_python_helpers.h>

static const tether_py_capi* api;

/* roundtrip(x): x to an FFI value and back */
static PyObject* roundtrip(PyObject* self, PyObject* obj) {
  TVMFFIAny v;
  if (api->to_any(obj, &v) != 0) return NULL;
  return api->from_any_steal(&v);
}

/* type_index(x): the type index of x's FFI value */
static PyObject* type_index(PyObject* self, PyObject* obj) {
  TVMFFIAny v;
  if (api->to_any(obj, &v) != 0) return NULL;
  PyObject* r = PyLong_FromLong(v.type_index);
  Py_XDECREF(api->from_any_steal(&v)); /* releases v */
  return r;
}

/* call(f, x): f(x) through the C ABI, its errors raised as tether raises them */
static PyObject* call(PyObject* self, PyObject* args) {
  PyObject *f, *x;
  if (!PyArg_ParseTuple(args, "OO", &f, &x)) return NULL;
  TVMFFIAny fv, xv, out = {0};
  if (api->to_any(f, &fv) != 0) return NULL;
  if (api->to_any(x, &xv) != 0) {
    Py_XDECREF(api->from_any_steal(&fv));
    return NULL;
  }
  int rc = TVMFFIFunctionCall(fv.v_obj, &xv, 1, &out);
  PyObject* tmp = api->from_any_steal(&xv);
  Py_XDECREF(tmp);
  tmp = api->from_any_steal(&fv);
  Py_XDECREF(tmp);
  if (rc != 0) return api->raise_ffi_error();
  return api->from_any_steal(&out);
}

/* park(): a Python exception through the FFI's error slot and back */
static PyObject* park(PyObject* self, PyObject* unused) {
  PyErr_SetString(PyExc_KeyError, "parked");
  api->park_py_error();
  return api->raise_ffi_error();
}

static PyMethodDef methods[] = {
    {"roundtrip", roundtrip, METH_O, NULL},
    {"type_index", type_index, METH_O, NULL},
    {"call", call, METH_VARARGS, NULL},
    {"park", park, METH_NOARGS, NULL},
    {NULL},
};
static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, "helperext", NULL, -1, methods};

PyMODINIT_FUNC PyInit_helperext(void) {
  api = tether_py_import_capi();
  return api != NULL ? PyModule_Create(&def) : NULL;
}
"""


def test_sourcedir_holds_libtethers_sources():
    out = subprocess.run([sys.executable, "-m", "tether.config", "--sourcedir"], check=True,
                         capture_output=True, text=True).stdout.strip()
    assert out == libinfo.find_source_path()
    root = Path(out)
    assert (root / "src" / "ffi" / "lib.c").is_file()
    assert (root / "include" / "tether" / "c_api.h").is_file()


def test_shipped_sources_build_a_working_runtime(tmp_path):
    root = Path(libinfo.find_source_path())
    # an installed package has one include/; a source checkout adds compat/include (tvm/ffi)
    includes = [f"-I{d}" for d in (root / "include", root / "compat" / "include") if d.is_dir()]
    (tmp_path / "main.c").write_text(PROGRAM)
    prog = tmp_path / "prog"
    sources = sorted(str(p) for p in (root / "src" / "ffi").glob("*.c"))
    subprocess.run(["cc", "-std=c11", "-O0", "-D_GNU_SOURCE", "-DTETHER_BUILD_CORE", *includes,
                    *sources, str(tmp_path / "main.c"), "-o", str(prog), "-lpthread", "-ldl"],
                   check=True, capture_output=True)
    r = subprocess.run([str(prog)], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.strip().count(".") == 1


def test_python_helper_header_is_on_the_include_paths():
    path = libinfo.find_python_helper_include_path()
    assert os.path.isfile(os.path.join(path, "tvm_ffi_python_helpers.h"))
    assert path in libinfo.include_paths()
    assert type(core._C_API).__name__ == "PyCapsule"


@pytest.fixture(scope="module")
def helperext(tmp_path_factory):
    d = tmp_path_factory.mktemp("helperext")
    (d / "helperext.c").write_text(EXTENSION)
    lib = tether.cpp.build("helperext", sources=[str(d / "helperext.c")],
                           extra_include_paths=[sysconfig.get_paths()["include"]],
                           build_directory=str(d))
    loader = importlib.machinery.ExtensionFileLoader("helperext", lib)
    spec = importlib.util.spec_from_file_location("helperext", lib, loader=loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def test_extension_converts_as_tether_does(helperext):
    arr = helperext.roundtrip([1, 2, 3])
    assert isinstance(arr, tether.Array) and list(arr) == [1, 2, 3]
    m = helperext.roundtrip({"a": 1})
    assert isinstance(m, tether.Map) and m["a"] == 1
    assert helperext.roundtrip(2.5) == 2.5 and helperext.roundtrip(None) is None
    assert helperext.type_index("x" * 40) == tether.core._type_key_to_index("ffi.String")
    f = helperext.roundtrip(lambda x: x * 2)
    assert isinstance(f, tether.Function) and f(21) == 42


def test_extension_calls_and_raises_as_tether_does(helperext):
    echo = tether.get_global_func("testing.echo")
    assert helperext.call(echo, 7) == 7

    def bad(x):
        raise ValueError(f"bad {x}")

    with pytest.raises(ValueError, match="bad 3"):
        helperext.call(bad, 3)
    with pytest.raises(KeyError, match="parked"):
        helperext.park()
