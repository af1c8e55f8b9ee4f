/*
 * test_array.c -- ffi.Array (type 71): the globals ffi.Array/ArrayGetItem/ArraySize/
 * ArrayContains with every error the reference gives, the public tether_array_* API,
 * the inline layout, copy-on-write, and ffi.ContainerFindFirstNonCPUDevice.
 * Error texts were observed on apache-tvm-ffi 0.1.14.
 */
#include <stdlib.h>

#include <tether/container.h>

#include "test.h"

/* Calls global `name`; *out must be None or hold a value to be dropped by the caller. */
static int call(const char* name, const TVMFFIAny* args, int32_t n, TVMFFIAny* out) {
  TVMFFIObjectHandle f = tether_func_get(name);
  if (f == NULL) return -1;
  int rc = tether_func_call(f, args, n, out);
  TVMFFIObjectDecRef(f);
  return rc;
}

static bool any_is_str(const TVMFFIAny* v, const char* s) {
  TVMFFIByteArray b;
  return tether_any_get_str(v, &b) && b.size == strlen(s) && memcmp(b.data, s, b.size) == 0;
}

/* [1, 2] built through ffi.Array; new reference. */
static TVMFFIObjectHandle make_12(void) {
  TVMFFIAny args[2] = {tether_any_int(1), tether_any_int(2)};
  TVMFFIAny r = tether_any_none();
  CHECK_OK(call("ffi.Array", args, 2, &r));
  CHECK_EQ_INT(r.type_index, kTVMFFIArray);
  return r.v_obj;
}

static void test_array_global_converts_views_to_owned(void) {
  TVMFFIAny args[4] = {tether_any_int(7), tether_any_raw_str("abc"),
                       tether_any_raw_str("a longer string"), tether_any_float(2.5)};
  TVMFFIAny arr = tether_any_none();
  CHECK_OK(call("ffi.Array", args, 4, &arr));
  CHECK_EQ_INT(arr.type_index, kTVMFFIArray);
  CHECK_EQ_INT(tether_array_size(arr.v_obj), 4);
  const TVMFFIAny* items = tether_array_at(arr.v_obj, 0);
  CHECK_EQ_INT(items[0].v_int64, 7);
  CHECK_EQ_INT(items[1].type_index, kTVMFFISmallStr);
  CHECK_EQ_INT(items[2].type_index, kTVMFFIStr);
  CHECK(any_is_str(&items[1], "abc"));
  CHECK(any_is_str(&items[2], "a longer string"));
  CHECK_EQ_INT(items[3].type_index, kTVMFFIFloat);

  TVMFFIAny get[2] = {arr, tether_any_int(2)};
  TVMFFIAny r = tether_any_none();
  CHECK_OK(call("ffi.ArrayGetItem", get, 2, &r));
  CHECK(any_is_str(&r, "a longer string"));
  CHECK_EQ_INT(tether_object_use_count(r.v_obj), 2);
  tether_any_release(&r);

  TVMFFIAny empty = tether_any_none();
  CHECK_OK(call("ffi.Array", NULL, 0, &empty));
  CHECK_EQ_INT(tether_array_size(empty.v_obj), 0);
  tether_any_release(&empty);
  tether_any_release(&arr);
}

static void test_array_layout_is_inline(void) {
  TVMFFIObjectHandle arr = make_12();
  const TVMFFISeqCell* cell = (const TVMFFISeqCell*)((char*)arr + 24);
  CHECK(cell->data == (char*)arr + 56);
  CHECK(cell->data_deleter == NULL);
  CHECK_EQ_INT(cell->size, 2);
  CHECK(cell->capacity >= 2);
  CHECK_EQ_INT(((const TVMFFIAny*)cell->data)[1].v_int64, 2);
  TVMFFIObjectDecRef(arr);
}

static void test_array_get_item_and_size_errors(void) {
  TVMFFIObjectHandle arr = make_12();
  TVMFFIAny r = tether_any_none();
  TVMFFIAny a[2] = {tether_any_object(arr), tether_any_int(1)};
  CHECK_OK(call("ffi.ArrayGetItem", a, 2, &r));
  CHECK_EQ_INT(r.v_int64, 2);
  a[1] = tether_any_bool(true); /* a bool index is an int, as in the reference */
  CHECK_OK(call("ffi.ArrayGetItem", a, 2, &r));
  CHECK_EQ_INT(r.v_int64, 2);

  a[1] = tether_any_int(5);
  CHECK_RAISED(call("ffi.ArrayGetItem", a, 2, &r), "IndexError", "Index 5 out of bounds 2");
  a[1] = tether_any_int(-1);
  CHECK_RAISED(call("ffi.ArrayGetItem", a, 2, &r), "IndexError", "Index -1 out of bounds 2");
  a[1] = tether_any_raw_str("x");
  CHECK_RAISED(call("ffi.ArrayGetItem", a, 2, &r), "TypeError",
               "Mismatched type on argument #1 when calling: `ffi.ArrayGetItem(0: ffi.Array, "
               "1: int) -> Any`. Expected `int` but got `const char*`");
  a[1] = tether_any_float(1.0);
  CHECK_RAISED(call("ffi.ArrayGetItem", a, 2, &r), "TypeError",
               "Expected `int` but got `float`");
  CHECK_RAISED(call("ffi.ArrayGetItem", a, 1, &r), "TypeError",
               "Mismatched number of arguments when calling: `ffi.ArrayGetItem(0: ffi.Array, "
               "1: int) -> Any`. Expected 2 but got 1 arguments");
  /* Both arguments wrong: the reference reports the last one. */
  TVMFFIAny bad[2] = {tether_any_int(1), tether_any_raw_str("x")};
  CHECK_RAISED(call("ffi.ArrayGetItem", bad, 2, &r), "TypeError", "argument #1");
  bad[1] = tether_any_int(0);
  CHECK_RAISED(call("ffi.ArrayGetItem", bad, 2, &r), "TypeError",
               "Mismatched type on argument #0 when calling: `ffi.ArrayGetItem(0: ffi.Array, "
               "1: int) -> Any`. Expected `ffi.Array` but got `int`");

  TVMFFIAny s = tether_any_object(arr);
  CHECK_OK(call("ffi.ArraySize", &s, 1, &r));
  CHECK_EQ_INT(r.type_index, kTVMFFIInt);
  CHECK_EQ_INT(r.v_int64, 2);
  TVMFFIAny three = tether_any_int(3);
  CHECK_RAISED(call("ffi.ArraySize", &three, 1, &r), "TypeError",
               "Mismatched type on argument #0 when calling: `ffi.ArraySize(0: ffi.Array) -> "
               "int`. Expected `ffi.Array` but got `int`");
  CHECK_RAISED(call("ffi.ArraySize", NULL, 0, &r), "TypeError", "Expected 1 but got 0 arguments");

  /* A List is not an Array. */
  TVMFFIAny list = tether_any_none();
  CHECK_OK(call("ffi.List", NULL, 0, &list));
  CHECK_RAISED(call("ffi.ArraySize", &list, 1, &r), "TypeError",
               "Expected `ffi.Array` but got `ffi.List`");
  tether_any_release(&list);
  TVMFFIObjectDecRef(arr);
}

static void test_array_contains_uses_any_equal(void) {
  TVMFFIAny items[3] = {tether_any_int(1), tether_any_raw_str("abc"),
                        tether_any_raw_str("long string key")};
  TVMFFIObjectHandle arr = NULL;
  CHECK_OK(tether_array_new(items, 3, &arr));
  struct {
    TVMFFIAny probe;
    bool expected;
  } cases[] = {
      {tether_any_int(1), true},        {tether_any_bool(true), false},
      {tether_any_float(1.0), false},   {tether_any_int(2), false},
      {tether_any_raw_str("abc"), true}, {tether_any_raw_str("long string key"), true},
      {tether_any_raw_str("long string kez"), false}, {tether_any_none(), false},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    TVMFFIAny a[2] = {tether_any_object(arr), cases[i].probe};
    TVMFFIAny r = tether_any_none();
    CHECK_OK(call("ffi.ArrayContains", a, 2, &r));
    CHECK_EQ_INT(r.type_index, kTVMFFIBool);
    if (r.v_int64 != (cases[i].expected ? 1 : 0)) fprintf(stderr, "contains case %zu\n", i);
    CHECK_EQ_INT(r.v_int64, cases[i].expected ? 1 : 0);
  }
  /* An owned heap string equal to a stored one is found too. */
  TVMFFIAny owned;
  CHECK_OK(tether_any_str("long string key", 15, &owned));
  TVMFFIAny a[2] = {tether_any_object(arr), owned};
  TVMFFIAny r = tether_any_none();
  CHECK_OK(call("ffi.ArrayContains", a, 2, &r));
  CHECK_EQ_INT(r.v_int64, 1);
  tether_any_release(&owned);
  CHECK_RAISED(call("ffi.ArrayContains", a, 1, &r), "TypeError", "Expected 2 but got 1");
  TVMFFIObjectDecRef(arr);
}

static void test_array_copy_on_write(void) {
  TVMFFIObjectHandle arr = make_12();
  TVMFFIObjectHandle shared = arr;
  TVMFFIObjectIncRef(shared);

  /* A write through one holder gives it a new Array; the other still sees [1, 2]. */
  TVMFFIAny v = tether_any_int(10);
  CHECK_OK(tether_array_set(&arr, 0, &v));
  CHECK(arr != shared);
  CHECK_EQ_INT(tether_array_at(arr, 0)->v_int64, 10);
  CHECK_EQ_INT(tether_array_at(shared, 0)->v_int64, 1);
  CHECK_EQ_INT(tether_object_use_count(shared), 1);

  v = tether_any_int(3);
  CHECK_OK(tether_array_append(&shared, &v));
  CHECK_EQ_INT(tether_array_size(shared), 3);
  CHECK_EQ_INT(tether_array_size(arr), 2);

  /* A sole owner with spare capacity is written in place. */
  TVMFFIObjectHandle before = shared;
  v = tether_any_int(4);
  CHECK_OK(tether_array_append(&shared, &v));
  CHECK(shared == before);
  CHECK_EQ_INT(tether_array_size(shared), 4);
  for (int64_t i = 0; i < 4; ++i) CHECK_EQ_INT(tether_array_at(shared, i)->v_int64, i + 1);

  /* Growth of a sole owner moves the elements (no extra references left behind). */
  TVMFFIAny s;
  CHECK_OK(tether_any_str("heap string value", 17, &s));
  for (int i = 0; i < 20; ++i) CHECK_OK(tether_array_append(&shared, &s));
  CHECK_EQ_INT(tether_object_use_count(s.v_obj), 21);
  tether_any_release(&s);

  /* An element of the array itself as the value: safe across a reallocation. */
  const TVMFFIAny* last = tether_array_at(shared, tether_array_size(shared) - 1);
  CHECK_OK(tether_array_append(&shared, last));
  CHECK_EQ_INT(tether_array_size(shared), 25);

  TVMFFIAny r = tether_any_none();
  CHECK_RAISED(tether_array_set(&shared, 25, &v), "IndexError", "Index 25 out of bounds 25");
  CHECK_RAISED(tether_array_get(shared, -1, &r), "IndexError", "Index -1 out of bounds 25");
  CHECK_OK(tether_array_get(shared, 24, &r));
  CHECK(any_is_str(&r, "heap string value"));
  tether_any_release(&r);
  TVMFFIObjectDecRef(shared);
  TVMFFIObjectDecRef(arr);
}

static void test_array_public_api_rejects_other_types(void) {
  TVMFFIAny list = tether_any_none();
  CHECK_OK(call("ffi.List", NULL, 0, &list));
  CHECK_RAISED((int)tether_array_size(list.v_obj), "TypeError", "expected an ffi.Array");
  CHECK(tether_array_at(list.v_obj, 0) == NULL);
  TVMFFIAny r = tether_any_none();
  CHECK_RAISED(tether_array_get(list.v_obj, 0, &r), "TypeError", "got ffi.List");
  TVMFFIObjectHandle h = list.v_obj;
  TVMFFIAny v = tether_any_int(1);
  CHECK_RAISED(tether_array_append(&h, &v), "TypeError", "tether_array_append");
  CHECK_RAISED(tether_array_new(NULL, 2, &h), "ValueError", "tether_array_new");
  tether_any_release(&list);
}

/* tether_array_new_steal takes the owning values over: no count changes, slots reset. */
static void test_array_new_steal(void) {
  TVMFFIAny s = tether_any_none();
  CHECK_OK(call("ffi.String", (TVMFFIAny[]){tether_any_raw_str("a string longer than 7")}, 1, &s));
  TVMFFIObjectHandle str = s.v_obj;
  uint32_t before = tether_object_use_count(str);
  TVMFFIAny items[2] = {s, tether_any_int(7)};
  TVMFFIObjectHandle arr = NULL;
  CHECK_OK(tether_array_new_steal(items, 2, &arr));
  CHECK(items[0].type_index == kTVMFFINone && items[1].type_index == kTVMFFINone);
  CHECK(tether_object_use_count(str) == before);
  CHECK(tether_array_size(arr) == 2);
  CHECK(tether_array_at(arr, 0)->v_obj == str);
  CHECK(tether_array_at(arr, 1)->v_int64 == 7);
  TVMFFIObjectDecRef(arr); /* releases the string too: the harness checks nothing leaks */

  /* Bad input releases what it was given. */
  TVMFFIAny again = tether_any_none();
  CHECK_OK(call("ffi.String", (TVMFFIAny[]){tether_any_raw_str("another long string")}, 1, &again));
  CHECK_RAISED(tether_array_new_steal(&again, 1, NULL), "ValueError", "tether_array_new_steal");
  CHECK(again.type_index == kTVMFFINone);
  CHECK_RAISED(tether_array_new_steal(NULL, 1, &arr), "ValueError", "tether_array_new_steal");
  CHECK_OK(tether_array_new_steal(NULL, 0, &arr));
  CHECK(tether_array_size(arr) == 0);
  TVMFFIObjectDecRef(arr);
}

/* ---- ffi.ContainerFindFirstNonCPUDevice ------------------------------------------------ */

static int64_t g_shape[1] = {4};
static void noop_deleter(DLManagedTensor* self) { (void)self; }

/* A Tensor object on `device` (data never touched).  New reference. */
static TVMFFIObjectHandle make_tensor(DLManagedTensor* mt, int32_t device_type, int32_t id) {
  memset(mt, 0, sizeof(*mt));
  mt->dl_tensor.data = (void*)(uintptr_t)0x1000;
  mt->dl_tensor.device.device_type = (DLDeviceType)device_type;
  mt->dl_tensor.device.device_id = id;
  mt->dl_tensor.ndim = 1;
  mt->dl_tensor.dtype.code = kDLFloat;
  mt->dl_tensor.dtype.bits = 32;
  mt->dl_tensor.dtype.lanes = 1;
  mt->dl_tensor.shape = g_shape;
  mt->deleter = noop_deleter;
  TVMFFIObjectHandle t = NULL;
  CHECK_OK(TVMFFITensorFromDLPack(mt, 0, 0, &t));
  return t;
}

static DLDevice find_device(const TVMFFIAny* v) {
  TVMFFIAny r = tether_any_none();
  CHECK_OK(call("ffi.ContainerFindFirstNonCPUDevice", v, 1, &r));
  CHECK_EQ_INT(r.type_index, kTVMFFIDevice);
  return r.v_device;
}

static void test_find_first_non_cpu_device(void) {
  DLManagedTensor mt_gpu, mt_cpu;
  TVMFFIObjectHandle gpu = make_tensor(&mt_gpu, kDLCUDA, 3);
  TVMFFIObjectHandle cpu = make_tensor(&mt_cpu, kDLCPU, 0);
  if (gpu == NULL || cpu == NULL) {
    TVMFFIObjectDecRef(gpu);
    TVMFFIObjectDecRef(cpu);
    return;
  }
  TVMFFIAny v = tether_any_int(1);
  DLDevice d = find_device(&v);
  CHECK_EQ_INT(d.device_type, kDLCPU);
  CHECK_EQ_INT(d.device_id, 0);
  v = tether_any_object(gpu); /* a bare Tensor counts */
  d = find_device(&v);
  CHECK_EQ_INT(d.device_type, kDLCUDA);
  CHECK_EQ_INT(d.device_id, 3);

  /* Nested: Dict{1: List[Map{"k": Array[cpu, gpu]}]} */
  TVMFFIAny pair[2] = {tether_any_object(cpu), tether_any_object(gpu)};
  TVMFFIObjectHandle arr = NULL, map = NULL, list = NULL, dict = NULL;
  CHECK_OK(tether_array_new(pair, 2, &arr));
  TVMFFIAny kv[2] = {tether_any_raw_str("k"), tether_any_object(arr)};
  CHECK_OK(tether_map_new(kv, 1, &map));
  TVMFFIAny m = tether_any_object(map);
  CHECK_OK(tether_list_new(&m, 1, &list));
  TVMFFIAny dkv[2] = {tether_any_int(1), tether_any_object(list)};
  CHECK_OK(tether_dict_new(dkv, 1, &dict));
  v = tether_any_object(dict);
  d = find_device(&v);
  CHECK_EQ_INT(d.device_type, kDLCUDA);
  CHECK_EQ_INT(d.device_id, 3);

  /* Map keys are not scanned (as in the reference). */
  TVMFFIObjectHandle keyed = NULL;
  TVMFFIAny kkv[2] = {tether_any_object(gpu), tether_any_int(1)};
  CHECK_OK(tether_map_new(kkv, 1, &keyed));
  v = tether_any_object(keyed);
  CHECK_EQ_INT(find_device(&v).device_type, kDLCPU);

  /* A List that contains itself terminates (cycle broken afterwards to free it). */
  TVMFFIObjectHandle self_list = NULL;
  CHECK_OK(tether_list_new(NULL, 0, &self_list));
  v = tether_any_object(self_list);
  CHECK_OK(tether_list_append(self_list, &v));
  CHECK_OK(tether_list_append(self_list, &v));
  d = find_device(&v);
  CHECK_EQ_INT(d.device_type, kDLCPU);
  TVMFFIAny c = tether_any_object(cpu);
  CHECK_OK(tether_list_append(self_list, &c));
  CHECK_EQ_INT(find_device(&v).device_type, kDLCPU);
  TVMFFIAny g = tether_any_object(gpu);
  CHECK_OK(tether_list_append(self_list, &g));
  CHECK_EQ_INT(find_device(&v).device_type, kDLCUDA);
  CHECK_OK(tether_list_clear(self_list));

  /* Deep nesting does not exhaust the C stack. */
  TVMFFIObjectHandle deep = NULL;
  CHECK_OK(tether_array_new(&g, 1, &deep));
  for (int i = 0; i < 100000; ++i) {
    TVMFFIAny inner = tether_any_object(deep);
    TVMFFIObjectHandle outer = NULL;
    CHECK_OK(tether_list_new(&inner, 1, &outer));
    TVMFFIObjectDecRef(deep);
    deep = outer;
  }
  v = tether_any_object(deep);
  CHECK_EQ_INT(find_device(&v).device_type, kDLCUDA);
  /* Unwind iteratively too: detach each level before dropping it. */
  while (deep != NULL) {
    TVMFFIAny inner = tether_any_none();
    if (((TVMFFIObject*)deep)->type_index == kTVMFFIList) {
      CHECK_OK(tether_list_pop(deep, 0, &inner));
    }
    TVMFFIObjectDecRef(deep);
    deep = tether_any_is_object(&inner) && inner.type_index != kTVMFFITensor ? inner.v_obj : NULL;
    if (deep == NULL) tether_any_release(&inner);
  }

  TVMFFIAny r = tether_any_none();
  CHECK_RAISED(call("ffi.ContainerFindFirstNonCPUDevice", NULL, 0, &r), "TypeError",
               "Mismatched number of arguments when calling: "
               "`ffi.ContainerFindFirstNonCPUDevice(0: Any) -> Device`. Expected 1 but got 0 "
               "arguments");
  TVMFFIObjectDecRef(self_list);
  TVMFFIObjectDecRef(keyed);
  TVMFFIObjectDecRef(dict);
  TVMFFIObjectDecRef(list);
  TVMFFIObjectDecRef(map);
  TVMFFIObjectDecRef(arr);
  TVMFFIObjectDecRef(gpu);
  TVMFFIObjectDecRef(cpu);
}

static void test_container_globals_carry_metadata(void) {
  TVMFFIAny name = tether_any_raw_str("ffi.ArrayGetItem");
  TVMFFIAny r = tether_any_none();
  CHECK_OK(call("ffi.GetGlobalFuncMetadata", &name, 1, &r));
  CHECK(any_is_str(&r, "{\"type_schema\":\"{\\\"type\\\":\\\"ffi.Function\\\",\\\"args\\\":["
                       "{\\\"type\\\":\\\"Any\\\"},{\\\"type\\\":\\\"ffi.Array\\\"},"
                       "{\\\"type\\\":\\\"int\\\"}]}\"}"));
  tether_any_release(&r);
  name = tether_any_raw_str("ffi.DictSetItem");
  CHECK_OK(call("ffi.GetGlobalFuncMetadata", &name, 1, &r));
  CHECK(any_is_str(&r, "{\"type_schema\":\"{\\\"type\\\":\\\"ffi.Function\\\",\\\"args\\\":["
                       "{\\\"type\\\":\\\"None\\\"},{\\\"type\\\":\\\"ffi.Dict\\\",\\\"args\\\":["
                       "{\\\"type\\\":\\\"Any\\\"},{\\\"type\\\":\\\"Any\\\"}]},"
                       "{\\\"type\\\":\\\"Any\\\"},{\\\"type\\\":\\\"Any\\\"}]}\"}"));
  tether_any_release(&r);
  name = tether_any_raw_str("ffi.Array");
  CHECK_OK(call("ffi.GetGlobalFuncMetadata", &name, 1, &r));
  CHECK(any_is_str(&r, "{\"type_schema\":\"{\\\"type\\\":\\\"ffi.Function\\\"}\"}"));
  tether_any_release(&r);
}

TEST_MAIN(TEST_CASE(test_array_global_converts_views_to_owned), TEST_CASE(test_array_new_steal),
          TEST_CASE(test_array_layout_is_inline),
          TEST_CASE(test_array_get_item_and_size_errors),
          TEST_CASE(test_array_contains_uses_any_equal), TEST_CASE(test_array_copy_on_write),
          TEST_CASE(test_array_public_api_rejects_other_types),
          TEST_CASE(test_find_first_non_cpu_device),
          TEST_CASE(test_container_globals_carry_metadata))
