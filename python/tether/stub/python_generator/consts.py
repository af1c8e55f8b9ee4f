"""The Python target's tables: how registry names become Python annotations and imports."""
from ..consts import FFI_PACKAGE

#: Registry origin -> the dotted Python name an output (a return value, a field) is
#: annotated with.  A ``ty-map`` directive adds or overrides entries.
TY_MAP_DEFAULTS = {
    "Any": "typing.Any",
    "Callable": "typing.Callable",
    "Array": "collections.abc.Sequence",
    "List": "collections.abc.MutableSequence",
    "Map": "collections.abc.Mapping",
    "Dict": "collections.abc.MutableMapping",
    "Object": "ffi.Object",
    "Tensor": "ffi.Tensor",
    "dtype": "ffi.dtype",
    "Device": "ffi.Device",
    "ffi.Enum": f"{FFI_PACKAGE}.dataclasses.Enum",
}

#: The container annotations of inputs (parameters) where they differ from outputs: a
#: function accepting an Array or a List accepts any sequence, and so on.
TY_MAP_INPUT_DEFAULTS = {
    "Array": "collections.abc.Sequence",
    "List": "collections.abc.Sequence",
    "Map": "collections.abc.Mapping",
    "Dict": "collections.abc.Mapping",
}

#: Registry namespaces whose Python module has another name (``ffi.Object`` is imported
#: from the runtime package, ``testing.X`` from its testing module).
MOD_MAP = {
    "testing": f"{FFI_PACKAGE}.testing",
    "ffi": FFI_PACKAGE,
}
