"""relax.BlockBuilder from Python: TVM's context managers, emission and naming, printed modules
(texts observed with apache-tvm 0.27), and the errors of misuse."""
import gc

import pytest

from tether import ir, relax as R
from tether.testing import object_use_count

HEADER = "# from tvm.script import ir as I\n# from tvm.script import relax as R\n\n"


def T(shape, dtype="float32"):
    return R.TensorType(shape, dtype)


def conv_relu_module():
    bb = R.BlockBuilder()
    data = R.Var("data", T([1, 3, 224, 224]))
    weight = R.Var("weight", T([16, 3, 3, 3]))
    with bb.function("main", [data, weight]):
        with bb.dataflow():
            lv = bb.emit(R.op.nn.conv2d(data, weight))
            lv1 = bb.emit(R.op.nn.relu(lv))
            gv = bb.emit_output(lv1)
        bb.emit_func_output(gv)
    return bb


SPEC_MAIN = '''@R.function
def main(data: R.Tensor((1, 3, 224, 224), dtype="float32"), weight: R.Tensor((16, 3, 3, 3), dtype="float32")) -> R.Tensor((1, 16, 222, 222), dtype="float32"):
    with R.dataflow():
        lv: R.Tensor((1, 16, 222, 222), dtype="float32") = R.nn.conv2d(data, weight, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype=None)
        lv1: R.Tensor((1, 16, 222, 222), dtype="float32") = R.nn.relu(lv)
        gv: R.Tensor((1, 16, 222, 222), dtype="float32") = lv1
        R.output(gv)
    return gv'''


def indent(text, n=4):
    return "\n".join((" " * n + line) if line else line for line in text.split("\n"))


def test_spec_example_module():
    mod = conv_relu_module().get()
    assert type(mod) is R.IRModule
    assert str(mod) == HEADER + "@I.ir_module\nclass Module:\n" + indent(SPEC_MAIN)


def test_spec_example_function_alone():
    func = conv_relu_module().get()["main"]
    assert type(func) is R.Function
    assert str(func) == "# from tvm.script import relax as R\n\n" + SPEC_MAIN


def test_show_all_ty_false_hides_inferable_annotations():
    text = conv_relu_module().get()["main"].script(show_all_ty=False)
    assert "        lv = R.nn.conv2d(data, weight, strides=[1, 1]," in text
    assert "        lv1 = R.nn.relu(lv)\n        gv = lv1\n" in text


def test_emit_results_and_fields():
    bb = R.BlockBuilder()
    x = R.Var("x", T([1, 4]))
    with bb.function("f", [x]):
        assert R.BlockBuilder.current() is bb
        assert not bb.current_block_is_dataflow()
        with bb.dataflow():
            assert bb.current_block_is_dataflow()
            lv = bb.emit(R.op.nn.relu(x))
            assert type(lv) is R.DataflowVar and lv.name == "lv"
            assert str(lv.ty) == 'R.Tensor((1, 4), dtype="float32")'
            assert str(bb.lookup_binding(lv)) == "R.nn.relu(x)"
            gv = bb.emit_output(lv)
            assert type(gv) is R.Var and gv.name == "gv"
        out = bb.emit_func_output(gv)
    assert R.BlockBuilder.current() is None
    assert type(out) is R.GlobalVar and out.name_hint == "f"
    assert str(out.ty) == 'R.Callable((R.Tensor((1, 4), dtype="float32"),), ' \
                          'R.Tensor((1, 4), dtype="float32"), True)'
    func = bb.get()[out]
    assert func.attrs["global_symbol"] == "f"
    block = func.body.blocks[0]
    assert isinstance(block, R.DataflowBlock)
    assert block.bindings[0].var.same_as(lv)


def test_names_across_two_functions():
    # One name supply per builder: the second function continues lv2, lv3, gv1.
    bb = R.BlockBuilder()
    x = R.Var("x", T([1, 4]))
    for name in ["f", "g"]:
        with bb.function(name, [x]):
            with bb.dataflow():
                a = bb.emit(R.op.nn.relu(x))
                b = bb.emit(R.op.exp(a))
                gv = bb.emit_output(b)
            bb.emit_func_output(gv)
    t = 'R.Tensor((1, 4), dtype="float32")'
    expected = HEADER + "@I.ir_module\nclass Module:\n" + f'''    @R.function
    def f(x: {t}) -> {t}:
        with R.dataflow():
            lv: {t} = R.nn.relu(x)
            lv1: {t} = R.exp(lv)
            gv: {t} = lv1
            R.output(gv)
        return gv

    @R.function
    def g(x: {t}) -> {t}:
        with R.dataflow():
            lv2: {t} = R.nn.relu(x)
            lv3: {t} = R.exp(lv2)
            gv1: {t} = lv3
            R.output(gv1)
        return gv1'''
    assert str(bb.get()) == expected


def test_nested_calls_become_bindings():
    bb = R.BlockBuilder()
    a = R.Var("a", T([4, 8]))
    with bb.function("nested", [a]):
        gv = bb.emit(R.op.add(R.op.nn.relu(a), R.op.exp(a)))
        bb.emit_func_output(gv)
    t = 'R.Tensor((4, 8), dtype="float32")'
    assert str(bb.get()) == HEADER + "@I.ir_module\nclass Module:\n" + f'''    @R.function
    def nested(a: {t}) -> {t}:
        gv: {t} = R.nn.relu(a)
        gv1: {t} = R.exp(a)
        gv2: {t} = R.add(gv, gv1)
        return gv2'''


def test_batch_norm_and_linear_module():
    x = R.Var("x", T([2, 3, 4, 4]))
    g, b, m, v = (R.Var(n, T([3])) for n in "gbmv")
    bb = R.BlockBuilder()
    with bb.function("bn", [x, g, b, m, v]):
        with bb.dataflow():
            t = bb.emit(R.op.nn.batch_norm(x, g, b, m, v, axis=1))
            y = bb.emit(R.TupleGetItem(t, 0))
            f = bb.emit(R.op.flatten(y))
            c = bb.emit(R.op.concat([f, f], axis=0))
            gv = bb.emit_output(c)
        bb.emit_func_output(gv)
    a, w, bias = R.Var("a", T([4, 8])), R.Var("w", T([16, 8])), R.Var("bias", T([16]))
    with bb.function("mlp", [a, w, bias]):
        with bb.dataflow():
            h = bb.emit(R.op.linear(a, w, bias))
            s = bb.emit(R.op.nn.softmax(h))
            gv = bb.emit_output(s)
        bb.emit_func_output(gv)
    t3 = 'R.Tensor((3,), dtype="float32")'
    expected = HEADER + "@I.ir_module\nclass Module:\n" + f'''    @R.function
    def bn(x: R.Tensor((2, 3, 4, 4), dtype="float32"), g: {t3}, b: {t3}, m: {t3}, v: {t3}) -> R.Tensor((192,), dtype="float32"):
        with R.dataflow():
            lv: R.Tuple(R.Tensor((2, 3, 4, 4), dtype="float32"), {t3}, {t3}) = R.nn.batch_norm(x, g, b, m, v, axis=1, epsilon=1.0000000000000001e-05, center=True, scale=True, momentum=0.10000000000000001, training=True)
            lv1: R.Tensor((2, 3, 4, 4), dtype="float32") = lv[0]
            lv2: R.Tensor((96,), dtype="float32") = R.flatten(lv1)
            lv3: R.Tensor((192,), dtype="float32") = R.concat((lv2, lv2), axis=0)
            gv: R.Tensor((192,), dtype="float32") = lv3
            R.output(gv)
        return gv

    @R.function
    def mlp(a: R.Tensor((4, 8), dtype="float32"), w: R.Tensor((16, 8), dtype="float32"), bias: R.Tensor((16,), dtype="float32")) -> R.Tensor((4, 16), dtype="float32"):
        with R.dataflow():
            lv4: R.Tensor((8, 16), dtype="float32") = R.permute_dims(w, axes=None)
            lv5: R.Tensor((4, 16), dtype="float32") = R.matmul(a, lv4, out_dtype=None)
            lv6: R.Tensor((4, 16), dtype="float32") = R.add(lv5, bias)
            lv7: R.Tensor((4, 16), dtype="float32") = R.nn.softmax(lv6, axis=-1)
            gv1: R.Tensor((4, 16), dtype="float32") = lv7
            R.output(gv1)
        return gv1'''
    assert str(bb.get()) == expected


def test_tuple_output_and_list_emit():
    bb = R.BlockBuilder()
    x = R.Var("x", T([1, 4]))
    with bb.function("f", [x]):
        with bb.dataflow():
            a = bb.emit(R.op.nn.relu(x))
            b = bb.emit(R.op.exp(a))
            gv = bb.emit_output([a, b])
        bb.emit_func_output([gv, x])
    text = str(bb.get())
    assert '            gv: R.Tuple(R.Tensor((1, 4), dtype="float32"), R.Tensor((1, 4), ' \
           'dtype="float32")) = lv, lv1\n' in text
    assert text.endswith("        return (gv, x)")


def test_deferred_params_and_single_param():
    x = R.Var("x", T([1, 4]))
    t = 'R.Tensor((1, 4), dtype="float32")'
    expected = HEADER + "@I.ir_module\nclass Module:\n" + f'''    @R.function
    def f(x: {t}) -> {t}:
        gv: {t} = R.nn.relu(x)
        return gv'''
    bb = R.BlockBuilder()
    with bb.function("f"):
        gv = bb.emit(R.op.nn.relu(x))
        bb.emit_func_output(gv, params=[x])
    assert str(bb.get()) == expected
    bb = R.BlockBuilder()
    with bb.function("f", x):
        gv = bb.emit(R.op.nn.relu(x))
        bb.emit_func_output(gv)
    assert str(bb.get()) == expected


def test_attrs_private_and_impure():
    x = R.Var("x", T([1, 4]))
    bb = R.BlockBuilder()
    with bb.function("f", [x], attrs={"num_input": 1}):
        bb.emit_func_output(x)
    with bb.function("g", [x], private=True):
        bb.emit_func_output(bb.emit(R.op.exp(x)))
    with bb.function("h", [x], pure=False):
        bb.emit_func_output(bb.emit(R.op.sqrt(x)))
    mod = bb.get()
    t = 'R.Tensor((1, 4), dtype="float32")'
    assert str(mod) == HEADER + "@I.ir_module\nclass Module:\n" + f'''    @R.function
    def f(x: {t}) -> {t}:
        R.func_attr({{"num_input": 1}})
        return x

    @R.function(private=True)
    def g(x: {t}) -> {t}:
        gv: {t} = R.exp(x)
        return gv

    @R.function(pure=False)
    def h(x: {t}) -> {t}:
        gv1: {t} = R.sqrt(x)
        return gv1'''
    assert mod["f"].attrs["num_input"] == 1
    assert "global_symbol" not in mod["g"].attrs
    assert mod["h"].is_pure is False
    assert [g.name_hint for g in mod.get_global_vars()] == ["f", "g", "h"]


def test_explicit_name_hint_and_finalize():
    x = R.Var("x", T([1, 4]))
    bb = R.BlockBuilder()
    with bb.function("main", [x]):
        out = bb.emit(R.op.nn.relu(x), "out")
        assert out.name == "out"
        bb.emit_func_output(out)
    assert "        out: R.Tensor((1, 4), dtype=\"float32\") = R.nn.relu(x)\n" in str(bb.finalize())


def test_match_cast_binds_new_var():
    n = R.Var("n", "int64")
    y = R.Var("y", R.TensorType(None, "float32", ndim=2))
    bb = R.BlockBuilder()
    with bb.function("f", [y]):
        with bb.dataflow():
            z = bb.match_cast(y, R.TensorType([1, n], "float32"))
            assert z.name == "lv" and z.ty.shape.values[1].same_as(n)
            a = bb.emit(R.op.nn.relu(z), "act")
            assert a.name == "act" and str(a.ty) == 'R.Tensor((1, n), dtype="float32")'
            gv = bb.emit_output(a)
        bb.emit_func_output(gv)
    text = str(bb.get())
    assert '            lv: R.Tensor((1, n), dtype="float32") = ' \
           'R.match_cast(y, R.Tensor((1, n), dtype="float32"))\n' in text
    assert '            act: R.Tensor((1, n), dtype="float32") = R.nn.relu(lv)\n' in text


def test_return_type_erases_symbolic_vars_not_defined_by_params():
    # observed in TVM 0.27: the return type keeps only what the params define (a bare dim);
    # the body declares n = T.int64() before its first use
    n = R.Var("n", "int64")
    x = R.Var("x", R.TensorType(None, "float32", ndim=2))
    bb = R.BlockBuilder()
    with bb.function("main", [x]):
        with bb.dataflow():
            y = bb.match_cast(x, R.TensorType([1, n], "float32"))
            z = bb.emit(R.op.add(y, y))
            o = bb.emit_output(z)
        bb.emit_func_output(o)
    mod = bb.get()
    assert str(mod["main"].ret_ty) == 'R.Tensor(dtype="float32", ndim=2)'
    assert str(mod["main"].body.ty) == 'R.Tensor((1, n), dtype="float32")'
    assert str(mod) == (
        "# from tvm.script import ir as I\n"
        "# from tvm.script import tirx as T\n"
        "# from tvm.tirx.layout import Axis\n"
        "# from tvm.script import relax as R\n"
        "\n"
        "@I.ir_module\n"
        "class Module:\n"
        "    @R.function\n"
        '    def main(x: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):\n'
        "        n = T.int64()\n"
        "        with R.dataflow():\n"
        '            lv: R.Tensor((1, n), dtype="float32") = R.match_cast(x, R.Tensor((1, n), dtype="float32"))\n'
        '            lv1: R.Tensor((1, n), dtype="float32") = R.add(lv, lv)\n'
        '            gv: R.Tensor((1, n), dtype="float32") = lv1\n'
        "            R.output(gv)\n"
        "        return gv")


def test_return_type_keeps_symbolic_vars_defined_by_params():
    # a bare param dim defines n (signature prints TypeVar, as TVM does); n + 1 does not
    n, m = R.Var("n", "int64"), R.Var("m", "int64")
    x = R.Var("x", R.TensorType(None, "float32", ndim=2))
    cases = [(T([n]), [n * 2, 3], 'R.Tensor((n * 2, 3), dtype="float32")', None),
             (T([n]), [n * 2, m], 'R.Tensor(dtype="float32", ndim=2)', None),
             (T([n + 1]), [n, m * 2], 'R.Tensor(dtype="float32", ndim=2)',
              'R.Tensor(dtype="float32", ndim=2)')]
    for pty, dims, ret, body in cases:
        p = R.Var("p", pty)
        bb = R.BlockBuilder()
        with bb.function("main", [p, x]):
            bb.emit_func_output(bb.match_cast(x, T(dims)))
        f = bb.get()["main"]
        assert str(f.ret_ty) == ret
        assert str(f.body.ty) == (body or str(T(dims)))
    q = R.Var("q", T([n, m]))
    bb = R.BlockBuilder()
    with bb.function("main", [q]):
        bb.emit_func_output(bb.emit(R.op.add(q, q)))
    assert str(bb.get()) == (
        "# from typing import TypeVar\n" + HEADER +
        'm = TypeVar("m")\nn = TypeVar("n")\n'
        "@I.ir_module\n"
        "class Module:\n"
        "    @R.function\n"
        '    def main(q: R.Tensor((n, m), dtype="float32")) -> R.Tensor((n, m), dtype="float32"):\n'
        '        gv: R.Tensor((n, m), dtype="float32") = R.add(q, q)\n'
        "        return gv")


def test_get_unique_name():
    bb = R.BlockBuilder()
    assert [bb.get_unique_name("lv"), bb.get_unique_name("lv"), bb.get_unique_name("a.b"),
            bb.get_unique_name("")] == ["lv", "lv1", "a_b", "v"]


def test_normalize_fills_type_in_place():
    x = R.Var("x", T([1, 4]))
    bb = R.BlockBuilder()
    call = R.op.nn.relu(x)
    assert call.ty is None
    out = bb.normalize(call)
    assert out.same_as(call)  # arguments unchanged: the very same Call, typed in place
    assert str(call.ty) == 'R.Tensor((1, 4), dtype="float32")'


def test_normalize_nested_inside_function():
    x = R.Var("x", T([1, 4]))
    bb = R.BlockBuilder()
    with bb.function("f", [x]):
        nested = R.op.add(R.op.nn.relu(x), x)
        out = bb.normalize(nested)
        assert str(out) == "R.add(gv, x)" and not out.same_as(nested)
        assert str(out.ty) == 'R.Tensor((1, 4), dtype="float32")'
        bb.emit_func_output(out)


def test_emit_does_not_copy_arguments():
    x = R.Var("x", T([1, 4]))
    bb = R.BlockBuilder()
    with bb.function("f", [x]):
        call = R.op.nn.relu(x)
        lv = bb.emit(call)
        assert bb.lookup_binding(lv).same_as(call)
        assert call.args[0].same_as(x)
        bb.emit_func_output(lv)
    assert bb.get()["f"].params[0].same_as(x)


def test_structurally_equal_functions_are_added_once():
    x = R.Var("x", T([1, 4]))
    bb = R.BlockBuilder()
    gvs = []
    for _ in range(2):
        with bb.function("f", [x]):
            gvs.append(bb.emit_func_output(bb.emit(R.op.nn.relu(x))))
    assert gvs[0].same_as(gvs[1]) and len(bb.get()) == 1


def test_add_func():
    x = R.Var("x", T([1, 4]))
    f = R.Function([x], R.SeqExpr([], x), T([1, 4]))
    bb = R.BlockBuilder()
    gv = bb.add_func(f, "ident")
    assert str(gv) == 'I.GlobalVar("ident")' and bb.add_func(f, "ident").same_as(gv)
    assert str(bb.get()) == HEADER + "@I.ir_module\nclass Module:\n" + '''    @R.function(private=True)
    def ident(x: R.Tensor((1, 4), dtype="float32")) -> R.Tensor((1, 4), dtype="float32"):
        return x'''


def test_builder_extends_a_module():
    mod = conv_relu_module().get()
    bb = R.BlockBuilder(mod)
    x = R.Var("x", T([2]))
    with bb.function("main", [x]):
        gv = bb.emit_func_output(bb.emit(R.op.exp(x)))
    assert gv.name_hint == "main1"
    assert len(bb.get()) == 2 and len(mod) == 1  # the original module is not modified


# ---- misuse ---------------------------------------------------------------------------------------

def test_function_without_output():
    bb = R.BlockBuilder()
    x = R.Var("x", T([1, 4]))
    with pytest.raises(RuntimeError, match=r"^emit_func_output must be called in a relax function\.$"):
        with bb.function("f", [x]):
            bb.emit(R.op.nn.relu(x))
    assert R.BlockBuilder.current() is None


def test_emit_func_output_twice():
    bb = R.BlockBuilder()
    x = R.Var("x", T([1, 4]))
    with pytest.raises(RuntimeError, match="emit_func_output must be called exactly once"):
        with bb.function("f", [x]):
            gv = bb.emit(R.op.nn.relu(x))
            bb.emit_func_output(gv)
            bb.emit_func_output(gv)


def test_params_twice_and_missing():
    x = R.Var("x", T([1, 4]))
    bb = R.BlockBuilder()
    with pytest.raises(RuntimeError, match="function parameters have been initialized"):
        with bb.function("f", [x]):
            bb.emit_func_output(bb.emit(R.op.nn.relu(x)), params=[x])
    with pytest.raises(RuntimeError, match="^Relax function must have parameter.$"):
        with bb.function("g"):
            bb.emit_func_output(bb.emit(R.op.nn.relu(x)))


def test_emit_outside_a_function():
    bb = R.BlockBuilder()
    x = R.Var("x", T([1, 4]))
    no_block = r"^Check failed: \(!block_stack_\.empty\(\)\) is false: no block is being built$"
    # TVM 0.27: InternalError (a RuntimeError) with this text, for emit and for bb.dataflow()
    with pytest.raises(ir.InternalError, match=no_block):
        bb.emit(R.op.nn.relu(x))
    with pytest.raises(ir.InternalError, match=no_block):
        with bb.dataflow():
            pass
    with pytest.raises(ir.InternalError, match=no_block):
        bb.match_cast(x, T([1, 4]))
    with pytest.raises(RuntimeError, match=r"^Cannot access BlockBuilder\._func when outside a "
                                           r"bb\._function\(\) block$"):
        bb.emit_func_output(x)


def test_emit_output_outside_dataflow():
    bb = R.BlockBuilder()
    x = R.Var("x", T([1, 4]))
    with pytest.raises(ir.InternalError, match=r"EmitOutput has to be called inside dataflow block\.$"):
        with bb.function("f", [x]):
            bb.emit_output(R.op.nn.relu(x))


def test_body_exception_propagates_and_closes_the_scope():
    bb = R.BlockBuilder()
    x = R.Var("x", T([1, 4]))
    with pytest.raises(KeyError, match="boom"):
        with bb.function("f", [x]):
            with bb.dataflow():
                raise KeyError("boom")
    assert R.BlockBuilder.current() is None
    with bb.function("g", [x]):  # the builder is still usable
        bb.emit_func_output(bb.emit(R.op.nn.relu(x)))
    assert "g" in bb.get()


def test_bad_params():
    bb = R.BlockBuilder()
    with pytest.raises(TypeError, match="each element of function parameters must be of type"):
        with bb.function("f", [R.op.nn.relu(R.Var("x", T([1])))]):
            pass


def test_type_inference_error_from_emit():
    bb = R.BlockBuilder()
    a, b = R.Var("a", T([3, 4])), R.Var("b", T([5, 6]))
    with pytest.raises(ValueError, match=r"^Matmul requires the reduction length of the operands to be "
                                         r"equal\.  However, the LHS a has shape R\.shape\(\[3, 4\]\)"):
        with bb.function("f", [a, b]):
            bb.emit(R.op.matmul(a, b))


def test_builder_releases_everything():
    gc.collect()
    x = R.Var("x", T([1, 4]))
    before = object_use_count(x)
    bb = conv_relu_module()
    with bb.function("f", [x]):
        bb.emit_func_output(bb.emit(R.op.nn.relu(x)))
    assert object_use_count(x) > before
    del bb
    gc.collect()
    assert object_use_count(x) == before


def test_no_leak_when_building_repeatedly():
    from tether import core

    def round_trip():
        bb = conv_relu_module()
        str(bb.get())
        ir.structural_hash(bb.get())
        try:
            bb.normalize(R.op.matmul(R.Var("a", T([3, 4])), R.Var("b", T([5, 6]))))
        except ValueError:
            pass

    round_trip()
    gc.collect()
    before = core._live_object_count()
    for _ in range(50):
        round_trip()
    gc.collect()
    assert core._live_object_count() == before
