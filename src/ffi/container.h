/*
 * container.h -- libtether-internal declarations shared by the container sources
 * (array.c, list.c, map.c, shape.c, container.c).  Not API, not exported.
 *
 * Each container source exposes its global functions as a table that container.c
 * registers at load; the helpers below normalise view-only values (RawStr,
 * ByteArrayPtr, ObjectRValueRef) so that lookups compare them like the owned values
 * they would become, without allocating.
 */
#ifndef TETHER_SRC_FFI_CONTAINER_H_
#define TETHER_SRC_FFI_CONTAINER_H_
#ifndef TETHER_BUILD_CORE
#error "src/ffi/container.h is private to libtether; include <tether/container.h> instead"
#endif

#include "internal.h"

/*
 * One `ffi.*` global of a container.  `sig` is the typed signature shown in argument
 * errors ("ffi.ArraySize(0: ffi.Array) -> int"), also the source of the registered
 * {"type_schema": ...} metadata; NULL for variadic (packed) globals.
 */
typedef struct {
  const char* name;
  TVMFFISafeCallType fn;
  const char* sig;
  const char* doc;
} tether__container_global_t;

extern const tether__container_global_t tether__array_globals[];
extern const size_t tether__array_num_globals;
extern const tether__container_global_t tether__list_globals[];
extern const size_t tether__list_num_globals;
extern const tether__container_global_t tether__map_globals[];
extern const size_t tether__map_num_globals;
extern const tether__container_global_t tether__shape_globals[];
extern const size_t tether__shape_num_globals;

/*
 * A lookup key: `value` is what to hash and compare.  View-only inputs are rewritten
 * in place so that they behave like the owned value TVMFFIAnyViewToOwnedAny would give:
 * RawStr/ByteArrayPtr become a SmallStr/SmallBytes (<= 7 bytes) or a Str/Bytes backed by
 * the stack object `str` (never refcounted; lives as long as this struct, which must not
 * be moved or copied while `value` is in use); ObjectRValueRef becomes a view of the
 * object in its slot (None if the slot is empty).  Other values are copied unchanged.
 */
typedef struct {
  TVMFFIAny value;
  struct {
    TVMFFIObject header;
    TVMFFIByteArray bytes;
  } str;
} tether__container_key_t;

void tether__container_key_init(tether__container_key_t* key, const TVMFFIAny* view);

/* Converts `n` views to owned values in `out` (TVMFFIAnyViewToOwnedAny each); on failure
 * releases the ones already converted and returns -1 with the error raised. */
int tether__container_own_all(const TVMFFIAny* views, int64_t n, TVMFFIAny* out);

/* Borrowed object argument i of exactly `type_index`; otherwise the reference's TypeError
 * "Mismatched type on argument #i when calling: `<sig>`. Expected `<expected>` but got
 * `<type>`" (`expected` as the reference spells it: "ffi.Array", "List<Any>", ...). */
int tether__container_arg_object(const char* sig, const TVMFFIAny* args, int32_t i,
                                 int32_t type_index, const char* expected, TVMFFIObject** out);

#endif /* TETHER_SRC_FFI_CONTAINER_H_ */
