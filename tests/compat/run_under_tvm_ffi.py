"""Runs the kernel tether built (examples/kernel/add_one_kernel.c, linked to tether's
libtvm_ffi.so alias) under apache-tvm-ffi, in a process that never loads libtether.

    python run_under_tvm_ffi.py <add_one_kernel.so>

The kernel records DT_NEEDED libtvm_ffi.so; here that name is already taken by the real
libtvm_ffi.so that `import tvm_ffi` loaded, so every ABI call of the kernel lands in tvm-ffi.
"""
import sys

import numpy as np
import tvm_ffi


def main(path):
    mod = tvm_ffi.load_module(path)
    x = np.arange(4, dtype="float32")
    y = np.zeros(4, dtype="float32")
    mod.add_one_cpu(tvm_ffi.from_dlpack(x), tvm_ffi.from_dlpack(y))
    assert (y == x + 1).all(), y

    get_doc = tvm_ffi.get_global_func("ffi.ModuleGetFunctionDoc")
    doc = get_doc(mod, "add_one_cpu", False)
    assert doc.startswith("add_one_cpu(x, y): y[i] = x[i] + 1"), doc
    get_metadata = tvm_ffi.get_global_func("ffi.ModuleGetFunctionMetadata")
    assert "type_schema" in get_metadata(mod, "add_one_cpu", False)

    try:
        mod.add_one_cpu(7, tvm_ffi.from_dlpack(y))
    except TypeError as err:
        assert "add_one_cpu: argument `x` must be a tensor" in str(err), err
    else:
        raise AssertionError("a bad argument did not raise")

    with open("/proc/self/maps") as maps:
        mapped = maps.read()
    assert "libtether" not in mapped, "libtether was loaded into the tvm-ffi process"
    assert "tvm_ffi/lib/libtvm_ffi.so" in mapped
    print("ok: tether-built kernel ran under apache-tvm-ffi", tvm_ffi.__version__)


if __name__ == "__main__":
    main(sys.argv[1])
