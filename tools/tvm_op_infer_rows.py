"""tvm_op_infer_rows.py -- the expected strings of tests/ir/test_op_infer.c from apache-tvm 0.27.

Reads the rows between BEGIN CASES and END CASES of tests/ir/test_op_infer.c, rebuilds each
row's arguments in apache-tvm from the same notation (the file's header describes it), calls
tvm.get_global_func("relax.op.<name>"), normalizes the Call in a BlockBuilder and renders the
result as the C test renders tether's: the inferred type, "!Kind: message" for an inference
error, "!!Kind: message" for a construction error.  Prints rows that differ (or, with --write,
rewrites the expected strings in place; a row's fourth string, tether's own result, is kept).

    .venv-tvm/bin/python tools/tvm_op_infer_rows.py [--ops nn.conv3d,quantize] [--write]

Run it with an interpreter that has apache-tvm 0.27 (never tether).
"""
import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TABLE = os.path.join(ROOT, "tests", "ir", "test_op_infer.c")
ROW = re.compile(r'\{"(?P<op>[^"]+)", "(?P<args>(?:[^"\\]|\\.)*)",\s*\n?\s*"(?P<exp>(?:[^"\\]|\\.)*)"')


def c_unescape(s):
    return s.replace('\\"', '"').replace("\\\\", "\\")


def c_escape(s):
    return s.replace("\\", "\\\\").replace('"', '\\"')


class Parser:
    """The C test's argument notation, building apache-tvm objects."""

    def __init__(self, text, tvm, relax, tirx):
        self.s, self.i = text, 0
        self.tvm, self.relax, self.tirx = tvm, relax, tirx
        self.names = list("xyzwuvabcdefgh")
        self.syms = {}

    def ws(self):
        while self.i < len(self.s) and self.s[self.i] == " ":
            self.i += 1

    def peek(self):
        self.ws()
        return self.s[self.i] if self.i < len(self.s) else ""

    def eat(self, c):
        self.ws()
        if self.s[self.i] != c:
            raise ValueError(f"expected {c!r} at {self.i} in {self.s!r}")
        self.i += 1

    def ident(self):
        self.ws()
        m = re.compile(r"[A-Za-z_][A-Za-z_0-9]*").match(self.s, self.i)
        self.i = m.end()
        return m.group(0)

    def number(self):
        self.ws()
        m = re.compile(r"-?[0-9.e-]+").match(self.s, self.i)
        self.i = m.end()
        t = m.group(0)
        return float(t) if ("." in t or "e" in t) else int(t)

    def sym(self, name, shape_ndim=-1):
        if name not in self.syms:
            if shape_ndim >= 0:
                self.syms[name] = self.relax.Var(name, self.relax.ShapeType(ndim=shape_ndim))
            else:
                self.syms[name] = self.tirx.Var(name, "int64")
        return self.syms[name]

    def dim(self):
        c = self.peek()
        if c == "-" or c.isdigit():
            return self.number()
        return self.sym(self.ident())

    def dims(self, close):
        out = []
        if self.peek() != close:
            while True:
                out.append(self.dim())
                if self.peek() == ",":
                    self.eat(",")
                    continue
                break
        self.eat(close)
        return out

    def dtype(self):
        self.eat(":")
        if self.peek() == "?":
            self.eat("?")
            return None
        return self.ident()

    def values(self, close):
        out = []
        if self.peek() == close:
            if close:
                self.eat(close)
            return out
        while True:
            out.append(self.value())
            if self.peek() == ",":
                self.eat(",")
                continue
            if close:
                self.eat(close)
            return out

    def value(self):
        relax = self.relax
        self.ws()
        name = None
        m = re.compile(r"([a-z]+)=").match(self.s, self.i)
        if m:
            name, self.i = m.group(1), m.end()
        c = self.peek()
        if c == '"':
            end = self.s.index('"', self.i + 1)
            v, self.i = self.s[self.i + 1:end], end + 1
            return v
        if c in "[(":
            self.eat(c)
            items = self.values("]" if c == "[" else ")")
            if c == "(":
                items = [self.tvm.tirx.IntImm("int64", v) if isinstance(v, int) else v for v in items]
                return relax.Tuple(items)
            return items
        if c == "-" or c.isdigit():
            return self.number()
        w = self.ident()
        if w in ("None", "True", "False"):
            return {"None": None, "True": True, "False": False}[w]
        if w == "T":
            shape, ndim = None, -1
            if self.peek() == "[":
                self.eat("[")
                shape = self.dims("]")
            elif self.peek() == "#":
                self.eat("#")
                ndim = self.number()
            elif self.peek() == "$":
                self.eat("$")
                sn = self.ident()
                self.eat("#")
                ndim = self.number()
                shape = self.sym(sn, ndim)
            dt = self.dtype()
            ty = relax.TensorType(shape, dt) if shape is not None else \
                relax.TensorType(dtype=dt, ndim=ndim)
            return relax.Var(name or self.names.pop(0), ty)
        if w == "S":
            self.eat("[")
            return relax.ShapeExpr(self.dims("]"))
        if w == "P":
            return relax.Var(name or self.names.pop(0), self.tvm.ir.PrimType(self.dtype()))
        if w == "V":
            self.eat("$")
            sn = self.ident()
            self.eat("#")
            return self.sym(sn, self.number())
        if w in ("I", "F"):
            self.eat("(")
            v = self.number()
            self.eat(")")
            return self.tvm.tirx.IntImm("int64", v) if w == "I" else \
                self.tvm.tirx.FloatImm("float64", float(v))
        if w == "D":
            return self.dim()
        raise ValueError(f"bad token {w} in {self.s!r}")


def render_dim(d, parent=0, right=False):
    """A dim as the C test's fmt_dim renders one: ints bare, binary ops by precedence."""
    from tvm import tirx
    ops = ((tirx.Add, 1, " + "), (tirx.Sub, 1, " - "), (tirx.Mul, 2, " * "),
           (tirx.FloorDiv, 2, " // "), (tirx.FloorMod, 2, " % "))
    if isinstance(d, int):
        return str(d)
    if isinstance(d, tirx.IntImm):
        return str(d.value)
    if isinstance(d, tirx.Var):
        return d.name
    for cls, prec, op in ops:
        if isinstance(d, cls):
            text = render_dim(d.a, prec) + op + render_dim(d.b, prec, True)
            return f"({text})" if prec < parent or (right and prec == parent) else text
    if isinstance(d, (tirx.Min, tirx.Max)):
        name = "min" if isinstance(d, tirx.Min) else "max"
        return f"T.{name}({render_dim(d.a)}, {render_dim(d.b)})"
    return f"<{type(d).__name__}>"


def render_type(ty, tvm, relax):
    if isinstance(ty, relax.TensorType):
        parts = []
        shape = ty.shape
        if shape is not None:
            if isinstance(shape, relax.ShapeExpr):
                vals = [render_dim(v) for v in shape.values]
                parts.append("(" + ", ".join(vals) + ("," if len(vals) == 1 else "") + ")")
            else:
                parts.append(str(shape.name))
        if ty.dtype not in ("", "void", None) and str(ty.dtype) != "void":
            parts.append(f'dtype="{ty.dtype}"')
        if shape is None and ty.ndim != -1:
            parts.append(f"ndim={ty.ndim}")
        return "R.Tensor" + ("(" + ", ".join(parts) + ")" if parts else "")
    if isinstance(ty, tvm.ir.TupleType):
        fields = [render_type(f, tvm, relax) for f in ty.fields]
        return "R.Tuple(" + ", ".join(fields) + ")" if fields else "R.Tuple"
    if isinstance(ty, tvm.ir.PrimType):
        return f'R.Prim("{ty.dtype}")'
    if isinstance(ty, relax.ShapeType):
        if ty.values is not None:
            return "R.Shape([" + ", ".join(render_dim(v) for v in ty.values) + "])"
        return f"R.Shape(ndim={ty.ndim})"
    return type(ty).__name__


def error_text(e, prefix):
    kind = type(e).__name__
    msg = str(e).rstrip("\n")
    return f"{prefix}{kind}: {msg}"


def expected(op, args_text, tvm, relax, tirx):
    p = Parser(args_text, tvm, relax, tirx)
    args = p.values("")
    try:
        call = tvm.get_global_func("relax.op." + op)(*args)
    except Exception as e:  # noqa: BLE001 (every error kind is a result)
        return error_text(e, "!!")
    try:
        return render_type(relax.BlockBuilder().normalize(call).ty, tvm, relax)
    except Exception as e:  # noqa: BLE001
        return error_text(e, "!")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ops", help="comma-separated op names (default: every row)")
    ap.add_argument("--write", action="store_true", help="rewrite the expected strings in place")
    opts = ap.parse_args()
    import tvm
    from tvm import relax, tirx

    ops = set(opts.ops.split(",")) if opts.ops else None
    text = open(TABLE).read()
    begin, end = text.index("/* BEGIN CASES */"), text.index("/* END CASES */")
    body = text[begin:end]
    changed = 0

    def fix(m):
        nonlocal changed
        if ops is not None and m.group("op") not in ops:
            return m.group(0)
        want = expected(m.group("op"), c_unescape(m.group("args")), tvm, relax, tirx)
        have = c_unescape(m.group("exp"))
        if want == have:
            return m.group(0)
        changed += 1
        print(f'{m.group("op")} {c_unescape(m.group("args"))}\n  table: {have}\n  tvm:   {want}')
        return m.group(0).replace(f'"{m.group("exp")}"', f'"{c_escape(want)}"')

    body = ROW.sub(fix, body)
    if opts.write and changed:
        with open(TABLE, "w") as f:
            f.write(text[:begin] + body + text[end:])
    print(f"{changed} row(s) differ from apache-tvm" + (" (rewritten)" if opts.write and changed else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
