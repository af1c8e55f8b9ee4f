"""tether.core.Function: lookup, calling (every scalar kind, many arguments), arity and
type errors from the C side, release_gil (the property), Function
from a Python callable, __from_extern_c__, and global registration from Python."""
import ctypes

import pytest

from tether import core

nop = core.get_global_func("testing.nop")
echo = core.get_global_func("testing.echo")
add_one = core.get_global_func("testing.add_one")
apply = core.get_global_func("testing.apply")


def test_get_global_func_returns_function():
    f = core.get_global_func("testing.add_one")
    assert isinstance(f, core.Function)
    assert isinstance(f, core.Object)
    assert type(f) is core.Function
    assert repr(f) == "ffi.Function"
    assert f.__name__ == "testing.add_one"
    assert f(41) == 42


def test_get_global_func_missing():
    with pytest.raises(ValueError, match="Cannot find global function no.such.function"):
        core.get_global_func("no.such.function")
    assert core.get_global_func("no.such.function", allow_missing=True) is None
    assert core.get_global_func("no.such.function", True) is None
    with pytest.raises(TypeError):
        core.get_global_func(42)
    with pytest.raises(TypeError):
        core.get_global_func("testing.nop", bogus=1)


def test_same_global_is_same_object():
    a = core.get_global_func("testing.nop")
    b = core.get_global_func("testing.nop")
    assert a == b and a.same_as(b) and hash(a) == hash(b)
    assert a != add_one


def test_call_every_scalar_kind():
    assert nop() is None
    assert nop(1, 2.0, True, None, "s", b"b") is None
    for value in [0, -1, 2**63 - 1, -(2**63), 1.5, float("inf"), True, False, None]:
        r = echo(value)
        assert r == value and type(r) is type(value)


def test_many_arguments_beyond_the_stack_array():
    args = list(range(40))
    assert nop(*args) is None
    assert echo(*args) == 0
    # a Python callback sees every one of them
    assert apply(lambda *xs: sum(xs), *args) == sum(args)
    assert apply(lambda *xs: xs[-1], *(["long string %d" % i for i in range(30)])) == "long string 29"


def test_int_beyond_int64_is_bigint():
    assert echo(2**63) == 2**63
    assert echo(-(2**63) - 1) == -(2**63) - 1
    assert nop(1, 2, 1 << 100) is None


def test_type_and_arity_errors_come_from_c():
    with pytest.raises(TypeError) as info:
        add_one("x")
    assert "testing.add_one" in str(info.value)
    assert "argument #0" in str(info.value)
    with pytest.raises(TypeError, match=r"Expected 1 but got 2 arguments"):
        add_one(1, 2)
    with pytest.raises(TypeError, match=r"Expected 1 but got 0 arguments"):
        add_one()


def test_keyword_arguments_rejected():
    with pytest.raises(TypeError, match="keyword"):
        add_one(x=1)


def test_release_gil_property():
    f = core.get_global_func("testing.add_one")
    assert f.release_gil is True  # tvm-ffi's default
    f.release_gil = False
    assert f.release_gil is False
    assert f(1) == 2
    # a callback runs with the GIL released around the call and with it held
    g = core.get_global_func("testing.apply")
    assert g(lambda x: x * 3, 5) == 15
    g.release_gil = False
    assert g(lambda x: x * 3, 5) == 15
    f.release_gil = 1
    assert f.release_gil is True
    with pytest.raises(AttributeError):
        del f.release_gil
    # the flag belongs to the Function object, not to the global
    f.release_gil = False
    assert core.get_global_func("testing.add_one").release_gil is True


def _register_c_global(name, metadata):
    lib = ctypes.CDLL(core._lib_path())
    lib.tether_func_register.restype = ctypes.c_int
    lib.tether_func_register.argtypes = [ctypes.c_char_p, ctypes.c_void_p, ctypes.c_char_p,
                                         ctypes.c_char_p, ctypes.c_int]
    addr = core.get_global_func("testing.get_add_one_c_symbol")()
    rc = lib.tether_func_register(name.encode(), addr, None,
                                  metadata.encode() if metadata else None, 1)
    assert rc == 0


def test_c_global_registered_without_flags_releases_the_gil():
    # metadata has no say: only TETHER_FUNC_KEEPS_GIL (tests/python/test_gil.py) does
    _register_c_global("pycore.add_one_meta", '{"type_schema": "x", "release_gil": false}')
    _register_c_global("pycore.add_one_plain", None)
    f = core.get_global_func("pycore.add_one_plain")
    assert f.release_gil is True
    assert f(9) == 10
    assert core.get_global_func("pycore.add_one_meta").release_gil is True


def test_function_from_callable():
    f = core.Function(lambda x, y: x * y)
    assert isinstance(f, core.Function)
    assert f(6, 7) == 42
    assert f.__name__ == "<lambda>"
    f.__name__ = "mul"
    assert f.__name__ == "mul"
    assert core.Function(f).same_as(f)
    with pytest.raises(TypeError):
        core.Function(42)
    empty = core.Function()
    with pytest.raises(ValueError):
        empty()


def test_from_extern_c():
    addr = core.get_global_func("testing.get_add_one_c_symbol")()
    f = core.Function.__from_extern_c__(addr)
    assert f(1) == 2
    keep = object()
    g = core.Function.__from_extern_c__(addr, keep_alive_object=keep)
    assert g(2) == 3
    with pytest.raises(ValueError):
        core.Function.__from_extern_c__(0)


def test_register_global_func_from_python():
    f = core._register_global_func("pycore.test.triple", lambda x: 3 * x, True)
    assert isinstance(f, core.Function)
    assert core.get_global_func("pycore.test.triple")(4) == 12
    with pytest.raises(RuntimeError, match="already registered"):
        core._register_global_func("pycore.test.triple", lambda x: x, False)
    core._register_global_func("pycore.test.triple", lambda x: 4 * x, True)
    assert core.get_global_func("pycore.test.triple")(4) == 16
    # a Function registers as itself
    core._register_global_func("pycore.test.add_one_alias", add_one, True)
    assert core.get_global_func("pycore.test.add_one_alias").same_as(add_one)
    with pytest.raises(TypeError):
        core._register_global_func("pycore.test.bad", 3, True)
    core.get_global_func("ffi.FunctionRemoveGlobal")("pycore.test.triple")
    core.get_global_func("ffi.FunctionRemoveGlobal")("pycore.test.add_one_alias")


def test_function_subclass_is_callable():
    class MyFunction(core.Function):
        pass

    f = MyFunction(lambda: "hi")
    assert f() == "hi"
    assert repr(f) == "ffi.Function"
