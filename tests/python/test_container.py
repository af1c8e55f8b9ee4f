"""Array, List, Map, Dict: construction, every protocol method, slicing, equality,
nesting, conversion of Python containers, and the errors (IndexError/KeyError/TypeError)."""
import collections.abc as abc

import pytest

import tether
import tether.testing
from tether import Array, Dict, List, Map

echo = tether.get_global_func("testing.echo")


# ---- Array ------------------------------------------------------------------------------

def test_array_construct_and_type():
    a = Array([1, 2, 3])
    assert type(a) is Array
    assert isinstance(a, tether.Object)
    assert isinstance(a, abc.Sequence)
    assert not isinstance(a, abc.MutableSequence)
    assert len(Array()) == 0 and len(Array([])) == 0
    assert list(Array(range(4))) == [0, 1, 2, 3]
    assert list(Array(x for x in "ab")) == ["a", "b"]


def test_array_from_python_values():
    a = tether.convert([1, 2.5, "s", None, True, b"b"])
    assert type(a) is Array
    assert list(a) == [1, 2.5, "s", None, True, b"b"]
    assert type(a[0]) is int and type(a[1]) is float and a[4] is True


def test_array_returned_from_c_is_array():
    a = echo([1, 2])
    assert type(a) is Array
    assert type(echo((1, 2))) is Array


def test_array_getitem_and_negative_indices():
    a = Array([10, 20, 30])
    assert a[0] == 10 and a[2] == 30
    assert a[-1] == 30 and a[-3] == 10


@pytest.mark.parametrize("idx", [3, -4, 100, -100])
def test_array_index_errors(idx):
    with pytest.raises(IndexError):
        Array([1, 2, 3])[idx]


def test_array_index_type_errors():
    a = Array([1])
    with pytest.raises(TypeError, match="indices must be integers or slices"):
        a["0"]
    with pytest.raises(TypeError):
        a[1.0]


def test_array_slicing():
    a = Array(range(6))
    assert a[1:4] == [1, 2, 3]
    assert a[::2] == [0, 2, 4]
    assert a[::-1] == [5, 4, 3, 2, 1, 0]
    assert a[-2:] == [4, 5]
    assert a[10:] == []
    assert a[:] == list(range(6))


def test_array_iteration_contains_index_count_reversed():
    a = Array([1, 2, 2, "x"])
    assert list(iter(a)) == [1, 2, 2, "x"]
    assert 2 in a and "x" in a and 3 not in a and "y" not in a
    assert a.index(2) == 1 and a.count(2) == 2
    with pytest.raises(ValueError):
        a.index(99)
    assert list(reversed(a)) == ["x", 2, 2, 1]


def test_array_equality():
    a = Array([1, 2, 3])
    assert a == Array([1, 2, 3])
    assert a == [1, 2, 3] and a == (1, 2, 3)
    assert [1, 2, 3] == a
    assert a != [1, 2] and a != [1, 2, 4] and a != Array([3, 2, 1])
    assert not (a != Array([1, 2, 3]))
    assert a != "123" and a != 5 and a != {1: 2}
    assert Array() == []


def test_array_hash():
    assert hash(Array([1, "a"])) == hash(Array([1, "a"]))
    assert len({Array([1, 2]), Array([1, 2]), Array([2])}) == 2


def test_array_is_immutable():
    a = Array([1])
    with pytest.raises(TypeError):
        a[0] = 2
    with pytest.raises(TypeError):
        del a[0]
    assert not hasattr(a, "append")


def test_array_concat():
    assert Array([1]) + [2, 3] == [1, 2, 3]
    assert type(Array([1]) + [2]) is Array
    assert [0] + Array([1]) == [0, 1]


def test_array_repr():
    r = repr(Array([1, 2]))
    assert "1" in r and "2" in r


def test_array_bad_constructor_argument():
    with pytest.raises(TypeError):
        Array(5)


# ---- List -------------------------------------------------------------------------------

def test_list_construct_and_type():
    l = List([1, 2])
    assert type(l) is List
    assert isinstance(l, abc.MutableSequence)
    assert len(List()) == 0
    assert type(echo(l)) is List
    assert echo(l).same_as(l)


def test_list_append_insert_extend():
    l = List()
    l.append(1)
    l.append("two")
    l.insert(0, 0)
    l.insert(100, 9)       # clamped to the end, like list.insert
    l.insert(-1, 8)        # before the last
    l.insert(-100, -1)     # clamped to the front
    assert l == [-1, 0, 1, "two", 8, 9]
    l.extend([10, 11])
    l += (12,)
    assert l[-3:] == [10, 11, 12]
    l2 = List([1, 2])
    l2.extend(l2)
    assert l2 == [1, 2, 1, 2]


def test_list_setitem_getitem():
    l = List([0, 1, 2])
    l[0] = "a"
    l[-1] = 2.5
    assert l == ["a", 1, 2.5]
    with pytest.raises(IndexError):
        l[3] = 0
    with pytest.raises(IndexError):
        l[-4]
    with pytest.raises(TypeError):
        l["x"] = 1


def test_list_slice_assignment():
    l = List(range(6))
    l[1:3] = ["a", "b", "c"]
    assert l == [0, "a", "b", "c", 3, 4, 5]
    l[:] = [1, 2]
    assert l == [1, 2]
    l[2:] = [3, 4]
    assert l == [1, 2, 3, 4]
    l[1:1] = [9]
    assert l == [1, 9, 2, 3, 4]
    l[3:1] = [7]           # empty slice: inserts at 3
    assert l == [1, 9, 2, 7, 3, 4]
    l[::2] = ["x", "y", "z"]
    assert l == ["x", 9, "y", 7, "z", 4]
    with pytest.raises(ValueError, match="extended slice"):
        l[::2] = [1]
    l[0:2] = l             # aliasing is safe
    assert len(l) == 10


def test_list_delete():
    l = List(range(8))
    del l[0]
    del l[-1]
    assert l == [1, 2, 3, 4, 5, 6]
    del l[1:3]
    assert l == [1, 4, 5, 6]
    del l[::2]
    assert l == [4, 6]
    del l[5:]
    assert l == [4, 6]
    with pytest.raises(IndexError):
        del l[2]


def test_list_pop_remove_clear_reverse():
    l = List([1, 2, 3, 4])
    assert l.pop() == 4
    assert l.pop(0) == 1
    assert l == [2, 3]
    l.remove(3)
    assert l == [2]
    with pytest.raises(ValueError):
        l.remove(99)
    l.extend([5, 6])
    l.reverse()
    assert l == [6, 5, 2]
    l.clear()
    assert len(l) == 0 and l == []
    with pytest.raises(IndexError):
        l.pop()
    with pytest.raises(IndexError):
        List([1]).pop(5)


def test_list_contains_index_count_iter():
    l = List(["a", "b", "a"])
    assert "a" in l and "z" not in l
    assert l.index("b") == 1 and l.count("a") == 2
    assert list(l) == ["a", "b", "a"]
    assert l[1:] == ["b", "a"]
    assert list(reversed(l)) == ["a", "b", "a"]


def test_list_is_shared_not_copied():
    l = List([1])
    holder = Array([l])
    l.append(2)
    assert holder[0] == [1, 2]
    assert holder[0].same_as(l)


def test_list_equality_and_hash():
    assert List([1, 2]) == [1, 2] and List([1, 2]) == Array([1, 2])
    assert List([1, 2]) != [2, 1]
    assert not (List([1]) != List([1]))
    # hashing is structural, as equality is (tvm-ffi hashes the mutable containers too)
    assert hash(List([1, "a"])) == hash(List([1, "a"]))
    assert hash(List([1])) != hash(List([2]))


def test_list_concat():
    r = List([1]) + [2]
    assert type(r) is List and r == [1, 2]


# ---- Map ---------------------------------------------------------------------------------

def test_map_construct_and_type():
    m = Map({"a": 1, "b": 2})
    assert type(m) is Map
    assert isinstance(m, abc.Mapping) and not isinstance(m, abc.MutableMapping)
    assert len(Map()) == 0 and len(Map({})) == 0
    assert dict(Map([("x", 1), ("y", 2)])) == {"x": 1, "y": 2}
    assert dict(Map(Map({"k": "v"}))) == {"k": "v"}
    with pytest.raises(AttributeError):
        Map(1)  # neither a mapping nor pairs
    assert type(tether.convert({"a": 1})) is Map
    assert type(echo({"a": 1})) is Map


def test_map_lookup_and_errors():
    m = Map({"a": 1, 2: "two", None: 3})
    assert m["a"] == 1 and m[2] == "two" and m[None] == 3
    with pytest.raises(KeyError) as info:
        m["zz"]
    assert info.value.args == ("zz",)
    assert m.get("a") == 1 and m.get("zz") is None and m.get("zz", 7) == 7
    assert "a" in m and "zz" not in m and 2 in m


def test_map_iteration_views():
    d = {"a": 1, "b": 2, "c": 3}
    m = Map(d)
    assert sorted(m) == ["a", "b", "c"]
    assert sorted(m.keys()) == ["a", "b", "c"]
    assert sorted(m.values()) == [1, 2, 3]
    assert sorted(m.items()) == sorted(d.items())
    assert ("a", 1) in m.items() and ("a", 2) not in m.items()
    assert len(m.keys()) == 3 and len(m.items()) == 3 and len(m.values()) == 3
    assert dict(m) == d
    assert list(Map()) == [] and list(Map().items()) == []


def test_map_equality_and_hash():
    m = Map({"a": 1, "b": [1, 2]})
    # a Map compares (structurally) with Maps only: a dict gets NotImplemented, so == is False
    assert m.__eq__({"a": 1, "b": [1, 2]}) is NotImplemented
    assert m != {"a": 1, "b": [1, 2]} and {"a": 1, "b": [1, 2]} != m
    assert m == Map({"b": [1, 2], "a": 1})
    assert m != Map({"a": 1}) and m != Map({"a": 2, "b": [1, 2]})
    assert not (m != Map({"a": 1, "b": [1, 2]}))
    assert m != [1] and m != "a"
    assert hash(Map({"a": 1})) == hash(Map({"a": 1}))


def test_map_is_immutable():
    m = Map({"a": 1})
    with pytest.raises(TypeError):
        m["b"] = 2
    with pytest.raises(TypeError):
        del m["a"]


def test_map_bad_constructor_argument():
    with pytest.raises((TypeError, ValueError)):
        Map([1, 2, 3])


# ---- Dict --------------------------------------------------------------------------------

def test_dict_protocol():
    d = Dict({"a": 1})
    assert type(d) is Dict and isinstance(d, abc.MutableMapping)
    d["b"] = 2
    d["a"] = 10
    assert dict(d) == {"a": 10, "b": 2} and len(d) == 2
    del d["a"]
    assert dict(d) == {"b": 2}
    with pytest.raises(KeyError) as info:
        del d["a"]
    assert info.value.args == ("a",)
    with pytest.raises(KeyError):
        d["a"]
    assert d.pop("b") == 2 and len(d) == 0
    assert d.pop("b", None) is None
    assert d.setdefault("x", 5) == 5 and d.setdefault("x", 6) == 5
    d.update({"y": 1}, z=2)
    assert dict(d) == {"x": 5, "y": 1, "z": 2}
    k, v = d.popitem()
    assert k in ("x", "y", "z") and len(d) == 2
    d.clear()
    assert len(d) == 0 and list(d) == []
    with pytest.raises(KeyError):
        d.popitem()


def test_dict_shared_mutation_and_iteration_snapshot():
    d = Dict({i: i * i for i in range(10)})
    assert echo(d).same_as(d)
    for k in d:             # deleting while iterating is safe (keys are a snapshot)
        if k % 2:
            del d[k]
    assert sorted(d.keys()) == [0, 2, 4, 6, 8]
    assert sorted(d.values()) == [0, 4, 16, 36, 64]
    assert sorted(d.items()) == [(0, 0), (2, 4), (4, 16), (6, 36), (8, 64)]


def test_dict_equality_and_hash():
    assert Dict({"a": 1}) == Dict({"a": 1}) and Dict({"a": 1}) != Dict({"a": 2})
    # a Dict compares with Dicts only: not with a dict, nor with a Map
    assert Dict({"a": 1}).__eq__({"a": 1}) is NotImplemented
    assert Dict({"a": 1}) != Map({"a": 1}) and Map({"a": 1}) != Dict({"a": 1})
    assert hash(Dict({"a": 1})) == hash(Dict({"a": 1}))


def test_dict_get_contains():
    d = Dict([("k", "v")])
    assert d.get("k") == "v" and d.get("q") is None and d.get("q", 0) == 0
    assert "k" in d and "q" not in d


# ---- nesting and round trips -------------------------------------------------------------

def test_nested_python_values_convert():
    value = {"list": [1, [2, 3]], "map": {"x": (4, 5)}, "s": "str"}
    m = echo(value)
    assert type(m) is Map
    assert type(m["list"]) is Array and type(m["list"][1]) is Array
    assert type(m["map"]) is Map and type(m["map"]["x"]) is Array
    assert m == tether.convert(value)  # structurally equal to the converted value
    assert m != value  # a Map never equals a plain dict (NotImplemented on both sides)


def test_nested_containers_compare_deeply():
    a = Array([Map({"a": List([1, 2])}), Dict({"b": Array([])})])
    assert a == [Map({"a": List([1, 2])}), Dict({"b": Array([])})]
    assert a != [Map({"a": List([1, 3])}), Dict({"b": Array([])})]
    # the kinds count: a List is not an Array, a Dict is not a Map
    assert a != [{"a": [1, 2]}, {"b": []}]


def test_containers_hold_objects_by_identity():
    pair = tether.testing.TestIntPair(1, 2)
    a = Array([pair, pair])
    assert a[0].same_as(pair) and a[1].same_as(a[0])
    assert pair in a
    m = Map({"p": pair})
    assert m["p"].same_as(pair)


def test_container_builders_from_testing():
    make_mixed = tether.get_global_func("testing.make_array_with_mixed")
    a = make_mixed(Array([1]), 7)
    assert type(a) is Array and len(a) == 3 and a[1] == 7 and a[2] == "hello"
