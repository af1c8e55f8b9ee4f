"""The call fast path of Function (src/python/function.c, convert.h): arguments converted
inline into a stack array (exact int/float/str/Object), the out-of-line conversions
(tensors first, then the value types and protocols), argument-count boundaries, and the
recycling of argument Tensors made from numpy arrays (tensor.c's pool, reached through
tpy_temps_release)."""
import gc
import sys

import pytest

import tether
from tether import core

echo = tether.get_global_func("testing.echo")
nop = tether.get_global_func("testing.nop")
apply = tether.get_global_func("testing.apply")


def collect(*args):
    return args


# ---- strings ---------------------------------------------------------------------------------


@pytest.mark.parametrize("n", list(range(0, 20)) + [23, 24, 25, 31, 32, 33, 63, 64, 65, 66, 130])
def test_str_with_and_without_nul_round_trips(n):
    # SmallStr (<= 7 bytes), RawStr views (the NUL scan reads the first and last words, the
    # words between, or memchr beyond 64 bytes), and a String copy when there is a NUL.
    base = "".join(chr(ord("a") + i % 26) for i in range(n))
    cases = [base]
    for pos in {0, n // 2, n - 1} if n else ():
        cases.append(base[:pos] + "\0" + base[pos + 1:])
    for s in cases:
        for v in (s, "\u00e9" + s, "\U0001f600" + s):
            r = echo(v)
            assert isinstance(r, str) and r == v
            (seen,) = apply(collect, v)
            assert isinstance(seen, str) and seen == v


def test_str_subclass_and_dtype_arguments():
    class S(str):
        pass

    r = echo(S("a subclassed string"))
    assert isinstance(r, str) and r == "a subclassed string"
    d = echo(tether.dtype("float32"))
    assert str(d) == "float32"


# ---- argument counts and the general path ----------------------------------------------------


@pytest.mark.parametrize("n", [0, 1, 2, 14, 15, 16, 17, 40])
def test_argument_counts(n):
    # apply(f, *args): n + 1 arguments at the boundary of the stack array (16).
    values = [i if i % 4 == 0 else float(i) if i % 4 == 1 else "s%d-long-string" % i
              if i % 4 == 2 else None for i in range(n)]
    assert apply(collect, *values) == tuple(values)


def test_keywords_are_rejected():
    with pytest.raises(TypeError, match="keyword"):
        echo(x=1)


def test_release_gil_path():
    f = core.Function(echo)
    f.release_gil = True
    assert f("released string argument") == "released string argument"
    assert f(7) == 7
    g = core.Function(nop)
    g.release_gil = True
    assert g() is None


def test_big_and_negative_ints():
    for v in (0, 1, -1, 2**30, -(2**30), 2**31, 2**62, -(2**63), 2**63 - 1):
        assert echo(v) == v
    for v in (2**63, -(2**63) - 1, 2**200):  # beyond int64: an ffi.BigInt both ways
        assert echo(v) == v and type(echo(v)) is int


def test_objects_and_moved_objects():
    make = tether.get_global_func("testing.make_unregistered_object")
    o = make()
    assert echo(o).__chandle__() == o.__chandle__()
    o2 = make()
    echo(o2._move())
    with pytest.raises(ValueError, match="without a handle"):
        echo(o2)


# ---- numpy arguments and the Tensor pool -----------------------------------------------------


np = pytest.importorskip("numpy")


def ptr(a):
    return a.__array_interface__["data"][0]


def test_numpy_arguments_release_their_arrays():
    a = np.arange(12, dtype="float32").reshape(3, 4)
    before = sys.getrefcount(a)
    for _ in range(50):
        nop(a, a, a)
    assert sys.getrefcount(a) == before


def test_kept_argument_tensor_is_not_recycled():
    a = np.arange(6, dtype="int64").reshape(2, 3)
    kept = echo(a)  # the callee returns the argument Tensor: it must stay a view of `a`
    for k in range(40):
        b = np.full((4, 5), k, dtype="float64")
        nop(b)
        echo(b)
    assert kept.shape == (2, 3) and kept.dtype == "int64"
    assert kept.data_ptr() == ptr(a)
    del a
    gc.collect()
    assert kept.shape == (2, 3)


def test_callback_keeps_argument_tensor():
    stash = []
    arrays = [np.arange(n, dtype="float32") for n in range(1, 6)]
    for arr in arrays:
        apply(stash.append, arr)
        nop(np.zeros(7, dtype="float32"))  # same rank: would reuse a pooled Tensor
    for arr, t in zip(arrays, stash):
        assert t.shape == arr.shape and t.data_ptr() == ptr(arr)


def test_mixed_ranks_and_types_in_one_call():
    xs = [np.zeros(()), np.zeros(3), np.zeros((2, 2)), np.zeros((1, 2, 3)), 5, "text arg 123",
          np.zeros((2, 1, 1, 1, 1, 1, 1, 1, 1))]
    for _ in range(5):
        seen = apply(collect, *xs)
        assert len(seen) == len(xs)
        for x, s in zip(xs, seen):
            if isinstance(x, np.ndarray):
                assert s.shape == x.shape and s.data_ptr() == ptr(x)
            else:
                assert s == x
