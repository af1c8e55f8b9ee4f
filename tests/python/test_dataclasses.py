"""tether.dataclasses as a user sees it: @py_class types defined in Python (fields stored in
the C object), their generated __init__ / __repr__ / comparison / hashing / copying, and the
`dataclasses`-module helpers."""
import copy
import itertools
from typing import Optional

import pytest

import tether
from tether import core
from tether.dataclasses import (KW_ONLY, Field, asdict, astuple, field, fields, init_property,
                                is_dataclass, py_class, replace)

if not hasattr(core, "_register_py_class"):  # the reflection classes are not in this build
    pytest.skip("tether.core has no _register_py_class", allow_module_level=True)

_ids = itertools.count()


def key(name):
    return f"tests.dataclasses.{name}.{next(_ids)}"


def test_fields_defaults_and_construction():
    @py_class(key("Point"))
    class Point(tether.Object):
        x: int
        y: float = 1.5
        tags: list = field(default_factory=list)

    p = Point(3)
    assert (p.x, p.y, list(p.tags)) == (3, 1.5, [])
    q = Point(y=2.0, x=4)
    assert (q.x, q.y) == (4, 2.0)
    q.x = 7
    assert q.x == 7
    with pytest.raises(TypeError):
        Point()  # x is required
    assert [f.name for f in fields(Point)] == ["x", "y", "tags"]
    assert all(isinstance(f, Field) for f in fields(p))
    assert is_dataclass(Point) and is_dataclass(p) and not is_dataclass(tether.Object)
    assert Point.__match_args__ == ("x", "y", "tags")


def test_kw_only_frozen_and_replace():
    @py_class(key("Frozen"), frozen=True)
    class Frozen(tether.Object):
        a: int
        _: KW_ONLY
        b: str = "b"

    f = Frozen(1, b="z")
    with pytest.raises(TypeError):
        Frozen(1, "z")  # b is keyword-only
    with pytest.raises(AttributeError):
        f.a = 2
    g = replace(f, a=5)
    assert (g.a, g.b, f.a) == (5, "z", 1)
    Frozen.a.set(f, 9)  # the descriptor's escape hatch writes a frozen field
    assert f.a == 9


def test_eq_order_hash_and_repr():
    @py_class(key("Pair"), eq=True, order=True, unsafe_hash=True)
    class Pair(tether.Object):
        a: int
        b: str

    assert Pair(1, "x") == Pair(1, "x")
    assert Pair(1, "x") != Pair(1, "y")
    assert Pair(1, "x") < Pair(2, "a")
    assert hash(Pair(1, "x")) == hash(Pair(1, "x"))
    assert Pair(1, "x").__eq__(3) is NotImplemented
    text = repr(Pair(1, "x"))
    assert "a=1" in text and "x" in text

    @py_class(key("Plain"))
    class Plain(tether.Object):
        a: int

    one = Plain(1)
    assert one != Plain(1)  # without eq=True, == is identity
    assert one == one


def test_copy_deepcopy_and_post_init():
    seen = []

    @py_class(key("Node"))
    class Node(tether.Object):
        value: int
        child: Optional["Node"] = None

        def __post_init__(self):
            seen.append(self.value)

    leaf = Node(1)
    root = Node(2, leaf)
    assert seen == [1, 2]
    shallow = copy.copy(root)
    assert shallow.child.same_as(leaf) and not shallow.same_as(root)
    deep = copy.deepcopy(root)
    assert deep.child.value == 1 and not deep.child.same_as(leaf)


def test_init_property_and_asdict():
    @py_class(key("Rect"))
    class Rect(tether.Object):
        w: int
        h: int

        @init_property
        def area(self) -> int:
            return self.w * self.h

    r = Rect(2, 3)
    assert r.area == 6
    assert asdict(r) == {"w": 2, "h": 3, "area": 6}
    assert astuple(r) == (2, 3, 6)
    with pytest.raises(TypeError):
        asdict(Rect)


def test_inheritance_and_forward_reference():
    @py_class(key("Base"))
    class Base(tether.Object):
        a: int

    @py_class(key("Child"))
    class Child(Base):
        b: "Later"

    @py_class(key("Later"))
    class Later(tether.Object):
        v: int

    c = Child(1, Later(2))
    assert (c.a, c.b.v) == (1, 2)
    assert isinstance(c, Base)
    assert [f.name for f in fields(c)] == ["a", "b"]


def test_bad_options_raise():
    with pytest.raises(ValueError):
        py_class(order=True)  # order without eq
    with pytest.raises(ValueError):
        py_class(structural_eq="nope")
    with pytest.raises(ValueError):
        field(default=1, default_factory=list)
    with pytest.raises(TypeError):
        @py_class(key("NotObject"))
        class NotObject:  # no FFI base class
            a: int
