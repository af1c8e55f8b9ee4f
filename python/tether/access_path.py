"""Paths into a value, as structural comparison reports them: AccessPath (the steps from a
root to one place: attributes, array indices, map keys, or the "missing" forms of those
when one side of a comparison has no such element) and AccessStep (one step).

Both are the C types ffi.reflection.AccessPath / AccessStep of libtether (src/ffi/
access_path.c); the methods here are thin names over their reflected methods.
"""
from __future__ import annotations

from enum import IntEnum
from typing import Any, List

from .core import Object
from .registry import register_object

__all__ = ["AccessKind", "AccessPath", "AccessStep"]


class AccessKind(IntEnum):
    """What one step accesses (the values of the C enum tether_access_kind)."""

    ATTR = 0
    ARRAY_ITEM = 1
    MAP_ITEM = 2
    ATTR_MISSING = 3
    ARRAY_ITEM_MISSING = 4
    MAP_ITEM_MISSING = 5


@register_object("ffi.reflection.AccessStep")
class AccessStep(Object):
    """One step: `kind` (an AccessKind value) and `key` (field name, index or map key)."""


@register_object("ffi.reflection.AccessPath")
class AccessPath(Object):
    """A path from a root; build one with AccessPath.root() and the extending methods.
    `parent` is the path without its last `step`; `depth` counts the steps."""

    def __init__(self) -> None:
        raise ValueError("AccessPath cannot be constructed directly; start from "
                         "AccessPath.root()")

    @staticmethod
    def root() -> "AccessPath":
        """The empty path (the root value itself)."""
        return AccessPath._root()

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, AccessPath) and bool(self._path_equal(other))

    def __ne__(self, other: Any) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(tuple((int(s.kind), s.key) for s in self._to_steps()))

    def is_prefix_of(self, other: "AccessPath") -> bool:
        """Whether `other` starts with every step of this path (a path is its own prefix)."""
        return bool(self._is_prefix_of(other))

    def attr(self, attr_key: str) -> "AccessPath":
        """This path followed by the attribute `attr_key`."""
        return self._attr(attr_key)

    def attr_missing(self, attr_key: str) -> "AccessPath":
        """This path followed by an attribute `attr_key` that the value lacks."""
        return self._attr_missing(attr_key)

    def array_item(self, index: int) -> "AccessPath":
        """This path followed by element `index` of an array."""
        return self._array_item(index)

    def array_item_missing(self, index: int) -> "AccessPath":
        """This path followed by an element `index` past the end of an array."""
        return self._array_item_missing(index)

    def map_item(self, key: Any) -> "AccessPath":
        """This path followed by the value under `key` in a map."""
        return self._map_item(key)

    def map_item_missing(self, key: Any) -> "AccessPath":
        """This path followed by a key `key` that a map lacks."""
        return self._map_item_missing(key)

    def extend(self, step: AccessStep) -> "AccessPath":
        """This path followed by `step`."""
        return self._extend(step)

    def to_steps(self) -> List[AccessStep]:
        """The steps from the root, first step first."""
        return list(self._to_steps())
