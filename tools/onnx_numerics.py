"""ONNX models imported by tether, compiled and run by apache-tvm 0.27, against the expected
outputs: does tether's module compute what the ONNX model computes?

Per case, two interpreters (tether and apache-tvm never share a process):
  1. this interpreter (tether, onnx, onnxruntime; torch and torchvision for the torch set)
     imports the model with tether's from_onnx (default arguments) and writes, under
     --work DIR/<set>/<case>/:  model.onnx, module.json (tether.ir.save_json: TVM's JSON
     graph) and io.npz (the inputs in main's parameter order, and the expected outputs);
  2. apache-tvm's interpreter (--tvm-python, else $TETHER_TVM_PYTHON, else the repository's
     .venv-tvm) loads module.json (tvm.ir.load_json), compiles it (tvm.compile(mod,
     target="llvm")), runs "main" in relax.VirtualMachine on the inputs and compares every
     output with the expected one.  When a case does not match or does not compile, the same
     process also imports model.onnx with TVM's own from_onnx and compiles and runs that
     module the same way, which tells whether tether's conversion or TVM's compilation is at
     fault.

The case sets:
  node   onnx.backend.test.case.node.collect_testcases(): each node test's model and its data
         sets with the outputs ONNX ships;
  node-init
         the node tests with integer inputs, those inputs turned into initializers holding the
         first data set's values (tools/onnx_diff.py's node-init group: constant shapes, axes,
         indices), run on the data sets whose integer inputs are those values;
  light  onnx/backend/test/data/light/*.onnx (9 CNNs) with their ConstantOfShape weight fills
         replaced by seeded random initializers (BatchNormalization scales and variances in
         [0.5, 1.5), other weights normal with variance 2 / fan-in); expected outputs from
         onnxruntime;
  torch  torchvision models with random weights (weights=None: resnet18, mobilenet_v2, a small
         VisionTransformer) and torch.nn.TransformerEncoderLayer, exported here with
         torch.onnx.export (the dynamo exporter, onnxscript) into build/onnx-models
         ($TETHER_ONNX_MODELS; made once, never committed); expected outputs from onnxruntime.

Each case ends as one of
  ok                  every output has the expected dtype and shape and matches within the
                      tolerance (floats: |got - want| <= atol + rtol * |want|, NaN where NaN;
                      rtol 1e-4, atol 1e-5 for float32/float64, 1e-3 both for float16;
                      integers and bools: equal);
  mismatch            an output differs (reported: max abs and max rel error, the output);
  tvm-compile-error   TVM fails to load or compile tether's module;
  tvm-run-error       the compiled module fails to run on the inputs;
  import-error        tether raises on the model (the cases of the node sets that tether does
                      not import yet are counted here, not run);
  skipped             the case cannot be run through the VM as is (a sequence or optional
                      input or output; a dtype numpy cannot save, such as bfloat16 or float8),
                      or it is one of SLOW and --slow is not given;
  crashed             the TVM process died or timed out on the case.

    python tools/onnx_numerics.py                            # node, light, torch
    python tools/onnx_numerics.py --set node-init            # the node-init set
    python tools/onnx_numerics.py --set node -k test_relu    # some cases
    python tools/onnx_numerics.py --results bench/results/onnx_numerics.md
    python tools/onnx_numerics.py --cases FILE               # case ids, one a line
    python tools/onnx_numerics.py --slow                     # SLOW's cases too

Exits 1 when a case tether imports does not end ok or skipped, unless it is listed in KNOWN
(with its reason) or fails the same way with TVM's own import of the model; and when a KNOWN
case ends ok (take it off the list).
"""
import argparse
import json
import os
import queue
import re
import subprocess
import sys
import threading
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import onnx_diff  # noqa: E402  (the node-init cases; standard library at module level)
SETS = ("node", "node-init", "light", "torch")
# What a run without --set takes (node-init: `--set node-init`).
DEFAULT_SETS = ("node", "light", "torch")
STATUSES = ("ok", "mismatch", "tvm-compile-error", "tvm-run-error", "import-error", "skipped",
            "crashed")
# The TVM worker's protocol lines start with this (anything else on its stdout is ignored).
MARK = "@onnx_numerics@ "
# Tolerances by output dtype: (rtol, atol).
TOLERANCE = {"float32": (1e-4, 1e-5), "float64": (1e-4, 1e-5), "float16": (1e-3, 1e-3)}
SEED = 0
# Where the torch exports are kept between runs (a build folder, never committed).
MODELS = os.environ.get("TETHER_ONNX_MODELS") or os.path.join(ROOT, "build", "onnx-models")
# The torch exports: name -> (what builds the module, the input shape).
TORCH_MODELS = ("resnet18", "mobilenet_v2", "vit_small", "transformer_encoder_layer")


# Cases that do not end ok for a known reason outside this pipeline (TVM's own import of the
# model fails the same way, or the shipped data is not precise enough).  They are reported,
# and do not fail the run; a listed case that ends ok does (take it off the list).
_ROUNDED = "ONNX ships the expected output rounded to 4 decimals (rtol 1e-4 is finer)"
_MASK = ("the Dropout mask is float32 (Relax nn.dropout's mask), ONNX's is bool; TVM's "
         "converter does the same")
_ISINF = ("IsInf's detect_negative / detect_positive are not applied (TVM's converter does "
          "the same)")
_SHAPE_FROM_TENSOR = ("TVM cannot compile broadcast_to to a shape computed from a tensor "
                      "(CodeGenVM: 'cannot emit this Relax operator'); TVM's own import too")
_INT_POW = "TVM's power legalization takes floats only; TVM's own import too"
_RANDOM = ("Dropout in training mode draws a random mask: ONNX's expected output comes from its "
           "own draw (and TVM's legalized dropout is the identity; TVM's own import too)")
_FP16_ULPS = ("float16: one of 64 elements is 0.0029 off (relative 0.0016 against the 1e-3 "
              "tolerance), 1.5 float16 ulps: the expanded graph rounds its float16 "
              "intermediates at every node, and TVM's compiled kernels round them differently "
              "from ONNX's reference (TVM's own import rejects the model)")
KNOWN = {
    "node/test_causal_conv_with_state_silu_fp16_expanded": _FP16_ULPS,
    "node/test_training_dropout": _RANDOM,
    "node/test_training_dropout_default": _RANDOM,
    "node/test_training_dropout_default_mask": _RANDOM,
    "node/test_training_dropout_mask": _RANDOM,
    "node/test_training_dropout_zero_ratio_mask": _MASK,
    "node/test_averagepool_2d_ceil_last_window_starts_on_pad": _ROUNDED,
    "node/test_dropout_default_mask": _MASK,
    "node/test_dropout_default_mask_ratio": _MASK,
    "node/test_isinf_negative": _ISINF,
    "node/test_isinf_positive": _ISINF,
    "node/test_constantofshape_float_ones": _SHAPE_FROM_TENSOR,
    "node/test_constantofshape_int_zeros": _SHAPE_FROM_TENSOR,
    "node/test_constantofshape_int_shape_zero": _SHAPE_FROM_TENSOR,
    "node/test_pow_types_int32_int32": _INT_POW,
    "node/test_pow_types_int64_int64": _INT_POW,
}


def default_tvm_python():
    return os.environ.get("TETHER_TVM_PYTHON") or os.path.join(ROOT, ".venv-tvm", "bin", "python")


# ---- the cases (tether's interpreter) -----------------------------------------------------------

_NODE = None


def node_cases():
    """{name: TestCase} of onnx's node tests."""
    global _NODE
    if _NODE is None:
        import numpy as np
        from onnx.backend.test.case.node import collect_testcases

        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            _NODE = {c.name: c for c in collect_testcases()}
    return _NODE


def light_dir():
    import onnx

    return os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "light")


def case_ids(sets):
    ids = []
    if "node" in sets:
        ids += [f"node/{n}" for n in sorted(node_cases())]
    if "node-init" in sets:
        import onnx

        ids += [f"node-init/{n}" for n, c in sorted(node_cases().items())
                if onnx_diff._init_inputs(onnx, c)]
    if "light" in sets:
        ids += [f"light/{f[:-5]}" for f in sorted(os.listdir(light_dir())) if f.endswith(".onnx")]
    if "torch" in sets:
        ids += [f"torch/{n}" for n in TORCH_MODELS]
    return ids


def randomize_light(model, seed):
    """The light model with each ConstantOfShape fill of a constant shape replaced by an
    initializer of seeded random values of that shape."""
    import numpy as np
    import onnx
    from onnx import numpy_helper

    rng = np.random.default_rng(seed)
    graph = model.graph
    inits = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    # How each value is consumed: (op type, input index) of its first consumer.
    use = {}
    for node in graph.node:
        for k, name in enumerate(node.input):
            use.setdefault(name, (node.op_type, k))
    keep, new_inits = [], []
    declared = {i.name for i in graph.input}
    for node in graph.node:
        if node.op_type != "ConstantOfShape" or node.input[0] not in inits:
            keep.append(node)
            continue
        shape = tuple(int(d) for d in inits[node.input[0]])
        fill = numpy_helper.to_array(node.attribute[0].t) if node.attribute else np.zeros(1, "f4")
        op, k = use.get(node.output[0], ("", 0))
        if op == "BatchNormalization" and k in (1, 4):  # scale, variance
            arr = rng.uniform(0.5, 1.5, shape)
        elif op == "BatchNormalization":  # bias, mean
            arr = rng.normal(0.0, 0.1, shape)
        elif len(shape) >= 2:  # conv / gemm weights
            fan_in = int(np.prod(shape[1:])) if op != "Gemm" else shape[-1]
            arr = rng.normal(0.0, np.sqrt(2.0 / max(fan_in, 1)), shape)
        else:  # biases
            arr = rng.normal(0.0, 0.1, shape)
        new_inits.append(numpy_helper.from_array(arr.astype(fill.dtype), node.output[0]))
        if model.ir_version < 4 and node.output[0] not in declared:  # initializers are inputs
            graph.input.append(onnx.helper.make_tensor_value_info(
                node.output[0], onnx.helper.np_dtype_to_tensor_dtype(fill.dtype), shape))
    del graph.node[:]
    graph.node.extend(keep)
    graph.initializer.extend(new_inits)
    used = {name for node in graph.node for name in node.input}
    kept_inits = [t for t in graph.initializer if t.name in used or
                  t.name in {o.name for o in graph.output}]
    dropped = {t.name for t in graph.initializer} - {t.name for t in kept_inits}
    del graph.initializer[:]
    graph.initializer.extend(kept_inits)
    kept_inputs = [i for i in graph.input if i.name not in dropped]
    del graph.input[:]
    graph.input.extend(kept_inputs)
    onnx.checker.check_model(model)
    return model


def import_torchvision():
    """torchvision, for its model definitions (pure Python).  The torchvision wheels on PyPI are
    built against CUDA torch: beside the CPU torch their C extension (detection ops such as
    nms) does not load, and registering the fake kernels of those ops then fails at import.  The
    models used here call none of them, so that registration module is left out when the
    extension is missing."""
    import importlib.util
    import types

    import torch  # noqa: F401

    if "torchvision" not in sys.modules:
        spec = importlib.util.find_spec("torchvision")
        if spec is None:
            raise ImportError("torchvision is not installed (pyproject.toml's test extra has it)")
        ext = [f for f in os.listdir(os.path.dirname(spec.origin)) if f.startswith("_C.")]
        try:
            if not ext:
                raise OSError("no _C extension")
            torch.ops.load_library(os.path.join(os.path.dirname(spec.origin), ext[0]))
        except (OSError, RuntimeError):
            name = "torchvision._meta_registrations"
            sys.modules.setdefault(name, types.ModuleType(name))
    import torchvision

    return torchvision


def torch_module(name):
    """(torch module in eval mode with seeded random weights, example input)."""
    import torch

    torch.manual_seed(SEED)
    if name == "transformer_encoder_layer":
        m = torch.nn.TransformerEncoderLayer(d_model=64, nhead=4, dim_feedforward=128,
                                             dropout=0.0, batch_first=True)
        x = torch.randn(2, 10, 64)
    else:
        torchvision = import_torchvision()
        if name == "vit_small":
            m = torchvision.models.VisionTransformer(image_size=32, patch_size=8, num_layers=2,
                                                     num_heads=4, hidden_dim=64, mlp_dim=128,
                                                     num_classes=10)
            x = torch.randn(1, 3, 32, 32)
        else:
            m = getattr(torchvision.models, name)(weights=None)
            x = torch.randn(1, 3, 224, 224)
    return m.eval(), x


def export_torch(name, path):
    """Exports a torch model to path (once: an existing file is reused)."""
    import torch

    if os.path.exists(path):
        return
    m, x = torch_module(name)
    tmp = f"{path}.{os.getpid()}.tmp"
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(m, (x,), tmp, input_names=["input"], output_names=["output"],
                          dynamo=True, external_data=False, verbose=False)
    os.replace(tmp, path)


def run_onnxruntime(model, inputs):
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.log_severity_level = 3
    sess = ort.InferenceSession(model.SerializeToString(), opts,
                                providers=["CPUExecutionProvider"])
    names = [i.name for i in sess.get_inputs()]
    return sess.run(None, dict(zip(names, inputs)))


def graph_inputs(model):
    """The graph inputs that are not initializers (what main's parameters are), in order."""
    inits = {t.name for t in model.graph.initializer}
    return [i for i in model.graph.input if i.name not in inits]


def random_inputs(model, rng, fixed=None):
    import numpy as np
    from onnx import helper

    out = []
    for info in graph_inputs(model):
        if fixed is not None and info.name in fixed:
            out.append(fixed[info.name])
            continue
        t = info.type.tensor_type
        shape = [d.dim_value for d in t.shape.dim]
        dtype = helper.tensor_dtype_to_np_dtype(t.elem_type)
        out.append(rng.standard_normal(shape).astype(dtype))
    return out


def load_case(case_id, work):
    """(model, [(inputs, expected outputs)...]) of a case id."""
    import numpy as np
    import onnx

    group, name = case_id.split("/", 1)
    if group == "node":
        c = node_cases()[name]
        return c.model, [(list(i), list(o)) for i, o in c.data_sets]
    if group == "node-init":
        c = node_cases()[name]
        fixed = onnx_diff._init_inputs(onnx, c)
        names = [i.name for i in c.model.graph.input]
        data_sets = []
        for inputs, outputs in c.data_sets:
            given = dict(zip(names, inputs))
            if all(np.array_equal(given.get(n), v) for n, v in fixed.items()):
                data_sets.append(([v for n, v in zip(names, inputs) if n not in fixed],
                                  list(outputs)))
        return onnx_diff._with_initializers(onnx, c), data_sets
    rng = np.random.default_rng(SEED)
    if group == "light":
        model = randomize_light(onnx.load(os.path.join(light_dir(), name + ".onnx")), SEED)
        inputs = random_inputs(model, rng)
        return model, [(inputs, run_onnxruntime(model, inputs))]
    if group == "torch":
        import torch

        path = os.path.join(MODELS, f"{name}-torch{torch.__version__}.onnx")
        os.makedirs(MODELS, exist_ok=True)
        export_torch(name, path)
        model = onnx.load(path)
        _, x = torch_module(name)
        inputs = [x.numpy()]
        return model, [(inputs, run_onnxruntime(model, inputs))]
    raise KeyError(case_id)


def _tensor(value):
    """value as a numpy array when it is a tensor (an array, a numpy scalar, a TensorProto);
    else value itself."""
    import numpy as np
    import onnx
    from onnx import numpy_helper

    if isinstance(value, onnx.TensorProto):
        return numpy_helper.to_array(value)
    if isinstance(value, np.generic):
        return np.asarray(value)
    return value


def _savable(value):
    """None when value is a tensor np.savez keeps and TVM takes; else why not."""
    import numpy as np

    if not isinstance(value, np.ndarray):
        return f"a {type(value).__name__} value (sequence or optional)"
    if value.dtype.kind not in "biufc" or value.dtype.name in ("bfloat16",) or \
            value.dtype.name.startswith(("float8", "float4", "int4", "uint4", "int2", "uint2")):
        return f"dtype {value.dtype}"
    return None


def _shape_conflict(info, value):
    """None when value fits the graph input's declared type; else how it does not."""
    dims = info.type.tensor_type.shape.dim
    if not info.type.tensor_type.HasField("shape"):
        return None
    declared = [d.dim_value if d.HasField("dim_value") else None for d in dims]
    if len(declared) != value.ndim or any(d is not None and d != v
                                          for d, v in zip(declared, value.shape)):
        shown = ["?" if d is None else d for d in declared]
        return f"shape {list(value.shape)}, but the graph declares {shown}"
    return None


def prepare(case_id, work):
    """Imports a case with tether and writes its files; the case's entry (status
    "import-error" / "skipped" / "prepared")."""
    import numpy as np

    import tether
    from tether.relax.frontend.onnx import from_onnx

    entry = {"id": case_id}
    out_dir = os.path.join(work, case_id)
    try:
        model, data_sets = load_case(case_id, work)
    except Exception as err:  # the case itself could not be made (an export failing)
        entry.update(status="skipped", detail=f"case not made: {type(err).__name__}: "
                     f"{str(err).strip().splitlines()[0][:200] if str(err).strip() else ''}")
        return entry
    entry["nodes"] = len(model.graph.node)
    if not data_sets:
        entry.update(status="skipped", detail="no data set (for node-init: none has the "
                     "initializers' values)")
        return entry
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t0 = time.perf_counter()
            mod = from_onnx(model)
            entry["import_ms"] = round((time.perf_counter() - t0) * 1e3, 2)
            text = tether.ir.save_json(mod)
    except Exception as err:
        msg = str(err).strip().splitlines()
        entry.update(status="import-error",
                     detail=f"{type(err).__name__}: {msg[0][:200] if msg else ''}")
        return entry
    n_inputs = len(graph_inputs(model))
    arrays = {}
    for k, (inputs, outputs) in enumerate(data_sets):
        if len(inputs) != n_inputs:
            entry.update(status="skipped", detail=f"data set {k} has {len(inputs)} inputs, "
                         f"the graph {n_inputs}")
            return entry
        for kind, values in (("in", inputs), ("out", outputs)):
            for i, v in enumerate(values):
                v = _tensor(v)
                why = _savable(v)
                if why is None and kind == "in":
                    why = _shape_conflict(graph_inputs(model)[i], v)
                if why:
                    entry.update(status="skipped", detail=f"{kind}put {i}: {why}")
                    return entry
                arrays[f"{k}_{kind}_{i}"] = np.array(v, order="C")  # keeps 0-d
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "module.json"), "w", encoding="utf-8") as f:
        f.write(text)
    with open(os.path.join(out_dir, "model.onnx"), "wb") as f:
        f.write(model.SerializeToString())
    np.savez(os.path.join(out_dir, "io.npz"), **arrays)
    with open(os.path.join(out_dir, "meta.json"), "w", encoding="utf-8") as f:
        json.dump({"data_sets": len(data_sets), "inputs": n_inputs,
                   "outputs": [len(o) for _, o in data_sets]}, f)
    entry["status"] = "prepared"
    return entry


# ---- the TVM side (apache-tvm's interpreter; standard library at module level) ------------------

def compare_outputs(got, want):
    """None when every output matches; else (detail, max abs error, max rel error)."""
    import numpy as np

    if len(got) != len(want):
        return f"{len(got)} outputs, expected {len(want)}", None, None
    for i, (g, w) in enumerate(zip(got, want)):
        if g.shape != w.shape:
            return f"output {i}: shape {list(g.shape)}, expected {list(w.shape)}", None, None
        if g.dtype != w.dtype:
            return f"output {i}: dtype {g.dtype}, expected {w.dtype}", None, None
        if w.dtype.kind in "fc":
            rtol, atol = TOLERANCE.get(w.dtype.name, (1e-4, 1e-5))
            if np.allclose(g, w, rtol=rtol, atol=atol, equal_nan=True):
                continue
            g64, w64 = g.astype(np.float64), w.astype(np.float64)
            with np.errstate(all="ignore"):
                diff = np.abs(g64 - w64)
                finite = np.isfinite(diff)
                abs_err = float(diff[finite].max()) if finite.any() else float("inf")
                rel = diff / np.maximum(np.abs(w64), np.finfo(np.float64).tiny)
                rel_err = float(rel[finite].max()) if finite.any() else float("inf")
            bad = int((~np.isclose(g, w, rtol=rtol, atol=atol, equal_nan=True)).sum())
            return f"output {i}: {bad} of {w.size} elements differ", abs_err, rel_err
        if not np.array_equal(g, w):
            bad = int((g != w).sum())
            diff = np.abs(g.astype(np.float64) - w.astype(np.float64))
            return f"output {i}: {bad} of {w.size} elements differ", float(diff.max()), None
    return None


def _vm_run(tvm, relax, mod, io, meta, stats):
    """(compile seconds, run seconds, problem): problem None when every data set matches
    (stats["tol_used"] is then the largest tolerance_used of the outputs), else (status,
    detail, abs, rel)."""
    import numpy as np

    used = 0.0
    t0 = time.perf_counter()
    try:
        exe = tvm.compile(mod, target="llvm")
        vm = relax.VirtualMachine(exe, tvm.cpu())
    except Exception as err:
        return time.perf_counter() - t0, None, ("tvm-compile-error", _first_line(err), None, None)
    compile_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    worst = None
    for k in range(meta["data_sets"]):
        args = [tvm.runtime.tensor(io[f"{k}_in_{i}"]) for i in range(meta["inputs"])]
        want = [io[f"{k}_out_{i}"] for i in range(meta["outputs"][k])]
        try:
            res = vm["main"](*args)
            got = _flatten(res)
        except Exception as err:
            return compile_s, time.perf_counter() - t0, ("tvm-run-error", _first_line(err),
                                                        None, None)
        got = [np.asarray(g) for g in got]
        bad = compare_outputs(got, want)
        if bad is not None and worst is None:
            worst = ("mismatch",) + tuple(bad)
        if bad is None:
            for g, w in zip(got, want):
                used = max(used, tolerance_used(g, w))
    if worst is None:
        stats["tol_used"] = used
    return compile_s, time.perf_counter() - t0, worst


def tolerance_used(got, want):
    """max |got - want| / (atol + rtol * |want|) over the finite elements of a float output
    (0 for other dtypes): at most 1 when the output matches."""
    import numpy as np

    if want.dtype.kind != "f" or not want.size:
        return 0.0
    rtol, atol = TOLERANCE.get(want.dtype.name, (1e-4, 1e-5))
    g, w = got.astype(np.float64), want.astype(np.float64)
    finite = np.isfinite(w) & np.isfinite(g)
    if not finite.any():
        return 0.0
    return float((np.abs(g - w) / (atol + rtol * np.abs(w)))[finite].max())


def _flatten(res):
    """The VM's result as a list of numpy arrays (a shape value as an int64 array)."""
    import numpy as np
    from tvm.runtime import ShapeTuple

    if hasattr(res, "numpy"):
        return [res.numpy()]
    if isinstance(res, ShapeTuple):
        return [np.array(list(res), dtype="int64")]
    out = []
    for item in res:
        out += _flatten(item)
    return out


def _first_line(err):
    """The line of an error message that says what failed (TVM's messages may carry a
    traceback, the offending call and a metadata note)."""
    msg = [ln.strip() for ln in str(err).strip().splitlines() if ln.strip()]
    checks = [ln for ln in msg if "Check failed" in ln]
    plain = [ln for ln in msg if not ln.startswith(("#", "File ", "Traceback", "R.", "at "))]
    line = (checks or plain or msg or [""])[0]
    return f"{type(err).__name__}: {line[:240]}"


def tvm_case(tvm, relax, case_dir, own):
    import numpy as np

    entry = {}
    with open(os.path.join(case_dir, "meta.json"), encoding="utf-8") as f:
        meta = json.load(f)
    io = np.load(os.path.join(case_dir, "io.npz"))
    try:
        with open(os.path.join(case_dir, "module.json"), encoding="utf-8") as f:
            mod = tvm.ir.load_json(f.read())
    except Exception as err:
        entry.update(status="tvm-compile-error", detail="load_json: " + _first_line(err))
        return entry
    compile_s, run_s, problem = _vm_run(tvm, relax, mod, io, meta, entry)
    entry["compile_s"] = round(compile_s, 3)
    if run_s is not None:
        entry["run_s"] = round(run_s, 4)
    if problem is None:
        entry["status"] = "ok"
        return entry
    entry["status"], entry["detail"], entry["max_abs"], entry["max_rel"] = problem
    if own:  # TVM's own import of the model, compiled and run the same way
        import onnx
        from tvm.relax.frontend.onnx import from_onnx

        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tmod = from_onnx(onnx.load(os.path.join(case_dir, "model.onnx")))
        except Exception as err:
            entry["tvm_own"] = "import-error: " + _first_line(err)
            return entry
        _, _, p = _vm_run(tvm, relax, tmod, io, meta, {})
        entry["tvm_own"] = "ok" if p is None else f"{p[0]}: {p[1]}"
    return entry


def tvm_worker(own):
    import tvm
    from tvm import relax

    out = sys.stdout
    for line in sys.stdin:
        case_id, case_dir = line.rstrip("\n").split("\t")
        out.write(MARK + json.dumps({"start": case_id}) + "\n")
        out.flush()
        entry = tvm_case(tvm, relax, case_dir, own)
        entry["id"] = case_id
        out.write(MARK + json.dumps(entry) + "\n")
        out.flush()


def run_tvm(tvm_python, todo, timeout, own, progress):
    """{case id: entry} for todo ([(case id, dir)]), in TVM worker processes (a new one after
    a crash or a case running longer than timeout seconds)."""
    results = {}
    todo = list(todo)
    while todo:
        cmd = [tvm_python, os.path.abspath(__file__), "tvm-worker"] + (["--own"] if own else [])
        env = dict(os.environ, TVM_NUM_THREADS=os.environ.get("TVM_NUM_THREADS", "1"))
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True, env=env)
        lines = queue.Queue()

        def reader(p=proc, q=lines):
            for ln in p.stdout:
                q.put(ln)
            q.put(None)

        threading.Thread(target=reader, daemon=True).start()
        proc.stdin.write("".join(f"{i}\t{d}\n" for i, d in todo))
        proc.stdin.close()
        started, since, ended = None, time.monotonic(), False
        while True:
            try:
                ln = lines.get(timeout=5)
            except queue.Empty:
                if started and time.monotonic() - since > timeout:
                    proc.kill()
                    results[started] = {"id": started, "status": "crashed",
                                        "detail": f"timed out after {timeout} s"}
                    started = None
                    break
                continue
            if ln is None:
                ended = True
                break
            if not ln.startswith(MARK):
                continue
            msg = json.loads(ln[len(MARK):])
            if "start" in msg:
                started, since = msg["start"], time.monotonic()
                continue
            results[msg["id"]] = msg
            started = None
            if progress:
                print(f"  {msg['id']}: {msg['status']} ({msg.get('compile_s', 0):.1f} s)",
                      file=sys.stderr, flush=True)
        rc = proc.wait()
        if ended and started is not None:
            results[started] = {"id": started, "status": "crashed", "detail": f"exit {rc}"}
        todo = [(i, d) for i, d in todo if i not in results]
        if ended and started is None and todo:  # the worker stopped before any case
            for i, _ in todo:
                results[i] = {"id": i, "status": "crashed", "detail": f"worker exit {rc}"}
            todo = []
    return results


# ---- the run and its summary -------------------------------------------------------------------

# Cases apache-tvm takes minutes each to compile, skipped unless --slow: the expanded forms
# of Attention (a function body of up to a few hundred nodes; a full run of the node set
# otherwise spends over two hours in them).
SLOW = re.compile(r"^node(-init)?/test_attention_.*_expanded")
SLOW_DETAIL = "apache-tvm compiles it for minutes (the expanded Attention cases); run with --slow"


def run(ids, work, tvm_python, timeout=900, own=True, progress=False, slow=False):
    """{case id: entry} for every case id, through both stages."""
    results, todo = {}, []
    for case_id in ids:
        if not slow and SLOW.match(case_id):
            results[case_id] = {"id": case_id, "status": "skipped", "detail": SLOW_DETAIL}
            continue
        entry = prepare(case_id, work)
        if entry["status"] == "prepared":
            todo.append((case_id, os.path.join(work, case_id)))
        results[case_id] = entry
    if todo:
        for case_id, entry in run_tvm(tvm_python, todo, timeout, own, progress).items():
            results[case_id].update(entry)
    for case_id, entry in results.items():
        if entry.get("tvm_own", "").split(":")[0] == entry["status"]:
            entry["as_tvm"] = True
        if case_id in KNOWN:
            if entry["status"] == "ok":
                entry["known_ok"] = True
            elif entry["status"] not in ("import-error", "skipped"):
                entry["known"] = KNOWN[case_id]
    return results


def failures(results):
    """The case ids that fail the run: not ok, neither known nor failing the same way with
    TVM's own import (so tether's module is at fault); or known and now ok."""
    return [i for i, e in results.items()
            if (e["status"] not in ("ok", "skipped", "import-error") and "known" not in e
                and not e.get("as_tvm")) or e.get("known_ok")]


def summary(ids, results, wall):
    """The Markdown summary: a table per set, then every case that did not end ok."""
    import onnx

    lines = ["| set | cases | imported | " + " | ".join(STATUSES)
             + " | known | as TVM's own | compile s (sum / median / max) |",
             "|---|" + "---:|" * (len(STATUSES) + 5)]
    for s in SETS:
        entries = [results[i] for i in ids if i.split("/")[0] == s]
        if not entries:
            continue
        counts = {k: sum(1 for e in entries if e["status"] == k) for k in STATUSES}
        times = sorted(e["compile_s"] for e in entries if "compile_s" in e)
        t = (f"{sum(times):.1f} / {times[len(times) // 2]:.2f} / {times[-1]:.2f}" if times
             else "-")
        imported = len(entries) - counts["import-error"] - sum(
            1 for e in entries if e["status"] == "skipped" and "import_ms" not in e)
        lines.append(f"| {s} | {len(entries)} | {imported} | "
                     + " | ".join(str(counts[k]) for k in STATUSES)
                     + f" | {sum(1 for e in entries if 'known' in e)}"
                     + f" | {sum(1 for e in entries if e.get('as_tvm'))} | {t} |")
    out = ["# ONNX numerics: tether's import, compiled and run by apache-tvm\n",
           "Each case imported with tether's from_onnx, handed to apache-tvm as JSON "
           "(tether.ir.save_json, tvm.ir.load_json), compiled with "
           "`tvm.compile(mod, target=\"llvm\")` and run in `relax.VirtualMachine`, against the "
           "outputs ONNX ships (node, node-init sets) or onnxruntime's (light, torch sets).  Tolerance: "
           "rtol 1e-4, atol 1e-5 (float32/float64), 1e-3 both (float16); integers and bools "
           "exactly.  Regenerated by `make onnx-numerics` (tools/onnx_numerics.py).  "
           f"onnx {onnx.__version__}; {len(ids)} cases in {wall:.0f} s.\n",
           "\n".join(lines), "",
           "- imported: tether imports the case (the rest are import-error, or skipped "
           "before import).",
           "- TVM's own import: for a case that does not end ok, what TVM's own from_onnx "
           "module of the model gives, compiled and run the same way.",
           "- known: the case does not end ok for a known reason (listed in "
           "tools/onnx_numerics.py KNOWN with the reason).",
           "- as TVM's own: the case fails the same way with TVM's own import of the model "
           "(tether's module is TVM's: the fault is TVM's converter or compiler, or the data).",
           "- `make onnx-numerics` fails on a case that is neither ok, skipped, import-error, "
           "known nor as TVM's own (tether's module alone is wrong), and on a known case that "
           "is ok.", ""]
    models = [i for i in ids if i.split("/")[0] in ("light", "torch")]
    if models:
        out += ["## Models\n",
                "| case | ONNX nodes | tether import ms | TVM compile s | TVM run s | status | "
                "max error / tolerance |", "|---|---:|---:|---:|---:|---|---:|"]
        for i in models:
            e = results[i]

            def cell(key, fmt):
                return format(e[key], fmt) if e.get(key) is not None else "-"
            out.append(f"| {i} | {cell('nodes', 'd')} | {cell('import_ms', '.1f')} | "
                       f"{cell('compile_s', '.1f')} | {cell('run_s', '.3f')} | {e['status']} | "
                       f"{cell('tol_used', '.3f')} |")
        out += ["", "max error / tolerance: the largest |TVM - expected| / (atol + rtol * "
                "|expected|) over the outputs' elements (at most 1 when they match).", ""]
    now_ok = [i for i in ids if results[i].get("known_ok")]
    if now_ok:
        out.append(f"## listed as known, but ok now ({len(now_ok)}): take them off KNOWN\n")
        out += [f"- {i}" for i in now_ok] + [""]
    for status in STATUSES[1:]:
        bad = [results[i] for i in ids if results[i]["status"] == status]
        if not bad or status == "import-error":
            continue
        out.append(f"## {status} ({len(bad)})\n")
        for e in bad:
            err = ""
            if e.get("max_abs") is not None:
                err = f" (max abs {e['max_abs']:.3g}" + (
                    f", max rel {e['max_rel']:.3g})" if e.get("max_rel") is not None else ")")
            own = f"; TVM's own import: {e['tvm_own']}" if "tvm_own" in e else ""
            known = f" [known: {e['known']}]" if "known" in e else \
                " [not as TVM's own: tether's fault]" if status != "skipped" and \
                not e.get("as_tvm") else ""
            out.append(f"- {e['id']}: {e.get('detail', '')}{err}{own}{known}")
        out.append("")
    n_import = sum(1 for i in ids if results[i]["status"] == "import-error")
    if n_import:
        out.append(f"## import-error ({n_import})\n")
        out.append("Cases tether's from_onnx does not import yet (not run), by the first line "
                   "of what it raised:\n")
        by_msg = {}
        for i in ids:
            if results[i]["status"] == "import-error":
                by_msg.setdefault(results[i]["detail"][:120], []).append(i.split("/", 1)[1])
        for msg, cases in sorted(by_msg.items(), key=lambda kv: -len(kv[1])):
            shown = ", ".join(cases[:6]) + (", ..." if len(cases) > 6 else "")
            out.append(f"- {len(cases)}: {msg} ({shown})")
        out.append("")
    return "\n".join(out)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("cmd", nargs="?", default="run", choices=("run", "tvm-worker"))
    ap.add_argument("--set", action="append", choices=SETS,
                    help="a case set (default: node, light, torch)")
    ap.add_argument("-k", action="append", help="only case ids containing this text")
    ap.add_argument("--cases", help="a file of case ids, one a line")
    ap.add_argument("--work", default=os.path.join(ROOT, "build", "onnx-numerics"),
                    help="where the cases' files go (default: build/onnx-numerics)")
    ap.add_argument("--tvm-python", default=None, help="an interpreter with apache-tvm 0.27")
    ap.add_argument("--results", help="write the Markdown summary to this file")
    ap.add_argument("--json", help="write every case's entry to this JSON file")
    ap.add_argument("--timeout", type=float, default=900, help="seconds per case in TVM")
    ap.add_argument("--own", action="store_true",
                    help="(tvm-worker) compare TVM's own import of failing cases")
    ap.add_argument("--no-own", action="store_true",
                    help="do not run TVM's own import of the cases that fail")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each case as it ends")
    ap.add_argument("--slow", action="store_true",
                    help="also the cases of SLOW (skipped otherwise)")
    args = ap.parse_args(argv[1:])
    if args.cmd == "tvm-worker":
        tvm_worker(args.own)
        return 0
    tvm_python = args.tvm_python or default_tvm_python()
    if not os.path.exists(tvm_python):
        sys.exit(f"no apache-tvm interpreter at {tvm_python}: run `make venv-tvm` or pass "
                 "--tvm-python")
    if args.cases:
        with open(args.cases, encoding="utf-8") as f:
            ids = [ln.strip() for ln in f if ln.strip() and not ln.startswith("#")]
    else:
        ids = case_ids(args.set or DEFAULT_SETS)
    if args.k:
        ids = [i for i in ids if any(k in i for k in args.k)]
    t0 = time.perf_counter()
    results = run(ids, os.path.abspath(args.work), tvm_python, args.timeout,
                  own=not args.no_own, progress=args.verbose, slow=args.slow)
    text = summary(ids, results, time.perf_counter() - t0)
    print(text)
    if args.results:
        with open(args.results, "w", encoding="utf-8") as f:
            f.write(text)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1)
    return 1 if failures(results) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
