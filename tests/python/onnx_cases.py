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
