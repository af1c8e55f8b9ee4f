/*
 * bigint.h -- libtether-internal declarations of bigint.c (not API, not exported).
 */
#ifndef TETHER_SRC_FFI_BIGINT_H_
#define TETHER_SRC_FFI_BIGINT_H_
#ifndef TETHER_BUILD_CORE
#error "src/ffi/bigint.h is private to libtether; include <tether/tether.h> instead"
#endif

#include "internal.h"

/*
 * The ffi.BigInt object (kTVMFFIBigInt): the header, the word count, then the words of a
 * signed two's-complement integer, least-significant word first, each in native byte
 * order.  Invariant (C++ code compiled against tvm-ffi reads it directly): the words are
 * the shortest signed form -- num_words >= 2, and the top word is not a mere sign
 * extension of the one below -- so every value that fits int64 is a kTVMFFIInt instead.
 */
typedef struct {
  TVMFFIObject header;
  size_t num_words;
  int64_t words[];
} tether_bigint_t;

/* The decimal text of the integer words[0..n) (n >= 1, any redundant sign words allowed)
 * appended as an owning string to *out.  0, or -1 with MemoryError. */
int tether__bigint_to_decimal(const int64_t* words, size_t n, TVMFFIAny* out);

/* Orders two integers, each a kTVMFFIInt or a kTVMFFIBigInt value: -1, 0 or 1. */
int tether__bigint_cmp(const TVMFFIAny* a, const TVMFFIAny* b);

#endif /* TETHER_SRC_FFI_BIGINT_H_ */
