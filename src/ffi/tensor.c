/*
 * tensor.c -- Tensor objects (type index 70, "ffi.Tensor"): import from and export to
 * DLPack (legacy and versioned), unsafe views, the environment allocator entry point
 * (TVMFFIEnvTensorAlloc) and tether's CPU allocator.
 *
 * A Tensor is the 24-byte header, the DLTensor cell at +24 (the part C++ and C kernels
 * read), then tether-private state: what keeps the data alive (`owner`) and inline storage
 * for shape[ndim] followed by strides[ndim].
 *
 * Invariants of every Tensor made here:
 *  - dl.shape and dl.strides point into the object's own `dims` storage, never NULL and
 *    never at producer memory: the metadata is copied (and validated) once, so a producer
 *    that later scribbles on its shape array cannot change a live Tensor.  (The reference
 *    runtime borrows the producer's shape pointer instead; the observable layout is the
 *    same.)  Strides the producer left NULL are filled in as compact row-major strides,
 *    computed with max(dim, 1) so empty dimensions do not zero the outer strides.
 *  - The owner is released exactly once, when the last strong reference dies: a managed
 *    tensor's deleter (if non-NULL), the source of a view (DecRef), or our own data (free).
 *    A managed tensor is taken over only when the import succeeds; on any error it still
 *    belongs to the caller and its deleter is not called.
 *
 * Decisions where DLPack or the reference leave room (reference behaviour observed with
 * apache-tvm-ffi 0.1.14):
 *  - data == NULL is accepted even with elements (the reference accepts it; consumers that
 *    dereference are on their own, as with any DLPack producer).
 *  - Negative strides are legal DLPack and accepted; the extent sum(|stride|*(dim-1)) must
 *    fit in int64 so consumers can compute addresses without overflow.
 *  - Rejected with ValueError although the reference accepts them: negative ndim, negative
 *    dimensions, bits or lanes 0, byte sizes that overflow int64, a negative
 *    require_alignment, NULL source of an unsafe view.  NULL `from`/`out`/`shape` (which
 *    crash the reference) are ValueErrors too.
 *  - A versioned tensor of any major version is accepted (as the reference does); only the
 *    IS_SUBBYTE_TYPE_PADDED flag is rejected.
 *  - TVMFFITensorCreateUnsafeView with NULL strides is a ValueError (the reference raises
 *    InternalError "Check not null: prototype.strides"); a 0-d prototype needs no strides.
 */
#include <inttypes.h>
#include <stdio.h>

#include "internal.h"
#include "object.h"
#include "tensor.h"

#include <tether/tensor.h>

/* What keeps a Tensor's data alive. */
typedef enum {
  TETHER_TENSOR_DLPACK,           /* owner.managed: a DLManagedTensor taken over */
  TETHER_TENSOR_DLPACK_VERSIONED, /* owner.versioned: a DLManagedTensorVersioned taken over */
  TETHER_TENSOR_VIEW,             /* owner.source: a strong reference to any object */
  TETHER_TENSOR_OWNED             /* owner.data: data from posix_memalign, freed with free */
} tether_tensor_kind_t;

typedef struct {
  TVMFFIObject header;
  DLTensor dl; /* at +24, the ABI cell */
  tether_tensor_kind_t kind;
  union {
    DLManagedTensor* managed;
    DLManagedTensorVersioned* versioned;
    TVMFFIObject* source;
    void* data;
  } owner;
  int64_t dims[]; /* shape[ndim] then strides[ndim] */
} tether_tensor_t;

_Static_assert(offsetof(tether_tensor_t, dl) == 24, "the DLTensor cell sits right after the header");

/* ---- validation --------------------------------------------------------------------- */

/* *out = bytes taken by n elements of dtype (sub-byte sizes rounded up); false on overflow. */
static bool tether__bytes_of(int64_t n, DLDataType dtype, int64_t* out) {
  int64_t bits = (int64_t)dtype.bits * dtype.lanes;
  if (bits % 8 == 0) return !__builtin_mul_overflow(n, bits / 8, out);
  if (__builtin_mul_overflow(n, bits, out) || __builtin_add_overflow(*out, 7, out)) return false;
  *out /= 8;
  return true;
}

/* What is wrong with a tensor's metadata, as found by tether__tensor_scan. */
typedef enum {
  TETHER_TENSOR_OK,
  TETHER_TENSOR_BAD_NDIM,
  TETHER_TENSOR_NULL_SHAPE,
  TETHER_TENSOR_BAD_DTYPE,
  TETHER_TENSOR_NEGATIVE_DIM,   /* at `index` */
  TETHER_TENSOR_SIZE_OVERFLOW,  /* elements or bytes */
  TETHER_TENSOR_STRIDE_OVERFLOW,/* at `index` */
  TETHER_TENSOR_EXTENT_OVERFLOW /* the strided extent in bytes */
} tether_tensor_fault_t;

/*
 * One pass over the metadata (the hot path of every import).  The product of max(dim, 1)
 * must fit in int64, so compact strides computed from the shape never overflow.  On
 * TETHER_TENSOR_OK, *nbytes is the size of the data; otherwise *index names the offending
 * dimension where that applies.
 */
static tether_tensor_fault_t tether__tensor_scan(const DLTensor* t, int64_t* nbytes,
                                                 int32_t* index) {
  int32_t ndim = t->ndim;
  const int64_t* shape = t->shape;
  if (ndim < 0) return TETHER_TENSOR_BAD_NDIM;
  if (ndim > 0 && shape == NULL) return TETHER_TENSOR_NULL_SHAPE;
  if (t->dtype.bits == 0 || t->dtype.lanes == 0) return TETHER_TENSOR_BAD_DTYPE;
  int64_t span = 1;
  bool empty = false;
  for (int32_t i = 0; i < ndim; ++i) {
    int64_t d = shape[i];
    if (d <= 1) {
      if (d < 0) {
        *index = i;
        return TETHER_TENSOR_NEGATIVE_DIM;
      }
      empty |= d == 0;
    } else if (__builtin_mul_overflow(span, d, &span)) {
      /* keep scanning: a later negative dimension is the better message */
      for (int32_t j = i + 1; j < ndim; ++j) {
        if (shape[j] < 0) {
          *index = j;
          return TETHER_TENSOR_NEGATIVE_DIM;
        }
      }
      return TETHER_TENSOR_SIZE_OVERFLOW;
    }
  }
  int64_t numel = empty ? 0 : span;
  if (!tether__bytes_of(numel, t->dtype, nbytes)) return TETHER_TENSOR_SIZE_OVERFLOW;
  if (t->strides != NULL && numel > 0) {
    int64_t extent = 0;
    for (int32_t i = 0; i < ndim; ++i) {
      int64_t s = t->strides[i], step = 0;
      if (s == INT64_MIN || __builtin_mul_overflow(s < 0 ? -s : s, shape[i] - 1, &step) ||
          __builtin_add_overflow(extent, step, &extent)) {
        *index = i;
        return TETHER_TENSOR_STRIDE_OVERFLOW;
      }
    }
    if (__builtin_add_overflow(extent, 1, &extent) || !tether__bytes_of(extent, t->dtype, &extent)) {
      return TETHER_TENSOR_EXTENT_OVERFLOW;
    }
  }
  return TETHER_TENSOR_OK;
}

/* Writes why `t` is malformed into msg and returns -1, or returns 0 (and *out_nbytes). */
static int tether__tensor_problem(const char* fname, const DLTensor* t, int64_t* out_nbytes,
                                  char* msg, size_t cap) {
  int64_t nbytes = 0;
  int32_t i = 0;
  switch (tether__tensor_scan(t, &nbytes, &i)) {
    case TETHER_TENSOR_OK:
      if (out_nbytes != NULL) *out_nbytes = nbytes;
      return 0;
    case TETHER_TENSOR_BAD_NDIM:
      snprintf(msg, cap, "%s: ndim = %" PRId32 " is negative, expected ndim >= 0", fname, t->ndim);
      break;
    case TETHER_TENSOR_NULL_SHAPE:
      snprintf(msg, cap, "%s: shape is NULL but ndim = %" PRId32 ", expected %" PRId32 " dimensions",
               fname, t->ndim, t->ndim);
      break;
    case TETHER_TENSOR_BAD_DTYPE:
      snprintf(msg, cap,
               "%s: dtype (code %u, bits %u, lanes %u) has zero %s, expected bits >= 1 and "
               "lanes >= 1",
               fname, t->dtype.code, t->dtype.bits, t->dtype.lanes,
               t->dtype.bits == 0 ? "bits" : "lanes");
      break;
    case TETHER_TENSOR_NEGATIVE_DIM:
      snprintf(msg, cap, "%s: shape[%" PRId32 "] = %" PRId64 " is negative, expected >= 0", fname,
               i, t->shape[i]);
      break;
    case TETHER_TENSOR_SIZE_OVERFLOW:
      snprintf(msg, cap, "%s: shape and dtype give a size in bytes that overflows int64", fname);
      break;
    case TETHER_TENSOR_STRIDE_OVERFLOW:
      snprintf(msg, cap,
               "%s: strides[%" PRId32 "] = %" PRId64 " makes the tensor's extent overflow int64",
               fname, i, t->strides[i]);
      break;
    case TETHER_TENSOR_EXTENT_OVERFLOW:
      snprintf(msg, cap, "%s: strides give an extent in bytes that overflows int64", fname);
      break;
  }
  return -1;
}

int tether__tensor_check(const char* fname, const DLTensor* t, int64_t* out_nbytes) {
  char msg[256];
  if (tether__tensor_problem(fname, t, out_nbytes, msg, sizeof(msg)) != 0) {
    return tether_raise("ValueError", "%s", msg);
  }
  return 0;
}

bool tether__tensor_is_contiguous(const DLTensor* t) {
  if (t->strides == NULL) return true;
  for (int32_t i = 0; i < t->ndim; ++i) {
    if (t->shape[i] == 0) return true;
  }
  int64_t expected = 1;
  for (int32_t i = t->ndim; i-- > 0;) {
    if (t->shape[i] == 1) continue;
    if (t->strides[i] != expected) return false;
    expected *= t->shape[i]; /* cannot overflow: checked by tether__tensor_scan */
  }
  return true;
}

/* Devices whose data pointer is a plain address, so alignment is checked on
 * data + byte_offset; elsewhere data is an opaque handle and only byte_offset counts. */
static bool tether__device_is_direct(int32_t device_type) {
  switch (device_type) {
    case kDLCPU:
    case kDLCUDA:
    case kDLCUDAHost:
    case kDLCUDAManaged:
    case kDLROCM:
    case kDLROCMHost:
      return true;
    default:
      return false;
  }
}

/* The alignment and contiguity checks of TVMFFITensorFromDLPack* (texts from the spec). */
static int tether__tensor_check_layout(const char* fname, const DLTensor* t,
                                       int32_t require_alignment, int32_t require_contiguous) {
  if (require_alignment < 0) {
    return tether_raise("ValueError",
                        "%s: require_alignment = %" PRId32
                        " is negative, expected 0 (no check) or a byte count",
                        fname, require_alignment);
  }
  if (require_alignment > 0) {
    uint64_t addr = t->byte_offset;
    if (tether__device_is_direct(t->device.device_type)) addr += (uint64_t)(uintptr_t)t->data;
    if (addr % (uint64_t)require_alignment != 0) {
      return tether_raise("RuntimeError", "FromDLPack: Data is not aligned to %" PRId32 " bytes.",
                          require_alignment);
    }
  }
  if (require_contiguous && !tether__tensor_is_contiguous(t)) {
    return tether_raise("RuntimeError", "FromDLPack: Tensor is not contiguous.");
  }
  return 0;
}

/* ---- the object ----------------------------------------------------------------------- */

static void tether__tensor_deleter(void* self, int flags) {
  tether_tensor_t* t = self;
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) {
    switch (t->kind) {
      case TETHER_TENSOR_DLPACK:
        if (t->owner.managed->deleter != NULL) t->owner.managed->deleter(t->owner.managed);
        break;
      case TETHER_TENSOR_DLPACK_VERSIONED:
        if (t->owner.versioned->deleter != NULL) t->owner.versioned->deleter(t->owner.versioned);
        break;
      case TETHER_TENSOR_VIEW:
        TVMFFIObjectDecRef(t->owner.source);
        break;
      case TETHER_TENSOR_OWNED:
        free(t->owner.data);
        break;
    }
  }
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) tether__object_free(self);
}

/*
 * New Tensor whose metadata is a copy of `src` (already checked), shape and strides inline
 * (compact strides when src->strides is NULL).  The owner is set by the caller after
 * success, so a failure here leaves the caller's resources untouched.  NULL + MemoryError.
 */
static tether_tensor_t* tether__tensor_alloc(const DLTensor* src, tether_tensor_kind_t kind) {
  size_t ndim = (size_t)src->ndim;
  tether_tensor_t* t = tether__object_alloc(sizeof(tether_tensor_t) + 2 * ndim * sizeof(int64_t),
                                            kTVMFFITensor, tether__tensor_deleter);
  if (t == NULL) return NULL;
  t->dl = *src;
  t->kind = kind;
  t->dl.shape = t->dims;
  t->dl.strides = t->dims + ndim;
  if (ndim > 0) memcpy(t->dl.shape, src->shape, ndim * sizeof(int64_t));
  if (src->strides != NULL) {
    if (ndim > 0) memcpy(t->dl.strides, src->strides, ndim * sizeof(int64_t));
  } else {
    int64_t stride = 1;
    for (size_t i = ndim; i-- > 0;) {
      t->dl.strides[i] = stride;
      stride *= src->shape[i] > 1 ? src->shape[i] : 1; /* fits: checked by tether__tensor_scan */
    }
  }
  return t;
}

/* Hands `managed` (a DLManagedTensor* or DLManagedTensorVersioned*, as `kind` says) over
 * to `t`: from here on t's deleter calls the producer's deleter. */
static void tether__tensor_set_owner(tether_tensor_t* t, tether_tensor_kind_t kind, void* managed) {
  t->kind = kind;
  if (kind == TETHER_TENSOR_DLPACK) {
    t->owner.managed = managed;
  } else {
    t->owner.versioned = managed;
  }
}

/* The checked path of the two FromDLPack entry points: validates `dl` with the full
 * diagnostics, builds the Tensor and takes over `managed` (kind says which struct) only on
 * success.  Used when tether__tensor_import's fast path declines. */
__attribute__((noinline, cold)) static int tether__tensor_import_checked(
    const char* fname, const DLTensor* dl, void* managed, tether_tensor_kind_t kind,
    int32_t require_alignment, int32_t require_contiguous, TVMFFIObjectHandle* out) {
  if (tether__tensor_check(fname, dl, NULL) != 0) return -1;
  if (tether__tensor_check_layout(fname, dl, require_alignment, require_contiguous) != 0) return -1;
  tether_tensor_t* t = tether__tensor_alloc(dl, kind);
  if (t == NULL) return -1;
  tether__tensor_set_owner(t, kind, managed);
  *out = t;
  return 0;
}

/*
 * Shared body of the two FromDLPack entry points (the hot path of every import).
 *
 * Invariant: the fast path accepts a tensor only if tether__tensor_scan would return
 * TETHER_TENSOR_OK and tether__tensor_check_layout would pass, and then builds exactly the
 * Tensor tether__tensor_alloc would.  It does that in one backward pass that copies shape
 * and strides into the new object while checking them (overflow of the element count, of
 * the size in bytes and of the strided extent, negative dimensions, contiguity).  Anything
 * it does not accept -- including every malformed input -- is handed to the checked path,
 * which re-validates from scratch and raises the precise error, so the fast path never
 * raises anything but MemoryError and never decides an error message.
 */
static inline __attribute__((always_inline)) int tether__tensor_import(
    const char* fname, const DLTensor* dl, void* managed, tether_tensor_kind_t kind,
    int32_t require_alignment, int32_t require_contiguous, TVMFFIObjectHandle* out) {
  int32_t ndim = dl->ndim;
  const int64_t* shape = dl->shape;
  const int64_t* strides = dl->strides;
  if (TETHER_UNLIKELY(ndim < 0 || (shape == NULL && ndim > 0) || dl->dtype.bits == 0 ||
                      dl->dtype.lanes == 0 || require_alignment < 0)) {
    goto checked;
  }
  if (require_alignment > 0) {
    uint64_t addr = dl->byte_offset;
    if (tether__device_is_direct(dl->device.device_type)) addr += (uint64_t)(uintptr_t)dl->data;
    uint64_t align = (uint64_t)require_alignment;
    uint64_t rem = (align & (align - 1)) == 0 ? addr & (align - 1) : addr % align;
    if (TETHER_UNLIKELY(rem != 0)) goto checked;
  }
  tether_tensor_t* t = tether__object_alloc(
      sizeof(tether_tensor_t) + 2 * (size_t)ndim * sizeof(int64_t), kTVMFFITensor,
      tether__tensor_deleter);
  if (TETHER_UNLIKELY(t == NULL)) return -1;
  int64_t* t_shape = t->dims;
  int64_t* t_strides = t->dims + ndim;
  int64_t span = 1; /* product of max(dim, 1) */
  bool ok = true, empty = false;
  if (strides == NULL) {
    for (int32_t i = ndim; i-- > 0;) {
      int64_t d = shape[i];
      t_shape[i] = d;
      t_strides[i] = span;
      if (d > 1) {
        ok &= !__builtin_mul_overflow(span, d, &span);
      } else {
        ok &= d >= 0;
        empty |= d == 0;
      }
    }
  } else {
    int64_t extent = 0;      /* sum of |stride| * (dim - 1); meaningful only if !empty */
    uint64_t expected = 1;   /* the compact stride of dimension i (wraps only if !ok) */
    bool extent_ok = true, contiguous = true;
    for (int32_t i = ndim; i-- > 0;) {
      int64_t d = shape[i], s = strides[i], step;
      t_shape[i] = d;
      t_strides[i] = s;
      if (d > 1) {
        ok &= !__builtin_mul_overflow(span, d, &span);
      } else {
        ok &= d >= 0;
        empty |= d == 0;
      }
      if (d != 1) {
        contiguous &= (uint64_t)s == expected;
        expected *= (uint64_t)d;
      }
      if (d >= 1) { /* d == 0 makes the tensor empty, d < 0 makes it invalid */
        extent_ok &= s != INT64_MIN && !__builtin_mul_overflow(s < 0 ? -s : s, d - 1, &step) &&
                     !__builtin_add_overflow(extent, step, &extent);
      }
    }
    if (!empty) {
      int64_t extent_bytes;
      ok &= extent_ok && !__builtin_add_overflow(extent, 1, &extent) &&
            tether__bytes_of(extent, dl->dtype, &extent_bytes);
      ok &= contiguous || !require_contiguous;
    }
  }
  int64_t nbytes;
  ok &= tether__bytes_of(empty ? 0 : span, dl->dtype, &nbytes);
  if (TETHER_UNLIKELY(!ok)) {
    tether__object_free(t); /* nothing was taken over yet */
    goto checked;
  }
#ifdef TETHER_VERIFY_FAST_PATHS
  /* Sanitizer and fuzz builds: every acceptance must be one the checked path agrees with. */
  if (tether__tensor_check(fname, dl, NULL) != 0 ||
      tether__tensor_check_layout(fname, dl, require_alignment, require_contiguous) != 0) {
    fprintf(stderr, "%s: the fast path accepted a tensor the checked path rejects\n", fname);
    abort();
  }
#endif
  t->dl = *dl;
  t->dl.shape = t_shape;
  t->dl.strides = t_strides;
  tether__tensor_set_owner(t, kind, managed);
  *out = t;
  return 0;
checked:
  return tether__tensor_import_checked(fname, dl, managed, kind, require_alignment,
                                       require_contiguous, out);
}

int TVMFFITensorFromDLPack(DLManagedTensor* from, int32_t require_alignment,
                           int32_t require_contiguous, TVMFFIObjectHandle* out) {
  static const char fname[] = "TVMFFITensorFromDLPack";
  if (from == NULL) {
    return tether_raise("ValueError", "%s: `from` is NULL, expected a DLManagedTensor*", fname);
  }
  if (out == NULL) {
    return tether_raise("ValueError", "%s: `out` is NULL, expected a TVMFFIObjectHandle*", fname);
  }
  return tether__tensor_import(fname, &from->dl_tensor, from, TETHER_TENSOR_DLPACK,
                               require_alignment, require_contiguous, out);
}

int TVMFFITensorFromDLPackVersioned(DLManagedTensorVersioned* from, int32_t require_alignment,
                                    int32_t require_contiguous, TVMFFIObjectHandle* out) {
  static const char fname[] = "TVMFFITensorFromDLPackVersioned";
  if (from == NULL) {
    return tether_raise("ValueError", "%s: `from` is NULL, expected a DLManagedTensorVersioned*",
                        fname);
  }
  if (out == NULL) {
    return tether_raise("ValueError", "%s: `out` is NULL, expected a TVMFFIObjectHandle*", fname);
  }
  if (from->flags & DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED) {
    return tether_raise("RuntimeError", "Subbyte type padded is not yet supported");
  }
  return tether__tensor_import(fname, &from->dl_tensor, from, TETHER_TENSOR_DLPACK_VERSIONED,
                               require_alignment, require_contiguous, out);
}

/* ---- export ----------------------------------------------------------------------------- */

/* The exported structs keep one strong reference to the Tensor in manager_ctx; shape and
 * strides point into the Tensor, which outlives the struct. */
static void tether__exported_deleter(DLManagedTensor* self) {
  TVMFFIObjectDecRef(self->manager_ctx);
  free(self);
}

static void tether__exported_versioned_deleter(DLManagedTensorVersioned* self) {
  TVMFFIObjectDecRef(self->manager_ctx);
  free(self);
}

/* Checks the arguments shared by both exports; returns the DLTensor cell or NULL (raised). */
static const DLTensor* tether__tensor_export_args(const char* fname, TVMFFIObjectHandle from,
                                                  const void* out) {
  if (from == NULL) {
    tether_raise("ValueError", "%s: `from` is NULL, expected a Tensor handle", fname);
    return NULL;
  }
  if (((TVMFFIObject*)from)->type_index != kTVMFFITensor) {
    tether_raise("TypeError", "%s: `from` is a %s, expected an ffi.Tensor", fname,
                 tether_type_key(((TVMFFIObject*)from)->type_index));
    return NULL;
  }
  if (out == NULL) {
    tether_raise("ValueError", "%s: `out` is NULL, expected a pointer to receive the tensor",
                 fname);
    return NULL;
  }
  return TETHER_CELL(DLTensor, from);
}

int TVMFFITensorToDLPack(TVMFFIObjectHandle from, DLManagedTensor** out) {
  static const char fname[] = "TVMFFITensorToDLPack";
  const DLTensor* dl = tether__tensor_export_args(fname, from, out);
  if (dl == NULL) return -1;
  DLManagedTensor* mt = malloc(sizeof(*mt));
  if (mt == NULL) return tether_raise("MemoryError", "%s: out of memory", fname);
  mt->dl_tensor = *dl;
  mt->manager_ctx = from;
  mt->deleter = tether__exported_deleter;
  TVMFFIObjectIncRef(from);
  *out = mt;
  return 0;
}

int TVMFFITensorToDLPackVersioned(TVMFFIObjectHandle from, DLManagedTensorVersioned** out) {
  static const char fname[] = "TVMFFITensorToDLPackVersioned";
  const DLTensor* dl = tether__tensor_export_args(fname, from, out);
  if (dl == NULL) return -1;
  DLManagedTensorVersioned* mt = malloc(sizeof(*mt));
  if (mt == NULL) return tether_raise("MemoryError", "%s: out of memory", fname);
  mt->version.major = DLPACK_MAJOR_VERSION;
  mt->version.minor = DLPACK_MINOR_VERSION;
  mt->manager_ctx = from;
  mt->deleter = tether__exported_versioned_deleter;
  mt->flags = 0;
  mt->dl_tensor = *dl;
  TVMFFIObjectIncRef(from);
  *out = mt;
  return 0;
}

/* ---- views ------------------------------------------------------------------------------ */

int TVMFFITensorCreateUnsafeView(TVMFFIObjectHandle source, const DLTensor* prototype,
                                 TVMFFIObjectHandle* out) {
  static const char fname[] = "TVMFFITensorCreateUnsafeView";
  if (source == NULL) {
    return tether_raise("ValueError",
                        "%s: `source` is NULL, expected the object that owns the data", fname);
  }
  if (prototype == NULL) {
    return tether_raise("ValueError", "%s: `prototype` is NULL, expected a DLTensor*", fname);
  }
  if (out == NULL) {
    return tether_raise("ValueError", "%s: `out` is NULL, expected a TVMFFIObjectHandle*", fname);
  }
  if (prototype->ndim > 0 && prototype->strides == NULL) {
    return tether_raise("ValueError", "%s: prototype.strides is NULL, expected explicit strides",
                        fname);
  }
  if (tether__tensor_check(fname, prototype, NULL) != 0) return -1;
  tether_tensor_t* t = tether__tensor_alloc(prototype, TETHER_TENSOR_VIEW);
  if (t == NULL) return -1;
  TVMFFIObjectIncRef(source);
  t->owner.source = source;
  *out = t;
  return 0;
}

/* ---- allocation through the environment's allocator ------------------------------------ */

/* Set by tether__env_set_error so that TVMFFIEnvTensorAlloc can tell whether a failing
 * allocator reported why. */
static _Thread_local bool tether__alloc_error_reported;

static void tether__env_set_error(void* error_ctx, const char* kind, const char* message) {
  (void)error_ctx;
  tether__alloc_error_reported = true;
  TVMFFIErrorSetRaisedFromCStr(kind != NULL ? kind : "RuntimeError",
                               message != NULL ? message : "");
}

int TVMFFIEnvTensorAlloc(DLTensor* prototype, TVMFFIObjectHandle* out) {
  static const char fname[] = "TVMFFIEnvTensorAlloc";
  if (prototype == NULL) {
    return tether_raise("ValueError", "%s: `prototype` is NULL, expected a DLTensor*", fname);
  }
  if (out == NULL) {
    return tether_raise("ValueError", "%s: `out` is NULL, expected a TVMFFIObjectHandle*", fname);
  }
  DLPackManagedTensorAllocator alloc = TVMFFIEnvGetDLPackManagedTensorAllocator();
  if (alloc == NULL) {
    return tether_raise("RuntimeError",
                        "TVMFFIEnvTensorAlloc: allocator is nullptr, likely because "
                        "TVMFFIEnvSetDLPackManagedTensorAllocator has not been called.");
  }
  DLManagedTensorVersioned* mt = NULL;
  tether__alloc_error_reported = false;
  if (alloc(prototype, &mt, NULL, tether__env_set_error) != 0) {
    if (tether__alloc_error_reported) return -1;
    return tether_raise("RuntimeError", "%s: the allocator failed without reporting an error",
                        fname);
  }
  if (mt == NULL) {
    return tether_raise("RuntimeError", "%s: the allocator succeeded but returned no tensor",
                        fname);
  }
  if (TVMFFITensorFromDLPackVersioned(mt, 0, 0, out) != 0) {
    /* Still ours: the import takes over only on success. */
    if (mt->deleter != NULL) mt->deleter(mt);
    return -1;
  }
  return 0;
}

/* ---- tether's CPU allocator ------------------------------------------------------------- */

/* Zero-filled data of `nbytes` aligned to TETHER_TENSOR_ALIGNMENT, or NULL.  At least one
 * byte is allocated so that an empty tensor still has a unique, non-NULL data pointer. */
static void* tether__cpu_alloc_data(int64_t nbytes) {
  void* data = NULL;
  size_t n = nbytes > 0 ? (size_t)nbytes : 1;
  if (posix_memalign(&data, TETHER_TENSOR_ALIGNMENT, n) != 0) return NULL;
  memset(data, 0, n);
  return data;
}

int tether_tensor_empty(const int64_t* shape, int32_t ndim, DLDataType dtype, DLDevice device,
                        TVMFFIObjectHandle* out) {
  static const char fname[] = "tether_tensor_empty";
  if (out == NULL) {
    return tether_raise("ValueError", "%s: `out` is NULL, expected a TVMFFIObjectHandle*", fname);
  }
  if (device.device_type != kDLCPU) {
    return tether_raise("ValueError", "%s: device type %d is not supported, expected kDLCPU (1)",
                        fname, (int)device.device_type);
  }
  DLTensor proto = {NULL, device, ndim, dtype, (int64_t*)shape, NULL, 0};
  int64_t nbytes = 0;
  if (tether__tensor_check(fname, &proto, &nbytes) != 0) return -1;
  void* data = tether__cpu_alloc_data(nbytes);
  if (data == NULL) {
    return tether_raise("MemoryError", "%s: out of memory allocating %" PRId64 " bytes", fname,
                        nbytes);
  }
  proto.data = data;
  tether_tensor_t* t = tether__tensor_alloc(&proto, TETHER_TENSOR_OWNED);
  if (t == NULL) goto fail;
  t->owner.data = data;
  *out = t;
  return 0;
fail:
  free(data);
  return -1;
}

DLTensor* tether_tensor_dl(TVMFFIObjectHandle tensor) {
  if (tensor == NULL || ((TVMFFIObject*)tensor)->type_index != kTVMFFITensor) return NULL;
  return TETHER_CELL(DLTensor, tensor);
}

/* A DLManagedTensorVersioned from tether_cpu_dlpack_allocator: the struct, then shape and
 * strides inline; data from posix_memalign. */
typedef struct {
  DLManagedTensorVersioned mt;
  int64_t dims[];
} tether_cpu_managed_t;

static void tether__cpu_managed_deleter(DLManagedTensorVersioned* self) {
  free(self->dl_tensor.data);
  free(self);
}

/* Reports an allocator failure through SetError, or raises it here when there is none. */
static int tether__cpu_alloc_fail(void* error_ctx, void (*SetError)(void*, const char*, const char*),
                                  const char* kind, const char* message) {
  if (SetError != NULL) {
    SetError(error_ctx, kind, message);
  } else {
    TVMFFIErrorSetRaisedFromCStr(kind, message);
  }
  return -1;
}

int tether_cpu_dlpack_allocator(DLTensor* prototype, DLManagedTensorVersioned** out,
                                void* error_ctx,
                                void (*SetError)(void* error_ctx, const char* kind,
                                                 const char* message)) {
  static const char fname[] = "tether_cpu_dlpack_allocator";
  char msg[256];
  if (prototype == NULL || out == NULL) {
    snprintf(msg, sizeof(msg), "%s: `%s` is NULL", fname, prototype == NULL ? "prototype" : "out");
    return tether__cpu_alloc_fail(error_ctx, SetError, "ValueError", msg);
  }
  if (prototype->device.device_type != kDLCPU) {
    snprintf(msg, sizeof(msg), "%s: device type %d is not supported, expected kDLCPU (1)", fname,
             (int)prototype->device.device_type);
    return tether__cpu_alloc_fail(error_ctx, SetError, "ValueError", msg);
  }
  DLTensor proto = *prototype;
  proto.strides = NULL; /* the result is compact whatever the prototype's layout */
  proto.byte_offset = 0;
  int64_t nbytes = 0;
  if (tether__tensor_problem(fname, &proto, &nbytes, msg, sizeof(msg)) != 0) {
    return tether__cpu_alloc_fail(error_ctx, SetError, "ValueError", msg);
  }
  size_t ndim = (size_t)proto.ndim;
  tether_cpu_managed_t* m = malloc(sizeof(*m) + 2 * ndim * sizeof(int64_t));
  void* data = tether__cpu_alloc_data(nbytes);
  if (m == NULL || data == NULL) {
    free(m);
    free(data);
    snprintf(msg, sizeof(msg), "%s: out of memory allocating %" PRId64 " bytes", fname, nbytes);
    return tether__cpu_alloc_fail(error_ctx, SetError, "MemoryError", msg);
  }
  m->mt.version.major = DLPACK_MAJOR_VERSION;
  m->mt.version.minor = DLPACK_MINOR_VERSION;
  m->mt.manager_ctx = NULL;
  m->mt.deleter = tether__cpu_managed_deleter;
  m->mt.flags = 0;
  m->mt.dl_tensor = proto;
  m->mt.dl_tensor.data = data;
  m->mt.dl_tensor.shape = m->dims;
  m->mt.dl_tensor.strides = m->dims + ndim;
  int64_t stride = 1;
  for (size_t i = ndim; i-- > 0;) {
    m->dims[i] = proto.shape[i];
    m->dims[ndim + i] = stride;
    stride *= proto.shape[i] > 1 ? proto.shape[i] : 1;
  }
  *out = &m->mt;
  return 0;
}

/* ---- subsystem ---------------------------------------------------------------------------- */

int tether__tensor_init(void) { return 0; }

void tether__tensor_fini(void) {}
