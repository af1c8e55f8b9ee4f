"""Rust ``use`` items, type spelling, identifiers, module paths and ``--check`` tokens."""
from __future__ import annotations

import dataclasses
import functools
import re
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Set, Tuple

from . import consts as RC
from .directives import Directives


@dataclasses.dataclass(frozen=True, init=False)
class RustUse:
    """A ``use <path>;`` item.  A dotted registry name becomes a ``::`` path, its namespace
    renamed through ``RUST_MOD_MAP`` (``ffi.String`` is ``tvm_ffi::String``)."""

    path: str

    def __init__(self, name: str) -> None:
        if "::" not in name and "." in name:
            head, _, rest = name.partition(".")
            name = f"{RC.RUST_MOD_MAP.get(head, head)}.{rest}"
        object.__setattr__(self, "path", name.replace(".", "::"))

    @property
    def leaf(self) -> str:
        """The name the item brings into scope."""
        return self.path.rpartition("::")[2]

    def as_use_line(self) -> str:
        """``use <path>;``, or ``""`` for a bare name (a primitive, a prelude type)."""
        return f"use {self.path};" if "::" in self.path else ""


def is_crate_type_key(type_key: str) -> bool:
    """Whether a crate binds ``type_key`` itself (every ``ffi.*`` key)."""
    return type_key.partition(".")[0] in RC.RUST_MOD_MAP


def _ident_segment(segment: str) -> str:
    return f"r#{segment}" if segment in RC.RUST_KEYWORDS else segment


@functools.lru_cache(maxsize=None)
def rust_module_path(path: Path) -> Tuple[str, ...]:
    """The module a ``.rs`` file is, from where it sits under its crate's ``src/``.

    The crate is the nearest directory above with a ``Cargo.toml``; ``src/lib.rs`` and
    ``src/main.rs`` are ``crate``, ``src/a/b.rs`` and ``src/a/b/mod.rs`` ``crate::a::b``
    (a keyword segment as a raw identifier).  ``ValueError`` for a file outside a crate's
    ``src/``.
    """
    path = Path(path).resolve()
    crate = next((d for d in path.parents if (d / "Cargo.toml").is_file()), None)
    if crate is None:
        raise ValueError(f"{path} is in no Cargo crate: no `Cargo.toml` above it")
    src = crate / "src"
    if src not in path.parents:
        raise ValueError(f"{path} is not under `{src}`, so it is in no module of the crate")
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] == "mod" or parts in (["lib"], ["main"]):
        parts.pop()
    return ("crate", *map(_ident_segment, parts))


def builtin_mirror_name(type_key: str) -> str:
    """The header-only stand-in struct of a builtin type (``ffi.IntEnum`` -> ``FfiIntEnumObj``)."""
    namespace, _, leaf = type_key.rpartition(".")
    return namespace.replace(".", "_").capitalize() + leaf + "Obj"


@dataclasses.dataclass
class RustImports:
    """One file's collector: its ``use`` items, its directives, the builtin stand-ins its
    objects embed (type key -> the base that stand-in embeds, root side first), and the
    names its own ``object/`` blocks define (no import may take one)."""

    items: List[RustUse] = dataclasses.field(default_factory=list)
    directives: Directives = dataclasses.field(default_factory=Directives)
    builtin_mirrors: Dict[str, str] = dataclasses.field(default_factory=dict)
    reserved: Set[str] = dataclasses.field(default_factory=set)

    def record(self, name: str) -> str:
        """Import ``name`` (once) and return how to spell it here: the leaf, or the full
        path when the leaf is already taken by another import or a local definition."""
        item = RustUse(name)
        if not item.as_use_line():
            return item.leaf
        if item in self.items:
            return item.leaf
        if item.leaf in self.reserved or any(other.leaf == item.leaf for other in self.items):
            return item.path
        self.items.append(item)
        return item.leaf

    def record_builtin_base(self, chain: List[str]) -> str:
        """Record stand-ins for the builtin ancestors ``chain`` (below ``ffi.Object``, root
        side first) and return the struct the object embeds (the crate's ``Object`` for an
        empty chain)."""
        base = self.record("tvm_ffi::Object")
        for key in chain:
            self.builtin_mirrors.setdefault(key, base)
            base = builtin_mirror_name(key)
        return base


TyRender = Callable[[str, Optional[str]], Optional[str]]


def _generic(head: Optional[str], *args: Optional[str]) -> Optional[str]:
    if head is None or None in args:
        return None
    return f"{head}<{', '.join(args)}>"


def render_rust_type(schema, ty_render: TyRender) -> Optional[str]:
    """``schema`` as a Rust value type, or ``None`` when it has none.

    ``ty_render(origin, type_key)`` names a leaf; ``type_key`` is the key the schema was
    parsed from when the schema folded it into ``origin`` (``ffi.BigInt`` into ``int``).
    """
    origin, args = schema.origin, schema.args
    if origin in RC.RUST_UNSUPPORTED_ORIGINS:
        return None
    if origin in ("Array", "List"):
        return _generic(ty_render(origin, None), render_rust_type(args[0], ty_render))
    if origin == "Map":
        return _generic(ty_render("Map", None), *(render_rust_type(a, ty_render) for a in args))
    if origin == "Optional":
        return _generic("Option", render_rust_type(args[0], ty_render))
    if origin == "Callable":  # the crate's Function is type-erased
        return ty_render("Callable", None)
    return ty_render(origin, schema.type_key)


# A module qualifier (`a::b::`, `::a::`) before a name, not itself after a word or `::`.
_QUALIFIER = re.compile(r"(?<![\w:])(?:::)?(?:[a-z_][a-z0-9_]*::)+(?=[A-Za-z_])")
_TOKEN = re.compile(r"\w+|\S")


def check_tokens(lines: Iterable[str]) -> Tuple[str, ...]:
    """The tokens of generated Rust that ``--check`` compares: ``use`` and comment lines,
    module qualifiers and commas before a closing bracket are dropped, so neither import
    paths nor rustfmt's wrapping make a file stale."""
    kept = (line.strip() for line in lines)
    text = " ".join(line for line in kept if not line.startswith(("use ", "//")))
    tokens = _TOKEN.findall(_QUALIFIER.sub("", text))
    return tuple(tok for tok, nxt in zip(tokens, tokens[1:] + [""])
                 if not (tok == "," and nxt in (")", "]", "}")))


def rust_ident(name: str) -> str:
    """A reflected field name as a Rust identifier.

    Two conventions are unwrapped: a C++ member's single trailing underscore
    (``imports_``) and a dunder (``__dict__``).  A keyword becomes a raw identifier; the
    keywords that cannot, and the generated structs' own ``base``, get a trailing ``_``.
    """
    if len(name) > 4 and name.startswith("__") and name.endswith("__"):
        name = name[2:-2]
    elif len(name) > 1 and name.endswith("_") and not name.endswith("__"):
        name = name[:-1]
    if name in RC.RUST_NOT_RAW_IDENTIFIERS or name in RC.RUST_RESERVED_MEMBERS:
        return name + "_"
    return f"r#{name}" if name in RC.RUST_KEYWORDS else name
