/*
 * test_tensor.c -- Tensor objects: DLPack import/export (legacy and versioned), ownership of
 * managed tensors (deleter exactly once, only on success), unsafe views, alignment and
 * contiguity checks, malformed input, TVMFFIEnvTensorAlloc and tether's CPU allocator.
 * Error texts marked "reference" were observed with apache-tvm-ffi 0.1.14.
 */
#include <stdint.h>
#include <stdlib.h>

#include "test.h"

#include <tether/tensor.h>

static float g_buf[256] __attribute__((aligned(64)));
static int64_t g_shape[3] = {2, 3, 4};

/* Deleter bookkeeping: how often each managed struct was released. */
static int g_deleted;
static void count_deleter(DLManagedTensor* self) {
  (void)self;
  g_deleted++;
}
static void count_deleter_v(DLManagedTensorVersioned* self) {
  (void)self;
  g_deleted++;
}

static DLTensor make_dl(void) {
  DLTensor t;
  memset(&t, 0, sizeof(t));
  t.data = g_buf;
  t.device.device_type = kDLCPU;
  t.ndim = 3;
  t.dtype.code = kDLFloat;
  t.dtype.bits = 32;
  t.dtype.lanes = 1;
  t.shape = g_shape;
  return t;
}

static DLManagedTensor make_managed(void) {
  DLManagedTensor m;
  memset(&m, 0, sizeof(m));
  m.dl_tensor = make_dl();
  m.deleter = count_deleter;
  return m;
}

static DLManagedTensorVersioned make_versioned(void) {
  DLManagedTensorVersioned m;
  memset(&m, 0, sizeof(m));
  m.version.major = DLPACK_MAJOR_VERSION;
  m.version.minor = DLPACK_MINOR_VERSION;
  m.dl_tensor = make_dl();
  m.deleter = count_deleter_v;
  return m;
}

static DLTensor* cell(TVMFFIObjectHandle h) { return (DLTensor*)((char*)h + 24); }

static void test_from_dlpack_round_trip(void) {
  g_deleted = 0;
  DLManagedTensor m = make_managed();
  TVMFFIObjectHandle t = NULL;
  CHECK_OK(TVMFFITensorFromDLPack(&m, 64, 1, &t));
  CHECK_EQ_INT(((TVMFFIObject*)t)->type_index, kTVMFFITensor);
  DLTensor* dl = cell(t);
  CHECK(dl == tether_tensor_dl(t));
  CHECK(dl->data == g_buf);
  CHECK_EQ_INT(dl->ndim, 3);
  CHECK_EQ_INT(dl->dtype.bits, 32);
  /* shape copied inline, compact strides filled in */
  CHECK(dl->shape != g_shape);
  CHECK_EQ_INT(dl->shape[0], 2);
  CHECK_EQ_INT(dl->shape[2], 4);
  CHECK(dl->strides != NULL);
  CHECK_EQ_INT(dl->strides[0], 12);
  CHECK_EQ_INT(dl->strides[1], 4);
  CHECK_EQ_INT(dl->strides[2], 1);
  /* the producer's metadata is no longer read */
  m.dl_tensor.ndim = -5;

  DLManagedTensor* exported = NULL;
  CHECK_OK(TVMFFITensorToDLPack(t, &exported));
  CHECK(exported->manager_ctx == t);
  CHECK(exported->dl_tensor.data == g_buf);
  CHECK(exported->dl_tensor.shape == dl->shape);
  CHECK(exported->dl_tensor.strides == dl->strides);
  CHECK_EQ_INT(tether_object_use_count(t), 2);

  /* importing our own export nests a second Tensor around it */
  TVMFFIObjectHandle t2 = NULL;
  CHECK_OK(TVMFFITensorFromDLPack(exported, 64, 1, &t2));
  CHECK(cell(t2)->data == g_buf);
  CHECK_OK(TVMFFIObjectDecRef(t));
  CHECK_EQ_INT(g_deleted, 0); /* t2 keeps t alive through the export */
  CHECK_OK(TVMFFIObjectDecRef(t2));
  CHECK_EQ_INT(g_deleted, 1);
}

static void test_from_dlpack_versioned_round_trip(void) {
  g_deleted = 0;
  DLManagedTensorVersioned m = make_versioned();
  m.flags = DLPACK_FLAG_BITMASK_READ_ONLY | DLPACK_FLAG_BITMASK_IS_COPIED;
  TVMFFIObjectHandle t = NULL;
  CHECK_OK(TVMFFITensorFromDLPackVersioned(&m, 64, 1, &t));
  CHECK_EQ_INT(cell(t)->strides[0], 12);

  DLManagedTensorVersioned* v = NULL;
  CHECK_OK(TVMFFITensorToDLPackVersioned(t, &v));
  CHECK_EQ_INT(v->version.major, DLPACK_MAJOR_VERSION);
  CHECK_EQ_INT(v->version.minor, DLPACK_MINOR_VERSION);
  CHECK_EQ_INT(v->version.major, 1);
  CHECK_EQ_INT(v->version.minor, 3);
  CHECK_EQ_INT(v->flags, 0);
  CHECK(v->manager_ctx == t);
  CHECK(v->dl_tensor.shape == cell(t)->shape);
  CHECK(v->dl_tensor.strides == cell(t)->strides);

  DLManagedTensor* legacy = NULL;
  CHECK_OK(TVMFFITensorToDLPack(t, &legacy));
  CHECK_EQ_INT(tether_object_use_count(t), 3);

  /* the exports outlive the handle; the producer's deleter runs after the last one */
  CHECK_OK(TVMFFIObjectDecRef(t));
  CHECK_EQ_INT(g_deleted, 0);
  v->deleter(v);
  CHECK_EQ_INT(g_deleted, 0);
  legacy->deleter(legacy);
  CHECK_EQ_INT(g_deleted, 1);

  /* the reference accepts a major version it does not know; so do we */
  g_deleted = 0;
  m = make_versioned();
  m.version.major = 2;
  CHECK_OK(TVMFFITensorFromDLPackVersioned(&m, 0, 0, &t));
  CHECK_OK(TVMFFIObjectDecRef(t));
  CHECK_EQ_INT(g_deleted, 1);
}

static void test_explicit_strides_and_zero_dim(void) {
  g_deleted = 0;
  /* explicit (non-compact) strides are copied, not replaced */
  DLManagedTensor m = make_managed();
  int64_t strides[3] = {1, 2, 6};
  m.dl_tensor.strides = strides;
  TVMFFIObjectHandle t = NULL;
  CHECK_OK(TVMFFITensorFromDLPack(&m, 0, 0, &t));
  CHECK(cell(t)->strides != strides);
  CHECK_EQ_INT(cell(t)->strides[0], 1);
  CHECK_EQ_INT(cell(t)->strides[2], 6);
  CHECK_OK(TVMFFIObjectDecRef(t));

  /* 0-d: shape and strides are still non-NULL */
  m = make_managed();
  m.dl_tensor.ndim = 0;
  m.dl_tensor.shape = NULL;
  CHECK_OK(TVMFFITensorFromDLPack(&m, 64, 1, &t));
  CHECK(cell(t)->shape != NULL);
  CHECK(cell(t)->strides != NULL);
  CHECK_EQ_INT(cell(t)->ndim, 0);
  CHECK_OK(TVMFFIObjectDecRef(t));

  /* empty dims do not zero the outer compact strides */
  int64_t shape[3] = {2, 0, 4};
  m = make_managed();
  m.dl_tensor.shape = shape;
  CHECK_OK(TVMFFITensorFromDLPack(&m, 0, 1, &t));
  CHECK_EQ_INT(cell(t)->strides[0], 4);
  CHECK_EQ_INT(cell(t)->strides[1], 4);
  CHECK_EQ_INT(cell(t)->strides[2], 1);
  CHECK_OK(TVMFFIObjectDecRef(t));

  /* a NULL deleter is legal: nothing to call (reference accepts it) */
  m = make_managed();
  m.deleter = NULL;
  CHECK_OK(TVMFFITensorFromDLPack(&m, 0, 0, &t));
  CHECK_OK(TVMFFIObjectDecRef(t));
  CHECK_EQ_INT(g_deleted, 3);
}

static void test_alignment(void) {
  g_deleted = 0;
  TVMFFIObjectHandle t = NULL;
  DLManagedTensor m = make_managed();
  m.dl_tensor.byte_offset = 4;
  CHECK_RAISED(TVMFFITensorFromDLPack(&m, 64, 0, &t), "RuntimeError",
               "FromDLPack: Data is not aligned to 64 bytes.");
  CHECK(t == NULL);
  DLManagedTensorVersioned v = make_versioned();
  v.dl_tensor.data = (char*)g_buf + 8;
  CHECK_RAISED(TVMFFITensorFromDLPackVersioned(&v, 16, 0, &t), "RuntimeError",
               "FromDLPack: Data is not aligned to 16 bytes.");
  CHECK_EQ_INT(g_deleted, 0); /* failure leaves ownership with the caller */

  /* byte_offset 4 on 4-byte alignment: fine; alignment 0: no check */
  CHECK_OK(TVMFFITensorFromDLPack(&m, 4, 0, &t));
  CHECK_OK(TVMFFIObjectDecRef(t));
  m = make_managed();
  m.dl_tensor.byte_offset = 3;
  CHECK_OK(TVMFFITensorFromDLPack(&m, 0, 0, &t));
  CHECK_OK(TVMFFIObjectDecRef(t));

  /* non-address devices: only byte_offset counts (data is an opaque handle) */
  m = make_managed();
  m.dl_tensor.device.device_type = kDLOpenCL;
  m.dl_tensor.data = (void*)(uintptr_t)0x1003;
  CHECK_OK(TVMFFITensorFromDLPack(&m, 64, 0, &t));
  CHECK_OK(TVMFFIObjectDecRef(t));
  m.dl_tensor.byte_offset = 32;
  CHECK_RAISED(TVMFFITensorFromDLPack(&m, 64, 0, &t), "RuntimeError",
               "FromDLPack: Data is not aligned to 64 bytes.");
  /* CUDA is a direct-address device */
  m = make_managed();
  m.dl_tensor.device.device_type = kDLCUDA;
  m.dl_tensor.data = (void*)(uintptr_t)0x1003;
  CHECK_RAISED(TVMFFITensorFromDLPack(&m, 64, 0, &t), "RuntimeError",
               "FromDLPack: Data is not aligned to 64 bytes.");
  /* a non-power-of-two alignment is a plain modulus */
  m = make_managed();
  m.dl_tensor.device.device_type = kDLVulkan;
  m.dl_tensor.byte_offset = 3;
  CHECK_OK(TVMFFITensorFromDLPack(&m, 3, 0, &t));
  CHECK_OK(TVMFFIObjectDecRef(t));
  CHECK_RAISED(TVMFFITensorFromDLPack(&m, -8, 0, &t), "ValueError",
               "TVMFFITensorFromDLPack: require_alignment = -8 is negative");
  CHECK_EQ_INT(g_deleted, 4);
}

static void test_contiguity(void) {
  g_deleted = 0;
  TVMFFIObjectHandle t = NULL;
  DLManagedTensor m = make_managed();
  int64_t transposed[3] = {1, 2, 6};
  m.dl_tensor.strides = transposed;
  CHECK_RAISED(TVMFFITensorFromDLPack(&m, 0, 1, &t), "RuntimeError",
               "FromDLPack: Tensor is not contiguous.");
  DLManagedTensorVersioned v = make_versioned();
  v.dl_tensor.strides = transposed;
  CHECK_RAISED(TVMFFITensorFromDLPackVersioned(&v, 0, 1, &t), "RuntimeError",
               "FromDLPack: Tensor is not contiguous.");
  CHECK_EQ_INT(g_deleted, 0);

  /* compact strides given explicitly */
  int64_t compact[3] = {12, 4, 1};
  m.dl_tensor.strides = compact;
  CHECK_OK(TVMFFITensorFromDLPack(&m, 0, 1, &t));
  CHECK_OK(TVMFFIObjectDecRef(t));
  /* dims of size 1 may carry any stride */
  int64_t shape1[3] = {2, 1, 4};
  int64_t odd1[3] = {4, 99, 1};
  m = make_managed();
  m.dl_tensor.shape = shape1;
  m.dl_tensor.strides = odd1;
  CHECK_OK(TVMFFITensorFromDLPack(&m, 0, 1, &t));
  CHECK_EQ_INT(cell(t)->strides[1], 99);
  CHECK_OK(TVMFFIObjectDecRef(t));
  /* any dim of size 0 makes the tensor contiguous */
  int64_t shape0[3] = {2, 0, 4};
  int64_t odd0[3] = {7, 99, 5};
  m = make_managed();
  m.dl_tensor.shape = shape0;
  m.dl_tensor.strides = odd0;
  CHECK_OK(TVMFFITensorFromDLPack(&m, 0, 1, &t));
  CHECK_OK(TVMFFIObjectDecRef(t));
  /* negative strides are legal DLPack (not contiguous, but importable) */
  int64_t flipped[3] = {-12, 4, 1};
  m = make_managed();
  m.dl_tensor.strides = flipped;
  m.dl_tensor.byte_offset = 12 * sizeof(float);
  CHECK_RAISED(TVMFFITensorFromDLPack(&m, 0, 1, &t), "RuntimeError",
               "FromDLPack: Tensor is not contiguous.");
  CHECK_OK(TVMFFITensorFromDLPack(&m, 0, 0, &t));
  CHECK_EQ_INT(cell(t)->strides[0], -12);
  CHECK_OK(TVMFFIObjectDecRef(t));
  CHECK_EQ_INT(g_deleted, 4);
}

/* Expects FromDLPack and FromDLPackVersioned to reject the metadata `dl` with a ValueError
 * whose message contains `needle`, leaving the managed tensors untouched. */
static void check_rejected(DLTensor dl, const char* needle) {
  int before = g_deleted;
  TVMFFIObjectHandle t = NULL;
  DLManagedTensor m = make_managed();
  m.dl_tensor = dl;
  CHECK_RAISED(TVMFFITensorFromDLPack(&m, 0, 0, &t), "ValueError", needle);
  CHECK_RAISED(TVMFFITensorFromDLPack(&m, 0, 0, &t), "ValueError", "TVMFFITensorFromDLPack: ");
  DLManagedTensorVersioned v = make_versioned();
  v.dl_tensor = dl;
  CHECK_RAISED(TVMFFITensorFromDLPackVersioned(&v, 0, 0, &t), "ValueError", needle);
  CHECK_RAISED(TVMFFITensorFromDLPackVersioned(&v, 0, 0, &t), "ValueError",
               "TVMFFITensorFromDLPackVersioned: ");
  CHECK(t == NULL);
  CHECK_EQ_INT(g_deleted, before);
}

static void test_bad_input(void) {
  g_deleted = 0;
  TVMFFIObjectHandle t = NULL;
  DLManagedTensor m = make_managed();
  DLManagedTensorVersioned v = make_versioned();
  CHECK_RAISED(TVMFFITensorFromDLPack(NULL, 0, 0, &t), "ValueError",
               "TVMFFITensorFromDLPack: `from` is NULL");
  CHECK_RAISED(TVMFFITensorFromDLPack(&m, 0, 0, NULL), "ValueError",
               "TVMFFITensorFromDLPack: `out` is NULL");
  CHECK_RAISED(TVMFFITensorFromDLPackVersioned(NULL, 0, 0, &t), "ValueError",
               "TVMFFITensorFromDLPackVersioned: `from` is NULL");
  CHECK_RAISED(TVMFFITensorFromDLPackVersioned(&v, 0, 0, NULL), "ValueError",
               "TVMFFITensorFromDLPackVersioned: `out` is NULL");

  DLTensor dl = make_dl();
  dl.ndim = -1;
  check_rejected(dl, "ndim = -1 is negative");
  dl = make_dl();
  dl.shape = NULL;
  check_rejected(dl, "shape is NULL but ndim = 3");
  int64_t neg_shape[3] = {2, -3, 4};
  dl = make_dl();
  dl.shape = neg_shape;
  check_rejected(dl, "shape[1] = -3 is negative");
  dl = make_dl();
  dl.dtype.lanes = 0;
  check_rejected(dl, "has zero lanes");
  dl = make_dl();
  dl.dtype.bits = 0;
  check_rejected(dl, "has zero bits");
  int64_t huge[3] = {INT64_C(1) << 40, INT64_C(1) << 30, 1};
  dl = make_dl();
  dl.shape = huge;
  check_rejected(dl, "size in bytes that overflows int64");
  /* the element count itself overflowing, even next to an empty dimension */
  int64_t huge_empty[3] = {0, INT64_C(1) << 40, INT64_C(1) << 40};
  dl = make_dl();
  dl.shape = huge_empty;
  check_rejected(dl, "overflows int64");
  int64_t wild_strides[3] = {12, INT64_C(1) << 62, 1};
  dl = make_dl();
  dl.strides = wild_strides;
  check_rejected(dl, "strides[1] = 4611686018427387904 makes the tensor's extent overflow int64");
  /* the extent fits in elements but not in bytes */
  int64_t byte_wild[3] = {INT64_C(1) << 61, 4, 1};
  dl = make_dl();
  dl.strides = byte_wild;
  check_rejected(dl, "strides give an extent in bytes that overflows int64");
  int64_t min_strides[3] = {12, INT64_MIN, 1};
  dl = make_dl();
  dl.strides = min_strides;
  check_rejected(dl, "strides[1] = ");

  /* subbyte padding is rejected with the reference text; other flags are accepted */
  v = make_versioned();
  v.flags = DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED;
  CHECK_RAISED(TVMFFITensorFromDLPackVersioned(&v, 0, 0, &t), "RuntimeError",
               "Subbyte type padded is not yet supported");
  CHECK_EQ_INT(g_deleted, 0);

  /* NULL data with elements is accepted, as the reference does */
  m = make_managed();
  m.dl_tensor.data = NULL;
  CHECK_OK(TVMFFITensorFromDLPack(&m, 64, 1, &t));
  CHECK(cell(t)->data == NULL);
  CHECK_OK(TVMFFIObjectDecRef(t));
  CHECK_EQ_INT(g_deleted, 1);
}

static void test_to_dlpack_bad_input(void) {
  g_deleted = 0;
  DLManagedTensor* out = NULL;
  DLManagedTensorVersioned* vout = NULL;
  CHECK_RAISED(TVMFFITensorToDLPack(NULL, &out), "ValueError",
               "TVMFFITensorToDLPack: `from` is NULL");
  CHECK_RAISED(TVMFFITensorToDLPackVersioned(NULL, &vout), "ValueError",
               "TVMFFITensorToDLPackVersioned: `from` is NULL");
  TVMFFIObjectHandle opaque = NULL;
  CHECK_OK(TVMFFIObjectCreateOpaque((void*)1, kTVMFFIOpaquePyObject, NULL, &opaque));
  CHECK_RAISED(TVMFFITensorToDLPack(opaque, &out), "TypeError", "expected an ffi.Tensor");
  CHECK_RAISED(TVMFFITensorToDLPackVersioned(opaque, &vout), "TypeError",
               "expected an ffi.Tensor");
  CHECK(tether_tensor_dl(opaque) == NULL);
  CHECK(tether_tensor_dl(NULL) == NULL);
  CHECK_OK(TVMFFIObjectDecRef(opaque));

  DLManagedTensor m = make_managed();
  TVMFFIObjectHandle t = NULL;
  CHECK_OK(TVMFFITensorFromDLPack(&m, 0, 0, &t));
  CHECK_RAISED(TVMFFITensorToDLPack(t, NULL), "ValueError", "TVMFFITensorToDLPack: `out` is NULL");
  CHECK_RAISED(TVMFFITensorToDLPackVersioned(t, NULL), "ValueError",
               "TVMFFITensorToDLPackVersioned: `out` is NULL");
  CHECK_EQ_INT(tether_object_use_count(t), 1);
  CHECK_OK(TVMFFIObjectDecRef(t));
  CHECK_EQ_INT(g_deleted, 1);
}

static void test_unsafe_view(void) {
  g_deleted = 0;
  DLManagedTensor m = make_managed();
  TVMFFIObjectHandle src = NULL, view = NULL;
  CHECK_OK(TVMFFITensorFromDLPack(&m, 0, 0, &src));

  /* a [2, 2] view with strides [1, 12] starting at element 4 */
  int64_t shape[2] = {2, 2};
  int64_t strides[2] = {1, 12};
  DLTensor proto = make_dl();
  proto.ndim = 2;
  proto.shape = shape;
  proto.strides = strides;
  proto.byte_offset = 4 * sizeof(float);
  proto.dtype.bits = 16;
  CHECK_OK(TVMFFITensorCreateUnsafeView(src, &proto, &view));
  CHECK_EQ_INT(tether_object_use_count(src), 2);
  DLTensor* dl = cell(view);
  CHECK(dl->data == g_buf);
  CHECK(dl->shape != shape);
  CHECK(dl->strides != strides);
  strides[1] = 77; /* the view copied them */
  CHECK_EQ_INT(dl->ndim, 2);
  CHECK_EQ_INT(dl->shape[1], 2);
  CHECK_EQ_INT(dl->strides[0], 1);
  CHECK_EQ_INT(dl->strides[1], 12);
  CHECK_EQ_INT(dl->byte_offset, 16);
  CHECK_EQ_INT(dl->dtype.bits, 16);

  /* the view keeps the source (and so the producer's memory) alive */
  CHECK_OK(TVMFFIObjectDecRef(src));
  CHECK_EQ_INT(g_deleted, 0);
  DLManagedTensorVersioned* exported = NULL;
  CHECK_OK(TVMFFITensorToDLPackVersioned(view, &exported));
  CHECK_OK(TVMFFIObjectDecRef(view));
  CHECK_EQ_INT(g_deleted, 0);
  exported->deleter(exported);
  CHECK_EQ_INT(g_deleted, 1);
}

static void test_unsafe_view_bad_input(void) {
  g_deleted = 0;
  DLManagedTensor m = make_managed();
  TVMFFIObjectHandle src = NULL, view = NULL;
  CHECK_OK(TVMFFITensorFromDLPack(&m, 0, 0, &src));
  DLTensor proto = make_dl(); /* strides NULL */
  CHECK_RAISED(TVMFFITensorCreateUnsafeView(src, &proto, &view), "ValueError",
               "TVMFFITensorCreateUnsafeView: prototype.strides is NULL");
  int64_t strides[3] = {12, 4, 1};
  proto.strides = strides;
  CHECK_RAISED(TVMFFITensorCreateUnsafeView(NULL, &proto, &view), "ValueError",
               "TVMFFITensorCreateUnsafeView: `source` is NULL");
  CHECK_RAISED(TVMFFITensorCreateUnsafeView(src, NULL, &view), "ValueError",
               "TVMFFITensorCreateUnsafeView: `prototype` is NULL");
  CHECK_RAISED(TVMFFITensorCreateUnsafeView(src, &proto, NULL), "ValueError",
               "TVMFFITensorCreateUnsafeView: `out` is NULL");
  int64_t neg[3] = {2, -1, 4};
  proto.shape = neg;
  CHECK_RAISED(TVMFFITensorCreateUnsafeView(src, &proto, &view), "ValueError",
               "TVMFFITensorCreateUnsafeView: shape[1] = -1 is negative");
  proto = make_dl();
  proto.strides = strides;
  proto.dtype.lanes = 0;
  CHECK_RAISED(TVMFFITensorCreateUnsafeView(src, &proto, &view), "ValueError", "has zero lanes");
  CHECK(view == NULL);
  CHECK_EQ_INT(tether_object_use_count(src), 1);

  /* 0-d: nothing to copy, NULL strides accepted; any object can be the source */
  proto = make_dl();
  proto.ndim = 0;
  proto.shape = NULL;
  TVMFFIObjectHandle opaque = NULL;
  CHECK_OK(TVMFFIObjectCreateOpaque((void*)1, kTVMFFIOpaquePyObject, NULL, &opaque));
  CHECK_OK(TVMFFITensorCreateUnsafeView(opaque, &proto, &view));
  CHECK(cell(view)->strides != NULL);
  CHECK_EQ_INT(tether_object_use_count(opaque), 2);
  CHECK_OK(TVMFFIObjectDecRef(view));
  CHECK_EQ_INT(tether_object_use_count(opaque), 1);
  CHECK_OK(TVMFFIObjectDecRef(opaque));
  CHECK_OK(TVMFFIObjectDecRef(src));
  CHECK_EQ_INT(g_deleted, 1);
}

/* ---- TVMFFIEnvTensorAlloc ------------------------------------------------------------------ */

static int g_alloc_calls;
static void* g_alloc_error_ctx_seen = (void*)1;

static int failing_allocator(DLTensor* proto, DLManagedTensorVersioned** out, void* error_ctx,
                             void (*SetError)(void*, const char*, const char*)) {
  g_alloc_calls++;
  g_alloc_error_ctx_seen = error_ctx;
  SetError(error_ctx, "MemoryError", "test allocator: no memory today");
  return -1;
}

static int silent_failing_allocator(DLTensor* proto, DLManagedTensorVersioned** out,
                                    void* error_ctx,
                                    void (*SetError)(void*, const char*, const char*)) {
  g_alloc_calls++;
  return 1;
}

static int null_allocator(DLTensor* proto, DLManagedTensorVersioned** out, void* error_ctx,
                          void (*SetError)(void*, const char*, const char*)) {
  g_alloc_calls++;
  *out = NULL;
  return 0;
}

/* Hands out a static tensor with a negative ndim: the import must fail and the allocator's
 * tensor must be released (it belongs to TVMFFIEnvTensorAlloc by then). */
static DLManagedTensorVersioned g_malformed;
static int malformed_allocator(DLTensor* proto, DLManagedTensorVersioned** out, void* error_ctx,
                               void (*SetError)(void*, const char*, const char*)) {
  g_alloc_calls++;
  g_malformed = make_versioned();
  g_malformed.dl_tensor.ndim = -2;
  *out = &g_malformed;
  return 0;
}

static void test_env_tensor_alloc(void) {
  DLPackManagedTensorAllocator prev = NULL;
  CHECK_OK(TVMFFIEnvSetDLPackManagedTensorAllocator(NULL, 0, &prev));
  DLPackManagedTensorAllocator global = TVMFFIEnvGetDLPackManagedTensorAllocator();
  TVMFFIObjectHandle t = NULL;
  DLTensor proto = make_dl();
  if (global == NULL) {
    CHECK_RAISED(TVMFFIEnvTensorAlloc(&proto, &t), "RuntimeError",
                 "TVMFFIEnvTensorAlloc: allocator is nullptr, likely because "
                 "TVMFFIEnvSetDLPackManagedTensorAllocator has not been called.");
  }
  CHECK_RAISED(TVMFFIEnvTensorAlloc(NULL, &t), "ValueError",
               "TVMFFIEnvTensorAlloc: `prototype` is NULL");
  CHECK_RAISED(TVMFFIEnvTensorAlloc(&proto, NULL), "ValueError",
               "TVMFFIEnvTensorAlloc: `out` is NULL");

  /* tether's CPU allocator installed for this thread */
  CHECK_OK(TVMFFIEnvSetDLPackManagedTensorAllocator(tether_cpu_dlpack_allocator, 0, NULL));
  int64_t strides[3] = {1, 2, 6};
  proto.strides = strides; /* ignored: the result is compact */
  proto.data = NULL;
  CHECK_OK(TVMFFIEnvTensorAlloc(&proto, &t));
  DLTensor* dl = cell(t);
  CHECK(dl->data != NULL);
  CHECK_EQ_INT((uintptr_t)dl->data % TETHER_TENSOR_ALIGNMENT, 0);
  CHECK_EQ_INT(dl->ndim, 3);
  CHECK_EQ_INT(dl->shape[1], 3);
  CHECK_EQ_INT(dl->strides[0], 12);
  CHECK_EQ_INT(dl->strides[2], 1);
  CHECK_EQ_INT(dl->byte_offset, 0);
  CHECK_EQ_INT(dl->device.device_type, kDLCPU);
  float* f = dl->data;
  CHECK(f[0] == 0.0f && f[23] == 0.0f);
  f[23] = 1.5f;
  CHECK_OK(TVMFFIObjectDecRef(t));

  /* the CPU allocator refuses other devices */
  proto = make_dl();
  proto.device.device_type = kDLCUDA;
  CHECK_RAISED(TVMFFIEnvTensorAlloc(&proto, &t), "ValueError",
               "tether_cpu_dlpack_allocator: device type 2 is not supported");
  proto = make_dl();
  proto.ndim = -1;
  CHECK_RAISED(TVMFFIEnvTensorAlloc(&proto, &t), "ValueError",
               "tether_cpu_dlpack_allocator: ndim = -1 is negative");

  /* a failing allocator's error comes through SetError, with error_ctx NULL */
  proto = make_dl();
  g_alloc_calls = 0;
  CHECK_OK(TVMFFIEnvSetDLPackManagedTensorAllocator(failing_allocator, 0, NULL));
  CHECK_RAISED(TVMFFIEnvTensorAlloc(&proto, &t), "MemoryError", "test allocator: no memory today");
  CHECK(g_alloc_error_ctx_seen == NULL);
  CHECK_OK(TVMFFIEnvSetDLPackManagedTensorAllocator(silent_failing_allocator, 0, NULL));
  CHECK_RAISED(TVMFFIEnvTensorAlloc(&proto, &t), "RuntimeError",
               "TVMFFIEnvTensorAlloc: the allocator failed without reporting an error");
  CHECK_OK(TVMFFIEnvSetDLPackManagedTensorAllocator(null_allocator, 0, NULL));
  CHECK_RAISED(TVMFFIEnvTensorAlloc(&proto, &t), "RuntimeError", "returned no tensor");
  g_deleted = 0;
  t = NULL;
  CHECK_OK(TVMFFIEnvSetDLPackManagedTensorAllocator(malformed_allocator, 0, NULL));
  CHECK_RAISED(TVMFFIEnvTensorAlloc(&proto, &t), "ValueError", "ndim = -2 is negative");
  CHECK_EQ_INT(g_deleted, 1);
  CHECK_EQ_INT(g_alloc_calls, 4);
  CHECK(t == NULL);

  DLPackManagedTensorAllocator mine = NULL;
  CHECK_OK(TVMFFIEnvSetDLPackManagedTensorAllocator(prev, 0, &mine));
  CHECK(mine == malformed_allocator);
}

static void test_cpu_allocator_direct(void) {
  /* called directly, without SetError: the error is raised in this thread */
  DLTensor proto = make_dl();
  DLManagedTensorVersioned* mt = NULL;
  CHECK_RAISED(tether_cpu_dlpack_allocator(NULL, &mt, NULL, NULL), "ValueError",
               "tether_cpu_dlpack_allocator: `prototype` is NULL");
  CHECK_RAISED(tether_cpu_dlpack_allocator(&proto, NULL, NULL, NULL), "ValueError",
               "tether_cpu_dlpack_allocator: `out` is NULL");
  CHECK_OK(tether_cpu_dlpack_allocator(&proto, &mt, NULL, NULL));
  CHECK_EQ_INT(mt->version.major, DLPACK_MAJOR_VERSION);
  CHECK_EQ_INT(mt->flags, 0);
  CHECK_EQ_INT(mt->dl_tensor.strides[1], 4);
  /* import with the strictest checks, then release through the Tensor */
  TVMFFIObjectHandle t = NULL;
  CHECK_OK(TVMFFITensorFromDLPackVersioned(mt, TETHER_TENSOR_ALIGNMENT, 1, &t));
  CHECK_OK(TVMFFIObjectDecRef(t));
  /* an empty tensor still gets a unique data pointer */
  int64_t empty[2] = {0, 5};
  proto.ndim = 2;
  proto.shape = empty;
  CHECK_OK(tether_cpu_dlpack_allocator(&proto, &mt, NULL, NULL));
  CHECK(mt->dl_tensor.data != NULL);
  mt->deleter(mt);
}

static void test_tensor_empty(void) {
  int64_t shape[2] = {3, 5};
  DLDataType f64 = {kDLFloat, 64, 1};
  DLDevice cpu = {kDLCPU, 0};
  TVMFFIObjectHandle t = NULL;
  CHECK_OK(tether_tensor_empty(shape, 2, f64, cpu, &t));
  DLTensor* dl = tether_tensor_dl(t);
  CHECK(dl != NULL);
  CHECK_EQ_INT((uintptr_t)dl->data % TETHER_TENSOR_ALIGNMENT, 0);
  CHECK_EQ_INT(dl->shape[0], 3);
  CHECK_EQ_INT(dl->strides[0], 5);
  CHECK_EQ_INT(dl->strides[1], 1);
  double* d = dl->data;
  CHECK(d[0] == 0.0 && d[14] == 0.0);
  d[14] = 2.0;
  /* a view of it keeps it alive */
  TVMFFIObjectHandle view = NULL;
  DLTensor row = *dl;
  row.ndim = 1;
  row.shape = &shape[1];
  row.strides = &dl->strides[1];
  row.byte_offset = 2 * 5 * sizeof(double);
  CHECK_OK(TVMFFITensorCreateUnsafeView(t, &row, &view));
  CHECK_OK(TVMFFIObjectDecRef(t));
  DLTensor* v = tether_tensor_dl(view);
  CHECK(((double*)((char*)v->data + v->byte_offset))[4] == 2.0);
  CHECK_OK(TVMFFIObjectDecRef(view));

  CHECK_OK(tether_tensor_empty(NULL, 0, f64, cpu, &t));
  CHECK_EQ_INT(tether_tensor_dl(t)->ndim, 0);
  CHECK_OK(TVMFFIObjectDecRef(t));

  DLDevice gpu = {kDLCUDA, 0};
  CHECK_RAISED(tether_tensor_empty(shape, 2, f64, gpu, &t), "ValueError",
               "tether_tensor_empty: device type 2 is not supported");
  CHECK_RAISED(tether_tensor_empty(shape, 2, f64, cpu, NULL), "ValueError",
               "tether_tensor_empty: `out` is NULL");
  CHECK_RAISED(tether_tensor_empty(NULL, 2, f64, cpu, &t), "ValueError",
               "tether_tensor_empty: shape is NULL but ndim = 2");
  CHECK_RAISED(tether_tensor_empty(shape, -1, f64, cpu, &t), "ValueError",
               "tether_tensor_empty: ndim = -1 is negative");
  DLDataType bad = {kDLFloat, 0, 1};
  CHECK_RAISED(tether_tensor_empty(shape, 2, bad, cpu, &t), "ValueError", "has zero bits");
  int64_t huge[2] = {INT64_C(1) << 62, 4};
  CHECK_RAISED(tether_tensor_empty(huge, 2, f64, cpu, &t), "ValueError", "overflows int64");
#ifndef __SANITIZE_ADDRESS__ /* ASan aborts on impossible allocation sizes */
  int64_t too_big[1] = {INT64_C(1) << 59};
  CHECK_RAISED(tether_tensor_empty(too_big, 1, f64, cpu, &t), "MemoryError",
               "tether_tensor_empty: out of memory");
#endif
}

TEST_MAIN(TEST_CASE(test_from_dlpack_round_trip), TEST_CASE(test_from_dlpack_versioned_round_trip),
          TEST_CASE(test_explicit_strides_and_zero_dim), TEST_CASE(test_alignment),
          TEST_CASE(test_contiguity), TEST_CASE(test_bad_input),
          TEST_CASE(test_to_dlpack_bad_input), TEST_CASE(test_unsafe_view),
          TEST_CASE(test_unsafe_view_bad_input), TEST_CASE(test_env_tensor_alloc),
          TEST_CASE(test_cpu_allocator_direct), TEST_CASE(test_tensor_empty))
