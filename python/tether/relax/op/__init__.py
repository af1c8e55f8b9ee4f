"""relax.op: Relax operators as Python functions with TVM's signatures and defaults.

Every function here is made from its op's declaration in the op registry (libtether_ir's
src/ir/ops/<category>.c, or a library's own trx_op_register): a C SignatureFunction calling
the constructor global "relax.op.<name>", which shapes the arguments the way TVM's wrapper
does (an int axis becomes [axis], a list of tensors a relax.Tuple, a list of dims a
ShapeExpr, a Python number a primitive constant, ...) and returns the Call node
(un-normalized: its type is filled in by BlockBuilder.normalize / emit).  Namespaces
(relax.op.nn, ...) are submodules; an op registered later is found on first use, and
refresh() re-reads the registry.
"""
from __future__ import annotations

from ...ir import Expr
from . import nn
from ._util import lookup, populate, submodules

# Typing names for annotations only.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Optional

__all__ = ["nn", "linear", "refresh"] + populate(globals(), "")


def linear(data: Expr, weight: Expr, bias: Optional[Expr] = None,
           out_dtype: Optional[str] = None) -> Expr:
    """data @ weight^T (+ bias): matmul(data, permute_dims(weight), out_dtype) then add."""
    out = matmul(data, permute_dims(weight, axes=None), out_dtype=out_dtype)
    return out if bias is None else add(out, bias)


def refresh() -> None:
    """Re-reads the op registry: wrappers for ops registered since import (by another library
    through trx_op_register), in this module and its namespaces."""
    global __all__
    __all__ = sorted(set(__all__) | set(populate(globals(), "")))
    nn.__all__ = populate(nn.__dict__, "nn")
    for prefix, mod in submodules(__name__).items():
        globals()[prefix] = mod


def __getattr__(name: str):
    return lookup("", __name__, name)


for _prefix, _mod in submodules(__name__).items():
    globals()[_prefix] = _mod
