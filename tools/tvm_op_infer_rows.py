"""tvm_op_infer_rows.py -- re-record the expected results of tests/ir/test_op_infer.c from
apache-tvm 0.27.

Each row of that table is {"op", "args", "expected"[, "ours"]}: the constructor global
relax.op.<op> called with `args` (the table's notation, parsed here the way the C test parses
it), the Call normalized in a BlockBuilder, and the outcome rendered as the C test renders it:
the inferred type ("R.Tensor((2, n), dtype=\"float32\")", tuples as "R.Tuple(...)"),
"!Kind: message" for an inference error, "!!Kind: message" for a construction error.  This
script computes `expected` for every row with apache-tvm and rewrites the ones that differ
(a row's "ours" string, tether's known deviation, is left alone).

    .venv-tvm/bin/python tools/tvm_op_infer_rows.py            # rewrite in place
    .venv-tvm/bin/python tools/tvm_op_infer_rows.py --check    # only list the rows that differ

Run it with an interpreter that has apache-tvm 0.27 (never tether).
"""
import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TABLE = os.path.join(os.path.dirname(HERE), "tests", "ir", "test_op_infer.c")


class Notation:
    """The C test's argument notation (see the comment at the top of test_op_infer.c)."""

    def __init__(self, tvm, text):
        self.tvm, self.s, self.i = tvm, text, 0
        self.names = iter("xyzwuvabcdefgh")
        self.syms = {}

    def _ws(self):
        while self.i < len(self.s) and self.s[self.i] == " ":
            self.i += 1

    def _peek(self):
        self._ws()
        return self.s[self.i] if self.i < len(self.s) else ""

    def _eat(self, c):
        self._ws()
        if self.s[self.i:self.i + 1] != c:
            raise ValueError(f"expected {c!r} at {self.i} in {self.s!r}")
        self.i += 1

    def _match(self, pattern):
        self._ws()
        m = re.match(pattern, self.s[self.i:])
        if m is None:
            raise ValueError(f"bad notation at {self.i} in {self.s!r}")
        self.i += m.end()
        return m.group(0)

    def _sym(self, name, shape_ndim=0):
        relax, tirx = self.tvm.relax, self.tvm.tirx
        if name not in self.syms:
            self.syms[name] = (relax.Var(name, relax.ShapeType(ndim=shape_ndim)) if shape_ndim
                               else tirx.Var(name, "int64"))
        return self.syms[name]

    def _dim(self):
        token = self._match(r"-?\w+")
        return int(token) if re.fullmatch(r"-?\d+", token) else self._sym(token)

    def _dims(self, close):
        out = []
        while self._peek() != close:
            out.append(self._dim())
            if self._peek() == ",":
                self._eat(",")
        self._eat(close)
        return out

    def _dtype(self):
        self._eat(":")
        if self._peek() == "?":
            self.i += 1
            return ""
        return self._match(r"\w+")

    def values(self, close=""):
        out = []
        while self._peek() not in (close, ""):
            out.append(self._value())
            if self._peek() == ",":
                self._eat(",")
        if close:
            self._eat(close)
        return out

    def _value(self):
        relax, tirx, ir = self.tvm.relax, self.tvm.tirx, self.tvm.ir
        self._ws()
        m = re.match(r"([a-z]+)=", self.s[self.i:])
        name = None
        if m:
            name = m.group(1)
            self.i += m.end()
        c = self._peek()
        if c == '"':
            end = self.s.index('"', self.i + 1)
            text, self.i = self.s[self.i + 1:end], end + 1
            return text
        if c in "[(":
            self._eat(c)
            items = self.values("]" if c == "[" else ")")
            if c == "[":
                return items
            return relax.Tuple([tirx.IntImm("int64", v) if isinstance(v, int) else v for v in items])
        if c == "-" or c.isdigit():
            token = self._match(r"-?[0-9][0-9.eE+-]*")
            return float(token) if re.search(r"[.eE]", token) else int(token)
        word = self._match(r"[A-Za-z_]\w*")
        if word == "None":
            return None
        if word in ("True", "False"):
            return word == "True"
        if word == "T":
            shape, ndim = None, -1
            if self._peek() == "[":
                self._eat("[")
                shape = self._dims("]")
            elif self._peek() == "#":
                self._eat("#")
                ndim = int(self._match(r"\d+"))
            elif self._peek() == "$":
                self._eat("$")
                sname = self._match(r"\w+")
                self._eat("#")
                shape = self._sym(sname, int(self._match(r"\d+")))
            dtype = self._dtype()
            ty = (relax.TensorType(shape, dtype) if shape is not None
                  else relax.TensorType(dtype=dtype, ndim=ndim))
            return relax.Var(name or next(self.names), ty)
        if word == "S":
            self._eat("[")
            return relax.ShapeExpr(self._dims("]"))
        if word == "P":
            return relax.Var(name or next(self.names), ir.PrimType(self._dtype()))
        if word == "V":
            self._eat("$")
            sname = self._match(r"\w+")
            self._eat("#")
            return self._sym(sname, int(self._match(r"\d+")))
        if word in ("I", "F"):
            self._eat("(")
            token = self._match(r"-?[0-9][0-9.eE+-]*")
            self._eat(")")
            return (tirx.IntImm("int64", int(token)) if word == "I"
                    else tirx.FloatImm("float64", float(token)))
        if word == "D":
            return self._dim()
        raise ValueError(f"bad token {word!r} in {self.s!r}")


def _type_text(tvm, ty):
    if isinstance(ty, tvm.ir.TupleType):
        fields = ", ".join(_type_text(tvm, f) for f in ty.fields)
        return "R.Tuple" + (f"({fields})" if fields else "")
    if isinstance(ty, tvm.ir.PrimType):
        return f'R.Prim("{ty.dtype}")'
    return str(ty)


def outcome(tvm, op, args):
    """What the C test renders for one row, computed with apache-tvm."""
    vals = Notation(tvm, args).values()
    try:
        call = tvm.get_global_func("relax.op." + op)(*vals)
    except Exception as ex:  # noqa: BLE001 (any construction error is a result)
        return f"!!{type(ex).__name__}: {ex}"
    try:
        return _type_text(tvm, tvm.relax.BlockBuilder().normalize(call).ty)
    except Exception as ex:  # noqa: BLE001
        return f"!{type(ex).__name__}: {ex}"


_CSTR = r'"((?:[^"\\]|\\.)*)"'
_ROW = re.compile(r'(\{' + _CSTR + r',\s*' + _CSTR + r',\s*)' + _CSTR, re.S)


def _c_unescape(s):
    return s.replace('\\"', '"').replace("\\\\", "\\")


def _c_escape(s):
    return s.replace("\\", "\\\\").replace('"', '\\"')


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="list differing rows, write nothing")
    ap.add_argument("--table", default=TABLE)
    opts = ap.parse_args(argv)
    import tvm  # noqa: F401
    from tvm import ir, relax, tirx  # noqa: F401

    text = open(opts.table).read()
    begin, end = text.index("/* BEGIN CASES */"), text.index("/* END CASES */")
    body = text[begin:end]
    changed = []

    def redo(m):
        op, args, old = _c_unescape(m.group(2)), _c_unescape(m.group(3)), _c_unescape(m.group(4))
        new = outcome(tvm, op, args)
        if new == old:
            return m.group(0)
        changed.append((op, args, old, new))
        return m.group(1) + '"' + _c_escape(new) + '"'

    body = _ROW.sub(redo, body)
    rows = len(_ROW.findall(text[begin:end]))
    for op, args, old, new in changed:
        print(f"{op} {args}\n  was: {old}\n  now: {new}")
    print(f"{rows} rows, {len(changed)} re-recorded")
    if changed and not opts.check:
        with open(opts.table, "w") as f:
            f.write(text[:begin] + body + text[end:])
    return 1 if changed and opts.check else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
