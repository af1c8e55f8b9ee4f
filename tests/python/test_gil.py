"""The GIL as tvm-ffi handles it: every Function releases the GIL around its C call
(`release_gil` True) unless it is told otherwise; tether's own constructors and container
globals, declared TETHER_FUNC_KEEPS_GIL in their registration, are wrapped with release_gil
False; a kernel calling Python back from threads of its own (testing.run_callback_in_threads,
a C thread pool) returns, errors raised in those callbacks reach the caller, and holding the
GIL instead really does deadlock such a kernel (checked in a child process)."""
import ctypes
import os
import subprocess
import sys
import textwrap
import threading

import pytest

import tether
from tether import core

run_in_threads = core.get_global_func("testing.run_callback_in_threads")


def _run_child(code, env=None, timeout=60):
    full_env = dict(os.environ)
    for var in ("TETHER_RELEASE_GIL_BY_DEFAULT", "TVM_FFI_RELEASE_GIL_BY_DEFAULT"):
        full_env.pop(var, None)
    full_env.update(env or {})
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=full_env,
                          capture_output=True, text=True, timeout=timeout)


# ---- the default --------------------------------------------------------------------------

def test_default_is_release_for_every_kind_of_function():
    assert core.get_global_func("testing.nop").release_gil is True
    # testing.* behave as a user's kernel would
    names = [n for n in tether.registry.list_global_func_names() if n.startswith("testing.")]
    assert "testing.run_callback_in_threads" in names
    for name in names:
        assert core.get_global_func(name).release_gil is True, name
    # a Python callable made a Function, registered from Python, or wrapped from a C address
    assert core.Function(lambda: None).release_gil is True
    registered = tether.register_global_func("test_gil.py_func", lambda x: x, override=True)
    assert registered.release_gil is True
    assert core.get_global_func("test_gil.py_func").release_gil is True
    addr = core.get_global_func("testing.get_add_one_c_symbol")()
    from_c = core.Function.__from_extern_c__(addr)
    assert from_c.release_gil is True and from_c(1) == 2
    # a Function that C code hands back
    made = core.get_global_func("ffi.FunctionFromExternC")(None, ctypes.c_void_p(addr), None)
    assert made.release_gil is True and made(2) == 3


def test_tethers_own_non_blocking_globals_keep_the_gil():
    keeps = ["ffi.Array", "ffi.ArrayGetItem", "ffi.Map", "ffi.MapGetItem", "ffi.List",
             "ffi.Dict", "ffi.DictSetItem", "ffi.Shape", "ffi.String", "ffi.Bytes",
             "ffi.GetRegisteredTypeKeys", "ffi.GetInvalidObject"]
    for name in keeps:
        assert core.get_global_func(name).release_gil is False, name
    # ones that may run anyone's code (an __ffi_init__, a repr hook), load libraries or wait
    # on the registry's writers release it
    for name in ["ffi.MakeObjectFromPackedArgs", "ffi.ReprPrint", "ffi.ModuleLoadFromFile",
                 "ffi.FunctionRemoveGlobal", "ffi.GetGlobalFuncMetadata"]:
        assert core.get_global_func(name).release_gil is True, name


def test_ir_constructors_keep_the_gil():
    from tether import relax  # noqa: F401 -- loads libtether_ir, which registers them
    for name in ["ir.Var", "ir.Call", "ir.Tuple", "relax.Function", "ir.IRModule",
                 "relax.TensorType", "relax.op.add", "ir.Op.get",
                 "relax.BlockBuilderCreate", "relax.BlockBuilderEmit"]:
        assert core.get_global_func(name).release_gil is False, name
    # printing and structural comparison may take long: they release it
    assert core.get_global_func("ir.Print").release_gil is True
    assert core.get_global_func("ir.StructuralEqual").release_gil is True


@pytest.mark.parametrize("env,expected", [
    ({}, True),
    ({"TETHER_RELEASE_GIL_BY_DEFAULT": "0"}, False),
    ({"TETHER_RELEASE_GIL_BY_DEFAULT": "1"}, True),
    ({"TVM_FFI_RELEASE_GIL_BY_DEFAULT": "0"}, False),
    ({"TVM_FFI_RELEASE_GIL_BY_DEFAULT": "0", "TETHER_RELEASE_GIL_BY_DEFAULT": "1"}, True),
])
def test_default_from_the_environment(env, expected):
    p = _run_child("""
        from tether import core
        print(core.get_global_func("testing.nop").release_gil,
              core.Function(print).release_gil, core.get_global_func("ffi.Array").release_gil)
    """, env)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == [str(expected), str(expected), "False"]


def test_bad_default_in_the_environment_fails_the_import():
    p = _run_child("import tether", {"TETHER_RELEASE_GIL_BY_DEFAULT": "yes"})
    assert p.returncode != 0
    assert "ValueError" in p.stderr and "TETHER_RELEASE_GIL_BY_DEFAULT=yes" in p.stderr


# ---- per-function override ------------------------------------------------------------------

def test_override_is_per_function_object():
    f = core.get_global_func("testing.add_one")
    g = core.get_global_func("testing.add_one")
    f.release_gil = False
    assert f.release_gil is False and g.release_gil is True
    assert f(1) == 2 and g(1) == 2
    arr = core.get_global_func("ffi.Array")
    arr.release_gil = True  # a keep-the-GIL function may still be told to release it
    assert list(arr(1, 2)) == [1, 2]
    assert core.get_global_func("ffi.Array").release_gil is False


def test_setter_accepts_numbers_as_tvm_ffi():
    f = core.get_global_func("testing.nop")
    for value, expected in [(0, False), (1, True), (False, False), (True, True), (2, True),
                            (2.5, True), (0.0, False)]:
        f.release_gil = value
        assert f.release_gil is expected, value
    for bad in [None, "1", [], object()]:
        with pytest.raises(TypeError, match="integer is required"):
            f.release_gil = bad
    assert f.release_gil is False  # unchanged by the failed assignments
    with pytest.raises(AttributeError):
        del f.release_gil


# ---- a C thread pool calling Python back ---------------------------------------------------------

def test_thread_pool_calls_python_back():
    main = threading.get_ident()
    seen = []
    lock = threading.Lock()

    def cb(t, i):
        with lock:
            seen.append((t, i, threading.get_ident()))
        return t * 1000 + i

    assert run_in_threads.release_gil is True
    assert run_in_threads(cb, 8, 25) == sum(t * 1000 + i for t in range(8) for i in range(25))
    assert sorted((t, i) for t, i, _ in seen) == [(t, i) for t in range(8) for i in range(25)]
    assert all(ident != main for _, _, ident in seen)
    assert run_in_threads(cb, 0, 5) == 0


def test_callbacks_on_foreign_threads_call_into_c_again():
    add_one = core.get_global_func("testing.add_one")   # releases the GIL again, nested
    array = core.get_global_func("ffi.Array")           # keeps it

    def cb(t, i):
        return add_one(t) + len(array(*range(i)))

    assert run_in_threads(cb, 4, 10) == sum(t + 1 + i for t in range(4) for i in range(10))


def test_python_threads_and_c_threads_together():
    results, errors = [], []

    def python_thread(k):
        try:
            results.append(run_in_threads(lambda t, i: k, 3, 20))
        except BaseException as e:  # noqa: BLE001 -- reported below
            errors.append(e)

    threads = [threading.Thread(target=python_thread, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors and not any(t.is_alive() for t in threads)
    assert sorted(results) == [k * 60 for k in range(4)]


def test_signature_function_follows_the_functions_release_gil():
    run = tether.SignatureFunction(run_in_threads, "run", ("callback", "num_threads", "calls"),
                                   (3, 4))
    assert run(lambda t, i: 1) == 12
    assert run(lambda t, i: t, calls=2) == 2 * (0 + 1 + 2)


# ---- errors raised by callbacks on foreign threads ---------------------------------------------------

def test_exception_from_a_foreign_thread_reaches_the_caller():
    def cb(t, i):
        if t == 2 and i == 3:
            raise ValueError(f"bad item {t}/{i}")
        return 1

    with pytest.raises(ValueError, match="bad item 2/3"):
        run_in_threads(cb, 4, 5)

    def key_error(t, i):
        raise KeyError("missing")

    with pytest.raises(KeyError, match="missing"):
        run_in_threads(key_error, 3, 1)
    # the lowest-numbered failing thread wins
    with pytest.raises(RuntimeError, match="thread 1"):
        run_in_threads(lambda t, i: (_ for _ in ()).throw(RuntimeError(f"thread {t}"))
                       if t >= 1 else 0, 4, 2)
    # a result of the wrong type is the kernel's TypeError
    with pytest.raises(TypeError, match="returned ffi.SmallStr, expected int or None"):
        run_in_threads(lambda t, i: "no", 2, 1)
    # and nothing is left broken
    assert run_in_threads(lambda t, i: 1, 4, 4) == 16


def test_bad_arguments_are_type_and_value_errors():
    with pytest.raises(TypeError, match="testing.run_callback_in_threads"):
        run_in_threads(1, 2, 3)
    with pytest.raises(ValueError, match="num_threads"):
        run_in_threads(lambda t, i: 0, 65, 1)
    with pytest.raises(ValueError, match="calls_per_thread"):
        run_in_threads(lambda t, i: 0, 1, -1)


def test_no_leak_across_foreign_thread_callbacks(check_no_leak):
    def ok(t, i):
        return core.get_global_func("ffi.Array")(t, i)[1] - i

    def fails(t, i):
        raise ValueError("leak check")

    def body():
        assert run_in_threads(ok, 2, 2) == 0
        with pytest.raises(ValueError):
            run_in_threads(fails, 2, 1)

    check_no_leak(body, rounds=500)


# ---- deadlock (in a child process, so that a hang cannot take the test run with it) -------------

DEADLOCK_PROBE = """
    import sys
    from tether import core
    f = core.get_global_func("testing.run_callback_in_threads")
    if sys.argv[1:] == ["hold"]:
        f.release_gil = False
    print(f(lambda t, i: t + i, 4, 50), flush=True)
"""


def test_no_deadlock_by_default():
    p = _run_child(DEADLOCK_PROBE, timeout=60)
    assert p.returncode == 0, p.stderr
    assert int(p.stdout) == sum(t + i for t in range(4) for i in range(50))


def test_holding_the_gil_deadlocks_such_a_kernel():
    # what the old default did: the kernel waits for its threads, which wait for the GIL
    child = subprocess.Popen([sys.executable, "-c", textwrap.dedent(DEADLOCK_PROBE), "hold"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        with pytest.raises(subprocess.TimeoutExpired):
            child.communicate(timeout=3)
    finally:
        child.kill()
        child.communicate()


def test_keep_gil_flag_through_the_c_api():
    lib = ctypes.CDLL(core._lib_path())
    lib.tether_func_register_flags.restype = ctypes.c_int
    lib.tether_func_register_flags.argtypes = [ctypes.c_char_p, ctypes.c_void_p, ctypes.c_char_p,
                                               ctypes.c_char_p, ctypes.c_uint32, ctypes.c_int]
    addr = core.get_global_func("testing.get_add_one_c_symbol")()
    assert lib.tether_func_register_flags(b"test_gil.add_one_keeps", addr, None, None, 1, 1) == 0
    assert lib.tether_func_register_flags(b"test_gil.add_one_plain", addr, None, None, 0, 1) == 0
    keeps = core.get_global_func("test_gil.add_one_keeps")
    plain = core.get_global_func("test_gil.add_one_plain")
    assert keeps.release_gil is False and keeps(1) == 2
    assert plain.release_gil is True and plain(1) == 2
    assert lib.tether_func_register_flags(b"test_gil.bad_flags", addr, None, None, 6, 1) == -1
    err = ctypes.c_void_p()
    lib.TVMFFIErrorMoveFromRaised(ctypes.byref(err))
    assert err.value is not None

    class ByteArray(ctypes.Structure):
        _fields_ = [("data", ctypes.c_char_p), ("size", ctypes.c_size_t)]

    lib.tether_error_message.restype = ByteArray
    lib.tether_error_message.argtypes = [ctypes.c_void_p]
    message = lib.tether_error_message(err).data.decode()
    lib.TVMFFIObjectDecRef(err)
    assert "tether_func_register_flags" in message and "unknown bits 0x6" in message
    assert core.get_global_func("test_gil.bad_flags", allow_missing=True) is None
