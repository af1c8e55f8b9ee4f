"""Structural comparison, hashing and traversal of FFI values (Python names over libtether's
ffi.Structural* globals, src/ffi/structural.c, visit.c and mutate.c).

- structural_equal / structural_hash / get_first_structural_mismatch compare values by
  content (maps ignore order; variables compare by where they are defined);
- StructuralKey wraps a value so that Python dicts and ffi Maps key it by content;
- structural_walk / structural_visit traverse a value with callbacks chosen by type;
  structural_map / structural_mutate rebuild it, copying only what changes (a root passed
  as `value._move()` may be changed in place where nothing else shares it).

Callbacks are given as one callable (it matches everything), a `(type, fn)` entry, a
`((type1, type2, ...), fn)` entry, or a sequence of entries; the first entry whose type
matches a value is used.  A type is a Python builtin (int, float, bool, str, bytes, None),
a registered FFI class (its subclasses match too), or object / typing.Any (anything).
"""
from __future__ import annotations

import inspect
import typing
from enum import IntEnum
from typing import Any, Callable, List, Optional, Sequence, Tuple

from . import core
from .core import Object
from .registry import register_object

__all__ = [
    "DefRegionKind", "InplaceMode", "StructuralKey", "StructuralMutator", "StructuralVisitor",
    "VisitInterrupt", "WalkOrder", "WalkResult", "get_first_structural_mismatch",
    "structural_equal", "structural_hash", "structural_map", "structural_mutate",
    "structural_visit", "structural_walk",
]

_g = core.get_global_func
_UINT64 = (1 << 64) - 1


class WalkOrder(IntEnum):
    """Whether a walk or map runs a node's callback before (PREORDER) or after (POSTORDER)
    its children."""

    PREORDER = 0
    POSTORDER = 1


class WalkResult(IntEnum):
    """What a walk callback may return: ADVANCE into the children, or SKIP them (return a
    VisitInterrupt to stop the whole walk)."""

    ADVANCE = 0
    SKIP = 1


class InplaceMode(IntEnum):
    """The third argument of a structural_mutate callback that takes one: ALLOW when the
    value is owned only along the current path (it may be changed in place), else
    DISALLOW."""

    DISALLOW = 0
    ALLOW = 1


class DefRegionKind(IntEnum):
    """Where a traversal is with respect to definitions: not in one (NONE), in a field
    declared def-pattern, or in a field declared def-simple."""

    NONE = 0
    DEF_PATTERN = 1
    DEF_SIMPLE = 2


def structural_equal(lhs: Any, rhs: Any, map_free_vars: bool = False,
                     skip_tensor_content: bool = False) -> bool:
    """Whether two values are equal by structure.  map_free_vars: variables not defined
    inside the values may correspond to each other; skip_tensor_content: tensors compare
    by dtype and shape only."""
    return bool(_g("ffi.StructuralEqual")(lhs, rhs, map_free_vars, skip_tensor_content))


def structural_hash(value: Any, map_free_vars: bool = False,
                    skip_tensor_content: bool = False) -> int:
    """A hash consistent with structural_equal (same options), as an unsigned 64-bit int."""
    return int(_g("ffi.StructuralHash")(value, map_free_vars, skip_tensor_content)) & _UINT64


def get_first_structural_mismatch(lhs: Any, rhs: Any, map_free_vars: bool = False,
                                  skip_tensor_content: bool = False) -> Optional[Tuple[Any, Any]]:
    """None if the values are structurally equal, else the pair of AccessPaths (into lhs,
    into rhs) of the first place where they differ."""
    return _g("ffi.GetFirstStructuralMismatch")(lhs, rhs, map_free_vars, skip_tensor_content)


@register_object("ffi.StructuralKey")
class StructuralKey(Object):
    """A value with its structural hash computed once: `key` is the value, `hash_i64` the
    hash; two keys are equal when their values are structurally equal."""

    def __init__(self, key: Any) -> None:
        self.__init_handle_by_constructor__(_g("ffi.StructuralKey"), key)

    def __hash__(self) -> int:
        return int(self.hash_i64) & _UINT64

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, StructuralKey) and \
            bool(_g("ffi.StructuralKeyEqual")(self, other))

    def __ne__(self, other: Any) -> bool:
        return not self.__eq__(other)


@register_object("ffi.VisitInterrupt")
class VisitInterrupt(Object):
    """Returned by a traversal callback to stop the traversal; the traversal returns it,
    with its `value` (any payload)."""

    def __init__(self, value: Any = None) -> None:
        self.__init_handle_by_constructor__(_g("ffi.VisitInterrupt"), value)


@register_object("ffi.StructuralVisitor")
class StructuralVisitor(Object):
    """The traversal state a structural_visit callback receives."""

    def visit(self, value: Any) -> Optional[VisitInterrupt]:
        """Visit `value` as the traversal would: its callback if one matches, else the
        default descent into its children."""
        return _g("ffi.StructuralVisitorVisit")(self, value)

    def default_visit(self, value: Any) -> Optional[VisitInterrupt]:
        """Descend into the children of `value` without running a callback on it."""
        return _g("ffi.StructuralVisitorDefaultVisit")(self, value)

    def def_region_kind(self) -> DefRegionKind:
        return DefRegionKind(_g("ffi.StructuralVisitorDefRegionKind")(self))

    def with_def_region_kind(self, kind: int, callback: Callable[[], Any]) -> Any:
        """Run `callback()` with the def-region kind set to `kind`; its result."""
        return _g("ffi.StructuralVisitorWithDefRegionKind")(self, int(kind), callback)


@register_object("ffi.StructuralMutator")
class StructuralMutator(Object):
    """The traversal state a structural_mutate callback receives."""

    def mutate(self, value: Any) -> Any:
        """`value` mutated as the traversal would (its callback if one matches, else the
        default mutation of its children)."""
        return _g("ffi.StructuralMutatorMutate")(self, value)

    def default_mutate(self, value: Any) -> Any:
        """`value` with its children mutated, without running a callback on it."""
        return _g("ffi.StructuralMutatorDefaultMutate")(self, value)

    def var_remap_get(self, var: Object) -> Any:
        """What variable `var` was replaced by so far, or None."""
        return _g("ffi.StructuralMutatorVarRemapGet")(self, var)

    def var_remap_set(self, var: Object, mapped_value: Any) -> None:
        """Record that every later use of variable `var` becomes `mapped_value`."""
        _g("ffi.StructuralMutatorVarRemapSet")(self, var, mapped_value)

    def def_region_kind(self) -> DefRegionKind:
        return DefRegionKind(_g("ffi.StructuralMutatorDefRegionKind")(self))

    def with_def_region_kind(self, kind: int, callback: Callable[[], Any]) -> Any:
        """Run `callback()` with the def-region kind set to `kind`; its result."""
        return _g("ffi.StructuralMutatorWithDefRegionKind")(self, int(kind), callback)


# ---- callback tables ------------------------------------------------------------------------

# Python types that stand for an FFI type index (registered FFI classes carry their own
# __ffi_type_index__; the classes of tether.core below are matched by their type key).
_BUILTIN_INDEX = {
    type(None): 0, None: 0, int: 1, bool: 2, float: 3, str: 65, bytes: 66,
}
_CORE_TYPE_KEYS = (
    (core.Function, "ffi.Function"), (core.Tensor, "ffi.Tensor"), (core.Shape, "ffi.Shape"),
    (core.String, "ffi.String"), (core.Bytes, "ffi.Bytes"), (core.Object, "ffi.Object"),
)
_POD_INDEX = ((core.Device, 8), (core.dtype, 7))
_ANY_INDEX = -1


def _type_index_of(tp: Any, api: str) -> int:
    if tp is object or tp is Any:
        return _ANY_INDEX
    if tp in _BUILTIN_INDEX:
        return _BUILTIN_INDEX[tp]
    if isinstance(tp, type):
        info = tp.__dict__.get("__tvm_ffi_type_info__")  # a registered or @py_class class
        if info is not None:
            return info.type_index
        index = tp.__dict__.get("__ffi_type_index__")
        if isinstance(index, int) and index >= 0:
            return index
        for cls, key in _CORE_TYPE_KEYS:
            if tp is cls:
                return core._type_key_to_index(key)
        for cls, index in _POD_INDEX:
            if issubclass(tp, cls):
                return index
        info = getattr(tp, "__tvm_ffi_type_info__", None)  # a subclass of a registered class
        if info is not None:
            return info.type_index
        index = getattr(tp, "__ffi_type_index__", None)
        if isinstance(index, int) and index >= 0:
            return index
    origin = typing.get_origin(tp)
    if origin is not None and origin is not tp:  # Array[Var] and the like: the container
        return _type_index_of(origin, api)
    raise TypeError(f"{api}: a callback type must be a builtin (int, float, bool, str, bytes, "
                    f"None), typing.Any / object, or a registered FFI class; got {tp!r}")


def _entries(callbacks: Any, api: str) -> List[Tuple[Any, Callable[..., Any]]]:
    """(type, fn) pairs from the accepted callback forms, one pair per type."""
    def is_entry(x: Any) -> bool:
        return isinstance(x, tuple) and len(x) == 2 and callable(x[1])

    if callable(callbacks) and not isinstance(callbacks, tuple):
        groups = [(Any, callbacks)]
    elif is_entry(callbacks):
        groups = [callbacks]
    elif isinstance(callbacks, Sequence) and not isinstance(callbacks, (str, bytes)):
        groups = list(callbacks)
        for g in groups:
            if not is_entry(g):
                raise TypeError(f"{api}: each callback in a sequence must be a (type, callback) "
                                f"tuple, got {g!r}")
    else:
        raise TypeError(f"{api}: callbacks must be a callable, a (type, callback) entry, a "
                        f"((type, ...), callback) entry or a sequence of entries; got "
                        f"{callbacks!r}")
    out = []
    for types, fn in groups:
        for tp in (types if isinstance(types, tuple) else (types,)):
            out.append((tp, fn))
    return out


def _table(callbacks: Any, api: str,
           wrap: Optional[Callable[[Callable[..., Any]], Callable[..., Any]]] = None) -> list:
    return [(_type_index_of(tp, api), wrap(fn) if wrap else fn)
            for tp, fn in _entries(callbacks, api)]


def _order(order: Any, api: str) -> int:
    if isinstance(order, WalkOrder):
        return int(order)
    if order in ("pre", "post"):
        return int(WalkOrder.PREORDER if order == "pre" else WalkOrder.POSTORDER)
    raise ValueError(f"{api}: order must be a WalkOrder, 'pre' or 'post'; got {order!r}")


def _with_kind(fn: Callable[..., Any]) -> Callable[[Any, int], Any]:
    return lambda value, kind: fn(value, DefRegionKind(kind))


def _takes_inplace_mode(fn: Callable[..., Any]) -> bool:
    """Whether a structural_mutate callback takes (value, mutator, inplace_mode)."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):  # no signature to inspect: the two-argument form
        return False
    try:
        sig.bind(None, None, 0)
        return True
    except TypeError:
        pass
    try:
        sig.bind(None, None)
    except TypeError:
        raise TypeError("structural_mutate: a callback must take (value, mutator) or "
                        "(value, mutator, inplace_mode)") from None
    return False


def structural_walk(root: Any, callbacks: Any = (), with_def_region_kind: Any = (),
                    order: Any = "post") -> Optional[VisitInterrupt]:
    """Visit every value in `root` (each occurrence, as a tree), calling the matching
    callback: `fn(value)` from `callbacks`, `fn(value, DefRegionKind)` from
    `with_def_region_kind`.  A callback may return WalkResult.SKIP (in pre-order: do not
    enter the children) or a VisitInterrupt (stop; it is returned).  None when the walk
    completes."""
    api = "structural_walk"
    return _g("ffi.StructuralWalk")(root, _table(callbacks, api),
                                    _table(with_def_region_kind, api, _with_kind),
                                    _order(order, api))


def structural_visit(root: Any, callbacks: Any = ()) -> Optional[VisitInterrupt]:
    """Visit `root` with callbacks `fn(value, visitor)` that own the descent: a callback
    continues into children with visitor.visit(child) or visitor.default_visit(value);
    values no callback matches are descended into by default.  Returns the VisitInterrupt
    a callback returned, or None."""
    return _g("ffi.StructuralVisit")(root, _table(callbacks, "structural_visit"))


def structural_mutate(root: Any, callbacks: Any = ()) -> Any:
    """Rebuild `root` with callbacks `fn(value, mutator[, inplace_mode])` that own the
    mutation of what they match: the value a callback returns is final (it descends
    itself with mutator.mutate / mutator.default_mutate).  Unmatched values have their
    children mutated.  Returns the new value."""
    table = [(_type_index_of(tp, "structural_mutate"), fn, _takes_inplace_mode(fn))
             for tp, fn in _entries(callbacks, "structural_mutate")]
    return _g("ffi.StructuralMutate")(root, table)


def structural_map(root: Any, callbacks: Any = (), with_def_region_kind: Any = (),
                   order: Any = "post") -> Any:
    """Rebuild `root` bottom-up (order "post", the default) or top-down ("pre"), replacing
    each value a callback matches by what `fn(value)` (or `fn(value, DefRegionKind)`)
    returns; a callback returns its input to keep it, and must not change it in place.
    Unchanged parts are shared with `root`; a variable replaced once is replaced the same
    way everywhere.  Returns the new value."""
    api = "structural_map"
    return _g("ffi.StructuralMap")(root, _table(callbacks, api),
                                   _table(with_def_region_kind, api, _with_kind),
                                   _order(order, api))
