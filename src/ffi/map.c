/*
 * map.c -- ffi.Map (type 72) and ffi.Dict (type 76): hash maps keyed by Any, iterated in
 * insertion order.  A Map is a copy-on-write value, a Dict is mutated in place; both share
 * this one layout, which is private to this file (see map.h).
 *
 * Layout: `entries` holds (key, value, hash) in insertion order; an erased entry stays in
 * place with its key's type index set to TETHER_MAP_ERASED, so erasing keeps the order of
 * the others.  `slots` is an open-addressing index (Fibonacci hashing, linear probing)
 * whose cells hold 0 (empty), 1 (erased) or e + 2 for entries[e].
 *
 * Invariants:
 *   - size <= used <= capacity and nslots (= slot_mask + 1) >= 2 * capacity, a power of two;
 *   - non-empty slots <= used, so probing always reaches an empty slot;
 *   - every live entry is reachable from its home slot without crossing an empty slot;
 *   - a map with capacity 0 has entries == slots == NULL.
 * When `used` reaches `capacity` the entries are compacted into a new array (same capacity
 * if at least half of them are erased, doubled otherwise) and the index is rebuilt.
 *
 * Also: the public tether_map_* / tether_dict_* functions and the ffi.Map* / ffi.Dict*
 * globals.
 */
#include <stddef.h>
#include <stdint.h>

#include <tether/container.h>

#include "internal.h"
#include "array.h"
#include "container.h"
#include "error.h"
#include "function.h"
#include "list.h"
#include "map.h"
#include "object.h"

#define TETHER_MAP_ERASED kTVMFFIAny /* type index of an erased entry's key */
#define TETHER_MAP_SLOT_EMPTY 0u
#define TETHER_MAP_SLOT_ERASED 1u
#define TETHER_MAP_MIN_CAPACITY 4
/* Entry indices must fit the uint32 slots (minus the two markers). */
#define TETHER_MAP_MAX_CAPACITY ((int64_t)1 << 31)
#define TETHER_MAP_FIB UINT64_C(11400714819323198485)

typedef struct {
  TVMFFIAny key;
  TVMFFIAny value;
  uint64_t hash;
} tether_map_entry_t;

typedef struct {
  TVMFFIObject header;
  tether_map_entry_t* entries;
  int64_t size;
  int64_t used;
  int64_t capacity;
  uint32_t* slots;
  uint64_t slot_mask;
  int slot_shift;
} tether_map_t;

static inline tether_map_t* tether__map(const TVMFFIObject* obj) { return (tether_map_t*)obj; }

static inline bool tether__entry_live(const tether_map_entry_t* e) {
  return e->key.type_index != TETHER_MAP_ERASED;
}

static inline uint64_t tether__map_home(const tether_map_t* m, uint64_t hash) {
  return (hash * TETHER_MAP_FIB) >> m->slot_shift;
}

static void tether__map_deleter(void* self, int flags) {
  tether_map_t* m = self;
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) {
    for (int64_t i = 0; i < m->used; ++i) {
      if (!tether__entry_live(&m->entries[i])) continue;
      tether_any_release(&m->entries[i].key);
      tether_any_release(&m->entries[i].value);
    }
    free(m->entries);
    free(m->slots);
    m->entries = NULL;
    m->slots = NULL;
    m->size = m->used = m->capacity = 0;
  }
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) tether__object_free(self);
}

bool tether__map_native(const TVMFFIObject* obj) {
  return tether__map_is_map(obj) && obj->deleter == tether__map_deleter;
}

/*
 * Maps built by C++ code from tvm-ffi's headers, read in place (tvm-ffi's MapBaseObj:
 * data, size, slots, data deleter).  The small layout (top bit of `slots` set) keeps
 * `size` (key, value) pairs at `data`, in insertion order.  The dense layout keeps blocks
 * of 16 metadata bytes followed by 16 items {key, value, prev, next}; items are chained in
 * insertion order from `head` through `next` (UINT64_MAX ends the chain).
 */
typedef struct {
  TVMFFIObject header;
  void* data;
  uint64_t size;
  uint64_t slots;
  void (*data_deleter)(void*);
  uint32_t fib_shift; /* dense only, from here on */
  uint64_t head;
  uint64_t tail;
} tether_cxx_map_t;

typedef struct {
  TVMFFIAny key;
  TVMFFIAny value;
  uint64_t prev;
  uint64_t next;
} tether_cxx_item_t;

_Static_assert(offsetof(tether_cxx_map_t, data) == 24 && offsetof(tether_cxx_map_t, slots) == 40 &&
                   offsetof(tether_cxx_map_t, head) == 64,
               "tvm-ffi's MapBaseObj / DenseMapBaseObj layout");
_Static_assert(sizeof(tether_cxx_item_t) == 48, "tvm-ffi's dense map item");

#define TETHER_CXX_SMALL_TAG (UINT64_C(1) << 63)
#define TETHER_CXX_NO_ITEM UINT64_MAX
#define TETHER_CXX_BLOCK_CAP 16

static tether_cxx_item_t* tether__cxx_item(const tether_cxx_map_t* m, uint64_t index) {
  char* block = (char*)m->data + (index / TETHER_CXX_BLOCK_CAP) *
                                     (TETHER_CXX_BLOCK_CAP * (1 + sizeof(tether_cxx_item_t)));
  return (tether_cxx_item_t*)(block + TETHER_CXX_BLOCK_CAP +
                              (index % TETHER_CXX_BLOCK_CAP) * sizeof(tether_cxx_item_t));
}

/* tether__map_next for C++ maps: small maps use pos as the pair index; dense maps keep
 * 0 = start, index + 1 = the item to read next, -1 = done. */
static bool tether__cxx_map_next(const TVMFFIObject* map, int64_t* pos, const TVMFFIAny** key,
                                 const TVMFFIAny** value) {
  const tether_cxx_map_t* m = (const tether_cxx_map_t*)map;
  if (*pos < 0) return false;
  if (m->slots & TETHER_CXX_SMALL_TAG) {
    if ((uint64_t)*pos >= m->size) return false;
    const TVMFFIAny* kv = (const TVMFFIAny*)m->data + 2 * *pos;
    if (key != NULL) *key = &kv[0];
    if (value != NULL) *value = &kv[1];
    *pos += 1;
    return true;
  }
  uint64_t index = *pos == 0 ? m->head : (uint64_t)*pos - 1;
  if (index == TETHER_CXX_NO_ITEM || m->size == 0) {
    *pos = -1;
    return false;
  }
  const tether_cxx_item_t* item = tether__cxx_item(m, index);
  if (key != NULL) *key = &item->key;
  if (value != NULL) *value = &item->value;
  *pos = item->next == TETHER_CXX_NO_ITEM ? -1 : (int64_t)item->next + 1;
  return true;
}

/* A C++ small-layout map object with its pairs stored after it; released pairs first. */
static void tether__cxx_small_deleter(void* self, int flags) {
  tether_cxx_map_t* m = self;
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) {
    TVMFFIAny* kv = m->data;
    for (uint64_t i = 0; i < 2 * m->size; ++i) tether_any_release(&kv[i]);
    m->size = 0;
  }
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) tether__object_free(self);
}

int tether__map_new_cxx(int32_t type_index, TVMFFIAny* kvs, int64_t n, TVMFFIObject** out) {
  size_t header = (sizeof(tether_cxx_map_t) + 15) & ~(size_t)15;
  tether_cxx_map_t* m = NULL;
  if (n >= 0 && (uint64_t)n < (UINT64_C(1) << 40)) {
    m = tether__object_alloc(header + 2 * (size_t)n * sizeof(TVMFFIAny), type_index,
                             tether__cxx_small_deleter);
  }
  if (m == NULL) {
    for (int64_t i = 0; i < 2 * n; ++i) tether_any_release(&kvs[i]);
    return n < 0 ? tether_raise("ValueError", "tether__map_new_cxx: negative size") : -1;
  }
  m->data = (char*)m + header;
  memcpy(m->data, kvs, 2 * (size_t)n * sizeof(TVMFFIAny));
  for (int64_t i = 0; i < 2 * n; ++i) kvs[i] = tether_any_none();
  m->size = (uint64_t)n;
  m->slots = (uint64_t)n | TETHER_CXX_SMALL_TAG;
  m->data_deleter = NULL;
  *out = &m->header;
  return 0;
}

/* ---- handing values to C++ code built from tvm-ffi's headers ---------------------------- */

static bool tether__is_container(const TVMFFIAny* v) {
  int32_t ti = v->type_index;
  return (ti == kTVMFFIMap || ti == kTVMFFIDict || ti == kTVMFFIArray || ti == kTVMFFIList) &&
         v->v_obj != NULL;
}

static bool tether__needs_cxx(const TVMFFIAny* v, int depth) {
  if (!tether__is_container(v) || depth > TETHER_CXX_LAYOUT_DEPTH) return false;
  if (tether__map_is_map(v->v_obj)) {
    if (tether__map_native(v->v_obj)) return true;
    int64_t pos = 0;
    const TVMFFIAny *key, *value;
    while (tether__map_next(v->v_obj, &pos, &key, &value)) {
      if ((key != NULL && tether__needs_cxx(key, depth + 1)) ||
          (value != NULL && tether__needs_cxx(value, depth + 1))) {
        return true;
      }
    }
    return false;
  }
  const TVMFFISeqCell* cell = TETHER_CELL(TVMFFISeqCell, v->v_obj);
  const TVMFFIAny* items = cell->data;
  for (int64_t i = 0; i < cell->size; ++i) {
    if (tether__needs_cxx(&items[i], depth + 1)) return true;
  }
  return false;
}

bool tether__any_needs_cxx_layout(const TVMFFIAny* v) { return tether__needs_cxx(v, 0); }

static int tether__to_cxx(const TVMFFIAny* v, int depth, TVMFFIAny* out) {
  if (!tether__needs_cxx(v, depth)) return TVMFFIAnyViewToOwnedAny(v, out);
  TVMFFIObject* obj = v->v_obj;
  bool is_map = tether__map_is_map(obj);
  int64_t n = is_map ? tether__map_size(obj) : TETHER_CELL(TVMFFISeqCell, obj)->size;
  size_t slots = (size_t)n * (is_map ? 2 : 1);
  TVMFFIAny* items = calloc(slots > 0 ? slots : 1, sizeof(TVMFFIAny)); /* all None */
  if (items == NULL) return tether_raise("MemoryError", "tether__any_to_cxx_layout: out of memory");
  int rc = 0;
  int64_t done = 0;
  if (is_map) {
    int64_t pos = 0;
    const TVMFFIAny *key, *value;
    while (rc == 0 && done < n && tether__map_next(obj, &pos, &key, &value)) {
      TVMFFIAny none = tether_any_none();
      rc = tether__to_cxx(key != NULL ? key : &none, depth + 1, &items[2 * done]);
      if (rc == 0) rc = tether__to_cxx(value != NULL ? value : &none, depth + 1, &items[2 * done + 1]);
      ++done;
    }
  } else {
    const TVMFFIAny* src = TETHER_CELL(TVMFFISeqCell, obj)->data;
    for (; rc == 0 && done < n; ++done) rc = tether__to_cxx(&src[done], depth + 1, &items[done]);
  }
  TVMFFIObject* made = NULL;
  if (rc == 0) {
    if (is_map) {
      rc = tether__map_new_cxx(v->type_index, items, done, &made); /* takes the pairs */
    } else if (v->type_index == kTVMFFIArray) {
      rc = tether__array_new_steal(items, done, &made);
    } else {
      rc = tether__list_new(items, done, &made);
    }
  }
  for (size_t i = 0; i < slots; ++i) tether_any_release(&items[i]);
  free(items);
  if (rc == 0) *out = tether_any_object(made);
  return rc;
}

int tether__any_to_cxx_layout(const TVMFFIAny* v, TVMFFIAny* out) {
  return tether__to_cxx(v, 0, out);
}

/* The slot holding `key` (already normalised, with hash `hash`), or -1. */
static int64_t tether__map_find_slot(const tether_map_t* m, const TVMFFIAny* key, uint64_t hash) {
  if (m->size == 0) return -1;
  uint64_t i = tether__map_home(m, hash);
  for (;;) {
    uint32_t s = m->slots[i];
    if (s == TETHER_MAP_SLOT_EMPTY) return -1;
    if (s != TETHER_MAP_SLOT_ERASED) {
      const tether_map_entry_t* e = &m->entries[s - 2];
      if (e->hash == hash && tether_any_equal(&e->key, key)) return (int64_t)i;
    }
    i = (i + 1) & m->slot_mask;
  }
}

/* A free slot (empty or erased) for a key known to be absent. */
static uint64_t tether__map_free_slot(const tether_map_t* m, uint64_t hash) {
  uint64_t i = tether__map_home(m, hash);
  while (m->slots[i] > TETHER_MAP_SLOT_ERASED) i = (i + 1) & m->slot_mask;
  return i;
}

/* Replaces the storage by a compacted copy with room for `capacity` entries (>= size). */
static int tether__map_rebuild(tether_map_t* m, int64_t capacity) {
  if (capacity < TETHER_MAP_MIN_CAPACITY) capacity = TETHER_MAP_MIN_CAPACITY;
  if (capacity > TETHER_MAP_MAX_CAPACITY) {
    return tether_raise("MemoryError", "ffi.Map: cannot hold more than %lld entries",
                        (long long)TETHER_MAP_MAX_CAPACITY);
  }
  uint64_t nslots = 8;
  int shift = 61;
  while (nslots < 2 * (uint64_t)capacity) {
    nslots <<= 1;
    shift--;
  }
  tether_map_entry_t* entries = malloc((size_t)capacity * sizeof(tether_map_entry_t));
  uint32_t* slots = calloc((size_t)nslots, sizeof(uint32_t));
  if (entries == NULL || slots == NULL) {
    free(entries);
    free(slots);
    return tether_raise("MemoryError", "ffi.Map: out of memory growing to %lld entries",
                        (long long)capacity);
  }
  int64_t n = 0;
  for (int64_t i = 0; i < m->used; ++i) {
    if (tether__entry_live(&m->entries[i])) entries[n++] = m->entries[i];
  }
  free(m->entries);
  free(m->slots);
  m->entries = entries;
  m->slots = slots;
  m->capacity = capacity;
  m->used = n;
  m->slot_mask = nslots - 1;
  m->slot_shift = shift;
  for (int64_t e = 0; e < n; ++e) {
    slots[tether__map_free_slot(m, entries[e].hash)] = (uint32_t)(e + 2);
  }
  return 0;
}

int tether__map_new(int32_t type_index, int64_t capacity, TVMFFIObject** out) {
  tether_map_t* m = tether__object_alloc(sizeof(tether_map_t), type_index, tether__map_deleter);
  if (m == NULL) return -1;
  if (capacity > 0 && tether__map_rebuild(m, capacity) != 0) {
    TVMFFIObjectDecRef(&m->header);
    return -1;
  }
  *out = &m->header;
  return 0;
}

int64_t tether__map_size(const TVMFFIObject* map) {
  if (!tether__map_native(map)) return (int64_t)((const tether_cxx_map_t*)map)->size;
  return tether__map(map)->size;
}

const TVMFFIAny* tether__map_get(const TVMFFIObject* map, const TVMFFIAny* key) {
  if (!tether__map_native(map)) {
    /* C++ maps: a scan (their hashing is C++'s; equality is the same AnyEqual) */
    int64_t pos = 0;
    const TVMFFIAny *k, *v;
    while (tether__cxx_map_next(map, &pos, &k, &v)) {
      if (tether_any_equal(k, key)) return v;
    }
    return NULL;
  }
  const tether_map_t* m = tether__map(map);
  if (m->size == 0) return NULL;
  tether__container_key_t k;
  tether__container_key_init(&k, key);
  int64_t slot = tether__map_find_slot(m, &k.value, tether_any_hash(&k.value));
  return slot < 0 ? NULL : &m->entries[m->slots[slot] - 2].value;
}

/* Appends a key known to be absent (both owned; stolen, even on error). */
static int tether__map_append_steal(tether_map_t* m, TVMFFIAny* key, TVMFFIAny* value,
                                    uint64_t hash) {
  if (m->used == m->capacity) {
    int64_t capacity = m->size <= m->capacity / 2 ? m->capacity : m->capacity * 2;
    if (tether__map_rebuild(m, capacity) != 0) {
      tether_any_release(key);
      tether_any_release(value);
      return -1;
    }
  }
  tether_map_entry_t* e = &m->entries[m->used];
  e->key = *key;
  e->value = *value;
  e->hash = hash;
  m->slots[tether__map_free_slot(m, hash)] = (uint32_t)(m->used + 2);
  m->used++;
  m->size++;
  *key = tether_any_none();
  *value = tether_any_none();
  return 0;
}

int tether__map_set_steal(TVMFFIObject* map, TVMFFIAny* key, TVMFFIAny* value) {
  tether_map_t* m = tether__map(map);
  uint64_t hash = tether_any_hash(key);
  int64_t slot = tether__map_find_slot(m, key, hash);
  if (slot >= 0) {
    /* Overwrite: the entry keeps its original key and its place in the order. */
    tether_map_entry_t* e = &m->entries[m->slots[slot] - 2];
    TVMFFIAny previous = e->value;
    e->value = *value;
    *value = tether_any_none();
    tether_any_release(&previous);
    tether_any_release(key);
    return 0;
  }
  return tether__map_append_steal(m, key, value, hash);
}

int tether__map_set(TVMFFIObject* map, const TVMFFIAny* key, const TVMFFIAny* value) {
  TVMFFIAny k, v;
  if (TVMFFIAnyViewToOwnedAny(key, &k) != 0) return -1;
  if (TVMFFIAnyViewToOwnedAny(value, &v) != 0) {
    tether_any_release(&k);
    return -1;
  }
  return tether__map_set_steal(map, &k, &v);
}

int tether__map_erase(TVMFFIObject* map, const TVMFFIAny* key) {
  tether_map_t* m = tether__map(map);
  if (m->size == 0) return 0;
  tether__container_key_t k;
  tether__container_key_init(&k, key);
  int64_t slot = tether__map_find_slot(m, &k.value, tether_any_hash(&k.value));
  if (slot < 0) return 0;
  tether_map_entry_t* e = &m->entries[m->slots[slot] - 2];
  TVMFFIAny old_key = e->key, old_value = e->value;
  e->key = tether_any_none();
  e->key.type_index = TETHER_MAP_ERASED;
  e->value = tether_any_none();
  m->slots[slot] = TETHER_MAP_SLOT_ERASED;
  m->size--;
  if (m->size == 0) {
    /* Empty again: forget the erased entries and their slot marks. */
    m->used = 0;
    memset(m->slots, 0, (size_t)(m->slot_mask + 1) * sizeof(uint32_t));
  }
  /* Released last: a destructor that looks at the map sees it consistent. */
  tether_any_release(&old_key);
  tether_any_release(&old_value);
  return 1;
}

void tether__map_clear(TVMFFIObject* map) {
  tether_map_t* m = tether__map(map);
  int64_t used = m->used;
  tether_map_entry_t* entries = m->entries;
  if (used == 0) return;
  /* Detach the entries first, then release them. */
  tether_map_entry_t* fresh = malloc((size_t)m->capacity * sizeof(tether_map_entry_t));
  if (fresh == NULL) {
    /* No memory for a detached array: release in place (still correct, just less
     * careful about destructors that inspect this map). */
    for (int64_t i = 0; i < used; ++i) {
      if (!tether__entry_live(&entries[i])) continue;
      tether_any_release(&entries[i].key);
      tether_any_release(&entries[i].value);
    }
    m->size = m->used = 0;
    memset(m->slots, 0, (size_t)(m->slot_mask + 1) * sizeof(uint32_t));
    return;
  }
  m->entries = fresh;
  m->size = m->used = 0;
  memset(m->slots, 0, (size_t)(m->slot_mask + 1) * sizeof(uint32_t));
  for (int64_t i = 0; i < used; ++i) {
    if (!tether__entry_live(&entries[i])) continue;
    tether_any_release(&entries[i].key);
    tether_any_release(&entries[i].value);
  }
  free(entries);
}

/* tether__map_copy of a map in tvm-ffi's C++ layout, entry by entry. */
static int tether__map_copy_cxx(const TVMFFIObject* src, int32_t type_index, TVMFFIObject** out) {
  TVMFFIObject* copy = NULL;
  if (tether__map_new(type_index, tether__map_size(src), &copy) != 0) return -1;
  int64_t pos = 0;
  const TVMFFIAny *key, *value;
  while (tether__map_next(src, &pos, &key, &value)) {
    if (tether__map_set(copy, key, value) != 0) {
      TVMFFIObjectDecRef(copy);
      return -1;
    }
  }
  *out = copy;
  return 0;
}

int tether__map_copy(const TVMFFIObject* src, int32_t type_index, TVMFFIObject** out) {
  if (!tether__map_native(src)) return tether__map_copy_cxx(src, type_index, out);
  const tether_map_t* s = tether__map(src);
  TVMFFIObject* copy = NULL;
  if (tether__map_new(type_index, s->size, &copy) != 0) return -1;
  tether_map_t* m = tether__map(copy);
  for (int64_t i = 0; i < s->used; ++i) {
    const tether_map_entry_t* e = &s->entries[i];
    if (!tether__entry_live(e)) continue;
    TVMFFIAny k, v;
    tether_any_copy(&e->key, &k);
    tether_any_copy(&e->value, &v);
    /* Keys of `src` are distinct and capacity suffices: no lookup, no failure. */
    (void)tether__map_append_steal(m, &k, &v, e->hash);
  }
  *out = copy;
  return 0;
}

int tether__map_new_from_pairs(int32_t type_index, const TVMFFIAny* kvs, int64_t n,
                               TVMFFIObject** out) {
  TVMFFIObject* map = NULL;
  if (tether__map_new(type_index, n, &map) != 0) return -1;
  for (int64_t i = 0; i < n; ++i) {
    if (tether__map_set(map, &kvs[2 * i], &kvs[2 * i + 1]) != 0) {
      TVMFFIObjectDecRef(map);
      return -1;
    }
  }
  *out = map;
  return 0;
}

/* Gives the caller a private copy of a shared Map (Dicts are shared on purpose). */
static int tether__map_make_writable(TVMFFIObject** map) {
  TVMFFIObject* old = *map;
  if (old->type_index != kTVMFFIMap) return 0;
  /* a map in C++ layout is always copied (into libtether's), even when not shared */
  if (tether_object_use_count(old) == 1 && tether__map_native(old)) return 0;
  TVMFFIObject* copy = NULL;
  if (tether__map_copy(old, kTVMFFIMap, &copy) != 0) return -1;
  TVMFFIObjectDecRef(old);
  *map = copy;
  return 0;
}

int tether__map_cow_set(TVMFFIObject** map, const TVMFFIAny* key, const TVMFFIAny* value) {
  TVMFFIAny k, v;
  if (TVMFFIAnyViewToOwnedAny(key, &k) != 0) return -1;
  if (TVMFFIAnyViewToOwnedAny(value, &v) != 0) {
    tether_any_release(&k);
    return -1;
  }
  /* Owned before the copy: the views may point into *map. */
  if (tether__map_make_writable(map) != 0) {
    tether_any_release(&k);
    tether_any_release(&v);
    return -1;
  }
  return tether__map_set_steal(*map, &k, &v);
}

int tether__map_cow_erase(TVMFFIObject** map, const TVMFFIAny* key) {
  if (tether__map_get(*map, key) == NULL) return 0;
  TVMFFIAny k;
  if (TVMFFIAnyViewToOwnedAny(key, &k) != 0) return -1;
  int rc = tether__map_make_writable(map);
  if (rc == 0) rc = tether__map_erase(*map, &k);
  tether_any_release(&k);
  return rc < 0 ? -1 : rc;
}

bool tether__map_next(const TVMFFIObject* map, int64_t* pos, const TVMFFIAny** key,
                      const TVMFFIAny** value) {
  if (!tether__map_native(map)) return tether__cxx_map_next(map, pos, key, value);
  const tether_map_t* m = tether__map(map);
  int64_t i = *pos < 0 ? 0 : *pos;
  while (i < m->used && !tether__entry_live(&m->entries[i])) ++i;
  if (i >= m->used) {
    *pos = m->used;
    return false;
  }
  if (key != NULL) *key = &m->entries[i].key;
  if (value != NULL) *value = &m->entries[i].value;
  *pos = i + 1;
  return true;
}

/* ---- public API --------------------------------------------------------------------- */

/* A Dict that C++ code built from tvm-ffi's headers made is in that code's layout, which
 * libtether reads but does not change: changing one in place is a TypeError. */
static int tether__map_check_writable(const char* fname, const TVMFFIObject* dict) {
  if (tether__map_native(dict)) return 0;
  return tether_raise("TypeError",
                      "%s: this %s was made by C++ code in tvm-ffi's layout, which tether does "
                      "not change in place; copy it first (e.g. into a new Dict)",
                      fname, tether_type_key(dict->type_index));
}

static int tether__map_check(const char* fname, TVMFFIObjectHandle map, bool dict_only) {
  const TVMFFIObject* obj = map;
  bool ok = dict_only ? (obj != NULL && obj->type_index == kTVMFFIDict)
                      : tether__map_is_map(obj);
  if (!ok) {
    return tether_raise("TypeError", "%s: expected an %s handle, got %s", fname,
                        dict_only ? "ffi.Dict" : "ffi.Map or ffi.Dict",
                        obj == NULL ? "NULL" : tether_type_key(obj->type_index));
  }
  return dict_only ? tether__map_check_writable(fname, obj) : 0;
}

static int tether__map_new_public(const char* fname, int32_t type_index, const TVMFFIAny* kvs,
                                  int64_t n, TVMFFIObjectHandle* out) {
  if (out == NULL || n < 0 || (kvs == NULL && n > 0)) {
    return tether_raise("ValueError", "%s: expected n >= 0 key/value pairs and non-NULL out",
                        fname);
  }
  TVMFFIObject* map = NULL;
  if (tether__map_new_from_pairs(type_index, kvs, n, &map) != 0) {
    return tether__error_add_context(fname); /* a malformed key or value */
  }
  *out = map;
  return 0;
}

int tether_map_new(const TVMFFIAny* kvs, int64_t n, TVMFFIObjectHandle* out) {
  return tether__map_new_public("tether_map_new", kTVMFFIMap, kvs, n, out);
}

int tether_dict_new(const TVMFFIAny* kvs, int64_t n, TVMFFIObjectHandle* out) {
  return tether__map_new_public("tether_dict_new", kTVMFFIDict, kvs, n, out);
}

int64_t tether_map_size(TVMFFIObjectHandle map) {
  if (tether__map_check("tether_map_size", map, false) != 0) return -1;
  return tether__map_size(map);
}

const TVMFFIAny* tether_map_find(TVMFFIObjectHandle map, const TVMFFIAny* key) {
  if (!tether__map_is_map(map) || key == NULL) return NULL;
  return tether__map_get(map, key);
}

int tether_map_get(TVMFFIObjectHandle map, const TVMFFIAny* key, TVMFFIAny* out) {
  if (tether__map_check("tether_map_get", map, false) != 0) return -1;
  if (key == NULL || out == NULL) {
    return tether_raise("ValueError", "tether_map_get: argument `%s` is NULL",
                        key == NULL ? "key" : "out");
  }
  const TVMFFIAny* value = tether__map_get(map, key);
  if (value == NULL) return tether_raise("KeyError", "key is not in Map");
  tether_any_copy(value, out);
  return 0;
}

bool tether_map_next(TVMFFIObjectHandle map, int64_t* pos, const TVMFFIAny** key,
                     const TVMFFIAny** value) {
  if (!tether__map_is_map(map) || pos == NULL) return false;
  return tether__map_next(map, pos, key, value);
}

int tether_map_set(TVMFFIObjectHandle* map, const TVMFFIAny* key, const TVMFFIAny* value) {
  if (map == NULL) {
    return tether_raise("ValueError",
                        "tether_map_set: argument `map` (the handle's address) is NULL");
  }
  if (tether__map_check("tether_map_set", *map, false) != 0) return -1;
  /* A NULL or malformed key/value fails in TVMFFIAnyViewToOwnedAny: name this function. */
  if (tether__map_cow_set((TVMFFIObject**)map, key, value) != 0) {
    return tether__error_add_context("tether_map_set");
  }
  return 0;
}

int tether_map_erase(TVMFFIObjectHandle* map, const TVMFFIAny* key) {
  if (map == NULL) {
    return tether_raise("ValueError",
                        "tether_map_erase: argument `map` (the handle's address) is NULL");
  }
  if (tether__map_check("tether_map_erase", *map, false) != 0) return -1;
  if (key == NULL) return tether_raise("ValueError", "tether_map_erase: argument `key` is NULL");
  return tether__map_cow_erase((TVMFFIObject**)map, key) < 0 ? -1 : 0;
}

int tether_dict_set(TVMFFIObjectHandle dict, const TVMFFIAny* key, const TVMFFIAny* value) {
  if (tether__map_check("tether_dict_set", dict, true) != 0) return -1;
  if (tether__map_set(dict, key, value) != 0) return tether__error_add_context("tether_dict_set");
  return 0;
}

int tether_dict_erase(TVMFFIObjectHandle dict, const TVMFFIAny* key) {
  if (tether__map_check("tether_dict_erase", dict, true) != 0) return -1;
  if (key == NULL) return tether_raise("ValueError", "tether_dict_erase: argument `key` is NULL");
  (void)tether__map_erase(dict, key);
  return 0;
}

int tether_dict_clear(TVMFFIObjectHandle dict) {
  if (tether__map_check("tether_dict_clear", dict, true) != 0) return -1;
  tether__map_clear(dict);
  return 0;
}

/* ---- globals -------------------------------------------------------------------------- */

/*
 * Map and Dict globals share their implementations; a table row per kind holds the
 * signatures (as the reference prints them in argument errors) and the expected-type
 * spellings: "ffi.Map"/"ffi.Dict" for read-only parameters, "Dict<Any, Any>" for the
 * mutating Dict ones.
 */
typedef struct {
  const char* ctor; /* "ffi.Map" */
  int32_t type_index;
  const char* ro;   /* expected-type text of a read-only parameter */
  const char* rw;   /* ... of a mutated parameter (Dict only) */
  const char* size_sig;
  const char* get_item_sig;
  const char* count_sig;
  const char* get_or_missing_sig;
  const char* iter_sig;
  const char* set_item_sig;
  const char* erase_sig;
  const char* clear_sig;
} tether_map_kind_t;

/* Signatures of the globals of kind K ("Map" or "Dict"), as the reference prints them. */
#define TETHER_SIG_SIZE(K) "ffi." K "Size(0: ffi." K ") -> int"
#define TETHER_SIG_GET_ITEM(K) "ffi." K "GetItem(0: ffi." K ", 1: Any) -> Any"
#define TETHER_SIG_COUNT(K) "ffi." K "Count(0: ffi." K ", 1: Any) -> int"
#define TETHER_SIG_GET_OR_MISSING(K) "ffi." K "GetItemOrMissing(0: ffi." K ", 1: Any) -> Any"
#define TETHER_SIG_ITER(K) "ffi." K "ForwardIterFunctor(0: ffi." K ") -> ffi.Function"
#define TETHER_SIG_DICT_SET_ITEM "ffi.DictSetItem(0: Dict<Any, Any>, 1: Any, 2: Any) -> void"
#define TETHER_SIG_DICT_ERASE "ffi.DictErase(0: Dict<Any, Any>, 1: Any) -> void"
#define TETHER_SIG_DICT_CLEAR "ffi.DictClear(0: Dict<Any, Any>) -> void"

static const tether_map_kind_t kMapKind = {
    "ffi.Map",
    kTVMFFIMap,
    "ffi.Map",
    NULL,
    TETHER_SIG_SIZE("Map"),
    TETHER_SIG_GET_ITEM("Map"),
    TETHER_SIG_COUNT("Map"),
    TETHER_SIG_GET_OR_MISSING("Map"),
    TETHER_SIG_ITER("Map"),
    NULL,
    NULL,
    NULL,
};

static const tether_map_kind_t kDictKind = {
    "ffi.Dict",
    kTVMFFIDict,
    "ffi.Dict",
    "Dict<Any, Any>",
    TETHER_SIG_SIZE("Dict"),
    TETHER_SIG_GET_ITEM("Dict"),
    TETHER_SIG_COUNT("Dict"),
    TETHER_SIG_GET_OR_MISSING("Dict"),
    TETHER_SIG_ITER("Dict"),
    TETHER_SIG_DICT_SET_ITEM,
    TETHER_SIG_DICT_ERASE,
    TETHER_SIG_DICT_CLEAR,
};

static int tether__map_args(const tether_map_kind_t* kind, const char* sig, bool mutating,
                            const TVMFFIAny* args, int32_t n, int32_t arity, TVMFFIObject** map) {
  if (tether_check_nargs(sig, NULL, n, arity) != 0) return -1;
  if (tether__container_arg_object(sig, args, 0, kind->type_index,
                                   mutating ? kind->rw : kind->ro, map) != 0) {
    return -1;
  }
  return mutating && (*map)->type_index == kTVMFFIDict ? tether__map_check_writable(sig, *map) : 0;
}

static int tether__map_ctor(const tether_map_kind_t* kind, const TVMFFIAny* args, int32_t n,
                            TVMFFIAny* result) {
  if (n % 2 != 0) {
    return tether_raise("InternalError",
                        "Check failed: args.size() %% 2 == 0 (1 vs. 0) : %s expects key, value "
                        "pairs, got %d arguments",
                        kind->ctor, (int)n);
  }
  TVMFFIObject* map = NULL;
  /* A malformed key/value fails inside TVMFFIAnyViewToOwnedAny: name the global. */
  if (tether__map_new_from_pairs(kind->type_index, args, n / 2, &map) != 0) {
    return tether__error_add_context(kind->ctor);
  }
  *result = tether_any_object(map);
  return 0;
}

static int tether__map_g_size(const tether_map_kind_t* kind, const TVMFFIAny* args, int32_t n,
                              TVMFFIAny* result) {
  TVMFFIObject* map = NULL;
  if (tether__map_args(kind, kind->size_sig, false, args, n, 1, &map) != 0) return -1;
  *result = tether_any_int(tether__map_size(map));
  return 0;
}

static int tether__map_g_get_item(const tether_map_kind_t* kind, const TVMFFIAny* args,
                                  int32_t n, TVMFFIAny* result) {
  TVMFFIObject* map = NULL;
  if (tether__map_args(kind, kind->get_item_sig, false, args, n, 2, &map) != 0) return -1;
  const TVMFFIAny* value = tether__map_get(map, &args[1]);
  if (value == NULL) return tether_raise("KeyError", "key is not in Map");
  tether_any_copy(value, result);
  return 0;
}

static int tether__map_g_count(const tether_map_kind_t* kind, const TVMFFIAny* args, int32_t n,
                               TVMFFIAny* result) {
  TVMFFIObject* map = NULL;
  if (tether__map_args(kind, kind->count_sig, false, args, n, 2, &map) != 0) return -1;
  *result = tether_any_int(tether__map_get(map, &args[1]) != NULL ? 1 : 0);
  return 0;
}

static int tether__map_g_get_or_missing(const tether_map_kind_t* kind, const TVMFFIAny* args,
                                        int32_t n, TVMFFIAny* result) {
  TVMFFIObject* map = NULL;
  if (tether__map_args(kind, kind->get_or_missing_sig, false, args, n, 2, &map) != 0) return -1;
  const TVMFFIAny* value = tether__map_get(map, &args[1]);
  if (value != NULL) {
    tether_any_copy(value, result);
  } else {
    TVMFFIObject* missing = tether__function_invalid_object();
    TVMFFIObjectIncRef(missing);
    *result = tether_any_object(missing);
  }
  return 0;
}

/* ---- the forward iterator behind ffi.MapForwardIterFunctor ---------------------------- */

/* Iterator state: a strong reference to the map and the index of the current entry
 * (== used at the end).  Indices are re-validated on every call, so a Dict changed while
 * iterated never makes it read out of bounds. */
typedef struct {
  TVMFFIObject* map;
  int64_t pos;
} tether_map_iter_t;

static const char kIterSig[] = "(0: int) -> Any";

static int64_t tether__map_live_from(const tether_map_t* m, int64_t pos) {
  if (pos < 0) pos = 0;
  while (pos < m->used && !tether__entry_live(&m->entries[pos])) ++pos;
  return pos < m->used ? pos : m->used;
}

static int tether__map_iter_past_end(void) {
  return tether_raise("IndexError", "MapForwardIterFunctor: the iterator is past the end of the map");
}

static int tether__map_iter_bad_command(int64_t cmd) {
  return tether_raise("ValueError",
                      "MapForwardIterFunctor: unknown command %lld, expected 0 (key), "
                      "1 (value) or 2 (advance)",
                      (long long)cmd);
}

/* The iterator over a map in tvm-ffi's C++ layout: pos is tether__map_next's position of
 * the current entry (maps C++ code made are not changed by libtether). */
static int tether__cxx_map_iter_step(tether_map_iter_t* it, int64_t cmd, TVMFFIAny* result) {
  int64_t peek = it->pos;
  const TVMFFIAny *key = NULL, *value = NULL;
  bool live = tether__map_next(it->map, &peek, &key, &value);
  switch (cmd) {
    case 0:
    case 1:
      if (!live) return tether__map_iter_past_end();
      tether_any_copy(cmd == 0 ? key : value, result);
      return 0;
    case 2:
      if (live) it->pos = peek;
      peek = it->pos;
      *result = tether_any_bool(tether__map_next(it->map, &peek, NULL, NULL));
      return 0;
    default:
      return tether__map_iter_bad_command(cmd);
  }
}

static int tether__map_iter_call(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  tether_map_iter_t* it = self;
  int64_t cmd = 0;
  if (tether_check_nargs(kIterSig, NULL, n, 1) != 0 ||
      tether_arg_int(kIterSig, args, 0, &cmd) != 0) {
    return -1;
  }
  if (!tether__map_native(it->map)) return tether__cxx_map_iter_step(it, cmd, result);
  const tether_map_t* m = tether__map(it->map);
  it->pos = tether__map_live_from(m, it->pos);
  bool at_end = it->pos >= m->used;
  switch (cmd) {
    case 0:
    case 1:
      if (at_end) return tether__map_iter_past_end();
      tether_any_copy(cmd == 0 ? &m->entries[it->pos].key : &m->entries[it->pos].value, result);
      return 0;
    case 2:
      if (!at_end) it->pos = tether__map_live_from(m, it->pos + 1);
      *result = tether_any_bool(it->pos < m->used);
      return 0;
    default:
      return tether__map_iter_bad_command(cmd);
  }
}

static void tether__map_iter_free(void* self) {
  tether_map_iter_t* it = self;
  TVMFFIObjectDecRef(it->map);
  free(it);
}

static int tether__map_g_iter(const tether_map_kind_t* kind, const TVMFFIAny* args, int32_t n,
                              TVMFFIAny* result) {
  TVMFFIObject* map = NULL;
  if (tether__map_args(kind, kind->iter_sig, false, args, n, 1, &map) != 0) return -1;
  tether_map_iter_t* it = malloc(sizeof(*it));
  if (it == NULL) return tether_raise("MemoryError", "%s: out of memory", kind->iter_sig);
  TVMFFIObjectIncRef(map);
  it->map = map;
  it->pos = tether__map_native(map) ? tether__map_live_from(tether__map(map), 0) : 0;
  TVMFFIObjectHandle fn = NULL;
  if (TVMFFIFunctionCreate(it, tether__map_iter_call, tether__map_iter_free, &fn) != 0) {
    tether__map_iter_free(it);
    return -1;
  }
  *result = tether_any_object(fn);
  return 0;
}

static int tether__dict_g_set_item(const TVMFFIAny* args, int32_t n) {
  TVMFFIObject* dict = NULL;
  if (tether__map_args(&kDictKind, TETHER_SIG_DICT_SET_ITEM, true, args, n, 3, &dict) != 0) {
    return -1;
  }
  if (tether__map_set(dict, &args[1], &args[2]) != 0) {
    return tether__error_add_context("ffi.DictSetItem");
  }
  return 0;
}

static int tether__dict_g_erase(const TVMFFIAny* args, int32_t n) {
  TVMFFIObject* dict = NULL;
  if (tether__map_args(&kDictKind, TETHER_SIG_DICT_ERASE, true, args, n, 2, &dict) != 0) return -1;
  (void)tether__map_erase(dict, &args[1]);
  return 0;
}

static int tether__dict_g_clear(const TVMFFIAny* args, int32_t n) {
  TVMFFIObject* dict = NULL;
  if (tether__map_args(&kDictKind, TETHER_SIG_DICT_CLEAR, true, args, n, 1, &dict) != 0) return -1;
  tether__map_clear(dict);
  return 0;
}

/* The SafeCall entry points: one thin wrapper per (kind, operation). */
#define TETHER_MAP_ENTRY(cname, impl, kind)                                             \
  static int cname(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {  \
    return impl(&kind, args, n, result);                                                \
  }
TETHER_MAP_ENTRY(tether__g_map, tether__map_ctor, kMapKind)
TETHER_MAP_ENTRY(tether__g_map_size, tether__map_g_size, kMapKind)
TETHER_MAP_ENTRY(tether__g_map_get_item, tether__map_g_get_item, kMapKind)
TETHER_MAP_ENTRY(tether__g_map_count, tether__map_g_count, kMapKind)
TETHER_MAP_ENTRY(tether__g_map_get_or_missing, tether__map_g_get_or_missing, kMapKind)
TETHER_MAP_ENTRY(tether__g_map_iter, tether__map_g_iter, kMapKind)
TETHER_MAP_ENTRY(tether__g_dict, tether__map_ctor, kDictKind)
TETHER_MAP_ENTRY(tether__g_dict_size, tether__map_g_size, kDictKind)
TETHER_MAP_ENTRY(tether__g_dict_get_item, tether__map_g_get_item, kDictKind)
TETHER_MAP_ENTRY(tether__g_dict_count, tether__map_g_count, kDictKind)
TETHER_MAP_ENTRY(tether__g_dict_get_or_missing, tether__map_g_get_or_missing, kDictKind)
TETHER_MAP_ENTRY(tether__g_dict_iter, tether__map_g_iter, kDictKind)
#undef TETHER_MAP_ENTRY

static int tether__g_dict_set_item(void* self, const TVMFFIAny* args, int32_t n,
                                   TVMFFIAny* result) {
  return tether__dict_g_set_item(args, n);
}
static int tether__g_dict_erase(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  return tether__dict_g_erase(args, n);
}
static int tether__g_dict_clear(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  return tether__dict_g_clear(args, n);
}

const tether__container_global_t tether__map_globals[] = {
    {"ffi.Map", tether__g_map, NULL, "Map(k0, v0, k1, v1, ...): a new Map"},
    {"ffi.MapSize", tether__g_map_size, TETHER_SIG_SIZE("Map"), "Number of entries"},
    {"ffi.MapGetItem", tether__g_map_get_item, TETHER_SIG_GET_ITEM("Map"),
     "The value under a key (KeyError if absent)"},
    {"ffi.MapCount", tether__g_map_count, TETHER_SIG_COUNT("Map"),
     "1 if the key is present, else 0"},
    {"ffi.MapGetItemOrMissing", tether__g_map_get_or_missing, TETHER_SIG_GET_OR_MISSING("Map"),
     "The value under a key, or the MISSING sentinel (ffi.GetInvalidObject)"},
    {"ffi.MapForwardIterFunctor", tether__g_map_iter, TETHER_SIG_ITER("Map"),
     "Iterator it(cmd): 0 = key, 1 = value, 2 = advance (false at the end)"},
    {"ffi.Dict", tether__g_dict, NULL, "Dict(k0, v0, k1, v1, ...): a new Dict"},
    {"ffi.DictSize", tether__g_dict_size, TETHER_SIG_SIZE("Dict"), "Number of entries"},
    {"ffi.DictGetItem", tether__g_dict_get_item, TETHER_SIG_GET_ITEM("Dict"),
     "The value under a key (KeyError if absent)"},
    {"ffi.DictSetItem", tether__g_dict_set_item, TETHER_SIG_DICT_SET_ITEM,
     "Inserts or overwrites a key in place"},
    {"ffi.DictCount", tether__g_dict_count, TETHER_SIG_COUNT("Dict"),
     "1 if the key is present, else 0"},
    {"ffi.DictErase", tether__g_dict_erase, TETHER_SIG_DICT_ERASE,
     "Removes a key in place (no error if absent)"},
    {"ffi.DictClear", tether__g_dict_clear, TETHER_SIG_DICT_CLEAR, "Removes every entry"},
    {"ffi.DictForwardIterFunctor", tether__g_dict_iter, TETHER_SIG_ITER("Dict"),
     "Iterator it(cmd): 0 = key, 1 = value, 2 = advance (false at the end)"},
    {"ffi.DictGetItemOrMissing", tether__g_dict_get_or_missing, TETHER_SIG_GET_OR_MISSING("Dict"),
     "The value under a key, or the MISSING sentinel (ffi.GetInvalidObject)"},
};
const size_t tether__map_num_globals = sizeof(tether__map_globals) / sizeof(tether__map_globals[0]);
