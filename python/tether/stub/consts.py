"""Shared vocabulary of the stub generator: the marker grammar and the fixed tables.

Stub directives live in single-line comments of the file they edit. Only the comment token
differs between languages (``#`` in Python, ``//`` in Rust); the grammar after it is the
same everywhere:

    <comment> tvm-ffi-stubgen(begin): <kind>/<param>   opens a generated block
    <comment> tvm-ffi-stubgen(end)                     closes it
    <comment> tvm-ffi-stubgen(<name>): <payload>       a one-line directive
    <comment> tvm-ffi-stubgen(skip-file)               leaves the whole file alone

The marker text is shared with apache tvm-ffi's ``tvm-ffi-stubgen`` so a file annotated for
one tool is understood by the other.
"""
from __future__ import annotations

import dataclasses
from typing import Literal, Optional

#: The tool's name as it appears inside every marker.
TOOL = "tvm-ffi-stubgen"

#: The Python package generated Python stubs import the runtime from.
FFI_PACKAGE = "tvm_ffi"


@dataclasses.dataclass(frozen=True)
class MarkerSyntax:
    """The stub markers spelled with one language's line-comment token."""

    comment: str

    @property
    def prefix(self) -> str:
        """What every marker line starts with: ``<comment> tvm-ffi-stubgen(``."""
        return f"{self.comment} {TOOL}("

    def directive(self, name: str) -> str:
        """The head of the one-line directive ``name``: ``<comment> tvm-ffi-stubgen(name):``."""
        return f"{self.prefix}{name}):"

    @property
    def begin(self) -> str:
        """The head of a line that opens a generated block."""
        return self.directive("begin")

    @property
    def end(self) -> str:
        """The line that closes a generated block."""
        return f"{self.prefix}end)"

    @property
    def skip_file(self) -> str:
        """The line that opts a whole file out of generation."""
        return f"{self.prefix}skip-file)"

    @property
    def ty_map(self) -> str:
        """The head of a ``ty-map`` directive (``A.B -> C.D``)."""
        return self.directive("ty-map")

    @property
    def import_object(self) -> str:
        """The head of an ``import-object`` directive."""
        return self.directive("import-object")


PYTHON_SYNTAX = MarkerSyntax("#")
RUST_SYNTAX = MarkerSyntax("//")

#: The marker syntax used inside a file, by its lower-cased extension.  Which extensions a
#: run visits is the active generator's choice (``Generator.source_exts``).
SYNTAX_BY_EXT = {".py": PYTHON_SYNTAX, ".pyi": PYTHON_SYNTAX, ".rs": RUST_SYNTAX}

#: One-line directives the language-neutral pipeline consumes itself; every other name must
#: be declared by the generator of the run.
PIPELINE_DIRECTIVE_KINDS = frozenset({"ty-map", "prefix", "skip"})

#: What a parsed block can be; ``None`` is a plain line outside any block.
STUB_BLOCK_KINDS = Optional[
    Literal["global", "object", "import-section", "directive", "export", "__all__"]
]
BLOCK_KINDS = frozenset({"global", "object", "import-section", "directive", "export", "__all__", None})

# Terminal colours of the progress messages.
TERM_RESET = "\033[0m"
TERM_BOLD = "\033[1m"
TERM_RED = "\033[31m"
TERM_GREEN = "\033[32m"
TERM_YELLOW = "\033[33m"
TERM_BLUE = "\033[34m"
TERM_CYAN = "\033[36m"

DOC_URL = "https://tvm.apache.org/ffi/packaging/stubgen.html"

#: Renames applied to reflected method names while metadata is collected.
FN_NAME_MAP: dict = {}

#: Object types the runtime package binds itself: no generated class for them.
BUILTIN_TYPE_KEYS = frozenset({
    "ffi.BigInt", "ffi.Bytes", "ffi.Error", "ffi.Function", "ffi.Object",
    "ffi.OpaquePyObject", "ffi.SmallBytes", "ffi.SmallStr", "ffi.String", "ffi.Tensor",
})
