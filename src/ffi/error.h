/*
 * error.h -- libtether-internal declarations of error.c (not API, not exported).
 */
#ifndef TETHER_SRC_FFI_ERROR_H_
#define TETHER_SRC_FFI_ERROR_H_
#ifndef TETHER_BUILD_CORE
#error "src/ffi/error.h is private to libtether; include <tether/tether.h> instead"
#endif

#include "internal.h"

/* New Error object (copies the bytes); cause/extra borrowed (IncRef'd). NULL on OOM. */
TVMFFIObject* tether__error_new(TVMFFIByteArray kind, TVMFFIByteArray message,
                                TVMFFIByteArray backtrace, TVMFFIObject* cause,
                                TVMFFIObject* extra);
/* Parks `err` in this thread's slot, stealing the reference. */
void tether__error_set_steal(TVMFFIObject* err);
/* Raises (kind, message) with the backtrace of the given frame; returns -1. */
int tether__error_raise_bytes(const char* file, int line, const char* func, const char* kind,
                              const char* msg, size_t msg_len);

#endif /* TETHER_SRC_FFI_ERROR_H_ */
