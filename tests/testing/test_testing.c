/*
 * test_testing.c -- libtether_testing driven from C through the global registry, and
 * the reflection services it relies on (MakeObjectFromPackedArgs, __ffi_init__,
 * ReprPrint, field getters/setters), and testing.run_callback_in_threads (a thread pool
 * calling a C function).
 */
#include <tether/enum.h>
#include <tether/reflection.h>

#include "test.h"

void TVMFFITestingDummyTarget(void);


/* ffi.ReprPrint(v) compared with `expected`. */
static void check_repr(const TVMFFIAny* v, const char* expected) {
  TVMFFIAny out = tether_any_none();
  TVMFFIByteArray text = {"", 0};
  CHECK_OK(call_global("ffi.ReprPrint", (TVMFFIAny*)v, 1, &out));
  CHECK(tether_any_get_str(&out, &text));
  CHECK_BYTES(text, expected);
  tether_any_release(&out);
}

static void test_simple_functions(void) {
  TVMFFIAny out = tether_any_none();
  TVMFFIAny args[3] = {tether_any_int(41), tether_any_raw_str("x"), tether_any_float(1.5)};
  CHECK_OK(call_global("testing.add_one", args, 1, &out));
  CHECK_EQ_INT(out.type_index, kTVMFFIInt);
  CHECK_EQ_INT(out.v_int64, 42);
  CHECK_OK(call_global("testing.nop", args, 3, &out));
  CHECK_EQ_INT(out.type_index, kTVMFFINone);
  CHECK_OK(call_global("testing.echo", args + 1, 2, &out));
  CHECK_EQ_INT(out.type_index, kTVMFFISmallStr); /* a RawStr view comes back owned */
  tether_any_release(&out);
  CHECK_RAISED(call_global("testing.add_one", args + 1, 1, &out), "TypeError", "testing.add_one");
  CHECK_RAISED(call_global("testing.add_one", args, 2, &out), "TypeError", "Mismatched number of arguments");

  /* testing.apply(f, x) calls f(x) */
  TVMFFIObjectHandle add_one = tether_func_get("testing.add_one");
  TVMFFIAny apply_args[2] = {tether_any_object(add_one), tether_any_int(1)};
  CHECK_OK(call_global("testing.apply", apply_args, 2, &out));
  CHECK_EQ_INT(out.v_int64, 2);
  TVMFFIObjectDecRef(add_one);

  /* get_add_one_c_symbol hands out a SafeCall we can call directly */
  CHECK_OK(call_global("testing.get_add_one_c_symbol", NULL, 0, &out));
  TVMFFISafeCallType fn = (TVMFFISafeCallType)(intptr_t)out.v_int64;
  TVMFFIAny r = tether_any_none();
  CHECK_OK(fn(NULL, args, 1, &r));
  CHECK_EQ_INT(r.v_int64, 42);
}

/* testing.run_callback_in_threads' callback: counts calls, returns t * 100 + i; raises a
 * ValueError on thread `fail_thread` (if >= 0). */
static _Atomic int pool_calls;
static int64_t fail_thread = -1;
static int pool_callback(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  int64_t t, i;
  if (tether_check_nargs("pool_callback", "(0: int, 1: int) -> int", n, 2) != 0 ||
      tether_arg_int("pool_callback", args, 0, &t) != 0 ||
      tether_arg_int("pool_callback", args, 1, &i) != 0) {
    return -1;
  }
  ++pool_calls;
  if (t == fail_thread) {
    return tether_raise("ValueError", "pool_callback: thread %d fails", (int)t);
  }
  *result = tether_any_int(t * 100 + i);
  return 0;
}

static void test_run_callback_in_threads(void) {
  TVMFFIObjectHandle cb = NULL;
  CHECK_OK(TVMFFIFunctionCreate(NULL, pool_callback, NULL, &cb));
  TVMFFIAny args[3] = {tether_any_object(cb), tether_any_int(6), tether_any_int(40)};
  TVMFFIAny out = tether_any_none();
  pool_calls = 0;
  fail_thread = -1;
  CHECK_OK(call_global("testing.run_callback_in_threads", args, 3, &out));
  int64_t expected = 0;
  for (int64_t t = 0; t < 6; ++t) {
    for (int64_t i = 0; i < 40; ++i) expected += t * 100 + i;
  }
  CHECK_EQ_INT(out.v_int64, expected);
  CHECK_EQ_INT(pool_calls, 240);

  /* thread 4 fails at its first call; the others run to the end; the caller sees the error */
  pool_calls = 0;
  fail_thread = 4;
  CHECK_RAISED(call_global("testing.run_callback_in_threads", args, 3, &out), "ValueError",
               "pool_callback: thread 4 fails");
  CHECK_EQ_INT(pool_calls, 5 * 40 + 1);
  fail_thread = -1;

  /* no threads, bad counts, not a function */
  args[1] = tether_any_int(0);
  CHECK_OK(call_global("testing.run_callback_in_threads", args, 3, &out));
  CHECK_EQ_INT(out.v_int64, 0);
  args[1] = tether_any_int(65);
  CHECK_RAISED(call_global("testing.run_callback_in_threads", args, 3, &out), "ValueError",
               "num_threads <= 64");
  args[1] = tether_any_int(1);
  args[2] = tether_any_int(-1);
  CHECK_RAISED(call_global("testing.run_callback_in_threads", args, 3, &out), "ValueError",
               "calls_per_thread >= 0");
  args[0] = tether_any_int(1);
  CHECK_RAISED(call_global("testing.run_callback_in_threads", args, 3, &out), "TypeError",
               "testing.run_callback_in_threads");
  TVMFFIObjectDecRef(cb);
}

static void test_raise_error_backtrace(void) {
  TVMFFIAny out = tether_any_none();
  TVMFFIAny args[2] = {tether_any_raw_str("ValueError"), tether_any_raw_str("boom")};
  CHECK_EQ_INT(call_global("testing.test_raise_error", args, 2, &out), -1);
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  CHECK(err != NULL);
  if (err != NULL) {
    CHECK_BYTES(tether_error_kind(err), "ValueError");
    CHECK_BYTES(tether_error_message(err), "boom");
    CHECK(strstr(tether_error_backtrace(err).data, "in TestRaiseError") != NULL);
    TVMFFIObjectDecRef(err);
  }
}

static void test_use_count(void) {
  TVMFFIAny out = tether_any_none(), count = tether_any_none();
  CHECK_OK(call_global("testing.make_unregistered_object", NULL, 0, &out));
  CHECK_OK(call_global("testing.object_use_count", &out, 1, &count));
  CHECK_EQ_INT(count.v_int64, 1);
  TVMFFIObjectIncRef(out.v_obj);
  CHECK_OK(call_global("testing.object_use_count", &out, 1, &count));
  CHECK_EQ_INT(count.v_int64, 2);
  TVMFFIObjectDecRef(out.v_obj);
  tether_any_release(&out);
}

static void test_unregistered_object(void) {
  TVMFFIAny obj = tether_any_none(), r = tether_any_none();
  CHECK_OK(call_global("testing.make_unregistered_object", NULL, 0, &obj));
  check_repr(&obj, "testing.TestUnregisteredObject(v1=41, v2=42)");
  const TVMFFIFieldInfo* v2 = tether_type_find_field(obj.v_obj->type_index, "v2", 2);
  const TVMFFIFieldInfo* v1 = tether_type_find_field(obj.v_obj->type_index, "v1", 2);
  CHECK(v1 != NULL && v2 != NULL);
  if (v1 && v2) {
    CHECK_OK(tether_field_get(obj.v_obj, v2, &r));
    CHECK_EQ_INT(r.v_int64, 42);
    CHECK_OK(tether_field_get(obj.v_obj, v1, &r));
    CHECK_EQ_INT(r.v_int64, 41);
  }
  /* methods are reflected, each on the type that defines it */
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(obj.v_obj->type_index);
  CHECK_EQ_INT(info->num_methods, 1);
  if (info->num_methods == 1) {
    CHECK_BYTES(info->methods[0].name, "get_v2_plus_two");
    CHECK_OK(tether_func_call(info->methods[0].method.v_obj, &obj, 1, &r));
    CHECK_EQ_INT(r.v_int64, 44);
  }
  const TVMFFITypeInfo* base = info->type_depth > 0 ? info->type_ancestors[info->type_depth - 1] : NULL;
  CHECK(base != NULL && base->num_methods == 1);
  if (base != NULL && base->num_methods == 1) {
    CHECK_BYTES(base->methods[0].name, "get_v1_plus_one");
    CHECK_OK(tether_func_call(base->methods[0].method.v_obj, &obj, 1, &r));
    CHECK_EQ_INT(r.v_int64, 42);
  }
  tether_any_release(&obj);
}

static void test_make_object_from_packed_args(void) {
  TVMFFIAny out = tether_any_none();
  TVMFFIAny args[5] = {tether_any_raw_str("testing.TestObjectBase"), tether_any_raw_str("v_i64"),
                       tether_any_int(3)};
  CHECK_OK(call_global("ffi.MakeObjectFromPackedArgs", args, 3, &out));
  check_repr(&out, "testing.TestObjectBase(v_i64=3, v_f64=10, v_str=\"hello\")");
  tether_any_release(&out);

  args[1] = tether_any_raw_str("bad");
  CHECK_RAISED(call_global("ffi.MakeObjectFromPackedArgs", args, 3, &out), "TypeError",
               "Type `testing.TestObjectBase` does not have field `bad`");
  args[1] = tether_any_raw_str("v_i64");
  args[2] = tether_any_raw_str("x");
  CHECK_RAISED(call_global("ffi.MakeObjectFromPackedArgs", args, 3, &out), "TypeError",
               "Cannot convert from type `const char*` to `int`");
  args[0] = tether_any_raw_str("testing.TestIntPair");
  args[1] = tether_any_raw_str("a");
  args[2] = tether_any_int(3);
  CHECK_RAISED(call_global("ffi.MakeObjectFromPackedArgs", args, 3, &out), "TypeError",
               "Required field `b` not set in type `testing.TestIntPair`");
  CHECK_RAISED(call_global("ffi.MakeObjectFromPackedArgs", args, 2, &out), "TypeError", "name/value pairs");
  args[0] = tether_any_raw_str("testing.NoSuch");
  /* the kind TVMFFITypeKeyToIndex raises in tvm-ffi 0.1.14 (Python shows RuntimeError) */
  CHECK_RAISED(call_global("ffi.MakeObjectFromPackedArgs", args, 3, &out), "InternalError",
               "Cannot find type `testing.NoSuch`");

  /* a derived type with object fields: the field's declared type is enforced */
  TVMFFIAny arr = tether_any_none(), map = tether_any_none();
  TVMFFIAny items[2] = {tether_any_int(1), tether_any_int(2)};
  TVMFFIAny kv[2] = {tether_any_raw_str("a"), tether_any_int(1)};
  CHECK_OK(call_global("ffi.Array", items, 2, &arr));
  CHECK_OK(call_global("ffi.Map", kv, 2, &map));
  TVMFFIAny dargs[5] = {tether_any_raw_str("testing.TestObjectDerived"),
                        tether_any_raw_str("v_map"), map, tether_any_raw_str("v_array"), arr};
  CHECK_OK(call_global("ffi.MakeObjectFromPackedArgs", dargs, 5, &out));
  check_repr(&out, "testing.TestObjectDerived(v_i64=10, v_f64=10, v_str=\"hello\", v_map={\"a\": 1}, v_array=(1, 2))");
  tether_any_release(&out);
  dargs[2] = arr;
  CHECK_RAISED(call_global("ffi.MakeObjectFromPackedArgs", dargs, 5, &out), "TypeError",
               "Cannot convert from type `ffi.Array` to `ffi.Map`");
  tether_any_release(&arr);
  tether_any_release(&map);
}

/* Calls the type's __ffi_init__ column entry. */
static int ffi_init(const char* key, TVMFFIAny* args, int32_t n, TVMFFIAny* out) {
  int32_t index = -1;
  TVMFFIByteArray k = {key, strlen(key)};
  TVMFFIByteArray col_name = {"__ffi_init__", 12};
  if (TVMFFITypeKeyToIndex(&k, &index) != 0) return -1;
  const TVMFFITypeAttrColumn* col = TVMFFIGetTypeAttrColumn(&col_name);
  if (col == NULL || index >= col->size || col->data[index].type_index != kTVMFFIFunction) {
    return tether_raise("RuntimeError", "no __ffi_init__ for %s", key);
  }
  return tether_func_call(col->data[index].v_obj, args, n, out);
}

static void test_ffi_init(void) {
  TVMFFIAny out = tether_any_none(), kwargs = tether_any_none();
  TVMFFIAny args[6] = {tether_any_int(1), tether_any_int(2)};
  CHECK_OK(ffi_init("testing.TestIntPair", args, 2, &out));
  check_repr(&out, "testing.TestIntPair(a=1, b=2)");
  tether_any_release(&out);
  CHECK_RAISED(ffi_init("testing.TestIntPair", args, 1, &out), "TypeError",
               "Mismatched number of arguments when calling: `testing.TestIntPair.__ffi_init__(0: int, 1: int) -> ffi.Object`. Expected 2 but got 1 arguments");

  /* auto init: positional, then KWARGS marker and name/value pairs */
  CHECK_OK(call_global("ffi.GetKwargsObject", NULL, 0, &kwargs));
  args[0] = tether_any_int(7);
  args[1] = kwargs;
  args[2] = tether_any_raw_str("v_str");
  args[3] = tether_any_raw_str("a longer string value");
  CHECK_OK(ffi_init("testing.TestObjectBase", args, 4, &out));
  check_repr(&out, "testing.TestObjectBase(v_i64=7, v_f64=10, v_str=\"a longer string value\")");
  tether_any_release(&out);
  args[2] = tether_any_raw_str("zz");
  CHECK_RAISED(ffi_init("testing.TestObjectBase", args, 4, &out), "TypeError",
               "testing.TestObjectBase.__ffi_init__() got an unexpected keyword argument 'zz'");
  args[0] = tether_any_raw_str("x");
  CHECK_RAISED(ffi_init("testing.TestObjectBase", args, 1, &out), "TypeError",
               "testing.TestObjectBase.__ffi_init__() field 'v_i64':\n  Cannot convert from type `const char*` to `int`");
  tether_any_release(&kwargs);
}

static void test_field_setters(void) {
  TVMFFIAny out = tether_any_none(), r = tether_any_none();
  TVMFFIAny args[1] = {tether_any_raw_str("testing.TestObjectBase")};
  CHECK_OK(call_global("ffi.MakeObjectFromPackedArgs", args, 1, &out));
  const TVMFFIFieldInfo* v_str = tether_type_find_field(out.v_obj->type_index, "v_str", 5);
  const TVMFFIFieldInfo* v_f64 = tether_type_find_field(out.v_obj->type_index, "v_f64", 5);
  CHECK(v_str != NULL && v_f64 != NULL);
  if (v_str && v_f64) {
    CHECK(v_str->flags & kTVMFFIFieldFlagBitMaskWritable);
    CHECK(!(v_f64->flags & kTVMFFIFieldFlagBitMaskWritable));
    TVMFFIAny s = tether_any_raw_str("a string longer than seven bytes");
    CHECK_OK(tether_field_set(out.v_obj, v_str, &s));
    CHECK_OK(tether_field_get(out.v_obj, v_str, &r));
    CHECK_EQ_INT(r.type_index, kTVMFFIStr);
    tether_any_release(&r);
    TVMFFIAny i = tether_any_int(3);
    CHECK_RAISED(tether_field_set(out.v_obj, v_str, &i), "TypeError", "Cannot convert from type `int` to `str`");
    CHECK_OK(tether_field_set(out.v_obj, v_f64, &i)); /* int converts to float */
    CHECK_OK(tether_field_get(out.v_obj, v_f64, &r));
    CHECK_EQ_INT(r.type_index, kTVMFFIFloat);
  }
  tether_any_release(&out);
}

static void test_repr_values(void) {
  TVMFFIAny v = tether_any_none();
  check_repr(&v, "None");
  v = tether_any_int(-5);
  check_repr(&v, "-5");
  v = tether_any_bool(true);
  check_repr(&v, "True");
  v = tether_any_float(10.0);
  check_repr(&v, "10");
  v = tether_any_float(0.1);
  check_repr(&v, "0.1");
  v = tether_any_device(kDLCUDA, 1);
  check_repr(&v, "cuda:1");
  v = tether_any_raw_str("a\"b\\c\n\t\x01\xc3\xa9");
  check_repr(&v, "\"a\\\"b\\\\c\\n\\t\\x01\\u00e9\"");
  TVMFFIAny items[6] = {tether_any_int(1), tether_any_int(2), tether_any_raw_str("a"),
                        tether_any_none(), tether_any_bool(true), tether_any_float(1.5)};
  TVMFFIAny arr = tether_any_none(), list = tether_any_none(), dict = tether_any_none();
  CHECK_OK(call_global("ffi.Array", items, 6, &arr));
  check_repr(&arr, "(1, 2, \"a\", None, True, 1.5)");
  TVMFFIAny one = tether_any_none();
  CHECK_OK(call_global("ffi.Array", items, 1, &one));
  check_repr(&one, "(1,)");
  tether_any_release(&one);
  CHECK_OK(call_global("ffi.List", items, 2, &list));
  check_repr(&list, "[1, 2]");
  TVMFFIAny kv[4] = {tether_any_raw_str("a"), tether_any_int(1), tether_any_raw_str("b"), arr};
  CHECK_OK(call_global("ffi.Dict", kv, 4, &dict));
  check_repr(&dict, "{\"a\": 1, \"b\": (1, 2, \"a\", None, True, 1.5)}");
  TVMFFIAny missing = tether_any_none(), kwargs = tether_any_none();
  CHECK_OK(call_global("ffi.GetInvalidObject", NULL, 0, &missing));
  check_repr(&missing, "<MISSING>");
  CHECK_OK(call_global("ffi.GetKwargsObject", NULL, 0, &kwargs));
  check_repr(&kwargs, "<KWARGS>");
  TVMFFIObjectHandle nop = tether_func_get("testing.nop");
  TVMFFIAny f = tether_any_object(nop);
  check_repr(&f, "ffi.Function");
  TVMFFIObjectDecRef(nop);
  tether_any_release(&arr);
  tether_any_release(&list);
  tether_any_release(&dict);
  tether_any_release(&missing);
  tether_any_release(&kwargs);
}

static void test_container_builders(void) {
  TVMFFIAny out = tether_any_none();
  TVMFFIAny args[2] = {tether_any_int(5), tether_any_int(6)};
  CHECK_OK(call_global("testing.make_array_with_mixed", args, 2, &out));
  check_repr(&out, "(5, 6, \"hello\")");
  tether_any_release(&out);
  CHECK_OK(call_global("testing.make_nested_array_with_tensor", args, 1, &out));
  check_repr(&out, "((5, 42), 5)");
  tether_any_release(&out);
  CHECK_OK(call_global("testing.make_nested_map_with_tensor", args, 2, &out));
  check_repr(&out, "{\"array\": (5, 6), \"map\": {\"t\": 5}, \"scalar\": 99}");
  tether_any_release(&out);
  CHECK_OK(call_global("testing.make_dict_with_tensor", args, 1, &out));
  CHECK_EQ_INT(out.type_index, kTVMFFIDict);
  tether_any_release(&out);
}

static void test_registered_type_keys(void) {
  TVMFFIAny out = tether_any_none();
  CHECK_OK(call_global("ffi.GetRegisteredTypeKeys", NULL, 0, &out));
  CHECK_EQ_INT(out.type_index, kTVMFFIArray);
  if (out.type_index == kTVMFFIArray) {
    const TVMFFISeqCell* cell = (const TVMFFISeqCell*)((char*)out.v_obj + sizeof(TVMFFIObject));
    bool found = false;
    for (int64_t i = 0; i < cell->size; ++i) {
      TVMFFIByteArray key;
      if (tether_any_get_str(&((const TVMFFIAny*)cell->data)[i], &key) && key.size == 19 &&
          memcmp(key.data, "testing.TestIntPair", 19) == 0) {
        found = true;
      }
    }
    CHECK(found);
  }
  tether_any_release(&out);
}

static void test_system_lib_add_one(void) {
  TVMFFIAny mod = tether_any_none(), fn = tether_any_none(), out = tether_any_none();
  TVMFFIAny prefix = tether_any_raw_str("testing.");
  CHECK_OK(call_global("ffi.SystemLib", &prefix, 1, &mod));
  TVMFFIAny get_args[3] = {mod, tether_any_raw_str("add_one"), tether_any_bool(false)};
  CHECK_OK(call_global("ffi.ModuleGetFunction", get_args, 3, &fn));
  CHECK_EQ_INT(fn.type_index, kTVMFFIFunction);
  if (fn.type_index == kTVMFFIFunction) {
    TVMFFIAny ten = tether_any_int(10);
    CHECK_OK(tether_func_call(fn.v_obj, &ten, 1, &out));
    CHECK_EQ_INT(out.v_int64, 11);
  }
  tether_any_release(&fn);
  /* ffi.SystemLib caches one module per prefix for the process: drop only our reference */
  tether_any_release(&mod);
}

/* The enum and def-region fixtures (testing.enum_variant_get, make_visit_region_graph). */
static void test_enum_and_visit_fixtures(void) {
  TVMFFIAny name = tether_any_raw_str("Beta"), out = tether_any_none(), code = tether_any_none();
  CHECK_OK(call_global("testing.enum_variant_get", &name, 1, &out));
  CHECK_EQ_INT(tether_enum_kind_of(out.type_index), TETHER_ENUM_PLAIN);
  if (tether_enum_kind_of(out.type_index) != TETHER_ENUM_NONE) {
    CHECK_EQ_INT(((const tether_enum_t*)out.v_obj)->int_index, 1);
    CHECK_OK(tether_enum_get_attr(out.v_obj, "code", &code));
    CHECK_EQ_INT(code.v_int64, 20);
  }
  check_repr(&out, "testing.TestEnumVariant.Beta");
  tether_any_release(&out);
  TVMFFIAny missing = tether_any_raw_str("Gamma");
  CHECK_RAISED(call_global("testing.enum_variant_get", &missing, 1, &out), "ValueError",
               "has no instance with index Gamma");
  TVMFFIAny with_hook = tether_any_bool(true);
  CHECK_OK(call_global("testing.make_visit_region_graph", &with_hook, 1, &out));
  check_repr(&out, "testing.TestVisitHook(child=testing.TestVisitRegions(simple=1, pattern=2, "
                   "ordinary=3))");
  tether_any_release(&out);
}

int main(void) {
  TVMFFITestingDummyTarget();
  /* ffi.SystemLib keeps one module per prefix for the life of the process: create it
   * before the per-test leak accounting starts. */
  TVMFFIAny prefix = tether_any_raw_str("testing."), mod = tether_any_none();
  if (call_global("ffi.SystemLib", &prefix, 1, &mod) == 0) tether_any_release(&mod);
  static const test_case_t cases[] = {
      TEST_CASE(test_simple_functions),     TEST_CASE(test_raise_error_backtrace),
      TEST_CASE(test_use_count),            TEST_CASE(test_unregistered_object),
      TEST_CASE(test_make_object_from_packed_args), TEST_CASE(test_ffi_init),
      TEST_CASE(test_field_setters),        TEST_CASE(test_repr_values),
      TEST_CASE(test_container_builders),   TEST_CASE(test_registered_type_keys),
      TEST_CASE(test_system_lib_add_one),   TEST_CASE(test_run_callback_in_threads),
      TEST_CASE(test_enum_and_visit_fixtures),
  };
  return test_run_all(cases, sizeof(cases) / sizeof(cases[0]));
}
