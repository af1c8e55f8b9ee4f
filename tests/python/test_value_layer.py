"""The value layer as a user sees it: typed testing globals convert their arguments,
String/Bytes/Shape keep the FFI object they crossed as, framework tensors come back as
framework tensors (also out of containers), dtype/Device/Error details."""
import pickle

import numpy as np
import pytest

import tether
import tether.testing as tt
from tether import Array, Dict, List, Map, core

torch = pytest.importorskip("torch")


# ---- typed globals ------------------------------------------------------------------------

def test_typed_globals_convert_between_container_kinds():
    got = tt.schema_id_arr_int(List([1, 2]))
    assert type(got) is Array and list(got) == [1, 2]
    got = tt.schema_id_list_int(Array([3]))
    assert type(got) is List and list(got) == [3]
    got = tt.schema_id_dict_str_int(Map({"a": 1}))
    assert type(got) is Dict and got["a"] == 1
    # an Array that already fits is handed back as is
    a = Array([1, 2])
    assert tt.schema_id_arr_int(a).same_as(a)


def test_typed_globals_convert_scalars_and_reject_misfits():
    assert tt.schema_id_float(3) == 3.0 and type(tt.schema_id_float(3)) is float
    assert tt.schema_id_int(True) == 1 and tt.schema_id_bool(0) is False
    assert tt.schema_id_dtype("float32") == "float32"
    assert tt.schema_id_opt_int(None) is None and tt.schema_id_variant_int_str("x") == "x"
    with pytest.raises(TypeError, match=r"Mismatched type on argument #0 .*Array<int>"):
        tt.schema_id_arr_int(List(["not", "ints"]))
    with pytest.raises(TypeError):
        tt.schema_id_map_str_int(Dict({"a": "b"}))
    with pytest.raises(TypeError, match="Mismatched number of arguments"):
        tt.schema_id_int(1, 2)


def test_typed_globals_metadata_carries_the_schema_and_attributes():
    meta = tether.get_global_func_metadata("testing.schema_id_int")
    assert meta["bool_attr"] is True and meta["int_attr"] == 1 and meta["str_attr"] == "hello"
    assert '"params":[{"type":"int"}]' in meta["type_schema"]
    meta = tether.get_global_func_metadata("testing.schema_id_arr_int")
    assert '{"type":"ffi.Array","args":[{"type":"int"}]}' in meta["type_schema"]


def test_schema_all_types_methods():
    s = tt._SchemaAllTypes.make_with(1, 2.5, "x")
    assert (s.v_int, s.v_float, s.v_string, s.v_bool) == (1, 2.5, "x", True)
    assert s.add_int(2) == 3
    assert list(s.append_int([1], 2)) == [1, 2]
    assert s.maybe_concat("a", "b") == "ab" and s.maybe_concat(None, "b") == "b"
    merged = s.merge_map({"a": [1]}, {"a": [2], "b": [3]})
    assert list(merged["a"]) == [1, 2] and list(merged["b"]) == [3]


def test_field_flags_drive_the_constructor():
    obj = tt._TestCxxAutoInit(1, c=3)
    assert (obj.a, obj.b, obj.c, obj.d) == (1, 42, 3, 99)
    assert tt._TestCxxKwOnly(x=1, y=2, z=3).w == 100
    with pytest.raises(TypeError):
        tt._TestCxxNoAutoInit(1, 2)


def test_custom_hooks_compare_on_key_only():
    eq = tether.get_global_func("ffi.RecursiveEq")
    h = tether.get_global_func("ffi.RecursiveHash")
    a, b = tt.TestCustomCompare(1, "a"), tt.TestCustomCompare(1, "b")
    assert eq(a, b) and h(a) == h(b)
    with pytest.raises(ValueError, match="__ffi_hash__"):
        h(tt.TestEqWithoutHash(1, "a"))


# ---- cached objects -----------------------------------------------------------------------

def test_values_pass_back_the_object_they_came_as():
    echo = tether.get_global_func("testing.echo")
    shape = tether.Shape((2, 3))
    assert echo(shape)._tvm_ffi_cached_object.same_as(shape._tvm_ffi_cached_object)
    long_text = echo("y" * 100)
    assert type(long_text) is core.String
    assert echo(long_text)._tvm_ffi_cached_object.same_as(long_text._tvm_ffi_cached_object)
    assert type(pickle.loads(pickle.dumps(long_text))) is str
    data = echo(b"z" * 100)
    assert type(data) is core.Bytes and data == b"z" * 100
    assert data._tvm_ffi_cached_object is not None


# ---- framework tensors --------------------------------------------------------------------

def test_torch_in_torch_out_also_through_containers():
    x = torch.arange(6, dtype=torch.float32)
    assert type(tt.echo(x)) is torch.Tensor
    arr = tt.make_nested_array_with_tensor(x)
    assert type(arr) is Array and type(arr[0]) is Array
    assert type(arr[0][0]) is torch.Tensor and arr[0][0].data_ptr() == x.data_ptr()
    assert type(tt.echo(arr)[1]) is torch.Tensor  # the container keeps its framework
    # without a framework tensor, Tensors stay tether Tensors
    plain = tt.make_array_with_tensor(tether.from_dlpack(np.zeros(3, "float32")))
    assert type(plain[0]) is core.Tensor


# ---- dtype, Device, Error -----------------------------------------------------------------

def test_dtype_kinds_and_literals():
    assert tether.dtype("bool").is_bool and tether.dtype("uint8").is_integer
    assert tether.dtype("float8_e4m3fn").is_float and tether.dtype("handle").is_handle
    assert tether.dtype.from_dlpack_data_type((2, 32, 1)) == tether.float32


def test_device_class_override():
    class MyDevice(tether.Device):
        pass

    old = core._CLASS_DEVICE
    core._set_class_device(MyDevice)
    try:
        assert type(tether.device("cpu")) is MyDevice
    finally:
        core._set_class_device(old)
    assert type(tether.device("cpu")) is tether.Device
    with pytest.raises(TypeError):
        core._set_class_device(int)


def test_error_without_handle_and_extra_context():
    empty = core.Error.__new__(core.Error)
    assert empty.__chandle__() == 0
    assert pickle.loads(pickle.dumps(empty)).__chandle__() == 0
    with pytest.raises(TypeError):
        core.Error()
    assert core.Error("ValueError", "boom", "").extra_context is None


def test_missing_is_one_object():
    assert tether.container.MISSING.same_as(core.MISSING)
    assert Map({"a": 1}).get("b", 5) == 5
