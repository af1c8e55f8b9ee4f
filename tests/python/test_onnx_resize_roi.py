"""ONNX Resize with coordinate_transformation_mode tf_crop_and_resize and a region of interest
that is a graph input: tether spells the resize out in Relax ops (Relax's image.resize2d takes
the roi as an attribute).

The module's numbers are checked through the TVM pipeline (tools/onnx_numerics.py: tether's
module as JSON, compiled by apache-tvm 0.27 and run in relax.VirtualMachine; skipped without
$TETHER_TVM_PYTHON or .venv-tvm) against onnx.reference.ReferenceEvaluator, for several roi
values per model: inside the input, reaching outside it (the extrapolation value), a single
output index, every interpolation mode and nearest rounding, cubic with exclude_outside,
cropped batch and channel axes, the axes attribute, 3-D and 5-D inputs, float64.
"""
import json
import os
import warnings

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402

import tether  # noqa: E402
from tether.relax.frontend.onnx import from_onnx  # noqa: E402

import repo_tools  # noqa: E402


tool = repo_tools.load_tool("onnx_numerics")


def resize_model(shape, sizes=None, scales=None, dtype=np.float32, roi_dtype=np.float32,
                 roi_len=None, **attrs):
    """Resize(X, roi, scales, sizes) with X and roi graph inputs and the sizes or scales an
    initializer."""
    elem = helper.np_dtype_to_tensor_dtype(np.dtype(dtype))
    roi_elem = helper.np_dtype_to_tensor_dtype(np.dtype(roi_dtype))
    roi_len = roi_len or 2 * len(shape)
    inits, inputs = [], ["X", "roi", "", ""]
    if sizes is not None:
        inits.append(numpy_helper.from_array(np.array(sizes, np.int64), "sizes"))
        inputs[3] = "sizes"
    else:
        inits.append(numpy_helper.from_array(np.array(scales, np.float32), "scales"))
        inputs[2] = "scales"
    inputs = inputs[:4] if inputs[3] else inputs[:3]
    node = helper.make_node("Resize", inputs, ["Y"],
                            coordinate_transformation_mode="tf_crop_and_resize", **attrs)
    graph = helper.make_graph(
        [node], "resize_roi",
        [helper.make_tensor_value_info("X", elem, list(shape)),
         helper.make_tensor_value_info("roi", roi_elem, [roi_len])],
        [helper.make_tensor_value_info("Y", elem, None)], initializer=inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])


def _roi(shape, spatial, batch_channel=((0, 1), (0, 1))):
    """An ONNX roi (starts, then ends) for an input of shape: (start, end) per spatial axis."""
    pairs = list(batch_channel[:len(shape) - len(spatial)]) + list(spatial)
    return np.array([p[0] for p in pairs] + [p[1] for p in pairs], np.float32)


# A batch and channel of 1 stay as they are whatever the roi (fewer ops for TVM to compile);
# XBC has a batch and channels to crop.
X4 = np.arange(1, 1 + 5 * 6, dtype=np.float32).reshape(1, 1, 5, 6) / 7.0
XBC = np.arange(1, 1 + 2 * 3 * 5 * 6, dtype=np.float32).reshape(2, 3, 5, 6) / 7.0
INSIDE = [(0.2, 0.9), (0.1, 0.7)]
OUTSIDE = [(-0.3, 1.2), (0.5, 1.4)]
REVERSED = [(0.8, 0.1), (1.1, -0.1)]

# name -> (model, data, [roi...])
CASES = {
    "linear": (resize_model(X4.shape, sizes=[1, 1, 4, 7], mode="linear"), X4,
               [_roi(X4.shape, INSIDE), _roi(X4.shape, OUTSIDE), _roi(X4.shape, REVERSED)]),
    "linear_extrapolation_value": (
        resize_model(X4.shape, sizes=[1, 1, 3, 4], mode="linear", extrapolation_value=-5.0), X4,
        [_roi(X4.shape, OUTSIDE), _roi(X4.shape, [(-1.0, -0.5), (0.0, 1.0)])]),
    "linear_single_output_index": (
        resize_model(X4.shape, sizes=[1, 1, 1, 4], mode="linear"), X4,
        [_roi(X4.shape, INSIDE), _roi(X4.shape, [(0.9, 1.3), (0.0, 1.0)])]),
    "linear_by_scales": (resize_model(X4.shape, scales=[1, 1, 0.6, 1.5], mode="linear"), X4,
                         [_roi(X4.shape, INSIDE), _roi(X4.shape, OUTSIDE)]),
    "linear_batch_and_channel_cropped": (
        resize_model(XBC.shape, sizes=[3, 3, 4, 4], mode="linear"), XBC,
        [_roi(XBC.shape, INSIDE, ((0.0, 1.0), (0.25, 0.75))),
         _roi(XBC.shape, OUTSIDE, ((-0.5, 1.0), (0.0, 0.5)))]),
    "linear_axes_3_2": (
        resize_model(X4.shape, sizes=[5, 3], mode="linear", axes=[3, 2], roi_len=4), X4,
        [np.array([0.1, 0.2, 0.8, 0.7], np.float32), np.array([-0.2, 0.0, 0.9, 1.3], np.float32)]),
    "nearest_round_prefer_floor": (
        resize_model(X4.shape, sizes=[1, 1, 7, 5], mode="nearest"), X4,
        [_roi(X4.shape, INSIDE), _roi(X4.shape, [(0.0, 1.0), (0.0, 1.0)])]),
    "nearest_round_prefer_ceil": (
        resize_model(X4.shape, sizes=[1, 1, 7, 5], mode="nearest",
                     nearest_mode="round_prefer_ceil"), X4,
        [_roi(X4.shape, INSIDE), _roi(X4.shape, [(0.0, 1.0), (0.0, 1.0)])]),
    "nearest_floor": (
        resize_model(X4.shape, sizes=[1, 1, 7, 5], mode="nearest", nearest_mode="floor"), X4,
        [_roi(X4.shape, INSIDE), _roi(X4.shape, OUTSIDE)]),
    "nearest_ceil": (
        resize_model(X4.shape, sizes=[1, 1, 7, 5], mode="nearest", nearest_mode="ceil"), X4,
        [_roi(X4.shape, INSIDE), _roi(X4.shape, OUTSIDE)]),
    "cubic": (resize_model(X4.shape, sizes=[1, 1, 6, 8], mode="cubic"), X4,
              [_roi(X4.shape, INSIDE), _roi(X4.shape, OUTSIDE)]),
    "cubic_a_exclude_outside": (
        resize_model(X4.shape, sizes=[1, 1, 6, 8], mode="cubic", cubic_coeff_a=-0.5,
                     exclude_outside=1), X4,
        [_roi(X4.shape, INSIDE), _roi(X4.shape, [(0.0, 1.0), (0.05, 0.95)])]),
    "linear_3d": (
        resize_model((1, 2, 9), sizes=[1, 2, 5], mode="linear"),
        np.linspace(-1, 1, 18, dtype=np.float32).reshape(1, 2, 9),
        [_roi((1, 2, 9), [(0.1, 0.6)]), _roi((1, 2, 9), [(-0.4, 0.6)])]),
    "linear_5d": (
        resize_model((1, 1, 3, 4, 5), sizes=[1, 1, 2, 3, 4], mode="linear"),
        np.arange(60, dtype=np.float32).reshape(1, 1, 3, 4, 5),
        [_roi((1, 1, 3, 4, 5), [(0.0, 1.0), (0.2, 0.7), (0.3, 0.8)]),
         _roi((1, 1, 3, 4, 5), [(0.5, 1.5), (0.2, 0.7), (-0.1, 0.8)])]),
    "linear_float64": (
        resize_model(X4.shape, sizes=[1, 1, 4, 7], mode="linear", dtype=np.float64,
                     roi_dtype=np.float64), X4.astype(np.float64),
        [_roi(X4.shape, INSIDE).astype(np.float64), _roi(X4.shape, OUTSIDE).astype(np.float64)]),
}


def _reference(model, data, roi):
    return ReferenceEvaluator(model).run(None, {"X": data, "roi": roi})[0]


def _import(model):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return from_onnx(model)


def test_module_spells_the_resize_out_in_relax_ops():
    model, _, _ = CASES["linear"]
    text = _import(model).script()
    assert "call_tir" not in text and "image.resize2d" not in text
    assert text.count("R.take(") == 2 * 2  # two taps per resized axis
    assert 'R.Tensor((1, 1, 4, 7), dtype="float32")' in text.splitlines()[6]  # main's result
    model, _, _ = CASES["linear_batch_and_channel_cropped"]
    assert _import(model).script().count("R.take(") == 2 * 4  # batch and channel cropped too


def test_other_modes_ignore_a_run_time_roi():
    """roi only matters for tf_crop_and_resize: other modes take the constant-roi path."""
    model = resize_model(X4.shape, sizes=[1, 1, 4, 7], mode="linear")
    attr = model.graph.node[0].attribute
    for a in attr:
        if a.name == "coordinate_transformation_mode":
            a.s = b"half_pixel"
    text = _import(model).script()
    assert "R.image.resize2d" in text


@pytest.mark.parametrize("make, message", [
    (lambda: resize_model((1, 1, 4, 4), sizes=[1, 1, 2, 2], dtype=np.int32, mode="linear"),
     "floating-point inputs only"),
    (lambda: resize_model((1, 1, 4, 4), sizes=[1, 1, 2, 2], roi_len=4, mode="linear"),
     "roi must have 8 values"),
    (lambda: resize_model((1, 1, 4, 4), sizes=[1, 1, 2, 2], mode="area"), "mode"),
    (lambda: resize_model((1, 1, 4, 4), sizes=[2, 2], axes=[2, 2], roi_len=4, mode="linear"),
     "not distinct axes"),
    (lambda: resize_model((1, 1, 4, 4), sizes=[1, 1, 2, 2], mode="nearest",
                          nearest_mode="up"), "nearest_mode"),
])
def test_bad_attributes_raise_typed_errors(make, message):
    with pytest.raises((ValueError, NotImplementedError), match=message):
        _import(make())


def test_reference_cases_change_with_the_roi():
    """The roi values of each case give different outputs (so the checks below can fail)."""
    for name, (model, data, rois) in CASES.items():
        outs = [_reference(model, data, r) for r in rois]
        assert not np.allclose(outs[0], outs[1]), name


def tvm_python():
    return repo_tools.tvm_python(tool)


def combined_model(names):
    """One model holding the Resize of every named case, each with its own inputs X_<j>, roi_<j>
    and output Y_<j> (one module for TVM to compile instead of one per case)."""
    nodes, inputs, outputs, inits = [], [], [], []
    for j, name in enumerate(names):
        graph = CASES[name][0].graph
        rename = {n: f"{n}_{j}" for n in ("X", "roi", "sizes", "scales", "Y")}
        for node in graph.node:
            node = onnx.NodeProto.FromString(node.SerializeToString())
            node.input[:] = [rename.get(n, n) for n in node.input]
            node.output[:] = [rename[n] for n in node.output]
            nodes.append(node)
        for info in graph.input:
            info = onnx.ValueInfoProto.FromString(info.SerializeToString())
            info.name = rename[info.name]
            inputs.append(info)
        for t in graph.initializer:
            t = onnx.TensorProto.FromString(t.SerializeToString())
            t.name = rename[t.name]
            inits.append(t)
        outputs.append(helper.make_tensor_value_info(rename["Y"], graph.input[0].type
                                                     .tensor_type.elem_type, None))
    graph = helper.make_graph(nodes, "resize_roi_cases", inputs, outputs, initializer=inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])


@pytest.fixture(scope="module")
def tvm_result(tmp_path_factory):
    """The TVM worker's entry for the combined model of every case, run on data sets whose
    k-th takes each case's k-th roi (its last one when it has fewer)."""
    python = tvm_python()
    names = sorted(CASES)
    case_dir = str(tmp_path_factory.mktemp("onnx-resize-roi"))
    with open(os.path.join(case_dir, "module.json"), "w", encoding="utf-8") as f:
        f.write(tether.ir.save_json(_import(combined_model(names))))
    n_sets = max(len(CASES[n][2]) for n in names)
    arrays = {}
    for k in range(n_sets):
        for j, name in enumerate(names):
            model, data, rois = CASES[name]
            roi = rois[min(k, len(rois) - 1)]
            arrays[f"{k}_in_{2 * j}"], arrays[f"{k}_in_{2 * j + 1}"] = data, roi
            arrays[f"{k}_out_{j}"] = _reference(model, data, roi).astype(data.dtype)
    np.savez(os.path.join(case_dir, "io.npz"), **arrays)
    with open(os.path.join(case_dir, "meta.json"), "w", encoding="utf-8") as f:
        json.dump({"data_sets": n_sets, "inputs": 2 * len(names),
                   "outputs": [len(names)] * n_sets}, f)
    return tool.run_tvm(python, [("cases", case_dir)], 900, own=False, progress=False)["cases"]


def test_tvm_computes_what_the_onnx_reference_computes(tvm_result):
    detail = tvm_result.get("detail", "")
    if detail.startswith("output "):  # name the case of the output
        detail += f" (case {sorted(CASES)[int(detail.split()[1].rstrip(':'))]})"
    assert tvm_result["status"] == "ok", (detail, tvm_result)


def test_a_wrong_roi_is_a_mismatch(tmp_path):
    """The pipeline catches a module that reads the roi wrongly: the expected output of one roi
    checked against the module run on another."""
    model, data, rois = CASES["linear"]
    case_dir = str(tmp_path / "wrong")
    os.makedirs(case_dir)
    with open(os.path.join(case_dir, "module.json"), "w", encoding="utf-8") as f:
        f.write(tether.ir.save_json(_import(model)))
    np.savez(os.path.join(case_dir, "io.npz"), **{
        "0_in_0": data, "0_in_1": rois[0], "0_out_0": _reference(model, data, rois[1])})
    with open(os.path.join(case_dir, "meta.json"), "w", encoding="utf-8") as f:
        json.dump({"data_sets": 1, "inputs": 2, "outputs": [1]}, f)
    got = tool.run_tvm(tvm_python(), [("wrong", case_dir)], 600, own=False,
                       progress=False)["wrong"]
    assert got["status"] == "mismatch", got
