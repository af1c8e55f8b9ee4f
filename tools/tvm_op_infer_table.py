"""tvm_op_infer_table.py -- the expected results of tests/ir/test_op_infer.c, from apache-tvm 0.27.

Each row of that table names an op, its constructor arguments in a small notation (the file's
header comment documents it) and the result apache-tvm 0.27 gives for them.  This tool reads
the rows, builds each case in TVM the way the C test builds it in tether --
tvm.get_global_func("relax.op.<name>") called with the parsed arguments, the Call normalized
by a relax.BlockBuilder -- and renders the outcome as the C test renders tether's:

    the inferred type     R.Tensor((2, n), dtype="float32"), R.Tuple(...), R.Prim("bool"), ...
    !Kind: message        the normalizer (type inference) raised
    !!Kind: message       the constructor global raised
    !!!Kind: message      there is no such constructor global

Run it with the interpreter of the TVM virtualenv (`make venv-tvm`: apache-tvm 0.27.0.post1,
apache-tvm-ffi 0.1.14.post1); tether is not needed:

    .venv-tvm/bin/python tools/tvm_op_infer_table.py --check   # rows whose expectation differs
    .venv-tvm/bin/python tools/tvm_op_infer_table.py --write   # rewrite the expected strings

--check lists every row whose recorded expectation is not what TVM gives and exits 1 if there
is one.  --write replaces those expected strings in place and lists the rows it changed: a
rewritten row without a fourth string is now checked against TVM's new result in the C test,
so tether must give it too.  A row's fourth string (tether's knowing difference) is kept as it
is; rows whose fourth string now equals TVM's result are listed, since the difference is gone.
"""
import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TABLE = os.path.join(ROOT, "tests", "ir", "test_op_infer.c")

# Default Var names, in the order the C test's parser hands them out; 'q' after the last.
VAR_NAMES = "xyzwuvabcdefgh"


class NotationError(Exception):
    """A row's argument string does not follow the notation."""


# ---- the table in the C file -------------------------------------------------------------------

class Row:
    """One {op, args, expected[, ours]} row: its decoded strings and where `expected` sits."""

    def __init__(self, index, line, fields):
        self.index = index  # position in the array (the C test's "case N")
        self.line = line
        self.fields = fields  # [(text, (start, end)) or (None, span) for NULL]

    @property
    def op(self):
        return self.fields[0][0]

    @property
    def args(self):
        return self.fields[1][0]

    @property
    def expected(self):
        return self.fields[2][0]

    @property
    def ours(self):
        return self.fields[3][0] if len(self.fields) > 3 else None


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "'": "'", "?": "?",
            "a": "\a", "b": "\b", "f": "\f", "v": "\v"}


def _c_literal_body(src, i):
    """Decodes the string literal whose opening quote is at src[i]; returns (text, end)."""
    out = []
    i += 1
    while True:
        if i >= len(src) or src[i] == "\n":
            raise NotationError("unterminated string literal")
        c = src[i]
        if c == '"':
            return "".join(out), i + 1
        if c != "\\":
            out.append(c)
            i += 1
            continue
        e = src[i + 1]
        if e in _ESCAPES:
            out.append(_ESCAPES[e])
            i += 2
        elif e in "01234567":
            m = re.match(r"[0-7]{1,3}", src[i + 1:])
            out.append(chr(int(m.group(0), 8)))
            i += 1 + len(m.group(0))
        elif e == "x":
            m = re.match(r"[0-9a-fA-F]+", src[i + 2:])
            out.append(chr(int(m.group(0), 16)))
            i += 2 + len(m.group(0))
        else:
            raise NotationError(f"unknown escape \\{e}")


def c_literal(text):
    """`text` as one C string literal."""
    out = ['"']
    for c in text:
        if c in '"\\':
            out.append("\\" + c)
        elif c == "\n":
            out.append("\\n")
        elif c == "\t":
            out.append("\\t")
        elif ord(c) < 0x20 or ord(c) == 0x7F:
            out.append("\\%03o" % ord(c))
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def _skip_blank(src, i, end):
    while i < end:
        if src[i].isspace():
            i += 1
        elif src.startswith("/*", i):
            i = src.index("*/", i) + 2
        elif src.startswith("//", i):
            i = src.index("\n", i)
        else:
            break
    return i


def read_table(src):
    """The rows between /* BEGIN CASES */ and the end of the array (`};`)."""
    begin = src.find("/* BEGIN CASES */")
    if begin < 0:
        raise SystemExit("no /* BEGIN CASES */ marker in the table file")
    end = src.find("\n};", begin)
    if end < 0:
        raise SystemExit("the case array after /* BEGIN CASES */ does not end with `};`")
    rows = []
    i = begin
    while True:
        i = _skip_blank(src, i, end)
        if i >= end:
            break
        if src[i] != "{":
            raise SystemExit(f"line {src.count(chr(10), 0, i) + 1}: expected a row `{{...}}`")
        line = src.count("\n", 0, i) + 1
        i += 1
        fields = []
        while True:
            i = _skip_blank(src, i, end)
            if src[i] == "}":
                i += 1
                break
            start = i
            if src.startswith("NULL", i):
                text, i = None, i + 4
            elif src[i] == '"':
                parts = []
                while i < end and src[i] == '"':  # adjacent literals concatenate
                    part, i = _c_literal_body(src, i)
                    parts.append(part)
                    j = _skip_blank(src, i, end)
                    if j < end and src[j] == '"':
                        i = j
                text = "".join(parts)
            else:
                raise SystemExit(f"line {line}: a row holds string literals or NULL only")
            fields.append((text, (start, i)))
            i = _skip_blank(src, i, end)
            if src[i] == ",":
                i += 1
        if len(fields) not in (3, 4) or any(f[0] is None for f in fields[:3]):
            raise SystemExit(f"line {line}: a row is {{op, args, expected[, ours]}}")
        rows.append(Row(len(rows), line, fields))
        i = _skip_blank(src, i, end)
        if i < end and src[i] == ",":
            i += 1
    return rows


# ---- the argument notation (the C test's parser, in Python) ------------------------------------

class Parser:
    """Reads a row's argument string into TVM objects, as the C test's parser reads it into
    tether's: same grammar, same Var names, symbols shared by name within the row."""

    def __init__(self, text):
        import tvm_ffi
        from tvm import ir, relax
        from tvm.ir import prim

        self.ir, self.relax, self.prim, self.tvm_ffi = ir, relax, prim, tvm_ffi
        self.s = text
        self.i = 0
        self.names = iter(VAR_NAMES)
        self.syms = {}

    # lexing
    def _ch(self, k=0):
        j = self.i + k
        return self.s[j] if j < len(self.s) else ""

    def ws(self):
        while self._ch() == " ":
            self.i += 1

    def peek(self):
        self.ws()
        return self._ch()

    def eat(self, c):
        self.ws()
        if self._ch() != c:
            raise NotationError(f"expected '{c}' at {self.i} in '{self.s}'")
        self.i += 1

    def ident(self):
        self.ws()
        m = re.compile(r"[A-Za-z_][A-Za-z_0-9]*").match(self.s, self.i)
        if m is None:
            return ""
        self.i = m.end()
        return m.group(0)

    def number(self):
        """(value, is_float): the C parser's scan of [-.e0-9]* read by strtod / strtoll."""
        self.ws()
        m = re.compile(r"[-.e0-9]*").match(self.s, self.i)
        span = m.group(0)
        if "." in span or "e" in span:
            num = re.match(r"-?(\d+\.?\d*|\.\d+)(e-?\d+)?", span)
            value = float(num.group(0)) if num else 0.0
            is_float = True
        else:
            num = re.match(r"-?\d+", span)
            value = int(num.group(0)) if num else 0
            is_float = False
        self.i += len(num.group(0)) if num else 0
        return value, is_float

    def int_number(self):
        value, is_float = self.number()
        return 0 if is_float else value  # the C parser leaves its int at 0 for a float

    # objects
    def int64(self, v):
        return self.prim.IntImm("int64", v)

    def sym(self, name, shape_ndim):
        """The symbol `name`: made on first use, a shape Var (ShapeType of shape_ndim) or a
        symbolic dim (PrimType int64)."""
        if name not in self.syms:
            ty = (self.relax.ShapeType(ndim=shape_ndim) if shape_ndim >= 0
                  else self.ir.PrimType("int64"))
            self.syms[name] = self.ir.Var(name, ty)
        return self.syms[name]

    def dim(self):
        c = self.peek()
        if c == "-" or c.isdigit():
            return self.int64(self.int_number())
        return self.sym(self.ident(), -1)

    def dims(self, close):
        items = []
        if self.peek() != close:
            while True:
                items.append(self.dim())
                if self.peek() == ",":
                    self.eat(",")
                    continue
                break
        self.eat(close)
        return items

    def dtype(self):
        """A dtype name, or None for '?' (unknown)."""
        self.eat(":")
        if self.peek() == "?":
            self.eat("?")
            return None
        name = self.ident()
        try:
            self.tvm_ffi.dtype(name)
        except Exception as e:
            raise NotationError(f"bad dtype '{name}' in '{self.s}'") from e
        return name

    def next_name(self):
        return next(self.names, "q")

    def values(self, close):
        """Comma-separated values up to `close` ("" at top level)."""
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
        self.ws()
        name = None
        m = re.compile(r"[a-z]+=").match(self.s, self.i)
        if m:
            name = m.group(0)[:-1]
            self.i = m.end()
        c = self.peek()
        if c == '"':
            end = self.s.find('"', self.i + 1)
            if end < 0:
                raise NotationError(f"unterminated string in '{self.s}'")
            text = self.s[self.i + 1:end]
            self.i = end + 1
            return text
        if c in "[(":
            self.eat(c)
            items = self.values("]" if c == "[" else ")")
            if c == "[":
                return items
            # a relax Tuple; its plain ints become IntImm int64
            return self.relax.Tuple([self.int64(v) if type(v) is int else v for v in items])
        if c == "-" or c.isdigit():
            return self.number()[0]
        word = self.ident()
        if word == "None":
            return None
        if word in ("True", "False"):
            return word == "True"
        if word == "T":
            shape, ndim = None, -1
            if self.peek() == "[":
                self.eat("[")
                shape = self.relax.ShapeExpr(self.dims("]"))
            elif self.peek() == "#":
                self.eat("#")
                ndim = self.int_number()
            elif self.peek() == "$":
                self.eat("$")
                sname = self.ident()
                self.eat("#")
                ndim = self.int_number()
                shape = self.sym(sname, ndim)
            dt = self.dtype()
            ty = self.relax.TensorType(shape, dt, ndim=-1 if shape is not None else ndim)
            return self.ir.Var(name or self.next_name(), ty)
        if word == "S":
            self.eat("[")
            return self.relax.ShapeExpr(self.dims("]"))
        if word == "P":
            dt = self.dtype()
            if dt is None:
                raise NotationError(f"P needs a dtype in '{self.s}'")
            return self.ir.Var(name or self.next_name(), self.ir.PrimType(dt))
        if word == "V":
            self.eat("$")
            sname = self.ident()
            self.eat("#")
            return self.sym(sname, self.int_number())
        if word in ("I", "F"):
            self.eat("(")
            v, is_float = self.number()
            self.eat(")")
            if word == "I":
                return self.int64(0 if is_float else v)
            return self.prim.FloatImm("float64", float(v))
        if word == "D":
            return self.dim()
        raise NotationError(f"bad token '{word}' in '{self.s}'")


def parse_args(text):
    """The row's arguments as a list of TVM objects and Python values."""
    return Parser(text).values("")


# ---- rendering (as the C test's fmt_type / fmt_error) -------------------------------------------

_BINOPS = {"prim.Add": (1, " + "), "prim.Sub": (1, " - "), "prim.Mul": (2, " * "),
           "prim.FloorDiv": (2, " // "), "prim.FloorMod": (2, " % ")}


def type_key(obj):
    info = getattr(type(obj), "__tvm_ffi_type_info__", None)
    return info.type_key if info is not None else type(obj).__name__


def fmt_dim(d, parent=0, right=False):
    key = type_key(d) if d is not None else None
    if key == "ir.IntImm":
        return str(d.value)
    if key in ("ir.Var", "relax.expr.DataflowVar"):
        return d.name
    if key in _BINOPS:
        prec, op = _BINOPS[key]
        text = fmt_dim(d.a, prec) + op + fmt_dim(d.b, prec, True)
        return f"({text})" if prec < parent or (right and prec == parent) else text
    if key in ("prim.Min", "prim.Max"):
        return f"T.{key[5:].lower()}({fmt_dim(d.a)}, {fmt_dim(d.b)})"
    return f"<{key or 'null'}>"


def fmt_type(ty):
    key = type_key(ty) if ty is not None else None
    if key == "relax.TensorType":
        parts = []
        if ty.shape is not None:
            if type_key(ty.shape) == "relax.expr.ShapeExpr":
                dims = [fmt_dim(d) for d in ty.shape.values]
                parts.append("(" + ", ".join(dims) + ("," if len(dims) == 1 else "") + ")")
            else:
                parts.append(fmt_dim(ty.shape))
        if ty.dtype is not None:
            parts.append(f'dtype="{ty.dtype}"')
        if ty.shape is None and ty.ndim != -1:
            parts.append(f"ndim={ty.ndim}")
        return "R.Tensor" + (f"({', '.join(parts)})" if parts else "")
    if key == "ir.TupleType":
        fields = [fmt_type(f) for f in ty.fields]
        return "R.Tuple" + (f"({', '.join(fields)})" if fields else "")
    if key == "ir.PrimType":
        return f'R.Prim("{ty.dtype}")'
    if key == "relax.ShapeType":
        if ty.values is not None:
            return "R.Shape([" + ", ".join(fmt_dim(d) for d in ty.values) + "])"
        return f"R.Shape(ndim={ty.ndim})"
    return key or "None"


def fmt_error(prefix, err):
    from tvm_ffi import core

    kind = core.ERROR_TYPE_TO_NAME.get(type(err), type(err).__name__)
    msg = err.args[0] if len(err.args) == 1 and isinstance(err.args[0], str) else str(err)
    return f"{prefix}{kind}: {msg}"


def run_case(op, args_text):
    """TVM's outcome for one row, rendered as the C test renders tether's."""
    import tvm_ffi
    from tvm import relax

    try:
        args = parse_args(args_text)
    except NotationError:
        return "<bad case notation>"
    try:
        func = tvm_ffi.get_global_func("relax.op." + op)
    except Exception as e:  # its kind and text are the result
        return fmt_error("!!!", e)
    try:
        call = func(*args)
    except Exception as e:
        return fmt_error("!!", e)
    # constructors leave the type unset (the missing ir.Type)
    ty = getattr(call, "ty", None)
    note = "" if ty is None or ty.is_missing() else " <ty was set by the constructor>"
    try:
        ty = relax.BlockBuilder().normalize(call).ty
    except Exception as e:
        return fmt_error("!", e) + note
    return fmt_type(ty) + note


# ---- the command -----------------------------------------------------------------------------

def _show(row, got, out):
    out.write(f"case {row.index} (line {row.line}): {row.op} {row.args}\n"
              f"  recorded: {row.expected}\n  TVM:      {got}\n")
    if row.ours is not None:
        out.write(f"  tether's (fourth string, kept): {row.ours}\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true",
                      help="list rows whose expectation differs from TVM's result; exit 1 if any")
    mode.add_argument("--write", action="store_true",
                      help="rewrite the expected strings that differ from TVM's result")
    ap.add_argument("--file", default=TABLE, help="the table (default: tests/ir/test_op_infer.c)")
    opts = ap.parse_args(argv)

    import tvm

    with open(opts.file, encoding="utf-8") as f:
        src = f.read()
    rows = read_table(src)
    differ, gone = [], []
    for row in rows:
        got = run_case(row.op, row.args)
        if got != row.expected:
            differ.append((row, got))
        if row.ours is not None and got == row.ours:
            gone.append(row)

    out = sys.stdout
    for row, got in differ:
        _show(row, got, out)
    for row in gone:
        out.write(f"case {row.index} (line {row.line}): {row.op} {row.args}\n"
                  "  TVM now gives tether's fourth string: the known difference is gone\n")
    if opts.write and differ:
        new = src
        for row, got in sorted(differ, key=lambda d: d[0].fields[2][1][0], reverse=True):
            start, end = row.fields[2][1]
            new = new[:start] + c_literal(got) + new[end:]
        with open(opts.file, "w", encoding="utf-8") as f:
            f.write(new)
    verb = "rewritten" if opts.write else "differ from TVM"
    out.write(f"{len(rows)} rows, {len(differ)} {verb} (apache-tvm {tvm.__version__})\n")
    return 1 if opts.check and differ else 0


if __name__ == "__main__":
    sys.exit(main())
