"""tvm_op_signatures.py -- record apache-tvm 0.27's Python signatures of the Relax op wrappers.

For every op of tools/op_cases (the ONNX frontend's ops, tether's ops and the tables' others):
inspect.signature of tvm.relax.op.<name> (relax.op.nn.<name>, relax.op.image.<name>, ...):
each parameter's name, kind and default (its repr; absent when required).  Writes
tests/python/data/tvm_op_signatures.json, which tests/python/test_op_signatures.py checks
tether's wrappers against.

    make op-signatures
    .venv-tvm/bin/python tools/tvm_op_signatures.py [--out PATH]

Run it with an interpreter that has apache-tvm 0.27 (never tether).
"""
import argparse
import inspect
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import op_cases  # noqa: E402


def describe(fn):
    """[{name, kind, default?}] of a function's parameters."""
    out = []
    for p in inspect.signature(fn).parameters.values():
        row = {"name": p.name, "kind": p.kind.name}
        if p.default is not inspect.Parameter.empty:
            row["default"] = repr(p.default)
        out.append(row)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "tests", "python", "data",
                                                  "tvm_op_signatures.json"))
    args = ap.parse_args()
    import tvm
    from tvm import relax

    names = sorted(set(op_cases.all_ops()))
    sigs = {}
    for name in names:
        fn = relax.op
        for part in name.split("."):
            fn = getattr(fn, part)
        sigs[name] = {"module": fn.__module__, "params": describe(fn)}
    with open(args.out, "w") as f:
        json.dump({"generator": "tools/tvm_op_signatures.py", "tvm": "apache-tvm " + tvm.__version__,
                   "signatures": sigs}, f, indent=1)
        f.write("\n")
    print(f"{len(sigs)} op wrappers -> {os.path.relpath(args.out, ROOT)}")


if __name__ == "__main__":
    main()
