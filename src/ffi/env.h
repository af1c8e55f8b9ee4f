/*
 * env.h -- libtether-internal declarations of env.c (not API, not exported).
 */
#ifndef TETHER_SRC_FFI_ENV_H_
#define TETHER_SRC_FFI_ENV_H_
#ifndef TETHER_BUILD_CORE
#error "src/ffi/env.h is private to libtether; include <tether/tether.h> instead"
#endif

#include "internal.h"

/* For every context symbol registered with TVMFFIEnvModRegisterContextSymbol: if the
 * library `dl_handle` (from dlopen) exports a data symbol of that name, store the
 * registered value into it.  Called by module.c right after loading a library.
 * Thread-safe; cannot fail. */
void tether__env_apply_context_symbols(void* dl_handle);

/* The address registered with TVMFFIEnvModRegisterSystemLibSymbol under the full
 * symbol `name` (e.g. "__tvm_ffi_testing.add_one") -- the latest one if it was
 * registered twice -- or NULL (also for a NULL name).  Thread-safe; raises nothing. */
void* tether__env_system_lib_symbol(const char* name);

#endif /* TETHER_SRC_FFI_ENV_H_ */
