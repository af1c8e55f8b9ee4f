"""tether.relax.frontend.onnx: the shape, data-movement and control converters.

The corpus test (test_onnx_corpus.py) holds these converters to apache-tvm's text on the ONNX
test cases; here: fold_constants (beyond TVM's signature), the imports beyond TVM (shape values
reaching tensor ops, Reshape's 0 and -1 in shape values), If, sequences and optionals, and the
Relax ops tether emits where TVM lowers through TE (Tile, Pad).
"""
import warnings

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from tether.relax.frontend.onnx import from_onnx  # noqa: E402


def _model(nodes, inputs, outputs, inits=(), opset=18):
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=list(inits))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def _text(model, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return from_onnx(model, **kw).script()


def _body(text):
    """The lines of main's body (after the signature), stripped."""
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if "def main" in line)
    return [line.strip() for line in lines[start + 1:] if line.strip()]


def _f32(name, shape):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


def _i64(name, values):
    return numpy_helper.from_array(np.asarray(values, dtype=np.int64), name)


def _reshape_chain(index):
    """x (2, 3, 4) reshaped to [Shape(x)[index], -1] the way transformer exports do it:
    Shape -> Gather -> (Unsqueeze) -> Concat -> Reshape."""
    nodes = [helper.make_node("Shape", ["x"], ["s"]),
             helper.make_node("Gather", ["s", "i"], ["d"], axis=0)]
    inits = [_i64("i", index), _i64("axes", [0]), _i64("m1", [-1])]
    if np.ndim(index) == 0:
        nodes.append(helper.make_node("Unsqueeze", ["d", "axes"], ["du"]))
    else:
        nodes.append(helper.make_node("Identity", ["d"], ["du"]))
    nodes += [helper.make_node("Concat", ["du", "m1"], ["target"], axis=0),
              helper.make_node("Reshape", ["x", "target"], ["y"])]
    return _model(nodes, [_f32("x", [2, 3, 4])], [_f32("y", None)], inits)


def test_fold_constants_folds_a_shape_gather_concat_reshape_chain():
    model = _reshape_chain([0])  # a 1-D index: TVM gathers from the shape at run time
    # by default (TVM's path, and beyond it: TVM's reshape rejects a tensor target) the target
    # is computed at run time and bound to symbolic dims
    default = _body(_text(model))
    assert any("R.shape_of(x)" in line for line in default)
    assert default[-4].startswith("gv: R.Tensor((reshape_dim_0, reshape_dim_1), "
                                  'dtype="float32") = R.reshape(x, ')
    body = _body(_text(model, fold_constants=True))
    assert body[:2] == ['R.func_attr({"num_input": 1})', "with R.dataflow():"]
    assert body[2] == ('gv: R.Tensor((2, 12), dtype="float32") = '
                       'R.reshape(x, R.shape([2, 12]))')
    assert not any("shape_of" in line or "take" in line for line in body)


def test_a_scalar_gather_chain_is_a_static_reshape_either_way():
    model = _reshape_chain(0)  # one dim as a PrimExpr, unsqueezed into a shape value
    want = 'gv: R.Tensor((2, 12), dtype="float32") = R.reshape(x, R.shape([2, 12]))'
    assert want in _body(_text(model))
    assert want in _body(_text(model, fold_constants=True))


def test_fold_constants_makes_shape_and_size_constants():
    model = _model([helper.make_node("Shape", ["x"], ["s"], start=1),
                    helper.make_node("Size", ["x"], ["n"])],
                   [_f32("x", [2, 3, 4])],
                   [helper.make_tensor_value_info("s", TensorProto.INT64, None),
                    helper.make_tensor_value_info("n", TensorProto.INT64, None)])
    default = "\n".join(_body(_text(model)))
    assert "R.shape([3, 4])" in default and "R.size(x)" in default
    folded = "\n".join(_body(_text(model, fold_constants=True)))
    assert "R.shape(" not in folded and "R.size" not in folded
    assert 'R.Tuple(R.Tensor((2,), dtype="int64"), R.Tensor((), dtype="int64"))' in folded


def test_fold_constants_leaves_symbolic_dims_to_shape_values():
    model = _model([helper.make_node("Shape", ["x"], ["s"])], [_f32("x", ["n", 4])],
                   [helper.make_tensor_value_info("s", TensorProto.INT64, None)])
    assert _text(model, fold_constants=True) == _text(model)
    assert "R.shape([n, 4])" in _text(model)


def test_a_shape_value_reaching_a_tensor_op_is_its_int64_tensor():
    # apache-tvm rejects this ("cannot handle ShapeExpr inputs"); tether imports it.
    model = _model([helper.make_node("Shape", ["x"], ["s"]),
                    helper.make_node("Mul", ["s", "two"], ["t"]),
                    helper.make_node("ConstantOfShape", ["t"], ["y"])],
                   [_f32("x", [2, 3])], [_f32("y", None)], [_i64("two", [2])])
    body = _body(_text(model))
    assert 'R.broadcast_to(R.const(0.0, "float32"), R.shape([4, 6]))' in body[2]


def test_a_symbolic_shape_value_reaching_a_tensor_op_is_read_at_run_time():
    model = _model([helper.make_node("Shape", ["x"], ["s"]),
                    helper.make_node("Add", ["s", "one"], ["y"])],
                   [_f32("x", ["n", 3])],
                   [helper.make_tensor_value_info("y", TensorProto.INT64, None)],
                   [_i64("one", [1])])
    body = _body(_text(model))
    assert 'lv: R.Tensor((2,), dtype="int64") = R.shape_to_tensor(R.shape([n, 3]))' in body


def test_reshape_resolves_zero_and_minus_one_in_shape_values():
    # Concat of int64 constants is a shape value (TVM's shape path); its 0 keeps x's dim.
    model = _model([helper.make_node("Concat", ["z", "h", "m1"], ["target"], axis=0),
                    helper.make_node("Reshape", ["x", "target"], ["y"])],
                   [_f32("x", [2, 3, 32])], [_f32("y", None)],
                   [_i64("z", [0, 0]), _i64("h", [4]), _i64("m1", [-1])])
    assert ('gv: R.Tensor((2, 3, 4, 8), dtype="float32") = '
            'R.reshape(x, R.shape([2, 3, 4, 8]))') in _body(_text(model))


def test_if_is_a_relax_if_outside_dataflow():
    cond = helper.make_tensor_value_info("c", TensorProto.BOOL, [])
    x = _f32("x", [3])
    then_g = helper.make_graph([helper.make_node("Neg", ["x"], ["a"])], "then", [],
                               [_f32("a", [3])])
    else_g = helper.make_graph([helper.make_node("Abs", ["x"], ["b"])], "else", [],
                               [_f32("b", [3])])
    model = _model([helper.make_node("If", ["c"], ["y"], then_branch=then_g,
                                     else_branch=else_g)], [cond, x], [_f32("y", [3])])
    body = _body(_text(model))
    assert "with R.dataflow():" not in body
    # each branch's bindings print inside it (apache-tvm 0.27 prints this same text)
    assert body[1:] == [
        "if c:",
        'gv: R.Tensor((3,), dtype="float32") = R.negative(x)',
        'gv2: R.Tensor((3,), dtype="float32") = gv',
        "else:",
        'gv1: R.Tensor((3,), dtype="float32") = R.abs(x)',
        'gv2: R.Tensor((3,), dtype="float32") = gv1',
        "return gv2"]


def test_sequences_are_tuples_indexed_at_import():
    nodes = [helper.make_node("SequenceConstruct", ["a", "b"], ["s"]),
             helper.make_node("SequenceInsert", ["s", "c", "zero"], ["s2"]),
             helper.make_node("SequenceErase", ["s2", "last"], ["s3"]),
             helper.make_node("SequenceAt", ["s3", "one"], ["y"])]
    model = _model(nodes, [_f32("a", [1]), _f32("b", [2]), _f32("c", [3])],
                   [_f32("y", None)], [_i64("zero", 0), _i64("one", 1), _i64("last", -1)])
    # [c, a, b] without its last: [c, a]; at 1: a
    assert 'gv: R.Tensor((1,), dtype="float32") = a' in _body(_text(model))


def test_an_empty_optional_graph_output_is_a_value_error():
    opt = helper.make_tensor_type_proto(TensorProto.FLOAT, [1])
    out = helper.make_value_info("y", helper.make_optional_type_proto(opt))
    model = _model([helper.make_node("Optional", [], ["y"], type=opt)], [], [out])
    with pytest.raises(ValueError, match="empty optional"):
        _text(model)


def test_optional_has_element():
    opt = helper.make_tensor_type_proto(TensorProto.FLOAT, [1])
    nodes = [helper.make_node("Optional", [], ["e"], type=opt),
             helper.make_node("OptionalHasElement", ["e"], ["y"])]
    model = _model(nodes, [], [helper.make_tensor_value_info("y", TensorProto.BOOL, [])])
    assert 'gv: R.Tensor((), dtype="bool") = R.const(False, "bool")' in _body(_text(model))


def test_unsqueeze_with_run_time_axes_reshapes_to_matched_dims():
    model = _model([helper.make_node("Unsqueeze", ["x", "axes"], ["y"])],
                   [_f32("x", [3, 4]), helper.make_tensor_value_info("axes", TensorProto.INT64,
                                                                     [1])],
                   [_f32("y", None)])
    body = _body(_text(model))
    assert body[-3] == ('gv: R.Tensor((unsqueeze_dim_0, unsqueeze_dim_1, unsqueeze_dim_2), '
                        'dtype="float32") = R.reshape(x, R.shape([unsqueeze_dim_0, '
                        'unsqueeze_dim_1, unsqueeze_dim_2]))')
    assert any("R.match_cast(" in line for line in body)


def test_tile_with_run_time_repeats_is_reshape_broadcast_reshape():
    model = _model([helper.make_node("Tile", ["x", "r"], ["y"])],
                   [_f32("x", [2, 3]), helper.make_tensor_value_info("r", TensorProto.INT64,
                                                                     [2])],
                   [_f32("y", None)])
    text = "\n".join(_body(_text(model)))
    assert "R.reshape(x, R.shape([1, 2, 1, 3]))" in text
    assert "R.broadcast_to(lv3, R.shape([tile_rep_0, 2, tile_rep_1, 3]))" in text
    assert ('gv: R.Tensor((tile_rep_0 * 2, tile_rep_1 * 3), dtype="float32") = '
            'R.reshape(lv4, R.shape([tile_rep_0 * 2, tile_rep_1 * 3]))') in text


@pytest.mark.parametrize("mode,relax_mode", [("constant", "constant"), ("edge", "replicate"),
                                             ("reflect", "reflect"), ("wrap", "circular")])
def test_pad_modes_are_relax_pad_modes(mode, relax_mode):
    model = _model([helper.make_node("Pad", ["x", "pads"], ["y"], mode=mode)],
                   [_f32("x", [2, 3])], [_f32("y", None)], [_i64("pads", [0, 1, 1, 2])],
                   opset=19)
    assert ('gv: R.Tensor((3, 6), dtype="float32") = R.nn.pad(x, pad_width=[0, 1, 1, 2], '
            f'pad_value=0.0, pad_mode="{relax_mode}")') in _body(_text(model))


def test_pad_wrap_needs_opset_19():
    model = _model([helper.make_node("Pad", ["x", "pads"], ["y"], mode="wrap")],
                   [_f32("x", [2, 3])], [_f32("y", None)], [_i64("pads", [0, 1, 1, 2])])
    with pytest.raises(ValueError, match='Value wrap in attribute "mode" is invalid'):
        _text(model)
