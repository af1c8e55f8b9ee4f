"""Quantize / dequantize (TVM's op/tensor/qdq.cc)."""
from .dsl import Const, Prim, Shape, Tensor, case

CASES = []
for _op, src, dst in (("quantize", "float32", "int8"), ("dequantize", "int8", "float32")):
    CASES += [
        case(_op, Tensor((2, 3), src), Tensor((), "float32"), Tensor((), "int8")),
        case(_op, Tensor((2, 3), src), Tensor((3,), "float32"), Tensor((3,), "int8")),
        case(_op, Tensor((2, 3), src), Tensor((2,), "float32"), Tensor((2,), "int8"), 0),
        case(_op, Tensor((2, 3), src), Tensor((1,), "float32"), Tensor((1,), "int8")),
        case(_op, Tensor((2, 3), src), Tensor((3,), "float32"), Tensor((3,), "int8"), -1, dst),
        case(_op, Tensor((2, 3), src), Tensor((3,), "float32"), Tensor((3,), "int8"), 1, "uint8"),
        case(_op, Tensor((2, 3), src), Tensor((3,), "float32"), Tensor((3,), "int8"), 1, "float16"),
        case(_op, Tensor((2, 3), src), Tensor((3,), "float32"), Tensor((3,), "int8"), 1, "int32"),
        case(_op, Tensor((2, 3), src), Tensor((3,), "float32"), Tensor((3,), "int8"), 2),
        case(_op, Tensor((2, 3), src), Tensor((3,), "float32"), Tensor((3,), "int8"), -3),
        case(_op, Tensor((2, 3), src), Tensor((4,), "float32"), Tensor((4,), "int8")),
        case(_op, Tensor((2, 3), src), Tensor((3,), "float32"), Tensor((2,), "int8")),
        case(_op, Tensor((2, 3), src), Tensor((3, 1), "float32"), Tensor((3,), "int8")),
        case(_op, Tensor((2, 3), src), Tensor((3,), "float16"), Tensor((3,), "int8")),
        case(_op, Tensor((2, 3), src), Tensor((3,), "int32"), Tensor((3,), "int8")),
        case(_op, Tensor((2, 3), src), Tensor((3,), "float32"), Tensor((3,), "float32")),
        case(_op, Tensor((2, 3), src), Tensor((3,), "float32"), Tensor((3,), "uint8")),
        case(_op, Tensor((2, 3), src), Tensor((3,), "float32"), Tensor((3,), "int32")),
        case(_op, Tensor((2, 3), "int32"), Tensor((3,), "float32"), Tensor((3,), "int8")),
        case(_op, Tensor((2, 3), "float16"), Tensor((3,), "float32"), Tensor((3,), "int8")),
        case(_op, Tensor(("n", "c"), src), Tensor(("c",), "float32"), Tensor(("c",), "int8")),
        case(_op, Tensor(("n", "c"), src), Tensor(("k",), "float32"), Tensor(("k",), "int8")),
        case(_op, Tensor(None, src, ndim=2), Tensor((3,), "float32"), Tensor((3,), "int8")),
        case(_op, Tensor(None, src), Tensor((3,), "float32"), Tensor((3,), "int8")),
        case(_op, Tensor((2, 3), None), Tensor((3,), "float32"), Tensor((3,), "int8")),
        case(_op, Tensor((2, 3), src), Tensor(None, "float32"), Tensor(None, "int8")),
        case(_op, Tensor((2, 3), src), Const(0.5, "float32"), Const(0, "int8")),
        case(_op, Tensor((2, 3), src), Prim(0.5, "float32"), Prim(0, "int8")),
        case(_op, Shape((2, 3)), Tensor((), "float32"), Tensor((), "int8")),
    ]
