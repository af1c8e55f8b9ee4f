"""Core ops (TVM's op/op.cc): call_tir with a GlobalVar callee.  The callee is a Relax function
added to the builder's module (Callee), which gives the GlobalVar the FuncType call_tir checks
for; no PrimFunc is needed to build and type the call."""
from .dsl import AnyTy, Callee, GVar, Prim, Shape, ShapeTy, Tensor, TensorTy, Tup, TupleTy, case

CASES = [
    case("call_tir", Callee("f", TensorTy((2, 3))), [Tensor((2, 3))], TensorTy((2, 3))),
    case("call_tir", Callee("f", TensorTy((2, 3)), TensorTy((3,))), (Tensor((2, 3)), Tensor((3,))),
         TensorTy((2, 3), "int32")),
    case("call_tir", Callee("f", TensorTy((2, 3))), Tup(Tensor((2, 3))), TensorTy((6,))),
    case("call_tir", Callee("f", TensorTy((2, 3))), Tensor((2, 3)), TensorTy((2, 3))),
    case("call_tir", Callee("f"), [], TensorTy((2, 3))),
    case("call_tir", Callee("f", TensorTy((2, 3))), [Tensor((2, 3))],
         [TensorTy((2, 3)), TensorTy((3,), "int64")]),
    case("call_tir", Callee("f", TensorTy((2, 3))), [Tensor((2, 3))], [TensorTy((2, 3))]),
    case("call_tir", Callee("f", TensorTy((2, 3))), [Tensor(("n", 3))], TensorTy(("n", 3))),
    case("call_tir", Callee("f", TensorTy((2, 3))), [Tensor(("n", 3))], TensorTy(("n * 2",))),
    case("call_tir", Callee("f", TensorTy((2, 3))), [Tensor(("n", 3))], TensorTy(("m",))),
    case("call_tir", Callee("f", TensorTy((2, 3))), [Tensor((2, 3))],
         TensorTy(None, "float32", ndim=2)),
    case("call_tir", Callee("f", TensorTy((2, 3))), [Tensor((2, 3))], TensorTy(None, "float32")),
    case("call_tir", Callee("f", TensorTy((2, 3))), [Tensor((2, 3))], TensorTy((2, 3), None)),
    case("call_tir", Callee("f", TensorTy((2, 3))), [Tensor(None, "float32")], TensorTy((2,))),
    case("call_tir", Callee("f", TensorTy((2, 3))), [Tensor((2, 3)), Shape((2, 3))],
         TensorTy((2, 3))),
    case("call_tir", Callee("f", TensorTy((2, 3))), [Tensor((2, 3)), Prim(1, "int64")],
         TensorTy((2, 3))),
    case("call_tir", Callee("f", TensorTy((2, 3))), [Tensor((2, 3))], ShapeTy((2, 3))),
    case("call_tir", Callee("f", TensorTy((2, 3))), [Tensor((2, 3))], AnyTy()),
    case("call_tir", Callee("f", TensorTy((2, 3))), [Tensor((2, 3))], TupleTy(TensorTy((2,)))),
    case("call_tir", Callee("f", TensorTy((2, 3))), [Tensor((2, 3))], []),
    case("call_tir", Callee("f", TensorTy((4,))), [Tensor((2, 3))], TensorTy((2, 3))),
    case("call_tir", GVar("f"), [Tensor((2, 3))], TensorTy((2, 3))),
    case("call_tir", "f", [Tensor((2, 3))], TensorTy((2, 3))),
]
