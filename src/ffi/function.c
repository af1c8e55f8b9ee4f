/*
 * function.c -- Function objects (type 68): creation from a C safe-call, the call entry
 * point, the argument-checking helpers C functions use to convert their AnyView
 * arguments with tvm-ffi's rules and error texts, and the globals that make functions
 * and the two sentinel objects (ffi.FunctionFromExternC, ffi.GetInvalidObject,
 * ffi.GetKwargsObject).
 *
 * Layout (spec 1.7): header, then TVMFFIFunctionCell {safe_call, cpp_call = NULL}, then
 * tether's own `flags` (tether_func_flag_t bits, fixed at creation).  A function made from
 * (self, f, deleter) appends those three and its safe_call is a trampoline; a function made
 * from a bare f (self and deleter both NULL) stores f itself as safe_call, so f is called
 * with the function object as its handle (spec design note 5).  Functions other libraries
 * build themselves (C++ headers do) have no `flags`: tether_func_flags tells tether's own
 * apart by their deleter.
 */
#include <stdio.h>

#include "internal.h"
#include "error.h"
#include "function.h"
#include "object.h"

/* ---- creation and calls --------------------------------------------------------------------- */

typedef struct {
  TVMFFIObject header;
  TVMFFIFunctionCell cell;
  uint32_t flags; /* tether_func_flag_t bits; immutable */
} tether_function_t;

/* A function closing over (self, fn, self_deleter); self_deleter(self) runs exactly once,
 * when the last strong reference dies. */
typedef struct {
  tether_function_t base;
  void* self;
  TVMFFISafeCallType fn;
  void (*self_deleter)(void* self);
} tether_closure_t;

static int tether__closure_call(void* handle, const TVMFFIAny* args, int32_t num_args,
                                TVMFFIAny* result) {
  tether_closure_t* c = handle;
  return c->fn(c->self, args, num_args, result);
}

static void tether__closure_deleter(void* obj, int flags) {
  tether_closure_t* c = obj;
  if ((flags & kTVMFFIObjectDeleterFlagBitMaskStrong) && c->self_deleter != NULL) {
    c->self_deleter(c->self);
  }
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) tether__object_free(obj);
}

/* TVMFFIFunctionCreate with tether's flags; `api` names the entry point in errors. */
static int tether__function_create(const char* api, void* self, TVMFFISafeCallType safe_call,
                                   void (*deleter)(void* self), uint32_t flags,
                                   TVMFFIObjectHandle* out) {
  if (out == NULL) return tether_raise("ValueError", "%s: argument `out` must not be NULL", api);
  *out = NULL;
  if (safe_call == NULL) {
    return tether_raise("ValueError", "%s: argument `safe_call` must not be NULL", api);
  }
  if ((flags & ~(uint32_t)TETHER_FUNC_FLAGS_ALL) != 0) {
    return tether_raise("ValueError", "%s: argument `flags` has unknown bits 0x%x", api,
                        (unsigned)(flags & ~(uint32_t)TETHER_FUNC_FLAGS_ALL));
  }
  tether_function_t* f;
  if (self == NULL && deleter == NULL) {
    f = tether__object_alloc(sizeof(*f), kTVMFFIFunction, tether__object_deleter_plain);
    if (f == NULL) return -1;
    f->cell.safe_call = safe_call;
  } else {
    tether_closure_t* c =
        tether__object_alloc(sizeof(*c), kTVMFFIFunction, tether__closure_deleter);
    if (c == NULL) return -1;
    c->self = self;
    c->fn = safe_call;
    c->self_deleter = deleter;
    f = &c->base;
    f->cell.safe_call = tether__closure_call;
  }
  f->cell.cpp_call = NULL;
  f->flags = flags;
  *out = &f->header;
  return 0;
}

int TVMFFIFunctionCreate(void* self, TVMFFISafeCallType safe_call, void (*deleter)(void* self),
                         TVMFFIObjectHandle* out) {
  return tether__function_create("TVMFFIFunctionCreate", self, safe_call, deleter, 0, out);
}

int tether_func_create(void* self, TVMFFISafeCallType fn, void (*self_deleter)(void* self),
                       uint32_t flags, TVMFFIObjectHandle* out) {
  return tether__function_create("tether_func_create", self, fn, self_deleter, flags, out);
}

uint32_t tether_func_flags(TVMFFIObjectHandle func) {
  const TVMFFIObject* h = func;
  if (h == NULL || h->type_index != kTVMFFIFunction ||
      (h->deleter != tether__object_deleter_plain && h->deleter != tether__closure_deleter)) {
    return 0;
  }
  return ((const tether_function_t*)h)->flags;
}

/* Raises why a call cannot be made and returns -1, or returns 0 when it can; `api` names
 * the entry point.  `check_args`: also refuse NULL `args` with a non-zero count. */
static int tether__call_check(const char* api, TVMFFIObjectHandle func, const TVMFFIAny* args,
                              int32_t num_args, const TVMFFIAny* result, bool check_args) {
  if (func == NULL) {
    return tether_raise("ValueError", "%s: argument `func` must not be NULL", api);
  }
  /* Anything else has no FunctionCell: its "safe_call" would be whatever bytes follow
   * the header (a string's characters, an array's element pointer). */
  int32_t type = ((TVMFFIObject*)func)->type_index;
  if (type != kTVMFFIFunction) {
    return tether_raise("TypeError", "%s: argument `func` must be an ffi.Function, got %s", api,
                        tether_type_key(type));
  }
  if (num_args < 0 || (check_args && args == NULL && num_args != 0)) {
    return tether_raise("ValueError", "%s: %d argument(s) at %p: expected a count >= 0 and, "
                        "unless it is 0, non-NULL `args`", api, (int)num_args, (const void*)args);
  }
  if (result == NULL) {
    return tether_raise("ValueError", "%s: argument `result` must not be NULL", api);
  }
  return 0;
}

/* Stands in for NULL `args` with a small count (all zero bytes: None). */
#define TETHER__NONE_ARGS 64
static const TVMFFIAny tether__none_args[TETHER__NONE_ARGS];

/*
 * The hot path: one load and a tail call (spec 2).  The checks are never-taken branches
 * on the header the call reads anyway; they keep bad input from crashing.
 * NULL `args` with a count still reaches the callee with that count, as in the reference
 * (a callee may ignore its arguments, and callers rely on that), but reading them yields
 * None instead of dereferencing NULL; more than TETHER__NONE_ARGS of them is refused.
 * tether_func_call refuses NULL `args` with a count outright.
 */
int TVMFFIFunctionCall(TVMFFIObjectHandle func, TVMFFIAny* args, int32_t num_args,
                       TVMFFIAny* result) {
  if (TETHER_UNLIKELY(func == NULL || ((TVMFFIObject*)func)->type_index != kTVMFFIFunction ||
                      num_args < 0 || result == NULL || (args == NULL && num_args != 0))) {
    if (args == NULL && num_args > 0 && num_args <= TETHER__NONE_ARGS) {
      args = (TVMFFIAny*)tether__none_args; /* callees only read their arguments */
    } else {
      return tether__call_check("TVMFFIFunctionCall", func, args, num_args, result, true);
    }
    if (tether__call_check("TVMFFIFunctionCall", func, args, num_args, result, true) != 0) {
      return -1;
    }
  }
  return TETHER_CELL(TVMFFIFunctionCell, func)->safe_call(func, args, num_args, result);
}

int tether_func_call(TVMFFIObjectHandle f, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  if (tether__call_check("tether_func_call", f, args, n, result, true) != 0) return -1;
  *result = tether_any_none();
  return TVMFFIFunctionCall(f, (TVMFFIAny*)args, n, result);
}

TVMFFIObjectHandle tether_func_get(const char* name) {
  if (name == NULL) {
    tether_raise("ValueError", "tether_func_get: argument `name` must not be NULL");
    return NULL;
  }
  TVMFFIByteArray key = {name, strlen(name)};
  TVMFFIObjectHandle f = NULL;
  if (TVMFFIFunctionGetGlobal(&key, &f) != 0) return NULL;
  if (f == NULL) {
    tether_raise("RuntimeError", "tether_func_get: global function `%s` is not registered", name);
  }
  return f;
}

/* ---- argument helpers ----------------------------------------------------------------------- */

/* Type key shown for a value in a mismatch message ("int", "ffi.SmallStr", "None", ...). */
static const char* tether__arg_type_key(const TVMFFIAny* v) {
  if (v->type_index == kTVMFFISmallStr && v->small_str_len > 7) return "malformed ffi.SmallStr";
  if (v->type_index >= kTVMFFIStaticObjectBegin && v->v_obj != NULL) {
    return tether_type_key(v->v_obj->type_index);
  }
  return tether_type_key(v->type_index);
}

int tether__arg_type_error(const char* fname, const TVMFFIAny* args, int32_t i,
                           const char* expected) {
  return tether_raise("TypeError",
                      "Mismatched type on argument #%d when calling: `%s`. Expected `%s` but "
                      "got `%s`",
                      (int)i, fname != NULL ? fname : "", expected, tether__arg_type_key(&args[i]));
}

int tether_check_nargs(const char* fname, const char* sig, int32_t num_args, int32_t expected) {
  if (TETHER_LIKELY(num_args == expected)) return 0;
  /* `fname` may already carry the signature ("f(0: int) -> int"); then `sig` adds nothing. */
  if (fname == NULL) fname = "";
  if (sig == NULL || strchr(fname, '(') != NULL) sig = "";
  return tether_raise("TypeError",
                      "Mismatched number of arguments when calling: `%s%s`. Expected %d but got "
                      "%d arguments",
                      fname, sig, (int)expected, (int)num_args);
}

/* The argument helpers' own preconditions (a caller's bug, not a user's bad value). */
static int tether__arg_check(const char* helper, const TVMFFIAny* args, int32_t i,
                             const void* out) {
  if (TETHER_LIKELY(args != NULL && i >= 0 && out != NULL)) return 0;
  return tether_raise("ValueError", "%s: needs non-NULL `args` and `out` and an index >= 0, got "
                      "args=%p, i=%d, out=%p", helper, (const void*)args, (int)i, out);
}

int tether_arg_int(const char* fname, const TVMFFIAny* args, int32_t i, int64_t* out) {
  if (tether__arg_check("tether_arg_int", args, i, out) != 0) return -1;
  const TVMFFIAny* v = &args[i];
  if (v->type_index == kTVMFFIInt || v->type_index == kTVMFFIBool) {
    *out = v->v_int64;
    return 0;
  }
  return tether__arg_type_error(fname, args, i, "int");
}

int tether_arg_float(const char* fname, const TVMFFIAny* args, int32_t i, double* out) {
  if (tether__arg_check("tether_arg_float", args, i, out) != 0) return -1;
  const TVMFFIAny* v = &args[i];
  switch (v->type_index) {
    case kTVMFFIFloat:
      *out = v->v_float64;
      return 0;
    case kTVMFFIInt:
    case kTVMFFIBool:
      *out = (double)v->v_int64;
      return 0;
    default:
      return tether__arg_type_error(fname, args, i, "float");
  }
}

int tether_arg_bool(const char* fname, const TVMFFIAny* args, int32_t i, bool* out) {
  if (tether__arg_check("tether_arg_bool", args, i, out) != 0) return -1;
  const TVMFFIAny* v = &args[i];
  if (v->type_index == kTVMFFIBool || v->type_index == kTVMFFIInt) {
    *out = v->v_int64 != 0;
    return 0;
  }
  return tether__arg_type_error(fname, args, i, "bool");
}

int tether_arg_str(const char* fname, const TVMFFIAny* args, int32_t i, TVMFFIByteArray* out) {
  if (tether__arg_check("tether_arg_str", args, i, out) != 0) return -1;
  const TVMFFIAny* v = &args[i];
  switch (v->type_index) {
    case kTVMFFIRawStr:
      if (v->v_c_str == NULL) break;
      *out = (TVMFFIByteArray){v->v_c_str, strlen(v->v_c_str)};
      return 0;
    case kTVMFFISmallStr:
      if (v->small_str_len > 7) break; /* malformed: longer than the inline bytes */
      *out = (TVMFFIByteArray){v->v_bytes, v->small_str_len};
      return 0;
    case kTVMFFIStr:
      if (v->v_obj == NULL) break;
      *out = *TETHER_CELL(TVMFFIByteArray, v->v_obj);
      return 0;
    default:
      break;
  }
  return tether__arg_type_error(fname, args, i, "str");
}

int tether_arg_object(const char* fname, const TVMFFIAny* args, int32_t i, int32_t type_index,
                      TVMFFIObject** out) {
  if (tether__arg_check("tether_arg_object", args, i, out) != 0) return -1;
  const TVMFFIAny* v = &args[i];
  if (v->type_index >= kTVMFFIStaticObjectBegin && v->v_obj != NULL) {
    int32_t actual = v->v_obj->type_index;
    if (type_index == kTVMFFIObject || actual == type_index ||
        tether_type_is_subclass(actual, type_index)) {
      *out = v->v_obj;
      return 0;
    }
  }
  return tether__arg_type_error(fname, args, i, tether_type_key(type_index));
}

int tether__arg_ptr(const char* fname, const TVMFFIAny* args, int32_t i, void** out) {
  const TVMFFIAny* v = &args[i];
  if (v->type_index == kTVMFFIOpaquePtr) {
    *out = v->v_ptr;
    return 0;
  }
  if (v->type_index == kTVMFFINone) {
    *out = NULL;
    return 0;
  }
  return tether__arg_type_error(fname, args, i, "void*");
}

/* ---- the sentinels -------------------------------------------------------------------------- */

/* Static plain objects: the NULL deleter means they are never freed, and the initial
 * strong count of 1 is their own, so balanced IncRef/DecRef by users never reach 0. */
static TVMFFIObject tether__invalid_object = {
    .combined_ref_count = UINT64_C(1) | (UINT64_C(1) << 32),
    .type_index = kTVMFFIObject,
    .deleter = NULL,
};
static TVMFFIObject tether__kwargs_object = {
    .combined_ref_count = UINT64_C(1) | (UINT64_C(1) << 32),
    .type_index = kTVMFFIObject,
    .deleter = NULL,
};

TVMFFIObject* tether__function_invalid_object(void) { return &tether__invalid_object; }
TVMFFIObject* tether__function_kwargs_object(void) { return &tether__kwargs_object; }

/* ---- globals -------------------------------------------------------------------------------- */

#define TETHER__SIG_FROM_EXTERN_C \
  "ffi.FunctionFromExternC(0: void*, 1: void*, 2: void*) -> ffi.Function"

static int tether__g_function_from_extern_c(void* handle, const TVMFFIAny* args, int32_t n,
                                            TVMFFIAny* result) {
  void *self = NULL, *safe_call = NULL, *deleter = NULL;
  if (tether_check_nargs(TETHER__SIG_FROM_EXTERN_C, NULL, n, 3) != 0) return -1;
  /* The reference converts its arguments last to first, so the last bad one is reported. */
  if (tether__arg_ptr(TETHER__SIG_FROM_EXTERN_C, args, 2, &deleter) != 0) return -1;
  if (tether__arg_ptr(TETHER__SIG_FROM_EXTERN_C, args, 1, &safe_call) != 0) return -1;
  if (tether__arg_ptr(TETHER__SIG_FROM_EXTERN_C, args, 0, &self) != 0) return -1;
  TVMFFIObjectHandle f = NULL;
  /* void* -> function pointer: POSIX guarantees the round trip (dlsym relies on it). */
  TVMFFISafeCallType fn;
  void (*del)(void*);
  memcpy(&fn, &safe_call, sizeof(fn));
  memcpy(&del, &deleter, sizeof(del));
  if (TVMFFIFunctionCreate(self, fn, del, &f) != 0) {
    return tether__error_add_context("ffi.FunctionFromExternC"); /* e.g. a NULL safe_call */
  }
  *result = tether_any_object(f);
  return 0;
}

static int tether__g_get_invalid_object(void* handle, const TVMFFIAny* args, int32_t n,
                                        TVMFFIAny* result) {
  if (tether_check_nargs("ffi.GetInvalidObject() -> ffi.Object", NULL, n, 0) != 0) return -1;
  TVMFFIObjectIncRef(&tether__invalid_object);
  *result = tether_any_object(&tether__invalid_object);
  return 0;
}

static int tether__g_get_kwargs_object(void* handle, const TVMFFIAny* args, int32_t n,
                                       TVMFFIAny* result) {
  if (tether_check_nargs("ffi.GetKwargsObject() -> ffi.Object", NULL, n, 0) != 0) return -1;
  TVMFFIObjectIncRef(&tether__kwargs_object);
  *result = tether_any_object(&tether__kwargs_object);
  return 0;
}

/* Metadata of the reference's registrations (observed), so tools reading type schemas
 * see the same signatures. */
#define TETHER__SCHEMA_OBJECT                                                             \
  "{\"type_schema\":\"{\\\"type\\\":\\\"ffi.Function\\\",\\\"args\\\":[{\\\"type\\\":" \
  "\\\"ffi.Object\\\"}]}\"}"
#define TETHER__SCHEMA_FROM_EXTERN_C                                                         \
  "{\"type_schema\":\"{\\\"type\\\":\\\"ffi.Function\\\",\\\"args\\\":[{\\\"type\\\":"      \
  "\\\"ffi.Function\\\"},{\\\"type\\\":\\\"void*\\\"},{\\\"type\\\":\\\"void*\\\"},{"        \
  "\\\"type\\\":\\\"void*\\\"}]}\"}"

static const struct {
  const char* name;
  TVMFFISafeCallType fn;
  const char* metadata;
} tether__function_globals[] = {
    {"ffi.FunctionFromExternC", tether__g_function_from_extern_c, TETHER__SCHEMA_FROM_EXTERN_C},
    {"ffi.GetInvalidObject", tether__g_get_invalid_object, TETHER__SCHEMA_OBJECT},
    {"ffi.GetKwargsObject", tether__g_get_kwargs_object, TETHER__SCHEMA_OBJECT},
};

int tether__function_init(void) {
  for (size_t i = 0; i < sizeof(tether__function_globals) / sizeof(tether__function_globals[0]);
       ++i) {
    if (tether_func_register_flags(tether__function_globals[i].name,
                                   tether__function_globals[i].fn, NULL,
                                   tether__function_globals[i].metadata, TETHER_FUNC_KEEPS_GIL,
                                   0) != 0) {
      fprintf(stderr, "libtether: cannot register %s\n", tether__function_globals[i].name);
      return -1;
    }
  }
  return 0;
}

/* Nothing to free: the globals are released with the registry, the sentinels are static. */
void tether__function_fini(void) {}
