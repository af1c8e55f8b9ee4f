"""Reading a source file into marked blocks and writing it back.

A file is a sequence of ``CodeBlock``s whose lines, concatenated, are the file: a plain
line outside any block is a block of kind ``None``; a ``begin``/``end`` pair with the lines
between them is one block whose ``kind`` and ``param`` come from the ``begin`` line; a
one-line directive is a block of kind ``"directive"`` whose ``param`` is ``(name, payload)``.
Generators replace the lines of blocks in place; ``FileInfo.update`` writes the result.
"""
from __future__ import annotations

import dataclasses
import difflib
import os
import traceback
from pathlib import Path
from typing import Collection, Iterator, List, Optional, Tuple, Union

from . import consts as C

# The block kinds a `begin` line can open, by the text before the `/` (or the whole text).
# A kind with a parameter keeps what follows the `/`.
_BEGIN_KINDS = {
    "global/": "global",
    "object/": "object",
    "export/": "export",
}
_BEGIN_BARE = {"import-section", "__all__"}


def syntax_for(path: Path) -> C.MarkerSyntax:
    """The marker syntax of a file, from its extension (Python's for an unknown one)."""
    return C.SYNTAX_BY_EXT.get(Path(path).suffix.lower(), C.PYTHON_SYNTAX)


@dataclasses.dataclass
class CodeBlock:
    """One block of a file: its kind, its parameter, where it sits, and its lines.

    ``param`` is ``(prefix, import_from)`` for ``global``, ``(name, payload)`` for a
    directive, the type key for ``object``, the submodule for ``export``, else ``""``.
    ``lineno_end`` stays ``None`` until the closing marker is seen.
    """

    kind: C.STUB_BLOCK_KINDS
    param: Union[str, Tuple[str, ...]]
    lineno_start: int
    lineno_end: Optional[int]
    lines: List[str]

    def __post_init__(self) -> None:
        if self.kind not in C.BLOCK_KINDS:
            raise ValueError(f"CodeBlock: unknown block kind {self.kind!r}")

    @property
    def indent(self) -> int:
        """The indentation (in spaces) of the block's first line."""
        if not self.lines:
            return 0
        head = self.lines[0]
        return len(head) - len(head.lstrip(" "))

    @staticmethod
    def from_begin_line(lineno: int, line: str, syntax: C.MarkerSyntax) -> "CodeBlock":
        """Parse a stripped marker line: a ``begin`` line or a one-line directive.

        The returned block has no lines yet.  Raises ``ValueError`` for a marker that is
        neither, or a ``begin`` of an unknown kind.
        """
        if not line.startswith(syntax.begin):
            name, sep, payload = line[len(syntax.prefix):].partition("):")
            if not sep or not name or not name.replace("-", "_").isidentifier():
                raise ValueError(f"Unknown stub type at line {lineno}: {line}")
            return CodeBlock("directive", (name, payload.strip()), lineno, lineno, [])
        stub = line[len(syntax.begin):].strip()
        param: Union[str, Tuple[str, ...]] = ""
        kind = None
        for head, block_kind in _BEGIN_KINDS.items():
            if stub.startswith(head):
                kind, param = block_kind, stub[len(head):].strip()
                break
        else:
            if stub in _BEGIN_BARE:
                kind = stub
        if kind is None:
            raise ValueError(f"Unknown stub type `{stub}` at line {lineno}")
        if kind == "global":
            # `global/<prefix>@<module to import init_ffi_api from>`
            prefix, _, import_from = param.partition("@")
            param = (prefix, import_from)
        return CodeBlock(kind, param, lineno, None, [])


def _plain(lineno: int, line: str) -> CodeBlock:
    return CodeBlock(None, "", lineno, lineno, [line])


@dataclasses.dataclass
class FileInfo:
    """A parsed file: its path, its lines as read, and its blocks."""

    path: Path
    lines: Tuple[str, ...]
    code_blocks: List[CodeBlock]
    syntax: C.MarkerSyntax

    def update(self, verbose: bool, dry_run: bool) -> bool:
        """Join the blocks' lines; if they differ from the file, record them and (unless
        ``dry_run``) write the file.  ``verbose`` prints a coloured diff.  Returns whether
        the text changed."""
        new_lines = tuple(line for block in self.code_blocks for line in block.lines)
        if new_lines == self.lines:
            if verbose:
                print(f"{C.TERM_CYAN}-----> Unchanged{C.TERM_RESET}")
            return False
        if verbose:
            _print_diff(self.lines, new_lines)
        self.lines = new_lines
        if not dry_run:
            self.path.write_text("\n".join(new_lines) + "\n", encoding="utf-8")
        return True

    @staticmethod
    def from_file(file: Path, include_empty: bool = False,
                  syntax: Optional[C.MarkerSyntax] = None) -> Optional["FileInfo"]:
        """Parse ``file`` into blocks.

        Returns ``None`` for a file that opts out with ``skip-file``, and for a file without
        any marker unless ``include_empty``.  Raises ``ValueError`` for a nested, unmatched
        or unclosed block and for an unknown marker.
        """
        file = Path(file)
        if not file.is_file():
            raise ValueError(f"FileInfo.from_file: {file} is not a file")
        file = file.resolve()
        syntax = syntax or syntax_for(file)
        lines = file.read_text(encoding="utf-8").splitlines()
        stripped = [line.strip() for line in lines]
        if any(s.startswith(syntax.skip_file) for s in stripped):
            return None
        if not include_empty and not any(s.startswith(syntax.prefix) for s in stripped):
            return None
        blocks: List[CodeBlock] = []
        open_block: Optional[CodeBlock] = None
        for lineno, (line, text) in enumerate(zip(lines, stripped), start=1):
            if text.startswith(syntax.begin):
                if open_block is not None:
                    raise ValueError(f"Nested stub not permitted at line {lineno}")
                open_block = CodeBlock.from_begin_line(lineno, text, syntax)
                open_block.lines.append(line)
            elif text.startswith(syntax.end):
                if open_block is None:
                    raise ValueError(f"Unmatched `{syntax.end}` found at line {lineno}")
                open_block.lineno_end = lineno
                open_block.lines.append(line)
                blocks.append(open_block)
                open_block = None
            elif text.startswith(syntax.prefix):
                directive = CodeBlock.from_begin_line(lineno, text, syntax)
                if open_block is not None:
                    raise ValueError(f"Directive inside a stub block at line {lineno}: {text}")
                directive.lines.append(line)
                blocks.append(directive)
            elif open_block is not None:
                open_block.lines.append(line)
            else:
                blocks.append(_plain(lineno, line))
        if open_block is not None:
            raise ValueError(
                f"Unclosed stub block at end of file (opened at line {open_block.lineno_start})")
        return FileInfo(file, tuple(lines), blocks, syntax)

    def reload(self) -> None:
        """Re-read the blocks from disk; ``lines`` keeps what was first read, so ``update``
        still reports the change against it."""
        fresh = FileInfo.from_file(self.path, syntax=self.syntax)
        if fresh is None:
            raise ValueError(f"FileInfo.reload: {self.path} no longer has stub markers")
        self.code_blocks = fresh.code_blocks


def _print_diff(old: Tuple[str, ...], new: Tuple[str, ...]) -> None:
    colours = {"-": C.TERM_RED, "+": C.TERM_GREEN, "?": C.TERM_YELLOW}
    for line in difflib.unified_diff(old, new, lineterm=""):
        if line.startswith(("---", "+++")):
            continue
        colour = colours.get(line[:1])
        print(f"{colour}{line}{C.TERM_RESET}" if colour else line)


def _report_error(_exc: BaseException) -> None:
    print(f"{C.TERM_RED}[Error]\n{traceback.format_exc()}{C.TERM_RESET}", end="", flush=True)


def _walk(paths: List[Path], exts: Collection[str]) -> Iterator[Path]:
    """Every explicitly named file, and the files with one of ``exts`` under each directory."""
    for path in paths:
        if path.is_file():
            yield path
        elif path.exists():
            for root, _dirs, names in os.walk(path, onerror=_report_error):
                for name in names:
                    if os.path.splitext(name)[1].lower() in exts:
                        yield Path(root) / name


def collect_files(paths: List[Path], source_exts: Collection[str]) -> List[FileInfo]:
    """Parse the files named by ``paths`` into ``FileInfo``s, sorted by path.

    A file named explicitly is always read; a directory is walked recursively (symlinks are
    not followed) for files whose lower-cased extension is in ``source_exts``.  A file that
    fails to parse is reported and left out; files without markers are left out silently.
    """
    exts = {ext.lower() for ext in source_exts}
    out: List[FileInfo] = []
    for path in sorted(_walk([Path(p) for p in paths], exts), key=str):
        try:
            info = FileInfo.from_file(path)
        except Exception as exc:  # noqa: BLE001 -- one bad file does not stop the run
            _report_error(exc)
            continue
        if info is not None:
            out.append(info)
    return out
