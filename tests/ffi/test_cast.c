/*
 * test_cast.c -- the `__ffi_convert__` type attribute of the core object types
 * (src/ffi/cast.c): objects of the type pass as themselves, an ffi.Shape is made from an
 * Array or List of ints, anything else raises TypeError naming both types.
 */
#include <tether/container.h>

#include "test.h"

/* The __ffi_convert__ function of `type_index` (borrowed from the attribute column). */
static TVMFFIObjectHandle convert_fn(int32_t type_index) {
  TVMFFIByteArray name = {"__ffi_convert__", sizeof("__ffi_convert__") - 1};
  const TVMFFITypeAttrColumn* col = TVMFFIGetTypeAttrColumn(&name);
  if (col == NULL || type_index < col->begin_index ||
      type_index - col->begin_index >= col->size) {
    return NULL;
  }
  const TVMFFIAny* v = &col->data[type_index - col->begin_index];
  return v->type_index == kTVMFFIFunction ? v->v_obj : NULL;
}

static int convert(int32_t type_index, const TVMFFIAny* value, TVMFFIAny* out) {
  *out = tether_any_none();
  return TVMFFIFunctionCall(convert_fn(type_index), (TVMFFIAny*)value, 1, out);
}

static void test_core_types_have_the_attribute(void) {
  const int32_t types[] = {kTVMFFIObject, kTVMFFIFunction, kTVMFFIError, kTVMFFIStr,
                           kTVMFFIBytes,  kTVMFFIArray,    kTVMFFIList,  kTVMFFIMap,
                           kTVMFFIDict,   kTVMFFIShape,    kTVMFFITensor};
  for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); ++i) {
    CHECK(convert_fn(types[i]) != NULL);
  }
}

static void test_objects_of_the_type_pass_as_themselves(void) {
  TVMFFIObjectHandle arr = NULL;
  TVMFFIAny items[2] = {tether_any_int(1), tether_any_int(2)};
  CHECK_OK(tether_array_new(items, 2, &arr));
  TVMFFIAny v = tether_any_object(arr), out;
  CHECK_OK(convert(kTVMFFIArray, &v, &out));
  CHECK(out.v_obj == arr);
  CHECK_EQ_INT(tether_object_use_count(arr), 2);
  tether_any_release(&out);
  CHECK_OK(convert(kTVMFFIObject, &v, &out)); /* every object is an ffi.Object */
  CHECK(out.v_obj == arr);
  tether_any_release(&out);
  CHECK_RAISED(convert(kTVMFFIMap, &v, &out), "TypeError",
               "Cannot cast from `ffi.Array` to `ffi.Map`");
  TVMFFIAny i = tether_any_int(3);
  CHECK_RAISED(convert(kTVMFFIObject, &i, &out), "TypeError", "Cannot cast from `int` to `ffi.Object`");
  CHECK_RAISED(TVMFFIFunctionCall(convert_fn(kTVMFFIArray), NULL, 0, &out), "TypeError",
               "expected 1 argument");
  TVMFFIObjectDecRef(arr);
}

static void test_shape_from_int_sequences(void) {
  TVMFFIAny items[10];
  for (int k = 0; k < 10; ++k) items[k] = tether_any_int(k + 1);
  TVMFFIObjectHandle arr = NULL, list = NULL;
  CHECK_OK(tether_array_new(items, 3, &arr));
  CHECK_OK(tether_list_new(items, 10, &list));
  TVMFFIAny v = tether_any_object(arr), out;
  CHECK_OK(convert(kTVMFFIShape, &v, &out));
  CHECK_EQ_INT(out.type_index, kTVMFFIShape);
  CHECK_EQ_INT(tether_shape_size(out.v_obj), 3);
  CHECK_EQ_INT(tether_shape_data(out.v_obj)[2], 3);
  tether_any_release(&out);
  v = tether_any_object(list);
  CHECK_OK(convert(kTVMFFIShape, &v, &out));
  CHECK_EQ_INT(tether_shape_size(out.v_obj), 10);
  CHECK_EQ_INT(tether_shape_data(out.v_obj)[9], 10);
  tether_any_release(&out);
  TVMFFIObjectDecRef(arr);
  TVMFFIObjectDecRef(list);

  TVMFFIAny mixed[2] = {tether_any_int(1), tether_any_float(2.5)};
  CHECK_OK(tether_array_new(mixed, 2, &arr));
  v = tether_any_object(arr);
  CHECK_RAISED(convert(kTVMFFIShape, &v, &out), "TypeError",
               "Cannot cast from `ffi.Array` to `ffi.Shape`");
  TVMFFIObjectDecRef(arr);
}

TEST_MAIN(TEST_CASE(test_core_types_have_the_attribute),
          TEST_CASE(test_objects_of_the_type_pass_as_themselves),
          TEST_CASE(test_shape_from_int_sequences))
