"""The ONNX frontend's logic, bitwise, activation and cast converters.

tests/python/test_onnx_corpus.py holds them to apache-tvm 0.27's text on every case the `onnx`
package ships.  Here: what that cannot show -- the converters beyond TVM (Celu, Swish, SwiGLU,
Binarizer, FastGelu, BiasGelu; Elu/Selu/ThresholdedRelu on float16 and float64), the Clip form
that replaces TVM's call_tir, and the typed errors.  The numbers are checked through apache-tvm:
each module is saved as JSON (tether.ir.save_json), compiled and run by TVM in its own
interpreter (one subprocess for the batch), and compared with numpy.
"""
import json
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper  # noqa: E402

from tether import ir  # noqa: E402
from tether.relax.frontend.onnx import from_onnx, supported_ops  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ONNX_TYPE = {"float32": TensorProto.FLOAT, "float16": TensorProto.FLOAT16,
             "float64": TensorProto.DOUBLE, "int32": TensorProto.INT32,
             "int64": TensorProto.INT64, "uint8": TensorProto.UINT8, "bool": TensorProto.BOOL}


def node_model(op, inputs, out_dtype=None, opset=18, domain="", **attrs):
    """A one-node model: inputs is a list of (name, numpy array or None for an omitted
    optional input); the output has the first input's shape."""
    names = [name if arr is not None else "" for name, arr in inputs]
    node = helper.make_node(op, names, ["y"], domain=domain, **attrs)
    first = inputs[0][1]
    graph = helper.make_graph(
        [node], "g",
        [helper.make_tensor_value_info(name, ONNX_TYPE[str(arr.dtype)], list(arr.shape))
         for name, arr in inputs if arr is not None],
        [helper.make_tensor_value_info("y", ONNX_TYPE[out_dtype or str(first.dtype)],
                                       list(first.shape))])
    imports = [helper.make_opsetid("", opset)]
    if domain:
        imports.append(helper.make_opsetid(domain, 1))
    return helper.make_model(graph, opset_imports=imports)


def clip_const_bounds(lo, hi):
    """Clip(x, lo, hi) with its bounds from Constant nodes."""
    nodes = [helper.make_node("Constant", [], [name], value=helper.make_tensor(
        name, TensorProto.FLOAT, [], [value])) for name, value in (("lo", lo), ("hi", hi))]
    nodes.append(helper.make_node("Clip", ["x", "lo", "hi"], ["y"]))
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info(
        "x", TensorProto.FLOAT, [3, 4, 5])], [helper.make_tensor_value_info(
            "y", TensorProto.FLOAT, [3, 4, 5])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


def convert(model):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return from_onnx(model)


# ---- numerics through apache-tvm ------------------------------------------------------------

RNG = np.random.default_rng(11)
X = RNG.standard_normal((3, 4, 5)).astype("float32") * 3
X[0, 0, :3] = [0.0, -0.0, 1e-3]


def _sigmoid(v):
    return 1.0 / (1.0 + np.exp(-v))


def _gelu(v):
    from math import erf

    return 0.5 * v * (1.0 + np.vectorize(erf)(v / np.sqrt(2.0)))


def _gelu_tanh(v):
    return 0.5 * v * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (v + 0.044715 * v ** 3)))


def _celu(v, alpha):
    return np.maximum(0, v) + np.minimum(0, alpha * (np.exp(v / alpha) - 1))


def _elu(v, alpha):
    return np.where(v > 0, v, alpha * (np.exp(v) - 1))


LO = np.array(-1.5, "float32")
HI = np.array(2.0, "float32")
SLOPE = RNG.standard_normal((4, 1)).astype("float32")
BIAS = RNG.standard_normal((5,)).astype("float32")
B = RNG.standard_normal((3, 4, 5)).astype("float32")
X16 = X.astype("float16")
X64 = X.astype("float64")

EXP_INT = np.abs(B).round().astype("int64")  # small integer exponents, 0..4
X_INT = (X * 2).astype("int32")
X_1D = RNG.standard_normal(7).astype("float32")


def _exclusive_reverse_cumprod(v):
    out = np.ones_like(v)
    out[:-1] = np.cumprod(v[::-1])[::-1][1:]
    return out


# name -> (model, inputs, expected output)
NUMERIC = {
    # beyond apache-tvm 0.27: Pow with an exponent of another dtype, EyeLike with a dtype
    # attribute, CumProd
    "pow_float_base_int_exponent": (node_model("Pow", [("x", X), ("e", EXP_INT)], opset=15),
                                    [X, EXP_INT], X ** EXP_INT),
    "pow_int_base_float_exponent": (
        node_model("Pow", [("x", X_INT), ("e", EXP_INT.astype("float32"))], opset=15),
        [X_INT, EXP_INT.astype("float32")], X_INT ** EXP_INT.astype("int32")),
    "eyelike_dtype": (node_model("EyeLike", [("x", X_INT[0])], out_dtype="float64", opset=22,
                                 dtype=TensorProto.DOUBLE, k=1),
                      [X_INT[0]], np.eye(4, 5, k=1, dtype="float64")),
    "cumprod_reverse_exclusive": (
        node_model("CumProd", [("x", X_1D), ("axis", np.array(0, "int64"))], opset=26,
                   reverse=1, exclusive=1),
        [X_1D, np.array(0, "int64")], _exclusive_reverse_cumprod(X_1D)),
    "celu": (node_model("Celu", [("x", X)], opset=12, alpha=2.0), [X], _celu(X, 2.0)),
    "celu_default": (node_model("Celu", [("x", X)], opset=12), [X], _celu(X, 1.0)),
    "swish": (node_model("Swish", [("x", X)], opset=24), [X], X * _sigmoid(X)),
    "swish_alpha": (node_model("Swish", [("x", X)], opset=24, alpha=0.5), [X],
                    X * _sigmoid(0.5 * X)),
    "swiglu": (node_model("SwiGLU", [("a", X), ("b", B)], opset=28, alpha=1.5), [X, B],
               X * _sigmoid(1.5 * X) * B),
    "binarizer": (node_model("Binarizer", [("x", X)], domain="ai.onnx.ml", threshold=0.5),
                  [X], (X > 0.5).astype("float32")),
    "bias_gelu": (node_model("BiasGelu", [("x", X), ("bias", BIAS)], domain="com.microsoft"),
                  [X, BIAS], _gelu(X + BIAS)),
    "fast_gelu": (node_model("FastGelu", [("x", X), ("bias", BIAS)], domain="com.microsoft"),
                  [X, BIAS], _gelu_tanh(X + BIAS)),
    "elu_float16": (node_model("Elu", [("x", X16)], alpha=0.5), [X16], _elu(X16, 0.5)),
    "selu_float64": (node_model("Selu", [("x", X64)]), [X64],
                     1.0507009873554805 * _elu(X64, 1.6732632423543772)),
    "thresholded_relu_float64": (node_model("ThresholdedRelu", [("x", X64)], alpha=0.5),
                                 [X64], np.where(X64 > 0.5, X64, 0)),
    "clip_tensor_bounds": (node_model("Clip", [("x", X), ("lo", LO), ("hi", HI)], opset=13),
                           [X, LO, HI], np.clip(X, LO, HI)),
    "clip_nan_bound": (node_model("Clip", [("x", X), ("lo", LO), ("hi", HI)], opset=13),
                       [X, LO, np.array(np.nan, "float32")], np.maximum(X, LO)),
    "clip_const_bounds": (clip_const_bounds(0.0, 6.0), [X], np.clip(X, 0, 6)),
    "clip_const_nan_bound": (clip_const_bounds(float("nan"), 1.0), [X], np.minimum(X, 1)),
    "clip_max_only": (node_model("Clip", [("x", X), ("lo", None), ("hi", HI)], opset=13),
                      [X, HI], np.minimum(X, HI)),
    "clip_attributes": (node_model("Clip", [("x", X)], opset=6, min=-0.5, max=0.25), [X],
                        np.clip(X, -0.5, 0.25)),
    "clip_int": (node_model("Clip", [("x", X.astype("int32")), ("lo", np.array(-1, "int32")),
                                     ("hi", np.array(2, "int32"))], opset=13),
                 [X.astype("int32"), np.array(-1, "int32"), np.array(2, "int32")],
                 np.clip(X.astype("int32"), -1, 2)),
    "prelu_channel": (node_model("PRelu", [("x", X), ("slope", SLOPE)], opset=16), [X, SLOPE],
                      np.where(X < 0, X * SLOPE, X)),
    "hardmax_legacy": (node_model("Hardmax", [("x", X)], opset=11, axis=1), [X],
                       np.eye(20, dtype="float32")[X.reshape(3, 20).argmax(1)].reshape(X.shape)),
    "logsoftmax_legacy": (node_model("LogSoftmax", [("x", X)], opset=11, axis=1), [X],
                          (X.reshape(3, 20) - np.log(np.exp(X.reshape(3, 20)).sum(
                              1, keepdims=True))).reshape(X.shape)),
    "mod_fmod": (node_model("Mod", [("a", X), ("b", B + 3)], opset=13, fmod=1), [X, B + 3],
                 np.fmod(X, B + 3)),
    "mod_floor": (node_model("Mod", [("a", (X * 4).astype("int32")),
                                     ("b", np.full((3, 4, 5), 3, "int32"))], opset=13),
                  [(X * 4).astype("int32"), np.full((3, 4, 5), 3, "int32")],
                  np.mod((X * 4).astype("int32"), 3)),
}

# The TVM side: load each module, compile it, run main, save the outputs.
_TVM_RUN = r"""
import json, sys
import numpy as np
import tvm
from tvm import relax
work = sys.argv[1]
names = json.load(open(work + "/names.json"))
for name in names:
    mod = tvm.ir.load_json(open(f"{work}/{name}.json").read())
    vm = relax.VirtualMachine(tvm.compile(mod, target="llvm"), tvm.cpu())
    data = np.load(f"{work}/{name}.in.npz")
    args = [tvm.runtime.tensor(data[f"a{i}"]) for i in range(len(data.files))]
    np.save(f"{work}/{name}.out.npy", vm["main"](*args).numpy())
print("done")
"""


def _tvm_python():
    path = os.environ.get("TETHER_TVM_PYTHON") or os.path.join(REPO, ".venv-tvm", "bin", "python")
    if not os.path.exists(path):
        pytest.fail(f"no apache-tvm interpreter at {path}: run `make venv-tvm` (make test does)")
    return path


@pytest.fixture(scope="module")
def tvm_outputs(tmp_path_factory):
    work = str(tmp_path_factory.mktemp("onnx_elementwise"))
    for name, (model, inputs, _) in NUMERIC.items():
        with open(os.path.join(work, name + ".json"), "w", encoding="utf-8") as f:
            f.write(ir.save_json(convert(model)))
        np.savez(os.path.join(work, name + ".in.npz"),
                 **{f"a{i}": a for i, a in enumerate(inputs)})
    with open(os.path.join(work, "names.json"), "w", encoding="utf-8") as f:
        json.dump(sorted(NUMERIC), f)
    proc = subprocess.run([_tvm_python(), "-c", _TVM_RUN, work], capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return work


@pytest.mark.parametrize("name", sorted(NUMERIC))
def test_tvm_computes_the_onnx_result(tvm_outputs, name):
    _, inputs, want = NUMERIC[name]
    got = np.load(os.path.join(tvm_outputs, name + ".out.npy"))
    assert got.shape == want.shape
    if name == "eyelike_dtype":
        assert got.dtype == want.dtype
    else:
        assert got.dtype == inputs[0].dtype or name == "hardmax_legacy"
    tol = 2e-3 if got.dtype == np.float16 else 1e-4
    np.testing.assert_allclose(got.astype("float64"), np.asarray(want, "float64"),
                               rtol=tol, atol=tol)


# ---- the module's form ------------------------------------------------------------------------

def test_clip_with_tensor_bounds_uses_relax_ops_not_call_tir():
    text = convert(NUMERIC["clip_tensor_bounds"][0]).script()
    assert "call_tir" not in text and "prim_func" not in text
    # NaN bounds count as no bound (onnxruntime), then max with the lower, min with the upper.
    body = [ln.split(" = ", 1)[1] for ln in text.split("\n") if " = R." in ln]
    assert body == ["R.isnan(lo)", 'R.where(lv, R.const("-inf", "float32"), lo)',
                    "R.maximum(x, lv1)", "R.isnan(hi)",
                    'R.where(lv3, R.const("inf", "float32"), hi)', "R.minimum(lv2, lv4)"]


def test_clip_constant_bounds_are_checked_for_nan_at_import():
    text = convert(NUMERIC["clip_const_bounds"][0]).script()
    assert "isnan" not in text and "R.maximum(x, R.const(0.0" in text
    text = convert(NUMERIC["clip_const_nan_bound"][0]).script()
    assert "isnan" not in text and 'R.maximum(x, R.const("-inf", "float32"))' in text


def test_clip_integer_bounds_need_no_nan_check():
    text = convert(NUMERIC["clip_int"][0]).script()
    assert "isnan" not in text and "R.maximum(x, lo)" in text and "R.minimum(lv, hi)" in text


def test_clip_without_bounds_is_its_input():
    model = node_model("Clip", [("x", X)], opset=13)
    assert "R.maximum" not in convert(model).script()


def test_cast_to_sub_byte_integers_is_a_plain_astype():
    for to, name in ((TensorProto.INT4, "int4"), (TensorProto.UINT2, "uint2")):
        model = node_model("Cast", [("x", X)], out_dtype="float32", to=to)
        text = convert(model).script()
        assert f'R.astype(x, dtype="{name}")' in text and "isfinite" not in text
    model = node_model("Cast", [("x", X)], out_dtype="float32", to=TensorProto.INT8)
    assert "isfinite" in convert(model).script()  # 8 bits and up wrap as onnxruntime does


def test_converters_are_registered():
    ops = supported_ops()
    for name, version in (("And", 1), ("Or", 1), ("Xor", 1), ("Mod", 10), ("BitShift", 11),
                          ("BitwiseAnd", 18), ("BitwiseOr", 18), ("BitwiseXor", 18),
                          ("BitwiseNot", 18), ("CastLike", 15), ("Clip", 1), ("Clip", 11),
                          ("Elu", 1), ("Selu", 1), ("Gelu", 20), ("HardSigmoid", 1),
                          ("HardSwish", 14), ("Softplus", 1), ("Softsign", 1), ("Shrink", 9),
                          ("ThresholdedRelu", 1), ("Mish", 18), ("PRelu", 1),
                          ("LogSoftmax", 13), ("Hardmax", 1), ("Hardmax", 13), ("Celu", 12),
                          ("Swish", 24), ("SwiGLU", 28)):
        assert version in ops.get(name, ()), (name, version)


# ---- typed errors -------------------------------------------------------------------------------

def test_bitwise_ops_reject_float_operands():
    model = node_model("BitwiseAnd", [("a", X), ("b", X)])
    with pytest.raises(ValueError, match="integer types, got float32 for input 0"):
        convert(model)


def test_bitshift_rejects_an_unknown_direction():
    a = np.arange(4, dtype="uint8")
    model = node_model("BitShift", [("a", a), ("b", a)], direction="UP")
    with pytest.raises(ValueError, match="Unsupported Shift Direction: UP"):
        convert(model)


def test_gelu_rejects_an_unknown_approximation():
    model = node_model("Gelu", [("x", X)], opset=20, approximate="cubic")
    with pytest.raises(ValueError, match="approximate mode for Gelu: cubic"):
        convert(model)


def test_hardmax_axis_out_of_range():
    with pytest.raises(ValueError, match="Hardmax axis 3 is out of range for rank 3"):
        convert(node_model("Hardmax", [("x", X)], opset=13, axis=3))
    with pytest.raises(ValueError, match="Hardmax axis 4 is out of range for rank 3"):
        convert(node_model("Hardmax", [("x", X)], opset=11, axis=4))


def test_prelu_slope_of_higher_rank_than_the_input():
    x = np.zeros((4, 5), "float32")
    slope = np.zeros((2, 4, 5), "float32")
    with pytest.raises(ValueError, match="Unsupported PRelu slope shape"):
        convert(node_model("PRelu", [("x", x), ("slope", slope)], opset=16))


def test_fast_gelu_bias_must_be_1d():
    model = node_model("FastGelu", [("x", X), ("bias", B)], domain="com.microsoft")
    with pytest.raises(ValueError, match="bias term must be a 1D tensor"):
        convert(model)


def test_pow_folds_to_the_base_dtype():
    x = np.array([1.5, 2.0], "float32")
    model = node_model("Pow", [("x", x), ("e", np.array([2, 3], "int64"))], opset=15)
    init = [helper.make_tensor("x", TensorProto.FLOAT, [2], x.tolist()),
            helper.make_tensor("e", TensorProto.INT64, [2], [2, 3])]
    model.graph.initializer.extend(init)
    const = convert(model)["main"].body.blocks[0].bindings[-1].value
    assert const.ty.dtype == "float32"
    np.testing.assert_array_equal(np.from_dlpack(const.value), np.array([2.25, 8.0], "float32"))


def test_pad_with_a_run_time_constant_value_is_not_implemented():
    x = np.zeros((2, 3), "float32")
    model = node_model("Pad", [("x", x), ("pads", None), ("value", np.array(1.0, "float32"))],
                       opset=18)
    model.graph.node[0].input[1] = "pads"
    model.graph.initializer.append(helper.make_tensor("pads", TensorProto.INT64, [4],
                                                      [0, 1, 0, 1]))
    with pytest.raises(NotImplementedError, match="constant_value computed at run time"):
        convert(model)


def test_optional_has_element_without_input_is_false():
    graph = helper.make_graph([helper.make_node("OptionalHasElement", [], ["y"])], "g", [],
                              [helper.make_tensor_value_info("y", TensorProto.BOOL, [])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    const = convert(model)["main"].body.blocks[0].bindings[-1].value
    assert const.ty.dtype == "bool" and not bool(np.from_dlpack(const.value))
