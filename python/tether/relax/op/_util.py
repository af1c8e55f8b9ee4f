"""How tether.relax.op's functions are made: each registered op (libtether_ir's own and any a
library registers later through trx_op_register) declares its parameters as TVM's Python
signature, "data: Expr, strides: ints[2] = (1, 1), ...", readable through the global
"relax.op.Schema".  From it comes a plain Python function with TVM's parameter names and
defaults (as TVM's wrappers are) whose body is one call of a C SignatureFunction over the
constructor global "relax.op.<name>", which widens an int given for an `ints[N]` parameter to
an N-tuple in C."""
from __future__ import annotations

import ast
import sys
import types

from ... import core

# Typing names for annotations only.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Dict, List, Optional, Tuple

_schema = core.get_global_func("relax.op.Schema")
_list_op_names = core.get_global_func("ir.ListOpNames")


def _split_params(spec: str) -> List[str]:
    """The comma-separated items of a parameter list (brackets and quotes nest)."""
    items, depth, quote, start = [], 0, "", 0
    for i, c in enumerate(spec):
        if quote:
            quote = "" if c == quote else quote
        elif c in "\"'":
            quote = c
        elif c in "([<":
            depth += 1
        elif c in ")]>":
            depth -= 1
        elif c == "," and depth == 0:
            items.append(spec[start:i])
            start = i + 1
    if spec[start:].strip():
        items.append(spec[start:])
    return [item.strip() for item in items]


def parse_params(spec: str) -> List[Tuple[str, str, int, bool, Any]]:
    """(name, kind, widen, has_default, default) per parameter of a declaration."""
    out = []
    for item in _split_params(spec):
        head, eq, default = item.partition("=")
        name, _, kind = head.partition(":")
        kind = kind.strip()
        widen = 0
        if "[" in kind:
            kind, _, n = kind.partition("[")
            widen = int(n.rstrip("]"))
        value = ast.literal_eval(default.strip()) if eq else None
        out.append((name.strip(), kind, widen, bool(eq), value))
    return out


def make_function(op_name: str, module: str) -> Any:
    """The wrapper of the op "relax.<op_name>" ("nn.conv2d"), to live in `module`: a plain
    Python function with TVM's signature (as TVM's wrappers are), whose body is one call of a
    SignatureFunction over the constructor global (the widening happens there, in C)."""
    params_spec, doc = _schema("relax." + op_name)
    params = parse_params(params_spec)
    names = tuple(p[0] for p in params)
    expand = tuple(p[2] for p in params)
    short = op_name.rpartition(".")[2]
    inner = core.SignatureFunction(core.get_global_func("relax.op." + op_name), short, names, (),
                                   expand if any(expand) else None)
    env = {"_inner": inner}
    args = []
    for i, (name, _kind, _widen, has_default, default) in enumerate(params):
        if has_default:
            env["_d%d" % i] = default
            args.append("%s=_d%d" % (name, i))
        else:
            args.append(name)
    source = "def %s(%s):\n    return _inner(%s)\n" % (short, ", ".join(args), ", ".join(names))
    exec(compile(source, "<relax.op.%s>" % op_name, "exec"), env)  # noqa: S102 (generated from the declaration)
    fn = env[short]
    fn.__module__ = module
    fn.__qualname__ = short
    fn.__doc__ = "%s (relax.%s)." % (doc.rstrip(".") if doc else short, op_name)
    return fn


def _ops_by_prefix() -> Dict[str, List[str]]:
    """Registered op names grouped by namespace: "" for relax.add, "nn" for relax.nn.conv2d."""
    groups: Dict[str, List[str]] = {}
    for full in _list_op_names():
        name = str(full)[len("relax."):]
        prefix, _, _ = name.rpartition(".")
        groups.setdefault(prefix, []).append(name)
    return groups


def populate(namespace: dict, prefix: str, keep: Optional[set] = None) -> List[str]:
    """Adds the wrapper of every registered op of `prefix` to `namespace` (a module's globals),
    except names in `keep` (hand-written there); returns the names, for __all__."""
    module = namespace["__name__"]
    names = []
    for op_name in _ops_by_prefix().get(prefix, []):
        short = op_name.rpartition(".")[2]
        if keep is None or short not in keep:
            namespace[short] = make_function(op_name, module)
        names.append(short)
    return names


def lookup(prefix: str, module: str, short: str) -> Any:
    """Module __getattr__: the wrapper of an op registered after the module was populated."""
    op_name = prefix + "." + short if prefix else short
    try:
        fn = make_function(op_name, module)
    except Exception:
        raise AttributeError("module %r has no attribute %r" % (module, short)) from None
    sys.modules[module].__dict__[short] = fn
    return fn


def submodules(package: str) -> Dict[str, types.ModuleType]:
    """A module tether.relax.op.<prefix> for every namespace of registered ops that has no
    module file (an op registered by another library as "mylib.fused_add")."""
    made = {}
    for prefix in _ops_by_prefix():
        if not prefix or "." in prefix:
            continue
        full = package + "." + prefix
        if full in sys.modules:
            continue
        try:
            __import__(full)
            continue
        except ImportError:
            pass
        mod = types.ModuleType(full, "Ops of namespace %r (generated from the op registry)." % prefix)
        mod.__all__ = populate(mod.__dict__, prefix)
        sys.modules[full] = mod
        made[prefix] = mod
    return made
