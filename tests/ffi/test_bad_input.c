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
   * on it): return_none ignores them.  tether_func_call refuses them (below). */
  CHECK_OK(TVMFFIFunctionCall(f, NULL, 2, &result));
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

/* ---- the sweep of the ffi.* globals ------------------------------------------------------ */

/* Fillers for the positions not being varied: plausible arguments of the globals. */
static const int fillers[] = {K_NONE, K_INT0, K_SMALL_STR, K_LIST, K_MODULE};
/* Candidate arguments from which accepted combinations ("seeds") are searched, per arity
 * (fewer for more arguments, to bound the search). */
static const int seed_fillers12[] = {K_NONE,  K_INT0, K_INT1, K_BOOL,   K_SMALL_STR,
                                     K_STR,   K_ARRAY, K_LIST, K_MAP,   K_DICT,
                                     K_FUNCTION, K_MODULE, K_TENSOR, K_SHAPE};
static const int seed_fillers3[] = {K_NONE, K_INT0, K_INT1, K_SMALL_STR, K_ARRAY,
                                    K_LIST, K_MAP,  K_DICT, K_MODULE};
static const int seed_fillers4[] = {K_NONE, K_INT0, K_INT1, K_SMALL_STR, K_LIST};

static long sweep_calls;

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
  check_outcome(rc, name, call);
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

static void test_sweep_globals(void) {
  char** names = global_names();
  int count = 0;
  for (char** p = names; *p != NULL; ++p, ++count) {
    TVMFFIObjectHandle f = tether_func_get(*p);
    CHECK(f != NULL);
    if (f != NULL) sweep_function(f, *p);
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
  static const int prefixes[] = {K_RAW_STR, K_RAW_STR_EMPTY, K_SMALL_STR, K_STR};
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
      TEST_CASE(test_sweep_globals),
  };
  /* Errors are the common outcome here; a one-frame backtrace keeps raising them cheap
   * (the full stack walk costs ~30 us per error, which under valgrind adds up). */
  setenv("TVM_TRACEBACK_LIMIT", "1", 0);
  const char* trace = getenv("TETHER_SWEEP_TRACE");
  sweep_trace = trace != NULL && trace[0] == '1';
  sweep_seeds = trace != NULL && strcmp(trace, "seeds") == 0;
  warm_up();
  int rc = test_run_all(cases, sizeof(cases) / sizeof(cases[0]));
  TVMFFIObjectDecRef(syslib_module);
  if (contract_failures != 0) printf("%d contract violation(s)\n", contract_failures);
  return rc;
}
