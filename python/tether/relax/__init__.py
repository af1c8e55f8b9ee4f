"""tether.relax: the Relax IR (libtether_ir, in C) from Python.

Nodes and types (Var, DataflowVar, Call, Tuple, TupleGetItem, ShapeExpr, Function, SeqExpr,
GlobalVar, IRModule, const; TensorType, ShapeType, TupleType, AnyType, PrimType, FuncType),
the BlockBuilder, and the operators (relax.op, relax.op.nn) as Python functions over the C
constructor globals "relax.op.<name>".  Everything is the C object itself: a Var passed to an
op is the very handle stored in the Call's args.  print(node) shows TVMScript.
"""
from .. import ir  # noqa: F401  (loads libtether_ir and binds the shared node classes)
from ..ir import IRModule, InternalError, Op, assert_structural_equal, structural_equal, \
    structural_hash
from .expr import (BaseFunc, Binding, BindingBlock, Call, Constant, DataflowBlock, DataflowVar,
                   DataTypeImm, Expr, ExternFunc, FloatImm, Function, GenericConst, GlobalVar,
                   If, IntImm, MatchCast, SeqExpr, ShapeExpr, StringImm, Tuple, TupleGetItem,
                   Var, VarBinding, const, prim_value)
from .ty import (AnyType, FuncType, ObjectType, PackedFuncType, PrimType, ShapeType, TensorType,
                 TupleType, Type)
from .block_builder import BlockBuilder
from . import op

__all__ = [
    "AnyType", "BaseFunc", "Binding", "BindingBlock", "BlockBuilder", "Call", "Constant",
    "DataTypeImm", "DataflowBlock", "DataflowVar", "Expr", "ExternFunc", "FloatImm", "FuncType",
    "Function", "GenericConst", "GlobalVar", "IRModule", "If", "IntImm", "InternalError",
    "MatchCast", "ObjectType", "Op", "PackedFuncType", "PrimType", "SeqExpr", "ShapeExpr",
    "ShapeType", "StringImm", "TensorType", "Tuple", "TupleGetItem", "TupleType", "Type", "Var",
    "VarBinding", "assert_structural_equal", "const", "op", "prim_value",
    "structural_equal", "structural_hash",
]
