"""Elementwise unary ops (TVM's op/unary.cc and datatype.cc): math, predicates, bitwise/logical
not, clip, astype."""
from .dsl import AnyVar, Const, Prim, PrimVar, Shape, ShapeVar, Tensor, TensorTy, TupleVar, case

# Float-only math (TVM requires a float input; an int input is an error for these).
FLOAT_OPS = ["acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh", "erf", "exp",
             "log", "sigmoid", "sin", "sinh", "sqrt", "tan", "tanh"]
# Any numeric dtype.
ARITH_OPS = ["abs", "ceil", "floor", "negative", "round", "sign"]
# bool result.
PRED_OPS = ["isfinite", "isinf", "isnan"]
# int / bool input.
NOT_OPS = ["bitwise_not", "logical_not"]

CASES = []


def _common(name):
    """Shapes and the non-tensor errors every unary op shares."""
    return [
        case(name, Tensor((2, 3))),
        case(name, Tensor(("n", 4, "m"), "float16")),
        case(name, Tensor(("n * 2", "m + 1"), "float32")),
        case(name, Tensor(None, "float32", ndim=3)),
        case(name, Tensor(None, "float32")),
        case(name, Tensor((2, 3), None)),
        case(name, Tensor(None, None)),
        case(name, Tensor((), "float32")),
        case(name, Tensor((0, 5), "float64")),
        case(name, Shape((2, 3))),
        case(name, ShapeVar(ndim=2)),
        case(name, TupleVar(TensorTy((2, 3)))),
        case(name, PrimVar("float32")),
        case(name, AnyVar()),
        case(name, Const([1.0, 2.0], "float32")),
    ]


for _op in FLOAT_OPS:
    CASES += _common(_op)
    CASES += [case(_op, Tensor((2, 3), "int32")), case(_op, Tensor((4,), "bool")),
              case(_op, Tensor(("n",), "int64")), case(_op, Tensor((2,), "bfloat16"))]

for _op in ARITH_OPS:
    CASES += _common(_op)
    CASES += [case(_op, Tensor((2, 3), "int32")), case(_op, Tensor(("n",), "int8")),
              case(_op, Tensor((4,), "bool")), case(_op, Tensor((4,), "uint8"))]

for _op in PRED_OPS:
    CASES += _common(_op)
    CASES += [case(_op, Tensor((2, 3), "int32")), case(_op, Tensor((4,), "bool")),
              case(_op, Tensor(("n", 2), "float16"))]

for _op in NOT_OPS:
    CASES += _common(_op)
    CASES += [case(_op, Tensor((2, 3), "int32")), case(_op, Tensor((4,), "bool")),
              case(_op, Tensor(("n",), "uint8")), case(_op, Tensor(("n",), "int64"))]

# clip(x, min, max): min/max become PrimValues.
CASES += [
    case("clip", Tensor((2, 3)), 0, 6),
    case("clip", Tensor((2, 3)), 0.0, 6.0),
    case("clip", Tensor(("n", 3), "int32"), -1, 1),
    case("clip", Tensor(None, "float32", ndim=2), 0, 1),
    case("clip", Tensor(None, None), 0, 1),
    case("clip", Tensor((2, 3)), Prim(0, "int64"), Prim(6, "int64")),
    case("clip", Tensor((2, 3)), Prim(0.5, "float32"), Prim(1.5, "float32")),
    case("clip", Tensor((2, 3)), Prim("n"), Prim("n + 1")),
    case("clip", Tensor((2, 3)), PrimVar("int64"), PrimVar("int64")),
    case("clip", Shape((2, 3)), 0, 1),
    case("clip", Tensor((2, 3)), Tensor((2, 3)), 1),
    case("clip", Tensor((2, 3)), None, 1),
]

# astype(x, dtype)
CASES += [
    case("astype", Tensor((2, 3)), "float16"),
    case("astype", Tensor((2, 3)), "int32"),
    case("astype", Tensor((2, 3)), "bool"),
    case("astype", Tensor(("n", "m"), "int64"), "float32"),
    case("astype", Tensor(None, "float32", ndim=2), "int8"),
    case("astype", Tensor(None, None), "float32"),
    case("astype", Tensor((2, 3), None), "float32"),
    case("astype", Tensor((2, 3)), "float32"),
    case("astype", Tensor((2, 3)), "bfloat16"),
    case("astype", Shape((2, 3)), "float32"),
    case("astype", Tensor((2, 3)), "notadtype"),
    case("astype", PrimVar("int32"), "float32"),
]
