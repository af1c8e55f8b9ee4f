/*
 * table.h -- the IR's one hash table: open addressing with linear probing, at most half
 * full, keyed either by pointer identity (structural equality's var maps, the hash's memo)
 * or by string content (the op registry's names).  A table uses one kind of key for its
 * whole life.  Keys and values are borrowed: the table never owns what they point to.
 * A zeroed trx__table_t is an empty table; not thread-safe (callers lock).
 */
#ifndef TETHER_SRC_IR_TABLE_H_
#define TETHER_SRC_IR_TABLE_H_
#ifndef TETHER_BUILD_IR
#error "src/ir/table.h is private to libtether_ir"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
  const void* key; /* NULL: empty slot */
  const void* val;
  uint64_t hash;
} trx__slot_t;

typedef struct {
  trx__slot_t* slots;
  size_t cap, n; /* cap: 0 or a power of two */
} trx__table_t;

/* Pointer keys: the value stored for `key`, or NULL. */
const void* trx__table_get(const trx__table_t* t, const void* key);
/* Sets key -> val (key not NULL); false when out of memory (the table is unchanged). */
bool trx__table_put(trx__table_t* t, const void* key, const void* val);
/* String keys (`key` a NUL-terminated string that outlives its entry; found by content). */
const void* trx__table_get_str(const trx__table_t* t, const char* s, size_t n);
bool trx__table_put_str(trx__table_t* t, const char* key, const void* val);
/* Frees the slots and resets the table to empty. */
void trx__table_free(trx__table_t* t);

#endif /* TETHER_SRC_IR_TABLE_H_ */
