"""Build the torch DLPack addon: a shared library whose ``TorchDLPackExchangeAPIPtr()``
returns the address of a DLPackExchangeAPI implemented over the installed torch.

    python _build_optional_torch_c_dlpack.py --output-dir DIR --libname NAME
        [--build-with-cuda | --build-with-rocm]

tether._optional_torch_c_dlpack runs this for torch versions without their own
``torch.Tensor.__dlpack_c_exchange_api__``.  Several processes may build the same library
at once: they take turns on a lock file next to it, and whoever finds the library already
built leaves it alone.  The library is written under a temporary name and renamed into
place, so a reader never sees a partial file.
"""
from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

# The addon, over ATen's DLPack converters.  Every entry point catches C++ exceptions and
# reports failure with -1 (and a Python error where the caller is Python-facing).
_SOURCE = r"""
#include <ATen/ATen.h>
#include <ATen/DLConvertor.h>
#include <ATen/dlpack.h>
#include <torch/csrc/autograd/python_variable.h>
#ifdef TETHER_ADDON_CUDA
#include <c10/cuda/CUDAStream.h>
#endif

#include <exception>
#include <vector>

namespace {

int Fail(const std::exception& e) {
  PyErr_SetString(PyExc_RuntimeError, e.what());
  return -1;
}

int AllocateTensor(DLTensor* prototype, DLManagedTensorVersioned** out, void* error_ctx,
                   void (*set_error)(void* error_ctx, const char* kind, const char* message)) {
  try {
    std::vector<int64_t> shape(prototype->shape, prototype->shape + prototype->ndim);
    at::TensorOptions options =
        at::TensorOptions()
            .dtype(at::toScalarType(prototype->dtype))
            .device(at::dlDeviceToTorchDevice(prototype->device.device_type,
                                              static_cast<c10::DeviceIndex>(
                                                  prototype->device.device_id)));
    *out = at::toDLPackVersioned(at::empty(shape, options));
    return 0;
  } catch (const std::exception& e) {
    if (set_error != nullptr) set_error(error_ctx, "RuntimeError", e.what());
    return -1;
  }
}

int ManagedFromPyObject(void* py_obj, DLManagedTensorVersioned** out) {
  try {
    *out = at::toDLPackVersioned(THPVariable_Unpack(static_cast<PyObject*>(py_obj)));
    return 0;
  } catch (const std::exception& e) {
    return Fail(e);
  }
}

int ManagedToPyObject(DLManagedTensorVersioned* src, void** py_obj_out) {
  try {
    at::Tensor tensor = at::fromDLPackVersioned(src);
    *py_obj_out = THPVariable_Wrap(std::move(tensor));
    return *py_obj_out != nullptr ? 0 : -1;
  } catch (const std::exception& e) {
    return Fail(e);
  }
}

int DLTensorFromPyObject(void* py_obj, DLTensor* out) {
  try {
    at::toDLPackNonOwning(THPVariable_Unpack(static_cast<PyObject*>(py_obj)), out);
    return 0;
  } catch (const std::exception& e) {
    return Fail(e);
  }
}

int CurrentWorkStream(DLDeviceType device_type, int32_t device_id, void** out_stream) {
  try {
    *out_stream = nullptr;
#ifdef TETHER_ADDON_CUDA
    if (device_type == kDLCUDA || device_type == kDLROCM) {
      *out_stream = c10::cuda::getCurrentCUDAStream(device_id).stream();
    }
#endif
    return 0;
  } catch (const std::exception& e) {
    return Fail(e);
  }
}

DLPackExchangeAPI MakeApi() {
  DLPackExchangeAPI api{};
  api.header.version.major = DLPACK_MAJOR_VERSION;
  api.header.version.minor = DLPACK_MINOR_VERSION;
  api.header.prev_api = nullptr;
  api.managed_tensor_allocator = AllocateTensor;
  api.managed_tensor_from_py_object_no_sync = ManagedFromPyObject;
  api.managed_tensor_to_py_object_no_sync = ManagedToPyObject;
  api.dltensor_from_py_object_no_sync = DLTensorFromPyObject;
  api.current_work_stream = CurrentWorkStream;
  return api;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int64_t TorchDLPackExchangeAPIPtr() {
  static DLPackExchangeAPI api = MakeApi();
  return reinterpret_cast<int64_t>(&api);
}
"""


def _torch_paths(with_cuda: bool) -> tuple:
    """(include dirs, library dir) of the installed torch."""
    import torch.utils.cpp_extension as ext

    includes = ext.include_paths("cuda" if with_cuda else "cpu")
    return includes, str(Path(ext.__file__).resolve().parents[1] / "lib")


def _compile(source: Path, output: Path, with_cuda: bool, with_rocm: bool) -> None:
    import torch

    includes, libdir = _torch_paths(with_cuda)
    cxx = os.environ.get("CXX", "c++")
    cmd = [cxx, "-shared", "-fPIC", "-O2", "-std=c++17", "-fvisibility=hidden",
           f"-D_GLIBCXX_USE_CXX11_ABI={int(torch.compiled_with_cxx11_abi())}",
           f"-I{sysconfig.get_paths()['include']}"]
    cmd += [f"-I{d}" for d in includes]
    libs = ["c10", "torch", "torch_cpu", "torch_python"]
    if with_cuda or with_rocm:
        cmd.append("-DTETHER_ADDON_CUDA")
        libs += ["c10_cuda", "torch_cuda"] if with_cuda else ["c10_hip", "torch_hip"]
    cmd += [str(source), "-o", str(output), f"-L{libdir}", f"-Wl,-rpath,{libdir}"]
    cmd += [f"-l{name}" for name in libs]
    cmd += shlex.split(os.environ.get("TVM_FFI_TORCH_C_DLPACK_EXTRA_FLAGS", ""))
    done = subprocess.run(cmd, check=False, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(" ".join(cmd) + "\n" + done.stdout + done.stderr)
        raise SystemExit(done.returncode)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output-dir", required=True, help="folder of the built library")
    parser.add_argument("--libname", required=True, help="file name of the built library")
    parser.add_argument("--build-with-cuda", action="store_true", help="use torch's CUDA stream")
    parser.add_argument("--build-with-rocm", action="store_true", help="use torch's HIP stream")
    args = parser.parse_args()

    out_dir = Path(args.output_dir).resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / args.libname
    lock_fd = os.open(str(out_dir / (args.libname + ".lock")), os.O_RDWR | os.O_CREAT, 0o666)
    try:
        try:
            import fcntl

            fcntl.flock(lock_fd, fcntl.LOCK_EX)
        except ImportError:  # no advisory locks: the rename below still keeps files whole
            pass
        if target.exists():
            return
        with tempfile.TemporaryDirectory(dir=out_dir) as work:
            source = Path(work) / "addon.cc"
            source.write_text(_SOURCE)
            partial = Path(work) / args.libname
            _compile(source, partial, args.build_with_cuda, args.build_with_rocm)
            os.replace(partial, target)
    finally:
        os.close(lock_fd)


if __name__ == "__main__":
    main()
