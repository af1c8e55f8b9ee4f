/*
 * module.h -- libtether-internal declarations of module.c (not API, not exported).
 *
 * Modules (type 73) are reached from outside through the ffi.Module* globals; these are
 * the same operations for libtether's own code (the Python binding, the IR layer's
 * loaders) without the boxing of a global call.
 */
#ifndef TETHER_SRC_FFI_MODULE_H_
#define TETHER_SRC_FFI_MODULE_H_
#ifndef TETHER_BUILD_CORE
#error "src/ffi/module.h is private to libtether; include <tether/tether.h> instead"
#endif

#include "internal.h"

/* Loads the shared library at `path` as a "library" module, its TVMFFI* references bound
 * to libtether (tether__bind_load).  New reference in *out; -1 with InternalError "Failed
 * to load dynamic shared library <path> <dlerror>" when the loader refuses the file, or
 * RuntimeError naming the library and the symbol that cannot be bound. */
int tether__module_load_library(const char* path, TVMFFIObject** out);

/* The library function `name` of module `mod` (symbol "__tvm_ffi_<name>"), searching the
 * imports depth-first when `query_imports`.  *out = new reference, or NULL (rc 0) when no
 * module has it.  `mod` is borrowed and must be a module created by libtether
 * (TypeError otherwise). */
int tether__module_get_function(TVMFFIObject* mod, TVMFFIByteArray name, bool query_imports,
                                TVMFFIObject** out);

#endif /* TETHER_SRC_FFI_MODULE_H_ */
