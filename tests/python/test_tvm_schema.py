"""tether's reflected schema against apache-tvm 0.27's, and the JSON graph text of Relax IR
against the text TVM's save_json writes for the same programs.

What TVM does is recorded in tests/python/data (no TVM at test time):
- tvm_schema.json: for each type key tether shares with TVM, TVM's parent key and own
  fields (name, order, field_static_type_index, declared type_schema); written by
  tools/tvm_schema.py (its docstring has the command).
- tvm_json/<case>.json: TVM's save_json text of each program of tools/tvm_json_cases.py,
  built there with TVM's Python API; tools/tvm_json_cases.py writes them (its docstring has
  the command).  The same programs are built here with tether's API.
"""
import collections
import json
import os
import sys

import pytest

import tether
from tether import core, ir, relax as R
from tether.serialization import from_json_graph_str, to_json_graph_str

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

with open(os.path.join(DATA, "tvm_schema.json")) as f:
    TVM_SCHEMA = json.load(f)["types"]

# Field static type indices the JSON graph writes inline (None, int, bool, float, DataType);
# every other declared type is written as a node reference.
INLINE_INDICES = {0, 1, 2, 3, 5}
# Type keys libtether_ir registers that apache-tvm 0.27 does not have.
TETHER_ONLY = {"ir.DataTypeImm"}
SHARED = sorted(k for k, v in TVM_SCHEMA.items() if v is not None and k not in TETHER_ONLY)


def _tether_type_keys():
    return set(tether.get_global_func("ffi.GetRegisteredTypeKeys")())


@pytest.mark.parametrize("type_key", SHARED)
def test_fields_match_tvm(type_key):
    tvm = TVM_SCHEMA[type_key]
    parent, fields = core._type_fields(type_key)
    assert parent == tvm["parent"]
    assert [f[0] for f in fields] == [f["name"] for f in tvm["fields"]]
    for (name, index, metadata), want in zip(fields, tvm["fields"]):
        schema = json.loads(json.loads(metadata)["type_schema"])
        assert schema == want["type_schema"], f"{type_key}.{name}"
        # Inline versus reference in the JSON graph follows the static type index.
        assert (index in INLINE_INDICES) == (want["static_type_index"] in INLINE_INDICES), \
            f"{type_key}.{name}: static type index {index}, TVM {want['static_type_index']}"
        if want["static_type_index"] in INLINE_INDICES:
            assert index == want["static_type_index"], f"{type_key}.{name}"


def test_every_ir_type_is_recorded():
    # A type libtether_ir adds must be recorded from TVM (or listed as tether-only).
    ours = {k for k in _tether_type_keys() if k.split(".")[0] in ("ir", "relax", "prim")}
    assert ours, "libtether_ir registered no types"
    missing = sorted(ours - set(TVM_SCHEMA))
    assert not missing, f"not in tests/python/data/tvm_schema.json: {missing}"
    assert sorted(k for k in ours if TVM_SCHEMA.get(k) is None) == sorted(TETHER_ONLY)


# ---- the fields from Python, as TVM's Python shows them (observed with apache-tvm 0.27) --------

def test_tensor_type_dtype_is_a_prim_type():
    t = R.TensorType([2, 3], "float32")
    assert type(t.dtype) is ir.PrimType and repr(t.dtype) == "T.float32" and str(t.dtype) == "float32"
    assert t.dtype == "float32" and t.dtype != "float16" and t.dtype == ir.PrimType("float32")
    assert t.dtype.same_as(ir.PrimType("float32"))  # one PrimType per dtype, as in TVM
    assert t.dtype.same_as(R.TensorType([4], "float32").dtype)
    assert R.TensorType(None, None, ndim=2).dtype is None
    assert R.TensorType(None, "", ndim=2).dtype is None
    assert R.TensorType(ndim=-1).dtype == "float32"  # the constructor's default
    assert R.TensorType([1], ir.PrimType("int8")).dtype == "int8"


def test_boxed_scalars_read_as_python_values():
    assert ir.IntImm("int64", 5).value == 5 and type(ir.IntImm("int64", 5).value) is int
    x = R.Var("x", R.TensorType([2, 3], "float32"))
    v = R.Var("v", R.TensorType([5], "float32"))
    assert R.op.concat([x, x]).attrs.axis == 0
    assert R.op.concat([x, x], axis=-1).attrs.axis == -1
    assert R.op.concat([v, v], axis=None).attrs.axis is None
    i = R.Var("i", R.TensorType([2], "int64"))
    assert R.op.take(x, i, axis=1).attrs.axis == 1
    assert R.op.take(v, i, axis=None).attrs.axis is None


def test_module_and_function_members():
    m = ir.IRModule()
    assert type(m.attrs) is ir.DictAttrs and len(m.attrs) == 0
    assert type(m.source_map) is ir.SourceMap and repr(m.source_map) == "ir.SourceMap(source_map={})"
    assert len(m.global_infos) == 0
    t = R.TensorType([2], "float32")
    assert R.FuncType([t], t).derive_func is None
    x = R.Var("x", t)
    f = R.Function([x], R.SeqExpr([], x), t)
    assert type(f.attrs) is ir.DictAttrs and len(f.attrs) == 0
    op = ir.Op.get("relax.add")
    assert op.description == "" and op.support_level == 10 and op.num_inputs == 2
    # An ExternFunc's default type derives its result as TVM's does, by a named EnvFunc.
    derive = R.ExternFunc("k").ty.derive_func
    assert derive.name == "tvm.relax.type.infer_by_ty_args" and derive.func is None
    assert repr(derive) == 'ir.EnvFunc(name="tvm.relax.type.infer_by_ty_args", func=None)'
    assert ir.structural_equal(R.ExternFunc("k"), R.ExternFunc("k"))


# ---- JSON graph text against TVM's save_json ---------------------------------------------

sys.path.insert(0, os.path.join(REPO, "tools"))
import tvm_json_cases  # noqa: E402  (the programs, importable without TVM)

CASES = sorted(tvm_json_cases.CASES)
def _tvm_text(case):
    with open(os.path.join(DATA, "tvm_json", case + ".json")) as f:
        return f.read()


def _tvm_version(text):
    return json.loads(text)["metadata"]["tvm_version"]


def test_every_case_is_recorded():
    recorded = sorted(f[:-5] for f in os.listdir(os.path.join(DATA, "tvm_json")) if f.endswith(".json"))
    assert recorded == CASES


@pytest.mark.parametrize("case", CASES)
def test_tether_writes_tvm_text(case):
    want = _tvm_text(case)
    mod = tvm_json_cases.build_tether(case)
    assert to_json_graph_str(mod, {"tvm_version": _tvm_version(want)}) == want


@pytest.mark.parametrize("case", CASES)
def test_tether_loads_tvm_text(case):
    mod = tvm_json_cases.build_tether(case)
    loaded = from_json_graph_str(_tvm_text(case))
    assert type(loaded) is ir.IRModule
    assert loaded.script() == mod.script()
    assert ir.structural_equal(loaded, mod)
    assert ir.structural_hash(loaded) == ir.structural_hash(mod)
    # and it writes back the text it was read from
    want = _tvm_text(case)
    assert to_json_graph_str(loaded, {"tvm_version": _tvm_version(want)}) == want


@pytest.mark.parametrize("case", CASES)
def test_round_trip_in_tether(case):
    mod = tvm_json_cases.build_tether(case)
    back = from_json_graph_str(to_json_graph_str(mod))
    assert back.script() == mod.script() and ir.structural_equal(back, mod)


# ---- bad input: a typed error naming the node and the field ----------------------------------

def _mutated(case, mutate):
    doc = json.loads(_tvm_text(case))
    mutate(doc["nodes"])
    return json.dumps(doc)


def _first(nodes, type_key):
    return next(i for i, n in enumerate(nodes) if n["type"] == type_key)


def _set(type_key, field, value_of):
    def mutate(nodes):
        nodes[_first(nodes, type_key)]["data"][field] = value_of(nodes)
    return mutate


def _drop(type_key, field):
    def mutate(nodes):
        del nodes[_first(nodes, type_key)]["data"][field]
    return mutate


def _op_data(value):
    def mutate(nodes):
        nodes[_first(nodes, "ir.Op")]["data"] = value
    return mutate


BAD = [
    # (mutation, error type, texts the message must contain)
    (_op_data("relax.no_such_op"), ValueError, ["node ", "ir.Op", "unknown op `relax.no_such_op`"]),
    (_op_data(7), TypeError, ["node ", "ir.Op", "its name (a JSON string)", "`int`"]),
    (_set("ir.IntImm", "value", lambda ns: _first(ns, "ffi.String")), TypeError,
     ["(`ir.IntImm`), field `value`"]),
    (_drop("ir.IntImm", "value"), TypeError, ["Required field `value`", "`ir.IntImm`"]),
    (_set("relax.TensorType", "dtype", lambda ns: _first(ns, "ir.IntImm")), TypeError,
     ["(`relax.TensorType`), field `dtype`", "ir.PrimType"]),
    (_set("relax.TensorType", "ndim", lambda ns: "two"), TypeError, ["field `ndim`"]),
    (_drop("relax.TensorType", "ndim"), TypeError, ["Required field `ndim`"]),
    (_set("relax.attrs.ConcatAttrs", "axis", lambda ns: _first(ns, "ffi.String")), TypeError,
     ["(`relax.attrs.ConcatAttrs`), field `axis`"]),
    (_set("relax.attrs.TakeAttrs", "axis", lambda ns: 10 ** 6), (IndexError, ValueError),
     ["node "]),
    (_set("ir.IRModule", "attrs", lambda ns: 0), TypeError, ["(`ir.IRModule`), field `attrs`"]),
    (_drop("ir.IRModule", "source_map"), TypeError, ["Required field `source_map`"]),
    (_set("ir.Call", "args", lambda ns: _first(ns, "ir.Var")), TypeError, ["(`ir.Call`), field `args`"]),
    (_set("relax.FuncType", "derive_func", lambda ns: _first(ns, "ffi.String")), TypeError,
     ["(`relax.FuncType`), field `derive_func`"]),
    (_set("relax.FuncType", "derive_func", lambda ns: _first(ns, "ir.PrimType")), TypeError,
     ["(`relax.FuncType`), field `derive_func`", "ir.EnvFunc"]),
]


def test_bad_env_func_is_a_typed_error():
    def mutate(nodes):
        nodes[_first(nodes, "ir.EnvFunc")]["data"] = 3
    with pytest.raises(TypeError, match=r"node 2 .*ir.EnvFunc.*its name \(a JSON string\)"):
        from_json_graph_str(_mutated("extern_func", mutate))


@pytest.mark.parametrize("mutate,kind,texts", BAD, ids=[f"bad{i}" for i in range(len(BAD))])
def test_bad_input_is_a_typed_error(mutate, kind, texts):
    text = _mutated("concat_take_axes", mutate)
    with pytest.raises(kind) as info:
        from_json_graph_str(text)
    for t in texts:
        assert t in str(info.value)
