"""Shared fixtures for tests/python.

The package under test is the installed `tether` (make test installs it into .venv).  Some
tests also need files of the C build tree (the example kernel examples/kernel built by
CMake): its location is $TETHER_BUILD_DIR (make test sets it), else <repo>/build.  When
TETHER_BUILD_DIR is set, a missing file fails the test; otherwise the test is skipped.
"""
import gc
import os
import shutil
import tracemalloc

import pytest

from tether import core

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _build_dir():
    return os.environ.get("TETHER_BUILD_DIR") or os.path.join(REPO, "build")


@pytest.fixture(scope="session")
def repo_dir():
    return REPO


@pytest.fixture(scope="session")
def build_file():
    """build_file("examples/kernel/add_one_kernel.so") -> its path in the C build tree."""
    def find(relpath):
        path = os.path.join(_build_dir(), relpath)
        if not os.path.exists(path):
            message = (f"{relpath} not found in the C build tree {_build_dir()} "
                       "(run `make test`, or set TETHER_BUILD_DIR)")
            if os.environ.get("TETHER_BUILD_DIR"):
                pytest.fail(message)
            pytest.skip(message)
        return path
    return find


@pytest.fixture(scope="session")
def add_one_kernel(build_file):
    """Path of the example kernel library (exports add_one_cpu(x, y): y = x + 1)."""
    return build_file("examples/kernel/add_one_kernel.so")


@pytest.fixture(scope="session")
def c_compiler():
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler")
    return cc


def _check_no_leak(body, rounds=2000, blocks=3):
    """Runs body() in `blocks` blocks of `rounds` calls after a warm-up.  Live FFI objects
    must not grow at all; traced Python memory must not grow in *every* block (caches that
    fill up grow once; a leak of one 16-byte block per call grows each block by rounds*16)."""
    for _ in range(1000):
        body()
    grown = []
    tracemalloc.start()
    try:
        for _ in range(blocks):
            gc.collect()
            live = core._live_object_count()
            traced = tracemalloc.get_traced_memory()[0]
            for _ in range(rounds):
                body()
            gc.collect()
            assert core._live_object_count() <= live, "FFI objects leaked"
            grown.append(tracemalloc.get_traced_memory()[0] - traced)
    finally:
        tracemalloc.stop()
    assert min(grown) < rounds * 4, f"traced memory grew by {grown} bytes per {rounds} calls"


@pytest.fixture(scope="session")
def check_no_leak():
    """check_no_leak(body): body() repeated must leak neither FFI objects nor Python memory."""
    return _check_no_leak
