"""Statistical, search, sort and set ops (TVM's op/tensor/statistical.cc, search.cc, sorting.cc,
set.cc): sum/mean/max/min/prod/variance/std, argmax/argmin, cumsum/cumprod, where, nonzero,
unique, topk."""
from .dsl import AnyVar, Const, Prim, PrimVar, Shape, Tensor, TensorTy, TupleVar, case

CASES = []

for _op in ("sum", "mean", "max", "min", "prod", "variance", "std"):
    CASES += [
        case(_op, Tensor((2, 3, 4))),
        case(_op, Tensor((2, 3, 4)), 1),
        case(_op, Tensor((2, 3, 4)), [0, 2]),
        case(_op, Tensor((2, 3, 4)), [-1], True),
        case(_op, Tensor((2, 3, 4)), None, True),
        case(_op, Tensor((2, 3, 4)), []),
        case(_op, Tensor((2, 3, 4)), 3),
        case(_op, Tensor((2, 3, 4)), -4),
        case(_op, Tensor((2, 3, 4)), [1, 1]),
        case(_op, Tensor((2, 3, 4)), [1, -2]),
        case(_op, Tensor(("n", 3, "m"), "float16"), 1),
        case(_op, Tensor(("n", 3, "m"), "int32"), [0, 2], True),
        case(_op, Tensor(None, "float32", ndim=3), 1),
        case(_op, Tensor(None, "float32", ndim=3), None, True),
        case(_op, Tensor(None, "float32"), 1),
        case(_op, Tensor(None, "float32")),
        case(_op, Tensor(None, "float32"), None, True),
        case(_op, Tensor((2, 3), None), 0),
        case(_op, Tensor(()), None),
        case(_op, Tensor((2, 3), "bool")),
        case(_op, Shape((2, 3))),
    ]

for _op in ("argmax", "argmin"):
    CASES += [
        case(_op, Tensor((2, 3, 4))),
        case(_op, Tensor((2, 3, 4)), 1),
        case(_op, Tensor((2, 3, 4)), -1, True),
        case(_op, Tensor((2, 3, 4)), None, True),
        case(_op, Tensor((2, 3, 4)), 3),
        case(_op, Tensor((2, 3, 4)), -4),
        case(_op, Tensor(("n", "m"), "int32"), 0),
        case(_op, Tensor(("n", "m")), 1, True),
        case(_op, Tensor(None, "float32", ndim=3), 1),
        case(_op, Tensor(None, "float32", ndim=3), None, True),
        case(_op, Tensor(None, "float32"), 1),
        case(_op, Tensor(None, "float32"), None, True),
        case(_op, Tensor((2, 3), None), 0),
        case(_op, Tensor(())),
        case(_op, Tensor((2, 3)), [0]),
        case(_op, Shape((2, 3))),
    ]

for _op in ("cumsum", "cumprod"):
    CASES += [
        case(_op, Tensor((2, 3))),
        case(_op, Tensor((2, 3)), 0),
        case(_op, Tensor((2, 3)), -1),
        case(_op, Tensor((2, 3)), 2),
        case(_op, Tensor((2, 3)), 1, "int32"),
        case(_op, Tensor((2, 3), "int32"), 1, "int64", True),
        case(_op, Tensor(("n", 3)), 0),
        case(_op, Tensor(("n", 3))),
        case(_op, Tensor(None, "float32", ndim=2), 1),
        case(_op, Tensor(None, "float32", ndim=2)),
        case(_op, Tensor(None, "float32")),
        case(_op, Tensor(None, "float32"), 1),
        case(_op, Tensor((2, 3), None), 1),
        case(_op, Tensor((2, 3), None), 1, "float32"),
        case(_op, Tensor(())),
        case(_op, Shape((2, 3))),
    ]

CASES += [
    case("where", Tensor((2, 3), "bool"), Tensor((2, 3)), Tensor((2, 3))),
    case("where", Tensor((2, 1), "bool"), Tensor((1, 3)), Tensor((3,))),
    case("where", Tensor((2, 3), "bool"), Tensor((2, 3)), Tensor((2, 3), "int32")),
    case("where", Tensor((2, 3)), Tensor((2, 3)), Tensor((2, 3))),
    case("where", Tensor((2, 3), "int32"), Tensor((2, 3)), Tensor((2, 3))),
    case("where", Tensor((2, 3), "bool"), Tensor((2, 4)), Tensor((2, 3))),
    case("where", Tensor((4,), "bool"), Tensor((2, 3)), Tensor((2, 3))),
    case("where", Tensor(("n", 1), "bool"), Tensor((1, "m")), Tensor(("n", "m"))),
    case("where", Tensor(("n",), "bool"), Tensor(("m",)), Tensor(("n",))),
    case("where", Tensor(None, "bool", ndim=2), Tensor((2, 3)), Tensor((2, 3))),
    case("where", Tensor(None, "bool"), Tensor((2, 3)), Tensor((2, 3))),
    case("where", Tensor((2, 3), None), Tensor((2, 3)), Tensor((2, 3))),
    case("where", Tensor((2, 3), "bool"), Tensor((2, 3), None), Tensor((2, 3))),
    case("where", Tensor((2, 3), "bool"), Tensor(None, None), Tensor((2, 3))),
    case("where", Tensor((), "bool"), Const(1.0, "float32"), Tensor((2, 3))),
    case("where", Tensor((2, 3), "bool"), Shape((2, 3)), Tensor((2, 3))),
]

CASES += [
    case("nonzero", Tensor((2, 3))),
    case("nonzero", Tensor((2, 3), "bool")),
    case("nonzero", Tensor((5,), "int32")),
    case("nonzero", Tensor(())),
    case("nonzero", Tensor(("n", "m"))),
    case("nonzero", Tensor(None, "float32", ndim=3)),
    case("nonzero", Tensor(None, "float32")),
    case("nonzero", Tensor((2, 3), None)),
    case("nonzero", Shape((2,))),
]

CASES += [
    case("unique", Tensor((6,))),
    case("unique", Tensor((2, 3), "int32")),
    case("unique", Tensor((6,)), True, True),
    case("unique", Tensor((6,)), True, True, True, True),
    case("unique", Tensor((6,)), False, False, True),
    case("unique", Tensor((6,)), True, False, False, True),
    case("unique", Tensor((2, 3)), True, False, False, False, 0),
    case("unique", Tensor((2, 3)), True, False, False, False, 1),
    case("unique", Tensor((2, 3)), True, False, False, False, -1),
    case("unique", Tensor((2, 3)), True, False, False, False, 2),
    case("unique", Tensor((2, 3)), True, True, True, True, 1),
    case("unique", Tensor(("n",))),
    case("unique", Tensor(None, "float32", ndim=2)),
    case("unique", Tensor(None, "float32")),
    case("unique", Tensor(None, "float32"), True, True, True, True),
    case("unique", Tensor((6,), None)),
    case("unique", Shape((6,))),
]

CASES += [
    case("topk", Tensor((4, 5))),
    case("topk", Tensor((4, 5)), 2),
    case("topk", Tensor((4, 5)), 2, 0),
    case("topk", Tensor((4, 5)), 3, -1, "values"),
    case("topk", Tensor((4, 5)), 3, -1, "indices"),
    case("topk", Tensor((4, 5)), 3, -1, "both", False, "int64"),
    case("topk", Tensor((4, 5)), 3, -1, "bogus"),
    case("topk", Tensor((4, 5)), 3, 2),
    case("topk", Tensor((4, 5)), 3, -3),
    case("topk", Tensor((4, 5)), 0),
    case("topk", Tensor((4, 5)), -1),
    case("topk", Tensor((4, 5)), 6),
    case("topk", Tensor(("n", "m")), 2),
    case("topk", Tensor(("n", "m")), 2, 0, "values"),
    case("topk", Tensor(None, "float32", ndim=2), 2),
    case("topk", Tensor(None, "float32"), 2),
    case("topk", Tensor((4, 5), None), 2),
    case("topk", Tensor((4, 5), "int32"), 2, -1, "both", True, "float32"),
    case("topk", Shape((4,)), 2),
]
