"""Shared fixtures for tests/python.

The package under test is the installed `tether` (make test installs it into .venv).  Some
tests also need files of the C build tree (the example kernel examples/kernel built by
CMake): its location is $TETHER_BUILD_DIR (make test sets it), else <repo>/build.  When
TETHER_BUILD_DIR is set, a missing file fails the test; otherwise the test is skipped.
"""
import os
import shutil

import pytest

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
