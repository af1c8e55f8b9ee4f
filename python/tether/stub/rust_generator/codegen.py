"""Rendering object bindings for the ``tvm_ffi`` Rust crate.

Each ``object/<type_key>`` block becomes a ``#[repr(C)]`` object struct ``<Leaf>Obj``, a
reference wrapper ``<Leaf>``, the ``Deref``s between them and to the parent's struct, and
``impl_object_upcast!`` to every ancestor.  The struct follows the ``layout`` verdict:

- complete: every field at its real offset and width, pinned by ``size_of``/``align_of``
  assertions; ``<Leaf>Obj::new`` takes every field root to leaf as its own type, the
  wrapper's ``new`` takes scalars as they are and everything else as ``impl Into``
  (``custom-new`` renames it ``from_fields``).  A type that is not final gets a public
  ``<Leaf>Obj::new`` and, when every ancestor is generated here too, ``ShallowCopy`` and
  ``UnsafeInit``: what the crate needs of a parent to derive a type in Rust;
- opaque: the struct embeds its parent only; each field is read through the C ABI getter
  (as ``Any`` when it has no Rust type).

A builtin ancestor below ``ffi.Object`` (``ffi.IntEnum``) has no struct in the crate: the
file's import section defines a header-only stand-in per builtin ancestor, so the derived
``TYPE_DEPTH`` matches the registry; no type under one is complete.

Every type key a binding names (parent, ancestors, field types) must be provided by the
run: ``ffi.*`` by the crate, a ``ty-map`` entry by a hand-written binding whose struct is
``<Name>Obj``, anything else by an ``object/`` block in a file of the run.  A generated
type is spelled from the module its block's file is: bare in the same module, by its
``crate::`` path elsewhere.
"""
from __future__ import annotations

from pathlib import Path
from typing import Dict, Iterable, List, Mapping, Optional, Set, Tuple

from .. import consts as C
from ..file_utils import CodeBlock
from ..layout import Verdict, classify
from ..lib_state import object_info_from_type_key
from ..utils import InitConfig, ObjectInfo, Options
from . import consts as RC
from .directives import EnumSpec
from .utils import RustImports, builtin_mirror_name, is_crate_type_key, render_rust_type, rust_ident

__all__ = ["finalize_rust_module_tree", "generate_rust_api_file", "generate_rust_import_section",
           "generate_rust_object"]

_INDENT = "    "


def _wrap(head: str, items: List[str], tail: str) -> List[str]:
    """``head + items + tail`` on one line when it fits rustfmt's width, else wrapped as
    rustfmt does: a ``let`` first moves its right-hand side to the next line, and what
    still does not fit takes one item per line."""
    line = head + ", ".join(items) + tail
    if len(line) <= RC.RUST_MAX_WIDTH:
        return [line]
    pad = head[:len(head) - len(head.lstrip())]
    lhs, eq, rhs = head.partition(" = ")
    if eq:
        moved = pad + _INDENT + rhs + ", ".join(items) + tail
        if len(moved) <= RC.RUST_MAX_WIDTH:
            return [lhs + " =", moved]
    return [head.rstrip(), *(f"{pad}{_INDENT}{item}," for item in items), pad + tail.lstrip()]


def _lint_allowance(idents: Iterable[str]) -> List[str]:
    """``#[allow(non_snake_case)]`` when one of ``idents`` is not snake case."""
    for ident in idents:
        bare = ident[2:] if ident.startswith("r#") else ident
        if bare != bare.lower():
            return ["#[allow(non_snake_case)]"]
    return []


def _as_param(rust_type: str) -> str:
    return rust_type if rust_type in RC.RUST_EXACT_PARAMS else f"impl Into<{rust_type}>"


def _as_arg(ident: str, rust_type: str) -> str:
    return ident if rust_type in RC.RUST_EXACT_PARAMS else f"{ident}.into()"


def _check_width(target: str, field, rust_type: str, width: int) -> None:
    if field.size is not None and field.size != width:
        raise ValueError(f"Directive on `{target}` maps a {field.size}-byte field to "
                         f"`{rust_type}` ({width} bytes)")


def _by_offset(fields):
    return sorted(fields, key=lambda f: f.offset or 0)


def _deref(source: str, target: str) -> List[str]:
    return [
        f"impl Deref for {source} {{",
        f"    type Target = {target};",
        f"    fn deref(&self) -> &{target} {{",
        "        &self.base",
        "    }",
        "}",
    ]


class _Binding:
    """The Rust source of one ``object/`` block."""

    def __init__(self, info: ObjectInfo, imports: RustImports, ty_map: Dict[str, str],
                 module: Tuple[str, ...], declared: Mapping[str, Tuple[str, ...]]) -> None:
        self.info = info
        self.imports = imports
        self.directives = imports.directives
        self.ty_map = ty_map
        self.module = module
        self.declared = declared
        self.missing: Set[str] = set()  # referenced keys nobody provides
        self.type_key = info.type_key
        self.leaf = self.type_key.rpartition(".")[2]
        self.obj = self.leaf + "Obj"

    # --- who binds a type key, and how it is spelled here --------------------------

    def provider(self, type_key: str) -> Optional[str]:
        """``"crate"`` (``ffi.*``), ``"mapped"`` (a ``ty-map`` to a hand-written binding),
        ``"generated"`` (an ``object/`` block of the run), or ``None``, noting it missing."""
        if is_crate_type_key(type_key):
            return "crate"
        if type_key in self.ty_map:
            return "mapped"
        if type_key in self.declared:
            return "generated"
        self.missing.add(type_key)
        return None

    def generated_path(self, type_key: str) -> str:
        """A generated type: bare in its own module, by its ``crate::`` path elsewhere."""
        if type_key.partition(".")[0] in RC.RUST_MOD_MAP:
            return type_key
        leaf = type_key.rpartition(".")[2]
        module = self.declared[type_key] if type_key in self.declared else self.module
        return leaf if module == self.module else "::".join((*module, leaf))

    def use_mapped(self, path: str, imports: RustImports) -> str:
        """A ``ty-map`` target: in scope already when it lives in this file's module."""
        module, _, name = path.rpartition("::")
        return name if module == "::".join(self.module) else imports.record(path)

    def name_leaf(self, origin: str, imports: RustImports, type_key: Optional[str] = None
                  ) -> Optional[str]:
        """The Rust name of a schema leaf, or ``None``.  A ``ty-map`` entry of the key the
        schema folded (``ffi.BigInt`` into ``int``) wins over the origin's."""
        key = type_key if type_key in self.ty_map else origin
        if key in self.ty_map:
            return self.use_mapped(self.ty_map[key], imports)
        if "." not in origin or origin.startswith("ctypes."):
            return None
        if not all(part.isidentifier() for part in origin.split(".")):
            return None  # not a type key (a malformed schema): no Rust type, read as Any
        if self.provider(origin) == "crate":
            return None  # an `ffi.*` type the crate has no Rust type for: read as Any
        return imports.record(self.generated_path(origin))

    def rust_type(self, schema, imports: RustImports) -> Optional[str]:
        return render_rust_type(schema, lambda o, k: self.name_leaf(o, imports, k))

    def spell(self, rust_type: str, imports: RustImports) -> str:
        """A type named by a directive: a ``::`` path is imported."""
        return imports.record(rust_type) if "::" in rust_type else rust_type

    # --- field types -----------------------------------------------------------------

    def mirror(self, owner: str, field, imports: RustImports) -> Optional[str]:
        """The in-struct Rust type of a field of ``owner``, or ``None`` when it has none.
        Directives first, then scalars by their reflected width, ``Optional`` by its C++
        layout, else the schema."""
        target = f"{owner}.{field.name}"
        enum = self.directives.enums.get(target)
        if enum is not None:
            _check_width(target, field, enum.repr, RC.RUST_SCALAR_WIDTHS[enum.repr])
            return enum.name
        override = self.directives.field_types.get(target)
        if override is not None:
            if override in RC.RUST_SCALAR_WIDTHS:
                _check_width(target, field, override, RC.RUST_SCALAR_WIDTHS[override])
            found: Optional[str] = self.spell(override, imports)
        elif field.origin == "Optional":
            found = self.optional_mirror(field, imports)
        else:
            found = (RC.RUST_SCALAR_BY_SIZE.get((field.origin, field.size))
                     or self.rust_type(field, imports))
        if found is None or target not in self.directives.nullable or found.startswith("Option<"):
            return found
        if field.size not in (None, RC.RUST_POINTER_SIZE):
            raise ValueError(f"`nullable` directive on `{target}`: the field is {field.size} "
                             "bytes, not a pointer-sized object reference")
        return f"Option<{found}>"

    def optional_mirror(self, field, imports: RustImports) -> Optional[str]:
        """``Optional<T>`` in place: a nullable pointer (``Option<T>``) for an object
        payload, a 16-byte ``TVMFFIAny`` cell (``tvm_ffi::Optional<T>``) otherwise.  No
        mirror for ``Optional<Any>`` or when the reflected size disagrees."""
        payload = field.args[0]
        if payload.origin == "Any":
            return None
        inner = self.rust_type(payload, imports)
        if inner is None:
            return None
        in_cell = payload.origin in RC.RUST_ANY_BACKED_OPTIONAL_PAYLOADS or payload.origin == "Optional"
        size = RC.RUST_OPTIONAL_FIELD_SIZE if in_cell else RC.RUST_OBJECT_OPTIONAL_FIELD_SIZE
        if field.size not in (None, size):
            return None
        if in_cell:
            return f"{imports.record(RC.RUST_OPTIONAL_PATH)}<{inner}>"
        return f"Option<{inner}>"

    # --- the verdict ---------------------------------------------------------------

    def verdict(self) -> Verdict:
        """This type's layout verdict, with its ancestors, under the file's directives."""
        infos = {key: object_info_from_type_key(key) for key in self.info.ancestors}
        infos[self.type_key] = self.info
        owners = {id(f): key for key, info in infos.items() for f in info.fields}
        scratch = RustImports()  # renderability must not import anything
        builtins = {key for key in self.info.ancestors
                    if key != RC.RUST_ROOT_TYPE_KEY and self.provider(key) == "crate"}
        verdicts = classify(
            infos, forced_opaque=self.directives.opaque, unmirrored=builtins,
            field_renderable=lambda f: self.mirror(owners[id(f)], f, scratch) is not None)
        return verdicts[self.type_key]

    def base(self) -> Tuple[str, bool]:
        """The struct embedded as ``base``, and whether it is a parent bound outside the
        crate (generated or mapped); a builtin parent is embedded as its stand-in."""
        parent = self.info.parent_type_key
        if parent is not None:
            kind = self.provider(parent)
            if kind == "mapped":
                return self.use_mapped(self.ty_map[parent] + "Obj", self.imports), True
            if kind != "crate":
                return self.imports.record(self.generated_path(parent) + "Obj"), True
        chain = [key for key in self.info.ancestors if key != RC.RUST_ROOT_TYPE_KEY]
        if parent not in (None, RC.RUST_ROOT_TYPE_KEY) and parent not in chain:
            chain.append(parent)
        return self.imports.record_builtin_base(chain), False

    # --- sections ------------------------------------------------------------------

    def enum_section(self, spec: EnumSpec) -> List[str]:
        error = self.imports.record("tvm_ffi::Error")
        value_error = self.imports.record("tvm_ffi::VALUE_ERROR")
        result = self.imports.record("tvm_ffi::Result")
        return [
            "#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]",
            "#[repr(transparent)]",
            f"pub struct {spec.name}({spec.repr});",
            "",
            "#[allow(non_upper_case_globals)]",
            f"impl {spec.name} {{",
            *(f"    pub const {name}: Self = Self({value});" for name, value in spec.members),
            f"    pub const fn from_raw(value: {spec.repr}) -> Self {{",
            "        Self(value)",
            "    }",
            f"    pub const fn as_raw(self) -> {spec.repr} {{",
            "        self.0",
            "    }",
            "}",
            "",
            f"impl TryFrom<i64> for {spec.name} {{",
            f"    type Error = {error};",
            f"    fn try_from(value: i64) -> {result}<Self> {{",
            f"        {spec.repr}::try_from(value).map(Self).map_err(|_| {{",
            f'            {error}::new({value_error}, &format!("{spec.name} value {{value}} '
            f'does not fit {spec.repr}"), "")',
            "        })",
            "    }",
            "}",
        ]

    def struct_section(self, verdict: Verdict, base: str) -> List[str]:
        head = [
            "#[repr(C)]",
            "#[derive(tvm_ffi::derive::Object)]",
            f'#[type_key = "{self.type_key}"]',
            *(["#[type_final]"] if self.info.is_final else []),
            f"pub struct {self.obj} {{",
            f"    base: {base},",
        ]
        if not verdict.is_complete:
            return [f"/// Opaque: {verdict.detail}. Fields are read through the C ABI getters.",
                    *head, "}"]
        fields = _by_offset(self.info.fields)
        members = [f"    pub {rust_ident(f.name)}: {self.mirror(self.type_key, f, self.imports)},"
                   for f in fields]
        return [
            f"/// Complete: {verdict.detail}.",
            *_lint_allowance(rust_ident(f.name) for f in self.info.fields),
            *head, *members, "}",
            "",
            "const _: () = {",
            f"    assert!(::core::mem::size_of::<{self.obj}>() == {verdict.total_size});",
            f"    assert!(::core::mem::align_of::<{self.obj}>() == {verdict.alignment});",
            "};",
        ]

    def accessor(self, field) -> List[str]:
        """``pub fn <field>(&self) -> Result<T>`` through the C ABI getter."""
        target = f"{self.type_key}.{field.name}"
        name = rust_ident(field.name)
        getter = f'FieldGetter::new(Self::type_index(), "{field.name}")?'
        allow = _lint_allowance([name])
        enum = self.directives.enums.get(target)
        if enum is not None:
            return [*allow, f"pub fn {name}(&self) -> Result<{enum.name}> {{",
                    f"    let raw: i64 = {getter}.get(self)?;",
                    f"    {enum.name}::try_from(raw)", "}"]
        override = self.directives.field_types.get(target)
        if override is not None:
            rust_type: Optional[str] = self.spell(override, self.imports)
        elif field.origin == "Any":
            rust_type = None  # the getter's typed `get` does not read Any
        else:
            rust_type = self.rust_type(field, self.imports)
        if rust_type is None:
            any_type = self.imports.record("tvm_ffi::Any")
            return [*allow, f"pub fn {name}(&self) -> Result<{any_type}> {{",
                    f"    {getter}.get_any(self)", "}"]
        if target in self.directives.nullable and not rust_type.startswith("Option<"):
            rust_type = f"Option<{rust_type}>"
        return [*allow, f"pub fn {name}(&self) -> Result<{rust_type}> {{",
                f"    {getter}.get(self)", "}"]

    def level_params(self, key: str, info: ObjectInfo,
                     inherited: List[Tuple[str, str]]) -> List[Tuple[str, str]]:
        """The parent's allocator parameters (a ``field`` directive of ``key`` on one
        narrows it), then ``key``'s own fields by offset."""
        params = []
        for name, rust_type in inherited:
            override = self.directives.field_types.get(f"{key}.{name}")
            params.append((name, rust_type if override is None else self.spell(override, self.imports)))
        for field in _by_offset(info.fields):
            params.append((field.name, self.mirror(key, field, self.imports)))
        return params

    def chain_params(self, key: str, info: ObjectInfo) -> List[Tuple[str, str]]:
        """Every physical field of ``key`` root to leaf, as ``<key>Obj::new`` takes them."""
        inherited: List[Tuple[str, str]] = []
        parent = info.parent_type_key
        if parent is not None and self.provider(parent) != "crate":
            inherited = self.chain_params(parent, object_info_from_type_key(parent))
        return self.level_params(key, info, inherited)

    @staticmethod
    def function(head: str, params: List[Tuple[str, str]], let: str, args: List[str],
                 init: List[str], as_param=lambda t: t) -> List[str]:
        """``<head>(<params>) -> Self { let <let>(<args>); Self { <init> } }``, indented
        for an ``impl`` block."""
        idents = [rust_ident(name) for name, _ in params]
        return [
            *(_INDENT + line for line in _lint_allowance(idents)),
            *_wrap(f"    {head}(", [f"{i}: {as_param(t)}" for i, (_, t) in zip(idents, params)],
                   ") -> Self {"),
            *_wrap(f"        let {let}(", args, ");"),
            *_wrap("        Self { ", init, " }"),
            "    }",
        ]

    def allocator_sections(self, base: str, has_parent: bool) -> List[List[str]]:
        inherited: List[Tuple[str, str]] = []
        if has_parent:
            parent = self.info.parent_type_key
            inherited = self.chain_params(parent, object_info_from_type_key(parent))
        params = self.level_params(self.type_key, self.info, inherited)
        to_parent = [rust_ident(name) if mine == theirs else f"{rust_ident(name)}.into()"
                     for (name, mine), (_, theirs) in zip(params, inherited)]
        own = [rust_ident(name) for name, _ in params[len(inherited):]]
        forward = [_as_arg(rust_ident(name), t) for name, t in params]
        visibility = "pub(crate) fn new" if self.info.is_final else "pub fn new"
        wrapper = ("pub fn from_fields" if self.type_key in self.directives.custom_new
                   else "pub fn new")
        return [
            [f"impl {self.obj} {{",
             *self.function(visibility, params, f"base = {base}::new", to_parent, ["base", *own]),
             "}"],
            [f"impl {self.leaf} {{",
             "    /// Lossless complete-field allocation.",
             *self.function(wrapper, params, f"obj = {self.obj}::new", forward,
                            ["base: ObjectArc::new(obj)"], as_param=_as_param),
             "}"],
        ]

    def subtyping_sections(self) -> List[List[str]]:
        """``ShallowCopy`` and ``UnsafeInit`` for a type that is not final and whose
        ancestors below ``ffi.Object`` are all generated (a hand-written one may lack them)."""
        if self.info.is_final:
            return []
        if not all(self.provider(k) == "generated"
                   for k in self.info.ancestors if k != RC.RUST_ROOT_TYPE_KEY):
            return []
        shallow = self.imports.record("tvm_ffi::ShallowCopy")
        fields = _by_offset(self.info.fields)
        copies = [f"base: {shallow}::shallow_copy(&self.base)",
                  *(f"{rust_ident(f.name)}: Clone::clone(&self.{rust_ident(f.name)})" for f in fields)]
        copy = [f"impl {shallow} for {self.obj} {{", "    fn shallow_copy(&self) -> Self {",
                *_wrap("        Self { ", copies, " }"), "    }", "}"]

        unsafe_init = self.imports.record("tvm_ffi::UnsafeInit")
        addr = self.imports.record("std::ptr::addr_of_mut")
        drops = [f"{unsafe_init}::drop_defined_fields({addr}!((*this).base));"]
        for field in fields:
            target = f"{self.type_key}.{field.name}"
            if target in self.directives.enums:
                continue  # a plain integer
            mirror = self.mirror(self.type_key, field, self.imports)
            # All-zero bytes are None in a TVMFFIAny cell, which drops as it is.
            in_cell = target not in self.directives.field_types and (
                field.origin == "Any"
                or (field.origin == "Optional" and not mirror.startswith("Option<")))
            drop = self.imports.record("std::ptr::drop_in_place" if in_cell
                                       else "tvm_ffi::reflection::drop_if_defined")
            drops.append(f"{drop}({addr}!((*this).{rust_ident(field.name)}));")
        init = [f"unsafe impl {unsafe_init} for {self.obj} {{",
                "    unsafe fn drop_defined_fields(this: *mut Self) {",
                "        unsafe {",
                *("            " + line for line in drops),
                "        }",
                "    }",
                "}"]
        return [copy, init]

    def upcast_section(self) -> List[str]:
        targets = []
        for key in self.info.ancestors:
            kind = self.provider(key)
            if kind == "mapped":
                targets.append(self.use_mapped(self.ty_map[key], self.imports))
            elif kind != "crate":
                targets.append(self.imports.record(self.generated_path(key)))
        targets += [self.spell(view, self.imports)
                    for view in self.directives.upcasts.get(self.type_key, [])]
        if not targets:
            return []
        pairs = ", ".join(f"{self.leaf} => {target}" for target in targets)
        return [f"tvm_ffi::impl_object_upcast!({pairs});"]

    def render(self) -> List[str]:
        self.imports.reserved.update((self.leaf, self.obj))
        verdict = self.verdict()
        self.imports.record("std::ops::Deref")
        self.imports.record("tvm_ffi::ObjectArc")
        base, has_parent = self.base()
        fields = self.info.fields
        accessors = bool(fields) and not verdict.is_complete
        if accessors:
            for path in ("tvm_ffi::ObjectCore", "tvm_ffi::FieldGetter", "tvm_ffi::Result"):
                self.imports.record(path)
        sections = [self.enum_section(self.directives.enums[f"{self.type_key}.{f.name}"])
                    for f in fields if f"{self.type_key}.{f.name}" in self.directives.enums]
        sections.append(self.struct_section(verdict, base))
        sections.append([
            "#[repr(C)]",
            "#[derive(tvm_ffi::derive::ObjectRef, Clone)]",
            f"pub struct {self.leaf} {{",
            f"    base: ObjectArc<{self.obj}>,",
            "}",
        ])
        sections.append(_deref(self.leaf, self.obj))
        if has_parent:
            sections.append(_deref(self.obj, base))
        if accessors:
            body: List[str] = []
            for field in fields:
                if body:
                    body.append("")
                body += self.accessor(field)
            sections.append([f"impl {self.obj} {{",
                             *(_INDENT + line if line else "" for line in body), "}"])
        elif verdict.is_complete:
            sections += self.allocator_sections(base, has_parent)
            sections += self.subtyping_sections()
        upcast = self.upcast_section()
        if upcast:
            sections.append(upcast)
        lines: List[str] = []
        for section in sections:
            if lines:
                lines.append("")
            lines += section
        return lines


def _fill(code: CodeBlock, body: List[str]) -> None:
    pad = " " * code.indent
    code.lines = [code.lines[0], *(pad + line if line else "" for line in body), code.lines[-1]]


def generate_rust_object(code: CodeBlock, ty_map: Dict[str, str], imports: RustImports,
                         opt: Options, obj_info: ObjectInfo,
                         declared: Mapping[str, Tuple[str, ...]]) -> None:
    """Fill an ``object/<key>`` block with the binding of ``obj_info``.

    ``declared`` maps every type key with an ``object/`` block in the run (this one's
    included) to the module of its file.  ``ValueError`` when the binding refers to a
    type key the run does not provide.
    """
    binding = _Binding(obj_info, imports, ty_map, declared[obj_info.type_key], declared)
    body = binding.render()
    if binding.missing:
        keys = ", ".join(f"`{key}`" for key in sorted(binding.missing))
        raise ValueError(
            f"`{obj_info.type_key}` (line {code.lineno_start}) depends on {keys}, which this "
            "run does not ask for: add an `object/<key>` block or a `ty-map` directive for each")
    _fill(code, body)


def generate_rust_import_section(code: CodeBlock, imports: RustImports, opt: Options,
                                 defined_types: Set[str]) -> None:
    """Fill the ``import-section`` block: the ``use`` lines (deduplicated, sorted, without
    the types this file defines), then the builtin stand-ins the file's objects embed."""
    body = sorted({item.as_use_line() for item in imports.items if item.path not in defined_types})
    for type_key, base in imports.builtin_mirrors.items():
        body += [
            "",
            f"/// Header-only stand-in for the builtin `{type_key}`; it only carries the "
            "ancestor depth.",
            "#[allow(dead_code)]",
            "#[repr(C)]",
            "#[derive(tvm_ffi::derive::Object)]",
            f'#[type_key = "{type_key}"]',
            f"struct {builtin_mirror_name(type_key)} {{",
            f"    base: {base},",
            "}",
        ]
    _fill(code, body)


def generate_rust_api_file(code_blocks: List[CodeBlock], ty_map: Dict[str, str],
                           module_name: str, object_infos: List[ObjectInfo],
                           init_cfg: InitConfig, is_root: bool, syntax: C.MarkerSyntax) -> str:
    """The text ``--init`` appends to a module's ``mod.rs``: a header for a new file, an
    import section if it has none, and an empty block per object type it lacks."""
    text = ""
    if not code_blocks:
        text += ("#![allow(dead_code, unused_imports)]\n\n"
                 f"//! FFI bindings for `{module_name}` (generated by {C.TOOL}).\n\n")
    if not any(code.kind == "import-section" for code in code_blocks):
        text += f"{syntax.begin} import-section\n{syntax.end}\n\n"
    present = {code.param for code in code_blocks if code.kind == "object"}
    for info in object_infos:
        if info.type_key is not None and info.type_key not in present:
            text += f"{syntax.begin} object/{info.type_key}\n{syntax.end}\n\n"
    return text


def finalize_rust_module_tree(init_path: Path, prefixes: Set[str]) -> None:
    """Declare every generated module in its parent: ``pub mod <child>;`` lines appended to
    the parent's ``mod.rs`` (created if missing; a declaration already there is kept).  The
    user mounts ``init_path`` itself with one ``mod`` line."""
    children: Dict[Path, Set[str]] = {}
    for prefix in prefixes:
        parts = [p for p in prefix.split(".") if p]
        for depth, part in enumerate(parts):
            children.setdefault(Path(init_path).joinpath(*parts[:depth]), set()).add(part)
    for directory, names in children.items():
        directory.mkdir(parents=True, exist_ok=True)
        mod_rs = directory / "mod.rs"
        text = mod_rs.read_text(encoding="utf-8") if mod_rs.exists() else ""
        new = [f"pub mod {name};" for name in sorted(names) if f"pub mod {name};" not in text]
        if not new:
            continue
        if text and not text.endswith("\n"):
            text += "\n"
        if text.strip():
            text += "\n"
        mod_rs.write_text(text + "\n".join(new) + "\n", encoding="utf-8")
