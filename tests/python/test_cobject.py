"""tether.core.CObject: the C base class that holds an FFI object's handle.  Object (bound
to ffi.Object) and every FFI class derive from it; CObject itself stands for no FFI type."""
import pickle

import pytest

import tether
import tether.testing
from tether import core
from tether.core import TypeSchema


def test_every_ffi_class_derives_from_cobject():
    assert core.Object.__mro__[1] is core.CObject
    assert type(core.CObject) is type and type(core.Object) is core._ObjectMeta
    for value in (tether.convert([1, 2]), tether.convert({"a": 1}),
                  tether.get_global_func("testing.echo"), tether.convert(ValueError("x"))):
        assert isinstance(value, core.CObject) and isinstance(value, core.Object)


def test_bare_cobject_has_no_handle_and_is_no_object():
    o = core.CObject.__new__(core.CObject)
    assert not isinstance(o, core.Object)
    assert repr(o) == "CObject(chandle=None)" and o.__chandle__() == 0
    assert o == o and o.same_as(o) and not o.same_as(tether.convert([1]))
    assert isinstance(pickle.loads(pickle.dumps(o)), core.CObject)
    assert not hasattr(o, "_move")  # rvalue passing is Object's


def test_cobject_takes_over_a_handle():
    arr = tether.convert([1, 2, 3])
    o = core.CObject.__new__(core.CObject)
    o.__move_handle_from__(arr)
    assert arr.__chandle__() == 0 and o.__chandle__() != 0
    # it passes to functions as the object it holds
    back = tether.get_global_func("testing.echo")(o)
    assert isinstance(back, tether.Array) and list(back) == [1, 2, 3]


def test_python_subclass_of_cobject():
    class Holder(core.CObject):
        pass

    h = Holder()
    h.note = "has a __dict__"  # no metaclass: no __slots__ = () imposed
    assert repr(h) == "Holder(chandle=None)" and h.note == "has a __dict__"


def test_schema_of_cobject_is_unregistered():
    with pytest.raises(TypeError, match="CObject subclass .* is not registered"):
        TypeSchema.from_annotation(core.CObject)

    class Loose(core.CObject):
        pass

    with pytest.raises(TypeError, match="not registered"):
        TypeSchema.from_annotation(Loose)
    assert TypeSchema.from_annotation(core.Object).origin == "Object"


def test_converted_object_is_a_cobject():
    pair = tether.testing.TestIntPair(1, 2)
    out = TypeSchema.from_annotation(tether.testing.TestIntPair).convert(pair)
    value = core._to_py_class_value(out)
    assert isinstance(value, core.CObject) and value.same_as(pair)
