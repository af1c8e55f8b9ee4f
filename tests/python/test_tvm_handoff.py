"""Relax modules handed between tether and apache-tvm 0.27 (tools/tvm_handoff.py): hand-written
programs covering each construct, and random programs of fixed seeds, each built alike by
tether (here) and by TVM (one subprocess in TVM's own virtualenv for the whole batch), checked:

  p  both print the same module;
  a  tether.ir.save_json -> tvm.ir.load_json: structurally equal to TVM's own build;
  b  tvm.ir.save_json -> tether.ir.load_json: prints as tether's module and is equal to it;
  c  TVM compiles and runs (tvm.compile, relax.VirtualMachine) what tether wrote: the outputs
     match numpy on random inputs;
  d  tether's mod.script(show_meta=True) parses in TVM (tvm.script.from_source), equal.

TVM's interpreter is $TETHER_TVM_PYTHON (make test sets it to .venv-tvm, which `make
venv-tvm` creates), else <repo>/.venv-tvm.  Without it these tests fail: they are the
handoff's tests, not optional ones.
"""
import importlib.util
import os

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _load_tool():
    spec = importlib.util.spec_from_file_location("tvm_handoff", os.path.join(REPO, "tools", "tvm_handoff.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


handoff = _load_tool()


def tvm_python():
    path = os.environ.get("TETHER_TVM_PYTHON") or os.path.join(REPO, ".venv-tvm", "bin", "python")
    if not os.path.exists(path):
        pytest.fail(f"no apache-tvm interpreter at {path}: run `make venv-tvm` (make test does)")
    return path


# ---- hand-written programs --------------------------------------------------------------------

def T(dtype, *shape):
    return {"dtype": dtype, "shape": list(shape)}


def P(name, ty, rt=None):
    return {"name": name, "ty": ty, "rt": rt if rt is not None else ty["shape"]}


def C(dtype, shape, data, implicit=False):
    n = 1
    for d in shape:
        n *= d
    assert len(data) == n
    return {"c": {"dtype": dtype, "shape": list(shape), "data": list(data), "implicit": implicit}}


def V(i):
    return {"v": i}


def fn(name, params, steps, out, syms=(), dataflow=True, attrs=None, private=False, pure=True):
    return {"name": name, "params": params, "syms": list(syms), "steps": steps, "out": out,
            "dataflow": dataflow, "attrs": attrs, "private": private, "pure": pure}


def recipe(*functions, sizes=None, seed=0, runnable=True):
    r = {"seed": seed, "functions": list(functions), "sizes": sizes or {}}
    if not runnable:
        r["runnable"] = False
    return r


HAND = {
    # static shapes, constants of several dtypes, a dataflow block, a tuple output
    "static_constants": recipe(fn("main", [P("x", T("float32", 2, 3)), P("y", T("int32", 2, 3))], [
        {"op": "add", "args": [V(0), C("float32", [3], [0.5, -1.0, 2.0])]},            # 2
        {"op": "multiply", "args": [V(2), C("float32", [2, 1], [1.5, -0.25])]},        # 3
        {"op": "subtract", "args": [V(1), C("int32", [], [7])]},                       # 4
        {"op": "take", "args": [V(3), C("int64", [2], [2, 0])], "kw": {"axis": 1}},    # 5
        {"op": "astype", "args": [V(4), "float32"]},                                   # 6
        {"op": "where", "args": [C("bool", [3], [True, False, True]), V(6), V(3)]},    # 7
        {"op": "sum", "args": [V(7)], "kw": {"axis": [1], "keepdims": True}},          # 8
    ], [V(5), V(8), V(4)])),
    # constants whose dtype comes from numpy: int64 / float64 become int32 / float32 (as TVM)
    "implicit_const_dtypes": recipe(fn("main", [P("x", T("int32", 4))], [
        {"op": "add", "args": [V(0), C("int64", [4], [1, 2, 3, 4], implicit=True)]},
        {"op": "astype", "args": [V(1), "float32"]},
        {"op": "multiply", "args": [V(2), C("float64", [], [0.5], implicit=True)]},
    ], [V(3)], dataflow=False)),
    # symbolic dims (bare, compound), a param of unknown shape made known by match_cast (a new
    # var q defined there, so the SeqExpr's type mentions a var its blocks define), reshape
    # with a symbolic dim, broadcast_to a symbolic shape
    "symbolic_match_cast": recipe(fn("main", [
        P("x", T("float32", "n", 4)), P("y", T("float32", ["*", "n", 2], "m")),
        P("u", {"dtype": "float32", "ndim": 2}, ["q", 4])], [
        {"match_cast": V(2), "ty": T("float32", "q", 4)},                               # 3
        {"op": "exp", "args": [V(3)]},                                                  # 4
        {"op": "concat", "args": [[V(0), V(4)]], "kw": {"axis": 0}},                    # 5
        {"op": "reshape", "args": [V(1), [{"d": "n"}, -1]]},                            # 6
        {"op": "broadcast_to", "args": [V(0), [2, {"d": "n"}, 4]]},                     # 7
        {"op": "nn.softmax", "args": [V(6)], "kw": {"axis": -1}},                       # 8
        {"op": "strided_slice", "args": [V(0)], "kw": {"axes": [0], "begin": [1], "end": [100]}},
    ], [V(4), V(5), V(7), V(8), V(9)], syms=["m", "n", "q"], dataflow=False),
        sizes={"n": 3, "m": 2, "q": 5}),
    # several functions: private and public helpers with attrs, an impure one, calls from main
    "functions_and_attrs": recipe(
        fn("helper_private", [P("a", T("float32", 2, 4))], [
            {"op": "nn.relu", "args": [V(0)]}], V(1), private=True,
           attrs={"tether.level": 3, "tether.note": "private helper"}),
        fn("helper_public", [P("a", T("float32", 2, 4)), P("b", T("float32", 4))], [
            {"op": "add", "args": [V(0), V(1)]},
            {"op": "matmul", "args": [V(2), C("float32", [4, 3], [k / 8 for k in range(12)])]}],
           V(3), dataflow=False, attrs={"tether.flag": True}),
        fn("main", [P("x", T("float32", 2, 4)), P("y", T("float32", 4))], [
            {"call": "helper_private", "args": [V(0)]},                                 # 2
            {"call": "helper_public", "args": [V(2), V(1)]},                            # 3
            {"op": "nn.gelu", "args": [V(3)]},                                          # 4
        ], [V(4), V(2)], attrs={"tether.level": 1})),
    # tuples: split and TupleGetItem, a tuple bound to a var, nested tuple output
    "tuples": recipe(fn("main", [P("x", T("float32", 6, 2)), P("y", T("float32", 6, 2))], [
        {"op": "split", "args": [V(0)], "kw": {"indices_or_sections": 3, "axis": 0}},  # 2
        {"tgi": V(2), "index": 1},                                                      # 3
        {"tuple": [V(3), V(1)]},                                                        # 4
        {"tgi": V(4), "index": 1},                                                      # 5
        {"op": "split", "args": [V(1)], "kw": {"indices_or_sections": [1, 4], "axis": 0}},
        {"tgi": V(6), "index": 2},                                                      # 7
    ], [V(3), [V(5), [V(7), V(0)]]])),
    # a small CNN: conv2d (constant weights), relu, pooling, flatten, dense, bias
    "cnn": recipe(fn("main", [P("img", T("float32", 2, 3, 8, 8))], [
        {"op": "nn.conv2d", "args": [V(0), C("float32", [4, 3, 3, 3], [((k * 7) % 17 - 8) / 16 for k in range(108)])],
         "kw": {"padding": 1}},                                                         # 1
        {"op": "nn.relu", "args": [V(1)]},                                              # 2
        {"op": "nn.max_pool2d", "args": [V(2)], "kw": {"pool_size": [2, 2], "strides": [2, 2]}},
        {"op": "nn.avg_pool2d", "args": [V(3)], "kw": {"pool_size": [2, 2], "strides": [1, 1],
                                                      "padding": [1, 1, 1, 1]}},        # 4
        {"op": "nn.adaptive_avg_pool2d", "args": [V(4)], "kw": {"output_size": 1}},     # 5
        {"op": "reshape", "args": [V(3), [2, -1]]},                                     # 6
        {"op": "matmul", "args": [V(6), C("float32", [64, 5], [((k * 5) % 11 - 5) / 32 for k in range(320)])]},
        {"op": "add", "args": [V(7), C("float32", [5], [0.25, -0.5, 0.0, 1.0, -1.0])]},  # 8
        {"op": "nn.log_softmax", "args": [V(8)]},                                       # 9
        {"op": "flatten", "args": [V(5)]},                                              # 10
    ], [V(9), V(10)])),
    # TypeVars of several functions: TVM declares each function's new ones in order, sorted
    "typevar_order": recipe(
        fn("f", [P("x", T("float32", "z", "b"))], [{"op": "negative", "args": [V(0)]}], V(1),
           syms=["b", "z"]),
        fn("g", [P("x", T("float32", "a", "z", "c"))], [{"op": "exp", "args": [V(0)]}], V(1),
           syms=["a", "c", "z"]),
        fn("main", [P("x", T("float32", "y", "a"))], [{"op": "sqrt", "args": [V(0)]}], V(1),
           syms=["a", "y"]), sizes={"y": 2, "a": 3}),
    # main calls a helper whose param types are symbolic: the call's type is the helper's
    # return type in main's own n (TVM substitutes the arguments' dims for the callee's vars)
    "call_with_symbolic_params": recipe(
        fn("helper", [P("a", T("float32", "n", 4))], [{"op": "nn.relu", "args": [V(0)]}], V(1),
           syms=["n"], private=True),
        fn("main", [P("x", T("float32", "n", 4))], [{"call": "helper", "args": [V(0)]}], V(1),
           syms=["n"]), sizes={"n": 3}),
}

SEEDS = list(range(1, 21))


@pytest.fixture(scope="module")
def outcomes():
    """One TVM worker for every program of this file: {name: {check: [status, detail]}}."""
    names = list(HAND) + [f"seed {s}" for s in SEEDS]
    recipes = list(HAND.values()) + [handoff.Generator(s).generate() for s in SEEDS]
    return dict(handoff.run_programs(recipes, tvm_python(), names=names))


def _failures(checks, allow_na=""):
    return {c: v for c, v in checks.items()
            if v[0] != "identical" and not (v[0] == "n/a" and c in allow_na)}


@pytest.mark.parametrize("name", list(HAND))
def test_hand_written_program(outcomes, name):
    """Every check identical, c included (each hand-written program runs)."""
    assert _failures(outcomes[name]) == {}


@pytest.mark.parametrize("seed", SEEDS)
def test_random_program(outcomes, seed):
    """Every check identical; c may be n/a (a program TVM's VM cannot lower, or whose numpy
    reference cannot run), d may be n/a (TVM cannot parse its own text of it either)."""
    assert _failures(outcomes[f"seed {seed}"], allow_na="cd") == {}


def test_random_programs_mostly_run(outcomes):
    """Check c runs for most random programs (it is not n/a across the board)."""
    ran = [s for s in SEEDS if outcomes[f"seed {s}"]["c"][0] == "identical"]
    assert len(ran) >= len(SEEDS) * 3 // 4, ran


def test_missing_tvm_interpreter_fails(monkeypatch, tmp_path):
    """Without TVM's interpreter the handoff tests fail; they are never skipped."""
    monkeypatch.setenv("TETHER_TVM_PYTHON", str(tmp_path / "no-such-python"))
    with pytest.raises(pytest.fail.Exception, match="make venv-tvm"):
        tvm_python()


def test_numpy_reference_catches_a_wrong_result():
    """The comparison of check c fails for a wrong output (so c can fail)."""
    import numpy as np

    want = (np.ones((2, 2), "float32"), np.arange(3, dtype="int32"))
    assert handoff.compare_outputs([np.ones((2, 2), "float32"), np.arange(3, dtype="int32")], want) is None
    assert "values differ" in handoff.compare_outputs(
        [np.ones((2, 2), "float32") * 1.01, np.arange(3, dtype="int32")], want)
    assert "int32[3]" in handoff.compare_outputs([np.ones((2, 2), "float32"), np.arange(3)], want)


# ---- examples/tvm_handoff.py ----------------------------------------------------------------------

def test_example_cnn_runs_in_tvm(tmp_path):
    """The example: tether builds and saves the CNN, apache-tvm loads, compiles and runs it, and
    its output matches numpy; the saved JSON reads back in tether as the same module."""
    import subprocess
    import sys

    import numpy as np

    from tether import ir

    example = os.path.join(REPO, "examples", "tvm_handoff.py")
    proc = subprocess.run([sys.executable, example, "--tvm-python", tvm_python(), "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "TVM's output matches numpy" in proc.stdout
    assert "max |TVM - numpy| = " in proc.stdout
    text = (tmp_path / "cnn.json").read_text()
    mod = ir.load_json(text)
    assert ir.save_json(mod) == text
    assert 'R.nn.conv2d(x, metadata["ir.GenericConst"][0]' in str(mod)

    # the TVM side reports a wrong expected output as a mismatch
    io = dict(np.load(tmp_path / "cnn_io.npz"))
    io["expected"] = io["expected"] + 0.01
    np.savez(tmp_path / "wrong.npz", **io)
    proc = subprocess.run([tvm_python(), example, "--tvm", str(tmp_path / "cnn.json"), str(tmp_path / "wrong.npz")],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 1 and "MISMATCH" in proc.stdout, proc.stdout + proc.stderr


def test_worker_crash_is_reported_and_the_batch_goes_on(tmp_path):
    """A TVM process that dies in tvm.ir.load_json (apache-tvm segfaults on some malformed
    graphs) makes check a of that program raised; its other checks and the next programs
    still run, in a new worker."""
    fake = tmp_path / "python"
    fake.write_text(f"#!{tvm_python()}\n" + "\n".join([
        "import os, runpy, signal, sys",
        "import tvm",
        "real = tvm.ir.load_json",
        "def load_json(text):",
        "    if 'CRASH-ME' in text:",
        "        os.kill(os.getpid(), signal.SIGSEGV)",
        "    return real(text)",
        "tvm.ir.load_json = load_json",
        "sys.argv = sys.argv[1:]",
        "runpy.run_path(sys.argv[0], run_name='__main__')",
    ]) + "\n")
    fake.chmod(0o755)
    recipes = [HAND["tuples"], HAND["implicit_const_dtypes"]]
    mods, jobs = zip(*[handoff.tether_side(r, k) for k, r in enumerate(recipes)])
    jobs[0]["tether_json"] = jobs[0]["tether_json"].replace('"root_index"', '"CRASH-ME": 0, "root_index"')
    results = handoff.run_tvm_batch(str(fake), list(jobs))
    first, second = results[0], results[1]
    assert first["a"][0] == "raised" and "the TVM process died (exit status -11)" in first["a"][1]
    assert first["c"][0] == "raised" and first["d"][0] == "identical" and "tvm_json" in first
    assert [second[c][0] for c in "acd"] == ["identical"] * 3
    assert handoff.check_b(mods[1], second) == ["identical", ""]


def test_typevars_declared_per_function_in_order():
    """The module-level TypeVars: each function's new ones after those of the functions
    before it, sorted among themselves (the order apache-tvm 0.27 printed for this module)."""
    from tether import relax

    bb = relax.BlockBuilder()
    for name, dims in [("f", ["z", "b"]), ("g", ["a", "z", "c"]), ("h", ["y", "a"])]:
        x = relax.Var("x", relax.TensorType([relax.Var(d, "int64") for d in dims], "float32"))
        with bb.function(name, [x]):
            bb.emit_func_output(x)
    lines = [line for line in str(bb.get()).splitlines() if "= TypeVar(" in line]
    assert lines == [f'{v} = TypeVar("{v}")' for v in ["b", "z", "a", "c", "y"]]


@pytest.mark.parametrize("shape, new_shape, expected", [
    # (observed with apache-tvm 0.27: the -1 of an empty tensor whose other dims multiply to 0
    # is 0, never 0 // 0, which TVM's loader rejects as a division by zero)
    ([0], [0, -1], "(0, 0)"),
    ([0, 3], [0, -1], "(0, 0)"),
    ([4, 0], [-1, 0, 2], "(0, 0, 2)"),
    ([0, 3], [-1, 0], "(0, 3)"),
    ([0], [2, -1], "(2, 0)"),
    ([6], [0, -1], "(6, 1)"),
])
def test_reshape_infers_zero_for_an_empty_tensor(shape, new_shape, expected):
    from tether import relax

    x = relax.Var("x", relax.TensorType(shape, "float32"))
    ty = relax.BlockBuilder().normalize(relax.op.reshape(x, new_shape)).ty
    assert str(ty) == f'R.Tensor({expected}, dtype="float32")'
