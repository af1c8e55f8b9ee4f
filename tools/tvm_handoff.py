"""tvm_handoff.py -- Relax modules handed between tether and apache-tvm 0.27, checked
differentially over random programs.

Every program is a recipe (plain JSON data: functions, typed params with static or symbolic
dims, op steps, constants, match_cast, tuples, calls between functions, function attrs,
dataflow blocks).  tether builds it with its BlockBuilder in this interpreter; apache-tvm
builds the same recipe with its own BlockBuilder in a separate interpreter (one worker process
for a whole batch of programs).  Per program:

  p  both sides build the same program: the two modules print the same text;
  a  tether writes (tether.ir.save_json), TVM loads (tvm.ir.load_json): structurally equal
     (tvm_ffi.structural_equal) to the module TVM built;
  b  TVM writes (tvm.ir.save_json), tether loads: prints byte-identically to tether's own
     module and is structurally equal to it (tether.ir.structural_equal);
  c  TVM compiles what tether wrote (tvm.compile(mod, target="llvm"), relax.VirtualMachine)
     and runs "main" on random inputs (symbolic dims bound to concrete sizes): every output
     matches a numpy evaluation of the recipe;
  d  tether's mod.script(show_meta=True) parses in TVM (tvm.script.from_source) and is
     structurally equal to the module TVM built.

Each check is identical, different or raised; n/a for c where TVM's VM cannot lower the
program (a value of unknown shape) or its numpy reference cannot run, for d where TVM cannot
parse its own show_meta text of the program either.  The summary counts them; the exit status
is 1 if any check differs or raised.  A TVM process that dies (a segfault in apache-tvm) makes
the check of that stage raised, and a new worker goes on.

    python tools/tvm_handoff.py                       # 100 programs, seeds 1..100
    python tools/tvm_handoff.py --seeds 300 --show 5  # more, printing 5 failures in full
    python tools/tvm_handoff.py --tvm-python PATH     # an interpreter with apache-tvm 0.27
    python tools/tvm_handoff.py --no-symbolic-calls   # main calls only statically shaped helpers
    python tools/tvm_handoff.py --dump 7              # the recipe of seed 7

Run it with a Python that has tether installed (make test's .venv).  Without --tvm-python it
uses $TETHER_TVM_PYTHON, else the repository's .venv-tvm (`make venv-tvm` creates it:
apache-tvm 0.27.0.post1 on apache-tvm-ffi 0.1.14.post1).  The same file is the TVM-side worker
(`--worker`): its module level imports only the standard library.
"""
import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

CHECKS = [
    ("p", "both build the same program (printed text)"),
    ("a", "tether writes, TVM loads: equal to TVM's build"),
    ("b", "TVM writes, tether loads: same text, equal"),
    ("c", "TVM compiles and runs tether's module = numpy"),
    ("d", "tether's show_meta text parses in TVM, equal"),
]
STATUSES = ["identical", "different", "raised", "n/a"]


def default_tvm_python():
    return os.environ.get("TETHER_TVM_PYTHON") or os.path.join(ROOT, ".venv-tvm", "bin", "python")


# ---- recipes ------------------------------------------------------------------------------------
#
# A recipe: {"functions": [fn...], "sizes": {sym: int}, "seed": int}, the function named "main"
# last.  fn: {"name", "params": [{"name", "ty", "rt"}], "syms": [names], "steps": [step...],
# "out": arg, "dataflow": bool, "attrs": dict or None, "private": bool}.
#   ty: {"dtype", "shape": [dim...]} or {"dtype", "ndim": r} (shape unknown); rt: the dims the
#   runtime input has (for params of unknown shape).  dim: an int, a symbol name, or
#   [op, sym, int] with op "+", "-", "*".
#   step: {"op": name, "args": [arg...], "kw": {...}}, {"tgi": arg, "index": i},
#   {"tuple": [arg...]}, {"match_cast": arg, "ty": ty}, {"call": fn name, "args": [arg...]}.
#   arg: {"v": i} (the i-th value: params first, then one per step), {"c": {"dtype", "shape",
#   "data"}} (a constant; data flat), {"d": dim} (a dim), a list of args, or a literal.
# Symbols are per function (as TVMScript's parser makes them); a helper function's params
# mirror some of main's params, and main calls it with exactly those.


def _dim_value(d, sizes):
    if isinstance(d, int):
        return d
    if isinstance(d, str):
        return sizes[d]
    a, b = _dim_value(d[1], sizes), d[2]
    return a + b if d[0] == "+" else a - b if d[0] == "-" else a * b


def _syms_of(d):
    if isinstance(d, str):
        return {d}
    if isinstance(d, list):
        return {d[1]}
    return set()


class Builder:
    """Builds recipes with one Relax library: tether.relax or tvm.relax (given as `relax`,
    with `sym(name)` making a symbolic int64 dim)."""

    def __init__(self, relax, sym):
        self.relax, self.sym = relax, sym

    def dim(self, d, syms):
        if isinstance(d, int):
            return d
        if isinstance(d, str):
            return syms[d]
        a = syms[d[1]]
        return a + d[2] if d[0] == "+" else a - d[2] if d[0] == "-" else a * d[2]

    def ty(self, t, syms):
        if "shape" in t:
            return self.relax.TensorType([self.dim(d, syms) for d in t["shape"]], t["dtype"])
        return self.relax.TensorType(None, t["dtype"], ndim=t["ndim"])

    def const(self, c):
        import numpy as np

        arr = np.array(c["data"], dtype=c["dtype"]).reshape(c["shape"])
        if c.get("implicit"):  # numpy's int64 / float64 become int32 / float32
            return self.relax.const(arr)
        return self.relax.const(arr, c["dtype"])

    def arg(self, a, vals, syms):
        if isinstance(a, list):
            return [self.arg(x, vals, syms) for x in a]
        if isinstance(a, dict):
            if "v" in a:
                return vals[a["v"]]
            if "c" in a:
                return self.const(a["c"])
            if "d" in a:
                return self.dim(a["d"], syms)
            return {k: self.arg(v, vals, syms) for k, v in a.items()}
        return a

    def out(self, a, vals, syms):
        """A function's output: a list is a Tuple (nested lists nest)."""
        if isinstance(a, list):
            return self.relax.Tuple([self.out(x, vals, syms) for x in a])
        return self.arg(a, vals, syms)

    def expr(self, bb, st, vals, syms):
        """The expression of one step (None for match_cast, which binds through bb)."""
        relax = self.relax
        if "op" in st:
            fn = relax.op
            for part in st["op"].split("."):
                fn = getattr(fn, part)
            return fn(*self.arg(st["args"], vals, syms), **self.arg(st.get("kw", {}), vals, syms))
        if "tgi" in st:
            return relax.TupleGetItem(self.arg(st["tgi"], vals, syms), st["index"])
        if "tuple" in st:
            return relax.Tuple(self.arg(st["tuple"], vals, syms))
        if "call" in st:
            return relax.Call(bb.get().get_global_var(st["call"]), self.arg(st["args"], vals, syms))
        raise ValueError(f"unknown step {st}")

    def step(self, bb, st, vals, syms):
        if "match_cast" in st:
            return bb.match_cast(self.arg(st["match_cast"], vals, syms), self.ty(st["ty"], syms))
        return bb.emit(self.expr(bb, st, vals, syms))

    def open_function(self, bb, fn):
        syms = {s: self.sym(s) for s in fn["syms"]}
        params = [self.relax.Var(p["name"], self.ty(p["ty"], syms)) for p in fn["params"]]
        scope = bb.function(fn["name"], params, attrs=fn.get("attrs"),
                            pure=fn.get("pure", True), private=fn.get("private", False))
        return scope, syms, list(params)

    def close_function(self, bb, fn, vals, syms):
        out = self.out(fn["out"], vals, syms)
        if fn["dataflow"]:
            out = bb.emit_output(out)
        return out

    def build(self, recipe):
        bb = self.relax.BlockBuilder()
        for fn in recipe["functions"]:
            scope, syms, vals = self.open_function(bb, fn)
            with scope:
                df = bb.dataflow() if fn["dataflow"] else None
                if df is not None:
                    df.__enter__()
                for st in fn["steps"]:
                    vals.append(self.step(bb, st, vals, syms))
                out = self.close_function(bb, fn, vals, syms)
                if df is not None:
                    df.__exit__(None, None, None)
                bb.emit_func_output(out)
        return bb.get()


# ---- random recipes (generated against tether: a step tether rejects is dropped) --------------

FLOAT_UNARY = ["nn.relu", "exp", "sigmoid", "tanh", "negative", "nn.silu", "nn.gelu", "sqrt"]
BINARY = ["add", "subtract", "multiply", "maximum", "minimum"]
COMPARE = ["less", "greater", "equal"]


def _rand_const_data(rng, n, dtype):
    if dtype == "bool":
        return [rng.random() < 0.5 for _ in range(n)]
    if dtype.startswith("int"):
        return [rng.randint(-4, 4) for _ in range(n)]
    return [rng.randint(-16, 16) / 8 for _ in range(n)]


def _const(rng, shape, dtype):
    return {"c": {"dtype": dtype, "shape": list(shape),
                  "data": _rand_const_data(rng, math.prod(shape), dtype)}}


class Generator:
    """A random recipe for a seed.  Steps are tried on a live tether BlockBuilder as they are
    chosen; a step tether rejects (a type error) is left out of the recipe."""

    def __init__(self, seed, symbolic_calls=True):
        self.seed = seed
        self.symbolic_calls = symbolic_calls
        self.rng = random.Random(seed)
        from tether import relax

        self.relax = relax
        self.b = Builder(relax, lambda name: relax.Var(name, "int64"))
        self.runnable = True

    def dims_for(self, syms, rank, static):
        rng, out = self.rng, []
        for _ in range(rank):
            r = rng.random()
            if not static and r < 0.35:
                out.append(rng.choice(syms))
            elif not static and r < 0.45:
                out.append(rng.choice([["*", rng.choice(syms), 2], ["+", rng.choice(syms), 1]]))
            else:
                out.append(rng.choice([1, 2, 3, 4, 6]))
        return out

    def main_params(self, syms, static):
        rng = self.rng
        params = []
        cnn = rng.random() < 0.25
        if cnn:  # an NCHW image for conv2d / pooling
            n = 1 if static else rng.choice([1, "n"])
            shape = [n, rng.choice([1, 2, 3]), rng.choice([6, 8]), rng.choice([6, 8])]
            params.append({"name": "img", "ty": {"dtype": "float32", "shape": shape}, "rt": shape})
        for i in range(rng.randint(1, 3)):
            dtype = rng.choice(["float32"] * 6 + ["float16", "int32"])
            shape = self.dims_for(syms, rng.randint(1, 3), static)
            params.append({"name": f"p{i}", "ty": {"dtype": dtype, "shape": shape}, "rt": shape})
        _define_bare(params)
        if not static and rng.random() < 0.5:  # a param of unknown shape, match_cast later
            rt = [rng.choice(syms + ["q"]), rng.choice([2, 4])]
            params.append({"name": "u", "ty": {"dtype": "float32", "ndim": 2}, "rt": rt})
        return params

    def pick(self, vals, pred=lambda t: True):
        """A random value of vals: a tensor of known shape (TVM's VM cannot lower an op on a
        tensor of unknown shape, so such a value is only match_cast) for which pred holds."""
        cands = [i for i, v in enumerate(vals)
                 if self.is_tensor(v) and v.ty.shape is not None and pred(v.ty)]
        return self.rng.choice(cands) if cands else None

    @staticmethod
    def is_tensor(v):
        return type(v.ty).__name__ == "TensorType"

    @staticmethod
    def is_float(t):
        return str(t.dtype) in ("float32", "float16")

    def known_shape(self, t):
        return t.shape is not None and all(_is_int(d) for d in _shape_values(t))

    def random_step(self, vals, fn, helpers):
        rng = self.rng
        kind = rng.random()
        fl = self.is_float
        num = lambda t: str(t.dtype) != "bool"  # noqa: E731
        if kind < 0.2:
            i = self.pick(vals, fl)
            return None if i is None else {"op": rng.choice(FLOAT_UNARY), "args": [{"v": i}]}
        if kind < 0.4:
            i = self.pick(vals, num)
            if i is None:
                return None
            if rng.random() < 0.3:  # a constant broadcast operand
                t = vals[i].ty
                shape = [] if rng.random() < 0.3 or not self.known_shape(t) or t.ndim == 0 \
                    else [int(_shape_values(t)[-1])]
                other = _const(rng, shape, str(t.dtype))
            else:
                j = self.pick(vals, lambda t: num(t) and str(t.dtype) == str(vals[i].ty.dtype))
                other = {"v": j}
            op = rng.choice(BINARY + (["divide"] if fl(vals[i].ty) else []))
            return {"op": op, "args": [{"v": i}, other]}
        if kind < 0.45:
            i = self.pick(vals, num)
            j = self.pick(vals, lambda t: num(t) and str(t.dtype) == str(vals[i].ty.dtype)) \
                if i is not None else None
            if j is None:
                return None
            return {"op": "where", "args": [{"op": rng.choice(COMPARE), "args": [{"v": i}, {"v": j}]},
                                            {"v": i}, {"v": j}]} \
                if rng.random() < 0.5 else {"op": rng.choice(COMPARE), "args": [{"v": i}, {"v": j}]}
        i = self.pick(vals, num)
        if i is None:
            return None
        t = vals[i].ty
        v = {"v": i}
        nd = t.ndim
        ax = rng.randrange(nd) if nd > 0 else None
        choice = rng.randrange(16)
        if choice == 0:
            j = self.pick(vals, lambda u: str(u.dtype) == str(t.dtype))
            return {"op": "matmul", "args": [v, {"v": j}]}
        if choice == 1:
            op = rng.choice(["sum", "max"] + (["mean"] if fl(t) else []))
            axis = rng.choice([None, [ax] if ax is not None else None, [-1]])
            return {"op": op, "args": [v], "kw": {"axis": axis, "keepdims": rng.random() < 0.4}}
        if choice == 2:
            axes = None
            if nd > 1 and rng.random() < 0.5:
                axes = list(range(nd))
                rng.shuffle(axes)
            return {"op": "permute_dims", "args": [v], "kw": {"axes": axes}}
        if choice == 3:
            return {"op": "squeeze" if self.known_shape(t) and rng.random() < 0.5 else "flatten",
                    "args": [v]}
        if choice == 4:
            return {"op": "expand_dims", "args": [v], "kw": {"axis": rng.choice([0, -1])}}
        if choice == 5:
            dims = self.shape_dims(t, fn)
            lead = [{"d": dims[0]}] if dims and rng.random() < 0.5 else []
            return {"op": "reshape", "args": [v, lead + [-1]]}
        if choice == 6:
            j = self.pick(vals, lambda u: str(u.dtype) == str(t.dtype))
            return {"op": "concat", "args": [[v, {"v": j}]], "kw": {"axis": rng.choice([0, -1])}}
        if choice == 7 and nd > 0:
            return {"split": {"op": "split", "args": [v], "kw": {
                "indices_or_sections": rng.choice([1, 2, 3]), "axis": rng.choice([0, -1])}},
                "index": rng.choice([0, -1])}
        if choice == 8:
            to = rng.choice(["float32", "float16", "bool"] + (["float32"] if not fl(t) else []))
            return {"op": "astype", "args": [v, to]}
        if choice == 9 and nd > 0:
            dims = self.shape_dims(t, fn)
            if dims is None:
                return None
            return {"op": "broadcast_to", "args": [v, [{"d": d} for d in
                                                       [rng.choice([2, 3])] + dims]]}
        if choice == 10 and nd > 0:
            return {"op": "strided_slice", "args": [v], "kw": {
                "axes": [ax], "begin": [rng.choice([0, 1])], "end": [rng.choice([2, 3, 100])],
                "strides": [rng.choice([1, 2])]}}
        if choice == 11 and fl(t) and nd > 0:
            return {"op": rng.choice(["nn.softmax", "nn.log_softmax"]), "args": [v],
                    "kw": {"axis": rng.choice([-1, 0])}}
        if choice == 12 and nd > 0 and self.known_shape(t):
            size = int(_shape_values(t)[ax])
            idx = _const(rng, [rng.choice([1, 2])], "int64")
            idx["c"]["data"] = [rng.randrange(size) for _ in idx["c"]["data"]]
            return {"op": "take", "args": [v, idx], "kw": {"axis": ax}}
        if choice == 13 and fl(t):
            return {"op": "clip", "args": [v, rng.choice([-1.0, 0.0]), rng.choice([0.5, 2.0])]}
        if choice == 14 and fl(t) and nd == 4:
            return self.conv_or_pool(v, t)
        if choice == 15 and fn["name"] == "main" and helpers:
            h = rng.choice(helpers)
            return {"call": h["name"], "args": [{"v": k} for k in h["mirror"]]}
        if choice == 15 and rng.random() < 0.5:
            j = self.pick(vals)
            return {"tuple": [v, {"v": j}]}
        return None

    def shape_dims(self, t, fn):
        """t's dims as recipe dims (None unless each is an int or one of fn's bare symbols)."""
        if t.shape is None:
            return None
        out = []
        for d in _shape_values(t):
            if _is_int(d):
                out.append(int(d))
            elif str(d) in fn["syms"] and type(d).__name__ == "Var":
                out.append(str(d))
            else:
                return None
        return out

    def conv_or_pool(self, v, t):
        rng = self.rng
        c = _shape_values(t)[1]
        r = rng.random()
        if r < 0.5 and _is_int(c):
            o, k = rng.choice([2, 4]), rng.choice([1, 3])
            w = _const(rng, [o, int(c), k, k], str(t.dtype))
            return {"op": "nn.conv2d", "args": [v, w], "kw": {
                "strides": rng.choice([1, 2]), "padding": rng.choice([0, 1])}}
        if r < 0.75:
            return {"op": rng.choice(["nn.max_pool2d", "nn.avg_pool2d"]), "args": [v], "kw": {
                "pool_size": [2, 2], "strides": [rng.choice([1, 2])] * 2,
                "padding": [rng.choice([0, 1])] * 4}}
        return {"op": "nn.adaptive_avg_pool2d", "args": [v], "kw": {"output_size": 1}}

    def try_step(self, bb, st, vals, syms):
        try:
            mark = len(vals)
            steps = self._try_step(bb, st, vals, syms)
            if any(_negative_dim(v.ty) for v in vals[mark:]):
                raise ValueError("negative dim")  # (TVM's split past the end; its VM fails)
            if any(_unknown_shape(v.ty) for v in vals[mark:]):
                # TVM's VM cannot lower an op whose result has an unknown shape: most such
                # steps are dropped; a program that keeps one has no check c
                if self.rng.random() < 0.8:
                    raise ValueError("unknown shape")
                self.runnable = False
            return steps
        except Exception:
            return None

    def _try_step(self, bb, st, vals, syms):
        if "split" in st:  # a split and one item of its result: two steps
            st1 = st["split"]
            vals.append(self.b.step(bb, st1, vals, syms))
            st2 = {"tgi": {"v": len(vals) - 1}, "index": st["index"] % len(vals[-1].ty.fields)}
            vals.append(self.b.step(bb, st2, vals, syms))
            return [st1, st2]
        if "op" in st and any(isinstance(a, dict) and "op" in a for a in st["args"]):
            steps = []  # a nested op (where(less(a, b), a, b)): its own step first
            args = []
            for a in st["args"]:
                if isinstance(a, dict) and "op" in a:
                    vals.append(self.b.step(bb, a, vals, syms))
                    steps.append(a)
                    a = {"v": len(vals) - 1}
                args.append(a)
            st = dict(st, args=args)
            vals.append(self.b.step(bb, st, vals, syms))
            return steps + [st]
        vals.append(self.b.step(bb, st, vals, syms))
        return [st]

    def function(self, bb, fn, n_steps, helpers):
        rng = self.rng
        scope, syms, vals = self.b.open_function(bb, fn)
        with scope:
            df = bb.dataflow() if fn["dataflow"] else None
            if df is not None:
                df.__enter__()
            for k, p in enumerate(fn["params"]):
                if "ndim" in p["ty"]:  # give the unknown shape a name
                    st = {"match_cast": {"v": k}, "ty": {"dtype": p["ty"]["dtype"], "shape": p["rt"]}}
                    fn["steps"].append(st)
                    vals.append(self.b.step(bb, st, vals, syms))
            for _ in range(n_steps):
                st = self.random_step(vals, fn, helpers)
                if st is None:
                    continue
                mark = len(vals)
                steps = self.try_step(bb, st, vals, syms)
                if steps is None:
                    del vals[mark:]
                else:
                    fn["steps"].extend(steps)
            first = len(fn["params"])
            made = list(range(first, len(vals))) or [0]
            outs = rng.sample(made, min(len(made), rng.choice([1, 2, 3])))
            fn["out"] = {"v": outs[0]} if len(outs) == 1 else \
                [{"v": o} for o in outs] if rng.random() < 0.8 else [{"v": outs[0]}, [{"v": o} for o in outs[1:]]]
            out = self.b.close_function(bb, fn, vals, syms)
            if df is not None:
                df.__exit__(None, None, None)
            bb.emit_func_output(out)

    def generate(self):
        rng = self.rng
        static = rng.random() < 0.4
        syms = ["n", "m"]
        params = self.main_params(syms, static)
        used = sorted(set().union(*[_syms_of(d) for p in params for d in p["rt"]]))
        sizes = {s: rng.choice([2, 3, 4]) for s in used}
        main = {"name": "main", "params": params, "syms": used, "steps": [],
                "dataflow": rng.random() < 0.7, "attrs": None, "private": False}
        if rng.random() < 0.3:
            # (not "num_input": TVM's compiler reads it, and crashes on some programs with it)
            main["attrs"] = rng.choice([{"tether.note": "handoff"}, {"tether.level": 2},
                                        {"tether.level": 1, "tether.flag": True}])
        helpers = []
        static_params = [k for k, p in enumerate(params)
                         if all(isinstance(d, int) for d in p["ty"].get("shape", ["?"]))]
        callable_params = list(range(len(params))) if self.symbolic_calls else static_params
        for h in range(rng.choice([0, 0, 1, 2]) if callable_params else 0):
            mirror = sorted(rng.sample(callable_params, rng.randint(1, len(callable_params))))
            hp = [{"name": f"x{i}", "ty": json.loads(json.dumps(params[k]["ty"])), "rt": params[k]["rt"]}
                  for i, k in enumerate(mirror)]
            _define_bare(hp)
            hused = sorted(set().union(*[_syms_of(d) for p in hp for d in p["rt"]]))
            helpers.append({"name": f"helper{h}", "params": hp, "syms": hused, "steps": [],
                            "dataflow": rng.random() < 0.5, "private": rng.random() < 0.5,
                            "attrs": rng.choice([None, {"tether.inputs": len(hp)}]),
                            "mirror": mirror})
        bb = self.relax.BlockBuilder()
        for h in helpers:
            self.function(bb, h, rng.randint(2, 5), [])
        self.function(bb, main, rng.randint(4, 12), helpers)
        for h in helpers:
            del h["mirror"]
        recipe = {"seed": self.seed, "functions": helpers + [main], "sizes": sizes}
        if self.runnable:
            recipe["sizes"] = runnable_sizes(recipe) or sizes
        else:
            recipe["runnable"] = False
        return recipe


def runnable_sizes(recipe):
    """Sizes for the recipe's symbols under which its numpy evaluation runs (symbolic dims
    that type inference accepts may still disagree at run time), or None."""
    import itertools

    import numpy as np

    names = sorted(recipe["sizes"])
    for values in itertools.product([2, 3, 4, 1, 6, 8], repeat=len(names)):
        trial = dict(recipe, sizes=dict(zip(names, values)))
        ref = NumpyEval(trial)
        try:
            ref.run("main", ref.inputs(np.random.default_rng(0)))
            return trial["sizes"]
        except Exception:
            continue
    return None


def _shape_values(t):
    return list(t.shape.values) if hasattr(t.shape, "values") else list(t.shape)


def _define_bare(params):
    """Makes every symbol the params' shapes use occur bare in one of them (TVM binds a
    symbol from an input's shape; one only in `n * 2` is undefined and TVM cannot compile)."""
    bare = {d for p in params for d in p["ty"].get("shape", []) if isinstance(d, str)}
    for p in params:
        shape = p["ty"].get("shape", [])
        for k, d in enumerate(shape):
            if isinstance(d, list) and d[1] not in bare:
                shape[k] = d[1]
                bare.add(d[1])
        if "shape" in p["ty"]:
            p["rt"] = shape


def _unknown_shape(t):
    """Whether type t is (or holds) a tensor type without a shape."""
    kind = type(t).__name__
    if kind == "TensorType":
        return t.shape is None
    if kind == "TupleType":
        return any(_unknown_shape(f) for f in t.fields)
    return False


def _negative_dim(t):
    kind = type(t).__name__
    if kind == "TensorType":
        return t.shape is not None and any(_is_int(d) and int(d) < 0 for d in _shape_values(t))
    if kind == "TupleType":
        return any(_negative_dim(f) for f in t.fields)
    return False


def _is_int(d):
    return isinstance(d, int) or type(d).__name__ == "IntImm"


# ---- numpy reference -----------------------------------------------------------------------------


def _np():
    import numpy as np

    return np


def _axis(a):
    return tuple(a) if isinstance(a, list) else a


def _np_conv2d(x, w, strides=1, padding=0, dilation=1, groups=1):
    np = _np()
    sh, sw = (strides, strides) if isinstance(strides, int) else strides
    dh, dw = (dilation, dilation) if isinstance(dilation, int) else dilation
    pad = [padding] * 4 if isinstance(padding, int) else list(padding) * (4 // len(padding))
    acc = np.float64 if x.dtype == np.float32 else np.float32
    xp = np.pad(x.astype(acc), [(0, 0), (0, 0), (pad[0], pad[2]), (pad[1], pad[3])])
    n, c, h, wd = xp.shape
    o, cg, kh, kw = w.shape
    oh = (h - dh * (kh - 1) - 1) // sh + 1
    ow = (wd - dw * (kw - 1) - 1) // sw + 1
    out = np.zeros((n, o, oh, ow), acc)
    og = o // groups
    for g in range(groups):
        xs = xp[:, g * cg:(g + 1) * cg]
        ws = w[g * og:(g + 1) * og].astype(acc)
        for i in range(kh):
            for j in range(kw):
                patch = xs[:, :, i * dh:i * dh + sh * (oh - 1) + 1:sh, j * dw:j * dw + sw * (ow - 1) + 1:sw]
                out[:, g * og:(g + 1) * og] += np.einsum("nchw,oc->nohw", patch, ws[:, :, i, j])
    return out.astype(x.dtype)


def _np_pool2d(x, kind, pool_size=(1, 1), strides=(1, 1), padding=(0, 0), **_):
    np = _np()
    kh, kw = (pool_size, pool_size) if isinstance(pool_size, int) else pool_size
    sh, sw = (strides, strides) if isinstance(strides, int) else strides
    pad = [padding] * 4 if isinstance(padding, int) else list(padding) * (4 // len(padding))
    n, c, h, w = x.shape
    fill = -np.inf if kind == "max" else 0.0
    xp = np.pad(x.astype(np.float64), [(0, 0), (0, 0), (pad[0], pad[2]), (pad[1], pad[3])],
                constant_values=fill)
    valid = np.pad(np.ones((h, w)), [(pad[0], pad[2]), (pad[1], pad[3])])
    oh = (h + pad[0] + pad[2] - kh) // sh + 1
    ow = (w + pad[1] + pad[3] - kw) // sw + 1
    out = np.zeros((n, c, oh, ow))
    for i in range(oh):
        for j in range(ow):
            win = xp[:, :, i * sh:i * sh + kh, j * sw:j * sw + kw]
            if kind == "max":
                out[:, :, i, j] = win.max(axis=(2, 3))
            else:  # count_include_pad=False: the mean over the window's real elements
                out[:, :, i, j] = win.sum(axis=(2, 3)) / valid[i * sh:i * sh + kh, j * sw:j * sw + kw].sum()
    return out.astype(x.dtype)


def _np_softmax(x, axis=-1, log=False):
    np = _np()
    y = x.astype(np.float64)
    y = y - y.max(axis=axis, keepdims=True)
    if log:
        return (y - np.log(np.exp(y).sum(axis=axis, keepdims=True))).astype(x.dtype)
    e = np.exp(y)
    return (e / e.sum(axis=axis, keepdims=True)).astype(x.dtype)


def _np_split(x, indices_or_sections, axis=0):
    np = _np()
    if isinstance(indices_or_sections, int):  # Relax: equal chunks of ceil(n / sections)
        size = -(-x.shape[axis] // indices_or_sections)
        indices_or_sections = [size * k for k in range(1, indices_or_sections)]
    return tuple(np.split(x, indices_or_sections, axis=axis))


def _np_strided_slice(x, axes, begin, end, strides=None, **_):
    idx = [slice(None)] * x.ndim
    for k, a in enumerate(axes):
        idx[a] = slice(begin[k], end[k], strides[k] if strides else 1)
    return x[tuple(idx)]


def _erf(x):
    np = _np()
    return np.vectorize(math.erf, otypes=[np.float64])(x)


def _float_fn(f):
    """A float op computed in float64 and rounded to the input's dtype."""
    def run(x):
        np = _np()
        with np.errstate(all="ignore"):
            return f(x.astype(np.float64)).astype(x.dtype)
    return run


def _np_reduce(f):
    def run(x, axis=None, keepdims=False):
        np = _np()
        ax = _axis(axis)
        acc = np.float64 if x.dtype.kind == "f" else x.dtype
        return np.asarray(f(x.astype(acc), axis=ax, keepdims=keepdims)).astype(x.dtype)
    return run


def _np_ops():
    np = _np()
    sig = lambda x: 1 / (1 + np.exp(-x))  # noqa: E731
    return {
        "add": np.add, "subtract": np.subtract, "multiply": np.multiply, "divide": np.divide,
        "maximum": np.maximum, "minimum": np.minimum, "less": np.less, "greater": np.greater,
        "equal": np.equal, "where": np.where, "matmul": np.matmul,
        "nn.relu": lambda x: np.maximum(x, 0).astype(x.dtype),
        "exp": _float_fn(np.exp), "sigmoid": _float_fn(sig), "tanh": _float_fn(np.tanh),
        "negative": np.negative, "sqrt": _float_fn(np.sqrt),
        "nn.silu": _float_fn(lambda x: x * sig(x)),
        "nn.gelu": _float_fn(lambda x: 0.5 * x * (1 + _erf(x / math.sqrt(2)))),
        "sum": _np_reduce(np.sum), "mean": _np_reduce(np.mean), "max": _np_reduce(np.max),
        "permute_dims": lambda x, axes=None: np.transpose(x, axes),
        "flatten": lambda x: x.reshape(-1),
        "squeeze": lambda x, axis=None: np.squeeze(x, axis=_axis(axis)),
        "expand_dims": lambda x, axis: np.expand_dims(x, _axis(axis)),
        "reshape": lambda x, shape: x.reshape(shape),
        "concat": lambda xs, axis=0: np.concatenate(xs, axis=axis),
        "split": _np_split,
        "astype": lambda x, dtype: x.astype(dtype),
        "broadcast_to": lambda x, shape: np.broadcast_to(x, shape).copy(),
        "strided_slice": _np_strided_slice,
        "nn.softmax": lambda x, axis=-1: _np_softmax(x, axis),
        "nn.log_softmax": lambda x, axis=-1: _np_softmax(x, axis, log=True),
        "take": lambda x, idx, axis=None: np.take(x, idx, axis=axis),
        "clip": lambda x, lo, hi: np.clip(x, lo, hi).astype(x.dtype),
        "nn.conv2d": _np_conv2d,
        "nn.max_pool2d": lambda x, **kw: _np_pool2d(x, "max", **kw),
        "nn.avg_pool2d": lambda x, **kw: _np_pool2d(x, "avg", **kw),
        "nn.adaptive_avg_pool2d": lambda x, output_size=1: x.astype(np.float64).mean(
            axis=(2, 3), keepdims=True).astype(x.dtype),
        "linear": lambda x, w, b=None: (x @ w.T + (0 if b is None else b)).astype(x.dtype),
    }


class NumpyEval:
    """Evaluates a recipe's "main" with numpy, symbolic dims bound to recipe["sizes"]."""

    def __init__(self, recipe):
        self.recipe = recipe
        self.funcs = {f["name"]: f for f in recipe["functions"]}
        self.ops = _np_ops()

    def inputs(self, rng):
        np = _np()
        out = []
        for p in self.funcs["main"]["params"]:
            shape = [_dim_value(d, self.recipe["sizes"]) for d in p["rt"]]
            dtype = p["ty"]["dtype"]
            if dtype.startswith("int"):
                out.append(rng.integers(-5, 6, size=shape).astype(dtype))
            elif dtype == "bool":
                out.append(rng.random(size=shape) < 0.5)
            else:
                out.append(rng.standard_normal(size=shape).astype(dtype))
        return out

    def arg(self, a, vals):
        np = _np()
        if isinstance(a, list):
            return [self.arg(x, vals) for x in a]
        if isinstance(a, dict):
            if "v" in a:
                return vals[a["v"]]
            if "c" in a:
                c = a["c"]
                arr = np.array(c["data"], dtype=c["dtype"]).reshape(c["shape"])
                if c.get("implicit") and arr.dtype in (np.int64, np.float64):
                    arr = arr.astype("int32" if arr.dtype == np.int64 else "float32")
                return arr
            if "d" in a:
                return _dim_value(a["d"], self.recipe["sizes"])
            return {k: self.arg(v, vals) for k, v in a.items()}
        return a

    def run(self, name, args):
        np = _np()
        fn = self.funcs[name]
        vals = list(args)
        for st in fn["steps"]:
            if "op" in st:
                with np.errstate(all="ignore"):
                    r = self.ops[st["op"]](*self.arg(st["args"], vals), **self.arg(st.get("kw", {}), vals))
                r = np.asarray(r) if not isinstance(r, tuple) else r
                if st["op"] in ("nn.conv2d", "nn.max_pool2d", "nn.avg_pool2d") and r.size == 0:
                    raise ValueError(f"{st['op']}: an empty result (TVM's VM refuses it)")
                vals.append(r)
            elif "tgi" in st:
                vals.append(self.arg(st["tgi"], vals)[st["index"]])
            elif "tuple" in st:
                vals.append(tuple(self.arg(st["tuple"], vals)))
            elif "match_cast" in st:
                x = self.arg(st["match_cast"], vals)
                want = [_dim_value(d, self.recipe["sizes"]) for d in st["ty"]["shape"]]
                if list(x.shape) != want:
                    raise ValueError(f"match_cast: shape {list(x.shape)} is not {want}")
                vals.append(x)
            elif "call" in st:
                vals.append(self.run(st["call"], self.arg(st["args"], vals)))
        return self.out(fn["out"], vals)

    def out(self, a, vals):
        if isinstance(a, list):
            return tuple(self.out(x, vals) for x in a)
        return self.arg(a, vals)


def compare_outputs(got, want, path="out"):
    """None if got (nested lists of arrays) matches want (nested tuples of arrays), else why."""
    np = _np()
    if isinstance(want, tuple):
        if not isinstance(got, (list, tuple)) or len(got) != len(want):
            return f"{path}: a tuple of {len(want)} expected, got {type(got).__name__}"
        for k, (g, w) in enumerate(zip(got, want)):
            why = compare_outputs(g, w, f"{path}[{k}]")
            if why:
                return why
        return None
    w = np.asarray(want)
    if isinstance(got, (list, tuple)):
        return f"{path}: a tensor expected, got a tuple"
    if tuple(got.shape) != tuple(w.shape) or got.dtype != w.dtype:
        return f"{path}: {got.dtype}{list(got.shape)} where numpy has {w.dtype}{list(w.shape)}"
    g64, w64 = got.astype(np.float64), w.astype(np.float64)
    if w.dtype.kind == "f":
        # Where numpy's value is NaN (from a NaN input), TVM's may be anything: its max
        # reductions skip NaN (R.max of [nan, 1] is 1), numpy's propagate it.
        tol = 2e-2 if w.dtype == np.float16 else 1e-4
        close = np.isclose(g64, w64, rtol=tol, atol=tol, equal_nan=True) | np.isnan(w64)
    else:
        close = g64 == w64
    if close.all():
        return None
    bad = np.argwhere(~close)
    at = tuple(int(i) for i in bad[0]) if len(bad) else ()
    return f"{path}: {len(bad)} of {w.size} values differ; at {list(at)} TVM {got[at]} numpy {w[at]}"


# ---- the TVM side (runs in the apache-tvm interpreter) -------------------------------------------


def _short(ex, limit=600):
    text = f"{type(ex).__name__}: {ex}".strip()
    return text if len(text) <= limit else text[:limit] + " ..."


def tvm_job(job, note):
    """The TVM-side checks of one program, in stages: the build (its text for p), save_json
    (for b), from_source of tether's text (d), load_json of tether's JSON (a), compile and run
    (c).  note(res, stage) records the results so far before each stage that may crash the
    process; a stage named in job["skip"] is not run (it crashed an earlier worker)."""
    import numpy as np
    import tvm
    import tvm_ffi
    from tvm import relax, tirx

    res, skip = {"id": job["id"]}, set(job.get("skip", ()))
    try:
        mod = Builder(relax, lambda name: tirx.Var(name, "int64")).build(job["recipe"])
        res["tvm_text"] = str(mod)
    except Exception as ex:
        why = "TVM could not build the recipe: " + _short(ex)
        res.update(p=["raised", why], a=["raised", why], c=["raised", why], d=["raised", why])
        return res

    def equal(lhs):
        if tvm_ffi.structural_equal(lhs, mod):
            return ["identical", ""]
        try:
            tvm.ir.assert_structural_equal(lhs, mod)
            return ["different", "structural_equal is False"]
        except Exception as ex:
            return ["different", _short(ex, 1500)]

    if "save_json" not in skip:
        note(res, "save_json")
        try:
            res["tvm_json"] = tvm.ir.save_json(mod)
        except Exception as ex:
            res["tvm_json_error"] = _short(ex)

    def read_back(key, reader, name):
        """TVM's reader on tether's text job[key]: (what it read or None, [status, detail])."""
        if job.get(key) is None:
            return None, ["raised", "tether did not write it: " + job.get(key + "_error", "")]
        try:
            obj = reader(job[key])
        except Exception as ex:
            return None, ["raised", f"{name}: " + _short(ex)]
        return obj, equal(obj)

    if "from_source" not in skip:
        note(res, "from_source")
        _, res["d"] = read_back("tether_script", tvm.script.from_source, "tvm.script.from_source")
        if job.get("tether_script") is not None and res["d"][0] != "identical":
            # n/a when TVM's own text of the program fails the same way
            try:
                own = equal(tvm.script.from_source(mod.script(show_meta=True)))
            except Exception as ex:
                own = ["raised", _short(ex)]
            if own[0] == res["d"][0]:
                res["d"] = ["n/a", "TVM's own show_meta text fails too: " + res["d"][1]]

    loaded = None
    if "load_json" not in skip:
        note(res, "load_json")
        loaded, res["a"] = read_back("tether_json", tvm.ir.load_json, "tvm.ir.load_json")

    if job.get("run_tvm_build"):  # (--run-tvm-build: c on TVM's own build)
        loaded = mod
    if loaded is None:
        res["c"] = ["raised", "nothing to compile: TVM could not load tether's JSON"]
    elif job["recipe"].get("runnable") is False:
        res["c"] = ["n/a", "a value of unknown shape (TVM's VM cannot lower an op on it)"]
    elif "compile" not in skip:
        try:
            ref = NumpyEval(job["recipe"])
            inputs = ref.inputs(np.random.default_rng(job["recipe"].get("seed", 0)))
            want = ref.run("main", inputs)
        except Exception as ex:
            want = None
            res["c"] = ["n/a", "no numpy reference: " + _short(ex, 200)]
        if want is not None:
            note(res, "compile")
            try:
                ex = tvm.compile(loaded, target="llvm")
                vm = relax.VirtualMachine(ex, tvm.cpu())
                got = vm["main"](*[tvm.runtime.tensor(x) for x in inputs])
                why = compare_outputs(_to_numpy(got), want)
                res["c"] = ["identical", ""] if why is None else ["different", why]
            except Exception as ex:
                res["c"] = ["raised", _short(ex)]
    return res


def _to_numpy(v):
    if hasattr(v, "numpy"):
        return v.numpy()
    return [_to_numpy(x) for x in v]


def worker(jobs_path, results_path):
    """Runs tvm_job for every job of jobs_path (a JSON list), appending JSON lines to
    results_path: the partial result before each stage that may crash, then the result (flushed,
    so that a crash loses nothing but the stage it happened in)."""
    with open(jobs_path) as f:
        jobs = json.load(f)
    with open(results_path, "a") as out:
        def note(res, stage):
            out.write(json.dumps(dict(res, stage=stage)) + "\n")
            out.flush()

        for job in jobs:
            out.write(json.dumps(dict(tvm_job(job, note), stage=None)) + "\n")
            out.flush()


# ---- the tether side and the driver ---------------------------------------------------------------


def tether_save_load():
    """tether's (save_json, load_json): tether.ir's, else the JSON graph functions."""
    import tether.ir

    if hasattr(tether.ir, "save_json") and hasattr(tether.ir, "load_json"):
        return tether.ir.save_json, tether.ir.load_json
    from tether import serialization

    return serialization.to_json_graph_str, serialization.from_json_graph_str


def tether_side(recipe, job_id):
    """Builds recipe with tether: (the module, the job for the TVM worker)."""
    from tether import relax

    save, _ = tether_save_load()
    mod = Builder(relax, lambda name: relax.Var(name, "int64")).build(recipe)
    job = {"id": job_id, "recipe": recipe}
    try:
        job["tether_json"] = save(mod)
    except Exception as ex:
        job["tether_json"], job["tether_json_error"] = None, _short(ex)
    try:
        job["tether_script"] = mod.script(show_meta=True)
    except Exception as ex:
        job["tether_script"], job["tether_script_error"] = None, _short(ex)
    return mod, job


def check_b(mod, res):
    """tether loads what TVM wrote: the same text as its own module, structurally equal."""
    from tether import ir

    _, load = tether_save_load()
    if "tvm_json" not in res:
        return ["raised", "tvm.ir.save_json: " + res.get("tvm_json_error", "not reached")]
    try:
        loaded = load(res["tvm_json"])
    except Exception as ex:
        return ["raised", "tether load: " + _short(ex)]
    try:
        ours, theirs = str(mod), str(loaded)
        same_text = ours == theirs
        equal = ir.structural_equal(loaded, mod)
    except Exception as ex:
        return ["raised", "printing or comparing what tether loaded: " + _short(ex)]
    if same_text and equal:
        return ["identical", ""]
    why = []
    if not same_text:
        why.append("text differs: " + _first_diff(ours, theirs))
    if not equal:
        try:
            ir.assert_structural_equal(loaded, mod)
            why.append("not structurally equal")
        except Exception as ex:
            why.append("not structurally equal: " + _short(ex, 1000))
    return ["different", "; ".join(why)]


def _first_diff(a, b):
    la, lb = a.splitlines(), b.splitlines()
    for k in range(max(len(la), len(lb))):
        x = la[k] if k < len(la) else "<end>"
        y = lb[k] if k < len(lb) else "<end>"
        if x != y:
            return f"line {k + 1}: tether's {x.strip()!r} vs loaded {y.strip()!r}"
    return "(same lines)"


def run_tvm_batch(tvm_python, jobs):
    """The TVM worker over jobs: {id: result}.  When the worker dies (a segfault inside
    apache-tvm), the check of the stage it died in is reported as raised, and a new worker
    continues with that job (skipping the stage) and the rest."""
    results, todo = {}, list(jobs)
    stage_check = {"save_json": None, "from_source": "d", "load_json": "a", "compile": "c"}
    with tempfile.TemporaryDirectory(prefix="tvm_handoff-") as tmp:
        jobs_path, results_path = os.path.join(tmp, "jobs.json"), os.path.join(tmp, "results.jsonl")
        while todo:
            with open(jobs_path, "w") as f:
                json.dump(todo, f)
            open(results_path, "w").close()
            proc = subprocess.run([tvm_python, os.path.abspath(__file__), "--worker", jobs_path,
                                   results_path], capture_output=True, text=True)
            last = {}
            with open(results_path) as f:
                for line in f:
                    r = json.loads(line)
                    last[r["id"]] = r
            for r in last.values():
                if r["stage"] is None:
                    results[r["id"]] = dict(results.get(r["id"], {}), **r)
            todo = [j for j in todo if j["id"] not in results or results[j["id"]]["stage"] is not None]
            if not todo:
                break
            job = todo[0]
            part = last.get(job["id"])
            if part is None:  # died before the first stage: report everything, drop the job
                why = (f"the TVM worker exited with status {proc.returncode}: "
                       + proc.stderr.strip()[-1500:])
                results[job["id"]] = {"id": job["id"], "stage": None,
                                      **{k: ["raised", why] for k in "pacd"}}
                todo.pop(0)
                continue
            stage = part["stage"]
            why = f"{stage}: the TVM process died (exit status {proc.returncode})"
            merged = dict(results.get(job["id"], {}), **part)
            if stage == "save_json":
                merged["tvm_json_error"] = why
            elif stage == "load_json":
                merged["a"] = ["raised", "tvm.ir.load_json: " + why[len(stage) + 2:]]
                if not job.get("run_tvm_build"):
                    merged["c"] = ["raised", "nothing to compile: TVM could not load tether's JSON"]
            else:
                merged[stage_check[stage]] = ["raised", why]
            results[job["id"]] = merged
            no_compile = stage == "load_json" and not job.get("run_tvm_build")
            todo[0] = dict(job, skip=list(job.get("skip", [])) + [stage] + ["compile"] * no_compile)
    return results


def run_programs(recipes, tvm_python, names=None, run_tvm_build=False):
    """Every check on every recipe: a list of (name, {check: [status, detail]}).
    run_tvm_build: check c compiles the module TVM built itself instead of the one it loaded
    (to try the numpy reference on its own)."""
    mods, jobs, out = [], [], []
    for k, recipe in enumerate(recipes):
        mod, job = tether_side(recipe, k)
        job["run_tvm_build"] = run_tvm_build
        mods.append(mod)
        jobs.append(job)
    results = run_tvm_batch(tvm_python, jobs)
    for k, recipe in enumerate(recipes):
        res = results[k]
        checks = {c: res[c] for c in "pacd" if c in res}
        if "tvm_text" in res and "p" not in checks:
            ours = str(mods[k])
            checks["p"] = ["identical", ""] if ours == res["tvm_text"] else \
                ["different", _first_diff(ours, res["tvm_text"]).replace("loaded", "TVM's")]
        checks["b"] = check_b(mods[k], res) if "tvm_text" in res else \
            ["raised", "TVM could not build the recipe"]
        name = names[k] if names else f"seed {recipe.get('seed')}"
        out.append((name, checks))
    return out


def summarize(outcomes, show=1, file=sys.stdout):
    counts = {c: dict.fromkeys(STATUSES, 0) for c, _ in CHECKS}
    failures = []
    for name, checks in outcomes:
        for c, _ in CHECKS:
            status, detail = checks[c]
            counts[c][status] += 1
            if status in ("different", "raised"):
                failures.append((name, c, status, detail))
    print(f"{len(outcomes)} programs", file=file)
    print(f"{'check':<52}" + "".join(f"{s:>10}" for s in STATUSES), file=file)
    for c, what in CHECKS:
        print(f"{c}  {what:<49}" + "".join(f"{counts[c][s]:>10}" for s in STATUSES), file=file)
    for name, c, status, detail in failures[:show] if show >= 0 else []:
        print(f"---- {name}: check {c} {status}\n{detail}", file=file)
    by_check = {}
    for name, c, _, _ in failures:
        by_check.setdefault(c, []).append(name)
    for c, names in by_check.items():
        print(f"check {c} failed for: {', '.join(names[:30])}{' ...' if len(names) > 30 else ''}",
              file=file)
    return counts, failures


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=100)
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--show", type=int, default=1, help="print this many failures in full")
    ap.add_argument("--tvm-python", default=default_tvm_python())
    ap.add_argument("--no-symbolic-calls", action="store_true",
                    help="main calls only helpers whose params have static shapes")
    ap.add_argument("--run-tvm-build", action="store_true",
                    help="check c runs the module TVM built (tries the numpy reference alone)")
    ap.add_argument("--dump", metavar="SEED", type=int, help="print the recipe of one seed and exit")
    ap.add_argument("--worker", nargs=2, metavar=("JOBS", "RESULTS"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(*args.worker)
        return
    if args.dump is not None:
        print(json.dumps(Generator(args.dump, not args.no_symbolic_calls).generate(), indent=1))
        return
    if not os.path.exists(args.tvm_python):
        sys.exit(f"no apache-tvm interpreter at {args.tvm_python}: run `make venv-tvm` or pass --tvm-python")
    recipes = [Generator(s, not args.no_symbolic_calls).generate()
               for s in range(args.first, args.first + args.seeds)]
    _, failures = summarize(run_programs(recipes, args.tvm_python, run_tvm_build=args.run_tvm_build),
                           args.show)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
