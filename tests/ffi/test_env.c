/*
 * test_env.c -- env.c: the version, init-once handles, per-thread streams and DLPack
 * allocators, the Python C-API hooks behind TVMFFIEnvCheckSignals, and the context /
 * system-library symbol tables (end to end through the module globals once they exist).
 */
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>

#include "test.h"

/* ---- helpers ---------------------------------------------------------------------------- */

/* Runs fn(arg) on a new thread and waits for it. */
static void run_in_thread(void* (*fn)(void*), void* arg) {
  pthread_t t;
  CHECK_OK(pthread_create(&t, NULL, fn, arg));
  pthread_join(t, NULL);
}


/* true if global `name` exists (the module subsystem registers the ones used below). */
static bool have_global(const char* name) {
  TVMFFIByteArray key = {name, strlen(name)};
  TVMFFIObjectHandle f = NULL;
  if (TVMFFIFunctionGetGlobal(&key, &f) != 0) {
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    TVMFFIObjectDecRef(err);
    return false;
  }
  TVMFFIObjectDecRef(f);
  return f != NULL;
}

/* ---- version ---------------------------------------------------------------------------- */

static void test_version(void) {
  TVMFFIVersion v = {99, 99, 99};
  TVMFFIGetVersion(&v);
  CHECK_EQ_INT(v.major, 0);
  CHECK_EQ_INT(v.minor, 1);
  CHECK_EQ_INT(v.patch, 16);
  TVMFFIGetVersion(NULL); /* tolerated */
}

/* ---- init once -------------------------------------------------------------------------- */

static int init_calls;
static int the_handle_target;

static int init_ok(void** result) {
  init_calls++;
  *result = &the_handle_target;
  return 0;
}

static int init_raises(void** result) {
  init_calls++;
  TVMFFIErrorSetRaisedFromCStr("KeyError", "init went wrong");
  return -1;
}

static int init_returns_null(void** result) {
  init_calls++;
  *result = NULL;
  return 0;
}

static int deinit_calls;
static void* deinit_seen;

static int deinit_ok(void* handle) {
  deinit_calls++;
  deinit_seen = handle;
  return 0;
}

static int deinit_raises(void* handle) {
  deinit_calls++;
  TVMFFIErrorSetRaisedFromCStr("ValueError", "deinit went wrong");
  return -1;
}

static void test_init_once(void) {
  void* slot = NULL;
  init_calls = 0;
  CHECK_OK(TVMFFIHandleInitOnce(&slot, init_ok));
  CHECK(slot == &the_handle_target);
  CHECK_OK(TVMFFIHandleInitOnce(&slot, init_ok));
  CHECK_EQ_INT(init_calls, 1); /* already set: init not called again */

  deinit_calls = 0;
  CHECK_OK(TVMFFIHandleDeinitOnce(&slot, deinit_ok));
  CHECK(slot == NULL);
  CHECK(deinit_seen == &the_handle_target);
  CHECK_OK(TVMFFIHandleDeinitOnce(&slot, deinit_ok));
  CHECK_EQ_INT(deinit_calls, 1); /* already NULL: deinit not called again */

  /* After deinit the slot can be initialised again. */
  CHECK_OK(TVMFFIHandleInitOnce(&slot, init_ok));
  CHECK_EQ_INT(init_calls, 2);
  CHECK(slot == &the_handle_target);
  /* deinit's failure is propagated, the slot is cleared regardless. */
  CHECK_RAISED(TVMFFIHandleDeinitOnce(&slot, deinit_raises), "ValueError", "deinit went wrong");
  CHECK(slot == NULL);
}

static void test_init_once_errors(void) {
  void* slot = NULL;
  init_calls = 0;
  /* init's own error is propagated untouched and the slot stays empty. */
  CHECK_RAISED(TVMFFIHandleInitOnce(&slot, init_raises), "KeyError", "init went wrong");
  CHECK(slot == NULL);
  CHECK_RAISED(TVMFFIHandleInitOnce(&slot, init_returns_null), "RuntimeError",
               "init_func must return a non-NULL handle");
  CHECK(slot == NULL);
  CHECK_EQ_INT(init_calls, 2);
  CHECK_RAISED(TVMFFIHandleInitOnce(NULL, init_ok), "ValueError", "TVMFFIHandleInitOnce");
  CHECK_RAISED(TVMFFIHandleInitOnce(&slot, NULL), "ValueError", "TVMFFIHandleInitOnce");
  CHECK_RAISED(TVMFFIHandleDeinitOnce(NULL, deinit_ok), "ValueError", "TVMFFIHandleDeinitOnce");
  CHECK_RAISED(TVMFFIHandleDeinitOnce(&slot, NULL), "ValueError", "TVMFFIHandleDeinitOnce");
  CHECK_EQ_INT(init_calls, 2);
}

/* Several threads race to initialise one slot: exactly one init runs, all see its value. */
enum { kRacers = 8 };
static void* race_slot;
static atomic_int race_init_calls;
static atomic_int race_start;
static int race_value;

static int init_slowly(void** result) {
  atomic_fetch_add(&race_init_calls, 1);
  struct timespec ts = {0, 2 * 1000 * 1000}; /* widen the window for a second init */
  nanosleep(&ts, NULL);
  *result = &race_value;
  return 0;
}

static void* racer(void* seen) {
  /* Yield while waiting: a bare spin can starve the starting thread under valgrind, which
   * runs one thread at a time. */
  while (!atomic_load(&race_start)) sched_yield();
  if (TVMFFIHandleInitOnce(&race_slot, init_slowly) == 0) {
    *(void**)seen = __atomic_load_n(&race_slot, __ATOMIC_ACQUIRE);
  }
  return NULL;
}

static void test_init_once_race(void) {
  pthread_t threads[kRacers];
  void* seen[kRacers] = {0};
  race_slot = NULL;
  atomic_store(&race_init_calls, 0);
  atomic_store(&race_start, 0);
  for (int i = 0; i < kRacers; ++i) CHECK_OK(pthread_create(&threads[i], NULL, racer, &seen[i]));
  atomic_store(&race_start, 1);
  for (int i = 0; i < kRacers; ++i) pthread_join(threads[i], NULL);
  CHECK_EQ_INT(atomic_load(&race_init_calls), 1);
  for (int i = 0; i < kRacers; ++i) CHECK(seen[i] == &race_value);
}

/* ---- streams ---------------------------------------------------------------------------- */

static void test_stream_set_get(void) {
  int a, b, c;
  void* prev = &a;
  CHECK(TVMFFIEnvGetStream(kDLCUDA, 0) == NULL); /* default */
  CHECK_OK(TVMFFIEnvSetStream(kDLCUDA, 0, &a, &prev));
  CHECK(prev == NULL);
  CHECK(TVMFFIEnvGetStream(kDLCUDA, 0) == &a);
  CHECK_OK(TVMFFIEnvSetStream(kDLCUDA, 0, &b, &prev));
  CHECK(prev == &a);
  CHECK(TVMFFIEnvGetStream(kDLCUDA, 0) == &b);
  /* Keys are (device_type, device_id): neighbours are independent. */
  CHECK(TVMFFIEnvGetStream(kDLCUDA, 1) == NULL);
  CHECK(TVMFFIEnvGetStream(kDLROCM, 0) == NULL);
  CHECK_OK(TVMFFIEnvSetStream(kDLROCM, 0, &c, NULL)); /* no out: fine */
  CHECK(TVMFFIEnvGetStream(kDLROCM, 0) == &c);
  CHECK(TVMFFIEnvGetStream(kDLCUDA, 0) == &b);
  /* Any non-negative ids, however large; many entries. */
  CHECK_OK(TVMFFIEnvSetStream(100, 1000, &a, NULL));
  CHECK_OK(TVMFFIEnvSetStream(kDLCUDA, INT32_MAX, &c, NULL));
  for (int32_t id = 2; id < 64; ++id) {
    CHECK_OK(TVMFFIEnvSetStream(kDLCUDA, id, (void*)(uintptr_t)(0x1000 + id), NULL));
  }
  for (int32_t id = 2; id < 64; ++id) {
    CHECK(TVMFFIEnvGetStream(kDLCUDA, id) == (void*)(uintptr_t)(0x1000 + id));
  }
  CHECK(TVMFFIEnvGetStream(100, 1000) == &a);
  CHECK(TVMFFIEnvGetStream(kDLCUDA, INT32_MAX) == &c);
  CHECK(TVMFFIEnvGetStream(kDLCUDA, 0) == &b);
  /* Reset to NULL. */
  CHECK_OK(TVMFFIEnvSetStream(kDLCUDA, 0, NULL, &prev));
  CHECK(prev == &b);
  CHECK(TVMFFIEnvGetStream(kDLCUDA, 0) == NULL);
}

static void test_stream_bad_ids(void) {
  int a;
  void* prev = &a;
  CHECK_RAISED(TVMFFIEnvSetStream(-1, 0, &a, &prev), "ValueError",
               "TVMFFIEnvSetStream: device_type and device_id must be non-negative, got (-1, 0)");
  CHECK_RAISED(TVMFFIEnvSetStream(kDLCUDA, -3, &a, &prev), "ValueError", "got (2, -3)");
  CHECK_RAISED(TVMFFIEnvSetStream(INT32_MIN, INT32_MIN, &a, NULL), "ValueError",
               "must be non-negative");
  CHECK(prev == &a); /* untouched on failure */
  CHECK(TVMFFIEnvGetStream(-1, 0) == NULL);
  CHECK(TVMFFIEnvGetStream(kDLCUDA, -1) == NULL);
}

/* What a second thread saw of, and did to, its own stream table. */
typedef struct {
  void* seen_before_set;
  int local_stream;
} stream_thread_state_t;

static void* stream_thread(void* arg) {
  stream_thread_state_t* st = arg;
  st->seen_before_set = TVMFFIEnvGetStream(kDLCUDA, 7); /* not the main thread's value */
  TVMFFIEnvSetStream(kDLCUDA, 7, &st->local_stream, NULL); /* freed at thread exit */
  TVMFFIEnvSetStream(kDLVulkan, 3, &st->local_stream, NULL);
  return NULL;
}

static void test_stream_per_thread(void) {
  int main_stream;
  stream_thread_state_t st = {&main_stream, 0};
  CHECK_OK(TVMFFIEnvSetStream(kDLCUDA, 7, &main_stream, NULL));
  run_in_thread(stream_thread, &st);
  CHECK(st.seen_before_set == NULL);
  CHECK(TVMFFIEnvGetStream(kDLCUDA, 7) == &main_stream);
  CHECK(TVMFFIEnvGetStream(kDLVulkan, 3) == NULL);
  CHECK_OK(TVMFFIEnvSetStream(kDLCUDA, 7, NULL, NULL));
}

/* ---- DLPack allocators ------------------------------------------------------------------ */

static int alloc_a(DLTensor* proto, DLManagedTensorVersioned** out, void* ctx,
                   void (*set_error)(void*, const char*, const char*)) {
  return -1;
}
static int alloc_b(DLTensor* proto, DLManagedTensorVersioned** out, void* ctx,
                   void (*set_error)(void*, const char*, const char*)) {
  return -1;
}

static void* get_allocator_thread(void* out) {
  *(DLPackManagedTensorAllocator*)out = TVMFFIEnvGetDLPackManagedTensorAllocator();
  return NULL;
}

static DLPackManagedTensorAllocator allocator_on_other_thread(void) {
  DLPackManagedTensorAllocator seen = alloc_b;
  run_in_thread(get_allocator_thread, &seen);
  return seen;
}

static void test_allocator(void) {
  DLPackManagedTensorAllocator global = allocator_on_other_thread(); /* normally NULL */
  DLPackManagedTensorAllocator prev = alloc_b;
  /* Thread-local only: this thread sees it, a new thread sees the global one. */
  CHECK_OK(TVMFFIEnvSetDLPackManagedTensorAllocator(alloc_a, 0, &prev));
  CHECK(prev == NULL);
  CHECK(TVMFFIEnvGetDLPackManagedTensorAllocator() == alloc_a);
  CHECK(allocator_on_other_thread() == global);
  /* Global too: a new thread (empty TLS) falls back to it. */
  CHECK_OK(TVMFFIEnvSetDLPackManagedTensorAllocator(alloc_b, 1, &prev));
  CHECK(prev == alloc_a);
  CHECK(TVMFFIEnvGetDLPackManagedTensorAllocator() == alloc_b);
  CHECK(allocator_on_other_thread() == alloc_b);
  /* TLS NULL -> the global value; opt_out_prev is the previous *TLS* value. */
  CHECK_OK(TVMFFIEnvSetDLPackManagedTensorAllocator(NULL, 0, &prev));
  CHECK(prev == alloc_b);
  CHECK(TVMFFIEnvGetDLPackManagedTensorAllocator() == alloc_b);
  CHECK_OK(TVMFFIEnvSetDLPackManagedTensorAllocator(NULL, 0, &prev));
  CHECK(prev == NULL);
  /* Restore the global value. */
  CHECK_OK(TVMFFIEnvSetDLPackManagedTensorAllocator(global, 1, NULL));
  CHECK_OK(TVMFFIEnvSetDLPackManagedTensorAllocator(NULL, 0, NULL));
  CHECK(TVMFFIEnvGetDLPackManagedTensorAllocator() == global);
  CHECK(allocator_on_other_thread() == global);
}

/* ---- Python C-API hooks ----------------------------------------------------------------- */

/* Fakes of PyGILState_Ensure / PyErr_CheckSignals / PyGILState_Release that record calls. */
enum { kFakeGilState = 7 };
static int fake_signal_rc;
static char fake_log[16];
static int fake_released_state;

static void fake_log_add(char c) {
  size_t n = strlen(fake_log);
  if (n + 1 < sizeof(fake_log)) fake_log[n] = c;
}
static int fake_gil_ensure(void) {
  fake_log_add('E');
  return kFakeGilState;
}
static int fake_check_signals(void) {
  fake_log_add('C');
  return fake_signal_rc;
}
static void fake_gil_release(int state) {
  fake_log_add('R');
  fake_released_state = state;
}

static void test_check_signals(void) {
  CHECK_EQ_INT(TVMFFIEnvCheckSignals(), 0); /* nothing registered */
  CHECK_OK(TVMFFIEnvRegisterCAPI("PyGILState_Ensure", (void*)fake_gil_ensure));
  CHECK_OK(TVMFFIEnvRegisterCAPI("PyGILState_Release", (void*)fake_gil_release));
  CHECK_EQ_INT(TVMFFIEnvCheckSignals(), 0); /* no PyErr_CheckSignals: nothing called */
  CHECK_EQ_STR(fake_log, "");
  CHECK_OK(TVMFFIEnvRegisterCAPI("PyErr_CheckSignals", (void*)fake_check_signals));

  fake_signal_rc = 0;
  CHECK_EQ_INT(TVMFFIEnvCheckSignals(), 0);
  CHECK_EQ_STR(fake_log, "ECR"); /* the check runs holding the "GIL" */
  CHECK_EQ_INT(fake_released_state, kFakeGilState);

  /* A pending Python exception: -1 and no TLS error (the binding re-raises its own). */
  memset(fake_log, 0, sizeof(fake_log));
  fake_signal_rc = -1;
  CHECK_EQ_INT(TVMFFIEnvCheckSignals(), -1);
  CHECK_EQ_STR(fake_log, "ECR");
  TVMFFIObjectHandle err = &err;
  TVMFFIErrorMoveFromRaised(&err);
  CHECK(err == NULL);

  /* Registering NULL unhooks. */
  memset(fake_log, 0, sizeof(fake_log));
  CHECK_OK(TVMFFIEnvRegisterCAPI("PyErr_CheckSignals", NULL));
  CHECK_OK(TVMFFIEnvRegisterCAPI("PyGILState_Ensure", NULL));
  CHECK_OK(TVMFFIEnvRegisterCAPI("PyGILState_Release", NULL));
  CHECK_EQ_INT(TVMFFIEnvCheckSignals(), 0);
  CHECK_EQ_STR(fake_log, "");
}

static void test_register_capi_unknown(void) {
  CHECK_RAISED(TVMFFIEnvRegisterCAPI("Foo", (void*)fake_check_signals), "ValueError",
               "Unknown env API Foo");
  /* Names match exactly. */
  CHECK_RAISED(TVMFFIEnvRegisterCAPI("PyErr_CheckSignal", NULL), "ValueError",
               "Unknown env API PyErr_CheckSignal");
  CHECK_RAISED(TVMFFIEnvRegisterCAPI("pyerr_checksignals", NULL), "ValueError",
               "Unknown env API pyerr_checksignals");
  CHECK_RAISED(TVMFFIEnvRegisterCAPI(NULL, NULL), "ValueError", "Unknown env API");
  CHECK_EQ_INT(TVMFFIEnvCheckSignals(), 0);
}

/* ---- symbol tables ---------------------------------------------------------------------- */

static int add_one(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  int64_t x;
  if (tether_check_nargs("add_one", "(x: int) -> int", n, 1) != 0) return -1;
  if (tether_arg_int("add_one", args, 0, &x) != 0) return -1;
  *result = tether_any_int(x + 1);
  return 0;
}
static int add_two(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  *result = tether_any_int(n == 1 ? args[0].v_int64 + 2 : -1);
  return 0;
}

/* Calls system_lib(prefix).<name>(10); *out the int result, or -1 if absent. */
static void call_system_lib(const char* prefix, const char* name, int64_t* out) {
  TVMFFIAny mod = tether_any_none(), fn = tether_any_none(), res = tether_any_none();
  TVMFFIAny arg = tether_any_raw_str(prefix);
  *out = -1;
  CHECK_OK(call_global("ffi.SystemLib", &arg, 1, &mod));
  TVMFFIAny gf_args[3] = {mod, tether_any_raw_str(name), tether_any_bool(false)};
  CHECK_OK(call_global("ffi.ModuleGetFunction", gf_args, 3, &fn));
  if (tether_any_is_object(&fn)) {
    TVMFFIAny ten = tether_any_int(10);
    CHECK_OK(tether_func_call(fn.v_obj, &ten, 1, &res));
    if (res.type_index == kTVMFFIInt) *out = res.v_int64;
  }
  tether_any_release(&res);
  tether_any_release(&fn);
  tether_any_release(&mod);
}

/* ffi.SystemLib keeps one module per prefix for the life of the process: create ours
 * before the tests run, so that the per-test leak check does not count it. */
__attribute__((constructor)) static void prime_system_lib_cache(void) {
  if (!have_global("ffi.SystemLib")) return;
  TVMFFIAny prefix = tether_any_raw_str("envtest."), mod = tether_any_none();
  if (call_global("ffi.SystemLib", &prefix, 1, &mod) != 0) {
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    TVMFFIObjectDecRef(err);
  }
  tether_any_release(&mod);
}

static void test_system_lib_symbols(void) {
  CHECK_OK(TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_envtest.add_one", (void*)add_one));
  /* Same address again: silent; another address: a warning, still 0, and it replaces. */
  CHECK_OK(TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_envtest.add_one", (void*)add_one));
  CHECK_OK(TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_envtest.plus", (void*)add_two));
  CHECK_OK(TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_envtest.plus", (void*)add_one));
  CHECK_OK(TVMFFIEnvModRegisterSystemLibSymbol(NULL, (void*)add_one)); /* warns, never fails */
  if (!have_global("ffi.SystemLib") || !have_global("ffi.ModuleGetFunction")) {
    printf("     (lookup part skipped: ffi.SystemLib is not registered)\n");
    return;
  }
  int64_t r;
  call_system_lib("envtest.", "add_one", &r);
  CHECK_EQ_INT(r, 11);
  call_system_lib("envtest.", "plus", &r);
  CHECK_EQ_INT(r, 11);
  call_system_lib("envtest.", "no_such_function", &r);
  CHECK_EQ_INT(r, -1);
}

static void test_context_symbols(void) {
  CHECK_RAISED(TVMFFIEnvModRegisterContextSymbol(NULL, NULL), "ValueError",
               "TVMFFIEnvModRegisterContextSymbol");
  /* A registered context symbol is written into every library loaded afterwards that
   * exports a data symbol of that name.  libc exports the variable `optarg` (a char*),
   * which this program never uses: load libc as a module and watch `optarg` change. */
  static char marker[] = "context symbol";
  CHECK_OK(TVMFFIEnvModRegisterContextSymbol("__tether_envtest_absent", marker));
  CHECK_OK(TVMFFIEnvModRegisterContextSymbol("optarg", NULL));
  CHECK_OK(TVMFFIEnvModRegisterContextSymbol("optarg", marker)); /* the latest value wins */
  if (!have_global("ffi.Module.load_from_file.so")) {
    printf("     (load part skipped: ffi.Module.load_from_file.so is not registered)\n");
    return;
  }
  void* libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
  char** optarg_slot = libc != NULL ? dlsym(libc, "optarg") : NULL;
  CHECK(optarg_slot != NULL);
  if (optarg_slot == NULL) goto done;
  *optarg_slot = NULL;
  TVMFFIAny args[2] = {tether_any_raw_str("libc.so.6"), tether_any_raw_str("so")};
  TVMFFIAny mod = tether_any_none();
  CHECK_OK(call_global("ffi.Module.load_from_file.so", args, 2, &mod));
  CHECK(*optarg_slot == marker);
  *optarg_slot = NULL;
  tether_any_release(&mod);
done:
  if (libc != NULL) dlclose(libc);
}

TEST_MAIN(TEST_CASE(test_version), TEST_CASE(test_init_once), TEST_CASE(test_init_once_errors),
          TEST_CASE(test_init_once_race), TEST_CASE(test_stream_set_get),
          TEST_CASE(test_stream_bad_ids), TEST_CASE(test_stream_per_thread),
          TEST_CASE(test_allocator), TEST_CASE(test_check_signals),
          TEST_CASE(test_register_capi_unknown), TEST_CASE(test_system_lib_symbols),
          TEST_CASE(test_context_symbols))
