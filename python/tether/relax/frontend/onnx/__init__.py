"""tether.relax.frontend.onnx: import an ONNX model as a Relax IRModule.

    import onnx
    from tether.relax.frontend.onnx import from_onnx
    mod = from_onnx(onnx.load("model.onnx"))      # or from_onnx("model.onnx"), or bytes
    print(mod)                                    # the TVMScript, as apache-tvm prints it

from_onnx has apache-tvm 0.27's signature and builds the module TVM's frontend builds: one
function "main" whose parameters are the graph inputs, with R.func_attr({"num_input": N}),
one dataflow block, the graph's initializers as constants, the outputs as the block's output.
The op converters are a table keyed by ONNX op type and opset version (see converters.py:
`converter` registers one, `supported_ops` lists them).

Command line: python -m tether.relax.frontend.onnx model.onnx [--shape name:1,3,224,224]
[--json out.json] prints the TVMScript (and saves the module as JSON for apache-tvm).

Needs the `onnx` package (pip install tether[onnx]).
"""
try:
    import onnx as _onnx  # noqa: F401
except ImportError as _err:  # the optional dependency is missing: say how to get it
    raise ImportError(
        "tether.relax.frontend.onnx needs the `onnx` package, which is not installed "
        f"({_err}); install it with `pip install tether[onnx]` (or `pip install onnx`)"
    ) from _err

from .converters import converter, get_converter, supported_ops
from .importer import from_onnx

__all__ = ["from_onnx", "converter", "get_converter", "supported_ops"]
