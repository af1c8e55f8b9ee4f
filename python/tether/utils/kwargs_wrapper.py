"""Generated Python wrappers that give a positional-only callable (such as an FFI function)
a real Python signature: named parameters, defaults, keyword-only parameters.

    add = make_kwargs_wrapper(ffi_add, ["a", "b"], arg_defaults=(1,))
    add(3)          # ffi_add(3, 1)
    add(b=2, a=3)   # ffi_add(3, 2)

The wrapper is a `def` compiled once per call to make_kwargs_wrapper, so binding arguments
costs what any Python function call costs; the target always receives every parameter, in
declaration order (positional ones first, then keyword-only ones).  Defaults are bound into
the `def` itself: a default object is passed as is, never copied.
"""
from __future__ import annotations

import inspect
import keyword
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

__all__ = ["make_kwargs_wrapper", "make_kwargs_wrapper_from_signature"]

# Names of the generated code's own globals all begin with this prefix, so no parameter may.
_INTERNAL_PREFIX = "__i_"
_TARGET = _INTERNAL_PREFIX + "target_func"
_UNPACK = _INTERNAL_PREFIX + "unpack"


def _check_names(names: Sequence[Any], what: str) -> List[str]:
    out = []
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"make_kwargs_wrapper: Argument name must be a string, got "
                            f"{name!r} ({type(name).__name__}) in {what}")
        if not name.isidentifier():
            raise ValueError(f"make_kwargs_wrapper: {name!r} in {what} is not a valid Python "
                             "identifier")
        if keyword.iskeyword(name):
            raise ValueError(f"make_kwargs_wrapper: {name!r} in {what} is a Python keyword "
                             "and cannot be used as a parameter name")
        if name.startswith(_INTERNAL_PREFIX):
            raise ValueError(f"make_kwargs_wrapper: {name!r} in {what}: names beginning with "
                             f"{_INTERNAL_PREFIX!r} conflict with internal names of the "
                             "generated wrapper")
        out.append(name)
    return out


def _duplicates(names: Iterable[str]) -> List[str]:
    seen, dup = set(), []
    for n in names:
        if n in seen and n not in dup:
            dup.append(n)
        seen.add(n)
    return dup


def make_kwargs_wrapper(
    target_func: Callable[..., Any],
    arg_names: Sequence[str],
    arg_defaults: Tuple[Any, ...] = (),
    kwonly_names: Optional[Sequence[str]] = None,
    kwonly_defaults: Optional[Dict[str, Any]] = None,
    prototype: Optional[Callable[..., Any]] = None,
    map_dataclass_to_tuple: Optional[Sequence[str]] = None,
) -> Callable[..., Any]:
    """A function with parameters `arg_names` (the last len(arg_defaults) of them defaulted)
    and keyword-only parameters `kwonly_names` (defaults from `kwonly_defaults`; the others
    are required) that calls `target_func` with all of them positionally.

    prototype: a function whose name, qualified name, module, docstring and annotations the
    wrapper takes.  map_dataclass_to_tuple: parameters whose values (defaults included) go
    through tether.utils.unpack_dataclass.unpack_dataclass_to_tuple on the way."""
    positional = _check_names(list(arg_names), "arg_names")
    kwonly = _check_names(list(kwonly_names or ()), "kwonly_names")
    if _duplicates(positional):
        raise ValueError(f"make_kwargs_wrapper: Duplicate argument names found: "
                         f"{_duplicates(positional)}")
    if _duplicates(kwonly):
        raise ValueError(f"make_kwargs_wrapper: Duplicate keyword-only argument names found: "
                         f"{_duplicates(kwonly)}")
    both = [n for n in kwonly if n in positional]
    if both:
        raise ValueError(f"make_kwargs_wrapper: {both} cannot be both positional and "
                         "keyword-only arguments")
    if not isinstance(arg_defaults, tuple):
        raise TypeError(f"make_kwargs_wrapper: arg_defaults must be a tuple, got "
                        f"{type(arg_defaults).__name__}")
    if len(arg_defaults) > len(positional):
        raise ValueError(f"make_kwargs_wrapper: arg_defaults has {len(arg_defaults)} values "
                         f"but only {len(positional)} positional arguments")
    kwonly_defaults = dict(kwonly_defaults or {})
    stray = [k for k in kwonly_defaults if k not in kwonly]
    if stray:
        raise ValueError(f"make_kwargs_wrapper: kwonly_defaults keys {stray} are not in "
                         "kwonly_names")
    to_unpack = set(map_dataclass_to_tuple or ())

    namespace: Dict[str, Any] = {_TARGET: target_func}
    if to_unpack:
        from .unpack_dataclass import unpack_dataclass_to_tuple
        namespace[_UNPACK] = unpack_dataclass_to_tuple

    def default_expr(index: int, value: Any) -> str:
        if value is None or value is True or value is False:
            return repr(value)
        slot = f"{_INTERNAL_PREFIX}default_{index}"
        namespace[slot] = value
        return slot

    params: List[str] = []
    first_default = len(positional) - len(arg_defaults)
    for i, name in enumerate(positional):
        params.append(name if i < first_default else
                      f"{name}={default_expr(i, arg_defaults[i - first_default])}")
    if kwonly:
        params.append("*")
        for j, name in enumerate(kwonly):
            params.append(f"{name}={default_expr(len(positional) + j, kwonly_defaults[name])}"
                          if name in kwonly_defaults else name)
    call_args = [f"{_UNPACK}({n})" if n in to_unpack else n for n in positional + kwonly]
    source = (f"def wrapper({', '.join(params)}):\n"
              f"    return {_TARGET}({', '.join(call_args)})\n")
    exec(compile(source, f"<kwargs wrapper of {getattr(target_func, '__name__', 'target')}>",
                 "exec"), namespace)
    wrapper = namespace["wrapper"]
    if prototype is not None:
        for attr in ("__name__", "__qualname__", "__module__", "__doc__"):
            if hasattr(prototype, attr):
                setattr(wrapper, attr, getattr(prototype, attr))
        wrapper.__annotations__ = dict(getattr(prototype, "__annotations__", {}))
    return wrapper


def make_kwargs_wrapper_from_signature(
    target_func: Callable[..., Any],
    signature: inspect.Signature,
    prototype: Optional[Callable[..., Any]] = None,
    exclude_arg_names: Optional[Sequence[str]] = None,
    map_dataclass_to_tuple: Optional[Sequence[str]] = None,
) -> Callable[..., Any]:
    """make_kwargs_wrapper with the parameters, defaults and keyword-only parameters of an
    inspect.Signature; parameters named in `exclude_arg_names` are left out (names the
    signature does not have are ignored).  ValueError for *args or **kwargs."""
    excluded = set(exclude_arg_names or ())
    names: List[str] = []
    defaults: List[Any] = []
    kwonly: List[str] = []
    kwonly_defaults: Dict[str, Any] = {}
    for param in signature.parameters.values():
        if param.kind is inspect.Parameter.VAR_POSITIONAL:
            raise ValueError(f"make_kwargs_wrapper_from_signature: *args not supported "
                             f"(parameter *{param.name})")
        if param.kind is inspect.Parameter.VAR_KEYWORD:
            raise ValueError(f"make_kwargs_wrapper_from_signature: **kwargs not supported "
                             f"(parameter **{param.name})")
        if param.name in excluded:
            continue
        if param.kind is inspect.Parameter.KEYWORD_ONLY:
            kwonly.append(param.name)
            if param.default is not inspect.Parameter.empty:
                kwonly_defaults[param.name] = param.default
        else:
            names.append(param.name)
            if param.default is not inspect.Parameter.empty:
                defaults.append(param.default)
            elif defaults:
                raise ValueError(f"make_kwargs_wrapper_from_signature: parameter "
                                 f"{param.name!r} without a default follows one with a "
                                 "default")
    return make_kwargs_wrapper(target_func, names, tuple(defaults), kwonly, kwonly_defaults,
                               prototype, map_dataclass_to_tuple)
