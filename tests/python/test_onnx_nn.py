"""The ONNX frontend's nn, image, vision, quantization and Attention converters.

The node cases the `onnx` package ships are compared with apache-tvm by test_onnx_corpus.py;
here are the models no shipped case covers:
  - ops apache-tvm imports only with constant operands (Resize, Upsample, AffineGrid) or from
    the com.microsoft domain (SkipLayerNormalization, EmbedLayerNormalization,
    MatMulInteger16) and AllClassNMS: small models whose printed module must be the text
    apache-tvm 0.27's from_onnx printed for the same model (its sha256, recorded below);
  - the standard Attention op (beyond apache-tvm, which fails on it): the types of the outputs
    and the structure of the module for each feature, and the typed errors;
  - with an apache-tvm interpreter ($TETHER_TVM_PYTHON, else the repository's .venv-tvm), the
    shipped node cases tether imports beyond apache-tvm (Attention, blocked quantization,
    ConvInteger, LpNormalization) compiled by TVM and run against their expected outputs.
"""
import os
import pickle
import subprocess
import sys
import warnings

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto as T  # noqa: E402
from onnx import helper, numpy_helper  # noqa: E402

from tether import ir  # noqa: E402
from tether.relax.expr import Call, GenericConst  # noqa: E402
from tether.relax.frontend.onnx import from_onnx  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "tools"))
from onnx_common import sha256  # noqa: E402

vi = helper.make_tensor_value_info


def _model(nodes, inputs, outputs, inits=(), opset=18, microsoft=False):
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=list(inits))
    opsets = [helper.make_opsetid("", opset)]
    if microsoft:
        opsets.append(helper.make_opsetid("com.microsoft", 1))
    return helper.make_model(graph, opset_imports=opsets)


def _init(name, values, dtype=np.float32):
    return numpy_helper.from_array(np.array(values, dtype=dtype), name)


def _script(model):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return from_onnx(model).script()


def _x(shape):
    return [vi("x", T.FLOAT, shape)]


_Y = [vi("y", T.FLOAT, None)]

# name -> (model, sha256 of the module apache-tvm 0.27's from_onnx prints for it)
TVM_PRINTED = {
    "resize_scales_nearest": (
        lambda: _model([helper.make_node("Resize", ["x", "", "scales"], ["y"])], _x([1, 2, 4, 4]),
                       _Y, [_init("scales", [1, 1, 2, 1.5])]),
        "92b85820e0f140a3feb7cb0b3e1c059ce5520cf2d59f48489a2ff85c2dbfcfd6"),
    "resize_sizes_cubic": (
        lambda: _model([helper.make_node("Resize", ["x", "", "", "sizes"], ["y"], mode="cubic",
                                         cubic_coeff_a=-0.5, exclude_outside=1)],
                       _x([1, 2, 4, 4]), _Y, [_init("sizes", [1, 2, 9, 10], np.int64)]),
        "d92f030144b8830be0a8ff5d5eef60dc28adbc92465c255105c3ea5a9afd7f18"),
    "resize_3d_roi": (
        lambda: _model([helper.make_node("Resize", ["x", "roi", "scales"], ["y"], mode="nearest",
                                         nearest_mode="floor")],
                       _x([1, 1, 2, 3, 4]), _Y,
                       [_init("roi", [0, 0, 0.1, 0.2, 0.3, 1, 1, 0.9, 0.8, 0.7]),
                        _init("scales", [1, 1, 2, 2, 2])]),
        "23a6adc586cd70b8325d999e30a77b01516c66073328b0a7996f7bb8a6a357ad"),
    "resize_crop": (
        lambda: _model([helper.make_node("Resize", ["x", "roi", "", "sizes"], ["y"], mode="linear",
                                         coordinate_transformation_mode="tf_crop_and_resize",
                                         extrapolation_value=10.0)],
                       _x([1, 1, 4, 4]), _Y,
                       [_init("roi", [0, 0, 0.4, 0.6, 1, 1, 0.6, 0.8]),
                        _init("sizes", [1, 1, 3, 3], np.int64)]),
        "e50aceade7b4100d808bfb83f1d490dbfce6cb42e984118c5e90d0b77cbdd688"),
    "upsample_opset7": (
        lambda: _model([helper.make_node("Upsample", ["x"], ["y"], scales=[1.0, 1.0, 2.0, 3.0])],
                       _x([1, 2, 3, 4]), _Y, opset=7),
        "af470d3a0e1f8c13c82f18debc83c50294f3cd12faf77bf7e4c96e94c7114c6d"),
    "affine_grid_const_size": (
        lambda: _model([helper.make_node("AffineGrid", ["theta", "size"], ["y"], align_corners=1)],
                       _x([1]), _Y, [_init("theta", np.ones((2, 2, 3))),
                                     _init("size", [2, 3, 4, 5], np.int64)], opset=20),
        "e1b2d9ed4a8b2a4804da7d9037930083e3d90bbd4edc8adc8ac07ea5f62004b1"),
    "skip_layer_normalization": (
        lambda: _model([helper.make_node("SkipLayerNormalization", ["x", "s", "g", "b", "bias"],
                                         ["y"], domain="com.microsoft", epsilon=1e-5)],
                       [vi(n, T.FLOAT, [2, 3, 8]) for n in "xs"]
                       + [vi(n, T.FLOAT, [8]) for n in ("g", "b", "bias")], _Y, microsoft=True),
        "28a0df7e630e25192bc5af2991f23a8152bebc020ffa2fe4c016448ad925c363"),
    "embed_layer_normalization": (
        lambda: _model([helper.make_node("EmbedLayerNormalization",
                                         ["ids", "seg", "we", "pe", "se", "g", "b", "mask"],
                                         ["y", "mi"], domain="com.microsoft")],
                       [vi("ids", T.INT32, [2, 5]), vi("seg", T.INT32, [2, 5]),
                        vi("we", T.FLOAT, [10, 8]), vi("pe", T.FLOAT, [6, 8]),
                        vi("se", T.FLOAT, [2, 8]), vi("g", T.FLOAT, [8]), vi("b", T.FLOAT, [8]),
                        vi("mask", T.INT32, [2, 5])],
                       [vi("y", T.FLOAT, None), vi("mi", T.INT32, None)], microsoft=True),
        "1ad8f2dcaff852296825fbccf3bed54be99de8344744174bfabf7b321474fb64"),
    "all_class_nms_center_boxes": (
        lambda: _model([helper.make_node("AllClassNMS", ["b", "s", "m", "i", "t"], ["y"],
                                         center_point_box=1)],
                       [vi("b", T.FLOAT, [1, 6, 4]), vi("s", T.FLOAT, [1, 1, 6])],
                       [vi("y", T.INT64, None)],
                       [_init("m", [3], np.int64), _init("i", [0.5]), _init("t", [0.1])]),
        "f3db9ce82bd9fcbd6a08f2e9652633d2e063132474db37ba0fd7f59d84067594"),
    "matmul_integer16": (
        lambda: _model([helper.make_node("MatMulInteger16", ["a", "b"], ["y"],
                                         domain="com.microsoft")],
                       [vi("a", T.INT16, [2, 3]), vi("b", T.UINT16, [3, 4])],
                       [vi("y", T.INT32, None)], microsoft=True),
        "aeb7a1a00b48aad760f079f5346c924b4935e5a2426255a9c421d0a0592bd5c6"),
}


@pytest.mark.parametrize("name", sorted(TVM_PRINTED))
def test_module_prints_as_tvm(name):
    build, want = TVM_PRINTED[name]
    assert sha256(_script(build())) == want


def test_resize_operands_computed_at_run_time_are_value_errors():
    model = _model([helper.make_node("Resize", ["x", "", "", "sizes"], ["y"])], _x([1, 2, 4, 4])
                   + [vi("sizes", T.INT64, [4])], _Y)
    with pytest.raises(ValueError, match="for size is currently unsupported"):
        from_onnx(model)


def test_resize_1d_is_not_implemented():
    model = _model([helper.make_node("Resize", ["x", "", "scales"], ["y"])], _x([1, 2, 4]), _Y,
                   [_init("scales", [1, 1, 2])])
    with pytest.raises(NotImplementedError, match="resize1d"):
        from_onnx(model)


def test_upsample_reads_constant_scales_from_opset_9():
    # Beyond TVM, which reads the scales attribute only.
    model = _model([helper.make_node("Upsample", ["x", "s"], ["y"], mode="linear")],
                   _x([1, 2, 3, 4]), _Y, [_init("s", [1, 1, 2, 2])], opset=9)
    text = _script(model)
    assert 'R.image.resize2d(x, R.shape([6, 8])' in text
    assert 'method="linear", coordinate_transformation_mode="asymmetric"' in text


def test_conv_auto_pad_same_pads_with_nn_pad():
    model = _model([helper.make_node("Conv", ["x", "w"], ["y"], auto_pad="SAME_LOWER",
                                     strides=[2, 2], kernel_shape=[4, 3])],
                   _x([1, 1, 6, 5]) + [vi("w", T.FLOAT, [2, 1, 4, 3])], _Y)
    text = _script(model)
    # H: extent 4, 6 % 2 == 0 -> total 2 (1, 1); W: extent 3, 5 % 2 == 1 -> total 2 (1, 1)
    assert "R.nn.pad(x, pad_width=[0, 0, 0, 0, 1, 1, 1, 1]" in text
    assert "R.Tensor((1, 2, 3, 3), dtype=\"float32\") = R.nn.conv2d(lv, w" in text


# ---- Attention ----------------------------------------------------------------------------------

def _attention(q, k, v, attrs=None, mask=None, past=None, nonpad=None, outputs=1, dtype=T.FLOAT,
               opset=23):
    """An Attention model: q, k, v (and the optional operands) given as shapes."""
    names, inputs = ["Q", "K", "V"], [vi("Q", dtype, q), vi("K", dtype, k), vi("V", dtype, v)]
    if mask is not None:
        inputs.append(vi("attn_mask", mask[0], mask[1]))
        names.append("attn_mask")
    elif past is not None or nonpad is not None:
        names.append("")
    if past is not None:
        inputs += [vi("past_key", dtype, past[0]), vi("past_value", dtype, past[1])]
        names += ["past_key", "past_value"]
    elif nonpad is not None:
        names += ["", ""]
    if nonpad is not None:
        inputs.append(vi("nonpad_kv_seqlen", T.INT64, [nonpad]))
        names.append("nonpad_kv_seqlen")
    out_names = ["Y", "present_key", "present_value", "qk_matmul_output"]
    if isinstance(outputs, int):
        outputs = out_names[:outputs]
    node = helper.make_node("Attention", names, outputs, **(attrs or {}))
    return _model([node], inputs, [vi(n, dtype, None) for n in outputs if n], opset=opset)


def _signature(text):
    """The return annotation of main in a printed module."""
    line = next(ln for ln in text.split("\n") if ln.strip().startswith("def main("))
    return line.split(") -> ", 1)[1].rstrip(":")


def test_attention_4d_structure():
    text = _script(_attention([2, 3, 4, 8], [2, 3, 6, 8], [2, 3, 6, 10]))
    assert _signature(text) == 'R.Tensor((2, 3, 4, 10), dtype="float32")'
    # sqrt(1 / sqrt(8)) on both sides of the product
    assert text.count('R.const(0.59460353851318359, "float32")') == 2
    assert "R.permute_dims(lv1, axes=[0, 1, 3, 2])" in text
    assert "R.nn.softmax(" in text and "R.where(" not in text  # no bias: nothing masked


def test_attention_3d_splits_and_merges_heads():
    text = _script(_attention([2, 4, 24], [2, 6, 24], [2, 6, 30],
                              {"q_num_heads": 3, "kv_num_heads": 3}))
    assert _signature(text) == 'R.Tensor((2, 4, 30), dtype="float32")'
    assert "R.reshape(Q, R.shape([2, 4, 3, 8]))" in text
    assert "R.reshape(V, R.shape([2, 6, 3, 10]))" in text
    assert 'R.Tensor((2, 4, 30), dtype="float32") = R.reshape(' in text


def test_attention_grouped_query_heads_are_repeated():
    text = _script(_attention([2, 9, 4, 8], [2, 3, 6, 8], [2, 3, 6, 8]))
    assert text.count("R.broadcast_to(") == 2  # K and V: (2, 3, 1, 6, 8) -> (2, 3, 3, 6, 8)
    assert "R.Tensor((2, 3, 3, 6, 8), dtype=\"float32\") = R.broadcast_to(" in text
    assert text.count("R.reshape(") == 2  # K and V: (2, 3, 3, 6, 8) -> (2, 9, 6, 8)
    assert _signature(text) == 'R.Tensor((2, 9, 4, 8), dtype="float32")'


def test_attention_causal_bias_is_a_constant():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mod = from_onnx(_attention([1, 1, 3, 4], [1, 1, 5, 4], [1, 1, 5, 4], {"is_causal": 1}))
    text = mod.script(show_meta=True)
    assert 'R.Tensor((1, 1, 3, 5), dtype="float32") = R.add(lv3, metadata' in text
    assert "R.where(" not in text
    # The bias of the 3 x 5 scores: query i sees keys 0..i.
    consts = [np.from_dlpack(arg.value) for b in mod["main"].body.blocks[0].bindings
              if isinstance(b.value, Call) for arg in b.value.args
              if isinstance(arg, GenericConst) and np.from_dlpack(arg.value).shape == (3, 5)]
    assert len(consts) == 1
    want = np.where(np.arange(5)[None, :] <= np.arange(3)[:, None], 0.0, -np.inf)
    np.testing.assert_array_equal(consts[0], want)


def test_attention_bool_mask_past_and_all_outputs():
    model = _attention([2, 3, 4, 8], [2, 3, 6, 8], [2, 3, 6, 8], {"qk_matmul_output_mode": 3},
                       mask=(T.BOOL, [4, 10]), past=([2, 3, 12, 8], [2, 3, 12, 8]), outputs=4)
    text = _script(model)
    assert _signature(text) == (
        'R.Tuple(R.Tensor((2, 3, 4, 8), dtype="float32"), R.Tensor((2, 3, 18, 8), '
        'dtype="float32"), R.Tensor((2, 3, 18, 8), dtype="float32"), R.Tensor((2, 3, 4, 18), '
        'dtype="float32"))')
    assert "R.concat((past_key, K), axis=2)" in text
    # the 10-key mask padded with False for the 8 keys after it
    assert 'R.Tensor((4, 18), dtype="bool") = R.concat((attn_mask, ' in text
    # fully masked rows found by counting the keys left open
    assert "R.greater(" in text and "R.sum(" in text


def test_attention_unrequested_outputs_are_placeholders():
    model = _attention([1, 1, 2, 4], [1, 1, 3, 4], [1, 1, 3, 4],
                       outputs=["Y", "", "", "qk"])
    text = _script(model)
    assert _signature(text) == ('R.Tuple(R.Tensor((1, 1, 2, 4), dtype="float32"), '
                                'R.Tensor((1, 1, 2, 3), dtype="float32"))')


def test_attention_nonpad_kv_seqlen_and_window():
    model = _attention([2, 2, 3, 8], [2, 2, 6, 8], [2, 2, 6, 8],
                       {"is_causal": 1, "left_window_size": 2}, nonpad=2, opset=25)
    text = _script(model)
    assert 'R.subtract(nonpad_kv_seqlen, R.const(3, "int64"))' in text
    assert "R.greater_equal(" in text and "R.less_equal(" in text and "R.less(" in text
    assert _signature(text) == 'R.Tensor((2, 2, 3, 8), dtype="float32")'


def test_attention_softcap_and_softmax_precision():
    model = _attention([1, 2, 2, 8], [1, 2, 2, 8], [1, 2, 2, 8],
                       {"softcap": 2.0, "softmax_precision": T.FLOAT}, dtype=T.FLOAT16)
    text = _script(model)
    assert "R.tanh(" in text
    assert 'R.astype(lv' in text and 'dtype="float32")' in text
    assert _signature(text) == 'R.Tensor((1, 2, 2, 8), dtype="float16")'


def test_attention_errors_are_typed():
    with pytest.raises(ValueError, match="q_num_heads and kv_num_heads"):
        from_onnx(_attention([2, 4, 24], [2, 6, 24], [2, 6, 24]))
    with pytest.raises(NotImplementedError, match="'bogus'"):
        from_onnx(_attention([1, 1, 2, 4], [1, 1, 2, 4], [1, 1, 2, 4], {"bogus": 1}))
    with pytest.raises(ValueError, match="must not be given for 4-D"):
        from_onnx(_attention([1, 1, 2, 4], [1, 1, 2, 4], [1, 1, 2, 4], {"q_num_heads": 1},
                             opset=25))
    with pytest.raises(ValueError, match="cannot be grouped"):
        from_onnx(_attention([1, 3, 2, 4], [1, 2, 2, 4], [1, 2, 2, 4]))
    contrib = _model([helper.make_node("Attention", ["x", "w"], ["y"], domain="com.microsoft",
                                       num_heads=2)],
                     [vi("x", T.FLOAT, [1, 2, 4]), vi("w", T.FLOAT, [4, 12])], _Y,
                     microsoft=True)
    with pytest.raises(NotImplementedError, match="com.microsoft"):
        from_onnx(contrib)


# ---- numerics through apache-tvm ----------------------------------------------------------------

# A representative subset of the shipped node cases tether imports beyond apache-tvm (all 93
# Attention cases pass the same way by hand).
NUMERIC_CASES = [
    "test_quantizelinear_blocked_asymmetric", "test_dequantizelinear_blocked",
    "test_convinteger_with_padding", "test_l1normalization_axis_last",
    "test_attention_3d_gqa_with_past_and_present", "test_attention_4d_attn_mask_bool",
    "test_attention_4d_causal_nonpad_attn_mask_composition",
    "test_attention_4d_with_past_and_present_qk_matmul_bias_4d_mask_causal",
    "test_attention_23_fullymasked_qk_matmul_output_mode3_zero",
    "test_attention_local_window_gqa_rank4_mask", "test_attention_3d_diff_heads_sizes_softcap",
    "test_attention_4d_causal_fp16",
]

_TVM_RUNNER = r"""
import pickle, sys, numpy as np, tvm
from tvm import relax
failures = []
for path in sys.argv[1:]:
    case = pickle.load(open(path, "rb"))
    ex = tvm.compile(tvm.ir.load_json(case["json"]), target="llvm")
    vm = relax.VirtualMachine(ex, tvm.cpu())
    for inputs, outputs in case["sets"]:
        got = vm["main"](*[tvm.runtime.tensor(a) for a in inputs])
        got = [got] if hasattr(got, "numpy") else list(got)
        for g, w in zip(got, outputs):
            g, w = g.numpy().astype("float64"), np.asarray(w).astype("float64")
            if g.shape != w.shape or not np.allclose(g, w, rtol=case["rtol"], atol=case["atol"]):
                failures.append(path)
print("FAILURES", len(failures), failures)
"""


def _tvm_python():
    path = os.environ.get("TETHER_TVM_PYTHON") or os.path.join(REPO, ".venv-tvm", "bin", "python")
    if not os.path.exists(path):
        pytest.fail(f"no apache-tvm interpreter at {path}: run `make venv-tvm` (make test does)")
    return path


def _array(value):
    """A case's input or output as numpy (some are stored as TensorProto)."""
    return numpy_helper.to_array(value) if hasattr(value, "data_type") else np.asarray(value)


def test_cases_beyond_tvm_compute_the_shipped_outputs_in_tvm(tmp_path):
    from onnx.backend.test.case.node import collect_testcases

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cases = {c.name: c for c in collect_testcases() if c.name in NUMERIC_CASES}
        assert sorted(cases) == sorted(NUMERIC_CASES)
        paths = []
        for name, case in sorted(cases.items()):
            low = case.model.graph.input[0].type.tensor_type.elem_type in (T.FLOAT16,
                                                                           T.BFLOAT16)
            record = {"json": ir.save_json(from_onnx(case.model)),
                      "sets": [([_array(a) for a in i], [_array(a) for a in o])
                               for i, o in case.data_sets],
                      "rtol": 2e-2 if low else 1e-4, "atol": 2e-2 if low else 1e-5}
            path = tmp_path / f"{name}.pkl"
            with open(path, "wb") as f:
                pickle.dump(record, f)
            paths.append(str(path))
    proc = subprocess.run([_tvm_python(), "-c", _TVM_RUNNER, *paths], capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "FAILURES 0 []" in proc.stdout, proc.stdout[-2000:]
