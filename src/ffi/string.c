/*
 * string.c -- strings and byte strings (spec 1.3 and section 3): the heap objects
 * ffi.String (65) and ffi.Bytes (66), the automatic small/heap choice of
 * TVMFFIStringFromByteArray / TVMFFIBytesFromByteArray, and the identity globals
 * `ffi.String` and `ffi.Bytes`.
 *
 * Representation invariants (C++ code reads both forms directly):
 * - A heap Str/Bytes is the 24-byte header, then a TVMFFIByteArray cell whose `data` points
 *   at the characters stored inline right after the cell, followed by one NUL byte (also
 *   for Bytes, so `data` is always a valid C string up to its first NUL).
 * - A value of at most 7 bytes is never given a heap object by the From*ByteArray entry
 *   points: it is a SmallStr/SmallBytes with the bytes in v_bytes[0..len), small_str_len =
 *   len and every other payload byte zero (hashing and map lookup read all 8 bytes).
 */
#include "internal.h"
#include "error.h"
#include "function.h"
#include "object.h"
#include "string.h"

/* Longest content a SmallStr/SmallBytes holds inline: sizeof(int64_t) - 1. */
#define TETHER_SMALL_STR_MAX 7

typedef struct {
  TVMFFIObject header;
  TVMFFIByteArray cell; /* data points at `chars` */
  char chars[];         /* size bytes, then '\0' */
} tether_str_t;

TVMFFIObject* tether__str_new(int32_t type_index, const char* data, size_t n) {
  if (n > SIZE_MAX - sizeof(tether_str_t) - 1) {
    tether_raise("MemoryError", "tether__str_new: a %zu-byte string does not fit in memory", n);
    return NULL;
  }
  tether_str_t* s =
      tether__object_alloc(sizeof(tether_str_t) + n + 1, type_index, tether__object_deleter_plain);
  if (s == NULL) return NULL;
  if (n != 0) memcpy(s->chars, data, n);
  s->chars[n] = '\0';
  s->cell.data = s->chars;
  s->cell.size = n;
  return &s->header;
}

/* A heap Str/Bytes whose bytes live in a malloc'd buffer it owns (freed with it). */
typedef struct {
  TVMFFIObject header;
  TVMFFIByteArray cell; /* data points at the buffer */
} tether_str_adopted_t;

static void tether__str_adopted_deleter(void* self, int flags) {
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) {
    free((void*)((tether_str_adopted_t*)self)->cell.data);
  }
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) tether__object_free(self);
}

TVMFFIObject* tether__str_adopt(int32_t type_index, char* data, size_t n) {
  tether_str_adopted_t* s =
      tether__object_alloc(sizeof(tether_str_adopted_t), type_index, tether__str_adopted_deleter);
  if (s == NULL) {
    free(data);
    return NULL;
  }
  data[n] = '\0';
  s->cell.data = data;
  s->cell.size = n;
  return &s->header;
}

/* Fills *out with the small (inline) form of n <= 7 bytes; `small_index` is
 * kTVMFFISmallStr or kTVMFFISmallBytes. */
static void tether__small_fill(int32_t small_index, const char* data, size_t n, TVMFFIAny* out) {
  out->type_index = small_index;
  out->small_str_len = (uint32_t)n;
  out->v_uint64 = 0;
  if (n != 0) memcpy(out->v_bytes, data, n);
}

/* The shared body of the two From*ByteArray entry points. */
static int tether__from_bytes(const char* fname, int32_t small_index, int32_t heap_index,
                              const char* data, size_t n, TVMFFIAny* out) {
  if (out == NULL) {
    return tether_raise("ValueError", "%s: argument `out` must not be NULL", fname);
  }
  if (data == NULL && n != 0) {
    return tether_raise("ValueError", "%s: input data is NULL but its size is %zu", fname, n);
  }
  if (n <= TETHER_SMALL_STR_MAX) {
    tether__small_fill(small_index, data, n, out);
    return 0;
  }
  TVMFFIObject* obj = tether__str_new(heap_index, data, n);
  if (obj == NULL) return -1;
  out->type_index = heap_index;
  out->zero_padding = 0;
  out->v_obj = obj;
  return 0;
}

int TVMFFIStringFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out) {
  if (input == NULL) {
    return tether_raise("ValueError", "TVMFFIStringFromByteArray: argument `input` must not be NULL");
  }
  return tether__from_bytes("TVMFFIStringFromByteArray", kTVMFFISmallStr, kTVMFFIStr, input->data,
                            input->size, out);
}

int TVMFFIBytesFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out) {
  if (input == NULL) {
    return tether_raise("ValueError", "TVMFFIBytesFromByteArray: argument `input` must not be NULL");
  }
  return tether__from_bytes("TVMFFIBytesFromByteArray", kTVMFFISmallBytes, kTVMFFIBytes,
                            input->data, input->size, out);
}

int tether_any_str(const char* s, size_t n, TVMFFIAny* out) {
  return tether__from_bytes("tether_any_str", kTVMFFISmallStr, kTVMFFIStr, s, n, out);
}

/* ---- the identity globals ffi.String(str) -> str and ffi.Bytes(bytes) -> bytes ---------- */

/*
 * One row per global: the accepted kinds and the texts of the typed signature.
 */
typedef struct {
  const char* name;
  const char* signature; /* as shown in argument errors */
  const char* expected;  /* the type name shown in type errors */
  const char* metadata;  /* {"type_schema": ...} */
  int32_t view_index;    /* kTVMFFIRawStr or kTVMFFIByteArrayPtr */
  int32_t small_index;
  int32_t heap_index;
} tether_str_global_t;

static const tether_str_global_t tether__str_globals[] = {
    {"ffi.String", "ffi.String(0: str) -> str", "str",
     "{\"type_schema\":\"{\\\"type\\\":\\\"ffi.Function\\\",\\\"args\\\":[{\\\"type\\\":"
     "\\\"ffi.String\\\"},{\\\"type\\\":\\\"ffi.String\\\"}]}\"}",
     kTVMFFIRawStr, kTVMFFISmallStr, kTVMFFIStr},
    {"ffi.Bytes", "ffi.Bytes(0: bytes) -> bytes", "bytes",
     "{\"type_schema\":\"{\\\"type\\\":\\\"ffi.Function\\\",\\\"args\\\":[{\\\"type\\\":"
     "\\\"ffi.Bytes\\\"},{\\\"type\\\":\\\"ffi.Bytes\\\"}]}\"}",
     kTVMFFIByteArrayPtr, kTVMFFISmallBytes, kTVMFFIBytes},
};

static int tether__str_global_call(const tether_str_global_t* g, const TVMFFIAny* args,
                                   int32_t num_args, TVMFFIAny* result) {
  if (tether_check_nargs(g->signature, NULL, num_args, 1) != 0) return -1;
  const TVMFFIAny* a = &args[0];
  bool accepted = a->type_index == g->view_index || a->type_index == g->small_index ||
                  (a->type_index >= kTVMFFIStaticObjectBegin && a->v_obj != NULL &&
                   a->v_obj->type_index == g->heap_index);
  if (!accepted) return tether__arg_type_error(g->signature, args, 0, g->expected);
  /* Views are copied into a new value, an owned heap string is shared (+1).  A malformed
   * view fails inside TVMFFIAnyViewToOwnedAny: name the global. */
  if (TVMFFIAnyViewToOwnedAny(a, result) != 0) return tether__error_add_context(g->name);
  return 0;
}

static int tether__ffi_string(void* self, const TVMFFIAny* args, int32_t num_args,
                              TVMFFIAny* result) {
  return tether__str_global_call(&tether__str_globals[0], args, num_args, result);
}

static int tether__ffi_bytes(void* self, const TVMFFIAny* args, int32_t num_args,
                             TVMFFIAny* result) {
  return tether__str_global_call(&tether__str_globals[1], args, num_args, result);
}

int tether__string_init(void) {
  static const TVMFFISafeCallType calls[] = {tether__ffi_string, tether__ffi_bytes};
  for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); ++i) {
    const tether_str_global_t* g = &tether__str_globals[i];
    if (tether_func_register_flags(g->name, calls[i], NULL, g->metadata, TETHER_FUNC_KEEPS_GIL,
                                   0) != 0) {
      return -1;
    }
  }
  return 0;
}

/* The registry releases its functions in its own fini; nothing else is allocated here. */
void tether__string_fini(void) {}
