"""bench_containers.py -- tether's containers next to CPython list/dict and numpy, same work.

Runs the C benchmark (bench_bench_containers, built from bench/bench_containers.c) and, in the
same run, CPython and numpy doing the same work on N = 1M elements:
  Array build:  CPython list.append loop, list(range(N)), numpy np.arange;
  Array index:  CPython loop summing l[i], numpy loop summing a[i], numpy a.sum();
  Map insert:   CPython dict d[k] = i over N string keys "key-0000000"...;
  Map lookup:   CPython d[k] with equal-but-distinct key strings in shuffled order
                (numpy has no hash map: np.searchsorted over the sorted keys is shown instead).
Prints one table with ns per element and the ratio to tether's C figure for the same work,
and writes it to bench/results/containers.md.

Usage: python bench/bench_containers.py [--bench PATH] [--n N] [--repeat R] [--out PATH]
"""

import argparse
import os
import platform
import random
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def find_bench(explicit):
    if explicit:
        return explicit
    candidates = []
    for entry in sorted(os.listdir(ROOT)):
        path = os.path.join(ROOT, entry, "bench", "bench_bench_containers")
        if entry.startswith("build") and os.path.exists(path):
            candidates.append(path)
    if not candidates:
        sys.exit("bench_containers.py: build bench_bench_containers first (cmake --build build)")
    return max(candidates, key=os.path.getmtime)


def run_c(bench, n, repeat):
    out = subprocess.run([bench, "--n", str(n), "--repeat", str(repeat), "--machine"],
                         check=True, capture_output=True, text=True).stdout
    results = {}
    for line in out.splitlines():
        parts = line.split()
        if parts and parts[0] == "RESULT":
            results[parts[1]] = float(parts[2])
    return results


def best_ns(fn, n, repeat):
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best / n * 1e9


def python_cases(n, repeat):
    import numpy as np

    ints = list(range(n))
    arr = np.arange(n, dtype=np.int64)
    keys = ["key-%07d" % i for i in range(n)]
    probes = ["key-%07d" % i for i in range(n)]  # equal, distinct objects
    random.Random(1).shuffle(probes)
    table = {}
    for k, i in zip(keys, ints):
        table[k] = i

    def list_append():
        out = []
        append = out.append
        for i in ints:
            append(i)
        return out

    def list_index():
        s = 0
        for i in range(n):
            s += ints[i]
        return s

    def numpy_index_loop():
        s = 0
        for i in range(n):
            s += arr[i]
        return s

    def dict_insert():
        d = {}
        for k, i in zip(keys, ints):
            d[k] = i
        return d

    def dict_lookup():
        s = 0
        for k in probes:
            s += table[k]
        return s

    sorted_keys = np.array(sorted(keys))
    np_probes = np.array(probes)

    def numpy_searchsorted():
        return np.searchsorted(sorted_keys, np_probes)

    def numpy_sorted_build():
        return np.sort(np.array(keys))

    py = "CPython %s" % platform.python_version()
    npv = "numpy %s" % np.__version__
    slow_repeat = max(1, min(repeat, 3))
    return [
        # (work, runtime, how, ns/elem, C case to compare with)
        ("Array build", py, "list.append loop", best_ns(list_append, n, repeat), "array_append"),
        ("Array build", py, "list(range(N))", best_ns(lambda: list(range(n)), n, repeat),
         "array_new_bulk"),
        ("Array build", npv, "np.arange(N)", best_ns(lambda: np.arange(n), n, repeat),
         "array_new_bulk"),
        ("Array index", py, "loop: s += l[i]", best_ns(list_index, n, repeat), "array_index"),
        ("Array index", npv, "loop: s += a[i]", best_ns(numpy_index_loop, n, slow_repeat),
         "array_index"),
        ("Array index", npv, "a.sum() (vectorised)", best_ns(lambda: arr.sum(), n, repeat),
         "array_index_seqcell"),
        ("Map insert", py, "dict: d[k] = i", best_ns(dict_insert, n, slow_repeat), "dict_insert"),
        ("Map insert", npv, "np.sort of the keys (no hash map)",
         best_ns(numpy_sorted_build, n, slow_repeat), "dict_insert"),
        ("Map lookup", py, "dict: d[k], shuffled equal keys", best_ns(dict_lookup, n, slow_repeat),
         "map_lookup"),
        ("Map lookup", npv, "np.searchsorted (vectorised)",
         best_ns(numpy_searchsorted, n, slow_repeat), "map_lookup"),
    ]


C_ROWS = [
    ("Array build", "tether_array_append loop (copy-on-write, sole owner)", "array_append"),
    ("Array build", "tether_array_new from N views", "array_new_bulk"),
    ("Array index", "loop: tether_array_at(arr, i)", "array_index"),
    ("Array index", "loop over TVMFFISeqCell (what a C kernel does)", "array_index_seqcell"),
    ("Array index", "ffi.ArrayGetItem via TVMFFIFunctionCall", "array_getitem_ffi"),
    ("Map insert", "Dict: tether_dict_set", "dict_insert"),
    ("Map insert", "Map: tether_map_set (sole owner, in place)", "map_insert_cow"),
    ("Map lookup", "tether_map_find, shuffled equal keys", "map_lookup"),
    ("Map lookup", "ffi.DictGetItem via TVMFFIFunctionCall", "map_getitem_ffi"),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench", help="path of bench_bench_containers (default: newest build*/)")
    parser.add_argument("--n", type=int, default=1000000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--out", default=os.path.join(HERE, "results", "containers.md"))
    args = parser.parse_args()

    bench = find_bench(args.bench)
    c = run_c(bench, args.n, args.repeat)
    rows = [(work, "tether (C)", how, c[case], 1.0) for work, how, case in C_ROWS]
    for work, runtime, how, ns, case in python_cases(args.n, args.repeat):
        rows.append((work, runtime, how, ns, ns / c[case] if c.get(case) else float("nan")))
    order = ["Array build", "Array index", "Map insert", "Map lookup"]
    rows.sort(key=lambda r: order.index(r[0]))

    header = ("| work | runtime | how | ns/elem | x tether |\n"
              "|---|---|---|---:|---:|\n")
    lines = []
    for work, runtime, how, ns, ratio in rows:
        ratio_text = "(ref)" if runtime == "tether (C)" else "%.2f" % ratio
        lines.append("| %s | %s | %s | %.1f | %s |" % (work, runtime, how, ns, ratio_text))
    note = ("N = %d elements, best of %d runs (CPython map rows and the numpy index loop: best "
            "of %d). \"x tether\" = this row's time / tether's C time for the same work "
            "(list.append vs tether_array_append; list(range)/np.arange vs tether_array_new; "
            "index loops vs tether_array_at; a.sum() vs the SeqCell loop; insert vs "
            "tether_dict_set; lookup vs tether_map_find): > 1 means tether is faster. "
            "Single-threaded; the shared 2-core machine is noisy (about +-30%% run to run). "
            "Machine: %s, %s, %d cores." % (args.n, args.repeat, max(1, min(args.repeat, 3)),
                                            platform.machine(), platform.platform(),
                                            os.cpu_count() or 0))
    text = ("# Container benchmark\n\nProduced by `bench/bench_containers.py` (runs "
            "`bench/bench_containers.c`).\n\n" + note + "\n\n" + header + "\n".join(lines) + "\n")
    print(header + "\n".join(lines))
    print()
    print(note)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        f.write(text)
    print("written to %s" % os.path.relpath(args.out, os.getcwd()))


if __name__ == "__main__":
    main()
