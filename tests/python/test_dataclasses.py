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


def test_positional_arguments_fill_required_fields_first():
    @py_class(key("Order"))
    class Order(tether.Object):
        a: int = 1
        b: int
        c: int = 3
        d: int

    o = Order(10, 20)  # the signature is (b, d, a=1, c=3), as a dataclass's
    assert (o.a, o.b, o.c, o.d) == (1, 10, 3, 20)
    assert list(__import__("inspect").signature(Order).parameters) == ["b", "d", "a", "c"]


def test_python_subclass_of_c_type_copies_parent_fields():
    from tether.testing import TestObjectBase

    @py_class(key("Child"))
    class Child(TestObjectBase):
        extra: int

    obj = Child(extra=7, v_i64=1, v_f64=2.0, v_str="x")
    dup = copy.copy(obj)
    assert (dup.extra, dup.v_i64, dup.v_f64, dup.v_str) == (7, 1, 2.0, "x")
    assert not dup.same_as(obj)
    del obj
    assert dup.v_str == "x"  # the copy holds its own reference to the string


def test_enums_are_singletons_under_copy():
    from tether.dataclasses import Enum, IntEnum, auto

    class Color(Enum, type_key=key("Color")):
        red = auto()
        green = auto()

    class Level(IntEnum, type_key=key("Level")):
        low = 10
        high = 20

    assert list(Color) == [Color.red, Color.green] and len(Color) == 2
    assert Color(1).same_as(Color.green) and Color.get("red").same_as(Color.red)
    assert repr(Color.red).endswith(".red")
    assert Level(20).same_as(Level.high) and Level.low == 10 and Level.high.value == 20
    with pytest.raises(ValueError):
        Level(30)
    assert copy.deepcopy(Color.red).same_as(Color.red)
    assert copy.deepcopy(tether.Array([Level.low]))[0].same_as(Level.low)


def test_fields_without_a_default_keep_their_initial_value():
    import tether.testing as tt

    obj = tt._TestCxxAutoInitAllInitOff()
    # x and y have reflected defaults; z has none and keeps what the type starts it at
    assert (obj.x, obj.y, obj.z) == (7, 9, 1234)
    obj.x, obj.z = 1, 2
    init = core._lookup_type_attr(type(obj).__tvm_ffi_type_info__.type_index, "__ffi_init__")
    obj.__init_handle_by_constructor__(init)  # constructs afresh, in place
    assert (obj.x, obj.y, obj.z) == (7, 9, 1234)
    made = tether.get_global_func("ffi.MakeObjectFromPackedArgs")(
        "testing.TestCxxAutoInitAllInitOff", "z", 5)
    assert (made.x, made.y, made.z) == (7, 9, 5)


def test_type_without_init_still_copies():
    import tether.testing as tt

    cls = tt._TestCxxNoAutoInit
    with pytest.raises(TypeError, match="cannot be constructed directly"):
        cls(1, 2)
    obj = tether.get_global_func("ffi.MakeObjectFromPackedArgs")(
        "testing.TestCxxNoAutoInit", "x", 1, "y", 2)
    dup = copy.copy(obj)
    assert (dup.x, dup.y) == (1, 2) and not dup.same_as(obj)


def test_unconvertible_default_fails_construction():
    from tether.testing import TestIntPair

    @py_class(key("BadDefault"))
    class BadDefault(tether.Object):
        a: int
        b: TestIntPair = 5

    with pytest.raises(TypeError, match=r"__ffi_init__\(\) default for field 'b'"):
        BadDefault(a=1)
    with pytest.raises(TypeError, match=r"__ffi_init__\(\) field 'b'"):
        BadDefault(a=1, b=5)
    ok = BadDefault(a=1, b=TestIntPair(1, 2))
    assert ok.b.a == 1


def test_object_field_rejects_non_objects_naming_its_type():
    import tether.testing as tt

    target = tt.TestObjectBase()
    holder = tt.TestObjectPtrHolder(target)
    with pytest.raises(TypeError, match=r"`None` to `testing\.TestObjectBase`"):
        holder.value = None
    with pytest.raises(TypeError, match=r"`int` to `testing\.TestObjectBase`"):
        holder.optional_value = 3
    holder.optional_value = None
    assert holder.optional_value is None and holder.value.same_as(target)
