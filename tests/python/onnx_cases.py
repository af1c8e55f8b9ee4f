"""Small ONNX models exercising the frontend's graph walk and converters, shared by
tools/onnx_record_tvm.py (which records apache-tvm's printed module for each into
tests/python/data/onnx/cases/<name>.txt) and tests/python/test_onnx_frontend.py (which checks
that tether prints the same text).

CASES maps a name to a function (onnx, numpy) -> (model, from_onnx keyword arguments).
"""


def _model(onnx, nodes, inputs, outputs, inits=(), opset=13):
    h = onnx.helper
    graph = h.make_graph(nodes, "g", inputs, outputs, initializer=list(inits))
    return h.make_model(graph, opset_imports=[h.make_opsetid("", opset)])


def _vi(onnx, name, shape, elem=None):
    return onnx.helper.make_tensor_value_info(name, elem or onnx.TensorProto.FLOAT, shape)


def _init(onnx, np, name, shape, dtype="float32", seed=0):
    arr = np.random.default_rng(seed).standard_normal(shape).astype(dtype)
    return onnx.numpy_helper.from_array(arr, name)


def symbolic_dim(onnx, np):
    n = onnx.helper.make_node
    return _model(onnx, [n("Relu", ["x"], ["y"])], [_vi(onnx, "x", ["n", 3])],
                  [_vi(onnx, "y", ["n", 3])]), {}


def symbolic_expressions(onnx, np):
    n = onnx.helper.make_node
    nodes = [n("Relu", ["x"], ["a"]), n("Relu", ["z"], ["b"])]
    inputs = [_vi(onnx, "x", ["batch", "?", "batch*2+1", "seq//4"]),
              _vi(onnx, "z", ["batch", "?", ""])]
    return _model(onnx, nodes, inputs, [_vi(onnx, "a", None), _vi(onnx, "b", None)]), {}


def shape_dict(onnx, np):
    model, _ = symbolic_dim(onnx, np)
    return model, {"shape_dict": {"x": [4, 3]}}


def sanitize_names(onnx, np):
    n = onnx.helper.make_node
    nodes = [n("Add", ["a.b", "0in"], ["s"]), n("Add", ["s", "a_b"], ["y"])]
    inputs = [_vi(onnx, "a.b", [2]), _vi(onnx, "0in", [2]), _vi(onnx, "a_b", [2])]
    return _model(onnx, nodes, inputs, [_vi(onnx, "y", [2])]), {}


def no_sanitize(onnx, np):
    model, _ = sanitize_names(onnx, np)
    return model, {"sanitize_input_names": False}


def keep_params(onnx, np):
    n = onnx.helper.make_node
    inits = [_init(onnx, np, "w", [4, 3]), _init(onnx, np, "onnx::b", [4], seed=1)]
    model = _model(onnx, [n("Gemm", ["x", "w", "onnx::b"], ["y"], transB=1)],
                   [_vi(onnx, "x", [2, 3])], [_vi(onnx, "y", [2, 4])], inits)
    return model, {"keep_params_in_input": True}


def multi_output(onnx, np):
    n = onnx.helper.make_node
    nodes = [n("Relu", ["x"], ["a"]), n("Sigmoid", ["x"], ["b"]), n("Tanh", ["a"], ["c"])]
    return _model(onnx, nodes, [_vi(onnx, "x", [2, 3])],
                  [_vi(onnx, "c", [2, 3]), _vi(onnx, "b", [2, 3])]), {}


def gemm_alpha_beta(onnx, np):
    n = onnx.helper.make_node
    nodes = [n("Gemm", ["a", "b", "c"], ["y"], alpha=0.5, beta=2.0, transA=1)]
    inits = [_init(onnx, np, "c", [4])]
    return _model(onnx, nodes, [_vi(onnx, "a", [3, 2]), _vi(onnx, "b", [3, 4])],
                  [_vi(onnx, "y", [2, 4])], inits), {}


def matmul_sqrt_erf(onnx, np):
    n = onnx.helper.make_node
    nodes = [n("MatMul", ["a", "b"], ["m"]), n("Sqrt", ["m"], ["s"]), n("Erf", ["s"], ["y"])]
    return _model(onnx, nodes, [_vi(onnx, "a", [2, 3, 4]), _vi(onnx, "b", [4, 5])],
                  [_vi(onnx, "y", [2, 3, 5])]), {}


def softmax_v11(onnx, np):
    n = onnx.helper.make_node
    return _model(onnx, [n("Softmax", ["x"], ["y"], axis=2)], [_vi(onnx, "x", [2, 3, 4])],
                  [_vi(onnx, "y", [2, 3, 4])], opset=11), {}


def softmax_v13(onnx, np):
    n = onnx.helper.make_node
    return _model(onnx, [n("Softmax", ["x"], ["y"], axis=1)], [_vi(onnx, "x", [2, 3, 4])],
                  [_vi(onnx, "y", [2, 3, 4])]), {}


def dropout_v12(onnx, np):
    n = onnx.helper.make_node
    ratio = onnx.numpy_helper.from_array(np.array(0.25, dtype="float32"), "r")
    return _model(onnx, [n("Dropout", ["x", "r"], ["y"])], [_vi(onnx, "x", [2, 3])],
                  [_vi(onnx, "y", [2, 3])], [ratio]), {}


def constant_folding(onnx, np):
    n = onnx.helper.make_node
    h = onnx.helper
    c1 = h.make_tensor("c1", onnx.TensorProto.FLOAT, [2, 3], list(range(6)))
    nodes = [n("Constant", [], ["k"], value=c1),
             n("Mul", ["k", "k"], ["k2"]),
             n("Transpose", ["k2"], ["kt"], perm=[1, 0]),
             n("Reshape", ["kt", "shape"], ["kr"]),
             n("Concat", ["kr", "kr"], ["kc"], axis=0),
             n("Add", ["x", "kc"], ["y"])]
    shape = onnx.numpy_helper.from_array(np.array([6], dtype="int64"), "shape")
    return _model(onnx, nodes, [_vi(onnx, "x", [12])], [_vi(onnx, "y", [12])], [shape]), {}


def int_div_fold(onnx, np):
    n = onnx.helper.make_node
    a = onnx.numpy_helper.from_array(np.array([7, -7, 9], dtype="int64"), "a")
    b = onnx.numpy_helper.from_array(np.array([2, 2, 4], dtype="int64"), "b")
    nodes = [n("Div", ["a", "b"], ["q"]), n("Add", ["x", "q"], ["y"])]
    return _model(onnx, nodes, [_vi(onnx, "x", [3], onnx.TensorProto.INT64)],
                  [_vi(onnx, "y", [3], onnx.TensorProto.INT64)], [a, b]), {}


def constant_of_shape(onnx, np):
    n = onnx.helper.make_node
    h = onnx.helper
    s1 = onnx.numpy_helper.from_array(np.array([3], dtype="int64"), "s1")
    s2 = onnx.numpy_helper.from_array(np.array([2, 3], dtype="int64"), "s2")
    v = h.make_tensor("v", onnx.TensorProto.FLOAT, [1], [0.5])
    nodes = [n("ConstantOfShape", ["s1"], ["c1"], value=v), n("ConstantOfShape", ["s2"], ["c2"]),
             n("Add", ["x", "c1"], ["t"]), n("Add", ["t", "c2"], ["y"])]
    return _model(onnx, nodes, [_vi(onnx, "x", [2, 3])], [_vi(onnx, "y", [2, 3])],
                  [s1, s2]), {}


def conv_bias_valid(onnx, np):
    n = onnx.helper.make_node
    inits = [_init(onnx, np, "w", [4, 3, 3, 3]), _init(onnx, np, "b", [4], seed=1)]
    nodes = [n("Conv", ["x", "w", "b"], ["c"], auto_pad="VALID", strides=[2, 2]),
             n("Flatten", ["c"], ["y"], axis=0)]
    return _model(onnx, nodes, [_vi(onnx, "x", [1, 3, 9, 9])], [_vi(onnx, "y", [1, 64])],
                  inits), {}


def pools(onnx, np):
    n = onnx.helper.make_node
    nodes = [n("AveragePool", ["x"], ["a"], kernel_shape=[2, 2], strides=[2, 2],
               count_include_pad=1, pads=[0, 0, 1, 1]),
             n("MaxPool", ["a"], ["m"], kernel_shape=[2, 2], ceil_mode=1),
             n("GlobalMaxPool", ["m"], ["g"]), n("GlobalAveragePool", ["a"], ["h"]),
             n("Add", ["g", "h"], ["y"])]
    return _model(onnx, nodes, [_vi(onnx, "x", [1, 2, 7, 7])], [_vi(onnx, "y", [1, 2, 1, 1])],
                  opset=11), {}


def batch_norm_identity(onnx, np):
    n = onnx.helper.make_node
    inits = [_init(onnx, np, k, [3], seed=i) for i, k in enumerate(["s", "b", "m", "v"])]
    nodes = [n("BatchNormalization", ["x", "s", "b", "m", "v"], ["bn"], epsilon=1e-3),
             n("Identity", ["bn"], ["y"])]
    return _model(onnx, nodes, [_vi(onnx, "x", [2, 3, 4])], [_vi(onnx, "y", [2, 3, 4])],
                  inits, opset=15), {}


def multi_input_reductions(onnx, np):
    n = onnx.helper.make_node
    nodes = [n("Sum", ["a", "b", "c"], ["s"]), n("Mean", ["a", "b"], ["m"]),
             n("Max", ["s", "m"], ["x"]), n("Min", ["x", "c"], ["y"])]
    return _model(onnx, nodes, [_vi(onnx, "a", [2, 3]), _vi(onnx, "b", [3]),
                                _vi(onnx, "c", [1, 3])], [_vi(onnx, "y", [2, 3])]), {}


def unsqueeze_pow(onnx, np):
    n = onnx.helper.make_node
    axes = onnx.numpy_helper.from_array(np.array([0, -1], dtype="int64"), "axes")
    nodes = [n("Unsqueeze", ["x", "axes"], ["u"]), n("Pow", ["u", "u"], ["y"])]
    return _model(onnx, nodes, [_vi(onnx, "x", [2, 3])], [_vi(onnx, "y", [1, 2, 3, 1])],
                  [axes]), {}


def unary_chain(onnx, np):
    n = onnx.helper.make_node
    ops = ["Exp", "Neg", "Reciprocal", "Floor", "Ceil", "Round", "Sign", "Sin", "Cos",
           "Tanh", "Sigmoid", "Abs", "Log", "Sqrt"]
    nodes, prev = [], "x"
    for i, op in enumerate(ops):
        nodes.append(n(op, [prev], [f"t{i}"]))
        prev = f"t{i}"
    nodes.append(n("LeakyRelu", [prev], ["y"], alpha=0.2))
    return _model(onnx, nodes, [_vi(onnx, "x", [2, 3])], [_vi(onnx, "y", [2, 3])]), {}


def unary_folding(onnx, np):
    n = onnx.helper.make_node
    c = onnx.numpy_helper.from_array(np.array([1.5, -2.0, 4.0], dtype="float32"), "c")
    nodes = [n("Neg", ["c"], ["a"]), n("Abs", ["a"], ["b"]), n("Log", ["b"], ["l"]),
             n("Add", ["x", "l"], ["y"])]
    return _model(onnx, nodes, [_vi(onnx, "x", [3])], [_vi(onnx, "y", [3])], [c]), {}


def exp_int_rejected(onnx, np):
    n = onnx.helper.make_node
    return _model(onnx, [n("Exp", ["x"], ["y"])], [_vi(onnx, "x", [3], onnx.TensorProto.INT32)],
                  [_vi(onnx, "y", [3], onnx.TensorProto.INT32)]), {}


def casts(onnx, np):
    n = onnx.helper.make_node
    T = onnx.TensorProto
    targets = [("i8", T.INT8), ("u16", T.UINT16), ("i32", T.INT32), ("u32", T.UINT32),
               ("i64", T.INT64), ("f16", T.FLOAT16), ("b", T.BOOL)]
    nodes = [n("Cast", ["x"], [name], to=to) for name, to in targets]
    nodes += [n("Cast", ["k"], ["kc"], to=T.INT32), n("Cast", ["i"], ["if"], to=T.FLOAT),
              n("Add", ["i32", "kc"], ["s"])]
    k = onnx.numpy_helper.from_array(np.array([1.7, -2.2, 3.9], dtype="float32"), "k")
    outs = [_vi(onnx, name, [3], to) for name, to in targets]
    outs += [_vi(onnx, "s", [3], T.INT32), _vi(onnx, "if", [3])]
    return _model(onnx, nodes, [_vi(onnx, "x", [3]), _vi(onnx, "i", [3], T.INT64)], outs,
                  [k]), {}


def compare_squeeze(onnx, np):
    n = onnx.helper.make_node
    T = onnx.TensorProto
    axes = onnx.numpy_helper.from_array(np.array([0, -1], dtype="int64"), "axes")
    c = onnx.numpy_helper.from_array(np.array([[1.0], [3.0]], dtype="float32"), "c")
    nodes = [n("Squeeze", ["x", "axes"], ["s"]), n("Squeeze", ["c"], ["cs"]),
             n("Less", ["s", "cs"], ["lt"]), n("GreaterOrEqual", ["s", "cs"], ["ge"]),
             n("Equal", ["lt", "ge"], ["eq"]), n("Greater", ["cs", "cs"], ["gc"]),
             n("Equal", ["gc", "gc"], ["y"])]
    outs = [_vi(onnx, "eq", [2], T.BOOL), _vi(onnx, "y", [2], T.BOOL)]
    return _model(onnx, nodes, [_vi(onnx, "x", [1, 2, 1])], outs, [axes, c]), {}


def squeeze_v11(onnx, np):
    n = onnx.helper.make_node
    nodes = [n("Squeeze", ["x"], ["a"], axes=[1]), n("Squeeze", ["a"], ["y"])]
    return _model(onnx, nodes, [_vi(onnx, "x", [2, 1, 1, 3])], [_vi(onnx, "y", [2, 3])],
                  opset=11), {}


def squeeze_non_unit_rejected(onnx, np):
    n = onnx.helper.make_node
    return _model(onnx, [n("Squeeze", ["x"], ["y"], axes=[0])], [_vi(onnx, "x", [2, 3])],
                  [_vi(onnx, "y", [3])], opset=11), {}


def where(onnx, np):
    n = onnx.helper.make_node
    c = onnx.numpy_helper.from_array(np.array([True, False, True]), "c")
    a = onnx.numpy_helper.from_array(np.array([1.0, 2.0, 3.0], dtype="float32"), "a")
    b = onnx.numpy_helper.from_array(np.array([-1.0], dtype="float32"), "b")
    nodes = [n("Where", ["c", "a", "b"], ["k"]), n("Greater", ["x", "k"], ["m"]),
             n("Where", ["m", "x", "k"], ["y"])]
    return _model(onnx, nodes, [_vi(onnx, "x", [2, 3])], [_vi(onnx, "y", [2, 3])],
                  [c, a, b], opset=16), {}


CASES = {f.__name__: f for f in (
    symbolic_dim, symbolic_expressions, shape_dict, sanitize_names, no_sanitize, keep_params, multi_output,
    gemm_alpha_beta, matmul_sqrt_erf, softmax_v11, softmax_v13, dropout_v12, constant_folding,
    int_div_fold, constant_of_shape, conv_bias_valid, pools, batch_norm_identity,
    multi_input_reductions, unsqueeze_pow, unary_chain, unary_folding, exp_int_rejected,
    casts, compare_squeeze, squeeze_v11, squeeze_non_unit_rejected,
    where)}


# ---- reductions, arg-reductions, gathers, scatters, search ----------------------------------

def reduce_axes_attribute(onnx, np):
    """Every reduction with its axes as an attribute (opset 13; ReduceSum takes them as an
    input from 13, here an initializer)."""
    n = onnx.helper.make_node
    axes = onnx.numpy_helper.from_array(np.array([1], dtype="int64"), "axes")
    nodes = [n("ReduceMax", ["x"], ["mx"], axes=[0, 2]),
             n("ReduceMin", ["x"], ["mn"], axes=[-1], keepdims=0),
             n("ReduceMean", ["x"], ["me"]),
             n("ReduceProd", ["x"], ["pr"], axes=[1], keepdims=0),
             n("ReduceLogSumExp", ["x"], ["lse"], axes=[1], keepdims=0),
             n("ReduceLogSumExp", ["x"], ["lse1"], axes=[0, 1]),
             n("ReduceLogSum", ["x"], ["ls"], axes=[2]),
             n("ReduceSumSquare", ["x"], ["ss"], axes=[0], keepdims=0),
             n("ReduceL1", ["x"], ["l1"]),
             n("ReduceL2", ["x"], ["l2"], axes=[-2], keepdims=0),
             n("ReduceSum", ["x", "axes"], ["s"], keepdims=0)]
    outs = [_vi(onnx, name, None) for name in
            ("mx", "mn", "me", "pr", "lse", "lse1", "ls", "ss", "l1", "l2", "s")]
    return _model(onnx, nodes, [_vi(onnx, "x", [2, 3, 4])], outs, [axes]), {}


def reduce_sum_v11(onnx, np):
    n = onnx.helper.make_node
    nodes = [n("ReduceSum", ["x"], ["a"], axes=[0, -1], keepdims=0),
             n("ReduceSum", ["x"], ["b"]), n("ReduceMax", ["x"], ["c"], axes=[1])]
    outs = [_vi(onnx, name, None) for name in "abc"]
    return _model(onnx, nodes, [_vi(onnx, "x", [2, 3, 4])], outs, opset=11), {}


def reduce_axes_input(onnx, np):
    """Opset 18: the axes are a constant input; empty or omitted axes reduce everything, or
    leave the input as it is with noop_with_empty_axes."""
    n = onnx.helper.make_node
    axes = onnx.numpy_helper.from_array(np.array([0, -1], dtype="int64"), "axes")
    empty = onnx.numpy_helper.from_array(np.array([], dtype="int64"), "empty")
    nodes = [n("ReduceMax", ["x", "axes"], ["mx"]),
             n("ReduceMin", ["x", "axes"], ["mn"], keepdims=0),
             n("ReduceMean", ["x", "empty"], ["me"]),
             n("ReduceProd", ["x", "empty"], ["pr"], noop_with_empty_axes=1),
             n("ReduceLogSumExp", ["x"], ["lse"], keepdims=0),
             n("ReduceLogSum", ["x", "axes"], ["ls"]),
             n("ReduceSumSquare", ["x", "", ], ["ss"], noop_with_empty_axes=1),
             n("ReduceL1", ["x", "axes"], ["l1"], keepdims=0),
             n("ReduceL2", ["x"], ["l2"]),
             n("ReduceSum", ["x", "axes"], ["s"])]
    outs = [_vi(onnx, name, None) for name in
            ("mx", "mn", "me", "pr", "lse", "ls", "ss", "l1", "l2", "s")]
    return _model(onnx, nodes, [_vi(onnx, "x", [2, 3, 4])], outs, [axes, empty],
                  opset=18), {}


def reduce_runtime_axes_rejected(onnx, np):
    n = onnx.helper.make_node
    T = onnx.TensorProto
    return _model(onnx, [n("ReduceMax", ["x", "axes"], ["y"])],
                  [_vi(onnx, "x", [2, 3]), _vi(onnx, "axes", [1], T.INT64)],
                  [_vi(onnx, "y", None)], opset=18), {}


def arg_reductions(onnx, np):
    n = onnx.helper.make_node
    nodes = [n("ArgMax", ["x"], ["a"], axis=-1, keepdims=0),
             n("ArgMin", ["x"], ["b"], axis=1, select_last_index=1),
             n("ArgMax", ["x"], ["c"], axis=0, select_last_index=1, keepdims=0),
             n("ArgMin", ["x"], ["d"])]
    outs = [_vi(onnx, name, None, onnx.TensorProto.INT64) for name in "abcd"]
    return _model(onnx, nodes, [_vi(onnx, "x", ["n", 3, 4])], outs), {}


def arg_reduction_v1(onnx, np):
    n = onnx.helper.make_node
    nodes = [n("ArgMax", ["x"], ["a"], axis=1), n("ArgMin", ["x"], ["b"], keepdims=0)]
    outs = [_vi(onnx, name, None, onnx.TensorProto.INT64) for name in "ab"]
    return _model(onnx, nodes, [_vi(onnx, "x", [2, 3])], outs, opset=9), {}


def arg_reduction_v1_negative_axis_rejected(onnx, np):
    n = onnx.helper.make_node
    return _model(onnx, [n("ArgMax", ["x"], ["a"], axis=-1)], [_vi(onnx, "x", [2, 3])],
                  [_vi(onnx, "a", None, onnx.TensorProto.INT64)], opset=9), {}


def gathers(onnx, np):
    n = onnx.helper.make_node
    T = onnx.TensorProto
    nodes = [n("GatherElements", ["x", "i32"], ["a"], axis=1),
             n("GatherND", ["x", "nd"], ["b"], batch_dims=1),
             n("GatherND", ["x", "nd64"], ["c"]),
             n("GatherElements", ["x", "i64"], ["d"], axis=-1)]
    inputs = [_vi(onnx, "x", [2, 3, 4]), _vi(onnx, "i32", [2, 2, 4], T.INT32),
              _vi(onnx, "nd", [2, 1], T.INT64), _vi(onnx, "nd64", [5, 2], T.INT64),
              _vi(onnx, "i64", [2, 3, 1], T.INT64)]
    outs = [_vi(onnx, name, None) for name in "abcd"]
    return _model(onnx, nodes, inputs, outs), {}


def scatters(onnx, np):
    n = onnx.helper.make_node
    T = onnx.TensorProto
    nodes = [n("ScatterElements", ["x", "i", "u"], ["a"], axis=1, reduction="add"),
             n("ScatterND", ["x", "nd", "v"], ["b"], reduction="mul"),
             n("ScatterElements", ["x", "i", "u"], ["c"])]
    inputs = [_vi(onnx, "x", [2, 3]), _vi(onnx, "i", [2, 2], T.INT64),
              _vi(onnx, "u", [2, 2]), _vi(onnx, "nd", [1, 1], T.INT32),
              _vi(onnx, "v", [1, 3])]
    outs = [_vi(onnx, name, None) for name in "abc"]
    return _model(onnx, nodes, inputs, outs, opset=16), {}


def scatter_v11(onnx, np):
    n = onnx.helper.make_node
    T = onnx.TensorProto
    nodes = [n("ScatterElements", ["x", "i", "u"], ["a"], axis=-1),
             n("ScatterND", ["x", "nd", "v"], ["b"])]
    inputs = [_vi(onnx, "x", [2, 3]), _vi(onnx, "i", [2, 2], T.INT64),
              _vi(onnx, "u", [2, 2]), _vi(onnx, "nd", [2, 2], T.INT64), _vi(onnx, "v", [2])]
    outs = [_vi(onnx, name, None) for name in "ab"]
    return _model(onnx, nodes, inputs, outs, opset=11), {}


def scatter_deprecated(onnx, np):
    """Scatter (opset 9-10): indices of data's shape scatter elementwise; smaller indices
    scatter through coordinates built at import time."""
    n = onnx.helper.make_node
    T = onnx.TensorProto
    nodes = [n("Scatter", ["x", "full", "uf"], ["a"], axis=1),
             n("Scatter", ["x", "part", "up"], ["b"], axis=-2)]
    inputs = [_vi(onnx, "x", [3, 4]), _vi(onnx, "full", [3, 4], T.INT32),
              _vi(onnx, "uf", [3, 4]), _vi(onnx, "part", [1, 2], T.INT32),
              _vi(onnx, "up", [1, 2])]
    outs = [_vi(onnx, name, None) for name in "ab"]
    return _model(onnx, nodes, inputs, outs, opset=10), {}


def topk_cumsum_onehot(onnx, np):
    n = onnx.helper.make_node
    T = onnx.TensorProto
    k = onnx.numpy_helper.from_array(np.array([2], dtype="int64"), "k")
    axis = onnx.numpy_helper.from_array(np.array(1, dtype="int32"), "axis")
    depth = onnx.numpy_helper.from_array(np.array(5, dtype="int64"), "depth")
    values = onnx.numpy_helper.from_array(np.array([0.5, 3.0], dtype="float64"), "values")
    nodes = [n("TopK", ["x", "k"], ["v", "i"], axis=1, largest=0),
             n("CumSum", ["x", "axis"], ["c"], exclusive=1),
             n("OneHot", ["idx", "depth", "values"], ["o"], axis=0)]
    inputs = [_vi(onnx, "x", [2, 3]), _vi(onnx, "idx", [2, 2], T.INT64)]
    outs = [_vi(onnx, "v", None), _vi(onnx, "i", None, T.INT64), _vi(onnx, "c", None),
            _vi(onnx, "o", None)]
    return _model(onnx, nodes, inputs, outs, [k, axis, depth, values], opset=14), {}


def topk_v1(onnx, np):
    n = onnx.helper.make_node
    nodes = [n("TopK", ["x"], ["v", "i"], k=2, axis=0)]
    outs = [_vi(onnx, "v", None), _vi(onnx, "i", None, onnx.TensorProto.INT64)]
    return _model(onnx, nodes, [_vi(onnx, "x", [3, 4])], outs, opset=9), {}


def topk_runtime_k_rejected(onnx, np):
    n = onnx.helper.make_node
    T = onnx.TensorProto
    nodes = [n("TopK", ["x", "k"], ["v", "i"])]
    outs = [_vi(onnx, "v", None), _vi(onnx, "i", None, T.INT64)]
    return _model(onnx, nodes, [_vi(onnx, "x", [3, 4]), _vi(onnx, "k", [1], T.INT64)], outs,
                  opset=11), {}


def matmul_integer16(onnx, np):
    n = onnx.helper.make_node
    T = onnx.TensorProto
    nodes = [n("MatMulInteger16", ["a", "b"], ["y"], domain="com.microsoft"),
             n("MatMulInteger16", ["b2", "c"], ["z"], domain="com.microsoft")]
    inputs = [_vi(onnx, "a", [2, 3], T.INT16), _vi(onnx, "b", [3, 4], T.UINT16),
              _vi(onnx, "b2", [4, 3], T.UINT16), _vi(onnx, "c", [3, 2], T.UINT16)]
    outs = [_vi(onnx, "y", None, T.INT32), _vi(onnx, "z", None, T.UINT32)]
    model = _model(onnx, nodes, inputs, outs)
    model.opset_import.append(onnx.helper.make_opsetid("com.microsoft", 1))
    return model, {}


def multi_input_symbolic(onnx, np):
    """Sum / Max with symbolic dims: a dim named alike, or against 1, broadcasts statically."""
    n = onnx.helper.make_node
    nodes = [n("Sum", ["a", "b", "c"], ["s"]), n("Max", ["s", "c"], ["y"])]
    inputs = [_vi(onnx, "a", ["n", 3]), _vi(onnx, "b", ["n", 1]), _vi(onnx, "c", [3])]
    return _model(onnx, nodes, inputs, [_vi(onnx, "y", None)]), {}


def multi_input_symbolic_rejected(onnx, np):
    """A symbolic dim against a constant other than 1: no broadcast known at import time."""
    n = onnx.helper.make_node
    inputs = [_vi(onnx, "a", ["n", 3]), _vi(onnx, "b", [2, 3])]
    return _model(onnx, [n("Max", ["a", "b"], ["y"])], inputs, [_vi(onnx, "y", None)]), {}


CASES.update({f.__name__: f for f in (
    reduce_axes_attribute, reduce_sum_v11, reduce_axes_input, reduce_runtime_axes_rejected,
    arg_reductions, arg_reduction_v1, arg_reduction_v1_negative_axis_rejected, gathers,
    scatters, scatter_v11, scatter_deprecated, topk_cumsum_onehot, topk_v1,
    topk_runtime_k_rejected, matmul_integer16, multi_input_symbolic,
    multi_input_symbolic_rejected)})
