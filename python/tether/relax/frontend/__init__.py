"""tether.relax.frontend: importers from other model formats into Relax.

    from tether.relax.frontend.onnx import from_onnx   # needs `pip install tether[onnx]`

Each frontend is a submodule imported on demand, so that its optional dependency (the `onnx`
package for the ONNX frontend) is only needed by those who use it.
"""
__all__ = ["onnx"]
