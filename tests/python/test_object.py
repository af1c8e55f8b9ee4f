"""tether.core.Object and the reflection machinery: auto-made classes for unregistered type
keys, _register_object (fields as descriptors, methods, __init__ from __ffi_init__ with
keyword arguments), identity semantics, repr, _move(), pickling, __slots__."""
import pickle

import pytest

import tether.testing
from tether import core

echo = core.get_global_func("testing.echo")
use_count = core.get_global_func("testing.object_use_count")
make_unregistered = core.get_global_func("testing.make_unregistered_object")
make_object = core.get_global_func("ffi.MakeObjectFromPackedArgs")


@pytest.fixture
def rebind():
    """Binds a class for a testing type key for one test, restoring the previous class."""
    saved = []

    def bind(key, cls):
        previous = type(make_object(key)) if key != "testing.TestIntPair" else type(
            tether.testing.TestIntPair(0, 0))
        saved.append((key, previous))
        return core._register_object(key, cls)

    yield bind
    for key, previous in reversed(saved):
        core._register_object(key, previous)


# ---- auto-made classes ---------------------------------------------------------------------

def test_unregistered_key_gets_an_auto_class():
    o = make_unregistered()
    cls = type(o)
    assert cls.__name__ == "TestUnregisteredObject"
    assert cls.__module__ == "testing"
    assert issubclass(cls, core.Object)
    parent = cls.__mro__[1]
    assert parent.__name__ == "TestUnregisteredBaseObject"
    assert parent.__mro__[1] is core.Object
    assert type(make_unregistered()) is cls  # a handle returned twice: the same class
    assert (o.v1, o.v2) == (41, 42)  # v1 is the parent's field
    assert o.get_v1_plus_one() == 42 and o.get_v2_plus_two() == 44
    assert repr(o) == "testing.TestUnregisteredObject(v1=41, v2=42)"


def test_auto_class_fields_are_read_only():
    o = make_unregistered()
    with pytest.raises(AttributeError, match="has no setter"):
        o.v1 = 5
    with pytest.raises(AttributeError):
        del o.v2
    prop = type(o).__mro__[1].__dict__["v1"]
    assert isinstance(prop, core.FFIProperty)
    assert prop.name == "v1" and prop.writable is False
    prop.set(o, 5)  # the explicit setter bypasses the read-only flag
    assert o.v1 == 5


def test_auto_class_init_from_reflected_fields():
    cls = type(make_unregistered())
    o = cls(v1=1, v2=2)  # the automatic __ffi_init__ of the reflected fields
    assert type(o) is cls and (o.v1, o.v2) == (1, 2)
    with pytest.raises(TypeError, match="missing required argument: 'v1'"):
        cls()


def test_class_without_ffi_init_cannot_be_constructed():
    cls = type(core.convert(object()))  # ffi.OpaquePyObject: no __ffi_init__
    assert cls.__name__ == "OpaquePyObject"
    with pytest.raises(TypeError, match="cannot be constructed"):
        cls()


def test_instances_have_no_dict():
    o = make_unregistered()
    assert not hasattr(o, "__dict__")
    with pytest.raises(AttributeError):
        o.new_attribute = 1

    class Sub(core.Object):
        pass

    assert Sub.__slots__ == ()
    with pytest.raises(AttributeError):
        Sub().x = 1

    class WithSlots(core.Object):
        __slots__ = ("extra",)

    w = WithSlots()
    w.extra = 3
    assert w.extra == 3


def test_instances_are_left_out_of_the_cycle_collector():
    import gc

    class Plain(core.Object):
        pass

    assert not gc.is_tracked(Plain())


def test_instance_made_while_its_class_is_created():
    """An instance allocated by __init_subclass__ keeps its class collectable, and both
    outlive a collection and free cleanly."""
    import gc

    made = []

    class Base(core.Object):
        def __init_subclass__(cls, **kwargs):
            super().__init_subclass__(**kwargs)
            made.append(cls.__new__(cls))

    class Sub(Base):
        pass

    assert type(made[0]) is Sub
    later = Sub.__new__(Sub)
    gc.collect()
    del made[:], later
    gc.collect()


# ---- registered classes --------------------------------------------------------------------

def test_registered_testing_classes():
    p = tether.testing.TestIntPair(1, 2)
    assert type(p) is tether.testing.TestIntPair
    assert (p.a, p.b, p.sum()) == (1, 2, 3)
    assert type(echo(p)) is tether.testing.TestIntPair
    with pytest.raises(AttributeError):
        p.a = 3


def test_init_positional_and_keyword_arguments():
    Base = tether.testing.TestObjectBase
    b = Base()
    assert (b.v_i64, b.v_f64, b.v_str) == (10, 10.0, "hello")
    b = Base(v_i64=5, v_str="a longer string than seven")
    assert (b.v_i64, b.v_str) == (5, "a longer string than seven")
    b = Base(1, 2.0, "x")
    assert (b.v_i64, b.v_f64, b.v_str) == (1, 2.0, "x")
    with pytest.raises(TypeError, match="unexpected keyword argument 'nope'"):
        Base(nope=1)
    with pytest.raises(TypeError, match="multiple values for argument 'v_i64'"):
        Base(1, v_i64=2)
    with pytest.raises(TypeError, match="v_str"):
        Base(1, 2.0, 3)
    d = tether.testing.TestObjectDerived(v_map={"k": 1}, v_array=[1, 2])
    assert d.v_map["k"] == 1 and list(d.v_array) == [1, 2] and d.v_i64 == 10
    with pytest.raises(TypeError, match="missing required argument"):
        tether.testing.TestObjectDerived()


def test_writable_fields():
    b = tether.testing.TestObjectBase()
    b.v_i64 = 7
    assert b.v_i64 == 7
    b.v_str = "a string stored in the object"
    assert b.v_str == "a string stored in the object" and type(b.v_str) is core.String
    with pytest.raises(AttributeError, match="property 'v_f64' of 'TestObjectBase' object has no setter"):
        b.v_f64 = 1.0
    with pytest.raises(TypeError, match="Cannot convert from type `ffi.SmallStr` to `int`"):
        b.v_i64 = "s"
    with pytest.raises(TypeError, match="Cannot convert from type `ffi.BigInt` to `int`"):
        b.v_i64 = 1 << 70
    assert b.v_i64 == 7
    assert b.add_i64(3) == 10


def test_object_fields_hold_references():
    o = make_unregistered()
    n = use_count(o)
    d = tether.testing.TestObjectDerived(v_map={"o": o}, v_array=[o, o])
    assert use_count(o) == n + 3
    assert d.v_array[0].same_as(o)
    del d
    assert use_count(o) == n


def test_register_object_binds_class(rebind):
    class Pair(core.Object):
        def total(self):
            return self.sum() * 10

    cls = rebind("testing.TestIntPair", Pair)
    assert cls is Pair
    assert Pair.__ffi_type_key__ == "testing.TestIntPair"
    assert Pair.__ffi_type_index__ == core._type_key_to_index("testing.TestIntPair")
    p = Pair(3, 4)
    assert type(p) is Pair and (p.a, p.b) == (3, 4) and p.total() == 70
    assert type(echo(p)) is Pair


def test_register_object_keeps_class_definitions(rebind):
    class Pair(core.Object):
        @property
        def a(self):
            return "mine"

        def __init__(self, a, b):
            self.__init_handle_by_constructor__(core.Function(lambda x, y: tether.testing.TestIntPair(x, y)), b, a)

    rebind("testing.TestIntPair", Pair)
    p = Pair(1, 2)
    assert p.a == "mine" and p.b == 1  # own __init__ swapped the arguments
    assert type(p) is Pair


def test_register_object_errors():
    with pytest.raises(ValueError, match="Cannot find object type index for key"):
        core._register_object("no.such.Type", type("X", (core.Object,), {}))
    with pytest.raises(TypeError):
        core._register_object("testing.TestIntPair", int)
    with pytest.raises(TypeError):
        core._register_object("testing.TestIntPair")
    with pytest.raises(ValueError):
        core._type_key_to_index("no.such.Type")
    assert core._lookup_type_key(core._type_key_to_index("ffi.Array")) == "ffi.Array"


def test_static_methods_and_method_descriptors():
    Pair = tether.testing.TestIntPair
    m = Pair.__dict__["sum"]
    assert isinstance(m, core.FFIMethod)
    assert isinstance(m.__func__, core.Function)
    assert m.__func__.__name__ == "testing.TestIntPair.sum"
    p = Pair(2, 5)
    assert Pair.sum(p) == 7
    bound = p.sum
    assert bound() == 7
    with pytest.raises(TypeError):
        Pair.sum(make_unregistered())


# ---- identity, repr, handles ---------------------------------------------------------------

def test_identity_semantics():
    o = make_unregistered()
    r = echo(o)
    assert r is not o and r == o and not (r != o) and r.same_as(o)
    assert hash(r) == hash(o)
    assert o != make_unregistered()
    assert o != 1 and not o.same_as(1)
    assert {o: 1}[r] == 1
    assert o.__chandle__() == r.__chandle__() != 0


def test_repr_uses_repr_print():
    p = tether.testing.TestIntPair(1, 2)
    assert repr(p) == "testing.TestIntPair(a=1, b=2)"
    assert repr(core.Object()) == "Object(chandle=None)"


def test_move():
    o = make_unregistered()
    ref = o._move()
    assert isinstance(ref, core.ObjectRValueRef)
    r = echo(ref)
    assert o.__chandle__() == 0
    assert repr(o) == "TestUnregisteredObject(chandle=None)"
    assert use_count(r) == 1  # the reference moved, not copied
    with pytest.raises(ValueError, match="already moved"):
        echo(ref)
    with pytest.raises(ValueError, match="without a handle"):
        echo(o)
    with pytest.raises(ValueError):
        o.v1


def test_object_without_handle():
    o = core.Object()
    assert o.__chandle__() == 0
    assert o == o and o != core.Object()
    with pytest.raises(ValueError):
        echo(o)


def test_init_handle_by_constructor():
    o = core.Object()
    o.__init_handle_by_constructor__(make_unregistered)
    assert o.__chandle__() != 0
    assert core._lookup_type_key(core._object_type_index(o)) == "testing.TestUnregisteredObject"
    with pytest.raises(TypeError):
        core.Object().__init_handle_by_constructor__(lambda: 3)


def test_pickle():
    p = tether.testing.TestIntPair(3, 4)
    q = pickle.loads(pickle.dumps(p))
    assert type(q) is tether.testing.TestIntPair and (q.a, q.b) == (3, 4)
    assert not q.same_as(p)
    b = tether.testing.TestObjectBase(v_i64=1, v_str="pickled string value")
    c = pickle.loads(pickle.dumps(b))
    assert (c.v_i64, c.v_f64, c.v_str) == (1, 10.0, "pickled string value")
    # as in tvm_ffi: a Function has no JSON graph form; an Object without a handle pickles
    # as one (state {"handle": None})
    with pytest.raises(TypeError, match="ffi.Function"):
        pickle.dumps(core.get_global_func("testing.nop"))
    empty = pickle.loads(pickle.dumps(core.Object()))
    assert type(empty) is core.Object and empty.__chandle__() == 0


def test_type_index_helpers():
    o = make_unregistered()
    idx = core._object_type_index(o)
    assert idx >= 128
    assert core._lookup_type_key(idx) == "testing.TestUnregisteredObject"
    assert core._type_key_to_index("testing.TestUnregisteredObject") == idx
    with pytest.raises(TypeError):
        core._object_type_index(3)
