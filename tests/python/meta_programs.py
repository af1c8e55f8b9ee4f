"""Relax programs with constants, written once against the API that tether.relax and
tvm.relax share, to compare what tether prints with `script(show_meta=True)` (and writes with
save_json) against what apache-tvm prints for the very same program.

Each program is a function (relax, numpy) -> IR node.  tests/python/test_show_meta.py builds
them with tether.relax; tools/record_tvm_meta.py builds them with tvm.relax and records
apache-tvm's texts into tests/python/data/tvm_meta/ (see that tool for the command).
"""
from __future__ import annotations


def _module(relax, params, body):
    """A module with one function "main"(params) whose dataflow block is body(bb) -> output."""
    bb = relax.BlockBuilder()
    with bb.function("main", params):
        with bb.dataflow():
            out = bb.emit_output(body(bb))
        bb.emit_func_output(out)
    return bb.get()


def two_constants(relax, np):
    x = relax.Var("x", relax.TensorType((2, 3), "float32"))
    c0 = relax.const(np.arange(6, dtype="float32").reshape(2, 3))
    c1 = relax.const(np.array([1, 2, 3], dtype="float32"))
    return _module(relax, [x], lambda bb: bb.emit(relax.op.add(bb.emit(relax.op.add(x, c0)), c1)))


def shared_constant(relax, np):
    """One constant object used twice: one metadata entry, referred to twice."""
    x = relax.Var("x", relax.TensorType((4,), "int32"))
    c = relax.const(np.array([7, -8, 9, 2147483647], dtype="int32"))
    return _module(relax, [x], lambda bb: bb.emit(relax.op.multiply(bb.emit(relax.op.add(x, c)), c)))


def many_dtypes(relax, np):
    """Constants of several dtypes (their TensorType dtype nodes and tensor payloads)."""
    x = relax.Var("x", relax.TensorType((2, 2), "float16"))
    consts = [
        relax.const(np.array([[1.5, -2.25], [3.0, 0.0]], dtype="float16")),
        relax.const(np.array([[1, 0], [0, 1]], dtype="int8")),
        relax.const(np.array([[True, False], [False, True]])),
        relax.const(np.array([[1e300, -1e-300], [0.5, 2.0]], dtype="float64"), "float64"),
        relax.const(np.array([[1, 2], [3, 4]], dtype="uint8")),
    ]

    def body(bb):
        v = bb.emit(relax.op.add(x, consts[0]))
        t = bb.emit(relax.Tuple([v] + consts[1:]))
        return t

    return _module(relax, [x], body)


def zero_size_and_high_rank(relax, np):
    """A (0, 3) constant (no data bytes) and a rank-4 one."""
    x = relax.Var("x", relax.TensorType((1, 2, 1, 2), "float32"))
    empty = relax.const(np.zeros((0, 3), dtype="float32"))
    rank4 = relax.const(np.arange(4, dtype="float32").reshape(1, 2, 1, 2))
    return _module(relax, [x], lambda bb: bb.emit(relax.Tuple([bb.emit(relax.op.add(x, rank4)), empty])))


def function_only(relax, np):
    """A function (not a module) printed with show_meta."""
    return two_constants(relax, np)["main"]


def no_constants(relax, np):
    """show_meta on a module without metadata prints no header."""
    x = relax.Var("x", relax.TensorType((2,), "float32"))
    return _module(relax, [x], lambda bb: bb.emit(relax.op.add(x, x)))


def scalar_constant(relax, np):
    """A scalar constant prints inline (R.const(2.5, "float32")), not as metadata."""
    x = relax.Var("x", relax.TensorType((), "float32"))
    return _module(relax, [x], lambda bb: bb.emit(relax.op.add(x, relax.const(np.float32(2.5)))))


# A string with every class of character the metadata header escapes differently: quotes and
# backslashes, tab / CR / LF, other control characters, DEL, non-ASCII (UTF-8 bytes).
ESCAPE_TEXT = "a\nb\"c\\d\x01\u00e9\t\r/\x7f\u4e2d'"


def string_imm(ir):
    """A StringImm holding a newline prints as metadata (built from tether.ir or tvm.ir)."""
    return ir.StringImm(ESCAPE_TEXT)


PROGRAMS = {f.__name__: f for f in (two_constants, shared_constant, many_dtypes,
                                    zero_size_and_high_rank, function_only, no_constants,
                                    scalar_constant)}
