/*
 * bigint.c -- arbitrary-precision integers (kTVMFFIBigInt, type key "ffi.BigInt"): the
 * two ABI entry points TVMFFIBigIntFromByteArray / TVMFFIBigIntGetContentByteArray, and
 * the type attributes that make a BigInt behave as a value: `__any_hash__` and
 * `__any_equal__` (Map/Dict keys, spec 1.12) and `__ffi_repr__` (its decimal text).
 *
 * An integer crosses the ABI in one of two forms, never both: a kTVMFFIInt when it fits
 * int64, else a BigInt object in the shortest signed form (bigint.h).  The content of
 * either is a run of whole 64-bit words, least-significant first, native byte order in
 * each word, two's complement -- a little-endian byte string only on little-endian hosts.
 */
#include <stdio.h>

#include "internal.h"
#include "bigint.h"
#include "any.h"
#include "object.h"

#define TETHER_BIGINT_MAX_WORDS ((SIZE_MAX - sizeof(tether_bigint_t)) / sizeof(int64_t))

/* Word i of an input that may be unaligned. */
static int64_t tether__bigint_word(const char* data, size_t i) {
  int64_t w;
  memcpy(&w, data + i * sizeof(int64_t), sizeof(w));
  return w;
}

/* The length of the shortest signed form of data's n >= 1 words: drop a top word while it
 * only repeats the sign of the word below it. */
static size_t tether__bigint_trim(const char* data, size_t n) {
  while (n > 1) {
    int64_t top = tether__bigint_word(data, n - 1);
    int64_t sign = tether__bigint_word(data, n - 2) < 0 ? -1 : 0;
    if (top != sign) break;
    --n;
  }
  return n;
}

int TVMFFIBigIntFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out) {
  static const char fn[] = "TVMFFIBigIntFromByteArray";
  if (out == NULL) return tether_raise("ValueError", "%s: argument `out` must not be NULL", fn);
  *out = tether_any_none();
  if (input == NULL) return tether_raise("ValueError", "%s: argument `input` must not be NULL", fn);
  if (input->data == NULL && input->size != 0) {
    return tether_raise("ValueError", "%s: argument `input` has NULL data but size %zu", fn,
                        input->size);
  }
  if (input->size % sizeof(int64_t) != 0) {
    return tether_raise("ValueError", "%s: argument `input` must hold whole 64-bit words, got "
                        "%zu bytes", fn, input->size);
  }
  size_t n = input->size / sizeof(int64_t);
  if (n == 0) { /* the empty word string is zero */
    out->type_index = kTVMFFIInt;
    return 0;
  }
  n = tether__bigint_trim(input->data, n);
  if (n == 1) {
    out->type_index = kTVMFFIInt;
    out->v_int64 = tether__bigint_word(input->data, 0);
    return 0;
  }
  if (n > TETHER_BIGINT_MAX_WORDS) {
    return tether_raise("MemoryError", "%s: %zu words do not fit in memory", fn, n);
  }
  tether_bigint_t* big = tether__object_alloc(sizeof(tether_bigint_t) + n * sizeof(int64_t),
                                              kTVMFFIBigInt, tether__object_deleter_plain);
  if (big == NULL) return -1;
  big->num_words = n;
  memcpy(big->words, input->data, n * sizeof(int64_t));
  out->type_index = kTVMFFIBigInt;
  out->v_obj = &big->header;
  return 0;
}

TVMFFIByteArray TVMFFIBigIntGetContentByteArray(const TVMFFIAny* value) {
  static const char fn[] = "TVMFFIBigIntGetContentByteArray";
  TVMFFIByteArray none = {NULL, 0};
  if (value == NULL) {
    tether_raise("ValueError", "%s: argument `value` must not be NULL", fn);
    return none;
  }
  if (value->type_index == kTVMFFIInt) {
    TVMFFIByteArray r = {(const char*)&value->v_int64, sizeof(int64_t)};
    return r;
  }
  if (value->type_index >= kTVMFFIStaticObjectBegin && value->v_obj != NULL &&
      value->v_obj->type_index == kTVMFFIBigInt) {
    const tether_bigint_t* big = (const tether_bigint_t*)value->v_obj;
    TVMFFIByteArray r = {(const char*)big->words, big->num_words * sizeof(int64_t)};
    return r;
  }
  tether_raise("TypeError", "%s: argument `value` must be an int or an ffi.BigInt, got `%s`", fn,
               tether_any_type_key(value));
  return none;
}

/* ---- decimal text ----------------------------------------------------------------------- */

int tether__bigint_to_decimal(const int64_t* words, size_t n, TVMFFIAny* out) {
  /* The magnitude as 32-bit limbs (least significant first), divided by 10^9 until zero;
   * each remainder is nine digits of the answer, last group first. */
  bool negative = words[n - 1] < 0;
  size_t nl = 2 * n;
  uint32_t* limbs = malloc(nl * sizeof(uint32_t));
  /* 9 digits per 29.9 bits: 10 chars per 32-bit limb is enough, plus sign and NUL. */
  size_t cap = nl * 10 + 2;
  char* text = malloc(cap);
  int rc = -1;
  if (limbs == NULL || text == NULL) {
    tether_raise("MemoryError", "ffi.BigInt: out of memory printing a %zu-word integer", n);
    goto fail;
  }
  uint64_t carry = negative ? 1 : 0; /* -x = ~x + 1 */
  for (size_t i = 0; i < n; ++i) {
    uint64_t w = (uint64_t)words[i];
    if (negative) {
      w = ~w + carry;
      carry = carry && w == 0;
    }
    limbs[2 * i] = (uint32_t)w;
    limbs[2 * i + 1] = (uint32_t)(w >> 32);
  }
  size_t pos = cap; /* digits are written right to left */
  text[--pos] = '\0';
  while (nl > 0 && limbs[nl - 1] == 0) --nl;
  do {
    uint64_t rem = 0;
    for (size_t i = nl; i-- > 0;) {
      uint64_t cur = (rem << 32) | limbs[i];
      limbs[i] = (uint32_t)(cur / 1000000000u);
      rem = cur % 1000000000u;
    }
    while (nl > 0 && limbs[nl - 1] == 0) --nl;
    for (int d = 0; d < 9 && (nl > 0 || rem != 0 || d == 0); ++d) {
      text[--pos] = (char)('0' + rem % 10);
      rem /= 10;
    }
  } while (nl > 0);
  if (negative) text[--pos] = '-';
  rc = tether_any_str(text + pos, cap - 1 - pos, out);
fail:
  free(limbs);
  free(text);
  return rc;
}

/* ---- type attributes ------------------------------------------------------------------- */

/* The native `__any_hash__` / `__any_equal__` hooks (any.c: they return an owning Any).
 * Both sides are ffi.BigInt objects: tether_any_hash/equal, and tvm-ffi's AnyHash/AnyEqual,
 * look the hook up by the value's own type and compare types first. */
static TVMFFIAny tether__bigint_any_hash(const TVMFFIAny* v) {
  const tether_bigint_t* big = (const tether_bigint_t*)v->v_obj;
  return tether_any_int(
      (int64_t)tether__hash_bytes((const char*)big->words, big->num_words * sizeof(int64_t)));
}

static TVMFFIAny tether__bigint_any_equal(const TVMFFIAny* a, const TVMFFIAny* b) {
  const tether_bigint_t* x = (const tether_bigint_t*)a->v_obj;
  const tether_bigint_t* y = (const tether_bigint_t*)b->v_obj;
  return tether_any_bool(x->num_words == y->num_words &&
                         memcmp(x->words, y->words, x->num_words * sizeof(int64_t)) == 0);
}

/* __ffi_repr__(self, repr_fn) -> str: the decimal text. */
static int tether__bigint_repr(void* self, const TVMFFIAny* args, int32_t num_args,
                               TVMFFIAny* result) {
  (void)self;
  if (num_args < 1 || args[0].type_index != kTVMFFIBigInt || args[0].v_obj == NULL ||
      args[0].v_obj->type_index != kTVMFFIBigInt) {
    return tether_raise("TypeError", "ffi.BigInt.__ffi_repr__: argument 0 must be an ffi.BigInt");
  }
  const tether_bigint_t* big = (const tether_bigint_t*)args[0].v_obj;
  return tether__bigint_to_decimal(big->words, big->num_words, result);
}

int tether__bigint_init(void) {
  static const TVMFFIByteArray hash_name = {"__any_hash__", 12};
  static const TVMFFIByteArray equal_name = {"__any_equal__", 13};
  static const TVMFFIByteArray repr_name = {"__ffi_repr__", 12};
  TVMFFIAny hash = tether_any_ptr((void*)(uintptr_t)tether__bigint_any_hash);
  TVMFFIAny equal = tether_any_ptr((void*)(uintptr_t)tether__bigint_any_equal);
  TVMFFIObjectHandle repr = NULL;
  int rc = -1;
  if (TVMFFITypeRegisterAttr(kTVMFFIBigInt, &hash_name, &hash) != 0 ||
      TVMFFITypeRegisterAttr(kTVMFFIBigInt, &equal_name, &equal) != 0 ||
      TVMFFIFunctionCreate(NULL, tether__bigint_repr, NULL, &repr) != 0) {
    goto fail;
  }
  TVMFFIAny repr_any = tether_any_object(repr);
  if (TVMFFITypeRegisterAttr(kTVMFFIBigInt, &repr_name, &repr_any) != 0) goto fail;
  rc = 0;
fail:
  TVMFFIObjectDecRef(repr); /* the column holds its own reference */
  if (rc != 0) fprintf(stderr, "libtether: cannot register the ffi.BigInt type attributes\n");
  return rc;
}

/* The type table releases the attribute values in its own fini. */
void tether__bigint_fini(void) {}
