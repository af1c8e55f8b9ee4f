/*
 * fuzz_dlpack.c -- fuzz target for DLPack import/export (TVMFFITensorFromDLPack*,
 * TVMFFITensorToDLPack*, TVMFFITensorCreateUnsafeView).
 *
 * The input bytes are decoded into a DLManagedTensor or DLManagedTensorVersioned with
 * arbitrary metadata (ndim mostly 0..8, sometimes negative; shapes, strides, offsets,
 * dtypes and devices mostly small, sometimes raw 64-bit values; data inside a buffer or
 * NULL) plus random alignment/contiguity requirements.  Properties checked (abort on
 * violation, so the fuzzer reports them):
 *  - a failing import raises an error and never calls the managed tensor's deleter;
 *  - a successful import yields a Tensor whose shape/strides are non-NULL copies, exports
 *    and views of it work, and the deleter runs exactly once, after the last reference;
 *  - no object outlives the input (tether_object_live_count returns to where it was).
 * The library never dereferences tensor data, so garbage metadata must not crash it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tether/c_api.h>
#include <tether/tether.h>

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

#define FUZZ_MAX_NDIM 9

typedef struct {
  const uint8_t* p;
  size_t n;
} reader_t;

static uint8_t read_u8(reader_t* r) {
  if (r->n == 0) return 0;
  r->n--;
  return *r->p++;
}

static uint64_t read_u64(reader_t* r) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= (uint64_t)read_u8(r) << (8 * i);
  return v;
}

/* Mostly small non-negative values, sometimes a raw 64-bit pattern. */
static int64_t read_dim(reader_t* r) {
  uint8_t b = read_u8(r);
  return b < 224 ? (int64_t)(b % 8) : (int64_t)read_u64(r);
}

/* Mostly small signed values, sometimes a raw 64-bit pattern. */
static int64_t read_stride(reader_t* r) {
  uint8_t b = read_u8(r);
  return b < 224 ? (int64_t)(b % 32) - 8 : (int64_t)read_u64(r);
}

static _Alignas(64) uint8_t g_buffer[4096];
static int g_deleted;

static void on_delete(DLManagedTensor* self) {
  (void)self;
  g_deleted++;
}
static void on_delete_v(DLManagedTensorVersioned* self) {
  (void)self;
  g_deleted++;
}

#define FUZZ_REQUIRE(cond)                                                      \
  do {                                                                          \
    if (!(cond)) {                                                              \
      fprintf(stderr, "fuzz_dlpack: property violated: %s (line %d)\n", #cond, \
              __LINE__);                                                        \
      abort();                                                                  \
    }                                                                           \
  } while (0)

/* Exports `t` both ways, views it, and releases everything in an input-chosen order. */
static void exercise(TVMFFIObjectHandle t, uint8_t order) {
  const DLTensor* dl = (const DLTensor*)((char*)t + sizeof(TVMFFIObject));
  FUZZ_REQUIRE(dl->shape != NULL && dl->strides != NULL);
  DLManagedTensor* legacy = NULL;
  DLManagedTensorVersioned* versioned = NULL;
  TVMFFIObjectHandle view = NULL;
  FUZZ_REQUIRE(TVMFFITensorToDLPack(t, &legacy) == 0);
  FUZZ_REQUIRE(TVMFFITensorToDLPackVersioned(t, &versioned) == 0);
  FUZZ_REQUIRE(legacy->dl_tensor.shape == dl->shape && versioned->flags == 0);
  FUZZ_REQUIRE(TVMFFITensorCreateUnsafeView(t, &versioned->dl_tensor, &view) == 0);
  /* re-import our own export: always well-formed */
  TVMFFIObjectHandle again = NULL;
  FUZZ_REQUIRE(TVMFFITensorFromDLPack(legacy, 0, 0, &again) == 0);
  int before = g_deleted;
  if (order & 1) {
    TVMFFIObjectDecRef(t);
    TVMFFIObjectDecRef(again);
    versioned->deleter(versioned);
  } else {
    versioned->deleter(versioned);
    TVMFFIObjectDecRef(again);
    TVMFFIObjectDecRef(t);
  }
  FUZZ_REQUIRE(g_deleted == before); /* the view still holds the source */
  TVMFFIObjectDecRef(view);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  reader_t r = {data, size};
  int64_t live_before = tether_object_live_count();
  int64_t shape[FUZZ_MAX_NDIM], strides[FUZZ_MAX_NDIM];

  uint8_t mode = read_u8(&r);
  int versioned = mode & 1;
  int32_t require_contiguous = (mode >> 1) & 1;
  static const int32_t alignments[8] = {0, 1, 2, 4, 8, 64, 3, -16};
  int32_t require_alignment = alignments[(mode >> 2) & 7];
  int has_strides = (mode >> 5) & 1;
  int null_data = (mode >> 6) & 1;
  int null_shape = (mode >> 7) & 1;

  uint8_t nd = read_u8(&r);
  int32_t ndim = nd < 240 ? (int32_t)(nd % FUZZ_MAX_NDIM) : -(int32_t)(nd - 239);
  for (int i = 0; i < FUZZ_MAX_NDIM; ++i) shape[i] = i < ndim ? read_dim(&r) : 0;
  for (int i = 0; i < FUZZ_MAX_NDIM; ++i) strides[i] = (has_strides && i < ndim) ? read_stride(&r) : 0;

  DLTensor dl;
  memset(&dl, 0, sizeof(dl));
  dl.ndim = ndim;
  dl.shape = null_shape ? NULL : shape;
  dl.strides = has_strides ? strides : NULL;
  dl.dtype.code = read_u8(&r);
  dl.dtype.bits = read_u8(&r);
  dl.dtype.lanes = (uint16_t)(read_u8(&r) | (read_u8(&r) << 8));
  dl.device.device_type = (DLDeviceType)(read_u8(&r) % 20);
  dl.device.device_id = read_u8(&r);
  uint8_t off = read_u8(&r);
  dl.byte_offset = off < 224 ? off : read_u64(&r);
  dl.data = null_data ? NULL : g_buffer + read_u8(&r);
  uint8_t flags = read_u8(&r);
  uint8_t order = read_u8(&r);

  g_deleted = 0;
  TVMFFIObjectHandle t = NULL;
  int rc;
  if (versioned) {
    DLManagedTensorVersioned mt;
    memset(&mt, 0, sizeof(mt));
    mt.version.major = (flags & 8) ? 2 : DLPACK_MAJOR_VERSION;
    mt.flags = flags & 7;
    mt.dl_tensor = dl;
    mt.deleter = on_delete_v;
    rc = TVMFFITensorFromDLPackVersioned(&mt, require_alignment, require_contiguous, &t);
    if (rc == 0) exercise(t, order);
  } else {
    DLManagedTensor mt;
    memset(&mt, 0, sizeof(mt));
    mt.dl_tensor = dl;
    mt.deleter = on_delete;
    rc = TVMFFITensorFromDLPack(&mt, require_alignment, require_contiguous, &t);
    if (rc == 0) exercise(t, order);
  }
  if (rc == 0) {
    FUZZ_REQUIRE(g_deleted == 1);
  } else {
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    FUZZ_REQUIRE(rc == -1 && err != NULL && t == NULL);
    FUZZ_REQUIRE(g_deleted == 0);
    TVMFFIObjectDecRef(err);
  }
  FUZZ_REQUIRE(tether_object_live_count() == live_before);
  return 0;
}
