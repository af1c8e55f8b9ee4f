/*
 * type.h -- libtether-internal declarations of type.c (not API, not exported).
 */
#ifndef TETHER_SRC_FFI_TYPE_H_
#define TETHER_SRC_FFI_TYPE_H_
#ifndef TETHER_BUILD_CORE
#error "src/ffi/type.h is private to libtether; include <tether/tether.h> instead"
#endif

#include "internal.h"

/* Type-table entry for `index`, or NULL if unregistered (never aborts). Borrowed. */
const TVMFFITypeInfo* tether__type_info_or_null(int32_t index);
/* Registers a static object type (index in 64..127) under ffi.Object, if not yet present. */
int32_t tether__type_register_static(const char* key, int32_t index);

#endif /* TETHER_SRC_FFI_TYPE_H_ */
