/*
 * reflection.h -- defining reflected object types in C and reading/writing their fields.
 *
 * A reflected object is a plain C struct that starts with a TVMFFIObject header and
 * whose fields each have a *kind* from TETHER_FIELD_KINDS.  The kind fixes the field's
 * storage, its getter and setter (the TVMFFIFieldGetter/Setter the ABI's field info
 * carries, so any binding -- Python included -- reads and writes it generically), and
 * how the object's destructor releases it.  Objects made with tether_object_new_reflected
 * release their owning fields automatically when they die.
 */
#ifndef TETHER_REFLECTION_H_
#define TETHER_REFLECTION_H_

#include <stdbool.h>
#include <stdint.h>

#include "c_api.h"
#include "tether.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Storage of an optional scalar field. */
typedef struct {
  int64_t value;
  bool has_value;
} tether_opt_int64_t;
typedef struct {
  double value;
  bool has_value;
} tether_opt_float64_t;

/*
 * X(NAME, storage C type, static type index reported in the field info, type schema)
 *   OBJECT      non-NULL object reference (TVMFFIObject*, owned); None rejected
 *   OPT_OBJECT  nullable object reference (None <-> NULL)
 *   STRING      a string held as an owning TVMFFIAny (SmallStr or Str), 16 bytes
 *   OPT_STRING  the same, or None
 *   ANY         any owning value (TVMFFIAny)
 *   FLOAT32     a C float read as a float; a finite value beyond float's range is stored as
 *               an infinity of its sign
 */
#define TETHER_FIELD_KINDS(X)                                                        \
  X(INT64, int64_t, kTVMFFIInt, "int")                                               \
  X(INT32, int32_t, kTVMFFIInt, "int")                                               \
  X(FLOAT64, double, kTVMFFIFloat, "float")                                          \
  X(BOOL, bool, kTVMFFIBool, "bool")                                                 \
  X(DTYPE, DLDataType, kTVMFFIDataType, "DataType")                                  \
  X(DEVICE, DLDevice, kTVMFFIDevice, "Device")                                       \
  X(STRING, TVMFFIAny, kTVMFFIStr, "ffi.String")                                     \
  X(OPT_STRING, TVMFFIAny, kTVMFFIStr, "Optional<ffi.String>")                      \
  X(OBJECT, TVMFFIObject*, kTVMFFIObject, "ffi.Object")                              \
  X(OPT_OBJECT, TVMFFIObject*, kTVMFFIObject, "Optional<ffi.Object>")               \
  X(ANY, TVMFFIAny, kTVMFFIAny, "Any")                                               \
  X(OPT_INT64, tether_opt_int64_t, kTVMFFIInt, "Optional<int>")                     \
  X(OPT_FLOAT64, tether_opt_float64_t, kTVMFFIFloat, "Optional<float>")              \
  X(FLOAT32, float, kTVMFFIFloat, "float")

typedef enum {
#define TETHER__FIELD_ENUM(name, ctype, tindex, schema) TETHER_FIELD_##name,
  TETHER_FIELD_KINDS(TETHER__FIELD_ENUM)
#undef TETHER__FIELD_ENUM
  TETHER_FIELD_NUM_KINDS
} tether_field_kind;

/* The ABI getter/setter of a kind (static functions of libtether; never NULL). */
TETHER_API TVMFFIFieldGetter tether_field_getter(tether_field_kind kind);
TETHER_API TVMFFIFieldSetter tether_field_setter(tether_field_kind kind);
/* The kind whose getter is `getter`, or -1 if it is not one of tether's. */
TETHER_API int tether_field_kind_of_getter(TVMFFIFieldGetter getter);

/* Description of one field for tether_type_def_field. */
typedef struct {
  const char* name;
  tether_field_kind kind;
  int64_t offset;            /* from the object header: offsetof(struct, field) */
  int64_t flags;             /* kTVMFFIFieldFlagBitMask*; Writable etc. */
  int32_t object_type_index; /* OBJECT/OPT_OBJECT: required type (kTVMFFIObject = any) */
  const TVMFFIAny* default_value; /* borrowed view, or NULL for a required field */
  const char* doc;                /* may be NULL */
  /* The declared type as a type-schema JSON text ({"type":"ffi.Array","args":[...]}) for the
   * field's metadata, or NULL for the one the kind implies. */
  const char* type_schema;
  /* More members of the field's metadata object, as JSON text without the braces
   * ("\"unit\": \"ms\", \"min\": 0"), or NULL. */
  const char* extra_metadata;
} tether_field_def_t;

/*
 * Registers `def` as the next own field of `type_index` (TVMFFITypeRegisterField with the
 * kind's getter and setter).  Adds HasDefault when default_value is given.  A scalar kind
 * (int, float, bool, DataType, Device, optional int/float) declared with a type_schema other
 * than its own plain type (Optional<int>, ffi.BigInt, ...) reports the static type index
 * kTVMFFIAny: the value is a boxed one (a JSON graph writes it as a node reference).
 */
TETHER_API int tether_type_def_field(int32_t type_index, const tether_field_def_t* def);
/* Registers a C function as a method of `type_index` (instance methods receive self first). */
TETHER_API int tether_type_def_method(int32_t type_index, const char* name, TVMFFISafeCallType fn,
                                      bool is_static, const char* doc);
/* Registers metadata {total_size, creator=NULL} and an auto `__ffi_init__` built from the
 * fields, so ffi.MakeObjectFromPackedArgs and Python constructors work.  Call after the
 * fields are defined.  The same as tether_type_def_finish_ex with only total_size and doc. */
TETHER_API int tether_type_def_finish(int32_t type_index, int32_t total_size, const char* doc);

/* How tether_type_def_finish_ex completes a type. */
typedef struct {
  int32_t total_size; /* bytes of one object: the header and every field fit in it */
  /*
   * Makes a fresh object holding the type's initial values (what a C++ class's default
   * constructor does with its member initialisers).  The automatic `__ffi_init__`,
   * ffi.MakeObjectFromPackedArgs and JSON graph loading start from it, then write the
   * fields they are given and those with a reflected default; a field with neither keeps
   * the creator's value.  Contract: returns 0 with a new reference to an object of exactly
   * this type, at least total_size bytes, whose deleter releases its tether-kind fields
   * (tether_object_new_reflected, then the initial values written, is the usual body); or
   * -1 with an error raised.  NULL: a zeroed tether_object_new_reflected object.
   */
  TVMFFIObjectCreator creator;
  bool no_init;    /* true: no automatic `__ffi_init__` (the shallow copy is still registered) */
  const char* doc; /* may be NULL */
} tether_type_finish_t;

/*
 * Finishes a type whose fields are defined: registers its metadata {total_size, creator,
 * doc}, its `__ffi_type_final__` (tether_type_def_final), its `__ffi_shallow_copy__`
 * attribute and, unless no_init, the automatic `__ffi_init__` (kept if the type already
 * has one).  0, or -1 with ValueError for an
 * unknown type, a NULL `def`, a total_size that cannot hold the header or a field, or
 * RuntimeError when the type's metadata is already registered (as by
 * TVMFFITypeRegisterMetadata).  Thread-safe (type table lock); call once per type.
 */
TETHER_API int tether_type_def_finish_ex(int32_t type_index, const tether_type_finish_t* def);

/* Looks a field up by name in the type and its ancestors; borrowed or NULL. */
TETHER_API const TVMFFIFieldInfo* tether_type_find_field(int32_t type_index, const char* name,
                                                         size_t len);
/* Reads a field into an owning Any. */
TETHER_API int tether_field_get(TVMFFIObjectHandle obj, const TVMFFIFieldInfo* field,
                                TVMFFIAny* out);
/* Writes a field after checking the value against the field's static type (TypeError
 * "Cannot convert from type `X` to `Y`"). */
TETHER_API int tether_field_set(TVMFFIObjectHandle obj, const TVMFFIFieldInfo* field,
                                const TVMFFIAny* value);

/* Writes a field's default (HasDefault): its default value, or what its default factory
 * (DefaultFromFactory) returns, checked as by tether_field_set. */
TETHER_API int tether_field_set_default(TVMFFIObjectHandle obj, const TVMFFIFieldInfo* field);
/* New zeroed object of a reflected type (metadata total_size), whose deleter releases
 * every owning field of tether kinds (own and inherited).  *out: new reference. */
TETHER_API int tether_object_new_reflected(int32_t type_index, TVMFFIObjectHandle* out);

/* Registers the `__ffi_convert__` type attribute of object type `type_index` (what
 * tvm-ffi's ObjectDef::ref<T>() adds): a function of one value that returns it when it is
 * an object of that type or of a derived one, and raises TypeError "Cannot cast from `X`
 * to `<type key>`" otherwise.  The core object types have it from load.  0, or -1 with
 * TypeError for an index that is not an object type.  Thread-safe (type table lock). */
TETHER_API int tether_type_def_convert(int32_t type_index);

/* Publishes whether `type_index` is final as its type attribute `__ffi_type_final__` (a
 * bool), as tvm-ffi's ObjectDef does: True when no type can derive from it, i.e. it was
 * allocated with no child slots and child_slots_can_overflow 0, as a final type must be.
 * tether_type_def_finish calls it (after the metadata); a type that registers its metadata
 * itself calls it once.  0, or -1 with RuntimeError when the attribute is already
 * published, ValueError for an unregistered index. */
TETHER_API int tether_type_def_final(int32_t type_index);

/* The text of ffi.ReprPrint for `v`, as an owning string Any in *out. */
TETHER_API int tether_repr(const TVMFFIAny* v, TVMFFIAny* out);

/* Device names ("cpu", "cuda", ...) by DLDeviceType; NULL for unknown types. */
TETHER_API const char* tether_device_type_name(int32_t device_type);
/* Device type by name; -1 if unknown. */
TETHER_API int32_t tether_device_type_from_name(const char* name, size_t len);

#ifdef __cplusplus
}
#endif
#endif /* TETHER_REFLECTION_H_ */
