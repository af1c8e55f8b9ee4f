"""The Python-boundary benchmark of tether (issue "tether for Python", Performance).

Python calling a C no-op with: no arguments; 3 ints; 3 floats; a str; 3 FFI objects; 3 numpy
arrays; 3 torch tensors, through, side by side in one run:

  tether        tether.get_global_func("testing.nop") with release_gil True (the default of
                both FFI packages: the GIL is released around the C call)
  tvm-ffi       apache-tvm-ffi's tvm_ffi.get_global_func("testing.nop"), release_gil True
  tether-held   the same tether Function with release_gil False (the GIL stays held)
  tvm-ffi-held  the same tvm-ffi Function with release_gil False
  floor         tbfloor.nop: a raw METH_FASTCALL builtin doing the same conversions (floor/floor.c)
  floor-obj     the same C function behind a callable object (vectorcall), as FFI Function
                objects are: shows what CPython's dispatch of callable objects costs
  nanobind    typed functions (int64_t, double, std::string_view, const Obj&, nb::ndarray<>)
  nanobind*   one nb::args function dispatching on each argument's type
  pybind11    typed functions (py::array; py::array_t<float> for torch tensors)
  pybind11*   one py::args function dispatching on each argument's type

Method: every (row, column) case is a loop of k calls `f(a, b, c)` (k sized so a batch takes
about BATCH_MS), timed with the thread's CPU clock (time spent preempted is not counted), the
garbage collector off.  REPS rounds; in each round every case runs one batch, in a fresh
random order, so all columns see the same machine state.  Per-call time = best batch / k, minus
the cost of the empty loop (`for _ in repeat(None, k): pass`, measured the same way), so the
figures are the call itself.  The median batch is reported beside the best.

Also: `import tether` and `import tvm_ffi`, each in fresh subprocesses (interleaved): wall time
of the import statement and the RSS growth it causes.

Instruction counts (unless --no-instr or --quick): the same loops, run once more under
`valgrind --tool=callgrind` with client requests around each case (tbfloor._callgrind), give
instructions per call: load-independent, so they stay comparable on a busy 2-core machine.

Usage: python bench_boundary.py [--reps N] [--batch-ms MS] [--out-dir DIR] [--quick] [--no-instr]
Writes DIR/python_boundary.md and DIR/python_boundary.png (DIR: bench/results), and the raw
figures to bench/python/build/python_boundary.json.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from itertools import repeat

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "build", "peers", "lib"))

ROWS = [
    ("none", "no arguments"),
    ("int3", "3 ints"),
    ("float3", "3 floats"),
    ("str", "a str"),
    ("obj3", "3 FFI objects"),
    ("np3", "3 numpy arrays"),
    ("torch3", "3 torch tensors"),
]
SCALAR_ROWS = ("none", "int3", "float3", "str")
OBJECT_ROWS = ("obj3",)
TENSOR_ROWS = ("np3", "torch3")

COLUMNS = ["tether", "tvm-ffi", "tether-held", "tvm-ffi-held", "floor", "floor-obj", "nanobind",
           "nanobind*", "pybind11", "pybind11*"]
# The FFI packages' columns: (package column, its release_gil)
FFI_SETTINGS = {"tether": True, "tvm-ffi": True, "tether-held": False, "tvm-ffi-held": False}

STR_ARG = "hello, tether"  # 13 ASCII characters


# ---- the inputs ------------------------------------------------------------------------------

def _arrays():
    import numpy as np
    import torch
    nps = tuple(np.zeros((4, 4), dtype=np.float32) for _ in range(3))
    ts = tuple(torch.zeros((4, 4), dtype=torch.float32) for _ in range(3))
    return nps, ts


def _row_args(objs, nps, ts):
    """The arguments of each row; objs: the column's own 3 FFI (or bound-class) objects."""
    return {
        "none": (),
        "int3": (1, 2, 3),
        "float3": (1.0, 2.0, 3.0),
        "str": (STR_ARG,),
        "obj3": objs,
        "np3": nps,
        "torch3": ts,
    }


def _ffi_objects(mod, label):
    """Three FFI objects of a tvm-ffi-shaped package: testing.make_unregistered_object()."""
    make = mod.get_global_func("testing.make_unregistered_object", allow_missing=True)
    if make is None:
        raise RuntimeError(f"{label}: testing.make_unregistered_object is not registered")
    return tuple(make() for _ in range(3))


def build_columns(nps, ts):
    """{column: {row: (function, args) or None}} plus {column: reason} for skipped columns."""
    cols, skipped, versions = {}, {}, {}

    def ffi_package(mod, label):
        """Both GIL settings of one FFI package: a Function object each, same arguments."""
        args = _row_args(_ffi_objects(mod, label), nps, ts)
        for col, release in FFI_SETTINGS.items():
            if col.split("-held")[0] != label:
                continue
            nop = mod.get_global_func("testing.nop")
            nop.release_gil = release
            if nop.release_gil is not release:
                raise RuntimeError(f"{label}: cannot set release_gil to {release}")
            cols[col] = {r: (nop, args[r]) for r, _ in ROWS}

    # tether
    try:
        import tether
        ffi_package(tether, "tether")
        versions["tether"] = getattr(tether, "__version__", "?")
    except Exception as e:  # noqa: BLE001 - the package is under construction: report, go on
        skipped["tether"] = f"{type(e).__name__}: {e}"

    # the floor
    import tbfloor
    args = _row_args(tuple(tbfloor.Handle() for _ in range(3)), nps, ts)
    cols["floor"] = {r: (tbfloor.nop, args[r]) for r, _ in ROWS}
    nop_object = tbfloor.NopObject()
    cols["floor-obj"] = {r: (nop_object, args[r]) for r, _ in ROWS}

    # apache-tvm-ffi
    try:
        import tvm_ffi
        ffi_package(tvm_ffi, "tvm-ffi")
        versions["tvm-ffi"] = tvm_ffi.__version__
    except Exception as e:  # noqa: BLE001
        skipped["tvm-ffi"] = f"{type(e).__name__}: {e}"

    # nanobind / pybind11: typed functions, and one *args function
    import nb_bench
    import pyb_bench
    import nanobind
    import pybind11
    versions["nanobind"] = nanobind.__version__
    versions["pybind11"] = pybind11.__version__
    for name, mod in (("nanobind", nb_bench), ("pybind11", pyb_bench)):
        args = _row_args(tuple(mod.Obj() for _ in range(3)), nps, ts)
        typed = {
            "none": mod.nop0, "int3": mod.nop_int3, "float3": mod.nop_float3, "str": mod.nop_str,
            "obj3": mod.nop_obj3, "np3": mod.nop_nd3,
            "torch3": getattr(mod, "nop_nd3_cvt", mod.nop_nd3),
        }
        cols[name] = {r: (typed[r], args[r]) for r, _ in ROWS}
        cols[name + "*"] = {r: (mod.nop_args, args[r]) for r, _ in ROWS}
    return cols, skipped, versions


# ---- timing ----------------------------------------------------------------------------------

def make_loop(f, args):
    """A function running k calls f(*args) with everything in fast locals."""
    n = len(args)
    if n == 0:
        def run(k, f=f, repeat=repeat):
            for _ in repeat(None, k):
                f()
    elif n == 1:
        def run(k, f=f, a=args[0], repeat=repeat):
            for _ in repeat(None, k):
                f(a)
    elif n == 3:
        def run(k, f=f, a=args[0], b=args[1], c=args[2], repeat=repeat):
            for _ in repeat(None, k):
                f(a, b, c)
    else:
        raise ValueError(n)
    return run


def empty_loop(k, repeat=repeat):
    for _ in repeat(None, k):
        pass


def time_batch(run, k, clock=time.thread_time_ns):
    t0 = clock()
    run(k)
    return clock() - t0


def calibrate(run, batch_ms):
    k = 256
    while True:
        dt = min(time_batch(run, k) for _ in range(3))
        if dt >= batch_ms * 1e6 / 4 or k >= 1 << 24:
            break
        k *= 4
    return max(256, int(k * batch_ms * 1e6 / max(dt, 1)))


def measure(cols, reps, batch_ms, seed=1234):
    """{(column, row): {"best": ns, "median": ns}} per call, empty loop subtracted."""
    cases = []
    for col in COLUMNS:
        for row, _ in ROWS:
            entry = cols.get(col, {}).get(row)
            if entry is None:
                continue
            f, args = entry
            f(*args)  # warm up (and fail early if a peer rejects the input)
            run = make_loop(f, args)
            cases.append(((col, row), run))
    cases.append((("loop", "loop"), empty_loop))
    ks = {key: calibrate(run, batch_ms) for key, run in cases}
    samples = {key: [] for key, _ in cases}
    rng = random.Random(seed)
    gc.collect()
    gc.disable()
    try:
        for _ in range(reps):
            order = list(cases)
            rng.shuffle(order)
            for key, run in order:
                samples[key].append(time_batch(run, ks[key]) / ks[key])
    finally:
        gc.enable()
    loop_best = min(samples[("loop", "loop")])
    loop_median = statistics.median(samples[("loop", "loop")])
    out = {}
    for key, s in samples.items():
        if key == ("loop", "loop"):
            continue
        out[key] = {"best": min(s) - loop_best, "median": statistics.median(s) - loop_median,
                    "raw_best": min(s), "calls_per_batch": ks[key]}
    return out, {"best": loop_best, "median": loop_median}


# ---- instruction counts (callgrind) ----------------------------------------------------------

def callgrind_child(calls, only_rows):
    """Runs under callgrind (started with --instr-atstart=no): for each case, zero the counters,
    run `calls` calls, dump them under "col|row"; the empty loop likewise."""
    import tbfloor
    nps, ts = _arrays()
    cols, _, _ = build_columns(nps, ts)
    cases = []
    for col in COLUMNS:
        for row, _ in ROWS:
            if only_rows and row not in only_rows:
                continue
            entry = cols.get(col, {}).get(row)
            if entry is not None:
                cases.append((f"{col}|{row}", make_loop(*entry)))
    cases.append(("loop|loop", empty_loop))
    gc.disable()
    if not tbfloor._callgrind("start"):
        raise SystemExit("not running under valgrind (or tbfloor built without callgrind.h)")
    for name, run in cases:
        run(200)  # warm caches, specialise the bytecode
        tbfloor._callgrind("zero")
        run(calls)
        tbfloor._callgrind("dump", name)
    tbfloor._callgrind("stop")


def measure_instructions(calls, only_rows, outdir):
    """{(column, row): instructions per call, empty loop subtracted} via one callgrind run."""
    import glob
    import shutil
    if shutil.which("valgrind") is None:
        return None, "valgrind not found"
    os.makedirs(outdir, exist_ok=True)
    for f in glob.glob(os.path.join(outdir, "cg.out*")):
        os.remove(f)
    cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no",
           f"--callgrind-out-file={os.path.join(outdir, 'cg.out')}",
           sys.executable, os.path.abspath(__file__), "--callgrind-child", str(calls)]
    if only_rows:
        cmd += ["--rows", ",".join(only_rows)]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return None, (p.stderr.strip().splitlines() or ["callgrind failed"])[-1]
    totals = {}
    for f in glob.glob(os.path.join(outdir, "cg.out*")):
        name, total = None, None
        with open(f) as fh:
            for line in fh:
                if line.startswith("desc: Trigger: Client Request: "):
                    name = line.split("Client Request: ", 1)[1].strip()
                elif line.startswith("summary:"):
                    total = int(line.split()[1])
        if name and total is not None:
            totals[name] = total
    loop = totals.pop("loop|loop", None)
    if loop is None:
        return None, "no empty-loop dump"
    return {tuple(k.split("|")): (v - loop) / calls for k, v in totals.items()}, None


# ---- import time and memory --------------------------------------------------------------------

IMPORT_PROBE = r"""
import sys, time, json, gc
hide = sys.argv[2] == "hide-torch"
if hide:
    sys.modules["torch"] = None   # `import torch` raises ImportError: as if torch were absent
def rss_kb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
r0 = rss_kb()
t0 = time.perf_counter()
__import__(sys.argv[1])
t1 = time.perf_counter()
r1 = rss_kb()
print(json.dumps({"seconds": t1 - t0, "rss_kb": r1 - r0,
                  "torch": "torch" in sys.modules and sys.modules["torch"] is not None,
                  "numpy": "numpy" in sys.modules}))
"""


def measure_imports(runs):
    variants = [("tether", "torch-visible"), ("tvm_ffi", "torch-visible"),
                ("tether", "hide-torch"), ("tvm_ffi", "hide-torch")]
    res = {v: [] for v in variants}
    errors = {}
    for _ in range(runs):
        for mod, mode in variants:
            if (mod, mode) in errors:
                continue
            p = subprocess.run([sys.executable, "-c", IMPORT_PROBE, mod, mode],
                               capture_output=True, text=True)
            if p.returncode != 0:
                errors[(mod, mode)] = p.stderr.strip().splitlines()[-1] if p.stderr else "failed"
                continue
            res[(mod, mode)].append(json.loads(p.stdout))
    out = {}
    for v, rs in res.items():
        if not rs:
            out[v] = {"error": errors.get(v, "no runs")}
            continue
        out[v] = {
            "ms_median": 1e3 * statistics.median(r["seconds"] for r in rs),
            "ms_best": 1e3 * min(r["seconds"] for r in rs),
            "rss_mb_median": statistics.median(r["rss_kb"] for r in rs) / 1024,
            "pulls_torch": rs[0]["torch"], "pulls_numpy": rs[0]["numpy"], "runs": len(rs),
        }
    return out


# ---- report ----------------------------------------------------------------------------------

def fmt_ns(x):
    if x is None:
        return "n/a"
    return f"{x:.1f}" if x < 100 else f"{x:.0f}"


def fmt_ratio(x):
    return "n/a" if x is None else f"{x:.2f}x"


def machine_notes(versions):
    import numpy
    import torch
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return [
        f"CPU: {cpu}, {os.cpu_count()} cores; {platform.system()} {platform.release()}",
        f"Python {platform.python_version()} ({sys.executable})",
        "load average (1 min) before -> after the timed part: " + versions.get("_load", "?"),
        "versions: " + ", ".join(f"{k} {v}" for k, v in sorted(versions.items())
                                 if not k.startswith("_"))
        + f", numpy {numpy.__version__}, torch {torch.__version__}",
    ]


# The targets (issue 8, Performance, and the issue before it), all like for like:
#   GIL released on both FFI packages (release_gil True): tether >= 2x faster than tvm-ffi on
#     every row;
#   GIL held on both (release_gil False): tether >= 5x faster than tvm-ffi on the scalar, str
#     and object rows, >= 3x on the tensor rows; tether-held <= 1.3x the floor on the scalar
#     and object rows (the floor holds the GIL too) and ahead of the faster nanobind column.
RELEASED_MIN_SPEEDUP = 2.0
HELD_MIN_SPEEDUP = 5.0
HELD_MIN_SPEEDUP_TENSOR = 3.0
FLOOR_MAX_RATIO = 1.3


def verdicts(res):
    """The targets, row by row: list of (row, text, ok)."""
    def t(col, row):
        v = res.get((col, row))
        return None if v is None else max(v["best"], 0.01)

    out = []
    for row, label in ROWS:
        if t("tether", row) is None and t("tether-held", row) is None:
            out.append((label, "tether not measured", None))
            continue
        checks = []
        tt, tv = t("tether", row), t("tvm-ffi", row)
        if tt is not None and tv is not None:
            checks.append((f"GIL released on both: >= {RELEASED_MIN_SPEEDUP:.0f}x faster than "
                           f"tvm-ffi: {tv / tt:.2f}x", tv / tt >= RELEASED_MIN_SPEEDUP))
        th, tvh, fl = t("tether-held", row), t("tvm-ffi-held", row), t("floor", row)
        if th is not None and tvh is not None:
            need = HELD_MIN_SPEEDUP_TENSOR if row in TENSOR_ROWS else HELD_MIN_SPEEDUP
            checks.append((f"GIL held on both: >= {need:.0f}x faster than tvm-ffi: "
                           f"{tvh / th:.2f}x", tvh / th >= need))
        if th is not None and fl is not None and row in SCALAR_ROWS + OBJECT_ROWS:
            checks.append((f"GIL held: <= {FLOOR_MAX_RATIO}x floor: {th / fl:.2f}x",
                           th / fl <= FLOOR_MAX_RATIO))
        nbs = [x for x in (t("nanobind", row), t("nanobind*", row)) if x is not None]
        if th is not None and nbs:
            checks.append((f"GIL held: ahead of nanobind: {min(nbs) / th:.2f}x", th < min(nbs)))
        for text, ok in checks:
            out.append((label, text, ok))
    return out


def _ratio(a, b):
    return a / b if a is not None and b is not None and b > 0 else None


def write_markdown(path, res, loop, imports, skipped, versions, args, cmdline, instr=None):
    def best(col, row):
        v = res.get((col, row))
        return None if v is None else v["best"]

    lines = ["# Python boundary: calling `testing.nop` from Python", ""]
    lines.append(f"Command: `{cmdline}` (from the repository root). "
                 f"Best of {args.reps} interleaved batches of ~{args.batch_ms} ms per case, "
                 "thread CPU time, per call in ns, with the empty `for` loop "
                 f"({loop['best']:.1f} ns) subtracted.")
    lines.append("")
    cols = [c for c in COLUMNS if any((c, r) in res for r, _ in ROWS)]

    lines.append("## tether vs tvm-ffi, the same GIL setting on both")
    lines.append("")
    lines.append("**released**: `release_gil` True on both Functions (the default of both "
                 "packages: the GIL is released around the C call, so a kernel may run long or "
                 "call Python back from its own threads); **held**: `release_gil` False on "
                 "both.  Speedup = tvm-ffi / tether.  GIL cost = released - held, per package.")
    lines.append("")
    lines += ["| row | tether released | tvm-ffi released | speedup released | tether held | "
              "tvm-ffi held | speedup held | GIL cost tether | GIL cost tvm-ffi |",
              "|" + "---|" * 9]
    for row, label in ROWS:
        tr, vr = best("tether", row), best("tvm-ffi", row)
        th, vh = best("tether-held", row), best("tvm-ffi-held", row)
        gil_t = tr - th if tr is not None and th is not None else None
        gil_v = vr - vh if vr is not None and vh is not None else None
        lines.append(f"| {label} | {fmt_ns(tr)} | {fmt_ns(vr)} | {fmt_ratio(_ratio(vr, tr))} "
                     f"| {fmt_ns(th)} | {fmt_ns(vh)} | {fmt_ratio(_ratio(vh, th))} "
                     f"| {fmt_ns(gil_t)} | {fmt_ns(gil_v)} |")
    lines.append("")

    lines.append("## The GIL held: tether vs the floor and the C++ binders")
    lines.append("")
    peers = [c for c in ("floor", "floor-obj", "nanobind", "nanobind*", "pybind11", "pybind11*")
             if c in cols]
    lines += ["| row | tether held | " + " | ".join(peers)
              + " | tether held / floor | tether held / floor-obj | nanobind / tether held |",
              "|" + "---|" * (len(peers) + 5)]
    for row, label in ROWS:
        th = best("tether-held", row)
        nbs = [x for x in (best("nanobind", row), best("nanobind*", row)) if x is not None]
        lines.append(f"| {label} | {fmt_ns(th)} | " + " | ".join(fmt_ns(best(c, row)) for c in peers)
                     + f" | {fmt_ratio(_ratio(th, best('floor', row)))} "
                     f"| {fmt_ratio(_ratio(th, best('floor-obj', row)))} "
                     f"| {fmt_ratio(_ratio(min(nbs) if nbs else None, th))} |")
    lines.append("")
    lines.append("Columns: **tether** `tether.get_global_func(\"testing.nop\")` (a `testing.*` "
                 "function behaves as a user's kernel: it releases the GIL unless told not to); "
                 "**tvm-ffi** apache-tvm-ffi's `testing.nop`; **floor** a raw "
                 "CPython METH_FASTCALL builtin (bench/python/floor/floor.c) doing the same "
                 "conversions into a stack array of 16-byte tagged values, GIL held; "
                 "**floor-obj** the same C function as the vectorcall of a callable object (what "
                 "an FFI `Function` is), i.e. the floor plus CPython's dispatch of callable "
                 "instances; **nanobind** / **pybind11** typed functions (GIL held) "
                 "(`int64_t`, `double`, `std::string_view`, `const Obj&` of a bound class, "
                 "`nb::ndarray<>` / `py::array`; pybind11 takes torch tensors as "
                 "`py::array_t<float>`, i.e. through `numpy.asarray`); **nanobind\\*** / "
                 "**pybind11\\*** one `nb::args` / `py::args` function that dispatches on each "
                 "argument's type.")
    lines.append("")
    lines.append("FFI objects: `testing.make_unregistered_object()` for tether and tvm-ffi, "
                 "`tbfloor.Handle()` for the floor, the bound class `Obj` for nanobind/pybind11. "
                 "Arrays: float32 4x4, contiguous, CPU. str: a 13-character ASCII string.")
    lines.append("")
    lines.append("Median batches (ns per call, empty loop subtracted):")
    lines.append("")
    lines += ["| row | " + " | ".join(cols) + " |", "|" + "---|" * (len(cols) + 1)]
    for row, label in ROWS:
        cells = [fmt_ns(res[(c, row)]["median"]) if (c, row) in res else "n/a" for c in cols]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines.append("")

    if instr:
        lines.append(f"Instructions per call (callgrind, {args.instr_calls} calls per case after "
                     "200 warm-up calls, empty loop subtracted; load-independent):")
        lines.append("")
        lines += ["| row | " + " | ".join(cols) + " | tvm-ffi / tether released | "
                  "tvm-ffi / tether held | tether held / floor | GIL cost tether | "
                  "GIL cost tvm-ffi | ceiling released |",
                  "|" + "---|" * (len(cols) + 7)]
        for row, label in ROWS:
            if not any((c, row) in instr for c in cols):
                continue
            cells = [f"{instr[(c, row)]:.0f}" if (c, row) in instr else "n/a" for c in cols]
            g = lambda c: instr.get((c, row))  # noqa: E731
            gil_t = g("tether") - g("tether-held") if g("tether") and g("tether-held") else None
            gil_v = g("tvm-ffi") - g("tvm-ffi-held") if g("tvm-ffi") and g("tvm-ffi-held") else None
            lines.append(f"| {label} | " + " | ".join(cells)
                         + f" | {fmt_ratio(_ratio(g('tvm-ffi'), g('tether')))} "
                         f"| {fmt_ratio(_ratio(g('tvm-ffi-held'), g('tether-held')))} "
                         f"| {fmt_ratio(_ratio(g('tether-held'), g('floor')))} "
                         f"| {'n/a' if gil_t is None else f'{gil_t:.0f}'} "
                         f"| {'n/a' if gil_v is None else f'{gil_v:.0f}'} "
                         f"| {fmt_ratio(_ratio(g('tvm-ffi'), gil_t))} |")
        lines.append("")
        lines.append("GIL cost = released - held: CPython's PyEval_SaveThread + "
                     "PyEval_RestoreThread around the call, the same primitive in both packages. "
                     "Ceiling released = tvm-ffi released / tether's GIL cost: the speedup "
                     "tether would have with the GIL released if everything else it does "
                     "cost nothing.")
        lines.append("")

    lines.append("## Targets")
    lines.append("")
    vs = verdicts(res)
    if not vs or all(ok is None for _, _, ok in vs):
        lines.append("tether was not measured: " + skipped.get("tether", "?"))
    else:
        lines += ["| row | target | met |", "|---|---|---|"]
        for label, text, ok in vs:
            lines.append(f"| {label} | {text} | {'yes' if ok else '**no**'} |")
    lines.append("")

    lines.append("## Import time and memory")
    lines.append("")
    lines.append("Fresh interpreter per run (interleaved); wall time of the import statement and "
                 "the growth of VmRSS it causes; median of the runs.  `torch hidden`: the probe "
                 "sets `sys.modules['torch'] = None` first, as if torch were not installed.")
    lines.append("")
    lines += ["| import | torch | ms (median) | ms (best) | RSS MB (median) | imports torch | "
              "imports numpy |", "|---|---|---|---|---|---|---|"]
    for (mod, mode), v in imports.items():
        tmode = "visible" if mode == "torch-visible" else "hidden"
        if "error" in v:
            lines.append(f"| `import {mod}` | {tmode} | failed: {v['error']} | | | | |")
        else:
            lines.append(f"| `import {mod}` | {tmode} | {v['ms_median']:.1f} | {v['ms_best']:.1f} "
                         f"| {v['rss_mb_median']:.1f} | {v['pulls_torch']} | {v['pulls_numpy']} |")
    lines.append("")
    if skipped:
        lines.append("Skipped: " + "; ".join(f"{k}: {v}" for k, v in skipped.items()))
        lines.append("")
    lines.append("## Machine")
    lines.append("")
    lines += [f"- {n}" for n in machine_notes(versions)]
    lines.append("- nanobind built with NOMINSIZE (-O3), pybind11 and the floor with -O2/-O3 "
                 "Release flags (bench/python/CMakeLists.txt).")
    lines.append("")
    with open(path, "w") as f:
        f.write("\n".join(lines))


def write_plot(path, res, instr=None):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cols = [c for c in COLUMNS if any((c, r) in res for r, _ in ROWS)]
    colors = {"tether": "#d62728", "tether-held": "#ff9896", "floor": "#7f7f7f",
              "floor-obj": "#c7c7c7", "tvm-ffi": "#1f77b4", "tvm-ffi-held": "#aec7e8",
              "nanobind": "#2ca02c", "nanobind*": "#98df8a", "pybind11": "#ff7f0e",
              "pybind11*": "#ffbb78"}
    panels = [("ns per call (best; log scale)", {k: v["best"] for k, v in res.items()})]
    if instr:
        panels.append(("instructions per call (callgrind; log scale)", instr))
    fig, axes = plt.subplots(len(panels), 1, figsize=(13, 5 * len(panels)), squeeze=False)
    width = 0.84 / len(cols)
    for ax, (ylabel, data) in zip(axes[:, 0], panels):
        for i, c in enumerate(cols):
            xs, ys = [], []
            for j, (row, _) in enumerate(ROWS):
                v = data.get((c, row))
                if v is not None:
                    xs.append(j + (i - (len(cols) - 1) / 2) * width)
                    ys.append(max(v, 1.0))
            ax.bar(xs, ys, width, label=c, color=colors.get(c),
                   edgecolor="black" if c.startswith("tether") else None, linewidth=0.6)
        ax.set_yscale("log")
        lo, hi = ax.get_ylim()
        ax.set_ylim(lo, hi * 4)  # room for the legend
        ax.set_xticks(range(len(ROWS)))
        ax.set_xticklabels([label for _, label in ROWS])
        ax.set_ylabel(ylabel)
        ax.grid(axis="y", which="both", alpha=0.3)
        ax.legend(ncol=(len(cols) + 1) // 2, fontsize=8, loc="upper left")
    axes[0, 0].set_title("Python calling a C no-op (testing.nop): tether vs the floor and peers; "
                         "'-held': release_gil False (lower is better)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=41)
    ap.add_argument("--batch-ms", type=float, default=4.0)
    ap.add_argument("--import-runs", type=int, default=9)
    ap.add_argument("--out-dir", default=os.path.join(HERE, "..", "results"))
    ap.add_argument("--quick", action="store_true", help="few reps, for a smoke test")
    ap.add_argument("--cmdline", default="make bench-python")
    ap.add_argument("--no-instr", dest="instr", action="store_false",
                    help="skip the callgrind instruction counts (they take a few minutes)")
    ap.add_argument("--instr-calls", type=int, default=2000)
    ap.add_argument("--rows", default="", help="comma-separated row keys (--instr only)")
    ap.add_argument("--callgrind-child", type=int, default=0, help=argparse.SUPPRESS)
    args = ap.parse_args()
    only_rows = [r for r in args.rows.split(",") if r]
    if args.callgrind_child:
        callgrind_child(args.callgrind_child, only_rows)
        return
    if args.quick:
        args.reps, args.batch_ms, args.import_runs, args.instr = 5, 1.0, 2, False

    nps, ts = _arrays()
    cols, skipped, versions = build_columns(nps, ts)
    for c, why in skipped.items():
        print(f"[bench-python] column {c} skipped: {why}", file=sys.stderr)
    load_before = os.getloadavg()[0]
    res, loop = measure(cols, args.reps, args.batch_ms)
    versions["_load"] = f"{load_before:.1f} -> {os.getloadavg()[0]:.1f}"
    imports = measure_imports(args.import_runs)
    instr, instr_error = (None, None)
    if args.instr:
        print("[bench-python] counting instructions under callgrind ...", file=sys.stderr)
        instr, instr_error = measure_instructions(args.instr_calls, only_rows,
                                                  os.path.join(HERE, "build", "callgrind"))
        if instr_error:
            print(f"[bench-python] callgrind: {instr_error}", file=sys.stderr)
            skipped["instruction counts"] = instr_error

    os.makedirs(args.out_dir, exist_ok=True)
    md = os.path.join(args.out_dir, "python_boundary.md")
    png = os.path.join(args.out_dir, "python_boundary.png")
    write_markdown(md, res, loop, imports, skipped, versions, args, args.cmdline, instr)
    write_plot(png, res, instr)
    os.makedirs(os.path.join(HERE, "build"), exist_ok=True)
    with open(os.path.join(HERE, "build", "python_boundary.json"), "w") as f:
        json.dump({"per_call_ns": {f"{c}|{r}": v for (c, r), v in res.items()}, "loop": loop,
                   "imports": {f"{m}|{k}": v for (m, k), v in imports.items()},
                   "instructions_per_call": {f"{c}|{r}": v for (c, r), v in (instr or {}).items()},
                   "skipped": skipped, "versions": versions}, f, indent=1)
    with open(md) as f:
        print(f.read())
    print(f"[bench-python] wrote {md} and {png}")


if __name__ == "__main__":
    main()
