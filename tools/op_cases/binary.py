"""Elementwise binary ops with broadcasting (TVM's op/binary.cc): arithmetic, comparison,
logical, bitwise and shifts."""
from .dsl import AnyVar, Const, Prim, PrimVar, Shape, ShapeVar, Tensor, TensorTy, TupleVar, case

ARITH = ["add", "subtract", "multiply", "divide", "floor_divide", "power", "mod", "floor_mod",
         "maximum", "minimum"]
COMPARE = ["equal", "less", "greater", "less_equal", "greater_equal"]
LOGICAL = ["logical_and", "logical_or", "logical_xor"]
BITWISE = ["bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift"]

CASES = []


def _shapes(name, dtype):
    """Broadcasting over static, symbolic and unknown shapes, all in one dtype."""
    T = lambda shape, **kw: Tensor(shape, dtype, **kw)  # noqa: E731
    return [
        case(name, T((2, 3)), T((2, 3))),
        case(name, T((2, 1, 4)), T((3, 1))),
        case(name, T((4,)), T((2, 3, 4))),
        case(name, T(()), T((2, 3))),
        case(name, T((2, 3)), T((2, 4))),
        case(name, T((2, 3)), T((3, 2))),
        case(name, T(("n", 3)), T(("n", 3))),
        case(name, T(("n", 3)), T((1, 3))),
        case(name, T(("n", 1)), T((1, "m"))),
        case(name, T(("n",)), T(("m",))),
        case(name, T(("n", 3)), T((2, 3))),
        case(name, T(("n + 1", 2)), T(("n + 1", 1))),
        case(name, T(("n * 2",)), T(("2 * n",))),
        case(name, T(None, ndim=2), T((2, 3))),
        case(name, T(None, ndim=3), T((2, 3))),
        case(name, T(None), T((2, 3))),
        case(name, T(None), T(None)),
        case(name, T((2, 3)), Const(1, dtype)),
    ]


def _errors(name, dtype, other):
    """Dtype mismatch, unknown dtypes and non-tensor operands."""
    return [
        case(name, Tensor((2, 3), dtype), Tensor((2, 3), other)),
        case(name, Tensor((2, 3), dtype), Tensor((2, 3), None)),
        case(name, Tensor((2, 3), None), Tensor((2, 3), dtype)),
        case(name, Tensor((2, 3), "bool"), Tensor((2, 3), dtype)),
        case(name, Tensor((2, 3), dtype), Tensor((2, 3), "bool")),
        case(name, Tensor((2, 3), dtype), Shape((2, 3))),
        case(name, ShapeVar(ndim=2), Tensor((2, 3), dtype)),
        case(name, Tensor((2, 3), dtype), TupleVar(TensorTy((2, 3), dtype))),
        case(name, Tensor((2, 3), dtype), AnyVar()),
        case(name, Tensor((2, 3), dtype), PrimVar(dtype)),
        case(name, Tensor((2, 3), dtype), 1),
        case(name, Tensor((2, 3), dtype), 1.5),
        case(name, Tensor((2, 3), dtype), Prim(2, "int64")),
    ]


for _op in ARITH:
    CASES += _shapes(_op, "float32")
    CASES += _errors(_op, "float32", "int32")
    CASES += [case(_op, Tensor((2, 3), "int32"), Tensor((3,), "int32")),
              case(_op, Tensor((2, 3), "float16"), Tensor((2, 3), "float16"))]

for _op in COMPARE:
    CASES += _shapes(_op, "float32")
    CASES += _errors(_op, "float32", "int64")
    CASES += [case(_op, Tensor((2, 3), "int32"), Tensor((3,), "int32")),
              case(_op, Tensor(("n",), "bool"), Tensor(("n",), "bool"))]

for _op in LOGICAL:
    CASES += _shapes(_op, "bool")
    CASES += _errors(_op, "bool", "int32")
    CASES += [case(_op, Tensor((2, 3), "float32"), Tensor((2, 3), "float32")),
              case(_op, Tensor((2, 3), "int32"), Tensor((2, 3), "int32"))]

for _op in BITWISE:
    CASES += _shapes(_op, "int32")
    CASES += _errors(_op, "int32", "int64")
    CASES += [case(_op, Tensor((2, 3), "float32"), Tensor((2, 3), "float32")),
              case(_op, Tensor((2, 3), "uint8"), Tensor((3,), "uint8"))]
