/*
 * test_type_oom.c -- the type table's failure paths never leave its lock held, and never
 * call back into the library while holding it (src/ffi/type.c, "Nothing that can call
 * back into the library runs under tether__type_mu").
 *
 * Two probes:
 * - The fail-Nth allocator of failalloc.h.  Each registration entry point is run with
 *   N = 1, 2, ... until it succeeds, so every allocation on its path fails once; after
 *   each failure a MemoryError must be parked, and registering again must work, from
 *   this thread and from a second one (both under a timeout).
 * - Re-entry from raising: the error parked before a failing registration holds an
 *   object whose deleter looks a type up (takes the lock).  Raising releases that error,
 *   so a registration that raised while holding the (non-recursive) lock would hang.
 * A hang is reported as a failure by a watchdog and the process exits.
 * Construction through a creator (tether_type_def_finish_ex) is swept the same way.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <tether/reflection.h>

#include "test.h"
#include "failalloc.h"

/* ---- running with a timeout ------------------------------------------------------------- */

typedef struct {
  int (*fn)(void* arg);
  void* arg;
  int rc;
  int done;
  pthread_mutex_t mu;
  pthread_cond_t cv;
} job_t;

static void* job_main(void* p) {
  job_t* job = p;
  int rc = job->fn(job->arg);
  pthread_mutex_lock(&job->mu);
  job->rc = rc;
  job->done = 1;
  pthread_cond_signal(&job->cv);
  pthread_mutex_unlock(&job->mu);
  return NULL;
}

/* Runs fn(arg) on a new thread; a hang past `seconds` fails the whole run (the stuck thread
 * cannot be cleaned up).  Returns fn's result. */
static int run_with_timeout(int (*fn)(void*), void* arg, const char* what, int seconds) {
  job_t job = {fn, arg, -1, 0, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER};
  pthread_t th;
  if (pthread_create(&th, NULL, job_main, &job) != 0) {
    fprintf(stderr, "cannot start a thread for %s\n", what);
    return -1;
  }
  struct timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_sec += seconds;
  pthread_mutex_lock(&job.mu);
  while (!job.done) {
    if (pthread_cond_timedwait(&job.cv, &job.mu, &deadline) != 0 && !job.done) {
      fprintf(stderr, "FAIL: %s did not finish within %d s (deadlock on the type lock?)\n", what,
              seconds);
      fflush(stderr);
      _exit(1);
    }
  }
  pthread_mutex_unlock(&job.mu);
  pthread_join(th, NULL);
  return job.rc;
}

/* ---- helpers ---------------------------------------------------------------------------- */

static int32_t new_type(const char* key) {
  TVMFFIByteArray k = {key, strlen(key)};
  return TVMFFITypeGetOrAllocIndex(&k, -1, 1, 0, 1, kTVMFFIObject);
}

static TVMFFIFieldInfo field_info(const char* name) {
  TVMFFIFieldInfo info;
  memset(&info, 0, sizeof(info));
  info.name = (TVMFFIByteArray){name, strlen(name)};
  info.doc = (TVMFFIByteArray){"doc", 3};
  info.metadata = (TVMFFIByteArray){"{}", 2};
  info.size = 8;
  info.alignment = 8;
  info.offset = 24;
  info.flags = kTVMFFIFieldFlagBitMaskHasDefault;
  info.default_value_or_factory = tether_any_int(5);
  info.field_static_type_index = kTVMFFIInt;
  return info;
}

/* Values the table retains until unload must not count as live objects at the end of a
 * test (the harness checks), so the retained objects here are static, never freed. */
static TVMFFIObject static_object = {.combined_ref_count = UINT64_C(1) | (UINT64_C(1) << 32),
                                     .type_index = kTVMFFIObject};

/* Registrations a second thread makes while the first is idle: they need the lock. */
static int register_from_thread(void* arg) {
  static _Atomic int serial;
  char key[64];
  snprintf(key, sizeof(key), "test.oom.FromThread%d", atomic_fetch_add(&serial, 1));
  int32_t t = new_type(key);
  if (t < 0) return -1;
  TVMFFIFieldInfo info = field_info("x");
  if (TVMFFITypeRegisterField(t, &info) != 0) return -1;
  int32_t found = -1;
  TVMFFIByteArray k = {key, strlen(key)};
  if (TVMFFITypeKeyToIndex(&k, &found) != 0 || found != t) return -1;
  TVMFFIByteArray attr = {"test.oom.attr", 13};
  TVMFFIAny v = tether_any_int(7);
  return TVMFFITypeRegisterAttr(t, &attr, &v);
}

/* One registration attempt under fail-Nth; `op` returns 0 on success. */
typedef int (*op_fn)(int attempt);

/*
 * Runs op with the 1st, 2nd, ... allocation failing until it succeeds.  After each
 * failure: a MemoryError is parked, and registering works from this thread and another.
 * Returns 0 if skipped (see injection_works), 1 otherwise.
 */
static int sweep(op_fn op, const char* name) {
  int attempt;
  int failures = 0;
  if (!injection_works()) {
    printf("     %s: skipped, allocation failures cannot be injected here\n", name);
    return 0;
  }
  for (attempt = 1; attempt < 200; ++attempt) {
    fail_nth(attempt);
    int rc = op(attempt);
    int injected = disarm();
    if (rc == 0) {
      CHECK(!injected || attempt > 1); /* a success despite the failure: it was not needed */
      break;
    }
    ++failures;
    CHECK(injected);
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    CHECK(err != NULL);
    if (err != NULL) {
      TVMFFIByteArray kind = tether_error_kind(err);
      if (kind.size != 11 || memcmp(kind.data, "MemoryError", 11) != 0) {
        fprintf(stderr, "%s, allocation %d failing: got %.*s: %.*s\n", name, attempt,
                (int)kind.size, kind.data, (int)tether_error_message(err).size,
                tether_error_message(err).data);
        CHECK(0);
      }
      TVMFFIObjectDecRef(err);
    }
    CHECK_EQ_INT(register_from_thread(NULL), 0);        /* same thread: lock not held */
    CHECK_EQ_INT(run_with_timeout(register_from_thread, NULL, name, 20), 0); /* another one */
  }
  CHECK(attempt < 200);
  CHECK(failures >= 1); /* the sweep did reach an allocation */
  printf("     %s: %d failing allocation(s) survived\n", name, failures);
  return 1;
}

/* ---- the operations swept --------------------------------------------------------------- */

static int op_get_or_alloc_index(int attempt) {
  char key[64];
  snprintf(key, sizeof(key), "test.oom.Alloc%d", attempt);
  int32_t t = new_type(key);
  return t >= 0 ? 0 : -1;
}

static int32_t g_field_type;
static int op_register_field_only(int attempt) {
  char name[32];
  snprintf(name, sizeof(name), "f%d", attempt);
  TVMFFIFieldInfo info = field_info(name);
  return TVMFFITypeRegisterField(g_field_type, &info);
}

static int32_t g_method_type;
static int op_register_method(int attempt) {
  char name[32];
  snprintf(name, sizeof(name), "m%d", attempt);
  TVMFFIMethodInfo info;
  memset(&info, 0, sizeof(info));
  info.name = (TVMFFIByteArray){name, strlen(name)};
  info.doc = (TVMFFIByteArray){"", 0};
  info.metadata = (TVMFFIByteArray){"", 0};
  info.method = tether_any_object(&static_object);
  return TVMFFITypeRegisterMethod(g_method_type, &info);
}

static int op_register_attr(int attempt) {
  char name[64];
  snprintf(name, sizeof(name), "test.oom.column%d", attempt); /* a new column each time */
  TVMFFIByteArray attr = {name, strlen(name)};
  TVMFFIAny v = tether_any_object(&static_object);
  return TVMFFITypeRegisterAttr(200 + attempt, &attr, &v);
}

static int op_register_metadata(int attempt) {
  char key[64];
  snprintf(key, sizeof(key), "test.oom.Meta%d", attempt);
  int saved = atomic_exchange(&countdown, 0);
  int32_t t = new_type(key);
  atomic_store(&countdown, saved);
  if (t < 0) return -1;
  TVMFFITypeMetadata md;
  memset(&md, 0, sizeof(md));
  md.doc = (TVMFFIByteArray){"some documentation", 18};
  md.total_size = 24;
  return TVMFFITypeRegisterMetadata(t, &md);
}

static void test_oom_get_or_alloc_index(void) {
  sweep(op_get_or_alloc_index, "TVMFFITypeGetOrAllocIndex");
}

static void test_oom_register_field(void) {
  /* a fresh type per sweep step would hide the growth of its field array: use one type
   * whose array fills up (capacity 4, 8, ...) while the sweep runs, and sweep twice */
  g_field_type = new_type("test.oom.FieldHolder");
  CHECK(g_field_type >= 0);
  if (sweep(op_register_field_only, "TVMFFITypeRegisterField") &&
      sweep(op_register_field_only, "TVMFFITypeRegisterField (again)")) {
    CHECK(TVMFFIGetTypeInfo(g_field_type)->num_fields >= 2);
  }
}

static void test_oom_register_method(void) {
  g_method_type = new_type("test.oom.MethodHolder");
  CHECK(g_method_type >= 0);
  if (sweep(op_register_method, "TVMFFITypeRegisterMethod")) {
    CHECK(TVMFFIGetTypeInfo(g_method_type)->num_methods >= 1);
  }
}

static void test_oom_register_attr(void) { sweep(op_register_attr, "TVMFFITypeRegisterAttr"); }

static void test_oom_register_metadata(void) {
  sweep(op_register_metadata, "TVMFFITypeRegisterMetadata");
}

/* Construction through the automatic __ffi_init__ of a type with a creator: the creator's
 * allocation and the constructor's own may fail; either way a MemoryError, nothing leaked. */
typedef struct {
  TVMFFIObject header;
  int64_t a;
  int64_t c; /* init off, no default: the creator's 1234 */
} oom_counter_t;

static int32_t g_creator_type = -1;

static int oom_counter_create(TVMFFIObjectHandle* out) {
  if (tether_object_new_reflected(g_creator_type, out) != 0) return -1;
  ((oom_counter_t*)*out)->c = 1234;
  return 0;
}

static TVMFFIObject* g_creator_init; /* borrowed from the __ffi_init__ column */

static int op_construct_with_creator(int attempt) {
  TVMFFIAny arg = tether_any_int(attempt), out = tether_any_none();
  if (TVMFFIFunctionCall(g_creator_init, &arg, 1, &out) != 0) return -1;
  oom_counter_t* obj = (oom_counter_t*)out.v_obj;
  CHECK_EQ_INT(obj->a, attempt);
  CHECK_EQ_INT(obj->c, 1234);
  tether_any_release(&out);
  return 0;
}

/* Defined before the tests run: the type table keeps its functions until unload. */
__attribute__((constructor)) static void define_creator_type(void) {
  g_creator_type = new_type("test.oom.WithCreator");
  tether_field_def_t a = {"a", TETHER_FIELD_INT64, offsetof(oom_counter_t, a),
                          kTVMFFIFieldFlagBitMaskWritable, 0, NULL, NULL, NULL, NULL};
  tether_field_def_t c = {"c", TETHER_FIELD_INT64, offsetof(oom_counter_t, c),
                          kTVMFFIFieldFlagBitMaskWritable | kTVMFFIFieldFlagBitMaskInitOff, 0,
                          NULL, NULL, NULL, NULL};
  tether_type_finish_t def = {sizeof(oom_counter_t), oom_counter_create, false, NULL};
  CHECK(g_creator_type >= 0);
  CHECK_OK(tether_type_def_field(g_creator_type, &a));
  CHECK_OK(tether_type_def_field(g_creator_type, &c));
  CHECK_OK(tether_type_def_finish_ex(g_creator_type, &def));
  TVMFFIByteArray name = {"__ffi_init__", 12};
  const TVMFFITypeAttrColumn* col = TVMFFIGetTypeAttrColumn(&name);
  if (col != NULL && g_creator_type >= col->begin_index &&
      g_creator_type - col->begin_index < col->size) {
    g_creator_init = col->data[g_creator_type - col->begin_index].v_obj;
  }
}

static void test_oom_construct_with_creator(void) {
  CHECK(g_creator_init != NULL);
  if (g_creator_init != NULL) sweep(op_construct_with_creator, "__ffi_init__ with a creator");
}

/* ---- re-entry from raising -------------------------------------------------------------- */

static _Atomic int g_deleter_ran;

/* Takes the type lock (by key lookup), as a Python finalizer or a C++ destructor might. */
static void looks_up_a_type(void* handle) {
  int32_t index = -1;
  TVMFFIByteArray k = {"ffi.Object", 10};
  if (TVMFFITypeKeyToIndex(&k, &index) == 0 && index == kTVMFFIObject) {
    atomic_fetch_add(&g_deleter_ran, 1);
  }
}

/* Parks an error that holds the only reference to an object whose deleter takes the lock. */
static void park_reentrant_error(void) {
  TVMFFIObjectHandle opaque = NULL, err = NULL;
  CHECK_OK(TVMFFIObjectCreateOpaque(NULL, kTVMFFIOpaquePyObject, looks_up_a_type, &opaque));
  TVMFFIByteArray kind = {"RuntimeError", 12}, msg = {"parked", 6}, bt = {"", 0};
  CHECK_OK(TVMFFIErrorCreateWithCauseAndExtraContext(&kind, &msg, &bt, NULL, opaque, &err));
  TVMFFIObjectDecRef(opaque);
  TVMFFIErrorSetRaised(err);
  TVMFFIObjectDecRef(err);
}

/* Each makes a registration fail with a bad-input error found under the lock. */
static int reentry_field(void* arg) {
  park_reentrant_error();
  TVMFFIFieldInfo info = field_info("y");
  return TVMFFITypeRegisterField(100000, &info);
}

static int reentry_method(void* arg) {
  park_reentrant_error();
  TVMFFIMethodInfo info;
  memset(&info, 0, sizeof(info));
  info.name = (TVMFFIByteArray){"m", 1};
  return TVMFFITypeRegisterMethod(100000, &info);
}

static int reentry_metadata(void* arg) {
  int32_t t = new_type("test.oom.MetaTwice");
  TVMFFITypeMetadata md;
  memset(&md, 0, sizeof(md));
  md.total_size = 24;
  if (t < 0 || TVMFFITypeRegisterMetadata(t, &md) != 0) return 0;
  park_reentrant_error();
  return TVMFFITypeRegisterMetadata(t, &md); /* "Overriding ..." */
}

static int reentry_attr(void* arg) {
  TVMFFIByteArray attr = {"test.oom.dup_attr", 17};
  TVMFFIAny v = tether_any_int(1);
  if (TVMFFITypeRegisterAttr(kTVMFFIStr, &attr, &v) != 0) return 0; /* want a duplicate next */
  park_reentrant_error();
  return TVMFFITypeRegisterAttr(kTVMFFIStr, &attr, &v);
}

static int reentry_alloc_index(void* arg) {
  park_reentrant_error();
  TVMFFIByteArray k = {"test.oom.Conflict", 17};
  return TVMFFITypeGetOrAllocIndex(&k, kTVMFFIStr, 1, 0, 0, kTVMFFIObject);
}

/* Runs the registration in arg on this (worker) thread; -1 if it failed with an error. */
static int reentry_checked(void* arg) {
  union {
    void* p;
    int (*fn)(void*);
  } u = {arg};
  int (*fn)(void*) = u.fn;
  int rc = fn(NULL);
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  int ok = rc == -1 && err != NULL;
  TVMFFIObjectDecRef(err);
  return ok ? -1 : -2;
}

static void run_reentry(int (*op)(void*), const char* what) {
  int before = atomic_load(&g_deleter_ran);
  union {
    int (*fn)(void*);
    void* p;
  } u = {op};
  int rc = run_with_timeout(reentry_checked, u.p, what, 20);
  CHECK_EQ_INT(rc, -1); /* failed with an error parked */
  CHECK_EQ_INT(atomic_load(&g_deleter_ran), before + 1);
}

static void test_reentry_field(void) { run_reentry(reentry_field, "RegisterField"); }
static void test_reentry_method(void) { run_reentry(reentry_method, "RegisterMethod"); }
static void test_reentry_metadata(void) { run_reentry(reentry_metadata, "RegisterMetadata"); }
static void test_reentry_attr(void) { run_reentry(reentry_attr, "RegisterAttr"); }
static void test_reentry_alloc_index(void) {
  run_reentry(reentry_alloc_index, "TypeGetOrAllocIndex");
}

TEST_MAIN(TEST_CASE(test_reentry_field), TEST_CASE(test_reentry_method),
          TEST_CASE(test_reentry_metadata), TEST_CASE(test_reentry_attr),
          TEST_CASE(test_reentry_alloc_index), TEST_CASE(test_oom_get_or_alloc_index),
          TEST_CASE(test_oom_register_field), TEST_CASE(test_oom_register_method),
          TEST_CASE(test_oom_register_attr), TEST_CASE(test_oom_register_metadata),
          TEST_CASE(test_oom_construct_with_creator))
