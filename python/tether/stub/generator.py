"""The targets of the stub generator and the interface each implements.

The pipeline (``cli``) reads the registry and the files; a target (``Generator``) turns
metadata into text.  The pipeline never looks inside a target's import collector: it asks
the target for a fresh one per file, hands it the one-line directives the target declares,
passes it to every block renderer of that file, and finally asks the target to render it.
A new language is one more class with the methods below.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, FrozenSet, List, Mapping, Set

try:
    from typing import Protocol
except ImportError:  # Python < 3.8
    Protocol = object

from . import consts as C
from .file_utils import CodeBlock
from .python_generator import PythonGenerator
from .rust_generator import RustGenerator
from .utils import FuncInfo, InitConfig, ObjectInfo, Options


class Generator(Protocol):
    """One target language.

    ``*_block`` methods replace ``code.lines`` in place; ``*_file`` methods return text
    that ``--init`` appends to a scaffolded file.  ``imports`` is the per-file collector
    ``new_imports`` made.  A generator keeps no state between files.
    """

    name: str
    #: Lower-cased extensions (with the dot) of the files it owns; directory scans visit
    #: only these, so one tree can hold the files of several targets.
    source_exts: FrozenSet[str]
    syntax: C.MarkerSyntax
    #: The one-line directives it consumes (besides the pipeline's own).
    directive_kinds: FrozenSet[str]

    def default_ty_map(self) -> Dict[str, str]: ...
    def new_imports(self) -> Any: ...
    def add_directive(self, imports: Any, name: str, payload: str, lineno: int) -> None: ...
    def canonical_type_name(self, type_key: str) -> str: ...
    def extra_export_names(self, imports: Any) -> Set[str]: ...
    def is_builtin(self, type_key: str) -> bool: ...
    def check_view(self, code_blocks: List[CodeBlock]) -> object: ...
    def generate_global_funcs_block(self, code: CodeBlock, global_funcs: List[FuncInfo],
                                    ty_map: Dict[str, str], imports: Any,
                                    opt: Options) -> None: ...
    def generate_object_block(self, code: CodeBlock, ty_map: Dict[str, str], imports: Any,
                              opt: Options, obj_info: ObjectInfo,
                              declared: Mapping[str, Path]) -> None: ...
    def generate_import_section_block(self, code: CodeBlock, imports: Any, opt: Options,
                                      defined_types: Set[str]) -> None: ...
    def generate_all_block(self, code: CodeBlock, names: Set[str], opt: Options) -> None: ...
    def generate_export_block(self, code: CodeBlock) -> None: ...
    def generate_helpers_block(self, code: CodeBlock, opt: Options) -> None: ...
    def api_filename(self) -> str: ...
    def init_filename(self) -> str: ...
    def generate_api_file(self, code_blocks: List[CodeBlock], ty_map: Dict[str, str],
                          module_name: str, object_infos: List[ObjectInfo],
                          init_cfg: InitConfig, is_root: bool) -> str: ...
    def generate_init_file(self, code_blocks: List[CodeBlock], module_name: str,
                           submodule: str) -> str: ...
    def finalize_init(self, init_path: Path, generated_prefixes: Set[str]) -> None: ...


_TARGETS: Dict[str, Generator] = {g.name: g for g in (PythonGenerator(), RustGenerator())}


def generator_names() -> List[str]:
    """The target names, sorted (the choices of ``--target``)."""
    return sorted(_TARGETS)


def get_generator(target: str) -> Generator:
    """The generator of ``target``; ``ValueError`` for an unknown name."""
    try:
        return _TARGETS[target]
    except KeyError:
        raise ValueError(f"Unknown stubgen generator: {target!r}. "
                         f"Known generators: {', '.join(generator_names())}") from None
