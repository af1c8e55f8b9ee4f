/*
 * array.c -- ffi.Array (type 71): an immutable sequence of owning TVMFFIAny values.
 *
 * Layout (tvm-ffi's ArrayObj): header, TVMFFISeqCell, then `capacity` elements inline,
 * so data == handle + 56 and data_deleter == NULL.  Writers are copy-on-write (see
 * array.h); growth doubles the capacity, starting at 4.
 *
 * Also: the public tether_array_* functions and the ffi.Array* globals.
 */
#include <stdint.h>

#include <tether/container.h>

#include "internal.h"
#include "array.h"
#include "container.h"
#include "error.h"
#include "object.h"

typedef struct {
  TVMFFIObject header;
  TVMFFISeqCell cell;
  TVMFFIAny items[];
} tether_array_t;

_Static_assert(offsetof(tether_array_t, items) == 56, "Array elements start at handle + 56");

#define TETHER_ARRAY_MIN_CAPACITY 4
#define TETHER_ARRAY_MAX_CAPACITY \
  ((int64_t)((SIZE_MAX - sizeof(tether_array_t)) / sizeof(TVMFFIAny)))

/* Destroys the elements [0, size) (Strong), frees the block (Weak). */
static void tether__array_deleter(void* self, int flags) {
  tether_array_t* arr = self;
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) {
    for (int64_t i = 0; i < arr->cell.size; ++i) {
      if (arr->items[i].type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(arr->items[i].v_obj);
    }
    arr->cell.size = 0;
  }
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) tether__object_free(self);
}

int tether__array_new_empty(int64_t capacity, TVMFFIObject** out) {
  if (capacity < 0 || capacity > TETHER_ARRAY_MAX_CAPACITY) {
    return tether_raise("ValueError", "ffi.Array: cannot allocate %lld elements",
                        (long long)capacity);
  }
  size_t bytes = sizeof(tether_array_t) + (size_t)capacity * sizeof(TVMFFIAny);
  tether_array_t* arr = tether__object_alloc(bytes, kTVMFFIArray, tether__array_deleter);
  if (arr == NULL) return -1;
  arr->cell.data = arr->items;
  arr->cell.size = 0;
  arr->cell.capacity = capacity;
  arr->cell.data_deleter = NULL;
  *out = &arr->header;
  return 0;
}

int tether__array_new(const TVMFFIAny* items, int64_t n, TVMFFIObject** out) {
  TVMFFIObject* arr = NULL;
  if (tether__array_new_empty(n, &arr) != 0) return -1;
  TVMFFISeqCell* cell = tether__seq_cell(arr);
  if (tether__container_own_all(items, n, cell->data) != 0) {
    TVMFFIObjectDecRef(arr);
    return -1;
  }
  cell->size = n;
  *out = arr;
  return 0;
}

int tether__array_new_steal(TVMFFIAny* items, int64_t n, TVMFFIObject** out) {
  TVMFFIObject* arr = NULL;
  if (tether__array_new_empty(n, &arr) != 0) {
    for (int64_t i = 0; i < n; ++i) tether_any_release(&items[i]);
    return -1;
  }
  TVMFFISeqCell* cell = tether__seq_cell(arr);
  TVMFFIAny* data = cell->data;
  for (int64_t i = 0; i < n; ++i) {
    data[i] = items[i];
    items[i] = tether_any_none();
  }
  cell->size = n;
  *out = arr;
  return 0;
}

/*
 * Makes *arr safe to write with room for `min_capacity` elements: kept as is when we are
 * its only owner and it is big enough; otherwise replaced by a new Array into which the
 * elements are moved (sole owner) or copied (shared).
 */
static int tether__array_make_writable(TVMFFIObject** arr, int64_t min_capacity) {
  TVMFFIObject* old = *arr;
  TVMFFISeqCell* old_cell = tether__seq_cell(old);
  bool unique = tether_object_use_count(old) == 1;
  if (unique && old_cell->capacity >= min_capacity) return 0;

  int64_t capacity = old_cell->capacity;
  if (capacity < min_capacity) {
    capacity = capacity < TETHER_ARRAY_MIN_CAPACITY ? TETHER_ARRAY_MIN_CAPACITY : capacity;
    while (capacity < min_capacity) {
      capacity = capacity > TETHER_ARRAY_MAX_CAPACITY / 2 ? TETHER_ARRAY_MAX_CAPACITY
                                                          : capacity * 2;
    }
  }
  TVMFFIObject* fresh = NULL;
  if (tether__array_new_empty(capacity, &fresh) != 0) return -1;
  TVMFFISeqCell* cell = tether__seq_cell(fresh);
  TVMFFIAny* src = old_cell->data;
  TVMFFIAny* dst = cell->data;
  if (unique) {
    /* Move: the old Array ends empty, so its deleter releases nothing. */
    memcpy(dst, src, (size_t)old_cell->size * sizeof(TVMFFIAny));
    cell->size = old_cell->size;
    old_cell->size = 0;
  } else {
    for (int64_t i = 0; i < old_cell->size; ++i) tether_any_copy(&src[i], &dst[i]);
    cell->size = old_cell->size;
  }
  TVMFFIObjectDecRef(old);
  *arr = fresh;
  return 0;
}

int tether__array_push_steal(TVMFFIObject** arr, TVMFFIAny* item) {
  int64_t size = tether__array_size(*arr);
  if (tether__array_make_writable(arr, size + 1) != 0) {
    tether_any_release(item);
    return -1;
  }
  TVMFFISeqCell* cell = tether__seq_cell(*arr);
  ((TVMFFIAny*)cell->data)[cell->size++] = *item;
  *item = tether_any_none();
  return 0;
}

int tether__array_push(TVMFFIObject** arr, const TVMFFIAny* item) {
  /* Own the value first: `item` may live inside *arr, which may move. */
  TVMFFIAny owned;
  if (TVMFFIAnyViewToOwnedAny(item, &owned) != 0) return -1;
  return tether__array_push_steal(arr, &owned);
}

int tether__array_set(TVMFFIObject** arr, int64_t i, const TVMFFIAny* item) {
  int64_t size = tether__array_size(*arr);
  if (i < 0 || i >= size) {
    return tether_raise("IndexError", "Index %lld out of bounds %lld", (long long)i,
                        (long long)size);
  }
  TVMFFIAny owned;
  if (TVMFFIAnyViewToOwnedAny(item, &owned) != 0) return -1;
  if (tether__array_make_writable(arr, size) != 0) {
    tether_any_release(&owned);
    return -1;
  }
  TVMFFIAny* slot = (TVMFFIAny*)tether__seq_cell(*arr)->data + i;
  TVMFFIAny previous = *slot;
  *slot = owned;
  tether_any_release(&previous);
  return 0;
}

/* ---- public API --------------------------------------------------------------------- */

static int tether__array_check(const char* fname, TVMFFIObjectHandle arr) {
  if (arr == NULL || ((TVMFFIObject*)arr)->type_index != kTVMFFIArray) {
    return tether_raise("TypeError", "%s: expected an ffi.Array handle, got %s", fname,
                        arr == NULL ? "NULL" : tether_type_key(((TVMFFIObject*)arr)->type_index));
  }
  return 0;
}

int tether_array_new(const TVMFFIAny* items, int64_t n, TVMFFIObjectHandle* out) {
  if (out == NULL || (items == NULL && n > 0) || n < 0) {
    return tether_raise("ValueError",
                        "tether_array_new: expected items for n >= 0 elements and non-NULL out");
  }
  TVMFFIObject* arr = NULL;
  if (tether__array_new(items, n, &arr) != 0) return tether__error_add_context("tether_array_new");
  *out = arr;
  return 0;
}

int tether_array_new_steal(TVMFFIAny* items, int64_t n, TVMFFIObjectHandle* out) {
  if (out == NULL || (items == NULL && n > 0) || n < 0) {
    if (items != NULL) {
      for (int64_t i = 0; i < n; ++i) tether_any_release(&items[i]);
    }
    return tether_raise("ValueError",
                        "tether_array_new_steal: expected items for n >= 0 elements and non-NULL "
                        "out");
  }
  TVMFFIObject* arr = NULL;
  if (tether__array_new_steal(items, n, &arr) != 0) {
    return tether__error_add_context("tether_array_new_steal");
  }
  *out = arr;
  return 0;
}

int64_t tether_array_size(TVMFFIObjectHandle arr) {
  if (tether__array_check("tether_array_size", arr) != 0) return -1;
  return tether__array_size(arr);
}

const TVMFFIAny* tether_array_at(TVMFFIObjectHandle arr, int64_t i) {
  if (arr == NULL || ((TVMFFIObject*)arr)->type_index != kTVMFFIArray) return NULL;
  return tether__array_get(arr, i);
}

int tether_array_get(TVMFFIObjectHandle arr, int64_t i, TVMFFIAny* out) {
  if (tether__array_check("tether_array_get", arr) != 0) return -1;
  if (out == NULL) return tether_raise("ValueError", "tether_array_get: argument `out` is NULL");
  const TVMFFIAny* item = tether__array_get(arr, i);
  if (item == NULL) {
    return tether_raise("IndexError", "Index %lld out of bounds %lld", (long long)i,
                        (long long)tether__array_size(arr));
  }
  tether_any_copy(item, out);
  return 0;
}

int tether_array_append(TVMFFIObjectHandle* arr, const TVMFFIAny* item) {
  if (arr == NULL) {
    return tether_raise("ValueError",
                        "tether_array_append: argument `arr` (the handle's address) is NULL");
  }
  if (tether__array_check("tether_array_append", *arr) != 0) return -1;
  /* A NULL or malformed item fails in TVMFFIAnyViewToOwnedAny: name this function. */
  if (tether__array_push((TVMFFIObject**)arr, item) != 0) {
    return tether__error_add_context("tether_array_append");
  }
  return 0;
}

int tether_array_set(TVMFFIObjectHandle* arr, int64_t i, const TVMFFIAny* item) {
  if (arr == NULL) {
    return tether_raise("ValueError",
                        "tether_array_set: argument `arr` (the handle's address) is NULL");
  }
  if (tether__array_check("tether_array_set", *arr) != 0) return -1;
  if (tether__array_set((TVMFFIObject**)arr, i, item) != 0) {
    return tether__error_add_context("tether_array_set");
  }
  return 0;
}

/* ---- globals -------------------------------------------------------------------------- */

static const char kArrayGetItemSig[] = "ffi.ArrayGetItem(0: ffi.Array, 1: int) -> Any";
static const char kArraySizeSig[] = "ffi.ArraySize(0: ffi.Array) -> int";
static const char kArrayContainsSig[] = "ffi.ArrayContains(0: ffi.Array, 1: Any) -> bool";

static int tether__g_array(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  TVMFFIObject* arr = NULL;
  /* A malformed argument fails inside TVMFFIAnyViewToOwnedAny: say it was ffi.Array. */
  if (tether__array_new(args, n, &arr) != 0) return tether__error_add_context("ffi.Array");
  *result = tether_any_object(arr);
  return 0;
}

static int tether__g_array_get_item(void* self, const TVMFFIAny* args, int32_t n,
                                    TVMFFIAny* result) {
  TVMFFIObject* arr = NULL;
  int64_t i = 0;
  /* Arguments are checked last to first, as the reference does. */
  if (tether_check_nargs(kArrayGetItemSig, NULL, n, 2) != 0 ||
      tether_arg_int(kArrayGetItemSig, args, 1, &i) != 0 ||
      tether__container_arg_object(kArrayGetItemSig, args, 0, kTVMFFIArray, "ffi.Array",
                                   &arr) != 0) {
    return -1;
  }
  const TVMFFIAny* item = tether__array_get(arr, i);
  if (item == NULL) {
    return tether_raise("IndexError", "Index %lld out of bounds %lld", (long long)i,
                        (long long)tether__array_size(arr));
  }
  tether_any_copy(item, result);
  return 0;
}

static int tether__g_array_size(void* self, const TVMFFIAny* args, int32_t n,
                                TVMFFIAny* result) {
  TVMFFIObject* arr = NULL;
  if (tether_check_nargs(kArraySizeSig, NULL, n, 1) != 0 ||
      tether__container_arg_object(kArraySizeSig, args, 0, kTVMFFIArray, "ffi.Array",
                                   &arr) != 0) {
    return -1;
  }
  *result = tether_any_int(tether__array_size(arr));
  return 0;
}

bool tether__seq_contains(const TVMFFIObject* seq, const TVMFFIAny* view) {
  tether__container_key_t key;
  tether__container_key_init(&key, view);
  const TVMFFISeqCell* cell = tether__seq_cell(seq);
  const TVMFFIAny* items = cell->data;
  for (int64_t i = 0; i < cell->size; ++i) {
    if (tether_any_equal(&items[i], &key.value)) return true;
  }
  return false;
}

static int tether__g_array_contains(void* self, const TVMFFIAny* args, int32_t n,
                                    TVMFFIAny* result) {
  TVMFFIObject* arr = NULL;
  if (tether_check_nargs(kArrayContainsSig, NULL, n, 2) != 0 ||
      tether__container_arg_object(kArrayContainsSig, args, 0, kTVMFFIArray, "ffi.Array",
                                   &arr) != 0) {
    return -1;
  }
  *result = tether_any_bool(tether__seq_contains(arr, &args[1]));
  return 0;
}

const tether__container_global_t tether__array_globals[] = {
    {"ffi.Array", tether__g_array, NULL, "Array(*items): a new Array of the arguments"},
    {"ffi.ArrayGetItem", tether__g_array_get_item, kArrayGetItemSig, "Element i of an Array"},
    {"ffi.ArraySize", tether__g_array_size, kArraySizeSig, "Number of elements of an Array"},
    {"ffi.ArrayContains", tether__g_array_contains, kArrayContainsSig,
     "true if an element of the Array equals the value"},
};
const size_t tether__array_num_globals =
    sizeof(tether__array_globals) / sizeof(tether__array_globals[0]);
