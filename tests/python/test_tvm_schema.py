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
