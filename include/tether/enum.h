/*
 * enum.h -- enum types whose values are registered singletons (tvm-ffi's ffi.Enum,
 * ffi.IntEnum and ffi.StrEnum).
 *
 * An enum type derives from ffi.Enum.  Each of its values (a *variant*) is one object made
 * once and registered with two canonical indices: an integer and a string (its name).
 * Code in any language gets the same object back for the same index, so variants compare
 * by identity, hash by address (structural kind UniqueInstance), survive a deep copy as
 * themselves and are written to JSON graphs as their index alone.  ffi.IntEnum's variants
 * expose the integer index as `value`, ffi.StrEnum's the string index; a plain enum writes
 * its string index to JSON, an IntEnum its integer index.
 *
 * The variants of a type live in its ffi.EnumState, stored as the type attribute
 * `__ffi_enum__`: the variants in registration order, an index -> variant table and
 * per-variant attribute columns ({attribute name: {variant: value}}).  Bindings (the
 * Python Enum classes) read and extend the same state, so variants registered here and
 * there are one set.
 *
 * Ownership vocabulary as in <tether/tether.h>.  Functions returning int give 0, or -1
 * with an error raised (TypeError for a type that is not an enum or an index that is
 * neither int nor str, ValueError for an unknown or duplicate index, KeyError for an unset
 * attribute, MemoryError); fetch it with TVMFFIErrorMoveFromRaised.  Error messages name
 * the function.
 *
 * Thread-safety: lookups (tether_enum_get, tether_enum_count/at, tether_enum_get_attr,
 * tether_enum_kind_of) may run concurrently with each other.  Defining types, variants and
 * attributes changes the shared state and needs exclusive access to that enum type: do it
 * while registering the type (at library load, as tvm-ffi's static initialisers do).
 */
#ifndef TETHER_ENUM_H_
#define TETHER_ENUM_H_

#include <stdbool.h>
#include <stdint.h>

#include "c_api.h"
#include "tether.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The layout every enum object starts with (tvm-ffi's EnumObj): 48 bytes.  A type derived
 * with tether_enum_type_def may append fields of its own after it. */
typedef struct {
  TVMFFIObject header;
  int64_t int_index;   /* canonical integer index */
  TVMFFIAny str_index; /* canonical string index: an owning String (SmallStr or Str) */
} tether_enum_t;

/* Which enum family a type belongs to. */
typedef enum {
  TETHER_ENUM_NONE = 0,  /* not an enum type */
  TETHER_ENUM_PLAIN = 1, /* ffi.Enum or a type derived from it, but from neither below */
  TETHER_ENUM_INT = 2,   /* ffi.IntEnum or a type derived from it */
  TETHER_ENUM_STR = 3,   /* ffi.StrEnum or a type derived from it */
} tether_enum_kind;

/* The family of type `type_index`; TETHER_ENUM_NONE for other (or unknown) types.  No
 * error is raised. */
TETHER_API tether_enum_kind tether_enum_kind_of(int32_t type_index);

/* Registers the enum type `type_key` as a child of `parent_index` (ffi.Enum, ffi.IntEnum,
 * ffi.StrEnum or a non-final type derived from them), with objects of `total_size` bytes
 * (at least sizeof(tether_enum_t); fields beyond it may be added with tether_type_def_field
 * before the first variant is made).  `final`: the type has no subtypes.  The type gets
 * structural kind UniqueInstance and the type attributes `__ffi_new__` (an empty object),
 * `__ffi_convert__` and `__ffi_shallow_copy__`; no `__ffi_init__` (variants are made by
 * tether_enum_add_variant, not constructed).  *out_index: the type index.  TypeError if the
 * parent is not an enum type, ValueError for a size below the base layout. */
TETHER_API int tether_enum_type_def(const char* type_key, int32_t parent_index,
                                    int32_t total_size, bool final, int32_t* out_index);

/* Makes and registers a variant of enum type `type_index` named `name` (its string index).
 * Its integer index is *int_index for an IntEnum type (required: TypeError when NULL) and
 * the number of variants registered before it otherwise (an explicit index is a TypeError
 * there).  The type's EnumState is created on first use.  ValueError if either index is
 * taken.  *out (may be NULL): the variant, borrowed from the type's state, which keeps it
 * for as long as the type exists. */
TETHER_API int tether_enum_add_variant(int32_t type_index, const char* name,
                                       const int64_t* int_index, TVMFFIObjectHandle* out);

/* *out = the variant of enum type `type_index` at `index` (a view of an int or a string):
 * new reference.  ValueError "Enum `<key>` has no instance with index <index>" if there is
 * none; TypeError for an index of another kind. */
TETHER_API int tether_enum_get(int32_t type_index, const TVMFFIAny* index,
                               TVMFFIObjectHandle* out);

/* Number of variants of enum type `type_index` (0 before the first), or -1 with TypeError
 * raised if it is not an enum type. */
TETHER_API int64_t tether_enum_count(int32_t type_index);
/* Variant i in registration order, borrowed from the type's state; NULL (no error raised)
 * if i is out of range or the type is not an enum type. */
TETHER_API TVMFFIObjectHandle tether_enum_at(int32_t type_index, int64_t i);

/* Sets the extensible attribute `name` of `variant` to an owned copy of `value` (a view),
 * replacing an earlier value.  TypeError if `variant` is not an enum object. */
TETHER_API int tether_enum_set_attr(TVMFFIObjectHandle variant, const char* name,
                                    const TVMFFIAny* value);
/* *out = owning copy of the attribute `name` of `variant`; KeyError if it is not set. */
TETHER_API int tether_enum_get_attr(TVMFFIObjectHandle variant, const char* name,
                                    TVMFFIAny* out);

#ifdef __cplusplus
}
#endif
#endif /* TETHER_ENUM_H_ */
