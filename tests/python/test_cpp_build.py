"""tether.cpp: building C and C++ sources into libraries tether loads, and what a kernel
built from tvm-ffi's C++ headers sees of tether's values (maps in particular)."""
import os
import subprocess
import sys

import numpy as np
import pytest

import tether
import tether.cpp
from tether import libinfo

needs_cxx_headers = pytest.mark.skipif(
    libinfo.find_tvm_ffi_cxx_include_path() is None,
    reason="tvm-ffi's C++ headers come from an installed apache-tvm-ffi")

C_KERNEL = r"""
#include <tvm/ffi/c_api.h>
TVM_FFI_DLL_EXPORT int __tvm_ffi_mul(void* self, const TVMFFIAny* args, int32_t n,
                                     TVMFFIAny* result) {
  result->type_index = kTVMFFIInt;
  result->zero_padding = 0;
  result->v_int64 = args[0].v_int64 * args[1].v_int64;
  return 0;
}
"""


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TETHER_CACHE_DIR", str(tmp_path / "cache"))


def test_build_c_source_and_object(tmp_path):
    src = tmp_path / "mul.c"
    src.write_text(C_KERNEL)
    lib = tether.cpp.build("mul", sources=[str(src)])
    assert lib.endswith("mul.so") and os.path.isfile(lib)
    assert tether.load_module(lib).mul(6, 7) == 42
    # the same sources as an object file, then linked on its own
    obj = tether.cpp.build("mul_obj", sources=[str(src)], output="mul.o")
    assert obj.endswith("mul.o")
    lib2 = tether.cpp.build("mul_from_obj", sources=[obj], build_directory=str(tmp_path / "b"))
    assert os.path.dirname(lib2) == str(tmp_path / "b")
    assert tether.load_module(lib2).mul(-3, 5) == -15


def test_rebuild_only_when_sources_change(tmp_path):
    src = tmp_path / "mul.c"
    src.write_text(C_KERNEL)
    out = str(tmp_path / "b")
    lib = tether.cpp.build("m", sources=[str(src)], build_directory=out)
    stamp = os.stat(os.path.join(out, "c_0.o")).st_mtime_ns
    tether.cpp.build("m", sources=[str(src)], build_directory=out)
    assert os.stat(os.path.join(out, "c_0.o")).st_mtime_ns == stamp
    src.write_text(C_KERNEL.replace("args[0].v_int64 * args[1].v_int64",
                                    "args[0].v_int64 + args[1].v_int64"))
    os.utime(src, ns=(stamp + 10**9, stamp + 10**9))
    lib = tether.cpp.build("m", sources=[str(src)], build_directory=out)
    assert os.stat(os.path.join(out, "c_0.o")).st_mtime_ns != stamp
    # a fresh process: the library loaded above is still the old one in this process
    code = f"import tether; print(tether.load_module({lib!r}).mul(6, 7))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip() == "13"


def test_compile_error_names_the_command(tmp_path):
    src = tmp_path / "bad.c"
    src.write_text("int f( {")
    with pytest.raises(RuntimeError, match=r"compiling .*bad\.c failed"):
        tether.cpp.build("bad", sources=[str(src)])
    with pytest.raises(ValueError, match="give cpp_sources or cuda_sources"):
        tether.cpp.build_inline("nothing")


@needs_cxx_headers
def test_load_inline_typed_functions_docs_and_tensors():
    mod = tether.cpp.load_inline(
        "typed", cpp_sources=r"""
            int64_t add(int64_t a, int64_t b) { return a + b; }
            tvm::ffi::String shout(tvm::ffi::String s) { return std::string(s) + "!"; }
            void twice(tvm::ffi::TensorView x, tvm::ffi::TensorView y) {
              for (int64_t i = 0; i < x.size(0); ++i)
                static_cast<float*>(y.data_ptr())[i] = 2 * static_cast<float*>(x.data_ptr())[i];
            }
        """,
        functions={"add": "Adds \"two\" numbers.\nSecond line.", "shout": "", "twice": ""},
        extra_cflags=["-DTVM_FFI_DLL_EXPORT_INCLUDE_METADATA=1"])  # docs go with the metadata
    assert mod.add(40, 2) == 42
    assert mod.shout("hey") == "hey!"
    x = np.arange(4, dtype="float32")
    y = np.zeros_like(x)
    mod.twice(x, y)
    np.testing.assert_array_equal(y, 2 * x)
    assert mod.get_function_doc("add") == "Adds \"two\" numbers.\nSecond line."
    assert mod.get_function_doc("shout") is None


@needs_cxx_headers
def test_cxx_kernel_reads_tether_maps_and_tether_reads_cxx_maps():
    mod = tether.cpp.load_inline(
        "maps", cpp_sources=r"""
            #include <tvm/ffi/container/map.h>
            #include <tvm/ffi/container/dict.h>
            namespace ffi = tvm::ffi;
            int64_t total(ffi::Array<ffi::Map<ffi::String, int64_t>> ms) {
              int64_t t = 0;
              for (auto m : ms) for (auto kv : m) t += kv.second;
              return t;
            }
            int64_t lookup(ffi::Map<ffi::String, int64_t> m, ffi::String k) { return m.at(k); }
            ffi::Map<ffi::String, int64_t> make(int64_t n) {
              ffi::Map<ffi::String, int64_t> m;
              for (int64_t i = 0; i < n; ++i) m.Set("k" + std::to_string(i), i);
              return m;
            }
            ffi::Dict<ffi::String, int64_t> make_dict(int64_t n) {
              ffi::Dict<ffi::String, int64_t> d;
              for (int64_t i = 0; i < n; ++i) d.Set("k" + std::to_string(i), i);
              return d;
            }
        """, functions=["total", "lookup", "make", "make_dict"])
    # maps tether made, at the top level and inside an Array
    assert mod.lookup({"a": 1, "b": 2}, "b") == 2
    assert mod.total([{"a": 1, "b": 2}, tether.Map({"c": 3}), tether.Dict({"d": 4})]) == 10
    for n in (0, 3, 40):  # C++ small and dense layouts
        expected = {f"k{i}": i for i in range(n)}
        made = mod.make(n)
        assert dict(made) == expected and len(made) == n
        assert dict(mod.make_dict(n)) == expected
        assert mod.total([made]) == sum(expected.values())  # handed back unchanged
    copy = tether.Dict(dict(mod.make_dict(2)))
    copy["x"] = 9
    assert dict(copy) == {"k0": 0, "k1": 1, "x": 9}
    with pytest.raises(TypeError, match="made by C\\+\\+ code"):
        mod.make_dict(2)["x"] = 1


def test_embed_cubin_symbols(tmp_path):
    from tether.utils.embed_cubin import embed_cubin
    src = tmp_path / "use.c"
    src.write_text("extern const unsigned char __tvm_ffi__cubin_k[], __tvm_ffi__cubin_k_end[];\n"
                   "long blob_size(void) { return __tvm_ffi__cubin_k_end - __tvm_ffi__cubin_k; }\n"
                   "int blob_first(void) { return __tvm_ffi__cubin_k[0]; }\n")
    obj = tether.cpp.build("use", sources=[str(src)], output="use.o")
    blob = tmp_path / "k.cubin"
    blob.write_bytes(b"Zcubin-bytes")
    out = tmp_path / "with_blob.o"
    embed_cubin(blob, obj, out, "k")
    import ctypes
    lib = tmp_path / "libblob.so"
    subprocess.run(["cc", "-shared", str(out), "-o", str(lib)], check=True)
    dll = ctypes.CDLL(str(lib))
    assert dll.blob_size() == len(b"Zcubin-bytes") and dll.blob_first() == ord("Z")
    with pytest.raises(FileNotFoundError):
        embed_cubin(tmp_path / "missing.cubin", obj, out, "k")


def _config(*flags):
    return subprocess.run([sys.executable, "-m", "tether.config", *flags], capture_output=True,
                          text=True, check=True).stdout.strip()


def test_config_answers_with_tethers_files():
    inc = libinfo.find_include_path()
    assert os.path.isfile(os.path.join(inc, "tvm", "ffi", "c_api.h"))
    assert _config("--includedir") == inc
    assert _config("--cflags") == f"-I{inc} -I{libinfo.find_dlpack_include_path()}"
    assert _config("--libs") == "-ltvm_ffi"
    lib = libinfo.find_libtvm_ffi()
    assert _config("--libfiles") == lib and os.path.isfile(lib)
    assert _config("--ldflags") == f"-L{os.path.dirname(lib)}"
    cmake = _config("--cmakedir")
    assert os.path.isfile(os.path.join(cmake, "tvm_ffi-config.cmake"))
    with pytest.raises(TypeError, match=r"extra_lib_paths\[0\] must be a pathlib\.Path"):
        libinfo._find_library_by_basename("tether", "tvm_ffi", extra_lib_paths=["/tmp"])
