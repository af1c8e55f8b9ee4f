"""Enum types whose variants are singletons shared between C and Python (libtether's
ffi.Enum / ffi.IntEnum / ffi.StrEnum, the Python classes of tether.dataclasses), and the
structural-traversal fixtures of the testing library."""
import itertools
import json
from typing import ClassVar

import pytest

import tether
from tether import core
from tether.dataclasses import Enum, EnumState, IntEnum, StrEnum, auto, py_class
from tether.serialization import from_json_graph_str, to_json_graph_str
from tether.testing import _TestCxxEnumHolder, _TestCxxIntEnum, _TestCxxStrEnum

_keys = itertools.count()


def key(name):
    return f"test_enum.{name}.{next(_keys)}"


def test_base_types_are_libtethers():
    # registered by libtether itself, with the reflected fields C code reads
    for type_key in ("ffi.Enum", "ffi.IntEnum", "ffi.StrEnum", "ffi.EnumState"):
        assert core._object_type_key_to_index(type_key) is not None
    assert [f.name for f in Enum.__tvm_ffi_type_info__.fields] == ["_int_index", "_str_index"]
    assert [f.name for f in IntEnum.__tvm_ffi_type_info__.fields] == ["value"]
    assert IntEnum.__tvm_ffi_type_info__.parent_type_info.type_key == "ffi.Enum"
    assert StrEnum.__tvm_ffi_type_info__.parent_type_info.type_key == "ffi.Enum"


def test_c_registered_variants_are_the_python_ones():
    class Variant(Enum, type_key="testing.TestEnumVariant"):
        Alpha: ClassVar["Variant"]
        Beta: ClassVar["Variant"]

    get = tether.get_global_func("testing.enum_variant_get")
    assert get("Alpha").same_as(Variant.Alpha)
    assert get("Beta").same_as(Variant.Beta)
    assert isinstance(get("Beta"), Variant)
    assert (Variant.Beta._int_index, Variant.Beta._str_index) == (1, "Beta")
    assert list(Variant) == [Variant.Alpha, Variant.Beta]
    # attributes C attached, read through the shared state
    assert Variant.attr_dict["code"][Variant.Alpha] == 10
    assert Variant.def_attr("code")[Variant.Beta] == 20
    state = core._lookup_type_attr(Variant.__tvm_ffi_type_info__.type_index, "__ffi_enum__")
    assert isinstance(state, EnumState)
    with pytest.raises(ValueError, match="has no instance with index Gamma"):
        get("Gamma")
    with pytest.raises(RuntimeError, match="string index"):
        class Typo(Enum, type_key="testing.TestEnumVariant"):
            Gamma: ClassVar["Typo"]


def test_printer_shows_key_and_name():
    type_key = key("Status")

    class Status(Enum, type_key=type_key):
        READY = auto()

    assert repr(Status.READY) == f"{type_key}.READY"
    assert tether.get_global_func("ffi.ReprPrint")([Status.READY]) == f"({type_key}.READY,)"
    assert repr(tether.get_global_func("testing.enum_variant_get")("Beta")) == \
        "testing.TestEnumVariant.Beta"


def _json_data(value):
    graph = json.loads(to_json_graph_str(value))
    return graph["nodes"][graph["root_index"]]["data"]


def test_json_graphs_hold_the_index_and_read_back_the_singleton():
    class Status(Enum, type_key=key("Status")):
        READY = auto()
        DONE = auto()

    class Level(IntEnum, type_key=key("Level")):
        LOW = -3
        HIGH = 1 << 40

    class Op(StrEnum, type_key=key("Op")):
        ADD = "+"

    for variant, data in ((Status.DONE, "DONE"), (Level.HIGH, 1 << 40), (Op.ADD, "+"),
                          (_TestCxxIntEnum.high, 20), (_TestCxxStrEnum.mul, "*")):
        assert _json_data(variant) == data
        assert from_json_graph_str(to_json_graph_str(variant)).same_as(variant)
    back = from_json_graph_str(to_json_graph_str([Level.LOW, Status.READY, Level.LOW]))
    assert back[0].same_as(Level.LOW) and back[2].same_as(Level.LOW)
    assert back[1].same_as(Status.READY)
    text = to_json_graph_str(Level.LOW).replace("-3", "5")
    with pytest.raises(ValueError, match="has no instance with index 5"):
        from_json_graph_str(text)


def test_enum_fields_of_objects_round_trip():
    class Level(IntEnum, type_key=key("Level")):
        LOW = 1
        HIGH = 2

    @py_class(key("Task"))
    class Task(tether.Object):
        level: Level

    task = Task(level=2)
    assert task.level.same_as(Level.HIGH)
    back = from_json_graph_str(to_json_graph_str(task))
    assert back.level.same_as(Level.HIGH)
    copied = tether.get_global_func("ffi.DeepCopy")(task)
    assert not copied.same_as(task)
    assert copied.level.same_as(Level.HIGH)  # variants are shared, never copied


def test_c_holder_converts_payloads_on_construction_and_assignment():
    holder = _TestCxxEnumHolder(priority=10, opcode="+")
    assert holder.priority.same_as(_TestCxxIntEnum.low)
    assert holder.opcode.same_as(_TestCxxStrEnum.add)
    holder.priority = 20
    holder.opcode = "*"
    assert holder.priority.same_as(_TestCxxIntEnum.high)
    assert holder.opcode.same_as(_TestCxxStrEnum.mul)
    with pytest.raises(TypeError, match="expected testing.TestCxxIntEnum, got int"):
        holder.priority = 30
    with pytest.raises(TypeError, match="expected testing.TestCxxStrEnum, got str"):
        holder.opcode = "/"
    assert holder.priority.same_as(_TestCxxIntEnum.high)  # unchanged by the failures
    back = from_json_graph_str(to_json_graph_str(holder))
    assert back.priority.same_as(_TestCxxIntEnum.high)
    assert back.opcode.same_as(_TestCxxStrEnum.mul)


def _walk(root, order):
    seen = []
    tether.structural_walk(
        root, with_def_region_kind=lambda v, k: seen.append(
            (v if isinstance(v, int) else type(v).__tvm_ffi_type_info__.type_key, int(k))),
        order=order)
    return seen


def test_visit_region_fixtures():
    make = tether.get_global_func("testing.make_visit_region_graph")
    plain, hooked = make(False), make(True)
    assert (plain.simple, plain.pattern, plain.ordinary) == (1, 2, 3)
    assert hooked.child.same_as(hooked.child) and hooked.child.ordinary == 3
    regions, hook = "testing.TestVisitRegions", "testing.TestVisitHook"
    # fields enter the region their flags name
    assert _walk(plain, "post") == [(1, 2), (2, 1), (3, 0), (regions, 0)]
    # the hook visits its child inside a Simple region (a pattern field stays a pattern),
    # then the int 4 outside it
    assert _walk(hooked, "pre") == [(hook, 0), (regions, 2), (1, 2), (2, 1), (3, 2), (4, 0)]
    assert _walk(hooked, "post") == [(1, 2), (2, 1), (3, 2), (regions, 2), (4, 0), (hook, 0)]
