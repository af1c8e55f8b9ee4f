/*
 * array.h -- libtether-internal API of array.c: ffi.Array (type 71).  Not exported.
 *
 * An Array is a TVMFFISeqCell whose owning TVMFFIAny elements are stored inline right
 * after the cell (data == handle + 56, data_deleter == NULL), as tvm-ffi's ArrayObj.
 * Users see Arrays as immutable values: every writer here takes `TVMFFIObject** arr`
 * and, when *arr is shared (use count > 1) or full, replaces it by a fresh copy
 * (copy-on-write), so other holders never observe the change.
 * Readers go through the SeqCell only, so Arrays made by C++ code are read the same way.
 */
#ifndef TETHER_SRC_FFI_ARRAY_H_
#define TETHER_SRC_FFI_ARRAY_H_
#ifndef TETHER_BUILD_CORE
#error "src/ffi/array.h is private to libtether; include <tether/container.h> instead"
#endif

#include "internal.h"

/* The cell of an Array or List object (borrowed). */
static inline TVMFFISeqCell* tether__seq_cell(const TVMFFIObject* seq) {
  return TETHER_CELL(TVMFFISeqCell, seq);
}

/* New empty Array with room for `capacity` elements.  New reference in *out; -1 with
 * MemoryError (or ValueError for a negative or huge capacity). */
int tether__array_new_empty(int64_t capacity, TVMFFIObject** out);
/* New Array holding owned copies of the `n` views `items` (TVMFFIAnyViewToOwnedAny each:
 * RawStr becomes a String, an ObjectRValueRef is moved from).  New reference in *out. */
int tether__array_new(const TVMFFIAny* items, int64_t n, TVMFFIObject** out);
/* Same, but steals the `n` owning values in `items` (each reset to None), even on error. */
int tether__array_new_steal(TVMFFIAny* items, int64_t n, TVMFFIObject** out);

/* Number of elements. */
static inline int64_t tether__array_size(const TVMFFIObject* arr) {
  return tether__seq_cell(arr)->size;
}
/* Element i (borrowed, valid while arr is alive and unchanged); NULL if i is out of range. */
static inline const TVMFFIAny* tether__array_get(const TVMFFIObject* arr, int64_t i) {
  const TVMFFISeqCell* cell = tether__seq_cell(arr);
  if (i < 0 || i >= cell->size) return NULL;
  return (const TVMFFIAny*)cell->data + i;
}

/* true if an element of the Array or List `seq` equals the view `value` (AnyEqual; a RawStr
 * matches an equal String). */
bool tether__seq_contains(const TVMFFIObject* seq, const TVMFFIAny* value);

/* Copy-on-write append of an owned copy of the view `item` (`item` may point into *arr).
 * *arr is replaced (old reference released) when it was shared or full. */
int tether__array_push(TVMFFIObject** arr, const TVMFFIAny* item);
/* Same, stealing the owning value *item (reset to None), even on error. */
int tether__array_push_steal(TVMFFIObject** arr, TVMFFIAny* item);
/* Copy-on-write store of an owned copy of `item` at index i (IndexError if out of range). */
int tether__array_set(TVMFFIObject** arr, int64_t i, const TVMFFIAny* item);

#endif /* TETHER_SRC_FFI_ARRAY_H_ */
