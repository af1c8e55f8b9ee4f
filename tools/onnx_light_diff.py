"""Import the light_* models with tether and compare with apache-tvm's recorded modules.

For every model recorded in tests/python/data/onnx/ (by tools/onnx_record_tvm.py) it imports
the model with tether.relax.frontend.onnx.from_onnx, prints whether the text is identical to
apache-tvm's (sha256 and line count), where it first differs, and the import times, wall clock
and CPU: tether's (median of --runs, measured here) and TVM's (recorded with the texts; on a
shared machine the CPU times are the steadier comparison).

    .venv/bin/python tools/onnx_light_diff.py [--runs N] [--full DIR] [MODEL ...]

--full DIR: a directory holding apache-tvm's whole texts (onnx_record_tvm.py --full DIR), for
showing the first differing line past the recorded head.  Exits 1 when a model differs.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from onnx_common import read_record, sha256, timed_import  # noqa: E402

DATA = os.path.join(HERE, "..", "tests", "python", "data", "onnx")


def first_difference(text, want_lines):
    for i, (a, b) in enumerate(zip(text.split("\n"), want_lines)):
        if a != b:
            return i + 1, a, b
    return None


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("models", nargs="*")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--full", default=None)
    args = ap.parse_args(argv[1:])

    import onnx
    from tether.relax.frontend.onnx import from_onnx

    light = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "light")
    names = args.models or sorted(f[:-4] for f in os.listdir(DATA) if f.endswith(".txt"))
    print(f"{'model':22} {'nodes':>6} {'lines':>6} {'result':10} {'tether ms':>10} "
          f"{'TVM ms':>8} {'ratio':>6} {'tether CPU':>10} {'TVM CPU':>8} {'ratio':>6}")
    failed = 0
    for name in names:
        meta, head = read_record(os.path.join(DATA, name + ".txt"))
        model = onnx.load(os.path.join(light, name + ".onnx"))
        text, error = None, None
        try:
            mod, ms, cpu_ms = timed_import(from_onnx, model, args.runs)
            text = mod.script()
        except Exception as err:  # report and go on with the other models
            error = f"{type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''}"
        tvm_ms, tvm_cpu = float(meta["tvm_ms"]), float(meta["tvm_cpu_ms"])
        if error:
            failed += 1
            print(f"{name:22} {len(model.graph.node):6} {'':6} {'raised':10} {error}")
            continue
        same = sha256(text) == meta["sha256"]
        print(f"{name:22} {len(model.graph.node):6} {text.count(chr(10)) + 1:6} "
              f"{'identical' if same else 'DIFFERENT':10} {ms:10.1f} {tvm_ms:8.1f} "
              f"{tvm_ms / ms:6.1f} {cpu_ms:10.1f} {tvm_cpu:8.1f} {tvm_cpu / cpu_ms:6.1f}")
        if not same:
            failed += 1
            want = head
            if args.full and os.path.exists(os.path.join(args.full, name + ".txt")):
                with open(os.path.join(args.full, name + ".txt"), encoding="utf-8") as f:
                    want = f.read().split("\n")
            diff = first_difference(text, want)
            if diff:
                print(f"    line {diff[0]}:\n    tether: {diff[1]}\n    TVM:    {diff[2]}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
