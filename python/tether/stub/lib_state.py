"""Reading the live registry: global functions and object types, grouped by prefix."""
from __future__ import annotations

import functools
import heapq
from typing import Dict, List

from ..core import TypeSchema, _lookup_or_register_type_info_from_type_key
from ..registry import get_global_func, get_global_func_metadata, list_global_func_names
from . import consts as C
from .utils import FuncInfo, NamedTypeSchema, ObjectInfo


def _warn(message: str) -> None:
    print(f"{C.TERM_YELLOW}[Skipped] {message}{C.TERM_RESET}")


@functools.lru_cache(maxsize=None)
def object_info_from_type_key(type_key: str) -> ObjectInfo:
    """The ObjectInfo of a registered type key (cached: the registry only grows)."""
    info = _lookup_or_register_type_info_from_type_key(str(type_key))
    if info is None or info.type_key != type_key:
        raise KeyError(f"object_info_from_type_key: {type_key!r} is not a registered type key")
    return ObjectInfo.from_type_info(info)


@functools.lru_cache(maxsize=None)
def _global_func_info(name: str) -> FuncInfo:
    schema = TypeSchema.from_json_str(get_global_func_metadata(name)["type_schema"])
    return FuncInfo(NamedTypeSchema(name, schema), is_member=False)


def _group_by_prefix(names) -> Dict[str, List[str]]:
    """``{"a.b": ["a.b.f", ...]}``: each dotted name under the part before its last dot."""
    groups: Dict[str, List[str]] = {}
    for name in names:
        prefix, dot, _ = name.rpartition(".")
        if dot:
            groups.setdefault(prefix, []).append(name)
    return groups


def collect_global_funcs() -> Dict[str, List[FuncInfo]]:
    """Every global function with a type schema, grouped by prefix and sorted by name.

    A name without a dot, or a function without a schema, is reported and left out.
    """
    out: Dict[str, List[FuncInfo]] = {}
    names = list(list_global_func_names())
    for name in names:
        if "." not in name:
            _warn(f"Invalid name in global function: {name}")
    for prefix, members in _group_by_prefix(names).items():
        infos = []
        for name in members:
            try:
                infos.append(_global_func_info(name))
            except Exception:  # noqa: BLE001 -- no or malformed metadata
                _warn(f"Function has no type schema: {name}")
        if infos:
            out[prefix] = sorted(infos, key=lambda f: f.schema.name)
    return out


def collect_type_keys() -> Dict[str, List[str]]:
    """Every registered object type key, grouped by prefix and sorted."""
    keys = get_global_func("ffi.GetRegisteredTypeKeys")()
    return {prefix: sorted(members) for prefix, members in _group_by_prefix(keys).items()}


def toposort_objects(type_keys: List[str]) -> List[ObjectInfo]:
    """The ObjectInfos of ``type_keys`` (duplicates dropped), each parent before its
    children; among the types ready at a time, the smallest key comes first."""
    infos = {key: object_info_from_type_key(key) for key in dict.fromkeys(type_keys)}
    waiting: Dict[str, List[str]] = {}  # parent key -> children in `infos`
    ready = []
    for key, info in infos.items():
        if info.parent_type_key in infos:
            waiting.setdefault(info.parent_type_key, []).append(key)
        else:
            ready.append(key)
    heapq.heapify(ready)
    order = []
    while ready:
        key = heapq.heappop(ready)
        order.append(infos[key])
        for child in waiting.pop(key, ()):
            heapq.heappush(ready, child)
    return order
