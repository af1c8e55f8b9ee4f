/*
 * test_shape.c -- ffi.Shape (type 69): the ffi.Shape global (error text observed on
 * apache-tvm-ffi 0.1.14), the inline layout, and the public tether_shape_* API.
 */
#include <tether/container.h>

#include "test.h"

static int call(const char* name, const TVMFFIAny* args, int32_t n, TVMFFIAny* out) {
  TVMFFIObjectHandle f = tether_func_get(name);
  if (f == NULL) return -1;
  int rc = tether_func_call(f, args, n, out);
  TVMFFIObjectDecRef(f);
  return rc;
}

static void test_shape_global(void) {
  TVMFFIAny args[3] = {tether_any_int(2), tether_any_int(-3), tether_any_bool(true)};
  TVMFFIAny s = tether_any_none();
  CHECK_OK(call("ffi.Shape", args, 3, &s));
  CHECK_EQ_INT(s.type_index, kTVMFFIShape);
  const TVMFFIShapeCell* cell = (const TVMFFIShapeCell*)((char*)s.v_obj + 24);
  CHECK((const char*)cell->data == (char*)s.v_obj + 40);
  CHECK_EQ_INT(cell->size, 3);
  CHECK_EQ_INT(cell->data[0], 2);
  CHECK_EQ_INT(cell->data[1], -3);
  CHECK_EQ_INT(cell->data[2], 1); /* bool accepted as int, as in the reference */
  CHECK_EQ_INT(tether_shape_size(s.v_obj), 3);
  CHECK(tether_shape_data(s.v_obj) == cell->data);
  tether_any_release(&s);

  CHECK_OK(call("ffi.Shape", NULL, 0, &s));
  CHECK_EQ_INT(tether_shape_size(s.v_obj), 0);
  tether_any_release(&s);

  TVMFFIAny many[20];
  for (int i = 0; i < 20; ++i) many[i] = tether_any_int(i);
  CHECK_OK(call("ffi.Shape", many, 20, &s));
  CHECK_EQ_INT(tether_shape_size(s.v_obj), 20);
  CHECK_EQ_INT(tether_shape_data(s.v_obj)[19], 19);
  tether_any_release(&s);
}

static void test_shape_rejects_non_ints(void) {
  TVMFFIAny r = tether_any_none();
  TVMFFIAny bad[] = {tether_any_float(2.0), tether_any_raw_str("abc"), tether_any_none(),
                     tether_any_device(1, 0)};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); ++i) {
    TVMFFIAny args[2] = {tether_any_int(1), bad[i]};
    CHECK_RAISED(call("ffi.Shape", args, 2, &r), "ValueError",
                 "Expect shape to take list of int arguments");
  }
  TVMFFIAny many[12];
  for (int i = 0; i < 12; ++i) many[i] = tether_any_int(i);
  many[11] = tether_any_float(1.5);
  CHECK_RAISED(call("ffi.Shape", many, 12, &r), "ValueError",
               "Expect shape to take list of int arguments");
  TVMFFIAny arr = tether_any_none();
  CHECK_OK(call("ffi.Array", NULL, 0, &arr));
  CHECK_RAISED(call("ffi.Shape", &arr, 1, &r), "ValueError", "Expect shape");
  CHECK_RAISED((int)tether_shape_size(arr.v_obj), "TypeError", "expected an ffi.Shape");
  CHECK(tether_shape_data(arr.v_obj) == NULL);
  tether_any_release(&arr);
}

static void test_shape_public_api(void) {
  const int64_t dims[4] = {1, 2, 3, INT64_MAX};
  TVMFFIObjectHandle s = NULL;
  CHECK_OK(tether_shape_new(dims, 4, &s));
  CHECK_EQ_INT(tether_shape_size(s), 4);
  CHECK(tether_shape_data(s) != dims);
  CHECK_EQ_INT(tether_shape_data(s)[3], INT64_MAX);
  CHECK_EQ_INT(tether_object_use_count(s), 1);
  TVMFFIObjectDecRef(s);
  CHECK_OK(tether_shape_new(NULL, 0, &s));
  CHECK_EQ_INT(tether_shape_size(s), 0);
  TVMFFIObjectDecRef(s);
  CHECK_RAISED(tether_shape_new(NULL, 2, &s), "ValueError", "tether_shape_new");
  CHECK_RAISED(tether_shape_new(dims, -1, &s), "ValueError", "cannot hold -1 dimensions");
  CHECK_RAISED((int)tether_shape_size(NULL), "TypeError", "NULL");
}

TEST_MAIN(TEST_CASE(test_shape_global), TEST_CASE(test_shape_rejects_non_ints),
          TEST_CASE(test_shape_public_api))
