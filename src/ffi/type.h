/*
 * type.h -- libtether-internal declarations of type.c (not API, not exported): the
 * runtime type table (spec 1.1, 1.8, 1.10, 1.11).
 */
#ifndef TETHER_SRC_FFI_TYPE_H_
#define TETHER_SRC_FFI_TYPE_H_
#ifndef TETHER_BUILD_CORE
#error "src/ffi/type.h is private to libtether; include <tether/tether.h> instead"
#endif

#include "internal.h"

/*
 * Every type with a fixed index (spec 1.1), in index order: X(index, key, kind).
 *   POD    -- on-stack value type: depth 0, no parent, no child slots.
 *   ROOT   -- "ffi.Object": depth 0, no parent, no reserved child slots, children overflow
 *             to dynamic indices (128 on).
 *   OBJECT -- pre-registered at load as a depth-1 child of ffi.Object with 0 child slots,
 *             not overflowable (no registered sub-type can derive from it).
 *   LAZY   -- not pre-registered: the index is claimed with its static value on first use
 *             (tether__type_register_static or TVMFFITypeGetOrAllocIndex).
 */
#define TETHER_STATIC_TYPES(X)                             \
  X(kTVMFFINone, "None", POD)                              \
  X(kTVMFFIInt, "int", POD)                                \
  X(kTVMFFIBool, "bool", POD)                              \
  X(kTVMFFIFloat, "float", POD)                            \
  X(kTVMFFIOpaquePtr, "void*", POD)                        \
  X(kTVMFFIDataType, "DataType", POD)                      \
  X(kTVMFFIDevice, "Device", POD)                          \
  X(kTVMFFIDLTensorPtr, "DLTensor*", POD)                  \
  X(kTVMFFIRawStr, "const char*", POD)                     \
  X(kTVMFFIByteArrayPtr, "TVMFFIByteArray*", POD)          \
  X(kTVMFFIObjectRValueRef, "ObjectRValueRef", POD)        \
  X(kTVMFFISmallStr, "ffi.SmallStr", POD)                  \
  X(kTVMFFISmallBytes, "ffi.SmallBytes", POD)              \
  X(kTVMFFIObject, "ffi.Object", ROOT)                     \
  X(kTVMFFIStr, "ffi.String", OBJECT)                      \
  X(kTVMFFIBytes, "ffi.Bytes", OBJECT)                     \
  X(kTVMFFIError, "ffi.Error", OBJECT)                     \
  X(kTVMFFIFunction, "ffi.Function", OBJECT)               \
  X(kTVMFFIShape, "ffi.Shape", OBJECT)                     \
  X(kTVMFFITensor, "ffi.Tensor", OBJECT)                   \
  X(kTVMFFIArray, "ffi.Array", OBJECT)                     \
  X(kTVMFFIMap, "ffi.Map", OBJECT)                         \
  X(kTVMFFIModule, "ffi.Module", OBJECT)                   \
  X(kTVMFFIOpaquePyObject, "ffi.OpaquePyObject", OBJECT)   \
  X(kTVMFFIList, "ffi.List", OBJECT)                       \
  X(kTVMFFIDict, "ffi.Dict", OBJECT)                       \
  X(kTVMFFIVisitInterrupt, "ffi.VisitInterrupt", LAZY)     \
  X(kTVMFFIBigInt, "ffi.BigInt", OBJECT)

/* Type-table entry for `index`, or NULL if unregistered (never aborts).  Borrowed; the
 * pointer stays valid until the library unloads.  Lock-free. */
const TVMFFITypeInfo* tether__type_info_or_null(int32_t index);

/* Registers `key` at the static `index` as a depth-1 child of ffi.Object with no child
 * slots, not overflowable, unless the key is already registered.  Returns the key's
 * index (which may differ from `index` if the key was registered before at another
 * one), or -1 with an error raised (index taken by another key, out of memory).
 * Thread-safe. */
int32_t tether__type_register_static(const char* key, int32_t index);

/* Registers the metadata of a type whose objects libtether's C code lays out and creates
 * itself (ffi.Object, ffi.Module): `total_size` bytes, no creator, no doc, structural
 * equality unsupported.  Reflection never allocates such a type from its size (see
 * tether__type_has_reflected_layout).  Returns 0, or -1 with an error raised (unknown
 * index, metadata already registered, out of memory).  Thread-safe. */
int tether__type_register_native(int32_t type_index, int32_t total_size);

/* true if objects of the type may be made as zeroed `total_size` bytes whose state is its
 * reflected fields (tether_object_new_reflected): it has metadata, a size holding at least
 * the header, and a layout not owned by libtether's C code.  `info` is borrowed and must be
 * the table's own (TVMFFIGetTypeInfo, tether__type_info_or_null).  Lock-free. */
bool tether__type_has_reflected_layout(const TVMFFITypeInfo* info);

/* true if no type can derive from `index`: it was allocated with no child slots that may
 * not overflow (tvm-ffi's _type_final).  false for unregistered indices.  Lock-free. */
bool tether__type_is_final(int32_t index);

/* Calls fn(info, ctx) for every registered type in increasing index order.  `info` is
 * borrowed.  Lock-free: fn may register types (those may or may not be visited). */
void tether__type_for_each(void (*fn)(const TVMFFITypeInfo* info, void* ctx), void* ctx);

/* The entry of type-attribute column `name` for `type_index` (borrowed), or NULL when the
 * column or the entry is missing or None.  Column addresses never move once created, so
 * a found column is cached in *cache (a missing one is looked up again next time). */
const TVMFFIAny* tether__type_attr(const char* name, const TVMFFITypeAttrColumn* _Atomic* cache,
                                   int32_t type_index);

#endif /* TETHER_SRC_FFI_TYPE_H_ */
