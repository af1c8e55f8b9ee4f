"""Structures nested 100,000 deep from Python: containers built level by level with
tether.convert and dropped, a Relax chain add(add(...(x, x)...), x) printed, hashed,
compared, emitted and dropped, and tether.convert of a Python list nested past the
recursion limit raising RecursionError.  (apache-tvm 0.27 itself crashes printing or
emitting such a chain from about 3,000 levels and hashing it at 10,000.)"""
import sys

import pytest

import tether
from tether import core, ir, relax as R

DEEP = 100_000


def T(shape, dtype="float32"):
    return R.TensorType(shape, dtype)


def nest(depth, wrap):
    """wrap(inner) applied `depth` times to 0, each level converted on its own (no recursion
    in the conversion itself)."""
    obj = tether.convert([0])
    for _ in range(depth - 1):
        obj = tether.convert(wrap(obj))
    return obj


@pytest.mark.parametrize(
    "wrap, kind",
    [
        (lambda inner: [inner], tether.Array),
        (lambda inner: {"k": inner}, tether.Map),
        (lambda inner: [{"k": inner}], tether.Array),
    ],
    ids=["array", "map", "array_of_map"],
)
def test_deep_containers_free(wrap, kind):
    live = core._live_object_count()
    obj = nest(DEEP, wrap)
    assert isinstance(obj, kind)
    assert core._live_object_count() >= live + DEEP
    del obj  # the last reference: the whole chain is released from one DecRef
    assert core._live_object_count() == live


def test_deep_list_free():
    live = core._live_object_count()
    obj = tether.List([0])
    for _ in range(DEEP - 1):
        obj = tether.List([obj])
    assert len(obj) == 1 and isinstance(obj[0], tether.List)
    del obj
    assert core._live_object_count() == live


def test_convert_deeper_than_recursion_limit_raises_recursion_error():
    value = 0
    for _ in range(sys.getrecursionlimit() + 100):
        value = [value]
    live = core._live_object_count()
    with pytest.raises(RecursionError):
        tether.convert(value)
    assert core._live_object_count() == live
    deep_dict = 0
    for _ in range(sys.getrecursionlimit() + 100):
        deep_dict = {"k": deep_dict}
    with pytest.raises(RecursionError):
        tether.convert(deep_dict)
    assert core._live_object_count() == live


def chain(leaf, x, depth):
    e = leaf
    for _ in range(depth):
        e = R.op.add(e, x)
    return e


@pytest.fixture(scope="module")
def deep_chain():
    x = R.Var("x", T([2, 3]))
    return x, chain(x, x, DEEP)


def test_deep_relax_chain_prints(deep_chain):
    x, e = deep_chain
    assert str(chain(x, x, 3)) == "R.add(R.add(R.add(x, x), x), x)"
    assert str(e) == "R.add(" * DEEP + "x" + ", x)" * DEEP


def test_deep_relax_chain_hash_and_equal(deep_chain):
    x, e = deep_chain
    y = R.Var("y", T([2, 3]))
    same, other = chain(x, x, DEEP), chain(y, x, DEEP)
    assert ir.structural_hash(e) == ir.structural_hash(same)
    assert ir.structural_hash(e) != ir.structural_hash(other)
    assert ir.structural_equal(e, same)
    assert not ir.structural_equal(e, other)
    path = ir.get_first_structural_mismatch(e, other)
    assert path is not None


def test_deep_relax_chain_emit(deep_chain):
    x, e = deep_chain
    bb = R.BlockBuilder()
    with bb.function("main", [x]):
        with bb.dataflow():
            lv = bb.emit(e)
            gv = bb.emit_output(lv)
        bb.emit_func_output(gv)
    bindings = bb.get()["main"].body.blocks[0].bindings
    assert len(bindings) == DEEP + 1
    text = bb.get().script()
    assert '        lv: R.Tensor((2, 3), dtype="float32") = R.add(x, x)\n' in text
    assert f'        lv{DEEP - 1}: R.Tensor((2, 3), dtype="float32") = R.add(lv{DEEP - 2}, x)\n' in text


def test_deep_relax_chain_free():
    live = core._live_object_count()
    x = R.Var("x", T([2, 3]))
    e = chain(x, x, DEEP)
    del e, x
    assert core._live_object_count() == live
