/*
 * registry.c -- the global function registry (TVMFFIFunctionSetGlobal / GetGlobal) and
 * its `ffi.*` globals: FunctionListGlobalNamesFunctor, FunctionRemoveGlobal,
 * GetGlobalFuncMetadata.
 *
 * Readers never lock and never wait.  The registry is an open-addressing hash table
 * (linear probing, power-of-two size, load <= 1/2) whose slots are atomic pointers to
 * immutable entries {name, func, doc, metadata}.  Writers serialise on one mutex.
 *
 * Reclamation is read-copy-update with striped reader counters (the SRCU scheme):
 * - A reader's critical section (find the entry, IncRef its function or copy its
 *   metadata) is bracketed by an increment and a decrement of one of 2 x STRIPES
 *   counters: the half selected by the parity of `epoch`, the stripe by the thread's
 *   stack address (any choice is correct; distinct threads just rarely share a line).
 * - A writer that unpublishes memory (an overridden or removed entry, a table replaced
 *   by growth) stores the new pointer, then waits for a grace period: it flips `epoch`
 *   and waits until each counter of the old half has been seen at zero, twice (once per
 *   half), so every reader that could have loaded the old pointer has left.  Only then
 *   is the memory freed and the old function's reference released.  Plain insertions
 *   (into an empty or tombstone slot) unpublish nothing and do not wait.
 * - The store/load pairs (writer: slot then counters; reader: counter then slot) are all
 *   seq_cst, so a reader the writer saw at zero either finished or sees the new pointer.
 *
 * Table invariants: a slot is NULL (never used), the tombstone (name removed; skipped by
 * probes, reused by inserts), or an entry.  Slots never return to NULL, so a probe for a
 * name ends at the first NULL.  Each entry holds one strong reference to its function.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>

#include "internal.h"
#include "function.h"
#include "registry.h"

/* Laid out so that a lookup touches one cache line: the entry is 64-byte aligned and the
 * fields a probe reads (hash, func, name_len, then the name) come first. */
typedef struct {
  uint64_t hash;
  TVMFFIObject* func; /* strong reference */
  uint64_t seq;       /* registration order, for listing; kept by overrides */
  uint32_t name_len;
  uint32_t doc_len;
  uint32_t metadata_len;
  char text[]; /* name '\0' doc '\0' metadata '\0' */
} tether_entry_t;

static inline TVMFFIByteArray tether__entry_doc(const tether_entry_t* e) {
  return (TVMFFIByteArray){e->text + e->name_len + 1, e->doc_len};
}
static inline TVMFFIByteArray tether__entry_metadata(const tether_entry_t* e) {
  return (TVMFFIByteArray){e->text + e->name_len + 1 + e->doc_len + 1, e->metadata_len};
}

typedef struct {
  size_t mask; /* capacity - 1 */
  _Atomic(tether_entry_t*) slots[];
} tether_table_t;

#define TETHER__REGISTRY_MIN_CAPACITY 64
#define TETHER__READER_STRIPES 32

/* A removed name's slot; never matches (names are shorter than UINT32_MAX bytes). */
static tether_entry_t tether__tombstone = {.hash = 0, .name_len = UINT32_MAX};
#define TETHER__TOMBSTONE (&tether__tombstone)

typedef struct {
  _Alignas(64) atomic_long n;
} tether_reader_count_t;

static struct {
  pthread_mutex_t mu;
  _Atomic(tether_table_t*) table; /* the current table; NULL before init / after fini */
  atomic_uint epoch;              /* parity selects the readers' counter half */
  tether_reader_count_t readers[2][TETHER__READER_STRIPES];
  /* Guarded by mu. */
  size_t used; /* non-NULL slots of the current table (entries and tombstones) */
  size_t live; /* entries in the current table */
  uint64_t next_seq;
} tether__reg = {.mu = PTHREAD_MUTEX_INITIALIZER};

/* ---- reader sections and grace periods ------------------------------------------------------ */

static inline tether_reader_count_t* tether__read_begin(void) {
  char probe;
  /* Thread stacks lie megabytes apart: hash the 2 MiB region of this frame. */
  uint64_t region = (uint64_t)(uintptr_t)&probe >> 21;
  size_t stripe = (size_t)((region * UINT64_C(0x9e3779b97f4a7c15)) >> 59) % TETHER__READER_STRIPES;
  unsigned half = atomic_load(&tether__reg.epoch) & 1u;
  tether_reader_count_t* c = &tether__reg.readers[half][stripe];
  atomic_fetch_add(&c->n, 1);
  return c;
}

static inline void tether__read_end(tether_reader_count_t* c) {
  atomic_fetch_sub_explicit(&c->n, 1, memory_order_release);
}

/* Waits until no reader can still hold a pointer unpublished before the call.  Caller
 * holds mu (one grace period at a time). */
static void tether__synchronize(void) {
  for (int pass = 0; pass < 2; ++pass) {
    unsigned half = atomic_fetch_add(&tether__reg.epoch, 1u) & 1u;
    for (size_t s = 0; s < TETHER__READER_STRIPES; ++s) {
      for (unsigned spins = 0; atomic_load(&tether__reg.readers[half][s].n) != 0; ++spins) {
        if (spins > 64) sched_yield();
      }
    }
  }
}

/* ---- hashing and probing -------------------------------------------------------------------- */

static inline uint64_t tether__rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

static inline uint64_t tether__fmix(uint64_t x) {
  x ^= x >> 33;
  x *= UINT64_C(0xff51afd7ed558ccd);
  x ^= x >> 33;
  x *= UINT64_C(0xc4ceb9fe1a85ec53);
  x ^= x >> 33;
  return x;
}

/* A fast 64-bit hash of a name, 8 bytes per step. */
static uint64_t tether__hash_name(const char* s, size_t n) {
  uint64_t h = UINT64_C(0x9e3779b97f4a7c15) ^ (uint64_t)n;
  uint64_t w;
  for (; n >= 8; s += 8, n -= 8) {
    memcpy(&w, s, 8);
    h = tether__rotl(h ^ (w * UINT64_C(0x87c37b91114253d5)), 27) * UINT64_C(0x4cf5ad432745937f);
  }
  if (n != 0) {
    w = 0;
    memcpy(&w, s, n);
    h = tether__rotl(h ^ (w * UINT64_C(0x87c37b91114253d5)), 27) * UINT64_C(0x4cf5ad432745937f);
  }
  return tether__fmix(h);
}

static inline bool tether__entry_is(const tether_entry_t* e, const char* name, size_t len,
                                    uint64_t hash) {
  return e->hash == hash && e->name_len == len && memcmp(e->text, name, len) == 0;
}

/* The entry for `name` in the current table, or NULL.  Call inside a reader section (or
 * with mu held); the entry is valid until the section ends. */
static tether_entry_t* tether__find(const char* name, size_t len, uint64_t hash) {
  tether_table_t* t = atomic_load(&tether__reg.table);
  if (t == NULL) return NULL;
  for (size_t i = (size_t)hash & t->mask;; i = (i + 1) & t->mask) {
    tether_entry_t* e = atomic_load(&t->slots[i]);
    if (e == NULL) return NULL;
    if (tether__entry_is(e, name, len, hash)) return e;
  }
}

/* ---- writers (mu held) ---------------------------------------------------------------------- */

/* New unpublished entry holding a new reference to func.  NULL with an error raised on
 * OOM or when a string is 4 GiB or longer. */
static tether_entry_t* tether__entry_new(TVMFFIByteArray name, TVMFFIObject* func,
                                         TVMFFIByteArray doc, TVMFFIByteArray metadata) {
  if (name.size >= UINT32_MAX || doc.size >= UINT32_MAX || metadata.size >= UINT32_MAX) {
    tether_raise("ValueError", "TVMFFIFunctionSetGlobal: name, doc or metadata of `%.*s` is "
                 "too long", (int)(name.size < 256 ? name.size : 256), name.data);
    return NULL;
  }
  void* mem = NULL;
  size_t size = sizeof(tether_entry_t) + name.size + doc.size + metadata.size + 3;
  if (posix_memalign(&mem, 64, size) != 0) {
    tether_raise("MemoryError", "TVMFFIFunctionSetGlobal: out of memory registering `%.*s`",
                 (int)name.size, name.data);
    return NULL;
  }
  tether_entry_t* e = mem;
  char* p = e->text;
  if (name.size != 0) memcpy(p, name.data, name.size);
  p[name.size] = '\0';
  p += name.size + 1;
  if (doc.size != 0) memcpy(p, doc.data, doc.size);
  p[doc.size] = '\0';
  p += doc.size + 1;
  if (metadata.size != 0) memcpy(p, metadata.data, metadata.size);
  p[metadata.size] = '\0';
  e->hash = tether__hash_name(name.data, name.size);
  e->func = func;
  e->name_len = (uint32_t)name.size;
  e->doc_len = (uint32_t)doc.size;
  e->metadata_len = (uint32_t)metadata.size;
  e->seq = 0;
  TVMFFIObjectIncRef(func);
  return e;
}

/* Frees an entry no reader can see; returns its function reference for the caller to
 * release once the mutex is dropped. */
static TVMFFIObject* tether__entry_free(tether_entry_t* e) {
  TVMFFIObject* func = e->func;
  free(e);
  return func;
}

/* Slot of `name` in `t`: *found = its entry, or NULL with the returned slot being where
 * it would be inserted (the first tombstone on its probe path, else the ending NULL). */
static _Atomic(tether_entry_t*)* tether__probe_for_insert(tether_table_t* t, const char* name,
                                                          size_t len, uint64_t hash,
                                                          tether_entry_t** found) {
  _Atomic(tether_entry_t*)* reuse = NULL;
  for (size_t i = (size_t)hash & t->mask;; i = (i + 1) & t->mask) {
    tether_entry_t* e = atomic_load_explicit(&t->slots[i], memory_order_relaxed);
    if (e == NULL) {
      *found = NULL;
      return reuse != NULL ? reuse : &t->slots[i];
    }
    if (e == TETHER__TOMBSTONE) {
      if (reuse == NULL) reuse = &t->slots[i];
    } else if (tether__entry_is(e, name, len, hash)) {
      *found = e;
      return &t->slots[i];
    }
  }
}

/* Publishes a table holding the current entries (no tombstones), sized for `live + 1`.
 * *retired = the old table, to free after a grace period.  -1 with MemoryError on OOM. */
static int tether__grow(tether_table_t** retired) {
  tether_table_t* old = atomic_load_explicit(&tether__reg.table, memory_order_relaxed);
  size_t capacity = TETHER__REGISTRY_MIN_CAPACITY;
  while (capacity < (tether__reg.live + 1) * 4) capacity *= 2;
  tether_table_t* t = calloc(1, sizeof(*t) + capacity * sizeof(t->slots[0]));
  if (t == NULL) {
    return tether_raise("MemoryError",
                        "TVMFFIFunctionSetGlobal: out of memory growing the registry to %zu slots",
                        capacity);
  }
  t->mask = capacity - 1;
  for (size_t i = 0; i < capacity; ++i) atomic_init(&t->slots[i], NULL);
  if (old != NULL) {
    for (size_t i = 0; i <= old->mask; ++i) {
      tether_entry_t* e = atomic_load_explicit(&old->slots[i], memory_order_relaxed);
      if (e == NULL || e == TETHER__TOMBSTONE) continue;
      size_t j = (size_t)e->hash & t->mask;
      while (atomic_load_explicit(&t->slots[j], memory_order_relaxed) != NULL) {
        j = (j + 1) & t->mask;
      }
      atomic_init(&t->slots[j], e);
    }
  }
  tether__reg.used = tether__reg.live;
  atomic_store(&tether__reg.table, t);
  *retired = old;
  return 0;
}

/* Registers `e` under its name (steals it), or removes the name when e is NULL (then
 * `name`/`len` give it).  *dropped = the function reference the caller releases after
 * the call (the replaced or removed function), or NULL.  Returns 1 if something was
 * published or removed, 0 if a removal found nothing, -1 with an error raised. */
static int tether__publish(tether_entry_t* e, const char* name, size_t len, int allow_override,
                           TVMFFIObject** dropped) {
  int rc = -1;
  tether_table_t* retired_table = NULL;
  tether_entry_t* old = NULL;
  *dropped = NULL;
  pthread_mutex_lock(&tether__reg.mu);
  if (e != NULL) {
    name = e->text;
    len = e->name_len;
  }
  uint64_t hash = e != NULL ? e->hash : tether__hash_name(name, len);
  tether_table_t* t = atomic_load_explicit(&tether__reg.table, memory_order_relaxed);
  if (t == NULL) {
    if (e == NULL) {
      rc = 0;
      goto fail;
    }
    if (tether__grow(&retired_table) != 0) goto fail;
    t = atomic_load_explicit(&tether__reg.table, memory_order_relaxed);
  }
  _Atomic(tether_entry_t*)* slot = tether__probe_for_insert(t, name, len, hash, &old);
  if (e == NULL) { /* removal */
    if (old == NULL) {
      rc = 0;
      goto fail;
    }
    atomic_store(slot, TETHER__TOMBSTONE);
    tether__reg.live--;
  } else if (old != NULL) { /* override */
    if (!allow_override) {
      old = NULL;
      tether_raise("RuntimeError", "Global Function `%.*s` is already registered", (int)len, name);
      goto fail;
    }
    e->seq = old->seq;
    atomic_store(slot, e);
  } else { /* insert */
    bool fresh = atomic_load_explicit(slot, memory_order_relaxed) == NULL;
    if (fresh && (tether__reg.used + 1) * 2 > t->mask + 1) {
      if (tether__grow(&retired_table) != 0) goto fail;
      t = atomic_load_explicit(&tether__reg.table, memory_order_relaxed);
      slot = tether__probe_for_insert(t, name, len, hash, &old);
      fresh = true;
    }
    e->seq = tether__reg.next_seq++;
    atomic_store(slot, e);
    if (fresh) tether__reg.used++;
    tether__reg.live++;
  }
  if (old != NULL || retired_table != NULL) {
    tether__synchronize();
    free(retired_table);
    if (old != NULL) *dropped = tether__entry_free(old);
  }
  pthread_mutex_unlock(&tether__reg.mu);
  return 1;
fail:
  pthread_mutex_unlock(&tether__reg.mu);
  /* A failed growth published nothing: retired_table is NULL here. */
  if (e != NULL) TVMFFIObjectDecRef(tether__entry_free(e));
  return rc;
}

/* ---- the ABI -------------------------------------------------------------------------------- */

static int tether__set_global(const char* api, TVMFFIByteArray name, TVMFFIObject* f,
                              TVMFFIByteArray doc, TVMFFIByteArray metadata, int allow_override) {
  if (f == NULL || f->type_index != kTVMFFIFunction) {
    return tether_raise("TypeError", "%s: the function registered as `%.*s` must be an "
                        "ffi.Function, got %s", api, (int)name.size, name.data,
                        f == NULL ? "NULL" : tether_type_key(f->type_index));
  }
  tether_entry_t* e = tether__entry_new(name, f, doc, metadata);
  if (e == NULL) return -1;
  TVMFFIObject* dropped = NULL;
  int rc = tether__publish(e, NULL, 0, allow_override, &dropped);
  TVMFFIObjectDecRef(dropped);
  return rc < 0 ? -1 : 0;
}

/* Checks a ByteArray argument: non-NULL, and data non-NULL unless empty. */
static int tether__check_name(const char* api, const TVMFFIByteArray* name) {
  if (name == NULL || (name->data == NULL && name->size != 0)) {
    return tether_raise("ValueError", "%s: argument `name` must not be NULL", api);
  }
  return 0;
}

static const TVMFFIByteArray tether__empty = {"", 0};

int TVMFFIFunctionSetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle f,
                            int allow_override) {
  if (tether__check_name("TVMFFIFunctionSetGlobal", name) != 0) return -1;
  TVMFFIByteArray key = name->data != NULL ? *name : tether__empty;
  return tether__set_global("TVMFFIFunctionSetGlobal", key, f, tether__empty, tether__empty,
                            allow_override);
}

int TVMFFIFunctionSetGlobalFromMethodInfo(const TVMFFIMethodInfo* info, int allow_override) {
  static const char api[] = "TVMFFIFunctionSetGlobalFromMethodInfo";
  if (info == NULL) {
    return tether_raise("ValueError", "%s: argument `method_info` must not be NULL", api);
  }
  if (tether__check_name(api, &info->name) != 0) return -1;
  TVMFFIByteArray name = info->name.data != NULL ? info->name : tether__empty;
  TVMFFIByteArray doc = info->doc.data != NULL ? info->doc : tether__empty;
  TVMFFIByteArray metadata = info->metadata.data != NULL ? info->metadata : tether__empty;
  TVMFFIObject* f = info->method.type_index == kTVMFFIFunction ? info->method.v_obj : NULL;
  if (f == NULL) {
    return tether_raise("TypeError", "%s: `method` of `%.*s` must hold an ffi.Function, got %s",
                        api, (int)name.size, name.data, tether_type_key(info->method.type_index));
  }
  return tether__set_global(api, name, f, doc, metadata, allow_override);
}

int TVMFFIFunctionGetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle* out) {
  if (TETHER_UNLIKELY(out == NULL)) {
    return tether_raise("ValueError", "TVMFFIFunctionGetGlobal: argument `out` must not be NULL");
  }
  *out = NULL;
  if (TETHER_UNLIKELY(tether__check_name("TVMFFIFunctionGetGlobal", name) != 0)) return -1;
  const char* data = name->data != NULL ? name->data : "";
  uint64_t hash = tether__hash_name(data, name->size);
  tether_reader_count_t* section = tether__read_begin();
  tether_entry_t* e = tether__find(data, name->size, hash);
  if (e != NULL) {
    TVMFFIObjectIncRef(e->func);
    *out = e->func;
  }
  tether__read_end(section);
  return 0;
}

/* ---- internal API --------------------------------------------------------------------------- */

TVMFFIObject* tether__registry_lookup(const char* name, size_t len) {
  uint64_t hash = tether__hash_name(name, len);
  tether_reader_count_t* section = tether__read_begin();
  tether_entry_t* e = tether__find(name, len, hash);
  TVMFFIObject* f = e != NULL ? e->func : NULL;
  tether__read_end(section);
  return f;
}

int tether__registry_info(const char* name, size_t len, TVMFFIAny* doc, TVMFFIAny* metadata) {
  int rc = 0;
  uint64_t hash = tether__hash_name(name, len);
  tether_reader_count_t* section = tether__read_begin();
  tether_entry_t* e = tether__find(name, len, hash);
  if (e != NULL) {
    rc = 1;
    TVMFFIByteArray d = tether__entry_doc(e), m = tether__entry_metadata(e);
    if (doc != NULL && TVMFFIStringFromByteArray(&d, doc) != 0) rc = -1;
    if (rc == 1 && metadata != NULL && TVMFFIStringFromByteArray(&m, metadata) != 0) {
      if (doc != NULL) tether_any_release(doc);
      rc = -1;
    }
  }
  tether__read_end(section);
  return rc;
}

int tether__registry_remove(const char* name, size_t len) {
  TVMFFIObject* dropped = NULL;
  int rc = tether__publish(NULL, name, len, 1, &dropped);
  TVMFFIObjectDecRef(dropped);
  return rc;
}

/* ---- tether_func_register ------------------------------------------------------------------- */

/* tether_func_register(_flags); `api` names the entry point in errors. */
static int tether__func_register(const char* api, const char* name, TVMFFISafeCallType fn,
                                 const char* doc, const char* metadata_json, uint32_t flags,
                                 int allow_override) {
  if (name == NULL) return tether_raise("ValueError", "%s: argument `name` must not be NULL", api);
  if (fn == NULL) {
    return tether_raise("ValueError", "%s: argument `fn` (the `safe_call` of `%s`) must not be "
                        "NULL", api, name);
  }
  if ((flags & ~(uint32_t)TETHER_FUNC_FLAGS_ALL) != 0) {
    return tether_raise("ValueError", "%s: argument `flags` of `%s` has unknown bits 0x%x", api,
                        name, (unsigned)(flags & ~(uint32_t)TETHER_FUNC_FLAGS_ALL));
  }
  TVMFFIObjectHandle f = NULL;
  if (tether_func_create(NULL, fn, NULL, flags, &f) != 0) return -1;
  TVMFFIByteArray d = doc != NULL ? (TVMFFIByteArray){doc, strlen(doc)} : tether__empty;
  TVMFFIByteArray m = tether__empty;
  if (metadata_json != NULL) m = (TVMFFIByteArray){metadata_json, strlen(metadata_json)};
  int rc = tether__set_global(api, (TVMFFIByteArray){name, strlen(name)}, f, d, m, allow_override);
  TVMFFIObjectDecRef(f);
  return rc;
}

int tether_func_register(const char* name, TVMFFISafeCallType fn, const char* doc,
                         const char* metadata_json, int allow_override) {
  return tether__func_register("tether_func_register", name, fn, doc, metadata_json, 0,
                               allow_override);
}

int tether_func_register_flags(const char* name, TVMFFISafeCallType fn, const char* doc,
                               const char* metadata_json, uint32_t flags, int allow_override) {
  return tether__func_register("tether_func_register_flags", name, fn, doc, metadata_json, flags,
                               allow_override);
}

TVMFFIObject* tether__registry_singleton(const char* name) {
  TVMFFIObject* fn = tether__registry_lookup(name, strlen(name));
  TVMFFIAny out = tether_any_none();
  if (fn == NULL || TVMFFIFunctionCall(fn, NULL, 0, &out) != 0 ||
      out.type_index < kTVMFFIStaticObjectBegin) {
    TVMFFIErrorMoveFromRaised(NULL);
    tether_any_release(&out);
    return NULL;
  }
  TVMFFIObject* obj = out.v_obj; /* the registry keeps it alive */
  TVMFFIObjectDecRef(obj);
  return obj;
}

/* ---- globals -------------------------------------------------------------------------------- */

/* A snapshot of the registered names, in registration order, copied into one block. */
typedef struct {
  size_t count;
  TVMFFIByteArray names[]; /* then the characters */
} tether_names_t;

typedef struct {
  uint64_t seq;
  const tether_entry_t* entry;
} tether_seq_entry_t;

static int tether__cmp_seq(const void* a, const void* b) {
  uint64_t x = ((const tether_seq_entry_t*)a)->seq, y = ((const tether_seq_entry_t*)b)->seq;
  return x < y ? -1 : x > y;
}

#define TETHER__SIG_NAMES_FUNCTOR "(0: int) -> Any"

static int tether__names_call(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  const tether_names_t* names = self;
  int64_t i;
  if (tether_check_nargs(TETHER__SIG_NAMES_FUNCTOR, NULL, n, 1) != 0) return -1;
  if (tether_arg_int(TETHER__SIG_NAMES_FUNCTOR, args, 0, &i) != 0) return -1;
  if (i < 0) {
    *result = tether_any_int((int64_t)names->count);
    return 0;
  }
  if ((uint64_t)i >= names->count) {
    return tether_raise("IndexError", "Index %lld out of bounds %zu", (long long)i, names->count);
  }
  return TVMFFIStringFromByteArray(&names->names[i], result);
}

/* The names snapshot (malloc'd), or NULL on OOM.  Caller holds mu. */
static tether_names_t* tether__names_snapshot(void) {
  tether_table_t* t = atomic_load_explicit(&tether__reg.table, memory_order_relaxed);
  size_t live = tether__reg.live, count = 0, chars = 0;
  tether_seq_entry_t* order = malloc((live + 1) * sizeof(*order));
  if (order == NULL) return NULL;
  for (size_t i = 0; t != NULL && i <= t->mask; ++i) {
    tether_entry_t* e = atomic_load_explicit(&t->slots[i], memory_order_relaxed);
    if (e == NULL || e == TETHER__TOMBSTONE) continue;
    order[count++] = (tether_seq_entry_t){e->seq, e};
    chars += e->name_len + 1;
  }
  qsort(order, count, sizeof(*order), tether__cmp_seq);
  tether_names_t* names = malloc(sizeof(*names) + count * sizeof(names->names[0]) + chars);
  if (names != NULL) {
    char* p = (char*)&names->names[count];
    names->count = count;
    for (size_t i = 0; i < count; ++i) {
      memcpy(p, order[i].entry->text, order[i].entry->name_len + 1);
      names->names[i] = (TVMFFIByteArray){p, order[i].entry->name_len};
      p += order[i].entry->name_len + 1;
    }
  }
  free(order);
  return names;
}

static int tether__g_list_names_functor(void* handle, const TVMFFIAny* args, int32_t n,
                                        TVMFFIAny* result) {
  TVMFFIObjectHandle f = NULL;
  if (tether_check_nargs("ffi.FunctionListGlobalNamesFunctor() -> ffi.Function", NULL, n, 0) != 0) {
    return -1;
  }
  pthread_mutex_lock(&tether__reg.mu);
  tether_names_t* names = tether__names_snapshot();
  pthread_mutex_unlock(&tether__reg.mu);
  if (names == NULL) {
    return tether_raise("MemoryError", "ffi.FunctionListGlobalNamesFunctor: out of memory");
  }
  if (TVMFFIFunctionCreate(names, tether__names_call, free, &f) != 0) {
    free(names);
    return -1;
  }
  *result = tether_any_object(f);
  return 0;
}

#define TETHER__SIG_REMOVE "ffi.FunctionRemoveGlobal(0: str) -> bool"

static int tether__g_remove_global(void* handle, const TVMFFIAny* args, int32_t n,
                                   TVMFFIAny* result) {
  TVMFFIByteArray name;
  if (tether_check_nargs(TETHER__SIG_REMOVE, NULL, n, 1) != 0) return -1;
  if (tether_arg_str(TETHER__SIG_REMOVE, args, 0, &name) != 0) return -1;
  int rc = tether__registry_remove(name.data, name.size);
  if (rc < 0) return -1;
  *result = tether_any_bool(rc == 1);
  return 0;
}

#define TETHER__SIG_METADATA "ffi.GetGlobalFuncMetadata(0: str) -> str"

static int tether__g_get_metadata(void* handle, const TVMFFIAny* args, int32_t n,
                                  TVMFFIAny* result) {
  TVMFFIByteArray name;
  if (tether_check_nargs(TETHER__SIG_METADATA, NULL, n, 1) != 0) return -1;
  if (tether_arg_str(TETHER__SIG_METADATA, args, 0, &name) != 0) return -1;
  int rc = tether__registry_info(name.data, name.size, NULL, result);
  if (rc == 0) {
    return tether_raise("RuntimeError", "Global Function is not found: %.*s", (int)name.size,
                        name.data);
  }
  return rc < 0 ? -1 : 0;
}

/* The reference's metadata for these registrations (observed). */
#define TETHER__SCHEMA(args)                                                     \
  "{\"type_schema\":\"{\\\"type\\\":\\\"ffi.Function\\\",\\\"args\\\":[" args "]}\"}"
#define TETHER__T(key) "{\\\"type\\\":\\\"" key "\\\"}"

static const struct {
  const char* name;
  TVMFFISafeCallType fn;
  const char* metadata;
} tether__registry_globals[] = {
    {"ffi.FunctionListGlobalNamesFunctor", tether__g_list_names_functor,
     TETHER__SCHEMA(TETHER__T("ffi.Function"))},
    {"ffi.FunctionRemoveGlobal", tether__g_remove_global,
     TETHER__SCHEMA(TETHER__T("bool") "," TETHER__T("ffi.String"))},
    {"ffi.GetGlobalFuncMetadata", tether__g_get_metadata,
     TETHER__SCHEMA(TETHER__T("ffi.String") "," TETHER__T("ffi.String"))},
};

int tether__registry_init(void) {
  for (size_t i = 0; i < sizeof(tether__registry_globals) / sizeof(tether__registry_globals[0]);
       ++i) {
    if (tether_func_register(tether__registry_globals[i].name, tether__registry_globals[i].fn,
                             NULL, tether__registry_globals[i].metadata, 0) != 0) {
      fprintf(stderr, "libtether: cannot register %s\n", tether__registry_globals[i].name);
      return -1;
    }
  }
  return 0;
}

/* Releases every function and frees the table.  The table is detached under the mutex
 * and released outside it, so function deleters may call back in (they find it empty). */
void tether__registry_fini(void) {
  pthread_mutex_lock(&tether__reg.mu);
  tether_table_t* t = atomic_exchange(&tether__reg.table, NULL);
  tether__reg.used = tether__reg.live = 0;
  pthread_mutex_unlock(&tether__reg.mu);
  if (t == NULL) return;
  for (size_t i = 0; i <= t->mask; ++i) {
    tether_entry_t* e = atomic_load_explicit(&t->slots[i], memory_order_relaxed);
    if (e != NULL && e != TETHER__TOMBSTONE) TVMFFIObjectDecRef(tether__entry_free(e));
  }
  free(t);
}
