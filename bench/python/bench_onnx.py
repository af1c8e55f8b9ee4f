"""bench_onnx.py -- from_onnx: tether next to apache-tvm 0.27, same run, same model files.

For each model (the 9 light_* CNNs the `onnx` package ships, plus every .onnx file of
--extra DIR: by default build/onnx-models, the torchvision / torch.nn exports of
tools/onnx_numerics.py, when it exists), each side imports the same file with its own
`from_onnx(model)` (default arguments) in its own interpreter (a worker process that loads
the model with onnx.load once, imports it once to warm up, then times the imports it is asked
for).  Every model gets a fresh worker on each side: what earlier models leave in a process's
heap must not decide how a later one is measured (glibc's malloc moves its mmap and trim
thresholds with the blocks a process frees; after the light models, a worker that went on to
resnet18 returned its 44 MB of weights to the kernel at every import and page-faulted them
back at the next, on both sides, while a fresh worker reuses them).  The warm-up import, each
side's first import of the model in its fresh process, is reported too (the first ms
columns).  Each side imports the model --runs times back to back, in --rounds rounds that
alternate the sides (and which side goes first), so that both see the same machine load, and
neither runs right after the other has emptied the CPU caches at every import.  The rounds are
many and short (7 rounds of about 0.12 s of the slower side's imports by default): a shared
machine's speed moves in spells of a second or so (one process importing the same model
back to back took 400 us an import for a second, then 700 us), and short alternating rounds
let both sides sample the same spells.  The times are the
medians of the --runs x --rounds imports, wall clock (time.perf_counter) and CPU time
(time.process_time: the process's, all threads).  The ratio is paired by round: apache-tvm's
median over tether's within each round (the two sides' runs of a round are next to each other
in time), then the median over the rounds.  Per model: ONNX nodes, the bindings of the module
(both sides build the same module: their binding counts are checked to agree), tether ms,
apache-tvm ms, the ratio apache-tvm / tether; then the geometric mean of the ratios.

Memory, measured the same way on both sides, for one import in a fresh process (after
onnx.load and a warm-up import of a small Conv/Relu model, so that lazily loaded code is not
counted): the growth of the process's peak resident set (VmHWM after the import minus VmRSS
before it, the peak reset through /proc/self/clear_refs just before), and, in another fresh
process (tracemalloc's own bookkeeping would count in the resident set), the peak of the
Python-level allocations traced by tracemalloc (numpy arrays included; C allocations that do
not go through Python's allocator are not, on either side).

Target (issue 11): from_onnx at least 20x faster than apache-tvm's (geometric mean over the
models), memory no more than apache-tvm's.

    python bench/python/bench_onnx.py                 # writes bench/results/onnx.md
    python bench/python/bench_onnx.py --quick         # 3 runs, no memory, no file written
    python bench/python/bench_onnx.py --extra DIR --runs 11 --tvm-python PY

apache-tvm runs in its own interpreter: --tvm-python (or $TETHER_TVM_PYTHON), else the
repository's .venv-tvm (`make venv-tvm`).  Run this script with a Python that has tether and
onnx (`make bench-onnx` uses .venv).
"""
import argparse
import gc
import json
import math
import os
import re
import statistics
import subprocess
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import machine  # noqa: E402  (bench/python/machine.py)

TARGET = 20.0


# ---- the worker: runs inside one side's interpreter ------------------------------------------

def _side(side):
    """(from_onnx, label) of a side."""
    if side == "tvm":
        import tvm
        from tvm.relax.frontend.onnx import from_onnx
        return from_onnx, "apache-tvm " + tvm.__version__
    import tether
    from tether.relax.frontend.onnx import from_onnx
    return from_onnx, "tether " + tether.__version__


def _bindings(mod):
    """The number of bindings of main (the same count on both sides)."""
    return sum(len(block.bindings) for block in mod["main"].body.blocks)


def _small_model():
    """A Conv + Relu model, for warming up the code paths of a fresh process."""
    import numpy as np
    import onnx
    from onnx import helper, numpy_helper

    w = numpy_helper.from_array(np.ones((4, 3, 3, 3), "float32"), "w")
    graph = helper.make_graph(
        [helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]),
         helper.make_node("Relu", ["c"], ["y"])], "warm",
        [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [1, 3, 8, 8])],
        [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [1, 4, 8, 8])], [w])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


def _status_kb(field):
    with open("/proc/self/status") as f:
        return int(re.search(field + r":\s+(\d+) kB", f.read()).group(1))


def worker_imports(side, path, n):
    """Loads path and imports it n times (the body of a callgrind run)."""
    import onnx

    from_onnx, _ = _side(side)
    warnings.simplefilter("ignore")
    model = onnx.load(path)
    for _ in range(n):
        from_onnx(model)


def callgrind_instructions(python, side, path):
    """Instructions of one import under callgrind: (a process importing three times minus one
    importing once) / 2 -- the interpreter's start-up, the imports of the libraries, onnx.load
    and the first import's one-time work cancel out (PYTHONHASHSEED fixed, so that both
    processes start the same way)."""
    counts = []
    env = dict(os.environ, PYTHONHASHSEED="0")
    for n in (1, 3):
        proc = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                               python, os.path.abspath(__file__), "--worker", side,
                               "--imports", str(n), path], capture_output=True, text=True,
                              env=env)
        refs = [line for line in proc.stderr.splitlines() if "refs:" in line]
        if proc.returncode != 0 or not refs:
            raise RuntimeError(f"callgrind {side} {path}:\n{proc.stderr[-2000:]}")
        counts.append(int(refs[-1].split(":")[1].strip().replace(",", "")))
    return (counts[1] - counts[0]) // 2


def worker(side):
    """Reads commands (JSON lines) from stdin, answers each with one JSON line:
    {"load": path} -> nodes and bindings; {"time": n} -> n timed imports of the loaded model;
    {"memory": path} -> the memory of one import (meant for a fresh process)."""
    import onnx

    from_onnx, label = _side(side)
    warnings.simplefilter("ignore")
    out = sys.stdout
    model = None
    for line in sys.stdin:
        cmd = json.loads(line)
        if "load" in cmd:
            model = onnx.load(cmd["load"])
            res = {"label": label, "nodes": len(model.graph.node)}
            try:
                t0 = time.perf_counter()
                mod = from_onnx(model)  # warm up, and count
                res["warm_s"] = time.perf_counter() - t0
                res["bindings"] = _bindings(mod)
                del mod
                t0 = time.perf_counter()
                from_onnx(model)  # a warm import's time sizes the runs
                res["probe_s"] = time.perf_counter() - t0
            except Exception as err:  # noqa: BLE001 -- reported in the table
                res["error"] = f"{type(err).__name__}: {str(err).splitlines()[0][:200]}"
        elif "time" in cmd:
            wall, cpu = [], []
            for _ in range(cmd["time"]):
                t0, c0 = time.perf_counter(), time.process_time()
                mod = from_onnx(model)
                wall.append(time.perf_counter() - t0)
                cpu.append(time.process_time() - c0)
                del mod
            res = {"wall": wall, "cpu": cpu}
        elif "memory" in cmd:  # a fresh process: the growth of the peak resident set
            model = onnx.load(cmd["memory"])
            from_onnx(_small_model())
            gc.collect()
            before = _status_kb("VmRSS")
            with open("/proc/self/clear_refs", "w") as f:
                f.write("5")  # reset VmHWM to the current RSS
            mod = from_onnx(model)
            peak = _status_kb("VmHWM")
            del mod
            res = {"rss_kb": peak - before}
        else:  # a fresh process: the peak of tracemalloc's traced allocations (its own
            # bookkeeping, tens of bytes per live allocation, would inflate the RSS above)
            import tracemalloc

            model = onnx.load(cmd["traced"])
            from_onnx(_small_model())
            gc.collect()
            tracemalloc.start()
            mod = from_onnx(model)
            traced = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            del mod
            res = {"traced_kb": traced / 1024}
        out.write(json.dumps(res) + "\n")
        out.flush()


# ---- the driver ------------------------------------------------------------------------------

class Worker:
    """A side's worker process, driven through its stdin/stdout."""

    def __init__(self, python, side):
        env = dict(os.environ)
        env["PYTHONWARNINGS"] = "ignore"
        self.side = side
        self.proc = subprocess.Popen([python, os.path.abspath(__file__), "--worker", side],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                     env=env)

    def ask(self, **cmd):
        self.proc.stdin.write(json.dumps(cmd) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the {self.side} worker stopped (exit {self.proc.wait()}) on "
                               f"{cmd}")
        return json.loads(line)

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def tvm_python(path):
    path = path or os.environ.get("TETHER_TVM_PYTHON")
    if path:
        return path
    shared = os.path.join(ROOT, ".venv-tvm", "bin", "python")
    if os.path.exists(shared):
        return shared
    sys.exit("bench_onnx: no apache-tvm interpreter: pass --tvm-python, set TETHER_TVM_PYTHON "
             "or run `make venv-tvm`")


def light_models():
    import onnx

    light = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "light")
    return [os.path.join(light, f) for f in sorted(os.listdir(light)) if f.endswith(".onnx")]


# Timed imports per model, side and round, unless --runs says: about RUN_BUDGET_S seconds of the
# slower side's imports, within [MIN_RUNS, MAX_RUNS] (a model imported in milliseconds gets
# enough samples for its median to hold still on a noisy machine).
RUN_BUDGET_S, MIN_RUNS, MAX_RUNS = 0.12, 3, 30


def runs_for(seconds):
    """The imports per round for a model whose second import took `seconds`."""
    return max(MIN_RUNS, min(MAX_RUNS, math.ceil(RUN_BUDGET_S / max(seconds, 1e-6))))


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--worker", choices=["tether", "tvm"])
    ap.add_argument("--tvm-python")
    ap.add_argument("--runs", type=int, default=None,
                    help="timed imports per model, side and round (default: as many as take "
                         f"about {RUN_BUDGET_S} s on the slower side, {MIN_RUNS} to {MAX_RUNS}: "
                         "the same count on both sides)")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--extra", action="append", default=[],
                    help="a directory of more .onnx models (default: build/onnx-models, where "
                         "tools/onnx_numerics.py exports the torch models, when it exists)")
    ap.add_argument("--model", action="append", default=[], help="only models named so")
    ap.add_argument("--no-memory", action="store_true")
    ap.add_argument("--callgrind", action="append", default=[], metavar="MODEL",
                    help="also count the instructions of one import of MODEL on both sides "
                         "under callgrind (load-independent; minutes for apache-tvm)")
    ap.add_argument("--imports", nargs=2, metavar=("N", "PATH"), help=argparse.SUPPRESS)
    ap.add_argument("--quick", action="store_true", help="3 runs, no memory, no file written")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results", "onnx.md"))
    args = ap.parse_args()
    if args.worker:
        if args.imports:
            worker_imports(args.worker, args.imports[1], int(args.imports[0]))
        else:
            worker(args.worker)
        return
    if args.quick:
        args.runs, args.rounds, args.no_memory, args.out = 3, 1, True, None

    paths = light_models()
    default_extra = os.path.join(ROOT, "build", "onnx-models")
    if not args.extra and os.path.isdir(default_extra):
        args.extra = [default_extra]
    for d in args.extra:
        if os.path.isdir(d):
            paths += [os.path.join(d, f) for f in sorted(os.listdir(d)) if f.endswith(".onnx")]
        else:
            print(f"[bench-onnx] --extra {d}: not a directory, skipped", file=sys.stderr)
    if args.model:
        paths = [p for p in paths if os.path.basename(p)[:-5] in args.model]
    pythons = {"tether": sys.executable, "tvm": tvm_python(args.tvm_python)}
    rows, labels, skipped = [], {}, []
    for path in paths:  # each model in a fresh worker per side (see the docstring)
        workers = {side: Worker(py, side) for side, py in pythons.items()}
        try:
            name = os.path.basename(path)[:-5]
            info = {side: w.ask(load=path) for side, w in workers.items()}
            for side in workers:
                labels[side] = info[side]["label"]
            errors = {side: info[side]["error"] for side in workers if "error" in info[side]}
            if errors:
                print(f"[bench-onnx] {name}: not timed: {errors}", flush=True)
                skipped.append((name, info["tether"]["nodes"], errors))
                continue
            runs = args.runs or runs_for(max(i["probe_s"] for i in info.values()))
            times = {side: {"wall": [], "cpu": []} for side in workers}
            paired = {"wall": [], "cpu": []}  # per round: apache-tvm's median / tether's
            order = list(workers.items())
            for r in range(args.rounds):  # rounds alternate the sides (and which goes first)
                got = {side: w.ask(time=runs)
                       for side, w in (order if r % 2 == 0 else order[::-1])}
                for side, res in got.items():
                    times[side]["wall"] += res["wall"]
                    times[side]["cpu"] += res["cpu"]
                for k in paired:
                    paired[k].append(statistics.median(got["tvm"][k])
                                     / statistics.median(got["tether"][k]))
            med = {(side, k): statistics.median(v) * 1e3
                   for side, t in times.items() for k, v in t.items()}
            row = {"name": name, "path": path, "nodes": info["tether"]["nodes"], "runs": runs,
                   **{f"ratio_{k}": statistics.median(v) for k, v in paired.items()},
                   "bindings": info["tether"]["bindings"],
                   **{f"{s}_first": info[s]["warm_s"] * 1e3 for s in workers},
                   "tvm_bindings": info["tvm"]["bindings"], **{f"{s}_{k}": v
                                                              for (s, k), v in med.items()}}
            print(f"[bench-onnx] {name}: tether {row['tether_wall']:.1f} ms "
                  f"({row['tether_cpu']:.1f} CPU), apache-tvm {row['tvm_wall']:.1f} ms "
                  f"({row['tvm_cpu']:.1f} CPU): {row['ratio_wall']:.1f}x / "
                  f"{row['ratio_cpu']:.1f}x", flush=True)
            rows.append(row)
        finally:
            for w in workers.values():
                w.close()

    if not args.no_memory:
        for row in rows:
            path = row["path"]
            for side, py in pythons.items():
                for what in ("memory", "traced"):  # each in a fresh process
                    w = Worker(py, side)
                    try:
                        res = w.ask(**{what: path})
                    finally:
                        w.close()
                    row.update({f"{side}_{k[:-3]}": v for k, v in res.items()})
            print(f"[bench-onnx] {row['name']}: memory tether {row['tether_rss'] / 1024:.1f} "
                  f"MiB RSS / {row['tether_traced'] / 1024:.1f} MiB traced, apache-tvm "
                  f"{row['tvm_rss'] / 1024:.1f} / {row['tvm_traced'] / 1024:.1f}", flush=True)

    instr = []
    for name in args.callgrind:
        path = next((p for p in paths if os.path.basename(p)[:-5] == name), None)
        if path is None:
            sys.exit(f"bench_onnx: --callgrind {name}: no such model")
        counts = {side: callgrind_instructions(py, side, path) for side, py in pythons.items()}
        print(f"[bench-onnx] {name}: {counts['tether'] / 1e6:.1f} M instructions per import, "
              f"apache-tvm {counts['tvm'] / 1e6:.1f} M", flush=True)
        instr.append((name, counts))
    args.instr = instr

    report = render(rows, skipped, labels, args)
    if args.out:
        machine.write_report(report, args.out, "bench-onnx")
    else:
        print(report)


def render(rows, skipped, labels, args):
    mem = not args.no_memory
    runs_text = (f"{args.runs} imports" if args.runs else
                 f"as many imports as take about {RUN_BUDGET_S} s on the slower side, {MIN_RUNS} "
                 f"to {MAX_RUNS}, the same count on both sides")
    head = "| model | ONNX nodes | bindings | runs | tether ms | apache-tvm ms | ratio | " \
           "tether CPU ms | apache-tvm CPU ms | CPU ratio | tether first ms | " \
           "apache-tvm first ms |"
    if mem:
        head += " tether peak RSS growth | apache-tvm peak RSS growth | tether traced peak " \
                "| apache-tvm traced peak |"
    lines = [
        "# from_onnx: tether vs apache-tvm",
        "",
        f"`{labels['tether']}` (this tree) and `{labels['tvm']}` (PyPI), same run, the same "
        "model files, each side in its own interpreter; `from_onnx(model)` with default "
        "arguments on a loaded ModelProto.",
        machine.describe(),
        "Each model is imported in a fresh worker process per side (what earlier models "
        "leave in a heap must not decide how a later one is measured: with one worker for all "
        "models, resnet18's constants were page-faulted in anew at every import on both "
        "sides).  "
        f"Times: the median of each side's imports, {args.rounds} rounds alternating the "
        f"sides, each round a run of imports back to back ({runs_text}: the runs column); wall "
        "clock and process CPU time (on a shared machine the CPU times are the steadier "
        "figure).  Ratio: per round, apache-tvm's median over tether's (the two runs of a round "
        "are next to each other in time), then the median over the rounds; the ms columns are "
        "the medians of all of a side's imports.  First ms: each side's first import of the "
        "model in its fresh worker (the warm-up; one sample).  Memory: one import in a fresh "
        "process: the growth of the peak resident set (VmHWM after minus VmRSS before, the peak "
        "reset through /proc/self/clear_refs) and, in another fresh process, the peak of "
        "tracemalloc's traced allocations.  Target (issue 11): geometric mean of the ratios "
        ">= 20x, memory <= apache-tvm's.",
        "",
        head,
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|" + ("---:|" * 4 if mem
                                                                          else ""),
    ]

    def ms(v):  # (two decimals below 10 ms)
        return f"{v:.2f}" if v < 10 else f"{v:.1f}"

    def mib(kb):
        return f"{kb / 1024:.1f} MiB"

    for r in rows:
        binds = str(r["bindings"]) if r["bindings"] == r["tvm_bindings"] else \
            f"{r['bindings']} (apache-tvm: {r['tvm_bindings']})"
        line = (f"| {r['name']} | {r['nodes']} | {binds} | {r['runs']} x {args.rounds} | "
                f"{ms(r['tether_wall'])} | "
                f"{ms(r['tvm_wall'])} | {r['ratio_wall']:.1f}x | "
                f"{ms(r['tether_cpu'])} | {ms(r['tvm_cpu'])} | "
                f"{r['ratio_cpu']:.1f}x | {ms(r['tether_first'])} | "
                f"{ms(r['tvm_first'])} |")
        if mem:
            line += (f" {mib(r['tether_rss'])} | {mib(r['tvm_rss'])} | "
                     f"{mib(r['tether_traced'])} | {mib(r['tvm_traced'])} |")
        lines.append(line)
    g_wall = geomean([r["ratio_wall"] for r in rows])
    g_cpu = geomean([r["ratio_cpu"] for r in rows])
    lines += ["", f"Geometric mean over {len(rows)} models: **{g_wall:.1f}x** wall clock, "
              f"**{g_cpu:.1f}x** CPU time (target {TARGET:.0f}x: "
              f"{'met' if min(g_wall, g_cpu) >= TARGET else 'not met'})."]
    if mem:
        over = [r["name"] for r in rows if r["tether_rss"] > r["tvm_rss"]]
        lines.append("Peak RSS growth (the whole process: Python, numpy and C allocations) no "
                     "more than apache-tvm's on every model: "
                     + ("yes." if not over else f"no ({', '.join(over)})."))
        lines.append("The traced peak counts only what goes through Python's allocators: "
                     "tether's constants keep their data in the numpy buffers they were made "
                     "from (traced), apache-tvm copies constants into C++ NDArrays (not "
                     "traced), so that column favours apache-tvm by the size of the "
                     "constants.")
    if args.instr:
        lines += ["", "Instructions per import (callgrind: a process importing three times minus "
                  "one importing once, halved; the machine's load cannot move them):", "",
                  "| model | tether | apache-tvm | ratio |", "|---|---:|---:|---:|"]
        lines += [f"| {name} | {c['tether'] / 1e6:.1f} M | {c['tvm'] / 1e6:.1f} M | "
                  f"{c['tvm'] / c['tether']:.1f}x |" for name, c in args.instr]
    if skipped:
        lines += ["", "Not timed (a side does not import the model):", ""]
        lines += [f"- {name} ({nodes} ONNX nodes): " + "; ".join(
            f"{'tether' if side == 'tether' else 'apache-tvm'} raises {msg}"
            for side, msg in errors.items()) for name, nodes, errors in skipped]
    lines += ["", "Command: `make bench-onnx` (`python bench/python/bench_onnx.py "
              "[--extra DIR] [--runs N] [--rounds N] [--callgrind MODEL]`)"
              + (f", with --callgrind {' --callgrind '.join(n for n, _ in args.instr)}."
                 if args.instr else "."), ""]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
