/*
 * error.h -- libtether-internal declarations of error.c and backtrace.c (not API, not
 * exported).
 */
#ifndef TETHER_SRC_FFI_ERROR_H_
#define TETHER_SRC_FFI_ERROR_H_
#ifndef TETHER_BUILD_CORE
#error "src/ffi/error.h is private to libtether; include <tether/tether.h> instead"
#endif

#include "internal.h"

/*
 * Marks a function as error/backtrace machinery: TVMFFIBacktrace leaves the frames of
 * functions carrying it out of the C call stack it prints.  The functions are gathered
 * into one linker section (tether_bt_text) whose bounds backtrace.c compares return
 * addresses against, which works for static functions that dladdr cannot name.
 * Use it for raise helpers and trampolines a user would not want to see in a traceback.
 */
#define TETHER_BACKTRACE_HIDDEN __attribute__((section("tether_bt_text"), noinline))

/* New Error object (copies the bytes); cause/extra borrowed (the error takes its own
 * references).  New reference, or NULL on out-of-memory with a MemoryError raised. */
TVMFFIObject* tether__error_new(TVMFFIByteArray kind, TVMFFIByteArray message,
                                TVMFFIByteArray backtrace, TVMFFIObject* cause,
                                TVMFFIObject* extra);
/* Parks `err` (may be NULL: clears) in this thread's slot, stealing the reference and
 * releasing the error parked before. */
void tether__error_set_steal(TVMFFIObject* err);
/* Raises (kind, message[0:msg_len]) with TVMFFIBacktrace(file, line, func, 0) as the
 * backtrace (file/func may be NULL); kind NULL means "RuntimeError".  Returns -1.  On
 * out-of-memory a shared, static MemoryError is parked instead, so a -1 return always has
 * an error behind it. */
int tether__error_raise_bytes(const char* file, int line, const char* func, const char* kind,
                              const char* msg, size_t msg_len);

/* Says where a nested failure happened: replaces the parked error with one of the same
 * kind, backtrace, cause and extra context whose message is "<context>: <message>", so a
 * user calling `ffi.Array` is not left reading about TVMFFIAnyViewToOwnedAny.  A message
 * that already contains `context` is left alone, as is an empty slot.  Returns -1. */
int tether__error_add_context(const char* context);

/* backtrace.c: the per-thread buffers behind TVMFFIBacktrace (created lazily, so it works
 * before init).  init is called by tether__error_init; fini (called by tether__error_fini)
 * frees the calling thread's buffer; other threads' buffers are freed when they exit.
 * After fini TVMFFIBacktrace still works but returns only the given frame. */
int tether__backtrace_init(void);
void tether__backtrace_fini(void);

#endif /* TETHER_SRC_FFI_ERROR_H_ */
