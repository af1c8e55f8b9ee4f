/*
 * table.c -- the IR's hash table (table.h).  Invariant: every entry sits in the first empty-
 * or-matching slot of the probe sequence that starts at hash & (cap - 1), and n * 2 <= cap,
 * so a probe always ends at an empty slot.  Entries are never removed.
 */
#include "table.h"

#include <stdlib.h>
#include <string.h>

static uint64_t trx__ptr_hash(const void* p) {
  uint64_t x = (uint64_t)(uintptr_t)p;
  x ^= x >> 33;
  x *= UINT64_C(0xff51afd7ed558ccd);
  x ^= x >> 33;
  return x;
}

static uint64_t trx__str_hash(const char* s, size_t n) {
  uint64_t h = UINT64_C(1469598103934665603); /* FNV-1a */
  for (size_t i = 0; i < n; ++i) h = (h ^ (unsigned char)s[i]) * UINT64_C(1099511628211);
  return h;
}

/* The slot holding a key equal to (hash, key) or the empty slot where it would go; str: keys
 * compare by content (n bytes), else by identity.  cap > 0. */
static trx__slot_t* trx__probe(const trx__table_t* t, uint64_t hash, const void* key, size_t n, bool str) {
  size_t mask = t->cap - 1;
  for (size_t i = (size_t)hash & mask;; i = (i + 1) & mask) {
    trx__slot_t* s = &t->slots[i];
    if (s->key == NULL) return s;
    if (s->hash != hash) continue;
    if (!str ? s->key == key : strlen((const char*)s->key) == n && memcmp(s->key, key, n) == 0) return s;
  }
}

/* Room for one more entry (doubling); false when out of memory. */
static bool trx__grow(trx__table_t* t) {
  if (2 * (t->n + 1) <= t->cap) return true;
  size_t cap = t->cap ? t->cap * 2 : 16;
  trx__slot_t* slots = calloc(cap, sizeof(*slots));
  if (slots == NULL) return false;
  for (size_t j = 0; j < t->cap; ++j) {
    if (t->slots[j].key == NULL) continue;
    size_t i = (size_t)t->slots[j].hash & (cap - 1);
    while (slots[i].key != NULL) i = (i + 1) & (cap - 1);
    slots[i] = t->slots[j];
  }
  free(t->slots);
  t->slots = slots;
  t->cap = cap;
  return true;
}

static bool trx__put(trx__table_t* t, uint64_t hash, const void* key, size_t n, bool str, const void* val) {
  if (!trx__grow(t)) return false;
  trx__slot_t* s = trx__probe(t, hash, key, n, str);
  if (s->key == NULL) {
    t->n++;
    s->key = key;
    s->hash = hash;
  }
  s->val = val;
  return true;
}

const void* trx__table_get(const trx__table_t* t, const void* key) {
  return t->cap == 0 ? NULL : trx__probe(t, trx__ptr_hash(key), key, 0, false)->val;
}

bool trx__table_put(trx__table_t* t, const void* key, const void* val) {
  return trx__put(t, trx__ptr_hash(key), key, 0, false, val);
}

const void* trx__table_get_str(const trx__table_t* t, const char* s, size_t n) {
  return t->cap == 0 ? NULL : trx__probe(t, trx__str_hash(s, n), s, n, true)->val;
}

bool trx__table_put_str(trx__table_t* t, const char* key, const void* val) {
  size_t n = strlen(key);
  return trx__put(t, trx__str_hash(key, n), key, n, true, val);
}

void trx__table_free(trx__table_t* t) {
  free(t->slots);
  memset(t, 0, sizeof(*t));
}
