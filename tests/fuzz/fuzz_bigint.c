/*
 * fuzz_bigint.c -- libFuzzer target for TVMFFIBigIntFromByteArray: any byte string either
 * fails with a ValueError parked and None in the result (a length that is not a multiple
 * of 8), or gives the same integer in its one canonical form -- a kTVMFFIInt when it fits
 * int64, else an ffi.BigInt whose content is the input without its redundant sign words.
 * The decimal text that repr prints is parsed back here and must be the same integer, and
 * rebuilding from the content must give an equal value with the same hash.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tether/c_api.h>
#include <tether/reflection.h>
#include <tether/tether.h>

static void fuzz_bigint_fail(const char* what, size_t size) {
  fprintf(stderr, "fuzz_bigint: %s (input of %zu bytes)\n", what, size);
  abort();
}

static int64_t word_at(const uint8_t* data, size_t i) {
  int64_t w;
  memcpy(&w, data + 8 * i, 8);
  return w;
}

/* The integer of decimal `text` as n words, two's complement modulo 2**(64n). */
static void parse_decimal(TVMFFIByteArray text, uint64_t* out, size_t n, size_t size) {
  memset(out, 0, n * sizeof(uint64_t));
  size_t i = 0;
  int negative = text.size > 0 && text.data[0] == '-';
  if (negative) i = 1;
  if (i == text.size) fuzz_bigint_fail("repr printed no digits", size);
  for (; i < text.size; ++i) {
    char c = text.data[i];
    if (c < '0' || c > '9') fuzz_bigint_fail("repr printed a non-digit", size);
    uint64_t carry = (uint64_t)(c - '0');
    for (size_t k = 0; k < n; ++k) { /* out = out * 10 + carry, 32 bits at a time */
      uint64_t lo = (out[k] & 0xffffffffu) * 10 + carry;
      uint64_t hi = (out[k] >> 32) * 10 + (lo >> 32);
      out[k] = (lo & 0xffffffffu) | (hi << 32);
      carry = hi >> 32;
    }
  }
  if (negative) {
    uint64_t carry = 1;
    for (size_t k = 0; k < n; ++k) {
      out[k] = ~out[k] + carry;
      carry = carry && out[k] == 0;
    }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  TVMFFIByteArray in = {(const char*)data, size};
  TVMFFIAny v = tether_any_int(7);
  if (TVMFFIBigIntFromByteArray(&in, &v) != 0) {
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    if (err == NULL) fuzz_bigint_fail("failure without an error", size);
    if (size % 8 == 0) fuzz_bigint_fail("whole words refused", size);
    if (v.type_index != kTVMFFINone) fuzz_bigint_fail("result not reset to None", size);
    TVMFFIObjectDecRef(err);
    return 0;
  }
  if (size % 8 != 0) fuzz_bigint_fail("a partial word accepted", size);
  size_t n = size / 8;
  TVMFFIByteArray c = TVMFFIBigIntGetContentByteArray(&v);
  if (c.data == NULL || c.size == 0 || c.size % 8 != 0) fuzz_bigint_fail("bad content", size);
  size_t m = c.size / 8;
  if (v.type_index == kTVMFFIInt) {
    if (m != 1) fuzz_bigint_fail("an int with more than one word", size);
  } else if (v.type_index == kTVMFFIBigInt) {
    if (m < 2) fuzz_bigint_fail("a BigInt that fits int64", size);
    int64_t top, below;
    memcpy(&top, c.data + 8 * (m - 1), 8);
    memcpy(&below, c.data + 8 * (m - 2), 8);
    if (top == (below < 0 ? -1 : 0)) fuzz_bigint_fail("a redundant sign word kept", size);
  } else {
    fuzz_bigint_fail("neither int nor BigInt", size);
  }
  /* Same integer: the content is the input's prefix and every further input word only
   * extends the sign (an empty input is zero). */
  if (m > (n > 0 ? n : 1)) fuzz_bigint_fail("content longer than the input", size);
  if (n > 0 && memcmp(c.data, data, c.size) != 0) fuzz_bigint_fail("content differs", size);
  int64_t last;
  memcpy(&last, c.data + 8 * (m - 1), 8);
  for (size_t i = m; i < n; ++i) {
    if (word_at(data, i) != (last < 0 ? -1 : 0)) fuzz_bigint_fail("dropped a value word", size);
  }
  /* The decimal text names the same integer. */
  if (v.type_index == kTVMFFIBigInt) {
    TVMFFIAny text = tether_any_none();
    if (tether_repr(&v, &text) != 0) fuzz_bigint_fail("repr failed", size);
    TVMFFIByteArray s;
    if (!tether_any_get_str(&text, &s)) fuzz_bigint_fail("repr is not a string", size);
    uint64_t* parsed = malloc(m * sizeof(uint64_t));
    if (parsed == NULL) abort();
    parse_decimal(s, parsed, m, size);
    if (memcmp(parsed, c.data, c.size) != 0) fuzz_bigint_fail("repr names another value", size);
    free(parsed);
    tether_any_release(&text);
  }
  /* Rebuilt from its content: equal, same hash. */
  TVMFFIAny again = tether_any_none();
  if (TVMFFIBigIntFromByteArray(&c, &again) != 0) fuzz_bigint_fail("content refused", size);
  if (!tether_any_equal(&v, &again) || tether_any_hash(&v) != tether_any_hash(&again)) {
    fuzz_bigint_fail("rebuilt value differs", size);
  }
  tether_any_release(&again);
  tether_any_release(&v);
  return 0;
}
