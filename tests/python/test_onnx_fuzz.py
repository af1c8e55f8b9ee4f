"""Bad input for tether.relax.frontend.onnx.from_onnx: real models, mutated at random.

Each mutation goes through onnx's protobuf classes (node attributes, dims, element types, input
and output names, op types, initializer data, opsets) or through the serialized bytes
(truncation, byte flips); the mutated model either imports -- and then its module prints --
or from_onnx raises one of its typed errors (ValueError, TypeError, NotImplementedError).
Anything else (another exception, a crash of the interpreter) fails.  The seeds are fixed, so
a failure reproduces; the iteration counts keep the whole file to a few seconds.
"""
import os
import warnings

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from tether.relax.frontend.onnx import from_onnx  # noqa: E402

LIGHT = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "light")
TYPED = (ValueError, TypeError, NotImplementedError)
# Values a mutated int field takes: edge cases of ranks, axes, sizes and int64.
INTS = [-(2 ** 63), -(2 ** 40), -7, -2, -1, 0, 1, 2, 3, 5, 2 ** 31, 2 ** 40, 2 ** 63 - 1]
FLOATS = [float("nan"), float("inf"), -float("inf"), -1.0, 0.0, 1e-30, 1e30]
ELEM_TYPES = [0, TensorProto.FLOAT, TensorProto.UINT8, TensorProto.INT8, TensorProto.INT32,
              TensorProto.INT64, TensorProto.STRING, TensorProto.BOOL, TensorProto.FLOAT16,
              TensorProto.DOUBLE, TensorProto.UINT64, TensorProto.BFLOAT16,
              TensorProto.FLOAT8E4M3FN, TensorProto.INT4, 77]
OPS = ["Conv", "Relu", "Concat", "MaxPool", "Softmax", "Gemm", "Reshape", "Add", "Unsqueeze",
       "Flatten", "Transpose", "ConstantOfShape", "BatchNormalization", "Sum", "NoSuchOp"]


def _import(model):
    """"imported" or the name of the typed error from_onnx raised (any other error fails)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            mod = from_onnx(model)
        except TYPED as err:
            return type(err).__name__
    mod.script()  # a module that imports prints
    return "imported"


def _pick(rng, seq):
    return seq[int(rng.integers(0, len(seq)))]


def _mutate_attribute(node, rng):
    if not len(node.attribute):
        node.attribute.add().CopyFrom(helper.make_attribute("axis", _pick(rng, INTS)))
        return
    a = node.attribute[int(rng.integers(0, len(node.attribute)))]
    kind = int(rng.integers(0, 7))
    if kind == 0:
        del node.attribute[int(rng.integers(0, len(node.attribute)))]
    elif kind == 1 and len(a.ints):
        a.ints[int(rng.integers(0, len(a.ints)))] = _pick(rng, INTS)
    elif kind == 2 and len(a.ints):
        del a.ints[int(rng.integers(0, len(a.ints))):]
    elif kind == 3:
        a.type = int(rng.integers(0, 15))  # the declared type no longer matches the value
    elif kind == 4:
        a.f = _pick(rng, FLOATS)
    elif kind == 5:
        a.s = b"\xff\xfe not a valid choice"
    else:
        a.i = _pick(rng, INTS)


def _mutate(model, rng):
    """One random change of model, through its protobuf classes."""
    g = model.graph
    node = g.node[int(rng.integers(0, len(g.node)))] if len(g.node) else None
    kind = int(rng.integers(0, 14))
    if node is not None and kind < 3:
        _mutate_attribute(node, rng)
    elif node is not None and kind == 3:
        node.op_type = _pick(rng, OPS)
    elif node is not None and kind == 4 and len(node.input):
        i = int(rng.integers(0, len(node.input)))
        first = g.node[0].output[0] if len(g.node[0].output) else "x"
        node.input[i] = _pick(rng, ["", "no_such_value", first,
                                    g.output[0].name if len(g.output) else "y"])
    elif node is not None and kind == 5:
        if len(node.output) and rng.integers(0, 2):
            del node.output[:]
        else:
            node.output.append(node.output[0] if len(node.output) else "extra")
    elif kind == 6 and len(g.initializer):
        t = g.initializer[int(rng.integers(0, len(g.initializer)))]
        choice = int(rng.integers(0, 4))
        if choice == 0:
            t.dims.append(int(_pick(rng, [0, 3, 2 ** 40])))
        elif choice == 1 and len(t.dims):
            t.dims[int(rng.integers(0, len(t.dims)))] = _pick(rng, INTS)
        elif choice == 2:
            t.data_type = _pick(rng, ELEM_TYPES)
        else:
            t.name = _pick(rng, ["", " ", t.name + "_renamed"])
    elif kind == 7 and len(g.initializer):
        t = g.initializer[int(rng.integers(0, len(g.initializer)))]
        if t.raw_data:
            t.raw_data = t.raw_data[:int(rng.integers(0, len(t.raw_data)))]
        else:
            t.raw_data = b"\x01\x02\x03"
    elif kind == 8 and len(g.input):
        info = g.input[int(rng.integers(0, len(g.input)))]
        dims = info.type.tensor_type.shape.dim
        if len(dims):
            d = dims[int(rng.integers(0, len(dims)))]
            if rng.integers(0, 2):
                d.dim_value = _pick(rng, [0, 1, 7, 2 ** 40, 2 ** 62])
            else:
                d.dim_param = _pick(rng, ["n", "n*2+", "//", "?", "a-b"])
        else:
            info.type.tensor_type.shape.dim.add().dim_value = 3
    elif kind == 9 and len(g.input):
        g.input[int(rng.integers(0, len(g.input)))].type.tensor_type.elem_type = \
            _pick(rng, ELEM_TYPES)
    elif kind == 10 and len(g.input):
        g.input[int(rng.integers(0, len(g.input)))].name = _pick(rng, ["", "1x", "a.b", "x"])
    elif kind == 11:
        model.opset_import[0].version = _pick(rng, [1, 6, 9, 13, 99])
    elif kind == 12 and len(g.output):
        g.output[0].name = _pick(rng, ["", "nowhere"])
    else:
        if len(g.node):
            del g.node[int(rng.integers(0, len(g.node)))]


def _small_models():
    """Small real models shipped with the onnx package (PyTorch exports with initializers:
    convolutions, pooling, batch norm, linear layers, reshapes, concatenations)."""
    data = os.path.join(os.path.dirname(LIGHT), "pytorch-converted")
    names = ["test_Conv2d_strided", "test_Conv1d_groups", "test_Conv3d_stride_padding",
             "test_MaxPool2d_stride_padding_dilation", "test_AvgPool2d_stride",
             "test_BatchNorm2d_eval", "test_Linear", "test_PReLU_2d_multiparam",
             "test_Softmax", "test_Embedding", "test_GLU_dim", "test_PixelShuffle"]
    models = [onnx.load(os.path.join(data, n, "model.onnx")) for n in names
              if os.path.exists(os.path.join(data, n, "model.onnx"))]
    op = os.path.join(os.path.dirname(LIGHT), "pytorch-operator")
    for n in ("test_operator_view", "test_operator_concat2", "test_operator_flatten",
              "test_operator_chunk", "test_operator_params"):
        if os.path.exists(os.path.join(op, n, "model.onnx")):
            models.append(onnx.load(os.path.join(op, n, "model.onnx")))
    return models


@pytest.mark.parametrize("name, iterations, seed", [
    ("light_squeezenet", 150, 11), ("light_resnet50", 40, 12), ("light_inception_v1", 40, 13)])
def test_field_mutations_of_light_models(name, iterations, seed):
    base = onnx.load(os.path.join(LIGHT, name + ".onnx"))
    rng = np.random.default_rng(seed)
    outcomes = {}
    for _ in range(iterations):
        model = onnx.ModelProto()
        model.CopyFrom(base)
        for _ in range(int(rng.integers(1, 4))):
            _mutate(model, rng)
        kind = _import(model)
        outcomes[kind] = outcomes.get(kind, 0) + 1
    assert sum(outcomes.values()) == iterations
    assert set(outcomes) - {"imported"}, f"no mutation was rejected: {outcomes}"


@pytest.mark.parametrize("read", ["serialized", "protobuf"])
def test_field_mutations_of_node_models(read, monkeypatch):
    """read: how the importer reads the initializers -- from the serialized graph (small
    graphs), or through protobuf with the plain ones made constants in C
    (_onnx_wire.constants; the importer's way for large initializers, forced here)."""
    if read == "protobuf":
        from tether.relax.frontend.onnx import importer
        monkeypatch.setattr(importer, "_WHOLE_GRAPH_ELEMENTS", 0)
    models = _small_models()
    assert len(models) >= 8
    rng = np.random.default_rng(14)
    outcomes = {}
    for _ in range(600):
        model = onnx.ModelProto()
        model.CopyFrom(_pick(rng, models))
        for _ in range(int(rng.integers(1, 3))):
            _mutate(model, rng)
        kind = _import(model)
        outcomes[kind] = outcomes.get(kind, 0) + 1
    assert outcomes.get("imported", 0) > 0 and len(outcomes) > 1, outcomes


def test_byte_mutations_and_truncations():
    """Serialized models with bytes changed, inserted or cut off: the bytes form of from_onnx
    parses them with onnx (ValueError when it cannot) and imports what parses."""
    data = onnx.load(os.path.join(LIGHT, "light_squeezenet.onnx")).SerializeToString()
    rng = np.random.default_rng(15)
    outcomes = {}
    for i in range(150):
        mutated = bytearray(data)
        if i % 3 == 0:
            mutated = mutated[:int(rng.integers(0, len(mutated)))]
        else:
            for pos in rng.integers(0, len(mutated), size=int(rng.integers(1, 6))):
                mutated[pos] = int(rng.integers(0, 256))
        kind = _import(bytes(mutated))
        outcomes[kind] = outcomes.get(kind, 0) + 1
    assert "ValueError" in outcomes, outcomes


def test_wire_reader_never_reads_past_its_input():
    """tether._onnx_wire (the C reader of serialized graphs): random and truncated input gives
    a result or ValueError."""
    wire = pytest.importorskip("tether._onnx_wire")
    graph = onnx.load(os.path.join(LIGHT, "light_squeezenet.onnx")).graph
    data = graph.SerializeToString()
    nodes, inits = wire.graph(data)
    assert [n[0] for n in nodes] == [n.op_type for n in graph.node]
    assert [i[0] for i in inits] == [t.name for t in graph.initializer]
    rng = np.random.default_rng(16)
    for i in range(400):
        if i % 2:
            blob = data[:int(rng.integers(0, len(data)))]
        elif i % 4 == 0:
            blob = rng.integers(0, 256, size=int(rng.integers(0, 200)), dtype=np.uint8).tobytes()
        else:
            b = bytearray(data)
            for pos in rng.integers(0, len(b), size=4):
                b[pos] = int(rng.integers(0, 256))
            blob = bytes(b)
        try:
            wire.graph(blob)
        except ValueError:
            pass
    with pytest.raises(TypeError):
        wire.graph("not bytes")


def test_wire_inputs_index_as_the_python_class():
    """tether._onnx_wire.inputs / Inputs (a node's operands; None past the end) index exactly
    as the importer's Python fallback does, slices included."""
    wire = pytest.importorskip("tether._onnx_wire")
    from tether.relax.frontend.onnx import importer

    values = {"a": 1, "b": "two", "c": 3.0}
    names = ("a", "", "b", "c")
    got = wire.inputs(values, names)
    want = importer._node_inputs_py(values, names)
    assert type(want) is not type(got) and isinstance(got, list) and got == want == [1, None, "two", 3.0]
    for index in [0, 1, 3, 4, 9, -1, -4]:
        assert got[index] == want[index]
    for sl in [slice(1, 6), slice(None, 2), slice(2, None), slice(None, None, -1),
               slice(0, 8, 3), slice(5, 9), slice(-2, None)]:
        assert got[sl] == want[sl], sl
    with pytest.raises(IndexError):
        got[-5]
    with pytest.raises(KeyError, match="'zz'"):
        wire.inputs(values, ("a", "zz"))
    with pytest.raises(TypeError, match="expected a dict and a tuple"):
        wire.inputs(values, ["a"])
    assert wire.Inputs(v for v in (1, 2))[7] is None


def test_huge_and_inconsistent_shapes_are_typed_errors():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    w = numpy_helper.from_array(np.ones((4, 5, 3, 3), "float32"), "w")  # 5 != 3 channels
    bad_conv = helper.make_model(helper.make_graph(
        [helper.make_node("Conv", ["x", "w"], ["y"])], "g", [x], [y], [w]),
        opset_imports=[helper.make_opsetid("", 13)])
    with pytest.raises(TYPED):
        from_onnx(bad_conv)
    shape = numpy_helper.from_array(np.array([2 ** 40, 2 ** 40], "int64"), "s")
    huge = helper.make_model(helper.make_graph(
        [helper.make_node("ConstantOfShape", ["s"], ["c"]),
         helper.make_node("Add", ["x", "c"], ["y"])], "g", [x], [y], [shape]),
        opset_imports=[helper.make_opsetid("", 13)])
    with pytest.raises(TYPED):
        from_onnx(huge)
    one_d = numpy_helper.from_array(np.array([2 ** 62], "int64"), "s")
    huge_1d = helper.make_model(helper.make_graph(
        [helper.make_node("ConstantOfShape", ["s"], ["y"])], "g", [], [y], [one_d]),
        opset_imports=[helper.make_opsetid("", 13)])
    with pytest.raises(TYPED):
        from_onnx(huge_1d)
    with pytest.raises(TYPED):
        from_onnx(bad_conv, shape_dict={"x": [1, 3, 8]})  # a rank the graph cannot use


def test_string_tensors_are_typed_errors():
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])
    words = helper.make_tensor("w", TensorProto.STRING, [2], [b"a", b"b"])
    model = helper.make_model(helper.make_graph(
        [helper.make_node("Identity", ["x"], ["y"])], "g", [x], [y], [words]),
        opset_imports=[helper.make_opsetid("", 13)])
    with pytest.raises(NotImplementedError, match="'w' holds object values"):
        from_onnx(model)


def test_a_failed_import_leaves_nothing_open():
    """An import that fails part way leaves no builder scope open: the next import (and a
    BlockBuilder of the caller's own) starts clean."""
    from tether.relax import BlockBuilder

    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
    bad = helper.make_model(helper.make_graph(
        [helper.make_node("Relu", ["x"], ["a"]), helper.make_node("Add", ["a", "ghost"], ["y"])],
        "g", [x], [y]), opset_imports=[helper.make_opsetid("", 13)])
    good = helper.make_model(helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])], "g", [x], [y]),
        opset_imports=[helper.make_opsetid("", 13)])
    for _ in range(3):
        with pytest.raises(ValueError, match="'ghost'"):
            from_onnx(bad)
        assert BlockBuilder.current() is None
    assert "R.nn.relu(x)" in from_onnx(good).script()


def test_protobuf_path_builds_the_same_module(monkeypatch):
    """Without tether._onnx_wire (or when it cannot read a graph) the importer reads the
    protobuf objects: the module is the same text."""
    from tether.relax.frontend.onnx import importer

    base = onnx.load(os.path.join(LIGHT, "light_inception_v1.onnx"))
    want = from_onnx(base).script()
    monkeypatch.setattr(importer, "_onnx_wire", None)
    assert from_onnx(base).script() == want
    rng = np.random.default_rng(17)
    for _ in range(30):  # and bad input is still a typed error only
        model = onnx.ModelProto()
        model.CopyFrom(base)
        _mutate(model, rng)
        _import(model)


def test_tensor_attributes_are_read_once_per_value():
    """A TENSOR attribute comes from the C reader as its serialized TensorProto; the importer
    reads each distinct value from the NodeProto once, and ConstantOfShape's fill values
    still come out per node (zeros and ones, interleaved)."""
    from onnx import TensorProto, helper

    from tether import _onnx_wire
    from tether.relax.frontend.onnx import importer

    zero = helper.make_tensor("v", TensorProto.FLOAT, [1], [0.0])
    one = helper.make_tensor("v", TensorProto.INT64, [1], [1])
    nodes = [helper.make_node("ConstantOfShape", ["s"], [f"c{i}"], value=v)
             for i, v in enumerate([zero, one, zero, one])]
    nodes.append(helper.make_node("Concat", ["c0", "c2"], ["y"], axis=0))
    graph = helper.make_graph(nodes, "g", [], [helper.make_tensor_value_info(
        "y", TensorProto.FLOAT, [4])], [helper.make_tensor("s", TensorProto.INT64, [1], [2])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    records, _ = _onnx_wire.graph(model.graph.SerializeToString())
    assert [r[6] for r in records[:2]] == [(("value", 0, "t", zero.SerializeToString()),),
                                           (("value", 0, "t", one.SerializeToString()),)]
    imp = importer._Importer(None, "float32", False, True)
    imp.opset = 17
    imp._add_initializers(model.graph, (None, records, None))
    imp._convert_nodes(model.graph, (None, records, None))
    assert len(imp.tensor_attrs) == 2 and len(imp.fill_values) == 2
    values = [np.from_dlpack(imp.nodes[f"c{i}"].value) for i in range(4)]
    assert [v.dtype.name for v in values] == ["float32", "int64"] * 2
    assert [v.tolist() for v in values] == [[0.0, 0.0], [1, 1]] * 2


def test_large_initializers_are_read_through_protobuf(monkeypatch):
    """A graph whose initializers hold more than importer._WHOLE_GRAPH_ELEMENTS elements is not
    serialized whole: the C reader gets the nodes alone and the initializers come from
    protobuf; the module and the constants' values are the same as the protobuf path's."""
    from onnx import TensorProto, helper, numpy_helper

    from tether.relax.frontend.onnx import importer

    pytest.importorskip("tether._onnx_wire")
    rng = np.random.default_rng(7)
    n = 1 + int(np.sqrt(importer._WHOLE_GRAPH_ELEMENTS))
    w = rng.standard_normal((n, n)).astype("float32")
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"], name="mm"),
         helper.make_node("Relu", ["y"], ["z"], name="relu")],
        "big", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, n])],
        [helper.make_tensor_value_info("z", TensorProto.FLOAT, [2, n])],
        initializer=[numpy_helper.from_array(w, "w")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    from tether import _onnx_wire

    nodes = _onnx_wire.nodes(model.graph.node)
    assert [n[:5] for n in nodes] == [("MatMul", "", "mm", ("x", "w"), ("y",)),
                                      ("Relu", "", "relu", ("y",), ("z",))]
    with pytest.raises(TypeError):
        _onnx_wire.nodes(3)
    with pytest.raises(AttributeError):
        _onnx_wire.nodes([b"not a NodeProto"])
    fast = from_onnx(model)
    monkeypatch.setattr(importer, "_onnx_wire", None)
    slow = from_onnx(model)
    assert fast.script() == slow.script()
    const = [b.value for b in fast["main"].body.blocks[0].bindings
             if "matmul" in str(b.value)][0].args[1]
    np.testing.assert_array_equal(np.from_dlpack(const.value), w)
