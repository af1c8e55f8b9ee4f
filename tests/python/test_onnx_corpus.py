"""Every ONNX case the `onnx` package ships, imported by tether and compared with apache-tvm.

tests/python/data/onnx/tvm_corpus.json holds, per case, what apache-tvm 0.27's from_onnx did
with it (the sha256 of the printed module, or the exception it raised), recorded by
`tools/onnx_diff.py record`.  Here:
  - a case TVM imports prints byte-identically with tether, unless onnx_corpus_known.py lists
    it (DIFFERS: deliberate; PENDING, and PENDING_INIT for the node-init group: not converted
    yet), and then it must still differ;
  - a case TVM rejects either imports with tether or raises one of the frontend's typed errors
    (NotImplementedError, ValueError, TypeError), never anything else.
"""
import json
import os
import sys
import warnings

import pytest

onnx = pytest.importorskip("onnx")

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools"))
from onnx_common import sha256  # noqa: E402
import onnx_corpus_known  # noqa: E402
from onnx_diff import load_case  # noqa: E402

from tether.relax.frontend.onnx import from_onnx  # noqa: E402

DIFFERS = onnx_corpus_known.DIFFERS
PENDING = onnx_corpus_known.PENDING | onnx_corpus_known.PENDING_INIT

with open(os.path.join(HERE, "data", "onnx", "tvm_corpus.json"), encoding="utf-8") as _f:
    RECORD = json.load(_f)["cases"]
IMPORTED = sorted(i for i, e in RECORD.items() if "sha256" in e)
REJECTED = sorted(i for i, e in RECORD.items() if "sha256" not in e)
TYPED = (NotImplementedError, ValueError, TypeError)


def _import(case_id):
    model = load_case(onnx, case_id)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return from_onnx(model).script()


def test_known_lists_name_recorded_cases():
    for case_id in list(DIFFERS) + sorted(PENDING):
        assert case_id in RECORD, f"{case_id} is not a recorded case"
        assert "sha256" in RECORD[case_id], f"{case_id}: TVM does not import it"
    assert not set(DIFFERS) & PENDING
    assert all(i.startswith("node-init/") for i in onnx_corpus_known.PENDING_INIT)


@pytest.mark.parametrize("case_id", IMPORTED)
def test_case_prints_as_tvm(case_id):
    want = RECORD[case_id]["sha256"]
    if case_id in DIFFERS or case_id in PENDING:
        try:
            text = _import(case_id)
        except TYPED:
            return
        assert sha256(text) != want, (
            f"{case_id} now prints TVM's text: take it off onnx_corpus_known.py")
        return
    text = _import(case_id)
    assert sha256(text) == want, (
        f"{case_id}: tether's module differs from TVM's "
        f"(`tools/onnx_diff.py compare -k {case_id.split('/')[1]} --texts DIR` shows where)")


@pytest.mark.parametrize("case_id", REJECTED)
def test_case_tvm_rejects_imports_or_raises_a_typed_error(case_id):
    try:
        _import(case_id)
    except TYPED:
        pass
