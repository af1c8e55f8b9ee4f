"""What tools/onnx_record_tvm.py (run with apache-tvm) and tools/onnx_light_diff.py (run with
tether) share: the timed import and the format of the recorded files,

    # sha256 <hex digest of the whole printed module, UTF-8>
    # lines <number of lines of the printed module>
    # tvm_ms <median import time of the runs, milliseconds, wall clock>
    # tvm_cpu_ms <median CPU time of the runs (the process's, all threads), milliseconds>
    <the first HEAD lines of the printed module>

Plain Python (no numpy, onnx or tvm), so that either interpreter imports it.
"""
import hashlib
import statistics
import time
import warnings

HEAD = 60
HEADER_LINES = 4


def timed_import(from_onnx, model, runs):
    """(module, median wall ms, median CPU ms) of `runs` imports (warnings silenced)."""
    wall, cpu, mod = [], [], None
    for _ in range(max(1, runs)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t0, c0 = time.perf_counter(), time.process_time()
            mod = from_onnx(model)
            wall.append((time.perf_counter() - t0) * 1e3)
            cpu.append((time.process_time() - c0) * 1e3)
    return mod, statistics.median(wall), statistics.median(cpu)


def format_record(text, ms, cpu_ms):
    """The recorded file's content for a printed module."""
    lines = text.split("\n")
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    head = "\n".join(lines[:HEAD])
    return (f"# sha256 {digest}\n# lines {len(lines)}\n# tvm_ms {ms:.1f}\n"
            f"# tvm_cpu_ms {cpu_ms:.1f}\n{head}\n")


def read_record(path):
    """({sha256, lines, tvm_ms, tvm_cpu_ms} as strings, the head's lines) of a recorded file."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    meta = {}
    for line in lines[:HEADER_LINES]:
        _, key, value = line.split(" ", 2)
        meta[key] = value
    head = lines[HEADER_LINES:]
    while head and head[-1] == "":
        head.pop()
    return meta, head


def sha256(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
