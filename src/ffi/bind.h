/*
 * bind.h -- libtether-internal declarations of bind.c (not API, not exported): loading a
 * shared library for a "library" module so that its TVMFFI* calls reach libtether.
 */
#ifndef TETHER_SRC_FFI_BIND_H_
#define TETHER_SRC_FFI_BIND_H_
#ifndef TETHER_BUILD_CORE
#error "src/ffi/bind.h is private to libtether; include <tether/tether.h> instead"
#endif

#include "internal.h"

/* A library loaded by tether__bind_load: the dlopen handle, and the memfd that holds a
 * private copy of the file (-1 when the file itself was loaded). */
typedef struct {
  void* dl;
  int copy_fd;
} tether_bound_library_t;

/* Loads the shared library at `path` and binds every reference it makes to a TVMFFI*
 * function to libtether's definition, after checking that each of its other undefined
 * symbols resolves (bind.c states the rules).  0 and *out filled, or -1 with nothing
 * loaded and the error raised: InternalError "Failed to load dynamic shared library <path>
 * <dlerror>" when the dynamic loader refuses the file; RuntimeError naming the library and
 * the symbol when a symbol cannot be bound.  Thread-safe. */
int tether__bind_load(const char* path, tether_bound_library_t* out);

/* Releases what tether__bind_load returned (dlclose; the copy's memfd is closed once the
 * copy is no longer mapped). */
void tether__bind_unload(tether_bound_library_t* lib);

#endif /* TETHER_SRC_FFI_BIND_H_ */
