"""tvm-ffi's JSON object graph from Python (the names of ``tvm_ffi.serialization``).

The graph keeps shared references: a value met twice is one node, so it reads back as one
object.  Both functions call libtether's globals ``ffi.ToJSONGraphString`` and
``ffi.FromJSONGraphString``; their text is the text apache-tvm-ffi writes for the same
values.
"""
from __future__ import annotations

from . import core

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Optional

__all__ = ["from_json_graph_str", "to_json_graph_str"]

_to_json_graph_str = core.get_global_func("ffi.ToJSONGraphString")
_from_json_graph_str = core.get_global_func("ffi.FromJSONGraphString")


def to_json_graph_str(obj: Any, metadata: Optional[Any] = None) -> str:
    """The JSON graph text of `obj`; `metadata` (any JSON value: dict, list, str, number)
    is stored under "metadata" when given.  TypeError for an object type that cannot be
    written (no creator and no ``__data_to_json__``), ValueError for a cycle."""
    return _to_json_graph_str(obj, metadata)


def from_json_graph_str(json_str: str) -> Any:
    """The value a JSON graph text describes.  ValueError (naming the node) for malformed
    text or graphs, TypeError for a field of the wrong type or a missing required field."""
    return _from_json_graph_str(json_str)
