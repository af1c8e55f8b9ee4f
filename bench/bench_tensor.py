"""bench_tensor.py -- Python-level DLPack round trips, to put bench_tensor.c's C figures in context.

Measures, in ns per operation (best of 5 runs):
  numpy:  np.from_dlpack(a) for a numpy array a (capsule export + import, no copy);
  tvm_ffi (if installed, e.g. apache-tvm-ffi in a scratch venv): tvm_ffi.from_dlpack(a) and the
          way back np.from_dlpack(tensor).
tether's own Python binding is measured here too once it exists (module `tether`, if importable).

Usage: python bench/bench_tensor.py [--number N] [--append PATH]
  --append adds a markdown section to PATH (normally bench/results/tensor.md, after
  `bench_bench_tensor --write`).
"""

import argparse
import importlib
import sys
import timeit


def best_ns(stmt, number):
    runs = timeit.repeat(stmt, number=number, repeat=5)
    return min(runs) / number * 1e9


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=200000)
    parser.add_argument("--append", metavar="PATH")
    args = parser.parse_args()

    import numpy as np

    a = np.zeros((2, 3, 4), dtype=np.float32)
    rows = [("numpy %s" % np.__version__, "np.from_dlpack(ndarray)",
             best_ns(lambda: np.from_dlpack(a), args.number))]

    for name in ("tvm_ffi", "tether"):
        try:
            mod = importlib.import_module(name)
        except ImportError:
            continue
        from_dlpack = getattr(mod, "from_dlpack", None)
        if from_dlpack is None:
            continue
        label = "%s %s" % (name, getattr(mod, "__version__", ""))
        rows.append((label, "%s.from_dlpack(ndarray)" % name,
                     best_ns(lambda: from_dlpack(a), args.number)))
        t = from_dlpack(a)
        rows.append((label, "np.from_dlpack(%s Tensor)" % name,
                     best_ns(lambda: np.from_dlpack(t), args.number)))

    print("%-24s %-34s %10s" % ("runtime", "operation", "ns/op"))
    for runtime, what, ns in rows:
        print("%-24s %-34s %10.1f" % (runtime, what, ns))

    if args.append:
        with open(args.append, "a") as f:
            f.write("## Python, DLPack via capsules (python %s, %d calls per run)\n\n"
                    % (sys.version.split()[0], args.number))
            f.write("| runtime | operation | ns/op |\n|---|---|---|\n")
            for runtime, what, ns in rows:
                f.write("| %s | `%s` | %.1f |\n" % (runtime, what, ns))
            f.write("\n")


if __name__ == "__main__":
    main()
