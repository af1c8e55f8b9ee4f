"""Every ONNX case imported by apache-tvm and by tether, compared.

The cases are the ones the `onnx` package ships (nothing is downloaded):
  node               onnx.backend.test.case.node.collect_testcases() (1884 models)
  node-init          the node cases with integer inputs, those inputs turned into initializers
                     holding the case's first input values (constant operands arriving as
                     initializers, as exporters write shapes, axes, indices; only the cases
                     where at least one input was turned)
  light              onnx/backend/test/data/light/*.onnx (9 CNNs)
  simple, pytorch-converted, pytorch-operator
                     onnx/backend/test/data/<group>/<case>/model.onnx
Each is imported with from_onnx(model) and default arguments.

Two steps, two interpreters:

    .venv-tvm/bin/python tools/onnx_diff.py record [--texts DIR]
        imports every case with apache-tvm 0.27 and writes tests/python/data/onnx/tvm_corpus.json:
        per case the sha256 and line count of the printed module, or what TVM raised (its
        exception type and first line), or "crash" when the process died.  --texts DIR also
        writes each printed module to DIR/<group>/<case>.txt, for diffing by hand.

    .venv/bin/python tools/onnx_diff.py compare [--texts DIR] [--group G] [-k SUBSTR]
                                                [--results FILE] [--show N]
        imports every case with tether, compares with the record and prints, per group:
          identical   TVM imports it and tether prints the same text
          different   TVM imports it and tether prints another text
          raised      TVM imports it and tether raises
          crashed     the process died (never acceptable)
          extra       TVM raises and tether imports it (the cases tether imports beyond TVM)
          both raise  neither imports it
        with --texts DIR (the directory `record --texts` wrote) the first differing line of each
        different case.  --results FILE writes the summary as Markdown
        (`make onnx-diff` writes bench/results/onnx_diff.md).  Exits 1 when a case crashed.

Each side runs its imports in a worker process and restarts it after a crash, so one case that
kills the interpreter is recorded as "crash" and the others still run.
"""
import argparse
import json
import os
import subprocess
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from onnx_common import sha256  # noqa: E402

RECORD = os.path.join(HERE, "..", "tests", "python", "data", "onnx", "tvm_corpus.json")
GROUPS = ("node", "node-init", "light", "simple", "pytorch-converted", "pytorch-operator")
# The worker's protocol lines start with this (anything else on its stdout is ignored).
MARK = "@onnx_diff@ "


# ---- the cases -------------------------------------------------------------------------------

def case_ids(onnx):
    """Every case id ("group/name"), in a stable order."""
    data = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data")
    ids = [f"node/{c.name}" for c in _node_cases()]
    ids += [f"node-init/{c.name}" for c in _node_cases() if _init_inputs(onnx, c)]
    ids += [f"light/{f[:-5]}" for f in sorted(os.listdir(os.path.join(data, "light")))
            if f.endswith(".onnx")]
    for group in GROUPS[3:]:
        root = os.path.join(data, group)
        ids += [f"{group}/{d}" for d in sorted(os.listdir(root))
                if os.path.exists(os.path.join(root, d, "model.onnx"))]
    return ids


_NODE = None


def _node_cases():
    global _NODE
    if _NODE is None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import numpy as np
            from onnx.backend.test.case.node import collect_testcases

            with np.errstate(all="ignore"):
                _NODE = sorted(collect_testcases(), key=lambda c: c.name)
    return _NODE


_INT_TYPES = None


def _init_inputs(onnx, case):
    """{input name: numpy value} of the node case's integer tensor inputs (the values of its
    first data set), the ones node-init turns into initializers."""
    global _INT_TYPES
    if _INT_TYPES is None:
        t = onnx.TensorProto
        _INT_TYPES = {t.INT8, t.INT16, t.INT32, t.INT64, t.UINT8, t.UINT16, t.UINT32, t.UINT64}
    import numpy as np

    if not case.data_sets:
        return {}
    values = case.data_sets[0][0]
    graph_inputs = list(case.model.graph.input)
    out = {}
    for info, value in zip(graph_inputs, values):
        if (info.type.HasField("tensor_type") and info.type.tensor_type.elem_type in _INT_TYPES
                and isinstance(value, np.ndarray)):
            out[info.name] = value
    return out


def _with_initializers(onnx, case):
    """node-init: the node case's model with its integer inputs as initializers."""
    from onnx import numpy_helper

    values = _init_inputs(onnx, case)
    model = onnx.ModelProto()
    model.CopyFrom(case.model)
    graph = model.graph
    kept = [i for i in graph.input if i.name not in values]
    del graph.input[:]
    graph.input.extend(kept)
    for name, value in values.items():
        graph.initializer.append(numpy_helper.from_array(value, name))
    return model


def load_case(onnx, case_id):
    """The ModelProto of a case id."""
    group, name = case_id.split("/", 1)
    if group in ("node", "node-init"):
        for c in _node_cases():
            if c.name == name:
                return c.model if group == "node" else _with_initializers(onnx, c)
        raise KeyError(case_id)
    data = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", group)
    if group == "light":
        return onnx.load(os.path.join(data, name + ".onnx"))
    return onnx.load(os.path.join(data, name, "model.onnx"))


# ---- the worker: imports cases, one JSON line per case -------------------------------------

def _from_onnx(side):
    if side == "tvm":
        from tvm.relax.frontend.onnx import from_onnx
    else:
        from tether.relax.frontend.onnx import from_onnx
    return from_onnx


def worker(side, ids, texts):
    import onnx

    from_onnx = _from_onnx(side)
    out = sys.stdout
    for case_id in ids:
        out.write(MARK + json.dumps({"start": case_id}) + "\n")
        out.flush()
        entry = {"id": case_id}
        try:
            model = load_case(onnx, case_id)
            entry["nodes"] = len(model.graph.node)
            t0 = time.perf_counter()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                mod = from_onnx(model)
                text = mod.script()
            entry["ms"] = round((time.perf_counter() - t0) * 1e3, 2)
            entry["sha256"] = sha256(text)
            entry["lines"] = text.count("\n") + 1
            if texts:
                path = os.path.join(texts, case_id + ".txt")
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)
        except BaseException as err:  # what the importer raised is the result
            msg = str(err).strip().splitlines()
            entry["raises"] = type(err).__name__
            entry["message"] = msg[0][:300] if msg else ""
        out.write(MARK + json.dumps(entry) + "\n")
        out.flush()


def run_all(side, ids, texts, progress=True):
    """{case id: entry} for ids, imported in worker processes (restarted after a crash)."""
    results = {}
    todo = list(ids)
    while todo:
        cmd = [sys.executable, os.path.abspath(__file__), "worker", "--side", side]
        if texts:
            cmd += ["--texts", texts]
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
        proc.stdin.write("\n".join(todo))
        proc.stdin.close()
        started = None
        for line in proc.stdout:
            if not line.startswith(MARK):  # what the importers print themselves
                continue
            msg = json.loads(line[len(MARK):])
            if "start" in msg:
                started = msg["start"]
                continue
            results[msg["id"]] = msg
            started = None
            if progress and len(results) % 200 == 0:
                print(f"  {len(results)} / {len(ids)}", file=sys.stderr, flush=True)
        rc = proc.wait()
        if started is not None:
            results[started] = {"id": started, "crash": rc}
        todo = [i for i in todo if i not in results]
        if started is None and todo:  # the worker stopped without starting a case
            for i in todo:
                results[i] = {"id": i, "crash": rc}
            todo = []
    return results


# ---- record and compare ----------------------------------------------------------------------

def record(args):
    import onnx
    import tvm

    ids = case_ids(onnx)
    results = run_all("tvm", ids, args.texts)
    cases = {}
    for i in ids:
        e = results[i]
        cases[i] = {k: e[k] for k in ("sha256", "lines", "nodes", "raises", "message", "crash")
                    if k in e}
    doc = {"tvm": tvm.__version__, "onnx": onnx.__version__, "cases": cases}
    with open(args.record, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=0, sort_keys=True)
        f.write("\n")
    ok = sum(1 for e in cases.values() if "sha256" in e)
    print(f"recorded {len(cases)} cases, TVM imports {ok}: {args.record}")
    return 0


def classify(tvm, ours):
    if "crash" in ours:
        return "crashed"
    if "sha256" in tvm:
        if "sha256" not in ours:
            return "raised"
        return "identical" if ours["sha256"] == tvm["sha256"] else "different"
    return "extra" if "sha256" in ours else "both raise"


KINDS = ("identical", "different", "raised", "crashed", "extra", "both raise")


def first_difference(ours_text, want_text):
    a, b = ours_text.split("\n"), want_text.split("\n")
    for n, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return n + 1, x, y
    return min(len(a), len(b)) + 1, "<end>" if len(a) < len(b) else a[len(b)], "<end>"


def compare(args):
    import onnx

    with open(args.record, encoding="utf-8") as f:
        rec = json.load(f)
    ids = [i for i in rec["cases"]
           if (not args.group or i.split("/")[0] in args.group)
           and (not args.k or any(k in i for k in args.k))]
    ours_dir = None
    if args.texts:
        ours_dir = os.path.join(args.texts, "_tether")
    t0 = time.perf_counter()
    results = run_all("tether", ids, ours_dir)
    wall = time.perf_counter() - t0
    table = {g: dict.fromkeys(KINDS, 0) for g in GROUPS}
    by_kind = {k: [] for k in KINDS}
    for i in ids:
        kind = classify(rec["cases"][i], results[i])
        table[i.split("/")[0]][kind] += 1
        by_kind[kind].append(i)

    lines = [f"| group | cases | TVM imports | {' | '.join(KINDS)} |",
             "|---|" + "---:|" * (len(KINDS) + 2)]
    total = dict.fromkeys(KINDS, 0)
    for g in GROUPS:
        row = table[g]
        n = sum(row.values())
        if not n:
            continue
        tvm_ok = row["identical"] + row["different"] + row["raised"] + row["crashed"]
        lines.append(f"| {g} | {n} | {tvm_ok} | " + " | ".join(str(row[k]) for k in KINDS) + " |")
        for k in KINDS:
            total[k] += row[k]
    n = sum(total.values())
    lines.append(f"| all | {n} | {sum(1 for i in ids if 'sha256' in rec['cases'][i])} | "
                 + " | ".join(str(total[k]) for k in KINDS) + " |")
    print("\n".join(lines))
    print(f"({len(ids)} cases in {wall:.1f} s; TVM record: apache-tvm {rec['tvm']}, "
          f"onnx {rec['onnx']})")

    for kind in ("crashed", "raised", "different"):
        shown = by_kind[kind][:args.show]
        if not shown:
            continue
        print(f"\n{kind} ({len(by_kind[kind])}):")
        for i in shown:
            e = results[i]
            if kind == "raised":
                print(f"  {i}: {e['raises']}: {e['message'][:160]}")
            elif kind == "crashed":
                print(f"  {i}: exit {e['crash']}")
            else:
                where = ""
                want = os.path.join(args.texts or "", i + ".txt")
                if args.texts and os.path.exists(want):
                    with open(want, encoding="utf-8") as f, \
                            open(os.path.join(ours_dir, i + ".txt"), encoding="utf-8") as g:
                        ln, x, y = first_difference(g.read(), f.read())
                    where = f"\n      line {ln}\n      tether: {x.strip()}\n      TVM:    {y.strip()}"
                print(f"  {i}{where}")
    if args.list:
        with open(args.list, "w", encoding="utf-8") as f:
            json.dump({k: v for k, v in by_kind.items()}, f, indent=1)
    if args.results:
        with open(args.results, "w", encoding="utf-8") as f:
            f.write("# ONNX cases: tether's from_onnx against apache-tvm's\n\n"
                    "Every case the `onnx` package ships, imported with default arguments; "
                    "regenerated by `make onnx-diff` (tools/onnx_diff.py).\n"
                    f"apache-tvm {rec['tvm']}, onnx {rec['onnx']}.\n\n")
            f.write("\n".join(lines) + "\n\n")
            f.write("- identical: TVM imports the case and tether prints the same text.\n"
                    "- different: both import it, the texts differ.\n"
                    "- raised: TVM imports it, tether raises.\n"
                    "- extra: TVM raises, tether imports it.\n")
            for kind in ("different", "raised", "crashed"):
                if by_kind[kind]:
                    f.write(f"\n## {kind} ({len(by_kind[kind])})\n\n")
                    for i in by_kind[kind]:
                        e = results[i]
                        why = f": {e['raises']}: {e['message'][:160]}" if "raises" in e else ""
                        f.write(f"- {i}{why}\n")
    return 1 if by_kind["crashed"] else 0


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record")
    r.add_argument("--texts")
    r.add_argument("--record", default=RECORD)
    c = sub.add_parser("compare")
    c.add_argument("--texts")
    c.add_argument("--record", default=RECORD)
    c.add_argument("--group", action="append")
    c.add_argument("-k", action="append", help="only case ids containing this text")
    c.add_argument("--results")
    c.add_argument("--list", help="write the case ids of each kind to this JSON file")
    c.add_argument("--show", type=int, default=40)
    w = sub.add_parser("worker")
    w.add_argument("--side", choices=("tvm", "tether"), required=True)
    w.add_argument("--texts")
    args = ap.parse_args(argv[1:])
    if args.cmd == "worker":
        ids = [line.strip() for line in sys.stdin if line.strip()]
        worker(args.side, ids, args.texts)
        return 0
    return record(args) if args.cmd == "record" else compare(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
