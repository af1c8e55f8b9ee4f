"""The case language: one Relax op call described in plain Python, runnable on either side.

A case names an op ("nn.conv2d", "add", "image.resize2d") and its arguments as specs:

    Tensor((2, "n", 8), "float32")   a parameter Var of that TensorType; a str dim is a symbolic
                                     expression over int64 vars ("n", "n * 2", "m + 1");
                                     shape None: unknown shape (give ndim=), dtype None: unknown
    ShapeVar((2, "n")) / ShapeVar(ndim=2)   a parameter Var of ShapeType
    PrimVar("int64")                 a parameter Var of PrimType
    TupleVar(TensorTy(...), ...)     a parameter Var of TupleType
    AnyVar()                         a parameter Var of AnyType
    Shape((2, "n"))                  a ShapeExpr literal
    Prim(3, "int64") / Prim("n")     an IntImm / FloatImm / symbolic PrimExpr
    Const(value, "float32")          relax.const(value, dtype) (value: nested lists of numbers)
    Tup(a, b)                        a relax.Tuple of specs
    TensorTy(...) / ShapeTy(...) / PrimTy(...) / TupleTy(...) / AnyTy()   type objects
    GVar("f")                        a GlobalVar (no type)
    Callee("f", TensorTy(...), ...)  a GlobalVar of a function with those param types

Plain Python values (int, float, str, bool, None, lists and tuples of values or specs) are passed
to the op wrapper as they are.  A spec object used twice in one case is the same Var.  Var specs
get names in order of first appearance (x, y, z, w, u, v, a, b, ...) unless they are given one.

run_case(case, api) builds the call with the wrapper relax.op.<name> of `api` (apache-tvm or
tether, see tvm_api / tether_api), normalizes it inside a BlockBuilder function whose params are
the case's Vars, and returns what a user sees: the printed call and inferred type, or the error's
stage ("construct": the wrapper raised; "normalize": inference raised), class name and text.
Nothing here imports apache-tvm or tether.
"""
import re

_NAMES = ["x", "y", "z", "w", "u", "v", "a", "b", "c", "d", "e", "g", "h", "p", "q", "r", "s", "t"]
_IDENT = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")


def _fmt(v):
    """Canonical text of a plain value or spec (for case keys)."""
    if isinstance(v, Spec):
        return v.describe()
    if isinstance(v, list):
        return "[" + ", ".join(_fmt(i) for i in v) + "]"
    if isinstance(v, tuple):
        return "(" + ", ".join(_fmt(i) for i in v) + ("," if len(v) == 1 else "") + ")"
    return repr(v)


def _dims_text(shape):
    return "None" if shape is None else _fmt(tuple(shape))


class Spec:
    """Base of argument specs."""

    def describe(self):
        raise NotImplementedError

    def build(self, ctx):
        raise NotImplementedError

    def walk(self):
        """Specs nested in this one (for naming Vars in order)."""
        return ()


class VarSpec(Spec):
    """A parameter Var; named when its case is made."""

    def __init__(self, name=None):
        self.name = name
        self._seen = False

    def ty_text(self):
        raise NotImplementedError

    def describe(self):
        if self._seen:
            return self.name
        self._seen = True
        return f"{self.name}: {self.ty_text()}"

    def make_type(self, ctx):
        raise NotImplementedError

    def build(self, ctx):
        var = ctx.vars.get(id(self))
        if var is None:
            name = f"{self.name}{len(ctx.params)}" if ctx.unique_names else self.name
            var = ctx.api.relax.Var(name, self.make_type(ctx))
            ctx.vars[id(self)] = var
            ctx.params.append(var)
        return var


class TensorTy(Spec):
    """relax.TensorType(shape, dtype, ndim=)."""

    def __init__(self, shape=None, dtype="float32", ndim=-1):
        self.shape, self.dtype, self.ndim = shape, dtype, ndim

    def describe(self):
        nd = "" if self.ndim == -1 or self.shape is not None else f", ndim={self.ndim}"
        return f"Tensor({_dims_text(self.shape)}, {self.dtype!r}{nd})"

    def build(self, ctx):
        shape = None if self.shape is None else [ctx.dim(d) for d in self.shape]
        return ctx.api.tensor_type(shape, self.dtype, self.ndim)


class ShapeTy(Spec):
    """relax.ShapeType(values, ndim=)."""

    def __init__(self, values=None, ndim=-1):
        self.values, self.ndim = values, ndim

    def describe(self):
        nd = "" if self.ndim == -1 or self.values is not None else f", ndim={self.ndim}"
        return f"ShapeType({_dims_text(self.values)}{nd})"

    def build(self, ctx):
        values = None if self.values is None else [ctx.dim(d) for d in self.values]
        return ctx.api.relax.ShapeType(values, self.ndim)


class PrimTy(Spec):
    """PrimType(dtype)."""

    def __init__(self, dtype):
        self.dtype = dtype

    def describe(self):
        return f"PrimType({self.dtype!r})"

    def build(self, ctx):
        return ctx.api.prim_type(self.dtype)


class TupleTy(Spec):
    """TupleType([field types])."""

    def __init__(self, *fields):
        self.fields = fields

    def describe(self):
        return "TupleType(" + ", ".join(f.describe() for f in self.fields) + ")"

    def build(self, ctx):
        return ctx.api.relax.TupleType([f.build(ctx) for f in self.fields])


class AnyTy(Spec):
    """AnyType()."""

    def describe(self):
        return "AnyType()"

    def build(self, ctx):
        return ctx.api.relax.AnyType()


class Tensor(VarSpec):
    """A parameter Var of TensorType."""

    def __init__(self, shape=None, dtype="float32", ndim=-1, name=None):
        super().__init__(name)
        self.ty = TensorTy(shape, dtype, ndim)

    def ty_text(self):
        return self.ty.describe()

    def make_type(self, ctx):
        return self.ty.build(ctx)


class ShapeVar(VarSpec):
    """A parameter Var of ShapeType."""

    def __init__(self, values=None, ndim=-1, name=None):
        super().__init__(name)
        self.ty = ShapeTy(values, ndim)

    def ty_text(self):
        return self.ty.describe()

    def make_type(self, ctx):
        return self.ty.build(ctx)


class PrimVar(VarSpec):
    """A parameter Var of PrimType."""

    def __init__(self, dtype="int64", name=None):
        super().__init__(name)
        self.ty = PrimTy(dtype)

    def ty_text(self):
        return self.ty.describe()

    def make_type(self, ctx):
        return self.ty.build(ctx)


class TupleVar(VarSpec):
    """A parameter Var of TupleType."""

    def __init__(self, *fields, name=None):
        super().__init__(name)
        self.ty = TupleTy(*fields)

    def ty_text(self):
        return self.ty.describe()

    def make_type(self, ctx):
        return self.ty.build(ctx)


class AnyVar(VarSpec):
    """A parameter Var of AnyType."""

    def __init__(self, name=None):
        super().__init__(name)

    def ty_text(self):
        return "AnyType()"

    def make_type(self, ctx):
        return ctx.api.relax.AnyType()


class Shape(Spec):
    """A ShapeExpr literal."""

    def __init__(self, values):
        self.values = values

    def describe(self):
        return f"Shape({_dims_text(self.values)})"

    def build(self, ctx):
        return ctx.api.relax.ShapeExpr([ctx.dim(d) for d in self.values])


class Prim(Spec):
    """An IntImm / FloatImm (value int or float, with dtype) or a symbolic PrimExpr (value str)."""

    def __init__(self, value, dtype=None):
        self.value, self.dtype = value, dtype

    def describe(self):
        return f"Prim({self.value!r}" + (f", {self.dtype!r})" if self.dtype else ")")

    def build(self, ctx):
        if isinstance(self.value, str):
            return ctx.dim(self.value)
        if isinstance(self.value, float) or (self.dtype or "").startswith(("float", "bfloat")):
            return ctx.api.float_imm(self.dtype or "float32", float(self.value))
        return ctx.api.int_imm(self.dtype or "int64", self.value)


class Const(Spec):
    """relax.const(value, dtype)."""

    def __init__(self, value, dtype=None):
        self.value, self.dtype = value, dtype

    def describe(self):
        return f"Const({self.value!r}, {self.dtype!r})"

    def build(self, ctx):
        return ctx.api.relax.const(self.value, self.dtype)


class Tup(Spec):
    """A relax.Tuple of specs."""

    def __init__(self, *items):
        self.items = items

    def describe(self):
        return "Tup(" + ", ".join(_fmt(i) for i in self.items) + ")"

    def walk(self):
        return self.items

    def build(self, ctx):
        return ctx.api.relax.Tuple([ctx.resolve(i) for i in self.items])


class GVar(Spec):
    """A GlobalVar."""

    def __init__(self, name):
        self.name = name

    def describe(self):
        return f"GVar({self.name!r})"

    def build(self, ctx):
        return ctx.api.relax.GlobalVar(self.name)


class Callee(Spec):
    """A GlobalVar bound (in the case's BlockBuilder module) to a Relax function taking params of
    the given types and returning its first param (an empty tuple without params): a callee
    with a FuncType, as call_tir needs."""

    def __init__(self, name, *param_tys):
        self.name, self.param_tys = name, param_tys

    def describe(self):
        return f"Callee({self.name!r}" + "".join(", " + t.describe() for t in self.param_tys) + ")"

    def build(self, ctx):
        relax = ctx.api.relax
        params = [relax.Var(f"p{i}", t.build(ctx)) for i, t in enumerate(self.param_tys)]
        body = params[0] if params else relax.Tuple([])
        return ctx.bb.add_func(relax.Function(params, body), self.name)


def _var_specs(value, out):
    if isinstance(value, VarSpec):
        if all(v is not value for v in out):
            out.append(value)
    elif isinstance(value, Spec):
        for i in value.walk():
            _var_specs(i, out)
    elif isinstance(value, (list, tuple)):
        for i in value:
            _var_specs(i, out)
    elif isinstance(value, dict):
        for i in value.values():
            _var_specs(i, out)


class Case:
    """One op call: op name, argument specs, keyword specs; key is its canonical text."""

    def __init__(self, op, args, kwargs, note=""):
        self.op, self.args, self.kwargs, self.note = op, tuple(args), dict(kwargs), note
        self.xfail_reason = None
        specs = []
        _var_specs(self.args, specs)
        _var_specs(self.kwargs, specs)
        used = {s.name for s in specs if s.name}
        names = (n for n in _NAMES + [f"x{i}" for i in range(100)] if n not in used)
        for s in specs:
            if s.name is None:
                s.name = next(names)
        for s in specs:
            s._seen = False
        parts = [_fmt(a) for a in self.args] + [f"{k}={_fmt(v)}" for k, v in self.kwargs.items()]
        self.key = f"{op}({', '.join(parts)})"
        for s in specs:
            s._seen = False

    def xfail(self, reason):
        """Mark tether's result for this case as a known difference (the reason says which)."""
        self.xfail_reason = reason
        return self

    def __repr__(self):
        return self.key


def case(op, *args, **kwargs):
    """A Case calling relax.op.<op>(*args, **kwargs)."""
    return Case(op, args, kwargs)


class Missing(Exception):
    """The side has no wrapper for the op."""


class Ctx:
    """What one build needs: the side's api, its BlockBuilder, the Vars made so far (the
    params, in order) and the symbolic dims by name.  unique_names: Vars are named by their
    spec's name plus a counter (for programs that combine several cases)."""

    def __init__(self, api, unique_names=False):
        self.api = api
        self.unique_names = unique_names
        self.bb = api.relax.BlockBuilder()
        self.vars = {}
        self.params = []
        self.syms = {}

    def dim(self, d):
        if isinstance(d, str):
            ns = {}
            for name in _IDENT.findall(d):
                if name not in self.syms:
                    self.syms[name] = self.api.sym(name)
                ns[name] = self.syms[name]
            return eval(d, {"__builtins__": {}}, ns)  # noqa: S307 (the case tables' own text)
        return d

    def resolve(self, v):
        if isinstance(v, Spec):
            return v.build(self)
        if isinstance(v, list):
            return [self.resolve(i) for i in v]
        if isinstance(v, tuple):
            return tuple(self.resolve(i) for i in v)
        return v


def lookup(api, op):
    """The wrapper relax.op.<op> of a side, or raise Missing."""
    f = api.relax.op
    for part in op.split("."):
        f = getattr(f, part, None)
        if f is None:
            raise Missing(f"relax.op.{op}")
    return f


def _error(stage, ex):
    return {"stage": stage, "kind": type(ex).__name__, "text": str(ex)}


def run_case(c, api):
    """Build and normalize one case with `api`; the result as a JSON-ready dict."""
    fn = lookup(api, c.op)
    ctx = Ctx(api)
    try:
        args = [ctx.resolve(a) for a in c.args]
        kwargs = {k: ctx.resolve(v) for k, v in c.kwargs.items()}
    except Exception as ex:  # the case's own values could not be built on this side
        return {"error": _error("args", ex)}
    try:
        call = fn(*args, **kwargs)
    except Exception as ex:
        return {"error": _error("construct", ex)}
    printed = str(call)
    bb = ctx.bb
    out = {"call": printed}
    try:
        with bb.function("f", list(ctx.params)):
            e = bb.normalize(call)
            out["type"] = str(e.ty)
            bb.emit_func_output(ctx.params[0] if ctx.params else e)
    except Exception as ex:
        if "type" in out:
            return out
        return {"call": printed, "error": _error("normalize", ex)}
    return out
