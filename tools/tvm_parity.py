"""tvm_parity.py -- differential test of tether.relax against apache-tvm 0.27.

Builds the same random Relax programs with tether and with apache-tvm, each in its own
interpreter, and compares the printed modules and error texts byte for byte.  Every difference
is a bug in tether's inference, simplifier or printer, or a TVM behaviour to record (the cases
it found are in tests/python/test_relax_tvm_parity.py, tests/ir/test_arith.c and
tools/op_cases/known.py).  Two kinds of programs:

- ops (the default): every op tether registers (ir.ListOpNames) is drawn from; each step takes
  one of the op's cases in tools/op_cases that apache-tvm types without error (the recorded
  tests/python/data/op_cases; not the known differences of known.py) and feeds it values the
  program computed before instead of fresh parameters where the rank fits (mostly where the
  dtype fits too), so ops chain into each other and meet each other's shapes and dtypes.
- classic: ~20 ops over mixed static and symbolic dims (n, m, k, n * 2, m + 1, ...).

    python tools/tvm_parity.py                      # 100 programs, seeds 1..100
    python tools/tvm_parity.py --seeds 500 --show 3 # more, printing the first 3 diffs
    python tools/tvm_parity.py --mode classic       # the fixed-op programs
    python tools/tvm_parity.py --tvm-python PATH    # an interpreter with apache-tvm 0.27

Without --tvm-python it uses $TETHER_TVM_PYTHON, else the repository's .venv-tvm (`make
venv-tvm` creates it: apache-tvm 0.27.0.post1).  Run it with a Python that has tether installed.
"""
import argparse
import difflib
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# One program per seed: the same random choices on both sides (only the imports differ).
PROGRAM = r'''
import random, sys
side, seed = sys.argv[1], int(sys.argv[2])
if side == "tvm":
    from tvm import relax, tirx
    V = lambda name: tirx.Var(name, "int64")
else:
    from tether import relax
    V = lambda name: relax.Var(name, "int64")
rng = random.Random(seed)
TT, op = relax.TensorType, relax.op
n, m, k = V("n"), V("m"), V("k")
def dim():
    r = rng.random()
    if r < 0.3: return rng.choice([n, m, k])
    if r < 0.4: return rng.choice([n * 2, m + 1, k - 1])
    return rng.choice([1, 2, 3, 4, 6, 8])
params = [relax.Var(f"p{i}", TT([dim() for _ in range(rng.randint(1, 4))],
                                 rng.choice(["float32", "float32", "float16", "int32"])))
          for i in range(3)]
bb = relax.BlockBuilder()
log = []
try:
    with bb.function("main", params):
        vals = list(params)
        for step in range(20):
            a, b = rng.choice(vals), rng.choice(vals)
            which = rng.randrange(22)
            ax = rng.choice([0, 1, -1, None])
            try:
                e = [lambda: op.add(a, b), lambda: op.multiply(a, b), lambda: op.subtract(a, b),
                     lambda: op.maximum(a, b), lambda: op.less(a, b), lambda: op.matmul(a, b),
                     lambda: op.sum(a, axis=ax, keepdims=rng.random() < 0.5),
                     lambda: op.mean(a, axis=ax), lambda: op.max(a, axis=ax),
                     lambda: op.permute_dims(a), lambda: op.flatten(a),
                     lambda: op.expand_dims(a, axis=rng.choice([0, -1])),
                     lambda: op.squeeze(a, axis=None), lambda: op.reshape(a, [-1]),
                     lambda: op.concat([a, b], axis=rng.choice([0, -1])),
                     lambda: op.split(a, rng.choice([1, 2]), axis=rng.choice([0, -1])),
                     lambda: op.nn.softmax(a, axis=-1),
                     lambda: op.astype(a, rng.choice(["float32", "int64", "bool"])),
                     lambda: op.where(op.greater(a, b), a, b),
                     lambda: op.broadcast_to(a, [dim(), dim(), dim()]),
                     lambda: op.strided_slice(a, axes=[0], begin=[rng.choice([0, 1])],
                                              end=[rng.choice([2, 3, 100])]),
                     lambda: op.nn.relu(a)][which]()
                v = bb.emit(e)
                if which == 15:
                    v = bb.emit(relax.TupleGetItem(v, 0))
                vals.append(v)
                log.append(f"step {step} ok")
            except Exception as ex:
                text = str(ex).strip()
                log.append(f"step {step} {type(ex).__name__}: {text.splitlines()[-1] if text else ''}")
        bb.emit_func_output(relax.Tuple(vals[3:]) if len(vals) > 3 else vals[0])
    print(bb.get())
except Exception as ex:
    print("FUNC", type(ex).__name__, str(ex))
print("\n".join(log))
'''


# One program per seed over the ops named in argv[3], built from the op cases (see above).
OPS_PROGRAM = r'''
import json, os, random, sys
side, seed, ops, tools = sys.argv[1], int(sys.argv[2]), set(sys.argv[3].split(",")), sys.argv[4]
sys.path.insert(0, tools)
import op_cases
from op_cases import dsl
api = op_cases.tvm_api() if side == "tvm" else op_cases.tether_api()
data = os.path.join(os.path.dirname(tools), "tests", "python", "data", "op_cases")
templates = {}
for category in op_cases.CATEGORIES:
    with open(os.path.join(data, category + ".json")) as f:
        typed = {r["key"] for r in json.load(f)["cases"] if "type" in r}
    for c in op_cases.load(category):
        if c.op in ops and c.key in typed and c.xfail_reason is None:
            templates.setdefault(c.op, []).append(c)
rng = random.Random(seed)
steps = [rng.choice(templates[rng.choice(sorted(templates))]) for _ in range(12)]
ctx = dsl.Ctx(api, unique_names=True)
built = []
for c in steps:  # every step's own arguments first: the Vars among them are the params
    try:
        built.append(([ctx.resolve(a) for a in c.args], {k: ctx.resolve(v) for k, v in c.kwargs.items()}))
    except Exception as ex:
        built.append(ex)
log, vals = [], []
bb = ctx.bb


def fits(spec, v, strict):
    """v can stand for the Tensor spec: same rank, and (strict) same dtype."""
    ty = v.ty
    if not str(ty).startswith("R.Tensor"):
        return False
    ndim = len(spec.ty.shape) if spec.ty.shape is not None else spec.ty.ndim
    if ndim < 0 or int(ty.ndim) != ndim:
        return False
    return not strict or (spec.ty.dtype is not None and str(ty.dtype) == spec.ty.dtype)


try:
    with bb.function("main", list(ctx.params)):
        for step, (c, b) in enumerate(zip(steps, built)):
            if isinstance(b, Exception):
                log.append(f"step {step} {c.op} args {type(b).__name__}")
                continue
            args, kwargs = list(b[0]), b[1]
            for i, spec in enumerate(c.args):
                if isinstance(spec, dsl.Tensor):
                    strict = rng.random() < 0.8
                    cand = [v for v in vals if fits(spec, v, strict)]
                    if cand and rng.random() < 0.7:
                        args[i] = rng.choice(cand)
            try:
                v = bb.emit(dsl.lookup(api, c.op)(*args, **kwargs))
                if str(v.ty).startswith("R.Tuple") or str(v.ty).startswith("T.Tuple"):
                    v = bb.emit(api.relax.TupleGetItem(v, 0))
                vals.append(v)
                log.append(f"step {step} {c.op} ok")
            except Exception as ex:
                text = str(ex).strip()
                log.append(f"step {step} {c.op} {type(ex).__name__}: {text.splitlines()[-1] if text else ''}")
        bb.emit_func_output(api.relax.Tuple(vals) if vals else ctx.params[0])
    print(bb.get())
except Exception as ex:
    print("FUNC", type(ex).__name__, str(ex))
print("\n".join(log))
'''


def run(python, side, seed, ops=None):
    if ops is None:
        argv = [python, "-c", PROGRAM, side, str(seed)]
    else:
        argv = [python, "-c", OPS_PROGRAM, side, str(seed), ",".join(ops), HERE]
    proc = subprocess.run(argv, capture_output=True, text=True)
    return proc.stdout + (f"\n[exit {proc.returncode}]\n" + proc.stderr[-2000:] if proc.returncode else "")


def tether_ops():
    """The ops tether registers that have cases in tools/op_cases (and those without)."""
    import tether.relax  # noqa: F401  (registers the ops)
    import tether
    sys.path.insert(0, HERE)
    import op_cases
    names = [str(n)[len("relax."):] for n in tether.get_global_func("ir.ListOpNames")()]
    have = set(op_cases.all_ops())
    return [n for n in names if n in have], [n for n in names if n not in have]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=100)
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--show", type=int, default=1, help="print this many diffs in full")
    ap.add_argument("--mode", choices=("ops", "classic"), default="ops")
    ap.add_argument("--tvm-python", default=os.environ.get("TETHER_TVM_PYTHON")
                    or os.path.join(ROOT, ".venv-tvm", "bin", "python"))
    args = ap.parse_args()
    if not os.path.exists(args.tvm_python):
        sys.exit(f"no apache-tvm interpreter at {args.tvm_python}: run `make venv-tvm` "
                 "or pass --tvm-python")
    ops = None
    if args.mode == "ops":
        ops, without = tether_ops()
        print(f"drawing from {len(ops)} ops" +
              (f" ({len(without)} registered ops have no cases: {' '.join(without)})" if without else ""))
    differ = []
    for seed in range(args.first, args.first + args.seeds):
        ours = run(sys.executable, "tether", seed, ops)
        theirs = run(args.tvm_python, "tvm", seed, ops)
        if ours != theirs:
            differ.append(seed)
            if len(differ) <= args.show:
                print(f"---- seed {seed}")
                sys.stdout.writelines(difflib.unified_diff(theirs.splitlines(True), ours.splitlines(True),
                                                           "apache-tvm", "tether", n=0))
    print(f"{args.seeds - len(differ)} of {args.seeds} programs identical; differ: {differ}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
