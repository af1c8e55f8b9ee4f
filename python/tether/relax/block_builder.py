"""BlockBuilder: builds Relax functions into an IRModule, with TVM's context managers.

    bb = relax.BlockBuilder()
    with bb.function("main", [x, w]):
        with bb.dataflow():
            lv = bb.emit(relax.op.nn.conv2d(x, w))
            gv = bb.emit_output(relax.op.nn.relu(lv))
        bb.emit_func_output(gv)
    mod = bb.get()

All the work (scopes, normalization and type inference, the name supply "lv", "lv1", ...;
"gv", "gv1", ..., function dedup) is done in C by the relax.BlockBuilder* globals; this class
only shapes the Python side: scopes as context managers, lists as Tuples, `current()`.
"""
from __future__ import annotations

import threading

from .. import core
from ..ir import BaseFunc, Expr, GlobalVar, IRModule, Type, Var
from ..registry import register_object

# Typing names for annotations only.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Dict, Optional, Sequence, Union

__all__ = ["BlockBuilder", "FunctionScope", "DataflowScope"]

_g = core.get_global_func
_create = _g("relax.BlockBuilderCreate")
_begin_function = _g("relax.BlockBuilderBeginFunction")
_end_function = _g("relax.BlockBuilderEndFunctionWithoutOutput")
_begin_dataflow = _g("relax.BlockBuilderBeginDataflow")
_end_dataflow = _g("relax.BlockBuilderEndDataflow")
_emit = _g("relax.BlockBuilderEmit")
_emit_output = _g("relax.BlockBuilderEmitOutput")
_match_cast = _g("relax.BlockBuilderMatchCast")
_emit_func_output = _g("relax.BlockBuilderEmitFuncOutput")
_normalize = _g("relax.BlockBuilderNormalize")
_get_module = _g("relax.BlockBuilderGetModule")
_add_function = _g("relax.BlockBuilderAddFunction")
_unique_name = _g("relax.BlockBuilderGetUniqueName")
_is_dataflow = _g("relax.BlockBuilderCurrentBlockIsDataflow")
_lookup_binding = _g("relax.BlockBuilderLookupBinding")
_update_function = _g("relax.BlockBuilderUpdateFunction")
_begin_scope = _g("relax.BlockBuilderBeginScope")
_end_scope = _g("relax.BlockBuilderEndScope")
_finalize = _g("relax.BlockBuilderFinalize")

_NO_TE = ("tether has no TE (tvm.te tensor expressions) and no TIR lowering, so "
          "BlockBuilder.{} is not available; build the computation from relax ops "
          "(relax.op.*) and bb.emit instead")

# The builders whose function scopes are open, innermost last (per thread).
_scopes = threading.local()


def _stack() -> list:
    s = getattr(_scopes, "stack", None)
    if s is None:
        s = _scopes.stack = []
    return s


def _params_list(params: Any) -> Optional[list]:
    """None, a Var, or a sequence of Vars -> None or a list (C checks the elements)."""
    if params is None:
        return None
    if isinstance(params, Var):
        return [params]
    if isinstance(params, (list, tuple)):
        return list(params)
    fields = getattr(params, "fields", None)  # a relax.Tuple of Vars
    if fields is not None:
        return list(fields)
    raise TypeError("function parameters must be a Var, a list of Vars or None, but got "
                    f"{type(params).__name__}")


class FunctionScope:
    """`with bb.function(...)`: opens a function scope; on a normal exit emit_func_output
    must have been called (RuntimeError otherwise)."""

    __slots__ = ("_bb", "_name", "_params", "_attrs", "_pure", "_private")

    def __init__(self, bb: "BlockBuilder", name: str, params: Optional[list],
                 attrs: Optional[dict], pure: bool, private: bool) -> None:
        self._bb, self._name, self._params = bb, name, params
        self._attrs, self._pure, self._private = attrs, pure, private

    def __enter__(self) -> "FunctionScope":
        _begin_function(self._bb, self._name, self._params, self._attrs, self._pure,
                        self._private)
        _stack().append(self._bb)
        return self

    def __exit__(self, exc_type, exc, tb) -> bool:
        stack = _stack()
        if stack and stack[-1] is self._bb:
            stack.pop()
        if exc_type is None:
            _end_function(self._bb, True)
        else:
            try:  # close the scope; the body's exception is the one to report
                _end_function(self._bb, False)
            except Exception:
                pass
        return False


class DataflowScope:
    """`with bb.dataflow()`: bindings emitted inside go to a DataflowBlock."""

    __slots__ = ("_bb",)

    def __init__(self, bb: "BlockBuilder") -> None:
        self._bb = bb

    def __enter__(self) -> "DataflowScope":
        _begin_dataflow(self._bb)
        return self

    def __exit__(self, exc_type, exc, tb) -> bool:
        if exc_type is None:
            _end_dataflow(self._bb)
        else:
            try:
                _end_dataflow(self._bb)
            except Exception:
                pass
        return False


@register_object("relax.BlockBuilder")
class BlockBuilder(core.Object):
    """BlockBuilder(mod=None): builds Relax functions into `mod` (a new IRModule by default).

    Methods as in TVM: function, dataflow, emit, emit_output, match_cast, emit_func_output,
    normalize, add_func, update_func, get, finalize, get_unique_name, lookup_binding,
    begin_scope, end_scope, current_block_is_dataflow, and BlockBuilder.current().
    emit_te / call_te need TE, which tether does not have: they raise NotImplementedError."""

    __slots__ = ()

    def __init__(self, mod: Optional[IRModule] = None) -> None:
        self.__init_handle_by_constructor__(_create, mod)

    @staticmethod
    def current() -> Optional["BlockBuilder"]:
        """The builder of the innermost open `with bb.function(...)` scope, or None."""
        s = _stack()
        return s[-1] if s else None

    def function(self, name: str, params: Union[Var, Sequence[Var], None] = None,
                 attrs: Optional[Dict[str, Any]] = None, pure: bool = True,
                 private: bool = False) -> FunctionScope:
        """A scope building function `name` with `params` (or give them to emit_func_output).
        Unless private, attrs["global_symbol"] = name."""
        return FunctionScope(self, name, _params_list(params), attrs, pure, private)

    def dataflow(self) -> DataflowScope:
        """A scope whose bindings form a DataflowBlock."""
        return DataflowScope(self)

    def emit(self, expr: Any, name_hint: str = "") -> Var:
        """Normalize expr (nested calls become their own bindings; types inferred) and bind it
        to a fresh var ("lv" DataflowVar inside a dataflow block, "gv" Var outside).  A list
        or tuple becomes a relax.Tuple."""
        return _emit(self, expr, name_hint)

    def emit_output(self, output: Any, name_hint: str = "") -> Var:
        """Inside a dataflow block: bind output to a non-dataflow Var ("gv")."""
        return _emit_output(self, output, name_hint)

    def match_cast(self, value: Expr, ty: Type, name_hint: str = "") -> Var:
        """Bind value to a fresh var of type ty through MatchCast."""
        return _match_cast(self, value, ty, name_hint)

    def emit_func_output(self, output: Any,
                         params: Union[Var, Sequence[Var], None] = None) -> GlobalVar:
        """Finish the current function with `output` (a list becomes a Tuple), add it to the
        module (a structurally equal function added before is reused) and return its
        GlobalVar.  params: only when the scope was opened without them."""
        return _emit_func_output(self, output, _params_list(params))

    def normalize(self, expr: Expr) -> Expr:
        """Fill in types (binding nested calls in the current block).  A Call whose arguments
        are already normalized gets its ty written in place and is returned itself."""
        return _normalize(self, expr)

    def add_func(self, func: BaseFunc, func_name: str) -> GlobalVar:
        """Add func under a fresh name from func_name (or return the GlobalVar of a
        structurally equal function added before)."""
        return _add_function(self, func, func_name)

    def update_func(self, gv: GlobalVar, updated_func: BaseFunc) -> None:
        """Replace the function bound to gv (gv is added if the module lacks it).  As in TVM,
        gv.ty is left as it was, and add_func(updated_func) now returns gv."""
        _update_function(self, gv, updated_func)

    def get(self) -> IRModule:
        """The module built so far."""
        return _get_module(self)

    def finalize(self) -> IRModule:
        """The module built (the object get() returns), after checking that public functions
        have distinct global_symbols named like their GlobalVars (InternalError otherwise).
        As in TVM, a function scope still open is not an error: its function is not in the
        module yet."""
        return _finalize(self)

    def begin_scope(self, params: Optional[Sequence[Var]] = None) -> None:
        """Open a scope in which the symbolic vars defined by the params' types (a bare dim
        such as `n` in R.Tensor((n, 4))) are known: If types built while it is open keep them
        (others are erased).  Close it with end_scope()."""
        _begin_scope(self, _params_list(params))

    def end_scope(self) -> None:
        """Close the scope opened by begin_scope (RuntimeError if there is none)."""
        _end_scope(self)

    def emit_te(self, func: Any, *args: Any, **kwargs: Any) -> Var:
        """Not available: tether has no TE."""
        raise NotImplementedError(_NO_TE.format("emit_te"))

    def call_te(self, func: Any, *args: Any, **kwargs: Any) -> Expr:
        """Not available: tether has no TE."""
        raise NotImplementedError(_NO_TE.format("call_te"))

    def get_unique_name(self, name_prefix: str) -> str:
        """A fresh name from this builder's name supply ("." becomes "_")."""
        return str(_unique_name(self, name_prefix))

    def current_block_is_dataflow(self) -> bool:
        """Whether the innermost open block is a DataflowBlock."""
        return bool(_is_dataflow(self))

    def lookup_binding(self, var: Var) -> Optional[Expr]:
        """The value bound to var by this builder, or None."""
        return _lookup_binding(self, var)
