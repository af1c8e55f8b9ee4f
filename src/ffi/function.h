/*
 * function.h -- libtether-internal declarations of function.c (not API, not exported).
 */
#ifndef TETHER_SRC_FFI_FUNCTION_H_
#define TETHER_SRC_FFI_FUNCTION_H_
#ifndef TETHER_BUILD_CORE
#error "src/ffi/function.h is private to libtether; include <tether/tether.h> instead"
#endif

#include "internal.h"

/* Raises the reference's argument TypeError and returns -1:
 *   "Mismatched type on argument #<i> when calling: `<fname>`. Expected `<expected>` but got
 *   `<type key of args[i]>`"
 * `fname` is the text shown between the backticks: by convention the whole signature,
 * e.g. "ffi.FunctionRemoveGlobal(0: str) -> bool" (the tether_arg_* helpers use the same). */
int tether__arg_type_error(const char* fname, const TVMFFIAny* args, int32_t i,
                           const char* expected);

/* `void*` argument: accepts OpaquePtr and None (-> NULL).  TypeError otherwise. */
int tether__arg_ptr(const char* fname, const TVMFFIAny* args, int32_t i, void** out);

/* The process-wide sentinels behind ffi.GetInvalidObject ("MISSING", e.g. the result of
 * ffi.MapGetItemOrMissing) and ffi.GetKwargsObject ("KWARGS").  Borrowed: static plain
 * ffi.Object instances (NULL deleter) that live for the whole process; IncRef them before
 * storing them in an owning Any. */
TVMFFIObject* tether__function_invalid_object(void);
TVMFFIObject* tether__function_kwargs_object(void);

#endif /* TETHER_SRC_FFI_FUNCTION_H_ */
