"""ONNX models imported by tether compute, in apache-tvm, what ONNX expects
(tools/onnx_numerics.py; `make onnx-numerics` runs every case, this runs a subset).

Each case is imported with tether's from_onnx, saved as TVM's JSON, loaded, compiled
(tvm.compile(mod, target="llvm")) and run in relax.VirtualMachine by apache-tvm 0.27 in its own
interpreter, and its outputs are compared with the outputs ONNX ships (node cases) or
onnxruntime's (a light model with random weights, a torchvision export): rtol 1e-4, atol 1e-5.

TVM's interpreter is $TETHER_TVM_PYTHON (make test sets it to .venv-tvm), else
<repo>/.venv-tvm; without one the tests are skipped.
"""
import os

import pytest

pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")

import repo_tools  # noqa: E402


tool = repo_tools.load_tool("onnx_numerics")

# Node cases across the op kinds tether converts: unary math, binary arithmetic and
# comparison over several dtypes (broadcasting, integer division), float16, conv, pools (pads,
# dilations, ceil mode, 1d and 3d), batch norm (inference and training), gemm, matmul
# broadcasting, softmax, LRN, shape ops, where, variadic max/min/mean/sum, dropout.
NODE = ["node/" + n for n in """
test_abs test_acosh test_erf test_round test_sigmoid test_tanh test_pow_bcast_array
test_add_bcast test_add_uint8 test_div_int32_trunc test_greater_equal_bcast test_not_3d
test_isinf test_isnan_float16 test_leakyrelu test_max_float16 test_min_uint64
test_mean_two_inputs test_sum_two_inputs test_where_long_example
test_basic_conv_with_padding test_conv_with_strides_and_asymmetric_padding
test_averagepool_2d_pads_count_include_pad test_averagepool_3d_dilations_small
test_maxpool_2d_ceil test_maxpool_3d_dilations test_globalaveragepool
test_batchnorm_epsilon test_batchnorm_example_training_mode
test_gemm_all_attributes test_matmul_4d_1d test_matmul_bcast
test_softmax_large_number test_lrn test_concat_3d_axis_negative_2 test_flatten_negative_axis2
test_transpose_all_permutations_4 test_dropout_default test_constant
""".split()]
# node-init: integer inputs as initializers; Resize's roi stays a run-time input.
NODE_INIT = ["node-init/test_resize_tf_crop_and_resize_extrapolation_value"]
LIGHT = ["light/light_squeezenet"]
TORCH = ["torch/resnet18"]
CASES = NODE + NODE_INIT + LIGHT + TORCH


def tvm_python():
    return repo_tools.tvm_python(tool)


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    return tool.run(CASES, str(tmp_path_factory.mktemp("onnx-numerics")), tvm_python(),
                    timeout=600)


def _describe(entry):
    parts = [entry["status"], entry.get("detail", "")]
    if entry.get("max_abs") is not None:
        parts.append(f"max abs {entry['max_abs']:.3g}, max rel {entry.get('max_rel')}")
    if "tvm_own" in entry:
        parts.append(f"TVM's own import: {entry['tvm_own']}")
    return "; ".join(p for p in parts if p)


@pytest.mark.parametrize("case_id", CASES)
def test_tvm_computes_what_onnx_expects(results, case_id):
    entry = results[case_id]
    if case_id in TORCH:
        if entry["status"] == "skipped" and entry["detail"].startswith("case not made"):
            pytest.skip(f"{case_id}: {entry['detail']}")
        if entry["status"] == "import-error" and \
                entry["detail"].startswith("NotImplementedError"):
            pytest.skip(f"{case_id}: tether does not convert every op yet: {entry['detail']}")
    assert entry["status"] == "ok", f"{case_id}: {_describe(entry)}"
    assert entry["compile_s"] > 0


def test_a_wrong_expected_output_is_a_mismatch(tmp_path):
    """The comparison catches an error just past the tolerance, in an otherwise passing case."""
    import numpy as np

    case_id = "node/test_softmax_example"
    entry = tool.prepare(case_id, str(tmp_path))
    assert entry["status"] == "prepared", entry
    path = os.path.join(str(tmp_path), case_id, "io.npz")
    io = dict(np.load(path))
    out = io["0_out_0"]
    out.flat[0] *= 1 + 3e-4  # 3x rtol: off by more than atol + rtol * |want|
    np.savez(path, **io)
    got = tool.run_tvm(tvm_python(), [(case_id, os.path.dirname(path))], 600, own=False,
                       progress=False)[case_id]
    assert got["status"] == "mismatch", got
    assert "1 of" in got["detail"] and got["max_rel"] == pytest.approx(3e-4, rel=0.05)


def test_compare_outputs_tolerance_dtype_shape_nan():
    import numpy as np

    want = np.array([1.0, 100.0, np.nan, np.inf], "float32")
    assert tool.compare_outputs([want.copy()], [want]) is None
    near = want.copy()
    near[1] *= 1 + 5e-5
    assert tool.compare_outputs([near], [want]) is None
    far = want.copy()
    far[1] *= 1 + 5e-4
    assert tool.compare_outputs([far], [want])[0] == "output 0: 1 of 4 elements differ"
    nan = want.copy()
    nan[0] = np.nan
    assert tool.compare_outputs([nan], [want]) is not None
    assert "dtype float64" in tool.compare_outputs([want.astype("float64")], [want])[0]
    assert "shape [1, 4]" in tool.compare_outputs([want[None]], [want])[0]
    assert tool.compare_outputs([want], [want, want])[0] == "1 outputs, expected 2"
    ints = np.array([1, 2, 3], "int64")
    assert tool.compare_outputs([ints + [0, 0, 1]], [ints])[0] == "output 0: 1 of 3 elements differ"


def test_known_cases_are_node_cases():
    names = set(tool.node_cases())
    for case_id in tool.KNOWN:
        group, name = case_id.split("/", 1)
        assert group == "node" and name in names, case_id
