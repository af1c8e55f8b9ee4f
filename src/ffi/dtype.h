/*
 * dtype.h -- libtether-internal declarations of dtype.c (not API, not exported).
 *
 * dtype.c implements the ABI entry points TVMFFIDataTypeFromString / TVMFFIDataTypeToString
 * (declared in <tether/c_api.h>); this header only names its constants.
 */
#ifndef TETHER_SRC_FFI_DTYPE_H_
#define TETHER_SRC_FFI_DTYPE_H_
#ifndef TETHER_BUILD_CORE
#error "src/ffi/dtype.h is private to libtether; include <tether/tether.h> instead"
#endif

#include "internal.h"

/* Type codes from here up are custom types, named through the globals
 * "dtype.get_custom_type_code" / "dtype.get_custom_type_name". */
#define TETHER_DTYPE_CUSTOM_BEGIN 129
/* Bits of `custom[name]` when the string gives none. */
#define TETHER_DTYPE_CUSTOM_DEFAULT_BITS 32

#endif /* TETHER_SRC_FFI_DTYPE_H_ */
