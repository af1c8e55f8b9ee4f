"""The cost of passing a str argument: `testing.nop` called with no argument, with one
13-byte str (the same object every call), and with 13-byte strs that differ from call to
call (1000 distinct objects in turn), under tether or apache-tvm-ffi.

    python bench/python/bench_str_arg.py [--impl tether|tvm_ffi] [--release-gil 0|1]

Prints one Markdown table row: ns per call for each case (best of 15 runs of 100,000 calls,
thread CPU time, so time spent preempted on a busy machine is not counted; every case runs
the same `for s in <list of 1000>` loop, so the loop's cost is the same in each) and, in
parentheses, the str's own cost (the call minus the no-argument call).  Run it under both packages in
the same session to compare (the two runtimes are loaded in separate processes).
"""
import argparse
import time


def best_ns_per_call(body, items, rounds=100, runs=15):
    best = float("inf")
    for _ in range(runs):
        t0 = time.thread_time_ns()
        for _ in range(rounds):
            body(items)
        best = min(best, (time.thread_time_ns() - t0) / (rounds * len(items)))
    return best


def no_arg(nop):
    def body(items):
        for s in items:
            nop()
    return body


def one_arg(nop):
    def body(items):
        for s in items:
            nop(s)
    return body


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--impl", default="tether", choices=["tether", "tvm_ffi"])
    ap.add_argument("--release-gil", type=int, default=None,
                    help="set Function.release_gil (default: the package's default)")
    opts = ap.parse_args()
    if opts.impl == "tether":
        import tether as ffi
    else:
        import tvm_ffi as ffi
    nop = ffi.get_global_func("testing.nop")
    if opts.release_gil is not None:
        nop.release_gil = bool(opts.release_gil)
    same = "hello, world!"
    assert len(same.encode()) == 13
    distinct = [f"hello, {i:06d}"[:13] for i in range(1000)]
    assert all(len(s) == 13 for s in distinct) and len(set(distinct)) == 1000
    same_list = [same] * len(distinct)
    base = best_ns_per_call(no_arg(nop), same_list)
    one = best_ns_per_call(one_arg(nop), same_list)
    many = best_ns_per_call(one_arg(nop), distinct)
    gil = getattr(nop, "release_gil", None)
    print(f"| {opts.impl} (release_gil={gil}) | {base:.1f} | {one:.1f} ({one - base:+.1f}) "
          f"| {many:.1f} ({many - base:+.1f}) |")


if __name__ == "__main__":
    main()
