"""Record apache-tvm's Relax module for ONNX models, for tests/python/test_onnx_frontend.py.

For each model (by default the light_* models shipped with the `onnx` package, in
onnx/backend/test/data/light/) it imports the model with tvm.relax.frontend.onnx.from_onnx and
writes tests/python/data/onnx/<model>.txt: the module's sha256, line count, TVM's import
times and the first lines (the format: tools/onnx_common.py)

(the printed modules are hundreds of kilobytes, so the file keeps a digest and the head; the head
is what a failing test shows as the first difference).  With --full DIR the whole texts are
written there too (DIR/<model>.txt), for diffing by hand.

Run it with an interpreter that has apache-tvm 0.27.0.post1, apache-tvm-ffi 0.1.14.post1 and
onnx, e.g.

    python3 -m venv /tmp/onnx-tvm
    /tmp/onnx-tvm/bin/pip install apache-tvm==0.27.0.post1 apache-tvm-ffi==0.1.14.post1 onnx numpy
    /tmp/onnx-tvm/bin/python tools/onnx_record_tvm.py [--full DIR] [--runs N] [MODEL ...]

MODEL is a light model name (light_resnet50) or a path to a .onnx file.  With --cases it
records instead the small models of tests/python/onnx_cases.py, whole, into
tests/python/data/onnx/cases/<case>.txt.
"""
import argparse
import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from onnx_common import format_record, timed_import  # noqa: E402

DEFAULT_OUT = os.path.join(HERE, "..", "tests", "python", "data", "onnx")
LIGHT = ["light_resnet50", "light_bvlc_alexnet", "light_densenet121", "light_inception_v1",
         "light_inception_v2", "light_shufflenet", "light_squeezenet", "light_vgg19",
         "light_zfnet512"]


def model_path(onnx, name):
    """A light model's file in the onnx package, or name itself when it is a path."""
    if name.endswith(".onnx"):
        return name
    return os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "light",
                        name + ".onnx")


def record_cases(onnx, from_onnx, out_dir):
    """The whole printed module of every case of tests/python/onnx_cases.py (or what TVM
    raised: `# raises <type>`) into out_dir/<case>.txt."""
    import numpy as np

    sys.path.insert(0, os.path.join(HERE, "..", "tests", "python"))
    from onnx_cases import CASES

    os.makedirs(out_dir, exist_ok=True)
    for name, build in sorted(CASES.items()):
        model, kwargs = build(onnx, np)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                text = from_onnx(model, **kwargs).script()
        except Exception as err:
            text = f"# raises {type(err).__name__}"
        with open(os.path.join(out_dir, name + ".txt"), "w", encoding="utf-8") as f:
            f.write(text)
        print(f"{name}: {text.splitlines()[0] if text.startswith('# raises') else 'recorded'}")


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("models", nargs="*", default=LIGHT)
    ap.add_argument("--out", default=DEFAULT_OUT, help="directory of the recorded files")
    ap.add_argument("--full", default=None, help="also write the whole printed modules here")
    ap.add_argument("--runs", type=int, default=3, help="timed imports per model (median)")
    ap.add_argument("--cases", action="store_true",
                    help="record the small models of tests/python/onnx_cases.py instead")
    args = ap.parse_args(argv[1:])

    import onnx
    import tvm
    from tvm.relax.frontend.onnx import from_onnx

    os.makedirs(args.out, exist_ok=True)
    if args.full:
        os.makedirs(args.full, exist_ok=True)
    if args.cases:
        record_cases(onnx, from_onnx, os.path.join(args.out, "cases"))
        return
    for name in args.models:
        path = model_path(onnx, name)
        stem = os.path.splitext(os.path.basename(path))[0]
        model = onnx.load(path)
        try:
            mod, ms, cpu_ms = timed_import(from_onnx, model, args.runs)
            text = mod.script()
        except Exception as err:  # a model TVM does not import: say so, record nothing
            print(f"{stem}: TVM raised {type(err).__name__}: {str(err).splitlines()[0]}")
            continue
        with open(os.path.join(args.out, stem + ".txt"), "w", encoding="utf-8") as f:
            f.write(format_record(text, ms, cpu_ms))
        if args.full:
            with open(os.path.join(args.full, stem + ".txt"), "w", encoding="utf-8") as f:
                f.write(text)
        print(f"{stem}: {len(model.graph.node)} nodes, {text.count(chr(10)) + 1} lines, "
              f"TVM {ms:.1f} ms, CPU {cpu_ms:.1f} ms (apache-tvm {tvm.__version__})")


if __name__ == "__main__":
    main(sys.argv)
