"""The dataclass-style special methods `@c_class` and `@py_class` put on a class.

Everything is derived from the class's reflection (`__tvm_ffi_type_info__`): `__init__`
calls the type's `__ffi_init__` with the arguments (keyword ones after the KWARGS marker);
`__repr__` is `object_repr`; `__eq__` / ordering / `__hash__` call libtether's recursive
comparators (ffi.RecursiveEq, ffi.RecursiveLt, ..., ffi.RecursiveHash); `__copy__` calls the
type's `__ffi_shallow_copy__`, `__deepcopy__` ffi.DeepCopy and `__replace__` copies then
writes through the field descriptors (frozen fields included).  A method the class body
defines itself is never replaced.
"""
from __future__ import annotations

import inspect
from typing import Any, Callable, Dict, List, Tuple

from . import core


def _global(name: str) -> Any:
    from .registry import get_global_func

    return get_global_func(name)


def _type_chain(type_info: Any) -> List[Any]:
    """`type_info` and its ancestors, root first."""
    chain = []
    while type_info is not None:
        chain.append(type_info)
        type_info = type_info.parent_type_info
    chain.reverse()
    return chain


def _all_fields(type_info: Any) -> List[Any]:
    """Every reflected field of the type, inherited ones first."""
    out: List[Any] = []
    for info in _type_chain(type_info):
        out.extend(info.fields or ())
    return out


def _init_normalization_fields(type_info: Any) -> Tuple[List[Any], Dict[str, Any]]:
    """(the positional constructor fields in signature order, the init fields by name)."""
    fields = [f for f in _all_fields(type_info) if f.c_init]
    positional = [f for f in fields if not f.c_kw_only]
    ordered = ([f for f in positional if not f.c_has_default]
               + [f for f in positional if f.c_has_default])
    return ordered, {f.name: f for f in fields}


def _normalize_field_value(field: Any, value: Any) -> Any:
    normalize = getattr(field, "normalize_value", None)
    return value if normalize is None else normalize(value)


def _make_init_signature(type_info: Any) -> inspect.Signature:
    """The constructor's signature: required positional fields, then defaulted ones, then
    the keyword-only ones (required first).  A default shows as MISSING: the real default
    is applied by `__ffi_init__`."""
    P = inspect.Parameter
    fields = [f for f in _all_fields(type_info) if f.c_init]
    groups = (
        [f for f in fields if not f.c_kw_only and not f.c_has_default],
        [f for f in fields if not f.c_kw_only and f.c_has_default],
        [f for f in fields if f.c_kw_only and not f.c_has_default],
        [f for f in fields if f.c_kw_only and f.c_has_default],
    )
    params = [P("self", P.POSITIONAL_OR_KEYWORD)]
    for i, group in enumerate(groups):
        kind = P.POSITIONAL_OR_KEYWORD if i < 2 else P.KEYWORD_ONLY
        for f in group:
            if i % 2:
                params.append(P(f.name, kind, default=core.MISSING))
            else:
                params.append(P(f.name, kind))
    return inspect.Signature(params)


def _collect_init_property_funcs(type_cls: type) -> List[Tuple[str, Callable[..., Any]]]:
    """(name, func) of every init_property along the MRO, base classes first; a subclass's
    definition replaces its base's of the same name."""
    funcs: Dict[str, Callable[..., Any]] = {}
    for klass in reversed(type_cls.__mro__):
        funcs.update(klass.__dict__.get("__ffi_init_property_funcs__", {}))
    return list(funcs.items())


def _ffi_args_packer(type_info: Any) -> Callable[[tuple, dict], list]:
    """A function (args, kwargs) -> the argument list of `__ffi_init__`: positional values
    as they are, then KWARGS and name/value pairs (MISSING values are dropped).  Fields
    with a value normalizer (payload enums) have their values normalized."""
    kwargs_marker = core.KWARGS
    missing = core.MISSING
    positional, by_name = _init_normalization_fields(type_info)
    normalizers = {name: f.normalize_value for name, f in by_name.items()
                   if _needs_normalize(f)}
    pos_normalizers = [normalizers.get(f.name) for f in positional]
    if not normalizers:
        def pack(args: tuple, kwargs: dict) -> list:
            if not kwargs:
                return args
            out = list(args)
            out.append(kwargs_marker)
            for key, value in kwargs.items():
                if value is not missing:
                    out.append(key)
                    out.append(value)
            return out
        return pack

    def pack_normalized(args: tuple, kwargs: dict) -> list:
        out = list(args)
        for i, norm in enumerate(pos_normalizers[:len(out)]):
            if norm is not None:
                out[i] = norm(out[i])
        if kwargs:
            out.append(kwargs_marker)
            for key, value in kwargs.items():
                if value is missing:
                    continue
                norm = normalizers.get(key)
                out.append(key)
                out.append(value if norm is None else norm(value))
        return out
    return pack_normalized


def _needs_normalize(field: Any) -> bool:
    check = getattr(field, "_is_payload_enum_field", None)
    return check is not None and getattr(field, "normalize_value", None) is not None and check()


def _make_init(type_cls: type, type_info: Any, ffi_init: Any,
               py_class_mode: bool = False) -> Callable[..., None]:
    """`__init__` building the object through `ffi_init`, then filling init_property fields
    and calling `__post_init__` if the class has one.

    In py_class mode a call on an object that already has its handle (a subclass's
    `super().__init__()`) does nothing; a c_class `__init__` reached from a subclass of
    another type raises TypeError instead.
    """
    pack = _ffi_args_packer(type_info)
    post_init = hasattr(type_cls, "__post_init__")
    computed = _collect_init_property_funcs(type_cls)

    def finish(self: Any) -> None:
        if computed:
            klass = type(self)
            for name, func in computed:
                getattr(klass, name).set(self, func(self))
        if post_init:
            self.__post_init__()

    if py_class_mode:
        if not computed and not post_init:
            def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
                if self.__chandle__() == 0:
                    self.__init_handle_by_constructor__(ffi_init, *pack(args, kwargs))
        else:
            def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
                if self.__chandle__() != 0:
                    return
                self.__init_handle_by_constructor__(ffi_init, *pack(args, kwargs))
                finish(self)
    else:
        name = type_cls.__name__

        def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
            # (compared by index: binding a class to the type again makes a new TypeInfo)
            if type(self).__tvm_ffi_type_info__.type_index != type_info.type_index:
                raise TypeError(
                    f"`super().__init__()` cannot construct @c_class `{name}` for a "
                    f"`{type(self).__name__}`: give `{type(self).__name__}` its own __init__ "
                    "(init=True), or use @py_class for Python subclasses")
            self.__init_handle_by_constructor__(ffi_init, *pack(args, kwargs))
            finish(self)

    __init__.__signature__ = _make_init_signature(type_info)  # type: ignore[attr-defined]
    __init__.__qualname__ = f"{type_cls.__qualname__}.__init__"
    __init__.__module__ = type_cls.__module__
    return __init__


def _make_refusing_init(cls: type) -> Callable[..., None]:
    """`__init__` of a class without a constructor: raises TypeError."""
    msg = (f"`{cls.__name__}` cannot be constructed directly. "
           "Define a custom __init__ or use a factory method.")

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        raise TypeError(msg)

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    __init__.__module__ = cls.__module__
    return __init__


def _make_copy(type_info: Any, shallow_copy_fn: Any) -> Callable[[Any], Any]:
    if shallow_copy_fn is None:
        def __copy__(self: Any) -> Any:
            raise TypeError(f"Type `{type(self).__name__}` does not support copy. "
                            "The underlying C++ type is not copy-constructible.")
        return __copy__

    def __copy__(self: Any) -> Any:  # noqa: F811
        return shallow_copy_fn(self)
    return __copy__


def _make_deepcopy(type_info: Any) -> Callable[..., Any]:
    deep_copy = _global("ffi.DeepCopy")

    def __deepcopy__(self: Any, memo: Any = None) -> Any:
        return deep_copy(self)
    return __deepcopy__


def _make_replace(type_info: Any) -> Callable[..., Any]:
    import copy

    shallow = copy.copy

    def __replace__(self: Any, **changes: Any) -> Any:
        new = shallow(self)
        klass = type(new)
        for name, value in changes.items():
            getattr(klass, name).set(new, value)
        return new
    return __replace__


def _set_match_args(cls: type, type_info: Any) -> None:
    """`__match_args__` = the positional constructor fields (init and not kw_only) along the
    type chain, unless the class body sets it."""
    if "__match_args__" in cls.__dict__:
        return
    names = []
    for f in _all_fields(type_info):
        spec = f.dataclass_field
        if spec is not None and spec.init and not spec.kw_only:
            names.append(f.name)
    cls.__match_args__ = tuple(names)


def _comparison(impl: Any, negate: bool = False) -> Callable[[Any, Any], Any]:
    """A rich comparison through `impl`; NotImplemented when neither operand's type is the
    other's (sub)class."""
    if negate:
        def method(self: Any, other: Any) -> Any:
            if isinstance(other, type(self)) or isinstance(self, type(other)):
                return not impl(self, other)
            return NotImplemented
    else:
        def method(self: Any, other: Any) -> Any:
            if isinstance(other, type(self)) or isinstance(self, type(other)):
                return impl(self, other)
            return NotImplemented
    return method


def _find_ffi_init(type_info: Any) -> Any:
    for m in type_info.methods:
        if m.name == "__ffi_init__":
            return m.func
    return core._lookup_type_attr(type_info.type_index, "__ffi_init__")


def _install_dataclass_dunders(cls: type, *, init: bool, repr: bool, eq: bool, order: bool,
                               unsafe_hash: bool, match_args: bool = True,
                               py_class_mode: bool = False) -> None:
    """Put the dataclass special methods on `cls` (already registered: it has
    `__tvm_ffi_type_info__`).  `init`: `__init__` through `__ffi_init__` (or one raising
    TypeError when init is False); `repr`: object_repr; `eq`: `__eq__`/`__ne__`; `order`:
    `__lt__`/`__le__`/`__gt__`/`__ge__`; `unsafe_hash`: `__hash__`; always `__copy__`,
    `__deepcopy__`, `__replace__`; `match_args`: `__match_args__`.  A group any of whose
    methods the class body defines is left alone.  In py_class mode a user `__init__` is
    wrapped to allocate the object (through `__ffi_new__`) before it runs.
    """
    own = cls.__dict__
    type_info = cls.__tvm_ffi_type_info__
    ffi_init = _find_ffi_init(type_info)

    if "__init__" not in own:
        if init and ffi_init is not None:
            cls.__init__ = _make_init(cls, type_info, ffi_init, py_class_mode)
        elif not init:
            cls.__init__ = _make_refusing_init(cls)
    elif py_class_mode:
        ffi_new = core._lookup_type_attr(type_info.type_index, "__ffi_new__")
        if ffi_new is not None:
            cls.__init__ = _allocating_init(own["__init__"], ffi_new)

    if repr and "__repr__" not in own:
        object_repr = core.object_repr

        def __repr__(self: Any) -> str:
            return object_repr(self)
        cls.__repr__ = __repr__
    if eq and not {"__eq__", "__ne__"} & own.keys():
        impl = _global("ffi.RecursiveEq")
        cls.__eq__ = _comparison(impl)
        cls.__ne__ = _comparison(impl, negate=True)
    if order and not {"__lt__", "__le__", "__gt__", "__ge__"} & own.keys():
        for op in ("lt", "le", "gt", "ge"):
            setattr(cls, f"__{op}__", _comparison(_global("ffi.Recursive" + op.capitalize())))
    if unsafe_hash and "__hash__" not in own:
        recursive_hash = _global("ffi.RecursiveHash")

        def __hash__(self: Any) -> int:
            return recursive_hash(self)
        cls.__hash__ = __hash__

    if "__copy__" not in own:
        shallow = core._lookup_type_attr(type_info.type_index, "__ffi_shallow_copy__")
        cls.__copy__ = _make_copy(type_info, shallow)
    if "__deepcopy__" not in own:
        cls.__deepcopy__ = _make_deepcopy(type_info)
    if "__replace__" not in own:
        cls.__replace__ = _make_replace(type_info)
    if match_args:
        _set_match_args(cls, type_info)


def _allocating_init(user_init: Callable[..., None], ffi_new: Any) -> Callable[..., None]:
    """Wrap a user `__init__` so that the object exists (zeroed, via `ffi_new`) before the
    user's code assigns its fields."""
    import functools

    @functools.wraps(user_init)
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if self.__chandle__() == 0:
            self.__init_handle_by_constructor__(ffi_new)
        user_init(self, *args, **kwargs)
    return __init__
