"""The Rust target's tables: crate paths, scalar widths, identifiers."""

#: One-line directives the Rust target consumes (see ``directives``).
RUST_DIRECTIVE_KINDS = frozenset(
    {"import-object", "field", "nullable", "enum", "opaque", "upcast", "custom-new"})

#: Registry origin (or builtin type key) -> the Rust type (a ``::`` path is imported).
#: Containers are the crate's own, not std's; an object handle is ``ObjectRef``.
RUST_TY_MAP_DEFAULTS = {
    "int": "i64",
    "float": "f64",
    "bool": "bool",
    "None": "()",
    "str": "tvm_ffi::String",
    "bytes": "tvm_ffi::Bytes",
    "Any": "tvm_ffi::Any",
    "Callable": "tvm_ffi::Function",
    "Array": "tvm_ffi::Array",
    "List": "tvm_ffi::List",
    "Map": "tvm_ffi::Map",
    "Object": "tvm_ffi::object::ObjectRef",
    "Tensor": "tvm_ffi::Tensor",
    "Shape": "tvm_ffi::Shape",
    "Device": "tvm_ffi::DLDevice",
    "dtype": "tvm_ffi::DLDataType",
    "DataType": "tvm_ffi::DLDataType",
    "ffi.String": "tvm_ffi::String",
    "ffi.Bytes": "tvm_ffi::Bytes",
    "ffi.BigInt": "tvm_ffi::BigInt",
    "ffi.Module": "tvm_ffi::Module",
    "ffi.Error": "tvm_ffi::Error",
    "ffi.Object": "tvm_ffi::object::ObjectRef",
    "ffi.Tensor": "tvm_ffi::Tensor",
    "ffi.Shape": "tvm_ffi::Shape",
    "ffi.Function": "tvm_ffi::Function",
    "ffi.reflection.AccessPath": "tvm_ffi::reflection::AccessPath",
    "ffi.reflection.AccessStep": "tvm_ffi::reflection::AccessStep",
}

#: Origins with no Rust value type in the crate.
RUST_UNSUPPORTED_ORIGINS = frozenset({"Dict", "Union", "tuple"})

#: A reflected scalar of a known width takes the Rust type of that width.
RUST_SCALAR_BY_SIZE = {
    ("int", 1): "i8", ("int", 2): "i16", ("int", 4): "i32", ("int", 8): "i64",
    ("float", 4): "f32", ("float", 8): "f64",
}

#: Byte widths of the Rust scalars a directive may name.
RUST_SCALAR_WIDTHS = {
    "i8": 1, "u8": 1, "bool": 1, "i16": 2, "u16": 2, "i32": 4, "u32": 4, "f32": 4,
    "i64": 8, "u64": 8, "f64": 8,
}

#: Parameter types an allocator takes as they are (anything else as ``impl Into<T>``).
RUST_EXACT_PARAMS = frozenset(
    {"bool", "i8", "i16", "i32", "i64", "isize", "u8", "u16", "u32", "u64", "usize", "f32", "f64"})

RUST_POINTER_SIZE = 8
RUST_OPTIONAL_PATH = "tvm_ffi::Optional"
#: An ``Optional`` of a non-object payload is a 16-byte ``TVMFFIAny`` cell; of an object,
#: a nullable pointer.
RUST_OPTIONAL_FIELD_SIZE = 16
RUST_OBJECT_OPTIONAL_FIELD_SIZE = 8
RUST_ANY_BACKED_OPTIONAL_PAYLOADS = frozenset(
    {"int", "float", "bool", "Device", "dtype", "DataType", "str", "bytes"})

#: Registry namespaces bound by a crate: ``ffi.X`` is ``tvm_ffi::X``.
RUST_MOD_MAP = {"ffi": "tvm_ffi"}
RUST_ROOT_TYPE_KEY = "ffi.Object"

RUST_KEYWORDS = frozenset(
    "as async await break const continue crate dyn else enum extern false fn for if impl in "
    "let loop match mod move mut pub ref return self Self static struct super trait true type "
    "unsafe use where while abstract become box do final gen macro override priv try typeof "
    "unsized virtual yield".split())
#: Keywords that cannot be raw identifiers.
RUST_NOT_RAW_IDENTIFIERS = frozenset({"self", "Self", "super", "crate"})
#: Member names the generated structs use themselves.
RUST_RESERVED_MEMBERS = frozenset({"base"})

#: rustfmt's line width, which generated calls wrap at.
RUST_MAX_WIDTH = 100
