"""The repository's tools/ scripts as modules, for the tests that drive them."""
import importlib.util
import os

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load_tool(name):
    """tools/<name>.py, executed as a fresh module named `name`."""
    spec = importlib.util.spec_from_file_location(name, os.path.join(REPO, "tools", name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def tvm_python(tool):
    """The apache-tvm interpreter that tools/onnx_numerics.py (`tool`) would use; skips the
    test when there is none."""
    path = tool.default_tvm_python()
    if not os.path.exists(path):
        pytest.skip(f"no apache-tvm interpreter at {path} ($TETHER_TVM_PYTHON; `make venv-tvm` "
                    "makes .venv-tvm)")
    return path
