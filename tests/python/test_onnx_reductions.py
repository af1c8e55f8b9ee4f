"""The ONNX frontend's reductions, gathers, scatters and search ops beyond the printed text.

test_onnx_corpus.py and test_onnx_frontend.py check that these converters print apache-tvm's
module.  Here: the places where tether emits another (equivalent) Relax program than TVM
(Einsum as relax.einsum and CumSum's reverse as relax.flip, where TVM goes through TIR
functions; OneHot with the dtype of its values) and the ops TVM does not convert
(NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss, TensorScatter) compute what ONNX
specifies (the module is handed to apache-tvm as JSON, compiled and run, when an apache-tvm
interpreter is available), and the operands that must be known at import time are reported
with typed errors naming the op and the operand.
"""
import json
import os
import subprocess
import warnings

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from tether import ir  # noqa: E402
from tether.relax.frontend.onnx import from_onnx  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def _model(nodes, inputs, outputs, inits=(), opset=13):
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=list(inits))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def _vi(name, shape, elem=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, elem, shape)


def _import(model):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return from_onnx(model)


def _cumsum_model(reverse, exclusive):
    axis = numpy_helper.from_array(np.array([1], dtype="int64"), "axis")
    node = helper.make_node("CumSum", ["x", "axis"], ["y"], reverse=reverse, exclusive=exclusive)
    return _model([node], [_vi("x", [2, 4])], [_vi("y", [2, 4])], [axis], opset=14)


def _onehot_model(dtype):
    """OneHot over axis 1 with constant depth 4 and values (off, on) of dtype."""
    elem = helper.np_dtype_to_tensor_dtype(np.dtype(dtype))
    depth = numpy_helper.from_array(np.array(4, dtype="int64"), "depth")
    values = numpy_helper.from_array(np.array([-1, 7], dtype=dtype), "values")
    node = helper.make_node("OneHot", ["i", "depth", "values"], ["y"], axis=1)
    return _model([node], [_vi("i", [3], TensorProto.INT32)], [_vi("y", [3, 4], elem)],
                  [depth, values], opset=11)


def _onehot_reference(indices, dtype):
    out = np.full((len(indices), 4), -1, dtype=dtype)
    out[np.arange(len(indices)), indices % 4] = 7
    return out


def _topk_v10_model():
    k = numpy_helper.from_array(np.array([2], dtype="int64"), "k")
    node = helper.make_node("TopK", ["x", "k"], ["v", "i"])
    outs = [_vi("v", [3, 2]), _vi("i", [3, 2], TensorProto.INT64)]
    return _model([node], [_vi("x", [3, 4])], outs, [k], opset=10)


def test_onehot_has_the_dtype_of_its_values():
    for dtype in ("float32", "int32", "int64", "float64"):
        text = _import(_onehot_model(dtype)).script()
        assert f'-> R.Tensor((3, 4), dtype="{dtype}")' in text, dtype


def test_topk_v10_takes_k_from_its_input():
    text = _import(_topk_v10_model()).script()
    assert 'R.topk(x, k=2, axis=-1, ret_type="both", largest=True, dtype="int64")' in text


def _cumsum_reference(x, reverse, exclusive):
    data = np.flip(x, 1) if reverse else x
    out = np.cumsum(data, 1)
    if exclusive:
        out = out - data
    return np.flip(out, 1) if reverse else out


def test_cumsum_reverse_is_a_cumsum_between_flips():
    text = _import(_cumsum_model(1, 1)).script()
    lines = [line.split(" = ", 1)[1] for line in text.splitlines() if ": R.Tensor" in line
             and " = R." in line]
    assert lines == ['R.flip(x, axis=1)',
                     'R.cumsum(lv, axis=1, dtype=None, exclusive=True)',
                     'R.flip(lv1, axis=1)']
    plain = _import(_cumsum_model(0, 0)).script()
    assert "R.flip" not in plain and "R.cumsum(x, axis=1, dtype=None, exclusive=False)" in plain


# The Einsum cases the onnx package ships (all imported by apache-tvm through call_tir).
EINSUM = ["test_einsum_batch_diagonal", "test_einsum_batch_matmul", "test_einsum_inner_prod",
          "test_einsum_scalar", "test_einsum_sum", "test_einsum_transpose"]


def _node_case(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from onnx.backend.test.case.node import collect_testcases

        with np.errstate(all="ignore"):
            for case in collect_testcases():
                if case.name == name:
                    return case
    raise KeyError(name)


def test_einsum_is_relax_einsum_with_the_equation():
    for name in EINSUM:
        case = _node_case(name)
        equation = next(a.s.decode() for a in case.model.graph.node[0].attribute
                        if a.name == "equation")
        text = _import(case.model).script()
        operands = ", ".join(i.name for i in case.model.graph.input)
        operands += "," if len(case.model.graph.input) == 1 else ""
        assert f'R.einsum(({operands}), subscripts="{equation}")' in text, name
        assert "call_tir" not in text


_TVM_RUN = """
import json, sys, numpy as np, tvm
from tvm import relax
for job in json.load(open(sys.argv[1])):
    mod = tvm.ir.load_json(open(job["module"]).read())
    vm = relax.VirtualMachine(tvm.compile(mod, target="llvm"), tvm.cpu())
    data = np.load(job["data"])
    ins = [data["i%d" % k] for k in range(job["inputs"])]
    out = vm["main"](*[tvm.runtime.tensor(a) for a in ins])
    outs = [out] if isinstance(out, tvm.runtime.Tensor) else list(out)
    np.savez(job["result"], *[o.numpy() for o in outs])
    print("ran", job["module"])
"""


def _tvm_python():
    path = os.environ.get("TETHER_TVM_PYTHON") or \
        os.path.join(HERE, "..", "..", ".venv-tvm", "bin", "python")
    if not os.path.exists(path):
        pytest.skip(f"no apache-tvm interpreter at {path} (make venv-tvm)")
    return path


# Loss cases (apache-tvm converts neither op): mean / sum / none, class weights, an
# ignore_index inside and outside [0, C), the log_prob output, several spatial dims.
LOSSES = ["test_nllloss_NCd1_mean_weight_negative_ii", "test_nllloss_NCd1d2_reduction_sum",
          "test_nllloss_NCd1d2d3_sum_weight_high_ii", "test_nllloss_NCd1d2d3d4d5_none_no_weight",
          "test_nllloss_NCd1d2_no_weight_reduction_mean_ii", "test_sce_mean_weight_ii_3d_log_prob",
          "test_sce_NCd1d2d3_none_no_weight_negative_ii_log_prob", "test_sce_sum"]
# Reductions whose axes are a graph input declared with the shape (0,): empty axes, known at
# import time (apache-tvm 0.27 rejects them as axes computed at run time).
EMPTY_AXES = ["test_reduce_sum_empty_axes_input_noop",
              "test_reduce_log_sum_exp_default_axes_keepdims_random",
              "test_reduce_l2_default_axes_keepdims_example"]
# CumSum over a 1-D input with its axis given at run time (necessarily 0 or -1).
CUMSUM_1D = ["test_cumsum_1d_reverse_exclusive", "test_cumsum_1d_int32_exclusive"]
# TensorScatter (apache-tvm 0.27 does not convert it either): linear and circular writes.
TENSOR_SCATTER = ["test_tensorscatter", "test_tensorscatter_3d", "test_tensorscatter_circular"]


def test_losses_import_with_their_outputs():
    for name in LOSSES:
        case = _node_case(name)
        mod = _import(case.model)
        _inputs, outputs = case.data_sets[0]
        text = mod.script()
        for out in outputs:
            shape = ", ".join(str(d) for d in np.asarray(out).shape)
            shape += "," if np.asarray(out).ndim == 1 else ""
            assert f"R.Tensor(({shape}), dtype=\"{np.asarray(out).dtype}\")" in text, name
        assert ("R.nn.log_softmax" in text) == name.startswith("test_sce"), name


def test_tvm_computes_what_onnx_specifies(tmp_path):
    """tether's module, saved as JSON, compiled and run by apache-tvm: Einsum, the losses,
    reductions over empty axes, CumSum of 1-D inputs and TensorScatter give the expected
    outputs shipped with each case; CumSum (reverse,
    exclusive) and OneHot (float32 and int32 values, a negative index) give numpy's."""
    tvm_python = _tvm_python()
    jobs, expected = [], []
    for name in EINSUM + LOSSES + EMPTY_AXES + CUMSUM_1D + TENSOR_SCATTER:
        case = _node_case(name)
        inputs, outputs = case.data_sets[0]
        jobs.append((case.model, [np.asarray(a) for a in inputs]))
        expected.append([np.asarray(a) for a in outputs])
    x = np.random.default_rng(0).standard_normal((2, 4)).astype("float32")
    for reverse in (0, 1):
        for exclusive in (0, 1):
            jobs.append((_cumsum_model(reverse, exclusive), [x]))
            expected.append([_cumsum_reference(x, reverse, exclusive)])
    indices = np.array([0, -1, 2], dtype="int32")
    for dtype in ("float32", "int32"):
        jobs.append((_onehot_model(dtype), [indices]))
        expected.append([_onehot_reference(indices, dtype)])
    spec = []
    for k, (model, inputs) in enumerate(jobs):
        module = tmp_path / f"m{k}.json"
        module.write_text(ir.save_json(_import(model)))
        data = tmp_path / f"d{k}.npz"
        np.savez(data, **{f"i{j}": a for j, a in enumerate(inputs)})
        spec.append({"module": str(module), "data": str(data), "inputs": len(inputs),
                     "result": str(tmp_path / f"r{k}.npz")})
    (tmp_path / "jobs.json").write_text(json.dumps(spec))
    res = subprocess.run([tvm_python, "-c", _TVM_RUN, str(tmp_path / "jobs.json")],
                         capture_output=True, text=True, check=False)
    assert res.returncode == 0, res.stderr[-3000:]
    for job, wants in zip(spec, expected):
        results = np.load(job["result"])
        assert len(results.files) == len(wants), job["module"]
        for k, want in enumerate(wants):
            got = results[f"arr_{k}"]
            assert got.shape == want.shape and got.dtype == want.dtype, job["module"]
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=job["module"])


def _runtime_operand_model(op, operand):
    """op with its `operand` input given as a graph input (a value known only at run time)."""
    T = TensorProto
    x = _vi("x", [2, 3])
    if op == "TopK":
        node = helper.make_node("TopK", ["x", "k"], ["v", "i"])
        return _model([node], [x, _vi("k", [1], T.INT64)],
                      [_vi("v", None), _vi("i", None, T.INT64)], opset=11)
    if op == "CumSum":
        node = helper.make_node("CumSum", ["x", "axis"], ["y"])
        return _model([node], [x, _vi("axis", [], T.INT64)], [_vi("y", None)], opset=14)
    if op == "OneHot":
        values = numpy_helper.from_array(np.array([0.0, 1.0], dtype="float32"), "values")
        node = helper.make_node("OneHot", ["i", "depth", "values"], ["y"])
        return _model([node], [_vi("i", [3], T.INT64), _vi("depth", [], T.INT64)],
                      [_vi("y", None)], [values], opset=11)
    node = helper.make_node(op, ["x", "axes"], ["y"])
    return _model([node], [x, _vi("axes", [1], T.INT64)], [_vi("y", None)], opset=18)


@pytest.mark.parametrize("op, operand", [
    ("ReduceSum", "axes"), ("ReduceMax", "axes"), ("ReduceMin", "axes"), ("ReduceMean", "axes"),
    ("ReduceProd", "axes"), ("ReduceL1", "axes"), ("ReduceL2", "axes"),
    ("ReduceLogSum", "axes"), ("ReduceLogSumExp", "axes"), ("ReduceSumSquare", "axes"),
    ("TopK", "k"), ("CumSum", "axis"), ("OneHot", "depth")])
def test_runtime_operand_is_reported_with_the_op_and_operand(op, operand):
    with pytest.raises(NotImplementedError, match=f"^{op}: the '{operand}' input is computed "
                                                  "at run time"):
        _import(_runtime_operand_model(op, operand))


def test_axes_input_declared_empty_is_known():
    T = TensorProto
    axes = _vi("axes", [0], T.INT64)
    unchanged = 'gv: R.Tensor((2, 3), dtype="float32") = x'
    for attrs, want in (({}, "R.sum(x, axis=None, keepdims=True)"),
                        ({"keepdims": 0}, "R.sum(x, axis=None, keepdims=False)"),
                        ({"noop_with_empty_axes": 1}, unchanged)):
        node = helper.make_node("ReduceSum", ["x", "axes"], ["y"], **attrs)
        text = _import(_model([node], [_vi("x", [2, 3]), axes], [_vi("y", None)])).script()
        assert want in text, attrs
    # A declared shape other than (0,), or one shape_dict replaces, says nothing of the value.
    node = helper.make_node("ReduceSum", ["x", "axes"], ["y"])
    for declared, shape_dict in (([1], None), ([0], {"axes": [1]})):
        model = _model([node], [_vi("x", [2, 3]), _vi("axes", declared, T.INT64)],
                       [_vi("y", None)])
        with pytest.raises(NotImplementedError, match="the 'axes' input is computed at run"):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                from_onnx(model, shape_dict=shape_dict)


def test_axis_operand_of_a_1d_input_is_known():
    """Over a 1-D input an axis given at run time can only name its one axis."""
    T = TensorProto
    x = _vi("x", [5])
    node = helper.make_node("CumSum", ["x", "axis"], ["y"], exclusive=1)
    text = _import(_model([node], [x, _vi("axis", [], T.INT32)], [_vi("y", None)],
                          opset=14)).script()
    assert "R.cumsum(x, axis=0, dtype=None, exclusive=True)" in text
    node = helper.make_node("ReduceMax", ["x", "axes"], ["y"], keepdims=0)
    text = _import(_model([node], [x, _vi("axes", [1], T.INT64)], [_vi("y", None)],
                          opset=18)).script()
    assert "R.max(x, axis=None, keepdims=False)" in text
    # With noop_with_empty_axes, empty axes (no reduction) and [0] differ: not known.
    node = helper.make_node("ReduceMax", ["x", "axes"], ["y"], noop_with_empty_axes=1)
    with pytest.raises(NotImplementedError, match="the 'axes' input is computed at run"):
        _import(_model([node], [x, _vi("axes", [1], T.INT64)], [_vi("y", None)], opset=18))


def test_bad_attributes_are_value_errors():
    T = TensorProto
    data = [_vi("x", [2, 3]), _vi("i", [2, 3], T.INT64), _vi("u", [2, 3])]
    scatter = helper.make_node("Scatter", ["x", "i", "u"], ["y"])
    with pytest.raises(ValueError, match="Scatter is deprecated from opset 11"):
        _import(_model([scatter], data, [_vi("y", None)], opset=11))
    bad = helper.make_node("ScatterElements", ["x", "i", "u"], ["y"], reduction="max")
    with pytest.raises(ValueError, match=r"ScatterElements: reduction must be one of "
                                         r"\['update', 'add', 'mul'\], but got 'max'"):
        _import(_model([bad], data, [_vi("y", None)], opset=16))
    arg = helper.make_node("ArgMax", ["x"], ["y"], axis=2)
    with pytest.raises(ValueError, match="ArgMax: axis 2 is out of range for an input of "
                                         "rank 2"):
        _import(_model([arg], data[:1], [_vi("y", None, T.INT64)]))
    loss = helper.make_node("NegativeLogLikelihoodLoss", ["x", "t"], ["y"], reduction="avg")
    with pytest.raises(ValueError, match="NegativeLogLikelihoodLoss: reduction must be 'none', "
                                         "'sum' or 'mean', but got 'avg'"):
        _import(_model([loss], [data[0], _vi("t", [2], T.INT64)], [_vi("y", None)]))
    scatter = helper.make_node("TensorScatter", ["x", "x"], ["y"], axis=0)
    with pytest.raises(ValueError, match="TensorScatter: axis 0 must name a sequence axis"):
        _import(_model([scatter], data[:1], [_vi("y", None)], opset=24))
    k = numpy_helper.from_array(np.array([1], dtype="int64"), "k")
    topk = helper.make_node("TopK", ["x", "k"], ["v", "i"], sorted=0)
    with pytest.raises(NotImplementedError, match="TopK with sorted=0"):
        _import(_model([topk], data[:1], [_vi("v", None), _vi("i", None, T.INT64)], [k],
                       opset=11))
