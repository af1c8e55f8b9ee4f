"""The importer's walk over the nodes: tether._onnx_wire.walk (C) and _Importer._convert_node
(Python) build the same module, and the C walk reports a converter's failure as the Python walk
does.  Initializers that only ConstantOfShape reads are kept as their dims (StaticShape) and
the module is the one their constants would give.  Initializers of raw data made constants in
C (_onnx_wire.constants over core._bytes_tensor) hold what the Python reading gives.
"""
import glob
import os
import warnings

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from tether.relax.frontend.onnx import from_onnx  # noqa: E402
from tether.relax.frontend.onnx import importer  # noqa: E402
from tether.relax.frontend.onnx.converters import StaticShape  # noqa: E402

pytest.importorskip("tether._onnx_wire")
DATA = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data")


def _outcome(model):
    """The module's text, or the type and message of the error from_onnx raised."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return from_onnx(model).script()
        except Exception as err:  # noqa: BLE001 -- compared between the two walks
            return f"{type(err).__name__}: {err}"


def _both_walks(model, monkeypatch):
    """(the C walk's outcome, the Python walk's outcome)."""
    fast = _outcome(model)
    with monkeypatch.context() as m:
        m.setattr(importer, "_walk", None)
        return fast, _outcome(model)


def test_c_walk_builds_the_python_walks_module(monkeypatch):
    """Every third ONNX node case and every light model: the same text or the same error
    (the node cases cover If, tuple-valued ops, shape-typed values, optional inputs and
    unsupported ops)."""
    from onnx.backend.test.case.node import collect_testcases

    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        cases = sorted(collect_testcases(), key=lambda c: c.name)[::3]
    models = [(c.name, c.model) for c in cases]
    models += [(os.path.basename(p), onnx.load(p))
               for p in sorted(glob.glob(os.path.join(DATA, "light", "*.onnx")))]
    assert len(models) > 600
    differ = []
    for name, model in models:
        fast, slow = _both_walks(model, monkeypatch)
        if fast != slow:
            differ.append(name)
    assert differ == []


def _relu_model():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
    graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"], name="r")], "g", [x], [y])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


@pytest.mark.parametrize("walk", ["c", "python"])
def test_converter_failures_name_the_node(walk, monkeypatch):
    """A converter's own typed errors pass as they are; any other exception is a ValueError
    naming the node and its op, raised from the converter's; no value is a ValueError."""
    if walk == "python":
        monkeypatch.setattr(importer, "_walk", None)

    def failing(exc):
        def convert(g, inputs, attr):
            raise exc
        return convert

    for exc, want in [(RuntimeError("boom"), ValueError), (KeyError("k"), ValueError),
                      (ZeroDivisionError("z"), ValueError), (TypeError("t"), TypeError),
                      (NotImplementedError("n"), NotImplementedError)]:
        monkeypatch.setattr(importer, "get_converter", lambda op, opset, f=failing(exc): f)
        with pytest.raises(want) as info:
            from_onnx(_relu_model())
        if want is ValueError:
            assert str(info.value).startswith("from_onnx: node 'r' (Relu) cannot be converted: "
                                              f"{type(exc).__name__}")
            assert info.value.__cause__ is exc
        else:
            assert info.value is exc
    monkeypatch.setattr(importer, "get_converter", lambda op, opset: lambda g, i, a: None)
    with pytest.raises(ValueError, match="the converter of Relu gave no value"):
        from_onnx(_relu_model())


def _fill_model(shape_init, extra_nodes=(), outputs=("c",)):
    """ConstantOfShape of the initializer "s" (plus extra nodes), its outputs as float32."""
    nodes = [helper.make_node("ConstantOfShape", ["s"], ["c"],
                              value=helper.make_tensor("v", TensorProto.FLOAT, [1], [0.5]))]
    nodes += list(extra_nodes)
    graph = helper.make_graph(nodes, "g", [], [
        helper.make_tensor_value_info(name, TensorProto.UNDEFINED, None) for name in outputs],
        [shape_init])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


@pytest.mark.parametrize("walk", ["c", "python"])
@pytest.mark.parametrize("case", ["shape only", "1-D", "also read by Concat",
                                  "read by Concat first", "a graph output", "int32 data"])
def test_shape_only_initializers(case, walk, monkeypatch):
    """An int64 initializer only ConstantOfShape reads is kept as its dims (no constant is made
    of it); read by another node or a graph output, it becomes a constant there.  The module
    is the same as with every initializer a constant."""
    if walk == "python":
        monkeypatch.setattr(importer, "_walk", None)
    s = numpy_helper.from_array(np.array([2, 3, 4], dtype="int64"), "s")
    extra, outputs, kept = (), ("c",), True
    if case == "1-D":
        s = numpy_helper.from_array(np.array([5], dtype="int64"), "s")
    elif case == "also read by Concat":
        extra, outputs, kept = [helper.make_node("Concat", ["s", "s"], ["t"], axis=0)], \
            ("c", "t"), False
    elif case == "read by Concat first":
        extra, outputs, kept = [helper.make_node("Concat", ["s", "s"], ["t"], axis=0)], \
            ("t", "c"), False
    elif case == "a graph output":
        outputs, kept = ("c", "s"), False
    elif case == "int32 data":
        s, kept = numpy_helper.from_array(np.array([2, 3], dtype="int32"), "s"), False
    model = _fill_model(s, extra, outputs)
    if case == "read by Concat first":  # the Concat converted before the ConstantOfShape
        nodes = list(model.graph.node)
        del model.graph.node[:]
        model.graph.node.extend(nodes[::-1])
    seen = {}
    run = importer._Importer.run

    def spy(self, *args):
        try:
            return run(self, *args)
        finally:
            seen["s"] = self.nodes["s"]
    monkeypatch.setattr(importer._Importer, "run", spy)
    got = _outcome(model)
    assert (type(seen["s"]) is StaticShape) == kept
    if kept:
        assert list(seen["s"]) == np.frombuffer(s.raw_data, "<i8").tolist()
    monkeypatch.setattr(importer._Importer, "_shape_initializers",
                        lambda self, graph, records: frozenset())
    assert _outcome(model) == got
    if case != "int32 data":
        assert got.startswith("# from tvm.script import")


def test_elements_counts_up_to_the_limit():
    """_onnx_wire.elements: the elements of TensorProtos (the product of each one's dims),
    counted until past the limit; a negative dim counts as past it; dims that are not ints are
    a TypeError."""
    from tether import _onnx_wire

    def tensor(dims):
        t = TensorProto()
        t.dims.extend(dims)
        return t

    tensors = [tensor([2, 3]), tensor([]), tensor([4, 0, 5]), tensor([7])]
    assert _onnx_wire.elements(tensors, 100) == 6 + 1 + 0 + 7
    assert _onnx_wire.elements(tensors, 10) > 10
    assert _onnx_wire.elements([tensor([2 ** 40, 2 ** 40])], 1 << 14) > 1 << 14
    assert _onnx_wire.elements([tensor([3, -1])], 1 << 14) > 1 << 14
    assert _onnx_wire.elements([], 0) == 0
    with pytest.raises(AttributeError):
        _onnx_wire.elements([object()], 10)

    class Odd:
        dims = ["2"]
    with pytest.raises(TypeError):
        _onnx_wire.elements([Odd()], 10)
    with pytest.raises(TypeError):
        _onnx_wire.elements(tensors, "10")


def test_scalar_constants_are_relax_constants():
    """relax.const (the converters' const) converts a Python scalar with a dtype name once per
    (type, value, dtype): the constants are the general path's, each with its own data."""
    from tether.relax.expr import const as relax_const
    from tether.relax.frontend.onnx import converters
    from tether.ir import structural_equal

    for value, dtype in [(0, "int64"), (1, "float32"), (True, "bool"), (1, "bool"),
                         (-2.5, "float16"), (3, "uint8")]:
        ours, want = converters.const(value, dtype), relax_const(value, dtype)
        assert structural_equal(ours, want)
        arr = np.from_dlpack(ours.value)
        assert arr.dtype == np.dtype(dtype) and arr.shape == () and arr == np.array(value, dtype)
    a, b = converters.const(7, "int32"), converters.const(7, "int32")
    assert a.same_as(b) is False
    np.from_dlpack(a.value)[()] = 5
    assert np.from_dlpack(b.value) == 7 and np.from_dlpack(converters.const(7, "int32").value) == 7
    with pytest.raises(OverflowError):
        converters.const(-1, "uint8")


def test_fill_constants_own_their_data():
    """The constants ConstantOfShape makes (a 1-D fill, and the scalar a broadcast_to fills
    from) each hold their own data: writing into one reaches no other, in this import or the
    next, though the importer converts each fill value once."""
    def fills(dims_list):
        nodes = [helper.make_node("ConstantOfShape", [f"s{i}"], [f"c{i}"],
                                  value=helper.make_tensor("v", TensorProto.FLOAT, [1], [1.5]))
                 for i in range(len(dims_list))]
        inits = [numpy_helper.from_array(np.array(d, dtype="int64"), f"s{i}")
                 for i, d in enumerate(dims_list)]
        graph = helper.make_graph(nodes, "g", [], [
            helper.make_tensor_value_info(f"c{i}", TensorProto.FLOAT, None)
            for i in range(len(dims_list))], inits)
        mod = from_onnx(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]))
        out = []
        for b in mod["main"].body.blocks[0].bindings:
            value = b.value
            out += [a for a in getattr(value, "args", []) if hasattr(a, "value")]
            if hasattr(value, "fields"):
                out += [f for f in value.fields if hasattr(f, "value")]
        return [np.from_dlpack(c.value) for c in out]

    for dims in ([[3], [3]], [[2, 3], [2, 3]]):
        first = fills(dims)
        assert len(first) == 2 and all((a == 1.5).all() for a in first)
        first[0][...] = 9
        assert (first[1] == 1.5).all()
        assert all((a == 1.5).all() for a in fills(dims))


def _initializer_model(inits, outputs):
    """A model whose graph outputs are the initializers `outputs` (one Identity per output),
    with a 20000-element float initializer so that the importer reads the initializers
    through protobuf (not from the serialized graph)."""
    big = numpy_helper.from_array(np.arange(20000, dtype=np.float32).reshape(100, 200), "big")
    nodes = [helper.make_node("Identity", [name], [f"out{i}"])
             for i, name in enumerate(["big"] + outputs)]
    graph = helper.make_graph(nodes, "g", [], [
        helper.make_tensor_value_info(f"out{i}", TensorProto.UNDEFINED, None)
        for i in range(len(outputs) + 1)], [big] + inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def _constant_arrays(mod):
    """The values of the module's constants, in the order its bindings use them."""
    out = []
    for b in mod["main"].body.blocks[0].bindings:
        value = b.value
        for a in [value] + list(getattr(value, "args", [])) + list(getattr(value, "fields", [])):
            if hasattr(a, "value") and hasattr(a.value, "shape"):
                out.append(np.from_dlpack(a.value).copy())
    return out


def _import_both_ways(model, monkeypatch):
    """(outcome, constants) with the C reading of initializers, then without it."""
    got = []
    for native in (True, False):
        with monkeypatch.context() as m:
            m.setattr(importer, "_RAW_NATIVE", native)
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    mod = from_onnx(model)
                got.append((mod.script(), _constant_arrays(mod)))
            except Exception as err:  # noqa: BLE001 -- compared between the two readings
                got.append((f"{type(err).__name__}: {err}", None))
    return got


def test_initializer_constants_read_in_c(monkeypatch):
    """_onnx_wire.constants makes the constants of raw-data initializers of the common types
    over their raw_data; they print and hold what the Python reading gives, every type and
    shape, and with initializers it leaves to Python (typed data, other dtypes) in between,
    repeated names included (the last one counts)."""
    rng = np.random.default_rng(0)
    plain = [numpy_helper.from_array(a, f"p{i}") for i, a in enumerate([
        rng.standard_normal((3, 4)).astype(np.float32), rng.standard_normal(5),
        np.arange(-3, 3, dtype=np.int64), np.array(7, dtype=np.int32),
        np.zeros((2, 0, 3), np.float32)])]
    typed = helper.make_tensor("t0", TensorProto.FLOAT, [2], [1.5, -2.0])  # float_data
    half = numpy_helper.from_array(np.array([1, 2], np.float16), "h0")
    again = numpy_helper.from_array(np.array([9.0, 8.0], np.float32), "t0")  # t0 once more
    for inits in (plain, plain + [typed, half], [typed] + plain + [again], plain + [again]):
        names = list(dict.fromkeys(t.name for t in inits))
        (fast, fast_c), (slow, slow_c) = _import_both_ways(_initializer_model(inits, names),
                                                           monkeypatch)
        assert fast.startswith("# from tvm.script import") and fast == slow
        assert len(fast_c) == len(slow_c) == len(names) + 1
        for a, b in zip(fast_c, slow_c):
            assert a.dtype == b.dtype and a.shape == b.shape and (a == b).all()
    (fast, fast_c), (slow, slow_c) = _import_both_ways(
        _initializer_model([again, typed], ["t0"]), monkeypatch)
    assert fast == slow and (fast_c[1] == slow_c[1]).all() and (fast_c[1] == [1.5, -2.0]).all()


@pytest.mark.parametrize("bad", ["short", "blank"])
def test_initializer_errors_read_in_c(bad, monkeypatch):
    """An initializer the C reading cannot take (raw_data that does not hold its dims, a
    blank name) is left to the importer, which raises its error, the same either way."""
    t = numpy_helper.from_array(np.arange(6, dtype=np.float32), "w")
    if bad == "short":
        t.raw_data = t.raw_data[:-4]
    else:
        t.name = "  "
    fast, slow = _import_both_ways(_initializer_model([t], [t.name]), monkeypatch)
    assert fast == slow and fast[0].startswith("ValueError")


def test_bytes_tensor():
    """core._bytes_tensor: a Tensor over a bytes object (no copy; the Tensor keeps it alive),
    and typed errors for what it cannot be."""
    from tether import core

    data = np.arange(6, dtype=np.float32).tobytes()
    t = core._bytes_tensor(data, 2, 32, (2, 3))
    arr = np.from_dlpack(t)
    assert arr.shape == (2, 3) and arr.dtype == np.float32 and (arr.ravel() == range(6)).all()
    assert arr.ctypes.data == np.frombuffer(data, np.uint8).ctypes.data
    del data
    assert (np.from_dlpack(t).ravel() == range(6)).all()
    assert np.from_dlpack(core._bytes_tensor(b"", 0, 64, (0, 4))).shape == (0, 4)
    assert np.from_dlpack(core._bytes_tensor(b"\x01" * 8, 0, 64, ())).shape == ()
    for args in [(bytearray(4), 2, 32, (1,)), (b"1234", 2, 32, [1]), (b"1234", "f", 32, (1,)),
                 (b"1234", 2, 32)]:
        with pytest.raises(TypeError):
            core._bytes_tensor(*args)
    for args in [(b"1234", 2, 32, (2,)), (b"1234", 2, 12, (1,)), (b"1234", 2, 32, (-1,)),
                 (b"1234", 300, 32, (1,)), (b"1234", 2, 32, (2 ** 62, 2 ** 62)),
                 (b"1234", 2, 32, (1,) * 17), (b"1234", 2, 32, ("1",))]:
        with pytest.raises(ValueError):
            core._bytes_tensor(*args)
