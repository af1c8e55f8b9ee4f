"""Reference-leak checks: representative operations of the binding, and the other test
modules' own tests, run many times; the number of live FFI objects, Python objects, traced
Python memory and the use count of a long-lived object must not grow.

Counters: tether.core._live_object_count() (FFI objects alive, if the extension offers
it), testing.object_use_count, len(gc.get_objects()), tracemalloc's traced memory.
"""
import gc
import inspect
import tracemalloc

import pytest

import tether
import tether.testing
from tether import core

ROUNDS = 1000
WARMUP = 100


def live_objects():
    counter = getattr(core, "_live_object_count", None)
    return counter() if counter is not None else 0


class Counters:
    def __init__(self):
        gc.collect()
        self.live = live_objects()
        self.py_objects = len(gc.get_objects())
        self.traced = tracemalloc.get_traced_memory()[0]

    def growth(self, other):
        return (other.live - self.live, other.py_objects - self.py_objects,
                other.traced - self.traced)


def check_no_growth(body, rounds=ROUNDS, max_objects=50, max_bytes=64 * 1024):
    """Run `body` WARMUP times (caches fill), then `rounds` times under tracemalloc."""
    for _ in range(WARMUP):
        body()
    tracemalloc.start()
    try:
        before = Counters()
        for _ in range(rounds):
            body()
        after = Counters()
    finally:
        tracemalloc.stop()
    live, objects, traced = before.growth(after)
    assert live <= 0, f"{live} FFI objects leaked over {rounds} rounds"
    assert objects <= max_objects, f"{objects} Python objects more after {rounds} rounds"
    assert traced <= max_bytes, f"traced memory grew by {traced} bytes over {rounds} rounds"


add_one = tether.get_global_func("testing.add_one")
echo = tether.get_global_func("testing.echo")
nop = tether.get_global_func("testing.nop")
apply = tether.get_global_func("testing.apply")
raise_error = tether.get_global_func("testing.test_raise_error")


def test_scalars_and_strings():
    def body():
        assert add_one(1) == 2
        nop(1, 2.0, True, None, "short", "a longer string than seven bytes", b"bytes" * 5)
        assert echo("a string of some length") == "a string of some length"
        assert echo(b"some bytes here") == b"some bytes here"
        echo(tether.device("cpu"))
        echo(tether.dtype("float32"))
    check_no_growth(body)


def test_containers():
    def body():
        a = tether.Array([1, "two", [3, 4], {"k": 5}])
        assert len(a) == 4 and a[2][1] == 4 and a[3]["k"] == 5
        assert list(a)[0] == 1 and a[1:3][0] == "two"
        l = tether.List([1, 2])
        l.append(3)
        l[0:1] = [7, 8]
        del l[-1]
        l.pop()
        m = tether.Map({"a": 1, "b": [1, 2]})
        assert m["a"] == 1 and sorted(m) == ["a", "b"] and dict(m) == {"a": 1, "b": [1, 2]}
        d = tether.Dict({"x": 1})
        d["y"] = d
        del d["y"]
        assert dict(d.items()) == {"x": 1}
        try:
            m["missing"]
        except KeyError:
            pass
        echo({"nested": [{"deep": (1, 2)}]})
    check_no_growth(body)


def test_callbacks_and_registry():
    def cb(x):
        return [x, str(x)]

    def body():
        r = apply(cb, 5)
        assert r[0] == 5
        assert apply(lambda *args: len(args), 1, 2, 3) == 3
        f = tether.get_global_func("testing.add_one")
        assert apply(f, 1) == 2
    check_no_growth(body)


def test_register_and_remove_global():
    def body():
        tether.register_global_func("pytest.refleak.f", lambda x: x, override=True)
        assert tether.get_global_func("pytest.refleak.f")(3) == 3
        tether.remove_global_func("pytest.refleak.f")
    check_no_growth(body)


def test_errors():
    def inner():
        raise ValueError("inner")

    def body():
        try:
            raise_error("ValueError", "a message")
        except ValueError:
            pass
        try:
            apply(inner)
        except ValueError:
            pass
        try:
            add_one("not an int")
        except TypeError:
            pass
    check_no_growth(body, max_bytes=256 * 1024)


def test_objects_and_fields():
    keep = tether.testing.TestIntPair(3, 4)
    count = tether.testing.object_use_count(keep)

    def body():
        p = tether.testing.TestIntPair(1, 2)
        assert p.a == 1 and p.b == 2 and p.sum() == 3
        assert echo(keep).same_as(keep)
        tether.Array([keep, keep])
        tether.Map({"p": keep})
        assert tether.testing.object_use_count(keep) == count
    check_no_growth(body)
    assert tether.testing.object_use_count(keep) == count


def test_reflection_and_python_defined_fields():
    # one Python-defined type (type indices are never freed); its objects, fields, the
    # setter's converter (fast path and Python path, success and failure) and the reads of
    # the type table run in the loop
    from test_reflection import Field, define

    P, info = define([Field("a", "int"), Field("b", "float"), Field("s", "str", default="x"),
                      Field("o", "Any")])
    index = core._object_type_key_to_index("testing.TestIntPair")

    def body():
        p = P(1, 2.0, s="y", o=[1, 2])
        p.a, p.b, p.o = 3, 4, {"k": 1}
        try:
            p.a = "not an int"
        except TypeError:
            pass
        assert info.fields[0].getter(p) == 3 and p.s == "y"
        core._type_info_raw(index)
        core._lookup_type_attr(index, "__ffi_init__")
        core._lookup_type_attr(index, "__missing__", True)
        core.convert(object()).pyobject()
    check_no_growth(body, max_bytes=128 * 1024)


def test_modules():
    def body():
        lib = tether.system_lib("testing.")
        assert lib.add_one(1) == 2 and lib["add_one"](2) == 3
        try:
            lib.get_function("nope")
        except AttributeError:
            pass
    check_no_growth(body)


def test_tensors():
    np = pytest.importorskip("numpy")
    x = np.arange(16, dtype="float32")

    def body():
        t = tether.from_dlpack(x)
        assert tuple(t.shape) == (16,)
        echo(x)
        nop(x, t)
    check_no_growth(body)


# Tests that keep something by design on every run: register_error maps each new exception
# class to its kind for good (the class -> kind table is keyed by class, as in tvm-ffi).
_GROWS_BY_DESIGN = {"test_register_error_forms"}


def _fixture_free_tests(module):
    for name, fn in sorted(vars(module).items()):
        if name.startswith("test_") and callable(fn) and not inspect.signature(fn).parameters \
                and not hasattr(fn, "pytestmark") and name not in _GROWS_BY_DESIGN:
            yield fn


@pytest.mark.parametrize("module_name", ["test_container", "test_registry"])
def test_binding_tests_repeatedly(module_name):
    """The other test modules' own (fixture-free) tests, again and again."""
    import importlib

    module = importlib.import_module(module_name)
    tests = list(_fixture_free_tests(module))
    assert tests

    def body():
        for t in tests:
            t()
    check_no_growth(body, rounds=30, max_objects=200, max_bytes=256 * 1024)


def test_argument_and_result_refcounts_unchanged():
    """Arguments passed 1000 times (and returned, for echo) keep their reference counts."""
    import sys

    class Opaque:
        pass

    def callback(*args):
        return args[0] if args else None

    values = [Opaque(), callback, "a string argument that is not small", b"bytes argument!!",
              12345678901, 2.5, tether.Array([1, 2]), tether.get_global_func("testing.nop"),
              tether.testing.TestIntPair(1, 2), (1, 2, 3), {"k": "v"}]
    try:
        import numpy as np

        values.append(np.zeros(4, dtype="float32"))
    except ImportError:
        pass
    for v in values:
        echo(v)
    gc.collect()
    before = [sys.getrefcount(v) for v in values]
    for _ in range(ROUNDS):
        for v in values:
            echo(v)
            nop(v, v)
        apply(callback, values[0])
    gc.collect()
    after = [sys.getrefcount(v) for v in values]
    changed = [(type(v).__name__, b, a) for v, b, a in zip(values, before, after) if a != b]
    assert not changed, f"reference counts changed (type, before, after): {changed}"
