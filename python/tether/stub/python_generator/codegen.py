"""Filling the blocks of Python files, and scaffolding new ones for ``--init``.

Each ``generate_python_*`` replaces the lines between a block's ``begin`` and ``end``
markers; names the generated text uses are recorded as ``ImportItem``s for the file's
``import-section`` block, rendered last.
"""
from __future__ import annotations

from typing import Callable, Dict, List, Optional, Set

from .. import consts as C
from ..file_utils import CodeBlock
from ..utils import FuncInfo, InitConfig, ObjectInfo, Options
from . import consts as PC
from .utils import (
    ImportItem,
    render_func_signature,
    render_object_ffi_init,
    render_object_fields,
    render_object_init,
    render_object_methods,
)

__all__ = [
    "generate_python_all", "generate_python_export", "generate_python_ffi_api",
    "generate_python_global_funcs", "generate_python_import_section", "generate_python_init",
    "generate_python_object", "render_func_signature", "render_object_ffi_init",
    "render_object_fields", "render_object_init", "render_object_methods",
]

_TYPE_CHECKING = "typing.TYPE_CHECKING"


def _fill(code: CodeBlock, body: List[str], indent: Optional[int] = None) -> None:
    """Put ``body`` between the block's markers, each line indented like the block (or by
    ``indent`` spaces)."""
    pad = " " * (code.indent if indent is None else indent)
    code.lines = [code.lines[0], *(pad + line for line in body), code.lines[-1]]


def _namer(ty_map: Dict[str, str], imports: List[ImportItem],
           local_names: Optional[Set[str]] = None) -> Callable[[str], str]:
    """A ``ty_map`` callable for the renderers: maps an origin through ``ty_map`` and returns
    the name to write; a dotted target is imported (type-checking only) and written by its
    last segment, aliased ``_<name>`` when a function of the block has that name."""
    def name_of(origin: str) -> str:
        target = ty_map.get(origin, origin)
        if not all(part.isidentifier() for part in target.split(".")):
            # A schema naming something that is not a Python name: annotate it as Any.
            return name_of("Any") if origin != "Any" else "Any"
        if "." not in target:
            return target
        leaf = target.rpartition(".")[2]
        alias = f"_{leaf}" if local_names and leaf in local_names else None
        imports.append(ImportItem(target, type_checking_only=True, alias=alias))
        return alias or leaf
    return name_of


def _input_ty_map(ty_map: Dict[str, str]) -> Dict[str, str]:
    """``ty_map`` for parameters: a container still mapped to its output default takes the
    wider input annotation; one a directive re-mapped keeps the directive's."""
    out = dict(ty_map)
    for origin, wider in PC.TY_MAP_INPUT_DEFAULTS.items():
        default = PC.TY_MAP_DEFAULTS.get(origin)
        if ty_map.get(origin, default) == default:
            out[origin] = wider
    return out


def generate_python_global_funcs(code: CodeBlock, global_funcs: List[FuncInfo],
                                 ty_map: Dict[str, str], imports: List[ImportItem],
                                 opt: Options) -> None:
    """Fill a ``global/<prefix>[@<module>]`` block: the ``init_ffi_api`` call binding the
    prefix's functions into the module, and their signatures for type checkers.  The
    block is left alone when the prefix has no functions."""
    if not global_funcs:
        return
    prefix, import_from = code.param
    imports.append(ImportItem(f"{import_from or C.FFI_PACKAGE}.init_ffi_api",
                              alias="_FFI_INIT_FUNC"))
    imports.append(ImportItem(_TYPE_CHECKING))
    local = {f.schema.name.rpartition(".")[2] for f in global_funcs}
    out_names = _namer(ty_map, imports, local)
    in_names = _namer(_input_ty_map(ty_map), imports, local)
    _fill(code, [
        "# fmt: off",
        f'_FFI_INIT_FUNC("{prefix}", __name__)',
        "if TYPE_CHECKING:",
        *(render_func_signature(f, out_names, opt.indent, input_ty_map=in_names)
          for f in global_funcs),
        "# fmt: on",
    ])


def generate_python_object(code: CodeBlock, ty_map: Dict[str, str], imports: List[ImportItem],
                           opt: Options, obj_info: ObjectInfo) -> None:
    """Fill an ``object/<type_key>`` block inside its class: field annotations, then (for
    type checkers only) ``__init__``, ``__ffi_init__`` and the methods."""
    local = {m.schema.name.rpartition(".")[2] for m in obj_info.methods}
    out_names = _namer(ty_map, imports, local)
    in_names = _namer(_input_ty_map(ty_map), imports, local)
    if obj_info.has_overloaded_methods():
        imports.append(ImportItem("typing.overload", type_checking_only=True))
    checking_only = [
        *render_object_init(obj_info, out_names, opt.indent, input_ty_map=in_names),
        *render_object_ffi_init(obj_info, out_names, opt.indent, input_ty_map=in_names),
        *render_object_methods(obj_info, out_names, opt.indent, input_ty_map=in_names),
    ]
    body = ["# fmt: off", *render_object_fields(obj_info, out_names, 0)]
    if checking_only:
        imports.append(ImportItem(_TYPE_CHECKING))
        body += ["if TYPE_CHECKING:", *checking_only]
    _fill(code, [*body, "# fmt: on"])


def generate_python_import_section(code: CodeBlock, imports: List[ImportItem],
                                   opt: Options) -> None:
    """Fill the ``import-section`` block: one ``from <mod> import ...`` line per module
    (sorted, names deduplicated), the type-checking-only ones under ``if TYPE_CHECKING:``.
    Left alone when nothing is imported."""
    if not imports:
        return
    runtime: Dict[str, Set[str]] = {}
    checking: Dict[str, Set[str]] = {}
    for item in imports:
        group = checking if item.type_checking_only else runtime
        group.setdefault(item.mod, set()).add(item.name_with_alias)
    if checking:
        runtime.setdefault("typing", set()).add("TYPE_CHECKING")

    def lines(groups: Dict[str, Set[str]], pad: str) -> List[str]:
        out = []
        for mod in sorted(groups):
            names = ", ".join(sorted(groups[mod]))
            out.append(f"{pad}from {mod} import {names}" if mod else f"{pad}import {names}")
        return out

    body = lines(runtime, "")
    if checking:
        body += ["if TYPE_CHECKING:", *lines(checking, " " * opt.indent)]
    code.lines = [code.lines[0], "# fmt: off", "# isort: off", "from __future__ import annotations",
                  *body, "# isort: on", "# fmt: on", code.lines[-1]]


def _export_order(name: str):
    """isort's order: CONSTANTS, then CamelCase classes, then everything else."""
    if name.isupper():
        return (0, name)
    if name[:1].isupper() and "_" not in name:
        return (1, name)
    return (2, name)


def generate_python_all(code: CodeBlock, names: Set[str], opt: Options) -> None:
    """Fill an ``__all__`` block with the last segment of each name, deduplicated."""
    if not names:
        return
    leaves = {name.rpartition(".")[2] for name in names}
    _fill(code, [f'"{name}",' for name in sorted(leaves, key=_export_order)])


def generate_python_export(code: CodeBlock) -> None:
    """Fill an ``export/<submodule>`` block: re-export the submodule's ``__all__``."""
    mod = code.param
    code.lines = [
        code.lines[0],
        "# fmt: off",
        "# isort: off",
        f"from .{mod} import *  # noqa: F403",
        f"from .{mod} import __all__ as {mod}__all__",
        'if "__all__" not in globals():',
        "    __all__ = []",
        f"__all__.extend({mod}__all__)",
        "# isort: on",
        "# fmt: on",
        code.lines[-1],
    ]


def _block(syntax: C.MarkerSyntax, stub: str, pad: str = "") -> str:
    return f"{pad}{syntax.begin} {stub}\n{pad}{syntax.end}\n"


def _import_object(syntax: C.MarkerSyntax, full_name: str, alias: str) -> str:
    return f"{syntax.import_object} {full_name};False;{alias}\n"


def generate_python_ffi_api(code_blocks: List[CodeBlock], ty_map: Dict[str, str],
                            module_name: str, object_infos: List[ObjectInfo],
                            init_cfg: InitConfig, is_root: bool,
                            syntax: C.MarkerSyntax) -> str:
    """The text ``--init`` appends to a package's ``_ffi_api.py``: whatever blocks it lacks
    (import section, the library load in the root package, the global functions, one class
    per object type, ``__all__``).  A parent defined elsewhere is imported under an alias."""
    kinds = {code.kind for code in code_blocks}
    text = "" if code_blocks else f'"""FFI API bindings for {module_name}."""\n'
    if "import-section" not in kinds:
        text += "\n" + _block(syntax, "import-section")
    if is_root:
        text += _import_object(syntax, f"{C.FFI_PACKAGE}.libinfo.load_lib_module", "_FFI_LOAD_LIB")
        text += f'LIB = _FFI_LOAD_LIB("{init_cfg.pkg}", "{init_cfg.shared_target}")\n'
    if "global" not in kinds:
        text += _block(syntax, f"global/{module_name}")
    if object_infos:
        text += _import_object(syntax, f"{C.FFI_PACKAGE}.register_object", "_FFI_REG_OBJ")
    local = {ty_map.get(info.type_key, info.type_key) for info in object_infos if info.type_key}
    for info in object_infos:
        if info.type_key is None:
            continue
        key = ty_map.get(info.type_key, info.type_key)
        base = "Object"
        if info.parent_type_key:
            parent = ty_map.get(info.parent_type_key, info.parent_type_key)
            base = parent.rpartition(".")[2]
            if parent not in local:
                base = "_" + parent.replace(".", "_")
                text += _import_object(syntax, parent, base)
        text += (f'@_FFI_REG_OBJ("{info.type_key}")\n'
                 f"class {key.rpartition('.')[2]}({base}):\n"
                 f'    """FFI binding for `{info.type_key}`."""\n\n'
                 + _block(syntax, f"object/{info.type_key}", "    ") + "\n\n")
    if "__all__" not in kinds:
        text += "\n__all__ = [\n" + _block(syntax, "__all__", "    ") + "]\n"
    return text


def generate_python_init(code_blocks: List[CodeBlock], module_name: str, submodule: str,
                         syntax: C.MarkerSyntax) -> str:
    """The text ``--init`` appends to a package's ``__init__.py``: an ``export`` block
    re-exporting ``submodule`` unless the file has one (and a docstring for a new file)."""
    export = "\n" + _block(syntax, f"export/{submodule}")
    if not code_blocks:
        return f'"""Package {module_name}."""\n' + export
    if any(code.kind == "export" for code in code_blocks):
        return ""
    return export
