/*
 * modtest_lib.c -- a test library for tests/ffi/test_module.c, built twice (modtest_a with
 * MODTEST_NAME=a, modtest_b with MODTEST_NAME=b) so that two libraries with distinct
 * function names can import each other.  Written against tvm-ffi's C header only.
 *
 * Exports (<n> = MODTEST_NAME):
 *   <n>_add_one(int) -> int                 plus its doc and metadata companions
 *   <n>_fail()                              raises ValueError "modtest <n> failure"
 *   <n>_ctx() -> void*                      the value of __tvm_ffi__library_ctx
 *   <n>_ctx_value() -> void*                the value of the context symbol
 *                                           tether_modtest_ctx_value
 *   <n>_lookup(name: str, x) -> any         TVMFFIEnvModLookupFromImports(ctx, name), then
 *                                           calls the function found with x
 *   <n>_lookup_handle(name: str) -> void*   the (borrowed) handle that lookup returns
 *   <n>_map_sum(x) -> int                   the sum of the int values of every map in x (a
 *                                           map, or an Array of maps), read in place the way
 *                                           tvm-ffi's C++ headers read MapObj (small layout:
 *                                           pairs at `data`; dense layout refused)
 *   <n>_missing()                           only with MODTEST_MISSING=<symbol>: calls that
 *                                           symbol, which nothing defines
 */
#include <stdint.h>
#include <string.h>

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>

#define MODTEST_CAT2(a, b) a##b
#define MODTEST_CAT(a, b) MODTEST_CAT2(a, b)
#define MODTEST_STR2(a) #a
#define MODTEST_STR(a) MODTEST_STR2(a)
/* EXPORT(_add_one) -> __tvm_ffi_a_add_one; COMPANION(doc, _add_one) -> __tvm_ffi__doc_a_add_one */
#define EXPORT(suffix) MODTEST_CAT(MODTEST_CAT(__tvm_ffi_, MODTEST_NAME), suffix)
#define COMPANION(kind, suffix) \
  MODTEST_CAT(MODTEST_CAT(MODTEST_CAT(__tvm_ffi__, kind), MODTEST_CAT(_, MODTEST_NAME)), suffix)

TVM_FFI_DLL_EXPORT void* __tvm_ffi__library_ctx = NULL;
TVM_FFI_DLL_EXPORT void* tether_modtest_ctx_value = NULL;

typedef int (*safe_call_t)(void*, const TVMFFIAny*, int32_t, TVMFFIAny*);

static void set_int(TVMFFIAny* v, int64_t x) {
  memset(v, 0, sizeof(*v));
  v->type_index = kTVMFFIInt;
  v->v_int64 = x;
}

static void set_ptr(TVMFFIAny* v, void* p) {
  memset(v, 0, sizeof(*v));
  v->type_index = kTVMFFIOpaquePtr;
  v->v_ptr = p;
}

/* Copies string argument `v` into buf (NUL-terminated); -1 with TypeError otherwise. */
static int get_str(const TVMFFIAny* v, char* buf, size_t cap) {
  const char* data = NULL;
  size_t size = 0;
  if (v->type_index == kTVMFFIRawStr) {
    data = v->v_c_str;
    size = strlen(data);
  } else if (v->type_index == kTVMFFISmallStr) {
    data = v->v_bytes;
    size = v->small_str_len;
  } else if (v->type_index == kTVMFFIStr) {
    const TVMFFIByteArray* s = (const TVMFFIByteArray*)((char*)v->v_obj + sizeof(TVMFFIObject));
    data = s->data;
    size = s->size;
  }
  if (data == NULL || size >= cap) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "modtest: expected a short string argument");
    return -1;
  }
  memcpy(buf, data, size);
  buf[size] = '\0';
  return 0;
}

TVM_FFI_DLL_EXPORT int EXPORT(_add_one)(void* h, const TVMFFIAny* args, int32_t n,
                                        TVMFFIAny* result) {
  (void)h;
  if (n != 1 || args[0].type_index != kTVMFFIInt) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "modtest add_one: expected one int");
    return -1;
  }
  set_int(result, args[0].v_int64 + 1);
  return 0;
}

TVM_FFI_DLL_EXPORT int COMPANION(doc, _add_one)(void* h, const TVMFFIAny* args, int32_t n,
                                                TVMFFIAny* result) {
  (void)h, (void)args, (void)n;
  const char* doc = "modtest " MODTEST_STR(MODTEST_NAME) ": adds one to an int";
  TVMFFIByteArray bytes = {doc, strlen(doc)};
  return TVMFFIStringFromByteArray(&bytes, result);
}

TVM_FFI_DLL_EXPORT int COMPANION(metadata, _add_one)(void* h, const TVMFFIAny* args, int32_t n,
                                                     TVMFFIAny* result) {
  (void)h, (void)args, (void)n;
  const char* meta = "{\"type_schema\":\"int(int)\"}";
  TVMFFIByteArray bytes = {meta, strlen(meta)};
  return TVMFFIStringFromByteArray(&bytes, result);
}

TVM_FFI_DLL_EXPORT int EXPORT(_fail)(void* h, const TVMFFIAny* args, int32_t n,
                                     TVMFFIAny* result) {
  (void)h, (void)args, (void)n, (void)result;
  TVMFFIErrorSetRaisedFromCStr("ValueError", "modtest " MODTEST_STR(MODTEST_NAME) " failure");
  return -1;
}

TVM_FFI_DLL_EXPORT int EXPORT(_ctx)(void* h, const TVMFFIAny* args, int32_t n,
                                    TVMFFIAny* result) {
  (void)h, (void)args, (void)n;
  set_ptr(result, __tvm_ffi__library_ctx);
  return 0;
}

TVM_FFI_DLL_EXPORT int EXPORT(_ctx_value)(void* h, const TVMFFIAny* args, int32_t n,
                                          TVMFFIAny* result) {
  (void)h, (void)args, (void)n;
  set_ptr(result, tether_modtest_ctx_value);
  return 0;
}

TVM_FFI_DLL_EXPORT int EXPORT(_lookup)(void* h, const TVMFFIAny* args, int32_t n,
                                       TVMFFIAny* result) {
  (void)h;
  char name[128];
  TVMFFIObjectHandle f = NULL;
  if (n != 2 || get_str(&args[0], name, sizeof(name)) != 0) return -1;
  if (TVMFFIEnvModLookupFromImports(__tvm_ffi__library_ctx, name, &f) != 0) return -1;
  return TVMFFIFunctionCall(f, (TVMFFIAny*)&args[1], 1, result); /* f is borrowed */
}

TVM_FFI_DLL_EXPORT int EXPORT(_lookup_handle)(void* h, const TVMFFIAny* args, int32_t n,
                                              TVMFFIAny* result) {
  (void)h;
  char name[128];
  TVMFFIObjectHandle f = NULL;
  if (n != 1 || get_str(&args[0], name, sizeof(name)) != 0) return -1;
  if (TVMFFIEnvModLookupFromImports(__tvm_ffi__library_ctx, name, &f) != 0) return -1;
  set_ptr(result, f);
  return 0;
}

/* tvm-ffi's MapBaseObj after the object header: data, size, slots (top bit: small layout). */
typedef struct {
  TVMFFIObject header;
  void* data;
  uint64_t size;
  uint64_t slots;
} modtest_cxx_map;

static int map_sum(const TVMFFIAny* v, int64_t* total) {
  if (v->type_index == kTVMFFIArray) {
    const TVMFFISeqCell* cell = (const TVMFFISeqCell*)((char*)v->v_obj + sizeof(TVMFFIObject));
    for (int64_t i = 0; i < cell->size; ++i) {
      if (map_sum((const TVMFFIAny*)cell->data + i, total) != 0) return -1;
    }
    return 0;
  }
  if (v->type_index != kTVMFFIMap && v->type_index != kTVMFFIDict) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "modtest map_sum: expected maps");
    return -1;
  }
  const modtest_cxx_map* m = (const modtest_cxx_map*)v->v_obj;
  if ((m->slots & (UINT64_C(1) << 63)) == 0) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "modtest map_sum: not in the small C++ layout");
    return -1;
  }
  const TVMFFIAny* kv = m->data;
  for (uint64_t i = 0; i < m->size; ++i) {
    if (kv[2 * i + 1].type_index == kTVMFFIInt) *total += kv[2 * i + 1].v_int64;
  }
  return 0;
}

TVM_FFI_DLL_EXPORT int EXPORT(_map_sum)(void* h, const TVMFFIAny* args, int32_t n,
                                        TVMFFIAny* result) {
  (void)h;
  int64_t total = 0;
  if (n != 1 || map_sum(&args[0], &total) != 0) {
    if (n != 1) TVMFFIErrorSetRaisedFromCStr("TypeError", "modtest map_sum: one argument");
    return -1;
  }
  set_int(result, total);
  return 0;
}

#ifdef MODTEST_MISSING
void MODTEST_MISSING(void);

TVM_FFI_DLL_EXPORT int EXPORT(_missing)(void* h, const TVMFFIAny* args, int32_t n,
                                        TVMFFIAny* result) {
  (void)h, (void)args, (void)n, (void)result;
  MODTEST_MISSING();
  return 0;
}
#endif
