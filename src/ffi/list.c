/*
 * list.c -- ffi.List (type 75): a mutable sequence of owning TVMFFIAny values.
 *
 * Layout (tvm-ffi's ListObj): header + TVMFFISeqCell; the elements live in a separate
 * malloc'd buffer whose data_deleter is `free` (see list.h for why that must be
 * free-compatible).  All functions work through the cell, so Lists made by C++ code
 * are handled the same way.  Every mutator first takes owned copies of its inputs, so a
 * view pointing into the list itself (or the list passed as its own replacement) is safe.
 *
 * Also: the public tether_list_* functions and the ffi.List* globals.
 */
#include <stdint.h>

#include <tether/container.h>

#include "internal.h"
#include "array.h"
#include "container.h"
#include "error.h"
#include "list.h"
#include "object.h"

typedef struct {
  TVMFFIObject header;
  TVMFFISeqCell cell;
} tether_list_t;

#define TETHER_LIST_MIN_CAPACITY 4
#define TETHER_LIST_MAX_CAPACITY ((int64_t)(SIZE_MAX / 2 / sizeof(TVMFFIAny)))

static inline TVMFFIAny* tether__list_items(TVMFFIObject* list) {
  return tether__seq_cell(list)->data;
}

static int tether__index_error(int64_t i, int64_t size) {
  return tether_raise("IndexError", "Index %lld out of bounds %lld", (long long)i,
                      (long long)size);
}

static int tether__range_error(int64_t start, int64_t stop, int64_t size) {
  return tether_raise("IndexError", "Erase range [%lld, %lld) out of bounds %lld",
                      (long long)start, (long long)stop, (long long)size);
}

/* Destroys the elements and the buffer (Strong), frees the object (Weak). */
static void tether__list_deleter(void* self, int flags) {
  tether_list_t* list = self;
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) {
    TVMFFIAny* items = list->cell.data;
    for (int64_t i = 0; i < list->cell.size; ++i) tether_any_release(&items[i]);
    if (list->cell.data != NULL && list->cell.data_deleter != NULL) {
      list->cell.data_deleter(list->cell.data);
    }
    list->cell.data = NULL;
    list->cell.size = 0;
    list->cell.capacity = 0;
  }
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) tether__object_free(self);
}

int tether__list_reserve(TVMFFIObject* list, int64_t capacity) {
  TVMFFISeqCell* cell = tether__seq_cell(list);
  if (capacity <= cell->capacity) return 0;
  if (capacity > TETHER_LIST_MAX_CAPACITY) {
    return tether_raise("MemoryError", "ffi.List: cannot hold %lld elements", (long long)capacity);
  }
  int64_t grown = cell->capacity < TETHER_LIST_MAX_CAPACITY / 2 ? cell->capacity * 2
                                                                  : TETHER_LIST_MAX_CAPACITY;
  if (grown < TETHER_LIST_MIN_CAPACITY) grown = TETHER_LIST_MIN_CAPACITY;
  if (grown < capacity) grown = capacity;
  TVMFFIAny* buffer = malloc((size_t)grown * sizeof(TVMFFIAny));
  if (buffer == NULL) {
    return tether_raise("MemoryError", "ffi.List: out of memory growing to %lld elements",
                        (long long)grown);
  }
  if (cell->size > 0) memcpy(buffer, cell->data, (size_t)cell->size * sizeof(TVMFFIAny));
  /* The old buffer is released by the deleter it came with (C++'s for a C++ List). */
  if (cell->data != NULL && cell->data_deleter != NULL) cell->data_deleter(cell->data);
  cell->data = buffer;
  cell->capacity = grown;
  cell->data_deleter = free;
  return 0;
}

int tether__list_new(const TVMFFIAny* items, int64_t n, TVMFFIObject** out) {
  tether_list_t* list = tether__object_alloc(sizeof(tether_list_t), kTVMFFIList,
                                             tether__list_deleter);
  if (list == NULL) return -1;
  list->cell.data_deleter = free;
  if (tether__list_reserve(&list->header, n) != 0 ||
      tether__container_own_all(items, n, list->cell.data) != 0) {
    TVMFFIObjectDecRef(&list->header);
    return -1;
  }
  list->cell.size = n;
  *out = &list->header;
  return 0;
}

int tether__list_set(TVMFFIObject* list, int64_t i, const TVMFFIAny* item) {
  int64_t size = tether__list_size(list);
  if (i < 0 || i >= size) return tether__index_error(i, size);
  TVMFFIAny owned;
  if (TVMFFIAnyViewToOwnedAny(item, &owned) != 0) return -1;
  TVMFFIAny* slot = tether__list_items(list) + i;
  TVMFFIAny previous = *slot;
  *slot = owned;
  tether_any_release(&previous);
  return 0;
}

int tether__list_append_steal(TVMFFIObject* list, TVMFFIAny* item) {
  TVMFFISeqCell* cell = tether__seq_cell(list);
  if (tether__list_reserve(list, cell->size + 1) != 0) {
    tether_any_release(item);
    return -1;
  }
  ((TVMFFIAny*)cell->data)[cell->size++] = *item;
  *item = tether_any_none();
  return 0;
}

int tether__list_append(TVMFFIObject* list, const TVMFFIAny* item) {
  TVMFFIAny owned;
  if (TVMFFIAnyViewToOwnedAny(item, &owned) != 0) return -1;
  return tether__list_append_steal(list, &owned);
}

int tether__list_insert(TVMFFIObject* list, int64_t i, const TVMFFIAny* item) {
  TVMFFISeqCell* cell = tether__seq_cell(list);
  if (i < 0 || i > cell->size) {
    return tether_raise("IndexError", "Index %lld out of bounds [0, %lld]", (long long)i,
                        (long long)cell->size);
  }
  TVMFFIAny owned;
  if (TVMFFIAnyViewToOwnedAny(item, &owned) != 0) return -1;
  if (tether__list_reserve(list, cell->size + 1) != 0) {
    tether_any_release(&owned);
    return -1;
  }
  TVMFFIAny* items = cell->data;
  memmove(items + i + 1, items + i, (size_t)(cell->size - i) * sizeof(TVMFFIAny));
  items[i] = owned;
  cell->size++;
  return 0;
}

int tether__list_pop(TVMFFIObject* list, int64_t i, TVMFFIAny* out) {
  TVMFFISeqCell* cell = tether__seq_cell(list);
  if (i < 0 || i >= cell->size) return tether__index_error(i, cell->size);
  TVMFFIAny* items = cell->data;
  TVMFFIAny taken = items[i];
  memmove(items + i, items + i + 1, (size_t)(cell->size - i - 1) * sizeof(TVMFFIAny));
  cell->size--;
  if (out != NULL) {
    *out = taken;
  } else {
    tether_any_release(&taken);
  }
  return 0;
}

int tether__list_erase(TVMFFIObject* list, int64_t i) { return tether__list_pop(list, i, NULL); }

int tether__list_erase_range(TVMFFIObject* list, int64_t start, int64_t stop) {
  return tether__list_replace_slice(list, start, stop, NULL, 0);
}

int tether__list_replace_slice(TVMFFIObject* list, int64_t start, int64_t stop,
                               const TVMFFIAny* items, int64_t n) {
  TVMFFISeqCell* cell = tether__seq_cell(list);
  int64_t size = cell->size;
  if (start < 0 || start > stop || stop > size) return tether__range_error(start, stop, size);
  if (n < 0) return tether_raise("ValueError", "ffi.ListReplaceSlice: negative item count");
  /* Own the new items before touching the list: they may be views into it. */
  TVMFFIAny* fresh = NULL;
  if (n > 0) {
    fresh = malloc((size_t)n * sizeof(TVMFFIAny));
    if (fresh == NULL) {
      return tether_raise("MemoryError", "ffi.ListReplaceSlice: out of memory for %lld items",
                          (long long)n);
    }
    if (tether__container_own_all(items, n, fresh) != 0) {
      free(fresh);
      return -1;
    }
  }
  int64_t removed = stop - start;
  if (n > removed && tether__list_reserve(list, size - removed + n) != 0) {
    for (int64_t i = 0; i < n; ++i) tether_any_release(&fresh[i]);
    free(fresh);
    return -1;
  }
  TVMFFIAny* data = cell->data;
  /* Detach the removed values before releasing them, so that the list is consistent if
   * a release runs code that looks at it. */
  TVMFFIAny* dropped = NULL;
  if (removed > 0) {
    dropped = malloc((size_t)removed * sizeof(TVMFFIAny));
    if (dropped == NULL) {
      for (int64_t i = 0; i < n; ++i) tether_any_release(&fresh[i]);
      free(fresh);
      return tether_raise("MemoryError", "ffi.ListReplaceSlice: out of memory");
    }
    memcpy(dropped, data + start, (size_t)removed * sizeof(TVMFFIAny));
  }
  if (stop < size) {
    memmove(data + start + n, data + stop, (size_t)(size - stop) * sizeof(TVMFFIAny));
  }
  if (n > 0) memcpy(data + start, fresh, (size_t)n * sizeof(TVMFFIAny));
  cell->size = size - removed + n;
  free(fresh);
  for (int64_t i = 0; i < removed; ++i) tether_any_release(&dropped[i]);
  free(dropped);
  return 0;
}

void tether__list_reverse(TVMFFIObject* list) {
  TVMFFISeqCell* cell = tether__seq_cell(list);
  TVMFFIAny* items = cell->data;
  for (int64_t i = 0, j = cell->size - 1; i < j; ++i, --j) {
    TVMFFIAny t = items[i];
    items[i] = items[j];
    items[j] = t;
  }
}

void tether__list_clear(TVMFFIObject* list) {
  (void)tether__list_erase_range(list, 0, tether__list_size(list));
}

/* ---- public API --------------------------------------------------------------------- */

static int tether__list_check(const char* fname, TVMFFIObjectHandle list) {
  if (list == NULL || ((TVMFFIObject*)list)->type_index != kTVMFFIList) {
    return tether_raise("TypeError", "%s: expected an ffi.List handle, got %s", fname,
                        list == NULL ? "NULL" : tether_type_key(((TVMFFIObject*)list)->type_index));
  }
  return 0;
}

int tether_list_new(const TVMFFIAny* items, int64_t n, TVMFFIObjectHandle* out) {
  if (out == NULL || (items == NULL && n > 0) || n < 0) {
    return tether_raise("ValueError",
                        "tether_list_new: expected items for n >= 0 elements and non-NULL out");
  }
  TVMFFIObject* list = NULL;
  if (tether__list_new(items, n, &list) != 0) return tether__error_add_context("tether_list_new");
  *out = list;
  return 0;
}

int64_t tether_list_size(TVMFFIObjectHandle list) {
  if (tether__list_check("tether_list_size", list) != 0) return -1;
  return tether__list_size(list);
}

const TVMFFIAny* tether_list_at(TVMFFIObjectHandle list, int64_t i) {
  if (list == NULL || ((TVMFFIObject*)list)->type_index != kTVMFFIList) return NULL;
  return tether__list_get(list, i);
}

int tether_list_get(TVMFFIObjectHandle list, int64_t i, TVMFFIAny* out) {
  if (tether__list_check("tether_list_get", list) != 0) return -1;
  if (out == NULL) return tether_raise("ValueError", "tether_list_get: argument `out` is NULL");
  const TVMFFIAny* item = tether__list_get(list, i);
  if (item == NULL) return tether__index_error(i, tether__list_size(list));
  tether_any_copy(item, out);
  return 0;
}

int tether_list_set(TVMFFIObjectHandle list, int64_t i, const TVMFFIAny* item) {
  if (tether__list_check("tether_list_set", list) != 0) return -1;
  /* A NULL or malformed item fails in TVMFFIAnyViewToOwnedAny: name this function. */
  if (tether__list_set(list, i, item) != 0) return tether__error_add_context("tether_list_set");
  return 0;
}

int tether_list_append(TVMFFIObjectHandle list, const TVMFFIAny* item) {
  if (tether__list_check("tether_list_append", list) != 0) return -1;
  /* A NULL or malformed item fails in TVMFFIAnyViewToOwnedAny: name this function. */
  if (tether__list_append(list, item) != 0) return tether__error_add_context("tether_list_append");
  return 0;
}

int tether_list_insert(TVMFFIObjectHandle list, int64_t i, const TVMFFIAny* item) {
  if (tether__list_check("tether_list_insert", list) != 0) return -1;
  /* A NULL or malformed item fails in TVMFFIAnyViewToOwnedAny: name this function. */
  if (tether__list_insert(list, i, item) != 0) return tether__error_add_context("tether_list_insert");
  return 0;
}

int tether_list_pop(TVMFFIObjectHandle list, int64_t i, TVMFFIAny* out) {
  if (tether__list_check("tether_list_pop", list) != 0) return -1;
  return tether__list_pop(list, i, out);
}

int tether_list_erase_range(TVMFFIObjectHandle list, int64_t start, int64_t stop) {
  if (tether__list_check("tether_list_erase_range", list) != 0) return -1;
  return tether__list_erase_range(list, start, stop);
}

int tether_list_replace_slice(TVMFFIObjectHandle list, int64_t start, int64_t stop,
                              const TVMFFIAny* items, int64_t n) {
  if (tether__list_check("tether_list_replace_slice", list) != 0) return -1;
  if (n < 0 || (items == NULL && n > 0)) {
    return tether_raise("ValueError", "tether_list_replace_slice: expected n >= 0 items");
  }
  if (tether__list_replace_slice(list, start, stop, items, n) != 0) {
    return tether__error_add_context("tether_list_replace_slice");
  }
  return 0;
}

int tether_list_reverse(TVMFFIObjectHandle list) {
  if (tether__list_check("tether_list_reverse", list) != 0) return -1;
  tether__list_reverse(list);
  return 0;
}

int tether_list_clear(TVMFFIObjectHandle list) {
  if (tether__list_check("tether_list_clear", list) != 0) return -1;
  tether__list_clear(list);
  return 0;
}

/* ---- globals -------------------------------------------------------------------------- */

/* The reference spells a mutable List parameter "List<Any>" and a read-only one "ffi.List". */
#define TETHER_LIST_RO "ffi.List"
#define TETHER_LIST_RW "List<Any>"

static const char kGetItemSig[] = "ffi.ListGetItem(0: ffi.List, 1: int) -> Any";
static const char kSetItemSig[] = "ffi.ListSetItem(0: List<Any>, 1: int, 2: Any) -> void";
static const char kSizeSig[] = "ffi.ListSize(0: ffi.List) -> int";
static const char kContainsSig[] = "ffi.ListContains(0: ffi.List, 1: Any) -> bool";
static const char kAppendSig[] = "ffi.ListAppend(0: List<Any>, 1: Any) -> void";
static const char kInsertSig[] = "ffi.ListInsert(0: List<Any>, 1: int, 2: Any) -> void";
static const char kPopSig[] = "ffi.ListPop(0: List<Any>, 1: int) -> Any";
static const char kEraseSig[] = "ffi.ListErase(0: List<Any>, 1: int) -> void";
static const char kEraseRangeSig[] = "ffi.ListEraseRange(0: List<Any>, 1: int, 2: int) -> void";
static const char kReplaceSliceSig[] =
    "ffi.ListReplaceSlice(0: List<Any>, 1: int, 2: int, 3: List<Any>) -> void";
static const char kReverseSig[] = "ffi.ListReverse(0: List<Any>) -> void";
static const char kClearSig[] = "ffi.ListClear(0: List<Any>) -> void";

/* Checks the count and argument 0 (the list) of a fixed-arity List global.  Like the
 * reference, globals check their arguments last to first, so callers check the other
 * arguments (with `arity` already known to match) before calling this for argument 0. */
static int tether__list_arg0(const char* sig, const char* expected, const TVMFFIAny* args,
                             TVMFFIObject** list) {
  return tether__container_arg_object(sig, args, 0, kTVMFFIList, expected, list);
}

static int tether__g_list(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  TVMFFIObject* list = NULL;
  /* A malformed argument fails inside TVMFFIAnyViewToOwnedAny: say it was ffi.List. */
  if (tether__list_new(args, n, &list) != 0) return tether__error_add_context("ffi.List");
  *result = tether_any_object(list);
  return 0;
}

static int tether__g_get_item(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  TVMFFIObject* list = NULL;
  int64_t i = 0;
  if (tether_check_nargs(kGetItemSig, NULL, n, 2) != 0 ||
      tether_arg_int(kGetItemSig, args, 1, &i) != 0 ||
      tether__list_arg0(kGetItemSig, TETHER_LIST_RO, args, &list) != 0) {
    return -1;
  }
  const TVMFFIAny* item = tether__list_get(list, i);
  if (item == NULL) return tether__index_error(i, tether__list_size(list));
  tether_any_copy(item, result);
  return 0;
}

static int tether__g_set_item(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  TVMFFIObject* list = NULL;
  int64_t i = 0;
  if (tether_check_nargs(kSetItemSig, NULL, n, 3) != 0 ||
      tether_arg_int(kSetItemSig, args, 1, &i) != 0 ||
      tether__list_arg0(kSetItemSig, TETHER_LIST_RW, args, &list) != 0) {
    return -1;
  }
  /* Value conversion errors name TVMFFIAnyViewToOwnedAny: add which global it was. */
  if (tether__list_set(list, i, &args[2]) != 0) return tether__error_add_context("ffi.ListSetItem");
  return 0;
}

static int tether__g_size(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  TVMFFIObject* list = NULL;
  if (tether_check_nargs(kSizeSig, NULL, n, 1) != 0 ||
      tether__list_arg0(kSizeSig, TETHER_LIST_RO, args, &list) != 0) {
    return -1;
  }
  *result = tether_any_int(tether__list_size(list));
  return 0;
}

static int tether__g_contains(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  TVMFFIObject* list = NULL;
  if (tether_check_nargs(kContainsSig, NULL, n, 2) != 0 ||
      tether__list_arg0(kContainsSig, TETHER_LIST_RO, args, &list) != 0) {
    return -1;
  }
  *result = tether_any_bool(tether__seq_contains(list, &args[1]));
  return 0;
}

static int tether__g_append(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  TVMFFIObject* list = NULL;
  if (tether_check_nargs(kAppendSig, NULL, n, 2) != 0 ||
      tether__list_arg0(kAppendSig, TETHER_LIST_RW, args, &list) != 0) {
    return -1;
  }
  if (tether__list_append(list, &args[1]) != 0) return tether__error_add_context("ffi.ListAppend");
  return 0;
}

static int tether__g_insert(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  TVMFFIObject* list = NULL;
  int64_t i = 0;
  if (tether_check_nargs(kInsertSig, NULL, n, 3) != 0 ||
      tether_arg_int(kInsertSig, args, 1, &i) != 0 ||
      tether__list_arg0(kInsertSig, TETHER_LIST_RW, args, &list) != 0) {
    return -1;
  }
  if (tether__list_insert(list, i, &args[2]) != 0) return tether__error_add_context("ffi.ListInsert");
  return 0;
}

static int tether__g_pop(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  TVMFFIObject* list = NULL;
  int64_t i = 0;
  if (tether_check_nargs(kPopSig, NULL, n, 2) != 0 ||
      tether_arg_int(kPopSig, args, 1, &i) != 0 ||
      tether__list_arg0(kPopSig, TETHER_LIST_RW, args, &list) != 0) {
    return -1;
  }
  return tether__list_pop(list, i, result);
}

static int tether__g_erase(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  TVMFFIObject* list = NULL;
  int64_t i = 0;
  if (tether_check_nargs(kEraseSig, NULL, n, 2) != 0 ||
      tether_arg_int(kEraseSig, args, 1, &i) != 0 ||
      tether__list_arg0(kEraseSig, TETHER_LIST_RW, args, &list) != 0) {
    return -1;
  }
  return tether__list_erase(list, i);
}

static int tether__g_erase_range(void* self, const TVMFFIAny* args, int32_t n,
                                 TVMFFIAny* result) {
  TVMFFIObject* list = NULL;
  int64_t start = 0, stop = 0;
  if (tether_check_nargs(kEraseRangeSig, NULL, n, 3) != 0 ||
      tether_arg_int(kEraseRangeSig, args, 2, &stop) != 0 ||
      tether_arg_int(kEraseRangeSig, args, 1, &start) != 0 ||
      tether__list_arg0(kEraseRangeSig, TETHER_LIST_RW, args, &list) != 0) {
    return -1;
  }
  return tether__list_erase_range(list, start, stop);
}

static int tether__g_replace_slice(void* self, const TVMFFIAny* args, int32_t n,
                                   TVMFFIAny* result) {
  TVMFFIObject* list = NULL;
  TVMFFIObject* source = NULL;
  int64_t start = 0, stop = 0;
  if (tether_check_nargs(kReplaceSliceSig, NULL, n, 4) != 0 ||
      tether__container_arg_object(kReplaceSliceSig, args, 3, kTVMFFIList, TETHER_LIST_RW,
                                   &source) != 0 ||
      tether_arg_int(kReplaceSliceSig, args, 2, &stop) != 0 ||
      tether_arg_int(kReplaceSliceSig, args, 1, &start) != 0 ||
      tether__list_arg0(kReplaceSliceSig, TETHER_LIST_RW, args, &list) != 0) {
    return -1;
  }
  /* `source` may be `list` itself: replace_slice owns its inputs before changing anything. */
  return tether__list_replace_slice(list, start, stop, tether__seq_cell(source)->data,
                                    tether__list_size(source));
}

static int tether__g_reverse(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  TVMFFIObject* list = NULL;
  if (tether_check_nargs(kReverseSig, NULL, n, 1) != 0 ||
      tether__list_arg0(kReverseSig, TETHER_LIST_RW, args, &list) != 0) {
    return -1;
  }
  tether__list_reverse(list);
  return 0;
}

static int tether__g_clear(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  TVMFFIObject* list = NULL;
  if (tether_check_nargs(kClearSig, NULL, n, 1) != 0 ||
      tether__list_arg0(kClearSig, TETHER_LIST_RW, args, &list) != 0) {
    return -1;
  }
  tether__list_clear(list);
  return 0;
}

const tether__container_global_t tether__list_globals[] = {
    {"ffi.List", tether__g_list, NULL, "List(*items): a new List of the arguments"},
    {"ffi.ListGetItem", tether__g_get_item, kGetItemSig, "Element i of a List"},
    {"ffi.ListSetItem", tether__g_set_item, kSetItemSig, "Stores a value at index i"},
    {"ffi.ListSize", tether__g_size, kSizeSig, "Number of elements of a List"},
    {"ffi.ListContains", tether__g_contains, kContainsSig,
     "true if an element of the List equals the value"},
    {"ffi.ListAppend", tether__g_append, kAppendSig, "Appends a value"},
    {"ffi.ListInsert", tether__g_insert, kInsertSig, "Inserts a value before index i"},
    {"ffi.ListPop", tether__g_pop, kPopSig, "Removes and returns element i"},
    {"ffi.ListErase", tether__g_erase, kEraseSig, "Removes element i"},
    {"ffi.ListEraseRange", tether__g_erase_range, kEraseRangeSig, "Removes [start, stop)"},
    {"ffi.ListReplaceSlice", tether__g_replace_slice, kReplaceSliceSig,
     "Replaces [start, stop) with the elements of another List (which may be the same)"},
    {"ffi.ListReverse", tether__g_reverse, kReverseSig, "Reverses the List in place"},
    {"ffi.ListClear", tether__g_clear, kClearSig, "Removes every element"},
};
const size_t tether__list_num_globals =
    sizeof(tether__list_globals) / sizeof(tether__list_globals[0]);
