"""tvm_op_cases.py -- record apache-tvm 0.27's results for the op cases of tools/op_cases.

For every case of every category (or of the ones named), builds the op call with apache-tvm's
wrapper relax.op.<name>, normalizes it in a BlockBuilder function and records what a user
sees: the printed call and the inferred type as TVMScript text, or the error's stage, class name
and exact text.  Writes tests/python/data/op_cases/<category>.json, which
tests/python/test_op_cases.py compares tether against.

    make op-cases                 # every category, with the repository's .venv-tvm
    make op-cases CAT=nn          # one category
    .venv-tvm/bin/python tools/tvm_op_cases.py [--category CAT ...] [--out DIR]

Run it with an interpreter that has apache-tvm 0.27 (never tether).  Each category runs in a
child interpreter, so that a case which crashes apache-tvm is recorded (stage "crash") instead
of ending the run.
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import op_cases  # noqa: E402
from op_cases import dsl  # noqa: E402


def worker(category, start):
    """Child process: run the cases of a category from index `start`, one JSON line each,
    announcing every case before running it (so that the parent knows which one crashed)."""
    api = op_cases.tvm_api()
    out = sys.stdout
    print(json.dumps({"tvm": api.name}), file=out, flush=True)
    with _QuietStderr():
        for i, c in enumerate(op_cases.load(category)):
            if i < start:
                continue
            print(json.dumps({"begin": i}), file=out, flush=True)
            try:
                result = dsl.run_case(c, api)
            except dsl.Missing as ex:
                result = {"missing": str(ex)}
            print(json.dumps({"index": i, "result": result}), file=out, flush=True)


def record(category):
    """The JSON document of one category.  Cases run in a child interpreter; a case that
    crashes apache-tvm (a segfault inside libtvm) is recorded as stage "crash" with the
    signal, and the child restarts after it."""
    cases = op_cases.load(category)
    results, start, tvm_name = {}, 0, None
    while start < len(cases):
        proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--worker", category,
                               str(start)], capture_output=True, text=True)
        begun = None
        for line in proc.stdout.splitlines():
            msg = json.loads(line)
            if "tvm" in msg:
                tvm_name = msg["tvm"]
            elif "begin" in msg:
                begun = msg["begin"]
            else:
                results[msg["index"]] = msg["result"]
                begun = None
        if proc.returncode == 0:
            break
        if begun is None:
            raise SystemExit(f"{category}: the worker failed outside a case:\n{proc.stderr}")
        sig = -proc.returncode if proc.returncode < 0 else proc.returncode
        results[begun] = {"error": {"stage": "crash", "kind": f"signal {sig}", "text": ""}}
        start = begun + 1
    rows = []
    for i, c in enumerate(cases):
        result = results[i]
        if "missing" in result:
            raise SystemExit(f"{category}: apache-tvm has no {result['missing']} (case {c.key})")
        rows.append(dict(key=c.key, op=c.op, **result))
    return {"generator": "tools/tvm_op_cases.py", "tvm": tvm_name, "category": category,
            "cases": rows}


class _QuietStderr:
    """apache-tvm logs "BlockBuilder destroyed with remaining blocks!" on fd 2 for every case
    whose inference raised inside the function scope; hide that noise while cases run."""

    def __enter__(self):
        sys.stderr.flush()
        self.saved = os.dup(2)
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 2)
        os.close(null)

    def __exit__(self, *exc):
        os.dup2(self.saved, 2)
        os.close(self.saved)
        return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--category", action="append", choices=op_cases.CATEGORIES,
                    help="only this category (repeatable); default: all")
    ap.add_argument("--out", default=os.path.join(ROOT, "tests", "python", "data", "op_cases"))
    ap.add_argument("--worker", nargs=2, metavar=("CATEGORY", "START"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        return worker(args.worker[0], int(args.worker[1]))
    os.makedirs(args.out, exist_ok=True)
    for category in args.category or op_cases.CATEGORIES:
        doc = record(category)
        path = os.path.join(args.out, category + ".json")
        with open(path, "w") as f:
            json.dump(doc, f, indent=1, sort_keys=False)
            f.write("\n")
        errors = sum(1 for r in doc["cases"] if "error" in r)
        crashes = sum(1 for r in doc["cases"] if r.get("error", {}).get("stage") == "crash")
        print(f"{category}: {len(doc['cases'])} cases ({errors} errors, {crashes} crash "
              f"apache-tvm) -> "
              f"{os.path.relpath(path, ROOT)}")


if __name__ == "__main__":
    main()
