"""Data-dependent shapes as apache-tvm 0.27's ONNX frontend builds them: NonZero, Unique and
Compress emit relax.op.nonzero / relax.op.unique and bind their results with MatchCast to
types over fresh symbolic vars (`bb.match_cast(relax.op.nonzero(x), TensorType((ndim, n)))`,
`bb.match_cast(unique[0], ...)` on the unnormalized call).  The modules print exactly as
apache-tvm prints the same programs (texts recorded with apache-tvm 0.27.0.post1)."""
from tether import relax

R = relax.op
TT = relax.TensorType


def sym(name):
    return relax.Var(name, "int64")


# NonZero, Unique without and with axis (every output), and Compress's nonzero + reshape + take,
# in a dataflow block as from_onnx emits them.
DATAFLOW_TVM = '# from tvm.script import ir as I\n# from tvm.script import tirx as T\n# from tvm.tirx.layout import Axis\n# from tvm.script import relax as R\n\n@I.ir_module\nclass Module:\n    @R.function\n    def main(x: R.Tensor((3, 4), dtype="float32"), c: R.Tensor((5,), dtype="bool")) -> R.Tuple(R.Tensor(dtype="int64", ndim=2), R.Tensor(dtype="float32", ndim=1), R.Tensor(dtype="float32", ndim=2), R.Tensor(dtype="int64", ndim=1), R.Tensor(dtype="int64", ndim=1), R.Tensor(dtype="int64", ndim=1), R.Tensor(dtype="float32", ndim=2)):\n        nonzero_numbers = T.int64()\n        unique_numbers = T.int64()\n        unique_numbers_1 = T.int64()\n        inverse_numbers = T.int64()\n        num_nonzero = T.int64()\n        with R.dataflow():\n            lv: R.Tensor((2, nonzero_numbers), dtype="int64") = R.match_cast(R.nonzero(x), R.Tensor((2, nonzero_numbers), dtype="int64"))\n            lv1: R.Tensor((unique_numbers,), dtype="float32") = R.match_cast(R.unique(x, True, False, False, False), R.Tensor((unique_numbers,), dtype="float32"))\n            lv2: R.Tuple(R.Tensor(dtype="float32", ndim=2), R.Tensor(dtype="int64", ndim=1), R.Tensor(dtype="int64", ndim=1), R.Tensor(dtype="int64", ndim=1)) = R.unique(x, True, True, True, True, 1)\n            lv3: R.Tensor((3, unique_numbers_1), dtype="float32") = R.match_cast(lv2[0], R.Tensor((3, unique_numbers_1), dtype="float32"))\n            lv4: R.Tensor((unique_numbers_1,), dtype="int64") = R.match_cast(lv2[1], R.Tensor((unique_numbers_1,), dtype="int64"))\n            lv5: R.Tensor((inverse_numbers,), dtype="int64") = R.match_cast(lv2[2], R.Tensor((inverse_numbers,), dtype="int64"))\n            lv6: R.Tensor((unique_numbers_1,), dtype="int64") = R.match_cast(lv2[3], R.Tensor((unique_numbers_1,), dtype="int64"))\n            lv7: R.Tensor((1, num_nonzero), dtype="int64") = R.match_cast(R.nonzero(c), R.Tensor((1, num_nonzero), dtype="int64"))\n            lv8: R.Tensor((num_nonzero,), dtype="int64") = R.reshape(lv7, R.shape([num_nonzero]))\n            lv9: R.Tensor((3, num_nonzero), dtype="float32") = R.take(x, lv8, axis=1, mode="fast")\n            gv: R.Tuple(R.Tensor((2, nonzero_numbers), dtype="int64"), R.Tensor((unique_numbers,), dtype="float32"), R.Tensor((3, unique_numbers_1), dtype="float32"), R.Tensor((unique_numbers_1,), dtype="int64"), R.Tensor((inverse_numbers,), dtype="int64"), R.Tensor((unique_numbers_1,), dtype="int64"), R.Tensor((3, num_nonzero), dtype="float32")) = lv, lv1, lv3, lv4, lv5, lv6, lv9\n            R.output(gv)\n        return gv'


def test_nonzero_unique_compress_in_dataflow_block_print_as_tvm():
    bb = relax.BlockBuilder()
    x = relax.Var("x", TT([3, 4], "float32"))
    c = relax.Var("c", TT([5], "bool"))
    with bb.function("main", [x, c]):
        with bb.dataflow():
            nz = bb.match_cast(R.nonzero(x), TT((2, sym("nonzero_numbers")), "int64"))
            un = sym("unique_numbers")
            u1 = bb.match_cast(R.unique(x, sorted=True, return_index=False, return_inverse=False,
                                        return_counts=False, axis=None), TT((un,), "float32"))
            u = R.unique(x, sorted=True, return_index=True, return_inverse=True,
                         return_counts=True, axis=1)
            un2 = sym("unique_numbers")
            o0 = bb.match_cast(u[0], TT([3, un2], "float32"))
            o1 = bb.match_cast(u[1], TT((un2,), "int64"))
            o2 = bb.match_cast(u[2], TT((sym("inverse_numbers"),), "int64"))
            o3 = bb.match_cast(u[3], TT((un2,), "int64"))
            k = sym("num_nonzero")
            ind = bb.match_cast(R.nonzero(c), TT([1, k], "int64"))
            ind = bb.emit(R.reshape(ind, [-1]))
            t = bb.emit(R.take(x, ind, axis=1))
            gv = bb.emit_output(relax.Tuple([nz, u1, o0, o1, o2, o3, t]))
        bb.emit_func_output(gv)
    assert str(bb.get()) == DATAFLOW_TVM


# The same bindings in a plain binding block (from_onnx uses one when the graph has an If), on a
# 0-d input (NonZero then casts to (1, n)), with func attrs.
PLAIN_BLOCK_TVM = '# from tvm.script import ir as I\n# from tvm.script import tirx as T\n# from tvm.tirx.layout import Axis\n# from tvm.script import relax as R\n\n@I.ir_module\nclass Module:\n    @R.function\n    def main(x: R.Tensor((3, 4), dtype="float32"), s: R.Tensor((), dtype="int32")) -> R.Tuple(R.Tensor(dtype="int64", ndim=2), R.Tensor(dtype="float32", ndim=1), R.Tensor(dtype="int64", ndim=1), R.Tensor(dtype="int64", ndim=1)):\n        R.func_attr({"num_input": 2})\n        nonzero_numbers = T.int64()\n        unique_numbers = T.int64()\n        gv: R.Tensor((1, nonzero_numbers), dtype="int64") = R.match_cast(R.nonzero(s), R.Tensor((1, nonzero_numbers), dtype="int64"))\n        gv1: R.Tuple(R.Tensor(dtype="float32", ndim=1), R.Tensor(dtype="int64", ndim=1), R.Tensor(dtype="int64", ndim=1)) = R.unique(x, False, True, False, True)\n        gv2: R.Tensor((unique_numbers,), dtype="float32") = R.match_cast(gv1[0], R.Tensor((unique_numbers,), dtype="float32"))\n        gv3: R.Tensor((unique_numbers,), dtype="int64") = R.match_cast(gv1[1], R.Tensor((unique_numbers,), dtype="int64"))\n        gv4: R.Tensor((unique_numbers,), dtype="int64") = R.match_cast(gv1[2], R.Tensor((unique_numbers,), dtype="int64"))\n        gv5: R.Tuple(R.Tensor((1, nonzero_numbers), dtype="int64"), R.Tensor((unique_numbers,), dtype="float32"), R.Tensor((unique_numbers,), dtype="int64"), R.Tensor((unique_numbers,), dtype="int64")) = gv, gv2, gv3, gv4\n        return gv5'


def test_nonzero_unique_in_plain_block_print_as_tvm():
    bb = relax.BlockBuilder()
    x = relax.Var("x", TT([3, 4], "float32"))
    s = relax.Var("s", TT([], "int32"))
    with bb.function("main", [x, s], attrs={"num_input": 2}):
        nz = bb.match_cast(R.nonzero(s), TT((1, sym("nonzero_numbers")), "int64"))
        u = R.unique(x, sorted=False, return_index=True, return_inverse=False,
                     return_counts=True, axis=None)
        un = sym("unique_numbers")
        o0 = bb.match_cast(u[0], TT((un,), "float32"))
        o1 = bb.match_cast(u[1], TT((un,), "int64"))
        o2 = bb.match_cast(u[2], TT((un,), "int64"))
        out = bb.emit(relax.Tuple([nz, o0, o1, o2]))
        bb.emit_func_output(out)
    assert str(bb.get()) == PLAIN_BLOCK_TVM


def test_match_cast_var_types_carry_the_fresh_dims():
    bb = relax.BlockBuilder()
    x = relax.Var("x", TT([3, 4], "float32"))
    n = sym("n")
    with bb.function("main", [x]):
        nz = bb.match_cast(R.nonzero(x), TT((2, n), "int64"))
        assert str(nz.ty) == 'R.Tensor((2, n), dtype="int64")'
        r = bb.emit(R.reshape(nz, [-1]))
        assert str(r.ty) == 'R.Tensor((n * 2,), dtype="int64")'
        bb.emit_func_output(r)
