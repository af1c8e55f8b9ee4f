/*
 * test_function.c -- Function objects: both TVMFFIFunctionCreate forms (what handle the
 * safe_call receives, when the deleter runs), calls with 0..N arguments, result
 * ownership, error propagation, tether's flags (tether_func_create / _flags /
 * _register_flags), tether_func_get/tether_func_call, and the argument
 * helpers with the reference's TypeError texts (observed with apache-tvm-ffi 0.1.14).
 */
#include <stdlib.h>

#include "test.h"

/* ---- helpers -------------------------------------------------------------------------------- */

/* The header's type index (c_api.h offers the accessor only to C++). */
static int32_t type_of(TVMFFIObjectHandle h) { return ((TVMFFIObject*)h)->type_index; }

static void* seen_handle;
static int deleter_calls;
static void* deleter_arg;

static int record_handle(void* handle, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  seen_handle = handle;
  *result = tether_any_int(n);
  return 0;
}

static void count_deleter(void* self) {
  deleter_calls++;
  deleter_arg = self;
}

/* Sums its int arguments. */
static int sum_ints(void* handle, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  int64_t total = 0;
  for (int32_t i = 0; i < n; ++i) {
    int64_t x;
    if (tether_arg_int("sum(...) -> int", args, i, &x) != 0) return -1;
    total += x;
  }
  *result = tether_any_int(total);
  return 0;
}

/* Returns a new function object (an owned result). */
static int make_function(void* handle, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  TVMFFIObjectHandle f = NULL;
  if (TVMFFIFunctionCreate(NULL, sum_ints, NULL, &f) != 0) return -1;
  *result = tether_any_object(f);
  return 0;
}

static int leave_result_alone(void* handle, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  return 0;
}

static int raise_value_error(void* handle, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  return tether_raise("ValueError", "raise_value_error: always fails (%d args)", (int)n);
}

/* ---- creation forms ------------------------------------------------------------------------- */

static void test_create_bare_form_receives_function_handle(void) {
  TVMFFIObjectHandle f = NULL;
  CHECK_OK(TVMFFIFunctionCreate(NULL, record_handle, NULL, &f));
  CHECK(f != NULL);
  CHECK_EQ_INT(type_of(f), kTVMFFIFunction);
  const TVMFFIFunctionCell* cell = (const TVMFFIFunctionCell*)((char*)f + sizeof(TVMFFIObject));
  CHECK(cell->safe_call == record_handle); /* stored as is (spec design note 5) */
  CHECK(cell->cpp_call == NULL);
  CHECK_EQ_INT(tether_object_use_count(f), 1);
  TVMFFIAny result = tether_any_none();
  seen_handle = NULL;
  CHECK_OK(TVMFFIFunctionCall(f, NULL, 0, &result));
  CHECK(seen_handle == f);
  CHECK_EQ_INT(result.type_index, kTVMFFIInt);
  TVMFFIObjectDecRef(f);
}

static void test_create_with_self_receives_self_and_deleter_runs_once(void) {
  int token = 0;
  TVMFFIObjectHandle f = NULL;
  deleter_calls = 0;
  deleter_arg = NULL;
  CHECK_OK(TVMFFIFunctionCreate(&token, record_handle, count_deleter, &f));
  const TVMFFIFunctionCell* cell = (const TVMFFIFunctionCell*)((char*)f + sizeof(TVMFFIObject));
  CHECK(cell->cpp_call == NULL);
  TVMFFIAny result = tether_any_none();
  CHECK_OK(TVMFFIFunctionCall(f, NULL, 0, &result));
  CHECK(seen_handle == &token);
  TVMFFIObjectIncRef(f);
  TVMFFIObjectIncRef(f);
  CHECK_EQ_INT(tether_object_use_count(f), 3);
  TVMFFIObjectDecRef(f);
  TVMFFIObjectDecRef(f);
  CHECK_EQ_INT(deleter_calls, 0);
  TVMFFIObjectDecRef(f);
  CHECK_EQ_INT(deleter_calls, 1);
  CHECK(deleter_arg == &token);
}

static void test_create_self_without_deleter_and_deleter_without_self(void) {
  int token = 0;
  TVMFFIObjectHandle f = NULL;
  CHECK_OK(TVMFFIFunctionCreate(&token, record_handle, NULL, &f));
  TVMFFIAny result = tether_any_none();
  CHECK_OK(TVMFFIFunctionCall(f, NULL, 0, &result));
  CHECK(seen_handle == &token);
  TVMFFIObjectDecRef(f);

  /* self NULL with a deleter: trampoline form, handle is NULL, deleter(NULL) runs once. */
  deleter_calls = 0;
  deleter_arg = &token;
  CHECK_OK(TVMFFIFunctionCreate(NULL, record_handle, count_deleter, &f));
  seen_handle = &token;
  CHECK_OK(TVMFFIFunctionCall(f, NULL, 0, &result));
  CHECK(seen_handle == NULL);
  TVMFFIObjectDecRef(f);
  CHECK_EQ_INT(deleter_calls, 1);
  CHECK(deleter_arg == NULL);
}

static void test_create_bad_arguments(void) {
  TVMFFIObjectHandle f = (TVMFFIObjectHandle)&f;
  CHECK_RAISED(TVMFFIFunctionCreate(NULL, NULL, NULL, &f), "ValueError", "`safe_call`");
  CHECK(f == NULL);
  CHECK_RAISED(TVMFFIFunctionCreate(NULL, sum_ints, NULL, NULL), "ValueError", "`out`");
  TVMFFIAny result = tether_any_none();
  CHECK_RAISED(TVMFFIFunctionCall(NULL, NULL, 0, &result), "ValueError", "`func`");
}

/* ---- tether's flags ------------------------------------------------------------------------- */

/* A Function laid out by another library (as C++ headers do): header and cell, then bytes
 * that are not tether's flags. */
static struct {
  TVMFFIObject header;
  TVMFFIFunctionCell cell;
  uint32_t not_flags;
} foreign_function = {{0, kTVMFFIFunction, 0, {NULL}}, {sum_ints, NULL}, TETHER_FUNC_KEEPS_GIL};

static void test_flags_stored_with_the_function(void) {
  TVMFFIObjectHandle f = NULL;
  CHECK_OK(tether_func_create(NULL, sum_ints, NULL, TETHER_FUNC_KEEPS_GIL, &f));
  CHECK_EQ_INT(tether_func_flags(f), TETHER_FUNC_KEEPS_GIL);
  TVMFFIAny args[2] = {tether_any_int(2), tether_any_int(3)}, result = tether_any_none();
  CHECK_OK(TVMFFIFunctionCall(f, args, 2, &result));
  CHECK_EQ_INT(result.v_int64, 5);
  TVMFFIObjectDecRef(f);

  /* the closure form keeps them too, and its deleter still runs once */
  int token = 0;
  deleter_calls = 0;
  CHECK_OK(tether_func_create(&token, record_handle, count_deleter, TETHER_FUNC_KEEPS_GIL, &f));
  CHECK_EQ_INT(tether_func_flags(f), TETHER_FUNC_KEEPS_GIL);
  CHECK_OK(TVMFFIFunctionCall(f, NULL, 0, &result));
  CHECK(seen_handle == &token);
  TVMFFIObjectDecRef(f);
  CHECK_EQ_INT(deleter_calls, 1);

  /* no flags: TVMFFIFunctionCreate, flags 0 */
  CHECK_OK(TVMFFIFunctionCreate(NULL, sum_ints, NULL, &f));
  CHECK_EQ_INT(tether_func_flags(f), 0);
  TVMFFIObjectDecRef(f);
  CHECK_OK(tether_func_create(&token, record_handle, NULL, 0, &f));
  CHECK_EQ_INT(tether_func_flags(f), 0);
  TVMFFIObjectDecRef(f);

  /* not a function tether made: 0 */
  CHECK_EQ_INT(tether_func_flags(NULL), 0);
  CHECK_EQ_INT(tether_func_flags(&foreign_function.header), 0);
  TVMFFIAny str = tether_any_none();
  CHECK_OK(tether_any_str("a string object", 15, &str));
  CHECK_EQ_INT(tether_func_flags(str.v_obj), 0);
  tether_any_release(&str);
}

static void test_flags_bad_input(void) {
  TVMFFIObjectHandle f = (TVMFFIObjectHandle)&f;
  CHECK_RAISED(tether_func_create(NULL, sum_ints, NULL, 1u << 5, &f), "ValueError",
               "tether_func_create: argument `flags` has unknown bits 0x20");
  CHECK(f == NULL);
  CHECK_RAISED(tether_func_create(NULL, NULL, NULL, 0, &f), "ValueError", "`safe_call`");
  CHECK_RAISED(tether_func_create(NULL, sum_ints, NULL, 0, NULL), "ValueError", "`out`");
  CHECK_RAISED(tether_func_register_flags("test.function.bad_flags", sum_ints, NULL, NULL,
                                          TETHER_FUNC_KEEPS_GIL | 2u, 1),
               "ValueError", "tether_func_register_flags: argument `flags` of "
               "`test.function.bad_flags` has unknown bits 0x2");
  CHECK_RAISED(tether_func_register_flags(NULL, sum_ints, NULL, NULL, 0, 1), "ValueError",
               "tether_func_register_flags: argument `name`");
  TVMFFIByteArray name = {"test.function.bad_flags", 23};
  TVMFFIObjectHandle missing = NULL;
  CHECK_OK(TVMFFIFunctionGetGlobal(&name, &missing));
  CHECK(missing == NULL);
}

static void test_flags_through_the_registry(void) {
  CHECK_OK(tether_func_register_flags("test.function.keeps", sum_ints, "doc", NULL,
                                      TETHER_FUNC_KEEPS_GIL, 1));
  CHECK_OK(tether_func_register("test.function.plain", sum_ints, NULL, NULL, 1));
  static const struct {
    const char* name;
    uint32_t flags;
  } cases[] = {
      {"test.function.keeps", TETHER_FUNC_KEEPS_GIL},
      {"test.function.plain", 0},
      {"ffi.Array", TETHER_FUNC_KEEPS_GIL},  /* container globals keep the GIL */
      {"ffi.String", TETHER_FUNC_KEEPS_GIL},
      {"ffi.GetRegisteredTypeKeys", TETHER_FUNC_KEEPS_GIL},
      {"ffi.MakeObjectFromPackedArgs", 0},  /* runs a type's __ffi_init__: anyone's code */
      {"ffi.FunctionRemoveGlobal", 0},
      {"ffi.ModuleLoadFromFile", 0},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    TVMFFIObjectHandle f = tether_func_get(cases[i].name);
    CHECK(f != NULL);
    CHECK_EQ_INT(tether_func_flags(f), cases[i].flags);
    TVMFFIObjectDecRef(f);
  }
  TVMFFIObjectHandle remove = tether_func_get("ffi.FunctionRemoveGlobal");
  CHECK(remove != NULL);
  for (size_t i = 0; i < 2; ++i) {
    TVMFFIAny name = tether_any_raw_str(cases[i].name), removed = tether_any_none();
    CHECK_OK(tether_func_call(remove, &name, 1, &removed));
    CHECK(removed.type_index == kTVMFFIBool && removed.v_int64 == 1);
  }
  TVMFFIObjectDecRef(remove);
}

/* ---- calls ---------------------------------------------------------------------------------- */

static void test_call_with_0_to_n_args(void) {
  TVMFFIObjectHandle f = NULL;
  CHECK_OK(TVMFFIFunctionCreate(NULL, sum_ints, NULL, &f));
  TVMFFIAny args[16];
  for (int32_t n = 0; n <= 16; ++n) {
    int64_t expected = 0;
    for (int32_t i = 0; i < n; ++i) {
      args[i] = tether_any_int(i * 10 + 1);
      expected += i * 10 + 1;
    }
    TVMFFIAny result = tether_any_none();
    CHECK_OK(TVMFFIFunctionCall(f, args, n, &result));
    CHECK_EQ_INT(result.type_index, kTVMFFIInt);
    CHECK_EQ_INT(result.v_int64, expected);
  }
  /* Bools count as ints. */
  args[0] = tether_any_bool(true);
  args[1] = tether_any_int(41);
  TVMFFIAny result = tether_any_none();
  CHECK_OK(TVMFFIFunctionCall(f, args, 2, &result));
  CHECK_EQ_INT(result.v_int64, 42);
  TVMFFIObjectDecRef(f);
}

static void test_call_result_is_owned_by_caller(void) {
  TVMFFIObjectHandle maker = NULL;
  CHECK_OK(TVMFFIFunctionCreate(NULL, make_function, NULL, &maker));
  int64_t live = tether_object_live_count();
  TVMFFIAny result = tether_any_none();
  CHECK_OK(TVMFFIFunctionCall(maker, NULL, 0, &result));
  CHECK_EQ_INT(result.type_index, kTVMFFIFunction);
  CHECK_EQ_INT(tether_object_live_count(), live + 1);
  CHECK_EQ_INT(tether_object_use_count(result.v_obj), 1);
  /* The returned function works, and releasing the Any frees it. */
  TVMFFIAny args[2] = {tether_any_int(2), tether_any_int(3)};
  TVMFFIAny inner = tether_any_none();
  CHECK_OK(TVMFFIFunctionCall(result.v_obj, args, 2, &inner));
  CHECK_EQ_INT(inner.v_int64, 5);
  tether_any_release(&result);
  CHECK_EQ_INT(result.type_index, kTVMFFINone);
  CHECK_EQ_INT(tether_object_live_count(), live);
  TVMFFIObjectDecRef(maker);
}

static void test_tether_func_call_presets_none(void) {
  TVMFFIObjectHandle f = NULL;
  CHECK_OK(TVMFFIFunctionCreate(NULL, leave_result_alone, NULL, &f));
  TVMFFIAny result = tether_any_int(99);
  CHECK_OK(tether_func_call(f, NULL, 0, &result));
  CHECK_EQ_INT(result.type_index, kTVMFFINone);
  CHECK_EQ_INT(result.v_int64, 0);
  CHECK_RAISED(tether_func_call(f, NULL, 0, NULL), "ValueError", "`result`");
  TVMFFIObjectDecRef(f);
}

static void test_call_error_propagates(void) {
  TVMFFIObjectHandle f = NULL;
  CHECK_OK(TVMFFIFunctionCreate(NULL, raise_value_error, NULL, &f));
  TVMFFIAny result = tether_any_none();
  CHECK_RAISED(TVMFFIFunctionCall(f, NULL, 3, &result), "ValueError",
               "raise_value_error: always fails (3 args)");
  CHECK_EQ_INT(result.type_index, kTVMFFINone);
  TVMFFIObjectDecRef(f);
}

static void test_func_get(void) {
  TVMFFIObjectHandle f = tether_func_get("ffi.FunctionRemoveGlobal");
  CHECK(f != NULL);
  if (f != NULL) {
    CHECK_EQ_INT(type_of(f), kTVMFFIFunction);
    CHECK(tether_object_use_count(f) >= 2); /* ours + the registry's */
    TVMFFIObjectDecRef(f);
  }
  CHECK(tether_func_get("no.such.function") == NULL);
  CHECK_RAISED(-1, "RuntimeError", "`no.such.function` is not registered");
  CHECK(tether_func_get(NULL) == NULL);
  CHECK_RAISED(-1, "ValueError", "`name`");
}

/* ---- argument helpers ----------------------------------------------------------------------- */

#define SIG "f(0: int) -> int"

static void test_check_nargs_text(void) {
  CHECK_OK(tether_check_nargs("f", "(0: int) -> int", 1, 1));
  /* Reference: "Mismatched number of arguments when calling: `ffi.FunctionRemoveGlobal(0: str)
   * -> bool`. Expected 1 but got 0 arguments". */
  CHECK_RAISED(tether_check_nargs("ffi.FunctionRemoveGlobal", "(0: str) -> bool", 0, 1),
               "TypeError",
               "Mismatched number of arguments when calling: `ffi.FunctionRemoveGlobal(0: str) -> "
               "bool`. Expected 1 but got 0 arguments");
  /* The full signature may be given as fname instead. */
  CHECK_RAISED(tether_check_nargs("ffi.FunctionRemoveGlobal(0: str) -> bool", NULL, 2, 1),
               "TypeError",
               "Mismatched number of arguments when calling: `ffi.FunctionRemoveGlobal(0: str) -> "
               "bool`. Expected 1 but got 2 arguments");
  CHECK_RAISED(tether_check_nargs("ffi.GetInvalidObject() -> ffi.Object", "ignored", 1, 0),
               "TypeError",
               "`ffi.GetInvalidObject() -> ffi.Object`. Expected 0 but got 1 arguments");
}

static void test_arg_int(void) {
  TVMFFIAny args[4] = {tether_any_int(-7), tether_any_bool(true), tether_any_float(1.5),
                       tether_any_none()};
  int64_t x = 0;
  CHECK_OK(tether_arg_int(SIG, args, 0, &x));
  CHECK_EQ_INT(x, -7);
  CHECK_OK(tether_arg_int(SIG, args, 1, &x));
  CHECK_EQ_INT(x, 1);
  CHECK_RAISED(tether_arg_int(SIG, args, 2, &x), "TypeError",
               "Mismatched type on argument #2 when calling: `f(0: int) -> int`. Expected `int` "
               "but got `float`");
  CHECK_RAISED(tether_arg_int(SIG, args, 3, &x), "TypeError",
               "Mismatched type on argument #3 when calling: `f(0: int) -> int`. Expected `int` "
               "but got `None`");
  TVMFFIAny s = tether_any_raw_str("x");
  CHECK_RAISED(tether_arg_int(SIG, &s, 0, &x), "TypeError", "Expected `int` but got `const char*`");
}

static void test_arg_bool(void) {
  TVMFFIAny args[4] = {tether_any_bool(false), tether_any_int(5), tether_any_float(1.0),
                       tether_any_raw_str("true")};
  bool b = true;
  CHECK_OK(tether_arg_bool(SIG, args, 0, &b));
  CHECK(!b);
  CHECK_OK(tether_arg_bool(SIG, args, 1, &b));
  CHECK(b);
  CHECK_RAISED(tether_arg_bool(SIG, args, 2, &b), "TypeError",
               "#2 when calling: `f(0: int) -> int`. Expected `bool` but got `float`");
  CHECK_RAISED(tether_arg_bool(SIG, args, 3, &b), "TypeError", "Expected `bool` but got");
}

static void test_arg_float(void) {
  TVMFFIAny args[4] = {tether_any_float(2.5), tether_any_int(3), tether_any_bool(true),
                       tether_any_ptr(NULL)};
  double d = 0;
  CHECK_OK(tether_arg_float(SIG, args, 0, &d));
  CHECK(d == 2.5);
  CHECK_OK(tether_arg_float(SIG, args, 1, &d));
  CHECK(d == 3.0);
  CHECK_OK(tether_arg_float(SIG, args, 2, &d));
  CHECK(d == 1.0);
  CHECK_RAISED(tether_arg_float(SIG, args, 3, &d), "TypeError",
               "Expected `float` but got `void*`");
}

static void test_arg_str(void) {
  TVMFFIAny args[4];
  args[0] = tether_any_raw_str("raw string");
  CHECK_OK(TVMFFIStringFromByteArray(&(TVMFFIByteArray){"small", 5}, &args[1]));
  CHECK_OK(TVMFFIStringFromByteArray(&(TVMFFIByteArray){"a heap string", 13}, &args[2]));
  args[3] = tether_any_int(1);
  CHECK_EQ_INT(args[1].type_index, kTVMFFISmallStr);
  CHECK_EQ_INT(args[2].type_index, kTVMFFIStr);
  TVMFFIByteArray s;
  CHECK_OK(tether_arg_str(SIG, args, 0, &s));
  CHECK_BYTES(s, "raw string");
  CHECK_OK(tether_arg_str(SIG, args, 1, &s));
  CHECK_BYTES(s, "small");
  CHECK_OK(tether_arg_str(SIG, args, 2, &s));
  CHECK_BYTES(s, "a heap string");
  /* Reference: "Mismatched type on argument #0 when calling: `ffi.FunctionRemoveGlobal(0: str)
   * -> bool`. Expected `str` but got `int`". */
  CHECK_RAISED(tether_arg_str("ffi.FunctionRemoveGlobal(0: str) -> bool", args, 3, &s), "TypeError",
               "Mismatched type on argument #3 when calling: `ffi.FunctionRemoveGlobal(0: str) -> "
               "bool`. Expected `str` but got `int`");
  TVMFFIAny bytes;
  CHECK_OK(TVMFFIBytesFromByteArray(&(TVMFFIByteArray){"b", 1}, &bytes));
  CHECK_RAISED(tether_arg_str(SIG, &bytes, 0, &s), "TypeError",
               "Expected `str` but got `ffi.SmallBytes`");
  tether_any_release(&args[1]);
  tether_any_release(&args[2]);
}

static void test_arg_object(void) {
  TVMFFIObjectHandle f = NULL;
  CHECK_OK(TVMFFIFunctionCreate(NULL, sum_ints, NULL, &f));
  TVMFFIAny args[3] = {tether_any_object(f), tether_any_int(1), tether_any_none()};
  TVMFFIObject* obj = NULL;
  CHECK_OK(tether_arg_object(SIG, args, 0, kTVMFFIFunction, &obj));
  CHECK(obj == f);
  obj = NULL;
  CHECK_OK(tether_arg_object(SIG, args, 0, kTVMFFIObject, &obj));
  CHECK(obj == f);
  CHECK_RAISED(tether_arg_object(SIG, args, 0, kTVMFFIArray, &obj), "TypeError",
               "Expected `ffi.Array` but got `ffi.Function`");
  CHECK_RAISED(tether_arg_object(SIG, args, 1, kTVMFFIFunction, &obj), "TypeError",
               "Mismatched type on argument #1 when calling: `f(0: int) -> int`. Expected "
               "`ffi.Function` but got `int`");
  CHECK_RAISED(tether_arg_object(SIG, args, 2, kTVMFFIObject, &obj), "TypeError",
               "Expected `ffi.Object` but got `None`");
  TVMFFIObjectDecRef(f);
}

/* A C function using the helpers end to end, as registered globals do. */
static int typed_fn(void* handle, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  int64_t a;
  double b;
  if (tether_check_nargs("typed", "(0: int, 1: float) -> float", n, 2) != 0) return -1;
  if (tether_arg_int("typed(0: int, 1: float) -> float", args, 0, &a) != 0) return -1;
  if (tether_arg_float("typed(0: int, 1: float) -> float", args, 1, &b) != 0) return -1;
  *result = tether_any_float((double)a * b);
  return 0;
}

static void test_typed_function_errors_through_call(void) {
  TVMFFIObjectHandle f = NULL;
  CHECK_OK(TVMFFIFunctionCreate(NULL, typed_fn, NULL, &f));
  TVMFFIAny args[2] = {tether_any_int(4), tether_any_float(0.5)};
  TVMFFIAny result = tether_any_none();
  CHECK_OK(tether_func_call(f, args, 2, &result));
  CHECK(result.type_index == kTVMFFIFloat && result.v_float64 == 2.0);
  CHECK_RAISED(tether_func_call(f, args, 1, &result), "TypeError",
               "Mismatched number of arguments when calling: `typed(0: int, 1: float) -> float`. "
               "Expected 2 but got 1 arguments");
  args[1] = tether_any_raw_str("x");
  CHECK_RAISED(tether_func_call(f, args, 2, &result), "TypeError",
               "Mismatched type on argument #1 when calling: `typed(0: int, 1: float) -> float`. "
               "Expected `float` but got `const char*`");
  TVMFFIObjectDecRef(f);
}

TEST_MAIN(TEST_CASE(test_create_bare_form_receives_function_handle),
          TEST_CASE(test_create_with_self_receives_self_and_deleter_runs_once),
          TEST_CASE(test_create_self_without_deleter_and_deleter_without_self),
          TEST_CASE(test_create_bad_arguments), TEST_CASE(test_flags_stored_with_the_function),
          TEST_CASE(test_flags_bad_input), TEST_CASE(test_flags_through_the_registry),
          TEST_CASE(test_call_with_0_to_n_args),
          TEST_CASE(test_call_result_is_owned_by_caller),
          TEST_CASE(test_tether_func_call_presets_none), TEST_CASE(test_call_error_propagates),
          TEST_CASE(test_func_get), TEST_CASE(test_check_nargs_text), TEST_CASE(test_arg_int),
          TEST_CASE(test_arg_bool), TEST_CASE(test_arg_float), TEST_CASE(test_arg_str),
          TEST_CASE(test_arg_object), TEST_CASE(test_typed_function_errors_through_call))
