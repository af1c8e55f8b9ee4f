/*
 * test_registry.c -- the global function registry: set/get, duplicate and override,
 * removal, growth to thousands of names, the ffi.* registry globals (names functor,
 * metadata, FunctionFromExternC, the MISSING/KWARGS singletons) with the reference's
 * texts (observed with apache-tvm-ffi 0.1.14).  Every test unregisters what it
 * registered, so no object outlives it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "test.h"

/* ---- helpers -------------------------------------------------------------------------------- */

static int deleter_calls;

static void count_deleter(void* self) { deleter_calls++; }

/* Returns the int stored at self. */
static int return_self_value(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  *result = tether_any_int(*(const int64_t*)self);
  return 0;
}

static int return_handle(void* handle, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  *result = tether_any_ptr(handle);
  return 0;
}

static TVMFFIObjectHandle new_value_function(int64_t* value) {
  TVMFFIObjectHandle f = NULL;
  CHECK_OK(TVMFFIFunctionCreate(value, return_self_value, count_deleter, &f));
  return f;
}

static TVMFFIByteArray bytes(const char* s) { return (TVMFFIByteArray){s, strlen(s)}; }

static TVMFFIObjectHandle get_global(const char* name) {
  TVMFFIByteArray key = bytes(name);
  TVMFFIObjectHandle f = (TVMFFIObjectHandle)&key; /* must be overwritten */
  CHECK_OK(TVMFFIFunctionGetGlobal(&key, &f));
  return f;
}

static int set_global(const char* name, TVMFFIObjectHandle f, int allow_override) {
  TVMFFIByteArray key = bytes(name);
  return TVMFFIFunctionSetGlobal(&key, f, allow_override);
}


static bool remove_global(const char* name) {
  TVMFFIAny arg = tether_any_raw_str(name);
  TVMFFIAny result = tether_any_none();
  CHECK_OK(call_global("ffi.FunctionRemoveGlobal", &arg, 1, &result));
  CHECK_EQ_INT(result.type_index, kTVMFFIBool);
  return result.v_int64 != 0;
}

static int64_t call_int(TVMFFIObjectHandle f) {
  TVMFFIAny result = tether_any_none();
  CHECK_OK(tether_func_call(f, NULL, 0, &result));
  CHECK_EQ_INT(result.type_index, kTVMFFIInt);
  return result.v_int64;
}

/* Checks that an owning string Any holds `expected`, then releases it. */
#define CHECK_STR_RESULT(any, expected)            \
  do {                                             \
    TVMFFIByteArray check__s = {"", 0};            \
    CHECK(tether_any_get_str(&(any), &check__s));  \
    CHECK_BYTES(check__s, expected);               \
    tether_any_release(&(any));                    \
  } while (0)

/* ---- set / get ------------------------------------------------------------------------------ */

static void test_set_get_remove(void) {
  int64_t v = 11;
  deleter_calls = 0;
  TVMFFIObjectHandle f = new_value_function(&v);
  CHECK(get_global("test.reg.a") == NULL);
  CHECK_OK(set_global("test.reg.a", f, 0));
  CHECK_EQ_INT(tether_object_use_count(f), 2); /* borrowed and IncRef'd */
  TVMFFIObjectHandle g = get_global("test.reg.a");
  CHECK(g == f);
  CHECK_EQ_INT(tether_object_use_count(f), 3); /* a new reference */
  CHECK_EQ_INT(call_int(g), 11);
  TVMFFIObjectDecRef(g);
  TVMFFIObjectDecRef(f);
  CHECK_EQ_INT(deleter_calls, 0); /* the registry keeps it alive */
  CHECK(remove_global("test.reg.a"));
  CHECK_EQ_INT(deleter_calls, 1); /* released at removal, not at unload */
  CHECK(get_global("test.reg.a") == NULL);
  CHECK(!remove_global("test.reg.a"));
  /* The name can be registered again. */
  f = new_value_function(&v);
  CHECK_OK(set_global("test.reg.a", f, 0));
  TVMFFIObjectDecRef(f);
  CHECK(remove_global("test.reg.a"));
  CHECK_EQ_INT(deleter_calls, 2);
}

static void test_duplicate_and_override(void) {
  int64_t v1 = 1, v2 = 2;
  deleter_calls = 0;
  TVMFFIObjectHandle f1 = new_value_function(&v1);
  TVMFFIObjectHandle f2 = new_value_function(&v2);
  CHECK_OK(set_global("test.reg.dup", f1, 0));
  /* Reference: RuntimeError "Global Function `my.f` is already registered". */
  CHECK_RAISED(set_global("test.reg.dup", f2, 0), "RuntimeError",
               "Global Function `test.reg.dup` is already registered");
  CHECK_EQ_INT(tether_object_use_count(f2), 1); /* the failed attempt kept nothing */
  TVMFFIObjectHandle g = get_global("test.reg.dup");
  CHECK_EQ_INT(call_int(g), 1);
  TVMFFIObjectDecRef(g);
  /* Re-registering the same function without override is a duplicate too. */
  CHECK_RAISED(set_global("test.reg.dup", f1, 0), "RuntimeError", "is already registered");
  CHECK_OK(set_global("test.reg.dup", f2, 1));
  CHECK_EQ_INT(tether_object_use_count(f1), 1); /* the registry released f1 */
  g = get_global("test.reg.dup");
  CHECK(g == f2);
  CHECK_EQ_INT(call_int(g), 2);
  TVMFFIObjectDecRef(g);
  TVMFFIObjectDecRef(f1);
  CHECK_EQ_INT(deleter_calls, 1);
  TVMFFIObjectDecRef(f2);
  CHECK(remove_global("test.reg.dup"));
  CHECK_EQ_INT(deleter_calls, 2);
}

static void test_bad_arguments(void) {
  int64_t v = 0;
  TVMFFIObjectHandle f = new_value_function(&v);
  TVMFFIByteArray key = bytes("test.reg.bad");
  TVMFFIObjectHandle out = NULL;
  CHECK_RAISED(TVMFFIFunctionGetGlobal(NULL, &out), "ValueError", "`name`");
  CHECK_RAISED(TVMFFIFunctionGetGlobal(&key, NULL), "ValueError", "`out`");
  CHECK_RAISED(TVMFFIFunctionSetGlobal(NULL, f, 0), "ValueError", "`name`");
  CHECK_RAISED(TVMFFIFunctionSetGlobal(&key, NULL, 0), "TypeError", "must be an ffi.Function");
  /* A non-function object (the MISSING sentinel, type ffi.Object). */
  TVMFFIAny missing = tether_any_none();
  CHECK_OK(call_global("ffi.GetInvalidObject", NULL, 0, &missing));
  CHECK_RAISED(TVMFFIFunctionSetGlobal(&key, missing.v_obj, 0), "TypeError",
               "must be an ffi.Function, got ffi.Object");
  tether_any_release(&missing);
  CHECK_RAISED(TVMFFIFunctionSetGlobalFromMethodInfo(NULL, 0), "ValueError", "`method_info`");
  TVMFFIMethodInfo info = {.name = key, .method = tether_any_int(3)};
  CHECK_RAISED(TVMFFIFunctionSetGlobalFromMethodInfo(&info, 0), "TypeError",
               "must hold an ffi.Function, got int");
  CHECK(get_global("test.reg.bad") == NULL);
  /* The empty name is a name like any other. */
  TVMFFIByteArray empty = {NULL, 0};
  CHECK_OK(TVMFFIFunctionSetGlobal(&empty, f, 0));
  CHECK_OK(TVMFFIFunctionGetGlobal(&empty, &out));
  CHECK(out == f);
  TVMFFIObjectDecRef(out);
  CHECK(remove_global(""));
  TVMFFIObjectDecRef(f);
}

static void test_from_method_info_and_metadata(void) {
  int64_t v = 5;
  TVMFFIObjectHandle f = new_value_function(&v);
  TVMFFIMethodInfo info = {.name = bytes("test.reg.info"),
                           .doc = bytes("Returns five."),
                           .metadata = bytes("{\"type_schema\": \"x\"}"),
                           .flags = kTVMFFIFieldFlagBitMaskIsStaticMethod,
                           .method = tether_any_object(f)};
  CHECK_OK(TVMFFIFunctionSetGlobalFromMethodInfo(&info, 0));
  TVMFFIObjectDecRef(f);
  CHECK_RAISED(TVMFFIFunctionSetGlobalFromMethodInfo(&info, 0), "RuntimeError",
               "Global Function `test.reg.info` is already registered");
  TVMFFIObjectHandle g = get_global("test.reg.info");
  CHECK_EQ_INT(call_int(g), 5);
  TVMFFIObjectDecRef(g);
  TVMFFIAny arg = tether_any_raw_str("test.reg.info");
  TVMFFIAny result = tether_any_none();
  CHECK_OK(call_global("ffi.GetGlobalFuncMetadata", &arg, 1, &result));
  CHECK_STR_RESULT(result, "{\"type_schema\": \"x\"}");
  CHECK(remove_global("test.reg.info"));

  /* SetGlobal stores empty metadata (reference: Python-registered functions give ""). */
  f = new_value_function(&v);
  CHECK_OK(set_global("test.reg.info", f, 0));
  TVMFFIObjectDecRef(f);
  CHECK_OK(call_global("ffi.GetGlobalFuncMetadata", &arg, 1, &result));
  CHECK_STR_RESULT(result, "");
  CHECK(remove_global("test.reg.info"));

  /* Reference: RuntimeError "Global Function is not found: nonexist". */
  CHECK_RAISED(call_global("ffi.GetGlobalFuncMetadata", &arg, 1, &result), "RuntimeError",
               "Global Function is not found: test.reg.info");
  TVMFFIAny bad = tether_any_int(1);
  CHECK_RAISED(call_global("ffi.GetGlobalFuncMetadata", &bad, 1, &result), "TypeError",
               "Mismatched type on argument #0 when calling: `ffi.GetGlobalFuncMetadata(0: str) -> "
               "str`. Expected `str` but got `int`");
  /* The builtin globals carry the reference's type schemas. */
  arg = tether_any_raw_str("ffi.FunctionRemoveGlobal");
  CHECK_OK(call_global("ffi.GetGlobalFuncMetadata", &arg, 1, &result));
  CHECK_STR_RESULT(result,
                   "{\"type_schema\":\"{\\\"type\\\":\\\"ffi.Function\\\",\\\"args\\\":["
                   "{\\\"type\\\":\\\"bool\\\"},{\\\"type\\\":\\\"ffi.String\\\"}]}\"}");
  arg = tether_any_raw_str("ffi.GetInvalidObject");
  CHECK_OK(call_global("ffi.GetGlobalFuncMetadata", &arg, 1, &result));
  CHECK_STR_RESULT(result,
                   "{\"type_schema\":\"{\\\"type\\\":\\\"ffi.Function\\\",\\\"args\\\":["
                   "{\\\"type\\\":\\\"ffi.Object\\\"}]}\"}");
}

static void test_tether_func_register(void) {
  CHECK_OK(tether_func_register("test.reg.c", return_handle, "doc", NULL, 0));
  CHECK_RAISED(tether_func_register("test.reg.c", return_handle, NULL, NULL, 0), "RuntimeError",
               "Global Function `test.reg.c` is already registered");
  CHECK_OK(tether_func_register("test.reg.c", return_handle, NULL, "{}", 1));
  TVMFFIObjectHandle f = get_global("test.reg.c");
  TVMFFIAny result = tether_any_none();
  CHECK_OK(tether_func_call(f, NULL, 0, &result));
  /* Registered without self: the handle is the function object itself. */
  CHECK_EQ_INT(result.type_index, kTVMFFIOpaquePtr);
  CHECK(result.v_ptr == f);
  TVMFFIObjectDecRef(f);
  TVMFFIAny arg = tether_any_raw_str("test.reg.c");
  CHECK_OK(call_global("ffi.GetGlobalFuncMetadata", &arg, 1, &result));
  CHECK_STR_RESULT(result, "{}");
  CHECK(remove_global("test.reg.c"));
  CHECK_RAISED(tether_func_register(NULL, return_handle, NULL, NULL, 0), "ValueError", "`name`");
  CHECK_RAISED(tether_func_register("test.reg.c", NULL, NULL, NULL, 0), "ValueError",
               "`safe_call`");
  CHECK(get_global("test.reg.c") == NULL);
}

/* ---- ffi.FunctionRemoveGlobal / ffi.FunctionListGlobalNamesFunctor -------------------------- */

static void test_remove_global_errors(void) {
  TVMFFIAny args[2] = {tether_any_int(1), tether_any_raw_str("x")};
  TVMFFIAny result = tether_any_none();
  CHECK_RAISED(call_global("ffi.FunctionRemoveGlobal", args, 1, &result), "TypeError",
               "Mismatched type on argument #0 when calling: `ffi.FunctionRemoveGlobal(0: str) -> "
               "bool`. Expected `str` but got `int`");
  CHECK_RAISED(call_global("ffi.FunctionRemoveGlobal", args, 0, &result), "TypeError",
               "Mismatched number of arguments when calling: `ffi.FunctionRemoveGlobal(0: str) -> "
               "bool`. Expected 1 but got 0 arguments");
  CHECK_RAISED(call_global("ffi.FunctionRemoveGlobal", args, 2, &result), "TypeError",
               "Expected 1 but got 2 arguments");
  CHECK(!remove_global("nonexist"));
}

/* New functor from ffi.FunctionListGlobalNamesFunctor. */
static TVMFFIObjectHandle names_functor(void) {
  TVMFFIAny result = tether_any_none();
  CHECK_OK(call_global("ffi.FunctionListGlobalNamesFunctor", NULL, 0, &result));
  CHECK_EQ_INT(result.type_index, kTVMFFIFunction);
  return result.v_obj;
}

static int64_t names_count(TVMFFIObjectHandle g) {
  TVMFFIAny arg = tether_any_int(-1);
  TVMFFIAny result = tether_any_none();
  CHECK_OK(tether_func_call(g, &arg, 1, &result));
  CHECK_EQ_INT(result.type_index, kTVMFFIInt);
  return result.v_int64;
}

/* Index of `name` in the functor's list, or -1. */
static int64_t names_find(TVMFFIObjectHandle g, const char* name) {
  int64_t n = names_count(g);
  for (int64_t i = 0; i < n; ++i) {
    TVMFFIAny arg = tether_any_int(i);
    TVMFFIAny result = tether_any_none();
    CHECK_OK(tether_func_call(g, &arg, 1, &result));
    TVMFFIByteArray s = {"", 0};
    CHECK(tether_any_get_str(&result, &s));
    bool match = s.size == strlen(name) && memcmp(s.data, name, s.size) == 0;
    tether_any_release(&result);
    if (match) return i;
  }
  return -1;
}

static void test_list_names_functor(void) {
  TVMFFIObjectHandle g1 = names_functor();
  int64_t n1 = names_count(g1);
  CHECK(n1 >= 6);
  CHECK(names_find(g1, "ffi.FunctionListGlobalNamesFunctor") >= 0);
  CHECK(names_find(g1, "ffi.FunctionRemoveGlobal") >= 0);
  CHECK(names_find(g1, "ffi.GetGlobalFuncMetadata") >= 0);
  CHECK(names_find(g1, "ffi.FunctionFromExternC") >= 0);
  CHECK(names_find(g1, "ffi.GetInvalidObject") >= 0);
  CHECK(names_find(g1, "ffi.GetKwargsObject") >= 0);
  /* Any negative index gives the count (reference: g(-2) == count). */
  TVMFFIAny arg = tether_any_int(-2);
  TVMFFIAny result = tether_any_none();
  CHECK_OK(tether_func_call(g1, &arg, 1, &result));
  CHECK_EQ_INT(result.v_int64, n1);

  /* A snapshot: later registrations show up in new functors only, at the end. */
  CHECK_OK(tether_func_register("test.reg.listed", return_handle, NULL, NULL, 0));
  TVMFFIObjectHandle g2 = names_functor();
  CHECK_EQ_INT(names_count(g1), n1);
  CHECK_EQ_INT(names_count(g2), n1 + 1);
  CHECK_EQ_INT(names_find(g2, "test.reg.listed"), n1);
  CHECK_EQ_INT(names_find(g1, "test.reg.listed"), -1);
  /* Overriding keeps the position; removal drops the name. */
  CHECK_OK(tether_func_register("test.reg.listed", return_handle, NULL, NULL, 1));
  TVMFFIObjectHandle g3 = names_functor();
  CHECK_EQ_INT(names_find(g3, "test.reg.listed"), n1);
  CHECK(remove_global("test.reg.listed"));
  TVMFFIObjectHandle g4 = names_functor();
  CHECK_EQ_INT(names_count(g4), n1);
  CHECK_EQ_INT(names_find(g4, "test.reg.listed"), -1);

  /* Reference texts: IndexError "Index 1000000 out of bounds 157"; the functor's
   * signature is `(0: int) -> Any`. */
  arg = tether_any_int(n1);
  char expected[64];
  snprintf(expected, sizeof(expected), "Index %lld out of bounds %lld", (long long)n1,
           (long long)n1);
  CHECK_RAISED(tether_func_call(g4, &arg, 1, &result), "IndexError", expected);
  arg = tether_any_float(1.0);
  CHECK_RAISED(tether_func_call(g4, &arg, 1, &result), "TypeError",
               "Mismatched type on argument #0 when calling: `(0: int) -> Any`. Expected `int` "
               "but got `float`");
  CHECK_RAISED(tether_func_call(g4, NULL, 0, &result), "TypeError",
               "Mismatched number of arguments when calling: `(0: int) -> Any`. Expected 1 but "
               "got 0 arguments");
  arg = tether_any_bool(true); /* bool converts to int: index 1 */
  CHECK_OK(tether_func_call(g4, &arg, 1, &result));
  CHECK(tether_any_is_object(&result) || result.type_index == kTVMFFISmallStr);
  tether_any_release(&result);
  arg = tether_any_int(1);
  CHECK_RAISED(call_global("ffi.FunctionListGlobalNamesFunctor", &arg, 1, &result), "TypeError",
               "Mismatched number of arguments when calling: `ffi.FunctionListGlobalNamesFunctor() "
               "-> ffi.Function`. Expected 0 but got 1 arguments");
  TVMFFIObjectDecRef(g1);
  TVMFFIObjectDecRef(g2);
  TVMFFIObjectDecRef(g3);
  TVMFFIObjectDecRef(g4);
}

/* Thousands of names: growth keeps every registration reachable; removals leave holes that
 * later registrations of the same names reuse. */
static void test_many_names(void) {
  enum { N = 5000 };
  static int64_t values[N];
  char name[64];
  TVMFFIObjectHandle g0 = names_functor();
  int64_t base = names_count(g0);
  TVMFFIObjectDecRef(g0);
  deleter_calls = 0;
  for (int i = 0; i < N; ++i) {
    values[i] = i;
    snprintf(name, sizeof(name), "test.reg.many.%d", i);
    TVMFFIObjectHandle f = new_value_function(&values[i]);
    CHECK_OK(set_global(name, f, 0));
    TVMFFIObjectDecRef(f);
  }
  for (int i = 0; i < N; i += 2) {
    snprintf(name, sizeof(name), "test.reg.many.%d", i);
    CHECK(remove_global(name));
  }
  CHECK_EQ_INT(deleter_calls, N / 2);
  for (int i = 0; i < N; ++i) {
    snprintf(name, sizeof(name), "test.reg.many.%d", i);
    TVMFFIObjectHandle f = get_global(name);
    if (i % 2 == 0) {
      CHECK(f == NULL);
    } else if (f == NULL) {
      CHECK(f != NULL);
    } else {
      CHECK_EQ_INT(call_int(f), i);
      TVMFFIObjectDecRef(f);
    }
  }
  TVMFFIObjectHandle g = names_functor();
  CHECK_EQ_INT(names_count(g), base + N / 2);
  TVMFFIObjectDecRef(g);
  for (int i = 0; i < N; ++i) {
    snprintf(name, sizeof(name), "test.reg.many.%d", i);
    CHECK(remove_global(name) == (i % 2 == 1));
  }
  CHECK_EQ_INT(deleter_calls, N);
  g = names_functor();
  CHECK_EQ_INT(names_count(g), base);
  TVMFFIObjectDecRef(g);
}

/* ---- ffi.FunctionFromExternC and the sentinels ---------------------------------------------- */

static void test_function_from_extern_c(void) {
  int64_t v = 77;
  deleter_calls = 0;
  TVMFFISafeCallType fn = return_self_value;
  void (*del)(void*) = count_deleter;
  void *fn_ptr, *del_ptr;
  memcpy(&fn_ptr, &fn, sizeof(fn_ptr));
  memcpy(&del_ptr, &del, sizeof(del_ptr));
  TVMFFIAny args[3] = {tether_any_ptr(&v), tether_any_ptr(fn_ptr), tether_any_ptr(del_ptr)};
  TVMFFIAny result = tether_any_none();
  CHECK_OK(call_global("ffi.FunctionFromExternC", args, 3, &result));
  CHECK_EQ_INT(result.type_index, kTVMFFIFunction);
  CHECK_EQ_INT(call_int(result.v_obj), 77);
  tether_any_release(&result);
  CHECK_EQ_INT(deleter_calls, 1);
  /* None deleter: accepted as NULL. */
  args[2] = tether_any_none();
  CHECK_OK(call_global("ffi.FunctionFromExternC", args, 3, &result));
  CHECK_EQ_INT(call_int(result.v_obj), 77);
  tether_any_release(&result);
  CHECK_EQ_INT(deleter_calls, 1);
  /* Reference: FromExternC(1, 2, 3) reports argument #2 (it converts last to first). */
  TVMFFIAny ints[3] = {tether_any_int(1), tether_any_int(2), tether_any_int(3)};
  CHECK_RAISED(call_global("ffi.FunctionFromExternC", ints, 3, &result), "TypeError",
               "Mismatched type on argument #2 when calling: `ffi.FunctionFromExternC(0: void*, 1: "
               "void*, 2: void*) -> ffi.Function`. Expected `void*` but got `int`");
  CHECK_RAISED(call_global("ffi.FunctionFromExternC", ints, 2, &result), "TypeError",
               "Expected 3 but got 2 arguments");
  /* A NULL safe_call cannot make a callable function. */
  TVMFFIAny nones[3] = {tether_any_none(), tether_any_none(), tether_any_none()};
  CHECK_RAISED(call_global("ffi.FunctionFromExternC", nones, 3, &result), "ValueError",
               "`safe_call`");
}

static void test_invalid_and_kwargs_singletons(void) {
  TVMFFIAny a = tether_any_none(), b = tether_any_none(), k1 = tether_any_none(),
            k2 = tether_any_none();
  int64_t live = tether_object_live_count();
  CHECK_OK(call_global("ffi.GetInvalidObject", NULL, 0, &a));
  CHECK_OK(call_global("ffi.GetInvalidObject", NULL, 0, &b));
  CHECK_OK(call_global("ffi.GetKwargsObject", NULL, 0, &k1));
  CHECK_OK(call_global("ffi.GetKwargsObject", NULL, 0, &k2));
  CHECK_EQ_INT(a.type_index, kTVMFFIObject);
  CHECK_EQ_INT(k1.type_index, kTVMFFIObject);
  CHECK_EQ_INT(a.v_obj->type_index, kTVMFFIObject);
  CHECK(a.v_obj == b.v_obj);
  CHECK(k1.v_obj == k2.v_obj);
  CHECK(a.v_obj != k1.v_obj);
  CHECK_EQ_INT(tether_object_live_count(), live); /* process-wide, not allocated per call */
  uint32_t uses = tether_object_use_count(a.v_obj);
  tether_any_release(&a);
  CHECK_EQ_INT(tether_object_use_count(b.v_obj), uses - 1);
  tether_any_release(&b);
  tether_any_release(&k1);
  tether_any_release(&k2);
  TVMFFIAny arg = tether_any_int(1);
  CHECK_RAISED(call_global("ffi.GetInvalidObject", &arg, 1, &a), "TypeError",
               "Mismatched number of arguments when calling: `ffi.GetInvalidObject() -> "
               "ffi.Object`. Expected 0 but got 1 arguments");
  CHECK_RAISED(call_global("ffi.GetKwargsObject", &arg, 1, &a), "TypeError",
               "`ffi.GetKwargsObject() -> ffi.Object`. Expected 0 but got 1 arguments");
}

TEST_MAIN(TEST_CASE(test_set_get_remove), TEST_CASE(test_duplicate_and_override),
          TEST_CASE(test_bad_arguments), TEST_CASE(test_from_method_info_and_metadata),
          TEST_CASE(test_tether_func_register), TEST_CASE(test_remove_global_errors),
          TEST_CASE(test_list_names_functor), TEST_CASE(test_many_names),
          TEST_CASE(test_function_from_extern_c), TEST_CASE(test_invalid_and_kwargs_singletons))
