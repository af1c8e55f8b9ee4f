"""The language-neutral metadata of a stub run: options, functions, object types.

Everything here describes what the registry knows (signatures, fields with their byte
layout and defaults, init parameters, ancestry) and nothing about how a language spells
it; the generators under ``python_generator`` and ``rust_generator`` do the spelling.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Dict, List, Optional, Union

from ..core import MISSING, TypeSchema, _lookup_type_attr
from . import consts as C


def _schema_of(raw: Union[str, Dict[str, Any]]) -> TypeSchema:
    """A TypeSchema from its JSON text or its already decoded JSON object."""
    return TypeSchema.from_json_obj(raw) if isinstance(raw, dict) else TypeSchema.from_json_str(raw)


def _declared_schema(metadata: Any, unknown: str) -> TypeSchema:
    """The ``type_schema`` of a field's or method's metadata; a member registered without
    one has the schema ``unknown`` (``Any`` for a field, an untyped ``Callable`` for a
    method, which renders as ``(*args: Any) -> Any``)."""
    raw = metadata.get("type_schema") if metadata else None
    return TypeSchema(unknown) if raw is None else _schema_of(raw)


def _schema_init_kwargs(schema: TypeSchema) -> Dict[str, Any]:
    """The constructor arguments that rebuild ``schema`` (every field TypeSchema declares)."""
    if dataclasses.is_dataclass(TypeSchema):
        names = [f.name for f in dataclasses.fields(TypeSchema) if f.init]
    else:
        names = ["origin", "args", "named_args"]
    return {name: getattr(schema, name) for name in names if hasattr(schema, name)}


@dataclasses.dataclass
class InitConfig:
    """What ``--init`` scaffolds for: the distribution name of the Python package
    (``pkg``), the CMake target of its shared library (``shared_target``, whose file
    ``_FFI_LOAD_LIB`` loads), and the registry prefix to cover (``prefix``, e.g.
    ``my_ext.``)."""

    pkg: str
    shared_target: str
    prefix: str


@dataclasses.dataclass
class Options:
    """The options of one run, as the command line gives them."""

    imports: List[str] = dataclasses.field(default_factory=list)
    dlls: List[str] = dataclasses.field(default_factory=list)
    init: Optional[InitConfig] = None
    indent: int = 4
    files: List[str] = dataclasses.field(default_factory=list)
    verbose: bool = False
    dry_run: bool = False
    check: bool = False
    target: str = "python"
    coverage_out: Optional[str] = None


@dataclasses.dataclass(init=False)
class NamedTypeSchema(TypeSchema):
    """A TypeSchema with the name it is bound to (a function, a field, a parameter).

    For a reflected field it also carries the registry's facts about the native member:
    ``size``, ``alignment`` and ``offset`` (from the start of the object header) in bytes,
    the static ``default`` (``MISSING`` when none; ``default_is_factory`` when it is a
    factory to call), the structural-equality flag (``"ignore"``, ``"def-pattern"``,
    ``"def-simple"`` or ``None``) and whether the field is read-only (``frozen``).  All of
    these are unset for a function's schema.
    """

    name: str
    size: Optional[int] = None
    alignment: Optional[int] = None
    offset: Optional[int] = None
    default: Any = MISSING
    default_is_factory: bool = False
    structural_eq: Optional[str] = None
    frozen: bool = False

    def __init__(self, name: str, schema: TypeSchema, *, size: Optional[int] = None,
                 alignment: Optional[int] = None, offset: Optional[int] = None,
                 default: Any = MISSING, default_is_factory: bool = False,
                 structural_eq: Optional[str] = None, frozen: bool = False) -> None:
        super().__init__(**_schema_init_kwargs(schema))
        self.name = name
        self.size, self.alignment, self.offset = size, alignment, offset
        self.default, self.default_is_factory = default, default_is_factory
        self.structural_eq, self.frozen = structural_eq, frozen

    @staticmethod
    def from_type_field(field: Any) -> "NamedTypeSchema":
        """The schema of a reflected field (a ``TypeField``) with all its native facts."""
        factory = field.c_default_factory
        has_factory = factory is not MISSING
        return NamedTypeSchema(
            field.name, _declared_schema(field.metadata, "Any"),
            size=field.size, alignment=field.alignment, offset=field.offset,
            default=factory if has_factory else field.c_default,
            default_is_factory=has_factory,
            structural_eq=field.c_structural_eq, frozen=field.frozen,
        )


@dataclasses.dataclass
class FuncInfo:
    """A function: its named ``Callable`` schema, and whether it is bound to an instance."""

    schema: NamedTypeSchema
    is_member: bool

    @staticmethod
    def from_schema(name: str, schema: TypeSchema, *, is_member: bool = False) -> "FuncInfo":
        return FuncInfo(NamedTypeSchema(name, schema), is_member)


@dataclasses.dataclass
class InitFieldInfo:
    """A field that is a parameter of the type's generated ``__init__``."""

    name: str
    schema: NamedTypeSchema
    kw_only: bool
    has_default: bool


@dataclasses.dataclass
class ObjectInfo:
    """A registered object type as a generator needs it.

    ``fields`` holds the fields the type declares itself (inherited ones are found through
    ``ancestors``, root first).  ``init_fields`` are the parameters of the generated
    ``__init__`` along the whole chain, parents' first, when the type has one (``has_init``).
    ``total_size`` is the native ``sizeof`` (header included) when the type registered
    metadata of its own, else ``None``; ``is_final`` is the registered finality, ``None``
    when the type registered none.
    """

    fields: List[NamedTypeSchema]
    methods: List[FuncInfo]
    type_key: Optional[str] = None
    parent_type_key: Optional[str] = None
    init_fields: List[InitFieldInfo] = dataclasses.field(default_factory=list)
    has_init: bool = False
    ancestors: List[str] = dataclasses.field(default_factory=list)
    total_size: Optional[int] = None
    is_final: Optional[bool] = None

    def has_overloaded_methods(self) -> bool:
        """Whether two methods share a name and binding (so they need ``@overload``)."""
        keys = [(m.schema.name, m.is_member) for m in self.methods]
        return len(set(keys)) != len(keys)

    @staticmethod
    def from_type_info(type_info: Any) -> "ObjectInfo":
        """Read a ``TypeInfo`` (and its ancestors') from the registry."""
        chain = []
        ancestor = type_info.parent_type_info
        while ancestor is not None:
            chain.append(ancestor)
            ancestor = ancestor.parent_type_info
        chain.reverse()  # root first; chain[-1] is the parent

        has_init = any(m.name == "__ffi_init__" for m in type_info.methods) or (
            _lookup_type_attr(type_info.type_index, "__ffi_init__") is not None)
        init_fields = []
        if has_init:
            for declaring in (*chain, type_info):
                for field in declaring.fields or ():
                    if field.c_init:
                        init_fields.append(InitFieldInfo(
                            field.name, NamedTypeSchema.from_type_field(field),
                            kw_only=field.c_kw_only, has_default=field.c_has_default))
        methods = [
            FuncInfo(NamedTypeSchema(C.FN_NAME_MAP.get(m.name, m.name),
                                     _declared_schema(m.metadata, "Callable")),
                     is_member=not m.is_static)
            for m in type_info.methods
        ]
        return ObjectInfo(
            # A py_class whose registration has not completed has no field list yet.
            fields=[NamedTypeSchema.from_type_field(f) for f in type_info.fields or ()],
            methods=methods,
            type_key=type_info.type_key,
            parent_type_key=chain[-1].type_key if chain else None,
            init_fields=init_fields,
            has_init=has_init,
            ancestors=[info.type_key for info in chain],
            total_size=type_info.total_size if type_info._has_type_metadata else None,
            is_final=_lookup_type_attr(type_info.type_index, "__ffi_type_final__"),
        )
