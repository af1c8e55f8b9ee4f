"""Value semantics across the boundary, checked against apache-tvm-ffi (docs/values.md).

A plain-C kernel (values_kernel.c) reports what C receives.  The same observation code runs
under tether in this process and under apache-tvm-ffi in a subprocess (the two runtimes are
not loaded into one process here), and every row must agree: the type index C sees for each
Python value, the Python type each value comes back as (from a call and inside a callback),
the words of ints and BigInts, and a DLTensor* handed to a callback.  Then tether-only
behaviour tvm_ffi does not survive: bad type indices from C, very deep lists, and the
lifetime rules of the cached Str objects.
"""
import json
import os
import struct
import subprocess
import sys
import threading

import pytest

import tether
from tether import core

HERE = os.path.dirname(os.path.abspath(__file__))

# Python -> C: expressions evaluated with the package as `ffi` and numpy as `np`.
ARG_CASES = {
    "None": "None",
    "bool": "True",
    "int": "5",
    "int64_max": "2**63 - 1",
    "int64_min": "-2**63",
    "int_2_63": "2**63",
    "int_below_int64_min": "-2**63 - 1",
    "int_huge": "3**100",
    "int_neg_huge": "-(3**100)",
    "int_subclass_big": "type('I', (int,), {})(2**70)",
    "int_protocol_big": "type('P', (), {'__tvm_ffi_int__': lambda self: 2**70})()",
    "np_int64": "np.int64(-3)",
    "np_uint64_max": "np.uint64(2**64 - 1)",
    "float": "1.5",
    "np_float32": "np.float32(2.5)",
    "str0": "''",
    "str7": "'abcdefg'",
    "str8": "'abcdefgh'",
    "str13": "'hello, world!'",
    "str_embedded_nul": "'a\\0bcdefghij'",
    "str_utf8_6_bytes": "'\\u00fc' * 3",
    "str_utf8_8_bytes": "'\\u00fc' * 4",
    "str_subclass": "type('S', (str,), {})('abcdefghijk')",
    "String": "ffi.core.String('hello world long')",
    "String_short": "ffi.core.String('hi')",
    "bytes0": "b''",
    "bytes7": "b'abcdefg'",
    "bytes8": "b'abcdefgh'",
    "bytearray": "bytearray(b'abcdefghij')",
    "bytearray_short": "bytearray(b'ab')",
    "Bytes": "ffi.core.Bytes(b'hello world long')",
    "list": "[1, 2]",
    "tuple": "(1, 2)",
    "dict": "{'a': 1}",
    "dtype": "ffi.dtype('float32')",
    "device": "ffi.device('cpu', 0)",
    "shape": "ffi.Shape((1, 2))",
    "ndarray": "np.ones(2)",
    "callable": "lambda: 1",
    "object": "object()",
    "exception": "ValueError('x')",
    "np_bool": "np.bool_(True)",
}

# C -> Python: values sent through testing.echo (a call result) and testing.apply (a
# callback argument, then the callback's result).
RET_CASES = {
    "None": "None",
    "bool": "False",
    "int": "-7",
    "int64_max": "2**63 - 1",
    "int_2_63": "2**63",
    "int_below_int64_min": "-2**63 - 1",
    "int_huge": "3**100",
    "int_neg_huge": "-(3**100)",
    "float": "0.25",
    "str7": "'abcdefg'",
    "str13": "'hello, world!'",
    "bytes7": "b'abcdefg'",
    "bytes13": "b'hello, world!'",
}

# Ints whose words TVMFFIBigIntGetContentByteArray gives, and word strings for
# TVMFFIBigIntFromByteArray (hex of the bytes, so they travel as JSON).
WORD_VALUES = [0, -1, 2**63 - 1, -2**63, 2**63, -2**63 - 1, 2**64, -2**64, 3**100, -(3**100)]
WORD_INPUTS = ["", "0500000000000000", "fbffffffffffffff" + "ffffffffffffffff",
               "0500000000000000" + "0000000000000000" * 3, "0000000000000080" + "00" * 8,
               "0000000000000000" + "0100000000000000" + "00" * 16,
               "0100000000000000" + "0200000000000000" + "0300000000000000" + "ff" * 8]

OBSERVE = r'''
def observe(ffi, np, kernel, arg_cases, ret_cases, word_values, word_inputs):
    mod = ffi.load_module(kernel)
    env = {"ffi": ffi, "np": np}
    echo = ffi.get_global_func("testing.echo")
    apply = ffi.get_global_func("testing.apply")
    out = {"args": {}, "small_len": {}, "returns": {}, "callbacks": {}}
    for name, expr in arg_cases.items():
        v = eval(expr, env)
        index = mod["type_index"](v)
        out["args"][name] = index
        if index in (11, 12):
            out["small_len"][name] = mod["small_len"](v)
    for name, expr in ret_cases.items():
        v = eval(expr, env)
        r = echo(v)
        out["returns"][name] = [type(r).__name__, bool(r == v)]
        seen = []
        r = apply(lambda x: seen.append(type(x).__name__) or x, v)
        out["callbacks"][name] = [seen[0], type(r).__name__, bool(r == v)]
    out["words"] = [mod["bigint_words"](v).hex() for v in word_values]
    out["from_words"] = [str(mod["make_bigint"](bytes.fromhex(h))) for h in word_inputs]
    seen = []
    mod["dltensor_to"](lambda t: seen.append([type(t).__name__, list(t.shape), str(t.dtype)]))
    out["dltensor"] = seen[0]
    return out
'''

REFERENCE = OBSERVE + r'''
import json, sys
import numpy as np
import tvm_ffi
print(json.dumps(observe(tvm_ffi, np, sys.argv[1], *json.loads(sys.argv[2]))))
'''

_ns = {}
exec(OBSERVE, _ns)
observe = _ns["observe"]


def _tether_flags(flag):
    return subprocess.run([sys.executable, "-m", "tether", flag], check=True, capture_output=True,
                          text=True).stdout.split()


@pytest.fixture(scope="module")
def kernels(tmp_path_factory, c_compiler):
    """values_kernel.c built twice: linked against libtether (loaded by tether) and linked
    against nothing (loaded by tvm_ffi, which provides the symbols from its runtime)."""
    out = tmp_path_factory.mktemp("values_kernel")
    src = os.path.join(HERE, "values_kernel.c")
    cflags = ["-shared", "-fPIC", "-std=c11", "-O1", *_tether_flags("--cflags")]
    linked, bare = str(out / "values_linked.so"), str(out / "values_bare.so")
    subprocess.run([c_compiler, *cflags, src, "-o", linked, *_tether_flags("--ldflags"),
                    *_tether_flags("--libs")], check=True)
    subprocess.run([c_compiler, *cflags, src, "-o", bare], check=True)
    return {"tether": linked, "tvm_ffi": bare}


@pytest.fixture(scope="module")
def mod(kernels):
    return tether.load_module(kernels["tether"])


CASE_ARGS = (ARG_CASES, RET_CASES, WORD_VALUES, WORD_INPUTS)


@pytest.fixture(scope="module")
def ours(kernels):
    np = pytest.importorskip("numpy")
    return json.loads(json.dumps(observe(tether, np, kernels["tether"], *CASE_ARGS)))


@pytest.fixture(scope="module")
def reference(kernels):
    probe = subprocess.run([sys.executable, "-c", "import tvm_ffi"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("apache-tvm-ffi is not installed")
    proc = subprocess.run([sys.executable, "-c", REFERENCE, kernels["tvm_ffi"],
                           json.dumps(CASE_ARGS)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


# ---- the tables, row by row, against apache-tvm-ffi ----------------------------------------

@pytest.mark.parametrize("case", list(ARG_CASES))
def test_argument_type_index_as_tvm_ffi(case, ours, reference):
    assert ours["args"][case] == reference["args"][case]


def test_argument_table_is_as_documented(ours):
    a = ours["args"]
    assert a["int64_max"] == a["int64_min"] == a["np_int64"] == 1
    for big in ("int_2_63", "int_below_int64_min", "int_huge", "int_neg_huge", "int_subclass_big",
                "int_protocol_big", "np_uint64_max"):
        assert a[big] == 78078, big  # kTVMFFIBigInt, an ffi.BigInt object
    for small in ("str0", "str7", "str_utf8_6_bytes", "String_short"):
        assert a[small] == 11, small  # kTVMFFISmallStr
    for heap in ("str8", "str13", "str_embedded_nul", "str_utf8_8_bytes", "str_subclass", "String"):
        assert a[heap] == 65065, heap  # kTVMFFIStr, never a kTVMFFIRawStr view
    assert a["bytes7"] == a["bytes0"] == a["bytearray_short"] == 12
    assert a["bytes8"] == a["bytearray"] == a["Bytes"] == 66066


def test_small_lengths_as_tvm_ffi(ours, reference):
    assert ours["small_len"] == reference["small_len"]
    assert ours["small_len"]["str_utf8_6_bytes"] == 6


@pytest.mark.parametrize("case", list(RET_CASES))
def test_result_type_as_tvm_ffi(case, ours, reference):
    assert ours["returns"][case] == reference["returns"][case]
    assert ours["returns"][case][1], "the value changed on the way"


@pytest.mark.parametrize("case", list(RET_CASES))
def test_callback_argument_type_as_tvm_ffi(case, ours, reference):
    assert ours["callbacks"][case] == reference["callbacks"][case]


def test_bigint_words_as_tvm_ffi(ours, reference):
    assert ours["words"] == reference["words"]
    for v, h in zip(WORD_VALUES, ours["words"]):
        n = ((v if v >= 0 else ~v).bit_length() + 1 + 63) // 64  # shortest signed form
        le = v.to_bytes(8 * n, "little", signed=True)  # then each word in native order
        words = [int.from_bytes(le[8 * i:8 * i + 8], "little", signed=True) for i in range(n)]
        assert bytes.fromhex(h) == struct.pack(f"={n}q", *words), v


def test_bigint_from_words_as_tvm_ffi(ours, reference):
    assert ours["from_words"] == reference["from_words"]
    assert ours["from_words"] == ["0", "5", "-5", "5", str(2**63), str(2**64),
                                  str(1 + (2 << 64) + (3 << 128) - (1 << 192))]


def test_dltensor_to_callback_as_tvm_ffi(ours, reference):
    assert ours["dltensor"] == reference["dltensor"] == ["Tensor", [2, 3], "float32"]


# The native `__any_hash__` / `__any_equal__` hooks of ffi.BigInt, called through the type
# attribute column the way C++ code compiled against tvm-ffi 0.1.15 calls them
# (`TVMFFIAny hook(const Any&...)`): same answers, bit for bit, from both libraries.
HOOKS = r'''
import ctypes, json, os, sys
if sys.argv[1] == "tvm_ffi":
    import tvm_ffi
    lib = tvm_ffi.LIB
else:
    import tether
    lib = ctypes.CDLL(os.path.join(os.path.dirname(tether.__file__), "lib", "libtether.so.0"))
class BA(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("size", ctypes.c_size_t)]
class Any(ctypes.Structure):
    _fields_ = [("ti", ctypes.c_int32), ("pad", ctypes.c_uint32), ("v", ctypes.c_uint64)]
class Col(ctypes.Structure):
    _fields_ = [("data", ctypes.POINTER(Any)), ("size", ctypes.c_int32), ("begin", ctypes.c_int32)]
lib.TVMFFIGetTypeAttrColumn.restype = ctypes.POINTER(Col)
def hook(name, nargs):
    raw = ctypes.create_string_buffer(name)
    col = lib.TVMFFIGetTypeAttrColumn(ctypes.byref(BA(ctypes.addressof(raw), len(name)))).contents
    entry = col.data[78 - col.begin]
    assert entry.ti == 4, entry.ti  # kTVMFFIOpaquePtr: a native hook
    return ctypes.CFUNCTYPE(Any, *[ctypes.POINTER(Any)] * nargs)(entry.v)
def bigint(v):
    n = ((v if v >= 0 else ~v).bit_length() + 1 + 63) // 64
    raw = v.to_bytes(8 * n, "little", signed=True)
    buf = ctypes.create_string_buffer(raw, len(raw))
    out = Any()
    assert lib.TVMFFIBigIntFromByteArray(ctypes.byref(BA(ctypes.addressof(buf), len(raw))),
                                         ctypes.byref(out)) == 0 and out.ti == 78
    return out
h, eq = hook(b"__any_hash__", 1), hook(b"__any_equal__", 2)
values = [2**64, -(2**64), 3**100, 2**63, -(3**77)]
a = [bigint(v) for v in values]
b = [bigint(v) for v in values]
res = {"hash": [], "equal": []}
for x in a:
    r = h(ctypes.byref(x))
    res["hash"].append([r.ti, ctypes.c_int64(r.v).value])
for x, y in zip(a, b[1:] + b[:1]):
    r = eq(ctypes.byref(x), ctypes.byref(y))
    res["equal"].append([r.ti, r.v])
for x, y in zip(a, b):
    r = eq(ctypes.byref(x), ctypes.byref(y))
    res["equal"].append([r.ti, r.v])
print(json.dumps(res))
'''


def _hooks(impl):
    proc = subprocess.run([sys.executable, "-c", HOOKS, impl], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_bigint_any_hooks_as_tvm_ffi(reference):
    ours = _hooks("tether")
    assert ours == _hooks("tvm_ffi")
    assert all(kind == 1 for kind, _ in ours["hash"])  # kTVMFFIInt results
    assert ours["equal"] == [[2, 0]] * 5 + [[2, 1]] * 5  # kTVMFFIBool results


# ---- BigInt in tether ------------------------------------------------------------------------

def test_bigint_in_containers_and_map_keys():
    big = 2**70
    arr = tether.convert([big, -big, 1])
    assert list(arr) == [big, -big, 1] and type(arr[0]) is int
    m = tether.convert({big: "x", 1: "y"})
    assert m[big] == "x" and m[2**70] == "x" and m[1] == "y"
    assert big + 1 not in m
    assert repr(arr) == f"({big}, {-big}, 1)"
    assert tether.convert(big) == big and type(tether.convert(big)) is int


def test_bigint_kernel_errors(mod):
    with pytest.raises(ValueError, match="TVMFFIBigIntFromByteArray: argument `input` must hold "
                                         "whole 64-bit words, got 9 bytes"):
        mod["make_bigint"](b"123456789")
    with pytest.raises(TypeError, match="Expected `int` but got `ffi.BigInt`"):
        core.get_global_func("testing.add_one")(2**70)


# ---- tether only: what tvm_ffi does not survive ----------------------------------------------

@pytest.mark.parametrize("index", [-3, 13, 14, 50, 63, 79, 127, 5000])
@pytest.mark.parametrize("with_object", [False, True])
def test_bad_type_index_result_is_type_error(mod, index, with_object):
    with pytest.raises(TypeError, match=f"type index {index}"):
        mod["return_index"](index, with_object)


@pytest.mark.parametrize("index", [-3, 8, 9, 10, 13, 14, 63, 100, 5000])
def test_bad_type_index_callback_argument_is_type_error(mod, index):
    with pytest.raises(TypeError, match=f"type index {index}"):
        mod["index_to"](lambda x: x, index)


def test_null_dltensor_to_callback(mod):
    with pytest.raises(ValueError, match="NULL DLTensor"):
        mod["index_to"](lambda x: x, 7)


def test_dltensor_callback_sees_the_data(mod):
    np = pytest.importorskip("numpy")
    seen = []
    mod["dltensor_to"](lambda t: seen.append(np.from_dlpack(t).tolist()))
    assert seen == [[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]]


def _deep_list(depth):
    x = []
    for _ in range(depth):
        x = [x]
    return x


@pytest.mark.parametrize("limit", [None, 1_000_000])
def test_deep_list_is_recursion_error(limit):
    deep = _deep_list(100_000)
    old = sys.getrecursionlimit()
    try:
        if limit is not None:
            sys.setrecursionlimit(limit)
        with pytest.raises(RecursionError):
            tether.convert(deep)
        with pytest.raises(RecursionError):
            core.get_global_func("testing.nop")({"k": deep})
    finally:
        sys.setrecursionlimit(old)
    assert len(tether.convert(_deep_list(200))) == 1  # moderate depth still converts


# ---- the Str cache ---------------------------------------------------------------------------

echo = core.get_global_func("testing.echo")
nop = core.get_global_func("testing.nop")


def test_str_survives_evictions_during_the_call(mod):
    s = "a string that the callee reads after its callback"
    # distinct live objects (at distinct addresses): every cache slot is replaced many times
    others = [f"distinct string number {i}" for i in range(500)]

    def thrash():
        for o in others:
            nop(o)

    for _ in range(3):
        assert mod["str_after"](thrash, s) == s


def test_kept_str_is_never_rewritten():
    # The callee (here: the Array convert() builds) keeps the Str it was given; the cache
    # must not recycle that object for the strings passed after it.
    kept = tether.convert(["hello, world!", "0123456789abc"])
    others = [f"other {i:07d}" for i in range(3000)]  # 13 bytes: what a recycled Str fits
    for o in others:
        nop(o)
    assert list(kept) == ["hello, world!", "0123456789abc"]
    held = [echo(f"value {i:07d}") for i in range(200)]
    assert held == [f"value {i:07d}" for i in range(200)]


def test_str_cache_is_bounded():
    core._str_cache_clear()
    live = core._live_object_count()
    strings = [f"a fresh string {i:08d}" for i in range(2000)]
    for s in strings:
        nop(s)
    assert 0 < core._str_cache_clear() <= 64
    big = "x" * 5000
    for _ in range(100):
        nop(big)  # longer than the cached size: made per call, never cached
    assert core._str_cache_clear() == 0
    assert core._live_object_count() == live


def test_strings_from_threads_with_the_gil_released():
    f = core.get_global_func("testing.echo")
    f.release_gil = True
    words = [f"thread string {i:04d}" for i in range(100)]
    errors = []

    def run(k):
        try:
            for i in range(3000):
                w = words[(i * (k + 1)) % len(words)]
                if f(w) != w:
                    errors.append((w, k))
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_str_kinds_round_trip_and_cache_reuse():
    s = "a reasonably long string"
    assert echo(s) == s and type(echo(s)) is core.String
    assert echo(core.String(s)) == s
    u = "ünïcødé ✓ long"
    assert echo(u) == u
    assert echo("emb\0edded nul") == "emb\0edded nul"


def test_no_leak_passing_strings_and_bigints(check_no_leak):
    strings = [f"string for the leak check {i}" for i in range(200)]

    def body():
        for s in strings[:5]:
            nop(s)
        nop(strings[body.i % 200], 2**70, -(3**50))
        body.i += 1
        echo(2**80)

    body.i = 0
    check_no_leak(body)
