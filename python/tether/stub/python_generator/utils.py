"""Python imports as the generator models them, and the renderers of signatures.

Every renderer takes ``ty_map``: a callable naming an origin in the generated text (and,
in the pipeline, recording the import that name needs).  ``input_ty_map`` names the
origins of parameters when they differ from outputs; it defaults to ``ty_map``.
"""
from __future__ import annotations

import dataclasses
from typing import Callable, Dict, List, Optional, Tuple

from ..utils import FuncInfo, ObjectInfo
from . import consts as PC

TyMap = Callable[[str], str]


def _python_module(mod: str) -> str:
    """Rename a registry namespace to its Python module (``MOD_MAP``), on dot boundaries."""
    for namespace, module in PC.MOD_MAP.items():
        if mod == namespace or mod.startswith(namespace + "."):
            return module + mod[len(namespace):]
    return mod


@dataclasses.dataclass(frozen=True, init=False)
class ImportItem:
    """One imported name: ``from <mod> import <name> [as <alias>]`` (``import <name>``
    when ``mod`` is empty), possibly only under ``TYPE_CHECKING``."""

    mod: str
    name: str
    type_checking_only: bool = False
    alias: Optional[str] = None

    def __init__(self, full_name: str, type_checking_only: bool = False,
                 alias: Optional[str] = None) -> None:
        mod, _, name = full_name.rpartition(".")
        object.__setattr__(self, "mod", _python_module(mod) if mod else "")
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "type_checking_only", type_checking_only)
        object.__setattr__(self, "alias", alias)

    @property
    def name_with_alias(self) -> str:
        return f"{self.name} as {self.alias}" if self.alias else self.name

    @property
    def full_name(self) -> str:
        return f"{self.mod}.{self.name}" if self.mod else self.name

    def __str__(self) -> str:
        if self.mod:
            return f"from {self.mod} import {self.name_with_alias}"
        return f"import {self.name_with_alias}"

    __repr__ = __str__


@dataclasses.dataclass
class PythonImports:
    """What one file's blocks need imported; ``has_lib_load`` when the file loads the
    extension library (its ``LIB`` is then exported)."""

    items: List[ImportItem] = dataclasses.field(default_factory=list)
    has_lib_load: bool = False


def _leaf(name: str) -> str:
    return name.rpartition(".")[2]


def _signature(indent: int, name: str, params: List[str], ret: str) -> str:
    return f"{' ' * indent}def {name}({', '.join(params)}) -> {ret}: ..."


def render_func_signature(func: FuncInfo, ty_map: TyMap, indent: int,
                          input_ty_map: Optional[TyMap] = None) -> str:
    """``def <name>(<params>, /) -> <ret>: ...`` for a function's ``Callable`` schema.

    Parameters are positional-only and named ``_0``, ``_1``, ...; a member's first
    parameter is ``self``.  A schema without parameter types takes ``*args: Any``.
    Raises ``ValueError`` when the schema is not a ``Callable``.
    """
    input_ty_map = input_ty_map or ty_map
    schema = func.schema
    name = _leaf(schema.name)
    if schema.origin != "Callable":
        raise ValueError(f"Expected Callable type schema, but got: {schema}")
    groups = schema.named_args
    if not groups:
        any_name = ty_map("Any")
        return _signature(indent, name, [f"*args: {any_name}"], any_name)
    if "params" not in groups:
        any_name = ty_map("Any")
        return _signature(indent, name, [f"*args: {any_name}"], groups["return"][0].output_repr(ty_map))
    params = []
    for i, arg in enumerate(groups["params"]):
        params.append("self" if func.is_member and i == 0 else f"_{i}: {arg.input_repr(input_ty_map)}")
    if params:
        params.append("/")
    return _signature(indent, name, params, groups["return"][0].output_repr(ty_map))


def render_object_fields(info: ObjectInfo, ty_map: TyMap, indent: int) -> List[str]:
    """One ``<name>: <annotation>`` line per field the type declares."""
    pad = " " * indent
    return [f"{pad}{field.name}: {field.output_repr(ty_map)}" for field in info.fields]


def _ffi_init_from_method(method: FuncInfo, ty_map: TyMap, indent: int,
                          input_ty_map: TyMap) -> str:
    """A reflected ``__ffi_init__``: whatever its registration, Python binds it as an
    instance method returning None whose parameters are all the schema's parameters."""
    groups = method.schema.named_args if method.schema.origin == "Callable" else None
    if not groups or "params" not in groups:
        return _signature(indent, "__ffi_init__", ["self", f"*args: {ty_map('Any')}"], "None")
    params = [f"_{i}: {arg.input_repr(input_ty_map)}" for i, arg in enumerate(groups["params"])]
    return _signature(indent, "__ffi_init__", ["self", *params, "/"] if params else ["self"], "None")


def render_object_methods(info: ObjectInfo, ty_map: TyMap, indent: int,
                          input_ty_map: Optional[TyMap] = None) -> List[str]:
    """The methods of the type, overloads (same name and binding) grouped together under
    ``@overload`` in the order their first member appears."""
    input_ty_map = input_ty_map or ty_map
    pad = " " * indent
    groups: Dict[Tuple[str, bool], List[FuncInfo]] = {}
    for method in info.methods:
        groups.setdefault((method.schema.name, method.is_member), []).append(method)
    lines: List[str] = []
    for group in groups.values():
        for method in group:
            if len(group) > 1:
                lines.append(f"{pad}@overload")
            if _leaf(method.schema.name) == "__ffi_init__":
                lines.append(_ffi_init_from_method(method, ty_map, indent, input_ty_map))
                continue
            if not method.is_member:
                lines.append(f"{pad}@staticmethod")
            lines.append(render_func_signature(method, ty_map, indent, input_ty_map))
    return lines


def _init_params(info: ObjectInfo, input_ty_map: TyMap) -> List[str]:
    """The init fields as parameters: positional ones (required before defaulted), then,
    after ``*``, the keyword-only ones in the same order.  A default is spelled ``...``."""
    def spell(field) -> str:
        text = f"{field.name}: {field.schema.input_repr(input_ty_map)}"
        return text + " = ..." if field.has_default else text

    def ordered(fields):
        return [f for f in fields if not f.has_default] + [f for f in fields if f.has_default]

    positional = ordered([f for f in info.init_fields if not f.kw_only])
    keyword = ordered([f for f in info.init_fields if f.kw_only])
    params = [spell(f) for f in positional]
    if keyword:
        params += ["*", *(spell(f) for f in keyword)]
    return params


def render_object_init(info: ObjectInfo, ty_map: TyMap, indent: int,
                       input_ty_map: Optional[TyMap] = None) -> List[str]:
    """``def __init__(self, <init fields>) -> None: ...`` when the type has an init."""
    if not info.has_init:
        return []
    return [_signature(indent, "__init__", ["self", *_init_params(info, input_ty_map or ty_map)],
                       "None")]


def render_object_ffi_init(info: ObjectInfo, ty_map: TyMap, indent: int,
                           input_ty_map: Optional[TyMap] = None) -> List[str]:
    """``__ffi_init__`` synthesised from the init fields, for a type whose init is
    generated from its fields (one registered as a method is rendered with the methods)."""
    if not info.has_init or any(_leaf(m.schema.name) == "__ffi_init__" for m in info.methods):
        return []
    return [_signature(indent, "__ffi_init__",
                       ["self", *_init_params(info, input_ty_map or ty_map)], "None")]
