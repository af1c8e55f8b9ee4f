"""tvm-ffi's extra layer in libtether, reached from Python through get_global_func:
structural equality/hash, StructuralKey, recursive comparison/hash, deep copy, repr,
access paths and the structural walk.  Hash figures are the ones apache-tvm-ffi
0.1.15.post2 prints for the same values."""

import pytest

import tether

g = tether.get_global_func


def deep_array(depth, leaf=0):
    value = tether.convert([leaf])
    for _ in range(depth - 1):
        value = tether.convert([value])
    return value


def test_structural_equal_and_hash_match_tvm_ffi():
    value = tether.convert({"a": [1, 2.5, "x"], "b": None})
    assert g("ffi.StructuralHash")(tether.convert([1, 2]), False, False) == 2823322240268045181
    assert g("ffi.StructuralHash")(value, False, False) == 1669630992206278564
    assert g("ffi.StructuralHash")(1.5, False, False) == 4609434221268138618
    assert g("ffi.StructuralHash")(tether.Shape((1, 2)), False, False) == 284796581919864599
    assert g("ffi.StructuralEqual")(value, tether.convert({"b": None, "a": [1, 2.5, "x"]}), False, False)
    assert not g("ffi.StructuralEqual")(value, tether.convert({"a": [1, 2.5, "y"], "b": None}), False, False)


def test_first_mismatch_paths():
    lhs, rhs = tether.convert([1, [2]]), tether.convert([1, [3]])
    paths = g("ffi.GetFirstStructuralMismatch")(lhs, rhs, False, False)
    assert [g("ffi.ReprPrint")(p) for p in paths] == ["<root>[1][0]", "<root>[1][0]"]
    assert paths[0].depth == 2
    assert g("ffi.GetFirstStructuralMismatch")(lhs, lhs, False, False) is None


def test_structural_key():
    k1 = g("ffi.StructuralKey")(tether.convert([1, 2]))
    k2 = g("ffi.StructuralKey")(tether.convert([1, 2]))
    assert k1.hash_i64 == 2823322240268045181
    assert not k1.same_as(k2)
    assert g("ffi.StructuralKeyEqual")(k1, k2)
    # Maps key StructuralKeys structurally
    m = tether.Map({k1: "found"})
    assert m[k2] == "found"


def test_recursive_ops_match_tvm_ffi():
    value = tether.convert({"a": [1, 2.5, "x"], "b": None})
    assert g("ffi.RecursiveHash")(value) == -7507600080689738782
    assert g("ffi.RecursiveHash")(tether.convert([1, 2])) == 2823377144815479104
    assert g("ffi.RecursiveEq")(tether.convert([1, "a"]), tether.convert([1, "a"]))
    assert g("ffi.RecursiveLt")(tether.convert([1, 2]), tether.convert([1, 3]))
    assert g("ffi.RecursiveGe")(tether.convert([1, 3]), tether.convert([1, 2, 0]))
    with pytest.raises(TypeError, match="Cannot compare values of different types"):
        g("ffi.RecursiveLt")(1, "a")
    with pytest.raises(TypeError, match="Cannot order Map/Dict values"):
        g("ffi.RecursiveLt")(tether.convert({"a": 1}), tether.convert({"a": 2}))


def test_deep_copy_keeps_sharing():
    shared = tether.convert([1, 2])
    original = tether.convert({"x": shared, "y": shared})
    copy = g("ffi.DeepCopy")(original)
    assert copy["x"].same_as(copy["y"])
    assert not copy["x"].same_as(shared)
    assert g("ffi.RecursiveEq")(copy, original)
    with pytest.raises(RuntimeError, match="not copy-constructible"):
        g("ffi.DeepCopy")(g("ffi.ReprPrint"))


def test_repr():
    assert g("ffi.ReprPrint")(tether.convert({"a": [1, 2.5, "x"], "b": None})) == '{"a": (1, 2.5, "x"), "b": None}'
    assert g("ffi.ReprPrint")(tether.convert([1])) == "(1,)"


def test_repr_with_addresses(monkeypatch):
    import re
    import numpy as np
    import tether.testing

    repr_print = g("ffi.ReprPrint")
    pair = tether.testing.TestIntPair(1, 2)
    arr = tether.Array([pair, pair])
    monkeypatch.setenv("TVM_FFI_REPR_WITH_ADDR", "0")  # only "1" turns addresses on
    assert repr_print(arr) == "(testing.TestIntPair(a=1, b=2), testing.TestIntPair(a=1, b=2))"
    monkeypatch.setenv("TVM_FFI_REPR_WITH_ADDR", "1")
    a = r"0x[0-9a-f]+"
    text = repr_print(arr)
    m = re.fullmatch(rf"\(testing\.TestIntPair@({a})\(a=1, b=2\), "
                     rf"testing\.TestIntPair@({a})\(a=1, b=2\)\)@({a})", text)
    assert m and m.group(1) == m.group(2) != m.group(3), text  # one object, one address
    assert re.fullmatch(rf'\{{"k": \[1\]@{a}\}}@{a}', repr_print(tether.Map({"k": tether.List([1])})))
    t = tether.from_dlpack(np.zeros((2, 3), dtype="float32"))
    assert re.fullmatch(rf"float32\[2, 3\]@cpu:0@{a}", repr_print(t))
    # strings, shapes and PODs have no address
    assert repr_print(tether.convert("abc")) == '"abc"' and repr_print(tether.Shape((1, 2))) == "Shape(1, 2)"
    lst = tether.List([1])
    lst.append(lst)
    m = re.fullmatch(rf"\[1, \.\.\.@({a})\]@({a})", repr_print(lst))
    assert m and m.group(1) == m.group(2)


def test_deep_values_do_not_crash():
    # The traversals keep their own stacks (test_structural.c / test_recursive.c go to
    # 100,000 levels, releasing the chains by hand); here the depth stays within what
    # releasing a nested Array from Python handles.
    depth = 20_000
    a, b = deep_array(depth), deep_array(depth)
    assert g("ffi.StructuralEqual")(a, b, False, False)
    assert g("ffi.StructuralHash")(a, False, False) == g("ffi.StructuralHash")(b, False, False)
    assert g("ffi.RecursiveEq")(a, b)
    assert len(g("ffi.ReprPrint")(a)) == 3 * depth + 1
    copy = g("ffi.DeepCopy")(a)
    assert g("ffi.RecursiveEq")(copy, a)


def test_structural_walk_with_python_callbacks():
    seen = []
    root = tether.convert([1, [2, 3], {"k": 4}])
    int_index = 1  # kTVMFFIInt
    callbacks = tether.convert([(int_index, lambda v: seen.append(v))])
    assert g("ffi.StructuralWalk")(root, callbacks, tether.convert([]), 0) is None
    assert seen == [1, 2, 3, 4]


def test_structural_map_with_python_callbacks():
    root = tether.convert([1, [2, 3]])
    callbacks = tether.convert([(1, lambda v: v * 10)])
    mapped = g("ffi.StructuralMap")(root, callbacks, tether.convert([]), 1)
    assert g("ffi.ReprPrint")(mapped) == "(10, (20, 30))"
    assert g("ffi.ReprPrint")(root) == "(1, (2, 3))"


def test_bad_arguments_raise_typed_errors():
    with pytest.raises(TypeError, match="ffi.StructuralEqual"):
        g("ffi.StructuralEqual")(1)
    with pytest.raises(TypeError, match="ffi.StructuralHash"):
        g("ffi.StructuralHash")(g("ffi.ReprPrint"), False, False)
    with pytest.raises(TypeError, match="ffi.StructuralWalk"):
        g("ffi.StructuralWalk")(1, 2, 3, 0)


def test_structural_calls_do_not_leak(check_no_leak):
    value = tether.convert({"a": [1, 2.5, "x"], "b": None})

    def body():
        g("ffi.StructuralHash")(value, False, False)
        g("ffi.DeepCopy")(value)
        g("ffi.StructuralKey")(value)
        g("ffi.GetFirstStructuralMismatch")(value, tether.convert({"a": [1], "b": None}), False, False)

    check_no_leak(body, rounds=300)
