"""Errors across the boundary: the kind <-> exception class mapping, __tvm_ffi_error__, the
same exception object surviving a trip through C, stitched tracebacks (outer Python frames,
C frames, inner Python frames), Error objects, and Ctrl-C during a long C call."""
import signal
import sys
import threading
import time
import traceback

import pytest

from tether import core

raise_error = core.get_global_func("testing.test_raise_error")
apply = core.get_global_func("testing.apply")
echo = core.get_global_func("testing.echo")

BUILTIN_KINDS = ["RuntimeError", "ValueError", "TypeError", "AttributeError", "KeyError",
                 "IndexError", "AssertionError", "MemoryError", "NotImplementedError",
                 "OverflowError"]


@pytest.mark.parametrize("kind", BUILTIN_KINDS)
def test_builtin_kinds_map_to_exception_classes(kind):
    cls = getattr(__builtins__, kind, None) if not isinstance(__builtins__, dict) else __builtins__[kind]
    with pytest.raises(cls) as info:
        raise_error(kind, "the message")
    assert type(info.value) is cls
    err = info.value.__tvm_ffi_error__
    assert isinstance(err, core.Error)
    assert err.kind == kind and err.message == "the message"
    assert "TestRaiseError" in err.backtrace


def test_unknown_kind_is_runtime_error():
    # (tether.ir registers "InternalError" like TVM does, so use a kind nobody registers)
    with pytest.raises(RuntimeError, match="^internal trouble$") as info:
        raise_error("SomeUnregisteredKind", "internal trouble")
    assert type(info.value) is RuntimeError
    assert info.value.__tvm_ffi_error__.kind == "SomeUnregisteredKind"


def test_register_error_kind():
    class PycoreTestError(Exception):
        pass

    assert core._register_error("PycoreTestError", PycoreTestError) is PycoreTestError
    with pytest.raises(PycoreTestError, match="custom"):
        raise_error("PycoreTestError", "custom")
    # Python -> FFI uses the same table
    assert core.convert(PycoreTestError("x")).kind == "PycoreTestError"
    assert core.convert(KeyError("k")).kind == "KeyError"

    class Unregistered(Exception):
        pass

    assert core.convert(Unregistered("u")).kind == "RuntimeError"
    with pytest.raises(TypeError):
        core._register_error("X", int)


def test_traceback_has_c_frame():
    try:
        raise_error("ValueError", "from C")
    except ValueError as e:
        names = [f.name for f in traceback.extract_tb(e.__traceback__)]
    assert names[0] == "test_traceback_has_c_frame"
    assert names[-1] == "TestRaiseError"


def test_callback_exception_is_the_same_object():
    seen = []

    def callback():
        exc = LookupError("from the callback")
        seen.append(exc)
        raise exc

    with pytest.raises(LookupError) as info:
        apply(callback)
    assert info.value is seen[0]
    err = info.value.__tvm_ffi_error__
    assert err.kind == "RuntimeError"  # LookupError is not a registered kind
    assert err.message == "from the callback"


def test_unregistered_exception_class_survives():
    class Special(Exception):
        pass

    def callback(x):
        raise Special(x)

    with pytest.raises(Special, match="payload"):
        apply(callback, "payload")


def _inner_callback():
    raise ValueError("innermost")


def _middle():
    return apply(_inner_callback)


def _outer():
    return apply(_middle)


def test_nested_traceback_is_stitched():
    with pytest.raises(ValueError, match="innermost") as info:
        _outer()
    frames = traceback.extract_tb(info.value.__traceback__)
    names = [f.name for f in frames]
    # outer Python frames first, then C frames, the middle callback, more C, the inner one
    assert names[0] == "test_nested_traceback_is_stitched"
    assert names[1] == "_outer"
    assert names[-1] == "_inner_callback"
    assert "_middle" in names
    i_outer, i_middle, i_inner = names.index("_outer"), names.index("_middle"), len(names) - 1
    between_outer_middle = names[i_outer + 1:i_middle]
    between_middle_inner = names[i_middle + 1:i_inner]
    assert any(n.startswith("tpy_function_") for n in between_outer_middle)
    assert any("tpy_callback_call" in n for n in between_middle_inner)
    # the inner frame points at the raise statement of this file
    assert frames[-1].filename == __file__
    assert frames[-1].line == 'raise ValueError("innermost")'
    text = "".join(traceback.format_exception(info.value))
    assert text.index("_outer") < text.index("_middle") < text.index("innermost")


def test_c_error_inside_callback_keeps_c_frames():
    def callback():
        raise_error("KeyError", "deep")

    with pytest.raises(KeyError) as info:
        apply(callback)
    names = [f.name for f in traceback.extract_tb(info.value.__traceback__)]
    assert names[0] == "test_c_error_inside_callback_keeps_c_frames"
    assert "callback" in names
    assert names[-1] == "TestRaiseError"
    assert names.index("callback") < names.index("TestRaiseError")
    assert info.value.__tvm_ffi_error__.kind == "KeyError"


def test_exception_identity_across_two_levels():
    seen = []

    def inner():
        e = ArithmeticError("two levels")
        seen.append(e)
        raise e

    def middle():
        try:
            apply(inner)
        except ArithmeticError as e:
            assert e is seen[0]
            raise

    with pytest.raises(ArithmeticError) as info:
        apply(middle)
    assert info.value is seen[0]
    # the same Error object travelled with it
    assert info.value.__tvm_ffi_error__.message == "two levels"


def test_error_objects():
    e = core.Error("ValueError", "made in Python", "  File \"x.py\", line 1, in f\n")
    assert (e.kind, e.message) == ("ValueError", "made in Python")
    assert e.backtrace == '  File "x.py", line 1, in f\n'
    e.update_backtrace('  File "y.py", line 2, in g\n', 1)
    assert e.backtrace.endswith('  File "y.py", line 2, in g\n')
    e.update_backtrace("", 0)
    assert e.backtrace == ""
    r = echo(e)
    assert isinstance(r, core.Error) and r.same_as(e)
    assert e.py_error() is None
    exc = ValueError("attached")
    err = core.convert(exc)
    assert err.py_error() is exc


def test_exception_with_broken_str():
    class Weird(Exception):
        def __str__(self):
            raise RuntimeError("no str")

    def callback():
        raise Weird()

    with pytest.raises(Weird) as info:
        apply(callback)
    assert info.value.__tvm_ffi_error__.message == "<exception str() failed>"


def test_error_does_not_keep_python_frames_alive():
    use_count = core.get_global_func("testing.object_use_count")
    obj = core.get_global_func("testing.make_unregistered_object")()
    n = use_count(obj)

    def callback():
        local = obj  # noqa: F841 -- a frame local holding a reference
        raise ValueError("x")

    for _ in range(10):
        with pytest.raises(ValueError):
            apply(callback)
    assert use_count(obj) == n


@pytest.mark.skipif(sys.platform == "win32", reason="SIGALRM")
def test_ctrl_c_interrupts_check_signals():
    run_check_signal = core.get_global_func("testing.run_check_signal")

    def on_alarm(signum, frame):
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGALRM, on_alarm)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.2)
        start = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            run_check_signal(10)
        assert time.monotonic() - start < 5
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def test_ctrl_c_with_gil_released():
    import _thread

    run_check_signal = core.get_global_func("testing.run_check_signal")
    run_check_signal.release_gil = True
    timer = threading.Timer(0.2, _thread.interrupt_main)
    timer.start()
    start = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            run_check_signal(10)
    finally:
        timer.cancel()
    assert time.monotonic() - start < 5
