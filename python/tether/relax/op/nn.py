"""relax.op.nn: neural-network operators.  Every function is made from its op's declaration in
libtether_ir (src/ir/ops/nn.c): TVM's signature and defaults, calling the C constructor global
"relax.op.nn.<name>", which returns the un-normalized Call (its type is inferred by
BlockBuilder.normalize / emit)."""
from __future__ import annotations

from ._util import lookup, populate

__all__ = populate(globals(), "nn")


def __getattr__(name: str):
    return lookup("nn", __name__, name)
