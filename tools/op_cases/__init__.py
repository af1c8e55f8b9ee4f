"""op_cases: Relax op test cases, one module per op category, run on apache-tvm and on tether.

Each category module (unary, binary, create, ...) defines CASES, a list of dsl.Case: an op call
with its argument specs (see dsl.py).  tools/tvm_op_cases.py runs them on apache-tvm 0.27 and
records the results in tests/python/data/op_cases/<category>.json; tests/python/test_op_cases.py
runs the same cases on tether and compares.  Nothing here imports either library at import time:
tvm_api() and tether_api() bind a side when called.

Adding cases for an op: append case("<op>", ...) rows to its category's CASES (typical,
symbolic-shape, unknown-shape/dtype and error cases), run `make op-cases CAT=<category>`, and
commit the table with the regenerated JSON.  A case tether gets wrong for now goes into
known.py with the reason.  (Two branches that both regenerated one category's JSON merge by
regenerating it once more.)
"""
import importlib
import types

CATEGORIES = ("unary", "binary", "create", "shape", "manip", "index", "reduce", "linalg", "nn",
              "image", "vision", "qdq", "core")


# The 124 Relax ops apache-tvm 0.27's ONNX frontend emits (the ONNX list) and the ops tether had
# before them; every one has cases in some table (tests/python/test_op_cases.py checks).
ONNX_OPS = (
    "astype add reshape subtract where less multiply broadcast_to divide sum shape_of "
    "shape_to_tensor max permute_dims exp stack take equal expand_dims call_tir negative matmul "
    "greater nn.avg_pool2d strided_slice arange logical_or argmax log min gather_elements "
    "nn.rms_norm abs floor_mod image.grid_sample tensor_to_shape argmin flip scatter_elements "
    "greater_equal nn.avg_pool3d left_shift less_equal right_shift isnan quantize "
    "vision.all_class_non_max_suppression scatter_nd dynamic_strided_slice logical_and "
    "logical_xor nonzero bitwise_and cumsum nn.conv3d nn.max_pool3d nn.prelu one_hot round "
    "unique logical_not ceil nn.leakyrelu nn.max_pool1d zeros_like bitwise_or bitwise_xor "
    "dequantize isinf mod bitwise_not erf gather_nd isfinite tril variance vision.roi_align acos "
    "acosh asin asinh atan atanh cos cosh floor nn.avg_pool1d nn.group_norm ones_like prod sign "
    "sin sinh size tan triu eye_like floor_divide nn.conv1d_transpose nn.conv3d_transpose zeros "
    "topk image.resize2d image.affine_grid").split()
TETHER_OPS = (
    "add subtract multiply divide power maximum minimum equal less greater sigmoid tanh exp sqrt "
    "negative matmul linear reshape permute_dims expand_dims squeeze flatten concat split "
    "strided_slice take mean sum max astype broadcast_to clip where nn.conv1d nn.conv2d "
    "nn.conv2d_transpose nn.max_pool2d nn.avg_pool2d nn.adaptive_avg_pool2d nn.relu nn.gelu "
    "nn.gelu_tanh nn.silu nn.selu nn.softmax nn.log_softmax nn.batch_norm nn.layer_norm "
    "nn.dropout").split()


def all_ops():
    """Every op some table has cases for, in table order."""
    seen = {}
    for category in CATEGORIES:
        for c in load(category):
            seen.setdefault(c.op, category)
    return list(seen)


def load(category):
    """The cases of one category module, in table order; a case whose key an earlier one
    already has (tables built in loops can repeat one) is dropped; the known differences of
    known.py are marked xfail."""
    if category not in CATEGORIES:
        raise KeyError(f"op_cases: no category {category!r} (one of {', '.join(CATEGORIES)})")
    from .known import XFAIL
    seen, out = set(), []
    for c in importlib.import_module(f"{__name__}.{category}").CASES:
        if c.key not in seen:
            seen.add(c.key)
            if c.key in XFAIL and c.xfail_reason is None:
                c.xfail(XFAIL[c.key])
            out.append(c)
    return out


def tvm_api():
    """The apache-tvm side: its relax module and the PrimExpr constructors the specs need."""
    import tvm
    from tvm import relax, tirx

    def tensor_type(shape, dtype, ndim):
        return relax.TensorType(shape, dtype, ndim=ndim)

    return types.SimpleNamespace(
        name="apache-tvm " + tvm.__version__, relax=relax, tensor_type=tensor_type,
        prim_type=tvm.ir.PrimType,
        sym=lambda name: tirx.Var(name, "int64"),
        int_imm=lambda dtype, v: tirx.IntImm(dtype, v),
        float_imm=lambda dtype, v: tirx.FloatImm(dtype, v))


def tether_api():
    """The tether side."""
    import tether
    from tether import relax

    def tensor_type(shape, dtype, ndim):
        return relax.TensorType(shape, dtype, ndim=ndim)

    return types.SimpleNamespace(
        name="tether " + getattr(tether, "__version__", ""), relax=relax, tensor_type=tensor_type,
        prim_type=relax.PrimType,
        sym=lambda name: relax.Var(name, "int64"),
        int_imm=lambda dtype, v: relax.IntImm(dtype, v),
        float_imm=lambda dtype, v: relax.FloatImm(dtype, v))
