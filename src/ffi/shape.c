/*
 * shape.c -- ffi.Shape (type 69): an immutable list of int64 dimensions.
 *
 * Layout (tvm-ffi's ShapeObj): header + TVMFFIShapeCell, then the dims inline, so
 * data == handle + 40.  Also: the public tether_shape_* functions and ffi.Shape.
 */
#include <stdint.h>

#include <tether/container.h>

#include "internal.h"
#include "container.h"
#include "error.h"
#include "object.h"
#include "shape.h"

typedef struct {
  TVMFFIObject header;
  TVMFFIShapeCell cell;
  int64_t dims[];
} tether_shape_t;

_Static_assert(offsetof(tether_shape_t, dims) == 40, "Shape dims start at handle + 40");

#define TETHER_SHAPE_MAX_DIMS ((int64_t)((SIZE_MAX - sizeof(tether_shape_t)) / sizeof(int64_t)))

int tether__shape_new(const int64_t* dims, int64_t n, TVMFFIObject** out) {
  if (n < 0 || n > TETHER_SHAPE_MAX_DIMS) {
    return tether_raise("ValueError", "ffi.Shape: cannot hold %lld dimensions", (long long)n);
  }
  size_t bytes = sizeof(tether_shape_t) + (size_t)n * sizeof(int64_t);
  tether_shape_t* shape = tether__object_alloc(bytes, kTVMFFIShape, tether__object_deleter_plain);
  if (shape == NULL) return -1;
  if (n > 0) memcpy(shape->dims, dims, (size_t)n * sizeof(int64_t));
  shape->cell.data = shape->dims;
  shape->cell.size = (size_t)n;
  *out = &shape->header;
  return 0;
}

/* ---- public API --------------------------------------------------------------------- */

static bool tether__is_shape(TVMFFIObjectHandle shape) {
  return shape != NULL && ((TVMFFIObject*)shape)->type_index == kTVMFFIShape;
}

int tether_shape_new(const int64_t* dims, int64_t n, TVMFFIObjectHandle* out) {
  if (out == NULL || (dims == NULL && n > 0)) {
    return tether_raise("ValueError", "tether_shape_new: expected n dims and non-NULL out");
  }
  TVMFFIObject* shape = NULL;
  if (tether__shape_new(dims, n, &shape) != 0) return tether__error_add_context("tether_shape_new");
  *out = shape;
  return 0;
}

int64_t tether_shape_size(TVMFFIObjectHandle shape) {
  if (!tether__is_shape(shape)) {
    return tether_raise("TypeError", "tether_shape_size: expected an ffi.Shape handle, got %s",
                        shape == NULL ? "NULL"
                                      : tether_type_key(((TVMFFIObject*)shape)->type_index));
  }
  return tether__shape_size(shape);
}

const int64_t* tether_shape_data(TVMFFIObjectHandle shape) {
  return tether__is_shape(shape) ? tether__shape_data(shape) : NULL;
}

/* ---- globals -------------------------------------------------------------------------- */

/* ffi.Shape(*ints): every argument must be an int (a bool counts, as in the reference). */
static int tether__g_shape(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  int64_t small[8] = {0};
  int64_t* dims = n <= 8 ? small : malloc((size_t)n * sizeof(int64_t));
  if (dims == NULL) return tether_raise("MemoryError", "ffi.Shape: out of memory");
  int rc = -1;
  for (int32_t i = 0; i < n; ++i) {
    if (args[i].type_index != kTVMFFIInt && args[i].type_index != kTVMFFIBool) {
      tether_raise("ValueError", "Expect shape to take list of int arguments");
      goto done;
    }
    dims[i] = args[i].v_int64;
  }
  TVMFFIObject* shape = NULL;
  if (tether__shape_new(dims, n, &shape) != 0) goto done;
  *result = tether_any_object(shape);
  rc = 0;
done:
  if (dims != small) free(dims);
  return rc;
}

const tether__container_global_t tether__shape_globals[] = {
    {"ffi.Shape", tether__g_shape, NULL, "Shape(*dims): a new Shape of int64 dimensions"},
};
const size_t tether__shape_num_globals =
    sizeof(tether__shape_globals) / sizeof(tether__shape_globals[0]);
