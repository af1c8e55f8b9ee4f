/*
 * test_object.c -- the object header: the combined strong/weak counter and the deleter
 * protocol of spec 1.6, weak references, opaque objects and the custom allocator hooks.
 */
#include <pthread.h>
#include <stdlib.h>

#include <tether/container.h>

#include "test.h"

/* A hand-made object whose deleter records the flags it is called with. */
typedef struct {
  TVMFFIObject header;
  int calls;
  int flags[4];
} recorder_t;

static void recorder_deleter(void* self, int flags) {
  recorder_t* r = self;
  if (r->calls < 4) r->flags[r->calls] = flags;
  r->calls++;
}

static void recorder_init(recorder_t* r) {
  memset(r, 0, sizeof(*r));
  r->header.combined_ref_count = 1 | (UINT64_C(1) << 32);
  r->header.type_index = kTVMFFIObject;
  r->header.deleter = recorder_deleter;
}

static void test_strong_only_release_is_both(void) {
  recorder_t r;
  recorder_init(&r);
  CHECK_OK(TVMFFIObjectIncRef(&r));
  CHECK_EQ_INT(r.header.combined_ref_count, 2 | (UINT64_C(1) << 32));
  CHECK_EQ_INT(tether_object_use_count(&r), 2);
  CHECK_OK(TVMFFIObjectDecRef(&r));
  CHECK_EQ_INT(r.calls, 0);
  CHECK_OK(TVMFFIObjectDecRef(&r));
  /* last strong owner and no weak owners: one call with Both */
  CHECK_EQ_INT(r.calls, 1);
  CHECK_EQ_INT(r.flags[0], kTVMFFIObjectDeleterFlagBitMaskBoth);
}

static void test_weak_reference_outlives_object(void) {
  recorder_t r;
  recorder_init(&r);
  tether_object_inc_weak(&r);
  CHECK_EQ_INT(r.header.combined_ref_count, 1 | (UINT64_C(2) << 32));
  TVMFFIObjectHandle locked = tether_object_lock_weak(&r);
  CHECK(locked == &r);
  CHECK_EQ_INT(tether_object_use_count(&r), 2);
  CHECK_OK(TVMFFIObjectDecRef(locked));
  CHECK_OK(TVMFFIObjectDecRef(&r));
  /* strong count hit zero while a weak owner remains: destroy only */
  CHECK_EQ_INT(r.calls, 1);
  CHECK_EQ_INT(r.flags[0], kTVMFFIObjectDeleterFlagBitMaskStrong);
  CHECK(tether_object_lock_weak(&r) == NULL);
  tether_object_dec_weak(&r);
  /* the last weak owner frees the memory */
  CHECK_EQ_INT(r.calls, 2);
  CHECK_EQ_INT(r.flags[1], kTVMFFIObjectDeleterFlagBitMaskWeak);
}

static void test_null_and_static_objects(void) {
  CHECK_OK(TVMFFIObjectDecRef(NULL));
  /* a NULL deleter marks a static object: counting never frees it */
  TVMFFIObject s = {1 | (UINT64_C(1) << 32), kTVMFFIObject, 0, {NULL}};
  CHECK_OK(TVMFFIObjectIncRef(&s));
  CHECK_OK(TVMFFIObjectDecRef(&s));
  CHECK_OK(TVMFFIObjectDecRef(&s));
  CHECK_EQ_INT(s.combined_ref_count, UINT64_C(1) << 32); /* the weak count is never touched */
}

static int opaque_deleted;
static void opaque_handle_deleter(void* handle) { opaque_deleted += *(int*)handle; }

static void test_opaque_object(void) {
  int payload = 7;
  TVMFFIObjectHandle obj = NULL;
  opaque_deleted = 0;
  CHECK_OK(TVMFFIObjectCreateOpaque(&payload, kTVMFFIOpaquePyObject, opaque_handle_deleter, &obj));
  CHECK(obj != NULL);
  if (obj != NULL) {
    CHECK_EQ_INT(((TVMFFIObject*)obj)->type_index, kTVMFFIOpaquePyObject);
    const TVMFFIOpaqueObjectCell* cell =
        (const TVMFFIOpaqueObjectCell*)((char*)obj + sizeof(TVMFFIObject));
    CHECK(cell->handle == &payload);
    TVMFFIObjectIncRef(obj);
    TVMFFIObjectDecRef(obj);
    CHECK_EQ_INT(opaque_deleted, 0);
    TVMFFIObjectDecRef(obj);
    CHECK_EQ_INT(opaque_deleted, 7); /* exactly once */
  }
  /* a NULL handle deleter is allowed */
  CHECK_OK(TVMFFIObjectCreateOpaque(&payload, kTVMFFIOpaquePyObject, NULL, &obj));
  TVMFFIObjectDecRef(obj);
  CHECK_RAISED(TVMFFIObjectCreateOpaque(&payload, kTVMFFIInt, NULL, &obj), "RuntimeError",
               "Only kTVMFFIOpaquePyObject is supported for now");
  CHECK_RAISED(TVMFFIObjectCreateOpaque(&payload, kTVMFFIOpaquePyObject, NULL, NULL), "ValueError",
               "TVMFFIObjectCreateOpaque");
}

static void* counting_allocate(size_t size, size_t alignment, int32_t type_index, void* ctx) {
  ++*(int*)ctx;
  return NULL;
}

static void test_custom_allocator(void) {
  TVMFFICustomAllocator* original = TVMFFIGetCustomAllocator();
  CHECK(original != NULL && original->allocate != NULL);
  /* the built-in allocator honours the alignment it is asked for */
  void* p = original->allocate(100, 64, kTVMFFIObject, original->context);
  CHECK(p != NULL && ((uintptr_t)p % 64) == 0);
  free(p);
  int count = 0;
  TVMFFICustomAllocator mine = {counting_allocate, &count};
  CHECK_OK(TVMFFISetCustomAllocator(&mine));
  CHECK(TVMFFIGetCustomAllocator() == &mine);
  CHECK_OK(TVMFFISetCustomAllocator(NULL)); /* NULL restores the built-in one */
  CHECK(TVMFFIGetCustomAllocator() == original);
}

static void test_live_count_tracks_tether_objects(void) {
  int64_t before = tether_object_live_count();
  TVMFFIAny s = tether_any_none();
  CHECK_OK(tether_any_str("a string that is heap allocated", 31, &s));
  CHECK_EQ_INT(tether_object_live_count(), before + 1);
  tether_any_release(&s);
  CHECK_EQ_INT(tether_object_live_count(), before);
}

/* Objects made on threads that then exit stay counted (the thread's count is retired, not
 * lost); freeing them on another thread brings the count back. */
enum { LIVE_THREADS = 4, LIVE_PER_THREAD = 25 };
static TVMFFIAny g_live_made[LIVE_THREADS][LIVE_PER_THREAD];

static void* make_strings(void* arg) {
  TVMFFIAny* out = arg;
  for (int i = 0; i < LIVE_PER_THREAD; ++i) {
    if (tether_any_str("a string that is heap allocated", 31, &out[i]) != 0) return NULL;
  }
  return arg;
}

static void test_live_count_across_exited_threads(void) {
  int64_t before = tether_object_live_count();
  pthread_t threads[LIVE_THREADS];
  for (int t = 0; t < LIVE_THREADS; ++t) {
    CHECK(pthread_create(&threads[t], NULL, make_strings, g_live_made[t]) == 0);
  }
  for (int t = 0; t < LIVE_THREADS; ++t) {
    void* rc = NULL;
    CHECK(pthread_join(threads[t], &rc) == 0 && rc != NULL);
  }
  CHECK_EQ_INT(tether_object_live_count(), before + LIVE_THREADS * LIVE_PER_THREAD);
  for (int t = 0; t < LIVE_THREADS; ++t) {
    for (int i = 0; i < LIVE_PER_THREAD; ++i) tether_any_release(&g_live_made[t][i]);
  }
  CHECK_EQ_INT(tether_object_live_count(), before);
}

/* ---- releasing deep structures --------------------------------------------------------- */

enum { DEEP = 100000 };

typedef enum { NEST_ARRAY, NEST_LIST, NEST_MAP, NEST_DICT } nest_kind;

/* A container of `kind` holding `inner` (a view): as the only element, or as the value under
 * the key "k".  New reference, NULL on failure. */
static TVMFFIObjectHandle nest_once(nest_kind kind, const TVMFFIAny* inner) {
  TVMFFIObjectHandle out = NULL;
  TVMFFIAny kv[2] = {tether_any_none(), *inner};
  tether_any_str("k", 1, &kv[0]);
  int rc = -1;
  switch (kind) {
    case NEST_ARRAY: rc = tether_array_new(inner, 1, &out); break;
    case NEST_LIST: rc = tether_list_new(inner, 1, &out); break;
    case NEST_MAP: rc = tether_map_new(kv, 1, &out); break;
    case NEST_DICT: rc = tether_dict_new(kv, 1, &out); break;
  }
  tether_any_release(&kv[0]);
  return rc == 0 ? out : NULL;
}

/* `depth` containers nested in each other, the innermost holding `leaf` (a view); the kind
 * of level i is kinds[i % nkinds].  New reference. */
static TVMFFIObjectHandle nest(const nest_kind* kinds, int nkinds, int depth, TVMFFIAny leaf) {
  TVMFFIAny cur = leaf;
  TVMFFIObjectHandle obj = NULL;
  for (int i = 0; i < depth; ++i) {
    TVMFFIObjectHandle next = nest_once(kinds[i % nkinds], &cur);
    if (obj != NULL) TVMFFIObjectDecRef(obj);
    if (next == NULL) return NULL;
    obj = next;
    cur = tether_any_object(obj);
  }
  return obj;
}

static void check_deep_free(const nest_kind* kinds, int nkinds) {
  int64_t before = tether_object_live_count();
  TVMFFIObjectHandle deep = nest(kinds, nkinds, DEEP, tether_any_int(7));
  CHECK(deep != NULL);
  /* each level: the container (and a Map/Dict level's key, a small string, is no object) */
  CHECK_EQ_INT(tether_object_live_count(), before + DEEP);
  CHECK_OK(TVMFFIObjectDecRef(deep));
  CHECK_EQ_INT(tether_object_live_count(), before);
}

static void test_free_deep_array(void) {
  nest_kind k = NEST_ARRAY;
  check_deep_free(&k, 1);
}

static void test_free_deep_list(void) {
  nest_kind k = NEST_LIST;
  check_deep_free(&k, 1);
}

static void test_free_deep_map_and_dict(void) {
  nest_kind m = NEST_MAP, d = NEST_DICT;
  check_deep_free(&m, 1);
  check_deep_free(&d, 1);
}

static void test_free_deep_mixed(void) {
  static const nest_kind kinds[] = {NEST_ARRAY, NEST_MAP, NEST_LIST, NEST_DICT};
  check_deep_free(kinds, 4);
}

/* A deep chain whose innermost element is a recorder and whose middle element is also
 * watched through a weak reference: each deleter runs once with the right flags, and the
 * weak owner keeps the memory of the middle element until it lets go. */
static void test_free_deep_runs_each_deleter_once(void) {
  int64_t before = tether_object_live_count();
  recorder_t rec;
  recorder_init(&rec);
  nest_kind k = NEST_ARRAY;
  TVMFFIObjectHandle inner = nest(&k, 1, DEEP / 2, tether_any_object(&rec));
  CHECK_OK(TVMFFIObjectDecRef(&rec)); /* the chain holds the only strong reference now */
  CHECK(inner != NULL);
  tether_object_inc_weak(inner);
  TVMFFIObjectHandle outer = nest(&k, 1, DEEP / 2, tether_any_object(inner));
  CHECK_OK(TVMFFIObjectDecRef(inner)); /* now owned by `outer` alone */
  CHECK_EQ_INT(rec.calls, 0);
  CHECK_OK(TVMFFIObjectDecRef(outer));
  CHECK_EQ_INT(rec.calls, 1);
  CHECK_EQ_INT(rec.flags[0], kTVMFFIObjectDeleterFlagBitMaskBoth);
  CHECK(tether_object_lock_weak(inner) == NULL);
  CHECK_EQ_INT(tether_object_live_count(), before + 1); /* `inner`, held by the weak owner */
  tether_object_dec_weak(inner);
  CHECK_EQ_INT(tether_object_live_count(), before);
}

/* Threads free deep structures at the same time: the pending list is per thread. */
static void* free_deep_on_thread(void* arg) {
  TVMFFIObjectHandle deep = arg;
  return TVMFFIObjectDecRef(deep) == 0 ? arg : NULL;
}

static void test_free_deep_on_threads(void) {
  enum { NTHREADS = 4 };
  int64_t before = tether_object_live_count();
  static const nest_kind kinds[] = {NEST_ARRAY, NEST_LIST};
  TVMFFIObjectHandle deep[NTHREADS];
  pthread_t threads[NTHREADS];
  for (int t = 0; t < NTHREADS; ++t) deep[t] = nest(kinds, 2, DEEP / NTHREADS, tether_any_int(t));
  for (int t = 0; t < NTHREADS; ++t) CHECK(pthread_create(&threads[t], NULL, free_deep_on_thread, deep[t]) == 0);
  for (int t = 0; t < NTHREADS; ++t) {
    void* rc = NULL;
    CHECK(pthread_join(threads[t], &rc) == 0 && rc == deep[t]);
  }
  CHECK_EQ_INT(tether_object_live_count(), before);
}

/* A wide and deep tree (every level holds 3 copies of the level below plus fresh strings):
 * many objects reach the pending list at once. */
static void test_free_deep_and_wide(void) {
  int64_t before = tether_object_live_count();
  TVMFFIObjectHandle cur = NULL;
  for (int i = 0; i < DEEP / 10; ++i) {
    TVMFFIAny items[4] = {tether_any_none(), tether_any_none(), tether_any_none(), tether_any_none()};
    for (int j = 0; j < 3; ++j) items[j] = cur ? tether_any_object(cur) : tether_any_int(j);
    CHECK_OK(tether_any_str("a string that is heap allocated", 31, &items[3]));
    TVMFFIObjectHandle next = NULL;
    CHECK_OK(tether_array_new(items, 4, &next));
    tether_any_release(&items[3]);
    if (cur != NULL) TVMFFIObjectDecRef(cur);
    cur = next;
  }
  CHECK_EQ_INT(tether_object_live_count(), before + 2 * (DEEP / 10));
  CHECK_OK(TVMFFIObjectDecRef(cur));
  CHECK_EQ_INT(tether_object_live_count(), before);
}

static void test_version(void) {
  TVMFFIVersion v;
  TVMFFIGetVersion(&v);
  CHECK_EQ_INT(v.major, 0);
  CHECK_EQ_INT(v.minor, 1);
  CHECK_EQ_INT(v.patch, 16);
}

TEST_MAIN(TEST_CASE(test_strong_only_release_is_both), TEST_CASE(test_weak_reference_outlives_object),
          TEST_CASE(test_null_and_static_objects), TEST_CASE(test_opaque_object),
          TEST_CASE(test_custom_allocator), TEST_CASE(test_live_count_tracks_tether_objects),
          TEST_CASE(test_live_count_across_exited_threads),
          TEST_CASE(test_free_deep_array), TEST_CASE(test_free_deep_list),
          TEST_CASE(test_free_deep_map_and_dict), TEST_CASE(test_free_deep_mixed),
          TEST_CASE(test_free_deep_runs_each_deleter_once), TEST_CASE(test_free_deep_on_threads),
          TEST_CASE(test_free_deep_and_wide), TEST_CASE(test_version))
