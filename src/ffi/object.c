/*
 * object.c -- the object header: allocation, strong and weak reference counting with
 * the exact atomic protocol of spec 1.6 (C++ code compiled against tvm-ffi inlines the
 * same operations on our objects), the per-thread cache of small object blocks, opaque
 * objects, and the (dormant) custom allocator.
 *
 * Invariant: combined_ref_count = strong | (weak << 32), where all strong owners
 * together hold one weak count.  Memory is released only through the deleter, with
 * Strong (destroy) then Weak (free), or Both at once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "object.h"
#include "error.h"
#include "type.h"

/* The block cache (below) needs glibc's malloc_usable_size and is off under AddressSanitizer. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TETHER__ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define TETHER__ASAN 1
#endif
#if defined(__GLIBC__) && !defined(TETHER__ASAN)
#define TETHER_BLOCK_CACHE 1
#else
#define TETHER_BLOCK_CACHE 0
#endif

#if TETHER_BLOCK_CACHE
#include <malloc.h>
#include <pthread.h>
#endif

#define TETHER_STRONG_ONE UINT64_C(1)
#define TETHER_WEAK_ONE (UINT64_C(1) << 32)
#define TETHER_STRONG_MASK UINT64_C(0xffffffff)

typedef _Atomic uint64_t tether_refcount_t;

static inline tether_refcount_t* tether__rc(TVMFFIObject* obj) {
  return (tether_refcount_t*)&obj->combined_ref_count;
}

/* ThreadSanitizer does not model standalone fences: under TSan the decrement itself is
 * acq_rel, which is what the release-decrement + acquire-fence pair guarantees. */
#if defined(__SANITIZE_THREAD__)
#define TETHER_DEC_ORDER memory_order_acq_rel
#define tether__acquire_fence() ((void)0)
#else
#define TETHER_DEC_ORDER memory_order_release
#define tether__acquire_fence() atomic_thread_fence(memory_order_acquire)
#endif

static _Atomic int64_t tether__live_objects;

/* ---- the block cache ----------------------------------------------------------------------
 * Object memory of at most TETHER_CACHE_MAX_USABLE bytes is recycled through per-thread free
 * lists, one per malloc size class, so that building and dropping small nodes and Arrays
 * (the bulk of IR construction) costs a list pop and push instead of malloc and free.
 * - Classes are glibc's chunk sizes: class k holds blocks of exactly 16k + 24 usable bytes
 *   (malloc_usable_size), so a block is requested at its class's full usable size and a
 *   request never takes more memory than plain malloc would give it.
 * - A free finds the class from malloc_usable_size, so any malloc'd block may be cached.
 * - Each list keeps at most TETHER_CACHE_DEPTH blocks (beyond that, free()).  A thread's
 *   lists are emptied when it exits (a pthread key destructor) and the calling thread's when
 *   libtether unloads; after either, that thread frees directly.
 * - Off under AddressSanitizer (so that its use-after-free checks see every block) and
 *   outside glibc; TETHER_NO_BLOCK_CACHE=1 in the environment at load turns it off too. */
#if TETHER_BLOCK_CACHE
enum { TETHER_CACHE_CLASSES = 15, TETHER_CACHE_MAX_USABLE = 16 * TETHER_CACHE_CLASSES + 8,
       TETHER_CACHE_DEPTH = 64 };

typedef struct tether_block_cache {
  void* head[TETHER_CACHE_CLASSES]; /* singly linked through each block's first word */
  uint32_t count[TETHER_CACHE_CLASSES];
  /* Objects this thread allocated minus those it freed.  Written by its thread only (a
   * relaxed load and store: no locked instruction on the allocation path), read by
   * tether_object_live_count. */
  _Atomic int64_t live;
  struct tether_block_cache *prev, *next; /* every thread's lists (tether__caches_lock) */
} tether_block_cache_t;

/* The lists of the running threads, for tether_object_live_count; a thread's `live` moves
 * into tether__live_objects when its lists go. */
static pthread_mutex_t tether__caches_lock = PTHREAD_MUTEX_INITIALIZER;
static tether_block_cache_t* tether__caches;

/* This thread's lists: NULL before first use, TETHER__CACHE_OFF once they are gone (or
 * when the cache is off).  initial-exec: one load relative to the thread pointer; the
 * pointer (8 bytes) fits the static TLS reserve a dlopen may use. */
#define TETHER__CACHE_OFF ((tether_block_cache_t*)1)
static _Thread_local tether_block_cache_t* tether__cache __attribute__((tls_model("initial-exec")));

static pthread_key_t tether__cache_key;
static bool tether__cache_enabled; /* set at load, before any thread allocates */

static void tether__cache_flush(tether_block_cache_t* c) {
  for (int k = 0; k < TETHER_CACHE_CLASSES; ++k) {
    void* p = c->head[k];
    while (p != NULL) {
      void* next = *(void**)p;
      free(p);
      p = next;
    }
    c->head[k] = NULL;
    c->count[k] = 0;
  }
}

/* The key destructor: the exiting thread's lists are freed, and it frees directly from now on. */
static void tether__cache_release(void* p) {
  tether_block_cache_t* c = p;
  tether__cache = TETHER__CACHE_OFF;
  pthread_mutex_lock(&tether__caches_lock);
  if (c->prev != NULL) c->prev->next = c->next;
  else tether__caches = c->next;
  if (c->next != NULL) c->next->prev = c->prev;
  atomic_fetch_add_explicit(&tether__live_objects, atomic_load_explicit(&c->live, memory_order_relaxed),
                            memory_order_relaxed);
  pthread_mutex_unlock(&tether__caches_lock);
  tether__cache_flush(c);
  free(c);
}

/* This thread's lists, created on first use (TETHER__CACHE_OFF when unavailable). */
__attribute__((noinline)) static tether_block_cache_t* tether__cache_create(void) {
  tether_block_cache_t* c = TETHER__CACHE_OFF;
  if (tether__cache_enabled) {
    tether_block_cache_t* fresh = calloc(1, sizeof(*fresh));
    if (fresh != NULL && pthread_setspecific(tether__cache_key, fresh) == 0) {
      c = fresh;
      pthread_mutex_lock(&tether__caches_lock);
      c->next = tether__caches;
      if (c->next != NULL) c->next->prev = c;
      tether__caches = c;
      pthread_mutex_unlock(&tether__caches_lock);
    } else {
      free(fresh);
    }
  }
  tether__cache = c;
  return c;
}

static inline tether_block_cache_t* tether__cache_get(void) {
  tether_block_cache_t* c = tether__cache;
  if (TETHER_UNLIKELY(c == NULL)) c = tether__cache_create();
  return c;
}

/* The class of a request of `size` bytes (<= TETHER_CACHE_MAX_USABLE) and of a block of
 * `usable` bytes: glibc's chunk is the size plus 8, rounded up to 16, at least 32. */
static inline size_t tether__class_of_size(size_t size) {
  return size <= 24 ? 0 : ((size + 23) >> 4) - 2;
}
static inline size_t tether__class_usable(size_t k) { return 16 * k + 24; }
#endif

int tether__object_init(void) {
#if TETHER_BLOCK_CACHE
  const char* off = getenv("TETHER_NO_BLOCK_CACHE");
  bool wanted = off == NULL || off[0] == '\0' || strcmp(off, "0") == 0;
  tether__cache_enabled = wanted && pthread_key_create(&tether__cache_key, tether__cache_release) == 0;
#endif
  return 0;
}

void tether__object_fini(void) {
#if TETHER_BLOCK_CACHE
  if (!tether__cache_enabled) return;
  tether__cache_enabled = false;
  tether_block_cache_t* c = tether__cache;
  if (c != NULL && c != TETHER__CACHE_OFF) {
    pthread_setspecific(tether__cache_key, NULL);
    tether__cache_release(c);
  }
  pthread_key_delete(tether__cache_key);
#endif
}

/* Counts one object more (delta 1) or less (-1) alive. */
static inline void tether__count_live(int64_t delta) {
#if TETHER_BLOCK_CACHE
  tether_block_cache_t* c = tether__cache_get();
  if (c != TETHER__CACHE_OFF) {
    atomic_store_explicit(&c->live, atomic_load_explicit(&c->live, memory_order_relaxed) + delta,
                          memory_order_relaxed);
    return;
  }
#endif
  atomic_fetch_add_explicit(&tether__live_objects, delta, memory_order_relaxed);
}

static inline void* tether__block_alloc(size_t size) {
#if TETHER_BLOCK_CACHE
  if (size <= TETHER_CACHE_MAX_USABLE) {
    size_t k = tether__class_of_size(size);
    tether_block_cache_t* c = tether__cache_get();
    if (c != TETHER__CACHE_OFF && c->head[k] != NULL) {
      void* p = c->head[k];
      c->head[k] = *(void**)p;
      c->count[k]--;
      return p;
    }
    return malloc(tether__class_usable(k));
  }
#endif
  return malloc(size);
}

static inline void tether__block_free(void* p) {
#if TETHER_BLOCK_CACHE
  size_t usable = malloc_usable_size(p);
  if (usable <= TETHER_CACHE_MAX_USABLE && usable >= 24) {
    size_t k = ((usable + 8) >> 4) - 2; /* a class whose blocks it can serve */
    tether_block_cache_t* c = tether__cache_get();
    if (c != TETHER__CACHE_OFF && c->count[k] < TETHER_CACHE_DEPTH) {
      *(void**)p = c->head[k];
      c->head[k] = p;
      c->count[k]++;
      return;
    }
  }
#endif
  free(p);
}

void* tether__object_alloc(size_t size, int32_t type_index, void (*deleter)(void* self, int flags)) {
  /* Zeroing only what follows the header (rather than calloc, which bypasses glibc's
   * per-thread cache; and the header is written next anyway). */
  TVMFFIObject* obj = size >= sizeof(TVMFFIObject) ? tether__block_alloc(size) : NULL;
  if (TETHER_UNLIKELY(obj == NULL)) {
    tether_raise("MemoryError", "tether: out of memory allocating a %zu-byte %s object", size,
                 tether_type_key(type_index));
    return NULL;
  }
  memset((char*)obj + sizeof(TVMFFIObject), 0, size - sizeof(TVMFFIObject));
  obj->combined_ref_count = TETHER_STRONG_ONE | TETHER_WEAK_ONE;
  obj->type_index = type_index;
  obj->__padding = 0;
  obj->deleter = deleter;
  tether__count_live(1);
  return obj;
}

void tether__object_free(void* self) {
  tether__count_live(-1);
#ifndef NDEBUG
  /* Poison the header so a use after free trips the refcount check in DecRef. */
  TVMFFIObject* obj = self;
  obj->combined_ref_count = UINT64_C(0xdeaddeaddeaddead);
  obj->type_index = -0xdead;
#endif
  tether__block_free(self);
}

void tether__object_deleter_plain(void* self, int flags) {
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) tether__object_free(self);
}

int64_t tether_object_live_count(void) {
#if TETHER_BLOCK_CACHE
  pthread_mutex_lock(&tether__caches_lock);
  int64_t n = atomic_load_explicit(&tether__live_objects, memory_order_relaxed);
  for (tether_block_cache_t* c = tether__caches; c != NULL; c = c->next) {
    n += atomic_load_explicit(&c->live, memory_order_relaxed);
  }
  pthread_mutex_unlock(&tether__caches_lock);
  return n;
#else
  return atomic_load_explicit(&tether__live_objects, memory_order_relaxed);
#endif
}

uint32_t tether_object_use_count(TVMFFIObjectHandle obj) {
  if (obj == NULL) return 0;
  return (uint32_t)(atomic_load_explicit(tether__rc(obj), memory_order_relaxed) & TETHER_STRONG_MASK);
}

int TVMFFIObjectIncRef(TVMFFIObjectHandle handle) {
  /* The reference dereferences NULL here (spec 1.6); tether reports it instead. */
  if (TETHER_UNLIKELY(handle == NULL)) {
    return tether_raise("ValueError", "TVMFFIObjectIncRef: argument `obj` must not be NULL");
  }
  atomic_fetch_add_explicit(tether__rc(handle), TETHER_STRONG_ONE, memory_order_relaxed);
  return 0;
}

static void tether__dec_weak_slow(TVMFFIObject* obj) {
  uint64_t old = atomic_fetch_sub_explicit(tether__rc(obj), TETHER_WEAK_ONE, TETHER_DEC_ORDER);
  if (old == TETHER_WEAK_ONE) {
    tether__acquire_fence();
    if (obj->deleter != NULL) obj->deleter(obj, kTVMFFIObjectDeleterFlagBitMaskWeak);
  }
}

/* ---- releasing the last reference -------------------------------------------------------
 * Deleters release their children through TVMFFIObjectDecRef, so freeing a chain of nested
 * containers would nest one deleter per level on the C stack.  Invariant: on each thread at
 * most TETHER_RELEASE_MAX_DEPTH deleters started by TVMFFIObjectDecRef are active at once.
 * A DecRef that drops the last strong reference at that depth does not run the deleter: it
 * records the object (strong count already zero, so no owner remains to revive it; weak
 * owners can no longer lock it) on this thread's pending list, and the outermost DecRef
 * (the one that entered at depth 0) runs the pending deleters, newest first, before it
 * returns.  So freeing a structure of any depth uses bounded stack; every deleter still
 * runs exactly once, on the thread that dropped the last reference, before the outermost
 * DecRef returns.  Shallow structures never reach the list: their release order is the
 * plain recursive one.  If the list cannot grow (out of memory) the deleter runs in place. */
#define TETHER_RELEASE_MAX_DEPTH 32

typedef struct {
  int depth;        /* deleters started by DecRef active on this thread */
  size_t len, cap;  /* pending entries: object address | 1 when its weak count is also done */
  uintptr_t* items; /* heap block, freed when the list drains */
} tether_release_t;

/* initial-exec: one load relative to the thread pointer instead of a __tls_get_addr call (this
 * is on every last release); 32 bytes fit the static TLS reserve a dlopen may use. */
static _Thread_local tether_release_t tether__release __attribute__((tls_model("initial-exec")));

/* Runs the deleter of `obj`, whose strong count just reached zero (and its weak count too,
 * when `both`). */
static inline void tether__destroy(TVMFFIObject* obj, bool both) {
  if (both) {
    if (obj->deleter != NULL) obj->deleter(obj, kTVMFFIObjectDeleterFlagBitMaskBoth);
  } else {
    if (obj->deleter != NULL) obj->deleter(obj, kTVMFFIObjectDeleterFlagBitMaskStrong);
    tether__dec_weak_slow(obj);
  }
}

__attribute__((noinline)) static bool tether__release_defer(tether_release_t* r, TVMFFIObject* obj, bool both) {
  if (r->len == r->cap) {
    size_t cap = r->cap == 0 ? 64 : 2 * r->cap;
    uintptr_t* items = realloc(r->items, cap * sizeof(uintptr_t));
    if (items == NULL) return false;
    r->items = items;
    r->cap = cap;
  }
  r->items[r->len++] = (uintptr_t)obj | (uintptr_t)both;
  return true;
}

/* Runs the pending deleters (at depth 1, as if called from the outermost one). */
__attribute__((noinline)) static void tether__release_drain(tether_release_t* r) {
  r->depth = 1;
  while (r->len > 0) {
    uintptr_t e = r->items[--r->len];
    tether__destroy((TVMFFIObject*)(e & ~(uintptr_t)1), (e & 1) != 0);
  }
  free(r->items);
  r->items = NULL;
  r->cap = 0;
  r->depth = 0;
}

/* The last release at TETHER_RELEASE_MAX_DEPTH: deferred, or run in place without memory. */
__attribute__((noinline)) static void tether__release_deep(TVMFFIObject* obj, bool both) {
  tether_release_t* r = &tether__release;
  if (tether__release_defer(r, obj, both)) return;
  r->depth++;
  tether__destroy(obj, both);
  r->depth--;
}

/* The deleter of `obj` for its last strong reference (see the invariant above).  Out of
 * line, so that a DecRef that frees nothing stays a few instructions; not a tail call, so
 * that TVMFFIObjectDecRef stays on the stack (backtraces from deleters show it). */
__attribute__((noinline)) static void tether__release_last(TVMFFIObject* obj, bool both) {
  tether_release_t* r = &tether__release;
  if (TETHER_UNLIKELY(r->depth >= TETHER_RELEASE_MAX_DEPTH)) {
    tether__release_deep(obj, both);
    return;
  }
  r->depth++;
  tether__destroy(obj, both);
  if (--r->depth == 0 && TETHER_UNLIKELY(r->len > 0)) tether__release_drain(r);
}

int TVMFFIObjectDecRef(TVMFFIObjectHandle handle) {
  TVMFFIObject* obj = handle;
  if (obj == NULL) return 0;
  /* The only reference there is (one strong, no weak beyond the strong owners' one): no
   * other thread holds one it could copy or drop, so the object dies without a locked
   * instruction.  The acquire load pairs with the release decrements of earlier owners. */
  if (atomic_load_explicit(tether__rc(obj), memory_order_acquire) == (TETHER_STRONG_ONE | TETHER_WEAK_ONE)) {
    atomic_store_explicit(tether__rc(obj), TETHER_WEAK_ONE, memory_order_relaxed); /* as a decrement leaves it */
    tether__release_last(obj, true);
    return 0;
  }
  uint64_t old = atomic_fetch_sub_explicit(tether__rc(obj), TETHER_STRONG_ONE, TETHER_DEC_ORDER);
#ifndef NDEBUG
  if (TETHER_UNLIKELY((old & TETHER_STRONG_MASK) == 0 || old == UINT64_C(0xdeaddeaddeaddead))) {
    fprintf(stderr, "libtether: TVMFFIObjectDecRef on a dead object %p (type index %d)\n", handle,
            obj->type_index);
    abort();
  }
#endif
  if ((old & TETHER_STRONG_MASK) == 1) {
    tether__acquire_fence();
    tether__release_last(obj, old == (TETHER_STRONG_ONE | TETHER_WEAK_ONE));
  }
  return 0;
}

/* The weak-reference helpers ignore NULL (no object: nothing to count). */
void tether_object_inc_weak(TVMFFIObjectHandle handle) {
  if (handle == NULL) return;
  atomic_fetch_add_explicit(tether__rc(handle), TETHER_WEAK_ONE, memory_order_relaxed);
}

void tether_object_dec_weak(TVMFFIObjectHandle handle) {
  if (handle != NULL) tether__dec_weak_slow(handle);
}

TVMFFIObjectHandle tether_object_lock_weak(TVMFFIObjectHandle handle) {
  if (handle == NULL) return NULL;
  tether_refcount_t* rc = tether__rc(handle);
  uint64_t old = atomic_load_explicit(rc, memory_order_relaxed);
  while ((old & TETHER_STRONG_MASK) != 0) {
    if (atomic_compare_exchange_weak_explicit(rc, &old, old + TETHER_STRONG_ONE,
                                              memory_order_acq_rel, memory_order_relaxed)) {
      return handle;
    }
  }
  return NULL;
}

/* ---- opaque objects ---------------------------------------------------------------------- */

typedef struct {
  TVMFFIObject header;
  TVMFFIOpaqueObjectCell cell;
  void (*handle_deleter)(void* handle);
} tether_opaque_t;

static void tether__opaque_deleter(void* self, int flags) {
  tether_opaque_t* op = self;
  if ((flags & kTVMFFIObjectDeleterFlagBitMaskStrong) && op->handle_deleter != NULL) {
    op->handle_deleter(op->cell.handle);
  }
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) tether__object_free(self);
}

int TVMFFIObjectCreateOpaque(void* handle, int32_t type_index, void (*deleter)(void* handle),
                             TVMFFIObjectHandle* out) {
  if (out == NULL) {
    return tether_raise("ValueError", "TVMFFIObjectCreateOpaque: argument `out` must not be NULL");
  }
  if (type_index != kTVMFFIOpaquePyObject) {
    return tether_raise("RuntimeError", "Only kTVMFFIOpaquePyObject is supported for now");
  }
  tether_opaque_t* op = tether__object_alloc(sizeof(*op), type_index, tether__opaque_deleter);
  if (op == NULL) return -1;
  op->cell.handle = handle;
  op->handle_deleter = deleter;
  *out = op;
  return 0;
}

/* ---- custom allocator (stored and returned; nothing allocates through it in 0.1.x) ----- */

static void* tether__default_allocate(size_t size, size_t alignment, int32_t type_index,
                                      void* context) {
  (void)type_index;
  (void)context;
  void* p = NULL;
  if (alignment < sizeof(void*)) alignment = sizeof(void*);
  if (posix_memalign(&p, alignment, size) != 0) return NULL;
  return p;
}

static TVMFFICustomAllocator tether__default_allocator = {tether__default_allocate, NULL};
static TVMFFICustomAllocator* _Atomic tether__allocator = &tether__default_allocator;

TVMFFICustomAllocator* TVMFFIGetCustomAllocator(void) { return atomic_load(&tether__allocator); }

int TVMFFISetCustomAllocator(TVMFFICustomAllocator* allocator) {
  atomic_store(&tether__allocator, allocator != NULL ? allocator : &tether__default_allocator);
  return 0;
}
