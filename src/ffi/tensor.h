/*
 * tensor.h -- libtether-internal declarations of tensor.c (not API, not exported).
 */
#ifndef TETHER_SRC_FFI_TENSOR_H_
#define TETHER_SRC_FFI_TENSOR_H_
#ifndef TETHER_BUILD_CORE
#error "src/ffi/tensor.h is private to libtether; include <tether/tensor.h> instead"
#endif

#include "internal.h"

/*
 * Checks that `t` describes a well-formed tensor: ndim >= 0, shape non-NULL when ndim > 0,
 * no negative dimension, bits and lanes non-zero, element count and size in bytes within
 * int64, and (when strides are given) an extent that fits in int64.  `fname` names the
 * calling function in the message.  Returns 0, or -1 with a ValueError raised.  On success
 * *out_nbytes (may be NULL) receives the size of the data in bytes.
 */
int tether__tensor_check(const char* fname, const DLTensor* t, int64_t* out_nbytes);

/* true if `t` (already checked) is compact row-major: strides NULL, some dimension 0, or
 * strides equal to the compact ones ignoring dimensions of size 1. */
bool tether__tensor_is_contiguous(const DLTensor* t);

#endif /* TETHER_SRC_FFI_TENSOR_H_ */
