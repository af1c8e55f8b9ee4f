"""tether.ir.structural_equal / structural_hash / assert_structural_equal on Relax nodes
(results observed with apache-tvm 0.27's tvm_ffi.structural_equal / structural_hash)."""
import pytest

from tether import ir, relax as R


def T(shape, dtype="float32"):
    return R.TensorType(shape, dtype)


def build(name, xname):
    x = R.Var(xname, T([2, 3]))
    bb = R.BlockBuilder()
    with bb.function(name, [x]):
        with bb.dataflow():
            a = bb.emit(R.op.nn.relu(x))
            gv = bb.emit_output(R.op.exp(a))
        bb.emit_func_output(gv)
    return bb.get()[name]


def test_functions_built_twice_are_equal():
    f1, f2 = build("f", "x"), build("f", "y")  # var names are ignored; params are mapped
    assert ir.structural_equal(f1, f2)
    assert ir.structural_hash(f1) == ir.structural_hash(f2)
    ir.assert_structural_equal(f1, f2)
    assert ir.get_first_structural_mismatch(f1, f2) is None


def test_free_vars():
    a, b = R.Var("a", T([2, 3])), R.Var("b", T([2, 3]))
    assert not ir.structural_equal(R.op.nn.relu(a), R.op.nn.relu(b))
    assert ir.structural_equal(R.op.nn.relu(a), R.op.nn.relu(b), map_free_vars=True)
    assert ir.structural_equal(R.op.nn.relu(a), R.op.nn.relu(a))
    assert ir.structural_hash(R.op.nn.relu(a)) != ir.structural_hash(R.op.nn.relu(b))
    assert ir.structural_hash(R.op.nn.relu(a), map_free_vars=True) == \
        ir.structural_hash(R.op.nn.relu(b), map_free_vars=True)


def test_types_and_attrs_are_compared():
    a, b = R.Var("a", T([2, 3])), R.Var("b", T([2, 3]))
    c1, c2 = R.op.nn.relu(a), R.op.nn.relu(a)
    R.BlockBuilder().normalize(c2)
    assert not ir.structural_equal(c1, c2)  # ty is compared: un-normalized != normalized
    assert not ir.structural_equal(R.op.nn.conv2d(a, b, strides=2), R.op.nn.conv2d(a, b))
    assert ir.structural_equal(T([1, 2]), T([1, 2]))
    assert not ir.structural_equal(T([1, 2]), T([1, 3]))
    assert ir.structural_equal(R.ShapeExpr([1, 2]), R.ShapeExpr([1, 2]))
    assert ir.structural_hash(T([1, 2])) == ir.structural_hash(T([1, 2]))


def test_assert_names_the_first_mismatch():
    x = R.Var("x", T([2, 3]))
    with pytest.raises(ValueError, match=r"^StructuralEqual check failed, caused by lhs at <root>\.op:"):
        ir.assert_structural_equal(R.op.add(x, x), R.op.multiply(x, x))
    with pytest.raises(ValueError, match=r"caused by lhs at <root>\.attrs\.axis:"):
        ir.assert_structural_equal(R.op.nn.softmax(x, 0), R.op.nn.softmax(x, 1))
    assert ir.get_first_structural_mismatch(R.op.nn.softmax(x, 0), R.op.nn.softmax(x, 1)) == \
        "<root>.attrs.axis"
    assert R.assert_structural_equal is ir.assert_structural_equal
