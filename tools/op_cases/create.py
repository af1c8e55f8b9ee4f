"""Creation ops (TVM's op/tensor/create.cc): zeros/ones/full, their *_like forms, eye_like,
arange, tril/triu."""
from .dsl import AnyVar, Const, Prim, PrimVar, Shape, ShapeVar, Tensor, TensorTy, TupleVar, case

CASES = []

for _op in ("zeros", "ones"):
    CASES += [
        case(_op, (2, 3), "float32"),
        case(_op, [4], "int32"),
        case(_op, (), "float32"),
        case(_op, (Prim("n"), 3), "float16"),
        case(_op, (Prim("n * 2"), Prim("m")), "int8"),
        case(_op, ("n", 3), "float16"),
        case(_op, Shape((2, "n")), "bool"),
        case(_op, ShapeVar(ndim=2), "float32"),
        case(_op, ShapeVar(None), "float32"),
        case(_op, ShapeVar((2, "m")), "float32"),
        case(_op, (2, 3), None),
        case(_op, Tensor((2,), "int64"), "float32"),
        case(_op, (2, -1), "float32"),
        case(_op, (2.5, 3), "float32"),
        case(_op, (2, 3), "float32x4"),
    ]

CASES += [
    case("full", (2, 3), Const(1.0, "float32")),
    case("full", (2, 3), Const(1, "int32"), "float32"),
    case("full", (Prim("n"),), Const(0.5, "float16")),
    case("full", Shape((2, 3)), Const(1.0, "float32"), "int64"),
    case("full", ShapeVar(ndim=3), Const(1.0, "float32")),
    case("full", (2, 3), Tensor((), "float32")),
    case("full", (2, 3), Tensor((1,), "float32")),
    case("full", (2, 3), Tensor((), None)),
    case("full", (2, 3), Tensor(None, "float32")),
    case("full", (2, 3), Tensor(None, "float32", ndim=1)),
    case("full", (2, 3), Shape((2,))),
    case("full", (2, 3), 1.0),
    case("full", Tensor((2,), "int64"), Const(1.0, "float32")),
]

for _op in ("zeros_like", "ones_like"):
    CASES += [
        case(_op, Tensor((2, 3))),
        case(_op, Tensor((2, 3)), "int32"),
        case(_op, Tensor(("n", "m"), "int64")),
        case(_op, Tensor(None, "float32", ndim=2), "float16"),
        case(_op, Tensor(None, None)),
        case(_op, Tensor((2, 3), None)),
        case(_op, Tensor((2, 3), None), "bool"),
        case(_op, Shape((2, 3))),
        case(_op, TupleVar(TensorTy((2,)))),
        case(_op, AnyVar()),
    ]

CASES += [
    case("full_like", Tensor((2, 3)), Const(1.0, "float32")),
    case("full_like", Tensor((2, 3)), Const(1, "int32")),
    case("full_like", Tensor((2, 3)), Const(1, "int32"), "int8"),
    case("full_like", Tensor(("n",), "int32"), Tensor((), "float32")),
    case("full_like", Tensor((2, 3)), Tensor((2,), "float32")),
    case("full_like", Tensor(None, None), Tensor((), None)),
    case("full_like", Tensor((2, 3)), Shape((1,))),
]

CASES += [
    case("eye_like", Tensor((3, 3))),
    case("eye_like", Tensor((3, 4)), 1),
    case("eye_like", Tensor((3, 4)), -2, "int32"),
    case("eye_like", Tensor(("n", "m")), 0),
    case("eye_like", Tensor(("n", "m"), "int64"), Prim("n")),
    case("eye_like", Tensor((3, 4)), Prim(1, "int64")),
    case("eye_like", Tensor((3, 4)), PrimVar("int64")),
    case("eye_like", Tensor(None, "float32", ndim=2)),
    case("eye_like", Tensor(None, None)),
    case("eye_like", Tensor((2, 3, 4))),
    case("eye_like", Tensor((4,))),
    case("eye_like", Tensor(None, "float32", ndim=3)),
    case("eye_like", Shape((2, 3))),
    case("eye_like", Tensor((3, 3)), 1.5),
]

CASES += [
    case("arange", 10),
    case("arange", 2, 10),
    case("arange", 2, 10, 3),
    case("arange", 10, 2, -2),
    case("arange", 0, 10, 1, "int32"),
    case("arange", 0.0, 1.0, 0.25),
    case("arange", 0, 5, 1, "float32"),
    case("arange", 0.5, 3),
    case("arange", Prim("n")),
    case("arange", Prim(0, "int64"), Prim("n"), Prim(2, "int64")),
    case("arange", 0, Prim("n + 1")),
    case("arange", PrimVar("int64"), PrimVar("int64")),
    case("arange", PrimVar("float32")),
    case("arange", PrimVar("int32"), 10, 1, "int64"),
    case("arange", 0, 10, 0),
    case("arange", 5, 5),
    case("arange", 5, 0),
    case("arange", 0, 10, 1, "bool"),
    case("arange", Tensor((), "int64")),
    case("arange", Shape((2,))),
]

for _op in ("tril", "triu"):
    CASES += [
        case(_op, Tensor((3, 4))),
        case(_op, Tensor((3, 4)), 1),
        case(_op, Tensor((3, 4)), -1),
        case(_op, Tensor((2, 3, 4), "int32"), 2),
        case(_op, Tensor(("n", "m"), "float16")),
        case(_op, Tensor((3, 4)), Prim("n")),
        case(_op, Tensor((3, 4)), Prim(1, "int64")),
        case(_op, Tensor((3, 4)), PrimVar("int64")),
        case(_op, Tensor(None, "float32", ndim=2)),
        case(_op, Tensor(None, None)),
        case(_op, Tensor((4,))),
        case(_op, Tensor(())),
        case(_op, Tensor(None, "float32", ndim=1)),
        case(_op, Shape((2, 3))),
        case(_op, Tensor((3, 4)), 1.5),
    ]
