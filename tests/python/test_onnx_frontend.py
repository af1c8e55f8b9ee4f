"""tether.relax.frontend.onnx: from_onnx builds the module apache-tvm 0.27 builds.

The light_* models shipped with the `onnx` package are imported and printed; the text must be
byte-identical to apache-tvm's, recorded by tools/onnx_record_tvm.py into
tests/python/data/onnx/<model>.txt (its sha256, line count and first lines; the format:
tools/onnx_common.py).  The rest checks
the interface: the model forms, the converter table, unsupported ops, bad input, the command
line, the missing-dependency error.
"""
import os
import subprocess
import sys

import warnings

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper  # noqa: E402

from tether import ir  # noqa: E402
from tether.relax.frontend.onnx import from_onnx, get_converter, supported_ops  # noqa: E402
from tether.relax.frontend.onnx import converter  # noqa: E402
from tether.relax.frontend.onnx import converters as _conv  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools"))
from onnx_cases import CASES  # noqa: E402
from onnx_common import read_record, sha256  # noqa: E402

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "onnx")
LIGHT = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "light")
RECORDED = sorted(f[:-4] for f in os.listdir(DATA) if f.endswith(".txt"))


# The Relax ops a model's import needs beyond the ones every model uses (where the op library
# is still growing: an op missing from tether.relax.op skips the model, naming the op).
NEEDS = {"light_resnet50": ["stack"], "light_shufflenet": ["stack"],
         "light_bvlc_alexnet": ["nn.avg_pool3d"], "light_inception_v1": ["nn.avg_pool3d"],
         "light_zfnet512": ["nn.avg_pool3d"]}


CASE_NEEDS = {"multi_input_reductions": ["stack", "min"], "matmul_sqrt_erf": ["erf"],
              "compare_squeeze": ["greater_equal"],
              "casts": ["logical_not", "isfinite", "floor_mod", "bitwise_and",
                        "greater_equal"],
              "unary_chain": ["floor", "ceil", "round", "sign", "sin", "cos", "abs", "log",
                              "nn.leakyrelu"]}


def _has_op(name):
    from tether.relax import op as rop

    obj = rop
    for part in name.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            return False
    return True


@pytest.mark.parametrize("name", RECORDED)
def test_light_model_prints_as_tvm(name):
    missing = [op for op in NEEDS.get(name, []) if not _has_op(op)]
    if missing:
        pytest.skip(f"tether.relax.op has no {', '.join(missing)} yet")
    text = from_onnx(onnx.load(os.path.join(LIGHT, name + ".onnx"))).script()
    meta, head = read_record(os.path.join(DATA, name + ".txt"))
    lines = text.split("\n")
    for i, (want, got) in enumerate(zip(head, lines)):
        assert got == want, f"{name}: line {i + 1} differs from apache-tvm's"
    assert len(lines) == int(meta["lines"]), \
        f"{name}: {len(lines)} lines, apache-tvm prints {meta['lines']}"
    assert sha256(text) == meta["sha256"], \
        f"{name}: the text differs from apache-tvm's after the recorded head"


_TVM_CHECK = """
import sys, warnings
import onnx, tvm
from tvm.relax.frontend.onnx import from_onnx
warnings.simplefilter("ignore")
for model_path, json_path in zip(sys.argv[1::2], sys.argv[2::2]):
    with open(json_path) as f:
        mod = tvm.ir.load_json(f.read())
    tvm.ir.assert_structural_equal(mod, from_onnx(onnx.load(model_path)))
    print("equal", model_path)
"""


def test_tvm_loads_the_module_it_builds(tmp_path):
    """tether's module, saved as JSON and loaded by apache-tvm, is structurally equal (constant
    data included) to the module apache-tvm's from_onnx builds."""
    tvm_python = os.environ.get("TETHER_TVM_PYTHON") or \
        os.path.join(HERE, "..", "..", ".venv-tvm", "bin", "python")
    if not os.path.exists(tvm_python):
        pytest.skip(f"no apache-tvm interpreter at {tvm_python} (make venv-tvm)")
    probe = subprocess.run([tvm_python, "-c", "import onnx"], capture_output=True, check=False)
    if probe.returncode != 0:
        pytest.skip(f"the apache-tvm interpreter {tvm_python} has no onnx package")
    args = []
    for name in ("light_squeezenet", "light_resnet50"):
        if not all(_has_op(op) for op in NEEDS.get(name, [])):
            continue
        path = os.path.join(LIGHT, name + ".onnx")
        out = tmp_path / (name + ".json")
        out.write_text(ir.save_json(from_onnx(onnx.load(path))))
        args += [path, str(out)]
    res = subprocess.run([tvm_python, "-c", _TVM_CHECK] + args, capture_output=True, text=True,
                         check=False)
    assert res.returncode == 0, res.stderr[-3000:]
    assert res.stdout.count("equal") == len(args) // 2


def test_every_light_model_is_recorded():
    models = sorted(f[:-5] for f in os.listdir(LIGHT) if f.endswith(".onnx"))
    assert "light_resnet50" in RECORDED
    assert set(RECORDED) <= set(models)


def _tiny_model(nodes, inputs, outputs, initializers=(), opset=13, domains=()):
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=list(initializers))
    opsets = [helper.make_opsetid("", opset)] + [helper.make_opsetid(d, 1) for d in domains]
    return helper.make_model(graph, opset_imports=opsets)


def _relu_model():
    x = helper.make_tensor_value_info("x.in", TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
    b = helper.make_tensor("b", TensorProto.FLOAT, [3], [1.0, 2.0, 3.0])
    nodes = [helper.make_node("Add", ["x.in", "b"], ["s"]), helper.make_node("Relu", ["s"], ["y"])]
    return _tiny_model(nodes, [x], [y], [b])


def test_model_forms_agree(tmp_path):
    model = _relu_model()
    path = tmp_path / "m.onnx"
    onnx.save(model, str(path))
    texts = {from_onnx(m).script() for m in (model, str(path), path, model.SerializeToString())}
    assert len(texts) == 1
    text = texts.pop()
    assert 'def main(x_in: R.Tensor((2, 3), dtype="float32"))' in text
    assert 'R.func_attr({"num_input": 1})' in text
    assert "R.add(x_in, metadata[\"ir.GenericConst\"][0])" in text
    assert "R.output(gv)" in text


def test_keep_params_in_input():
    mod = from_onnx(_relu_model(), keep_params_in_input=True)
    text = mod.script()
    assert 'def main(x_in: R.Tensor((2, 3), dtype="float32"), b: R.Tensor((3,), ' \
           'dtype="float32"))' in text
    assert "R.add(x_in, b)" in text


def test_shape_dict_checks():
    model, _ = CASES["symbolic_dim"](onnx, np)
    with pytest.raises(ValueError, match="not an input"):
        from_onnx(model, shape_dict={"nope": [4, 3]})
    with pytest.raises(TypeError, match="shape_dict"):
        from_onnx(model, shape_dict=[4, 3])
    with pytest.raises(TypeError, match="has the dim 'a'"):
        from_onnx(model, shape_dict={"x": ["a", 3]})
    with pytest.raises(TypeError, match="has the dim 2.5"):
        from_onnx(model, shape_dict={"x": [2.5, 3]})
    with pytest.raises(ValueError, match="negative dim -3"):
        from_onnx(model, shape_dict={"x": [-3, 3]})


def test_string_input_is_reported():
    x = helper.make_tensor_value_info("x", TensorProto.STRING, [2])
    y = helper.make_tensor_value_info("y", TensorProto.STRING, [2])
    model = _tiny_model([helper.make_node("Identity", ["x"], ["y"])], [x], [y])
    with pytest.raises(NotImplementedError, match="'x' is a string tensor"):
        from_onnx(model)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_prints_as_tvm(name):
    """The small models of onnx_cases.py: the whole text is apache-tvm's."""
    missing = [op for op in CASE_NEEDS.get(name, []) if not _has_op(op)]
    if missing:
        pytest.skip(f"tether.relax.op has no {', '.join(missing)} yet")
    with open(os.path.join(DATA, "cases", name + ".txt"), encoding="utf-8") as f:
        want = f.read()
    model, kwargs = CASES[name](onnx, np)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if want.startswith("# raises"):  # TVM rejects the model: tether raises a typed error
            with pytest.raises((ValueError, TypeError, NotImplementedError)):
                from_onnx(model, **kwargs)
            return
        got = from_onnx(model, **kwargs).script()
    assert got == want


def test_unsupported_ops_are_listed_together_before_building():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
    nodes = [helper.make_node("Relu", ["x"], ["a"]),
             helper.make_node("NoSuchOp", ["a"], ["b"]),
             helper.make_node("Frob", ["b"], ["c"], domain="com.example"),
             helper.make_node("NoSuchOp", ["c"], ["y"])]
    model = _tiny_model(nodes, [x], [y], domains=["com.example"])
    with pytest.raises(NotImplementedError) as info:
        from_onnx(model)
    msg = str(info.value)
    assert "2 ONNX op(s)" in msg
    assert "NoSuchOp (domain ai.onnx, opset 13; 2 nodes)" in msg
    assert "Frob (domain com.example, opset 1; 1 node)" in msg


def test_converter_table_chooses_by_opset():
    assert get_converter("Softmax", 9) is get_converter("Softmax", 12)
    assert get_converter("Softmax", 13) is not get_converter("Softmax", 12)
    assert get_converter("Conv", 1) is get_converter("Conv", 11)  # older: the oldest one
    assert get_converter("NoSuchOp", 13) is None
    ops = supported_ops()
    for op in ("Conv", "BatchNormalization", "Relu", "MaxPool", "Add", "Gemm", "Softmax"):
        assert op in ops
    assert ops["Softmax"] == [1, 13]


def test_converter_registration_extends_the_table():
    from tether.relax import op as rop

    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
    model = _tiny_model([helper.make_node("MyNeg", ["x"], ["y"], domain="com.example")],
                        [x], [y], domains=["com.example"])
    with pytest.raises(NotImplementedError, match="MyNeg"):
        from_onnx(model)
    try:
        converter("MyNeg", 1)(lambda g, inputs, attr: rop.negative(inputs[0]))
        assert "R.negative(x)" in from_onnx(model).script()
    finally:
        _conv._TABLE.pop("MyNeg", None)
        _conv._CHOSEN.clear()  # (get_converter's memo of the table)
    with pytest.raises(ValueError):
        converter("MyNeg", 0)
    with pytest.raises(TypeError):
        converter("", 1)


def test_bad_model_arguments():
    with pytest.raises(TypeError, match="onnx.ModelProto, a path or bytes"):
        from_onnx(42)
    with pytest.raises(ValueError, match="not an ONNX model"):
        from_onnx(b"\xff\x00 this is not a protobuf \x13")
    with pytest.raises(FileNotFoundError):
        from_onnx("/nonexistent/model.onnx")
    model = _relu_model()
    model.ir_version = 2
    with pytest.raises(ValueError, match="IR version 2"):
        from_onnx(model)


def test_undefined_node_input_is_a_value_error():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
    model = _tiny_model([helper.make_node("Add", ["x", "ghost"], ["y"])], [x], [y])
    with pytest.raises(ValueError, match="'ghost'"):
        from_onnx(model)


def test_missing_attribute_is_a_value_error():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 4, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1, 1, 1])
    model = _tiny_model([helper.make_node("LRN", ["x"], ["y"])], [x], [y])  # no size
    with pytest.raises(ValueError, match="LRN.*cannot be converted: KeyError"):
        from_onnx(model)


def test_if_branch_without_its_output_is_a_value_error():
    x = helper.make_tensor_value_info("c", TensorProto.BOOL, [])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])
    branch = helper.make_graph([], "b", [], [y])  # no node computes y
    model = _tiny_model([helper.make_node("If", ["c"], ["y"], then_branch=branch,
                                          else_branch=branch)], [x], [y])
    with pytest.raises(ValueError, match="branch output 'y' is not computed"):
        from_onnx(model)


def test_mutated_models_raise_typed_errors_only():
    """Random byte changes of a real model: it imports, or a typed error is raised."""
    rng = np.random.default_rng(20261201)
    data = bytearray(onnx.load(os.path.join(LIGHT, "light_squeezenet.onnx"))
                     .SerializeToString())
    outcomes = {}
    for _ in range(60):
        mutated = bytearray(data)
        for pos in rng.integers(0, len(mutated), size=int(rng.integers(1, 8))):
            mutated[pos] = int(rng.integers(0, 256))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                from_onnx(bytes(mutated))
                kind = "imported"
            except (ValueError, TypeError, NotImplementedError) as err:
                kind = type(err).__name__
        outcomes[kind] = outcomes.get(kind, 0) + 1
    assert sum(outcomes.values()) == 60


def _mutate_field(model, rng):
    """One random field change through onnx's protobuf classes."""
    g = model.graph
    node = g.node[int(rng.integers(0, len(g.node)))]
    kind = int(rng.integers(0, 7))
    if kind == 0 and len(node.attribute):
        del node.attribute[int(rng.integers(0, len(node.attribute)))]
    elif kind == 1:
        node.op_type = ["Conv", "Relu", "Concat", "MaxPool", "Softmax", "Gemm"][
            int(rng.integers(0, 6))]
    elif kind == 2 and len(node.input):
        node.input[int(rng.integers(0, len(node.input)))] = ""
    elif kind == 3 and len(node.attribute):
        a = node.attribute[int(rng.integers(0, len(node.attribute)))]
        if a.ints:
            a.ints[int(rng.integers(0, len(a.ints)))] = int(rng.choice([-5, 0, 2**40]))
        else:
            a.i = int(rng.choice([-5, 0, 2**40]))
    elif kind == 4 and len(g.initializer):
        g.initializer[int(rng.integers(0, len(g.initializer)))].dims.append(3)
    elif kind == 5:
        dims = g.input[0].type.tensor_type.shape.dim
        dims[int(rng.integers(0, len(dims)))].dim_value = int(rng.choice([1, 7, 2**40]))
    else:
        del node.output[:]


def test_field_mutated_models_raise_typed_errors_only():
    """Random field changes of a real model: it imports, or a typed error is raised (never
    another exception, never a crash)."""
    rng = np.random.default_rng(7)
    base = onnx.load(os.path.join(LIGHT, "light_squeezenet.onnx"))
    kinds = set()
    for _ in range(40):
        model = onnx.ModelProto()
        model.CopyFrom(base)
        for _ in range(int(rng.integers(1, 4))):
            _mutate_field(model, rng)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                from_onnx(model)
                kinds.add("imported")
            except (ValueError, TypeError, NotImplementedError) as err:
                kinds.add(type(err).__name__)
    assert kinds - {"imported"}, "no mutation was rejected"


@pytest.mark.parametrize("attr, value, dtype, shape", [
    ("value_float", 2.5, "float32", ()), ("value_floats", [1.5, -2.0], "float32", (2,)),
    ("value_int", 7, "int64", ()), ("value_ints", [3, 4, 5], "int64", (3,))])
def test_constant_scalar_and_list_attributes(attr, value, dtype, shape):
    """Beyond apache-tvm 0.27 (which reads only Constant's `value`)."""
    elem = TensorProto.FLOAT if dtype == "float32" else TensorProto.INT64
    x = helper.make_tensor_value_info("x", elem, list(shape))
    y = helper.make_tensor_value_info("y", elem, list(shape))
    model = _tiny_model([helper.make_node("Constant", [], ["k"], **{attr: value}),
                         helper.make_node("Mul", ["x", "k"], ["y"])], [x], [y])
    mod = from_onnx(model)
    call = mod["main"].body.blocks[0].bindings[0].value
    k = call.args[1]
    arr = np.from_dlpack(k.value)
    assert arr.dtype == dtype and arr.shape == shape
    np.testing.assert_array_equal(arr, np.array(value, dtype=dtype))
    strings = _tiny_model([helper.make_node("Constant", [], ["y"], value_string="s")], [], [y])
    with pytest.raises(NotImplementedError, match="string"):
        from_onnx(strings)


def _fill_model(values):
    """ConstantOfShape nodes of shape [3] filled with each of values (numpy scalars), each
    output a graph output."""
    nodes, outs, inits = [], [], []
    for i, v in enumerate(values):
        inits.append(helper.make_tensor(f"s{i}", TensorProto.INT64, [1], [3]))
        nodes.append(helper.make_node("ConstantOfShape", [f"s{i}"], [f"y{i}"],
                                      value=onnx.numpy_helper.from_array(np.array([v]))))
        outs.append(helper.make_tensor_value_info(
            f"y{i}", onnx.helper.np_dtype_to_tensor_dtype(np.asarray(v).dtype), [3]))
    graph = helper.make_graph(nodes, "fill", [], outs, inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


def test_constant_of_shape_fill_values_stay_apart():
    """Fill values of the same bits but different dtypes, and the same value met again in a
    later import, each fill their own constant with their own dtype."""
    values = [np.float32(0), np.int64(0), np.float32(1.5), np.float32(0), np.int32(-2)]
    for _ in range(2):
        mod = from_onnx(_fill_model(values))
        consts = mod["main"].body.blocks[0].bindings[-1].value.fields
        for v, c in zip(values, consts):
            arr = np.from_dlpack(c.value)
            assert arr.dtype == np.asarray(v).dtype
            np.testing.assert_array_equal(arr, np.full(3, v))
            arr[:] = 7  # a constant's own data: later imports are not affected


def test_shape_values_reach_tensor_ops_as_tensors():
    """A shape value (Shape's output, with a symbolic dim) given to an op that takes tensors
    is converted into an int64 tensor, also after nodes that used no shape value; the import
    leaves the cycle collector as it found it."""
    import gc

    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 3])
    y = helper.make_tensor_value_info("y", TensorProto.INT64, [2])
    model = _tiny_model([helper.make_node("Relu", ["x"], ["r"]),
                         helper.make_node("Shape", ["r"], ["s"]),
                         helper.make_node("Relu", ["r"], ["r2"]),
                         helper.make_node("Add", ["s", "s"], ["y"])], [x], [y])
    for enabled in (True, False):
        (gc.enable if enabled else gc.disable)()
        try:
            text = from_onnx(model).script()
            assert gc.isenabled() is enabled
        finally:
            gc.enable()
        assert "R.shape_to_tensor" in text and "R.add" in text


def test_command_line(tmp_path):
    out = tmp_path / "m.json"
    model = tmp_path / "m.onnx"
    onnx.save(_relu_model(), str(model))
    res = subprocess.run([sys.executable, "-m", "tether.relax.frontend.onnx", str(model),
                          "--shape", "x.in:2,3", "--json", str(out), "--time"],
                         capture_output=True, text=True, check=False)
    assert res.returncode == 0, res.stderr
    assert res.stdout == from_onnx(_relu_model()).script() + "\n"
    assert "from_onnx:" in res.stderr and "ms" in res.stderr
    loaded = ir.load_json(out.read_text())
    assert loaded.script() == from_onnx(_relu_model()).script()
    bad = subprocess.run([sys.executable, "-m", "tether.relax.frontend.onnx", str(model),
                          "--shape", "x.in:2,z"], capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and "must be integers" in bad.stderr


def test_import_without_onnx_says_how_to_get_it():
    code = ("import sys; sys.modules['onnx'] = None\n"
            "try:\n"
            "    import tether.relax.frontend.onnx\n"
            "except ImportError as e:\n"
            "    print('ImportError:', e)\n")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=False)
    assert res.returncode == 0, res.stderr
    assert "ImportError:" in res.stdout
    assert "pip install tether[onnx]" in res.stdout
