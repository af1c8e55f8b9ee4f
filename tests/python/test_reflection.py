"""Type reflection through tether.core: TypeInfo, TypeField, TypeMethod, type attributes,
Python-defined types (_register_py_class / _register_fields), fallback classes."""
import copy
import itertools

import pytest

import tether
import tether.testing as tt
from tether import core

_keys = itertools.count()


def unique_key(base):
    return f"test_reflection.{base}_{next(_keys)}"


class Schema:
    """The part of a TypeSchema that field registration reads (origin, args, to_json)."""

    def __init__(self, origin, index=-3, args=()):
        self.origin, self.origin_type_index, self.args = origin, index, args

    def to_json(self):
        return {"type": self.origin}


class Field:
    def __init__(self, name, origin, default=core.MISSING, frozen=False, index=-3):
        self.name, self.doc, self._ty_schema = name, f"doc of {name}", Schema(origin, index)
        self.default, self.default_factory = default, core.MISSING
        self.init = self.repr = self.hash = self.compare = True
        self.kw_only, self.frozen, self.structural_eq = False, frozen, None


def define(fields, parent=tether.Object):
    """A Python-defined FFI class with `fields`, constructed by its type's __ffi_init__."""
    key = unique_key("P")
    cls = type(parent)("P", (parent,), {})
    info = core._register_py_class(core._type_cls_to_type_info(parent), key, cls)
    info._register_fields(fields)
    core._register_object(key, cls)
    cls.__tvm_ffi_type_info__ = info
    return cls, info


def test_type_info_of_a_registered_class():
    info = core._type_cls_to_type_info(tt.TestObjectBase)
    assert isinstance(info, core.TypeInfo)
    assert info.type_cls is tt.TestObjectBase and info.type_key == "testing.TestObjectBase"
    assert info.type_index == core._object_type_key_to_index("testing.TestObjectBase")
    assert info.parent_type_info.type_cls is tether.Object
    assert info.parent_type_info.parent_type_info is None
    assert info.type_ancestors == [info.parent_type_info.type_index]
    assert [f.name for f in info.fields][:3] == ["v_i64", "v_f64", "v_str"]
    v_i64 = info.fields[0]
    assert v_i64.doc == "i64 field" and v_i64.metadata["type_schema"]
    assert v_i64.c_has_default and v_i64.c_default == 10 and v_i64.c_default_factory is core.MISSING
    obj = tt.TestObjectBase()
    assert v_i64.getter(obj) == 10
    v_i64.setter(obj, 12)
    assert obj.v_i64 == 12
    assert info.total_size >= v_i64.offset + v_i64.size
    assert core._type_index_to_type_info(info.type_index) is info
    assert core._lookup_or_register_type_info_from_type_key("testing.TestObjectBase") is info


def test_methods_are_callable_with_the_instance_first():
    info = core._type_cls_to_type_info(tt.TestObjectBase)
    add = next(m for m in info.methods if m.name == "add_i64")
    assert not add.is_static and add.doc == "add_i64 method"
    obj = tt.TestObjectBase()
    assert add.func(obj, 5) == obj.v_i64 + 5
    assert type(obj).add_i64.__doc__ == "add_i64 method"


def test_register_object_sets_type_info():
    assert tt.TestIntPair.__tvm_ffi_type_info__ is core._type_cls_to_type_info(tt.TestIntPair)
    assert core._object_type_key_to_index("no.such.Type") is None


def test_builtin_classes_have_type_info():
    for cls, key, parent in [(tether.Object, "ffi.Object", None),
                             (tether.Function, "ffi.Function", tether.Object),
                             (core.String, "ffi.String", tether.Object),
                             (tether.Shape, "ffi.Shape", tether.Object)]:
        info = core._type_cls_to_type_info(cls)
        assert info.type_key == key
        assert (info.parent_type_info.type_cls if info.parent_type_info else None) is parent
    assert core._type_cls_to_type_info(int) is None


def test_type_attrs():
    index = core._object_type_key_to_index("testing.TestIntPair")
    assert isinstance(core._lookup_type_attr(index, "__ffi_init__"), tether.Function)
    assert core._lookup_type_attr(index, "__no_such_attr__") is None
    assert core._lookup_type_attr(64, "__metadata__") is None
    assert core._lookup_type_attr(-5, "__ffi_init__") is None
    with pytest.raises(TypeError):
        core._lookup_type_attr(index)
    derived = core._object_type_key_to_index("testing.TestObjectDerived")
    core._register_type_attr(index, "__test_reflection_attr__", 7)
    assert core._lookup_type_attr(index, "__test_reflection_attr__") == 7
    with pytest.raises(RuntimeError):
        core._register_type_attr(index, "__test_reflection_attr__", 8)
    base = core._object_type_key_to_index("testing.TestObjectBase")
    core._register_type_attr(base, "__test_reflection_inherited__", "x")
    assert core._lookup_type_attr(derived, "__test_reflection_inherited__") is None
    assert core._lookup_type_attr(derived, "__test_reflection_inherited__", ancestor=True) == "x"


def test_python_defined_type_fields_and_construction():
    P, info = define([Field("a", "int"), Field("b", "float"), Field("s", "str", default="hi"),
                      Field("o", "Any")])
    assert [f.name for f in info.fields] == ["a", "b", "s", "o"]
    assert [f.offset for f in info.fields] == [24, 32, 40, 56] and info.total_size == 72
    assert info.fields[2].c_default == "hi" and info.fields[0].c_default is core.MISSING
    p = P(1, 2.5, None, "x")  # positional order: required fields, then defaulted ones
    assert (p.a, p.b, p.s, p.o) == (1, 2.5, "x", None)
    assert P(a=3, b=1.0, o=4).s == "hi"
    p.a, p.b, p.o = 5, 3, [1, 2]
    assert p.a == 5 and p.b == 3.0 and isinstance(p.b, float) and list(p.o) == [1, 2]
    with pytest.raises(TypeError, match="expected int"):
        p.a = "x"
    with pytest.raises(TypeError, match="expected int"):
        p.a = 2.0
    with pytest.raises(TypeError, match="expected str"):
        p.s = 1
    assert p.a == 5 and p.s == "x"
    q = copy.copy(p)
    assert q.a == 5 and not q.same_as(p)
    with pytest.raises(ValueError, match="already registered"):
        core._register_py_class(core._type_cls_to_type_info(tether.Object), info.type_key, P)
    with pytest.raises(RuntimeError):
        info._register_fields([Field("z", "int")])


def test_object_typed_field_checks_the_type():
    base = core._object_type_key_to_index("testing.TestObjectBase")
    P, _ = define([Field("o", "testing.TestObjectBase", index=base)])
    P(tt.TestObjectBase())
    P(tt.TestObjectDerived(v_map={"a": 1}, v_array=[1]))  # a subclass passes
    with pytest.raises(TypeError):
        P(tt.TestIntPair(1, 2))


def test_frozen_field_property():
    P, info = define([Field("x", "int", frozen=True), Field("y", "int")])
    x, y = info.fields
    assert x.frozen and not y.frozen
    px, py = x.as_property(P), y.as_property(P)
    assert isinstance(px, core.FFIProperty) and px.fset is None and py.fset is not None
    P.x, P.y = px, py
    p = P(1, 2)
    with pytest.raises(AttributeError):
        p.x = 3
    P.x.set(p, 3)
    p.y = 4
    assert (p.x, p.y) == (3, 4) and P.x.fget(p) == 3


def test_py_methods_and_type_attrs_of_a_python_defined_type():
    P, info = define([Field("x", "int")])
    info._register_py_methods([("label", lambda self: f"P({self.x})", False),
                               ("answer", lambda: 42, True),
                               ("__ffi_repr__", lambda self, f: "custom", False)],
                              type_attr_names=frozenset({"__ffi_repr__"}))
    methods = {m.name: m for m in info.methods}
    assert set(methods) >= {"label", "answer"} and "__ffi_repr__" not in methods
    assert methods["label"].func(P(7)) == "P(7)" and not methods["label"].is_static
    assert methods["answer"].is_static and methods["answer"].func() == 42
    assert core._lookup_type_attr(info.type_index, "__ffi_repr__") is not None


def test_fallback_class_of_an_unregistered_type():
    obj = tether.get_global_func("testing.make_unregistered_object")()
    cls = type(obj)
    info = cls.__tvm_ffi_type_info__
    assert info.type_key == "testing.TestUnregisteredObject" and info.type_cls is cls
    assert cls.__qualname__ == info.type_key and "Auto-generated fallback class" in cls.__doc__
    assert core._type_cls_to_type_info(cls) is info
    assert obj.v1 == 41 and obj.get_v1_plus_one() == 42


def test_opaque_object_and_object_helpers():
    value = object()
    opaque = core.convert(value)
    assert isinstance(opaque, core.OpaquePyObject) and opaque.pyobject() is value
    with pytest.raises(TypeError, match="cannot be constructed"):
        core.OpaquePyObject()
    a, b = tt.TestIntPair(1, 2), tt.TestIntPair(1, 2)
    assert a.id_ == a.__chandle__() != 0 and a.is_(a) and not a.is_(b) and not a.is_(None)
    c = tt.TestIntPair.__new__(tt.TestIntPair)
    handle = a.__chandle__()
    c.__move_handle_from__(a)
    assert c.__chandle__() == handle and a.__chandle__() == 0 and c.a == 1
    assert core.object_repr(b) == repr(b)


def test_reflection_helpers_reject_bad_input():
    with pytest.raises(ValueError):
        core._type_info_raw(1 << 30)
    with pytest.raises(IndexError):
        core._field_property(core._object_type_key_to_index("testing.TestIntPair"), 99, False)
    with pytest.raises(ValueError):
        core._make_field_setter(1, "no-such-kind", -1, None)
    with pytest.raises(ValueError):
        core._register_type_attr(-1, "__x__", 1)
    with pytest.raises(ValueError):
        core._register_type_attr(1 << 40, "__x__", 1)
    with pytest.raises(ValueError):
        core._type_alloc_index(unique_key("Orphan"), 1 << 30)
    with pytest.raises(ValueError):
        core._lookup_or_register_type_info_from_type_key("no.such.Type")
    with pytest.raises(ValueError):
        core.TypeField("f", None, 8, 8, 24, 1, False, {}, None, None)


def test_ffi_api_module():
    from tether import _ffi_api

    assert _ffi_api.DeepCopy is not None and callable(_ffi_api.RecursiveEq)
    keys = tether.registry.get_registered_type_keys()
    assert "ffi.Object" in keys and "testing.TestIntPair" in keys


def test_object_convertible_passes_as_its_object():
    pair = tt.TestIntPair(1, 2)

    class Holder(core.ObjectConvertible):
        def asobject(self):
            return pair

    echo = tether.get_global_func("testing.echo")
    assert echo(Holder()).same_as(pair)

    class Broken(core.ObjectConvertible):
        def asobject(self):
            raise RuntimeError("no object here")

    with pytest.raises(RuntimeError, match="no object here"):
        echo(Broken())


def test_rolled_back_type_key_can_be_registered_again():
    parent = core._type_cls_to_type_info(tether.Object)
    key = unique_key("Retry")
    first = core._register_py_class(parent, key, type("A", (tether.Object,), {}))
    core._rollback_py_class(first)
    assert core._type_index_to_type_info(first.type_index) is None
    cls = type("B", (tether.Object,), {})
    second = core._register_py_class(parent, key, cls)
    assert second.type_index == first.type_index and second.type_cls is cls
    assert core._type_cls_to_type_info(cls) is second


def test_type_metadata_flag_of_python_defined_types():
    _, plain = define([Field("x", "int")])
    assert not plain._has_type_metadata and plain.total_size == 32
    assert core._type_cls_to_type_info(tt.TestIntPair)._has_type_metadata


def test_data_type_class():
    d = core.DataType("float32")
    assert isinstance(d, tether.dtype) and d == "float32" and d.bits == 32
    assert core.DataType.__name__ == "DataType"
    info = core._type_cls_to_type_info(core.DataType)
    assert info.type_key == "DataType" and info.parent_type_info is None
    assert tether.get_global_func("testing.echo")(d) == tether.dtype("float32")


def test_layout_facts_of_the_testing_class_chain():
    """Field sizes/offsets and object sizes are those of the C++ classes the types mirror."""
    def facts(key):
        info = core._lookup_or_register_type_info_from_type_key(key)
        return info.total_size, [(f.name, f.size, f.alignment, f.offset) for f in info.fields]

    assert facts("testing.TestCxxClassBase") == (40, [("v_i64", 8, 8, 24), ("v_i32", 4, 4, 32)])
    assert facts("testing.TestCxxClassDerived") == (56, [("v_f64", 8, 8, 40), ("v_f32", 4, 4, 48)])
    assert facts("testing.TestCxxClassDerivedDerived") == (
        80, [("v_str", 16, 8, 56), ("v_bool", 1, 1, 72)])
    # an unreflected int64 between the fields; a vtable pointer beyond them
    assert facts("testing.TestCxxClassHiddenField") == (
        48, [("v_i64", 8, 8, 24), ("v_i32", 4, 4, 40)])
    assert facts("testing.TestCxxClassPolymorphic") == (40, [("v_i64", 8, 8, 24)])
    assert facts("testing.TestCxxAutoInitSimple")[0] == 40
    assert facts("testing.TestCustomHash")[0] == 48


def test_type_final_attribute():
    def final(key):
        return core._lookup_type_attr(core._type_key_to_index(key), "__ffi_type_final__")

    assert final("testing.TestCxxClassBase") is False
    assert final("testing.TestCxxClassDerivedDerived") is False
    assert final("testing.TestObjectDerived") is True
    assert final("testing.TestCxxClassHiddenField") is True
    assert final("testing.TestCxxAutoInitChild") is True
    assert final("testing.TestNonCopyable") is False
    assert final("ffi.Object") is None  # registered without a definition


def test_float32_field_stores_a_c_float():
    obj = tt._TestCxxClassDerived(1, 2, 0.5)
    assert obj.v_f32 == 8.0  # the default
    obj.v_f32 = 0.1
    assert obj.v_f32 != 0.1 and abs(obj.v_f32 - 0.1) < 1e-8  # rounded to float precision
    obj.v_f32 = 3
    assert obj.v_f32 == 3.0 and isinstance(obj.v_f32, float)
    obj.v_f32 = 1e300
    assert obj.v_f32 == float("inf")
    obj.v_f32 = -1e300
    assert obj.v_f32 == float("-inf")
    with pytest.raises(TypeError):
        obj.v_f32 = "x"
    assert obj.v_f32 == float("-inf")
    copied = copy.copy(obj)
    assert copied.v_f32 == float("-inf") and copied.v_f64 == 0.5
