"""Array, List, Map, Dict: Python classes for the FFI containers ffi.Array (immutable
sequence), ffi.List (mutable sequence), ffi.Map (immutable mapping) and ffi.Dict (mutable
mapping).

They are subclasses of tether.core.CContainerBase (an Object that remembers the framework
of the call that returned it, so that a container returned for torch arguments hands out
torch tensors) registered for those type keys, so every container a C function returns
arrives as one of them.  Every operation is a call of an ffi.*
container global; elements come back converted like any result.  Python lists, tuples and
dicts passed as arguments become Arrays and Maps on their own; the constructors here make
containers explicitly: Array([1, 2]), List(), Map({"a": 1}), Dict(pairs).

Equality and hashing are structural (ffi.RecursiveEq / ffi.RecursiveHash, for the mutable
List and Dict too): an Array or List equals any non-string sequence with equal elements; a
Map or Dict compares only with a Map or Dict of its own kind (anything else gets
NotImplemented).  Slicing returns a list; missing keys raise KeyError(key), bad indices
IndexError, non-integer indices TypeError.  ``Array[int]``, ``Map[str, int]``, ... are
generic aliases whose origin is the class.
"""
from __future__ import annotations

import operator
from collections.abc import ItemsView, KeysView, Mapping, MutableMapping, MutableSequence, \
    Sequence, ValuesView

from . import core
from .registry import register_object

# Typing names for annotations only (not imported at run time: `import tether` stays fast).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Iterable, Iterator, List as _PyList, Tuple

__all__ = ["Array", "List", "Map", "Dict", "MISSING"]

_g = core.get_global_func
_array_new = _g("ffi.Array")
_array_get = _g("ffi.ArrayGetItem")
_array_size = _g("ffi.ArraySize")
_array_contains = _g("ffi.ArrayContains")
_list_new = _g("ffi.List")
_list_get = _g("ffi.ListGetItem")
_list_set = _g("ffi.ListSetItem")
_list_size = _g("ffi.ListSize")
_list_contains = _g("ffi.ListContains")
_list_append = _g("ffi.ListAppend")
_list_insert = _g("ffi.ListInsert")
_list_pop = _g("ffi.ListPop")
_list_erase = _g("ffi.ListErase")
_list_erase_range = _g("ffi.ListEraseRange")
_list_replace_slice = _g("ffi.ListReplaceSlice")
_list_reverse = _g("ffi.ListReverse")
_list_clear = _g("ffi.ListClear")
_map_new = _g("ffi.Map")
_map_size = _g("ffi.MapSize")
_map_count = _g("ffi.MapCount")
_map_get_or_missing = _g("ffi.MapGetItemOrMissing")
_map_iter = _g("ffi.MapForwardIterFunctor")
_dict_new = _g("ffi.Dict")
_dict_size = _g("ffi.DictSize")
_dict_count = _g("ffi.DictCount")
_dict_get_or_missing = _g("ffi.DictGetItemOrMissing")
_dict_set = _g("ffi.DictSetItem")
_dict_erase = _g("ffi.DictErase")
_dict_clear = _g("ffi.DictClear")
_dict_iter = _g("ffi.DictForwardIterFunctor")
_recursive_eq = _g("ffi.RecursiveEq")
_recursive_hash = _g("ffi.RecursiveHash")

# The sentinel object ffi.MapGetItemOrMissing returns for an absent key (one per process).
MISSING = _MISSING = core.MISSING


def _is_missing(value: Any) -> bool:
    return value is _MISSING or (isinstance(value, core.Object) and value.same_as(_MISSING))


def _index(container: Any, idx: Any, size: int) -> int:
    """`idx` as an in-range non-negative index (negative counts from the end)."""
    try:
        i = operator.index(idx)
    except TypeError:
        raise TypeError(f"{type(container).__name__} indices must be integers or slices, "
                        f"not {type(idx).__name__}") from None
    j = i + size if i < 0 else i
    if j < 0 or j >= size:
        raise IndexError(f"{type(container).__name__} index {i} out of range for size {size}")
    return j


def _seq_eq(a: Any, b: Any) -> Any:
    if a is b:
        return True
    if not (isinstance(b, type(a)) or isinstance(a, type(b))):
        if isinstance(b, (str, bytes, bytearray, Mapping)) or not isinstance(b, Sequence):
            return NotImplemented
        try:
            b = type(a)(b)  # a list, a tuple, or the other container kind
        except (TypeError, ValueError):
            return NotImplemented
    return bool(_recursive_eq(a, b))


def _map_eq(a: Any, b: Any) -> Any:
    if a is b:
        return True
    if not (isinstance(b, type(a)) or isinstance(a, type(b))):
        return NotImplemented
    return bool(_recursive_eq(a, b))


def _ne(a: Any, b: Any) -> Any:
    eq = a.__eq__(b)
    return eq if eq is NotImplemented else not eq


def _structural_hash(self: Any) -> int:
    return _recursive_hash(self)


def _seq_contains(seq: Any, value: Any, contains: Any) -> bool:
    """`value in seq`: the C search, then (for a plain sequence such as a tuple, which the
    C search sees as a new Array) an element-wise comparison."""
    if contains(seq, value):
        return True
    if isinstance(value, (str, bytes, bytearray, Mapping)) or not isinstance(value, Sequence):
        return False
    return any(isinstance(item, (Array, List)) and item == value for item in seq)


def _generic_alias(cls: type, params: Any) -> Any:
    import types

    return types.GenericAlias(cls, params)


def _mixin(abc_cls, names):
    """Class decorator: make `cls` a virtual subclass of `abc_cls` and give it the ABC's
    mixin methods `names` it does not define itself.  (Inheriting from the ABC is not
    possible: tether.core.Object has its own metaclass, which ABCMeta would conflict with.)"""
    def apply(cls):
        for name in names:
            if name not in cls.__dict__:
                setattr(cls, name, getattr(abc_cls, name))
        abc_cls.register(cls)
        return cls
    return apply


def _map_pairs(input_dict: Any) -> _PyList[Any]:
    """k0, v0, k1, v1, ... from a mapping (anything with items()) or an iterable of pairs."""
    if isinstance(input_dict, (Mapping, Map, Dict)) or hasattr(input_dict, "items"):
        items = input_dict.items()
    elif hasattr(input_dict, "__iter__"):
        items = input_dict
    else:
        raise AttributeError(f"{type(input_dict).__name__!r} object has no attribute 'items'")
    flat: _PyList[Any] = []
    for pair in items:
        k, v = pair
        flat.append(k)
        flat.append(v)
    return flat


@register_object("ffi.Array")
@_mixin(Sequence, ["index", "count", "__reversed__"])
class Array(core.CContainerBase):
    """Immutable sequence (ffi.Array).  ``Array(iterable=())``."""

    __slots__ = ()

    def __new__(cls, input_list: Iterable[Any] = ()) -> "Array":
        return _array_new(*input_list)

    def __init__(self, input_list: Iterable[Any] = ()) -> None:
        pass

    def __len__(self) -> int:
        return _array_size(self)

    def __getitem__(self, idx: Any) -> Any:
        if isinstance(idx, slice):
            return [_array_get(self, i) for i in range(*idx.indices(_array_size(self)))]
        return _array_get(self, _index(self, idx, _array_size(self)))

    def __iter__(self) -> Iterator[Any]:
        for i in range(_array_size(self)):
            yield _array_get(self, i)

    def __contains__(self, value: Any) -> bool:
        return _seq_contains(self, value, _array_contains)

    def __add__(self, other: Iterable[Any]) -> "Array":
        return _array_new(*self, *other)

    def __radd__(self, other: Iterable[Any]) -> "Array":
        return _array_new(*other, *self)

    def __bool__(self) -> bool:
        return _array_size(self) > 0

    __eq__ = _seq_eq
    __ne__ = _ne
    __hash__ = _structural_hash
    __class_getitem__ = classmethod(_generic_alias)


@register_object("ffi.List")
@_mixin(MutableSequence, ["index", "count", "__reversed__", "remove"])
class List(core.CContainerBase):
    """Mutable sequence (ffi.List).  ``List(iterable=())``."""

    __slots__ = ()

    def __new__(cls, input_list: Iterable[Any] = ()) -> "List":
        return _list_new(*input_list)

    def __init__(self, input_list: Iterable[Any] = ()) -> None:
        pass

    def __len__(self) -> int:
        return _list_size(self)

    def __getitem__(self, idx: Any) -> Any:
        if isinstance(idx, slice):
            return [_list_get(self, i) for i in range(*idx.indices(_list_size(self)))]
        return _list_get(self, _index(self, idx, _list_size(self)))

    def __iter__(self) -> Iterator[Any]:
        i = 0
        while i < _list_size(self):  # re-read: the list may change while iterated
            yield _list_get(self, i)
            i += 1

    def __contains__(self, value: Any) -> bool:
        return _seq_contains(self, value, _list_contains)

    def __bool__(self) -> bool:
        return _list_size(self) > 0

    def __setitem__(self, idx: Any, value: Any) -> None:
        if not isinstance(idx, slice):
            _list_set(self, _index(self, idx, _list_size(self)), value)
            return
        start, stop, step = idx.indices(_list_size(self))
        values = list(value)
        if step == 1:
            _list_replace_slice(self, start, max(start, stop), _list_new(*values))
            return
        targets = range(start, stop, step)
        if len(values) != len(targets):
            raise ValueError(f"attempt to assign sequence of size {len(values)} to extended "
                             f"slice of size {len(targets)}")
        for i, v in zip(targets, values):
            _list_set(self, i, v)

    def __delitem__(self, idx: Any) -> None:
        if not isinstance(idx, slice):
            _list_erase(self, _index(self, idx, _list_size(self)))
            return
        start, stop, step = idx.indices(_list_size(self))
        if step == 1:
            if stop > start:
                _list_erase_range(self, start, stop)
            return
        for i in sorted(range(start, stop, step), reverse=True):
            _list_erase(self, i)

    def insert(self, index: int, value: Any) -> None:
        """Insert before `index` (clamped to the list, like list.insert)."""
        size = _list_size(self)
        i = operator.index(index)
        i = max(0, i + size) if i < 0 else min(i, size)
        _list_insert(self, i, value)

    def append(self, value: Any) -> None:
        _list_append(self, value)

    def extend(self, values: Iterable[Any]) -> None:
        for v in list(values):  # a snapshot: `l.extend(l)` doubles once
            _list_append(self, v)

    def pop(self, index: int = -1) -> Any:
        size = _list_size(self)
        if size == 0:
            raise IndexError("pop from empty List")
        return _list_pop(self, _index(self, index, size))

    def clear(self) -> None:
        _list_clear(self)

    def reverse(self) -> None:
        _list_reverse(self)

    def __iadd__(self, values: Iterable[Any]) -> "List":
        self.extend(values)
        return self

    def __add__(self, other: Iterable[Any]) -> "List":
        return _list_new(*self, *other)

    def __radd__(self, other: Iterable[Any]) -> "List":
        return _list_new(*other, *self)

    __eq__ = _seq_eq
    __ne__ = _ne
    __hash__ = _structural_hash
    __class_getitem__ = classmethod(_generic_alias)


class _FFIItemsView(ItemsView):
    """items() of a Map/Dict: one pass of the C iterator, no lookup per key."""

    _mapping: Any

    def __iter__(self) -> Iterator[Tuple[Any, Any]]:
        return self._mapping._iter_items()


class _FFIValuesView(ValuesView):
    _mapping: Any

    def __iter__(self) -> Iterator[Any]:
        for _, v in self._mapping._iter_items():
            yield v


def _iter_pairs(mapping: Any, size_fn: Any, iter_fn: Any) -> Iterator[Tuple[Any, Any]]:
    # The functor protocol: it(0) = current key, it(1) = current value, it(2) = advance.
    n = size_fn(mapping)
    if n == 0:
        return
    it = iter_fn(mapping)
    for i in range(n):
        yield it(0), it(1)
        if i + 1 < n:
            it(2)


def _iter_keys(mapping: Any, size_fn: Any, iter_fn: Any) -> Iterator[Any]:
    n = size_fn(mapping)
    if n == 0:
        return
    it = iter_fn(mapping)
    for i in range(n):
        yield it(0)
        if i + 1 < n:
            it(2)


class _MapBase(core.CContainerBase):
    """The read side shared by Map and Dict; subclasses name their globals."""

    __slots__ = ()
    _size: Any
    _count: Any
    _get_or_missing: Any

    def __len__(self) -> int:
        return type(self)._size(self)

    def __getitem__(self, key: Any) -> Any:
        value = type(self)._get_or_missing(self, key)
        if _is_missing(value):
            raise KeyError(key)
        return value

    def get(self, key: Any, default: Any = None) -> Any:
        value = type(self)._get_or_missing(self, key)
        return default if _is_missing(value) else value

    def __contains__(self, key: Any) -> bool:
        return type(self)._count(self, key) > 0

    def keys(self) -> KeysView:
        return KeysView(self)

    def items(self) -> ItemsView:
        return _FFIItemsView(self)

    def values(self) -> ValuesView:
        return _FFIValuesView(self)

    def __bool__(self) -> bool:
        return type(self)._size(self) > 0

    __eq__ = _map_eq
    __ne__ = _ne
    __hash__ = _structural_hash
    __class_getitem__ = classmethod(_generic_alias)


@register_object("ffi.Map")
@_mixin(Mapping, [])
class Map(_MapBase):
    """Immutable mapping (ffi.Map).  ``Map(mapping_or_pairs=())``."""

    __slots__ = ()
    _size = _map_size
    _count = _map_count
    _get_or_missing = _map_get_or_missing

    def __new__(cls, input_dict: Any = ()) -> "Map":
        return _map_new(*_map_pairs(input_dict))

    # (each registered class defines its own __init__, or register_object installs one)
    def __init__(self, input_dict: Any = ()) -> None:
        pass

    def __iter__(self) -> Iterator[Any]:
        return _iter_keys(self, _map_size, _map_iter)

    def _iter_items(self) -> Iterator[Tuple[Any, Any]]:
        return _iter_pairs(self, _map_size, _map_iter)


@register_object("ffi.Dict")
@_mixin(MutableMapping, ["pop", "popitem", "setdefault", "update"])
class Dict(_MapBase):
    """Mutable mapping (ffi.Dict).  ``Dict(mapping_or_pairs=())``."""

    __slots__ = ()
    # MutableMapping.pop compares its default with this private sentinel of its class.
    _MutableMapping__marker = MutableMapping._MutableMapping__marker  # type: ignore
    _size = _dict_size
    _count = _dict_count
    _get_or_missing = _dict_get_or_missing

    def __new__(cls, input_dict: Any = ()) -> "Dict":
        return _dict_new(*_map_pairs(input_dict))

    # (each registered class defines its own __init__, or register_object installs one)
    def __init__(self, input_dict: Any = ()) -> None:
        pass

    def __setitem__(self, key: Any, value: Any) -> None:
        _dict_set(self, key, value)

    def __delitem__(self, key: Any) -> None:
        if _dict_count(self, key) == 0:
            raise KeyError(key)
        _dict_erase(self, key)

    def clear(self) -> None:
        _dict_clear(self)

    def __iter__(self) -> Iterator[Any]:
        # A snapshot of the keys: deleting while iterating must not walk freed slots.
        return iter(list(_iter_keys(self, _dict_size, _dict_iter)))

    def _iter_items(self) -> Iterator[Tuple[Any, Any]]:
        return iter(list(_iter_pairs(self, _dict_size, _dict_iter)))
