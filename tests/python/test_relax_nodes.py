"""tether.relax / tether.ir nodes and types from Python: constructors, reflected fields,
printing (expected texts observed with apache-tvm 0.27), constructor errors."""
import pytest

from tether import core, ir, relax as R


def T(shape, dtype="float32"):
    return R.TensorType(shape, dtype)


# ---- classes and module layout ------------------------------------------------------------

def test_shared_classes_are_the_same_objects():
    # As in TVM: relax.Var is ir.Var, relax.Call is ir.Call, ...
    assert R.Var is ir.Var and R.Call is ir.Call and R.Tuple is ir.Tuple
    assert R.TupleGetItem is ir.TupleGetItem and R.GlobalVar is ir.GlobalVar
    assert R.TupleType is ir.TupleType and R.PrimType is ir.PrimType and R.IRModule is ir.IRModule
    assert R.ObjectType is R.AnyType
    assert issubclass(R.DataflowVar, R.Var) and issubclass(R.Var, ir.Expr)
    assert issubclass(R.TensorType, ir.Type) and issubclass(ir.Expr, core.Object)


def test_returned_nodes_get_the_registered_classes():
    x = R.Var("x", T([2, 3]))
    call = R.op.nn.relu(x)
    assert type(call) is ir.Call
    assert type(call.op) is ir.Op
    assert type(call.args[0]) is ir.Var
    assert type(x.ty) is R.TensorType
    assert type(x.ty.shape) is R.ShapeExpr
    assert type(x.ty.shape.values[0]) is ir.IntImm
    assert type(R.DataflowVar("lv", T([1]))) is R.DataflowVar


# ---- fields -------------------------------------------------------------------------------

def test_var_fields():
    x = R.Var("data", T([1, 3, 224, 224]))
    assert x.name == "data" and x.name_hint == "data"
    assert isinstance(x.name, str)
    assert x.ty.ndim == 4 and x.ty.dtype == "float32"
    assert [int(v) for v in x.ty.shape.values] == [1, 3, 224, 224]
    assert [v.value for v in x.ty.shape.values] == [1, 3, 224, 224]
    assert R.Var(name_hint="n").name == "n"
    assert R.Var("u").ty is None


def test_prim_var_from_dtype_string():
    n = R.Var("n", "int64")
    assert type(n.ty) is R.PrimType and n.ty.dtype == "int64"
    assert str(n.ty) == "int64" and repr(n.ty) == "T.int64"


def test_call_fields_through_reflection():
    data = R.Var("data", T([1, 3, 224, 224]))
    weight = R.Var("weight", T([16, 3, 3, 3]))
    call = R.op.nn.conv2d(data, weight, strides=2, padding=1)
    assert call.op.name == "relax.nn.conv2d"
    assert call.op.same_as(ir.Op.get("relax.nn.conv2d"))
    assert call.op.attrs_type_key == "relax.attrs.Conv2DAttrs" and call.op.num_inputs == 2
    assert len(call.args) == 2 and call.args[0].same_as(data) and call.args[1].same_as(weight)
    attrs = call.attrs
    assert list(attrs.strides) == [2, 2]
    assert list(attrs.padding) == [1, 1, 1, 1]
    assert list(attrs.dilation) == [1, 1]
    assert attrs.groups == 1
    assert attrs.data_layout == "NCHW" and attrs.kernel_layout == "OIHW"
    assert attrs.out_layout == "NCHW" and attrs.out_dtype is None
    assert all(type(v) is int for v in attrs.strides)
    assert len(call.ty_args) == 0
    assert call.ty is None  # filled in by normalization


def test_call_constructor():
    x = R.Var("x", T([2, 3]))
    c = R.Call(ir.Op.get("relax.nn.relu"), [x])
    assert str(c) == "R.nn.relu(x)"
    c2 = R.Call("relax.exp", (x,))
    assert str(c2) == "R.exp(x)" and c2.op.name == "relax.exp"
    c3 = R.Call("relax.exp", [x], ret_ty=T([2, 3]))
    assert str(c3.ty) == 'R.Tensor((2, 3), dtype="float32")'


def test_op_get():
    op = ir.Op.get("relax.nn.conv2d")
    assert op.name == "relax.nn.conv2d"
    assert op.same_as(ir.Op.get("relax.nn.conv2d"))
    with pytest.raises(AttributeError, match="Operator relax.nope is not registered"):
        ir.Op.get("relax.nope")
    with pytest.raises(TypeError):
        ir.Op()


def test_tuple_and_get_item():
    a, w = R.Var("a", T([4, 8])), R.Var("w", T([16, 8]))
    t = R.Tuple([a, w])
    assert len(t) == 2 and t[0].same_as(a) and t.fields[1].same_as(w)
    assert str(t.ty) == 'T.Tuple(R.Tensor((T.int64(4), T.int64(8)), dtype="float32"), ' \
                        'R.Tensor((T.int64(16), T.int64(8)), dtype="float32"))'
    g = R.TupleGetItem(t, 1)
    assert g.index == 1 and g.tuple_value.same_as(t)
    assert str(g) == "(a, w)[1]"


def test_shape_expr_and_types():
    s = R.ShapeExpr([1, 2, 3])
    assert len(s) == 3 and int(s[2]) == 3
    assert str(s.ty) == "R.Shape([1, 2, 3])"
    st = R.ShapeType([1, 2])
    assert st.ndim == 2 and [int(v) for v in st.values] == [1, 2]
    assert R.ShapeType().ndim == -1
    assert R.TensorType(ndim=4).ndim == 4 and R.TensorType(ndim=4).shape is None
    ft = R.FuncType([T([1])], T([1]))
    assert ft.purity is True and len(ft.params) == 1
    assert R.FuncType.opaque_func(ret=T([1])).params is None


def test_symbolic_shapes():
    n = R.Var("n", "int64")
    x = R.Var("x", R.TensorType([n, 4], "float32"))
    assert x.ty.shape.values[0].same_as(n)
    e = n * 2 + 1
    assert isinstance(e, ir.Add) and isinstance(e.a, ir.Mul)
    assert isinstance(n // 4, ir.FloorDiv) and isinstance(n % 4, ir.FloorMod)
    assert isinstance(1 - n, ir.Sub)
    # objects still compare and hash by identity
    assert n == n and n != R.Var("n", "int64") and hash(n) == hash(n)


def test_constants():
    c = R.const(1.0)
    assert str(c) == 'R.const(1.0, "float32")'
    assert str(c.ty) == 'R.Tensor((), dtype="float32")'
    assert str(R.const(1)) == 'R.const(1, "int32")'
    assert str(R.const(True)) == 'R.const(True, "bool")'
    assert str(R.const(1, "float16")) == 'R.const(1.0, "float16")'
    assert str(R.const(2.5, "float64")) == 'R.const(2.5, "float64")'
    assert str(R.const(-3, "int64")) == 'R.const(-3, "int64")'
    assert str(R.const(0.1)) == 'R.const(0.10000000149011612, "float32")'
    assert str(R.const([1, 2]).ty) == 'R.Tensor((2,), dtype="int32")'
    assert str(R.const([1.0, 2.0]).ty) == 'R.Tensor((2,), dtype="float32")'
    np = pytest.importorskip("numpy")
    assert str(R.const(np.float16(3)).ty) == 'R.Tensor((), dtype="float16")'
    assert str(R.const(np.array([[1, 2]], "int8")).ty) == 'R.Tensor((1, 2), dtype="int8")'
    assert str(R.const(np.zeros((2, 3), "float32"))) == 'metadata["ir.GenericConst"][0]\n' \
        '# Metadata omitted. Use show_meta=True in script() method to show it.'


def test_prim_value_and_imms():
    one = R.prim_value(1)
    assert type(one) is ir.IntImm and int(one) == 1 and one.ty.dtype == "int64"
    assert type(R.prim_value(1.5)) is ir.FloatImm and float(R.prim_value(1.5)) == 1.5
    assert str(ir.StringImm("hi")) == '"hi"'
    # As in TVM, a StringImm's type is a StringType of its own.
    s, t = ir.StringImm("hi"), ir.StringImm("hi")
    assert type(s.ty) is ir.StringType and repr(s.ty) == "ir.StringType(span=None)"
    assert repr(ir.TupleType([s.ty])) == "T.Tuple(I.StringType())"
    assert not s.ty.same_as(t.ty) and ir.structural_equal(s.ty, t.ty)
    assert ir.structural_equal(ir.StringType(), s.ty)
    assert ir.DataTypeImm("float16").value == "float16"


def test_function_seq_expr_and_bindings():
    x = R.Var("x", T([1, 4]))
    lv = R.DataflowVar("lv", T([1, 4]))
    gv = R.Var("gv", T([1, 4]))
    block = R.DataflowBlock([R.VarBinding(lv, R.op.nn.relu(x)), R.VarBinding(gv, lv)])
    body = R.SeqExpr([block], gv)
    f = R.Function([x], body, T([1, 4]))
    assert f.params[0].same_as(x) and f.body.same_as(body) and f.is_pure
    assert str(f.ret_ty) == 'R.Tensor((1, 4), dtype="float32")'
    assert isinstance(f.body.blocks[0], R.DataflowBlock)
    assert f.body.blocks[0].bindings[0].var.same_as(lv)
    mc = R.MatchCast(R.Var("y", T([1, 4])), x, T([1, 4]))
    assert mc.value.same_as(x) and str(mc.ty) == 'R.Tensor((1, 4), dtype="float32")'
    assert isinstance(R.BindingBlock([mc]), R.BindingBlock)
    cond = R.Var("c", R.TensorType([], "bool"))
    assert R.If(cond, x, x).true_branch.body.same_as(x)  # branches become SeqExprs


def test_ir_module():
    x = R.Var("x", T([1, 4]))
    f = R.Function([x], R.SeqExpr([], x), T([1, 4]))
    mod = R.IRModule({"ident": f})
    assert "ident" in mod and len(mod) == 1
    assert mod["ident"].same_as(f)
    gv = mod.get_global_var("ident")
    assert type(gv) is R.GlobalVar and gv.name_hint == "ident"
    assert mod[gv].same_as(f)
    assert [g.name_hint for g in mod.get_global_vars()] == ["ident"]
    with pytest.raises(ValueError):
        mod.get_global_var("nope")
    assert len(R.IRModule()) == 0


# ---- printing ---------------------------------------------------------------------------------

TYPE_TEXTS = [
    (lambda: T([1, 3, 224, 224]), 'R.Tensor((1, 3, 224, 224), dtype="float32")'),
    (lambda: R.TensorType(), 'R.Tensor(dtype="float32")'),
    (lambda: R.TensorType(ndim=4), 'R.Tensor(dtype="float32", ndim=4)'),
    (lambda: R.TensorType(dtype=None), "R.Tensor"),
    (lambda: R.TensorType([], "bool"), 'R.Tensor((), dtype="bool")'),
    (lambda: R.TensorType([10]), 'R.Tensor((10,), dtype="float32")'),
    (lambda: R.TensorType(dtype="", ndim=2), "R.Tensor(ndim=2)"),
    (lambda: R.ShapeType([1, 2]), "R.Shape([1, 2])"),
    (lambda: R.ShapeType(ndim=3), "R.Shape(ndim=3)"),
    (lambda: R.AnyType(), "R.Any"),
    (lambda: R.FuncType([T([1])], T([1])),
     'R.Callable((R.Tensor((1,), dtype="float32"),), R.Tensor((1,), dtype="float32"), True)'),
    (lambda: R.FuncType([], R.AnyType(), False), "R.Callable((), R.Any, False)"),
    (lambda: R.TupleType([T([2]), R.AnyType()]),
     'T.Tuple(R.Tensor((T.int64(2),), dtype="float32"), R.Any)'),
]


@pytest.mark.parametrize("make,text", TYPE_TEXTS)
def test_print_types(make, text):
    assert str(make()) == text
    assert repr(make()) == text


def test_print_nodes():
    data = R.Var("data", T([1, 3, 224, 224]))
    a, w = R.Var("a", T([4, 8])), R.Var("w", T([16, 8]))
    assert str(data) == "data"
    assert str(R.ShapeExpr([1, 2, 3])) == "R.shape([1, 2, 3])"
    assert str(R.Tuple([a, w])) == "(a, w)"
    assert str(R.GlobalVar("main")) == 'I.GlobalVar("main")'
    assert str(R.DataflowVar("lv", T([1]))) == "lv"
    assert str(R.op.matmul(a, w)) == "R.matmul(a, w, out_dtype=None)"
    assert str(R.op.permute_dims(w)) == "R.permute_dims(w, axes=None)"
    assert str(R.op.reshape(a, (32,))) == "R.reshape(a, R.shape([32]))"
    assert str(R.op.nn.dropout(a)) == "R.nn.dropout(a, rate=0.5)"


def test_script_options():
    data = R.Var("data", T([1, 3, 224, 224]))
    call = R.op.nn.relu(data)
    assert call.script() == "R.nn.relu(data)"
    assert call.script(verbose_expr=True) == \
        'data: R.Tensor((1, 3, 224, 224), dtype="float32")\nR.nn.relu(data)'


def test_show(capsys):
    R.op.nn.relu(R.Var("x", T([2]))).show()
    assert capsys.readouterr().out == "R.nn.relu(x)\n"


# ---- constructor errors -------------------------------------------------------------------------

def test_var_bad_type():
    with pytest.raises(TypeError, match="^ty must be a Type or primitive dtype string$"):
        R.Var("x", 3)


def test_dataflow_var_bad_type():
    with pytest.raises(TypeError, match="If you attempt to pass in shape, use "
                                        r"relax.TensorType\(shape, dtype\)"):
        R.DataflowVar("x", [1, 2])


def test_tensor_type_shape_and_ndim():
    # TVM 0.27 text (ValueError)
    with pytest.raises(ValueError, match=r"^Check failed: ndim == kUnknownNDim \(2 vs\. -1\) : "
                                         r"Cannot both specify shape and ndim$"):
        R.TensorType([1, 2], ndim=2)
    with pytest.raises(ValueError, match=r"^Check failed: ndim == kUnknownNDim \(3 vs\. -1\) : "
                                         r"Cannot both specify values and ndim$"):
        R.ShapeType([1, 2], ndim=3)
    with pytest.raises(ir.InternalError, match=r"^Check failed: \(ndim >= -1\) is false: ndim of "
                                               r"TensorType must be >= -1, but got -2$"):
        R.TensorType(ndim=-2)
    with pytest.raises(ir.InternalError, match=r"^Check failed: \(shape_ty\) is false: We expect "
                                               r"shape to contain pre-set shape type$"):
        R.TensorType(3, "float32")


def test_internal_error_class():
    assert issubclass(ir.InternalError, RuntimeError)
    assert R.InternalError is ir.InternalError
    x = R.Var("x", T([1, 3, 8, 8]))
    with pytest.raises(ir.InternalError):
        R.op.nn.conv2d(x, x, padding=(1, 2, 3))
