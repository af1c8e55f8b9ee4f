/*
 * c_api.h -- tether's description of tvm-ffi's stable C ABI (version 0.1.15).
 *
 * Every struct, enum value and exported function of tvm-ffi's c_api.h and
 * extra/c_env_api.h, with the same names, layouts and values, written from the
 * facts in shared/spec/abi.md.  A kernel compiled against this header runs under
 * tvm-ffi and the reverse.  This header only *describes* the ABI; tether's own C
 * conveniences live in <tether/tether.h>.
 *
 * Conventions (spec section 2): functions returning int return 0 on success and
 * -1 with an Error object parked in the calling thread (TVMFFIErrorMoveFromRaised).
 * Arguments passed as TVMFFIAny are borrowed views; result slots are owning.
 */
#ifndef TVM_FFI_C_API_H_
#define TVM_FFI_C_API_H_
#define TETHER_C_API_H_

#include <stddef.h>
#include <stdint.h>

#include "dlpack.h"

/* Export macro: every ABI symbol is visible, everything else is hidden. */
#ifndef TVM_FFI_DLL
#define TVM_FFI_DLL __attribute__((visibility("default")))
#endif
#ifndef TVM_FFI_DLL_EXPORT
#define TVM_FFI_DLL_EXPORT __attribute__((visibility("default")))
#endif
#ifndef TVM_FFI_ATTRIBUTE_PURE
#define TVM_FFI_ATTRIBUTE_PURE __attribute__((pure))
#endif

#define TVM_FFI_VERSION_MAJOR 0
#define TVM_FFI_VERSION_MINOR 1
#define TVM_FFI_VERSION_PATCH 16

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  uint32_t major;
  uint32_t minor;
  uint32_t patch;
} TVMFFIVersion;

/* ---- 1.1 type indices --------------------------------------------------------------- */
#ifdef __cplusplus
enum TVMFFITypeIndex : int32_t {
#else
typedef enum {
#endif
  kTVMFFIAny = -1,
  kTVMFFINone = 0,
  kTVMFFIInt = 1,
  kTVMFFIBool = 2,
  kTVMFFIFloat = 3,
  kTVMFFIOpaquePtr = 4,
  kTVMFFIDataType = 5,
  kTVMFFIDevice = 6,
  kTVMFFIDLTensorPtr = 7,
  kTVMFFIRawStr = 8,
  kTVMFFIByteArrayPtr = 9,
  kTVMFFIObjectRValueRef = 10,
  kTVMFFISmallStr = 11,
  kTVMFFISmallBytes = 12,
  kTVMFFIUnchanged = 13,
  kTVMFFIStaticObjectBegin = 64,
  kTVMFFIObject = 64,
  kTVMFFIStr = 65,
  kTVMFFIBytes = 66,
  kTVMFFIError = 67,
  kTVMFFIFunction = 68,
  kTVMFFIShape = 69,
  kTVMFFITensor = 70,
  kTVMFFIArray = 71,
  kTVMFFIMap = 72,
  kTVMFFIModule = 73,
  kTVMFFIOpaquePyObject = 74,
  kTVMFFIList = 75,
  kTVMFFIDict = 76,
  kTVMFFIVisitInterrupt = 77,
  /* An integer that does not fit int64: {TVMFFIObject header; size_t num_words;
   * int64_t words[num_words]} -- two's complement, least-significant word first, each
   * word in native byte order, in the shortest signed form (num_words >= 2).  Every value
   * that fits int64 is a kTVMFFIInt instead. */
  kTVMFFIBigInt = 78,
  kTVMFFIStaticObjectEnd,
  kTVMFFIDynObjectBegin = 128
#ifdef __cplusplus
};
#else
} TVMFFITypeIndex;
#endif

typedef void* TVMFFIObjectHandle;

/* ---- 1.6 object header ---------------------------------------------------------------- */
typedef enum {
  kTVMFFIObjectDeleterFlagBitMaskStrong = 1 << 0, /* run the destructor, keep the memory */
  kTVMFFIObjectDeleterFlagBitMaskWeak = 1 << 1,   /* free the memory */
  kTVMFFIObjectDeleterFlagBitMaskBoth = (1 << 0) | (1 << 1),
} TVMFFIObjectDeleterFlagBitMask;

typedef struct {
  /* low 32 bits: strong count; high 32 bits: weak count.  New objects start at 1 | 1 << 32. */
  uint64_t combined_ref_count;
  int32_t type_index;
  uint32_t __padding;
  union {
    /* Called with the header address; flags from TVMFFIObjectDeleterFlagBitMask.
     * NULL means a static object that is never freed. */
    void (*deleter)(void* self, int flags);
    int64_t __ensure_align;
  };
} TVMFFIObject;

/* ---- 1.2 Any ------------------------------------------------------------------------------ */
typedef struct {
  int32_t type_index;
  union {
    uint32_t zero_padding; /* must be 0 except for SmallStr/SmallBytes */
    uint32_t small_str_len;
  };
  union {
    int64_t v_int64;
    double v_float64;
    void* v_ptr;
    const char* v_c_str;
    TVMFFIObject* v_obj;
    DLDataType v_dtype;
    DLDevice v_device;
    char v_bytes[8];
    uint64_t v_uint64;
  };
} TVMFFIAny;

/* ---- 1.7 payload cells (each starts right after the 24-byte header) -------------------------- */
typedef struct {
  const char* data;
  size_t size;
} TVMFFIByteArray;

typedef struct {
  const int64_t* data;
  size_t size;
} TVMFFIShapeCell;

typedef struct {
  void* data; /* TVMFFIAny[capacity], owning */
  int64_t size;
  int64_t capacity;
  void (*data_deleter)(void*); /* NULL when the elements are stored inline */
} TVMFFISeqCell;

typedef enum {
  kTVMFFIBacktraceUpdateModeReplace = 0,
  kTVMFFIBacktraceUpdateModeAppend = 1,
} TVMFFIBacktraceUpdateMode;

typedef struct {
  TVMFFIByteArray kind;
  TVMFFIByteArray message;
  TVMFFIByteArray backtrace; /* most recent call first */
  void (*update_backtrace)(TVMFFIObjectHandle self, const TVMFFIByteArray* backtrace,
                           int32_t update_mode);
  TVMFFIObjectHandle cause_chain;   /* owned, may be NULL */
  TVMFFIObjectHandle extra_context; /* owned, may be NULL */
} TVMFFIErrorCell;

typedef int (*TVMFFISafeCallType)(void* handle, const TVMFFIAny* args, int32_t num_args,
                                  TVMFFIAny* result);

typedef struct {
  TVMFFISafeCallType safe_call;
  void* cpp_call; /* C++-only entry; always NULL for functions tether creates */
} TVMFFIFunctionCell;

typedef struct {
  void* handle;
} TVMFFIOpaqueObjectCell;

/* ---- 1.9 allocator hooks (dormant in 0.1.x) ------------------------------------------------ */
typedef struct {
  void (*delete_space)(void* ptr);
} TVMFFIObjectAllocHeader;

typedef struct {
  void* (*allocate)(size_t size, size_t alignment, int32_t type_index, void* context);
  void* context;
} TVMFFICustomAllocator;

/* ---- 1.8 reflection --------------------------------------------------------------------- */
typedef int (*TVMFFIFieldGetter)(void* field, TVMFFIAny* result);
typedef int (*TVMFFIFieldSetter)(void* field, const TVMFFIAny* value);
typedef int (*TVMFFIObjectCreator)(TVMFFIObjectHandle* result);

typedef enum {
  kTVMFFIFieldFlagBitMaskWritable = 1 << 0,
  kTVMFFIFieldFlagBitMaskHasDefault = 1 << 1,
  kTVMFFIFieldFlagBitMaskIsStaticMethod = 1 << 2,
  kTVMFFIFieldFlagBitMaskSEqHashIgnore = 1 << 3,
  kTVMFFIFieldFlagBitMaskSEqHashDefPattern = 1 << 4,
  kTVMFFIFieldFlagBitMaskDefaultFromFactory = 1 << 5,
  kTVMFFIFieldFlagBitMaskReprOff = 1 << 6,
  kTVMFFIFieldFlagBitMaskCompareOff = 1 << 7,
  kTVMFFIFieldFlagBitMaskHashOff = 1 << 8,
  kTVMFFIFieldFlagBitMaskInitOff = 1 << 9,
  kTVMFFIFieldFlagBitMaskKwOnly = 1 << 10,
  kTVMFFIFieldFlagBitSetterIsFunctionObj = 1 << 11,
  kTVMFFIFieldFlagBitMaskSEqHashDefSimple = 1 << 12,
  /* spec names for the two definition-region bits */
  kTVMFFIFieldFlagBitMaskSEqHashDefRecursive = 1 << 4,
  kTVMFFIFieldFlagBitMaskSEqHashDefNonRecursive = 1 << 12,
} TVMFFIFieldFlagBitMask;

typedef enum {
  kTVMFFISEqHashKindUnsupported = 0,
  kTVMFFISEqHashKindTreeNode = 1,
  kTVMFFISEqHashKindFreeVar = 2,
  kTVMFFISEqHashKindDAGNode = 3,
  kTVMFFISEqHashKindConstTreeNode = 4,
  kTVMFFISEqHashKindUniqueInstance = 5,
} TVMFFISEqHashKind;

typedef enum {
  kTVMFFIDefRegionKindNone = 0,
  kTVMFFIDefRegionKindPattern = 1,
  kTVMFFIDefRegionKindSimple = 2,
  kTVMFFIDefRegionKindRecursive = 1,
  kTVMFFIDefRegionKindNonRecursive = 2,
} TVMFFIDefRegionKind;

typedef struct {
  TVMFFIByteArray name;
  TVMFFIByteArray doc;
  TVMFFIByteArray metadata; /* JSON */
  int64_t flags;
  int64_t size;
  int64_t alignment;
  int64_t offset; /* from the object header */
  TVMFFIFieldGetter getter;
  void* setter; /* TVMFFIFieldSetter, or a Function handle if SetterIsFunctionObj */
  TVMFFIAny default_value_or_factory;
  int32_t field_static_type_index;
} TVMFFIFieldInfo;

typedef struct {
  TVMFFIByteArray name;
  TVMFFIByteArray doc;
  TVMFFIByteArray metadata;
  int64_t flags;
  TVMFFIAny method; /* a Function */
} TVMFFIMethodInfo;

typedef struct {
  TVMFFIByteArray doc;
  TVMFFIObjectCreator creator;
  int32_t total_size;
  TVMFFISEqHashKind structural_eq_hash_kind;
} TVMFFITypeMetadata;

typedef struct {
  const TVMFFIAny* data;
  int32_t size;
  int32_t begin_index;
} TVMFFITypeAttrColumn;

typedef struct TVMFFITypeInfo {
  int32_t type_index;
  int32_t type_depth;
  TVMFFIByteArray type_key;
  const struct TVMFFITypeInfo** type_ancestors; /* root first, last = parent */
  uint64_t type_key_hash;
  int32_t num_fields;
  int32_t num_methods;
  const TVMFFIFieldInfo* fields;
  const TVMFFIMethodInfo* methods;
  const TVMFFITypeMetadata* metadata;
} TVMFFITypeInfo;

/* ---- exported functions (c_api.h) ------------------------------------------------------ */
TVM_FFI_DLL void TVMFFIGetVersion(TVMFFIVersion* out_version);

/* NULL is refused with a ValueError (tvm-ffi does not tolerate it either). */
TVM_FFI_DLL int TVMFFIObjectIncRef(TVMFFIObjectHandle obj);
/* NULL is tolerated. */
TVM_FFI_DLL int TVMFFIObjectDecRef(TVMFFIObjectHandle obj);
/* *out: new reference.  Only kTVMFFIOpaquePyObject is accepted. */
TVM_FFI_DLL int TVMFFIObjectCreateOpaque(void* handle, int32_t type_index,
                                         void (*deleter)(void* handle), TVMFFIObjectHandle* out);
/* Never NULL. */
TVM_FFI_DLL TVMFFICustomAllocator* TVMFFIGetCustomAllocator(void);
/* NULL restores the built-in allocator. */
TVM_FFI_DLL int TVMFFISetCustomAllocator(TVMFFICustomAllocator* allocator);

TVM_FFI_DLL int TVMFFITypeKeyToIndex(const TVMFFIByteArray* type_key, int32_t* out_tindex);

/* *out: new reference.  self/deleter both NULL: safe_call is called with the function handle. */
TVM_FFI_DLL int TVMFFIFunctionCreate(void* self, TVMFFISafeCallType safe_call,
                                     void (*deleter)(void* self), TVMFFIObjectHandle* out);
/* *out: new reference, or NULL when the name is not registered (still returns 0). */
TVM_FFI_DLL int TVMFFIFunctionGetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle* out);
/* *out is overwritten with an owning value; an ObjectRValueRef is moved out of its slot. */
TVM_FFI_DLL int TVMFFIAnyViewToOwnedAny(const TVMFFIAny* any_view, TVMFFIAny* out);
/* args: views; *result must be pre-set to a type index < 64 and receives an owning value.
 * A handle that is not a Function, a negative count or a NULL result is refused (-1). */
TVM_FFI_DLL int TVMFFIFunctionCall(TVMFFIObjectHandle func, TVMFFIAny* args, int32_t num_args,
                                   TVMFFIAny* result);

/* *result: the raised error (new reference to the caller) or NULL; the slot is cleared. */
TVM_FFI_DLL void TVMFFIErrorMoveFromRaised(TVMFFIObjectHandle* result);
/* Borrows `error` (takes its own reference).  A non-Error object is not parked: a TypeError
 * saying so is parked instead. */
TVM_FFI_DLL void TVMFFIErrorSetRaised(TVMFFIObjectHandle error);
TVM_FFI_DLL void TVMFFIErrorSetRaisedFromCStr(const char* kind, const char* message);
TVM_FFI_DLL void TVMFFIErrorSetRaisedFromCStrParts(const char* kind, const char** message_parts,
                                                   int32_t num_parts);
/* *out: new reference.  Does not touch the raised-error slot. */
TVM_FFI_DLL int TVMFFIErrorCreate(const TVMFFIByteArray* kind, const TVMFFIByteArray* message,
                                  const TVMFFIByteArray* backtrace, TVMFFIObjectHandle* out);
/* cause/extra_context are borrowed (the new error takes its own references); NULL allowed. */
TVM_FFI_DLL int TVMFFIErrorCreateWithCauseAndExtraContext(
    const TVMFFIByteArray* kind, const TVMFFIByteArray* message, const TVMFFIByteArray* backtrace,
    TVMFFIObjectHandle cause_chain, TVMFFIObjectHandle extra_context, TVMFFIObjectHandle* out);

/* Takes over `from` only on success. *out: new reference. */
TVM_FFI_DLL int TVMFFITensorFromDLPack(DLManagedTensor* from, int32_t require_alignment,
                                       int32_t require_contiguous, TVMFFIObjectHandle* out);
/* *out: new managed tensor holding a reference to the tensor. */
TVM_FFI_DLL int TVMFFITensorToDLPack(TVMFFIObjectHandle from, DLManagedTensor** out);
TVM_FFI_DLL int TVMFFITensorFromDLPackVersioned(DLManagedTensorVersioned* from,
                                                int32_t require_alignment,
                                                int32_t require_contiguous,
                                                TVMFFIObjectHandle* out);
TVM_FFI_DLL int TVMFFITensorToDLPackVersioned(TVMFFIObjectHandle from,
                                              DLManagedTensorVersioned** out);
/* *out: new Tensor viewing proto->data, holding a reference to `source`. */
TVM_FFI_DLL int TVMFFITensorCreateUnsafeView(TVMFFIObjectHandle source, const DLTensor* prototype,
                                             TVMFFIObjectHandle* out);

/* *out: owning SmallStr (<= 7 bytes) or Str. */
TVM_FFI_DLL int TVMFFIStringFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out);
TVM_FFI_DLL int TVMFFIBytesFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out);
/* *out: owning integer made from whole 64-bit words (input->size a multiple of 8; least
 * significant word first, native byte order, two's complement; redundant sign words are
 * dropped, no words means 0): a kTVMFFIInt when the value fits int64, else a new
 * ffi.BigInt.  *out is None after a failure (ValueError for a bad `input`). */
TVM_FFI_DLL int TVMFFIBigIntFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out);
/* The words of an int (the 8 bytes of value->v_int64) or a BigInt (its shortest form),
 * in the layout above; borrowed from *value and valid while it lives.  Anything else
 * returns {NULL, 0} with a TypeError (ValueError for NULL) parked in the calling thread. */
TVM_FFI_DLL TVMFFIByteArray TVMFFIBigIntGetContentByteArray(const TVMFFIAny* value);

TVM_FFI_DLL int TVMFFIDataTypeFromString(const TVMFFIByteArray* str, DLDataType* out);
/* *out: owning string Any. */
TVM_FFI_DLL int TVMFFIDataTypeToString(const DLDataType* dtype, TVMFFIAny* out);

/* f is borrowed (the registry takes its own reference). */
TVM_FFI_DLL int TVMFFIFunctionSetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle f,
                                        int allow_override);
TVM_FFI_DLL int TVMFFIFunctionSetGlobalFromMethodInfo(const TVMFFIMethodInfo* method_info,
                                                      int allow_override);
TVM_FFI_DLL int TVMFFITypeRegisterField(int32_t type_index, const TVMFFIFieldInfo* info);
TVM_FFI_DLL int TVMFFITypeRegisterMethod(int32_t type_index, const TVMFFIMethodInfo* info);
TVM_FFI_DLL int TVMFFITypeRegisterMetadata(int32_t type_index, const TVMFFITypeMetadata* metadata);
TVM_FFI_DLL int TVMFFITypeRegisterAttr(int32_t type_index, const TVMFFIByteArray* attr_name,
                                       const TVMFFIAny* attr_value);
/* Borrowed, address stable forever; NULL if the column was never created. */
TVM_FFI_DLL const TVMFFITypeAttrColumn* TVMFFIGetTypeAttrColumn(const TVMFFIByteArray* attr_name);

/* Borrowed thread-local buffer, valid until the next call on this thread. */
TVM_FFI_DLL const TVMFFIByteArray* TVMFFIBacktrace(const char* filename, int lineno,
                                                   const char* func, int cross_ffi_boundary);

TVM_FFI_DLL int32_t TVMFFITypeGetOrAllocIndex(const TVMFFIByteArray* type_key,
                                              int32_t static_type_index, int32_t type_depth,
                                              int32_t num_child_slots,
                                              int32_t child_slots_can_overflow,
                                              int32_t parent_type_index);
/* Borrowed, stable for the process lifetime. */
TVM_FFI_DLL TVM_FFI_ATTRIBUTE_PURE const TVMFFITypeInfo* TVMFFIGetTypeInfo(int32_t type_index);

TVM_FFI_DLL int TVMFFIHandleInitOnce(void** handle_addr, int (*init_func)(void** result));
TVM_FFI_DLL int TVMFFIHandleDeinitOnce(void** handle_addr, int (*deinit_func)(void* handle));

/* ---- exported functions (extra/c_env_api.h) -------------------------------------------- */
typedef void* TVMFFIStreamHandle;

TVM_FFI_DLL int TVMFFIEnvSetStream(int32_t device_type, int32_t device_id,
                                   TVMFFIStreamHandle stream,
                                   TVMFFIStreamHandle* opt_out_original_stream);
TVM_FFI_DLL TVMFFIStreamHandle TVMFFIEnvGetStream(int32_t device_type, int32_t device_id);
TVM_FFI_DLL int TVMFFIEnvSetDLPackManagedTensorAllocator(
    DLPackManagedTensorAllocator allocator, int write_to_global_context,
    DLPackManagedTensorAllocator* opt_out_original_allocator);
TVM_FFI_DLL DLPackManagedTensorAllocator TVMFFIEnvGetDLPackManagedTensorAllocator(void);
/* *out: new Tensor reference. */
TVM_FFI_DLL int TVMFFIEnvTensorAlloc(DLTensor* prototype, TVMFFIObjectHandle* out);
TVM_FFI_DLL int TVMFFIEnvCheckSignals(void);
TVM_FFI_DLL int TVMFFIEnvRegisterCAPI(const char* name, void* symbol);
/* *out: borrowed (owned by the module's cache). */
TVM_FFI_DLL int TVMFFIEnvModLookupFromImports(TVMFFIObjectHandle library_ctx, const char* func_name,
                                              TVMFFIObjectHandle* out);
TVM_FFI_DLL int TVMFFIEnvModRegisterContextSymbol(const char* name, void* symbol);
TVM_FFI_DLL int TVMFFIEnvModRegisterSystemLibSymbol(const char* name, void* symbol);

#ifdef __cplusplus
} /* extern "C" */
#endif

/* ---- layout checks (spec 1.2-1.8, LP64) ---------------------------------------------------- */
#if !defined(__cplusplus) && defined(__LP64__)
_Static_assert(sizeof(TVMFFIAny) == 16, "TVMFFIAny is 16 bytes");
_Static_assert(offsetof(TVMFFIAny, v_int64) == 8, "Any payload at +8");
_Static_assert(sizeof(TVMFFIObject) == 24, "object header is 24 bytes");
_Static_assert(offsetof(TVMFFIObject, type_index) == 8, "header type_index at +8");
_Static_assert(offsetof(TVMFFIObject, deleter) == 16, "header deleter at +16");
_Static_assert(sizeof(TVMFFIByteArray) == 16, "ByteArray is 16 bytes");
_Static_assert(sizeof(TVMFFIShapeCell) == 16, "ShapeCell is 16 bytes");
_Static_assert(sizeof(TVMFFISeqCell) == 32, "SeqCell is 32 bytes");
_Static_assert(offsetof(TVMFFISeqCell, data_deleter) == 24, "SeqCell deleter at +24");
_Static_assert(sizeof(TVMFFIErrorCell) == 72, "ErrorCell is 72 bytes");
_Static_assert(offsetof(TVMFFIErrorCell, update_backtrace) == 48, "update_backtrace at +48");
_Static_assert(offsetof(TVMFFIErrorCell, cause_chain) == 56, "cause_chain at +56");
_Static_assert(offsetof(TVMFFIErrorCell, extra_context) == 64, "extra_context at +64");
_Static_assert(sizeof(TVMFFIFunctionCell) == 16, "FunctionCell is 16 bytes");
_Static_assert(sizeof(TVMFFIOpaqueObjectCell) == 8, "OpaqueObjectCell is 8 bytes");
_Static_assert(sizeof(DLTensor) == 48, "DLTensor is 48 bytes");
_Static_assert(offsetof(DLTensor, ndim) == 16, "DLTensor ndim at +16");
_Static_assert(offsetof(DLTensor, dtype) == 20, "DLTensor dtype at +20");
_Static_assert(offsetof(DLTensor, byte_offset) == 40, "DLTensor byte_offset at +40");
_Static_assert(sizeof(DLManagedTensor) == 64, "DLManagedTensor is 64 bytes");
_Static_assert(sizeof(DLManagedTensorVersioned) == 80, "DLManagedTensorVersioned is 80 bytes");
_Static_assert(offsetof(DLManagedTensorVersioned, dl_tensor) == 32, "versioned dl_tensor at +32");
_Static_assert(sizeof(TVMFFIFieldInfo) == 120, "FieldInfo is 120 bytes");
_Static_assert(offsetof(TVMFFIFieldInfo, flags) == 48, "FieldInfo flags at +48");
_Static_assert(offsetof(TVMFFIFieldInfo, offset) == 72, "FieldInfo offset at +72");
_Static_assert(offsetof(TVMFFIFieldInfo, getter) == 80, "FieldInfo getter at +80");
_Static_assert(offsetof(TVMFFIFieldInfo, setter) == 88, "FieldInfo setter at +88");
_Static_assert(offsetof(TVMFFIFieldInfo, default_value_or_factory) == 96, "FieldInfo default at +96");
_Static_assert(offsetof(TVMFFIFieldInfo, field_static_type_index) == 112, "FieldInfo type at +112");
_Static_assert(sizeof(TVMFFIMethodInfo) == 72, "MethodInfo is 72 bytes");
_Static_assert(offsetof(TVMFFIMethodInfo, method) == 56, "MethodInfo method at +56");
_Static_assert(sizeof(TVMFFITypeMetadata) == 32, "TypeMetadata is 32 bytes");
_Static_assert(offsetof(TVMFFITypeMetadata, total_size) == 24, "TypeMetadata total_size at +24");
_Static_assert(offsetof(TVMFFITypeMetadata, structural_eq_hash_kind) == 28, "seq kind at +28");
_Static_assert(sizeof(TVMFFITypeAttrColumn) == 16, "TypeAttrColumn is 16 bytes");
_Static_assert(sizeof(TVMFFITypeInfo) == 72, "TypeInfo is 72 bytes");
_Static_assert(offsetof(TVMFFITypeInfo, type_key) == 8, "TypeInfo type_key at +8");
_Static_assert(offsetof(TVMFFITypeInfo, type_ancestors) == 24, "TypeInfo ancestors at +24");
_Static_assert(offsetof(TVMFFITypeInfo, num_fields) == 40, "TypeInfo num_fields at +40");
_Static_assert(offsetof(TVMFFITypeInfo, metadata) == 64, "TypeInfo metadata at +64");
#endif

#endif /* TVM_FFI_C_API_H_ */
