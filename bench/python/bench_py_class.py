"""The cost of a `@py_class` object's field access and construction, under tether or
apache-tvm-ffi: one class `Point(x: int, y: float, name: str, tag: Optional[Object])`
defined the same way under either package, and per operation

  get int     p.x
  get str     p.name
  set int     p.x = i
  set float   p.y = f
  new pos     Point(1, 2.0, "a")
  new kw      Point(x=1, y=2.0, name="a", tag=None)

    python bench/python/bench_py_class.py [--impl tether|tvm_ffi]

Prints one Markdown table row: ns per operation, best of 15 runs of 100 x 1000 operations
(thread CPU time, so time spent preempted on a busy machine is not counted; every case runs
the same `for v in <list of 1000>` loop, so the loop's cost is the same in each).  Run it
under both packages in the same session (separate processes) to compare.
"""
import argparse
import time
from typing import Optional

CASES = ("get int", "get str", "set int", "set float", "new pos", "new kw")


def best_ns(body, items, rounds=100, runs=15):
    best = float("inf")
    for _ in range(runs):
        t0 = time.thread_time_ns()
        for _ in range(rounds):
            body(items)
        best = min(best, (time.thread_time_ns() - t0) / (rounds * len(items)))
    return best


def make_bodies(Point):
    p = Point(1, 2.0, "name")

    def get_int(items):
        for _ in items:
            p.x

    def get_str(items):
        for _ in items:
            p.name

    def set_int(items):
        for v in items:
            p.x = v

    def set_float(items):
        for v in items:
            p.y = 0.5

    def new_pos(items):
        for v in items:
            Point(v, 2.0, "a")

    def new_kw(items):
        for v in items:
            Point(x=v, y=2.0, name="a", tag=None)

    return (get_int, get_str, set_int, set_float, new_pos, new_kw)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--impl", default="tether", choices=["tether", "tvm_ffi"])
    opts = ap.parse_args()
    if opts.impl == "tether":
        import tether as ffi
    else:
        import tvm_ffi as ffi
    from_dc = ffi.dataclasses

    @from_dc.py_class(f"bench.py_class.Point.{opts.impl}")
    class Point(ffi.Object):
        x: int
        y: float
        name: str
        tag: Optional[ffi.Object] = None

    items = list(range(1000))
    row = [f"{best_ns(body, items):.1f}" for body in make_bodies(Point)]
    print(f"| {opts.impl} | " + " | ".join(row) + " |")


if __name__ == "__main__":
    print("| impl | " + " | ".join(CASES) + " |")
    main()
