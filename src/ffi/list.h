/*
 * list.h -- libtether-internal API of list.c: ffi.List (type 75).  Not exported.
 *
 * A List is a TVMFFISeqCell whose owning TVMFFIAny elements live in a separate heap
 * buffer released with cell.data_deleter.  Lists are mutable in place and shared by
 * reference.  Our buffers come from malloc and our data_deleter is `free`: C++ code
 * that grows one of our Lists swaps in an `operator new` buffer but keeps our deleter,
 * which is sound because both are malloc/free on glibc.  Every function here works on
 * Lists made by C++ code too: growth frees the old buffer with the List's own deleter.
 *
 * Indices are not Python-style: negative indices are out of range, as in tvm-ffi.
 */
#ifndef TETHER_SRC_FFI_LIST_H_
#define TETHER_SRC_FFI_LIST_H_
#ifndef TETHER_BUILD_CORE
#error "src/ffi/list.h is private to libtether; include <tether/container.h> instead"
#endif

#include "internal.h"
#include "array.h"

/* New List holding owned copies of the `n` views `items`.  New reference in *out. */
int tether__list_new(const TVMFFIAny* items, int64_t n, TVMFFIObject** out);

static inline int64_t tether__list_size(const TVMFFIObject* list) {
  return tether__seq_cell(list)->size;
}
/* Element i (borrowed, valid until the list changes); NULL if i is out of range. */
static inline const TVMFFIAny* tether__list_get(const TVMFFIObject* list, int64_t i) {
  const TVMFFISeqCell* cell = tether__seq_cell(list);
  if (i < 0 || i >= cell->size) return NULL;
  return (const TVMFFIAny*)cell->data + i;
}

/* All mutators take views, store owned copies, and are alias-safe (a view may point into
 * the list itself).  They return 0, or -1 with IndexError ("Index i out of bounds n",
 * "Index i out of bounds [0, n]", "Erase range [a, b) out of bounds n") or MemoryError. */
int tether__list_reserve(TVMFFIObject* list, int64_t capacity);
int tether__list_set(TVMFFIObject* list, int64_t i, const TVMFFIAny* item);
int tether__list_append(TVMFFIObject* list, const TVMFFIAny* item);
/* Steals the owning *item (reset to None), even on error. */
int tether__list_append_steal(TVMFFIObject* list, TVMFFIAny* item);
/* Inserts before index i, 0 <= i <= size. */
int tether__list_insert(TVMFFIObject* list, int64_t i, const TVMFFIAny* item);
/* Removes element i; *out (may be NULL) receives the owning value. */
int tether__list_pop(TVMFFIObject* list, int64_t i, TVMFFIAny* out);
int tether__list_erase(TVMFFIObject* list, int64_t i);
/* Removes [start, stop), 0 <= start <= stop <= size. */
int tether__list_erase_range(TVMFFIObject* list, int64_t start, int64_t stop);
/* Replaces [start, stop) by the `n` views `items` (which may point into the list). */
int tether__list_replace_slice(TVMFFIObject* list, int64_t start, int64_t stop,
                               const TVMFFIAny* items, int64_t n);
void tether__list_reverse(TVMFFIObject* list);
void tether__list_clear(TVMFFIObject* list);

#endif /* TETHER_SRC_FFI_LIST_H_ */
