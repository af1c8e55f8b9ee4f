"""bench_json.py -- save_json / load_json of Relax modules: tether next to apache-tvm 0.27, same run.

What is measured, on both sides, with the same Python code (only the imports differ):
  1. `chain`: the 10,000-op add chain (y = add(y, x), one dataflow block; x: float32 [2, 3]);
  2. `mixed` (unless --chain-only): 10,000 bindings cycling through an add of a 1x16x8x8
     float32 constant, a conv2d (attrs), a Tuple, a TupleGetItem and a reshape (ShapeExpr);
for each: the text of `save_json(mod)` (tether: tether.ir.save_json when present, else
tether.serialization.to_json_graph_str; apache-tvm: tvm.ir.save_json) and `load_json(text)`,
timed separately (thread CPU time, best of --reps per round, --rounds rounds alternating
between the sides, each side in its own interpreter), and the memory of one round trip
(`text = save_json(mod); back = load_json(text)`) in a fresh process: the growth of the
process's peak resident set (VmHWM after the round trip minus VmRSS before it, with the peak
reset through /proc/self/clear_refs just before), the same way on both sides.  Each side also
checks its own round trip: the module read back is structurally equal to the one written,
and writing it again gives the same text.

Target (issue 9): save and load at least 10x faster than apache-tvm's, round-trip memory at
most apache-tvm's.

    python bench/python/bench_json.py                 # writes bench/results/json.md
    python bench/python/bench_json.py --quick         # 1 round, chain only
    python bench/python/bench_json.py --tvm-python /path/to/venv/bin/python

apache-tvm 0.27.0.post1's save_json needs apache-tvm-ffi 0.1.14.post1 (under 0.1.15.post2 it
crashes on any object with a DataType field), so the apache-tvm side runs in its own venv:
--tvm-python (or $BENCH_TVM_PYTHON, or $TETHER_TVM_PYTHON), else the repository's .venv-tvm
when it exists, else bench/python/build/venv-tvm-json, created on first use with
`pip install apache-tvm==0.27.0.post1 apache-tvm-ffi==0.1.14.post1 numpy`.  Run it
with a Python that has tether installed (e.g. .venv/bin/python after `make venv`; `make
bench-json` does both).
"""
import argparse
import gc
import json
import os
import re
import subprocess
import sys
import time

import machine  # bench/python/machine.py

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TVM_REQUIREMENTS = ["apache-tvm==0.27.0.post1", "apache-tvm-ffi==0.1.14.post1", "numpy"]
N_OPS = 10_000
MODULES = ("chain", "mixed")


# ---- the worker: runs inside one side's interpreter ------------------------------------------

def _import(side):
    if side == "tvm":
        import tvm
        from tvm import relax
        return relax, tvm.ir.save_json, tvm.ir.load_json, tvm.ir.assert_structural_equal, \
            "apache-tvm " + tvm.__version__
    import tether
    from tether import relax
    from tether import serialization
    save = getattr(tether.ir, "save_json", serialization.to_json_graph_str)
    load = getattr(tether.ir, "load_json", serialization.from_json_graph_str)
    return relax, save, load, tether.ir.assert_structural_equal, "tether " + tether.__version__


def _build(relax, which, n_ops):
    bb = relax.BlockBuilder()
    if which == "chain":
        x = relax.Var("x", relax.TensorType([2, 3], "float32"))
        with bb.function("main", [x]):
            with bb.dataflow():
                y = x
                for _ in range(n_ops):
                    y = bb.emit(relax.op.add(y, x))
                out = bb.emit_output(y)
            bb.emit_func_output(out)
        return bb.get()
    import numpy as np
    x = relax.Var("x", relax.TensorType([1, 16, 8, 8], "float32"))
    w = relax.Var("w", relax.TensorType([16, 16, 3, 3], "float32"))
    with bb.function("main", [x, w]):
        with bb.dataflow():
            cur = x
            tup = None
            for i in range(n_ops):
                k = i % 5
                if k == 0:
                    c = relax.const(np.full((1, 16, 8, 8), float(i % 7), "float32"))
                    cur = bb.emit(relax.op.add(cur, c))
                elif k == 1:
                    cur = bb.emit(relax.op.nn.conv2d(cur, w, padding=1))
                elif k == 2:
                    tup = bb.emit(relax.Tuple([cur, x]))
                elif k == 3:
                    cur = bb.emit(relax.TupleGetItem(tup, 0))
                else:
                    cur = bb.emit(relax.op.reshape(cur, [1, 16, 64]))
                    cur = bb.emit(relax.op.reshape(cur, [1, 16, 8, 8]))
            out = bb.emit_output(cur)
        bb.emit_func_output(out)
    return bb.get()


def worker_timings(side, which, reps):
    relax, save, load, assert_equal, label = _import(side)
    mod = _build(relax, which, N_OPS)
    text = save(mod)  # warm up, and check the round trip once
    back = load(text)
    assert_equal(mod, back)
    same_text = save(back) == text
    del back
    gc.collect()
    gc.disable()
    best_save = best_load = None
    for _ in range(reps):
        t0 = time.thread_time_ns()
        text = save(mod)
        t1 = time.thread_time_ns()
        back = load(text)
        t2 = time.thread_time_ns()
        del back
        best_save = t1 - t0 if best_save is None else min(best_save, t1 - t0)
        best_load = t2 - t1 if best_load is None else min(best_load, t2 - t1)
    gc.enable()
    nodes = len(json.loads(text)["nodes"])
    return {"label": label, "save_s": best_save / 1e9, "load_s": best_load / 1e9,
            "text_bytes": len(text), "nodes": nodes, "same_text": same_text}


def _status_kb(field):
    with open("/proc/self/status") as f:
        return int(re.search(field + r":\s+(\d+) kB", f.read()).group(1))


def worker_memory(side, which):
    relax, save, load, _, label = _import(side)
    mod = _build(relax, which, N_OPS)
    gc.collect()
    before = _status_kb("VmRSS")
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")  # reset VmHWM to the current RSS
    text = save(mod)
    back = load(text)
    peak = _status_kb("VmHWM")
    del back, text
    return {"label": label, "round_trip_kb": peak - before}


def worker_instructions(side, which, stage, n_ops):
    """Builds the module; then nothing, save, or save and load (the callgrind bodies)."""
    relax, save, load, _, _ = _import(side)
    mod = _build(relax, which, n_ops)
    if stage != "build":
        text = save(mod)
        if stage == "both":
            load(text)
    return {}


# ---- the driver ------------------------------------------------------------------------------------

def ensure_tvm_python(path):
    path = path or os.environ.get("TETHER_TVM_PYTHON")
    if path:
        return path
    shared = os.path.join(ROOT, ".venv-tvm", "bin", "python")  # `make venv-tvm`, where it exists
    if os.path.exists(shared):
        return shared
    venv = os.path.join(HERE, "build", "venv-tvm-json")  # build*/ is git-ignored
    py = os.path.join(venv, "bin", "python")
    stamp = os.path.join(venv, ".installed")
    want = "\n".join(TVM_REQUIREMENTS) + "\n"
    if not os.path.exists(stamp) or open(stamp).read() != want:
        if not os.path.exists(py):
            print(f"[bench-json] creating {venv}", flush=True)
            subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        print(f"[bench-json] pip install {' '.join(TVM_REQUIREMENTS)}", flush=True)
        subprocess.run([py, "-m", "pip", "install", "-q", *TVM_REQUIREMENTS], check=True)
        with open(stamp, "w") as f:
            f.write(want)
    return py


def run_worker(python, side, case, which, reps, *extra, valgrind=False):
    cmd = [python, os.path.abspath(__file__), "--worker", side, "--case", case, "--module", which,
           "--reps", str(reps), *extra]
    if valgrind:
        cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + cmd
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{side} worker {case} {which} failed:\n{proc.stderr[-4000:]}")
    if valgrind:
        for line in proc.stderr.splitlines():
            if "refs:" in line:
                return int(line.split(":")[1].strip().replace(",", ""))
        raise RuntimeError("callgrind printed no instruction count:\n" + proc.stderr[-2000:])
    return json.loads(proc.stdout.strip().splitlines()[-1])


def fmt_s(s):
    return f"{s * 1000:.1f} ms" if s < 1 else f"{s:.2f} s"


def fmt_kb(kb):
    return f"{kb / 1024:.1f} MiB"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--worker", choices=["tether", "tvm"])
    ap.add_argument("--case", default="timings", choices=["timings", "memory", "instructions"])
    ap.add_argument("--stage", default="both", choices=["build", "save", "both"])
    ap.add_argument("--callgrind", action="store_true",
                    help="also count instructions under callgrind (slow for apache-tvm)")
    ap.add_argument("--callgrind-ops", type=int, default=2000)
    ap.add_argument("--module", default="chain", choices=MODULES)
    ap.add_argument("--tvm-python", default=os.environ.get("BENCH_TVM_PYTHON"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--chain-only", action="store_true")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results", "json.md"))
    args = ap.parse_args()

    if args.worker:
        if args.case == "timings":
            res = worker_timings(args.worker, args.module, args.reps)
        elif args.case == "memory":
            res = worker_memory(args.worker, args.module)
        else:
            res = worker_instructions(args.worker, args.module, args.stage, args.callgrind_ops)
        print(json.dumps(res))
        return

    if args.quick:
        args.rounds = 1
        args.chain_only = True
    modules = ("chain",) if args.chain_only else MODULES
    tvm_py = ensure_tvm_python(args.tvm_python)
    sides = {"tether": sys.executable, "tvm": tvm_py}
    best = {(s, m): {} for s in sides for m in modules}
    mem = {(s, m): [] for s in sides for m in modules}
    labels = {}
    for r in range(args.rounds):
        for which in modules:
            for side, py in sides.items():
                print(f"[bench-json] round {r + 1}/{args.rounds}: {which}, {side}", flush=True)
                res = run_worker(py, side, "timings", which, args.reps)
                labels[side] = res.pop("label")
                b = best[(side, which)]
                for k, v in res.items():
                    b[k] = min(v, b.get(k, v)) if k.endswith("_s") else v
                res = run_worker(py, side, "memory", which, 1)
                mem[(side, which)].append(res["round_trip_kb"])

    instr = {}
    if args.callgrind:
        for side, py in sides.items():
            print(f"[bench-json] {side}: instructions under callgrind (chain of "
                  f"{args.callgrind_ops:,} ops)", flush=True)
            counts = {stage: run_worker(py, side, "instructions", "chain", 1, "--stage", stage,
                                        "--callgrind-ops", str(args.callgrind_ops), valgrind=True)
                      for stage in ("build", "save", "both")}
            instr[side] = {"save": counts["save"] - counts["build"],
                           "load": counts["both"] - counts["save"]}

    rows = []
    for which in modules:
        t, v = best[("tether", which)], best[("tvm", which)]
        tm = sorted(mem[("tether", which)])[len(mem[("tether", which)]) // 2]
        vm = sorted(mem[("tvm", which)])[len(mem[("tvm", which)]) // 2]
        for op, key in (("save_json", "save_s"), ("load_json", "load_s")):
            ratio = v[key] / t[key]
            rows.append((which, op, fmt_s(t[key]), fmt_s(v[key]), f"{ratio:.1f}x",
                         "yes" if ratio >= 10 else "no"))
        rows.append((which, "round-trip memory (peak RSS growth)", fmt_kb(tm), fmt_kb(vm),
                     f"{vm / tm:.2f}x" if tm > 0 else "-", "yes" if tm <= vm else "no"))
    lines = [
        "# save_json / load_json: tether vs apache-tvm",
        "",
        f"`{labels['tether']}` (this tree) and `{labels['tvm']}` (PyPI, with apache-tvm-ffi "
        "0.1.14.post1), same run, same Python code, each side in its own interpreter.",
        machine.describe(),
        f"Times: thread CPU time, best of {args.reps} x {args.rounds} alternating round(s).  "
        "Memory: growth of the process's peak RSS over one round trip "
        "(`text = save_json(mod); back = load_json(text)`; VmHWM after minus VmRSS before, the "
        "peak reset through /proc/self/clear_refs), in a fresh process, median of the rounds.  "
        "Ratio = apache-tvm / tether.  Target (issue 9): save and load >= 10x faster, "
        "round-trip memory <= apache-tvm's.",
        "",
        "| module | measurement | tether | apache-tvm | ratio | target met |",
        "|---|---|---:|---:|---:|:---:|",
    ]
    lines += [f"| {' | '.join(r)} |" for r in rows]
    if instr:
        t, v = instr["tether"], instr["tvm"]
        lines += ["", f"Instructions (callgrind; the machine's load cannot move them), a chain of "
                  f"{args.callgrind_ops:,} ops: a run that builds the module and saves it minus one "
                  "that only builds it, and a run that also loads the text minus the one that saves:",
                  "", "| measurement | tether | apache-tvm | ratio |", "|---|---:|---:|---:|"]
        for op in ("save", "load"):
            lines.append(f"| {op}_json | {t[op] / 1e6:,.1f} M | {v[op] / 1e6:,.1f} M | "
                         f"{v[op] / t[op]:.1f}x |")
    lines += ["", "| module | side | JSON text | nodes | written again after reading: same text |",
              "|---|---|---:|---:|:---:|"]
    for which in modules:
        for side in sides:
            b = best[(side, which)]
            lines.append(f"| {which} | {labels[side]} | {b['text_bytes']:,} bytes | "
                         f"{b['nodes']:,} | {'yes' if b['same_text'] else 'no'} |")
    lines += [
        "",
        "Modules (10,000 bindings each, one dataflow block): `chain` = `y = add(y, x)` with x: "
        "float32 [2, 3]; `mixed` = cycling through add of a 1x16x8x8 constant, conv2d "
        "(padding 1), Tuple, TupleGetItem, reshape to [1, 16, 64] and back.  Each side's module "
        "read back is structurally equal to the one written (checked before timing).",
        "",
        "Command: `make bench-json` (or `python bench/python/bench_json.py "
        "[--tvm-python PY] [--callgrind]` with tether installed)" +
        (", with --callgrind." if instr else "."),
        "",
    ]
    machine.write_report("\n".join(lines), args.out, "bench-json")


if __name__ == "__main__":
    main()
