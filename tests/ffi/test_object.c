/*
 * test_object.c -- the object header: the combined strong/weak counter and the deleter
 * protocol of spec 1.6, weak references, opaque objects and the custom allocator hooks.
 */
#include <pthread.h>
#include <stdlib.h>

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
          TEST_CASE(test_version))
