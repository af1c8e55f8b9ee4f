"""Reading JSON graphs written under older names (what ``tether.ir.load_json`` does first).

TVM renamed node types and fields over its releases; its ``load_json`` rewrites the old names
into the current ones before loading.  ``upgrade_json`` applies the renames that concern the
node types tether has:

- the Relax and primitive variable types ``relax.expr.Var`` and ``tirx.Var`` became ``ir.Var``;
- the field ``name_hint`` of ``ir.Var`` and ``relax.expr.DataflowVar`` became ``name``;
- the primitive arithmetic nodes ``tirx.Add`` ... ``tirx.Max`` became ``prim.Add`` ...
  (apache-tvm 0.27's own table renames them to ``ir.prim.Add`` ..., keys that neither it nor
  tether registers; ``prim.Add`` is the key both register).

Nodes keep their indices, so shared references stay shared.  The old graph format (a
top-level ``attrs`` and no ``metadata``) is refused with ValueError, as TVM does.  A text
that holds none of the old names is returned as it is, without being parsed: the scan for
old names reads the text once, so loading a current graph costs no extra parse.
"""
from __future__ import annotations

import json

__all__ = ["upgrade_json", "LEGACY_TYPE_KEYS"]

# Old type key -> current type key.
LEGACY_TYPE_KEYS = {
    "relax.expr.Var": "ir.Var",
    "tirx.Var": "ir.Var",
    "tirx.Add": "prim.Add",
    "tirx.Sub": "prim.Sub",
    "tirx.Mul": "prim.Mul",
    "tirx.FloorDiv": "prim.FloorDiv",
    "tirx.FloorMod": "prim.FloorMod",
    "tirx.Min": "prim.Min",
    "tirx.Max": "prim.Max",
}

# Variable types (after renaming) whose field `name_hint` is now `name`.
_VAR_TYPE_KEYS = ("ir.Var", "relax.expr.DataflowVar")
# The quoted type keys that may hold a `name_hint` to rename (old or current spelling).
_VAR_KEYS_QUOTED = tuple('"%s"' % k for k in _VAR_TYPE_KEYS + ("relax.expr.Var", "tirx.Var"))
# What every quoted old key starts with (one scan of the text each; a test checks that these
# cover LEGACY_TYPE_KEYS).
_LEGACY_KEY_PREFIXES = ('"tirx.', '"relax.expr.Var"')


def _type_key_near(text: str, pos: int, step: int) -> str:
    """The quoted value of the "type" member nearest before (step -1) or after (step 1) pos."""
    at = text.rfind('"type"', 0, pos) if step < 0 else text.find('"type"', pos)
    if at < 0:
        return ""
    colon = text.find(":", at + 6)
    start = text.find('"', colon + 1) if colon >= 0 else -1
    end = text.find('"', start + 1) if start >= 0 else -1
    return text[start:end + 1] if end >= 0 else ""


def _var_has_name_hint(text: str) -> bool:
    """Whether a variable node may carry the old field `name_hint`.  Other nodes (ir.GlobalVar)
    keep theirs; the node's "type" member is the nearest one before or after the field."""
    pos = text.find('"name_hint"')
    while pos >= 0:
        if (_type_key_near(text, pos, -1) in _VAR_KEYS_QUOTED or
                _type_key_near(text, pos, 1) in _VAR_KEYS_QUOTED):
            return True
        pos = text.find('"name_hint"', pos + 11)
    return False


def _needs_upgrade(text: str) -> bool:
    if '"root_index"' not in text:  # the old format, or not a graph: let the parse decide
        return True
    return any(p in text for p in _LEGACY_KEY_PREFIXES) or _var_has_name_hint(text)


def upgrade_json(json_str: str) -> str:
    """The JSON graph text `json_str` with old type keys and field names renamed to the
    current ones (the same text when there is nothing to rename).  ValueError for the old
    graph format or text that is not JSON."""
    if not isinstance(json_str, str):
        raise TypeError(f"upgrade_json: expected the JSON text as str, got {type(json_str).__name__}")
    if not _needs_upgrade(json_str):
        return json_str
    data = json.loads(json_str)
    if not isinstance(data, dict):
        raise ValueError("upgrade_json: a JSON graph is an object with root_index and nodes, "
                         f"got a JSON {type(data).__name__}")
    if "metadata" not in data and "attrs" in data:
        raise ValueError("Legacy json graph format detected, we don't support it anymore.")
    nodes = data.get("nodes")
    if isinstance(nodes, list):
        for node in nodes:
            if not isinstance(node, dict):
                continue
            key = node.get("type")
            if isinstance(key, str) and key in LEGACY_TYPE_KEYS:
                key = node["type"] = LEGACY_TYPE_KEYS[key]
            fields = node.get("data")
            if key in _VAR_TYPE_KEYS and isinstance(fields, dict):
                if "name_hint" in fields and "name" not in fields:
                    fields["name"] = fields.pop("name_hint")
    return json.dumps(data)
