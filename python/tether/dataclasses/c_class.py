"""`@c_class`: a Python class over an FFI type defined in C (or C++), with dataclass
behaviour derived from the type's reflection (field traits: init, kw_only, defaults,
repr, compare, hash).  It is `register_object` plus a `Field` per reflected field and the
special methods of _dunder.
"""
from __future__ import annotations

import typing
from typing import Any, Callable, TypeVar

try:
    from typing import dataclass_transform
except ImportError:  # pragma: no cover - Python < 3.11
    from typing_extensions import dataclass_transform

from .field import Field, _field_converter, field

_T = TypeVar("_T", bound=type)


def _attach_field_objects(cls: type, type_info: Any, *, frozen: bool = False) -> None:
    """Give each reflected field of `type_info` (its own, not inherited) a `Field` built
    from its C traits, in `TypeField.dataclass_field`; `frozen` marks them all frozen."""
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # noqa: BLE001 - annotations are documentation here
        hints = {}
    for tf in type_info.fields:
        if frozen:
            tf.frozen = True
        spec = Field(tf.name, tf.ty, default=tf.c_default, default_factory=tf.c_default_factory,
                     frozen=tf.frozen, init=tf.c_init, repr=tf.c_repr, hash=tf.c_hash,
                     compare=tf.c_compare, kw_only=tf.c_kw_only,
                     structural_eq=tf.c_structural_eq, doc=tf.doc)
        spec.type = hints.get(tf.name)
        tf.dataclass_field = spec


def _reinstall_field_properties(cls: type, type_info: Any, shadowed_names: set) -> None:
    """Replace the field descriptors of `cls` (after their traits changed), except those
    the class body shadows."""
    for tf in type_info.fields:
        if tf.name not in shadowed_names:
            setattr(cls, tf.name, tf.as_property(cls))


def _install_payload_enum_setters(cls: type, type_info: Any, shadowed_names: set) -> None:
    """Reinstall the descriptors of fields declared as an IntEnum/StrEnum type (except those
    the class body shadows), so that an assigned payload (20, "*") stores its variant."""
    for tf in type_info.fields:
        if tf.name not in shadowed_names and tf._setter_normalizer() is not None:
            setattr(cls, tf.name, tf.as_property(cls))


@dataclass_transform(eq_default=False, order_default=False, field_specifiers=(Field, field))
def c_class(type_key: str, *, frozen: bool = False, init: bool = True, repr: bool = True,
            eq: bool = False, order: bool = False, unsafe_hash: bool = False,
            match_args: bool = True) -> Callable[[_T], _T]:
    """Bind the decorated class to the registered FFI type `type_key` with dataclass
    behaviour: `init` (`__init__` from the reflected constructor and field traits), `repr`,
    `eq`, `order`, `unsafe_hash` (field-wise, through libtether's recursive comparators),
    `match_args`, `frozen` (the type's own fields lose their setter; `.set` still writes).
    Special methods the class body defines are kept.  Reflected fields the body does not
    annotate produce a UserWarning.
    """
    from .._dunder import _install_dataclass_dunders
    from ..registry import (_add_type_attr_class_attrs, _warn_missing_field_annotations,
                            register_object)
    from .py_class import _FFI_TYPE_ATTR_NAMES

    def decorate(cls: _T) -> _T:
        for name, value in list(cls.__dict__.items()):
            if isinstance(value, Field):
                delattr(cls, name)
        shadowed = {name for name in cls.__dict__}
        cls = register_object(type_key, init=False)(cls)
        info = cls.__tvm_ffi_type_info__
        _warn_missing_field_annotations(cls, info, stacklevel=2)
        _attach_field_objects(cls, info, frozen=frozen)
        if frozen:
            _reinstall_field_properties(cls, info, shadowed)
        else:
            _install_payload_enum_setters(cls, info, shadowed)
        _add_type_attr_class_attrs(cls, info, _FFI_TYPE_ATTR_NAMES)
        _install_dataclass_dunders(cls, init=init, repr=repr, eq=eq, order=order,
                                   unsafe_hash=unsafe_hash, match_args=match_args)
        cls.__ffi_is_dataclass__ = True
        return cls

    return decorate


c_class.__dataclass_transform__["kwargs"]["converter"] = _field_converter
