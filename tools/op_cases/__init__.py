"""op_cases: Relax op test cases, one module per op category, run on apache-tvm and on tether.

Each category module (unary, binary, create, ...) defines CASES, a list of dsl.Case: an op call
with its argument specs (see dsl.py).  tools/tvm_op_cases.py runs them on apache-tvm 0.27 and
records the results in tests/python/data/op_cases/<category>.json; tests/python/test_op_cases.py
runs the same cases on tether and compares.  Nothing here imports either library at import time:
tvm_api() and tether_api() bind a side when called.
"""
import importlib
import types

CATEGORIES = ("unary", "binary", "create", "shape", "manip", "index", "reduce", "linalg", "nn",
              "image", "vision", "qdq", "core")


def load(category):
    """The cases of one category module, in table order; a case whose key an earlier one
    already has (tables built in loops can repeat one) is dropped."""
    if category not in CATEGORIES:
        raise KeyError(f"op_cases: no category {category!r} (one of {', '.join(CATEGORIES)})")
    seen, out = set(), []
    for c in importlib.import_module(f"{__name__}.{category}").CASES:
        if c.key not in seen:
            seen.add(c.key)
            out.append(c)
    return out


def tvm_api():
    """The apache-tvm side: its relax module and the PrimExpr constructors the specs need."""
    import tvm
    from tvm import relax, tirx

    def tensor_type(shape, dtype, ndim):
        return relax.TensorType(shape, dtype, ndim=ndim)

    return types.SimpleNamespace(
        name="apache-tvm " + tvm.__version__, relax=relax, tensor_type=tensor_type,
        prim_type=tvm.ir.PrimType,
        sym=lambda name: tirx.Var(name, "int64"),
        int_imm=lambda dtype, v: tirx.IntImm(dtype, v),
        float_imm=lambda dtype, v: tirx.FloatImm(dtype, v))


def tether_api():
    """The tether side."""
    import tether
    from tether import relax

    def tensor_type(shape, dtype, ndim):
        return relax.TensorType(shape, dtype, ndim=ndim)

    return types.SimpleNamespace(
        name="tether " + getattr(tether, "__version__", ""), relax=relax, tensor_type=tensor_type,
        prim_type=relax.PrimType,
        sym=lambda name: relax.Var(name, "int64"),
        int_imm=lambda dtype, v: relax.IntImm(dtype, v),
        float_imm=lambda dtype, v: relax.FloatImm(dtype, v))
