"""The command line: python -m tether.relax.frontend.onnx model.onnx [--shape name:dims]
[--json out.json] [--opset N] [--keep-params-in-input] [--time] [--quiet].

Exit status 0 with the TVMScript on stdout; 1 with one line on stderr (no traceback) when the
model cannot be imported or a file cannot be read or written; 2 for bad arguments."""
import subprocess
import sys

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from tether import ir  # noqa: E402
from tether.relax.frontend.onnx import from_onnx  # noqa: E402

PROG = [sys.executable, "-m", "tether.relax.frontend.onnx"]


def _run(*args):
    return subprocess.run(PROG + [str(a) for a in args], capture_output=True, text=True,
                          check=False)


def _model(nodes=None):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n", 3])
    b = numpy_helper.from_array(np.arange(3, dtype="float32"), "b")
    nodes = nodes or [helper.make_node("Add", ["x", "b"], ["y"])]
    graph = helper.make_graph(nodes, "g", [x], [y], [b])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


@pytest.fixture
def model_path(tmp_path):
    path = tmp_path / "m.onnx"
    onnx.save(_model(), str(path))
    return path


def _one_error_line(res, *words):
    assert res.returncode == 1, (res.returncode, res.stderr)
    assert res.stdout == ""
    assert "Traceback" not in res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("python -m tether.relax.frontend.onnx: error:")
    for w in words:
        assert w in lines[0], lines[0]


def test_prints_the_module_and_applies_shapes(model_path):
    res = _run(model_path, "--shape", "x:4,3")
    assert res.returncode == 0, res.stderr
    assert res.stdout == from_onnx(_model(), shape_dict={"x": [4, 3]}).script() + "\n"
    assert 'x: R.Tensor((4, 3), dtype="float32")' in res.stdout


def test_keep_params_opset_quiet_time_and_json(model_path, tmp_path):
    out = tmp_path / "m.json"
    res = _run(model_path, "--keep-params-in-input", "--opset", "14", "--quiet", "--time",
               "--json", out)
    assert res.returncode == 0, res.stderr
    assert res.stdout == ""
    assert res.stderr.startswith("from_onnx: ") and res.stderr.strip().endswith(" ms")
    want = from_onnx(_model(), keep_params_in_input=True, opset=14)
    assert ir.load_json(out.read_text()).script() == want.script()


def test_missing_and_malformed_files(tmp_path):
    _one_error_line(_run(tmp_path / "nope.onnx"), "FileNotFoundError")
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"\x0a\xff\xff\xff\xff this is not a model")
    _one_error_line(_run(junk), "ValueError", "is not an ONNX model")
    truncated = tmp_path / "cut.onnx"
    truncated.write_bytes(_model().SerializeToString()[:40])
    _one_error_line(_run(truncated), "ValueError")


def test_unsupported_ops_are_listed(tmp_path):
    path = tmp_path / "u.onnx"
    onnx.save(_model([helper.make_node("NoSuchOp", ["x"], ["t"]),
                      helper.make_node("Frob", ["t"], ["y"])]), str(path))
    _one_error_line(_run(path), "NotImplementedError", "NoSuchOp (domain ai.onnx, opset 13",
                    "Frob (domain ai.onnx")


def test_shape_errors(model_path):
    _one_error_line(_run(model_path, "--shape", "ghost:1,3"), "ValueError", "'ghost'")
    _one_error_line(_run(model_path, "--shape", "x:-1,3"), "ValueError", "negative dim")
    for bad in ("x", ":1,2", "x:1,a"):
        res = _run(model_path, "--shape", bad)
        assert res.returncode == 2 and "--shape" in res.stderr, (bad, res.stderr)
    res = _run(model_path, "--shape", "x:1,3", "--shape", "x:2,3")
    assert res.returncode == 2 and "more than once" in res.stderr


def test_unwritable_json_output(model_path, tmp_path):
    _one_error_line(_run(model_path, "--json", tmp_path / "no" / "such" / "dir.json"),
                    "FileNotFoundError")


def test_bad_arguments():
    assert _run().returncode == 2
    res = _run("m.onnx", "--opset", "thirteen")
    assert res.returncode == 2 and "--opset" in res.stderr
