"""tether.ir: the IR nodes shared by Relax and primitive (shape) expressions, the op registry
handle `Op`, modules, and structural equality / hashing.

The IR itself is C (libtether_ir, reached only through FFI globals and reflection).  Importing
this module loads libtether_ir once per process (its load-time constructor registers the node
types and the `ir.*` / `relax.*` / `prim.*` globals), then binds Python classes to the node type
keys with register_object, so fields read generically through reflection (`call.op`,
`call.args`, `call.attrs.strides`, `var.name`, `var.ty`) and `print(node)` shows the
printer's TVMScript.  Constructors only forward to the C constructor globals ("ir.Var",
"ir.Call", ...): a node built here is the very C object, never a copy.

Class names follow TVM's layout: tether.ir.Var is tether.relax.Var (as tvm.ir.Var is
tvm.relax.Var), likewise Call, Tuple, TupleGetItem, GlobalVar, TupleType, PrimType.
"""
from __future__ import annotations

import ctypes
import os

from . import core
from .registry import register_object
from .error import register_error

# Typing names for annotations only.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Optional, Sequence, Union

__all__ = [
    "InternalError", "Node", "Expr", "Type", "Attrs", "DictAttrs", "Var", "Constant",
    "IntImm", "FloatImm", "StringImm", "DataTypeImm", "GenericConst", "Add", "Sub", "Mul",
    "FloorDiv", "FloorMod", "Min", "Max", "EQ", "NE", "LT", "LE", "GT", "GE", "BitwiseAnd",
    "BitwiseOr", "BitwiseXor", "LShift", "RShift", "BitwiseNot", "EqualOp", "NotEqualOp", "Op", "Call", "Tuple", "TupleGetItem", "GlobalVar",
    "BaseFunc", "IRModule", "SourceMap", "TupleType", "PrimType", "StringType", "structural_equal",
    "structural_hash", "assert_structural_equal", "load_library", "save_json", "load_json",
]


# ---- loading libtether_ir -----------------------------------------------------------------

_LIB_NAME = "libtether_ir.so"
_lib = None  # the ctypes handle, kept for the life of the process


def _candidate_paths():
    """Where libtether_ir.so may be, in order: $TETHER_IR_LIBRARY, the installed package's
    tether/lib (next to libtether.so.0), and the directory of the libtether that tether.core
    actually loaded (a plain CMake build tree keeps both libraries side by side)."""
    env = os.environ.get("TETHER_IR_LIBRARY")
    if env:
        yield env
    try:
        from . import libinfo

        yield os.path.join(libinfo.find_libdir(), _LIB_NAME)
    except Exception:  # an unusual layout: fall through to the runtime's own directory
        pass
    try:
        yield os.path.join(os.path.dirname(os.path.realpath(core._lib_path())), _LIB_NAME)
    except Exception:
        pass


def load_library() -> None:
    """Load libtether_ir into the process (once).  A no-op when its globals already exist (the
    library was loaded by someone else, e.g. linked into the host program)."""
    global _lib
    if _lib is not None or core.get_global_func("ir.Var", True) is not None:
        return
    tried = []
    for path in _candidate_paths():
        if path in tried:
            continue
        tried.append(path)
        if not os.path.isfile(path):
            continue
        # RTLD_LOCAL: nothing of tether enters the process's global symbol scope, where
        # libtether's TVMFFI* names would shadow apache-tvm-ffi's for every library loaded
        # later.  Its DT_NEEDED libtether.so.0 resolves to the runtime tether.core already
        # loaded (matched by SONAME).  C extensions written against include/tether/ir/ir.h
        # link libtether_ir.so (DT_NEEDED, matched by SONAME to this copy) for trx_*.
        _lib = ctypes.CDLL(path, mode=os.RTLD_LOCAL | os.RTLD_NOW)
        if core.get_global_func("ir.Var", True) is None:
            raise ImportError(f"tether.ir: {path} loaded but registered no IR globals")
        return
    raise ImportError("tether.ir: cannot find " + _LIB_NAME + " (tried: " + ", ".join(tried) +
                      "); set TETHER_IR_LIBRARY to its path")


load_library()


# ---- errors -------------------------------------------------------------------------------

@register_error("InternalError")
class InternalError(RuntimeError):
    """An internal check of the IR failed (TVM's ICHECK): kind "InternalError"."""


# ---- globals ------------------------------------------------------------------------------

_g = core.get_global_func
_print = _g("ir.Print")
_save_json = _g("ir.SaveJSON")
_var = _g("ir.Var")
_int_imm = _g("ir.IntImm")
_float_imm = _g("ir.FloatImm")
_string_imm = _g("ir.StringImm")
_datatype_imm = _g("ir.DataTypeImm")
_generic_const = _g("ir.GenericConst")
_call = _g("ir.Call")
_tuple = _g("ir.Tuple")
_tuple_get_item = _g("ir.TupleGetItem")
_global_var = _g("ir.GlobalVar")
_ir_module = _g("ir.IRModule")
_dict_attrs = _g("ir.DictAttrs")
_tuple_type = _g("ir.TupleType")
_prim_type = _g("ir.PrimType")
_string_type = _g("ir.StringType")
_op_get = _g("ir.Op.get")
_prim = {name: _g("prim." + name)
         for name in ("Add", "Sub", "Mul", "FloorDiv", "FloorMod", "Min", "Max")}
_op = {name: _g("prim._Op" + name)
       for name in ("Add", "Sub", "Mul", "FloorDiv", "FloorMod", "EQ", "NE", "LT", "LE", "GT", "GE")}
_op.update({name: _g("prim." + name) for name in ("bitwise_and", "bitwise_or", "bitwise_xor",
                                                  "left_shift", "right_shift", "bitwise_not")})
_structural_equal = _g("ir.StructuralEqual")
_structural_hash = _g("ir.StructuralHash")
_assert_structural_equal = _g("ir.AssertStructuralEqual")
_first_mismatch = _g("ir.GetFirstStructuralMismatch")


# ---- base classes ---------------------------------------------------------------------------

class Node(core.Object):
    """Base of every IR node: script() / show() print TVMScript; repr() and print(node) give
    the printer's default text (through the types' __ffi_repr__)."""

    __slots__ = ()

    def script(self, *, show_meta: bool = False, verbose_expr: bool = False,
               show_all_ty: bool = True, **_ignored) -> str:
        """The TVMScript text.  show_meta: start with the line
        `metadata = tvm.ir.load_json(...)` holding the objects the text refers to as
        metadata["..."][i] (constants), as TVM prints it, instead of ending with the comment
        "# Metadata omitted. ..."; verbose_expr: also print the definitions of free variables;
        show_all_ty: annotate every binding (False hides annotations inference reproduces).
        Other TVM printer options are accepted and ignored."""
        return str(_print(self, verbose_expr, show_all_ty, show_meta))

    def show(self, style=None, black_format=None, **kwargs) -> None:
        """Print script(**kwargs)."""
        print(self.script(**kwargs))



@register_object("ir.Expr")
class Expr(Node):
    """An expression; `ty` is its type (None until inferred; read-only).  On primitive
    expressions (a PrimType ty) Python's operators build TVM's prim expressions, folding
    constants only: n * 2 + 1, n // 4, n % 4, -n (n * -1), n < m, n <= m, n > m, n >= m,
    n & m, n | m, n ^ m, n << 1, n >> 1, ~n; n + 0 is n, 2 + 3 is 5, n // 0 raises.  n == m and
    n != m give an EqualOp / NotEqualOp whose truth is identity (asobject() builds the EQ /
    NE node).  `/` on integers raises as in TVM (use //), ** is not defined, and an Expr has no
    truth value (ValueError)."""

    __slots__ = ()
    __hash__ = core.Object.__hash__

    def _is_prim(self) -> bool:
        return isinstance(self.ty, PrimType)

    def __eq__(self, other):
        if not self._is_prim():
            return core.Object.__eq__(self, other)
        return EqualOp(self, other)

    def __ne__(self, other):
        if not self._is_prim():
            return core.Object.__ne__(self, other)
        return NotEqualOp(self, other)

    def __lt__(self, other): return _op["LT"](self, other) if self._is_prim() else NotImplemented
    def __le__(self, other): return _op["LE"](self, other) if self._is_prim() else NotImplemented
    def __gt__(self, other): return _op["GT"](self, other) if self._is_prim() else NotImplemented
    def __ge__(self, other): return _op["GE"](self, other) if self._is_prim() else NotImplemented
    def __and__(self, other): return _op["bitwise_and"](self, other)
    def __rand__(self, other): return _op["bitwise_and"](other, self)
    def __or__(self, other): return _op["bitwise_or"](self, other)
    def __ror__(self, other): return _op["bitwise_or"](other, self)
    def __xor__(self, other): return _op["bitwise_xor"](self, other)
    def __rxor__(self, other): return _op["bitwise_xor"](other, self)
    def __lshift__(self, other): return _op["left_shift"](self, other)
    def __rlshift__(self, other): return _op["left_shift"](other, self)
    def __rshift__(self, other): return _op["right_shift"](self, other)
    def __rrshift__(self, other): return _op["right_shift"](other, self)
    def __invert__(self): return _op["bitwise_not"](self)

    def __add__(self, other): return _op["Add"](self, other)
    def __radd__(self, other): return _op["Add"](other, self)
    def __sub__(self, other): return _op["Sub"](self, other)
    def __rsub__(self, other): return _op["Sub"](other, self)
    def __mul__(self, other): return _op["Mul"](self, other)
    def __rmul__(self, other): return _op["Mul"](other, self)
    def __floordiv__(self, other): return _op["FloorDiv"](self, other)
    def __rfloordiv__(self, other): return _op["FloorDiv"](other, self)
    def __mod__(self, other): return _op["FloorMod"](self, other)
    def __rmod__(self, other): return _op["FloorMod"](other, self)
    def __neg__(self): return _op["Mul"](self, -1)

    def __truediv__(self, other):
        raise RuntimeError(_DIV_AMBIGUITY)

    def __rtruediv__(self, other):
        raise RuntimeError(_DIV_AMBIGUITY)

    def __bool__(self):
        raise ValueError("Cannot use and / or / not operator to Expr, hint: use tvm.tirx.all / "
                         "tvm.tirx.any, if it is None checking, use node is not None")

    def __getitem__(self, index: int) -> "Expr":
        """Element `index` of a tuple-valued expression: TupleGetItem(self, index).  As in TVM
        this works before the expression is typed (an op call the BlockBuilder has not
        normalized yet: `relax.op.unique(x, ...)[0]`) and on tuple-typed values."""
        ty = self.ty
        if ty is not None and not isinstance(ty, TupleType):
            raise TypeError(f"{type(self).__name__}: only a tuple-valued expression can be "
                            f"indexed; this one has type {ty}")
        return TupleGetItem(self, index)


class EqualOp:
    """a == b on primitive expressions (as TVM's): true when a and b are the same object;
    asobject() builds the EQ node (two constants fold to a bool IntImm)."""

    __slots__ = ("a", "b")
    _OP = "EQ"

    def __init__(self, a: Any, b: Any) -> None:
        self.a, self.b = a, b

    def __bool__(self) -> bool:
        return isinstance(self.b, core.Object) and self.a.same_as(self.b)

    def asobject(self) -> Expr:
        return _op[self._OP](self.a, self.b)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.a!r}, {self.b!r})"


class NotEqualOp(EqualOp):
    """a != b on primitive expressions: true unless a and b are the same object; asobject()
    builds the NE node."""

    __slots__ = ()
    _OP = "NE"

    def __bool__(self) -> bool:
        return not EqualOp.__bool__(self)


_DIV_AMBIGUITY = ("TVM supports multiple types of integer divisions, please call div, "
                  "indexdiv/indexmod, floordiv/floormod  or truncdiv/truncmod directly to avoid "
                  "ambiguity in the code.")


@register_object("ir.Type")
class Type(Node):
    """A type (Relax types: TensorType, ShapeType, TupleType, AnyType, PrimType, FuncType)."""

    __slots__ = ()


@register_object("ir.Attrs")
class Attrs(Node):
    """Attributes of an op call (each op's attrs type has reflected fields in TVM's order)."""

    __slots__ = ()


@register_object("ir.SourceMap")
class SourceMap(core.Object):
    """The source map of an IRModule (its `source_map` field): a Map, empty in modules tether
    builds; kept so that a module's JSON graph is the one TVM reads and writes."""

    __slots__ = ()


@register_object("ir.DictAttrs")
class DictAttrs(Attrs):
    """String-keyed attributes (function attrs).  Reads like a read-only dict."""

    __slots__ = ()

    def __init__(self, values: Optional[dict] = None) -> None:
        self.__init_handle_by_constructor__(_dict_attrs, values)

    def _dict(self):
        # The reflected field is named "__dict__" (as in TVM), which cannot become a class
        # attribute; the field values are read through core._object_fields instead.
        fields = core._object_fields(self)
        for i in range(0, len(fields), 2):
            if fields[i] == "__dict__":
                return fields[i + 1]
        raise AttributeError("DictAttrs: no __dict__ field")

    # Defined here so that reflection does not try to install the "__dict__" field itself.
    __dict__ = property(_dict)

    def __getitem__(self, key: str) -> Any:
        return self._dict()[key]

    def __contains__(self, key: str) -> bool:
        return key in self._dict()

    def __len__(self) -> int:
        return len(self._dict())

    def keys(self):
        return self._dict().keys()

    def items(self):
        return self._dict().items()

    def get(self, key: str, default: Any = None) -> Any:
        d = self._dict()
        return d[key] if key in d else default


# ---- expressions ------------------------------------------------------------------------------

@register_object("ir.Var")
class Var(Expr):
    """Var(name, ty=None, span=None, *, name_hint=None): a variable (Relax and symbolic).

    ty is a Type, or a dtype string such as "int64" for a primitive (symbolic dimension)
    variable of PrimType; anything else raises TypeError.  Fields: name, ty."""

    __slots__ = ()

    def __init__(self, name: Optional[str] = None, ty: Union[Type, str, None] = None,
                 span: Any = None, *, name_hint: Optional[str] = None) -> None:
        if name is None:
            name = name_hint if name_hint is not None else ""
        self.__init_handle_by_constructor__(_var, name, ty)

    @property
    def name_hint(self) -> str:
        return self.name


@register_object("ir.Constant")
class Constant(Expr):
    """Base of constants: IntImm, FloatImm, StringImm, DataTypeImm, GenericConst."""

    __slots__ = ()


@register_object("ir.IntImm")
class IntImm(Constant):
    """IntImm(dtype, value): an integer constant (ty = PrimType(dtype)); int(imm) is its value."""

    __slots__ = ()

    def __init__(self, dtype: str, value: int, span: Any = None) -> None:
        self.__init_handle_by_constructor__(_int_imm, dtype, value)

    def __int__(self) -> int:
        return int(self.value)

    def __index__(self) -> int:
        return int(self.value)

    # As TVM's IntImm: == / != build (or fold to) the EQ / NE expression, the truth value is
    # value != 0, the hash the value.
    def __eq__(self, other):
        return _op["EQ"](self, other)

    def __ne__(self, other):
        return _op["NE"](self, other)

    def __bool__(self) -> bool:
        return int(self.value) != 0

    def __hash__(self) -> int:
        return int(self.value)


@register_object("ir.FloatImm")
class FloatImm(Constant):
    """FloatImm(dtype, value): a floating-point constant."""

    __slots__ = ()

    def __init__(self, dtype: str, value: float, span: Any = None) -> None:
        self.__init_handle_by_constructor__(_float_imm, dtype, value)

    def __float__(self) -> float:
        return float(self.value)


@register_object("ir.StringImm")
class StringImm(Constant):
    """StringImm(value): a string constant (prints R.str("..."))."""

    __slots__ = ()

    def __init__(self, value: str, span: Any = None) -> None:
        self.__init_handle_by_constructor__(_string_imm, value)


@register_object("ir.DataTypeImm")
class DataTypeImm(Constant):
    """DataTypeImm(value): a dtype constant (prints R.dtype("float32"))."""

    __slots__ = ()

    def __init__(self, value: str, span: Any = None) -> None:
        self.__init_handle_by_constructor__(_datatype_imm, value)


@register_object("ir.GenericConst")
class GenericConst(Constant):
    """GenericConst(data, ty=None): a tensor constant (relax.const builds one)."""

    __slots__ = ()

    def __init__(self, data: Any, ty: Optional[Type] = None, span: Any = None) -> None:
        self.__init_handle_by_constructor__(_generic_const, data, ty)

    @property
    def data(self) -> Any:
        return self.value


def _binop_class(key: str, name: str, doc: str) -> type:
    ctor = _g(key)

    def __init__(self, a: Any, b: Any, span: Any = None) -> None:
        self.__init_handle_by_constructor__(ctor, a, b)

    cls = type(name, (Expr,), {"__slots__": (), "__init__": __init__, "__doc__": doc,
                               "__module__": __name__, "__qualname__": name})
    return register_object(key)(cls)


Add = _binop_class("prim.Add", "Add", "Add(a, b): a + b on int64 shape expressions.")
Sub = _binop_class("prim.Sub", "Sub", "Sub(a, b): a - b.")
Mul = _binop_class("prim.Mul", "Mul", "Mul(a, b): a * b.")
FloorDiv = _binop_class("prim.FloorDiv", "FloorDiv", "FloorDiv(a, b): floor(a / b).")
FloorMod = _binop_class("prim.FloorMod", "FloorMod", "FloorMod(a, b): a - floor(a / b) * b.")
Min = _binop_class("prim.Min", "Min", "Min(a, b).")
Max = _binop_class("prim.Max", "Max", "Max(a, b).")
EQ = _binop_class("prim.EQ", "EQ", "EQ(a, b): a == b (a bool expression).")
NE = _binop_class("prim.NE", "NE", "NE(a, b): a != b.")
LT = _binop_class("prim.LT", "LT", "LT(a, b): a < b.")
LE = _binop_class("prim.LE", "LE", "LE(a, b): a <= b.")
GT = _binop_class("prim.GT", "GT", "GT(a, b): a > b.")
GE = _binop_class("prim.GE", "GE", "GE(a, b): a >= b.")
BitwiseAnd = _binop_class("prim.BitwiseAnd", "BitwiseAnd", "BitwiseAnd(a, b): a & b.")
BitwiseOr = _binop_class("prim.BitwiseOr", "BitwiseOr", "BitwiseOr(a, b): a | b.")
BitwiseXor = _binop_class("prim.BitwiseXor", "BitwiseXor", "BitwiseXor(a, b): a ^ b.")
LShift = _binop_class("prim.LShift", "LShift", "LShift(a, b): a << b.")
RShift = _binop_class("prim.RShift", "RShift", "RShift(a, b): a >> b.")


@register_object("prim.BitwiseNot")
class BitwiseNot(Expr):
    """BitwiseNot(a): ~a."""

    __slots__ = ()

    def __init__(self, a: Any, span: Any = None) -> None:
        self.__init_handle_by_constructor__(_g("prim.BitwiseNot"), a)


@register_object("ir.Op")
class Op(Expr):
    """A registered primitive operator ("relax.nn.conv2d", ...).  Op.get(name) returns the
    one registered Op (structural equality compares names).  Fields: name, attrs_type_key,
    num_inputs."""

    __slots__ = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("Op cannot be constructed; use Op.get(name)")

    @staticmethod
    def get(op_name: str) -> "Op":
        """The Op registered as `op_name`; AttributeError if there is none."""
        return _op_get(op_name)



@register_object("ir.Call")
class Call(Expr):
    """Call(op, args, attrs=None, ty_args=None, span=None, ret_ty=None): a call of an Op
    (a str op is looked up with Op.get), a GlobalVar or another callee expression.  attrs: an
    Attrs object, or a dict (becomes DictAttrs).  Fields: op, args, attrs, ty_args, ty (None
    until the BlockBuilder normalizes it, unless ret_ty is given)."""

    __slots__ = ()

    def __init__(self, op: Union[Expr, str], args: Sequence[Expr], attrs: Any = None,
                 ty_args: Optional[Sequence[Type]] = None, span: Any = None,
                 ret_ty: Union[Type, str, None] = None) -> None:
        self.__init_handle_by_constructor__(_call, op, list(args), attrs,
                                            list(ty_args) if ty_args is not None else [])
        if ret_ty is not None:  # (ty is read-only to users, as in TVM)
            Expr.__dict__["ty"].set(self, PrimType(ret_ty) if isinstance(ret_ty, str) else ret_ty)


@register_object("ir.Tuple")
class Tuple(Expr):
    """Tuple(fields): a tuple expression; its ty is set when every field is typed."""

    __slots__ = ()

    def __init__(self, fields: Sequence[Expr], span: Any = None) -> None:
        self.__init_handle_by_constructor__(_tuple, list(fields))

    def __getitem__(self, index: int) -> Expr:
        return self.fields[index]

    def __len__(self) -> int:
        return len(self.fields)


@register_object("ir.TupleGetItem")
class TupleGetItem(Expr):
    """TupleGetItem(tuple_value, index): element `index` of a tuple expression."""

    __slots__ = ()

    def __init__(self, tuple_value: Expr, index: int, span: Any = None) -> None:
        self.__init_handle_by_constructor__(_tuple_get_item, tuple_value, index)


@register_object("ir.GlobalVar")
class GlobalVar(Expr):
    """GlobalVar(name_hint): the name of a function in an IRModule."""

    __slots__ = ()

    def __init__(self, name_hint: str) -> None:
        self.__init_handle_by_constructor__(_global_var, name_hint)


@register_object("ir.BaseFunc")
class BaseFunc(Expr):
    """Base of functions (relax.Function, relax.ExternFunc)."""

    __slots__ = ()


@register_object("ir.IRModule")
class IRModule(Node):
    """IRModule(functions=None, attrs=None): functions keyed by GlobalVar (or name).

    mod["main"] / mod[gv] gives a function; `functions` maps GlobalVar -> function."""

    __slots__ = ()

    def __init__(self, functions: Optional[dict] = None, attrs: Any = None,
                 global_infos: Any = None) -> None:
        self.__init_handle_by_constructor__(_ir_module, functions, attrs)

    def get_global_var(self, name: str) -> GlobalVar:
        """The GlobalVar named `name`; ValueError if the module has none."""
        names = self.global_var_map_
        if name not in names:
            raise ValueError(f"Cannot find global var \"{name}\" in the Module")
        return names[name]

    def get_global_vars(self) -> list:
        """Every GlobalVar, sorted by name."""
        return sorted(self.functions.keys(), key=lambda gv: str(gv.name_hint))

    def functions_items(self) -> list:
        """(GlobalVar, function) pairs sorted by name."""
        return sorted(self.functions.items(), key=lambda kv: str(kv[0].name_hint))

    def __getitem__(self, var: Union[str, GlobalVar]) -> BaseFunc:
        if isinstance(var, str):
            var = self.get_global_var(var)
        return self.functions[var]

    def __contains__(self, var: Union[str, GlobalVar]) -> bool:
        if isinstance(var, str):
            return var in self.global_var_map_
        return var in self.functions

    def __len__(self) -> int:
        return len(self.functions)

    def __iter__(self):
        return iter(self.get_global_vars())


# ---- types shared with Relax --------------------------------------------------------------

@register_object("ir.TupleType")
class TupleType(Type):
    """TupleType(fields): the type of a tuple (prints R.Tuple(...))."""

    __slots__ = ()

    def __init__(self, fields: Sequence[Type], span: Any = None) -> None:
        self.__init_handle_by_constructor__(_tuple_type, list(fields))


@register_object("ir.StringType")
class StringType(Type):
    """StringType(): the type of a StringImm (prints I.StringType())."""

    __slots__ = ()

    def __init__(self, span: Any = None) -> None:
        self.__init_handle_by_constructor__(_string_type)


@register_object("ir.PrimType")
class PrimType(Type):
    """PrimType(dtype): the type of a primitive scalar (e.g. a symbolic dimension, int64)."""

    __slots__ = ()

    def __init__(self, dtype: str, span: Any = None) -> None:
        self.__init_handle_by_constructor__(_prim_type, dtype)

    def __str__(self) -> str:  # as in TVM: str() is the dtype, repr() the TVMScript (T.int64)
        return str(self.dtype)

    # As in TVM (TensorType.dtype is a PrimType there too): equal to its dtype's name, and to
    # a structurally equal PrimType.
    def __eq__(self, other: Any) -> bool:
        if isinstance(other, str):
            return str(self.dtype) == other
        return isinstance(other, Type) and structural_equal(self, other)

    def __ne__(self, other: Any) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(str(self.dtype))


# ---- JSON ---------------------------------------------------------------------------------------

def save_json(node: Any) -> str:
    """The JSON graph text of `node` (any IR node, module or FFI value), with
    {"tvm_version": "0.27.0.post1"} under "metadata" as tvm.ir.save_json writes it: the
    apache-tvm release whose node schema tether writes (TRX_TVM_JSON_VERSION in
    include/tether/ir/ir.h), so that the text is byte for byte that release's for the same IR.
    TypeError for a value that cannot be written (a Function)."""
    return str(_save_json(node))


def load_json(json_str: str) -> Any:
    """The value a JSON graph text describes (what save_json, or TVM's save_json, wrote).
    Old type keys and field names are renamed first, as TVM's load_json does
    (tether.json_compact.upgrade_json).  ValueError for malformed text or graphs."""
    from .json_compact import upgrade_json
    from .serialization import from_json_graph_str

    return from_json_graph_str(upgrade_json(json_str))


# ---- structural equality ----------------------------------------------------------------------

def structural_equal(lhs: Any, rhs: Any, map_free_vars: bool = False) -> bool:
    """Whether lhs and rhs are structurally equal: fields compared recursively, variables
    mapped one to one at their definition points (function params, bindings), names ignored.
    A free variable equals only itself unless map_free_vars."""
    return bool(_structural_equal(lhs, rhs, map_free_vars))


def structural_hash(value: Any, map_free_vars: bool = False) -> int:
    """A hash consistent with structural_equal."""
    return int(_structural_hash(value, map_free_vars))


def get_first_structural_mismatch(lhs: Any, rhs: Any, map_free_vars: bool = False):
    """The access path ("<root>.args[0]...") of the first mismatch, or None if equal."""
    r = _first_mismatch(lhs, rhs, map_free_vars)
    return None if r is None else str(r)


def assert_structural_equal(lhs: Any, rhs: Any, map_free_vars: bool = False) -> None:
    """Raise ValueError naming the first mismatching path unless lhs and rhs are structurally
    equal."""
    _assert_structural_equal(lhs, rhs, map_free_vars)
