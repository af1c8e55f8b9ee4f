/*
 * type.c -- the runtime type table (spec 1.1, 1.8, 1.10, 1.11): type keys <-> indices, the
 * TVMFFITypeInfo of every registered type with its own fields, methods and metadata, and
 * the type attribute columns.
 *
 * Invariants:
 * - A published TVMFFITypeInfo or TVMFFITypeAttrColumn never moves and is never freed
 *   before tether__type_fini: TVMFFIGetTypeInfo is `pure`, and C++ code caches both in
 *   function-local statics.
 * - Lookup by index is lock-free: a fixed top-level array of atomic chunk pointers, each
 *   chunk an array of atomic entry pointers.  Both levels only ever go from NULL to
 *   non-NULL (release store), under tether__type_mu.
 * - Arrays that readers reach without the lock (TypeInfo.fields/methods, column data) are
 *   replaced, never realloc'd: each lives in a block that links the block it replaced,
 *   and the whole chain is freed at fini, so a reader racing with a growth still reads
 *   valid memory.  The new pointer is published before the count/size that covers it.
 * - Every other write happens under tether__type_mu; lookups by key or column name take it.
 * - Nothing that can call back into the library runs under tether__type_mu: no error is
 *   raised and no Any is converted or released while it is held.  Raising allocates an
 *   Error, captures a backtrace (dladdr takes the loader lock, which dlopen holds while a
 *   library's constructors register types) and releases the error parked before, whose
 *   deleters may register or look up types.  Errors found under the lock are recorded in a
 *   tether_type_err_t and raised after the unlock; Anys are converted before the lock is
 *   taken and released after it is dropped.  Every locked region has one unlock, at its
 *   single exit.
 *
 * type_key_hash is the hash tvm-ffi's reference build computes for the key (libstdc++'s
 * std::hash of a string_view, on 64-bit targets), so that the structural and recursive
 * hashes, which start from it, give the same numbers as tvm-ffi.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include "internal.h"
#include "error.h"
#include "type.h"

/* ---- index space -------------------------------------------------------------------- */

#define TETHER_TYPE_CHUNK_SHIFT 8
#define TETHER_TYPE_CHUNK_SIZE (1 << TETHER_TYPE_CHUNK_SHIFT)
#define TETHER_TYPE_NUM_CHUNKS 1024
/* One past the largest index the table can hold (262144). */
#define TETHER_TYPE_INDEX_LIMIT (TETHER_TYPE_CHUNK_SIZE * TETHER_TYPE_NUM_CHUNKS)

/* An array readers may hold while it is being replaced; `older` is the one it replaced. */
typedef struct tether_block {
  struct tether_block* older;
  max_align_t data[];
} tether_block_t;

typedef struct {
  TVMFFITypeInfo info;      /* first: the public pointer is &entry->info */
  int32_t num_child_slots;  /* indices index+1 .. index+num_child_slots are reserved */
  int32_t allocated_slots;  /* 1 (the type itself) + reserved slots handed out so far */
  bool can_overflow;        /* children may take global indices when slots run out */
  int32_t field_capacity;
  int32_t method_capacity;
  tether_block_t* fields_block;  /* holds info.fields, then the arrays it replaced */
  tether_block_t* methods_block;
  TVMFFITypeMetadata metadata;   /* info.metadata points here once registered */
  bool native_layout;            /* laid out by libtether's C code, not by its fields */
  char key[];                    /* NUL-terminated; info.type_key points here */
} tether_type_entry_t;

typedef struct {
  TVMFFITypeAttrColumn column; /* first: the public pointer is &entry->column */
  int32_t capacity;
  tether_block_t* data_block;  /* holds column.data (owned Anys), then older arrays */
  size_t name_len;
  char name[];
} tether_column_t;

/* Open-addressing map from byte strings (borrowed from the values) to values. */
typedef struct {
  uint64_t hash;
  const char* key; /* NULL = empty slot */
  size_t len;
  void* value;
} tether_strmap_slot_t;

typedef struct {
  tether_strmap_slot_t* slots;
  size_t capacity; /* 0 or a power of two; count * 2 <= capacity */
  size_t count;
} tether_strmap_t;

static pthread_mutex_t tether__type_mu = PTHREAD_MUTEX_INITIALIZER;
static _Atomic(_Atomic(tether_type_entry_t*)*) tether__type_chunks[TETHER_TYPE_NUM_CHUNKS];
/* One past the highest registered index (bounds tether__type_for_each). */
static _Atomic int32_t tether__type_end;
/* Next candidate for a dynamically allocated index (spec 1.10: starts at 128). */
static int32_t tether__type_next_dynamic = kTVMFFIDynObjectBegin;
static tether_strmap_t tether__type_by_key; /* key -> tether_type_entry_t* */
static tether_strmap_t tether__columns;     /* name -> tether_column_t* */

/* Columns that exist from load on, empty until a type registers a value, as in tvm-ffi
 * (C++ readers such as ReprPrint's TypeAttrColumn("__ffi_repr__") raise on a missing one). */
static const char* const tether__attr_columns_at_load[] = {
    "__any_hash__", "__any_equal__", "__ffi_init__", "__ffi_enum__", "__ffi_repr__"};

/* ---- helpers ------------------------------------------------------------------------- */

static uint64_t tether__fnv1a(const char* data, size_t len) {
  uint64_t h = UINT64_C(14695981039346656037);
  for (size_t i = 0; i < len; ++i) {
    h ^= (unsigned char)data[i];
    h *= UINT64_C(1099511628211);
  }
  return h;
}

/* libstdc++'s 64-bit _Hash_bytes(data, len, 0xc70f6907): std::hash<std::string_view>. */
static uint64_t tether__type_key_hash(const char* data, size_t len) {
  const uint64_t mul = (UINT64_C(0xc6a4a793) << 32) + UINT64_C(0x5bd1e995);
  size_t aligned = len & ~(size_t)7;
  uint64_t hash = UINT64_C(0xc70f6907) ^ ((uint64_t)len * mul);
  for (size_t i = 0; i < aligned; i += 8) {
    uint64_t word;
    memcpy(&word, data + i, 8);
    word *= mul;
    hash ^= (word ^ (word >> 47)) * mul;
    hash *= mul;
  }
  if (len & 7) {
    uint64_t tail = 0;
    for (size_t n = len & 7; n-- > 0;) tail = (tail << 8) + (unsigned char)data[aligned + n];
    hash ^= tail;
    hash *= mul;
  }
  hash = (hash ^ (hash >> 47)) * mul;
  return hash ^ (hash >> 47);
}

static bool tether__bytes_ok(const TVMFFIByteArray* b) {
  return b != NULL && (b->data != NULL || b->size == 0);
}

/* printf precision for a byte array (keys longer than INT_MAX are clipped in messages). */
static int tether__prec(size_t n) { return n > 0x7fffffff ? 0x7fffffff : (int)n; }

static void tether__release_any(TVMFFIAny* v) {
  if (v->type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(v->v_obj);
  v->type_index = kTVMFFINone;
  v->v_int64 = 0;
}

static void tether__block_free_chain(tether_block_t* b) {
  while (b != NULL) {
    tether_block_t* older = b->older;
    free(b);
    b = older;
  }
}

/* A new block of `count` elements of `elem_size`, holding a copy of the first `keep`
 * elements of `old` (the block it replaces, linked as older); NULL when out of memory. */
static tether_block_t* tether__block_grow(tether_block_t* old, size_t elem_size, size_t count,
                                          size_t keep) {
  tether_block_t* b = calloc(1, sizeof(tether_block_t) + elem_size * count);
  if (b == NULL) return NULL;
  if (old != NULL && keep != 0) memcpy(b->data, old->data, elem_size * keep);
  b->older = old;
  return b;
}

static void* tether__strmap_get(const tether_strmap_t* m, const char* key, size_t len) {
  if (m->capacity == 0) return NULL;
  uint64_t h = tether__fnv1a(key, len);
  for (size_t i = (size_t)h & (m->capacity - 1);; i = (i + 1) & (m->capacity - 1)) {
    const tether_strmap_slot_t* s = &m->slots[i];
    if (s->key == NULL) return NULL;
    if (s->hash == h && s->len == len && memcmp(s->key, key, len) == 0) return s->value;
  }
}

/* Makes room for one more entry; -1 when out of memory (nothing changed). */
static int tether__strmap_reserve_one(tether_strmap_t* m) {
  if ((m->count + 1) * 2 <= m->capacity) return 0;
  size_t cap = m->capacity == 0 ? 64 : m->capacity * 2;
  tether_strmap_slot_t* slots = calloc(cap, sizeof(*slots));
  if (slots == NULL) return -1;
  for (size_t j = 0; j < m->capacity; ++j) {
    const tether_strmap_slot_t* s = &m->slots[j];
    if (s->key == NULL) continue;
    size_t i = (size_t)s->hash & (cap - 1);
    while (slots[i].key != NULL) i = (i + 1) & (cap - 1);
    slots[i] = *s;
  }
  free(m->slots);
  m->slots = slots;
  m->capacity = cap;
  return 0;
}

/* Inserts a key known to be absent, after tether__strmap_reserve_one succeeded. */
static void tether__strmap_put(tether_strmap_t* m, const char* key, size_t len, void* value) {
  uint64_t h = tether__fnv1a(key, len);
  size_t i = (size_t)h & (m->capacity - 1);
  while (m->slots[i].key != NULL) i = (i + 1) & (m->capacity - 1);
  m->slots[i] = (tether_strmap_slot_t){h, key, len, value};
  m->count++;
}

static void tether__strmap_free(tether_strmap_t* m) {
  free(m->slots);
  *m = (tether_strmap_t){NULL, 0, 0};
}

/* ---- errors found under the lock ------------------------------------------------------ */

/* An error recorded under tether__type_mu and raised once it is released. */
typedef struct {
  const char* kind; /* NULL: nothing recorded */
  const char* file;
  int line;
  const char* func;
  char* heap;       /* the message when it does not fit in `text` (NULL if it fits) */
  char text[320];
} tether_type_err_t;

#define TETHER_TYPE_ERR_INIT {NULL, NULL, 0, NULL, NULL, {0}}
#define tether__type_fail(err, kind, ...) \
  tether__type_fail_at((err), __FILE__, __LINE__, __func__, (kind), __VA_ARGS__)

/* Records (kind, message) in *err; safe under the lock (formats, may malloc).  Returns -1. */
__attribute__((format(printf, 6, 7))) static int tether__type_fail_at(
    tether_type_err_t* err, const char* file, int line, const char* func, const char* kind,
    const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(err->text, sizeof(err->text), fmt, ap);
  va_end(ap);
  if (n >= (int)sizeof(err->text)) { /* keep the whole text if memory allows */
    err->heap = malloc((size_t)n + 1);
    if (err->heap != NULL) {
      va_start(ap, fmt);
      vsnprintf(err->heap, (size_t)n + 1, fmt, ap);
      va_end(ap);
    }
  }
  err->kind = kind;
  err->file = file;
  err->line = line;
  err->func = func;
  return -1;
}

/* Raises what tether__type_fail recorded.  Only after tether__type_mu is released.
 * Returns -1. */
static int tether__type_raise(tether_type_err_t* err) {
  const char* msg = err->heap != NULL ? err->heap : err->text;
  tether__error_raise_bytes(err->file, err->line, err->func, err->kind, msg, strlen(msg));
  free(err->heap);
  err->heap = NULL;
  return -1;
}

/* ---- index -> entry (lock-free) -------------------------------------------------------- */

static tether_type_entry_t* tether__entry(int32_t index) {
  if (index < 0 || index >= TETHER_TYPE_INDEX_LIMIT) return NULL;
  _Atomic(tether_type_entry_t*)* chunk = atomic_load_explicit(
      &tether__type_chunks[index >> TETHER_TYPE_CHUNK_SHIFT], memory_order_acquire);
  if (chunk == NULL) return NULL;
  return atomic_load_explicit(&chunk[index & (TETHER_TYPE_CHUNK_SIZE - 1)], memory_order_acquire);
}

/* Makes sure the chunk holding `index` exists.  Under the lock; -1 when out of memory. */
static int tether__ensure_chunk_locked(int32_t index) {
  _Atomic(_Atomic(tether_type_entry_t*)*)* slot =
      &tether__type_chunks[index >> TETHER_TYPE_CHUNK_SHIFT];
  if (atomic_load_explicit(slot, memory_order_relaxed) != NULL) return 0;
  _Atomic(tether_type_entry_t*)* chunk = calloc(TETHER_TYPE_CHUNK_SIZE, sizeof(*chunk));
  if (chunk == NULL) return -1;
  for (int i = 0; i < TETHER_TYPE_CHUNK_SIZE; ++i) atomic_init(&chunk[i], NULL);
  atomic_store_explicit(slot, chunk, memory_order_release);
  return 0;
}

static bool tether__range_free(int64_t begin, int64_t count) {
  if (begin < 0 || begin + count > TETHER_TYPE_INDEX_LIMIT) return false;
  for (int64_t i = begin; i < begin + count; ++i) {
    if (tether__entry((int32_t)i) != NULL) return false;
  }
  return true;
}

const TVMFFITypeInfo* tether__type_info_or_null(int32_t index) {
  tether_type_entry_t* e = tether__entry(index);
  return e != NULL ? &e->info : NULL;
}

/* ---- registration of types ------------------------------------------------------------ */

/* Creates and publishes the entry for a type whose index and placement were decided.
 * Under the lock.  Returns the entry, or NULL with a MemoryError recorded in *err. */
static tether_type_entry_t* tether__entry_publish_locked(tether_type_err_t* err,
                                                         TVMFFIByteArray key, int32_t index,
                                                         int32_t depth, int32_t num_child_slots,
                                                         bool can_overflow,
                                                         const tether_type_entry_t* parent) {
  tether_type_entry_t* e = calloc(1, sizeof(*e) + key.size + 1);
  const TVMFFITypeInfo** ancestors = NULL;
  if (e == NULL) goto fail;
  if (depth > 0) {
    ancestors = malloc(sizeof(*ancestors) * (size_t)depth);
    if (ancestors == NULL) goto fail;
    for (int32_t i = 0; i + 1 < depth; ++i) ancestors[i] = parent->info.type_ancestors[i];
    ancestors[depth - 1] = &parent->info;
  }
  if (tether__ensure_chunk_locked(index) != 0) goto fail;
  if (tether__strmap_reserve_one(&tether__type_by_key) != 0) goto fail;

  if (key.size != 0) memcpy(e->key, key.data, key.size);
  e->key[key.size] = '\0';
  e->info.type_index = index;
  e->info.type_depth = depth;
  e->info.type_key = (TVMFFIByteArray){e->key, key.size};
  e->info.type_ancestors = ancestors;
  e->info.type_key_hash = tether__type_key_hash(key.data, key.size);
  e->num_child_slots = num_child_slots;
  e->allocated_slots = 1;
  e->can_overflow = can_overflow;

  tether__strmap_put(&tether__type_by_key, e->key, key.size, e);
  _Atomic(tether_type_entry_t*)* chunk = atomic_load_explicit(
      &tether__type_chunks[index >> TETHER_TYPE_CHUNK_SHIFT], memory_order_relaxed);
  atomic_store_explicit(&chunk[index & (TETHER_TYPE_CHUNK_SIZE - 1)], e, memory_order_release);
  if (atomic_load_explicit(&tether__type_end, memory_order_relaxed) <= index) {
    atomic_store_explicit(&tether__type_end, index + 1, memory_order_release);
  }
  return e;

fail:
  free(ancestors);
  free(e);
  tether__type_fail(err, "MemoryError",
                    "TVMFFITypeGetOrAllocIndex: out of memory registering type `%.*s`",
                    tether__prec(key.size), key.data);
  return NULL;
}

/*
 * Spec 1.10 for a key that is not registered yet.  Under the lock.  Returns the new index,
 * or -1 with the error recorded in *err (raised by the caller after unlocking).
 *
 * Deviation from the reference: tvm-ffi treats TVMFFITypeGetOrAllocIndex as a
 * "log-exception" function that prints and exit(-1)s on invalid input.  tether never
 * crashes on bad input: it raises ValueError (bad argument) or RuntimeError (state
 * conflict) in the thread's error slot, prints nothing, and returns -1.  Also, where the
 * reference could hand out an index already taken by a static registration inside a
 * parent's reserved range, tether skips occupied indices so indices stay unique.
 */
static int32_t tether__type_alloc_locked(tether_type_err_t* err, TVMFFIByteArray key,
                                         int32_t static_index, int32_t depth,
                                         int32_t num_child_slots, bool can_overflow,
                                         int32_t parent_index) {
  static const char fn[] = "TVMFFITypeGetOrAllocIndex";
  int kp = tether__prec(key.size);
  tether_type_entry_t* parent = NULL;
  if (num_child_slots < 0) {
    return tether__type_fail(err, "ValueError",
                             "%s: num_child_slots of `%.*s` must be >= 0, got %d", fn,
                             kp, key.data, num_child_slots);
  }
  if (parent_index == -1) {
    if (static_index < 0) {
      return tether__type_fail(err, "ValueError",
                               "%s: type `%.*s` has no parent (parent_type_index = -1), so "
                               "it needs a static_type_index >= 0",
                               fn, kp, key.data);
    }
    if (depth != 0) {
      return tether__type_fail(err, "ValueError",
                               "%s: type `%.*s` has no parent, so its type_depth must be 0, "
                               "got %d",
                               fn, kp, key.data, depth);
    }
  } else {
    parent = tether__entry(parent_index);
    if (parent == NULL) {
      return tether__type_fail(err, "ValueError",
                               "%s: parent_type_index %d of `%.*s` is not a registered type", fn,
                               parent_index, kp, key.data);
    }
    if (depth != parent->info.type_depth + 1) {
      return tether__type_fail(err, "ValueError",
                               "%s: type_depth of `%.*s` must be its parent `%s`'s depth + 1 = %d, "
                               "got %d",
                               fn, kp, key.data, parent->key, parent->info.type_depth + 1, depth);
    }
    /* A child of a non-overflowable parent is itself non-overflowable. */
    if (!parent->can_overflow) can_overflow = false;
  }

  int64_t need = (int64_t)num_child_slots + 1;
  int64_t index;
  bool from_parent_slots = false;
  int64_t skipped_slots = 0;
  if (static_index >= 0) {
    if (static_index >= TETHER_TYPE_INDEX_LIMIT) {
      return tether__type_fail(err, "ValueError",
                               "%s: static_type_index %d of `%.*s` is beyond the type "
                               "table's limit %d",
                               fn, static_index, kp, key.data, TETHER_TYPE_INDEX_LIMIT);
    }
    const tether_type_entry_t* taken = tether__entry(static_index);
    if (taken != NULL) {
      return tether__type_fail(err, "RuntimeError",
                               "%s: Conflicting static index %d between `%s` and `%.*s`",
                               fn, static_index, taken->key, kp, key.data);
    }
    index = static_index;
  } else {
    /* The parent's reserved slots, skipping any taken by static registrations. */
    int64_t slot = parent->allocated_slots;
    while (slot + need <= (int64_t)parent->num_child_slots + 1 &&
           !tether__range_free(parent->info.type_index + slot, need)) {
      ++slot;
    }
    from_parent_slots = slot + need <= (int64_t)parent->num_child_slots + 1;
    if (from_parent_slots) {
      index = parent->info.type_index + slot;
      skipped_slots = slot - parent->allocated_slots;
    } else {
      if (!parent->can_overflow) {
        return tether__type_fail(err, "RuntimeError",
                                 "%s: Reach maximum number of sub-classes for `%s`: its %d "
                                 "reserved child slot(s) cannot hold `%.*s` and "
                                 "child_slots_can_overflow is false",
                                 fn, parent->key, parent->num_child_slots, kp, key.data);
      }
      index = tether__type_next_dynamic;
      while (index + need <= TETHER_TYPE_INDEX_LIMIT && !tether__range_free(index, need)) ++index;
      if (index + need > TETHER_TYPE_INDEX_LIMIT) {
        return tether__type_fail(err, "RuntimeError",
                                 "%s: the type table is full (%d indices); cannot add `%.*s`", fn,
                                 TETHER_TYPE_INDEX_LIMIT, kp, key.data);
      }
    }
  }

  if (tether__entry_publish_locked(err, key, (int32_t)index, depth, num_child_slots, can_overflow,
                                   parent) == NULL) {
    return -1;
  }
  if (from_parent_slots) {
    parent->allocated_slots += (int32_t)(skipped_slots + need);
  } else if (static_index < 0) {
    tether__type_next_dynamic = (int32_t)(index + need);
  }
  return (int32_t)index;
}

int32_t TVMFFITypeGetOrAllocIndex(const TVMFFIByteArray* type_key, int32_t static_type_index,
                                  int32_t type_depth, int32_t num_child_slots,
                                  int32_t child_slots_can_overflow, int32_t parent_type_index) {
  if (!tether__bytes_ok(type_key)) {
    return tether_raise("ValueError", "TVMFFITypeGetOrAllocIndex: argument `type_key` must be a "
                                      "valid byte array");
  }
  tether_type_err_t err = TETHER_TYPE_ERR_INIT;
  pthread_mutex_lock(&tether__type_mu);
  int32_t result;
  tether_type_entry_t* e = tether__strmap_get(&tether__type_by_key, type_key->data, type_key->size);
  if (e != NULL) {
    result = e->info.type_index;
  } else if (parent_type_index == -2) {
    result = -2; /* query mode */
  } else {
    result = tether__type_alloc_locked(&err, *type_key, static_type_index, type_depth,
                                       num_child_slots, child_slots_can_overflow != 0,
                                       parent_type_index);
  }
  pthread_mutex_unlock(&tether__type_mu);
  if (err.kind != NULL) return tether__type_raise(&err);
  return result;
}

int32_t tether__type_register_static(const char* key, int32_t index) {
  TVMFFIByteArray k = {key, strlen(key)};
  return TVMFFITypeGetOrAllocIndex(&k, index, 1, 0, 0, kTVMFFIObject);
}

int TVMFFITypeKeyToIndex(const TVMFFIByteArray* type_key, int32_t* out_tindex) {
  if (!tether__bytes_ok(type_key)) {
    return tether_raise("ValueError",
                        "TVMFFITypeKeyToIndex: argument `type_key` must be a valid byte array");
  }
  if (out_tindex == NULL) {
    return tether_raise("ValueError",
                        "TVMFFITypeKeyToIndex: argument `out_tindex` must not be NULL");
  }
  pthread_mutex_lock(&tether__type_mu);
  tether_type_entry_t* e = tether__strmap_get(&tether__type_by_key, type_key->data, type_key->size);
  int32_t index = e != NULL ? e->info.type_index : -1;
  pthread_mutex_unlock(&tether__type_mu);
  if (e == NULL) {
    /* Kind as observed from tvm-ffi 0.1.14 (a failed internal check there). */
    return tether_raise("InternalError", "Cannot find type `%.*s`", tether__prec(type_key->size),
                        type_key->data);
  }
  *out_tindex = index;
  return 0;
}

const TVMFFITypeInfo* TVMFFIGetTypeInfo(int32_t type_index) {
  tether_type_entry_t* e = tether__entry(type_index);
  if (TETHER_UNLIKELY(e == NULL)) {
    /* A log-exception function (spec section 2): it cannot report an error. */
    fprintf(stderr, "TVMFFIGetTypeInfo: unknown type index %d\n", type_index);
    fflush(stderr);
    exit(-1);
  }
  return &e->info;
}

const char* tether_type_key(int32_t type_index) {
  tether_type_entry_t* e = tether__entry(type_index);
  return e != NULL ? e->key : "<unknown>";
}

bool tether_type_is_subclass(int32_t index, int32_t base) {
  if (index == base) return true;
  if (base == kTVMFFIObject) return index >= kTVMFFIStaticObjectBegin;
  if (index < base) return false;
  const tether_type_entry_t* a = tether__entry(index);
  const tether_type_entry_t* b = tether__entry(base);
  if (a == NULL || b == NULL) return false;
  int32_t d = b->info.type_depth;
  return a->info.type_depth > d && a->info.type_ancestors[d]->type_index == base;
}

void tether__type_for_each(void (*fn)(const TVMFFITypeInfo* info, void* ctx), void* ctx) {
  int32_t end = atomic_load_explicit(&tether__type_end, memory_order_acquire);
  for (int32_t i = 0; i < end; ++i) {
    tether_type_entry_t* e = tether__entry(i);
    if (e != NULL) fn(&e->info, ctx);
  }
}

/* ---- fields, methods, metadata --------------------------------------------------------- */

/* One heap buffer "a\0b\0c\0"; the returned byte arrays point into it (the first one at
 * its start, which is what gets freed).  NULL when out of memory. */
static char* tether__dup3(const TVMFFIByteArray* a, const TVMFFIByteArray* b,
                          const TVMFFIByteArray* c, TVMFFIByteArray out[3]) {
  const TVMFFIByteArray* in[3] = {a, b, c};
  size_t total = 0;
  for (int i = 0; i < 3; ++i) total += in[i]->size + 1;
  char* buf = malloc(total);
  if (buf == NULL) return NULL;
  char* p = buf;
  for (int i = 0; i < 3; ++i) {
    if (in[i]->size != 0) memcpy(p, in[i]->data, in[i]->size);
    p[in[i]->size] = '\0';
    out[i] = (TVMFFIByteArray){p, in[i]->size};
    p += in[i]->size + 1;
  }
  return buf;
}

/* What a field or method registration copies before taking the lock: its name, doc and
 * metadata into one block (texts[] point into it; the block is returned, to be freed on
 * failure) and an owning copy of `value` (the default or the method).  NULL with the error
 * raised (`what` is "field" or "method"). */
static char* tether__member_copy(const char* fn, const char* what, const TVMFFIByteArray* name,
                                 const TVMFFIByteArray* doc, const TVMFFIByteArray* metadata,
                                 const TVMFFIAny* value, TVMFFIByteArray texts[3],
                                 TVMFFIAny* owned) {
  char* strings = tether__dup3(name, doc, metadata, texts);
  if (strings == NULL) {
    tether_raise("MemoryError", "%s: out of memory copying %s \"%.*s\"", fn, what,
                 tether__prec(name->size), name->data);
    return NULL;
  }
  *owned = tether_any_none();
  if (TVMFFIAnyViewToOwnedAny(value, owned) != 0) {
    free(strings);
    return NULL;
  }
  return strings;
}

static bool tether__name_eq(TVMFFIByteArray a, TVMFFIByteArray b) {
  return a.size == b.size && (a.size == 0 || memcmp(a.data, b.data, a.size) == 0);
}

/* Grows an array reachable from a TypeInfo so it can hold one more element.  Under the
 * lock.  -1 when out of memory (nothing changed). */
static int tether__grow_for_one(tether_block_t** block, int32_t* capacity, int32_t count,
                                size_t elem_size) {
  if (count < *capacity) return 0;
  int32_t cap = *capacity == 0 ? 4 : *capacity * 2;
  tether_block_t* b = tether__block_grow(*block, elem_size, (size_t)cap, (size_t)count);
  if (b == NULL) return -1;
  *block = b;
  *capacity = cap;
  return 0;
}

/* The nearest ancestor of `info` that has an own field called `name`, or NULL. */
static const TVMFFITypeInfo* tether__ancestor_with_field(const TVMFFITypeInfo* info,
                                                         TVMFFIByteArray name) {
  for (int32_t d = info->type_depth - 1; d >= 0; --d) {
    const TVMFFITypeInfo* anc = info->type_ancestors[d];
    for (int32_t i = 0; i < anc->num_fields; ++i) {
      if (tether__name_eq(anc->fields[i].name, name)) return anc;
    }
  }
  return NULL;
}

/*
 * The three registrations below share one shape: copy the strings and convert the Any
 * before taking the lock (both allocate, and converting may call back into the library),
 * check and publish under the lock, record any error found there, and raise it and
 * release whatever was not taken over after unlocking.
 */
int TVMFFITypeRegisterField(int32_t type_index, const TVMFFIFieldInfo* info) {
  static const char fn[] = "TVMFFITypeRegisterField";
  if (info == NULL || !tether__bytes_ok(&info->name) || !tether__bytes_ok(&info->doc) ||
      !tether__bytes_ok(&info->metadata)) {
    return tether_raise("ValueError",
                        "%s: argument `info` must be a field info with valid name/doc/metadata",
                        fn);
  }
  int np = tether__prec(info->name.size);
  TVMFFIByteArray texts[3];
  TVMFFIAny default_value;
  char* strings = tether__member_copy(fn, "field", &info->name, &info->doc, &info->metadata,
                                      &info->default_value_or_factory, texts, &default_value);
  if (strings == NULL) return -1;
  TVMFFIFieldInfo copy = *info;
  copy.name = texts[0];
  copy.doc = texts[1];
  copy.metadata = texts[2];
  copy.default_value_or_factory = default_value;
  bool has_setter_obj =
      (copy.flags & kTVMFFIFieldFlagBitSetterIsFunctionObj) && copy.setter != NULL;
  if (has_setter_obj) TVMFFIObjectIncRef(copy.setter);

  tether_type_err_t err = TETHER_TYPE_ERR_INIT;
  const TVMFFITypeInfo* shadowed = NULL;
  bool taken = false;
  pthread_mutex_lock(&tether__type_mu);
  tether_type_entry_t* e = tether__entry(type_index);
  if (e == NULL) {
    tether__type_fail(&err, "ValueError", "%s: Cannot find type info for type_index=%d", fn,
                      type_index);
    goto unlock;
  }
  for (int32_t i = 0; i < e->info.num_fields; ++i) {
    if (tether__name_eq(e->info.fields[i].name, info->name)) {
      tether__type_fail(&err, "ValueError", "%s: Duplicate field name \"%.*s\" in type \"%s\"",
                        fn, np, info->name.data, e->key);
      goto unlock;
    }
  }
  if (tether__grow_for_one(&e->fields_block, &e->field_capacity, e->info.num_fields,
                           sizeof(TVMFFIFieldInfo)) != 0) {
    tether__type_fail(&err, "MemoryError",
                      "%s: out of memory registering field \"%.*s\" of \"%s\"", fn, np,
                      info->name.data, e->key);
    goto unlock;
  }
  shadowed = tether__ancestor_with_field(&e->info, info->name);
  TVMFFIFieldInfo* fields = (TVMFFIFieldInfo*)e->fields_block->data;
  fields[e->info.num_fields] = copy;
  __atomic_store_n(&e->info.fields, fields, __ATOMIC_RELEASE);
  __atomic_store_n(&e->info.num_fields, e->info.num_fields + 1, __ATOMIC_RELEASE);
  taken = true;
unlock:
  pthread_mutex_unlock(&tether__type_mu);
  if (taken) {
    if (shadowed != NULL) { /* allowed, but worth a warning (text as in tvm-ffi 0.1.14) */
      fprintf(stderr,
              "[WARNING] Field \"%.*s\" in type \"%s\" duplicates an ancestor field in \"%.*s\". "
              "Child types should not re-register inherited fields.\n",
              np, info->name.data, e->key, tether__prec(shadowed->type_key.size),
              shadowed->type_key.data);
    }
    return 0;
  }
  free(strings);
  tether__release_any(&default_value);
  if (has_setter_obj) TVMFFIObjectDecRef(copy.setter);
  return tether__type_raise(&err);
}

int TVMFFITypeRegisterMethod(int32_t type_index, const TVMFFIMethodInfo* info) {
  static const char fn[] = "TVMFFITypeRegisterMethod";
  if (info == NULL || !tether__bytes_ok(&info->name) || !tether__bytes_ok(&info->doc) ||
      !tether__bytes_ok(&info->metadata)) {
    return tether_raise("ValueError",
                        "%s: argument `info` must be a method info with valid name/doc/metadata",
                        fn);
  }
  int np = tether__prec(info->name.size);
  TVMFFIByteArray texts[3];
  TVMFFIAny method;
  char* strings = tether__member_copy(fn, "method", &info->name, &info->doc, &info->metadata,
                                      &info->method, texts, &method);
  if (strings == NULL) return -1;
  TVMFFIMethodInfo copy = *info;
  copy.name = texts[0];
  copy.doc = texts[1];
  copy.metadata = texts[2];
  copy.method = method;

  tether_type_err_t err = TETHER_TYPE_ERR_INIT;
  bool taken = false;
  pthread_mutex_lock(&tether__type_mu);
  tether_type_entry_t* e = tether__entry(type_index);
  if (e == NULL) {
    tether__type_fail(&err, "ValueError", "%s: Cannot find type info for type_index=%d", fn,
                      type_index);
    goto unlock;
  }
  if (tether__grow_for_one(&e->methods_block, &e->method_capacity, e->info.num_methods,
                           sizeof(TVMFFIMethodInfo)) != 0) {
    tether__type_fail(&err, "MemoryError",
                      "%s: out of memory registering method \"%.*s\" of \"%s\"", fn, np,
                      info->name.data, e->key);
    goto unlock;
  }
  TVMFFIMethodInfo* methods = (TVMFFIMethodInfo*)e->methods_block->data;
  methods[e->info.num_methods] = copy;
  __atomic_store_n(&e->info.methods, methods, __ATOMIC_RELEASE);
  __atomic_store_n(&e->info.num_methods, e->info.num_methods + 1, __ATOMIC_RELEASE);
  taken = true;
unlock:
  pthread_mutex_unlock(&tether__type_mu);
  if (taken) return 0;
  free(strings);
  tether__release_any(&method);
  return tether__type_raise(&err);
}

/* Records the metadata of the type (once); `native` marks a layout owned by C code. */
static int tether__register_metadata(const char* fn, int32_t type_index,
                                     const TVMFFITypeMetadata* metadata, bool native) {
  if (metadata == NULL || !tether__bytes_ok(&metadata->doc)) {
    return tether_raise("ValueError", "%s: argument `metadata` must be metadata with a valid doc",
                        fn);
  }
  char* doc = malloc(metadata->doc.size + 1);
  if (doc == NULL) {
    return tether_raise("MemoryError", "%s: out of memory copying the metadata doc", fn);
  }
  if (metadata->doc.size != 0) memcpy(doc, metadata->doc.data, metadata->doc.size);
  doc[metadata->doc.size] = '\0';

  tether_type_err_t err = TETHER_TYPE_ERR_INIT;
  pthread_mutex_lock(&tether__type_mu);
  tether_type_entry_t* e = tether__entry(type_index);
  if (e == NULL) {
    tether__type_fail(&err, "ValueError", "%s: Cannot find type info for type_index=%d", fn,
                      type_index);
  } else if (e->info.metadata != NULL) {
    /* Text as in tvm-ffi 0.1.14. */
    tether__type_fail(&err, "RuntimeError",
                      "Overriding %s, possible causes:\n"
                      "- two ObjectDef<T>() calls for the same T \n"
                      "- when we forget to assign _type_key to ObjectRef<Y> that inherits from T\n"
                      "- another type with the same key is already registered\n"
                      "Cross check the reflection registration.",
                      e->key);
  } else {
    e->metadata = *metadata;
    e->metadata.doc = (TVMFFIByteArray){doc, metadata->doc.size};
    e->native_layout = native;
    __atomic_store_n(&e->info.metadata, &e->metadata, __ATOMIC_RELEASE);
    doc = NULL;
  }
  pthread_mutex_unlock(&tether__type_mu);
  if (err.kind == NULL) return 0;
  free(doc);
  return tether__type_raise(&err);
}

int TVMFFITypeRegisterMetadata(int32_t type_index, const TVMFFITypeMetadata* metadata) {
  return tether__register_metadata("TVMFFITypeRegisterMetadata", type_index, metadata, false);
}

int tether__type_register_native(int32_t type_index, int32_t total_size) {
  TVMFFITypeMetadata md = {{NULL, 0}, NULL, total_size, kTVMFFISEqHashKindUnsupported};
  return tether__register_metadata("tether__type_register_native", type_index, &md, true);
}

bool tether__type_has_reflected_layout(const TVMFFITypeInfo* info) {
  const TVMFFITypeMetadata* md = __atomic_load_n(&info->metadata, __ATOMIC_ACQUIRE);
  return md != NULL && !((const tether_type_entry_t*)info)->native_layout &&
         md->total_size >= (int32_t)sizeof(TVMFFIObject);
}

bool tether__type_is_final(int32_t index) {
  const tether_type_entry_t* e = tether__entry(index);
  return e != NULL && e->num_child_slots == 0 && !e->can_overflow;
}

/* ---- attribute columns ----------------------------------------------------------------- */

/* The column `name`, created empty if absent.  Under the lock; NULL when out of memory. */
static tether_column_t* tether__column_get_or_create_locked(const char* name, size_t len) {
  tether_column_t* c = tether__strmap_get(&tether__columns, name, len);
  if (c != NULL) return c;
  if (tether__strmap_reserve_one(&tether__columns) != 0) return NULL;
  c = calloc(1, sizeof(*c) + len + 1);
  if (c == NULL) return NULL;
  if (len != 0) memcpy(c->name, name, len);
  c->name[len] = '\0';
  c->name_len = len;
  c->column.data = NULL;
  c->column.size = 0;
  c->column.begin_index = 0;
  tether__strmap_put(&tether__columns, c->name, len, c);
  return c;
}

/* Grows column `c` so that index `t` is inside its data; new slots hold None.  Under the
 * lock; -1 when out of memory.  Does not change column.size (published by the caller). */
static int tether__column_reserve_locked(tether_column_t* c, int32_t t) {
  if (t < c->capacity) return 0;
  int64_t cap = c->capacity < 16 ? 16 : (int64_t)c->capacity * 2;
  if (cap <= t) cap = (int64_t)t + 1;
  tether_block_t* b =
      tether__block_grow(c->data_block, sizeof(TVMFFIAny), (size_t)cap, (size_t)c->column.size);
  if (b == NULL) return -1;
  TVMFFIAny* data = (TVMFFIAny*)b->data;
  for (int64_t i = c->column.size; i < cap; ++i) data[i] = tether_any_none();
  c->data_block = b;
  c->capacity = (int32_t)cap;
  __atomic_store_n(&c->column.data, data, __ATOMIC_RELEASE);
  return 0;
}

const TVMFFIAny* tether__type_attr(const char* name, const TVMFFITypeAttrColumn* _Atomic* cache,
                                   int32_t type_index) {
  const TVMFFITypeAttrColumn* col = atomic_load_explicit(cache, memory_order_acquire);
  if (col == NULL) {
    TVMFFIByteArray n = {name, strlen(name)};
    col = TVMFFIGetTypeAttrColumn(&n);
    if (col == NULL) return NULL;
    atomic_store_explicit(cache, col, memory_order_release);
  }
  int64_t slot = (int64_t)type_index - col->begin_index;
  if (col->data == NULL || slot < 0 || slot >= col->size) return NULL;
  const TVMFFIAny* entry = &col->data[slot];
  return entry->type_index == kTVMFFINone ? NULL : entry;
}

int TVMFFITypeRegisterAttr(int32_t type_index, const TVMFFIByteArray* attr_name,
                           const TVMFFIAny* attr_value) {
  static const char fn[] = "TVMFFITypeRegisterAttr";
  if (!tether__bytes_ok(attr_name)) {
    return tether_raise("ValueError", "%s: argument `attr_name` must be a valid byte array", fn);
  }
  if (type_index < 0 || type_index >= TETHER_TYPE_INDEX_LIMIT) {
    return tether_raise("ValueError",
                        "%s: type_index %d for attribute `%.*s` is out of range [0, %d)", fn,
                        type_index, tether__prec(attr_name->size), attr_name->data,
                        TETHER_TYPE_INDEX_LIMIT);
  }
  if (attr_value == NULL && type_index != kTVMFFINone) {
    return tether_raise("ValueError", "%s: argument `attr_value` must not be NULL", fn);
  }
  int np = tether__prec(attr_name->size);
  TVMFFIAny owned = tether_any_none();
  if (type_index != kTVMFFINone && TVMFFIAnyViewToOwnedAny(attr_value, &owned) != 0) return -1;
  tether_type_err_t err = TETHER_TYPE_ERR_INIT;
  pthread_mutex_lock(&tether__type_mu);
  tether_column_t* c = tether__column_get_or_create_locked(attr_name->data, attr_name->size);
  if (c == NULL) {
    tether__type_fail(&err, "MemoryError", "%s: out of memory creating column `%.*s`", fn, np,
                      attr_name->data);
  } else if (type_index == kTVMFFINone) {
    /* sentinel: only make sure the column exists */
  } else if (type_index < c->column.size && c->column.data[type_index].type_index != kTVMFFINone) {
    /* Text as in tvm-ffi 0.1.14. */
    tether__type_fail(&err, "RuntimeError",
                      "TypeAttr `%.*s` is already registered for type index %d. To update the "
                      "stored value, register a mutable container (e.g., Dict/List) once and "
                      "mutate it in place on subsequent calls.",
                      np, attr_name->data, type_index);
  } else if (tether__column_reserve_locked(c, type_index) != 0) {
    tether__type_fail(&err, "MemoryError", "%s: out of memory growing column `%.*s`", fn, np,
                      attr_name->data);
  } else {
    ((TVMFFIAny*)c->data_block->data)[type_index] = owned;
    owned = tether_any_none();
    if (type_index >= c->column.size) {
      __atomic_store_n(&c->column.size, type_index + 1, __ATOMIC_RELEASE);
    }
  }
  pthread_mutex_unlock(&tether__type_mu);
  tether__release_any(&owned);
  return err.kind != NULL ? tether__type_raise(&err) : 0;
}

const TVMFFITypeAttrColumn* TVMFFIGetTypeAttrColumn(const TVMFFIByteArray* attr_name) {
  if (!tether__bytes_ok(attr_name)) return NULL;
  pthread_mutex_lock(&tether__type_mu);
  tether_column_t* c = tether__strmap_get(&tether__columns, attr_name->data, attr_name->size);
  pthread_mutex_unlock(&tether__type_mu);
  return c != NULL ? &c->column : NULL;
}

/* ---- load and unload ------------------------------------------------------------------- */

int tether__type_init(void) {
  static const struct {
    int32_t index;
    const char* key;
    enum { POD, ROOT, OBJECT, LAZY } kind;
  } statics[] = {
#define TETHER__STATIC_ROW(index, key, kind) {index, key, kind},
      TETHER_STATIC_TYPES(TETHER__STATIC_ROW)
#undef TETHER__STATIC_ROW
  };
  for (size_t i = 0; i < sizeof(statics) / sizeof(statics[0]); ++i) {
    TVMFFIByteArray key = {statics[i].key, strlen(statics[i].key)};
    int32_t got;
    switch (statics[i].kind) {
      case POD:
        got = TVMFFITypeGetOrAllocIndex(&key, statics[i].index, 0, 0, 0, -1);
        break;
      case ROOT:
        got = TVMFFITypeGetOrAllocIndex(&key, statics[i].index, 0, 0, 1, -1);
        /* its layout is the bare header every object starts with */
        if (got == statics[i].index &&
            tether__type_register_native(got, (int32_t)sizeof(TVMFFIObject)) != 0) {
          got = -1;
        }
        break;
      case OBJECT:
        got = tether__type_register_static(statics[i].key, statics[i].index);
        break;
      default: /* LAZY */
        continue;
    }
    if (got != statics[i].index) {
      fprintf(stderr, "libtether: cannot pre-register type `%s` at index %d\n", statics[i].key,
              (int)statics[i].index);
      return -1;
    }
  }
  for (size_t i = 0; i < sizeof(tether__attr_columns_at_load) / sizeof(char*); ++i) {
    const char* column = tether__attr_columns_at_load[i];
    TVMFFIByteArray name = {column, strlen(column)};
    if (TVMFFITypeRegisterAttr(kTVMFFINone, &name, NULL) != 0) {
      fprintf(stderr, "libtether: cannot create type attribute column `%s`\n", name.data);
      return -1;
    }
  }
  return 0;
}

/* Releases the values the table keeps alive (their deleters may still look types up). */
static void tether__type_release_values(void) {
  int32_t end = atomic_load_explicit(&tether__type_end, memory_order_acquire);
  for (int32_t i = 0; i < end; ++i) {
    tether_type_entry_t* e = tether__entry(i);
    if (e == NULL) continue;
    TVMFFIFieldInfo* fields = e->fields_block ? (TVMFFIFieldInfo*)e->fields_block->data : NULL;
    for (int32_t f = 0; f < e->info.num_fields; ++f) {
      tether__release_any(&fields[f].default_value_or_factory);
      if ((fields[f].flags & kTVMFFIFieldFlagBitSetterIsFunctionObj) && fields[f].setter != NULL) {
        TVMFFIObjectDecRef(fields[f].setter);
        fields[f].setter = NULL;
      }
    }
    TVMFFIMethodInfo* methods = e->methods_block ? (TVMFFIMethodInfo*)e->methods_block->data : NULL;
    for (int32_t m = 0; m < e->info.num_methods; ++m) tether__release_any(&methods[m].method);
  }
  for (size_t s = 0; s < tether__columns.capacity; ++s) {
    tether_column_t* c = tether__columns.slots[s].value;
    if (tether__columns.slots[s].key == NULL) continue;
    TVMFFIAny* data = c->data_block ? (TVMFFIAny*)c->data_block->data : NULL;
    for (int32_t t = 0; t < c->column.size; ++t) tether__release_any(&data[t]);
  }
}

/* Runs at unload, when no other thread may use the table any more. */
void tether__type_fini(void) {
  tether__type_release_values();
  pthread_mutex_lock(&tether__type_mu);
  int32_t end = atomic_load_explicit(&tether__type_end, memory_order_acquire);
  for (int32_t i = 0; i < end; ++i) {
    tether_type_entry_t* e = tether__entry(i);
    if (e == NULL) continue;
    for (int32_t f = 0; f < e->info.num_fields; ++f) free((void*)e->info.fields[f].name.data);
    for (int32_t m = 0; m < e->info.num_methods; ++m) free((void*)e->info.methods[m].name.data);
    if (e->info.metadata != NULL) free((void*)e->metadata.doc.data);
    tether__block_free_chain(e->fields_block);
    tether__block_free_chain(e->methods_block);
    free((void*)e->info.type_ancestors);
    free(e);
  }
  for (int i = 0; i < TETHER_TYPE_NUM_CHUNKS; ++i) {
    free(atomic_load_explicit(&tether__type_chunks[i], memory_order_relaxed));
    atomic_store_explicit(&tether__type_chunks[i], NULL, memory_order_relaxed);
  }
  for (size_t s = 0; s < tether__columns.capacity; ++s) {
    tether_column_t* c = tether__columns.slots[s].value;
    if (tether__columns.slots[s].key == NULL) continue;
    tether__block_free_chain(c->data_block);
    free(c);
  }
  tether__strmap_free(&tether__type_by_key);
  tether__strmap_free(&tether__columns);
  atomic_store_explicit(&tether__type_end, 0, memory_order_relaxed);
  tether__type_next_dynamic = kTVMFFIDynObjectBegin;
  pthread_mutex_unlock(&tether__type_mu);
}
