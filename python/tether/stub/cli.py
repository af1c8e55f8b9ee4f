"""The stub generator's command line (``python -m tether.stub``; the ``tvm-ffi-stubgen``
interface).

A run fills the marked blocks of the given files (directories are walked for the target's
extensions) from the live registry, after importing ``--imports`` modules and loading
``--dlls`` libraries that register more.  In order:

1. ``ty-map`` directives of every file extend the target's type map;
2. with ``--init-*``, files for each registry prefix under ``--init-prefix`` that has
   functions or types without a block yet are created (or extended) under the first path;
3. a file with a ``prefix`` directive gets an ``object/`` block for every registered type
   under that prefix that no file binds (and loses the blocks of types no longer there);
4. every file's blocks are regenerated: globals, objects, then the import section,
   ``__all__`` and exports, which depend on what the others used;
5. with ``--init-*``, the target wires the new tree together.

``--coverage-out`` writes the native-layout verdict of every registered type as JSON.
The exit status is 2 when a file failed, else 1 when ``--check`` found a stale file, else 0.
"""
from __future__ import annotations

import argparse
import ctypes
import importlib
import sys
import traceback
from pathlib import Path
from typing import Dict, List, Mapping, Optional, Set

from ..core import _object_type_key_to_index
from . import consts as C
from .file_utils import CodeBlock, FileInfo, collect_files, syntax_for
from .generator import Generator, generator_names, get_generator
from .layout import classify, write_coverage_report
from .lib_state import (
    collect_global_funcs,
    collect_type_keys,
    object_info_from_type_key,
    toposort_objects,
)
from .utils import FuncInfo, InitConfig, Options


def _say(colour: str, message: str) -> None:
    print(f"{colour}{message}{C.TERM_RESET}")


def _fail(path: Path, message: str) -> None:
    _say(C.TERM_RED, f'[Failed] File "{path}": {message}')


def __main__() -> int:
    """Run the generator with ``sys.argv``; returns the exit status."""
    opt = _parse_args()
    generator = get_generator(opt.target)
    for module in opt.imports:
        importlib.import_module(module)
    libraries = [ctypes.CDLL(path) for path in opt.dlls]  # kept loaded for the whole run
    files = collect_files([Path(f) for f in opt.files], generator.source_exts)
    global_funcs = collect_global_funcs()
    init_path: Optional[Path] = None
    if opt.files:
        init_path = Path(opt.files[0]).resolve()
        if init_path.is_file():
            init_path = init_path.parent

    failed = 0
    ty_map = generator.default_ty_map()
    for file in files:
        try:
            _stage_1(file, ty_map)
        except Exception:  # noqa: BLE001 -- reported; the run goes on
            failed += 1
            _fail(file.path, traceback.format_exc())

    new_prefixes: Set[str] = set()
    if opt.init is not None:
        new_prefixes = _stage_2(files, ty_map, init_cfg=opt.init, init_path=init_path,
                                global_funcs=global_funcs, generator=generator)

    # `--check` compares what the target considers the content, before any block changes.
    before = {file.path: generator.check_view(file.code_blocks) for file in files} if opt.check else {}
    failed += _roll_out_prefixes(files, generator)

    stale = 0
    declared = _declared_objects(files)
    for file in files:
        if opt.verbose:
            _say(C.TERM_CYAN, f"[File] {file.path}")
        try:
            changed = _stage_3(file, opt, ty_map, global_funcs, generator=generator,
                               declared=declared)
        except Exception:  # noqa: BLE001
            failed += 1
            _fail(file.path, traceback.format_exc())
            continue
        if opt.check and changed and generator.check_view(file.code_blocks) != before[file.path]:
            stale += 1
            _say(C.TERM_YELLOW, f"[Stale] {file.path}")

    if opt.init is not None and new_prefixes:
        generator.finalize_init(init_path, new_prefixes)
    if opt.coverage_out is not None:
        infos = {key: object_info_from_type_key(key)
                 for keys in collect_type_keys().values() for key in keys}
        write_coverage_report(Path(opt.coverage_out), classify(infos))
    del libraries
    if failed:
        return 2
    return 1 if stale else 0


def _stage_1(file: FileInfo, ty_map: Dict[str, str]) -> None:
    """Record the file's ``ty-map`` directives (``<origin> -> <target name>``) in ``ty_map``."""
    for code in file.code_blocks:
        if code.kind == "directive" and code.param[0] == "ty-map":
            lhs, arrow, rhs = code.param[1].partition("->")
            if not arrow or "->" in rhs:
                raise ValueError(f"Invalid ty_map format at line {code.lineno_start}. "
                                 "Example: `A.B -> C.D`")
            ty_map[lhs.strip()] = rhs.strip()


def _new_blocks(syntax: C.MarkerSyntax, lineno: int, stub: str) -> List[CodeBlock]:
    """A blank line and an empty ``begin``/``end`` block of ``stub``, to splice into a file."""
    block = CodeBlock.from_begin_line(lineno, f"{syntax.begin} {stub}", syntax)
    block.lineno_end = lineno
    block.lines = [f"{syntax.begin} {stub}", syntax.end]
    return [CodeBlock(None, "", lineno, lineno, [""]), block]


def _directive_payloads(file: FileInfo, name: str) -> List[CodeBlock]:
    return [c for c in file.code_blocks if c.kind == "directive" and c.param[0] == name]


def _roll_out_prefixes(files: List[FileInfo], generator: Generator) -> int:
    """For each file with a ``prefix`` directive: drop its ``object/`` blocks (directly under
    the prefix) of types no longer registered, then add an empty block for every registered
    type under the prefix that no file of the run binds, ``skip`` does not name and the
    target's runtime does not bind (parents first), after the file's last object or import
    section (one is added after the directive if the file has none).  Returns the number of
    files in error (two ``prefix`` directives, or a prefix another file already owns)."""
    bound = {c.param for f in files for c in f.code_blocks if c.kind == "object"}
    registry = collect_type_keys()
    owner: Dict[str, Path] = {}
    failed = 0
    for file in files:
        heads = _directive_payloads(file, "prefix")
        if not heads:
            continue
        prefix = heads[0].param[1].rstrip(".")
        if len(heads) > 1:
            failed += 1
            _fail(file.path, f"more than one `prefix` directive (line {heads[1].lineno_start})")
            continue
        if owner.setdefault(prefix, file.path) != file.path:
            failed += 1
            _fail(file.path, f"prefix `{prefix}` is already declared by {owner[prefix]}")
            continue
        registered = registry.get(prefix, [])
        _drop_unregistered(file, prefix, registered)
        if not registered:
            _say(C.TERM_YELLOW, f"[Skipped] No registered object under prefix `{prefix}`")
            continue
        skipped = {c.param[1].strip() for c in _directive_payloads(file, "skip")}
        wanted = [key for key in registered
                  if key not in bound and key not in skipped and not generator.is_builtin(key)]
        blocks = file.code_blocks
        if not any(c.kind == "import-section" for c in blocks):
            at = blocks.index(heads[0]) + 1
            blocks[at:at] = _new_blocks(file.syntax, heads[0].lineno_start, "import-section")
        at = 1 + max(i for i, c in enumerate(blocks) if c.kind in ("object", "import-section"))
        blocks[at:at] = [new for info in toposort_objects(wanted)
                         for new in _new_blocks(file.syntax, heads[0].lineno_start,
                                                f"object/{info.type_key}")]
    return failed


def _drop_unregistered(file: FileInfo, prefix: str, registered: List[str]) -> None:
    kept: List[CodeBlock] = []
    for code in file.code_blocks:
        gone = (code.kind == "object" and isinstance(code.param, str)
                and code.param.rpartition(".")[0] == prefix and code.param not in registered)
        if not gone:
            kept.append(code)
            continue
        _say(C.TERM_YELLOW, f'[Removed] File "{file.path}": `object/{code.param}` '
                            f"(line {code.lineno_start}): the type is no longer registered")
        if kept and kept[-1].kind is None and kept[-1].lines == [""]:
            kept.pop()  # the blank line a roll-out put before the block
    file.code_blocks[:] = kept


def _stage_2(files: List[FileInfo], ty_map: Dict[str, str], init_cfg: InitConfig,
             init_path: Path, global_funcs: Dict[str, List[FuncInfo]],
             generator: Generator) -> Set[str]:
    """``--init``: for each registry prefix equal to or under ``init_cfg.prefix`` with
    functions or types not yet bound by any file (nor ``skip``ped, nor builtin), append the
    missing scaffolding to ``<init_path>/<prefix as dirs>/<api file>`` and its package
    entry, creating them as needed.  Returns the prefixes that got files."""
    def file_at(path: Path) -> FileInfo:
        if path.exists():
            for known in files:
                if path.samefile(known.path):
                    return known
            info = FileInfo.from_file(path, include_empty=True)
        else:
            info = FileInfo(path, (), [], syntax_for(path))
        files.append(info)
        return info

    def append(path: Path, text_of) -> None:
        info = file_at(path)
        with path.open("a", encoding="utf-8") as out:
            out.write(text_of(info.code_blocks))
        info.reload()

    blocks = [c for f in files for c in f.code_blocks]
    bound_prefixes = {c.param[0] for c in blocks if c.kind == "global"}
    bound_types = {c.param for c in blocks if c.kind == "object"}
    skipped = {c.param[1].strip() for c in blocks if c.kind == "directive" and c.param[0] == "skip"}

    root = init_cfg.prefix.strip().rstrip(".")
    under = root + "." if root else ""
    prefixes = collect_type_keys()
    for prefix in global_funcs:
        prefixes.setdefault(prefix, [])
    made: Set[str] = set()
    for prefix, type_keys in prefixes.items():
        if prefix != root and not prefix.startswith(under):
            continue
        funcs = [] if prefix in bound_prefixes else sorted(global_funcs.get(prefix, []),
                                                          key=lambda f: f.schema.name)
        keys = sorted(k for k in set(type_keys) - bound_types - skipped
                      if not generator.is_builtin(k))
        infos = toposort_objects(keys)
        if not funcs and not infos:
            continue
        made.add(prefix)
        directory = init_path / prefix.replace(".", "/")
        directory.mkdir(parents=True, exist_ok=True)
        api_name = generator.api_filename()
        append(directory / api_name, lambda code_blocks: generator.generate_api_file(
            code_blocks, ty_map, prefix, infos, init_cfg, is_root=prefix == root))
        submodule = api_name.rpartition(".")[0]
        append(directory / generator.init_filename(),
               lambda code_blocks: generator.generate_init_file(code_blocks, prefix, submodule))
    return made


def _declared_objects(files: List[FileInfo]) -> Dict[str, Path]:
    """The file of every ``object/`` block of the run, by type key (the first one wins)."""
    out: Dict[str, Path] = {}
    for file in files:
        for code in file.code_blocks:
            if code.kind == "object" and isinstance(code.param, str):
                out.setdefault(code.param, file.path)
    return out


def _stage_3(file: FileInfo, opt: Options, ty_map: Dict[str, str],
             global_funcs: Dict[str, List[FuncInfo]], generator: Generator,
             declared: Optional[Mapping[str, Path]] = None) -> bool:
    """Regenerate every block of ``file`` and write it (unless ``opt.dry_run``); returns
    whether its text changed.  ``declared`` (the run's ``object/`` blocks; this file's alone
    by default) tells a generator what a binding may refer to.  Blocks of types that are no
    longer registered are kept and reported together, as a ``ValueError``, once the file
    is written."""
    declared = _declared_objects([file]) if declared is None else declared
    imports = generator.new_imports()
    for code in file.code_blocks:
        if code.kind != "directive":
            continue
        name, payload = code.param
        if name in C.PIPELINE_DIRECTIVE_KINDS:
            continue
        if name not in generator.directive_kinds:
            raise ValueError(f"Unknown directive `{name}` at line {code.lineno_start}")
        generator.add_directive(imports, name, payload, code.lineno_start)

    def blocks(kind: str) -> List[CodeBlock]:
        return [c for c in file.code_blocks if c.kind == kind]

    defined_funcs: Set[str] = set()
    for code in blocks("global"):
        funcs = global_funcs.get(code.param[0], [])
        defined_funcs.update(f.schema.name for f in funcs)
        generator.generate_global_funcs_block(code, funcs, ty_map, imports, opt)

    defined_types: Set[str] = set()
    unregistered: List[str] = []
    for code in blocks("object"):
        type_key = code.param
        if _object_type_key_to_index(type_key) is None:
            unregistered.append(f"`object/{type_key}` (line {code.lineno_start})")
            continue
        info = object_info_from_type_key(type_key)
        defined_types.add(generator.canonical_type_name(ty_map.get(type_key, type_key)))
        generator.generate_object_block(code, ty_map, imports, opt, info, declared)

    # One import section and one export list per file: the first block of each.
    for code in blocks("import-section")[:1]:
        generator.generate_import_section_block(code, imports, opt, defined_types)
    for code in blocks("__all__")[:1]:
        names = defined_funcs | defined_types | generator.extra_export_names(imports)
        generator.generate_all_block(code, names, opt)
    for code in blocks("export"):
        generator.generate_export_block(code)

    changed = file.update(verbose=opt.verbose, dry_run=opt.dry_run)
    if unregistered:
        raise ValueError(f"{', '.join(unregistered)}: the type is no longer registered; "
                         "delete the block")
    return changed


def _split_list(arg: str) -> List[str]:
    return [item.strip() for item in (arg or "").split(";") if item.strip()]


def _parse_args(argv: Optional[List[str]] = None) -> Options:
    class Formatter(argparse.ArgumentDefaultsHelpFormatter, argparse.RawTextHelpFormatter):
        pass

    parser = argparse.ArgumentParser(
        prog="tvm-ffi-stubgen", formatter_class=Formatter,
        description=(
            "Generate type stubs and bindings for the global functions and object types of "
            "FFI libraries.\n"
            "- Normally it regenerates, in place, the `tvm-ffi-stubgen` blocks of the given "
            "files and directories.\n"
            "- With --init-*, it first creates the API and package files of every registry "
            "prefix that has no blocks yet.\n\n"
            f"Marker syntax: {C.DOC_URL}"))
    parser.add_argument("--imports", default="", metavar="IMPORTS",
                        help="';'-separated Python modules to import first (they may register "
                             "functions and types).")
    parser.add_argument("--dlls", default="", metavar="LIBS",
                        help="';'-separated shared libraries to load first (an extension that "
                             "registers functions and types).")
    parser.add_argument("--init-pypkg", default="",
                        help="with --init-lib and --init-prefix: the Python distribution "
                             "whose library the root API file loads.")
    parser.add_argument("--init-lib", default="",
                        help="with --init-pypkg and --init-prefix: the CMake target that "
                             "builds that library.")
    parser.add_argument("--init-prefix", default="",
                        help="with --init-pypkg and --init-lib: the registry prefix to "
                             "scaffold files for (e.g. my_ext.).")
    parser.add_argument("--indent", type=int, default=4,
                        help="spaces of indentation inside generated blocks, relative to "
                             "their begin marker.")
    parser.add_argument("files", nargs="*", metavar="PATH",
                        help="files or directories to process; directories are walked for "
                             "the target's extensions.")
    parser.add_argument("--target", default="python", choices=generator_names(),
                        help="the language to generate.")
    parser.add_argument("--verbose", action="store_true",
                        help="print a diff of every change.")
    parser.add_argument("--dry-run", action="store_true",
                        help="compute the changes without writing any file.")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; name every file whose blocks are out of date "
                             "and exit 1 if there is one (for rust, only what the bindings "
                             "define counts, not their spelling). Not with --init-*.")
    parser.add_argument("--coverage-out", default=None, metavar="JSON",
                        help="write the native-layout verdict of every registered object type "
                             "to this JSON file; PATH may then be omitted.")
    args = parser.parse_args(argv)

    init_values = (args.init_pypkg, args.init_lib, args.init_prefix)
    init: Optional[InitConfig] = None
    if any(init_values):
        if not all(init_values):
            parser.error("--init-pypkg, --init-lib, and --init-prefix must be provided together")
        init = InitConfig(pkg=args.init_pypkg, shared_target=args.init_lib,
                          prefix=args.init_prefix)
        if args.check:
            parser.error("--check cannot be combined with --init-* flags")
    if not args.files and args.coverage_out is None:
        parser.print_help()
        sys.exit(1)
    return Options(imports=_split_list(args.imports), dlls=_split_list(args.dlls), init=init,
                   indent=args.indent, files=list(args.files), verbose=args.verbose,
                   dry_run=args.dry_run or args.check, check=args.check, target=args.target,
                   coverage_out=args.coverage_out)


if __name__ == "__main__":
    sys.exit(__main__())
