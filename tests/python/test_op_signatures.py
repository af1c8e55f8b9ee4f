"""tether's op wrappers have apache-tvm 0.27's Python signatures: for every op recorded in
data/tvm_op_signatures.json (tools/tvm_op_signatures.py), tether.relax.op.<name> has the same
parameter names in the same order, of the same kinds, with the same defaults (compared by
repr).  An op tether does not have yet is skipped."""
import inspect
import json
import os
import sys

import pytest

from tether import relax

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "tools"))

import op_cases  # noqa: E402

with open(os.path.join(HERE, "data", "tvm_op_signatures.json")) as f:
    SIGS = json.load(f)["signatures"]


def _wrapper(name):
    fn = relax.op
    for part in name.split("."):
        fn = getattr(fn, part, None)
        if fn is None:
            return None
    return fn


def _params(fn):
    out = []
    for p in inspect.signature(fn).parameters.values():
        row = {"name": p.name, "kind": p.kind.name}
        if p.default is not inspect.Parameter.empty:
            row["default"] = repr(p.default)
        out.append(row)
    return out


@pytest.mark.parametrize("name", sorted(SIGS))
def test_wrapper_signature_matches_tvm(name):
    fn = _wrapper(name)
    if fn is None:
        pytest.skip(f"tether has no relax.op.{name} yet")
    assert _params(fn) == SIGS[name]["params"]


def test_every_listed_op_is_recorded():
    """The recording covers the ONNX frontend's ops and tether's own (regenerate with
    `make op-signatures` after adding ops to the case tables)."""
    missing = sorted(set(op_cases.ONNX_OPS) | set(op_cases.TETHER_OPS) | set(op_cases.all_ops()))
    missing = [n for n in missing if n not in SIGS]
    assert not missing
