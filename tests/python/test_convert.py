"""Conversions across the boundary: Python -> Any (arguments) and Any -> Python (results),
round trips of every value kind through testing.echo, the protocol hooks, convert(), and a
reference-leak loop over calls and conversions."""
import ctypes
import pickle

import pytest

from tether import core

echo = core.get_global_func("testing.echo")
nop = core.get_global_func("testing.nop")
use_count = core.get_global_func("testing.object_use_count")
make_obj = core.get_global_func("testing.make_unregistered_object")


# ---- scalars and strings -------------------------------------------------------------------

@pytest.mark.parametrize("value", [0, 1, -7, 2**62, -(2**63), 2**63 - 1])
def test_int_round_trip(value):
    r = echo(value)
    assert r == value and type(r) is int


def test_int_subclasses_and_index_protocol():
    import enum

    class Color(enum.IntEnum):
        RED = 3

    assert echo(Color.RED) == 3 and type(echo(Color.RED)) is int
    np = pytest.importorskip("numpy")
    assert echo(np.int64(-5)) == -5 and type(echo(np.int64(-5))) is int
    assert echo(np.uint8(200)) == 200
    assert echo(np.uint64(2**64 - 1)) == 2**64 - 1  # beyond int64: ffi.BigInt


def test_float_bool_none():
    assert echo(1.25) == 1.25 and type(echo(1.25)) is float
    assert echo(True) is True and echo(False) is False
    assert echo(None) is None
    np = pytest.importorskip("numpy")
    r = echo(np.float32(2.5))
    assert r == 2.5 and type(r) is float
    assert echo(np.float64(0.5)) == 0.5


@pytest.mark.parametrize("text", ["", "a", "1234567", "12345678", "hello world long enough",
                                  "ünïcødé ✓", "x" * 10000, "emb\0edded", "long with \0 a NUL"])
def test_str_round_trip(text):
    r = echo(text)
    assert r == text
    assert isinstance(r, str)
    # short strings (SmallStr, <= 7 UTF-8 bytes) come back as str, others as String
    if len(text.encode()) <= 7:
        assert type(r) is str
    else:
        assert type(r) is core.String


def test_str_subclass_argument():
    class S(str):
        pass

    assert echo(S("a subclass of str")) == "a subclass of str"
    s = core.String("a String passed back in")
    assert echo(s) == s


@pytest.mark.parametrize("data", [b"", b"ab", b"1234567", b"12345678", b"\0\1\2" * 100])
def test_bytes_round_trip(data):
    r = echo(data)
    assert r == data and isinstance(r, bytes)
    assert type(r) is (bytes if len(data) <= 7 else core.Bytes)
    assert echo(bytearray(data)) == data


def test_string_and_bytes_types():
    assert issubclass(core.String, str) and issubclass(core.Bytes, bytes)
    s = echo("this is a heap string")
    assert s.upper() == "THIS IS A HEAP STRING"
    assert pickle.loads(pickle.dumps(s)) == s
    assert pickle.loads(pickle.dumps(echo(b"a heap bytes value"))) == b"a heap bytes value"


# ---- dtype / device / shape ----------------------------------------------------------------

def test_dtype():
    dt = core.dtype("float32")
    assert isinstance(dt, str) and dt == "float32"
    assert repr(dt) == "dtype('float32')"
    assert (dt.type_code, dt.bits, dt.lanes) == (2, 32, 1)
    assert core.dtype("int8x4").lanes == 4
    assert core.dtype("bool").type_code == 6
    assert str(core.dtype("f32")) == "f32"  # the text is kept; the value is parsed
    assert core.dtype("f32").bits == 32
    r = echo(core.dtype("bfloat16"))
    assert type(r) is core.dtype and r == "bfloat16" and r.type_code == 4
    assert echo(dt) is echo(dt)  # results are cached per value
    with pytest.raises(ValueError, match="bogus"):
        core.dtype("bogus")
    assert pickle.loads(pickle.dumps(dt)) == dt
    assert core.dtype("int32").itemsize == 4


def test_dtype_from_numpy_and_dlpack_protocol():
    np = pytest.importorskip("numpy")
    r = echo(np.dtype("float16"))
    assert type(r) is core.dtype and r == "float16"
    assert core.dtype(np.dtype("int64")) == "int64"

    class DT:
        def __dlpack_data_type__(self):
            return (0, 16, 1)

    assert echo(DT()) == "int16"


def test_device():
    d = core.device("cuda", 1)
    assert repr(d) == "device(type='cuda', index=1)"
    assert str(d) == "cuda:1"
    assert (d.type, d.index) == ("cuda", 1)
    assert core.device("cuda:3") == core.Device("cuda", 3)
    assert core.device("cuda:1", 2).index == 1  # the string's index wins
    assert core.device(2, 5) == core.device("cuda:5")
    assert core.device(core.DLDeviceType.kDLCPU) == core.device("cpu", 0)
    assert core.device("cpu").dlpack_device_type() == core.DLDeviceType.kDLCPU
    assert hash(core.device("cpu")) == hash(core.device("cpu", 0))
    assert core.device("cpu") != core.device("cpu", 1)
    r = echo(d)
    assert type(r) is core.Device and r == d
    with pytest.raises(ValueError, match="Unknown device: foo"):
        core.device("foo")
    assert pickle.loads(pickle.dumps(d)) == d

    class Dev:
        def __dlpack_device__(self):
            return (2, 7)

    assert echo(Dev()) == core.device("cuda", 7)


def test_dl_device_type_enum():
    t = core.DLDeviceType
    assert int(t.kDLCPU) == 1 and int(t.kDLCUDA) == 2 and int(t.kDLTrn) == 18
    assert t(2) is t.kDLCUDA


def test_shape():
    s = core.Shape((1, 2, 3))
    assert isinstance(s, tuple) and s == (1, 2, 3)
    r = echo(s)
    assert type(r) is core.Shape and r == (1, 2, 3)
    assert core.get_global_func("ffi.Shape")(4, 5) == (4, 5)


def test_opaque_ptr():
    r = echo(ctypes.c_void_p(0x1234))
    assert isinstance(r, ctypes.c_void_p) and r.value == 0x1234
    assert echo(ctypes.c_void_p(None)).value is None

    class P:
        def __tvm_ffi_opaque_ptr__(self):
            return 0x5678

    assert echo(P()).value == 0x5678


# ---- containers, objects, opaque Python objects --------------------------------------------

def test_containers_become_ffi_containers():
    r = echo([1, "two", 3.0, None])
    assert core._lookup_type_key(core._object_type_index(r)) == "ffi.Array"
    assert list(r) == [1, "two", 3.0, None]
    assert tuple(echo((1, (2, (3,))))[1]) == (2, (3,))
    m = echo({"a": 1, "b": [2]})
    assert core._lookup_type_key(core._object_type_index(m)) == "ffi.Map"
    assert m["a"] == 1 and list(m["b"]) == [2]
    assert len(echo(list(range(100)))) == 100


def test_object_round_trip_keeps_identity():
    o = make_obj()
    before = use_count(o)
    r = echo(o)
    assert r.same_as(o) and r == o and type(r) is type(o)
    assert r is not o
    del r
    assert use_count(o) == before


def test_opaque_python_object_comes_back_as_itself():
    class Thing:
        pass

    t = Thing()
    assert echo(t) is t
    arr = echo([t, t])
    assert arr[0] is t and arr[1] is t
    del arr
    assert echo(object) is not object  # a class is callable: it becomes a Function


def test_protocol_hooks():
    o = make_obj()

    class HasObj:
        def __tvm_ffi_object__(self):
            return o

    class HasInt:
        def __tvm_ffi_int__(self):
            return 7

    class HasFloat:
        def __tvm_ffi_float__(self):
            return 2.5

    class HasValue:
        def __tvm_ffi_value__(self):
            return "a value converted from __tvm_ffi_value__"

    assert echo(HasObj()).same_as(o)
    assert echo(HasInt()) == 7
    assert echo(HasFloat()) == 2.5
    assert echo(HasValue()) == "a value converted from __tvm_ffi_value__"


def test_protocol_errors_propagate():
    class Bad:
        def __tvm_ffi_int__(self):
            raise ZeroDivisionError("no int")

    with pytest.raises(ZeroDivisionError):
        echo(Bad())


def test_fractions_are_real():
    import fractions

    assert echo(fractions.Fraction(1, 4)) == 0.25


def test_convert():
    assert core.convert(1) == 1
    s = core.convert("ab")
    assert type(s) is core.String and s == "ab"
    b = core.convert(b"xy")
    assert type(b) is core.Bytes and b == b"xy"
    assert core._lookup_type_key(core._object_type_index(core.convert([1, 2]))) == "ffi.Array"
    assert core._lookup_type_key(core._object_type_index(core.convert({"k": 1}))) == "ffi.Map"
    f = core.convert(lambda x: x + 1)
    assert isinstance(f, core.Function) and f(1) == 2
    e = core.convert(ValueError("bad"))
    assert isinstance(e, core.Error) and e.kind == "ValueError" and e.message == "bad"
    thing = object()
    op = core.convert(thing)
    assert isinstance(op, core.Object)
    assert core._lookup_type_key(core._object_type_index(op)) == "ffi.OpaquePyObject"
    assert echo(op) is thing


def test_missing_and_kwargs_sentinels():
    assert repr(core.MISSING) == "<MISSING>"
    assert repr(core.KWARGS) == "<KWARGS>"
    assert echo(core.MISSING).same_as(core.MISSING)
    assert not core.MISSING.same_as(core.KWARGS)
    assert core.get_global_func("ffi.GetInvalidObject")().same_as(core.MISSING)


def test_callback_may_return_a_moved_object():
    # an RValueRef is never a result: the callback's result is moved into an owned value
    o = make_obj()
    apply = core.get_global_func("testing.apply")
    r = apply(lambda: o._move())
    assert r is not None and o.__chandle__() == 0


# ---- reference leaks -----------------------------------------------------------------------

def test_no_leak_scalar_and_string_calls(check_no_leak):
    def body():
        nop()
        nop(1, 2.0, True, None)
        echo("short")
        echo("a string long enough for the heap")
        echo(b"some bytes beyond seven")
        echo(core.dtype("int8"))
        echo(core.device("cuda", 1))
        echo(core.Shape((1, 2)))
        echo("emb\0edded nul in a long string")

    check_no_leak(body)


def test_no_leak_containers_objects_and_opaque(check_no_leak):
    o = make_obj()
    count = use_count(o)
    thing = object()

    def body():
        echo([1, "two", [3, o]])
        echo({"k": o, "j": [1, 2]})
        echo(o)
        echo(thing)
        core.convert(thing)
        core.convert(ValueError("x"))

    check_no_leak(body)
    assert use_count(o) == count


class _BadInt:
    def __tvm_ffi_int__(self):
        raise ValueError("no int")


def test_no_leak_on_conversion_errors(check_no_leak):
    def body():
        for args in (([1, 2, 1 << 80, _BadInt()],),
                     ("a long string that is converted first", 1 << 80, _BadInt())):
            try:
                nop(*args)
            except ValueError:
                continue
            raise AssertionError("no ValueError")

    check_no_leak(body)
