"""Zero-copy exchange with torch (CPU) and between frameworks through tether: torch tensors
as arguments (the DLPack C exchange API when torch offers it, else __dlpack__), Tensor
results handed back to torch and numpy, pointer identity, dtypes, strides, lifetimes."""
import gc
import sys
import weakref

import pytest

torch = pytest.importorskip("torch")
np = pytest.importorskip("numpy")
import tether  # noqa: E402
from tether import core  # noqa: E402

echo = tether.get_global_func("testing.echo")
nop = tether.get_global_func("testing.nop")
apply = tether.get_global_func("testing.apply")

TORCH_DTYPES = [
    (torch.bool, "bool"), (torch.int8, "int8"), (torch.int16, "int16"),
    (torch.int32, "int32"), (torch.int64, "int64"), (torch.uint8, "uint8"),
    (torch.float16, "float16"), (torch.bfloat16, "bfloat16"),
    (torch.float32, "float32"), (torch.float64, "float64"),
]


def test_torch_offers_the_exchange_api():
    # torch >= 2.9 exposes the C exchange table used for fast arguments
    if not hasattr(torch.Tensor, "__dlpack_c_exchange_api__"):
        pytest.skip("this torch has no __dlpack_c_exchange_api__")
    cap = torch.Tensor.__dlpack_c_exchange_api__
    assert "dlpack_exchange_api" in repr(cap)


@pytest.mark.parametrize("tdtype,name", TORCH_DTYPES)
def test_torch_to_tether_to_torch(tdtype, name):
    x = torch.arange(6).reshape(2, 3).to(tdtype)
    t = tether.from_dlpack(x)
    assert t.dtype == name
    assert t.shape == (2, 3) and t.strides == (3, 1)
    assert t.data_ptr() == x.data_ptr()
    assert t.__dlpack_device__() == (1, 0)
    y = torch.from_dlpack(t)
    assert y.dtype == tdtype and y.data_ptr() == x.data_ptr()
    assert torch.equal(y, x)


@pytest.mark.parametrize("tdtype,name", TORCH_DTYPES)
def test_torch_argument_dtypes(tdtype, name):
    x = torch.zeros(4, 5, dtype=tdtype)
    r = echo(tether.from_dlpack(x))
    assert type(r) is core.Tensor
    assert r.dtype == name and r.shape == (4, 5)
    assert r.data_ptr() == x.data_ptr()
    # a torch argument makes the call hand its Tensor result back as torch
    t = echo(x)
    assert type(t) is torch.Tensor and t.dtype == tdtype and t.data_ptr() == x.data_ptr()


def test_torch_views_and_strides():
    x = torch.arange(24, dtype=torch.float32).reshape(4, 6)
    for v, strides in [(x.t(), (1, 6)), (x[:, ::2], (6, 2)), (x[1:, 2:], (6, 1)),
                       (x.unsqueeze(1), (6, 6, 1)), (x[2], (1,))]:
        assert v.stride() == strides
        for t in (tether.from_dlpack(v), echo(tether.from_dlpack(v))):
            assert t.shape == tuple(v.shape)
            assert t.strides == strides
            assert t.data_ptr() == v.data_ptr()
            assert t.is_contiguous() == v.is_contiguous()
            assert torch.equal(torch.from_dlpack(t), v)
        back = echo(v)  # torch in, torch out: the same view of the same memory
        assert type(back) is torch.Tensor and back.stride() == strides
        assert back.data_ptr() == v.data_ptr() and torch.equal(back, v)
    with pytest.raises(RuntimeError, match=r"^FromDLPack: Tensor is not contiguous\.$"):
        tether.from_dlpack(x.t(), require_contiguous=True)


def test_torch_alignment_check():
    x = torch.zeros(64, dtype=torch.float32)
    off = x.data_ptr() % 64
    aligned = x[(64 - off) % 64 // 4:]
    assert tether.from_dlpack(aligned, require_alignment=64).data_ptr() % 64 == 0
    with pytest.raises(RuntimeError, match=r"^FromDLPack: Data is not aligned to 64 bytes\.$"):
        tether.from_dlpack(aligned[1:], require_alignment=64)


def test_torch_scalar_and_empty():
    s = torch.tensor(3.5)
    t = echo(s)
    assert t.shape == () and t.numel() == 1 and t.data_ptr() == s.data_ptr()
    e = torch.zeros(3, 0)
    assert echo(e).shape == (3, 0)


def test_requires_grad_tensor_as_argument():
    x = torch.ones(3, requires_grad=True)
    r = echo(x)
    assert r.data_ptr() == x.data_ptr()


def test_writes_are_shared_both_ways():
    x = torch.zeros(5)
    y = torch.from_dlpack(echo(x))
    y[2] = 7
    assert x[2].item() == 7
    n = np.from_dlpack(tether.from_dlpack(x))
    n[4] = 9
    assert x[4].item() == 9


def test_numpy_to_torch_through_tether():
    a = np.arange(8, dtype="int32")
    y = torch.from_dlpack(echo(a))
    assert y.data_ptr() == a.__array_interface__["data"][0]
    assert y.dtype == torch.int32 and y.tolist() == list(range(8))


def test_torch_to_numpy_through_tether():
    x = torch.arange(8, dtype=torch.float64)
    n = np.from_dlpack(echo(x))
    assert n.__array_interface__["data"][0] == x.data_ptr()
    assert n.tolist() == x.tolist()


def test_mixed_arguments_and_callbacks():
    seen = []
    x = torch.arange(3.0)
    a = np.arange(4.0)
    apply(lambda *args: seen.append(args), x, a, 5)
    nop(torch.zeros(3), np.zeros(4))  # churn the recycled argument tensors
    tx, ta, five = seen[0]
    assert tx.data_ptr() == x.data_ptr() and tx.shape == (3,)
    assert ta.data_ptr() == a.__array_interface__["data"][0] and ta.shape == (4,)
    assert five == 5


def test_kept_torch_arguments_are_never_recycled():
    xs = [torch.full((3,), float(i)) for i in range(30)]
    kept = [echo(x) for x in xs]
    nop(*xs[:6])
    for x, r in zip(xs, kept):
        assert r.data_ptr() == x.data_ptr()
        assert torch.equal(torch.from_dlpack(r), x)


def test_tensor_keeps_torch_tensor_alive():
    x = torch.arange(10.0)
    w = weakref.ref(x)
    t = tether.from_dlpack(x)
    r = echo(x)
    del x
    gc.collect()
    assert w() is not None
    assert torch.from_dlpack(t)[9].item() == 9.0
    del t
    gc.collect()
    assert w() is not None  # r still holds it
    del r
    gc.collect()
    assert w() is None


def test_torch_tensor_keeps_tensor_alive():
    x = torch.arange(10.0)
    w = weakref.ref(x)
    y = torch.from_dlpack(tether.from_dlpack(x))
    del x
    gc.collect()
    assert w() is not None
    assert y[3].item() == 3.0
    del y
    gc.collect()
    assert w() is None


def test_arguments_do_not_keep_torch_tensors_alive():
    x = torch.zeros(100)
    before = sys.getrefcount(x)
    for _ in range(100):
        nop(x, x, x)
    assert sys.getrefcount(x) == before
    w = weakref.ref(x)
    del x
    gc.collect()
    assert w() is None


def test_torch_through_the_python_protocol():
    # A wrapper without the C exchange API takes the __dlpack__ path (versioned capsule).
    class Wrapped:
        def __init__(self, x):
            self.x = x

        def __dlpack__(self, **kw):
            return self.x.__dlpack__(**kw)

        def __dlpack_device__(self):
            return self.x.__dlpack_device__()

    x = torch.arange(6.0).reshape(2, 3).t()
    for r in (echo(Wrapped(x)), tether.from_dlpack(Wrapped(x))):
        assert r.data_ptr() == x.data_ptr() and r.strides == (1, 3) and r.shape == (3, 2)
    w = weakref.ref(x)
    r = echo(Wrapped(x))
    del x
    gc.collect()
    assert w() is not None
    del r
    gc.collect()
    assert w() is None


def test_no_leaks_across_torch_round_trips():
    x = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    a = np.arange(12, dtype="float32").reshape(3, 4)

    def once():
        t = tether.from_dlpack(x)
        y = torch.from_dlpack(t)
        r = echo(y)
        z = torch.from_dlpack(r)
        nop(x, y, z, a)
        np.from_dlpack(echo(x))
        tether.from_dlpack(x.t())

    for _ in range(100):
        once()
    gc.collect()
    objects = core._live_object_count()
    refs = sys.getrefcount(x), sys.getrefcount(a)
    for _ in range(10000):
        once()
    gc.collect()
    assert core._live_object_count() == objects
    assert (sys.getrefcount(x), sys.getrefcount(a)) == refs
