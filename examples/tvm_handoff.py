"""Handing a model built with tether to apache-tvm: build a small CNN with tether's
BlockBuilder (random weights as constants), save it as TVM's JSON (tether.ir.save_json),
then in apache-tvm load it (tvm.ir.load_json), compile it for the CPU (tvm.compile), run it
on the Relax VM and compare with a numpy reference.

    .venv/bin/python examples/tvm_handoff.py                 # TVM from .venv-tvm (make venv-tvm)
    .venv/bin/python examples/tvm_handoff.py --tvm-python /path/to/python --out DIR

tether and apache-tvm run in separate interpreters: this one has tether; the apache-tvm one
(--tvm-python, else $TETHER_TVM_PYTHON, else the repository's .venv-tvm) needs
apache-tvm==0.27.0.post1 with apache-tvm-ffi==0.1.14.post1 and numpy.  The two sides share
only files: cnn.json (the module) and cnn_io.npz (an input and numpy's output), written to
--out (a temporary directory by default).  The TVM side is this same file run with --tvm.
"""
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


# ---- the tether side ------------------------------------------------------------------------------

def build_cnn(weights, batch):
    """conv3x3(3->8) + bias, relu, maxpool 2x2, conv3x3(8->16) + bias, relu, avgpool 2x2,
    flatten, dense(256->10) + bias, softmax: a tether IRModule with function "main"."""
    from tether import relax
    from tether.relax import op

    def c(name):
        return relax.const(weights[name])

    x = relax.Var("x", relax.TensorType([batch, 3, 16, 16], "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        with bb.dataflow():
            h = bb.emit(op.nn.conv2d(x, c("w1"), padding=1))
            h = bb.emit(op.add(h, op.reshape(c("b1"), [1, 8, 1, 1])))
            h = bb.emit(op.nn.relu(h))
            h = bb.emit(op.nn.max_pool2d(h, pool_size=2, strides=2))
            h = bb.emit(op.nn.conv2d(h, c("w2"), padding=1))
            h = bb.emit(op.add(h, op.reshape(c("b2"), [1, 16, 1, 1])))
            h = bb.emit(op.nn.relu(h))
            h = bb.emit(op.nn.avg_pool2d(h, pool_size=2, strides=2))
            h = bb.emit(op.reshape(h, [batch, -1]))
            h = bb.emit(op.add(op.matmul(h, c("w3")), c("b3")))
            out = bb.emit_output(op.nn.softmax(h, axis=-1))
        bb.emit_func_output(out)
    return bb.get()


def numpy_cnn(weights, x):
    """The same network in numpy (float64, then float32)."""
    import numpy as np

    def conv3x3(x, w, b):  # NCHW, OIHW, stride 1, padding 1
        n, _, hh, ww = x.shape
        xp = np.pad(x, [(0, 0), (0, 0), (1, 1), (1, 1)])
        out = np.zeros((n, w.shape[0], hh, ww))
        for i in range(3):
            for j in range(3):
                out += np.einsum("nchw,oc->nohw", xp[:, :, i:i + hh, j:j + ww], w[:, :, i, j])
        return out + b.reshape(1, -1, 1, 1)

    def pool2x2(x, reduce):
        n, ch, hh, ww = x.shape
        return reduce(x.reshape(n, ch, hh // 2, 2, ww // 2, 2), axis=(3, 5))

    w = {k: v.astype(np.float64) for k, v in weights.items()}
    h = pool2x2(np.maximum(conv3x3(x.astype(np.float64), w["w1"], w["b1"]), 0), np.max)
    h = pool2x2(np.maximum(conv3x3(h, w["w2"], w["b2"]), 0), np.mean)
    h = h.reshape(x.shape[0], -1) @ w["w3"] + w["b3"]
    e = np.exp(h - h.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)).astype(np.float32)


def tether_side(args):
    import numpy as np

    from tether import ir

    rng = np.random.default_rng(0)
    weights = {
        "w1": rng.normal(0, 0.3, (8, 3, 3, 3)), "b1": rng.normal(0, 0.1, 8),
        "w2": rng.normal(0, 0.2, (16, 8, 3, 3)), "b2": rng.normal(0, 0.1, 16),
        "w3": rng.normal(0, 0.2, (256, 10)), "b3": rng.normal(0, 0.1, 10),
    }
    weights = {k: v.astype("float32") for k, v in weights.items()}
    batch = 2
    mod = build_cnn(weights, batch)
    print(mod)

    out_dir = args.out or tempfile.mkdtemp(prefix="tether-tvm-handoff-")
    os.makedirs(out_dir, exist_ok=True)
    json_path = os.path.join(out_dir, "cnn.json")
    with open(json_path, "w") as f:
        f.write(ir.save_json(mod))  # TVM's JSON graph: tvm.ir.load_json reads it
    x = rng.standard_normal((batch, 3, 16, 16)).astype("float32")
    io_path = os.path.join(out_dir, "cnn_io.npz")
    np.savez(io_path, x=x, expected=numpy_cnn(weights, x))
    print(f"\nsaved {json_path} ({os.path.getsize(json_path)} bytes) and {io_path}")

    tvm_python = args.tvm_python or os.environ.get("TETHER_TVM_PYTHON") or \
        os.path.join(os.path.dirname(HERE), ".venv-tvm", "bin", "python")
    if not os.path.exists(tvm_python):
        sys.exit(f"no apache-tvm interpreter at {tvm_python}: run `make venv-tvm` or pass --tvm-python")
    return subprocess.run([tvm_python, os.path.abspath(__file__), "--tvm", json_path, io_path]).returncode


# ---- the apache-tvm side (run in TVM's interpreter) ------------------------------------------------

def tvm_side(json_path, io_path):
    import numpy as np
    import tvm
    from tvm import relax

    with open(json_path) as f:
        mod = tvm.ir.load_json(f.read())
    io = np.load(io_path)
    exe = tvm.compile(mod, target="llvm")
    vm = relax.VirtualMachine(exe, tvm.cpu())
    got = vm["main"](tvm.runtime.tensor(io["x"])).numpy()
    err = float(np.abs(got - io["expected"]).max())
    print(f"apache-tvm {tvm.__version__}: loaded {json_path}, compiled for llvm, ran main: "
          f"output {got.dtype}{list(got.shape)}, max |TVM - numpy| = {err:.2e}")
    if not np.allclose(got, io["expected"], rtol=1e-5, atol=1e-6):
        print("MISMATCH: TVM's output differs from numpy's")
        return 1
    print("TVM's output matches numpy")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tvm-python", help="an interpreter with apache-tvm 0.27")
    ap.add_argument("--out", help="directory for cnn.json and cnn_io.npz (default: a new temporary one)")
    ap.add_argument("--tvm", nargs=2, metavar=("JSON", "NPZ"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    sys.exit(tvm_side(*args.tvm) if args.tvm else tether_side(args))


if __name__ == "__main__":
    main()
