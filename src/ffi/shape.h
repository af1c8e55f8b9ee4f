/*
 * shape.h -- libtether-internal API of shape.c: ffi.Shape (type 69).  Not exported.
 *
 * A Shape is an immutable TVMFFIShapeCell whose int64 dimensions are stored inline
 * right after the cell (data == handle + 40).  Shapes made by C++ code may point
 * elsewhere; readers use only the cell.
 */
#ifndef TETHER_SRC_FFI_SHAPE_H_
#define TETHER_SRC_FFI_SHAPE_H_
#ifndef TETHER_BUILD_CORE
#error "src/ffi/shape.h is private to libtether; include <tether/container.h> instead"
#endif

#include "internal.h"

/* New Shape holding a copy of the `n` dims.  New reference in *out; -1 with MemoryError
 * or ValueError (negative / huge n). */
int tether__shape_new(const int64_t* dims, int64_t n, TVMFFIObject** out);

static inline int64_t tether__shape_size(const TVMFFIObject* shape) {
  return (int64_t)TETHER_CELL(TVMFFIShapeCell, shape)->size;
}
/* The dims (borrowed from the shape). */
static inline const int64_t* tether__shape_data(const TVMFFIObject* shape) {
  return TETHER_CELL(TVMFFIShapeCell, shape)->data;
}

#endif /* TETHER_SRC_FFI_SHAPE_H_ */
