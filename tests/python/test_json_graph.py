"""The JSON graph and JSON text against apache-tvm-ffi 0.1.15.post2: for the same values,
tether's ffi.ToJSONGraphString writes the same text byte for byte, reads tvm_ffi's text
back to values that write the same text again, and ffi.json.Parse reports the same errors.

tvm_ffi runs in a subprocess (the two runtimes are not mixed in one process here); a value
is given as a Python expression evaluated with `ffi` bound to tvm_ffi there and to tether
here."""
import importlib.util
import json
import random
import subprocess
import sys
import textwrap

import pytest

import tether
import tether.testing

# Looked up without importing it: tvm_ffi loaded into this process would share the symbol
# namespace with libtether (a separate concern, tested elsewhere).
if importlib.util.find_spec("tvm_ffi") is None:
    pytest.skip("needs apache-tvm-ffi in the test environment", allow_module_level=True)

VALUES = [
    "None", "True", "False", "0", "-7", "2**62", "-2**63", "2.5", "-0.0", "0.1", "1e300",
    "float('nan')", "float('-inf')", "5e-324", "'a'", "'abcdefghij'", "''",
    "'q\"b\\\\s/n\\nt\\tc\\x01\\x7f\\u00e9\\u4e2d\\U0001F604'",
    "b'hello\\x00\\xff'", "b''", "b'abcdefghijk'",
    "[1, 2.0, 'a', None, True, (1, 2), {'x': 1}]",
    "[]", "{}", "[[], [[]], {'k': []}]",
    "{'b': [1, {'c': None}], 'a': 2, 'z': 'a', 'y': 2.0}",
    "{1: 'one', 2.5: 'x', None: None, True: False}",
    "dict(('k%d' % i, i) for i in range(40))",
    "list(range(50)) + ['x'] * 3 + [1.5] * 2",
    "ffi.Shape((1, 2, 3))", "ffi.Shape(())", "ffi.dtype('float32')", "ffi.dtype('bfloat16x4')",
    "ffi.Device('cuda', 1)", "[ffi.Device('cpu', 0), ffi.dtype('int8'), ffi.dtype('int8')]",
    "(lambda a: [a, a, ffi.convert([1]), [a]])(ffi.convert([1]))",
    "(lambda m: {'m': m, 'n': [m, m]})(ffi.convert({'k': 'v'}))",
    "testing.create_object('testing.TestIntPair', a=1, b=-2)",
    "(lambda p: [p, p, testing.create_object('testing.TestIntPair', a=1, b=2)])"
    "(testing.create_object('testing.TestIntPair', a=1, b=2))",
    "testing.create_object('testing.TestObjectBase', v_i64=3, v_f64=2.5, v_str='hello')",
    "(lambda p: testing.create_object('testing.TestObjectDerived', v_map={'k': p, 'j': [p]},"
    " v_array=[p, 's', None, 1.0], v_i64=3, v_f64=0.5, v_str='hello world'))"
    "(testing.create_object('testing.TestIntPair', a=1, b=2))",
]



def _random_expr(rng, depth):
    """A random value as a Python expression (evaluated with `ffi` and `testing` bound)."""
    leaves = [
        lambda: str(rng.randint(-2**63, 2**63 - 1)), lambda: str(rng.randint(-3, 3)),
        lambda: repr(rng.uniform(-1e6, 1e6)), lambda: rng.choice(
            ["float('nan')", "float('inf')", "-0.0", "1e-310", "0.5", "1e300"]),
        lambda: rng.choice(["True", "False", "None"]),
        lambda: repr("".join(rng.choice("ab/\\\"\n\t\x01\x7f\u00e9\u4e2d\U0001F604 ")
                             for _ in range(rng.randint(0, 12)))),
        lambda: repr(bytes(rng.randint(0, 255) for _ in range(rng.randint(0, 10)))),
        lambda: "ffi.Shape((%s))" % "".join("%d," % rng.randint(0, 9) for _ in range(rng.randint(0, 3))),
        lambda: "ffi.dtype(%r)" % rng.choice(["int8", "float32", "bfloat16x4", "bool", "uint1"]),
        lambda: "ffi.Device(%r, %d)" % (rng.choice(["cpu", "cuda"]), rng.randint(0, 3)),
        lambda: "testing.create_object('testing.TestIntPair', a=%d, b=%d)" % (
            rng.randint(-5, 5), rng.randint(-5, 5)),
    ]
    if depth <= 0 or rng.random() < 0.3:
        return rng.choice(leaves)()
    kind = rng.randint(0, 3)
    items = [_random_expr(rng, depth - 1) for _ in range(rng.randint(0, 4))]
    if kind == 0:
        return "[%s]" % ", ".join(items)
    if kind == 1:
        keys = [repr("k%d" % rng.randint(0, 5)) if rng.random() < 0.7 else str(rng.randint(0, 3))
                for _ in items]
        return "{%s}" % ", ".join("%s: %s" % kv for kv in zip(keys, items))
    if kind == 2:  # one container shared by several places
        return "(lambda s: [s, [s], {'x': s}])(ffi.convert([%s]))" % ", ".join(items)
    return ("testing.create_object('testing.TestObjectDerived', v_map={%s}, v_array=[%s], "
            "v_i64=%d, v_str=%r)" % (", ".join("'m%d': %s" % (i, e) for i, e in enumerate(items)),
                                     ", ".join(items), rng.randint(-9, 9), "s" * rng.randint(0, 9)))


_rng = random.Random(20261201)
VALUES += [_random_expr(_rng, 4) for _ in range(150)]

BAD_TEXTS = [
    "", "   \t\n    ", "nul", "\n\nfx", "123.456.789", "123e", "1e400", "-Inf", "[1,]", "[",
    "[1a", "[1,2,3", "[1,", "[1]  a", "{\"a\":", "{", "{1:2}", "{\"a\":1,}", "{\"a\":1,",
    "{\"incomplete\"", "\"hello", "\"hello\\", "\"hello\x01\"", "\"hello\\uxx\"",
    "\"hello\\uDC00\\uDE04\"", "\"hello\\uD800\"", "\"hello\\uD800\\uxx\"", "\"hello\\a\"",
    "{\"a\":\n\n[abc]}", "]", "+", "-", "tru", "[NaN, nan]",
]

GOOD_TEXTS = [
    "[1, -0, 0.0, 1E+10, 9223372036854775807, -9223372036854775808, 9223372036854775808]",
    "{\"c\": 1, \"a\": {\"b\": [true, false, null]}, \"c\": 3}",
    "\"\\u0041\\u00FF\\u4E2D\\uD83D\\uDE04\\/\\b\\f\\n\\r\\t\\\"\\\\\"",
    "[NaN, Infinity, -Infinity, .5, +5, 01]",
]

SCRIPT = textwrap.dedent(r"""
    import json, sys
    import tvm_ffi as ffi
    import tvm_ffi.testing as testing
    get = ffi.get_global_func
    values, bad, good = json.loads(sys.stdin.read())
    graphs = []
    for expr in values:
        graphs.append(get("ffi.ToJSONGraphString")(eval(expr), None))
    meta = get("ffi.ToJSONGraphString")([1], {"tvm_version": "0.27.0", "n": [1, 2.5]})
    errors = []
    for text in bad:
        try:
            get("ffi.json.Parse")(text)
            errors.append(None)
        except Exception as e:
            errors.append([type(e).__name__, str(e)])
    parsed = [get("ffi.json.Stringify")(get("ffi.json.Parse")(t), None) for t in good]
    indented = get("ffi.json.Stringify")(get("ffi.json.Parse")(good[1]), 3)
    print(json.dumps([graphs, meta, errors, parsed, indented]))
""")


@pytest.fixture(scope="module")
def upstream():
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                         timeout=300, input=json.dumps([VALUES, BAD_TEXTS, GOOD_TEXTS]))
    assert out.returncode == 0, out.stderr
    graphs, meta, errors, parsed, indented = json.loads(out.stdout)
    return {"graphs": graphs, "meta": meta, "errors": errors, "parsed": parsed,
            "indented": indented}


def _eval(expr):
    return eval(expr, {"ffi": tether, "testing": tether.testing})


def to_graph(value, metadata=None):
    return tether.get_global_func("ffi.ToJSONGraphString")(value, metadata)


@pytest.mark.parametrize("index", range(len(VALUES)), ids=VALUES)
def test_graph_text_is_upstreams(upstream, index):
    assert to_graph(_eval(VALUES[index])) == upstream["graphs"][index]


@pytest.mark.parametrize("index", range(len(VALUES)), ids=VALUES)
def test_upstream_graph_reads_back(upstream, index):
    text = upstream["graphs"][index]
    value = tether.get_global_func("ffi.FromJSONGraphString")(text)
    assert to_graph(value) == text


def test_metadata_as_upstream(upstream):
    assert to_graph([1], {"tvm_version": "0.27.0", "n": [1, 2.5]}) == upstream["meta"]


@pytest.mark.parametrize("index", range(len(BAD_TEXTS)), ids=BAD_TEXTS)
def test_parse_errors_as_upstream(upstream, index):
    want = upstream["errors"][index]
    parse = tether.get_global_func("ffi.json.Parse")
    if want is None:
        parse(BAD_TEXTS[index])
        return
    with pytest.raises(Exception) as info:
        parse(BAD_TEXTS[index])
    assert type(info.value).__name__ == want[0]
    assert str(info.value) == "ffi.json.Parse: " + want[1]


@pytest.mark.parametrize("index", range(len(GOOD_TEXTS)), ids=GOOD_TEXTS)
def test_parse_and_write_as_upstream(upstream, index):
    get = tether.get_global_func
    assert get("ffi.json.Stringify")(get("ffi.json.Parse")(GOOD_TEXTS[index]), None) == \
        upstream["parsed"][index]


def test_indented_as_upstream(upstream):
    get = tether.get_global_func
    assert get("ffi.json.Stringify")(get("ffi.json.Parse")(GOOD_TEXTS[1]), 3) == upstream["indented"]


def test_tensor_round_trip():
    np = pytest.importorskip("numpy")
    a = np.arange(12, dtype="float32").reshape(3, 4)
    t = tether.from_dlpack(a)
    text = to_graph([t, t])
    back = tether.get_global_func("ffi.FromJSONGraphString")(text)
    assert back[0].same_as(back[1])
    np.testing.assert_array_equal(np.from_dlpack(back[0]), a)
    np.testing.assert_array_equal(np.from_dlpack(back[1]), a)


def test_errors_are_typed():
    get = tether.get_global_func
    with pytest.raises(ValueError, match="invalid node index 3"):
        get("ffi.FromJSONGraphString")('{"root_index":3,"nodes":[]}')
    with pytest.raises(TypeError, match="Required field `b` not set in type `testing.TestIntPair`"):
        get("ffi.FromJSONGraphString")(
            '{"root_index":0,"nodes":[{"type":"testing.TestIntPair","data":{"a":1}}]}')
    with pytest.raises(TypeError, match="does not support ToJSONGraph"):
        to_graph(tether.get_global_func("testing.nop"))
    lst = tether.List([1])
    lst.append(lst)
    with pytest.raises(ValueError, match="Cycle detected"):
        to_graph(lst)
    lst.clear()


def test_serialization_module():
    from tether import serialization
    p = tether.testing.create_object("testing.TestIntPair", a=3, b=4)
    text = serialization.to_json_graph_str([p, p], {"tvm_version": "0.27.0"})
    assert text.endswith(',"metadata":{"tvm_version":"0.27.0"}}')
    back = serialization.from_json_graph_str(text)
    assert back[0].same_as(back[1])
    assert (back[0].a, back[0].b) == (3, 4)
    with pytest.raises(ValueError, match="Expecting value"):
        serialization.from_json_graph_str("")
