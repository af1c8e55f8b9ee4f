"""Modules: load_module on the example kernel built by CMake (examples/kernel), the system
library, function lookup/caching/metadata/doc, imports, and the error paths."""
import os

import pytest

import tether


def test_system_lib_add_one():
    lib = tether.system_lib("testing.")
    assert isinstance(lib, tether.Module)
    assert lib.kind == "library"
    assert lib.add_one(10) == 11
    assert lib["add_one"](1) == 2
    assert lib.get_function("add_one")(2) == 3
    assert lib.implements_function("add_one")
    assert not lib.implements_function("no_such_function")


def test_system_lib_full_name_and_default_prefix():
    assert tether.system_lib().get_function("testing.add_one")(5) == 6
    # "prefix + name" first, then "name"
    assert tether.system_lib("other.").get_function("testing.add_one")(5) == 6


def test_attribute_lookup_is_cached():
    lib = tether.system_lib("testing.")
    f = lib.add_one
    assert lib.add_one is f            # cached on the instance
    assert isinstance(f, tether.Function)


def test_missing_function_errors():
    lib = tether.system_lib("testing.")
    with pytest.raises(AttributeError, match="no_such_function"):
        lib.no_such_function
    with pytest.raises(AttributeError, match="no_such_function"):
        lib.get_function("no_such_function")
    with pytest.raises(AttributeError, match="no_such_function"):
        lib["no_such_function"]
    with pytest.raises(TypeError):
        lib[0]
    with pytest.raises(AttributeError):
        lib._private_name


def test_module_cannot_be_constructed_directly():
    with pytest.raises(TypeError, match="load_module"):
        tether.Module()


def test_load_module_kernel(add_one_kernel):
    np = pytest.importorskip("numpy")
    mod = tether.load_module(add_one_kernel)
    assert type(mod) is tether.Module
    assert mod.kind == "library"
    x = np.arange(5, dtype="float32")
    y = np.zeros(5, dtype="float32")
    mod.add_one_cpu(x, y)
    np.testing.assert_array_equal(y, x + 1)
    assert mod.implements_function("add_one_cpu")
    assert not mod.implements_function("add_two_cpu")


def test_load_module_accepts_pathlike(add_one_kernel):
    import pathlib

    mod = tether.load_module(pathlib.Path(add_one_kernel), keep_module_alive=False)
    assert mod.implements_function("add_one_cpu")


def test_kernel_metadata_and_doc(add_one_kernel):
    mod = tether.load_module(add_one_kernel)
    meta = mod.get_function_metadata("add_one_cpu")
    assert isinstance(meta, dict) and "type_schema" in meta
    doc = mod.get_function_doc("add_one_cpu")
    assert isinstance(doc, str) and doc
    assert mod.get_function_metadata("add_two_cpu") is None
    assert mod.get_function_doc("add_two_cpu") is None


def test_kernel_missing_symbol(add_one_kernel):
    mod = tether.load_module(add_one_kernel)
    with pytest.raises(AttributeError, match="add_two_cpu"):
        mod.add_two_cpu


def test_kernel_bad_argument(add_one_kernel):
    mod = tether.load_module(add_one_kernel)
    with pytest.raises(TypeError, match="add_one_cpu: argument `x` must be a tensor"):
        mod.add_one_cpu(1, 2)


def test_kernel_function_outlives_module(add_one_kernel):
    np = pytest.importorskip("numpy")
    f = tether.load_module(add_one_kernel, keep_module_alive=False).add_one_cpu
    x = np.ones(3, dtype="float32")
    y = np.zeros(3, dtype="float32")
    f(x, y)
    assert list(y) == [2, 2, 2]


def test_import_module_and_query_imports(add_one_kernel):
    kernel = tether.load_module(add_one_kernel)
    lib = tether.system_lib("testing.")
    host = tether.load_module(add_one_kernel, keep_module_alive=False)
    host.import_module(lib)
    assert host.implements_function("add_one", query_imports=True)
    assert host.get_function("add_one", query_imports=True)(1) == 2
    assert not host.implements_function("add_one", query_imports=False)
    with pytest.raises(RuntimeError):
        host.import_module(host)  # a cycle
    del kernel


def test_load_module_missing_file(tmp_path):
    missing = os.path.join(str(tmp_path), "no_such_kernel.so")
    with pytest.raises(RuntimeError, match="Failed to load dynamic shared library"):
        tether.load_module(missing)


def test_load_module_not_a_library(tmp_path):
    bogus = tmp_path / "bogus.so"
    bogus.write_text("not an ELF file")
    with pytest.raises(RuntimeError, match="Failed to load dynamic shared library"):
        tether.load_module(bogus)


def test_load_module_unknown_extension(tmp_path):
    with pytest.raises(RuntimeError, match="abc"):
        tether.load_module(str(tmp_path / "x.abc"))


def test_property_mask():
    lib = tether.system_lib("testing.")
    assert lib.is_runnable()
    assert isinstance(lib.get_property_mask(), int)
