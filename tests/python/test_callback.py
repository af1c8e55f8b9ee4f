"""Python callbacks in both directions: Python callables passed to C become Functions; C
calls them with every kind of argument (converted per spec 6.5) and gets every kind of
result back; Functions created from Python can be registered and called from C; the
callable's lifetime follows the Function's.  Ends with a reference-leak loop."""
import sys

import pytest

from tether import core

apply = core.get_global_func("testing.apply")
echo = core.get_global_func("testing.echo")
use_count = core.get_global_func("testing.object_use_count")
make_obj = core.get_global_func("testing.make_unregistered_object")


def test_callback_result_and_arguments():
    assert apply(lambda a, b: a + b, 3, 4) == 7
    assert apply(lambda: None) is None
    assert apply(lambda *xs: len(xs), *range(20)) == 20


@pytest.mark.parametrize("value", [0, -3, 2**63 - 1, 1.5, True, False, None, "s", "ünïcødé",
                                   "a long string argument", b"", b"bytes beyond seven"])
def test_callback_receives_each_kind(value):
    got = []
    apply(lambda x: got.append(x), value)
    assert got == [value] and type(got[0]) is type(value) or isinstance(got[0], type(value))


def test_callback_receives_values_of_tether_types():
    got = []

    def cb(*xs):
        got.extend(xs)

    o = make_obj()
    dt = core.dtype("float16")
    dev = core.device("cuda", 2)
    apply(cb, o, dt, dev, core.Shape((2, 3)), [1, 2])
    assert got[0].same_as(o) and type(got[0]) is type(o)
    assert got[1] == dt and type(got[1]) is core.dtype
    assert got[2] == dev
    assert got[3] == (2, 3) and type(got[3]) is core.Shape
    assert list(got[4]) == [1, 2]


def test_opaque_python_object_round_trip():
    class Token:
        pass

    t = Token()
    got = []
    assert apply(lambda x: got.append(x) or x, t) is t
    assert got[0] is t


@pytest.mark.parametrize("value", [1, 2.5, True, None, "short", "a string longer than seven",
                                   b"\x00bytes\x00beyond", (1, 2)])
def test_callback_returns_each_kind(value):
    r = apply(lambda: value)
    if isinstance(value, tuple):
        assert tuple(r) == value
    else:
        assert r == value


def test_callback_returns_objects_and_functions():
    o = make_obj()
    n = use_count(o)
    r = apply(lambda: o)
    assert r.same_as(o) and use_count(o) == n + 1
    del r
    assert use_count(o) == n
    f = apply(lambda: (lambda x: x * 5))
    assert isinstance(f, core.Function) and f(3) == 15
    assert apply(lambda: core.dtype("int8")) == "int8"
    assert apply(lambda: core.device("cpu")) == core.device("cpu", 0)


def test_callback_receives_function_arguments():
    inner = core.Function(lambda x: x + 100)
    assert apply(lambda f, x: f(x), inner, 1) == 101
    # a plain Python callable passed through C arrives as a Function
    assert apply(lambda f: f(2), lambda y: y * y) == 4
    got = []
    apply(lambda f: got.append(f), lambda: 0)
    assert isinstance(got[0], core.Function)


def test_callback_moves_rvalue_ref():
    o = make_obj()
    got = []

    def cb(x):
        got.append(use_count(x))
        return x

    r = apply(cb, o._move())
    assert o.__chandle__() == 0  # the callback took the object
    assert got == [1]  # the callback owns the only reference: it was moved, not copied
    assert r.v1 == 41


def test_python_function_registered_and_called_from_c():
    core._register_global_func("pycore.callback.scale", lambda x, k: x * k, True)
    scale = core.get_global_func("pycore.callback.scale")
    assert apply(scale, 3, 4) == 12
    assert scale(2, 3) == 6
    core.get_global_func("ffi.FunctionRemoveGlobal")("pycore.callback.scale")


def test_nested_callbacks():
    def level(n):
        return n if n == 0 else apply(level, n - 1) + 1

    assert level(10) == 10


def test_callable_lifetime_follows_function():
    class Callable:
        def __call__(self, x):
            return x

    c = Callable()
    base = sys.getrefcount(c)
    f = core.Function(c)
    assert sys.getrefcount(c) == base + 1
    assert f(5) == 5
    g = echo(f)  # a second Python view of the same FFI function
    del f
    assert sys.getrefcount(c) == base + 1
    del g
    assert sys.getrefcount(c) == base


def test_temporary_callback_is_released_after_call():
    class Callable:
        def __call__(self):
            return 1

    c = Callable()
    base = sys.getrefcount(c)
    assert apply(c) == 1
    assert sys.getrefcount(c) == base


def test_callback_with_wrong_arity_raises_type_error():
    with pytest.raises(TypeError):
        apply(lambda: 1, 1, 2)


class _BadInt:
    def __tvm_ffi_int__(self):
        raise ValueError("no int for you")


def test_callback_exception_during_result_conversion():
    with pytest.raises(ValueError, match="no int for you"):
        apply(lambda: _BadInt())
    assert apply(lambda: 1 << 80) == 1 << 80  # beyond int64 is an ffi.BigInt, not an error


def test_no_leak_callbacks_and_errors(check_no_leak):
    o = make_obj()
    n = use_count(o)
    thing = object()
    raise_error = core.get_global_func("testing.test_raise_error")

    def failing():
        raise ValueError("leak check")

    def expect(exc_type, f, *args):
        try:
            f(*args)
        except exc_type:
            return
        raise AssertionError("no exception")

    def body():
        apply(lambda a, b: a + b, 1, 2)
        apply(lambda x: x, "a long string through a callback")
        apply(lambda x: x, o)
        apply(lambda x: x, thing)
        apply(lambda: [o, "s", 1])
        expect(ValueError, apply, failing)
        expect(KeyError, apply, lambda: raise_error("KeyError", "k"))
        expect(KeyError, raise_error, "KeyError", "direct")

    check_no_leak(body)
    assert use_count(o) == n
