/*
 * any.h -- libtether-internal declarations of any.c (not API, not exported).
 */
#ifndef TETHER_SRC_FFI_ANY_H_
#define TETHER_SRC_FFI_ANY_H_
#ifndef TETHER_BUILD_CORE
#error "src/ffi/any.h is private to libtether; include <tether/tether.h> instead"
#endif

#include "internal.h"

/* StableHashCombine of spec 1.12: key ^ (v + 0x9e3779b9 + (key << 6) + (key >> 2)). */
uint64_t tether__hash_combine(uint64_t key, uint64_t value);
/* StableHashBytes of spec 1.12 (little-endian 8-byte words folded modulo 2^31 - 1). */
uint64_t tether__hash_bytes(const char* data, size_t n);

#endif /* TETHER_SRC_FFI_ANY_H_ */
