/*
 * testing.c -- libtether_testing: the `testing.*` global functions and reflected test
 * types that bindings drive in their tests (shared/spec/python_api.md section 7).
 *
 * Written purely against tether's public headers, like any third-party library: it
 * registers its globals and types from a load-time constructor.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tether/c_api.h>
#include <tether/reflection.h>
#include <tether/tether.h>

#include "testing.h"

#define TESTING_API __attribute__((visibility("default")))

/* ---- reflected test types ------------------------------------------------------------- */

typedef struct {
  TVMFFIObject header;
  int64_t a;
  int64_t b;
} testing_int_pair_t;

typedef struct {
  TVMFFIObject header;
  int64_t v_i64;
  double v_f64;
  TVMFFIAny v_str;
} testing_object_base_t;

typedef struct {
  testing_object_base_t base;
  TVMFFIObject* v_map;
  TVMFFIObject* v_array;
} testing_object_derived_t;

typedef struct {
  TVMFFIObject header;
  int64_t v1;
} testing_unregistered_base_t;

typedef struct {
  testing_unregistered_base_t base;
  int64_t v2;
} testing_unregistered_t;

static int32_t testing_int_pair_index;
static int32_t testing_object_base_index;
static int32_t testing_object_derived_index;
static int32_t testing_unregistered_base_index;
static int32_t testing_unregistered_index;

/* ---- global functions ------------------------------------------------------------------ */

static int testing_nop(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  return 0;
}

static int testing_echo(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  if (n < 1) return tether_raise("TypeError", "testing.echo: expects at least 1 argument, got 0");
  return TVMFFIAnyViewToOwnedAny(&args[0], result);
}

/* testing.apply(f, *args) -> f(*args).  Exported under this name (and never inlined) so that
 * C backtraces passing through it show a "TestApply" frame. */
TESTING_API __attribute__((noinline)) int TestApply(void* self, const TVMFFIAny* args, int32_t n,
                                                    TVMFFIAny* result);
TESTING_API __attribute__((noinline)) int TestApply(void* self, const TVMFFIAny* args, int32_t n,
                                                    TVMFFIAny* result) {
  TVMFFIObject* f = NULL;
  if (n < 1) return tether_raise("TypeError", "testing.apply: expects a function and its arguments, got 0 arguments");
  if (tether_arg_object("testing.apply", args, 0, kTVMFFIFunction, &f) != 0) return -1;
  int rc = TVMFFIFunctionCall(f, (TVMFFIAny*)args + 1, n - 1, result);
  __asm__ volatile("" ::: "memory"); /* not a tail call: this frame stays on the stack */
  return rc;
}

static int testing_add_one(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  int64_t x;
  if (tether_check_nargs("testing.add_one", "(0: int) -> int", n, 1) != 0 ||
      tether_arg_int("testing.add_one", args, 0, &x) != 0) {
    return -1;
  }
  *result = tether_any_int(x + 1);
  return 0;
}

/* Named so that the first backtrace frame of the error it raises reads "TestRaiseError". */
static int TestRaiseError(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  TVMFFIByteArray kind, msg;
  if (tether_check_nargs("testing.test_raise_error",
                         "(0: str, 1: str) -> None", n, 2) != 0 ||
      tether_arg_str("testing.test_raise_error", args, 0, &kind) != 0 ||
      tether_arg_str("testing.test_raise_error", args, 1, &msg) != 0) {
    return -1;
  }
  char kind_buf[128];
  snprintf(kind_buf, sizeof(kind_buf), "%.*s", (int)kind.size, kind.data);
  return tether_raise(kind_buf, "%.*s", (int)msg.size, msg.data);
}

static int testing_object_use_count(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  TVMFFIObject* obj = NULL;
  if (tether_check_nargs("testing.object_use_count", "(0: ffi.Object) -> int", n, 1) != 0 ||
      tether_arg_object("testing.object_use_count", args, 0, kTVMFFIObject, &obj) != 0) {
    return -1;
  }
  *result = tether_any_int(tether_object_use_count(obj));
  return 0;
}

static int testing_make_unregistered_object(void* self, const TVMFFIAny* args, int32_t n,
                                            TVMFFIAny* result) {
  TVMFFIObjectHandle obj = NULL;
  if (tether_object_new_reflected(testing_unregistered_index, &obj) != 0) return -1;
  ((testing_unregistered_t*)obj)->base.v1 = 41;
  ((testing_unregistered_t*)obj)->v2 = 42;
  *result = tether_any_object(obj);
  return 0;
}

/* A SafeCall add-one whose address testing.get_add_one_c_symbol hands out. */
static int testing_add_one_c(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  return testing_add_one(self, args, n, result);
}

static int testing_get_add_one_c_symbol(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  *result = tether_any_int((int64_t)(intptr_t)&testing_add_one_c);
  return 0;
}

/* testing_add_one_c in the MLIR packed calling convention: one array of pointers to the
 * handle, the argument array, the argument count, the result slot and the return code. */
static void testing_mlir_add_one_c(void** packed) {
  void* handle = *(void**)packed[0];
  const TVMFFIAny* args = *(const TVMFFIAny**)packed[1];
  int32_t n = *(int32_t*)packed[2];
  TVMFFIAny* result = *(TVMFFIAny**)packed[3];
  *(int*)packed[4] = testing_add_one_c(handle, args, n, result);
}

static int testing_get_mlir_add_one_c_symbol(void* self, const TVMFFIAny* args, int32_t n,
                                             TVMFFIAny* result) {
  *result = tether_any_int((int64_t)(intptr_t)&testing_mlir_add_one_c);
  return 0;
}

/* optional_tensor_view_has_value(t: Optional[Tensor]) -> bool */
static int testing_optional_tensor_view_has_value(void* self, const TVMFFIAny* args, int32_t n,
                                                  TVMFFIAny* result) {
  static const char fn[] = "testing.optional_tensor_view_has_value";
  if (tether_check_nargs(fn, "(0: Optional<ffi.Tensor>) -> bool", n, 1) != 0) return -1;
  int32_t t = args[0].type_index;
  if (t != kTVMFFINone && t != kTVMFFITensor && t != kTVMFFIDLTensorPtr) {
    return tether_raise("TypeError", "%s: argument 0 must be a Tensor or None, got `%s`", fn,
                        tether_any_type_key(&args[0]));
  }
  *result = tether_any_bool(t != kTVMFFINone);
  return 0;
}

/* Sleeps `nsec` one-second steps, checking for signals after each. */
static int testing_run_check_signal(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  int64_t nsec;
  if (tether_check_nargs("testing.run_check_signal", "(0: int) -> None", n, 1) != 0 ||
      tether_arg_int("testing.run_check_signal", args, 0, &nsec) != 0) {
    return -1;
  }
  for (int64_t i = 0; i < nsec; ++i) {
    sleep(1);
    if (TVMFFIEnvCheckSignals() != 0) {
      TVMFFIErrorSetRaisedFromCStr("EnvErrorAlreadySet", "");
      return -1;
    }
  }
  return 0;
}

/*
 * testing.run_callback_in_threads(callback, num_threads, calls_per_thread) -> int: a kernel
 * with a thread pool of its own.  Starts `num_threads` pthreads; thread t calls
 * callback(t, i) for i in [0, calls_per_thread), stopping at its first error, and adds up
 * the int results.  Joins every thread, then returns the sum over all calls, or raises
 * (on the calling thread) the error of the lowest-numbered thread that failed.
 */
enum { TESTING_MAX_THREADS = 64 };

typedef struct {
  TVMFFIObject* callback; /* borrowed from the caller's argument */
  int64_t thread_index;
  int64_t calls;
  int64_t sum;
  TVMFFIObjectHandle error; /* owned; NULL unless a call failed */
} testing_worker_t;

static void* testing_worker_main(void* arg) {
  testing_worker_t* w = arg;
  for (int64_t i = 0; i < w->calls; ++i) {
    TVMFFIAny argv[2] = {tether_any_int(w->thread_index), tether_any_int(i)};
    TVMFFIAny out = tether_any_none();
    if (TVMFFIFunctionCall(w->callback, argv, 2, &out) != 0) {
      TVMFFIErrorMoveFromRaised(&w->error);
      return NULL;
    }
    if (out.type_index == kTVMFFIInt) {
      w->sum += out.v_int64;
    } else if (out.type_index != kTVMFFINone) {
      tether_raise("TypeError", "testing.run_callback_in_threads: the callback returned %s, "
                   "expected int or None", tether_any_type_key(&out));
      tether_any_release(&out);
      TVMFFIErrorMoveFromRaised(&w->error);
      return NULL;
    }
  }
  return NULL;
}

static int testing_run_callback_in_threads(void* self, const TVMFFIAny* args, int32_t n,
                                           TVMFFIAny* result) {
  static const char fn[] = "testing.run_callback_in_threads";
  TVMFFIObject* callback = NULL;
  int64_t num_threads, calls;
  if (tether_check_nargs(fn, "(0: ffi.Function, 1: int, 2: int) -> int", n, 3) != 0 ||
      tether_arg_object(fn, args, 0, kTVMFFIFunction, &callback) != 0 ||
      tether_arg_int(fn, args, 1, &num_threads) != 0 || tether_arg_int(fn, args, 2, &calls) != 0) {
    return -1;
  }
  if (num_threads < 0 || num_threads > TESTING_MAX_THREADS || calls < 0) {
    return tether_raise("ValueError", "%s: expected 0 <= num_threads <= %d and calls_per_thread "
                        ">= 0, got %" PRId64 " and %" PRId64, fn, TESTING_MAX_THREADS,
                        num_threads, calls);
  }
  testing_worker_t workers[TESTING_MAX_THREADS];
  pthread_t threads[TESTING_MAX_THREADS];
  int64_t started = 0;
  int create_rc = 0;
  for (; started < num_threads; ++started) {
    workers[started] = (testing_worker_t){callback, started, calls, 0, NULL};
    create_rc = pthread_create(&threads[started], NULL, testing_worker_main, &workers[started]);
    if (create_rc != 0) break;
  }
  int64_t sum = 0;
  TVMFFIObjectHandle first_error = NULL;
  for (int64_t t = 0; t < started; ++t) {
    pthread_join(threads[t], NULL);
    sum += workers[t].sum;
    if (first_error == NULL) {
      first_error = workers[t].error;
    } else if (workers[t].error != NULL) {
      TVMFFIObjectDecRef(workers[t].error);
    }
  }
  if (first_error != NULL) {
    TVMFFIErrorSetRaised(first_error);
    TVMFFIObjectDecRef(first_error);
    return -1;
  }
  if (create_rc != 0) {
    return tether_raise("RuntimeError", "%s: pthread_create failed for thread %" PRId64 " (%s)",
                        fn, started, strerror(create_rc));
  }
  *result = tether_any_int(sum);
  return 0;
}

/* Calls global `name` with views `items`. */
static int testing_call_global(const char* name, TVMFFIAny* items, int32_t n, TVMFFIAny* result) {
  TVMFFIObjectHandle f = tether_func_get(name);
  if (f == NULL) return -1;
  int rc = tether_func_call(f, items, n, result);
  TVMFFIObjectDecRef(f);
  return rc;
}

static int testing_make_array_with_tensor(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  if (tether_check_nargs("testing.make_array_with_tensor", "(0: ffi.Tensor) -> ffi.Array", n, 1) != 0) return -1;
  return testing_call_global("ffi.Array", (TVMFFIAny*)args, 1, result);
}

static int testing_make_array_with_mixed(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  if (tether_check_nargs("testing.make_array_with_mixed", "(0: ffi.Tensor, 1: Any) -> ffi.Array", n, 2) != 0) return -1;
  TVMFFIAny items[3] = {args[0], args[1], tether_any_raw_str("hello")};
  return testing_call_global("ffi.Array", items, 3, result);
}

static int testing_make_nested_array_with_tensor(void* self, const TVMFFIAny* args, int32_t n,
                                                 TVMFFIAny* result) {
  if (tether_check_nargs("testing.make_nested_array_with_tensor", "(0: ffi.Tensor) -> ffi.Array", n, 1) != 0) return -1;
  TVMFFIAny inner_items[2] = {args[0], tether_any_int(42)};
  TVMFFIAny inner = tether_any_none();
  if (testing_call_global("ffi.Array", inner_items, 2, &inner) != 0) return -1;
  TVMFFIAny outer[2] = {inner, args[0]};
  int rc = testing_call_global("ffi.Array", outer, 2, result);
  tether_any_release(&inner);
  return rc;
}

static int testing_make_list_with_tensor(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  if (tether_check_nargs("testing.make_list_with_tensor", "(0: ffi.Tensor, 1: Any) -> ffi.List", n, 2) != 0) return -1;
  return testing_call_global("ffi.List", (TVMFFIAny*)args, 2, result);
}

static int testing_make_map_with_tensor(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  if (tether_check_nargs("testing.make_map_with_tensor", "(0: ffi.Tensor) -> ffi.Map", n, 1) != 0) return -1;
  TVMFFIAny kv[6] = {tether_any_raw_str("tensor"), args[0], tether_any_raw_str("value"),
                     tether_any_int(42), tether_any_raw_str("name"), tether_any_raw_str("test")};
  return testing_call_global("ffi.Map", kv, 6, result);
}

static int testing_make_dict_with_tensor(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  if (tether_check_nargs("testing.make_dict_with_tensor", "(0: ffi.Tensor) -> ffi.Dict", n, 1) != 0) return -1;
  TVMFFIAny kv[4] = {tether_any_raw_str("tensor"), args[0], tether_any_raw_str("value"),
                     tether_any_int(42)};
  return testing_call_global("ffi.Dict", kv, 4, result);
}

static int testing_make_empty_array_with_tensor_input(void* self, const TVMFFIAny* args, int32_t n,
                                                      TVMFFIAny* result) {
  if (tether_check_nargs("testing.make_empty_array_with_tensor_input", "(0: ffi.Tensor) -> ffi.Array", n, 1) != 0) return -1;
  return testing_call_global("ffi.Array", NULL, 0, result);
}

static int testing_make_nested_map_with_tensor(void* self, const TVMFFIAny* args, int32_t n,
                                               TVMFFIAny* result) {
  if (tether_check_nargs("testing.make_nested_map_with_tensor", "(0: ffi.Tensor, 1: ffi.Tensor) -> ffi.Map", n, 2) != 0) return -1;
  TVMFFIAny arr = tether_any_none(), inner = tether_any_none();
  int rc = -1;
  TVMFFIAny inner_kv[2] = {tether_any_raw_str("t"), args[0]};
  if (testing_call_global("ffi.Array", (TVMFFIAny*)args, 2, &arr) != 0) goto done;
  if (testing_call_global("ffi.Map", inner_kv, 2, &inner) != 0) goto done;
  TVMFFIAny kv[6] = {tether_any_raw_str("array"), arr, tether_any_raw_str("map"), inner,
                     tether_any_raw_str("scalar"), tether_any_int(99)};
  rc = testing_call_global("ffi.Map", kv, 6, result);
done:
  tether_any_release(&arr);
  tether_any_release(&inner);
  return rc;
}

/* ---- methods of the test types ------------------------------------------------------------ */

static int testing_int_pair_init(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  static const char* fname = "testing.TestIntPair.__ffi_init__";
  static const char* sig = "(0: int, 1: int) -> ffi.Object";
  int64_t a, b;
  TVMFFIObjectHandle obj = NULL;
  if (tether_check_nargs(fname, sig, n, 2) != 0 || tether_arg_int(fname, args, 0, &a) != 0 ||
      tether_arg_int(fname, args, 1, &b) != 0) {
    return -1;
  }
  if (tether_object_new_reflected(testing_int_pair_index, &obj) != 0) return -1;
  ((testing_int_pair_t*)obj)->a = a;
  ((testing_int_pair_t*)obj)->b = b;
  *result = tether_any_object(obj);
  return 0;
}

static int testing_int_pair_sum(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  TVMFFIObject* obj = NULL;
  if (tether_check_nargs("testing.TestIntPair.sum", "(0: testing.TestIntPair) -> int", n, 1) != 0 ||
      tether_arg_object("testing.TestIntPair.sum", args, 0, testing_int_pair_index, &obj) != 0) {
    return -1;
  }
  const testing_int_pair_t* p = (const testing_int_pair_t*)obj;
  *result = tether_any_int(p->a + p->b);
  return 0;
}

static int testing_object_base_add_i64(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  static const char* fname = "testing.TestObjectBase.add_i64";
  TVMFFIObject* obj = NULL;
  int64_t x;
  if (tether_check_nargs(fname, "testing.TestObjectBase.add_i64(0: testing.TestObjectBase, 1: int) -> int", n, 2) != 0 ||
      tether_arg_object(fname, args, 0, testing_object_base_index, &obj) != 0 ||
      tether_arg_int(fname, args, 1, &x) != 0) {
    return -1;
  }
  *result = tether_any_int(((testing_object_base_t*)obj)->v_i64 + x);
  return 0;
}

static int testing_unregistered_v1_plus_one(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  TVMFFIObject* obj = NULL;
  if (tether_check_nargs("testing.TestUnregisteredBaseObject.get_v1_plus_one", "(0: testing.TestUnregisteredBaseObject) -> int", n, 1) != 0 ||
      tether_arg_object("testing.TestUnregisteredBaseObject.get_v1_plus_one", args, 0, testing_unregistered_base_index, &obj) != 0) {
    return -1;
  }
  *result = tether_any_int(((testing_unregistered_base_t*)obj)->v1 + 1);
  return 0;
}

static int testing_unregistered_v2_plus_two(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  TVMFFIObject* obj = NULL;
  if (tether_check_nargs("testing.TestUnregisteredObject.get_v2_plus_two", "(0: testing.TestUnregisteredObject) -> int", n, 1) != 0 ||
      tether_arg_object("testing.TestUnregisteredObject.get_v2_plus_two", args, 0, testing_unregistered_index, &obj) != 0) {
    return -1;
  }
  *result = tether_any_int(((testing_unregistered_t*)obj)->v2 + 2);
  return 0;
}

/* ---- registration -------------------------------------------------------------------------- */

int testing__init_as_method(int32_t type_index) {
  TVMFFIByteArray name = {"__ffi_init__", 12};
  const TVMFFITypeAttrColumn* col = TVMFFIGetTypeAttrColumn(&name);
  const TVMFFIAny* init = NULL;
  if (col != NULL && type_index >= col->begin_index && type_index - col->begin_index < col->size) {
    init = &col->data[type_index - col->begin_index];
  }
  if (init == NULL || init->type_index != kTVMFFIFunction) {
    return tether_raise("RuntimeError", "testing: type `%s` has no __ffi_init__ to expose",
                        tether_type_key(type_index));
  }
  TVMFFIMethodInfo info;
  memset(&info, 0, sizeof(info));
  info.name = name;
  info.doc = (TVMFFIByteArray){"Constructor", 11};
  info.metadata = (TVMFFIByteArray){"", 0};
  info.flags = kTVMFFIFieldFlagBitMaskIsStaticMethod;
  info.method = *init;
  return TVMFFITypeRegisterMethod(type_index, &info);
}

int32_t testing__alloc_type(const char* key, int32_t parent, int32_t child_slots) {
  const TVMFFITypeInfo* parent_info = TVMFFIGetTypeInfo(parent);
  TVMFFIByteArray k = {key, strlen(key)};
  bool final = child_slots == TESTING_FINAL;
  return TVMFFITypeGetOrAllocIndex(&k, -1, parent_info->type_depth + 1, final ? 0 : child_slots,
                                   final ? 0 : 1, parent);
}

static int testing_register_types(void) {
  TVMFFIAny d_i64 = tether_any_int(10), d_f64 = tether_any_float(10.0),
            d_str = tether_any_raw_str("hello");
  const int64_t rw = kTVMFFIFieldFlagBitMaskWritable;

  testing_int_pair_index = testing__alloc_type("testing.TestIntPair", kTVMFFIObject, TESTING_FINAL);
  testing_object_base_index = testing__alloc_type("testing.TestObjectBase", kTVMFFIObject, 1);
  testing_object_derived_index =
      testing__alloc_type("testing.TestObjectDerived", testing_object_base_index, TESTING_FINAL);
  testing_unregistered_base_index = testing__alloc_type("testing.TestUnregisteredBaseObject", kTVMFFIObject, 1);
  testing_unregistered_index = testing__alloc_type("testing.TestUnregisteredObject", testing_unregistered_base_index, 0);
  if (testing_int_pair_index < 0 || testing_object_base_index < 0 || testing_object_derived_index < 0 ||
      testing_unregistered_base_index < 0 || testing_unregistered_index < 0) {
    return -1;
  }

  const tether_field_def_t int_pair_fields[] = {
      {"a", TETHER_FIELD_INT64, offsetof(testing_int_pair_t, a), 0, 0, NULL, "Field `a`"},
      {"b", TETHER_FIELD_INT64, offsetof(testing_int_pair_t, b), 0, 0, NULL, "Field `b`"},
  };
  const tether_field_def_t base_fields[] = {
      {"v_i64", TETHER_FIELD_INT64, offsetof(testing_object_base_t, v_i64), rw, 0, &d_i64, "i64 field"},
      {"v_f64", TETHER_FIELD_FLOAT64, offsetof(testing_object_base_t, v_f64), 0, 0, &d_f64, NULL},
      {"v_str", TETHER_FIELD_STRING, offsetof(testing_object_base_t, v_str), rw, 0, &d_str, NULL},
  };
  const tether_field_def_t derived_fields[] = {
      {"v_map", TETHER_FIELD_OBJECT, offsetof(testing_object_derived_t, v_map), rw, kTVMFFIMap, NULL, NULL},
      {"v_array", TETHER_FIELD_OBJECT, offsetof(testing_object_derived_t, v_array), rw, kTVMFFIArray, NULL, NULL},
  };
  const tether_field_def_t unregistered_base_fields[] = {
      {"v1", TETHER_FIELD_INT64, offsetof(testing_unregistered_base_t, v1), 0, 0, NULL, NULL},
  };
  const tether_field_def_t unregistered_fields[] = {
      {"v2", TETHER_FIELD_INT64, offsetof(testing_unregistered_t, v2), 0, 0, NULL, NULL},
  };
  const struct {
    int32_t index;
    const tether_field_def_t* fields;
    size_t num_fields;
    int32_t total_size;
  } defs[] = {
      {testing_int_pair_index, int_pair_fields, 2, sizeof(testing_int_pair_t)},
      {testing_object_base_index, base_fields, 3, sizeof(testing_object_base_t)},
      {testing_object_derived_index, derived_fields, 2, sizeof(testing_object_derived_t)},
      {testing_unregistered_base_index, unregistered_base_fields, 1, sizeof(testing_unregistered_base_t)},
      {testing_unregistered_index, unregistered_fields, 1, sizeof(testing_unregistered_t)},
  };
  /* TestIntPair brings its own typed __ffi_init__; the others get the automatic one. */
  TVMFFIObjectHandle init = NULL;
  if (TVMFFIFunctionCreate(NULL, testing_int_pair_init, NULL, &init) != 0) return -1;
  TVMFFIByteArray init_name = {"__ffi_init__", 12};
  TVMFFIAny init_value = tether_any_object(init);
  int rc = TVMFFITypeRegisterAttr(testing_int_pair_index, &init_name, &init_value);
  TVMFFIObjectDecRef(init);
  /* As a `.ref<TestIntPair>()` registration, TestIntPair converts by __ffi_convert__. */
  if (rc != 0 || tether_type_def_convert(testing_int_pair_index) != 0) return -1;
  for (size_t t = 0; t < sizeof(defs) / sizeof(defs[0]); ++t) {
    for (size_t i = 0; i < defs[t].num_fields; ++i) {
      if (tether_type_def_field(defs[t].index, &defs[t].fields[i]) != 0) return -1;
    }
    if (tether_type_def_finish(defs[t].index, defs[t].total_size, NULL) != 0) return -1;
  }
  if (testing__init_as_method(testing_int_pair_index) != 0) return -1;
  if (tether_type_def_method(testing_int_pair_index, "sum", testing_int_pair_sum, false,
                             "Method to compute sum of a and b") != 0 ||
      tether_type_def_method(testing_object_base_index, "add_i64", testing_object_base_add_i64, false, "add_i64 method") != 0 ||
      tether_type_def_method(testing_unregistered_base_index, "get_v1_plus_one", testing_unregistered_v1_plus_one, false,
                             "Get (v1 + 1) from TestUnregisteredBaseObject") != 0 ||
      tether_type_def_method(testing_unregistered_index, "get_v2_plus_two", testing_unregistered_v2_plus_two, false,
                             "Get (v2 + 2) from TestUnregisteredObject") != 0) {
    return -1;
  }
  return 0;
}

/* Type schemas (JSON) of the globals' signatures. */
#define TY(name) "{\"type\":\"" name "\"}"
#define TY_OF(name, args) "{\"type\":\"" name "\",\"args\":[" args "]}"
#define SIG(ret, params) \
  "{\"type\":\"ffi.Function\",\"named_args\":{\"return\":[" ret "],\"params\":[" params "]}}"
#define PACKED TY("ffi.Function")

static const struct {
  const char* name;
  TVMFFISafeCallType fn;
  const char* schema;
} testing_globals[] = {
    {"testing.nop", testing_nop, PACKED},
    {"testing.echo", testing_echo, PACKED},
    {"testing.apply", TestApply, PACKED},
    {"testing.test_raise_error", TestRaiseError,
     SIG(TY("None"), TY("ffi.String") "," TY("ffi.String"))},
    {"testing.object_use_count", testing_object_use_count, SIG(TY("int"), TY("ffi.Object"))},
    {"testing.make_unregistered_object", testing_make_unregistered_object,
     SIG(TY("ffi.Object"), "")},
    {"testing.get_add_one_c_symbol", testing_get_add_one_c_symbol, SIG(TY("int"), "")},
    {"testing.get_mlir_add_one_c_symbol", testing_get_mlir_add_one_c_symbol, SIG(TY("int"), "")},
    {"testing.optional_tensor_view_has_value", testing_optional_tensor_view_has_value,
     SIG(TY("bool"), TY_OF("Optional", TY("DLTensor*")))},
    {"testing.run_check_signal", testing_run_check_signal, SIG(TY("None"), TY("int"))},
    {"testing.run_callback_in_threads", testing_run_callback_in_threads,
     SIG(TY("int"), TY("ffi.Function") "," TY("int") "," TY("int"))},
    {"testing.make_array_with_tensor", testing_make_array_with_tensor,
     SIG(TY_OF("ffi.Array", TY("Any")), TY("ffi.Tensor"))},
    {"testing.make_array_with_mixed", testing_make_array_with_mixed,
     SIG(TY_OF("ffi.Array", TY("Any")), TY("ffi.Tensor") "," TY("int"))},
    {"testing.make_nested_array_with_tensor", testing_make_nested_array_with_tensor,
     SIG(TY_OF("ffi.Array", TY("Any")), TY("ffi.Tensor"))},
    {"testing.make_list_with_tensor", testing_make_list_with_tensor,
     SIG(TY_OF("ffi.List", TY("Any")), TY("ffi.Tensor") "," TY("int"))},
    {"testing.make_map_with_tensor", testing_make_map_with_tensor,
     SIG(TY_OF("ffi.Map", TY("ffi.String") "," TY("Any")), TY("ffi.Tensor"))},
    {"testing.make_dict_with_tensor", testing_make_dict_with_tensor,
     SIG(TY_OF("ffi.Dict", TY("ffi.String") "," TY("Any")), TY("ffi.Tensor"))},
    {"testing.make_empty_array_with_tensor_input", testing_make_empty_array_with_tensor_input,
     SIG(TY_OF("ffi.Array", TY("Any")), TY("ffi.Tensor"))},
    {"testing.make_nested_map_with_tensor", testing_make_nested_map_with_tensor,
     SIG(TY_OF("ffi.Map", TY("ffi.String") "," TY("Any")), TY("ffi.Tensor") "," TY("ffi.Tensor"))},
    {"testing.TestIntPairSum", testing_int_pair_sum, SIG(TY("int"), TY("testing.TestIntPair"))},
};

#undef TY
#undef TY_OF
#undef SIG
#undef PACKED

__attribute__((constructor)) static void testing_load(void) {
  for (size_t i = 0; i < sizeof(testing_globals) / sizeof(testing_globals[0]); ++i) {
    char* meta = testing__metadata_json(testing_globals[i].schema, NULL);
    int rc = meta != NULL ? tether_func_register(testing_globals[i].name, testing_globals[i].fn,
                                                 NULL, meta, 1)
                          : -1;
    free(meta);
    if (rc != 0) goto fail;
  }
  if (testing_register_types() != 0 || testing__register_types() != 0 ||
      testing__register_typed() != 0 || testing__register_enums() != 0 ||
      testing__register_visit_regions() != 0) {
    goto fail;
  }
  TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_testing.add_one", (void*)&testing_add_one_c);
  return;
fail : {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  TVMFFIByteArray m = err ? tether_error_message(err) : (TVMFFIByteArray){"unknown", 7};
  fprintf(stderr, "libtether_testing: registration failed: %.*s\n", (int)m.size, m.data);
  TVMFFIObjectDecRef(err);
}
}

/* Referenced by bindings to force this library to load. */
TESTING_API void TVMFFITestingDummyTarget(void) {}
