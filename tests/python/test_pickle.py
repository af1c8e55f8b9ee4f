"""pickle, copy.copy and copy.deepcopy of tether objects, as apache-tvm-ffi 0.1.15.post2 does them.

An object pickles through the JSON graph: (_new_object, (cls,), {"handle": <graph text>}), so
it comes back as the same Python class, with the references shared inside it still shared.
String and Bytes pickle as plain str / bytes, Device and dtype by value, an Error as
Error(kind, message, backtrace); a Function cannot be written (TypeError).  copy.copy uses
the type's __ffi_shallow_copy__ (the JSON graph when it has none), copy.deepcopy ffi.DeepCopy
(for objects other than containers, the JSON graph when the graph holds something DeepCopy
cannot copy, such as a Tensor).

The first tests run the same values under tvm_ffi in a subprocess and compare the outcomes:
the class of the result, and the pickled graph text byte for byte.
"""
import copy
import importlib.util
import json
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import tether
import tether.testing
from tether import core, ir, relax

_recursive_eq = tether.get_global_func("ffi.RecursiveEq")

# Values as Python expressions, evaluated with `ffi` bound to tvm_ffi (in a subprocess) or to
# tether (here), and `testing` to their testing modules.
VALUES = [
    "ffi.convert('a string longer than the small-string limit')",
    "ffi.convert('hi')",
    "ffi.convert(b'\\x00abc\\xff' * 10)",
    "ffi.convert(b'ab')",
    "ffi.convert([1, 'a', [2, 3], None, 2.5, True, -2**63])",
    "ffi.convert([])",
    "ffi.Map({'a': 1, 'b': [1, 2], 'c': {'d': None}})",
    "ffi.List([1, [2], {'k': 'v'}])",
    "ffi.Dict({'a': 1, 'b': ffi.List([1])})",
    "ffi.Shape((1, 2, 3))",
    "ffi.Shape(())",
    "ffi.device('cuda', 1)",
    "ffi.device('cpu', 0)",
    "ffi.dtype('float32x4')",
    "ffi.dtype('bool')",
    "(lambda a: ffi.convert([a, a, [a]]))(ffi.convert([1, 2]))",
    "(lambda m: ffi.Map({'x': m, 'y': [m, m]}))(ffi.Map({'k': 'v'}))",
    "testing.create_object('testing.TestIntPair', a=1, b=-2)",
    "ffi.convert([testing.create_object('testing.TestIntPair', a=3, b=4)] * 2)",
    "ffi.get_global_func('ffi.Array')",
    "ffi.convert([ffi.get_global_func('ffi.Array')])",
    "ffi.convert(lambda x: x)",
]

_OUTCOMES = textwrap.dedent(r"""
    def outcome(ffi, value, op):
        import copy, pickle
        try:
            if op == "pickle":
                r = pickle.loads(pickle.dumps(value))
            elif op == "copy":
                r = copy.copy(value)
            else:
                r = copy.deepcopy(value)
        except Exception as e:
            return ["error", type(e).__name__]
        state = None
        if isinstance(value, ffi.Object) and op == "pickle":
            state = value.__getstate__()["handle"]
        return ["ok", type(r).__name__, state]
""")

SCRIPT = _OUTCOMES + textwrap.dedent(r"""
    import json, sys
    import tvm_ffi as ffi
    import tvm_ffi.testing as testing
    result = []
    for expr in json.loads(sys.stdin.read()):
        value = eval(expr)
        result.append([outcome(ffi, value, op) for op in ("pickle", "copy", "deepcopy")])
    print(json.dumps(result))
""")
exec(_OUTCOMES)  # defines outcome() for tether's side


@pytest.fixture(scope="module")
def upstream():
    if importlib.util.find_spec("tvm_ffi") is None:
        pytest.skip("needs apache-tvm-ffi in the test environment")
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                         timeout=300, input=json.dumps(VALUES))
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def _eval(expr):
    return eval(expr, {"ffi": tether, "testing": tether.testing})


@pytest.mark.parametrize("index", range(len(VALUES)), ids=VALUES)
def test_outcomes_are_upstreams(upstream, index):
    value = _eval(VALUES[index])
    got = [outcome(tether, value, op) for op in ("pickle", "copy", "deepcopy")]
    assert got == upstream[index]


@pytest.mark.parametrize("index", range(len(VALUES)), ids=VALUES)
def test_round_trip_equal(index):
    value = _eval(VALUES[index])
    if isinstance(value, tether.Function) or VALUES[index].startswith("ffi.convert([ffi.get"):
        pytest.skip("not serializable (see test_function_cannot_be_pickled)")
    for proto in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(value, protocol=proto))
        assert type(back) is type(value) or isinstance(value, (core.String, core.Bytes))
        if isinstance(value, core.Object):
            assert _recursive_eq(back, value)
            assert not back.same_as(value)
        else:
            assert back == value
    for back in (copy.copy(value), copy.deepcopy(value)):
        if isinstance(value, core.Object):
            assert _recursive_eq(back, value)
        else:
            assert back == value


# ---- strings, values, containers --------------------------------------------------------------

def test_string_and_bytes_come_back_plain():
    s = tether.convert("some text that is long enough")
    b = tether.convert(b"\x00\x01bytes" * 5)
    assert type(s) is core.String and type(b) is core.Bytes
    for f in (lambda v: pickle.loads(pickle.dumps(v)), copy.copy, copy.deepcopy):
        assert type(f(s)) is str and f(s) == s
        assert type(f(b)) is bytes and f(b) == b


def test_device_and_dtype_by_value():
    d = tether.device("cuda", 3)
    t = tether.dtype("int8x4")
    for f in (lambda v: pickle.loads(pickle.dumps(v)), copy.copy, copy.deepcopy):
        assert f(d) == d and type(f(d)) is type(d)
        back = f(t)
        assert back == t and type(back) is type(t) and (back.bits, back.lanes) == (8, 4)


def test_shared_references_survive_one_pickle():
    a = tether.convert([1, 2])
    arr = tether.convert([a, a, [a]])
    back = pickle.loads(pickle.dumps(arr))
    assert back[0].same_as(back[1]) and back[2][0].same_as(back[0])
    assert not back[0].same_as(a)
    deep = copy.deepcopy(arr)
    assert deep[0].same_as(deep[1]) and not deep[0].same_as(a)


def test_objects_in_one_pickle_share_only_through_python_memo():
    """Two Python references to one wrapper are one object after unpickling (pickle's memo);
    the JSON graph of each wrapper is separate."""
    a = tether.convert([1, 2])
    back = pickle.loads(pickle.dumps([a, a, {"k": a}]))
    assert back[0] is back[1] is back[2]["k"]


def test_getstate_is_the_json_graph():
    arr = tether.convert([1, "x"])
    state = arr.__getstate__()
    assert set(state) == {"handle"}
    assert state["handle"] == tether.get_global_func("ffi.ToJSONGraphString")(arr, None)
    assert type(state["handle"]) is str
    reduced = arr.__reduce__()
    assert reduced[0] is core._new_object and reduced[1] == (type(arr),)


def test_object_without_handle():
    empty = core._new_object(relax.Var)
    assert empty.__chandle__() == 0
    assert empty.__getstate__() == {"handle": None}
    back = pickle.loads(pickle.dumps(empty))
    assert type(back) is relax.Var and back.__chandle__() == 0
    assert copy.copy(empty).__chandle__() == 0 and copy.deepcopy(empty).__chandle__() == 0


def test_list_and_dict_copies_are_independent():
    lst = tether.List([1, tether.List([2])])
    shallow, deep = copy.copy(lst), copy.deepcopy(lst)
    lst.append(3)
    lst[1].append(4)
    assert list(shallow) == [1, shallow[1]] and len(shallow) == 2
    assert len(deep[1]) == 1
    d = tether.Dict({"a": 1})
    d2 = copy.deepcopy(d)
    d["b"] = 2
    assert "b" not in d2


# ---- tensors ------------------------------------------------------------------------------------

def _check_tensor_copy(back, original_np):
    assert type(back) is tether.Tensor
    assert back.device == tether.device("cpu", 0)
    np.testing.assert_array_equal(np.from_dlpack(back), original_np)


@pytest.mark.parametrize("dtype", ["float32", "int8", "bool", "float16", "int64", "uint16"])
def test_numpy_tensor(dtype):
    data = (np.arange(24).reshape(2, 3, 4) % 3).astype(dtype)
    t = tether.from_dlpack(data)
    for back in (pickle.loads(pickle.dumps(t)), copy.copy(t), copy.deepcopy(t)):
        _check_tensor_copy(back, data)
    # a copy owns its data: writing to the source does not change it
    back = pickle.loads(pickle.dumps(t))
    data.flat[0] = 1
    assert np.from_dlpack(back).flat[0] == 0


def test_torch_tensor():
    torch = pytest.importorskip("torch")
    src = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    t = tether.from_dlpack(src)
    for back in (pickle.loads(pickle.dumps(t)), copy.copy(t), copy.deepcopy(t)):
        _check_tensor_copy(back, src.numpy())
    # a non-contiguous view is written by value too
    tv = tether.from_dlpack(src[:, 1:3].contiguous())
    _check_tensor_copy(pickle.loads(pickle.dumps(tv)), src[:, 1:3].numpy())


def test_tensor_shared_inside_a_container():
    t = tether.from_dlpack(np.ones((2, 2), dtype="float32"))
    arr = tether.convert([t, t])
    back = pickle.loads(pickle.dumps(arr))
    assert back[0].same_as(back[1])
    # containers deep-copy with ffi.DeepCopy alone, which cannot copy a Tensor (as in tvm_ffi)
    with pytest.raises(RuntimeError, match="ffi.Tensor"):
        copy.deepcopy(arr)
    # an IR node holding one is copied through the JSON graph instead
    const = relax.const(np.ones((2, 2), dtype="float32"))
    node = relax.Tuple([const, const])
    deep = copy.deepcopy(node)
    assert deep.fields[0].same_as(deep.fields[1]) and not deep.fields[0].same_as(const)
    assert not deep.fields[0].data.same_as(const.data)


# ---- errors and functions ---------------------------------------------------------------------

def test_error_object_by_value():
    err = core.Error("ValueError", "bad value", "frame 1\nframe 2")
    for back in (pickle.loads(pickle.dumps(err)), copy.copy(err), copy.deepcopy(err)):
        assert type(back) is core.Error and not back.same_as(err)
        assert (back.kind, back.message, back.backtrace) == ("ValueError", "bad value",
                                                             "frame 1\nframe 2")


def test_raised_ffi_error_pickles():
    with pytest.raises(ValueError) as info:
        tether.testing.test_raise_error("ValueError", "boom") if hasattr(
            tether.testing, "test_raise_error") else tether.get_global_func(
            "testing.test_raise_error")("ValueError", "boom")
    exc = info.value
    back = pickle.loads(pickle.dumps(exc))
    assert type(back) is ValueError and str(back) == str(exc)
    attached = getattr(exc, "__tvm_ffi_error__", None)
    if attached is not None:
        again = back.__tvm_ffi_error__
        assert (again.kind, again.message) == (attached.kind, attached.message)


def test_function_cannot_be_pickled():
    f = tether.get_global_func("ffi.Array")
    for op in (pickle.dumps, copy.copy, copy.deepcopy):
        with pytest.raises(TypeError, match="ffi.Function"):
            op(f)
    with pytest.raises(TypeError, match="ffi.Function"):
        pickle.dumps(tether.convert({"f": f}))
    with pytest.raises(TypeError, match="ffi.Function"):
        pickle.dumps(tether.convert(lambda: 1))


def test_bad_state():
    var = core._new_object(relax.Var)
    with pytest.raises(TypeError, match="handle"):
        var.__setstate__({"nothing": 1})
    with pytest.raises(TypeError, match="handle"):
        var.__setstate__("text")
    with pytest.raises(ValueError):
        var.__setstate__({"handle": '{"root_index": 5, "nodes": []}'})
    with pytest.raises(ValueError):
        var.__setstate__({"handle": "not json"})
    # a graph of another type cannot become a Var
    text = tether.convert([1]).__getstate__()["handle"]
    with pytest.raises(TypeError, match="ffi.Array"):
        var.__setstate__({"handle": text})
    with pytest.raises(TypeError, match="not an object"):
        var.__setstate__({"handle": '{"root_index": 0, "nodes": [{"type": "int", "data": 1}]}'})
    assert var.__chandle__() == 0
    with pytest.raises(TypeError):
        core._new_object(int)


# ---- IR nodes -----------------------------------------------------------------------------------

def _ir_module():
    n = ir.Var("n", "int64")
    x = relax.Var("x", relax.TensorType([n, 4], "float32"))
    w = relax.Var("w", relax.TensorType([1, 4, 3, 3], "float32"))
    img = relax.Var("img", relax.TensorType([1, 4, 8, 8], "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, w, img], attrs={"note": "pickled"}):
        with bb.dataflow():
            c = relax.const(np.arange(4, dtype="float32"))
            y = bb.emit(relax.op.add(x, c))
            z = bb.emit(relax.op.multiply(y, y))
            conv = bb.emit(relax.op.nn.conv2d(img, w, padding=[1, 1]))
            t = bb.emit(relax.Tuple([z, conv]))
            out = bb.emit_output(relax.TupleGetItem(t, 0))
        bb.emit_func_output(out)
    with bb.function("helper", [relax.Var("s", relax.ShapeType(ndim=2))]):
        s = bb.emit(relax.const(np.int32(1)))
        bb.emit_func_output(s)
    return bb.get()


def _ir_values():
    mod = _ir_module()
    main = mod["main"]
    body = main.body
    values = {
        "IRModule": mod, "Function": main, "SeqExpr": body,
        "DataflowBlock": body.blocks[0], "VarBinding": body.blocks[0].bindings[0],
        "Call": body.blocks[0].bindings[0].value, "Var": main.params[0],
        "DataflowVar": body.blocks[0].bindings[0].var,
        "TensorType": main.params[0].ty, "ShapeType": relax.ShapeType(ndim=3),
        "TupleType": relax.TupleType([relax.TensorType([1], "int8"), relax.ShapeType([1])]),
        "PrimType": ir.PrimType("int64"), "FuncType": main.ty,
        "GenericConst": relax.const(np.ones((2, 2), dtype="int32")),
        "IntImm": ir.IntImm("int64", 7), "StringImm": ir.StringImm("text"),
        "Conv2DAttrs": body.blocks[0].bindings[2].value.attrs,
        "GlobalVar": mod.get_global_var("main"), "Op": tether.ir.Op.get("relax.add"),
        "Tuple": body.blocks[0].bindings[3].value,
        "TupleGetItem": body.blocks[0].bindings[4].value,
        "FloatImm": ir.FloatImm("float32", 0.5), "DataTypeImm": ir.DataTypeImm("int8"),
        "PrimExpr": (ir.Var("m", "int64") + 1) * 2,
        "ShapeExpr": relax.ShapeExpr([1, ir.Var("k", "int64")]),
        "AnyType": relax.AnyType(), "PackedFuncType": relax.PackedFuncType(),
        "ExternFunc": relax.ExternFunc("my_kernel"),
        "DictAttrs": main.attrs,
    }
    # If and MatchCast, in a function of their own
    c = relax.Var("c", relax.TensorType([], "bool"))
    v = relax.Var("v", relax.TensorType(None, "float32", ndim=1))
    bb = relax.BlockBuilder()
    with bb.function("branchy", [c, v]):
        n = ir.Var("n", "int64")
        w = bb.match_cast(v, relax.TensorType([n], "float32"))
        values["If"] = relax.If(c, w, w)
        out = bb.emit(values["If"])
        bb.emit_func_output(out)
    branchy = bb.get()["branchy"]
    values["MatchCast"] = branchy.body.blocks[0].bindings[0]
    values["FunctionWithIf"] = branchy
    return values


@pytest.mark.parametrize("name", sorted(_ir_values()))
def test_ir_node_round_trips(name):
    node = _ir_values()[name]
    for back in (pickle.loads(pickle.dumps(node)), copy.copy(node), copy.deepcopy(node)):
        assert type(back) is type(node)
        assert ir.structural_equal(back, node, map_free_vars=True)
        assert str(back) == str(node)


def test_pickled_function_keeps_its_variables_shared():
    main = _ir_module()["main"]
    back = pickle.loads(pickle.dumps(main))
    param = back.params[0]
    first = back.body.blocks[0].bindings[0]
    assert first.value.args[0].same_as(param)  # the parameter used in the body is the param
    y = first.var
    assert back.body.blocks[0].bindings[1].value.args[0].same_as(y)
    assert back.body.blocks[0].bindings[1].value.args[1].same_as(y)
    assert not param.same_as(main.params[0])
    deep = copy.deepcopy(main)
    assert deep.body.blocks[0].bindings[0].value.args[0].same_as(deep.params[0])
    assert not deep.params[0].same_as(main.params[0])


def test_copy_is_shallow():
    x = relax.Var("x", relax.TensorType([2], "float32"))
    call = relax.op.add(x, x)
    shallow = copy.copy(call)
    assert not shallow.same_as(call)
    assert shallow.args[0].same_as(x) and shallow.op.same_as(call.op)
    deep = copy.deepcopy(call)
    assert not deep.args[0].same_as(x) and deep.args[0].same_as(deep.args[1])


def test_deepcopy_memo():
    x = relax.Var("x", relax.TensorType([2], "float32"))
    call = relax.op.add(x, x)
    pair = copy.deepcopy([call, call, {"again": call}])
    assert pair[0] is pair[1] is pair[2]["again"]
    assert not pair[0].same_as(call)
    sentinel = object()
    assert copy.deepcopy(call, {id(call): sentinel}) is sentinel
    memo = {}
    first = copy.deepcopy(call, memo)
    assert copy.deepcopy(call, memo) is first


class MyVar(relax.Var):
    """A Python subclass of a registered node class."""

    __slots__ = ()

    def shout(self):
        return self.name.upper()


def test_python_subclass_is_kept():
    v = MyVar("quiet", relax.TensorType([1], "float32"))
    for back in (pickle.loads(pickle.dumps(v)), copy.copy(v), copy.deepcopy(v)):
        assert type(back) is MyVar and back.shout() == "QUIET"


def test_unpickled_module_prints_and_runs_the_same_checks():
    mod = _ir_module()
    back = pickle.loads(pickle.dumps(mod, protocol=pickle.HIGHEST_PROTOCOL))
    assert back.script() == mod.script()
    assert back.script(show_meta=True) == mod.script(show_meta=True)
    ir.assert_structural_equal(back, mod)
    ir.assert_structural_equal(copy.deepcopy(mod), mod)


def test_no_leak(check_no_leak):
    """Pickling, copying and their error paths leave no FFI object or Python memory behind."""
    from meta_programs import PROGRAMS

    mod = PROGRAMS["two_constants"](relax, np)
    x = relax.Var("x", relax.TensorType([2], "float32"))
    call = relax.op.add(x, relax.const(np.ones(2, dtype="float32")))
    arr = tether.convert([1, "text that is not small", tether.Map({"k": [2]})])
    err = core.Error("ValueError", "m", "b")
    f = tether.get_global_func("ffi.Array")
    with_tensor = tether.convert([tether.from_dlpack(np.ones(3, dtype="float32"))])
    bad_var = core._new_object(relax.Var)

    def body():
        pickle.loads(pickle.dumps(mod))
        copy.copy(call), copy.deepcopy(call)
        copy.copy(arr), copy.deepcopy(arr), pickle.loads(pickle.dumps(arr))
        pickle.loads(pickle.dumps(err)), copy.deepcopy(err)
        for op in (pickle.dumps, copy.deepcopy):
            try:
                op(f)
            except TypeError:
                pass
        try:
            copy.deepcopy(with_tensor)
        except RuntimeError:
            pass
        try:
            bad_var.__setstate__({"handle": arr.__getstate__()["handle"]})
        except TypeError:
            pass
        ir.load_json(ir.save_json(call))
        mod.script(show_meta=True)

    check_no_leak(body)
