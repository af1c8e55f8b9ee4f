"""Mapping between FFI error kinds and Python exception classes.

An FFI error of kind K raised into Python becomes an instance of the class registered for
K (RuntimeError if none); a Python exception crossing into C gets the kind registered for
its exact class.  RuntimeError, ValueError, TypeError, AttributeError, KeyError,
IndexError, AssertionError and MemoryError are registered by tether.core.
"""
from __future__ import annotations


from . import core

# Typing names for annotations only (not imported at run time: `import tether` stays fast).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import List, Optional, Tuple, Type, Union

__all__ = ["register_error"]

_FRAME_LINE = None


def _parse_backtrace(backtrace: str) -> List[Tuple[str, int, str]]:
    """The (file, line, function) of each `File "f", line N, in func` line of `backtrace`,
    in order; other lines are skipped."""
    global _FRAME_LINE
    if _FRAME_LINE is None:
        import re

        _FRAME_LINE = re.compile(r'File "(.+?)", line (\d+), in (.+)')
    frames = []
    for line in backtrace.split("\n"):
        m = _FRAME_LINE.match(line.strip())
        if m is not None:
            frames.append((m.group(1), int(m.group(2)), m.group(3)))
    return frames


def register_error(name_or_cls: Union[str, Type[BaseException], None] = None,
                   cls: Optional[Type[BaseException]] = None):
    """Map error kind `name_or_cls` to exception class `cls`, both ways.

    ``register_error("Kind", Cls)``; ``@register_error("Kind")`` on a class; or
    ``@register_error`` / ``register_error(Cls)`` to use the class's own name as the kind.
    Returns the class (or a decorator).
    """
    def register(exc_cls, kind: Optional[str] = None):
        if not (isinstance(exc_cls, type) and issubclass(exc_cls, BaseException)):
            raise TypeError("register_error: expected an exception class, got "
                            f"{type(exc_cls).__name__}")
        core._register_error(kind if kind is not None else exc_cls.__name__, exc_cls)
        return exc_cls

    if name_or_cls is None:
        return register
    if isinstance(name_or_cls, str):
        if cls is None:
            return lambda c: register(c, name_or_cls)
        return register(cls, name_or_cls)
    if cls is not None:
        raise TypeError("register_error: with a class as first argument, `cls` must be None")
    return register(name_or_cls)
