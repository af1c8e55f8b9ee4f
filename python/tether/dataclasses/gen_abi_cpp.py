"""`gen_abi_cpp`: a C++17 header declaring, for registered FFI object types, structs whose
layout is the types' reflected layout (fields at their offsets, base types as C++ bases),
for C++ code that reads such objects without their defining library.

The header only looks types up (TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP); every struct, member
size, alignment and offset is checked by a static_assert against the reflection it was
generated from.  A type key becomes namespaces (its dotted prefix) and `<Last>Obj`; a name
part that is not a C identifier is spelled `__ffi_escape_<utf-8 hex>`.
"""
from __future__ import annotations

import fnmatch
import itertools
import json
import re
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple, Union

from .. import core


def _object_type_key_to_index(type_key: str) -> Optional[int]:
    return core._object_type_key_to_index(type_key)


def _lookup_or_register_type_info_from_type_key(type_key: str) -> Any:
    return core._lookup_or_register_type_info_from_type_key(type_key)

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_ESCAPE = "__ffi_escape_"
_OBJECT_HEADER = (24, 8)          # sizeof / alignof the C++ Object header
_OBJECT_INDEX = 64                # kTVMFFIObject: first object type index
_DYNAMIC_INDEX = 128              # first type index allocated at run time
_NS = "::tvm::ffi::"


class _Carrier(NamedTuple):
    """A C++ member type with its size and alignment."""
    cpp_type: str
    size: int
    alignment: int


class _Builtin(NamedTuple):
    """A static FFI object type: its C++ object class and owning value wrapper (None when
    there is none)."""
    object_type: str
    value_type: Optional[str]
    size: int
    alignment: int


def _c(cpp_type: str, size: int = 8, alignment: int = 8) -> _Carrier:
    return _Carrier(cpp_type, size, alignment)


_ANY = _c(_NS + "Any", 16)
_OBJECT_REF = _c(_NS + "Arc<::tvm::ffi::Object>")
_OBJECT_PTR = _c(_NS + "ObjectPtr<::tvm::ffi::Object>")

# Carriers by schema origin for values that are not object references.
_SCALARS: Dict[str, _Carrier] = {
    "int": _c("int64_t"), "float": _c("double"), "bool": _c("bool", 1, 1),
    "ctypes.c_void_p": _c("void*"), "dtype": _c("DLDataType", 4, 2),
    "DataType": _c("DLDataType", 4, 2), "Device": _c("DLDevice", 8, 4), "Any": _ANY,
    "str": _c(_NS + "String", 16), "bytes": _c(_NS + "Bytes", 16),
    "Callable": _c(_NS + "Function"), "Tensor": _c(_NS + "Tensor"),
}

# Carriers by static field type index, for fields without a type schema.
_BY_STATIC_INDEX: Dict[int, _Carrier] = {
    -1: _ANY, 1: _SCALARS["int"], 2: _SCALARS["bool"], 3: _SCALARS["float"],
    4: _SCALARS["ctypes.c_void_p"], 5: _SCALARS["dtype"], 6: _SCALARS["Device"],
}

# A native field's raw schema origin must be one of these for the normalized origin.
_NATIVE_SCALAR_ORIGINS = {
    "int": ("int",), "float": ("float",), "bool": ("bool",), "ctypes.c_void_p": ("void*",),
    "dtype": ("DataType",), "DataType": ("DataType",), "Device": ("Device",), "Any": ("Any",),
    "str": ("ffi.String", "ffi.SmallStr"), "bytes": ("ffi.Bytes", "ffi.SmallBytes"),
    "Callable": ("ffi.Function",), "Tensor": ("ffi.Tensor",),
}
_NATIVE_COMPOSITE_ORIGINS = {
    "Array": "ffi.Array", "List": "ffi.List", "Map": "ffi.Map", "Dict": "ffi.Dict",
    "tuple": "Tuple", "Optional": "Optional", "Union": "Variant",
}
_CONTAINERS = {"Array": "Array", "List": "List", "Map": "Map", "Dict": "Dict",
               "tuple": "Tuple"}

# Static object types a header may name, with their C++ classes.
_BUILTIN_SPECS = (
    ("ffi.Object", "Object", None, 8),
    ("ffi.String", "detail::StringObj", "String", 16),
    ("ffi.Bytes", "detail::BytesObj", "Bytes", 16),
    ("ffi.Error", "ErrorObj", "Error", 16),
    ("ffi.Function", "FunctionObj", "Function", 8),
    ("ffi.Shape", "ShapeObj", "Shape", 8),
    ("ffi.Tensor", "TensorObj", "Tensor", 8),
    ("ffi.Array", "ArrayObj", "Array<::tvm::ffi::Any>", 8),
    ("ffi.Map", "MapObj", "Map<::tvm::ffi::Any, ::tvm::ffi::Any>", 8),
    ("ffi.Module", "ModuleObj", "ObjectPtr<::tvm::ffi::ModuleObj>", 8),
    ("ffi.List", "ListObj", "List<::tvm::ffi::Any>", 8),
    ("ffi.Dict", "DictObj", "Dict<::tvm::ffi::Any, ::tvm::ffi::Any>", 8),
    ("ffi.VisitInterrupt", "VisitInterruptObj", "ObjectPtr<::tvm::ffi::VisitInterruptObj>", 8),
)  # ffi.OpaquePyObject has no C++ wrapper: it is deliberately absent.


def _builtin_table() -> Dict[int, _Builtin]:
    out = {}
    for key, obj, value, size in _BUILTIN_SPECS:
        index = _object_type_key_to_index(key)
        if index is not None:
            out[index] = _Builtin(_NS + obj, None if value is None else _NS + value, size, 8)
    return out


def _cpp_identifier(part: str) -> str:
    if _IDENT.fullmatch(part) and not part.startswith(_ESCAPE):
        return part
    return _ESCAPE + part.encode("utf-8").hex()


def _cpp_string_literal(text: str) -> str:
    """A C++ string literal of `text`'s UTF-8 bytes (octal escapes outside printable ASCII,
    so the compiler's execution character set does not matter)."""
    out = []
    for byte in text.encode("utf-8"):
        ch = chr(byte)
        if ch in '"\\':
            out.append("\\" + ch)
        elif 0x20 <= byte <= 0x7E:
            out.append(ch)
        else:
            out.append(f"\\{byte:03o}")
    return '"' + "".join(out) + '"'


def _split_name(type_key: str) -> Tuple[Tuple[str, ...], str]:
    """(namespaces, struct name) of a type key."""
    *prefix, last = type_key.split(".")
    return tuple(_cpp_identifier(p) for p in prefix), _cpp_identifier(last) + "Obj"


def _qualified(type_key: str) -> str:
    namespaces, name = _split_name(type_key)
    return "::" + "::".join((*namespaces, name))


def _lineage(info: Any) -> List[Any]:
    chain = []
    while info is not None:
        chain.append(info)
        info = info.parent_type_info
    return chain[::-1]


def _in_namespaces(blocks: Sequence[Tuple[Tuple[str, ...], List[str]]]) -> List[str]:
    """Blocks of lines wrapped in their namespaces; consecutive blocks of the same
    namespaces share one opening, separated by blank lines."""
    lines: List[str] = []
    for namespaces, run in itertools.groupby(blocks, key=lambda b: b[0]):
        if lines:
            lines.append("")
        lines.extend(f"namespace {ns} {{" for ns in namespaces)
        if namespaces:
            lines.append("")
        for i, (_, block) in enumerate(run):
            if i:
                lines.append("")
            lines.extend(block)
        if namespaces:
            lines.append("")
        lines.extend(f"}}  // namespace {ns}" for ns in reversed(namespaces))
    if lines:
        lines.append("")
    return lines


def _check_native_schema(schema: Any, raw: Dict[str, Any]) -> None:
    """ValueError when a C field's raw schema normalizes to `schema` through an alias
    whose bytes mean something else (e.g. a DLTensor* seen as a Tensor)."""
    origin, raw_origin = schema.origin, raw["type"]
    if origin in _NATIVE_SCALAR_ORIGINS:
        if raw_origin not in _NATIVE_SCALAR_ORIGINS[origin]:
            raise ValueError(f"native schema origin {raw_origin!r} normalizes to {origin!r} but "
                             "does not have the canonical owning representation")
        return
    if origin in _NATIVE_COMPOSITE_ORIGINS:
        expected = _NATIVE_COMPOSITE_ORIGINS[origin]
        if raw_origin != expected:
            raise ValueError(f"native schema origin {raw_origin!r} normalizes to {origin!r} but "
                             f"is not the canonical {expected!r} carrier")
        raw_args = raw.get("args", ())
        if not isinstance(raw_args, list) or len(raw_args) != len(schema.args):
            raise ValueError(f"raw schema {raw!r} does not match normalized schema {schema!r}")
        for arg, raw_arg in zip(schema.args, raw_args):
            if not isinstance(raw_arg, dict) or not isinstance(raw_arg.get("type"), str):
                raise ValueError(f"invalid nested raw schema {raw_arg!r}")
            _check_native_schema(arg, raw_arg)
        return
    if schema.origin_type_index >= _OBJECT_INDEX:
        expected = "ffi.Object" if origin == "Object" else origin
        if raw_origin != expected:
            raise ValueError(f"native object schema origin {raw_origin!r} does not match "
                             f"{expected!r}")
        return
    raise ValueError(f"unsupported native raw schema {raw!r}")


def _select_type_infos(type_keys: Union[str, Sequence[str]]) -> List[Any]:
    """The run-time types matched by the selectors (exact keys or shell patterns) and
    their run-time ancestors, bases first.  Static types matched are only checked to be
    supported."""
    from ..registry import get_registered_type_keys

    registered = sorted({str(k) for k in get_registered_type_keys()})
    chosen = set()
    for selector in [type_keys] if isinstance(type_keys, str) else type_keys:
        matched = [k for k in registered if fnmatch.fnmatchcase(k, selector)]
        if not matched:
            raise ValueError(f"Type-key selector {selector!r} did not match any registered type")
        objects = [k for k in matched
                   if _lookup_or_register_type_info_from_type_key(k).type_index >= _OBJECT_INDEX]
        if not objects:
            raise ValueError(f"Type-key selector {selector!r} did not match any registered "
                             "object type")
        chosen.update(objects)
    builtins = _builtin_table()
    picked: Dict[int, Any] = {}
    for key in sorted(chosen):
        info = _lookup_or_register_type_info_from_type_key(key)
        if info.type_index < _DYNAMIC_INDEX:
            if info.type_index not in builtins:
                raise ValueError(f"Static TVM-FFI type {info.type_key!r} is not supported")
            continue
        for ancestor in _lineage(info):
            if ancestor.type_index >= _DYNAMIC_INDEX:
                picked[ancestor.type_index] = ancestor
    return sorted(picked.values(), key=lambda i: (len(i.type_ancestors), i.type_key))


class _Generator:
    """Builds the header for `infos`; every run-time type a member names is recorded in
    `dependencies` (declared, and given an opaque lookup-only struct when not emitted)."""

    def __init__(self, infos: List[Any]) -> None:
        self.emitted_infos = infos
        self.builtins = _builtin_table()
        self.dependencies: Dict[int, Any] = {i.type_index: i for i in infos}

    # -- carriers of type schemas --------------------------------------------------------

    def _object_class(self, schema: Any) -> str:
        """The C++ object class of a schema naming an object type."""
        if schema.origin_type_index == _OBJECT_INDEX or schema.origin == "Object":
            return _NS + "Object"
        builtin = self.builtins.get(schema.origin_type_index)
        if builtin is not None:
            return builtin.object_type
        if schema.origin_type_index < _DYNAMIC_INDEX:
            raise ValueError(f"Schema {schema!r} is not a registered object type")
        info = _lookup_or_register_type_info_from_type_key(schema.origin)
        self.dependencies[info.type_index] = info
        return _qualified(info.type_key)

    def _lower_object(self, schema: Any) -> _Carrier:
        """A non-null reference to an object of the schema's type."""
        builtin = self.builtins.get(schema.origin_type_index)
        is_root = schema.origin_type_index == _OBJECT_INDEX or schema.origin == "Object"
        if builtin is not None and not is_root:
            if builtin.value_type is None:
                raise ValueError(f"Static TVM-FFI type {schema.origin!r} has no supported C++ "
                                 "value wrapper")
            if not builtin.value_type.startswith(_NS + "ObjectPtr<"):
                return _Carrier(builtin.value_type, builtin.size, builtin.alignment)
        return _c(f"{_NS}Arc<{self._object_class(schema)}>")

    def _lower_nullable_object(self, schema: Any) -> _Carrier:
        return _c(f"{_NS}ObjectPtr<{self._object_class(schema)}>")

    def _lower_value(self, schema: Any, *, container_argument: bool = False,
                     is_native_field: bool = False) -> _Carrier:
        origin, args = schema.origin, schema.args
        if origin in _SCALARS:
            return _SCALARS[origin]
        if origin == "Optional":
            if container_argument and args[0].origin_type_index >= _OBJECT_INDEX:
                return self._lower_nullable_object(args[0])
            return _ANY
        if origin == "Union":
            if container_argument and all(a.origin_type_index >= _OBJECT_INDEX for a in args):
                return _OBJECT_REF
            return _ANY
        if origin in _CONTAINERS:
            inner = ", ".join(self._lower_value(a, container_argument=True,
                                                is_native_field=is_native_field).cpp_type
                              for a in args)
            return _c(f"{_NS}{_CONTAINERS[origin]}<{inner}>")
        if schema.origin_type_index >= _OBJECT_INDEX:
            return self._lower_object(schema)
        raise ValueError(f"Unsupported TVM-FFI type schema {schema!r}")

    # -- carriers of fields --------------------------------------------------------------

    def _lower_native_optional(self, field: Any, owner: Any, schema: Any) -> _Carrier:
        """Optional / Union fields of C types: the layout tells which wrapper it is."""
        layout = (field.size, field.alignment)
        where = f"{owner.type_key}.{field.name}"
        if schema.origin == "Optional":
            value = schema.args[0]
            is_object = value.origin_type_index >= _OBJECT_INDEX
            if layout == (16, 8) and value.origin in ("str", "bytes"):
                return self._lower_value(value)
            if layout == (16, 8) and is_object:
                return _c(f"{_NS}Optional<{self._lower_object(value).cpp_type}>", 16)
            if layout == (8, 8) and is_object:
                return self._lower_nullable_object(value)
            raise ValueError(f"Ambiguous native Optional carrier for {where} with layout "
                             f"{layout}")
        if layout == (8, 8) and all(a.origin_type_index >= _OBJECT_INDEX for a in schema.args):
            return _OBJECT_REF
        raise ValueError(f"Ambiguous native {schema.origin} carrier for {where} with layout "
                         f"{layout}")

    def _lower_field(self, field: Any, owner: Any) -> _Carrier:
        schema = field.ty
        from_python = hasattr(owner, "_decorator_args")
        where = f"{owner.type_key}.{field.name}"
        if schema is not None and not from_python:
            raw = field.metadata.get("type_schema")
            if isinstance(raw, str):
                try:
                    raw = json.loads(raw)
                except json.JSONDecodeError as err:
                    raise ValueError(f"Invalid raw type schema for {where}: {raw!r}") from err
            if not isinstance(raw, dict) or not isinstance(raw.get("type"), str):
                raise ValueError(f"Missing raw type schema for native field {where}")
            _check_native_schema(schema, raw)

        if schema is None:
            index = field.field_static_type_index
            carrier = _BY_STATIC_INDEX.get(index)
            if carrier is None and index >= _OBJECT_INDEX:
                carrier = _OBJECT_PTR
            if carrier is None:
                raise ValueError(f"Cannot determine carrier for {where}: missing type schema "
                                 f"and static type index {index}")
        elif schema.origin in ("Optional", "Union"):
            carrier = _ANY if from_python else self._lower_native_optional(field, owner, schema)
        else:
            carrier = self._lower_value(schema, is_native_field=not from_python)

        builtin = None if schema is None else self.builtins.get(schema.origin_type_index)
        if builtin is not None and builtin.value_type == _NS + "Error":
            # Error's wrapper size depends on the C++ library (it is also a std::exception):
            # take reflection's layout, which the static_asserts then check.
            carrier = _Carrier(builtin.value_type, field.size, field.alignment)
        layout = (field.size, field.alignment)
        if layout != carrier[1:] and layout == (8, 8) and builtin is not None \
                and schema.origin_type_index >= _OBJECT_INDEX:
            # A one-pointer field of a type whose usual wrapper is larger: the object class.
            carrier = _c(f"{_NS}Arc<{builtin.object_type}>")
        if layout != carrier[1:]:
            raise ValueError(f"Carrier {carrier.cpp_type} for {where} has layout "
                             f"{carrier[1:]}, but reflection reports {layout} at offset "
                             f"{field.offset}")
        return carrier

    # -- the header ----------------------------------------------------------------------

    def _struct(self, info: Any) -> Tuple[Tuple[str, ...], List[str]]:
        if not info._has_type_metadata and not hasattr(info, "_decorator_args"):
            raise ValueError(f"Native type {info.type_key!r} does not expose fixed total-size "
                             "metadata")
        parent = info.parent_type_info
        if parent is None:
            raise ValueError(f"Object type {info.type_key!r} does not expose its parent type")
        if parent.type_index >= _DYNAMIC_INDEX:
            base = _qualified(parent.type_key)
        elif parent.type_index in self.builtins:
            base = self.builtins[parent.type_index].object_type
        else:
            raise ValueError(f"Parent type {parent.type_key!r} of {info.type_key!r} is not "
                             "supported")
        members = [(f.name, _cpp_identifier(f.name), self._lower_field(f, info), f.offset)
                   for f in sorted(info.fields or (), key=lambda f: f.offset)]
        align = max([_OBJECT_HEADER[1]] + [f.alignment for anc in _lineage(info)
                                           for f in (anc.fields or ())])
        namespaces, name = _split_name(info.type_key)
        lines = [f"struct alignas({align}) {name} : public {base} {{",
                 f"  TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP({_cpp_string_literal(info.type_key)}, "
                 f"{len(info.type_ancestors)});"]
        if members:
            lines.append("")
        for reflected, member, carrier, offset in members:
            note = "" if member == reflected else f", reflected name={reflected!r}"
            lines.append(f"  {carrier.cpp_type} {member};  // offset={offset}, "
                         f"size={carrier.size}, align={carrier.alignment}{note}")
        lines += ["};", "", f"static_assert(sizeof({name}) == {int(info.total_size)});",
                  f"static_assert(alignof({name}) == {align});"]
        for _, member, carrier, offset in members:
            lines += [
                f"static_assert(sizeof(decltype({name}::{member})) == {carrier.size});",
                f"static_assert(alignof(decltype({name}::{member})) == {carrier.alignment});",
                f"static_assert(offsetof({name}, {member}) == {offset});",
            ]
        return namespaces, lines

    def build(self) -> str:
        structs = [self._struct(info) for info in self.emitted_infos]
        emitted = {info.type_index for info in self.emitted_infos}
        deps = sorted(self.dependencies.values(),
                      key=lambda i: (*_split_name(i.type_key), i.type_key))
        out = ["#pragma once", "", "#include <tvm/ffi/tvm_ffi.h>", ""]
        out += _in_namespaces([(_split_name(i.type_key)[0],
                                [f"struct {_split_name(i.type_key)[1]};"]) for i in deps])
        for info in deps:
            out += ["template <>", "inline constexpr bool "
                    f"tvm::ffi::is_object_subclass_v<{_qualified(info.type_key)}> = true;"]
        out.append("")
        opaque = []
        for info in deps:
            if info.type_index in emitted:
                continue
            namespaces, name = _split_name(info.type_key)
            opaque.append((namespaces, [
                f"struct {name} : public ::tvm::ffi::Object {{",
                f"  TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP({_cpp_string_literal(info.type_key)}, "
                f"{len(info.type_ancestors)});",
                "};"]))
        out += _in_namespaces(opaque)
        out += [f"static_assert(sizeof(::tvm::ffi::Object) == {_OBJECT_HEADER[0]});",
                f"static_assert(alignof(::tvm::ffi::Object) == {_OBJECT_HEADER[1]});", ""]
        out += ["#if defined(__clang__) || defined(__GNUC__)", "#pragma GCC diagnostic push",
                '#pragma GCC diagnostic ignored "-Winvalid-offsetof"',
                "#elif defined(_MSC_VER)", "#pragma warning(push)",
                "#pragma warning(disable : 4749)", "#endif", ""]
        out += _in_namespaces(structs)
        out += ["#if defined(__clang__) || defined(__GNUC__)", "#pragma GCC diagnostic pop",
                "#elif defined(_MSC_VER)", "#pragma warning(pop)", "#endif", ""]
        return "\n".join(out)


def gen_abi_cpp(type_keys: Union[str, Sequence[str]]) -> str:
    """The C++ header (text) of lookup-only structs for the selected types: `type_keys` is
    a registered type key, a shell-style pattern (``"my.pkg.*"``), or a sequence of them.
    Run-time ancestors are included; ValueError for a selector matching no object type or
    a type whose layout cannot be expressed."""
    return _Generator(_select_type_infos(type_keys)).build()


__all__ = ["gen_abi_cpp"]
