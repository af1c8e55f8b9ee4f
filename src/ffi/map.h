/*
 * map.h -- libtether-internal API of map.c: ffi.Map (type 72) and ffi.Dict (type 76).
 * Not exported.
 *
 * Both are hash maps keyed by Any with tether_any_hash / tether_any_equal (spec 1.12),
 * iterated in insertion order.  A Map is a value (copy-on-write: writers take
 * `TVMFFIObject**` and replace a shared Map by a copy); a Dict is mutated in place.
 *
 * The memory layout is private to map.c and differs from tvm-ffi's MapObj: every access
 * to a map anywhere in libtether goes through these functions, so the layout can later be
 * made bit-exact with tvm-ffi's C++ maps without touching callers.
 *
 * Keys and values given as views are stored as owned copies (TVMFFIAnyViewToOwnedAny);
 * lookups accept views directly (a RawStr key finds the equal String key).
 */
#ifndef TETHER_SRC_FFI_MAP_H_
#define TETHER_SRC_FFI_MAP_H_
#ifndef TETHER_BUILD_CORE
#error "src/ffi/map.h is private to libtether; include <tether/container.h> instead"
#endif

#include "internal.h"

/* true for Map and Dict objects (the only objects the functions below accept). */
static inline bool tether__map_is_map(const TVMFFIObject* obj) {
  return obj != NULL && (obj->type_index == kTVMFFIMap || obj->type_index == kTVMFFIDict);
}

/* true if `obj` is a Map or Dict laid out by libtether (map.c).  C++ code that includes
 * tvm-ffi's headers builds maps of tvm-ffi's own layouts: tether__map_size,
 * tether__map_get (a scan) and tether__map_next read those too; nothing else here does. */
bool tether__map_native(const TVMFFIObject* obj);
/* New map of `type_index` in tvm-ffi's C++ small layout (readable by C++ code built from
 * tvm-ffi's headers), taking over the `n` owning key/value pairs kvs[2i], kvs[2i+1] (each
 * reset to None, released on failure).  New reference in *out. */
int tether__map_new_cxx(int32_t type_index, TVMFFIAny* kvs, int64_t n, TVMFFIObject** out);

/* true if the view `v` is, or holds within Arrays, Lists, Maps and Dicts (to a depth of
 * TETHER_CXX_LAYOUT_DEPTH containers), a Map or Dict laid out by libtether: a value that C++
 * code built from tvm-ffi's headers cannot read. */
enum { TETHER_CXX_LAYOUT_DEPTH = 64 };
bool tether__any_needs_cxx_layout(const TVMFFIAny* v);
/* Owning copy of the view `v` in which every such map, and every container on the way to
 * one, is rebuilt (a new object; maps in tvm-ffi's C++ small layout); the rest is shared.
 * A Dict or List rebuilt this way is a copy: changes made to it do not reach `v`. */
int tether__any_to_cxx_layout(const TVMFFIAny* v, TVMFFIAny* out);

/* New empty map of `type_index` (kTVMFFIMap or kTVMFFIDict) with room for `capacity`
 * entries.  New reference in *out; -1 with MemoryError. */
int tether__map_new(int32_t type_index, int64_t capacity, TVMFFIObject** out);
/* New map of `type_index` from `n` key/value view pairs kvs[2i], kvs[2i+1]; a repeated
 * key keeps the last value.  New reference in *out. */
int tether__map_new_from_pairs(int32_t type_index, const TVMFFIAny* kvs, int64_t n,
                               TVMFFIObject** out);
/* New map of `type_index` with the entries of `src` (Map or Dict), in the same order. */
int tether__map_copy(const TVMFFIObject* src, int32_t type_index, TVMFFIObject** out);

/* Number of entries. */
int64_t tether__map_size(const TVMFFIObject* map);
/* The value stored under `key` (borrowed, valid until the map changes), or NULL. */
const TVMFFIAny* tether__map_get(const TVMFFIObject* map, const TVMFFIAny* key);

/* In-place insert or overwrite (order of an existing key is kept).  For Dicts, or for a
 * Map the caller has just created and not shared. */
int tether__map_set(TVMFFIObject* map, const TVMFFIAny* key, const TVMFFIAny* value);
/* Same, stealing the owning *key and *value (both reset to None), even on error. */
int tether__map_set_steal(TVMFFIObject* map, TVMFFIAny* key, TVMFFIAny* value);
/* In-place erase; returns 1 if the key was there, 0 if not (never fails). */
int tether__map_erase(TVMFFIObject* map, const TVMFFIAny* key);
/* In-place removal of every entry. */
void tether__map_clear(TVMFFIObject* map);

/* Copy-on-write variants for Maps: replace *map by a private copy first when it is
 * shared (use count > 1); Dicts are always changed in place. */
int tether__map_cow_set(TVMFFIObject** map, const TVMFFIAny* key, const TVMFFIAny* value);
int tether__map_cow_erase(TVMFFIObject** map, const TVMFFIAny* key);

/*
 * Iteration in insertion order: start with *pos = 0; each call stores borrowed pointers to
 * the next entry's key and value (either may be NULL) and returns true, or returns false
 * at the end.  Changing the map while iterating never crashes but may skip or repeat.
 */
bool tether__map_next(const TVMFFIObject* map, int64_t* pos, const TVMFFIAny** key,
                      const TVMFFIAny** value);

#endif /* TETHER_SRC_FFI_MAP_H_ */
