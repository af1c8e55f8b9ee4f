"""Can an object's native layout be rebuilt from reflection?  The byte-level verdict.

A generator for a language with native structs (Rust) may hold an object by value only if
it can reproduce its bytes exactly.  The registry publishes each type's own ``sizeof``
(``ObjectInfo.total_size``) and each reflected field's size, alignment and offset, so the
question has one criterion:

    the type's own fields, by ascending offset, fill ``[parent.total_size, total_size)``
    with no gap other than the padding alignment forces.

Walking the fields from the parent's size, a field must start exactly at the cursor
rounded up to its alignment; at the end the cursor rounded up to the object's alignment
(the largest along the chain, the header's 8 included) must be ``total_size``.  The
criterion needs the type's own size (a type without metadata of its own reports its
parent's) and a complete parent.  A verdict is ``complete`` or ``opaque`` with a reason;
an opaque type is still bound, its fields read through the C ABI getters.

The caller injects the target's own rules: which fields it can mirror, which types it
vetoes, and which types it never mirrors at all (its runtime's builtins).
"""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import AbstractSet, Any, Callable, Dict, List, Literal, Mapping, Optional, Tuple

#: The alignment of the object header (its 64-bit reference counts): no object has less.
OBJECT_HEADER_ALIGNMENT = 8

#: Why a type is opaque:
#: ``layout-unknown``      no size of its own, or a field without byte facts;
#: ``parent-opaque``       the region to fill has no trustworthy start;
#: ``field-overlap``       a field starts before the cursor (in the parent's tail padding,
#:                         say) or the fields run past ``total_size``;
#: ``uncovered-bytes``     a gap alignment does not explain (an unreflected member, a vptr);
#: ``unrenderable-field``  the target cannot mirror one of the fields;
#: ``by-directive``        the target vetoed a reproducible layout;
#: ``no-mirror``           the target never mirrors this type (its runtime owns the bytes).
OpaqueReason = Literal["layout-unknown", "parent-opaque", "field-overlap", "uncovered-bytes",
                       "unrenderable-field", "by-directive", "no-mirror"]

# (reason, human-readable evidence) when a rule fails.
_Failure = Optional[Tuple[str, str]]


def align_up(value: int, alignment: int) -> int:
    """``value`` rounded up to a multiple of ``alignment``."""
    return -(-value // alignment) * alignment


@dataclasses.dataclass(frozen=True)
class ByteRange:
    """The half-open byte interval ``[start, end)``."""

    start: int
    end: int

    def __str__(self) -> str:
        return f"[{self.start}, {self.end})"

    def to_json_obj(self) -> List[int]:
        return [self.start, self.end]


@dataclasses.dataclass(frozen=True)
class FieldBytes:
    """Where one reflected field sits: its offset, size and alignment in bytes."""

    name: str
    offset: int
    size: int
    alignment: int

    @property
    def end(self) -> int:
        return self.offset + self.size

    def to_json_obj(self) -> Dict[str, Any]:
        return {"name": self.name, "offset": self.offset, "size": self.size,
                "alignment": self.alignment}


@dataclasses.dataclass
class Verdict:
    """The verdict on one type and the byte evidence for it.

    ``own_bytes`` is the region the type's own fields must fill, ``fields`` those fields by
    offset, ``padding`` the gaps alignment explains and ``uncovered`` the gaps it does not.
    ``alignment`` is the object's natural alignment, known once the chain above is complete.
    """

    type_key: str
    verdict: Literal["complete", "opaque"]
    reason: Optional[str]
    detail: str
    parent_type_key: Optional[str]
    ancestors: List[str]
    total_size: Optional[int]
    is_final: Optional[bool]
    alignment: Optional[int] = None
    own_bytes: Optional[ByteRange] = None
    fields: List[FieldBytes] = dataclasses.field(default_factory=list)
    uncovered: List[ByteRange] = dataclasses.field(default_factory=list)
    padding: List[ByteRange] = dataclasses.field(default_factory=list)

    @property
    def is_complete(self) -> bool:
        return self.verdict == "complete"

    def to_json_obj(self) -> Dict[str, Any]:
        """The report entry of this type (without any target-specific key)."""
        return {
            "verdict": self.verdict,
            "reason": self.reason,
            "detail": self.detail,
            "parent": self.parent_type_key,
            "ancestors": list(self.ancestors),
            "total_size": self.total_size,
            "is_final": self.is_final,
            "own_bytes": self.own_bytes.to_json_obj() if self.own_bytes else None,
            "fields": [f.to_json_obj() for f in self.fields],
            "uncovered": [r.to_json_obj() for r in self.uncovered],
            "padding": [r.to_json_obj() for r in self.padding],
        }


class _Classifier:
    """Classifies types parents first, memoising each verdict."""

    def __init__(self, infos: Mapping[str, Any], forced_opaque: AbstractSet[str],
                 unmirrored: AbstractSet[str],
                 field_renderable: Optional[Callable[[Any], bool]]) -> None:
        self.infos = infos
        self.forced_opaque = forced_opaque
        self.unmirrored = unmirrored
        self.field_renderable = field_renderable
        self.verdicts: Dict[str, Verdict] = {}

    def verdict_of(self, type_key: str) -> Verdict:
        if type_key in self.verdicts:
            return self.verdicts[type_key]
        if type_key not in self.infos:
            raise KeyError(f"Ancestor {type_key!r} is not among the types to classify")
        info = self.infos[type_key]
        parent = None
        if info.parent_type_key is not None:
            parent = self.verdict_of(info.parent_type_key)
        verdict = Verdict(type_key=type_key, verdict="opaque", reason=None, detail="",
                          parent_type_key=info.parent_type_key, ancestors=list(info.ancestors),
                          total_size=info.total_size, is_final=info.is_final)
        failure = self._judge(info, parent, verdict)
        if failure is None:
            verdict.verdict = "complete"
            verdict.detail = _complete_detail(verdict, parent)
        else:
            verdict.reason, verdict.detail = failure
        self.verdicts[type_key] = verdict
        return verdict

    def _judge(self, info: Any, parent: Optional[Verdict], verdict: Verdict) -> _Failure:
        """Apply the rules in order; record the evidence on ``verdict`` as it is found."""
        if info.type_key in self.unmirrored:
            return "no-mirror", "its bytes are owned by the target's runtime and never mirrored"
        if info.total_size is None:
            return "layout-unknown", "no metadata of its own: total_size is unknown"
        fields = []
        for f in info.fields:
            if None in (f.size, f.alignment, f.offset):
                return "layout-unknown", f"field {f.name!r} carries no native layout facts"
            fields.append(FieldBytes(f.name, f.offset, f.size, f.alignment))
        verdict.fields = sorted(fields, key=lambda f: f.offset)
        if parent is None:  # the root: the C ABI's own header, nothing to fill
            verdict.alignment = OBJECT_HEADER_ALIGNMENT
            verdict.own_bytes = ByteRange(info.total_size, info.total_size)
        elif not parent.is_complete:
            return "parent-opaque", f"parent {parent.type_key!r} is opaque ({parent.reason})"
        else:
            verdict.own_bytes = ByteRange(parent.total_size, info.total_size)
            verdict.alignment = max([parent.alignment] + [f.alignment for f in fields])
            failure = _fill(verdict)
            if failure is not None:
                return failure
        if self.field_renderable is not None:
            for f in info.fields:
                if not self.field_renderable(f):
                    return "unrenderable-field", f"field {f.name!r} ({f.repr()}) has no native mirror"
        if info.type_key in self.forced_opaque:
            return "by-directive", "vetoed by directive although the layout is reproducible"
        return None


def _complete_detail(verdict: Verdict, parent: Optional[Verdict]) -> str:
    if parent is None:
        return f"object header [0, {verdict.total_size}): owned by the C ABI"
    text = f"reflected fields fill {verdict.own_bytes} exactly"
    if verdict.padding:
        text += f" (alignment padding {', '.join(map(str, verdict.padding))})"
    return text


def _fill(verdict: Verdict) -> _Failure:
    """Walk the fields over ``own_bytes``, sorting each gap into padding or uncovered bytes.

    The first overlap wins over uncovered bytes as the reason.
    """
    region = verdict.own_bytes
    overlap = None
    cursor = region.start

    def gap(to: int, alignment: int) -> None:
        # A gap that ends where alignment alone puts the boundary is padding.
        if align_up(cursor, alignment) != to:
            verdict.uncovered.append(ByteRange(cursor, to))
        elif to != cursor:
            verdict.padding.append(ByteRange(cursor, to))

    for field in verdict.fields:
        if field.offset < cursor:
            if overlap is None:
                overlap = (f"field {field.name!r} at [{field.offset}, {field.end}) "
                           f"starts before byte {cursor}")
            cursor = max(cursor, field.end)
            continue
        gap(field.offset, field.alignment)
        cursor = field.end
    if cursor > region.end:
        overlap = overlap or f"fields extend to byte {cursor}, past total_size {region.end}"
    else:
        gap(region.end, verdict.alignment)
    if overlap is not None:
        return "field-overlap", overlap
    if verdict.uncovered:
        holes = ", ".join(map(str, verdict.uncovered))
        return "uncovered-bytes", (
            f"bytes {holes} of {region} are not accounted for by reflected fields")
    return None


def classify(infos: Mapping[str, Any], *, forced_opaque: AbstractSet[str] = frozenset(),
             unmirrored: AbstractSet[str] = frozenset(),
             field_renderable: Optional[Callable[[Any], bool]] = None) -> Dict[str, Verdict]:
    """The verdict of every type in ``infos`` (ObjectInfos by type key, any order; every
    ancestor must be present, else ``KeyError``).

    ``forced_opaque`` demotes a type that would otherwise be complete (``by-directive``);
    ``unmirrored`` types are opaque (``no-mirror``) before any evidence is weighed;
    ``field_renderable`` rejects a field the target cannot mirror (``unrenderable-field``),
    asked only of a type whose bytes are accounted for.
    """
    classifier = _Classifier(infos, forced_opaque, unmirrored, field_renderable)
    for type_key in infos:
        classifier.verdict_of(type_key)
    return classifier.verdicts


def coverage_report(verdicts: Mapping[str, Verdict]) -> Dict[str, Any]:
    """The JSON report: one entry per type key, sorted by key."""
    return {key: verdicts[key].to_json_obj() for key in sorted(verdicts)}


def write_coverage_report(path: Path, verdicts: Mapping[str, Verdict]) -> None:
    """Write ``coverage_report(verdicts)`` to ``path`` as indented JSON."""
    Path(path).write_text(json.dumps(coverage_report(verdicts), indent=2) + "\n",
                          encoding="utf-8")
