/*
 * registry.h -- libtether-internal declarations of registry.c (not API, not exported).
 */
#ifndef TETHER_SRC_FFI_REGISTRY_H_
#define TETHER_SRC_FFI_REGISTRY_H_
#ifndef TETHER_BUILD_CORE
#error "src/ffi/registry.h is private to libtether; include <tether/tether.h> instead"
#endif

#include "internal.h"

/* Borrowed function handle of global `name` (NULL if absent).  Lock-free for readers. */
TVMFFIObject* tether__registry_lookup(const char* name, size_t len);

#endif /* TETHER_SRC_FFI_REGISTRY_H_ */
