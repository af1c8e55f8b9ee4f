"""The global function registry seen from Python: get/register/remove/list/metadata,
the decorator forms, override, init_ffi_api."""
import types

import pytest

import tether
from tether import core


def test_get_global_func_returns_core_function():
    f = tether.get_global_func("testing.add_one")
    assert type(f) is core.Function
    assert isinstance(f, tether.Function)
    assert "ffi.Function" in repr(f)
    assert f(10) == 11


def test_get_global_func_missing():
    with pytest.raises(ValueError, match="no.such.function"):
        tether.get_global_func("no.such.function")
    assert tether.get_global_func("no.such.function", allow_missing=True) is None


def test_register_call_remove():
    name = "pytest.registry.add"
    f = tether.register_global_func(name, lambda a, b: a + b)
    try:
        assert isinstance(f, tether.Function)
        assert tether.get_global_func(name)(2, 3) == 5
        assert name in tether.list_global_func_names()
    finally:
        assert tether.remove_global_func(name) is True
    assert tether.get_global_func(name, allow_missing=True) is None
    assert name not in tether.list_global_func_names()
    assert tether.remove_global_func(name) is False


def test_register_as_decorator_with_name():
    @tether.register_global_func("pytest.registry.deco")
    def twice(x):
        return x * 2

    try:
        assert isinstance(twice, tether.Function)
        assert twice(21) == 42
        assert tether.get_global_func("pytest.registry.deco")("ab") == "abab"
    finally:
        tether.remove_global_func("pytest.registry.deco")


def test_register_as_bare_decorator_uses_function_name():
    @tether.register_global_func
    def pytest_registry_bare(x):
        return x - 1

    try:
        assert tether.get_global_func("pytest_registry_bare")(1) == 0
    finally:
        tether.remove_global_func("pytest_registry_bare")


def test_register_twice_needs_override():
    name = "pytest.registry.override"
    tether.register_global_func(name, lambda: 1)
    try:
        with pytest.raises(RuntimeError, match="already registered"):
            tether.register_global_func(name, lambda: 2)
        assert tether.get_global_func(name)() == 1
        tether.register_global_func(name, lambda: 3, override=True)
        assert tether.get_global_func(name)() == 3

        @tether.register_global_func(name, override=True)
        def four():
            return 4

        assert tether.get_global_func(name)() == 4
    finally:
        tether.remove_global_func(name)


def test_register_bad_arguments():
    with pytest.raises(TypeError, match="func_name"):
        tether.register_global_func(5, lambda: 1)
    with pytest.raises(TypeError, match="callable"):
        tether.register_global_func("pytest.registry.notcallable", 42)
    assert tether.get_global_func("pytest.registry.notcallable", allow_missing=True) is None


def test_python_function_called_from_c():
    tether.register_global_func("pytest.registry.cb", lambda x: x + 100)
    try:
        apply = tether.get_global_func("testing.apply")
        assert apply(tether.get_global_func("pytest.registry.cb"), 1) == 101
    finally:
        tether.remove_global_func("pytest.registry.cb")


def test_exception_in_registered_function_propagates():
    def bad(x):
        raise KeyError("from python")

    tether.register_global_func("pytest.registry.bad", bad)
    try:
        with pytest.raises(KeyError, match="from python"):
            tether.get_global_func("pytest.registry.bad")(1)
    finally:
        tether.remove_global_func("pytest.registry.bad")


def test_list_global_func_names():
    names = tether.list_global_func_names()
    assert isinstance(names, list)
    assert all(type(n) is str or isinstance(n, str) for n in names)
    for expected in ("testing.add_one", "testing.nop", "ffi.Array", "ffi.FunctionRemoveGlobal"):
        assert expected in names
    assert len(names) == len(set(names))


def test_get_global_func_metadata():
    meta = tether.get_global_func_metadata("ffi.Array")
    assert isinstance(meta, dict)
    assert "ffi.Function" in meta["type_schema"]
    assert isinstance(tether.get_global_func_metadata("testing.add_one"), dict)


def test_get_global_func_metadata_of_python_function():
    tether.register_global_func("pytest.registry.meta", lambda: None)
    try:
        assert isinstance(tether.get_global_func_metadata("pytest.registry.meta"), dict)
    finally:
        tether.remove_global_func("pytest.registry.meta")


def test_get_global_func_metadata_missing():
    with pytest.raises(RuntimeError, match="nope.nothing"):
        tether.get_global_func_metadata("nope.nothing")


def test_init_ffi_api_one_level():
    tether.register_global_func("pytestns.alpha", lambda: "a")
    tether.register_global_func("pytestns.deep.beta", lambda: "b")
    tether.register_global_func("pytestnsx.gamma", lambda: "c")
    try:
        mod = types.ModuleType("pytestns_api")
        tether.init_ffi_api("pytestns", mod)
        assert mod.alpha() == "a"
        assert not hasattr(mod, "deep") and not hasattr(mod, "beta")
        assert not hasattr(mod, "gamma")
        import sys

        sys.modules["pytestns_api2"] = types.ModuleType("pytestns_api2")
        try:
            tether.init_ffi_api("pytestns", "pytestns_api2")
            assert sys.modules["pytestns_api2"].alpha() == "a"
        finally:
            del sys.modules["pytestns_api2"]
    finally:
        for n in ("pytestns.alpha", "pytestns.deep.beta", "pytestnsx.gamma"):
            tether.remove_global_func(n)


def test_init_ffi_api_testing_namespace():
    mod = types.ModuleType("testing_api")
    tether.init_ffi_api("testing", mod)
    assert mod.add_one(1) == 2
    assert mod.echo("x") == "x"


def test_register_object_unknown_key():
    with pytest.raises(ValueError):
        @tether.register_object("pytest.NoSuchType")
        class NoSuch(tether.Object):
            pass


def test_register_object_bad_key_type():
    with pytest.raises(TypeError):
        tether.register_object(12)


def test_register_error_forms():
    class PytestCustomError(Exception):
        pass

    assert tether.register_error("PytestCustomError", PytestCustomError) is PytestCustomError
    raise_error = tether.get_global_func("testing.test_raise_error")
    with pytest.raises(PytestCustomError, match="custom message"):
        raise_error("PytestCustomError", "custom message")

    @tether.register_error("PytestDecoratedError")
    class Decorated(RuntimeError):
        pass

    with pytest.raises(Decorated):
        raise_error("PytestDecoratedError", "m")

    @tether.register_error
    class PytestBareError(ValueError):
        pass

    with pytest.raises(PytestBareError):
        raise_error("PytestBareError", "m")

    with pytest.raises(TypeError):
        tether.register_error("X", 5)


def test_unknown_error_kind_is_runtime_error():
    raise_error = tether.get_global_func("testing.test_raise_error")
    with pytest.raises(RuntimeError, match="boom"):
        raise_error("PytestNeverRegisteredKind", "boom")


def test_public_names():
    for name in tether.__all__:
        assert hasattr(tether, name), name
    assert isinstance(tether.__version__, str)


def test_register_object_binds_testing_classes():
    import tether.testing as tt

    p = tt.TestIntPair(1, 2)
    assert type(p) is tt.TestIntPair
    assert (p.a, p.b, p.sum()) == (1, 2, 3)
    with pytest.raises(AttributeError):
        p.a = 5
    assert type(tether.get_global_func("testing.echo")(p)) is tt.TestIntPair
    assert tt.object_use_count(p) == 1
    holder = tether.Array([p])
    assert tt.object_use_count(p) == 2
    del holder
    assert tt.object_use_count(p) == 1


def test_register_object_subclass_and_create_object():
    import tether.testing as tt

    base = tt.create_object("testing.TestObjectBase", v_i64=5)
    assert type(base) is tt.TestObjectBase
    assert (base.v_i64, base.v_f64, base.v_str) == (5, 10.0, "hello")
    derived = tt.create_object("testing.TestObjectDerived", v_map={"a": 1}, v_array=[1])
    assert type(derived) is tt.TestObjectDerived and isinstance(derived, tt.TestObjectBase)
    assert dict(derived.v_map) == {"a": 1} and derived.v_array == [1]
    assert type(derived.v_map) is tether.Map and type(derived.v_array) is tether.Array


def test_register_object_on_own_class():
    class Pair(tether.Object):
        pass

    # A new class for an already-bound key takes over: results come back as it.
    import tether.testing as tt

    try:
        assert tether.register_object("testing.TestIntPair")(Pair) is Pair
        assert type(tether.get_global_func("testing.echo")(tt.TestIntPair(3, 4))) is Pair
    finally:
        tether.register_object("testing.TestIntPair")(tt.TestIntPair)
    assert type(tether.get_global_func("testing.echo")(tt.TestIntPair(3, 4))) is tt.TestIntPair


def test_unregistered_type_gets_auto_class():
    u = tether.get_global_func("testing.make_unregistered_object")()
    assert type(u).__name__ == "TestUnregisteredObject"
    assert isinstance(u, tether.Object)
