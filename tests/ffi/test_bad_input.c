/*
 * test_bad_input.c -- "bad input gets a clear error, never a crash", swept over the whole
 * public surface of libtether.
 *
 * Three parts:
 * - every exported ABI function of <tether/c_api.h> called with NULL out-params, NULL or
 *   wrong-typed handles, NULL byte arrays, malformed strings, negative sizes, unknown type
 *   indices and moved RValueRefs;
 * - every tether_* function of <tether/{tether,container,tensor,reflection}.h} the same way
 *   (each handle-taking one against a zoo of every object kind tether makes);
 * - a generic sweep of every `ffi.*` global (names from ffi.FunctionListGlobalNamesFunctor)
 *   called with 0..4 arguments drawn from ~45 value kinds, valid and malformed.
 *
 * The contract checked everywhere (check_outcome): no crash; the return is 0 or -1; on -1
 * an Error is parked whose kind is one of TETHER_ERROR_KINDS and whose message is
 * non-empty and names the function -- except where the spec fixes the exact text
 * (spec_exact_texts below); on 0 no error is left parked and the result is an owning
 * value.  The global sweep also checks that no call leaks an object.
 *
 * TVMFFIGetTypeInfo is the one documented "log-exception" function: an unknown index
 * prints and exits, checked in a forked child.
 *
 * Set TETHER_SWEEP_TRACE=1 to print every swept call before it is made (to find the
 * call that crashed), TETHER_SWEEP_TRACE=seeds to print the accepted argument lists.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <tether/container.h>
#include <tether/reflection.h>
#include <tether/tensor.h>

#include "test.h"

/* ---- the outcome contract --------------------------------------------------------------- */

static const char* const known_kinds[] = {
#define KIND_NAME(k) #k,
    TETHER_ERROR_KINDS(KIND_NAME)
#undef KIND_NAME
};

/*
 * Texts the spec (or the observed reference) fixes exactly, which therefore do not name the
 * function.  Matched as prefixes of the message.
 */
static const char* const spec_exact_texts[] = {
    "Index ",                                     /* "Index i out of bounds n" (spec 4) */
    "Erase range [",                              /* ffi.ListEraseRange (observed) */
    "key is not in Map",                          /* spec 4 */
    "Expect shape to take list of int arguments", /* spec 4, ffi.Shape */
    "Only kTVMFFIOpaquePyObject is supported for now", /* spec 2 */
    "Cannot find type `",                         /* spec 2, TVMFFITypeKeyToIndex */
    "Unknown env API ",                           /* spec 2, TVMFFIEnvRegisterCAPI */
    "init_func must return a non-NULL handle",    /* spec 2 */
    "Global Function is not found: ",             /* ffi.GetGlobalFuncMetadata (observed) */
    "Global Function `",                          /* spec 2, TVMFFIFunctionSetGlobal */
    "FromDLPack: ",                               /* spec 2 */
    "Subbyte type padded is not yet supported",   /* spec 2 */
    "Failed to get file format from ",            /* ffi.ModuleLoadFromFile (observed) */
    "Loader for `.",                              /* ffi.ModuleLoadFromFile (observed) */
    "Failed to load dynamic shared library ",     /* spec 5 */
    "Cyclic dependency detected during import",   /* ffi.ModuleImportModule (observed) */
    "Module[library] does not support",           /* ffi.ModuleWriteToFile (observed) */
};

static int sweep_trace = -1;
static int sweep_seeds; /* TETHER_SWEEP_TRACE=seeds: print the seeds */
static int contract_failures;

/* Records a contract violation (printed with the call's description). */
static void violation(const char* what, const char* call, const char* detail) {
  fprintf(stderr, "contract violated by %s: %s%s%s\n", call, what, detail ? ": " : "",
          detail ? detail : "");
  contract_failures++;
  test__checks_failed_in_current++;
}

static int bytes_has(TVMFFIByteArray b, const char* needle) {
  size_t n = strlen(needle);
  if (n == 0) return 1;
  for (size_t i = 0; i + n <= b.size; ++i) {
    if (memcmp(b.data + i, needle, n) == 0) return 1;
  }
  return 0;
}

static int bytes_starts(TVMFFIByteArray b, const char* prefix) {
  size_t n = strlen(prefix);
  return b.size >= n && memcmp(b.data, prefix, n) == 0;
}

/*
 * Checks one call's outcome against the contract and consumes any parked error.
 * `fname` is the name the message must contain (NULL: any non-empty message); `call`
 * describes the call for the failure report.  Returns rc.
 */
static int check_outcome(int rc, const char* fname, const char* call) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  char detail[512];
  if (rc != 0 && rc != -1) {
    snprintf(detail, sizeof(detail), "rc = %d", rc);
    violation("return value is neither 0 nor -1", call, detail);
  } else if (rc == 0 && err != NULL) {
    TVMFFIByteArray m = tether_error_message(err);
    snprintf(detail, sizeof(detail), "%.*s", (int)(m.size > 300 ? 300 : m.size), m.data);
    violation("returned 0 but left an error parked", call, detail);
  } else if (rc == -1 && err == NULL) {
    violation("returned -1 without raising an error", call, NULL);
  } else if (rc == -1) {
    TVMFFIByteArray k = tether_error_kind(err), m = tether_error_message(err);
    int kind_ok = 0, named = fname == NULL;
    if (((TVMFFIObject*)err)->type_index != kTVMFFIError) {
      violation("the raised object is not an ffi.Error", call, NULL);
    }
    for (size_t i = 0; i < sizeof(known_kinds) / sizeof(known_kinds[0]); ++i) {
      if (k.size == strlen(known_kinds[i]) && memcmp(k.data, known_kinds[i], k.size) == 0) {
        kind_ok = 1;
      }
    }
    if (!named && bytes_has(m, fname)) named = 1;
    for (size_t i = 0; !named && i < sizeof(spec_exact_texts) / sizeof(spec_exact_texts[0]); ++i) {
      if (bytes_starts(m, spec_exact_texts[i])) named = 1;
    }
    snprintf(detail, sizeof(detail), "%.*s: %.*s", (int)k.size, k.data,
             (int)(m.size > 300 ? 300 : m.size), m.data);
    if (!kind_ok) violation("unknown error kind", call, detail);
    if (m.size == 0) violation("empty error message", call, detail);
    else if (!named) violation("the message does not name the function", call, detail);
  }
  TVMFFIObjectDecRef(err);
  return rc;
}

/* Expects failure specifically (rc -1 and the contract). */
static void expect_fail(int rc, const char* fname, const char* call) {
  if (rc != -1) {
    TVMFFIErrorMoveFromRaised(NULL);
    violation("expected failure (-1)", call, NULL);
    return;
  }
  check_outcome(rc, fname, call);
}

#define EXPECT_FAIL(fname, expr) expect_fail((expr), fname, #expr)
#define EXPECT_OUTCOME(fname, expr) check_outcome((expr), fname, #expr)
#define EXPECT_OK(expr) CHECK_OK(expr)

/* ---- a zoo of values ------------------------------------------------------------------- */

static float tensor_data[6];
static int64_t tensor_shape[2] = {2, 3};
static DLTensor static_dltensor = {tensor_data, {kDLCPU, 0}, 2, {kDLFloat, 32, 1},
                                   tensor_shape, NULL, 0};

static void noop_deleter(void* p) { (void)p; }

static int return_none(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  (void)h;
  (void)args;
  (void)n;
  *result = tether_any_none();
  return 0;
}

static TVMFFIObjectHandle syslib_module; /* ffi.SystemLib(""), cached by the library */

#define VALUE_KINDS(X)                                                          \
  X(NONE, "None")                                                               \
  X(INT0, "int 0")                                                              \
  X(INT1, "int 1")                                                              \
  X(INT_NEG, "int -1")                                                          \
  X(INT_MAX, "int INT64_MAX")                                                   \
  X(INT_MIN, "int INT64_MIN")                                                   \
  X(BOOL, "bool true")                                                          \
  X(FLOAT, "float 1.5")                                                         \
  X(FLOAT_NAN, "float nan")                                                     \
  X(RAW_STR, "const char* \"harden.no.such\"")                                  \
  X(RAW_STR_EMPTY, "const char* \"\"")                                          \
  X(RAW_STR_NULL, "const char* NULL")                                           \
  X(TYPE_KEY, "const char* \"harden.Point\" (a reflected type)")                 \
  X(SMALL_STR, "SmallStr \"abc\"")                                              \
  X(SMALL_STR_BAD, "SmallStr of length 9 (malformed)")                          \
  X(STR, "Str \"tether-harden-long-string\"")                                   \
  X(BYTES_PTR, "TVMFFIByteArray* \"bytes\"")                                    \
  X(BYTES_PTR_NULL, "TVMFFIByteArray* NULL")                                    \
  X(BYTES_PTR_BAD, "TVMFFIByteArray* {NULL, 5}")                                \
  X(SMALL_BYTES, "SmallBytes \"ab\"")                                           \
  X(BYTES, "Bytes (long)")                                                      \
  X(ARRAY, "Array [1, \"x\"]")                                                  \
  X(ARRAY_EMPTY, "Array []")                                                    \
  X(LIST, "List [1, 2]")                                                        \
  X(MAP, "Map {\"a\": 1}")                                                      \
  X(DICT, "Dict {\"a\": 1}")                                                    \
  X(SHAPE, "Shape (2, 3)")                                                      \
  X(TENSOR, "Tensor f32[2, 3]")                                                 \
  X(FUNCTION, "Function")                                                       \
  X(ERROR, "Error")                                                             \
  X(OPAQUE_OBJ, "OpaquePyObject")                                               \
  X(PLAIN_OBJ, "Object (GetInvalidObject)")                                     \
  X(MODULE, "Module (SystemLib)")                                               \
  X(PTR_NULL, "void* NULL")                                                     \
  X(PTR, "void* (a no-op function)")                                            \
  X(DTYPE, "dtype float32")                                                     \
  X(DTYPE_BAD, "dtype {200, 0, 0}")                                             \
  X(DEVICE, "device cpu:0")                                                     \
  X(DEVICE_CUDA, "device cuda:1")                                               \
  X(DEVICE_BAD, "device {999, -1}")                                             \
  X(DLTENSOR, "DLTensor*")                                                      \
  X(DLTENSOR_NULL, "DLTensor* NULL")                                            \
  X(RVALUE, "RValueRef (live Array)")                                           \
  X(RVALUE_MOVED, "RValueRef (moved)")                                          \
  X(RVALUE_NULL, "RValueRef with no slot")                                      \
  X(RESERVED_20, "type index 20 (reserved)")                                    \
  X(UNCHANGED, "type index 13 (Unchanged)")                                     \
  X(NEG_INDEX, "type index -5")                                                 \
  X(ANY_INDEX, "type index -1 (kTVMFFIAny)")                                    \
  X(OBJ_NULL, "ffi.Array view holding NULL")

enum {
#define KIND_ENUM(name, text) K_##name,
  VALUE_KINDS(KIND_ENUM)
#undef KIND_ENUM
      K_COUNT
};

static const char* const kind_text[] = {
#define KIND_TEXT(name, text) text,
    VALUE_KINDS(KIND_TEXT)
#undef KIND_TEXT
};

/* Objects made for one call; released after it. */
typedef struct {
  TVMFFIObjectHandle objs[K_COUNT];
  TVMFFIObjectHandle rvalue_slot;
  TVMFFIObjectHandle moved_slot;
} pool_t;

static TVMFFIByteArray bytes_value = {"bytes", 5};
static TVMFFIByteArray bad_bytes_value = {NULL, 5};

static TVMFFIObjectHandle make_object(int kind) {
  TVMFFIObjectHandle h = NULL;
  TVMFFIAny items[2];
  int rc = 0;
  switch (kind) {
    case K_STR: {
      TVMFFIAny v;
      rc = tether_any_str("tether-harden-long-string", 25, &v);
      h = v.v_obj;
      break;
    }
    case K_BYTES: {
      TVMFFIByteArray b = {"tether-harden-long-bytes", 24};
      TVMFFIAny v;
      rc = TVMFFIBytesFromByteArray(&b, &v);
      h = v.v_obj;
      break;
    }
    case K_ARRAY:
      items[0] = tether_any_int(1);
      items[1] = tether_any_raw_str("x");
      rc = tether_array_new(items, 2, &h);
      break;
    case K_ARRAY_EMPTY:
      rc = tether_array_new(NULL, 0, &h);
      break;
    case K_LIST:
      items[0] = tether_any_int(1);
      items[1] = tether_any_int(2);
      rc = tether_list_new(items, 2, &h);
      break;
    case K_MAP:
    case K_DICT:
      items[0] = tether_any_raw_str("a");
      items[1] = tether_any_int(1);
      rc = kind == K_MAP ? tether_map_new(items, 1, &h) : tether_dict_new(items, 1, &h);
      break;
    case K_SHAPE:
      rc = tether_shape_new(tensor_shape, 2, &h);
      break;
    case K_TENSOR:
      rc = tether_tensor_empty(tensor_shape, 2, (DLDataType){kDLFloat, 32, 1},
                               (DLDevice){kDLCPU, 0}, &h);
      break;
    case K_FUNCTION:
      rc = TVMFFIFunctionCreate(NULL, return_none, NULL, &h);
      break;
    case K_ERROR: {
      TVMFFIByteArray k = {"ValueError", 10}, m = {"zoo error", 9};
      rc = TVMFFIErrorCreate(&k, &m, NULL, &h);
      break;
    }
    case K_OPAQUE_OBJ:
      rc = TVMFFIObjectCreateOpaque(NULL, kTVMFFIOpaquePyObject, NULL, &h);
      break;
    case K_PLAIN_OBJ: {
      TVMFFIObjectHandle f = tether_func_get("ffi.GetInvalidObject");
      TVMFFIAny r;
      rc = tether_func_call(f, NULL, 0, &r);
      TVMFFIObjectDecRef(f);
      h = r.v_obj;
      break;
    }
    case K_MODULE:
      TVMFFIObjectIncRef(syslib_module);
      h = syslib_module;
      break;
    case K_RVALUE:
      rc = tether_array_new(NULL, 0, &h);
      break;
    default:
      break;
  }
  if (rc != 0 || h == NULL) {
    fprintf(stderr, "cannot make a %s\n", kind_text[kind]);
    abort();
  }
  return h;
}

static TVMFFIAny make_value(pool_t* pool, int kind) {
  TVMFFIAny v = tether_any_none();
  switch (kind) {
    case K_NONE: return v;
    case K_INT0: return tether_any_int(0);
    case K_INT1: return tether_any_int(1);
    case K_INT_NEG: return tether_any_int(-1);
    case K_INT_MAX: return tether_any_int(INT64_MAX);
    case K_INT_MIN: return tether_any_int(INT64_MIN);
    case K_BOOL: return tether_any_bool(true);
    case K_FLOAT: return tether_any_float(1.5);
    case K_FLOAT_NAN: return tether_any_float(NAN);
    case K_RAW_STR: return tether_any_raw_str("harden.no.such");
    case K_RAW_STR_EMPTY: return tether_any_raw_str("");
    case K_RAW_STR_NULL: return tether_any_raw_str(NULL);
    case K_TYPE_KEY: return tether_any_raw_str("harden.Point");
    case K_SMALL_STR:
    case K_SMALL_BYTES:
      v.type_index = kind == K_SMALL_STR ? kTVMFFISmallStr : kTVMFFISmallBytes;
      v.small_str_len = kind == K_SMALL_STR ? 3 : 2;
      memcpy(v.v_bytes, kind == K_SMALL_STR ? "abc" : "ab", v.small_str_len);
      return v;
    case K_SMALL_STR_BAD:
      v.type_index = kTVMFFISmallStr;
      v.small_str_len = 9;
      memcpy(v.v_bytes, "abcdefgh", 8);
      return v;
    case K_BYTES_PTR:
    case K_BYTES_PTR_NULL:
    case K_BYTES_PTR_BAD:
      v.type_index = kTVMFFIByteArrayPtr;
      v.v_ptr = kind == K_BYTES_PTR ? &bytes_value : kind == K_BYTES_PTR_BAD ? &bad_bytes_value : NULL;
      return v;
    case K_PTR_NULL: return tether_any_ptr(NULL);
    case K_PTR: {
      void* p;
      void (*fn)(void*) = noop_deleter;
      memcpy(&p, &fn, sizeof(p));
      return tether_any_ptr(p);
    }
    case K_DTYPE: return tether_any_dtype((DLDataType){kDLFloat, 32, 1});
    case K_DTYPE_BAD: return tether_any_dtype((DLDataType){200, 0, 0});
    case K_DEVICE: return tether_any_device(kDLCPU, 0);
    case K_DEVICE_CUDA: return tether_any_device(kDLCUDA, 1);
    case K_DEVICE_BAD: return tether_any_device(999, -1);
    case K_DLTENSOR:
    case K_DLTENSOR_NULL:
      v.type_index = kTVMFFIDLTensorPtr;
      v.v_ptr = kind == K_DLTENSOR ? &static_dltensor : NULL;
      return v;
    case K_RVALUE:
      if (pool->rvalue_slot == NULL) pool->rvalue_slot = make_object(K_RVALUE);
      v.type_index = kTVMFFIObjectRValueRef;
      v.v_ptr = &pool->rvalue_slot;
      return v;
    case K_RVALUE_MOVED:
      v.type_index = kTVMFFIObjectRValueRef;
      v.v_ptr = &pool->moved_slot;
      return v;
    case K_RVALUE_NULL:
      v.type_index = kTVMFFIObjectRValueRef;
      v.v_ptr = NULL;
      return v;
    case K_RESERVED_20: v.type_index = 20; return v;
    case K_UNCHANGED: v.type_index = kTVMFFIUnchanged; return v;
    case K_NEG_INDEX: v.type_index = -5; return v;
    case K_ANY_INDEX: v.type_index = kTVMFFIAny; return v;
    case K_OBJ_NULL: v.type_index = kTVMFFIArray; v.v_obj = NULL; return v;
    default:
      if (pool->objs[kind] == NULL) pool->objs[kind] = make_object(kind);
      return tether_any_object(pool->objs[kind]);
  }
}

static void pool_release(pool_t* pool) {
  for (int i = 0; i < K_COUNT; ++i) TVMFFIObjectDecRef(pool->objs[i]);
  TVMFFIObjectDecRef(pool->rvalue_slot);
  TVMFFIObjectDecRef(pool->moved_slot);
  memset(pool, 0, sizeof(*pool));
}

/* ---- the zoo: one object of every kind tether makes ---------------------------------------- */

static const int zoo_kinds[] = {K_STR,    K_BYTES,  K_ERROR,    K_FUNCTION,  K_SHAPE,
                                K_TENSOR, K_ARRAY,  K_LIST,     K_MAP,       K_DICT,
                                K_OPAQUE_OBJ, K_PLAIN_OBJ, K_MODULE};
#define ZOO_SIZE (sizeof(zoo_kinds) / sizeof(zoo_kinds[0]))

typedef struct {
  TVMFFIObjectHandle obj[ZOO_SIZE];
} zoo_t;

static void zoo_make(zoo_t* z) {
  for (size_t i = 0; i < ZOO_SIZE; ++i) z->obj[i] = make_object(zoo_kinds[i]);
}
static void zoo_free(zoo_t* z) {
  for (size_t i = 0; i < ZOO_SIZE; ++i) TVMFFIObjectDecRef(z->obj[i]);
}
static int32_t zoo_type(const zoo_t* z, size_t i) { return ((TVMFFIObject*)z->obj[i])->type_index; }

/* ---- the exported ABI functions (c_api.h) ----------------------------------------------- */

static int init_returns_null(void** result) {
  *result = NULL;
  return 0;
}
static int deinit_ok(void* handle) {
  (void)handle;
  return 0;
}

static void test_abi_objects_and_errors(void) {
  zoo_t z;
  zoo_make(&z);
  TVMFFIObjectHandle h = NULL;

  TVMFFIGetVersion(NULL); /* tolerated */
  EXPECT_FAIL("TVMFFIObjectIncRef", TVMFFIObjectIncRef(NULL));
  CHECK_EQ_INT(TVMFFIObjectDecRef(NULL), 0);

  EXPECT_FAIL("TVMFFIObjectCreateOpaque",
              TVMFFIObjectCreateOpaque(NULL, kTVMFFIOpaquePyObject, NULL, NULL));
  static const int32_t bad_opaque[] = {-1, 0, kTVMFFIObject, kTVMFFIStr, 1000, INT32_MAX};
  for (size_t i = 0; i < sizeof(bad_opaque) / sizeof(bad_opaque[0]); ++i) {
    EXPECT_FAIL("TVMFFIObjectCreateOpaque",
                TVMFFIObjectCreateOpaque(NULL, bad_opaque[i], noop_deleter, &h));
  }

  CHECK(TVMFFIGetCustomAllocator() != NULL);
  CHECK_OK(TVMFFISetCustomAllocator(NULL));
  CHECK(TVMFFIGetCustomAllocator() != NULL);

  /* Errors: the create functions never touch the raised slot (spec 2), so NULL `out` is
   * a bare -1; everything else is tolerated. */
  TVMFFIByteArray kind = {"ValueError", 10}, bad = {NULL, 7};
  CHECK_EQ_INT(TVMFFIErrorCreate(&kind, &kind, &kind, NULL), -1);
  CHECK_EQ_INT(TVMFFIErrorCreateWithCauseAndExtraContext(NULL, NULL, NULL, NULL, NULL, NULL), -1);
  TVMFFIObjectHandle none_raised = NULL;
  TVMFFIErrorMoveFromRaised(&none_raised);
  CHECK(none_raised == NULL);
  CHECK_OK(TVMFFIErrorCreate(NULL, &bad, NULL, &h)); /* NULL / {NULL, n} read as empty */
  CHECK_EQ_INT(tether_error_kind(h).size, 0);
  TVMFFIObjectDecRef(h);
  CHECK_OK(TVMFFIErrorCreateWithCauseAndExtraContext(&kind, NULL, NULL, z.obj[0], z.obj[1], &h));
  TVMFFIObjectDecRef(h);

  TVMFFIErrorMoveFromRaised(NULL); /* nothing parked: a no-op */
  TVMFFIErrorSetRaised(NULL);      /* clears */
  TVMFFIErrorMoveFromRaised(&h);
  CHECK(h == NULL);
  /* Parking a non-Error would hand callers an object they read as an ErrorCell: refused
   * with a TypeError parked instead. */
  for (size_t i = 0; i < ZOO_SIZE; ++i) {
    if (zoo_type(&z, i) == kTVMFFIError) continue;
    TVMFFIErrorSetRaised(z.obj[i]);
    expect_fail(-1, "TVMFFIErrorSetRaised", "TVMFFIErrorSetRaised(non-Error)");
  }
  TVMFFIErrorSetRaisedFromCStr(NULL, NULL);
  TVMFFIErrorMoveFromRaised(&h);
  CHECK(h != NULL);
  CHECK_BYTES(tether_error_kind(h), "RuntimeError");
  TVMFFIObjectDecRef(h);
  const char* parts[] = {"a", NULL, "b"};
  TVMFFIErrorSetRaisedFromCStrParts("ValueError", parts, 3);
  TVMFFIErrorMoveFromRaised(&h);
  CHECK_BYTES(tether_error_message(h), "ab");
  TVMFFIObjectDecRef(h);
  TVMFFIErrorSetRaisedFromCStrParts(NULL, NULL, 5);
  TVMFFIErrorSetRaisedFromCStrParts("ValueError", parts, -3);
  TVMFFIErrorMoveFromRaised(&h);
  CHECK(h != NULL);
  TVMFFIObjectDecRef(h);

  /* The backtrace entry point never fails. */
  const TVMFFIByteArray* bt = TVMFFIBacktrace(NULL, -1, NULL, 1);
  CHECK(bt != NULL);

  zoo_free(&z);
}

static void test_abi_functions_and_registry(void) {
  zoo_t z;
  zoo_make(&z);
  TVMFFIObjectHandle f = NULL, h = NULL;
  TVMFFIByteArray name = {"harden.tmp", 10}, bad = {NULL, 3};
  TVMFFIAny result = tether_any_none(), arg = tether_any_int(1);

  EXPECT_FAIL("TVMFFIFunctionCreate", TVMFFIFunctionCreate(NULL, NULL, NULL, &f));
  EXPECT_FAIL("TVMFFIFunctionCreate", TVMFFIFunctionCreate(NULL, return_none, NULL, NULL));
  EXPECT_FAIL("TVMFFIFunctionCreate", TVMFFIFunctionCreate(&arg, NULL, noop_deleter, &f));
  CHECK_OK(TVMFFIFunctionCreate(NULL, return_none, NULL, &f));

  /* Calls: a NULL or non-Function handle, NULL args with a count, a negative count, a
   * NULL result. */
  EXPECT_FAIL("TVMFFIFunctionCall", TVMFFIFunctionCall(NULL, NULL, 0, &result));
  for (size_t i = 0; i < ZOO_SIZE; ++i) {
    if (zoo_type(&z, i) == kTVMFFIFunction) continue;
    EXPECT_FAIL("TVMFFIFunctionCall", TVMFFIFunctionCall(z.obj[i], NULL, 0, &result));
  }
  /* NULL args with a count reach the callee (as in the reference; test_function relies
   * on it), reading as None; too many are refused.  tether_func_call refuses them (below). */
  CHECK_OK(TVMFFIFunctionCall(f, NULL, 2, &result));
  EXPECT_FAIL("TVMFFIFunctionCall", TVMFFIFunctionCall(f, NULL, 65, &result));
  EXPECT_FAIL("TVMFFIFunctionCall", TVMFFIFunctionCall(f, NULL, INT32_MAX, &result));
  EXPECT_FAIL("TVMFFIFunctionCall", TVMFFIFunctionCall(f, &arg, -1, &result));
  EXPECT_FAIL("TVMFFIFunctionCall", TVMFFIFunctionCall(f, &arg, 1, NULL));
  CHECK_OK(TVMFFIFunctionCall(f, NULL, 0, &result));

  EXPECT_FAIL("TVMFFIFunctionGetGlobal", TVMFFIFunctionGetGlobal(NULL, &h));
  EXPECT_FAIL("TVMFFIFunctionGetGlobal", TVMFFIFunctionGetGlobal(&name, NULL));
  EXPECT_FAIL("TVMFFIFunctionGetGlobal", TVMFFIFunctionGetGlobal(&bad, &h));
  CHECK_OK(TVMFFIFunctionGetGlobal(&name, &h)); /* absent: 0 and NULL */
  CHECK(h == NULL);

  EXPECT_FAIL("TVMFFIFunctionSetGlobal", TVMFFIFunctionSetGlobal(NULL, f, 0));
  EXPECT_FAIL("TVMFFIFunctionSetGlobal", TVMFFIFunctionSetGlobal(&bad, f, 0));
  EXPECT_FAIL("TVMFFIFunctionSetGlobal", TVMFFIFunctionSetGlobal(&name, NULL, 0));
  for (size_t i = 0; i < ZOO_SIZE; ++i) {
    if (zoo_type(&z, i) == kTVMFFIFunction) continue;
    EXPECT_FAIL("TVMFFIFunctionSetGlobal", TVMFFIFunctionSetGlobal(&name, z.obj[i], 1));
  }
  CHECK_OK(TVMFFIFunctionGetGlobal(&name, &h)); /* nothing was registered */
  CHECK(h == NULL);

  TVMFFIMethodInfo mi;
  memset(&mi, 0, sizeof(mi));
  EXPECT_FAIL("TVMFFIFunctionSetGlobalFromMethodInfo", TVMFFIFunctionSetGlobalFromMethodInfo(NULL, 0));
  mi.name = bad;
  mi.method = tether_any_object(f);
  EXPECT_FAIL("TVMFFIFunctionSetGlobalFromMethodInfo", TVMFFIFunctionSetGlobalFromMethodInfo(&mi, 0));
  mi.name = name;
  mi.method = tether_any_none();
  EXPECT_FAIL("TVMFFIFunctionSetGlobalFromMethodInfo", TVMFFIFunctionSetGlobalFromMethodInfo(&mi, 0));
  for (size_t i = 0; i < ZOO_SIZE; ++i) {
    if (zoo_type(&z, i) == kTVMFFIFunction) continue;
    mi.method = tether_any_object(z.obj[i]);
    EXPECT_FAIL("TVMFFIFunctionSetGlobalFromMethodInfo",
                TVMFFIFunctionSetGlobalFromMethodInfo(&mi, 1));
  }
  mi.method = tether_any_int(3);
  EXPECT_FAIL("TVMFFIFunctionSetGlobalFromMethodInfo", TVMFFIFunctionSetGlobalFromMethodInfo(&mi, 1));
  /* Registering twice without override: the spec's text. */
  CHECK_OK(TVMFFIFunctionSetGlobal(&name, f, 0));
  EXPECT_FAIL("TVMFFIFunctionSetGlobal", TVMFFIFunctionSetGlobal(&name, f, 0));
  TVMFFIObjectHandle remove = tether_func_get("ffi.FunctionRemoveGlobal");
  TVMFFIAny name_arg = tether_any_raw_str("harden.tmp");
  CHECK_OK(tether_func_call(remove, &name_arg, 1, &result));
  CHECK(result.type_index == kTVMFFIBool && result.v_int64 == 1);
  TVMFFIObjectDecRef(remove);

  /* tether_func_*: their own names in their errors. */
  EXPECT_FAIL("tether_func_register", tether_func_register(NULL, return_none, NULL, NULL, 0));
  EXPECT_FAIL("tether_func_register", tether_func_register("harden.tmp2", NULL, NULL, NULL, 0));
  CHECK(tether_func_get(NULL) == NULL);
  expect_fail(-1, "tether_func_get", "tether_func_get(NULL)");
  CHECK(tether_func_get("harden.no.such.function") == NULL);
  expect_fail(-1, "tether_func_get", "tether_func_get(absent)");
  EXPECT_FAIL("tether_func_call", tether_func_call(NULL, NULL, 0, &result));
  EXPECT_FAIL("tether_func_call", tether_func_call(z.obj[0], NULL, 0, &result));
  EXPECT_FAIL("tether_func_call", tether_func_call(f, NULL, 0, NULL));
  EXPECT_FAIL("tether_func_call", tether_func_call(f, NULL, 3, &result));

  TVMFFIObjectDecRef(f);
  zoo_free(&z);
}

static void test_abi_any_and_strings(void) {
  pool_t pool;
  memset(&pool, 0, sizeof(pool));
  TVMFFIAny out = tether_any_none(), v = tether_any_int(1);
  EXPECT_FAIL("TVMFFIAnyViewToOwnedAny", TVMFFIAnyViewToOwnedAny(NULL, &out));
  EXPECT_FAIL("TVMFFIAnyViewToOwnedAny", TVMFFIAnyViewToOwnedAny(&v, NULL));
  /* Every malformed view is refused (and `out` left alone). */
  static const int malformed[] = {K_RAW_STR_NULL, K_SMALL_STR_BAD, K_BYTES_PTR_NULL, K_BYTES_PTR_BAD,
                                  K_RVALUE_MOVED, K_RVALUE_NULL,   K_RESERVED_20,    K_NEG_INDEX,
                                  K_ANY_INDEX,    K_OBJ_NULL};
  for (size_t i = 0; i < sizeof(malformed) / sizeof(malformed[0]); ++i) {
    TVMFFIAny view = make_value(&pool, malformed[i]);
    out = tether_any_int(42);
    EXPECT_FAIL("TVMFFIAnyViewToOwnedAny", TVMFFIAnyViewToOwnedAny(&view, &out));
    CHECK(out.type_index == kTVMFFIInt && out.v_int64 == 42);
  }
  /* A live RValueRef moves once; the second conversion finds the slot empty. */
  TVMFFIAny rv = make_value(&pool, K_RVALUE);
  CHECK_OK(TVMFFIAnyViewToOwnedAny(&rv, &out));
  CHECK(pool.rvalue_slot == NULL);
  tether_any_release(&out);
  EXPECT_FAIL("TVMFFIAnyViewToOwnedAny", TVMFFIAnyViewToOwnedAny(&rv, &out));
  /* Unchanged (13) is a value marker of the ABI, copied like any POD. */
  TVMFFIAny unchanged = make_value(&pool, K_UNCHANGED);
  CHECK_OK(TVMFFIAnyViewToOwnedAny(&unchanged, &out));
  CHECK_EQ_INT(out.type_index, kTVMFFIUnchanged);
  pool_release(&pool);

  TVMFFIByteArray bad = {NULL, 4}, empty_null = {NULL, 0};
  EXPECT_FAIL("TVMFFIStringFromByteArray", TVMFFIStringFromByteArray(NULL, &out));
  EXPECT_FAIL("TVMFFIStringFromByteArray", TVMFFIStringFromByteArray(&bad, &out));
  EXPECT_FAIL("TVMFFIStringFromByteArray", TVMFFIStringFromByteArray(&bytes_value, NULL));
  CHECK_OK(TVMFFIStringFromByteArray(&empty_null, &out));
  CHECK_EQ_INT(out.type_index, kTVMFFISmallStr);
  EXPECT_FAIL("TVMFFIBytesFromByteArray", TVMFFIBytesFromByteArray(NULL, &out));
  EXPECT_FAIL("TVMFFIBytesFromByteArray", TVMFFIBytesFromByteArray(&bad, &out));
  EXPECT_FAIL("TVMFFIBytesFromByteArray", TVMFFIBytesFromByteArray(&bytes_value, NULL));
  EXPECT_FAIL("tether_any_str", tether_any_str(NULL, 3, &out));
  EXPECT_FAIL("tether_any_str", tether_any_str("abc", 3, NULL));

  /* dtypes: NULLs and a catalogue of malformed strings, each a ValueError. */
  DLDataType t;
  TVMFFIByteArray s = {"float32", 7};
  EXPECT_FAIL("TVMFFIDataTypeFromString", TVMFFIDataTypeFromString(NULL, &t));
  EXPECT_FAIL("TVMFFIDataTypeFromString", TVMFFIDataTypeFromString(&s, NULL));
  EXPECT_FAIL("TVMFFIDataTypeFromString", TVMFFIDataTypeFromString(&bad, &t));
  static const char* const bad_dtypes[] = {
      "x", "float", "int-3", "int32x0", "int32x70000", "int32x", "int32xx2", "int1000", "uint",
      "float32x-1", "bfloat", "custom", "custom[", "custom[nope]32", "custom[]", "\xff\xfe",
      "int32 ", " int32", "float8_e9m9", "handle7", "boolx", "complex64", "int99999999999999999999",
      "float32xvscalex", "float32xvscalex0", "int\0" "32"};
  for (size_t i = 0; i < sizeof(bad_dtypes) / sizeof(bad_dtypes[0]); ++i) {
    TVMFFIByteArray b = {bad_dtypes[i], strlen(bad_dtypes[i])};
    if (i + 1 == sizeof(bad_dtypes) / sizeof(bad_dtypes[0])) b.size = 6; /* embedded NUL */
    char call[128];
    snprintf(call, sizeof(call), "TVMFFIDataTypeFromString(\"%s\")", bad_dtypes[i]);
    int rc = TVMFFIDataTypeFromString(&b, &t);
    check_outcome(rc, NULL, call); /* some are accepted (e.g. "float" -> float32) */
  }
  char long_dtype[4096];
  memset(long_dtype, 'i', sizeof(long_dtype));
  TVMFFIByteArray lb = {long_dtype, sizeof(long_dtype)};
  EXPECT_OUTCOME(NULL, TVMFFIDataTypeFromString(&lb, &t));
  DLDataType dt = {kDLFloat, 32, 1};
  EXPECT_FAIL("TVMFFIDataTypeToString", TVMFFIDataTypeToString(NULL, &out));
  EXPECT_FAIL("TVMFFIDataTypeToString", TVMFFIDataTypeToString(&dt, NULL));
  static const DLDataType odd[] = {{50, 32, 1}, {200, 8, 1}, {255, 0, 0}, {kDLFloat, 0, 0},
                                   {kDLInt, 255, 65535}, {kDLComplex, 64, 1}};
  for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); ++i) {
    out = tether_any_none();
    if (EXPECT_OUTCOME(NULL, TVMFFIDataTypeToString(&odd[i], &out)) == 0) tether_any_release(&out);
  }
}

static void test_abi_types_and_reflection(void) {
  int32_t index = 0;
  TVMFFIByteArray key = {"ffi.Object", 10}, bad = {NULL, 2}, unknown = {"harden.NoSuchType", 17};
  EXPECT_FAIL("TVMFFITypeKeyToIndex", TVMFFITypeKeyToIndex(NULL, &index));
  EXPECT_FAIL("TVMFFITypeKeyToIndex", TVMFFITypeKeyToIndex(&key, NULL));
  EXPECT_FAIL("TVMFFITypeKeyToIndex", TVMFFITypeKeyToIndex(&bad, &index));
  EXPECT_FAIL("TVMFFITypeKeyToIndex", TVMFFITypeKeyToIndex(&unknown, &index));

  /* TypeGetOrAllocIndex: tether raises instead of exiting (documented deviation). */
  TVMFFIByteArray k1 = {"harden.Bad1", 11};
  CHECK_EQ_INT(TVMFFITypeGetOrAllocIndex(NULL, -1, 1, 0, 1, kTVMFFIObject), -1);
  expect_fail(-1, "TVMFFITypeGetOrAllocIndex", "TVMFFITypeGetOrAllocIndex(NULL key)");
  CHECK_EQ_INT(TVMFFITypeGetOrAllocIndex(&bad, -1, 1, 0, 1, kTVMFFIObject), -1);
  expect_fail(-1, "TVMFFITypeGetOrAllocIndex", "TVMFFITypeGetOrAllocIndex({NULL, 2})");
  static const int32_t bad_args[][5] = {
      /* static, depth, slots, overflow, parent */
      {-1, 1, -1, 1, kTVMFFIObject},    {-1, 7, 0, 1, kTVMFFIObject},
      {-1, 1, 0, 1, 99999},             {-1, 1, 0, 1, -7},
      {-1, 0, 0, 1, -1},                {INT32_MAX, 0, 0, 0, -1},
      {kTVMFFIStr, 1, 0, 0, kTVMFFIObject}, {-1, 2, 0, 1, kTVMFFIStr},
      {-1, 1, 0, 1, kTVMFFIInt},
  };
  for (size_t i = 0; i < sizeof(bad_args) / sizeof(bad_args[0]); ++i) {
    const int32_t* a = bad_args[i];
    int32_t r = TVMFFITypeGetOrAllocIndex(&k1, a[0], a[1], a[2], a[3], a[4]);
    char call[128];
    snprintf(call, sizeof(call), "TVMFFITypeGetOrAllocIndex(row %zu)", i);
    if (r >= 0) {
      violation("accepted bad arguments", call, NULL);
    } else {
      expect_fail(-1, "TVMFFITypeGetOrAllocIndex", call);
    }
  }
  /* Query mode on a missing key is -2 without an error. */
  CHECK_EQ_INT(TVMFFITypeGetOrAllocIndex(&unknown, -1, 1, 0, 1, -2), -2);
  check_outcome(0, NULL, "TVMFFITypeGetOrAllocIndex(query)");

  /* Field/method/metadata/attr registration on bad indices and bad infos. */
  TVMFFIFieldInfo fi;
  memset(&fi, 0, sizeof(fi));
  fi.name = (TVMFFIByteArray){"f", 1};
  TVMFFIMethodInfo mi;
  memset(&mi, 0, sizeof(mi));
  mi.name = (TVMFFIByteArray){"m", 1};
  TVMFFITypeMetadata md;
  memset(&md, 0, sizeof(md));
  static const int32_t bad_indices[] = {-1, -5, 20, 100, 99999, INT32_MAX, INT32_MIN};
  for (size_t i = 0; i < sizeof(bad_indices) / sizeof(bad_indices[0]); ++i) {
    int32_t t = bad_indices[i];
    EXPECT_FAIL("TVMFFITypeRegisterField", TVMFFITypeRegisterField(t, &fi));
    EXPECT_FAIL("TVMFFITypeRegisterMethod", TVMFFITypeRegisterMethod(t, &mi));
    EXPECT_FAIL("TVMFFITypeRegisterMetadata", TVMFFITypeRegisterMetadata(t, &md));
  }
  EXPECT_FAIL("TVMFFITypeRegisterField", TVMFFITypeRegisterField(kTVMFFIObject, NULL));
  EXPECT_FAIL("TVMFFITypeRegisterMethod", TVMFFITypeRegisterMethod(kTVMFFIObject, NULL));
  EXPECT_FAIL("TVMFFITypeRegisterMetadata", TVMFFITypeRegisterMetadata(kTVMFFIObject, NULL));
  fi.name = bad;
  mi.name = bad;
  md.doc = bad;
  EXPECT_FAIL("TVMFFITypeRegisterField", TVMFFITypeRegisterField(kTVMFFIObject, &fi));
  EXPECT_FAIL("TVMFFITypeRegisterMethod", TVMFFITypeRegisterMethod(kTVMFFIObject, &mi));
  EXPECT_FAIL("TVMFFITypeRegisterMetadata", TVMFFITypeRegisterMetadata(kTVMFFIObject, &md));
  /* A malformed default value / method value is refused, not stored. */
  pool_t pool;
  memset(&pool, 0, sizeof(pool));
  fi.name = (TVMFFIByteArray){"f", 1};
  fi.default_value_or_factory = make_value(&pool, K_RAW_STR_NULL);
  EXPECT_FAIL("TVMFFIAnyViewToOwnedAny", TVMFFITypeRegisterField(kTVMFFIObject, &fi));
  mi.name = (TVMFFIByteArray){"m", 1};
  mi.method = make_value(&pool, K_RVALUE_MOVED);
  EXPECT_FAIL("TVMFFIAnyViewToOwnedAny", TVMFFITypeRegisterMethod(kTVMFFIObject, &mi));
  CHECK_EQ_INT(TVMFFIGetTypeInfo(kTVMFFIObject)->num_fields, 0);

  TVMFFIByteArray attr = {"harden.attr", 11};
  TVMFFIAny value = tether_any_int(1);
  EXPECT_FAIL("TVMFFITypeRegisterAttr", TVMFFITypeRegisterAttr(kTVMFFIObject, NULL, &value));
  EXPECT_FAIL("TVMFFITypeRegisterAttr", TVMFFITypeRegisterAttr(kTVMFFIObject, &bad, &value));
  EXPECT_FAIL("TVMFFITypeRegisterAttr", TVMFFITypeRegisterAttr(kTVMFFIObject, &attr, NULL));
  EXPECT_FAIL("TVMFFITypeRegisterAttr", TVMFFITypeRegisterAttr(-1, &attr, &value));
  EXPECT_FAIL("TVMFFITypeRegisterAttr", TVMFFITypeRegisterAttr(INT32_MAX, &attr, &value));
  TVMFFIAny malformed = make_value(&pool, K_SMALL_STR_BAD);
  EXPECT_FAIL("TVMFFIAnyViewToOwnedAny", TVMFFITypeRegisterAttr(kTVMFFIObject, &attr, &malformed));
  pool_release(&pool);
  CHECK(TVMFFIGetTypeAttrColumn(NULL) == NULL);
  CHECK(TVMFFIGetTypeAttrColumn(&bad) == NULL);
  check_outcome(0, NULL, "TVMFFIGetTypeAttrColumn(NULL)");
}

/* TVMFFIGetTypeInfo is "log-exception" (spec 2): an unknown index prints and exits. */
static void test_get_type_info_unknown_exits(void) {
  static const int32_t unknown[] = {-1, 20, 99999, INT32_MAX};
  for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); ++i) {
    int pipefd[2];
    CHECK(pipe(pipefd) == 0);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
      dup2(pipefd[1], 2);
      close(pipefd[0]);
      /* Declared pure: an unused result would let the compiler drop the call. */
      const TVMFFITypeInfo* volatile info = TVMFFIGetTypeInfo(unknown[i]);
      (void)info;
      _exit(0); /* not reached */
    }
    close(pipefd[1]);
    char buf[512];
    size_t n = 0;
    ssize_t r;
    while (n + 1 < sizeof(buf) && (r = read(pipefd[0], buf + n, sizeof(buf) - 1 - n)) > 0) {
      n += (size_t)r;
    }
    buf[n] = '\0';
    close(pipefd[0]);
    int status = 0;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 255);
    char expected[96];
    snprintf(expected, sizeof(expected), "TVMFFIGetTypeInfo: unknown type index %d",
             (int)unknown[i]);
    CHECK(strstr(buf, expected) != NULL);
  }
  /* Valid indices (the POD keys included) never exit. */
  CHECK_EQ_INT(TVMFFIGetTypeInfo(kTVMFFINone)->type_index, kTVMFFINone);
  CHECK_EQ_INT(TVMFFIGetTypeInfo(kTVMFFIDict)->type_index, kTVMFFIDict);
}

static void test_abi_init_once_and_env(void) {
  void* slot = NULL;
  EXPECT_FAIL("TVMFFIHandleInitOnce", TVMFFIHandleInitOnce(NULL, init_returns_null));
  EXPECT_FAIL("TVMFFIHandleInitOnce", TVMFFIHandleInitOnce(&slot, NULL));
  EXPECT_FAIL("TVMFFIHandleInitOnce", TVMFFIHandleInitOnce(&slot, init_returns_null));
  CHECK(slot == NULL);
  EXPECT_FAIL("TVMFFIHandleDeinitOnce", TVMFFIHandleDeinitOnce(NULL, deinit_ok));
  EXPECT_FAIL("TVMFFIHandleDeinitOnce", TVMFFIHandleDeinitOnce(&slot, NULL));
  CHECK_OK(TVMFFIHandleDeinitOnce(&slot, deinit_ok)); /* empty slot: nothing to do */

  TVMFFIStreamHandle prev = NULL;
  EXPECT_FAIL("TVMFFIEnvSetStream", TVMFFIEnvSetStream(-1, 0, NULL, &prev));
  EXPECT_FAIL("TVMFFIEnvSetStream", TVMFFIEnvSetStream(kDLCUDA, -1, NULL, &prev));
  EXPECT_FAIL("TVMFFIEnvSetStream", TVMFFIEnvSetStream(INT32_MIN, INT32_MIN, NULL, NULL));
  CHECK(TVMFFIEnvGetStream(-1, -1) == NULL);
  CHECK(TVMFFIEnvGetStream(INT32_MAX, INT32_MAX) == NULL);
  check_outcome(0, NULL, "TVMFFIEnvGetStream(bad)");

  DLPackManagedTensorAllocator old = NULL;
  CHECK_OK(TVMFFIEnvSetDLPackManagedTensorAllocator(NULL, 0, NULL));
  CHECK_OK(TVMFFIEnvSetDLPackManagedTensorAllocator(NULL, 0, &old));
  CHECK(TVMFFIEnvGetDLPackManagedTensorAllocator() == old || old == NULL);

  CHECK_OK(TVMFFIEnvCheckSignals());
  EXPECT_FAIL(NULL, TVMFFIEnvRegisterCAPI(NULL, NULL));
  EXPECT_FAIL(NULL, TVMFFIEnvRegisterCAPI("harden_bogus", (void*)&slot));
  EXPECT_FAIL("TVMFFIEnvModRegisterContextSymbol", TVMFFIEnvModRegisterContextSymbol(NULL, NULL));
  CHECK_OK(TVMFFIEnvModRegisterSystemLibSymbol(NULL, NULL)); /* warns, cannot fail */

  TVMFFIObjectHandle out = NULL;
  zoo_t z;
  zoo_make(&z);
  EXPECT_FAIL("TVMFFIEnvModLookupFromImports", TVMFFIEnvModLookupFromImports(NULL, "f", &out));
  EXPECT_FAIL("TVMFFIEnvModLookupFromImports",
              TVMFFIEnvModLookupFromImports(syslib_module, NULL, &out));
  EXPECT_FAIL("TVMFFIEnvModLookupFromImports",
              TVMFFIEnvModLookupFromImports(syslib_module, "f", NULL));
  for (size_t i = 0; i < ZOO_SIZE; ++i) {
    if (zoo_type(&z, i) == kTVMFFIModule) continue;
    EXPECT_FAIL("TVMFFIEnvModLookupFromImports",
                TVMFFIEnvModLookupFromImports(z.obj[i], "harden_no_such", &out));
  }
  EXPECT_FAIL(NULL, TVMFFIEnvModLookupFromImports(syslib_module, "harden_no_such", &out));
  zoo_free(&z);
}

/* A tensor handed over through DLPack; counts its deleter's runs. */
static int managed_deleted;
static void managed_deleter(DLManagedTensor* self) {
  (void)self;
  managed_deleted++;
}
static void managed_v_deleter(DLManagedTensorVersioned* self) {
  (void)self;
  managed_deleted++;
}

static void test_abi_tensors(void) {
  zoo_t z;
  zoo_make(&z);
  TVMFFIObjectHandle out = NULL, tensor = NULL;
  DLManagedTensor* mt = NULL;
  DLManagedTensorVersioned* mtv = NULL;
  int64_t shape[2] = {2, 3}, neg_shape[2] = {2, -3}, strides[2] = {3, 1};
  DLManagedTensor m;
  memset(&m, 0, sizeof(m));
  m.dl_tensor = static_dltensor;
  m.deleter = managed_deleter;
  DLManagedTensorVersioned mv;
  memset(&mv, 0, sizeof(mv));
  mv.version.major = DLPACK_MAJOR_VERSION;
  mv.dl_tensor = static_dltensor;
  mv.deleter = managed_v_deleter;

  EXPECT_FAIL("TVMFFITensorFromDLPack", TVMFFITensorFromDLPack(NULL, 0, 0, &out));
  EXPECT_FAIL("TVMFFITensorFromDLPack", TVMFFITensorFromDLPack(&m, 0, 0, NULL));
  EXPECT_FAIL("TVMFFITensorFromDLPackVersioned", TVMFFITensorFromDLPackVersioned(NULL, 0, 0, &out));
  EXPECT_FAIL("TVMFFITensorFromDLPackVersioned", TVMFFITensorFromDLPackVersioned(&mv, 0, 0, NULL));
  /* Malformed DLTensors: negative ndim, NULL shape, negative dims, zero bits/lanes, and
   * absurd alignment requests.  Ownership stays with the caller: no deleter runs. */
  DLTensor bad_tensors[6];
  for (int i = 0; i < 6; ++i) bad_tensors[i] = static_dltensor;
  bad_tensors[0].ndim = -1;
  bad_tensors[1].shape = NULL;
  bad_tensors[2].shape = neg_shape;
  bad_tensors[3].dtype.bits = 0;
  bad_tensors[4].dtype.lanes = 0;
  bad_tensors[5].ndim = 1 << 30;
  bad_tensors[5].shape = NULL;
  for (int i = 0; i < 6; ++i) {
    m.dl_tensor = bad_tensors[i];
    mv.dl_tensor = bad_tensors[i];
    EXPECT_FAIL("TVMFFITensorFromDLPack", TVMFFITensorFromDLPack(&m, 0, 0, &out));
    EXPECT_FAIL("TVMFFITensorFromDLPackVersioned", TVMFFITensorFromDLPackVersioned(&mv, 0, 0, &out));
  }
  m.dl_tensor = static_dltensor;
  mv.dl_tensor = static_dltensor;
  static const int32_t bad_align[] = {-1, 3, 1 << 30, INT32_MIN};
  for (size_t i = 0; i < sizeof(bad_align) / sizeof(bad_align[0]); ++i) {
    /* 3 may happen to divide the address: then the tensor took `m` over, and releasing
     * it runs m's deleter. */
    if (EXPECT_OUTCOME(NULL, TVMFFITensorFromDLPack(&m, bad_align[i], 0, &out)) == 0) {
      TVMFFIObjectDecRef(out);
      managed_deleted--;
    }
  }
  mv.flags = 4; /* IS_SUBBYTE_TYPE_PADDED */
  EXPECT_FAIL(NULL, TVMFFITensorFromDLPackVersioned(&mv, 0, 0, &out));
  CHECK_EQ_INT(managed_deleted, 0);

  EXPECT_FAIL("TVMFFITensorToDLPack", TVMFFITensorToDLPack(NULL, &mt));
  EXPECT_FAIL("TVMFFITensorToDLPackVersioned", TVMFFITensorToDLPackVersioned(NULL, &mtv));
  CHECK_OK(tether_tensor_empty(shape, 2, (DLDataType){kDLFloat, 32, 1}, (DLDevice){kDLCPU, 0},
                               &tensor));
  EXPECT_FAIL("TVMFFITensorToDLPack", TVMFFITensorToDLPack(tensor, NULL));
  EXPECT_FAIL("TVMFFITensorToDLPackVersioned", TVMFFITensorToDLPackVersioned(tensor, NULL));
  for (size_t i = 0; i < ZOO_SIZE; ++i) {
    if (zoo_type(&z, i) == kTVMFFITensor) continue;
    EXPECT_FAIL("TVMFFITensorToDLPack", TVMFFITensorToDLPack(z.obj[i], &mt));
    EXPECT_FAIL("TVMFFITensorToDLPackVersioned", TVMFFITensorToDLPackVersioned(z.obj[i], &mtv));
    EXPECT_FAIL("TVMFFITensorCreateUnsafeView",
                TVMFFITensorCreateUnsafeView(z.obj[i], &static_dltensor, &out));
  }

  DLTensor view = static_dltensor;
  view.strides = strides;
  EXPECT_FAIL("TVMFFITensorCreateUnsafeView", TVMFFITensorCreateUnsafeView(NULL, &view, &out));
  EXPECT_FAIL("TVMFFITensorCreateUnsafeView", TVMFFITensorCreateUnsafeView(tensor, NULL, &out));
  EXPECT_FAIL("TVMFFITensorCreateUnsafeView", TVMFFITensorCreateUnsafeView(tensor, &view, NULL));
  EXPECT_FAIL("TVMFFITensorCreateUnsafeView",
              TVMFFITensorCreateUnsafeView(tensor, &static_dltensor, &out)); /* NULL strides */
  for (int i = 0; i < 6; ++i) {
    DLTensor b = bad_tensors[i];
    b.strides = strides;
    EXPECT_FAIL("TVMFFITensorCreateUnsafeView", TVMFFITensorCreateUnsafeView(tensor, &b, &out));
  }

  /* TVMFFIEnvTensorAlloc: no allocator, then tether's CPU one with bad prototypes. */
  DLPackManagedTensorAllocator saved = NULL;
  CHECK_OK(TVMFFIEnvSetDLPackManagedTensorAllocator(NULL, 0, &saved));
  EXPECT_FAIL("TVMFFIEnvTensorAlloc", TVMFFIEnvTensorAlloc(NULL, &out));
  EXPECT_FAIL("TVMFFIEnvTensorAlloc", TVMFFIEnvTensorAlloc(&view, NULL));
  if (TVMFFIEnvGetDLPackManagedTensorAllocator() == NULL) {
    EXPECT_FAIL("TVMFFIEnvTensorAlloc", TVMFFIEnvTensorAlloc(&view, &out));
  }
  CHECK_OK(TVMFFIEnvSetDLPackManagedTensorAllocator(tether_cpu_dlpack_allocator, 0, NULL));
  for (int i = 0; i < 6; ++i) {
    EXPECT_FAIL("tether_cpu_dlpack_allocator", TVMFFIEnvTensorAlloc(&bad_tensors[i], &out));
  }
  DLTensor cuda = static_dltensor;
  cuda.device.device_type = kDLCUDA;
  EXPECT_FAIL("tether_cpu_dlpack_allocator", TVMFFIEnvTensorAlloc(&cuda, &out));
  DLTensor huge = static_dltensor;
  int64_t huge_shape[2] = {INT64_MAX / 2, 4};
  huge.shape = huge_shape;
  EXPECT_FAIL("tether_cpu_dlpack_allocator", TVMFFIEnvTensorAlloc(&huge, &out));
  CHECK_OK(TVMFFIEnvSetDLPackManagedTensorAllocator(saved, 0, NULL));

  TVMFFIObjectDecRef(tensor);
  zoo_free(&z);
}

/* ---- tether.h ------------------------------------------------------------------------------- */

static void test_tether_any_helpers(void) {
  pool_t pool;
  memset(&pool, 0, sizeof(pool));
  TVMFFIAny v = tether_any_int(1), out = tether_any_none();
  TVMFFIByteArray b;
  /* void/bool helpers have no error channel: NULL is a no-op, false, or an empty answer. */
  tether_any_release(NULL);
  tether_any_copy(NULL, &out);
  CHECK_EQ_INT(out.type_index, kTVMFFINone);
  tether_any_copy(&v, NULL);
  CHECK(!tether_any_get_str(NULL, &b));
  CHECK(!tether_any_get_str(&v, NULL));
  CHECK(!tether_any_get_bytes(NULL, &b));
  CHECK(!tether_any_get_bytes(&v, NULL));
  (void)tether_any_hash(NULL);
  CHECK(!tether_any_equal(NULL, &v));
  CHECK(!tether_any_equal(&v, NULL));
  CHECK(tether_any_type_key(NULL) != NULL);
  /* Malformed views: the getters refuse them; hash/equal/type_key do not crash. */
  for (int k = 0; k < K_COUNT; ++k) {
    TVMFFIAny x = make_value(&pool, k);
    bool is_str = tether_any_get_str(&x, &b);
    if (k == K_RAW_STR_NULL || k == K_SMALL_STR_BAD) CHECK(!is_str);
    bool is_bytes = tether_any_get_bytes(&x, &b);
    if (k == K_BYTES_PTR_NULL || k == K_BYTES_PTR_BAD) CHECK(!is_bytes);
    if (k == K_OBJ_NULL || k == K_RVALUE_NULL || k == K_RVALUE_MOVED) CHECK(!is_str && !is_bytes);
    (void)tether_any_hash(&x);
    (void)tether_any_equal(&x, &x);
    (void)tether_any_equal(&x, &v);
    CHECK(tether_any_type_key(&x) != NULL);
  }
  pool_release(&pool);
  check_outcome(0, NULL, "tether_any_* on malformed values");

  /* Objects and types. */
  CHECK_EQ_INT(tether_object_use_count(NULL), 0);
  tether_object_inc_weak(NULL);
  tether_object_dec_weak(NULL);
  CHECK(tether_object_lock_weak(NULL) == NULL);
  CHECK(!tether_type_is_subclass(-5, kTVMFFIObject));
  CHECK(!tether_type_is_subclass(99999, kTVMFFIArray));
  CHECK(!tether_type_is_subclass(kTVMFFIArray, 99999));
  CHECK(!tether_type_is_subclass(INT32_MIN, INT32_MAX));
  CHECK_EQ_STR(tether_type_key(-5), "<unknown>");
  CHECK_EQ_STR(tether_type_key(INT32_MAX), "<unknown>");

  /* Raising with NULLs still parks an error. */
  CHECK_EQ_INT(tether_error_raisef_at(NULL, -1, NULL, NULL, NULL), -1);
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  CHECK(err != NULL);
  CHECK_BYTES(tether_error_kind(err), "RuntimeError");
  TVMFFIObjectDecRef(err);
  CHECK_EQ_INT(tether_error_kind(NULL).size, 0);
  CHECK_EQ_INT(tether_error_message(NULL).size, 0);
  CHECK_EQ_INT(tether_error_backtrace(NULL).size, 0);
  TVMFFIObjectHandle s = make_object(K_STR);
  CHECK_EQ_INT(tether_error_message(s).size, 0); /* not an Error: reads as empty */
  TVMFFIObjectDecRef(s);
}

static void test_tether_arg_helpers(void) {
  TVMFFIAny args[2] = {tether_any_int(1), tether_any_raw_str(NULL)};
  int64_t i64;
  double f64;
  bool b;
  TVMFFIByteArray str;
  TVMFFIObject* obj;
  EXPECT_FAIL("f(0: int)", tether_check_nargs("f(0: int)", NULL, 0, 1));
  EXPECT_FAIL("Mismatched number", tether_check_nargs(NULL, NULL, -1, 1));
  EXPECT_FAIL("tether_arg_int", tether_arg_int("f", NULL, 0, &i64));
  EXPECT_FAIL("tether_arg_int", tether_arg_int("f", args, -1, &i64));
  EXPECT_FAIL("tether_arg_int", tether_arg_int("f", args, 0, NULL));
  EXPECT_FAIL("tether_arg_float", tether_arg_float("f", NULL, 0, &f64));
  EXPECT_FAIL("tether_arg_float", tether_arg_float("f", args, 0, NULL));
  EXPECT_FAIL("tether_arg_bool", tether_arg_bool("f", NULL, 0, &b));
  EXPECT_FAIL("tether_arg_bool", tether_arg_bool("f", args, 0, NULL));
  EXPECT_FAIL("tether_arg_str", tether_arg_str("f", NULL, 0, &str));
  EXPECT_FAIL("tether_arg_str", tether_arg_str("f", args, 0, NULL));
  EXPECT_FAIL("f", tether_arg_str("f", args, 1, &str)); /* a NULL const char* */
  EXPECT_FAIL("tether_arg_object", tether_arg_object("f", NULL, 0, kTVMFFIObject, &obj));
  EXPECT_FAIL("tether_arg_object", tether_arg_object("f", args, 0, kTVMFFIObject, NULL));
  EXPECT_FAIL("f", tether_arg_object("f", args, 0, 99999, &obj));
  EXPECT_FAIL("Mismatched type", tether_arg_int(NULL, args, 1, &i64));
}

/* ---- container.h ---------------------------------------------------------------------- */

/* Every handle-taking container function against every object of the wrong kind. */
static void test_containers_wrong_handles(void) {
  zoo_t z;
  zoo_make(&z);
  TVMFFIAny v = tether_any_int(1), out = tether_any_none();
  int64_t pos = 0;
  for (size_t i = 0; i <= ZOO_SIZE; ++i) {
    TVMFFIObjectHandle h = i < ZOO_SIZE ? z.obj[i] : NULL; /* last round: NULL */
    int32_t t = h != NULL ? ((TVMFFIObject*)h)->type_index : -1;
    TVMFFIObjectHandle hv = h;
    if (t != kTVMFFIArray) {
      CHECK_EQ_INT(tether_array_size(h), -1);
      expect_fail(-1, "tether_array_size", "tether_array_size(wrong)");
      CHECK(tether_array_at(h, 0) == NULL);
      EXPECT_FAIL("tether_array_get", tether_array_get(h, 0, &out));
      EXPECT_FAIL("tether_array_append", tether_array_append(&hv, &v));
      EXPECT_FAIL("tether_array_set", tether_array_set(&hv, 0, &v));
      CHECK(hv == h);
    }
    if (t != kTVMFFIList) {
      CHECK_EQ_INT(tether_list_size(h), -1);
      expect_fail(-1, "tether_list_size", "tether_list_size(wrong)");
      CHECK(tether_list_at(h, 0) == NULL);
      EXPECT_FAIL("tether_list_get", tether_list_get(h, 0, &out));
      EXPECT_FAIL("tether_list_set", tether_list_set(h, 0, &v));
      EXPECT_FAIL("tether_list_append", tether_list_append(h, &v));
      EXPECT_FAIL("tether_list_insert", tether_list_insert(h, 0, &v));
      EXPECT_FAIL("tether_list_pop", tether_list_pop(h, 0, &out));
      EXPECT_FAIL("tether_list_erase_range", tether_list_erase_range(h, 0, 0));
      EXPECT_FAIL("tether_list_replace_slice", tether_list_replace_slice(h, 0, 0, &v, 1));
      EXPECT_FAIL("tether_list_reverse", tether_list_reverse(h));
      EXPECT_FAIL("tether_list_clear", tether_list_clear(h));
    }
    if (t != kTVMFFIMap && t != kTVMFFIDict) {
      CHECK_EQ_INT(tether_map_size(h), -1);
      expect_fail(-1, "tether_map_size", "tether_map_size(wrong)");
      CHECK(tether_map_find(h, &v) == NULL);
      EXPECT_FAIL("tether_map_get", tether_map_get(h, &v, &out));
      CHECK(!tether_map_next(h, &pos, NULL, NULL));
      EXPECT_FAIL("tether_map_set", tether_map_set(&hv, &v, &v));
      EXPECT_FAIL("tether_map_erase", tether_map_erase(&hv, &v));
      CHECK(hv == h);
    }
    if (t != kTVMFFIDict) {
      EXPECT_FAIL("tether_dict_set", tether_dict_set(h, &v, &v));
      EXPECT_FAIL("tether_dict_erase", tether_dict_erase(h, &v));
      EXPECT_FAIL("tether_dict_clear", tether_dict_clear(h));
    }
    if (t != kTVMFFIShape) {
      CHECK_EQ_INT(tether_shape_size(h), -1);
      expect_fail(-1, "tether_shape_size", "tether_shape_size(wrong)");
      CHECK(tether_shape_data(h) == NULL);
    }
    if (t != kTVMFFITensor) CHECK(tether_tensor_dl(h) == NULL);
  }
  EXPECT_FAIL("tether_array_append", tether_array_append(NULL, &v));
  EXPECT_FAIL("tether_array_set", tether_array_set(NULL, 0, &v));
  EXPECT_FAIL("tether_map_set", tether_map_set(NULL, &v, &v));
  EXPECT_FAIL("tether_map_erase", tether_map_erase(NULL, &v));
  zoo_free(&z);
}

/* NULL out-params, NULL/negative counts, out-of-range indices, NULL and malformed values. */
static void test_containers_bad_arguments(void) {
  pool_t pool;
  memset(&pool, 0, sizeof(pool));
  TVMFFIObjectHandle arr = make_object(K_ARRAY), list = make_object(K_LIST);
  TVMFFIObjectHandle map = make_object(K_MAP), dict = make_object(K_DICT), h = NULL;
  TVMFFIAny v = tether_any_int(1), out = tether_any_none();
  TVMFFIAny kv[2] = {tether_any_int(1), tether_any_int(2)};
  static const int64_t bad_index[] = {-1, 2, 3, INT64_MAX, INT64_MIN};

  EXPECT_FAIL("tether_array_new", tether_array_new(NULL, 2, &h));
  EXPECT_FAIL("tether_array_new", tether_array_new(kv, -1, &h));
  EXPECT_FAIL("tether_array_new", tether_array_new(kv, 2, NULL));
  EXPECT_FAIL("tether_array_new_steal", tether_array_new_steal(NULL, 2, &h));
  EXPECT_FAIL("tether_array_new_steal", tether_array_new_steal(kv, -1, &h));
  EXPECT_FAIL("tether_array_new_steal", tether_array_new_steal(kv, 2, NULL));
  EXPECT_FAIL("tether_list_new", tether_list_new(NULL, 2, &h));
  EXPECT_FAIL("tether_list_new", tether_list_new(kv, -1, &h));
  EXPECT_FAIL("tether_list_new", tether_list_new(kv, 2, NULL));
  EXPECT_FAIL("tether_map_new", tether_map_new(NULL, 1, &h));
  EXPECT_FAIL("tether_map_new", tether_map_new(kv, -1, &h));
  EXPECT_FAIL("tether_map_new", tether_map_new(kv, 1, NULL));
  EXPECT_FAIL("tether_dict_new", tether_dict_new(NULL, 1, &h));
  EXPECT_FAIL("tether_dict_new", tether_dict_new(kv, -1, &h));
  EXPECT_FAIL("tether_dict_new", tether_dict_new(kv, 1, NULL));
  EXPECT_FAIL("tether_shape_new", tether_shape_new(NULL, 2, &h));
  EXPECT_FAIL("tether_shape_new", tether_shape_new(tensor_shape, -1, &h));
  EXPECT_FAIL("tether_shape_new", tether_shape_new(tensor_shape, 2, NULL));
  EXPECT_FAIL("tether_shape_new", tether_shape_new(tensor_shape, INT64_MAX, &h));

  for (size_t i = 0; i < sizeof(bad_index) / sizeof(bad_index[0]); ++i) {
    int64_t x = bad_index[i];
    CHECK(tether_array_at(arr, x) == NULL);
    CHECK(tether_list_at(list, x) == NULL);
    EXPECT_FAIL(NULL, tether_array_get(arr, x, &out));
    EXPECT_FAIL(NULL, tether_array_set(&arr, x, &v));
    EXPECT_FAIL(NULL, tether_list_get(list, x, &out));
    EXPECT_FAIL(NULL, tether_list_set(list, x, &v));
    EXPECT_FAIL(NULL, tether_list_pop(list, x, &out));
    EXPECT_FAIL(NULL, tether_list_erase_range(list, x, 1));
    EXPECT_FAIL(NULL, tether_list_erase_range(list, 0, x == 2 ? 3 : x));
    EXPECT_FAIL(NULL, tether_list_replace_slice(list, x, x == 2 ? 3 : x, &v, 1));
    if (x != 2) EXPECT_FAIL(NULL, tether_list_insert(list, x, &v));
  }
  EXPECT_FAIL("tether_list_replace_slice", tether_list_replace_slice(list, 0, 0, NULL, 1));
  EXPECT_FAIL("tether_list_replace_slice", tether_list_replace_slice(list, 0, 0, &v, -1));
  CHECK_EQ_INT(tether_array_size(arr), 2);
  CHECK_EQ_INT(tether_list_size(list), 2);

  /* NULL out and NULL values. */
  EXPECT_FAIL("tether_array_get", tether_array_get(arr, 0, NULL));
  EXPECT_FAIL("tether_list_get", tether_list_get(list, 0, NULL));
  EXPECT_FAIL("tether_map_get", tether_map_get(map, &v, NULL));
  EXPECT_FAIL("tether_map_get", tether_map_get(map, NULL, &out));
  CHECK(tether_map_find(map, NULL) == NULL);
  EXPECT_FAIL("tether_array_append", tether_array_append(&arr, NULL));
  EXPECT_FAIL("tether_array_set", tether_array_set(&arr, 0, NULL));
  EXPECT_FAIL("tether_list_set", tether_list_set(list, 0, NULL));
  EXPECT_FAIL("tether_list_append", tether_list_append(list, NULL));
  EXPECT_FAIL("tether_list_insert", tether_list_insert(list, 0, NULL));
  EXPECT_FAIL("tether_map_set", tether_map_set(&map, NULL, &v));
  EXPECT_FAIL("tether_map_set", tether_map_set(&map, &v, NULL));
  EXPECT_FAIL("tether_map_erase", tether_map_erase(&map, NULL));
  EXPECT_FAIL("tether_dict_set", tether_dict_set(dict, NULL, &v));
  EXPECT_FAIL("tether_dict_set", tether_dict_set(dict, &v, NULL));
  EXPECT_FAIL("tether_dict_erase", tether_dict_erase(dict, NULL));
  CHECK(!tether_map_next(map, NULL, NULL, NULL));
  int64_t pos = INT64_MAX;
  CHECK(!tether_map_next(map, &pos, NULL, NULL));
  pos = INT64_MIN;
  const TVMFFIAny *key = NULL, *value = NULL;
  CHECK(tether_map_next(map, &pos, &key, &value)); /* negative: from the start */
  CHECK_OK(tether_list_pop(list, 0, NULL));         /* NULL out: value dropped */
  CHECK_OK(tether_list_append(list, &v));

  /* Every malformed value, as element, key and value: refused, nothing changes. */
  static const int malformed[] = {K_RAW_STR_NULL, K_SMALL_STR_BAD, K_BYTES_PTR_NULL, K_BYTES_PTR_BAD,
                                  K_RVALUE_MOVED, K_RVALUE_NULL,   K_RESERVED_20,    K_NEG_INDEX,
                                  K_ANY_INDEX,    K_OBJ_NULL};
  for (size_t i = 0; i < sizeof(malformed) / sizeof(malformed[0]); ++i) {
    TVMFFIAny bad = make_value(&pool, malformed[i]);
    TVMFFIAny pair[2] = {bad, v};
    EXPECT_FAIL("tether_array_new", tether_array_new(&bad, 1, &h));
    EXPECT_FAIL("tether_list_new", tether_list_new(&bad, 1, &h));
    EXPECT_FAIL("tether_map_new", tether_map_new(pair, 1, &h));
    EXPECT_FAIL("tether_dict_new", tether_dict_new(pair, 1, &h));
    EXPECT_FAIL("tether_array_append", tether_array_append(&arr, &bad));
    EXPECT_FAIL("tether_array_set", tether_array_set(&arr, 0, &bad));
    EXPECT_FAIL("tether_list_set", tether_list_set(list, 0, &bad));
    EXPECT_FAIL("tether_list_append", tether_list_append(list, &bad));
    EXPECT_FAIL("tether_list_insert", tether_list_insert(list, 0, &bad));
    EXPECT_FAIL("tether_list_replace_slice", tether_list_replace_slice(list, 0, 1, &bad, 1));
    EXPECT_FAIL("tether_map_set", tether_map_set(&map, &bad, &v));
    EXPECT_FAIL("tether_map_set", tether_map_set(&map, &v, &bad));
    EXPECT_FAIL("tether_dict_set", tether_dict_set(dict, &bad, &v));
    EXPECT_FAIL("tether_dict_set", tether_dict_set(dict, &v, &bad));
    /* Lookups with a malformed key find nothing (and erase nothing). */
    CHECK(tether_map_find(map, &bad) == NULL);
    EXPECT_FAIL(NULL, tether_map_get(map, &bad, &out));
    EXPECT_OUTCOME(NULL, tether_map_erase(&map, &bad));
    EXPECT_OUTCOME(NULL, tether_dict_erase(dict, &bad));
  }
  pool_release(&pool);
  CHECK_EQ_INT(tether_array_size(arr), 2);
  CHECK_EQ_INT(tether_list_size(list), 2);
  CHECK_EQ_INT(tether_map_size(map), 1);
  CHECK_EQ_INT(tether_map_size(dict), 1);
  TVMFFIObjectDecRef(arr);
  TVMFFIObjectDecRef(list);
  TVMFFIObjectDecRef(map);
  TVMFFIObjectDecRef(dict);
}

/* ---- tensor.h ------------------------------------------------------------------------------ */

static int set_error_calls;
static void record_set_error(void* ctx, const char* kind, const char* message) {
  (void)ctx;
  set_error_calls++;
  TVMFFIErrorSetRaisedFromCStr(kind, message);
}

static void test_tensor_helpers(void) {
  TVMFFIObjectHandle t = NULL;
  DLDataType f32 = {kDLFloat, 32, 1};
  DLDevice cpu = {kDLCPU, 0};
  int64_t shape[2] = {2, 3}, neg[2] = {2, -1}, huge[2] = {INT64_MAX, 2};
  EXPECT_FAIL("tether_tensor_empty", tether_tensor_empty(shape, 2, f32, cpu, NULL));
  EXPECT_FAIL("tether_tensor_empty", tether_tensor_empty(NULL, 2, f32, cpu, &t));
  EXPECT_FAIL("tether_tensor_empty", tether_tensor_empty(shape, -1, f32, cpu, &t));
  EXPECT_FAIL("tether_tensor_empty", tether_tensor_empty(neg, 2, f32, cpu, &t));
  EXPECT_FAIL("tether_tensor_empty", tether_tensor_empty(huge, 2, f32, cpu, &t));
  EXPECT_FAIL("tether_tensor_empty", tether_tensor_empty(shape, 2, (DLDataType){kDLFloat, 0, 1}, cpu, &t));
  EXPECT_FAIL("tether_tensor_empty", tether_tensor_empty(shape, 2, (DLDataType){kDLFloat, 32, 0}, cpu, &t));
  EXPECT_FAIL("tether_tensor_empty", tether_tensor_empty(shape, 2, f32, (DLDevice){kDLCUDA, 0}, &t));
  EXPECT_FAIL("tether_tensor_empty", tether_tensor_empty(shape, 2, f32, (DLDevice){-1, -1}, &t));
  CHECK(tether_tensor_dl(NULL) == NULL);

  DLManagedTensorVersioned* mt = NULL;
  DLTensor bad = static_dltensor;
  bad.ndim = -3;
  EXPECT_FAIL("tether_cpu_dlpack_allocator", tether_cpu_dlpack_allocator(NULL, &mt, NULL, NULL));
  EXPECT_FAIL("tether_cpu_dlpack_allocator",
              tether_cpu_dlpack_allocator(&static_dltensor, NULL, NULL, NULL));
  EXPECT_FAIL("tether_cpu_dlpack_allocator", tether_cpu_dlpack_allocator(&bad, &mt, NULL, NULL));
  set_error_calls = 0;
  EXPECT_FAIL("tether_cpu_dlpack_allocator",
              tether_cpu_dlpack_allocator(&bad, &mt, NULL, record_set_error));
  CHECK_EQ_INT(set_error_calls, 1);
  CHECK(mt == NULL);
}

/* ---- reflection.h ------------------------------------------------------------------------ */

/* A reflected type of this test: harden.Point {int64 abc = 0; str name = "p"}.  The field
 * is called `abc` so that the sweep's small-string value names it. */
typedef struct {
  TVMFFIObject header;
  int64_t abc;
  TVMFFIAny name;
} harden_point_t;

static int32_t point_index = -1;

static void define_point_type(void) {
  TVMFFIByteArray key = {"harden.Point", 12};
  point_index = TVMFFITypeGetOrAllocIndex(&key, -1, 1, 0, 1, kTVMFFIObject);
  TVMFFIAny zero = tether_any_int(0), p = tether_any_raw_str("p");
  tether_field_def_t abc = {"abc", TETHER_FIELD_INT64, offsetof(harden_point_t, abc),
                            kTVMFFIFieldFlagBitMaskWritable, 0, &zero, NULL};
  tether_field_def_t name = {"name", TETHER_FIELD_STRING, offsetof(harden_point_t, name),
                             kTVMFFIFieldFlagBitMaskWritable, 0, &p, NULL, NULL,
                             "\"unit\": \"chars\""};
  if (point_index < 0 || tether_type_def_field(point_index, &abc) != 0 ||
      tether_type_def_field(point_index, &name) != 0 ||
      tether_type_def_finish(point_index, sizeof(harden_point_t), "a test type") != 0) {
    fprintf(stderr, "cannot define harden.Point\n");
    abort();
  }
}

static void test_reflection_helpers(void) {
  zoo_t z;
  zoo_make(&z);
  pool_t pool;
  memset(&pool, 0, sizeof(pool));
  TVMFFIAny v = tether_any_int(3), out = tether_any_none();
  TVMFFIObjectHandle h = NULL;

  CHECK(tether_field_getter((tether_field_kind)-1) == NULL);
  CHECK(tether_field_getter(TETHER_FIELD_NUM_KINDS) == NULL);
  CHECK(tether_field_setter((tether_field_kind)9999) == NULL);
  CHECK_EQ_INT(tether_field_kind_of_getter(NULL), -1);
  CHECK(tether_device_type_name(-1) == NULL);
  CHECK(tether_device_type_name(INT32_MAX) == NULL);
  CHECK_EQ_INT(tether_device_type_from_name(NULL, 3), -1);
  CHECK_EQ_INT(tether_device_type_from_name("cpu", 0), -1);
  CHECK_EQ_INT(tether_device_type_from_name("nope", 4), -1);

  /* Definitions on bad indices and with bad descriptions. */
  tether_field_def_t def = {"f", TETHER_FIELD_INT64, 24, 0, 0, NULL, NULL};
  EXPECT_FAIL(NULL, tether_type_def_field(-1, &def));
  EXPECT_FAIL(NULL, tether_type_def_field(99999, &def));
  EXPECT_FAIL("tether_type_def_field", tether_type_def_field(point_index, NULL));
  def.name = NULL;
  EXPECT_FAIL("tether_type_def_field", tether_type_def_field(point_index, &def));
  def.name = "f";
  def.kind = (tether_field_kind)99;
  EXPECT_FAIL("tether_type_def_field", tether_type_def_field(point_index, &def));
  def.kind = TETHER_FIELD_INT64;
  def.offset = 8; /* inside the header */
  EXPECT_FAIL("tether_type_def_field", tether_type_def_field(point_index, &def));
  def.offset = -100;
  EXPECT_FAIL("tether_type_def_field", tether_type_def_field(point_index, &def));
  EXPECT_FAIL(NULL, tether_type_def_method(-1, "m", return_none, false, NULL));
  EXPECT_FAIL("tether_type_def_method", tether_type_def_method(point_index, "m", NULL, false, NULL));
  EXPECT_FAIL(NULL, tether_type_def_finish(-1, 64, NULL));
  EXPECT_FAIL(NULL, tether_type_def_finish(point_index, 64, NULL)); /* twice */
  /* A total size that cannot hold the fields would let setters write past the object. */
  TVMFFIByteArray key = {"harden.Small", 12};
  int32_t small = TVMFFITypeGetOrAllocIndex(&key, -1, 1, 0, 1, kTVMFFIObject);
  tether_field_def_t far = {"far", TETHER_FIELD_INT64, 64, 0, 0, NULL, NULL};
  CHECK_OK(tether_type_def_field(small, &far));
  EXPECT_FAIL("tether_type_def_finish", tether_type_def_finish(small, 32, NULL));
  EXPECT_FAIL("tether_type_def_finish", tether_type_def_finish(small, -8, NULL));
  EXPECT_FAIL(NULL, tether_object_new_reflected(small, &h)); /* no metadata */

  CHECK(tether_type_find_field(-1, "abc", 3) == NULL);
  CHECK(tether_type_find_field(point_index, NULL, 3) == NULL);
  CHECK(tether_type_find_field(point_index, "nope", 4) == NULL);
  const TVMFFIFieldInfo* abc = tether_type_find_field(point_index, "abc", 3);
  CHECK(abc != NULL);
  /* extra metadata members follow the type schema in the field's metadata object */
  const TVMFFIFieldInfo* name_field = tether_type_find_field(point_index, "name", 4);
  CHECK(name_field != NULL);
  if (name_field != NULL) {
    static const char want[] = "{\"type_schema\": \"{\\\"type\\\":\\\"ffi.String\\\"}\", "
                               "\"unit\": \"chars\"}";
    CHECK_EQ_INT(name_field->metadata.size, sizeof(want) - 1);
    CHECK(name_field->metadata.size == sizeof(want) - 1 &&
          memcmp(name_field->metadata.data, want, sizeof(want) - 1) == 0);
  }

  EXPECT_FAIL("tether_object_new_reflected", tether_object_new_reflected(point_index, NULL));
  static const int32_t not_reflected[] = {-1, kTVMFFINone, kTVMFFIInt, kTVMFFIObject, kTVMFFIStr,
                                          kTVMFFIArray, 99999};
  for (size_t i = 0; i < sizeof(not_reflected) / sizeof(not_reflected[0]); ++i) {
    EXPECT_FAIL("tether_object_new_reflected", tether_object_new_reflected(not_reflected[i], &h));
  }
  TVMFFIObjectHandle point = NULL;
  CHECK_OK(tether_object_new_reflected(point_index, &point));

  EXPECT_FAIL("tether_field_get", tether_field_get(NULL, abc, &out));
  EXPECT_FAIL("tether_field_get", tether_field_get(point, NULL, &out));
  EXPECT_FAIL("tether_field_get", tether_field_get(point, abc, NULL));
  EXPECT_FAIL("tether_field_set", tether_field_set(NULL, abc, &v));
  EXPECT_FAIL("tether_field_set", tether_field_set(point, NULL, &v));
  EXPECT_FAIL("tether_field_set", tether_field_set(point, abc, NULL));
  /* A field of harden.Point on any other object would read/write foreign memory. */
  for (size_t i = 0; i < ZOO_SIZE; ++i) {
    EXPECT_FAIL("tether_field_get", tether_field_get(z.obj[i], abc, &out));
    EXPECT_FAIL("tether_field_set", tether_field_set(z.obj[i], abc, &v));
  }
  for (int k = 0; k < K_COUNT; ++k) {
    TVMFFIAny x = make_value(&pool, k);
    char call[128];
    snprintf(call, sizeof(call), "tether_field_set(point.abc, %s)", kind_text[k]);
    check_outcome(tether_field_set(point, abc, &x), NULL, call);
    const TVMFFIFieldInfo* name = tether_type_find_field(point_index, "name", 4);
    snprintf(call, sizeof(call), "tether_field_set(point.name, %s)", kind_text[k]);
    check_outcome(tether_field_set(point, name, &x), NULL, call);
  }
  pool_release(&pool);

  EXPECT_FAIL("tether_repr", tether_repr(NULL, &out));
  EXPECT_FAIL("tether_repr", tether_repr(&v, NULL));
  TVMFFIObjectDecRef(point);
  zoo_free(&z);
}

/* ---- the sweep of the ffi.* globals ------------------------------------------------------ */

/* Fillers for the positions not being varied: plausible arguments of the globals. */
static const int fillers[] = {K_NONE, K_INT0, K_SMALL_STR, K_LIST, K_MODULE};
/* Candidate arguments from which accepted combinations ("seeds") are searched, per arity
 * (fewer for more arguments, to bound the search). */
static const int seed_fillers12[] = {K_TYPE_KEY, K_NONE,  K_INT0, K_INT1, K_BOOL,   K_SMALL_STR,
                                     K_STR,   K_ARRAY, K_LIST, K_MAP,   K_DICT,
                                     K_FUNCTION, K_MODULE, K_TENSOR, K_SHAPE};
static const int seed_fillers3[] = {K_TYPE_KEY, K_NONE, K_INT0, K_INT1, K_SMALL_STR, K_ARRAY,
                                    K_LIST, K_MAP,  K_DICT, K_MODULE};
static const int seed_fillers4[] = {K_NONE, K_INT0, K_INT1, K_SMALL_STR, K_LIST};

static long sweep_calls;
static int sweep_name_required = 1; /* the message must contain the swept function's name */

static void describe(char* buf, size_t cap, const char* name, const int* kinds, int n) {
  int pos = snprintf(buf, cap, "%s(", name);
  for (int i = 0; i < n && pos > 0 && (size_t)pos < cap; ++i) {
    pos += snprintf(buf + pos, cap - (size_t)pos, "%s%s", i ? ", " : "", kind_text[kinds[i]]);
  }
  if (pos > 0 && (size_t)pos < cap) snprintf(buf + pos, cap - (size_t)pos, ")");
}

/* Calls `f` once with values of `kinds`, checks the contract and that nothing leaked.
 * Returns the call's rc. */
static int sweep_call(TVMFFIObjectHandle f, const char* name, const int* kinds, int n) {
  char call[512];
  describe(call, sizeof(call), name, kinds, n);
  if (sweep_trace) {
    fprintf(stderr, "sweep: %s\n", call);
    fflush(stderr);
  }
  int64_t live_before = tether_object_live_count();
  pool_t pool;
  memset(&pool, 0, sizeof(pool));
  TVMFFIAny args[4];
  for (int i = 0; i < n; ++i) args[i] = make_value(&pool, kinds[i]);
  TVMFFIAny result = tether_any_none();
  int rc = TVMFFIFunctionCall(f, args, n, &result);
  sweep_calls++;
  check_outcome(rc, sweep_name_required ? name : NULL, call);
  if (rc == 0) {
    if (result.type_index == kTVMFFIRawStr || result.type_index == kTVMFFIByteArrayPtr ||
        result.type_index == kTVMFFIObjectRValueRef) {
      violation("the result is a view, not an owning value", call, NULL);
    } else if (result.type_index >= kTVMFFIStaticObjectBegin &&
               (result.v_obj == NULL || result.v_obj->type_index < kTVMFFIStaticObjectBegin)) {
      violation("the result is an object Any without a valid object", call, NULL);
    } else {
      tether_any_release(&result);
    }
  }
  /* A List or Dict handed to its own mutator as a value (ffi.ListAppend(l, l)) now
   * contains itself: a cycle refcounting cannot free, made by the caller.  Emptying them
   * breaks it, so any object still alive after the release below is a real leak. */
  if (pool.objs[K_LIST] != NULL) CHECK_OK(tether_list_clear(pool.objs[K_LIST]));
  if (pool.objs[K_DICT] != NULL) CHECK_OK(tether_dict_clear(pool.objs[K_DICT]));
  pool_release(&pool);
  int64_t leaked = tether_object_live_count() - live_before;
  if (leaked != 0) {
    char detail[64];
    snprintf(detail, sizeof(detail), "%lld object(s)", (long long)leaked);
    violation("the call leaked (or freed) objects", call, detail);
  }
  return rc;
}

/* Arguments that reach past the first type check: filler combinations the function
 * accepted, found by trying them all (arity 4 over a smaller set). */
#define MAX_SEEDS 6

typedef struct {
  int kinds[MAX_SEEDS][4];
  int count;
} seeds_t;

static void find_seeds(TVMFFIObjectHandle f, const char* name, int n, seeds_t* seeds) {
#define COUNT_OF(a) (int)(sizeof(a) / sizeof((a)[0]))
  const int* set = n == 4 ? seed_fillers4 : n == 3 ? seed_fillers3 : seed_fillers12;
  int m = n == 4 ? COUNT_OF(seed_fillers4) : n == 3 ? COUNT_OF(seed_fillers3)
                                                    : COUNT_OF(seed_fillers12);
#undef COUNT_OF
  int total = 1, kinds[4];
  for (int i = 0; i < n; ++i) total *= m;
  seeds->count = 0;
  for (int c = 0; c < total && seeds->count < MAX_SEEDS; ++c) {
    for (int i = 0, x = c; i < n; ++i, x /= m) kinds[i] = set[x % m];
    if (sweep_call(f, name, kinds, n) == 0) {
      memcpy(seeds->kinds[seeds->count++], kinds, sizeof(kinds));
    }
  }
}

/*
 * Every arity 0..4: all positions of one kind; each position through every kind with the
 * others held at each filler; then each position of every accepted filler combination
 * (a "seed", which gets past the type checks of the other arguments) through every kind.
 */
static void sweep_function(TVMFFIObjectHandle f, const char* name) {
  int kinds[4] = {0, 0, 0, 0};
  sweep_call(f, name, kinds, 0);
  for (int n = 1; n <= 4; ++n) {
    for (int k = 0; k < K_COUNT; ++k) {
      for (int i = 0; i < n; ++i) kinds[i] = k;
      sweep_call(f, name, kinds, n);
    }
    for (int p = 0; p < n; ++p) {
      for (int k = 0; k < K_COUNT; ++k) {
        for (size_t fi = 0; fi < sizeof(fillers) / sizeof(fillers[0]); ++fi) {
          for (int i = 0; i < n; ++i) kinds[i] = fillers[fi];
          kinds[p] = k;
          sweep_call(f, name, kinds, n);
        }
      }
    }
    seeds_t seeds;
    find_seeds(f, name, n, &seeds);
    for (int i = 0; sweep_seeds && i < seeds.count; ++i) {
      char call[512];
      describe(call, sizeof(call), name, seeds.kinds[i], n);
      printf("seed: %s\n", call);
    }
    for (int s = 0; s < seeds.count; ++s) {
      for (int p = 0; p < n; ++p) {
        for (int k = 0; k < K_COUNT; ++k) {
          memcpy(kinds, seeds.kinds[s], sizeof(kinds));
          kinds[p] = k;
          sweep_call(f, name, kinds, n);
        }
      }
    }
  }
}

/* The names of every registered global starting with "ffi." (malloc'd, NULL-terminated). */
static char** global_names(void) {
  TVMFFIObjectHandle lister = tether_func_get("ffi.FunctionListGlobalNamesFunctor");
  TVMFFIAny functor, count, arg = tether_any_int(-1);
  CHECK(lister != NULL);
  CHECK_OK(tether_func_call(lister, NULL, 0, &functor));
  CHECK_OK(tether_func_call(functor.v_obj, &arg, 1, &count));
  char** names = calloc((size_t)count.v_int64 + 1, sizeof(char*));
  int64_t out = 0;
  for (int64_t i = 0; i < count.v_int64; ++i) {
    TVMFFIAny s;
    TVMFFIByteArray b;
    arg = tether_any_int(i);
    CHECK_OK(tether_func_call(functor.v_obj, &arg, 1, &s));
    CHECK(tether_any_get_str(&s, &b));
    if (b.size > 4 && memcmp(b.data, "ffi.", 4) == 0) names[out++] = strndup(b.data, b.size);
    tether_any_release(&s);
  }
  tether_any_release(&functor);
  TVMFFIObjectDecRef(lister);
  return names;
}

/* Functions the globals hand out, swept like the globals (their errors need not carry a
 * global's name: only a known kind and a non-empty message). */
static void test_sweep_derived_functions(void) {
  TVMFFIObjectHandle lister = tether_func_get("ffi.FunctionListGlobalNamesFunctor");
  TVMFFIObjectHandle map_iter = tether_func_get("ffi.MapForwardIterFunctor");
  TVMFFIObjectHandle dict_iter = tether_func_get("ffi.DictForwardIterFunctor");
  TVMFFIObjectHandle map = make_object(K_MAP), dict = make_object(K_DICT);
  TVMFFIAny names, it_map, it_dict, arg;
  CHECK_OK(tether_func_call(lister, NULL, 0, &names));
  arg = tether_any_object(map);
  CHECK_OK(tether_func_call(map_iter, &arg, 1, &it_map));
  arg = tether_any_object(dict);
  CHECK_OK(tether_func_call(dict_iter, &arg, 1, &it_dict));
  /* harden.Point's generated __ffi_init__. */
  TVMFFIByteArray init_name = {"__ffi_init__", 12};
  const TVMFFITypeAttrColumn* col = TVMFFIGetTypeAttrColumn(&init_name);
  CHECK(col != NULL && point_index < col->size);
  TVMFFIObjectHandle init = col->data[point_index].v_obj;
  struct {
    TVMFFIObjectHandle f;
    const char* name;
  } targets[] = {
      {names.v_obj, "the names functor"},
      {it_map.v_obj, "a Map iterator"},
      {it_dict.v_obj, "a Dict iterator"},
      {init, "harden.Point.__ffi_init__"},
  };
  sweep_name_required = 0;
  for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); ++i) {
    int kinds[4] = {0, 0, 0, 0};
    sweep_call(targets[i].f, targets[i].name, kinds, 0);
    for (int n = 1; n <= 3; ++n) {
      for (int p = 0; p < n; ++p) {
        for (int k = 0; k < K_COUNT; ++k) {
          for (size_t fi = 0; fi < sizeof(seed_fillers3) / sizeof(seed_fillers3[0]); ++fi) {
            for (int j = 0; j < n; ++j) kinds[j] = seed_fillers3[fi];
            kinds[p] = k;
            sweep_call(targets[i].f, targets[i].name, kinds, n);
          }
        }
      }
    }
  }
  sweep_name_required = 1;
  tether_any_release(&names);
  tether_any_release(&it_map);
  tether_any_release(&it_dict);
  TVMFFIObjectDecRef(map);
  TVMFFIObjectDecRef(dict);
  TVMFFIObjectDecRef(lister);
  TVMFFIObjectDecRef(map_iter);
  TVMFFIObjectDecRef(dict_iter);
}

static void test_sweep_globals(void) {
  char** names = global_names();
  int count = 0;
  for (char** p = names; *p != NULL; ++p, ++count) {
    TVMFFIObjectHandle f = tether_func_get(*p);
    CHECK(f != NULL);
    if (f != NULL) sweep_function(f, *p);
    /* NULL `args` with a count: the callee reads Nones (never NULL). */
    for (int32_t n = 1; f != NULL && n <= 4; ++n) {
      TVMFFIAny result = tether_any_none();
      char call[256];
      snprintf(call, sizeof(call), "%s(NULL args, %d)", *p, (int)n);
      int64_t live_before = tether_object_live_count();
      if (check_outcome(TVMFFIFunctionCall(f, NULL, n, &result), *p, call) == 0) {
        tether_any_release(&result);
      }
      CHECK_EQ_INT(tether_object_live_count(), live_before);
    }
    TVMFFIObjectDecRef(f);
    free(*p);
  }
  free(names);
  CHECK(count >= 60);
  printf("swept %d globals with %ld calls\n", count, sweep_calls);
}

/* ---- main ------------------------------------------------------------------------------- */

/*
 * Objects the library caches for the process lifetime are created before the tests start
 * counting live objects: ffi.SystemLib keeps one module per prefix, and the sweep passes
 * every string kind as a prefix.
 */
static void warm_up(void) {
  TVMFFIObjectHandle syslib = tether_func_get("ffi.SystemLib");
  static const int prefixes[] = {K_RAW_STR, K_RAW_STR_EMPTY, K_SMALL_STR, K_STR, K_TYPE_KEY};
  TVMFFIAny r;
  if (syslib == NULL || tether_func_call(syslib, NULL, 0, &r) != 0) abort();
  syslib_module = r.v_obj;
  for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); ++i) {
    pool_t pool;
    memset(&pool, 0, sizeof(pool));
    TVMFFIAny arg = make_value(&pool, prefixes[i]);
    if (tether_func_call(syslib, &arg, 1, &r) != 0) abort();
    tether_any_release(&r);
    pool_release(&pool);
  }
  TVMFFIObjectDecRef(syslib);
}

int main(void) {
  static const test_case_t cases[] = {
      TEST_CASE(test_abi_objects_and_errors),
      TEST_CASE(test_abi_functions_and_registry),
      TEST_CASE(test_abi_any_and_strings),
      TEST_CASE(test_abi_types_and_reflection),
      TEST_CASE(test_get_type_info_unknown_exits),
      TEST_CASE(test_abi_init_once_and_env),
      TEST_CASE(test_abi_tensors),
      TEST_CASE(test_tether_any_helpers),
      TEST_CASE(test_tether_arg_helpers),
      TEST_CASE(test_containers_wrong_handles),
      TEST_CASE(test_containers_bad_arguments),
      TEST_CASE(test_tensor_helpers),
      TEST_CASE(test_reflection_helpers),
      TEST_CASE(test_sweep_derived_functions),
      TEST_CASE(test_sweep_globals),
  };
  /* Errors are the common outcome here; a one-frame backtrace keeps raising them cheap
   * (the full stack walk costs ~30 us per error, which under valgrind adds up). */
  setenv("TVM_TRACEBACK_LIMIT", "1", 0);
  const char* trace = getenv("TETHER_SWEEP_TRACE");
  sweep_trace = trace != NULL && trace[0] == '1';
  sweep_seeds = trace != NULL && strcmp(trace, "seeds") == 0;
  warm_up();
  define_point_type();
  int rc = test_run_all(cases, sizeof(cases) / sizeof(cases[0]));
  TVMFFIObjectDecRef(syslib_module);
  if (contract_failures != 0) printf("%d contract violation(s)\n", contract_failures);
  return rc;
}
