"""Shape ops (TVM's op/op.cc and tensor/manipulate.cc): shape_of, shape_to_tensor,
tensor_to_shape, size."""
from .dsl import AnyVar, Const, PrimVar, Shape, ShapeVar, Tensor, TensorTy, TupleVar, case

CASES = [
    case("shape_of", Tensor((2, 3))),
    case("shape_of", Tensor(("n", 3, "m + 1"))),
    case("shape_of", Tensor(())),
    case("shape_of", Tensor(None, "float32", ndim=3)),
    case("shape_of", Tensor(None, "float32")),
    case("shape_of", Tensor(None, None)),
    case("shape_of", Const([1, 2], "int32")),
    case("shape_of", Shape((2, 3))),
    case("shape_of", ShapeVar(ndim=2)),
    case("shape_of", TupleVar(TensorTy((2,)))),
    case("shape_of", AnyVar()),
    case("shape_of", PrimVar("int64")),

    case("shape_to_tensor", Shape((2, 3))),
    case("shape_to_tensor", Shape(("n", 4))),
    case("shape_to_tensor", Shape(())),
    case("shape_to_tensor", ShapeVar((2, "m"))),
    case("shape_to_tensor", ShapeVar(ndim=3)),
    case("shape_to_tensor", ShapeVar(None)),
    case("shape_to_tensor", Tensor((2,), "int64")),
    case("shape_to_tensor", AnyVar()),
    case("shape_to_tensor", PrimVar("int64")),

    case("tensor_to_shape", Tensor((3,), "int64")),
    case("tensor_to_shape", Tensor((0,), "int64")),
    case("tensor_to_shape", Tensor(("n",), "int64")),
    case("tensor_to_shape", Tensor((2,), "int32")),
    case("tensor_to_shape", Tensor((2,), "float32")),
    case("tensor_to_shape", Tensor((2, 3), "int64")),
    case("tensor_to_shape", Tensor((), "int64")),
    case("tensor_to_shape", Tensor(None, "int64", ndim=1)),
    case("tensor_to_shape", Tensor(None, "int64")),
    case("tensor_to_shape", Tensor(None, None)),
    case("tensor_to_shape", Tensor((3,), None)),
    case("tensor_to_shape", Const([2, 3], "int64")),
    case("tensor_to_shape", Shape((2, 3))),
    case("tensor_to_shape", AnyVar()),

    case("size", Tensor((2, 3))),
    case("size", Tensor(("n", 3))),
    case("size", Tensor(())),
    case("size", Tensor(None, "float32", ndim=2)),
    case("size", Tensor(None, None)),
    case("size", Tensor((2, 3), None)),
    case("size", Shape((2, 3))),
    case("size", AnyVar()),
]

# Tensors whose shape is a shape Var (with and without known values).
CASES += [
    case("shape_of", Tensor(ShapeVar((2, "n")))),
    case("shape_of", Tensor(ShapeVar(ndim=2))),
    case("shape_of", Tensor(ShapeVar(None))),
    case("size", Tensor(ShapeVar((2, "n")))),
    case("tensor_to_shape", Tensor(ShapeVar((4,)), "int64")),
    case("tensor_to_shape", Tensor(ShapeVar(ndim=1), "int64")),
]
