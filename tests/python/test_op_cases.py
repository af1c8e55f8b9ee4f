"""Every op case of tools/op_cases run on tether and compared with apache-tvm 0.27's recorded
result (tests/python/data/op_cases/<category>.json, written by tools/tvm_op_cases.py): the
printed call and the inferred type, or the error's stage, class and exact text, must be
identical.  One test per op; an op tether does not have yet is skipped (the test starts
running the moment its wrapper relax.op.<name> exists).  A case marked .xfail(reason) in its
table or in tools/op_cases/known.py is expected to differ (a known bug, with its reason); the
summary below lists those that match by now, so that their mark can go.

    python tests/python/test_op_cases.py      # identical / different / skipped per category
"""
import json
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(HERE, "data", "op_cases")
sys.path.insert(0, os.path.join(ROOT, "tools"))

import op_cases  # noqa: E402
from op_cases import dsl  # noqa: E402


def _recorded(category):
    path = os.path.join(DATA, category + ".json")
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return {row["key"]: row for row in json.load(f)["cases"]}


def _ops():
    """(category, op, [(case, recorded row or None)]) per op, in table order."""
    out = {}
    for category in op_cases.CATEGORIES:
        recorded = _recorded(category)
        for c in op_cases.load(category):
            out.setdefault((category, c.op), []).append((c, recorded.get(c.key)))
    return [(cat, name, rows) for (cat, name), rows in out.items()]


OPS = _ops()
API = None


def _api():
    global API
    if API is None:
        API = op_cases.tether_api()
    return API


def _result(row):
    return {k: v for k, v in row.items() if k not in ("key", "op")}


def _crashed(row):
    """The case crashed apache-tvm (a segfault in libtvm while generating)."""
    return row.get("error", {}).get("stage") == "crash"


def _run(c):
    """tether's result for a case, or None when tether has no wrapper for its op."""
    try:
        return dsl.run_case(c, _api())
    except dsl.Missing:
        return None


def _diff(c, want, got):
    lines = [f"case {c.key}"]
    for k in sorted(set(want) | set(got)):
        if want.get(k) != got.get(k):
            lines.append(f"  {k}: apache-tvm {want.get(k)!r}")
            lines.append(f"  {k}: tether     {got.get(k)!r}")
    return "\n".join(lines)


@pytest.mark.parametrize("category,name,rows", OPS, ids=[f"{cat}:{name}" for cat, name, _ in OPS])
def test_op_cases(category, name, rows):
    try:
        dsl.lookup(_api(), name)
    except dsl.Missing:
        pytest.skip(f"tether has no relax.op.{name} yet")
    unrecorded = [c.key for c, row in rows if row is None]
    assert not unrecorded, (f"cases not recorded in data/op_cases/{category}.json (run "
                            f"`make op-cases CAT={category}`): {unrecorded}")
    differ, known = [], []
    for c, row in rows:
        want, got = _result(row), _run(c)
        if _crashed(row):
            continue  # apache-tvm has no answer; running it on tether shows tether does not crash
        if got != want:
            (known if c.xfail_reason is not None else differ).append(_diff(c, want, got))
    assert not differ, f"{len(differ)} of {len(rows)} cases differ from apache-tvm:\n" + \
        "\n".join(differ)
    if known:
        pytest.xfail(f"{len(known)} known difference(s) (tools/op_cases/known.py):\n" +
                     "\n".join(known))


def test_known_differences_name_cases():
    """Every key of known.py is a case of some table."""
    from op_cases.known import XFAIL
    keys = {c.key for category in op_cases.CATEGORIES for c in op_cases.load(category)}
    assert sorted(set(XFAIL) - keys) == []


def test_tables_cover_the_onnx_ops():
    """Every op of the ONNX frontend's list and every op tether had has cases."""
    assert sorted(set(op_cases.ONNX_OPS + op_cases.TETHER_OPS) - set(op_cases.all_ops())) == []


def test_no_stale_rows():
    """Every recorded row belongs to a case of its table."""
    for category in op_cases.CATEGORIES:
        keys = [c.key for c in op_cases.load(category)]
        stale = set(_recorded(category)) - set(keys)
        assert not stale, f"{category}.json has rows for cases no table has: {sorted(stale)[:5]}"


def summary():
    """Per category: identical / different / xfail / skipped case counts (and
    tvm_crash: cases that crashed apache-tvm, run on tether only)."""
    totals = {}
    for category, name, rows in OPS:
        t = totals.setdefault(category, {"identical": 0, "different": 0, "xfail": 0,
                                         "skipped": 0, "unrecorded": 0, "ops_missing": []})
        try:
            dsl.lookup(_api(), name)
        except dsl.Missing:
            t["skipped"] += len(rows)
            t["ops_missing"].append(name)
            continue
        for c, row in rows:
            if row is None:
                t["unrecorded"] += 1
            elif _crashed(row):
                _run(c)
                t["tvm_crash"] = t.get("tvm_crash", 0) + 1
            elif c.xfail_reason is not None:
                if _run(c) == _result(row):
                    t.setdefault("xfail_now_identical", []).append(c.key)
                else:
                    t["xfail"] += 1
            elif _run(c) == _result(row):
                t["identical"] += 1
            else:
                t["different"] += 1
    return totals


if __name__ == "__main__":
    grand = {}
    for category, t in summary().items():
        print(f"{category:8} identical {t['identical']:5}  different {t['different']:4}  "
              f"xfail {t['xfail']:3}  skipped {t['skipped']:5}  unrecorded {t['unrecorded']:3}  "
              f"missing ops: {' '.join(t['ops_missing']) or '-'}")
        for key in t.get("xfail_now_identical", []):
            print(f"  marked xfail but identical now (remove from known.py): {key}")
        for k in ("identical", "different", "xfail", "skipped", "unrecorded"):
            grand[k] = grand.get(k, 0) + t[k]
    print("total    " + "  ".join(f"{k} {v}" for k, v in grand.items()))
