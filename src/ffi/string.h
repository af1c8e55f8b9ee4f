/*
 * string.h -- libtether-internal declarations of string.c (not API, not exported).
 */
#ifndef TETHER_SRC_FFI_STRING_H_
#define TETHER_SRC_FFI_STRING_H_
#ifndef TETHER_BUILD_CORE
#error "src/ffi/string.h is private to libtether; include <tether/tether.h> instead"
#endif

#include "internal.h"

/* New heap Str (type_index kTVMFFIStr) or Bytes object holding a copy of n bytes, always
 * heap-allocated (no small form).  NULL with MemoryError on OOM. */
TVMFFIObject* tether__str_new(int32_t type_index, const char* data, size_t n);

/* New heap Str (or Bytes) object taking over `data`, a malloc'd buffer of at least n + 1
 * bytes holding the n bytes (a '\0' is stored after them); the object frees it.  NULL with
 * MemoryError raised (and `data` freed) when out of memory.  For large texts built in place
 * (the JSON graph writer): no copy. */
TVMFFIObject* tether__str_adopt(int32_t type_index, char* data, size_t n);

#endif /* TETHER_SRC_FFI_STRING_H_ */
