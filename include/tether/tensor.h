/*
 * tensor.h -- tether's C conveniences for Tensor objects (type index 70, "ffi.Tensor").
 *
 * The ABI functions (TVMFFITensorFromDLPack*, TVMFFITensorToDLPack*,
 * TVMFFITensorCreateUnsafeView, TVMFFIEnvTensorAlloc) are declared in <tether/c_api.h>.
 * This header adds what C code needs to make and read tensors without a framework:
 * a CPU allocator (64-byte aligned, zero-filled data) usable directly or installed as the
 * environment's DLPack allocator, and a typed accessor for the DLTensor cell.
 *
 * Every Tensor tether creates satisfies: shape and strides are never NULL (they point at
 * storage inside the Tensor object; for ndim == 0 they point at an empty array), and
 * strides are in elements, as in DLPack.
 */
#ifndef TETHER_TENSOR_H_
#define TETHER_TENSOR_H_

#include <stdint.h>

#include "c_api.h"
#include "tether.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Alignment in bytes of the data tether's CPU allocator hands out. */
#define TETHER_TENSOR_ALIGNMENT 64

/*
 * Makes a new compact row-major Tensor of `shape[0..ndim)` and `dtype` on `device`, with
 * zero-filled data aligned to TETHER_TENSOR_ALIGNMENT bytes, owned by the Tensor.
 * Ownership: *out receives a new reference.  `shape` is copied (may be NULL when ndim == 0).
 * Errors: ValueError for a non-CPU device, ndim < 0, shape NULL with ndim > 0, a negative
 * dimension, bits or lanes 0, or a size in bytes that overflows int64; MemoryError.
 * Thread-safe.
 */
TETHER_API int tether_tensor_empty(const int64_t* shape, int32_t ndim, DLDataType dtype,
                                   DLDevice device, TVMFFIObjectHandle* out);

/*
 * The DLTensor cell of a Tensor (handle + 24), borrowed: valid while `tensor` lives.
 * NULL if `tensor` is NULL or is not a Tensor (no error is raised).  Thread-safe.
 */
TETHER_API DLTensor* tether_tensor_dl(TVMFFIObjectHandle tensor);

/*
 * A DLPackManagedTensorAllocator for CPU memory: allocates a compact tensor shaped like
 * `prototype` (its data, strides and byte_offset are ignored) with zero-filled, 64-byte
 * aligned data.  *out receives a new DLManagedTensorVersioned (version = this dlpack.h's,
 * flags 0) that the receiver releases by calling its deleter exactly once.
 * Install it with TVMFFIEnvSetDLPackManagedTensorAllocator(tether_cpu_dlpack_allocator, ...)
 * to make TVMFFIEnvTensorAlloc work on CPU.
 * Errors: returns -1 after SetError(error_ctx, kind, message) (or, when SetError is NULL,
 * after raising the error in this thread): ValueError for a NULL prototype/out, a non-CPU
 * device or a malformed prototype; MemoryError.  Thread-safe.
 */
TETHER_API int tether_cpu_dlpack_allocator(DLTensor* prototype, DLManagedTensorVersioned** out,
                                           void* error_ctx,
                                           void (*SetError)(void* error_ctx, const char* kind,
                                                            const char* message));

#ifdef __cplusplus
}
#endif
#endif /* TETHER_TENSOR_H_ */
