/*
 * env.c -- the process environment behind the ABI: the version, init-once handles,
 * per-thread streams and DLPack allocators, the Python C-API hooks behind
 * TVMFFIEnvCheckSignals, and the two symbol tables module loading consults (context
 * symbols written into every loaded library; the system library's function symbols).
 *
 * Not here: TVMFFIEnvTensorAlloc (tensor.c) and TVMFFIEnvModLookupFromImports (module.c).
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#include "internal.h"
#include "env.h"

void TVMFFIGetVersion(TVMFFIVersion* out_version) {
  if (out_version == NULL) return;
  out_version->major = TVM_FFI_VERSION_MAJOR;
  out_version->minor = TVM_FFI_VERSION_MINOR;
  out_version->patch = TVM_FFI_VERSION_PATCH;
}

/* ---- init-once handles ------------------------------------------------------------------ */

/*
 * A handle slot goes NULL -> value exactly once per init/deinit cycle.  Writers publish
 * with a release store under this mutex; the fast path is a lock-free acquire load, so a
 * reader that sees the value also sees everything init_func wrote before returning it.
 * The slots are plain `void*` owned by callers, hence the __atomic builtins (which work
 * on ordinary objects) rather than _Atomic types.
 */
static pthread_mutex_t tether__init_once_mutex = PTHREAD_MUTEX_INITIALIZER;

int TVMFFIHandleInitOnce(void** handle_addr, int (*init_func)(void** result)) {
  if (handle_addr == NULL || init_func == NULL) {
    return tether_raise("ValueError", "TVMFFIHandleInitOnce: handle_addr and init_func must "
                                      "be non-NULL");
  }
  if (__atomic_load_n(handle_addr, __ATOMIC_ACQUIRE) != NULL) return 0;
  int rc = 0;
  pthread_mutex_lock(&tether__init_once_mutex);
  if (__atomic_load_n(handle_addr, __ATOMIC_RELAXED) != NULL) goto done;
  void* result = NULL;
  rc = init_func(&result);
  if (rc != 0) goto done; /* init_func raised its own error */
  if (result == NULL) {
    rc = tether_raise("RuntimeError", "init_func must return a non-NULL handle");
    goto done;
  }
  __atomic_store_n(handle_addr, result, __ATOMIC_RELEASE);
done:
  pthread_mutex_unlock(&tether__init_once_mutex);
  return rc;
}

int TVMFFIHandleDeinitOnce(void** handle_addr, int (*deinit_func)(void* handle)) {
  if (handle_addr == NULL || deinit_func == NULL) {
    return tether_raise("ValueError", "TVMFFIHandleDeinitOnce: handle_addr and deinit_func "
                                      "must be non-NULL");
  }
  void* old = __atomic_exchange_n(handle_addr, NULL, __ATOMIC_ACQ_REL);
  return old != NULL ? deinit_func(old) : 0;
}

/* ---- per-thread streams ----------------------------------------------------------------- */

/*
 * Each thread owns a growable list of (device_type, device_id) -> stream entries, kept in
 * a pthread key so that it is freed when the thread exits (the loading thread's list is
 * freed by tether__env_fini).  Threads use a handful of devices, so a linear scan is the
 * fastest lookup there is.  Keys are any non-negative pair.
 */
typedef struct {
  int32_t device_type;
  int32_t device_id;
  TVMFFIStreamHandle stream;
} tether_stream_entry_t;

typedef struct {
  size_t size, capacity;
  tether_stream_entry_t* entries;
} tether_stream_table_t;

static pthread_key_t tether__stream_key;
static bool tether__stream_key_ready;

static void tether__stream_table_free(void* table) {
  tether_stream_table_t* t = table;
  if (t == NULL) return;
  free(t->entries);
  free(t);
}

/* Borrowed entry for the key, or NULL if this thread never set it. */
static tether_stream_entry_t* tether__stream_find(tether_stream_table_t* t, int32_t device_type,
                                                  int32_t device_id) {
  if (t == NULL) return NULL;
  for (size_t i = 0; i < t->size; ++i) {
    if (t->entries[i].device_type == device_type && t->entries[i].device_id == device_id) {
      return &t->entries[i];
    }
  }
  return NULL;
}

int TVMFFIEnvSetStream(int32_t device_type, int32_t device_id, TVMFFIStreamHandle stream,
                       TVMFFIStreamHandle* opt_out_original_stream) {
  if (device_type < 0 || device_id < 0) {
    return tether_raise("ValueError", "TVMFFIEnvSetStream: device_type and device_id must be "
                                      "non-negative, got (%d, %d)", (int)device_type,
                        (int)device_id);
  }
  if (!tether__stream_key_ready) {
    return tether_raise("RuntimeError", "TVMFFIEnvSetStream: libtether is not initialised");
  }
  tether_stream_table_t* t = pthread_getspecific(tether__stream_key);
  tether_stream_entry_t* e = tether__stream_find(t, device_type, device_id);
  if (e == NULL) {
    if (t == NULL) {
      t = calloc(1, sizeof(*t));
      if (t == NULL || pthread_setspecific(tether__stream_key, t) != 0) goto oom;
    }
    if (t->size == t->capacity) {
      size_t cap = t->capacity != 0 ? 2 * t->capacity : 4;
      tether_stream_entry_t* grown = realloc(t->entries, cap * sizeof(*grown));
      if (grown == NULL) goto oom;
      t->entries = grown;
      t->capacity = cap;
    }
    e = &t->entries[t->size++];
    *e = (tether_stream_entry_t){device_type, device_id, NULL};
  }
  if (opt_out_original_stream != NULL) *opt_out_original_stream = e->stream;
  e->stream = stream;
  return 0;
oom:
  if (t != NULL && pthread_getspecific(tether__stream_key) != t) free(t);
  return tether_raise("MemoryError", "TVMFFIEnvSetStream: out of memory");
}

TVMFFIStreamHandle TVMFFIEnvGetStream(int32_t device_type, int32_t device_id) {
  if (!tether__stream_key_ready) return NULL;
  tether_stream_entry_t* e =
      tether__stream_find(pthread_getspecific(tether__stream_key), device_type, device_id);
  return e != NULL ? e->stream : NULL;
}

/* ---- DLPack allocators ------------------------------------------------------------------ */

/* A thread's own allocator wins; NULL there falls back to the process-wide one. */
static _Thread_local DLPackManagedTensorAllocator tether__tls_allocator;
static _Atomic(DLPackManagedTensorAllocator) tether__global_allocator;

int TVMFFIEnvSetDLPackManagedTensorAllocator(
    DLPackManagedTensorAllocator allocator, int write_to_global_context,
    DLPackManagedTensorAllocator* opt_out_original_allocator) {
  if (opt_out_original_allocator != NULL) *opt_out_original_allocator = tether__tls_allocator;
  tether__tls_allocator = allocator;
  if (write_to_global_context) atomic_store(&tether__global_allocator, allocator);
  return 0;
}

DLPackManagedTensorAllocator TVMFFIEnvGetDLPackManagedTensorAllocator(void) {
  if (tether__tls_allocator != NULL) return tether__tls_allocator;
  return atomic_load(&tether__global_allocator);
}

/* ---- Python C-API hooks ----------------------------------------------------------------- */

/* The C-API functions a Python binding may hand us, one slot each (NULL = not registered). */
#define TETHER_ENV_CAPIS(X) \
  X(PyErr_CheckSignals)     \
  X(PyGILState_Ensure)      \
  X(PyGILState_Release)

#define TETHER__CAPI_SLOT(name) static _Atomic(void*) tether__capi_##name;
TETHER_ENV_CAPIS(TETHER__CAPI_SLOT)
#undef TETHER__CAPI_SLOT

static const struct {
  const char* name;
  _Atomic(void*)* slot;
} tether__capis[] = {
#define TETHER__CAPI_ROW(name) {#name, &tether__capi_##name},
    TETHER_ENV_CAPIS(TETHER__CAPI_ROW)
#undef TETHER__CAPI_ROW
};

int TVMFFIEnvRegisterCAPI(const char* name, void* symbol) {
  for (size_t i = 0; name != NULL && i < sizeof(tether__capis) / sizeof(tether__capis[0]); ++i) {
    if (strcmp(name, tether__capis[i].name) == 0) {
      atomic_store(tether__capis[i].slot, symbol);
      return 0;
    }
  }
  return tether_raise("ValueError", "Unknown env API %s", name != NULL ? name : "(null)");
}

/* PyGILState_STATE is a C enum: an int across the call. */
typedef int (*tether_py_check_signals_t)(void);
typedef int (*tether_py_gil_ensure_t)(void);
typedef void (*tether_py_gil_release_t)(int state);

int TVMFFIEnvCheckSignals(void) {
  tether_py_check_signals_t check = (tether_py_check_signals_t)atomic_load(
      &tether__capi_PyErr_CheckSignals);
  if (check == NULL) return 0;
  tether_py_gil_ensure_t ensure = (tether_py_gil_ensure_t)atomic_load(
      &tether__capi_PyGILState_Ensure);
  tether_py_gil_release_t release = (tether_py_gil_release_t)atomic_load(
      &tether__capi_PyGILState_Release);
  int state = ensure != NULL ? ensure() : 0;
  int rc = check();
  if (ensure != NULL && release != NULL) release(state);
  /* A pending Python exception stays in Python: no TLS error (callers use
   * "EnvErrorAlreadySet"). */
  return rc != 0 ? -1 : 0;
}

/* ---- symbol tables ---------------------------------------------------------------------- */

/*
 * A name -> address list with unique names (the names are owned copies).  Both tables
 * are filled at library load time (static initialisers) and read when modules load, so
 * a linear scan under tether__env_mutex is ample.
 */
typedef struct {
  char* name;
  void* value;
} tether_symbol_t;

typedef struct {
  size_t size, capacity;
  tether_symbol_t* items;
} tether_symtab_t;

static pthread_mutex_t tether__env_mutex = PTHREAD_MUTEX_INITIALIZER;
static tether_symtab_t tether__context_symbols; /* guarded by tether__env_mutex */
static tether_symtab_t tether__system_lib_symbols; /* guarded by tether__env_mutex */

static tether_symbol_t* tether__symtab_find(tether_symtab_t* tab, const char* name) {
  for (size_t i = 0; i < tab->size; ++i) {
    if (strcmp(tab->items[i].name, name) == 0) return &tab->items[i];
  }
  return NULL;
}

/* Sets name -> value, replacing an existing value; *out_old receives the replaced value
 * (NULL if the name is new).  -1 on out-of-memory (nothing raised; the table is intact). */
static int tether__symtab_put(tether_symtab_t* tab, const char* name, void* value,
                              void** out_old) {
  tether_symbol_t* sym = tether__symtab_find(tab, name);
  *out_old = NULL;
  if (sym != NULL) {
    *out_old = sym->value;
    sym->value = value;
    return 0;
  }
  char* copy = NULL;
  if (tab->size == tab->capacity) {
    size_t cap = tab->capacity != 0 ? 2 * tab->capacity : 16;
    tether_symbol_t* grown = realloc(tab->items, cap * sizeof(*grown));
    if (grown == NULL) goto fail;
    tab->items = grown;
    tab->capacity = cap;
  }
  copy = strdup(name);
  if (copy == NULL) goto fail;
  tab->items[tab->size++] = (tether_symbol_t){copy, value};
  return 0;
fail:
  free(copy);
  return -1;
}

static void tether__symtab_clear(tether_symtab_t* tab) {
  for (size_t i = 0; i < tab->size; ++i) free(tab->items[i].name);
  free(tab->items);
  *tab = (tether_symtab_t){0, 0, NULL};
}

int TVMFFIEnvModRegisterContextSymbol(const char* name, void* symbol) {
  if (name == NULL) {
    return tether_raise("ValueError", "TVMFFIEnvModRegisterContextSymbol: name must be "
                                      "non-NULL");
  }
  void* old;
  pthread_mutex_lock(&tether__env_mutex);
  int rc = tether__symtab_put(&tether__context_symbols, name, symbol, &old);
  pthread_mutex_unlock(&tether__env_mutex);
  if (rc != 0) {
    return tether_raise("MemoryError", "TVMFFIEnvModRegisterContextSymbol: out of memory "
                                       "registering `%s`", name);
  }
  return 0;
}

void tether__env_apply_context_symbols(void* dl_handle) {
  pthread_mutex_lock(&tether__env_mutex);
  for (size_t i = 0; i < tether__context_symbols.size; ++i) {
    void** slot = dlsym(dl_handle, tether__context_symbols.items[i].name);
    if (slot != NULL) *slot = tether__context_symbols.items[i].value;
  }
  pthread_mutex_unlock(&tether__env_mutex);
}

int TVMFFIEnvModRegisterSystemLibSymbol(const char* name, void* symbol) {
  /* Runs from static initialisers and cannot fail (always 0): problems are printed. */
  if (name == NULL) {
    fprintf(stderr, "Warning: TVMFFIEnvModRegisterSystemLibSymbol: ignoring a NULL name\n");
    return 0;
  }
  void* old;
  pthread_mutex_lock(&tether__env_mutex);
  int rc = tether__symtab_put(&tether__system_lib_symbols, name, symbol, &old);
  pthread_mutex_unlock(&tether__env_mutex);
  if (rc != 0) {
    fprintf(stderr, "Warning: SystemLib symbol %s not registered: out of memory\n", name);
  } else if (old != NULL && old != symbol) {
    fprintf(stderr, "Warning: SystemLib symbol %s overridden with a different address "
                    "(%p -> %p)\n", name, old, symbol);
  }
  return 0;
}

void* tether__env_system_lib_symbol(const char* name) {
  if (name == NULL) return NULL;
  pthread_mutex_lock(&tether__env_mutex);
  tether_symbol_t* sym = tether__symtab_find(&tether__system_lib_symbols, name);
  void* value = sym != NULL ? sym->value : NULL;
  pthread_mutex_unlock(&tether__env_mutex);
  return value;
}

/* ---- lifetime --------------------------------------------------------------------------- */

int tether__env_init(void) {
  if (pthread_key_create(&tether__stream_key, tether__stream_table_free) != 0) return -1;
  tether__stream_key_ready = true;
  return 0;
}

void tether__env_fini(void) {
  if (tether__stream_key_ready) {
    /* The unloading thread's table; other threads freed theirs when they exited. */
    tether__stream_table_free(pthread_getspecific(tether__stream_key));
    pthread_setspecific(tether__stream_key, NULL);
    pthread_key_delete(tether__stream_key);
    tether__stream_key_ready = false;
  }
  pthread_mutex_lock(&tether__env_mutex);
  tether__symtab_clear(&tether__context_symbols);
  tether__symtab_clear(&tether__system_lib_symbols);
  pthread_mutex_unlock(&tether__env_mutex);
}
