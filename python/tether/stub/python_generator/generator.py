"""``PythonGenerator``: the Python target behind ``--target python`` (the default)."""
from __future__ import annotations

from pathlib import Path
from typing import List, Mapping, Set, Tuple

from .. import consts as C
from ..file_utils import CodeBlock
from ..utils import FuncInfo, InitConfig, ObjectInfo, Options
from . import codegen
from . import consts as PC
from .utils import ImportItem, PythonImports


class PythonGenerator:
    """Type stubs in ``.py``/``.pyi`` files; its import collector is a ``PythonImports``."""

    name = "python"
    syntax = C.PYTHON_SYNTAX
    source_exts = frozenset({".py", ".pyi"})
    directive_kinds = frozenset({"import-object"})

    def default_ty_map(self) -> dict:
        return dict(PC.TY_MAP_DEFAULTS)

    def new_imports(self) -> PythonImports:
        return PythonImports()

    def add_directive(self, imports: PythonImports, name: str, payload: str, lineno: int) -> None:
        """``import-object: <full name>[;<type checking only: True/False>[;<alias>]]``."""
        if name != "import-object":
            raise ValueError(f"Unknown directive `{name}` at line {lineno}")
        full_name, checking, alias = ([p.strip() for p in payload.split(";")] + ["", ""])[:3]
        imports.items.append(ImportItem(full_name, type_checking_only=checking.lower() == "true",
                                        alias=alias or None))
        if alias == "_FFI_LOAD_LIB" or full_name.endswith("libinfo.load_lib_module"):
            imports.has_lib_load = True

    def canonical_type_name(self, type_key: str) -> str:
        return ImportItem(type_key).full_name

    def extra_export_names(self, imports: PythonImports) -> Set[str]:
        return {"LIB"} if imports.has_lib_load else set()

    def is_builtin(self, type_key: str) -> bool:
        return type_key in C.BUILTIN_TYPE_KEYS

    def check_view(self, code_blocks: List[CodeBlock]) -> Tuple[str, ...]:
        """For ``--check``: the whole text, so any changed line makes the file stale."""
        return tuple(line for code in code_blocks for line in code.lines)

    def generate_global_funcs_block(self, code: CodeBlock, global_funcs: List[FuncInfo],
                                    ty_map: dict, imports: PythonImports, opt: Options) -> None:
        codegen.generate_python_global_funcs(code, global_funcs, ty_map, imports.items, opt)

    def generate_object_block(self, code: CodeBlock, ty_map: dict, imports: PythonImports,
                              opt: Options, obj_info: ObjectInfo,
                              declared: Mapping[str, Path]) -> None:
        codegen.generate_python_object(code, ty_map, imports.items, opt, obj_info)

    def generate_import_section_block(self, code: CodeBlock, imports: PythonImports,
                                      opt: Options, defined_types: Set[str]) -> None:
        """The collected imports, except of the types this file defines itself."""
        wanted = [item for item in imports.items if item.full_name not in defined_types]
        codegen.generate_python_import_section(code, wanted, opt)

    def generate_all_block(self, code: CodeBlock, names: Set[str], opt: Options) -> None:
        codegen.generate_python_all(code, names, opt)

    def generate_export_block(self, code: CodeBlock) -> None:
        codegen.generate_python_export(code)

    def generate_helpers_block(self, code: CodeBlock, opt: Options) -> None:
        """Python files have no per-file helper code."""

    def api_filename(self) -> str:
        return "_ffi_api.py"

    def init_filename(self) -> str:
        return "__init__.py"

    def generate_api_file(self, code_blocks: List[CodeBlock], ty_map: dict, module_name: str,
                          object_infos: List[ObjectInfo], init_cfg: InitConfig,
                          is_root: bool) -> str:
        return codegen.generate_python_ffi_api(code_blocks, ty_map, module_name, object_infos,
                                               init_cfg, is_root, self.syntax)

    def generate_init_file(self, code_blocks: List[CodeBlock], module_name: str,
                           submodule: str) -> str:
        return codegen.generate_python_init(code_blocks, module_name, submodule, self.syntax)

    def finalize_init(self, init_path: Path, generated_prefixes: Set[str]) -> None:
        """Python packages need no wiring between parent and child."""
