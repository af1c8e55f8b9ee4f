"""The Rust target's one-line directives: their grammar, and what a file collected.

A field is addressed as ``<type_key>.<field>``, a type as ``<type_key>``::

    // tvm-ffi-stubgen(field): tirx.Add.a -> PrimExpr          the field's Rust type
    // tvm-ffi-stubgen(nullable): ir.Expr.span                 wrap it in Option
    // tvm-ffi-stubgen(enum): tirx.For.kind -> ForKind(i32) { Serial=0, Parallel=1 }
    // tvm-ffi-stubgen(opaque): ir.SourceName                  never mirror the layout
    // tvm-ffi-stubgen(upcast): tirx.Add -> PrimExpr           one more typed view
    // tvm-ffi-stubgen(custom-new): tirx.Add                   `new` is hand-written

A ``field`` type is a name in scope or a ``::`` path to import; on an inherited field it
narrows the allocator's parameter.  ``enum`` declares an open integer newtype (the member
list is optional).  With ``custom-new`` the generated allocator is named ``from_fields``.
"""
from __future__ import annotations

import dataclasses
import re
from typing import Dict, List, Set, Tuple

_ENUM = re.compile(r"(?P<target>\S+)\s*->\s*(?P<name>[A-Za-z_]\w*)\((?P<repr>[iu](?:8|16|32|64))\)"
                   r"\s*(?:\{(?P<members>[^{}]*)\})?")
_MEMBER = re.compile(r"(?P<name>[A-Za-z_]\w*)\s*=\s*(?P<value>-?\d+)")

_FIELD = "<type_key>.<field>"
_TYPE = "<type_key>"
_ENUM_FORM = "<type_key>.<field> -> Name(i32) { A=0, B=1 }"


@dataclasses.dataclass(frozen=True)
class EnumSpec:
    """An ``enum`` directive: the newtype's name, its integer type, its named values."""

    name: str
    repr: str
    members: Tuple[Tuple[str, int], ...]


def _bad(name: str, lineno: int, form: str) -> ValueError:
    return ValueError(f"Invalid `{name}` directive at line {lineno}. Expected `{form}`")


def _type_ref(name: str, text: str, lineno: int) -> str:
    ref = text.strip()
    if not ref or " " in ref:
        raise _bad(name, lineno, _TYPE)
    return ref


def _field_ref(name: str, text: str, lineno: int) -> str:
    ref = text.strip()
    if not ref or " " in ref or "." not in ref.strip("."):
        raise _bad(name, lineno, _FIELD)
    return ref


def _arrow(name: str, payload: str, lineno: int, form: str) -> Tuple[str, str]:
    lhs, arrow, rhs = payload.partition("->")
    if not arrow or not rhs.strip():
        raise _bad(name, lineno, form)
    return lhs, rhs.strip()


@dataclasses.dataclass
class Directives:
    """One file's Rust directives, by ``<type_key>.<field>`` or ``<type_key>``."""

    field_types: Dict[str, str] = dataclasses.field(default_factory=dict)
    nullable: Set[str] = dataclasses.field(default_factory=set)
    enums: Dict[str, EnumSpec] = dataclasses.field(default_factory=dict)
    opaque: Set[str] = dataclasses.field(default_factory=set)
    upcasts: Dict[str, List[str]] = dataclasses.field(default_factory=dict)
    custom_new: Set[str] = dataclasses.field(default_factory=set)

    def add(self, name: str, payload: str, lineno: int) -> None:
        """Parse and record one directive; ``ValueError`` naming the line and the expected
        form for a malformed payload or an unknown name."""
        handler = getattr(self, "_add_" + name.replace("-", "_"), None)
        if handler is None:
            raise ValueError(f"Unknown directive `{name}` at line {lineno}")
        handler(payload, lineno)

    def _add_field(self, payload: str, lineno: int) -> None:
        lhs, rust_type = _arrow("field", payload, lineno, f"{_FIELD} -> <RustType>")
        self.field_types[_field_ref("field", lhs, lineno)] = rust_type

    def _add_nullable(self, payload: str, lineno: int) -> None:
        self.nullable.add(_field_ref("nullable", payload, lineno))

    def _add_enum(self, payload: str, lineno: int) -> None:
        match = _ENUM.fullmatch(payload.strip())
        if match is None:
            raise _bad("enum", lineno, _ENUM_FORM)
        members = []
        for item in filter(None, (m.strip() for m in (match["members"] or "").split(","))):
            member = _MEMBER.fullmatch(item)
            if member is None:
                raise _bad("enum", lineno, _ENUM_FORM)
            members.append((member["name"], int(member["value"])))
        target = _field_ref("enum", match["target"], lineno)
        self.enums[target] = EnumSpec(match["name"], match["repr"], tuple(members))

    def _add_opaque(self, payload: str, lineno: int) -> None:
        self.opaque.add(_type_ref("opaque", payload, lineno))

    def _add_upcast(self, payload: str, lineno: int) -> None:
        lhs, rust_type = _arrow("upcast", payload, lineno, f"{_TYPE} -> <RustType>")
        self.upcasts.setdefault(_type_ref("upcast", lhs, lineno), []).append(rust_type)

    def _add_custom_new(self, payload: str, lineno: int) -> None:
        self.custom_new.add(_type_ref("custom-new", payload, lineno))
