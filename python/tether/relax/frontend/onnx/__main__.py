"""python -m tether.relax.frontend.onnx model.onnx [--shape name:1,3,224,224] [--json out.json]

Imports the model with from_onnx and prints the module's TVMScript (as apache-tvm prints it);
--json also saves the module as JSON (tether.ir.save_json, loadable by tvm.ir.load_json),
--shape replaces an input's declared shape (repeatable), --time reports the import time on
stderr, --quiet prints nothing but errors.  Exit status: 0 on success, 1 when the model cannot
be imported or a file cannot be read or written (the error on stderr, without a traceback),
2 for bad arguments."""
from __future__ import annotations

import argparse
import sys
import time


def _shape(text: str):
    name, sep, dims = text.rpartition(":")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"--shape takes name:d1,d2,... but got {text!r}")
    try:
        values = [int(d) for d in dims.split(",")] if dims else []
    except ValueError:
        raise argparse.ArgumentTypeError(f"--shape {text!r}: the dims must be integers") from None
    return name, values


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tether.relax.frontend.onnx",
                                 description="Import an ONNX model into Relax and print it.")
    ap.add_argument("model", help="the .onnx file")
    ap.add_argument("--shape", action="append", type=_shape, default=[],
                    metavar="NAME:D1,D2,...", help="an input's shape (repeatable)")
    ap.add_argument("--json", metavar="OUT", help="save the module as JSON for apache-tvm")
    ap.add_argument("--opset", type=int, default=None, help="convert for this opset")
    ap.add_argument("--keep-params-in-input", action="store_true",
                    help="initializers become parameters of main instead of constants")
    ap.add_argument("--time", action="store_true", help="print the import time on stderr")
    ap.add_argument("--quiet", action="store_true", help="do not print the module")
    args = ap.parse_args(argv)

    from . import from_onnx
    from .... import ir

    shapes = dict(args.shape)
    if len(shapes) != len(args.shape):
        ap.error("--shape: an input is given more than once")
    try:
        t0 = time.perf_counter()
        mod = from_onnx(args.model, shape_dict=shapes or None, opset=args.opset,
                        keep_params_in_input=args.keep_params_in_input)
        ms = (time.perf_counter() - t0) * 1e3
        text = None if args.quiet else mod.script()
        if args.json:
            with open(args.json, "w", encoding="utf-8") as f:
                f.write(ir.save_json(mod))
    except (OSError, ValueError, TypeError, NotImplementedError) as err:
        sys.stderr.write(f"{ap.prog}: error: {type(err).__name__}: {err}\n")
        return 1
    if text is not None:
        sys.stdout.write(text)
        sys.stdout.write("\n")
    if args.time:
        sys.stderr.write(f"from_onnx: {ms:.1f} ms\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
