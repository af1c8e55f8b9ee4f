"""TypeSchema: schemas from annotations and JSON, and the C converter behind check_value and
convert (what converts to what, and what a mismatch says)."""
import typing
from typing import Callable, Optional, Union

import pytest

import tether
from tether.core import CAny, TypeSchema, _to_py_class_value

A = TypeSchema.from_annotation


def value_of(schema, value):
    return _to_py_class_value(schema.convert(value))


def test_annotations_print_as_typing_syntax():
    assert repr(A(int)) == "int"
    assert repr(A(list[int])) == "List[int]"
    assert repr(A(tuple[int, ...])) == "Array[int]"
    assert repr(A(tuple[int, str])) == "tuple[int, str]"
    assert repr(A(Optional[str])) == "str | None"
    assert repr(A(Union[int, str, None])) == "int | str | None"
    assert repr(A(dict[str, float])) == "Dict[str, float]"
    assert repr(A(Callable[[int], str])) == "Callable[[int], str]"
    assert repr(A(tether.Map[str, int])) == "Map[str, int]"
    assert repr(A(typing.Any)) == "Any"
    with pytest.raises(TypeError, match="Cannot convert"):
        A(object)


def test_json_round_trip_and_cxx_names():
    s = TypeSchema.from_json_str('{"type":"ffi.Map","args":[{"type":"std::string"},{"type":"int"}]}')
    assert s.repr() == "Map[str, int]"
    assert TypeSchema.from_json_obj(s.to_json()) == s
    big = TypeSchema.from_json_obj({"type": "ffi.BigInt"})
    assert big.origin == "int" and big.to_json() == {"type": "ffi.BigInt"}
    with pytest.raises(TypeError):
        TypeSchema.from_json_obj({"args": []})
    with pytest.raises(ValueError):
        TypeSchema("Optional", (A(int), A(str)))


def test_scalar_coercions():
    assert value_of(A(float), 3) == 3.0 and isinstance(value_of(A(float), 3), float)
    assert value_of(A(int), True) == 1 and type(value_of(A(int), True)) is int
    assert value_of(A(bool), 0) is False
    assert isinstance(value_of(A(str), "hi"), tether.String)
    assert isinstance(value_of(A(bytes), bytearray(b"ab")), tether.Bytes)
    assert A(int).convert(5).type_index == 1
    assert A(type(None)).convert(None).type_index == 0
    assert repr(A(int).convert(7)) == "CAny(int=7)"


def test_rejections_name_the_schema_and_the_value_type():
    with pytest.raises(TypeError, match=r"type check failed for int: expected int, got str"):
        A(int).check_value("x")
    with pytest.raises(TypeError, match=r"type conversion failed for int: expected int, got float"):
        A(int).convert(1.5)
    with pytest.raises(TypeError, match=r"out of int64 range"):
        A(int).check_value(1 << 64)
    with pytest.raises(TypeError, match=r"expected int \| str, got float"):
        A(Union[int, str]).check_value(1.5)


def test_containers_are_rebuilt_with_converted_elements():
    arr = value_of(A(tether.Array[float]), [1, 2.5])
    assert isinstance(arr, tether.Array) and list(arr) == [1.0, 2.5]
    assert all(isinstance(x, float) for x in arr)
    lst = value_of(A(list[int]), (1, 2))
    assert isinstance(lst, tether.List) and list(lst) == [1, 2]
    m = value_of(A(tether.Map[str, float]), {"a": 1})
    assert isinstance(m, tether.Map) and m["a"] == 1.0
    t = value_of(A(tuple[int, str]), [1, "x"])
    assert isinstance(t, tether.Array) and list(t) == [1, "x"]


def test_unchanged_ffi_containers_pass_through_as_the_same_object():
    arr = tether.Array([1, 2])
    assert value_of(A(tether.Array[int]), arr).same_as(arr)
    converted = value_of(A(tether.Array[float]), arr)
    assert not converted.same_as(arr) and list(converted) == [1.0, 2.0]


def test_nested_errors_carry_the_path():
    with pytest.raises(TypeError, match=r"value for key 'k': element \[1\]: expected int, got str"):
        A(dict[str, list[int]]).check_value({"k": [1, "x"]})
    with pytest.raises(TypeError, match=r"key 1: expected str, got int"):
        A(dict[str, int]).check_value({1: 2})
    with pytest.raises(TypeError, match=r"expected tuple of length 2, got list of length 3"):
        A(tuple[int, int]).check_value([1, 2, 3])


def test_objects_and_subtypes():
    from tether.testing import TestObjectBase, TestObjectDerived

    derived = TestObjectDerived(v_i64=1, v_f64=2.0, v_str="s", v_map={}, v_array=[])
    A(TestObjectBase).check_value(derived)
    assert A(TestObjectDerived).is_subtype_of(TestObjectBase)
    assert not A(TestObjectBase).is_subtype_of(TestObjectDerived)
    assert not A(int).is_subtype_of(TestObjectBase)
    with pytest.raises(TypeError, match=r"expected testing.TestObjectDerived, got int"):
        A(TestObjectDerived).check_value(3)


def test_value_protocols():
    class Wrapped:
        def __init__(self, v):
            self.v = v

        def __tvm_ffi_value__(self):
            return self.v

    assert value_of(A(float), Wrapped(2)) == 2.0

    class Loop:
        def __tvm_ffi_value__(self):
            return Loop()

    with pytest.raises(TypeError, match="cycle"):
        A(int).check_value(Loop())


def test_cany_holds_an_owned_value():
    c = CAny([1, 2])
    assert c.type_index == 71  # an Array
    assert list(_to_py_class_value(c)) == [1, 2]
    assert CAny().type_index == 0
    with pytest.raises(TypeError):
        _to_py_class_value(3)
