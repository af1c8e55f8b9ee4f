"""Tensor: the Python view of ffi.Tensor, from_dlpack, __dlpack__ and numpy arrays as
arguments (spec python_api.md 6.2-6.4).  numpy is the producer here; torch interop lives
in test_dlpack_interop.py."""
import gc
import sys
import threading
import weakref

import pytest

np = pytest.importorskip("numpy")
import tether  # noqa: E402
from tether import core  # noqa: E402

echo = tether.get_global_func("testing.echo")
nop = tether.get_global_func("testing.nop")
apply = tether.get_global_func("testing.apply")

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64"]


def ptr(a):
    return a.__array_interface__["data"][0]


# ---- the class -------------------------------------------------------------------------


def test_tensor_is_an_object():
    t = tether.from_dlpack(np.zeros(3))
    assert type(t) is core.Tensor
    assert isinstance(t, core.Object)
    assert core.Tensor.__name__ == "Tensor"


def test_properties_of_a_matrix():
    a = np.arange(12, dtype="float32").reshape(3, 4)
    t = tether.from_dlpack(a)
    assert t.shape == (3, 4)
    assert isinstance(t.shape, tuple)
    assert t.strides == (4, 1)
    assert t.ndim == 2
    assert t.dtype == "float32"
    assert str(t.device) == "cpu:0"
    assert t.data_ptr() == ptr(a)
    assert t.numel() == 12
    assert (t.size(0), t.size(1), t.size(-1), t.size(-2)) == (3, 4, 4, 3)
    assert t.is_contiguous()
    assert t.__dlpack_device__() == (1, 0)


@pytest.mark.parametrize("i", [2, -3, 100])
def test_size_out_of_range(i):
    t = tether.from_dlpack(np.zeros((2, 3)))
    with pytest.raises(IndexError, match=f"Dimension {i} out of range for tensor with 2 dimensions"):
        t.size(i)


def test_zero_dim_and_empty():
    z = tether.from_dlpack(np.array(5.0))
    assert (z.shape, z.strides, z.ndim, z.numel()) == ((), (), 0, 1)
    assert z.is_contiguous()
    e = tether.from_dlpack(np.zeros((2, 0, 3), dtype="int32"))
    assert e.shape == (2, 0, 3) and e.numel() == 0
    assert e.is_contiguous()  # any empty tensor counts as contiguous


@pytest.mark.parametrize("dtype", DTYPES)
def test_dtype_mapping(dtype):
    a = np.zeros((2, 3), dtype=dtype)
    t = tether.from_dlpack(a)
    assert t.dtype == dtype
    assert t.data_ptr() == ptr(a)
    back = np.from_dlpack(t)
    assert back.dtype == a.dtype
    assert ptr(back) == ptr(a)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_round_trip(dtype):
    a = np.arange(4).astype(dtype)
    back = np.from_dlpack(tether.from_dlpack(a))
    assert back.dtype == a.dtype and ptr(back) == ptr(a)


def test_subclass_of_ndarray():
    class Sub(np.ndarray):
        pass

    a = np.arange(6.0).view(Sub)
    t = tether.from_dlpack(a)
    assert t.data_ptr() == ptr(a) and t.shape == (6,)
    r = echo(a)
    assert r.data_ptr() == ptr(a)


# ---- strided views ------------------------------------------------------------------------


def test_non_contiguous_views():
    a = np.arange(24, dtype="int32").reshape(4, 6)
    v = a[:, ::2]
    t = tether.from_dlpack(v)
    assert t.shape == (4, 3) and t.strides == (6, 2)
    assert not t.is_contiguous()
    assert t.data_ptr() == ptr(v)
    np.testing.assert_array_equal(np.from_dlpack(t), v)

    tt = tether.from_dlpack(a.T)
    assert tt.shape == (6, 4) and tt.strides == (1, 6) and not tt.is_contiguous()

    r = tether.from_dlpack(a[::-1])
    assert r.strides == (-6, 1) and r.data_ptr() == ptr(a[::-1])
    np.testing.assert_array_equal(np.from_dlpack(r), a[::-1])


def test_size_one_dims_do_not_break_contiguity():
    a = np.zeros((3, 1, 4))
    assert tether.from_dlpack(a[:, :, :]).is_contiguous()
    assert tether.from_dlpack(a[:1]).is_contiguous()


def test_require_contiguous():
    a = np.zeros((4, 6))
    assert tether.from_dlpack(a, require_contiguous=True).is_contiguous()
    with pytest.raises(RuntimeError, match=r"^FromDLPack: Tensor is not contiguous\.$"):
        tether.from_dlpack(a[:, ::2], require_contiguous=True)


def test_require_alignment():
    a = np.zeros(64, dtype="float32")
    base = ptr(a)
    t = tether.from_dlpack(a, require_alignment=4)
    assert t.data_ptr() == base
    # base + 4 is never 64-byte aligned whatever the allocator's alignment of `base` is
    mis = a[1:] if base % 64 == 0 else a[(64 - base % 64) // 4 + 1:]
    with pytest.raises(RuntimeError, match=r"^FromDLPack: Data is not aligned to 64 bytes\.$"):
        tether.from_dlpack(mis, require_alignment=64)
    aligned = a[(64 - base % 64) % 64 // 4:]
    assert tether.from_dlpack(aligned, require_alignment=64).data_ptr() % 64 == 0


def test_from_dlpack_keywords():
    a = np.zeros(4)
    t = tether.from_dlpack(x=a, require_alignment=0, require_contiguous=False)
    assert t.data_ptr() == ptr(a)
    with pytest.raises(TypeError):
        tether.from_dlpack(a, bogus=1)
    with pytest.raises(TypeError):
        tether.from_dlpack()


# ---- bad input ----------------------------------------------------------------------------


@pytest.mark.parametrize("x", [3, "str", None, [1, 2], object(), 2.5, b"ab"])
def test_from_dlpack_rejects_non_tensors(x):
    with pytest.raises(TypeError, match="from_dlpack: expected an object with __dlpack__"):
        tether.from_dlpack(x)


def test_read_only_array_is_refused():
    a = np.zeros(3)
    a.flags.writeable = False
    with pytest.raises(BufferError):
        tether.from_dlpack(a)
    with pytest.raises(BufferError):
        nop(a)


@pytest.mark.parametrize("make", [
    lambda: np.zeros(3, dtype=">f4"),                                # byte-swapped
    lambda: np.zeros(3, dtype=object),                               # no DLPack code
    lambda: np.zeros(4, dtype=[("a", "i4"), ("b", "i1")])["a"],     # stride 5 bytes
    lambda: np.zeros(3, dtype="V4"),
])
def test_numpy_refusals_come_from_numpy(make):
    a = make()
    with pytest.raises(BufferError):
        tether.from_dlpack(a)
    with pytest.raises(BufferError):
        nop(a)


def test_broken_producers():
    class NotACapsule:
        def __dlpack__(self, **kw):
            return 42

    class Raises:
        def __dlpack__(self, **kw):
            raise ValueError("producer says no")

    with pytest.raises(TypeError, match=r"__dlpack__\(\) returned int, expected a PyCapsule"):
        tether.from_dlpack(NotACapsule())
    with pytest.raises(ValueError, match="producer says no"):
        tether.from_dlpack(Raises())
    with pytest.raises(ValueError, match="producer says no"):
        nop(Raises())


def test_legacy_producer_without_max_version():
    class Legacy:
        def __init__(self, a):
            self.a = a

        def __dlpack__(self, stream=None):
            return self.a.__dlpack__(stream=stream)

    a = np.arange(5.0)
    t = tether.from_dlpack(Legacy(a))
    assert t.data_ptr() == ptr(a)


# ---- capsules and __dlpack__ ------------------------------------------------------------


def test_capsule_input_and_reuse():
    a = np.arange(3.0)
    cap = a.__dlpack__()
    t = tether.from_dlpack(cap)
    assert t.data_ptr() == ptr(a)
    assert "used_dltensor" in repr(cap)
    with pytest.raises(TypeError, match="already consumed"):
        tether.from_dlpack(cap)
    vcap = a.__dlpack__(max_version=(1, 0))
    assert tether.from_dlpack(vcap).data_ptr() == ptr(a)
    assert "used_dltensor_versioned" in repr(vcap)


def test_dlpack_export_kinds():
    t = tether.from_dlpack(np.zeros(3))
    assert '"dltensor"' in repr(t.__dlpack__())
    assert '"dltensor"' in repr(t.__dlpack__(max_version=(0, 8)))
    assert '"dltensor_versioned"' in repr(t.__dlpack__(max_version=(1, 0)))
    assert '"dltensor_versioned"' in repr(t.__dlpack__(max_version=(2, 3)))
    assert '"dltensor"' in repr(t.__dlpack__(None, None, (1, 0), False))
    assert '"dltensor_versioned"' in repr(t.__dlpack__(stream=None, dl_device=(1, 0), copy=None,
                                                         max_version=(1, 3)))
    # an unconsumed capsule releases its tensor when it dies (checked by the leak test)
    for _ in range(3):
        t.__dlpack__(max_version=(1, 0))


def test_dlpack_export_errors():
    t = tether.from_dlpack(np.zeros(3))
    with pytest.raises(BufferError, match="dl_device"):
        t.__dlpack__(dl_device=(2, 0))
    with pytest.raises(BufferError, match="copy=True"):
        t.__dlpack__(copy=True)
    with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
        t.__dlpack__(bogus=1)
    with pytest.raises(TypeError, match="multiple values for argument 'stream'"):
        t.__dlpack__(None, stream=None)
    with pytest.raises(TypeError, match="max_version must be a tuple of two ints"):
        t.__dlpack__(max_version=1)
    with pytest.raises(TypeError, match="stream must be None or an int"):
        t.__dlpack__(stream="s")
    with pytest.raises(TypeError, match="at most 4 arguments"):
        t.__dlpack__(None, None, None, None, None)


def test_tensor_round_trips_through_tensor():
    a = np.arange(4.0)
    t = tether.from_dlpack(a)
    t2 = tether.from_dlpack(t)
    assert t2.data_ptr() == ptr(a) and t2.shape == (4,)


# ---- arguments ------------------------------------------------------------------------------


def test_echo_shares_memory():
    a = np.arange(6, dtype="int64").reshape(2, 3)
    r = echo(a)
    assert type(r) is core.Tensor
    assert r.data_ptr() == ptr(a)
    assert r.shape == (2, 3) and r.strides == (3, 1) and r.dtype == "int64"
    b = np.from_dlpack(r)
    b[1, 2] = 99
    assert a[1, 2] == 99


def test_echo_of_a_tensor_is_the_same_ffi_object():
    t = tether.from_dlpack(np.zeros(2))
    r = echo(t)
    assert r.same_as(t)


def test_kept_argument_tensors_are_never_recycled():
    arrays = [np.full((2, 2), i, dtype="float32") for i in range(40)]
    kept = [echo(a) for a in arrays]   # each call's tensor is kept by its result
    for _ in range(3):
        nop(*arrays[:8])               # recycling churns while the results live
    for a, r in zip(arrays, kept):
        assert r.data_ptr() == ptr(a)
        assert r.shape == (2, 2)
        np.testing.assert_array_equal(np.from_dlpack(r), a)


def test_callback_keeps_the_argument():
    seen = []
    a = np.arange(5.0)
    b = np.arange(7, dtype="int8")
    apply(lambda x, y: seen.append((x, y)), a, b)
    nop(np.zeros(5), np.zeros(7))       # would reuse recycled tensors of rank 1
    x, y = seen[0]
    assert x.data_ptr() == ptr(a) and x.shape == (5,) and x.dtype == "float64"
    assert y.data_ptr() == ptr(b) and y.shape == (7,) and y.dtype == "int8"


def test_argument_shapes_change_between_calls():
    for shape in [(3,), (2, 5), (4, 1, 2), (), (0,), (2, 3, 4, 5, 6, 1, 2, 1, 3)]:
        a = np.zeros(shape, dtype="float32")
        r = echo(a)
        assert r.shape == shape and r.data_ptr() == ptr(a)
        assert r.strides == tuple(s // 4 for s in a.strides)
    v = np.arange(30).reshape(5, 6)[::2, 1::3]
    r = echo(v)
    assert r.strides == (12, 3) and r.data_ptr() == ptr(v)


def test_arguments_do_not_keep_arrays_alive():
    a = np.zeros(1000)
    before = sys.getrefcount(a)
    for _ in range(100):
        nop(a, a, a)
    assert sys.getrefcount(a) == before
    w = weakref.ref(a)
    del a
    gc.collect()
    assert w() is None


def test_threads_calling_with_arrays():
    errors = []

    def work(k):
        try:
            for i in range(2000):
                a = np.full(3, k * 10000 + i, dtype="int64")
                r = echo(a)
                assert r.data_ptr() == ptr(a)
                assert np.from_dlpack(r)[0] == k * 10000 + i
                nop(a, a)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    ts = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors


# ---- lifetime -------------------------------------------------------------------------------


def test_tensor_keeps_numpy_array_alive():
    a = np.arange(10.0)
    w = weakref.ref(a)
    address = ptr(a)
    t = tether.from_dlpack(a)
    del a
    gc.collect()
    assert w() is not None
    assert np.from_dlpack(t)[9] == 9.0 and t.data_ptr() == address
    del t
    gc.collect()
    assert w() is None


def test_numpy_array_keeps_tensor_alive():
    a = np.arange(10.0)
    w = weakref.ref(a)
    b = np.from_dlpack(tether.from_dlpack(a))
    del a
    gc.collect()
    assert w() is not None
    assert b[3] == 3.0
    del b
    gc.collect()
    assert w() is None


def test_echo_result_keeps_array_alive():
    a = np.arange(4.0)
    w = weakref.ref(a)
    r = echo(a)
    del a
    gc.collect()
    assert w() is not None
    assert np.from_dlpack(r)[3] == 3.0
    del r
    gc.collect()
    assert w() is None


def test_no_leaks_across_round_trips():
    a = np.arange(12, dtype="float32").reshape(3, 4)

    def once():
        t = tether.from_dlpack(a)
        b = np.from_dlpack(t)
        r = echo(b)
        c = np.from_dlpack(r)
        nop(a, b, c)
        tether.from_dlpack(c.__dlpack__(max_version=(1, 0)))
        t.__dlpack__()                          # never consumed
        try:
            tether.from_dlpack(a[:, ::2], require_contiguous=True)
        except RuntimeError:
            pass

    for _ in range(100):
        once()
    gc.collect()
    objects = core._live_object_count()
    refs = sys.getrefcount(a)
    for _ in range(10000):
        once()
    gc.collect()
    assert core._live_object_count() == objects
    assert sys.getrefcount(a) == refs


def test_tensor_without_handle_raises():
    t = core.Tensor.__new__(core.Tensor)
    for f in (lambda: t.shape, lambda: t.dtype, lambda: t.data_ptr(), lambda: t.numel(),
              lambda: t.__dlpack__(), lambda: t.__dlpack_device__(), lambda: echo(t),
              lambda: tether.from_dlpack(t)):
        with pytest.raises(ValueError, match="handle"):
            f()


def test_constant_tensor_shares_a_read_only_array():
    """core._constant_tensor: a Tensor over a read-only array's memory (an IR constant over
    an ONNX initializer's bytes), no copy; the array lives as long as the Tensor."""
    raw = np.arange(12, dtype="<f4").tobytes()
    arr = np.frombuffer(raw, dtype="<f4").reshape(3, 4)
    assert not arr.flags.writeable
    with pytest.raises(BufferError):
        core.from_dlpack(arr)  # numpy's exporter refuses read-only arrays
    t = core._constant_tensor(arr)
    del arr
    assert t.shape == (3, 4) and str(t.dtype) == "float32"
    back = np.from_dlpack(t)
    np.testing.assert_array_equal(back, np.arange(12, dtype="float32").reshape(3, 4))
    assert back.ctypes.data == np.frombuffer(raw, dtype="<f4").ctypes.data  # shared
    strided = np.arange(10, dtype="int64")[::2]
    strided.flags.writeable = False
    assert np.from_dlpack(core._constant_tensor(strided)).tolist() == [0, 2, 4, 6, 8]


@pytest.mark.parametrize("bad", [[1, 2], np.array(["a"]), np.array([1.0], dtype=">f8"),
                                 np.array([None])])
def test_constant_tensor_rejects_what_it_cannot_view(bad):
    with pytest.raises(TypeError, match="_constant_tensor: expected a numpy array"):
        core._constant_tensor(bad)
