/*
 * container.h -- tether's C conveniences for the ABI's containers: Array (71), List (75),
 * Map (72), Dict (76) and Shape (69).
 *
 * The same objects are reachable through the `ffi.*` globals (ffi.Array, ffi.MapGetItem,
 * ...), which is how code built against tvm-ffi uses them; these functions are the direct
 * C route for code linked with libtether.
 *
 * Ownership vocabulary as in <tether/tether.h>: "new reference" = the caller owns it;
 * "borrowed" = valid while the owner keeps it unchanged.  Values passed in are views:
 * the containers store owned copies (a RawStr becomes a String).  Functions returning int
 * give 0, or -1 with an error raised (TypeError for a handle of the wrong type, IndexError,
 * KeyError, MemoryError); fetch it with TVMFFIErrorMoveFromRaised.
 *
 * Value semantics: Arrays and Maps are immutable values; their writers take a pointer to
 * the caller's handle and, when the object is shared, replace it with a modified copy
 * (copy-on-write), releasing the caller's old reference.  Lists and Dicts are mutable
 * objects changed in place and seen by every holder.
 *
 * Thread-safety: readers may run concurrently; any writer needs exclusive access.
 */
#ifndef TETHER_CONTAINER_H_
#define TETHER_CONTAINER_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "c_api.h"
#include "tether.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Array (kTVMFFIArray) ----------------------------------------------------------- */
/* New Array of owned copies of the `n` views `items`.  *out: new reference. */
TETHER_API int tether_array_new(const TVMFFIAny* items, int64_t n, TVMFFIObjectHandle* out);
/* New Array that takes over the `n` owning values `items` (each is reset to None; on
 * failure they are released).  No reference count is touched.  *out: new reference. */
TETHER_API int tether_array_new_steal(TVMFFIAny* items, int64_t n, TVMFFIObjectHandle* out);
/* Number of elements, or -1 (TypeError raised) if `arr` is not an Array. */
TETHER_API int64_t tether_array_size(TVMFFIObjectHandle arr);
/* Element i, borrowed from `arr`; NULL (no error raised) if i is out of range or `arr`
 * is not an Array. */
TETHER_API const TVMFFIAny* tether_array_at(TVMFFIObjectHandle arr, int64_t i);
/* *out = owning copy of element i (IndexError "Index i out of bounds n"). */
TETHER_API int tether_array_get(TVMFFIObjectHandle arr, int64_t i, TVMFFIAny* out);
/* Copy-on-write append / store: *arr may be replaced by a new Array (the caller's old
 * reference is released, the new one is owned by the caller). */
TETHER_API int tether_array_append(TVMFFIObjectHandle* arr, const TVMFFIAny* item);
TETHER_API int tether_array_set(TVMFFIObjectHandle* arr, int64_t i, const TVMFFIAny* item);

/* ---- List (kTVMFFIList) ------------------------------------------------------------- */
/* New List of owned copies of the `n` views `items`.  *out: new reference. */
TETHER_API int tether_list_new(const TVMFFIAny* items, int64_t n, TVMFFIObjectHandle* out);
/* Number of elements, or -1 (TypeError raised) if `list` is not a List. */
TETHER_API int64_t tether_list_size(TVMFFIObjectHandle list);
/* Element i, borrowed (valid until the list changes); NULL if out of range / not a List. */
TETHER_API const TVMFFIAny* tether_list_at(TVMFFIObjectHandle list, int64_t i);
/* *out = owning copy of element i. */
TETHER_API int tether_list_get(TVMFFIObjectHandle list, int64_t i, TVMFFIAny* out);
/* In-place mutators (views in, owned copies stored; alias-safe).  Indices are 0-based
 * and never negative: insert accepts 0..size, the others 0..size-1. */
TETHER_API int tether_list_set(TVMFFIObjectHandle list, int64_t i, const TVMFFIAny* item);
TETHER_API int tether_list_append(TVMFFIObjectHandle list, const TVMFFIAny* item);
TETHER_API int tether_list_insert(TVMFFIObjectHandle list, int64_t i, const TVMFFIAny* item);
/* Removes element i; *out (may be NULL) receives the owning value. */
TETHER_API int tether_list_pop(TVMFFIObjectHandle list, int64_t i, TVMFFIAny* out);
/* Removes [start, stop). */
TETHER_API int tether_list_erase_range(TVMFFIObjectHandle list, int64_t start, int64_t stop);
/* Replaces [start, stop) with the `n` views `items` (may point into `list`). */
TETHER_API int tether_list_replace_slice(TVMFFIObjectHandle list, int64_t start, int64_t stop,
                                         const TVMFFIAny* items, int64_t n);
TETHER_API int tether_list_reverse(TVMFFIObjectHandle list);
TETHER_API int tether_list_clear(TVMFFIObjectHandle list);

/* ---- Map (kTVMFFIMap) and Dict (kTVMFFIDict) ---------------------------------------- */
/* The readers accept both Maps and Dicts. */
/* New Map from `n` key/value view pairs kvs[2i], kvs[2i+1] (a repeated key keeps the last
 * value).  *out: new reference. */
TETHER_API int tether_map_new(const TVMFFIAny* kvs, int64_t n, TVMFFIObjectHandle* out);
/* Number of entries, or -1 (TypeError raised) if `map` is neither Map nor Dict. */
TETHER_API int64_t tether_map_size(TVMFFIObjectHandle map);
/* The value under `key` (a view; a RawStr finds the equal String), borrowed from `map`
 * and valid until it changes; NULL if absent (no error raised) or `map` is not a map. */
TETHER_API const TVMFFIAny* tether_map_find(TVMFFIObjectHandle map, const TVMFFIAny* key);
/* *out = owning copy of the value under `key` (KeyError "key is not in Map"). */
TETHER_API int tether_map_get(TVMFFIObjectHandle map, const TVMFFIAny* key, TVMFFIAny* out);
/* Iterates in insertion order: *pos = 0 first; each call gives borrowed key/value pointers
 * (either out-pointer may be NULL) and returns true, false at the end. */
TETHER_API bool tether_map_next(TVMFFIObjectHandle map, int64_t* pos, const TVMFFIAny** key,
                                const TVMFFIAny** value);
/* Copy-on-write insert-or-overwrite / erase for Maps: *map may be replaced (see above).
 * Erasing an absent key is not an error. */
TETHER_API int tether_map_set(TVMFFIObjectHandle* map, const TVMFFIAny* key,
                              const TVMFFIAny* value);
TETHER_API int tether_map_erase(TVMFFIObjectHandle* map, const TVMFFIAny* key);

/* New Dict from `n` key/value view pairs.  *out: new reference. */
TETHER_API int tether_dict_new(const TVMFFIAny* kvs, int64_t n, TVMFFIObjectHandle* out);
/* In-place insert-or-overwrite / erase (absent key: not an error) / clear of a Dict. */
TETHER_API int tether_dict_set(TVMFFIObjectHandle dict, const TVMFFIAny* key,
                               const TVMFFIAny* value);
TETHER_API int tether_dict_erase(TVMFFIObjectHandle dict, const TVMFFIAny* key);
TETHER_API int tether_dict_clear(TVMFFIObjectHandle dict);

/* ---- Shape (kTVMFFIShape) ----------------------------------------------------------- */
/* New Shape holding a copy of the `n` dims.  *out: new reference. */
TETHER_API int tether_shape_new(const int64_t* dims, int64_t n, TVMFFIObjectHandle* out);
/* Number of dims, or -1 (TypeError raised) if `shape` is not a Shape. */
TETHER_API int64_t tether_shape_size(TVMFFIObjectHandle shape);
/* The dims, borrowed from `shape`; NULL if `shape` is not a Shape. */
TETHER_API const int64_t* tether_shape_data(TVMFFIObjectHandle shape);

#ifdef __cplusplus
}
#endif
#endif /* TETHER_CONTAINER_H_ */
