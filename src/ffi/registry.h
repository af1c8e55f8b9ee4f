/*
 * registry.h -- libtether-internal declarations of registry.c (not API, not exported).
 */
#ifndef TETHER_SRC_FFI_REGISTRY_H_
#define TETHER_SRC_FFI_REGISTRY_H_
#ifndef TETHER_BUILD_CORE
#error "src/ffi/registry.h is private to libtether; include <tether/tether.h> instead"
#endif

#include "internal.h"

/* Borrowed function handle of global `name` (NULL if absent).  Lock-free.  Valid only
 * while the name stays registered with this function: a caller that keeps the handle,
 * or that may race with an override/removal, should use TVMFFIFunctionGetGlobal (new
 * reference) instead. */
TVMFFIObject* tether__registry_lookup(const char* name, size_t len);

/* The object that global `name` returns when called without arguments, for singletons
 * the registry keeps alive (ffi.GetKwargsObject, ffi.GetInvalidObject): borrowed, valid
 * until the registry's fini.  NULL (no error left raised) if that fails. */
TVMFFIObject* tether__registry_singleton(const char* name);

/* Doc and metadata JSON of global `name` as new owning string Anys (either out may be
 * NULL).  Returns 1 if found, 0 if absent (outs untouched), -1 on OOM.  Lock-free. */
int tether__registry_info(const char* name, size_t len, TVMFFIAny* doc, TVMFFIAny* metadata);

/* Unregisters global `name`: 1 if it was registered, 0 if not.  The registry's reference
 * to the function is released before returning (after concurrent readers have left). */
int tether__registry_remove(const char* name, size_t len);

#endif /* TETHER_SRC_FFI_REGISTRY_H_ */
