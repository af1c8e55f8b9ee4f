"""TypeSchema.convert: tether's C converter against apache-tvm-ffi's, value by value.

The same schemas on both sides, from the same annotations (``TypeSchema.from_annotation``):

  int             int                  <- 42
  float <- int    float                <- 3
  str             str                  <- "hello world!"
  Optional[int]   Optional[int]        <- None
  list[int] x8    list[int]            <- [1, ..., 8]
  dict x4         dict[str, float]     <- {"a": 1, "b": 2.0, "c": 3, "d": 4.0}
  reject          int                  <- "x" (the TypeError path)

Timing as bench_pyclass.py does it (batches of k conversions, garbage collector off, REPS
rounds in a fresh random order, best batch / k minus the empty loop, thread CPU time).
The ratio column is tether's time over tvm-ffi's (below 1: tether is faster).

Usage: python bench_typeschema.py [--reps N] [--batch-ms MS] [--out FILE.md]
"""
from __future__ import annotations

import argparse
import typing
from itertools import repeat

from bench_pyclass import BATCH_MS, measure


def cases(core):
    A = core.TypeSchema.from_annotation
    table = {
        "int": (A(int), 42),
        "float <- int": (A(float), 3),
        "str": (A(str), "hello world!"),
        "Optional[int]": (A(typing.Optional[int]), None),
        "list[int] x8": (A(list[int]), [1, 2, 3, 4, 5, 6, 7, 8]),
        "dict x4": (A(dict[str, float]), {"a": 1, "b": 2.0, "c": 3, "d": 4.0}),
    }
    out = {}
    for name, (schema, value) in table.items():
        schema.convert(value)  # builds the converter outside the timing

        def run(k, convert=schema.convert, value=value):
            for _ in repeat(None, k):
                convert(value)

        out[name] = run
    reject_schema = A(int)

    def reject(k):
        for _ in repeat(None, k):
            try:
                reject_schema.convert("x")
            except TypeError:
                pass

    out["reject"] = reject
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--batch-ms", type=float, default=BATCH_MS)
    ap.add_argument("--out", default=None, help="also write the table to this markdown file")
    args = ap.parse_args()

    import tether.core
    import tvm_ffi.core

    sides = {"tether": cases(tether.core), "tvm-ffi": cases(tvm_ffi.core)}
    table = measure(sides, args.reps, args.batch_ms)
    print(table)
    if args.out:
        with open(args.out, "w") as f:
            f.write("# TypeSchema.convert: tether vs tvm-ffi\n\n"
                    f"`python bench/python/bench_typeschema.py --reps {args.reps}`; per "
                    "conversion, best batch minus the empty loop, thread CPU time.\n\n"
                    + table + "\n")


if __name__ == "__main__":
    main()
