"""Type reflection metadata: TypeInfo, TypeField, TypeMethod and the registry of them.

Every name in ``__all__`` is installed into ``tether.core`` when tether is imported, so this
module is part of the extension's interface (``tether.core.TypeInfo``, ...).  Only cold work
lives here: describing types and registering Python-defined ones.  What runs per object is
in C: field descriptors (``FFIProperty``), method descriptors, the class table that wraps
returned handles, and the converter a Python-defined field's setter calls.

Registry: one TypeInfo per type index, created on first request from the C type table (or
by ``_register_py_class`` for a type defined from Python), and found again by type index,
type key or class.
"""
from __future__ import annotations

from functools import cached_property

from . import core

# Typing names for annotations only: `import tether` does not import typing, json or
# dataclasses.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Optional

__all__ = [
    "TypeInfo", "TypeField", "TypeMethod", "ObjectConvertible", "PyNativeObject",
    "OpaquePyObject", "object_repr", "_register_object_by_index", "_object_type_key_to_index",
    "_set_type_cls", "_lookup_or_register_type_info_from_type_key", "_type_cls_to_type_info",
    "_type_index_to_type_info", "_register_py_class", "_rollback_py_class", "_register_fields",
    "_register_py_methods", "DataType",
]

MISSING = core.MISSING
object_repr = core.object_repr

# type index constants of the ABI
_ANY, _NONE, _INT, _BOOL, _FLOAT, _PTR, _DTYPE, _DEVICE = -1, 0, 1, 2, 3, 4, 5, 6
_OBJECT, _STR, _BYTES, _OPAQUE_PY = 64, 65, 66, 74
_DYN_OBJECT = 128  # kTVMFFIDynObjectBegin: the first index of a registered object type

# field flag bits
_F_WRITABLE = 1 << 0
_F_HAS_DEFAULT = 1 << 1
_F_STATIC = 1 << 2
_F_SEQ_IGNORE = 1 << 3
_F_SEQ_DEF_PATTERN = 1 << 4
_F_FROM_FACTORY = 1 << 5
_F_REPR_OFF = 1 << 6
_F_COMPARE_OFF = 1 << 7
_F_HASH_OFF = 1 << 8
_F_INIT_OFF = 1 << 9
_F_KW_ONLY = 1 << 10
_F_SEQ_DEF_SIMPLE = 1 << 12

_OBJECT_HEADER_SIZE = 24  # sizeof(TVMFFIObject)

_INDEX_TO_INFO: dict[int, "TypeInfo"] = {}
_KEY_TO_INFO: dict[str, "TypeInfo"] = {}
_CLS_TO_INFO: dict[type, "TypeInfo"] = {}
_ROLLED_BACK: set[str] = set()  # keys of _rollback_py_class: free for _register_py_class again


_REQUIRED = object()


class _Record:
    """A plain record: ``_FIELDS`` lists (name, default) in order (``_REQUIRED``: no
    default); the constructor takes them positionally or by keyword, the repr shows them
    (but the names in ``_HIDDEN``), and instances take other attributes too."""

    _FIELDS: tuple = ()
    _HIDDEN: frozenset = frozenset()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        cls = type(self).__name__
        if len(args) > len(self._FIELDS):
            raise TypeError(f"{cls}() takes {len(self._FIELDS)} arguments, got {len(args)}")
        for (name, default), value in zip(self._FIELDS, args):
            if name in kwargs:
                raise TypeError(f"{cls}() got two values for {name!r}")
            kwargs[name] = value
        for name, default in self._FIELDS:
            value = kwargs.pop(name, default)
            if value is _REQUIRED:
                raise TypeError(f"{cls}() missing required argument {name!r}")
            setattr(self, name, value)
        if kwargs:
            raise TypeError(f"{cls}() got unexpected arguments {sorted(kwargs)}")
        self.__post_init__()

    def __post_init__(self) -> None:
        pass

    def __repr__(self) -> str:
        parts = ", ".join(f"{n}={getattr(self, n)!r}" for n, _ in self._FIELDS
                          if n not in self._HIDDEN)
        return f"{type(self).__name__}({parts})"


_LAZY = object()


def _set_raw(record: Any, slot: str, value: Any) -> None:
    record.__dict__[slot] = value


def _metadata_of(record: Any) -> Any:
    m = record.__dict__["_metadata"]
    if isinstance(m, str):
        m = record.__dict__["_metadata"] = _json_loads(m) if m else {}
    return m


def _ty_of(field: Any) -> Any:
    ty = field.__dict__["_ty"]
    if ty is _LAZY:
        ty = field.__dict__["_ty"] = _schema_of(field.metadata)
    return ty


def _json_dumps(value: Any) -> str:
    import json  # noqa: PLC0415

    return json.dumps(value)


def _json_loads(text: str) -> Any:
    import json  # noqa: PLC0415

    return json.loads(text)


def _type_schema_class() -> Any:
    return getattr(core, "TypeSchema", None)


def _schema_of(metadata: dict[str, Any]) -> Any:
    """The TypeSchema of a field/method metadata dict, or None (no schema, or no parser)."""
    raw = metadata.get("type_schema")
    schema_cls = _type_schema_class()
    if raw is None or schema_cls is None:
        return None
    try:
        if isinstance(raw, str):
            return schema_cls.from_json_str(raw)
        return schema_cls.from_json_obj(raw)
    except Exception:  # noqa: BLE001 - a schema this version cannot read leaves `ty` unset
        return None


def _structural_eq_name(flags: int) -> Optional[str]:
    if flags & _F_SEQ_IGNORE:
        return "ignore"
    if flags & _F_SEQ_DEF_PATTERN:
        return "def-pattern"
    if flags & _F_SEQ_DEF_SIMPLE:
        return "def-simple"
    return None


class TypeField(_Record):
    """One reflected field of an FFI type: its layout, flags, schema and accessors.

    ``getter(obj)`` reads the field, ``setter(obj, value)`` writes it (even when frozen);
    ``as_property(cls)`` gives the class attribute (an ``FFIProperty``).  ``c_default`` and
    ``c_default_factory`` are MISSING when the field has none.
    """

    _FIELDS = (
        ("name", _REQUIRED), ("doc", _REQUIRED), ("size", _REQUIRED), ("alignment", _REQUIRED),
        ("offset", _REQUIRED), ("field_static_type_index", _REQUIRED), ("frozen", _REQUIRED),
        ("metadata", _REQUIRED), ("getter", _REQUIRED), ("setter", _REQUIRED), ("ty", None),
        ("c_init", True), ("c_kw_only", False), ("c_has_default", False),
        ("c_default", MISSING), ("c_default_factory", MISSING), ("c_repr", True),
        ("c_compare", True), ("c_hash", True), ("c_structural_eq", None),
        ("dataclass_field", None),
        # where the field lives in the C type table: owner type index, position among its fields
        ("_owner_index", -1), ("_position", -1),
    )
    _HIDDEN = frozenset({"_owner_index", "_position"})

    # metadata given as JSON text is parsed, and ty (when _LAZY) derived from it, on first
    # use: reading every field's JSON at class registration would cost `import tether` the
    # json module
    metadata = property(_metadata_of, lambda self, v: _set_raw(self, "_metadata", v))
    ty = property(_ty_of, lambda self, v: _set_raw(self, "_ty", v))

    def __post_init__(self) -> None:
        if self.getter is None or self.setter is None:
            raise ValueError(f"TypeField {self.name!r} needs a getter and a setter")

    def _is_payload_enum_field(self) -> bool:
        """Whether the field's type is a registered IntEnum/StrEnum class."""
        ty = self.ty
        index = getattr(ty, "origin_type_index", -1) if ty is not None else -1
        if index < _OBJECT:
            return False
        info = _INDEX_TO_INFO.get(index)
        cls = info.type_cls if info is not None else None
        if cls is None:
            return False
        return any(getattr(b, "__module__", "").endswith("dataclasses.enum")
                   and b.__name__ in ("IntEnum", "StrEnum") for b in cls.__mro__)

    def normalize_value(self, value: Any) -> Any:
        """The value an IntEnum/StrEnum field stores for `value`; other fields: `value`."""
        if not self._is_payload_enum_field():
            return value
        return core._to_py_class_value(self.ty.convert(value))

    def as_property(self, cls: type) -> Any:
        """The ``FFIProperty`` that exposes this field on ``cls`` (read-only if frozen)."""
        if self._owner_index < 0:
            raise TypeError(f"field {self.name!r} is not bound to a registered type")
        return core._field_property(self._owner_index, self._position, self.frozen,
                                    self._setter_normalizer())

    def _setter_normalizer(self) -> Any:
        """`normalize_value` for an IntEnum/StrEnum field (its descriptor stores an assigned
        payload as the variant), else None."""
        # an enum field is declared as its enum type (a dynamic index) or as ffi.Object; the
        # declared type (parsed from the metadata) is read only for those
        index = self.field_static_type_index
        if (index == _OBJECT or index >= _DYN_OBJECT) and self._is_payload_enum_field():
            return self.normalize_value
        return None


class TypeMethod(_Record):
    """One reflected method of an FFI type; ``func`` takes the instance first unless static."""

    _FIELDS = (("name", _REQUIRED), ("doc", _REQUIRED), ("func", _REQUIRED),
               ("metadata", _REQUIRED), ("is_static", _REQUIRED))

    metadata = property(_metadata_of, lambda self, v: _set_raw(self, "_metadata", v))

    def __post_init__(self) -> None:
        if not callable(self.func):
            raise TypeError(f"TypeMethod {self.name!r}: func must be callable")

    def as_callable(self, cls: type) -> Any:
        """The class attribute for this method on ``cls`` (a staticmethod when static)."""
        return core._method_descriptor(self.func, self.name, self.doc, self.is_static)


def _unreadable(name: str) -> Callable[..., Any]:
    def access(*args: Any) -> Any:
        raise TypeError(f"field {name!r} has no getter: it cannot be accessed from Python")

    return access


def _fields_from_raw(type_index: int, raw_fields: list[tuple]) -> list[TypeField]:
    out = []
    for pos, (name, doc, size, align, offset, sti, flags, meta_text, dflt) in enumerate(raw_fields):
        try:
            accessor = core._field_property(type_index, pos, False)
            getter, setter = accessor.fget, accessor.set
        except TypeError:  # a field registered without a getter cannot be read
            getter = setter = _unreadable(name)
        has_default = bool(flags & _F_HAS_DEFAULT)
        from_factory = has_default and bool(flags & _F_FROM_FACTORY)
        out.append(TypeField(
            name=name, doc=doc, size=size, alignment=align, offset=offset,
            field_static_type_index=sti, frozen=not (flags & _F_WRITABLE), metadata=meta_text,
            getter=getter, setter=setter, ty=_LAZY,
            c_init=not (flags & _F_INIT_OFF), c_kw_only=bool(flags & _F_KW_ONLY),
            c_has_default=has_default,
            c_default=dflt if has_default and not from_factory else MISSING,
            c_default_factory=dflt if from_factory else MISSING,
            c_repr=not (flags & _F_REPR_OFF), c_compare=not (flags & _F_COMPARE_OFF),
            c_hash=not (flags & _F_HASH_OFF), c_structural_eq=_structural_eq_name(flags),
            _owner_index=type_index, _position=pos))
    return out


def _methods_from_raw(raw_methods: list[tuple]) -> list[TypeMethod]:
    return [TypeMethod(name=name, doc=doc, func=func,
                       metadata=meta_text,
                       is_static=bool(flags & _F_STATIC))
            for name, doc, flags, func, meta_text in raw_methods]


class TypeInfo(_Record):
    """What the type table says about one FFI type, and the Python class bound to it.

    ``fields`` and ``methods`` are the type's own (not its ancestors'); ``type_ancestors``
    lists the ancestors' type indices, root first.  ``fields`` is None for a Python-defined
    type whose fields are not registered yet.
    """

    _FIELDS = (("type_cls", _REQUIRED), ("type_index", _REQUIRED), ("type_key", _REQUIRED),
               ("type_ancestors", _REQUIRED), ("fields", _REQUIRED), ("methods", _REQUIRED),
               ("parent_type_info", _REQUIRED))

    def __post_init__(self) -> None:
        if self.fields is not None:
            names = [f.name for f in self.fields]
            if len(names) != len(set(names)):
                raise ValueError(f"TypeInfo of {self.type_key!r} lists a field twice: {names}")
        if self.type_ancestors and self.parent_type_info is None:
            self.parent_type_info = _info_for_index(self.type_ancestors[-1])
        if self.fields and self.parent_type_info is not None:
            inherited = set()
            ti = self.parent_type_info
            while ti is not None:
                inherited.update(f.name for f in ti.fields or ())
                ti = ti.parent_type_info
            for f in self.fields:
                if f.name in inherited:
                    import warnings  # noqa: PLC0415

                    warnings.warn(f"Field {f.name!r} of {self.type_key!r} repeats a field of an "
                                  "ancestor type; a child type registers only its own fields.",
                                  stacklevel=2)

    @cached_property
    def total_size(self) -> int:
        """Bytes of an object of this type: the registered size, else header plus fields."""
        size = core._type_info_raw(self.type_index)[4]
        if size is not None:
            return size
        if self.parent_type_info is None:  # a root type: the object header alone
            end = _OBJECT_HEADER_SIZE
        else:
            end = self.parent_type_info.total_size
        for f in self.fields or ():
            end = max(end, f.offset + f.size)
        return (end + 7) & ~7

    @property
    def _has_type_metadata(self) -> bool:
        """Whether the type declares its size and structural kind (a Python-defined type
        without a structural kind has a size only so that libtether can allocate it)."""
        if getattr(self, "_size_only_metadata", False):
            return False
        return core._type_info_raw(self.type_index)[4] is not None

    def _register_fields(self, fields: list[Any], structure_kind: Optional[int] = None) -> None:
        """Register `fields` (dataclass Field descriptors) once, then re-read the methods."""
        if self.fields is not None:
            raise RuntimeError(f"the fields of {self.type_key!r} are already registered")
        self.fields = _register_fields(self, fields, structure_kind)
        self._read_back_methods()

    def _register_py_methods(self, py_methods: Optional[list[tuple]] = None,
                             type_attr_names: frozenset[str] = frozenset()) -> None:
        """Register Python methods (type attributes for names in `type_attr_names`), then
        re-read the method table."""
        if py_methods:
            _register_py_methods(self.type_index, py_methods, type_attr_names)
        self._read_back_methods()

    def _read_back_methods(self) -> None:
        self.methods = _methods_from_raw(core._type_info_raw(self.type_index)[3])

    def prototype_py(self) -> str:
        """A Python class outline of this type: its own fields and methods."""
        name = self.type_key.rsplit(".", 1)[-1]
        parent = self.parent_type_info.type_key if self.parent_type_info else "object"
        lines = [f"class {name}({parent}):  # {self.type_key}"]
        for f in self.fields or ():
            lines.append(f"    {f.name}: {f.ty if f.ty is not None else 'Any'}")
        for m in self.methods:
            lines.append(f"    def {m.name}(...): ...{'  # static' if m.is_static else ''}")
        if len(lines) == 1:
            lines.append("    pass")
        return "\n".join(lines)


# ---- the registry -------------------------------------------------------------------------


def _object_type_key_to_index(type_key: str) -> Optional[int]:
    """The type index of `type_key`, or None when no such type is registered."""
    try:
        return core._type_key_to_index(type_key)
    except ValueError:
        return None


def _info_from_table(type_cls: Optional[type], type_index: int) -> TypeInfo:
    key, ancestors, raw_fields, raw_methods, _size = core._type_info_raw(type_index)
    return TypeInfo(type_cls=type_cls, type_index=type_index, type_key=key,
                    type_ancestors=list(ancestors), fields=_fields_from_raw(type_index, raw_fields),
                    methods=_methods_from_raw(raw_methods), parent_type_info=None)


def _update_registry(info: TypeInfo, type_cls: Optional[type]) -> None:
    old = _INDEX_TO_INFO.get(info.type_index)
    if old is not None and old.type_cls is not None and old.type_cls is not type_cls \
            and _CLS_TO_INFO.get(old.type_cls) is old:
        del _CLS_TO_INFO[old.type_cls]  # the type is rebound: forget the previous class
    _INDEX_TO_INFO[info.type_index] = info
    _KEY_TO_INFO[info.type_key] = info
    if type_cls is not None:
        _CLS_TO_INFO[type_cls] = info
        if isinstance(type_cls, type) and issubclass(type_cls, core.Object):
            core._set_class_for_index(info.type_index, type_cls)


def _info_for_index(type_index: int) -> TypeInfo:
    info = _INDEX_TO_INFO.get(type_index)
    if info is None:
        cls = core._registered_class(type_index)
        info = _info_from_table(cls, type_index)
        _INDEX_TO_INFO[type_index] = info
        _KEY_TO_INFO[info.type_key] = info
        if cls is not None:
            _CLS_TO_INFO.setdefault(cls, info)
    return info


def _register_object_by_index(type_index: int, type_cls: type) -> TypeInfo:
    """Bind `type_cls` to `type_index` and return the type's (new) TypeInfo."""
    info = _info_from_table(type_cls, type_index)
    _update_registry(info, type_cls)
    return info


def _set_type_cls(type_info: TypeInfo, type_cls: type) -> None:
    """Bind `type_cls` to a TypeInfo that has no class yet."""
    if type_info.type_cls is not None:
        raise ValueError(f"{type_info.type_key!r} already has the class {type_info.type_cls!r}")
    type_info.type_cls = type_cls
    _update_registry(type_info, type_cls)


def _lookup_or_register_type_info_from_type_key(type_key: str) -> TypeInfo:
    """The TypeInfo of `type_key`, created (without a class) on first request."""
    info = _KEY_TO_INFO.get(type_key)
    if info is not None:
        return info
    index = _object_type_key_to_index(type_key)
    if index is None:
        raise ValueError(f"Cannot find type key: {type_key}")
    return _info_for_index(index)


def _native_classes() -> dict[type, str]:
    """Classes that stand for FFI values without deriving from Object."""
    pairs = [("String", "ffi.String"), ("Bytes", "ffi.Bytes"), ("Shape", "ffi.Shape"),
             ("DataType", "DataType"), ("Device", "Device")]
    return {getattr(core, n): key for n, key in pairs if getattr(core, n, None) is not None}


def _type_cls_to_type_info(type_cls: type) -> Optional[TypeInfo]:
    """The TypeInfo bound to `type_cls`, or None."""
    info = _CLS_TO_INFO.get(type_cls)
    if info is not None:
        return info
    index = core._class_type_index(type_cls)
    if index is None:
        key = _native_classes().get(type_cls)
        index = _object_type_key_to_index(key) if key is not None else None
        if index is None:
            return None
    info = _INDEX_TO_INFO.get(index)
    if info is None or info.type_cls is not None:
        info = _info_from_table(type_cls, index)
    else:
        info.type_cls = type_cls
    _INDEX_TO_INFO[index] = info
    _KEY_TO_INFO[info.type_key] = info
    _CLS_TO_INFO[type_cls] = info
    return info


def _type_index_to_type_info(type_index: int) -> Optional[TypeInfo]:
    """The TypeInfo of `type_index`, or None when the index names no registered type."""
    info = _INDEX_TO_INFO.get(type_index)
    if info is not None or type_index < 0:
        return info
    try:
        key = core._type_info_raw(type_index)[0]
    except ValueError:
        return None
    return None if key in _ROLLED_BACK else _info_for_index(type_index)


def _register_py_class(parent_type_info: TypeInfo, type_key: str, type_cls: type) -> TypeInfo:
    """Allocate a new type `type_key` under `parent_type_info`, bound to `type_cls`.

    The TypeInfo returned has ``fields=None`` until ``_register_fields``.  Raises
    ValueError when the key is taken.
    """
    if type_key in _KEY_TO_INFO or (type_key not in _ROLLED_BACK
                                    and _object_type_key_to_index(type_key) is not None):
        raise ValueError(f"Type key '{type_key}' is already registered")
    _ROLLED_BACK.discard(type_key)  # a retry gets the index the rolled-back attempt took
    index = core._type_alloc_index(type_key, parent_type_info.type_index)
    info = TypeInfo(type_cls=type_cls, type_index=index, type_key=type_key,
                    type_ancestors=list(parent_type_info.type_ancestors)
                    + [parent_type_info.type_index],
                    fields=None, methods=[], parent_type_info=parent_type_info)
    _update_registry(info, type_cls)
    return info


def _rollback_py_class(type_info: TypeInfo) -> None:
    """Forget a `_register_py_class` whose class failed to build (its key can be reused
    by Python; the C type index stays allocated)."""
    _KEY_TO_INFO.pop(type_info.type_key, None)
    _ROLLED_BACK.add(type_info.type_key)
    if type_info.type_cls is not None:
        _CLS_TO_INFO.pop(type_info.type_cls, None)
    if _INDEX_TO_INFO.get(type_info.type_index) is type_info:
        del _INDEX_TO_INFO[type_info.type_index]


# ---- fields of Python-defined types -------------------------------------------------------

# storage per schema origin: (size, alignment, static type index); anything else is an
# object reference (8 bytes).  str/bytes/Optional/Union can hold inline values: an Any.
_NATIVE_LAYOUT = {
    "int": (8, 8, _INT), "float": (8, 8, _FLOAT), "bool": (1, 1, _BOOL),
    "ctypes.c_void_p": (8, 8, _PTR), "dtype": (4, 2, _DTYPE), "Device": (8, 4, _DEVICE),
    "Any": (16, 8, _ANY), "str": (16, 8, _ANY), "bytes": (16, 8, _ANY),
    "Optional": (16, 8, _ANY), "Union": (16, 8, _ANY),
}

# origins whose values the setter's C fast path accepts unchanged when already of that type
_FAST_KIND = {"int": "int", "float": "float", "bool": "bool", "str": "str", "Any": "any"}
_STRUCTURED = {"Array", "List", "Map", "Dict", "tuple", "Callable", "list", "dict"}


def _fast_kind(ty: Any) -> tuple[str, int]:
    origin = ty.origin
    if origin in _FAST_KIND:
        return _FAST_KIND[origin], -1
    index = getattr(ty, "origin_type_index", -1)
    if index >= _OBJECT and origin not in _STRUCTURED and origin not in ("str", "bytes"):
        return "object", index
    if origin == "Optional" and ty.args:
        inner = ty.args[0]
        index = getattr(inner, "origin_type_index", -1)
        if index >= _OBJECT and inner.origin not in _STRUCTURED and inner.origin not in (
                "str", "bytes"):
            return "optional_object", index
    return "call", -1


def _basic_converter(origin: str) -> Optional[Callable[[Any], Any]]:
    """A converter for plain scalar origins, used when TypeSchema has no `convert`."""
    def to_int(v: Any) -> Any:
        if isinstance(v, int):
            return int(v)
        raise TypeError(f"expected int, got {type(v).__name__}")

    def to_float(v: Any) -> Any:
        if isinstance(v, (int, float)):
            return float(v)
        raise TypeError(f"expected float, got {type(v).__name__}")

    def to_bool(v: Any) -> Any:
        if isinstance(v, int):
            return bool(v)
        raise TypeError(f"expected bool, got {type(v).__name__}")

    def to_str(v: Any) -> Any:
        if isinstance(v, str):
            return v
        raise TypeError(f"expected str, got {type(v).__name__}")

    return {"int": to_int, "float": to_float, "bool": to_bool, "str": to_str}.get(origin)


def _slow_converter(ty: Any) -> Optional[Callable[[Any], Any]]:
    """value -> the value to store, for values the C fast path does not accept."""
    convert = getattr(ty, "convert", None)
    if convert is None:
        return _basic_converter(ty.origin)
    if hasattr(core, "_build_converter"):
        # The C converter (built on first use), raising the bare reason of a mismatch.
        def field_value(value: Any, _ty: Any = ty) -> Any:
            return _ty._converter.field_value(value)

        return field_value
    unwrap = getattr(core, "_to_py_class_value", None)
    if unwrap is None:
        return convert

    def conv(value: Any) -> Any:
        return unwrap(convert(value))

    return conv


def _subclass_offset(info: Optional[TypeInfo]) -> int:
    """Where a direct subclass's first field may start: the unpadded end of `info`'s."""
    if info is None:
        return _OBJECT_HEADER_SIZE
    end = _subclass_offset(info.parent_type_info)
    for f in info.fields or ():
        end = max(end, f.offset + f.size)
    return end


_MAKE_FIELD_GETTER = core.get_global_func("ffi.MakeFieldGetter")
_PYCLASS_REGISTER = core.get_global_func("ffi._PyClassRegisterTypeAttrColumns")


def _field_flags(py_field: Any) -> int:
    flags = _F_WRITABLE
    if py_field.default is not MISSING or py_field.default_factory is not MISSING:
        flags |= _F_HAS_DEFAULT
    if py_field.default_factory is not MISSING:
        flags |= _F_FROM_FACTORY
    for attr, bit in (("init", _F_INIT_OFF), ("repr", _F_REPR_OFF), ("hash", _F_HASH_OFF),
                      ("compare", _F_COMPARE_OFF)):
        if not getattr(py_field, attr):
            flags |= bit
    if py_field.kw_only:
        flags |= _F_KW_ONLY
    seq = getattr(py_field, "structural_eq", None)
    if seq == "ignore":
        flags |= _F_SEQ_IGNORE
    elif seq in ("def-pattern", "def"):
        flags |= _F_SEQ_DEF_PATTERN
    elif seq == "def-simple":
        flags |= _F_SEQ_DEF_SIMPLE
    return flags


def _register_fields(type_info: TypeInfo, fields: list[Any],
                     structure_kind: Optional[int] = None) -> list[TypeField]:
    """Lay out and register `fields` (dataclass Field descriptors, each with `_ty_schema`)
    for the Python-defined type `type_info`, give the type __ffi_new__, __ffi_init__ and
    __ffi_shallow_copy__, and return the new TypeFields."""
    index = type_info.type_index
    offset = _subclass_offset(type_info.parent_type_info)
    out = []
    for pos, py_field in enumerate(fields):
        ty = py_field._ty_schema
        size, align, sti = _NATIVE_LAYOUT.get(ty.origin, (8, 8, _OBJECT))
        offset = (offset + align - 1) & ~(align - 1)
        kind, target = _fast_kind(ty)
        setter = core._make_field_setter(sti, kind, target, _slow_converter(ty))
        schema_json = ty.to_json()
        flags = _field_flags(py_field)
        has_default = bool(flags & _F_HAS_DEFAULT)
        default = py_field.default_factory if flags & _F_FROM_FACTORY else py_field.default
        core._type_register_field(index, py_field.name, py_field.doc,
                                  _json_dumps({"type_schema": schema_json}), flags, size, align,
                                  offset, sti, _MAKE_FIELD_GETTER(sti), setter,
                                  default if has_default else None)
        accessor = core._field_property(index, pos, False)
        out.append(TypeField(
            name=py_field.name, doc=py_field.doc, size=size, alignment=align, offset=offset,
            field_static_type_index=sti, frozen=bool(getattr(py_field, "frozen", False)),
            metadata={"type_schema": schema_json}, getter=accessor.fget, setter=accessor.set,
            ty=ty, c_init=bool(py_field.init), c_kw_only=bool(py_field.kw_only),
            c_has_default=has_default, c_default=py_field.default,
            c_default_factory=py_field.default_factory, c_repr=bool(py_field.repr),
            c_compare=bool(py_field.compare), c_hash=bool(py_field.hash),
            c_structural_eq=getattr(py_field, "structural_eq", None),
            _owner_index=index, _position=pos))
        offset += size
    total = max((offset + 7) & ~7, _OBJECT_HEADER_SIZE)
    # the size (and structural kind, 0 = unsupported) lets libtether allocate the objects
    core._type_register_metadata(index, total, structure_kind or 0)
    type_info._size_only_metadata = not structure_kind
    _PYCLASS_REGISTER(index, total)
    return out


def _register_py_methods(type_index: int, py_methods: list[tuple],
                         type_attr_names: frozenset[str] = frozenset()) -> None:
    """Register (name, value, is_static[, metadata JSON]) entries: names in
    `type_attr_names` as type attributes, the others as methods of the type."""
    for entry in py_methods:
        name, value, is_static = entry[0], entry[1], entry[2]
        metadata = entry[3] if len(entry) > 3 else None
        if name in type_attr_names:
            core._register_type_attr(type_index, name, value)
        else:
            core._type_register_method(type_index, name, value, is_static, metadata)


# ---- classes ------------------------------------------------------------------------------


class DataType(core.dtype):
    """A data type (a ``dtype``) under the name tvm_ffi.core gives its C data type class."""

    __slots__ = ()


DataType.__module__ = "tether.core"


class ObjectConvertible:
    """Base of Python classes that convert to an FFI Object through ``asobject()``."""

    def asobject(self) -> Any:
        """The Object this value stands for."""
        raise NotImplementedError()


class PyNativeObject:
    """Mixin of Python builtins (str, bytes) that also carry an FFI object."""

    __slots__ = []

    def __init_cached_object_by_constructor__(self, fconstructor: Any, *args: Any) -> None:
        """Build the carried object with ``fconstructor(*args)``."""
        obj = core.Object.__new__(core.Object)
        obj.__init_handle_by_constructor__(fconstructor, *args)
        self._tvm_ffi_cached_object = obj


class OpaquePyObject(core.Object):
    """An arbitrary Python object carried across the FFI unconverted."""

    __slots__ = ()

    def pyobject(self) -> Any:
        """The Python object this wraps."""
        return core._opaque_pyobject(self)


def _make_fallback_class(type_index: int) -> type:
    """The class of a type no Python class was registered for, parented on its parent
    type's class, with the type's fields and methods."""
    info = _info_for_index(type_index)
    parent = info.parent_type_info
    parent_cls = core._class_for_index(parent.type_index) if parent is not None else core.Object
    key = info.type_key
    module, _, name = key.rpartition(".")
    ns = {
        "__slots__": (), "__module__": module or "tether.core", "__qualname__": key,
        "__tether_auto_class__": True,
        "__doc__": (f"Auto-generated fallback class for {key}: no Python class is registered "
                    "for this type.\nRegister one with the `register_object` decorator "
                    "instead of using this class."),
    }
    cls = type(parent_cls)(name, (parent_cls,), ns)
    core._register_object(key, cls)  # fields, methods and __init__ from __ffi_init__
    info.type_cls = cls
    cls.__tvm_ffi_type_info__ = info
    _update_registry(info, cls)
    return cls


def _install() -> None:
    """Puts this module's names into tether.core and binds its classes."""
    for name in __all__:
        value = globals()[name]
        if isinstance(value, type):
            value.__module__ = "tether.core"
        setattr(core, name, value)
    core._register_object("ffi.OpaquePyObject", OpaquePyObject)
    _update_registry(_info_from_table(OpaquePyObject, _OPAQUE_PY), OpaquePyObject)
    core._set_fallback_class_maker(_make_fallback_class)
