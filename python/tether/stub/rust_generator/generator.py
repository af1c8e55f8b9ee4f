"""``RustGenerator``: the Rust target behind ``--target rust``."""
from __future__ import annotations

from pathlib import Path
from typing import Dict, Iterator, List, Mapping, Set, Tuple

from .. import consts as C
from ..file_utils import CodeBlock
from ..utils import FuncInfo, InitConfig, ObjectInfo, Options
from . import codegen
from . import consts as RC
from .utils import RustImports, RustUse, check_tokens, is_crate_type_key, rust_module_path


class _ModulesOf(Mapping):
    """The run's ``object/`` blocks, by type key, to the module of the file each is in
    (computed when asked: a file outside a crate is only an error if something refers to it)."""

    def __init__(self, files: Mapping[str, Path]) -> None:
        self._files = files

    def __getitem__(self, type_key: str) -> Tuple[str, ...]:
        return rust_module_path(self._files[type_key])

    def __contains__(self, type_key: object) -> bool:
        return type_key in self._files

    def __iter__(self) -> Iterator[str]:
        return iter(self._files)

    def __len__(self) -> int:
        return len(self._files)


class RustGenerator:
    """Rust bindings in ``.rs`` files: per object a ``#[repr(C)]`` object struct and its
    reference wrapper (see ``codegen``).  Global functions need no binding (the crate
    reaches them by name)."""

    name = "rust"
    syntax = C.RUST_SYNTAX
    source_exts = frozenset({".rs"})
    directive_kinds = RC.RUST_DIRECTIVE_KINDS

    def default_ty_map(self) -> Dict[str, str]:
        return dict(RC.RUST_TY_MAP_DEFAULTS)

    def new_imports(self) -> RustImports:
        return RustImports()

    def add_directive(self, imports: RustImports, name: str, payload: str, lineno: int) -> None:
        """``import-object`` imports the path in its first ``;`` field; the other names are
        parsed into ``imports.directives``."""
        if name == "import-object":
            imports.record(payload.partition(";")[0].strip())
        else:
            imports.directives.add(name, payload, lineno)

    def canonical_type_name(self, type_key: str) -> str:
        return RustUse(type_key).path

    def extra_export_names(self, imports: RustImports) -> Set[str]:
        return set()

    def is_builtin(self, type_key: str) -> bool:
        return is_crate_type_key(type_key)

    def check_view(self, code_blocks: List[CodeBlock]) -> dict:
        """For ``--check``: the tokens of what the object blocks and the import section
        define, so imports, comments, wrapping and module paths do not count."""
        view = {}
        for code in code_blocks:
            if code.kind in ("object", "import-section"):
                tokens = check_tokens(code.lines[1:-1])
                if tokens:
                    view[(code.kind, code.param)] = tokens
        return view

    def generate_global_funcs_block(self, code: CodeBlock, global_funcs: List[FuncInfo],
                                    ty_map: dict, imports: RustImports, opt: Options) -> None:
        """Nothing: Rust calls global functions by name through the crate."""

    def generate_object_block(self, code: CodeBlock, ty_map: dict, imports: RustImports,
                              opt: Options, obj_info: ObjectInfo,
                              declared: Mapping[str, Path]) -> None:
        codegen.generate_rust_object(code, ty_map, imports, opt, obj_info, _ModulesOf(declared))

    def generate_import_section_block(self, code: CodeBlock, imports: RustImports,
                                      opt: Options, defined_types: Set[str]) -> None:
        codegen.generate_rust_import_section(code, imports, opt, defined_types)

    def generate_all_block(self, code: CodeBlock, names: Set[str], opt: Options) -> None:
        """Nothing: Rust has no export list."""

    def generate_export_block(self, code: CodeBlock) -> None:
        """Nothing: submodules are declared by ``finalize_init``."""

    def generate_helpers_block(self, code: CodeBlock, opt: Options) -> None:
        """Nothing: the bindings need no per-file helpers."""

    def api_filename(self) -> str:
        return "mod.rs"

    def init_filename(self) -> str:
        return "mod.rs"

    def generate_api_file(self, code_blocks: List[CodeBlock], ty_map: dict, module_name: str,
                          object_infos: List[ObjectInfo], init_cfg: InitConfig,
                          is_root: bool) -> str:
        return codegen.generate_rust_api_file(code_blocks, ty_map, module_name, object_infos,
                                              init_cfg, is_root, self.syntax)

    def generate_init_file(self, code_blocks: List[CodeBlock], module_name: str,
                           submodule: str) -> str:
        return ""  # the API file is the module itself

    def finalize_init(self, init_path: Path, generated_prefixes: Set[str]) -> None:
        codegen.finalize_rust_module_tree(init_path, generated_prefixes)
