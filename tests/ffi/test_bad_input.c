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
 * call that crashed).
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
static __attribute__((unused)) void expect_fail(int rc, const char* fname, const char* call) {
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

/* ---- the sweep of the ffi.* globals ------------------------------------------------------ */

/* Fillers for the positions not being varied: plausible arguments of the globals. */
static const int fillers[] = {K_NONE,  K_INT0, K_INT1, K_BOOL,     K_SMALL_STR, K_STR,
                              K_ARRAY, K_LIST, K_MAP,  K_DICT,     K_FUNCTION,  K_MODULE,
                              K_TENSOR, K_SHAPE};

static long sweep_calls;

static void describe(char* buf, size_t cap, const char* name, const int* kinds, int n) {
  int pos = snprintf(buf, cap, "%s(", name);
  for (int i = 0; i < n && pos > 0 && (size_t)pos < cap; ++i) {
    pos += snprintf(buf + pos, cap - (size_t)pos, "%s%s", i ? ", " : "", kind_text[kinds[i]]);
  }
  if (pos > 0 && (size_t)pos < cap) snprintf(buf + pos, cap - (size_t)pos, ")");
}

/*
 * A List or Dict handed to one of its own mutators as a value (ffi.ListAppend(l, l),
 * ffi.DictSetItem(d, k, d)) contains itself afterwards: a reference cycle, which
 * refcounting cannot free.  That is the user's doing, not a leak of the library.
 */
static int makes_cycle(const char* name, const int* kinds, int n) {
  if (n < 2 || (kinds[0] != K_LIST && kinds[0] != K_DICT)) return 0;
  if (strncmp(name, kinds[0] == K_LIST ? "ffi.List" : "ffi.Dict", 8) != 0) return 0;
  for (int i = 1; i < n; ++i) {
    if (kinds[i] == kinds[0]) return 1;
  }
  return 0;
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
  pool_release(&pool);
  int64_t leaked = tether_object_live_count() - live_before;
  if (leaked != 0 && !(leaked > 0 && makes_cycle(name, kinds, n))) {
    char detail[64];
    snprintf(detail, sizeof(detail), "%lld object(s)", (long long)leaked);
    violation("the call leaked (or freed) objects", call, detail);
  }
  return rc;
}

/* Arguments that reach past the first type check: filler combinations the function
 * accepted, found by trying them all (arity 4 over a smaller set). */
#define MAX_SEEDS 6
static const int seed_fillers4[] = {K_NONE, K_INT0, K_INT1, K_SMALL_STR, K_LIST, K_MODULE};

typedef struct {
  int kinds[MAX_SEEDS][4];
  int count;
} seeds_t;

static void find_seeds(TVMFFIObjectHandle f, const char* name, int n, seeds_t* seeds) {
  const int* set = n == 4 ? seed_fillers4 : fillers;
  int m = n == 4 ? (int)(sizeof(seed_fillers4) / sizeof(seed_fillers4[0]))
                 : (int)(sizeof(fillers) / sizeof(fillers[0]));
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
  int kinds[4];
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
      TEST_CASE(test_sweep_globals),
  };
  const char* trace = getenv("TETHER_SWEEP_TRACE");
  sweep_trace = trace != NULL && trace[0] == '1';
  warm_up();
  int rc = test_run_all(cases, sizeof(cases) / sizeof(cases[0]));
  TVMFFIObjectDecRef(syslib_module);
  if (contract_failures != 0) printf("%d contract violation(s)\n", contract_failures);
  return rc;
}
