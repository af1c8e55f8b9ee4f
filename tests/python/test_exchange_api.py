"""The DLPack exchange API (`__dlpack_c_exchange_api__`) as a call sees it: producers that
offer only owning managed tensors (DLTensorTestWrapper), and the framework allocator a
kernel reaches through TVMFFIEnvTensorAlloc while a framework tensor is an argument."""
import numpy as np
import pytest

import tether
import tether.cpp
from tether import core
from tether.core import TypeSchema

torch = pytest.importorskip("torch")

ALLOC_KERNEL = r"""
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>
static DLTensor* dl_of(TVMFFIObjectHandle t) {
  return (DLTensor*)((char*)t + sizeof(TVMFFIObject));
}
/* plus_one(x: 1-d float32 Tensor) -> a new Tensor from the environment allocator */
TVM_FFI_DLL_EXPORT int __tvm_ffi_plus_one(void* self, const TVMFFIAny* args, int32_t n,
                                          TVMFFIAny* result) {
  DLTensor* x = dl_of(args[0].v_obj);
  TVMFFIObjectHandle y = NULL;
  if (TVMFFIEnvTensorAlloc(x, &y) != 0) return -1;
  DLTensor* yd = dl_of(y);
  for (int64_t i = 0; i < x->shape[0]; ++i) {
    ((float*)yd->data)[i] = ((const float*)x->data)[i] + 1.0f;
  }
  result->type_index = kTVMFFITensor;
  result->zero_padding = 0;
  result->v_obj = y;
  return 0;
}
"""


def _wrapper(values):
    return core.DLTensorTestWrapper(tether.from_dlpack(np.asarray(values)))


def test_wrapper_advertises_a_managed_tensor_api():
    cap = core.DLTensorTestWrapper.__dlpack_c_exchange_api__
    assert type(cap).__name__ == "PyCapsule" and "dlpack_exchange_api" in repr(cap)
    w = _wrapper(np.arange(4, dtype="int32"))
    w.tag = 1  # instances carry a __dict__
    assert w.__dict__ == {"tag": 1}
    assert w.__dlpack_device__() == (1, 0) and w.__tvm_ffi_env_stream__() == 0
    np.testing.assert_array_equal(np.from_dlpack(w), np.arange(4, dtype="int32"))
    with pytest.raises(TypeError):
        core.DLTensorTestWrapper(np.arange(3))  # wraps a tether Tensor only
    empty = core.DLTensorTestWrapper.__new__(core.DLTensorTestWrapper)
    with pytest.raises(ValueError, match="no tensor"):
        tether.get_global_func("testing.echo")(empty)


def test_wrapper_passes_through_its_exchange_api():
    data = np.arange(6, dtype="float32")
    tensor = tether.from_dlpack(data)
    w = core.DLTensorTestWrapper(tensor)
    back = tether.get_global_func("testing.echo")(w)
    # the result came back through the wrapper's managed_tensor_to_py_object: a Tensor
    assert isinstance(back, tether.Tensor) and back.shape == (6,)
    assert back.data_ptr() == tensor.data_ptr()  # the same memory, no copy
    nested = tether.get_global_func("testing.echo")([w])
    assert isinstance(nested[0], tether.Tensor)
    schema = TypeSchema.from_annotation(tether.Tensor)
    schema.check_value(w)
    assert isinstance(core._to_py_class_value(schema.convert(w)), tether.Tensor)


@pytest.fixture(scope="module")
def alloc_mod(tmp_path_factory):
    d = tmp_path_factory.mktemp("alloc")
    src = d / "alloc.c"
    src.write_text(ALLOC_KERNEL)
    return tether.load_module(tether.cpp.build("alloc", sources=[str(src)],
                                               build_directory=str(d)))


def test_torch_argument_lends_torchs_allocator(alloc_mod):
    api = getattr(torch.Tensor, "__dlpack_c_exchange_api__", None)
    if api is None:
        pytest.skip("this torch has no __dlpack_c_exchange_api__")
    x = torch.arange(5, dtype=torch.float32)
    y = alloc_mod.plus_one(x)
    # allocated by torch (its allocator), handed back as a torch tensor
    assert isinstance(y, torch.Tensor) and y.dtype == torch.float32
    torch.testing.assert_close(y, x + 1)


def test_env_allocator_is_only_lent_for_the_call(alloc_mod):
    if getattr(torch.Tensor, "__dlpack_c_exchange_api__", None) is not None:
        alloc_mod.plus_one(torch.zeros(2))
    # numpy and the test wrapper bring no allocator, and torch's is not left behind
    for arg in (np.zeros(3, dtype="float32"), _wrapper(np.zeros(3, dtype="float32"))):
        with pytest.raises(RuntimeError, match="TVMFFIEnvTensorAlloc: allocator is nullptr"):
            alloc_mod.plus_one(arg)
