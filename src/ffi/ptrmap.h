/*
 * ptrmap.h -- a small open-addressing map from object addresses to 64-bit values, used by
 * the extra layer's traversals (structural equality's variable mapping, hash memos, deep
 * copy's copy table).  Header-only (static inline); not exported.
 *
 * Invariant: cap is 0 or a power of two and n <= cap / 2, so probing ends at an empty slot.
 * Keys are never NULL (NULL marks an empty slot).  No removal.
 */
#ifndef TETHER_SRC_FFI_PTRMAP_H_
#define TETHER_SRC_FFI_PTRMAP_H_
#ifndef TETHER_BUILD_CORE
#error "src/ffi/ptrmap.h is private to libtether"
#endif

#include "internal.h"

typedef struct {
  const void** keys;
  uint64_t* vals;
  size_t cap;
  size_t n;
} tether_ptrmap;

static inline size_t tether__ptrmap_home(const tether_ptrmap* m, const void* key) {
  uint64_t h = (uint64_t)(uintptr_t)key * UINT64_C(11400714819323198485);
  return (size_t)(h >> 17) & (m->cap - 1);
}

/* Pointer to the value under `key`, or NULL. */
static inline uint64_t* tether__ptrmap_find(const tether_ptrmap* m, const void* key) {
  if (m->cap == 0) return NULL;
  for (size_t i = tether__ptrmap_home(m, key);; i = (i + 1) & (m->cap - 1)) {
    if (m->keys[i] == key) return &m->vals[i];
    if (m->keys[i] == NULL) return NULL;
  }
}

/* Inserts or overwrites; -1 with MemoryError raised when out of memory. */
static inline int tether__ptrmap_put(tether_ptrmap* m, const void* key, uint64_t val) {
  uint64_t* found = tether__ptrmap_find(m, key);
  if (found != NULL) {
    *found = val;
    return 0;
  }
  if ((m->n + 1) * 2 > m->cap) {
    tether_ptrmap g = {NULL, NULL, m->cap ? m->cap * 2 : 16, 0};
    g.keys = (const void**)calloc(g.cap, sizeof(*g.keys));
    g.vals = (uint64_t*)calloc(g.cap, sizeof(*g.vals));
    if (g.keys == NULL || g.vals == NULL) {
      free((void*)g.keys);
      free(g.vals);
      return tether_raise("MemoryError", "out of memory growing a traversal table");
    }
    for (size_t i = 0; i < m->cap; ++i) {
      if (m->keys[i] != NULL) tether__ptrmap_put(&g, m->keys[i], m->vals[i]);
    }
    free((void*)m->keys);
    free(m->vals);
    *m = g;
  }
  size_t i = tether__ptrmap_home(m, key);
  while (m->keys[i] != NULL) i = (i + 1) & (m->cap - 1);
  m->keys[i] = key;
  m->vals[i] = val;
  m->n++;
  return 0;
}

static inline void tether__ptrmap_free(tether_ptrmap* m) {
  free((void*)m->keys);
  free(m->vals);
  m->keys = NULL;
  m->vals = NULL;
  m->cap = m->n = 0;
}

#endif /* TETHER_SRC_FFI_PTRMAP_H_ */
