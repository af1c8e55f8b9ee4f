"""Several Python threads calling into C at once, with the GIL held and with it released
around the C call: results stay per call, errors stay per thread, callbacks from C take
the GIL back."""
import threading

import pytest

from tether import core

THREADS = 8
ITERATIONS = 2000


def run_threads(target):
    errors = []

    def wrapper(i):
        try:
            target(i)
        except BaseException as e:  # noqa: BLE001 -- reported by the main thread
            errors.append(e)

    threads = [threading.Thread(target=wrapper, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not any(t.is_alive() for t in threads)
    if errors:
        raise errors[0]


@pytest.mark.parametrize("release_gil", [False, True])
def test_concurrent_calls(release_gil):
    add_one = core.get_global_func("testing.add_one")
    echo = core.get_global_func("testing.echo")
    add_one.release_gil = release_gil
    echo.release_gil = release_gil

    def work(i):
        for k in range(ITERATIONS):
            assert add_one(i * ITERATIONS + k) == i * ITERATIONS + k + 1
            s = f"thread {i} iteration {k} string"
            assert echo(s) == s
            assert list(echo([i, k])) == [i, k]

    run_threads(work)


@pytest.mark.parametrize("release_gil", [False, True])
def test_concurrent_callbacks(release_gil):
    apply = core.get_global_func("testing.apply")
    apply.release_gil = release_gil
    counter = [0]
    lock = threading.Lock()

    def work(i):
        def cb(x):
            with lock:
                counter[0] += 1
            return x * 2

        for k in range(ITERATIONS // 4):
            assert apply(cb, k) == 2 * k

    run_threads(work)
    assert counter[0] == THREADS * (ITERATIONS // 4)


@pytest.mark.parametrize("release_gil", [False, True])
def test_concurrent_errors_stay_per_thread(release_gil):
    raise_error = core.get_global_func("testing.test_raise_error")
    apply = core.get_global_func("testing.apply")
    raise_error.release_gil = release_gil
    apply.release_gil = release_gil

    def work(i):
        for k in range(ITERATIONS // 10):
            message = f"thread {i} error {k}"
            with pytest.raises(ValueError) as info:
                raise_error("ValueError", message)
            assert str(info.value) == message

            def cb():
                raise KeyError(message)

            with pytest.raises(KeyError) as info2:
                apply(cb)
            assert info2.value.args == (message,)

    run_threads(work)


def test_objects_shared_between_threads():
    use_count = core.get_global_func("testing.object_use_count")
    echo = core.get_global_func("testing.echo")
    echo.release_gil = True
    obj = core.get_global_func("testing.make_unregistered_object")()
    n = use_count(obj)

    def work(i):
        for _ in range(ITERATIONS):
            r = echo(obj)
            assert r.same_as(obj)
            assert r.v2 == 42

    run_threads(work)
    assert use_count(obj) == n
