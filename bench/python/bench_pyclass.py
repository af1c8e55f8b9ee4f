"""Field access and construction of Python-defined FFI classes: tether against apache-tvm-ffi.

The same class on both sides, defined with each package's ``dataclasses.py_class``:

    class P(Object):
        a: int
        b: float
        s: str

Cases, each a loop of k operations on one instance (k sized so a batch takes about
BATCH_MS), the garbage collector off, REPS rounds with both packages' batches interleaved
in a fresh random order each round; per-operation time = best batch / k minus the empty
loop's cost:

  get int     p.a
  get str     p.s
  set int     p.a = 5
  set float   p.b = 2.5
  construct   P(1, 2.0, "x")

The ratio column is tether's time over tvm-ffi's (below 1: tether is faster).  Where
tether.dataclasses is not available yet, the tether class is built from tether.core's
reflection primitives (_register_py_class, TypeInfo._register_fields, and an __init__ from
the type's __ffi_init__), which is what py_class itself calls.

Usage: python bench_pyclass.py [--reps N] [--batch-ms MS] [--out FILE.md]
"""
from __future__ import annotations

import argparse
import gc
import random
import time
from itertools import repeat

BATCH_MS = 20.0


def make_tvm_ffi_class():
    import tvm_ffi
    from tvm_ffi.dataclasses import py_class

    @py_class("bench_pyclass.P")
    class P(tvm_ffi.Object):
        a: int
        b: float
        s: str

    return P


def make_tether_class():
    import tether
    from tether import core

    try:
        from tether.dataclasses import py_class
    except ImportError:
        py_class = None
    if py_class is not None:
        @py_class("bench_pyclass.P")
        class P(tether.Object):
            a: int
            b: float
            s: str

        return P

    class Schema:  # the part of TypeSchema that field registration reads
        def __init__(self, origin):
            self.origin, self.origin_type_index, self.args = origin, -3, ()

        def to_json(self):
            return {"type": self.origin}

    class Field:
        def __init__(self, name, origin):
            self.name, self.doc, self._ty_schema = name, None, Schema(origin)
            self.default = self.default_factory = core.MISSING
            self.init = self.repr = self.hash = self.compare = True
            self.kw_only = self.frozen = False
            self.structural_eq = None

    class P(tether.Object):
        pass

    info = core._register_py_class(core._type_cls_to_type_info(tether.Object),
                                   "bench_pyclass.P", P)
    info._register_fields([Field("a", "int"), Field("b", "float"), Field("s", "str")])
    core._register_object("bench_pyclass.P", P)  # field descriptors and __init__
    P.__tvm_ffi_type_info__ = info
    return P


def cases(P):
    p = P(1, 2.0, "x")

    def get_int(k):
        for _ in repeat(None, k):
            p.a

    def get_str(k):
        for _ in repeat(None, k):
            p.s

    def set_int(k):
        for _ in repeat(None, k):
            p.a = 5

    def set_float(k):
        for _ in repeat(None, k):
            p.b = 2.5

    def construct(k):
        for _ in repeat(None, k):
            P(1, 2.0, "x")

    return {"get int": get_int, "get str": get_str, "set int": set_int,
            "set float": set_float, "construct": construct}


def empty(k):
    for _ in repeat(None, k):
        pass


def clock():
    return time.clock_gettime(time.CLOCK_THREAD_CPUTIME_ID)


def size_batch(fn, batch_ms):
    k = 100
    while True:
        t0 = clock()
        fn(k)
        dt = clock() - t0
        if dt * 1000 >= batch_ms / 4 or k > 1 << 26:
            return max(100, int(k * batch_ms / 1000 / max(dt, 1e-9)))
        k *= 4


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--batch-ms", type=float, default=BATCH_MS)
    ap.add_argument("--out", default=None, help="also write the table to this markdown file")
    args = ap.parse_args()

    sides = {"tether": cases(make_tether_class()), "tvm-ffi": cases(make_tvm_ffi_class())}
    jobs = [(side, name, fn) for side, cs in sides.items() for name, fn in cs.items()]
    jobs.append(("loop", "empty", empty))
    sizes = {(s, n): size_batch(fn, args.batch_ms) for s, n, fn in jobs}
    best = {key: float("inf") for key in sizes}
    gc.disable()
    try:
        for _ in range(args.reps):
            random.shuffle(jobs)
            for side, name, fn in jobs:
                k = sizes[(side, name)]
                t0 = clock()
                fn(k)
                best[(side, name)] = min(best[(side, name)], (clock() - t0) / k)
    finally:
        gc.enable()
    loop = best[("loop", "empty")]
    lines = ["| case | tether (ns) | tvm-ffi (ns) | tether / tvm-ffi |", "|---|---:|---:|---:|"]
    for name in sides["tether"]:
        a = (best[("tether", name)] - loop) * 1e9
        b = (best[("tvm-ffi", name)] - loop) * 1e9
        lines.append(f"| {name} | {a:.1f} | {b:.1f} | {a / b:.2f} |")
    table = "\n".join(lines)
    print(table)
    if args.out:
        with open(args.out, "w") as f:
            f.write("# py_class field access and construction: tether vs tvm-ffi\n\n"
                    f"`python bench/python/bench_pyclass.py --reps {args.reps}`; per operation, "
                    "best batch minus the empty loop, thread CPU time.\n\n" + table + "\n")


if __name__ == "__main__":
    main()
