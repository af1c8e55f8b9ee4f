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
#include <stdlib.h>
#include <string.h>

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

/* The words of an Int or BigInt value: a BigInt's own, or *scratch holding the int. */
static const int64_t* tether__bigint_view(const TVMFFIAny* v, int64_t* scratch, size_t* n) {
  if (v->type_index == kTVMFFIBigInt) {
    const tether_bigint_t* big = (const tether_bigint_t*)v->v_obj;
    *n = big->num_words;
    return big->words;
  }
  *scratch = v->v_int64;
  *n = 1;
  return scratch;
}

int tether__bigint_cmp(const TVMFFIAny* a, const TVMFFIAny* b) {
  int64_t sa, sb;
  size_t na, nb;
  const int64_t* x = tether__bigint_view(a, &sa, &na);
  const int64_t* y = tether__bigint_view(b, &sb, &nb);
  size_t n = na > nb ? na : nb;
  /* Sign-extend the shorter one; the top word orders as signed, the rest as unsigned. */
  int64_t xs = x[na - 1] < 0 ? -1 : 0, ys = y[nb - 1] < 0 ? -1 : 0;
  for (size_t i = n; i-- > 0;) {
    int64_t xi = i < na ? x[i] : xs, yi = i < nb ? y[i] : ys;
    if (xi == yi) continue;
    if (i == n - 1) return xi < yi ? -1 : 1;
    return (uint64_t)xi < (uint64_t)yi ? -1 : 1;
  }
  return 0;
}

/* Reads `count` arguments that must be Int or BigInt. */
static int tether__bigint_args(const char* fn, const TVMFFIAny* args, int32_t n, int32_t count) {
  if (n < count) {
    return tether_raise("TypeError", "%s: expected at least %d arguments, got %d", fn, (int)count,
                        (int)n);
  }
  for (int32_t i = 0; i < count; ++i) {
    int32_t t = args[i].type_index;
    if (t != kTVMFFIInt && !(t == kTVMFFIBigInt && args[i].v_obj != NULL)) {
      return tether_raise("TypeError", "%s: argument %d must be an int or ffi.BigInt, got %s", fn,
                          (int)i, tether_any_type_key(&args[i]));
    }
  }
  return 0;
}

/* __ffi_eq__(lhs, rhs, callback) -> bool, __ffi_compare__(...) -> int: by value. */
static int tether__bigint_eq_hook(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* out) {
  if (tether__bigint_args("ffi.BigInt.__ffi_eq__", args, n, 2) != 0) return -1;
  *out = tether_any_bool(tether__bigint_cmp(&args[0], &args[1]) == 0);
  return 0;
}

static int tether__bigint_compare_hook(void* self, const TVMFFIAny* args, int32_t n,
                                       TVMFFIAny* out) {
  if (tether__bigint_args("ffi.BigInt.__ffi_compare__", args, n, 2) != 0) return -1;
  *out = tether_any_int(tether__bigint_cmp(&args[0], &args[1]));
  return 0;
}

/* __ffi_hash__(value, callback) -> int: as BigInt::hash (the words' bytes). */
static int tether__bigint_hash_hook(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* out) {
  if (tether__bigint_args("ffi.BigInt.__ffi_hash__", args, n, 1) != 0) return -1;
  if (args[0].type_index == kTVMFFIInt) {
    *out = tether_any_int(args[0].v_int64);
    return 0;
  }
  *out = tether__bigint_any_hash(&args[0]);
  return 0;
}

/* __data_to_json__(value) -> str: the decimal text. */
static int tether__bigint_to_json(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* out) {
  if (tether__bigint_args("ffi.BigInt.__data_to_json__", args, n, 1) != 0) return -1;
  int64_t scratch;
  size_t nw;
  const int64_t* words = tether__bigint_view(&args[0], &scratch, &nw);
  return tether__bigint_to_decimal(words, nw, out);
}

/* __data_from_json__(str) -> int: [+-]digits, nothing else; int64 values come back as Int. */
static int tether__bigint_from_json(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* out) {
  static const char fn[] = "ffi.BigInt.__data_from_json__";
  TVMFFIByteArray text;
  uint32_t* limbs = NULL;
  int64_t* words = NULL;
  int rc = -1;
  if (tether_check_nargs(fn, "(0: str) -> int", n, 1) != 0) return -1;
  if (tether_arg_str(fn, args, 0, &text) != 0) return -1;
  size_t i = 0;
  bool negative = false;
  if (i < text.size && (text.data[i] == '+' || text.data[i] == '-')) negative = text.data[i++] == '-';
  if (i == text.size) {
    return tether_raise("ValueError", "%s: invalid decimal string for ffi.BigInt: \"%.*s\"", fn,
                        (int)text.size, text.data);
  }
  for (size_t j = i; j < text.size; ++j) {
    if (text.data[j] < '0' || text.data[j] > '9') {
      return tether_raise("ValueError", "%s: invalid decimal string for ffi.BigInt: \"%.*s\"",
                          fn, (int)text.size, text.data);
    }
  }
  /* The magnitude in 32-bit limbs, least significant first: each digit is limbs*10 + d.
   * 10 digits need at most 34 bits, so (digits / 9 + 2) limbs are enough. */
  size_t cap = (text.size - i) / 9 + 2, nl = 0;
  limbs = calloc(cap, sizeof(uint32_t));
  words = calloc(cap / 2 + 2, sizeof(int64_t));
  if (limbs == NULL || words == NULL) {
    tether_raise("MemoryError", "%s: out of memory", fn);
    goto fail;
  }
  for (; i < text.size; ++i) {
    uint64_t carry = (uint64_t)(text.data[i] - '0');
    for (size_t k = 0; k < nl; ++k) {
      uint64_t cur = (uint64_t)limbs[k] * 10u + carry;
      limbs[k] = (uint32_t)cur;
      carry = cur >> 32;
    }
    if (carry != 0) limbs[nl++] = (uint32_t)carry;
  }
  /* Two's complement words, one spare word so the sign always fits. */
  size_t nw = nl / 2 + 2;
  uint64_t borrow = negative ? 1 : 0; /* -x = ~x + 1 */
  for (size_t k = 0; k < nw; ++k) {
    uint64_t w = (2 * k < nl ? limbs[2 * k] : 0) | (uint64_t)(2 * k + 1 < nl ? limbs[2 * k + 1] : 0) << 32;
    if (negative) {
      w = ~w + borrow;
      borrow = borrow && w == 0;
    }
    words[k] = (int64_t)w;
  }
  TVMFFIByteArray bytes = {(const char*)words, nw * sizeof(int64_t)};
  rc = TVMFFIBigIntFromByteArray(&bytes, out);
fail:
  free(limbs);
  free(words);
  return rc;
}

int tether__bigint_init(void) {
  static const TVMFFIByteArray hash_name = {"__any_hash__", 12};
  static const TVMFFIByteArray equal_name = {"__any_equal__", 13};
  TVMFFIAny hash = tether_any_ptr((void*)(uintptr_t)tether__bigint_any_hash);
  TVMFFIAny equal = tether_any_ptr((void*)(uintptr_t)tether__bigint_any_equal);
  /* The Function-valued columns, as tvm-ffi registers them for ffi.BigInt. */
  static const struct {
    const char* column;
    TVMFFISafeCallType fn;
  } hooks[] = {
      {"__ffi_repr__", tether__bigint_repr},
      {"__ffi_eq__", tether__bigint_eq_hook},
      {"__ffi_compare__", tether__bigint_compare_hook},
      {"__ffi_hash__", tether__bigint_hash_hook},
      {"__data_to_json__", tether__bigint_to_json},
      {"__data_from_json__", tether__bigint_from_json},
  };
  if (TVMFFITypeRegisterAttr(kTVMFFIBigInt, &hash_name, &hash) != 0 ||
      TVMFFITypeRegisterAttr(kTVMFFIBigInt, &equal_name, &equal) != 0) {
    goto fail;
  }
  for (size_t i = 0; i < sizeof(hooks) / sizeof(hooks[0]); ++i) {
    TVMFFIObjectHandle f = NULL;
    TVMFFIByteArray name = {hooks[i].column, strlen(hooks[i].column)};
    if (TVMFFIFunctionCreate(NULL, hooks[i].fn, NULL, &f) != 0) goto fail;
    TVMFFIAny v = tether_any_object(f);
    int rc = TVMFFITypeRegisterAttr(kTVMFFIBigInt, &name, &v);
    TVMFFIObjectDecRef(f); /* the column holds its own reference */
    if (rc != 0) goto fail;
  }
  return 0;
fail:
  fprintf(stderr, "libtether: cannot register the ffi.BigInt type attributes\n");
  return -1;
}

/* The type table releases the attribute values in its own fini. */
void tether__bigint_fini(void) {}
