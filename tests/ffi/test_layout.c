/*
 * test_layout.c -- the ABI's struct layouts, checked at run time against the numbers of
 * shared/spec/abi.md sections 1.2-1.8 and 1.13 (LP64), and the header-inlined accessors a
 * C module compiled against tvm-ffi uses on tether's objects.
 *
 * c_api.h already _Static_asserts the main sizes; this is the second line of defence: every
 * field's offset (not only the ones asserted there), the enum values those layouts carry,
 * and the cells of live objects.  tvm-ffi's C accessors (TVMFFIBytesGetByteArrayPtr,
 * TVMFFIErrorGetCellPtr, TVMFFIFunctionGetCellPtr, TVMFFIShapeGetCellPtr,
 * TVMFFITensorGetDLTensorPtr, TVMFFIOpaqueObjectGetCellPtr) are all `(char*)handle + 24`
 * (spec section 2): the cell_of() below is that expression, and each object tether makes
 * must read correctly through it, agreeing with tether's own accessors.
 */
#include <stdalign.h>
#include <stddef.h>

#include <tether/container.h>
#include <tether/tensor.h>

#include "test.h"

#define CHECK_LAYOUT(type, field, offset) CHECK_EQ_INT(offsetof(type, field), offset)
#define CHECK_SIZE(type, size) CHECK_EQ_INT(sizeof(type), size)

/* What every header-inlined accessor of tvm-ffi computes. */
static void* cell_of(TVMFFIObjectHandle h) { return (char*)h + 24; }

/* ---- 1.1 type indices (the values the layouts below carry) ------------------------------- */

static void test_type_index_values(void) {
  static const struct {
    int32_t value, expected;
  } rows[] = {
      {kTVMFFIAny, -1},         {kTVMFFINone, 0},          {kTVMFFIInt, 1},
      {kTVMFFIBool, 2},         {kTVMFFIFloat, 3},         {kTVMFFIOpaquePtr, 4},
      {kTVMFFIDataType, 5},     {kTVMFFIDevice, 6},        {kTVMFFIDLTensorPtr, 7},
      {kTVMFFIRawStr, 8},       {kTVMFFIByteArrayPtr, 9},  {kTVMFFIObjectRValueRef, 10},
      {kTVMFFISmallStr, 11},    {kTVMFFISmallBytes, 12},   {kTVMFFIStaticObjectBegin, 64},
      {kTVMFFIObject, 64},      {kTVMFFIStr, 65},          {kTVMFFIBytes, 66},
      {kTVMFFIError, 67},       {kTVMFFIFunction, 68},     {kTVMFFIShape, 69},
      {kTVMFFITensor, 70},      {kTVMFFIArray, 71},        {kTVMFFIMap, 72},
      {kTVMFFIModule, 73},      {kTVMFFIOpaquePyObject, 74}, {kTVMFFIList, 75},
      {kTVMFFIDict, 76},        {kTVMFFIVisitInterrupt, 77}, {kTVMFFIBigInt, 78},
      {kTVMFFIStaticObjectEnd, 79},
      {kTVMFFIDynObjectBegin, 128},
  };
  for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); ++i) {
    CHECK_EQ_INT(rows[i].value, rows[i].expected);
  }
}

/* ---- 1.2 TVMFFIAny ------------------------------------------------------------------------- */

static void test_any_layout(void) {
  CHECK_SIZE(TVMFFIAny, 16);
  CHECK_EQ_INT(alignof(TVMFFIAny), 8);
  CHECK_LAYOUT(TVMFFIAny, type_index, 0);
  CHECK_LAYOUT(TVMFFIAny, zero_padding, 4);
  CHECK_LAYOUT(TVMFFIAny, small_str_len, 4);
  CHECK_LAYOUT(TVMFFIAny, v_int64, 8);
  CHECK_LAYOUT(TVMFFIAny, v_float64, 8);
  CHECK_LAYOUT(TVMFFIAny, v_ptr, 8);
  CHECK_LAYOUT(TVMFFIAny, v_c_str, 8);
  CHECK_LAYOUT(TVMFFIAny, v_obj, 8);
  CHECK_LAYOUT(TVMFFIAny, v_dtype, 8);
  CHECK_LAYOUT(TVMFFIAny, v_device, 8);
  CHECK_LAYOUT(TVMFFIAny, v_bytes, 8);
  CHECK_LAYOUT(TVMFFIAny, v_uint64, 8);
  TVMFFIAny any;
  CHECK_EQ_INT(sizeof(any.v_bytes), 8);
  CHECK_EQ_INT(sizeof(any.type_index), 4);
  CHECK_EQ_INT(sizeof(any.zero_padding), 4);

  /* The invariant C++ relies on: zero padding and zero unused payload bytes, so a raw
   * 16-byte compare and a hash of v_uint64 work. */
  TVMFFIAny d = tether_any_dtype((DLDataType){kDLFloat, 32, 1});
  CHECK_EQ_INT(d.zero_padding, 0);
  CHECK_EQ_INT(d.v_uint64 >> 32, 0);
  CHECK_EQ_INT(d.v_uint64, (uint64_t)kDLFloat | (32u << 8) | (UINT64_C(1) << 16));
  TVMFFIAny dev = tether_any_device(kDLCUDA, 3);
  CHECK_EQ_INT(dev.v_uint64, (uint64_t)kDLCUDA | (UINT64_C(3) << 32));
  TVMFFIAny b = tether_any_bool(true);
  CHECK_EQ_INT(b.v_uint64, 1);
}

/* ---- 1.3 small strings ------------------------------------------------------------------ */

static void test_small_string_layout(void) {
  TVMFFIAny out;
  TVMFFIByteArray seven = {"1234567", 7}, eight = {"12345678", 8};
  CHECK_OK(TVMFFIStringFromByteArray(&seven, &out));
  CHECK_EQ_INT(out.type_index, kTVMFFISmallStr);
  CHECK_EQ_INT(out.small_str_len, 7);
  CHECK(memcmp(out.v_bytes, "1234567", 8) == 0); /* NUL at v_bytes[7] */
  TVMFFIByteArray two = {"ab", 2};
  CHECK_OK(TVMFFIBytesFromByteArray(&two, &out));
  CHECK_EQ_INT(out.type_index, kTVMFFISmallBytes);
  CHECK_EQ_INT(out.small_str_len, 2);
  CHECK_EQ_INT(out.v_uint64, (uint64_t)'a' | ((uint64_t)'b' << 8)); /* zero fill */
  CHECK_OK(TVMFFIStringFromByteArray(&eight, &out));
  CHECK_EQ_INT(out.type_index, kTVMFFIStr);
  CHECK_EQ_INT(out.zero_padding, 0);
  tether_any_release(&out);
}

/* ---- 1.6 the object header ------------------------------------------------------------------ */

static void test_object_header_layout(void) {
  CHECK_SIZE(TVMFFIObject, 24);
  CHECK_LAYOUT(TVMFFIObject, combined_ref_count, 0);
  CHECK_LAYOUT(TVMFFIObject, type_index, 8);
  CHECK_LAYOUT(TVMFFIObject, __padding, 12);
  CHECK_LAYOUT(TVMFFIObject, deleter, 16);
  CHECK_LAYOUT(TVMFFIObject, __ensure_align, 16);
  CHECK_EQ_INT(kTVMFFIObjectDeleterFlagBitMaskStrong, 1);
  CHECK_EQ_INT(kTVMFFIObjectDeleterFlagBitMaskWeak, 2);
  CHECK_EQ_INT(kTVMFFIObjectDeleterFlagBitMaskBoth, 3);

  /* A fresh object: strong 1, weak 1, read at the offsets C++ inlines. */
  TVMFFIObjectHandle h = NULL;
  CHECK_OK(tether_shape_new(NULL, 0, &h));
  const char* raw = h;
  uint64_t rc;
  int32_t type_index;
  uint32_t padding;
  memcpy(&rc, raw + 0, 8);
  memcpy(&type_index, raw + 8, 4);
  memcpy(&padding, raw + 12, 4);
  CHECK_EQ_INT(rc, UINT64_C(1) | (UINT64_C(1) << 32));
  CHECK_EQ_INT(type_index, kTVMFFIShape);
  CHECK_EQ_INT(padding, 0);
  CHECK(((TVMFFIObject*)h)->deleter != NULL);
  CHECK_OK(TVMFFIObjectIncRef(h));
  memcpy(&rc, raw + 0, 8);
  CHECK_EQ_INT(rc & 0xffffffffu, 2);
  CHECK_EQ_INT(rc >> 32, 1);
  CHECK_EQ_INT(tether_object_use_count(h), 2);
  tether_object_inc_weak(h);
  memcpy(&rc, raw + 0, 8);
  CHECK_EQ_INT(rc >> 32, 2);
  tether_object_dec_weak(h);
  TVMFFIObjectDecRef(h);
  TVMFFIObjectDecRef(h);
}

/* ---- 1.7 payload cells -------------------------------------------------------------------- */

static void test_cell_layouts(void) {
  CHECK_SIZE(TVMFFIByteArray, 16);
  CHECK_LAYOUT(TVMFFIByteArray, data, 0);
  CHECK_LAYOUT(TVMFFIByteArray, size, 8);
  CHECK_SIZE(TVMFFIShapeCell, 16);
  CHECK_LAYOUT(TVMFFIShapeCell, data, 0);
  CHECK_LAYOUT(TVMFFIShapeCell, size, 8);
  CHECK_SIZE(TVMFFISeqCell, 32);
  CHECK_LAYOUT(TVMFFISeqCell, data, 0);
  CHECK_LAYOUT(TVMFFISeqCell, size, 8);
  CHECK_LAYOUT(TVMFFISeqCell, capacity, 16);
  CHECK_LAYOUT(TVMFFISeqCell, data_deleter, 24);
  CHECK_SIZE(TVMFFIErrorCell, 72);
  CHECK_LAYOUT(TVMFFIErrorCell, kind, 0);
  CHECK_LAYOUT(TVMFFIErrorCell, message, 16);
  CHECK_LAYOUT(TVMFFIErrorCell, backtrace, 32);
  CHECK_LAYOUT(TVMFFIErrorCell, update_backtrace, 48);
  CHECK_LAYOUT(TVMFFIErrorCell, cause_chain, 56);
  CHECK_LAYOUT(TVMFFIErrorCell, extra_context, 64);
  CHECK_EQ_INT(kTVMFFIBacktraceUpdateModeReplace, 0);
  CHECK_EQ_INT(kTVMFFIBacktraceUpdateModeAppend, 1);
  CHECK_SIZE(TVMFFIFunctionCell, 16);
  CHECK_LAYOUT(TVMFFIFunctionCell, safe_call, 0);
  CHECK_LAYOUT(TVMFFIFunctionCell, cpp_call, 8);
  CHECK_SIZE(TVMFFIOpaqueObjectCell, 8);
  CHECK_LAYOUT(TVMFFIOpaqueObjectCell, handle, 0);
  /* DLTensor at handle + 24: data +24, device +32, ndim +40, dtype +44, shape +48,
   * strides +56, byte_offset +64. */
  CHECK_SIZE(DLTensor, 48);
  CHECK_EQ_INT(24 + offsetof(DLTensor, data), 24);
  CHECK_EQ_INT(24 + offsetof(DLTensor, device), 32);
  CHECK_EQ_INT(24 + offsetof(DLTensor, ndim), 40);
  CHECK_EQ_INT(24 + offsetof(DLTensor, dtype), 44);
  CHECK_EQ_INT(24 + offsetof(DLTensor, shape), 48);
  CHECK_EQ_INT(24 + offsetof(DLTensor, strides), 56);
  CHECK_EQ_INT(24 + offsetof(DLTensor, byte_offset), 64);
}

/* ---- 1.8 reflection structs ------------------------------------------------------------------ */

static void test_reflection_layouts(void) {
  CHECK_SIZE(TVMFFIFieldInfo, 120);
  CHECK_LAYOUT(TVMFFIFieldInfo, name, 0);
  CHECK_LAYOUT(TVMFFIFieldInfo, doc, 16);
  CHECK_LAYOUT(TVMFFIFieldInfo, metadata, 32);
  CHECK_LAYOUT(TVMFFIFieldInfo, flags, 48);
  CHECK_LAYOUT(TVMFFIFieldInfo, size, 56);
  CHECK_LAYOUT(TVMFFIFieldInfo, alignment, 64);
  CHECK_LAYOUT(TVMFFIFieldInfo, offset, 72);
  CHECK_LAYOUT(TVMFFIFieldInfo, getter, 80);
  CHECK_LAYOUT(TVMFFIFieldInfo, setter, 88);
  CHECK_LAYOUT(TVMFFIFieldInfo, default_value_or_factory, 96);
  CHECK_LAYOUT(TVMFFIFieldInfo, field_static_type_index, 112);
  static const struct {
    int64_t value, bit;
  } flags[] = {
      {kTVMFFIFieldFlagBitMaskWritable, 0},           {kTVMFFIFieldFlagBitMaskHasDefault, 1},
      {kTVMFFIFieldFlagBitMaskIsStaticMethod, 2},     {kTVMFFIFieldFlagBitMaskSEqHashIgnore, 3},
      {kTVMFFIFieldFlagBitMaskSEqHashDefRecursive, 4}, {kTVMFFIFieldFlagBitMaskDefaultFromFactory, 5},
      {kTVMFFIFieldFlagBitMaskReprOff, 6},            {kTVMFFIFieldFlagBitMaskCompareOff, 7},
      {kTVMFFIFieldFlagBitMaskHashOff, 8},            {kTVMFFIFieldFlagBitMaskInitOff, 9},
      {kTVMFFIFieldFlagBitMaskKwOnly, 10},            {kTVMFFIFieldFlagBitSetterIsFunctionObj, 11},
      {kTVMFFIFieldFlagBitMaskSEqHashDefNonRecursive, 12},
  };
  for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); ++i) {
    CHECK_EQ_INT(flags[i].value, INT64_C(1) << flags[i].bit);
  }

  CHECK_SIZE(TVMFFIMethodInfo, 72);
  CHECK_LAYOUT(TVMFFIMethodInfo, name, 0);
  CHECK_LAYOUT(TVMFFIMethodInfo, doc, 16);
  CHECK_LAYOUT(TVMFFIMethodInfo, metadata, 32);
  CHECK_LAYOUT(TVMFFIMethodInfo, flags, 48);
  CHECK_LAYOUT(TVMFFIMethodInfo, method, 56);

  CHECK_SIZE(TVMFFITypeMetadata, 32);
  CHECK_LAYOUT(TVMFFITypeMetadata, doc, 0);
  CHECK_LAYOUT(TVMFFITypeMetadata, creator, 16);
  CHECK_LAYOUT(TVMFFITypeMetadata, total_size, 24);
  CHECK_LAYOUT(TVMFFITypeMetadata, structural_eq_hash_kind, 28);
  CHECK_EQ_INT(sizeof(TVMFFISEqHashKind), 4);
  CHECK_EQ_INT(kTVMFFISEqHashKindUnsupported, 0);
  CHECK_EQ_INT(kTVMFFISEqHashKindTreeNode, 1);
  CHECK_EQ_INT(kTVMFFISEqHashKindFreeVar, 2);
  CHECK_EQ_INT(kTVMFFISEqHashKindDAGNode, 3);
  CHECK_EQ_INT(kTVMFFISEqHashKindConstTreeNode, 4);
  CHECK_EQ_INT(kTVMFFISEqHashKindUniqueInstance, 5);
  CHECK_EQ_INT(kTVMFFIDefRegionKindNone, 0);
  CHECK_EQ_INT(kTVMFFIDefRegionKindRecursive, 1);
  CHECK_EQ_INT(kTVMFFIDefRegionKindNonRecursive, 2);

  CHECK_SIZE(TVMFFITypeAttrColumn, 16);
  CHECK_LAYOUT(TVMFFITypeAttrColumn, data, 0);
  CHECK_LAYOUT(TVMFFITypeAttrColumn, size, 8);
  CHECK_LAYOUT(TVMFFITypeAttrColumn, begin_index, 12);

  CHECK_SIZE(TVMFFITypeInfo, 72);
  CHECK_LAYOUT(TVMFFITypeInfo, type_index, 0);
  CHECK_LAYOUT(TVMFFITypeInfo, type_depth, 4);
  CHECK_LAYOUT(TVMFFITypeInfo, type_key, 8);
  CHECK_LAYOUT(TVMFFITypeInfo, type_ancestors, 24);
  CHECK_LAYOUT(TVMFFITypeInfo, type_key_hash, 32);
  CHECK_LAYOUT(TVMFFITypeInfo, num_fields, 40);
  CHECK_LAYOUT(TVMFFITypeInfo, num_methods, 44);
  CHECK_LAYOUT(TVMFFITypeInfo, fields, 48);
  CHECK_LAYOUT(TVMFFITypeInfo, methods, 56);
  CHECK_LAYOUT(TVMFFITypeInfo, metadata, 64);

  /* A live TypeInfo read at those offsets: ffi.String, depth 1 under ffi.Object. */
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(kTVMFFIStr);
  const char* raw = (const char*)info;
  int32_t index, depth;
  TVMFFIByteArray key;
  const TVMFFITypeInfo** ancestors;
  memcpy(&index, raw + 0, 4);
  memcpy(&depth, raw + 4, 4);
  memcpy(&key, raw + 8, 16);
  memcpy(&ancestors, raw + 24, 8);
  CHECK_EQ_INT(index, kTVMFFIStr);
  CHECK_EQ_INT(depth, 1);
  CHECK_BYTES(key, "ffi.String");
  CHECK_EQ_INT(ancestors[0]->type_index, kTVMFFIObject);
  /* Type attribute columns (the ones the runtime creates at load). */
  TVMFFIByteArray name = {"__ffi_init__", 12};
  const TVMFFITypeAttrColumn* col = TVMFFIGetTypeAttrColumn(&name);
  CHECK(col != NULL);
  if (col != NULL) CHECK_EQ_INT(col->begin_index, 0);
}

/* ---- 1.13 DLPack ---------------------------------------------------------------------------- */

static void test_dlpack_layouts(void) {
  CHECK_SIZE(DLDevice, 8);
  CHECK_LAYOUT(DLDevice, device_type, 0);
  CHECK_LAYOUT(DLDevice, device_id, 4);
  CHECK_SIZE(DLDataType, 4);
  CHECK_LAYOUT(DLDataType, code, 0);
  CHECK_LAYOUT(DLDataType, bits, 1);
  CHECK_LAYOUT(DLDataType, lanes, 2);
  CHECK_SIZE(DLTensor, 48);
  CHECK_LAYOUT(DLTensor, data, 0);
  CHECK_LAYOUT(DLTensor, device, 8);
  CHECK_LAYOUT(DLTensor, ndim, 16);
  CHECK_LAYOUT(DLTensor, dtype, 20);
  CHECK_LAYOUT(DLTensor, shape, 24);
  CHECK_LAYOUT(DLTensor, strides, 32);
  CHECK_LAYOUT(DLTensor, byte_offset, 40);
  CHECK_SIZE(DLManagedTensor, 64);
  CHECK_LAYOUT(DLManagedTensor, dl_tensor, 0);
  CHECK_LAYOUT(DLManagedTensor, manager_ctx, 48);
  CHECK_LAYOUT(DLManagedTensor, deleter, 56);
  CHECK_SIZE(DLPackVersion, 8);
  CHECK_SIZE(DLManagedTensorVersioned, 80);
  CHECK_LAYOUT(DLManagedTensorVersioned, version, 0);
  CHECK_LAYOUT(DLManagedTensorVersioned, manager_ctx, 8);
  CHECK_LAYOUT(DLManagedTensorVersioned, deleter, 16);
  CHECK_LAYOUT(DLManagedTensorVersioned, flags, 24);
  CHECK_LAYOUT(DLManagedTensorVersioned, dl_tensor, 32);
  CHECK_EQ_INT(DLPACK_FLAG_BITMASK_READ_ONLY, 1);
  CHECK_EQ_INT(DLPACK_FLAG_BITMASK_IS_COPIED, 2);
  CHECK_EQ_INT(DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED, 4);

  static const struct {
    int32_t value, expected;
  } codes[] = {
      {kDLInt, 0},           {kDLUInt, 1},           {kDLFloat, 2},
      {kDLOpaqueHandle, 3},  {kDLBfloat, 4},         {kDLComplex, 5},
      {kDLBool, 6},          {kDLFloat8_e3m4, 7},    {kDLFloat8_e5m2fnuz, 13},
      {kDLFloat8_e8m0fnu, 14}, {kDLFloat6_e2m3fn, 15}, {kDLFloat6_e3m2fn, 16},
      {kDLFloat4_e2m1fn, 17}, {kDLCPU, 1},           {kDLCUDA, 2},
      {kDLCUDAHost, 3},      {kDLOpenCL, 4},         {kDLVulkan, 7},
      {kDLMetal, 8},         {kDLVPI, 9},            {kDLROCM, 10},
      {kDLROCMHost, 11},     {kDLExtDev, 12},        {kDLCUDAManaged, 13},
      {kDLOneAPI, 14},       {kDLWebGPU, 15},        {kDLHexagon, 16},
      {kDLMAIA, 17},         {kDLTrn, 18},
  };
  for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); ++i) {
    CHECK_EQ_INT(codes[i].value, codes[i].expected);
  }
}

/* ---- the handle + 24 accessors on objects tether creates --------------------------------- */

static void check_header(TVMFFIObjectHandle h, int32_t type_index) {
  CHECK(h != NULL);
  CHECK_EQ_INT(((TVMFFIObject*)h)->type_index, type_index);
  CHECK_EQ_INT(((TVMFFIObject*)h)->__padding, 0);
  CHECK_EQ_INT(tether_object_use_count(h), 1);
}

static void test_accessor_str_and_bytes(void) {
  static const char text[] = "a string long enough for the heap";
  TVMFFIByteArray in = {text, sizeof(text) - 1};
  TVMFFIAny s, b;
  CHECK_OK(TVMFFIStringFromByteArray(&in, &s));
  CHECK_OK(TVMFFIBytesFromByteArray(&in, &b));
  check_header(s.v_obj, kTVMFFIStr);
  check_header(b.v_obj, kTVMFFIBytes);
  for (int i = 0; i < 2; ++i) {
    TVMFFIAny* v = i == 0 ? &s : &b;
    const TVMFFIByteArray* cell = cell_of(v->v_obj); /* TVMFFIBytesGetByteArrayPtr */
    CHECK_EQ_INT(cell->size, sizeof(text) - 1);
    CHECK(memcmp(cell->data, text, cell->size) == 0);
    CHECK_EQ_INT(cell->data[cell->size], '\0'); /* NUL-terminated (spec 3) */
    TVMFFIByteArray read;
    CHECK(i == 0 ? tether_any_get_str(v, &read) : tether_any_get_bytes(v, &read));
    CHECK(read.data == cell->data && read.size == cell->size);
  }
  tether_any_release(&s);
  tether_any_release(&b);
}

static void test_accessor_error(void) {
  TVMFFIObjectHandle cause = NULL, extra = NULL, err = NULL;
  TVMFFIByteArray kind = {"ValueError", 10}, msg = {"bad thing", 9}, bt = {"  frame\n", 8};
  CHECK_OK(TVMFFIErrorCreate(&kind, &msg, &bt, &cause));
  CHECK_OK(tether_shape_new(NULL, 0, &extra));
  CHECK_OK(TVMFFIErrorCreateWithCauseAndExtraContext(&kind, &msg, &bt, cause, extra, &err));
  check_header(err, kTVMFFIError);
  TVMFFIErrorCell* cell = cell_of(err); /* TVMFFIErrorGetCellPtr */
  CHECK_BYTES(cell->kind, "ValueError");
  CHECK_BYTES(cell->message, "bad thing");
  CHECK_BYTES(cell->backtrace, "  frame\n");
  CHECK(cell->cause_chain == cause);
  CHECK(cell->extra_context == extra);
  CHECK_EQ_INT(tether_object_use_count(cause), 2); /* the error holds its own references */
  CHECK_EQ_INT(tether_object_use_count(extra), 2);
  CHECK(tether_error_kind(err).data == cell->kind.data);
  CHECK(tether_error_message(err).data == cell->message.data);
  /* update_backtrace, called the way C++ unwinding code calls it. */
  CHECK(cell->update_backtrace != NULL);
  TVMFFIByteArray more = {"  outer\n", 8};
  cell->update_backtrace(err, &more, kTVMFFIBacktraceUpdateModeAppend);
  CHECK_BYTES(cell->backtrace, "  frame\n  outer\n");
  CHECK(tether_error_backtrace(err).data == cell->backtrace.data);
  cell->update_backtrace(err, &more, kTVMFFIBacktraceUpdateModeReplace);
  CHECK_BYTES(cell->backtrace, "  outer\n");
  TVMFFIObjectDecRef(err);
  CHECK_EQ_INT(tether_object_use_count(cause), 1);
  TVMFFIObjectDecRef(cause);
  TVMFFIObjectDecRef(extra);
}

static int add_one(void* handle, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  (void)handle;
  if (tether_check_nargs("add_one", "(0: int) -> int", n, 1) != 0) return -1;
  *result = tether_any_int(args[0].v_int64 + 1);
  return 0;
}

static void test_accessor_function(void) {
  TVMFFIObjectHandle f = NULL;
  CHECK_OK(TVMFFIFunctionCreate(NULL, add_one, NULL, &f));
  check_header(f, kTVMFFIFunction);
  const TVMFFIFunctionCell* cell = cell_of(f); /* TVMFFIFunctionGetCellPtr */
  CHECK(cell->safe_call == add_one); /* self and deleter NULL: stored as is (spec 2) */
  CHECK(cell->cpp_call == NULL);
  TVMFFIAny arg = tether_any_int(41), result = tether_any_none();
  CHECK_OK(cell->safe_call(f, &arg, 1, &result)); /* what C++ does */
  CHECK_EQ_INT(result.v_int64, 42);
  TVMFFIObjectDecRef(f);
  /* With a self: a trampoline, still callable through the cell. */
  CHECK_OK(TVMFFIFunctionCreate(&arg, add_one, NULL, &f));
  cell = cell_of(f);
  CHECK(cell->safe_call != NULL && cell->cpp_call == NULL);
  CHECK_OK(cell->safe_call(f, &arg, 1, &result));
  CHECK_EQ_INT(result.v_int64, 42);
  TVMFFIObjectDecRef(f);
}

static void test_accessor_shape(void) {
  static const int64_t dims[3] = {4, 0, 7};
  TVMFFIObjectHandle s = NULL;
  CHECK_OK(tether_shape_new(dims, 3, &s));
  check_header(s, kTVMFFIShape);
  const TVMFFIShapeCell* cell = cell_of(s); /* TVMFFIShapeGetCellPtr */
  CHECK_EQ_INT(cell->size, 3);
  CHECK(memcmp(cell->data, dims, sizeof(dims)) == 0);
  CHECK(tether_shape_data(s) == cell->data);
  CHECK_EQ_INT(tether_shape_size(s), 3);
  CHECK(cell->data == (const int64_t*)((char*)s + 40)); /* dims inline after the cell */
  TVMFFIObjectDecRef(s);
}

static void test_accessor_tensor(void) {
  int64_t shape[2] = {2, 3};
  TVMFFIObjectHandle t = NULL;
  CHECK_OK(tether_tensor_empty(shape, 2, (DLDataType){kDLFloat, 32, 1}, (DLDevice){kDLCPU, 0}, &t));
  check_header(t, kTVMFFITensor);
  const DLTensor* dl = cell_of(t); /* TVMFFITensorGetDLTensorPtr */
  CHECK(dl == tether_tensor_dl(t));
  CHECK_EQ_INT(dl->ndim, 2);
  CHECK_EQ_INT(dl->shape[0], 2);
  CHECK_EQ_INT(dl->shape[1], 3);
  CHECK(dl->strides != NULL);
  CHECK_EQ_INT(dl->strides[0], 3);
  CHECK_EQ_INT(dl->strides[1], 1);
  CHECK_EQ_INT(dl->dtype.code, kDLFloat);
  CHECK_EQ_INT(dl->dtype.bits, 32);
  CHECK_EQ_INT(dl->dtype.lanes, 1);
  CHECK_EQ_INT(dl->device.device_type, kDLCPU);
  CHECK_EQ_INT(dl->byte_offset, 0);
  CHECK_EQ_INT((uintptr_t)dl->data % TETHER_TENSOR_ALIGNMENT, 0);
  /* The same cell read at the spec's handle offsets. */
  const char* raw = t;
  int32_t ndim;
  memcpy(&ndim, raw + 40, 4);
  CHECK_EQ_INT(ndim, 2);
  void* data;
  memcpy(&data, raw + 24, 8);
  CHECK(data == dl->data);
  /* ToDLPack copies that cell. */
  DLManagedTensorVersioned* mt = NULL;
  CHECK_OK(TVMFFITensorToDLPackVersioned(t, &mt));
  CHECK(mt->dl_tensor.data == dl->data && mt->dl_tensor.shape == dl->shape);
  mt->deleter(mt);
  TVMFFIObjectDecRef(t);
}

static void test_accessor_array_and_list(void) {
  TVMFFIAny items[3] = {tether_any_int(1), tether_any_raw_str("two"), tether_any_float(3.0)};
  TVMFFIObjectHandle arr = NULL, list = NULL;
  CHECK_OK(tether_array_new(items, 3, &arr));
  CHECK_OK(tether_list_new(items, 3, &list));
  check_header(arr, kTVMFFIArray);
  check_header(list, kTVMFFIList);
  for (int k = 0; k < 2; ++k) {
    TVMFFIObjectHandle h = k == 0 ? arr : list;
    const TVMFFISeqCell* cell = cell_of(h);
    const TVMFFIAny* data = cell->data;
    CHECK_EQ_INT(cell->size, 3);
    CHECK(cell->capacity >= 3);
    CHECK_EQ_INT(data[0].type_index, kTVMFFIInt);
    CHECK_EQ_INT(data[0].v_int64, 1);
    CHECK_EQ_INT(data[1].type_index, kTVMFFISmallStr); /* owned: the RawStr was converted */
    CHECK_EQ_INT(data[2].type_index, kTVMFFIFloat);
    for (int64_t i = 0; i < 3; ++i) {
      CHECK((k == 0 ? tether_array_at(h, i) : tether_list_at(h, i)) == &data[i]);
    }
  }
  /* Array: elements inline right after the 56-byte struct, no deleter; List: a separate
   * free()-compatible buffer (spec 3). */
  const TVMFFISeqCell* acell = cell_of(arr);
  CHECK(acell->data == (void*)((char*)arr + 56));
  CHECK(acell->data_deleter == NULL);
  const TVMFFISeqCell* lcell = cell_of(list);
  CHECK(lcell->data_deleter != NULL);
  CHECK(lcell->data != (void*)((char*)list + 56));
  TVMFFIObjectDecRef(arr);
  TVMFFIObjectDecRef(list);
}

static int opaque_deleted;
static void opaque_deleter(void* handle) {
  CHECK(handle == (void*)&opaque_deleted);
  opaque_deleted++;
}

static void test_accessor_opaque(void) {
  TVMFFIObjectHandle h = NULL;
  CHECK_OK(TVMFFIObjectCreateOpaque(&opaque_deleted, kTVMFFIOpaquePyObject, opaque_deleter, &h));
  check_header(h, kTVMFFIOpaquePyObject);
  const TVMFFIOpaqueObjectCell* cell = cell_of(h); /* TVMFFIOpaqueObjectGetCellPtr */
  CHECK(cell->handle == (void*)&opaque_deleted);
  TVMFFIObjectDecRef(h);
  CHECK_EQ_INT(opaque_deleted, 1);
}

TEST_MAIN(TEST_CASE(test_type_index_values), TEST_CASE(test_any_layout),
          TEST_CASE(test_small_string_layout), TEST_CASE(test_object_header_layout),
          TEST_CASE(test_cell_layouts), TEST_CASE(test_reflection_layouts),
          TEST_CASE(test_dlpack_layouts), TEST_CASE(test_accessor_str_and_bytes),
          TEST_CASE(test_accessor_error), TEST_CASE(test_accessor_function),
          TEST_CASE(test_accessor_shape), TEST_CASE(test_accessor_tensor),
          TEST_CASE(test_accessor_array_and_list), TEST_CASE(test_accessor_opaque))
