"""Importing an ONNX model with tether: light_resnet50 (a ResNet-50 shipped with the `onnx`
package, in onnx/backend/test/data/light/) through tether.relax.frontend.onnx.from_onnx,
printing the head of the module's TVMScript and the import time.

    .venv/bin/python examples/onnx_demo.py [--lines N] [--model PATH] [--json OUT]

from_onnx takes what apache-tvm's from_onnx takes (an onnx.ModelProto; tether also accepts a
path or the serialized bytes) and builds the module apache-tvm 0.27 builds, printed the same
way.  --json OUT saves the module as JSON, which apache-tvm loads with tvm.ir.load_json.
"""
import argparse
import os
import sys
import time
import warnings


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", help="an .onnx file (default: the onnx package's light_resnet50)")
    ap.add_argument("--lines", type=int, default=30, help="how many lines of TVMScript to print")
    ap.add_argument("--json", metavar="OUT", help="save the module as JSON for apache-tvm")
    args = ap.parse_args(argv)

    try:
        import onnx
    except ImportError:
        sys.exit("onnx_demo: needs the `onnx` package (pip install tether[onnx])")
    from tether import ir
    from tether.relax.frontend.onnx import from_onnx

    path = args.model or os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data",
                                      "light", "light_resnet50.onnx")
    t0 = time.perf_counter()
    model = onnx.load(path)
    t1 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # input renamings, as apache-tvm warns them
        mod = from_onnx(model)
        t2 = time.perf_counter()
        from_onnx(model)  # again, now that the code it runs is loaded
        t3 = time.perf_counter()
    t4 = time.perf_counter()
    text = mod.script()
    t5 = time.perf_counter()

    lines = text.split("\n")
    main_fn = mod["main"]
    bindings = sum(len(block.bindings) for block in main_fn.body.blocks)
    print("\n".join(lines[:args.lines]))
    if len(lines) > args.lines:
        print(f"    ... ({len(lines) - args.lines} more lines)")
    print()
    print(f"{os.path.basename(path)}: {len(model.graph.node)} ONNX nodes -> {bindings} Relax "
          f"bindings, {len(lines)} lines of TVMScript")
    print(f"onnx.load {1e3 * (t1 - t0):.1f} ms; from_onnx {1e3 * (t2 - t1):.1f} ms (first "
          f"import in this process), {1e3 * (t3 - t2):.1f} ms (second); printing "
          f"{1e3 * (t5 - t4):.1f} ms")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            f.write(ir.save_json(mod))
        print(f"saved the module as JSON: {args.json} (tvm.ir.load_json reads it)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
