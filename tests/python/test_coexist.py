"""tether beside apache-tvm-ffi and apache-tvm in one process, in both import orders.

Each scenario runs in a fresh interpreter (the import order is the point, and a process
can import a module only once).  Every scenario exercises both runtimes: calls and
separate registries, tensors (from_dlpack, and across through DLPack), module loading of
the example kernel (tether.load_module and tvm_ffi.load_module, in both loading orders;
the kernel's own error must reach the runtime that called it), Relax printing (tether's,
and tvm's when apache-tvm is the partner), and a tvm_ffi object passed to tether (a
TypeError naming its type).  Skipped only when the partner package is not installed.
"""
import importlib.util
import os
import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent(r'''
    import sys
    order, kernel = sys.argv[1].split(","), sys.argv[2]
    for name in order:  # tether with its IR (libtether_ir), as `from tether import relax`
        __import__("tether.relax" if name == "tether" else name)
    import numpy as np
    import tether
    import tvm_ffi

    def check(cond, what):
        if not cond:
            raise SystemExit("FAILED: " + what)
        print("ok:", what)

    # Calls and registries: the same name registered on both sides, each sees its own.
    tether.register_global_func("coexist.f", lambda x: x + 1)
    tvm_ffi.register_global_func("coexist.f", lambda x: x + 2)
    tether.register_global_func("coexist.only_tether", lambda: 0)
    tvm_ffi.register_global_func("coexist.only_tvm_ffi", lambda: 0)
    check(tether.get_global_func("coexist.f")(1) == 2, "tether calls its own global")
    check(tvm_ffi.get_global_func("coexist.f")(1) == 3, "tvm_ffi calls its own global")
    check(tvm_ffi.get_global_func("coexist.only_tether", allow_missing=True) is None,
          "tether's global is not in tvm_ffi's registry")
    check(tether.get_global_func("coexist.only_tvm_ffi", True) is None,
          "tvm_ffi's global is not in tether's registry")
    if "tvm" not in order:  # (apache-tvm registers its own "ir.*" globals)
        check(tvm_ffi.get_global_func("ir.Var", allow_missing=True) is None,
              "tether's IR globals are not in tvm_ffi's registry")

    # Tensors: each side from numpy, and across through DLPack (the same memory).
    a = np.arange(4, dtype="float32")
    t, u = tether.from_dlpack(a), tvm_ffi.from_dlpack(a)
    check(type(t).__module__.startswith("tether") and tuple(t.shape) == (4,),
          "tether.from_dlpack(numpy) is a tether tensor of shape (4,)")
    check(tuple(u.shape) == (4,), "tvm_ffi.from_dlpack(numpy) has shape (4,)")
    tu, ut = tether.from_dlpack(u), tvm_ffi.from_dlpack(t)
    a[1] = 41
    check(np.from_dlpack(tu)[1] == 41 and np.from_dlpack(ut)[1] == 41,
          "tensors cross through DLPack both ways, sharing memory")
    tether.register_global_func("coexist.sum", lambda x: float(np.from_dlpack(x).sum()))
    check(tether.get_global_func("coexist.sum")(u) == 46.0,
          "a tvm_ffi tensor passed to a tether function arrives as a tensor")

    # Objects never cross: a tvm_ffi object given to tether is a TypeError naming it.
    echo = tether.get_global_func("testing.echo")
    for value, name in ((tvm_ffi.convert([1, 2]), "tvm_ffi.container.Array"),
                        (tvm_ffi.get_global_func("coexist.f"), "tvm_ffi.core.Function")):
        try:
            echo(value)
        except TypeError as e:
            check(name in str(e), "tether refuses a " + name + ": " + str(e)[:60] + "...")
        else:
            raise SystemExit("FAILED: tether accepted a " + name)

    # Module loading: the example kernel under each runtime, in both loading orders.  The
    # kernel's error must arrive in the runtime that called it (it binds to that runtime).
    def run_kernel(label, load, from_dlpack):
        mod = load(kernel)
        x, y = np.arange(3, dtype="float32"), np.zeros(3, dtype="float32")
        mod["add_one_cpu"](from_dlpack(x), from_dlpack(y))
        check(y.tolist() == [1.0, 2.0, 3.0], label + ".load_module: add_one_cpu computes")
        try:
            mod["add_one_cpu"](1, 2)
        except TypeError as e:
            check("argument `x` must be a tensor" in str(e),
                  label + ".load_module: the kernel's TypeError reaches " + label)
        else:
            raise SystemExit("FAILED: " + label + ": no error for a bad argument")

    sides = {"tether": (tether.load_module, tether.from_dlpack),
             "tvm_ffi": (tvm_ffi.load_module, tvm_ffi.from_dlpack)}
    for label in order if "tvm_ffi" in order else ["tvm_ffi", "tether"]:
        if label in sides:
            run_kernel(label, *sides[label])
    for label in ("tether", "tvm_ffi"):  # and again, each now loading an already-loaded file
        run_kernel(label, *sides[label])

    # Relax printing: tether's, and apache-tvm's when it is loaded.
    from tether import relax as tr
    x = tr.Var("x", tr.TensorType((2, 3), "float32"))
    bb = tr.BlockBuilder()
    with bb.function("main", [x]):
        gv = bb.emit(tr.op.add(x, x))
        bb.emit_func_output(gv)
    text = bb.get().script()
    check("R.add(x, x)" in text and "class Module" in text, "tether.relax prints TVMScript")
    if "tvm" in order:
        from tvm import relax as vr
        v = vr.Var("x", vr.TensorType((2, 3), "float32"))
        bb = vr.BlockBuilder()
        with bb.function("main", [v]):
            gv = bb.emit(vr.op.add(v, v))
            bb.emit_func_output(gv)
        check(bb.get().script() == text, "tvm.relax prints the same TVMScript")
    print("PASSED")
''')


def _have(module):
    return importlib.util.find_spec(module) is not None


ORDERS = [("tether", "tvm_ffi"), ("tvm_ffi", "tether"), ("tether", "tvm"), ("tvm", "tether")]


@pytest.mark.parametrize("order", ORDERS, ids=["-".join(o) for o in ORDERS])
def test_coexist(order, add_one_kernel, tmp_path):
    partner = "tvm" if "tvm" in order else "tvm_ffi"
    if not _have("tvm_ffi"):
        pytest.skip("apache-tvm-ffi is not installed")
    if partner == "tvm" and not _have("tvm"):
        pytest.skip("apache-tvm is not installed")
    script = tmp_path / "coexist.py"
    script.write_text(SCRIPT)
    proc = subprocess.run([sys.executable, str(script), ",".join(order), add_one_kernel],
                          capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, PYTHONFAULTHANDLER="1"))
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "PASSED" in proc.stdout, out


# A kernel that links nothing: it expects the host process to provide TVMFFI*.  With
# MISSING defined it also calls a symbol nothing defines.
HOST_KERNEL = r'''
#include <tvm/ffi/c_api.h>
#ifdef MISSING
void MISSING(void);
#endif
TVM_FFI_DLL_EXPORT int __tvm_ffi_fail(void* h, const TVMFFIAny* a, int32_t n, TVMFFIAny* r) {
#ifdef MISSING
  MISSING();
#endif
  TVMFFIErrorSetRaisedFromCStr("ValueError", "host kernel failure");
  return -1;
}
'''

LOAD_HOST_KERNEL = textwrap.dedent(r'''
    import sys
    if sys.argv[1] == "tvm_ffi-first":
        import tvm_ffi
    import tether
    for path in sys.argv[2:]:
        try:
            tether.load_module(path).fail()
        except Exception as e:
            print(type(e).__name__, str(e))
''')


@pytest.mark.parametrize("first", ["tether-only", "tvm_ffi-first"])
def test_host_symbol_kernel(first, c_compiler, tmp_path):
    """A kernel linked against nothing runs under tether.load_module (its error reaches
    tether); one with a symbol nothing defines is refused at load with RuntimeError naming
    the library and the symbol, and the interpreter survives."""
    if first == "tvm_ffi-first" and not _have("tvm_ffi"):
        pytest.skip("apache-tvm-ffi is not installed")
    from tether import libinfo
    src = tmp_path / "host_kernel.c"
    src.write_text(HOST_KERNEL)
    paths = []
    variants = (("host_kernel.so", []), ("missing_kernel.so", ["-DMISSING=coexist_missing"]))
    for name, defs in variants:
        out = str(tmp_path / name)
        subprocess.run([c_compiler, "-shared", "-fPIC", "-std=c11", libinfo.cflags(), *defs,
                        str(src), "-o", out], check=True)
        paths.append(out)
    script = tmp_path / "load.py"
    script.write_text(LOAD_HOST_KERNEL)
    proc = subprocess.run([sys.executable, str(script), first, *paths], capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "ValueError host kernel failure", proc.stdout
    assert lines[1].startswith("RuntimeError") and paths[1] in lines[1], proc.stdout
    assert "undefined symbol `coexist_missing`" in lines[1], proc.stdout


GLOBAL_FLAGS = textwrap.dedent(r'''
    import os, sys
    sys.setdlopenflags(os.RTLD_GLOBAL | os.RTLD_NOW)
    import tether
    import tvm_ffi
    tvm_ffi.register_global_func("coexist.g", lambda x: x * 3)
    print(tvm_ffi.get_global_func("coexist.g")(2), tether.get_global_func("coexist.g", True))
''')


def test_global_dlopen_flags(tmp_path):
    """With the interpreter's dlopen flags set to RTLD_GLOBAL before `import tether`,
    libtether still stays out of the global scope: apache-tvm-ffi imported after it keeps
    its own registry."""
    if not _have("tvm_ffi"):
        pytest.skip("apache-tvm-ffi is not installed")
    script = tmp_path / "flags.py"
    script.write_text(GLOBAL_FLAGS)
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0 and proc.stdout.split() == ["6", "None"], \
        proc.stdout + proc.stderr
