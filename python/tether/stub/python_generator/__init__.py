"""The Python target of the stub generator: ``.py``/``.pyi`` type stubs."""
from .generator import PythonGenerator

__all__ = ["PythonGenerator"]
