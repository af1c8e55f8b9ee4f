/*
 * module.c -- Module objects (type 73): shared libraries loaded with dlopen, the system
 * library (functions registered with TVMFFIEnvModRegisterSystemLibSymbol), imports
 * between modules, the per-module lookup cache behind TVMFFIEnvModLookupFromImports, and
 * the ffi.Module* / ffi.SystemLib / ffi.ModuleLoadFromFile globals (spec sections 4, 5).
 *
 * A library exports function `name` as the C symbol "__tvm_ffi_<name>" with the safe-call
 * signature; it is called with handle NULL.  GetFunction wraps the symbol in a new
 * Function that holds a strong reference to its module, so the library stays loaded (and
 * the module's imports stay reachable for TVMFFIEnvModLookupFromImports) while any of its
 * functions lives; the module dlcloses the library when it dies.
 *
 * Loading a library and binding its TVMFFI* references to libtether is bind.c's part.
 *
 * libtvm_ffi.so alias: libraries built for tvm-ffi record DT_NEEDED "libtvm_ffi.so".  The
 * build puts an empty shared library with SONAME libtvm_ffi.so and DT_NEEDED
 * libtether.so.0 next to libtether (top-level CMakeLists.txt).  Before the first library
 * load, tether__alias_preload dlopens that file by its absolute path; from then on the
 * dynamic loader satisfies every DT_NEEDED "libtvm_ffi.so" by SONAME with the alias
 * already in memory, without searching any path, and the kernel's TVMFFI* references
 * resolve through the alias's own dependency: libtether.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#include <tether/reflection.h>

#include "internal.h"
#include "array.h"
#include "bind.h"
#include "env.h"
#include "error.h"
#include "map.h"
#include "module.h"
#include "object.h"

/* ---- the object ------------------------------------------------------------------------ */

/*
 * Layout: the imports Array sits right after the header (handle + 24), where tvm-ffi's
 * ModuleObj keeps `imports_`, so a reflected field `imports_` reads the same offset.
 * Invariants: `imports` is never NULL and is an Array of tether modules; the import graph
 * is acyclic (ffi.ModuleImportModule refuses cycles), so recursive searches terminate and
 * imports never keep each other alive in a loop.  `dl` is NULL only for a system library
 * (then `prefix` is set).  `imports`, `cache*` and the live-module list are guarded by
 * tether__module_mutex, which is never held while calling out of this file.
 */
typedef struct {
  char* name; /* owned, NUL-terminated */
  TVMFFIObject* fn; /* owned; handed out borrowed by TVMFFIEnvModLookupFromImports */
} tether_lookup_entry_t;

typedef struct tether_module {
  TVMFFIObject header;
  TVMFFIObject* imports;
  void* dl;
  int copy_fd; /* with dl: the memfd of a private copy (bind.c), or -1 */
  char* prefix;
  void** ctx_slot; /* the library's `__tvm_ffi__library_ctx`, or NULL */
  tether_lookup_entry_t* cache;
  size_t cache_size, cache_cap;
  struct tether_module* next_live; /* list of modules with a ctx slot */
} tether_module_t;

static pthread_mutex_t tether__module_mutex = PTHREAD_MUTEX_INITIALIZER;
static tether_module_t* tether__live_ctx_modules; /* guarded by tether__module_mutex */

#define TETHER__SYM_FUNC "__tvm_ffi_"
#define TETHER__SYM_METADATA "__tvm_ffi__metadata_"
#define TETHER__SYM_DOC "__tvm_ffi__doc_"
#define TETHER__SYM_LIBRARY_CTX "__tvm_ffi__library_ctx"

static void tether__module_deleter(void* self, int flags);

static bool tether__is_module(const TVMFFIObject* obj) {
  return obj != NULL && obj->type_index == kTVMFFIModule && obj->deleter == tether__module_deleter;
}

/* Points the library's ctx slot at another live module of the same library, or NULL, so
 * the slot never names a dead module.  Caller holds tether__module_mutex. */
static void tether__module_unlink_locked(tether_module_t* m) {
  tether_module_t** link = &tether__live_ctx_modules;
  while (*link != NULL && *link != m) link = &(*link)->next_live;
  if (*link == m) *link = m->next_live;
  if (m->ctx_slot == NULL || *m->ctx_slot != (void*)m) return;
  *m->ctx_slot = NULL;
  for (tether_module_t* o = tether__live_ctx_modules; o != NULL; o = o->next_live) {
    if (o->ctx_slot == m->ctx_slot) {
      *m->ctx_slot = o;
      break;
    }
  }
}

static void tether__module_deleter(void* self, int flags) {
  tether_module_t* m = self;
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) {
    pthread_mutex_lock(&tether__module_mutex);
    tether__module_unlink_locked(m);
    pthread_mutex_unlock(&tether__module_mutex);
    /* Released outside the lock: they may hold the last references to other modules. */
    for (size_t i = 0; i < m->cache_size; ++i) {
      free(m->cache[i].name);
      TVMFFIObjectDecRef(m->cache[i].fn);
    }
    free(m->cache);
    TVMFFIObjectDecRef(m->imports);
    free(m->prefix);
    if (m->dl != NULL) {
      tether_bound_library_t lib = {m->dl, m->copy_fd};
      tether__bind_unload(&lib);
    }
  }
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) tether__object_free(self);
}

/* New module with no library attached yet (the caller sets dl or prefix). */
static tether_module_t* tether__module_new(void) {
  tether_module_t* m =
      tether__object_alloc(sizeof(tether_module_t), kTVMFFIModule, tether__module_deleter);
  if (m == NULL) return NULL;
  if (tether__array_new_empty(0, &m->imports) != 0) {
    tether__object_free(m);
    return NULL;
  }
  m->copy_fd = -1;
  return m;
}

/* Stores the module in the library's ctx slot (if it has one) and remembers it. */
static void tether__module_attach_ctx(tether_module_t* m, void** slot) {
  if (slot == NULL) return;
  pthread_mutex_lock(&tether__module_mutex);
  m->ctx_slot = slot;
  *slot = m;
  m->next_live = tether__live_ctx_modules;
  tether__live_ctx_modules = m;
  pthread_mutex_unlock(&tether__module_mutex);
}

/* ---- the libtvm_ffi.so alias ----------------------------------------------------------- */

static pthread_once_t tether__alias_once = PTHREAD_ONCE_INIT;
static void* tether__alias_handle; /* written once under tether__alias_once */

/* Loads libtvm_ffi.so from libtether's own directory, keeping it only if its symbols are
 * ours (when libtether is linked statically the file would drag in a second runtime, so
 * it is not even tried).  A missing alias is not an error: kernels then need the alias
 * on the search path (LD_LIBRARY_PATH, RUNPATH) or real libtvm_ffi already loaded. */
static void tether__alias_preload(void) {
  Dl_info info;
  if (dladdr((void*)TVMFFIEnvModLookupFromImports, &info) == 0 || info.dli_fname == NULL) return;
  const char* slash = strrchr(info.dli_fname, '/');
  const char* base = slash != NULL ? slash + 1 : info.dli_fname;
  if (strncmp(base, "libtether.so", strlen("libtether.so")) != 0 || slash == NULL) return;
  size_t dir_len = (size_t)(slash - info.dli_fname);
  char* path = malloc(dir_len + sizeof("/libtvm_ffi.so"));
  if (path == NULL) return;
  memcpy(path, info.dli_fname, dir_len);
  memcpy(path + dir_len, "/libtvm_ffi.so", sizeof("/libtvm_ffi.so"));
  void* h = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
  free(path);
  if (h == NULL) {
    (void)dlerror();
    return;
  }
  if (dlsym(h, "TVMFFIEnvModLookupFromImports") != (void*)TVMFFIEnvModLookupFromImports) {
    dlclose(h);
    return;
  }
  tether__alias_handle = h;
}

/* ---- symbols ----------------------------------------------------------------------------- */

/* Address of `kind_prefix` + name in module m (for the system library: kind_prefix +
 * prefix + name, then kind_prefix + name), or NULL.  -1 only when out of memory. */
static int tether__module_symbol(const tether_module_t* m, const char* kind_prefix,
                                 TVMFFIByteArray name, void** out) {
  *out = NULL;
  if (memchr(name.data, '\0', name.size) != NULL) return 0; /* no C symbol has that name */
  const char* lib_prefix = m->prefix != NULL ? m->prefix : "";
  size_t n = strlen(kind_prefix) + strlen(lib_prefix) + name.size + 1;
  char* sym = malloc(n);
  if (sym == NULL) return tether_raise("MemoryError", "ffi.Module: out of memory (%zu bytes)", n);
  if (m->dl != NULL) {
    snprintf(sym, n, "%s%.*s", kind_prefix, (int)name.size, name.data);
    *out = dlsym(m->dl, sym);
  } else {
    snprintf(sym, n, "%s%s%.*s", kind_prefix, lib_prefix, (int)name.size, name.data);
    *out = tether__env_system_lib_symbol(sym);
    if (*out == NULL && lib_prefix[0] != '\0') {
      snprintf(sym, n, "%s%.*s", kind_prefix, (int)name.size, name.data);
      *out = tether__env_system_lib_symbol(sym);
    }
  }
  free(sym);
  return 0;
}

/* A library function: the exported symbol and the module that keeps it loaded. */
typedef struct {
  TVMFFIObject* module; /* owned */
  TVMFFISafeCallType fn;
} tether_library_function_t;

/* The call with the arguments from `first` on that need it handed over in tvm-ffi's C++
 * map layout (tether__any_to_cxx_layout); the others are passed as they are. */
static int tether__library_call_cxx(TVMFFISafeCallType fn, const TVMFFIAny* args,
                                    int32_t num_args, int32_t first, TVMFFIAny* result) {
  enum { SMALL = 8 };
  TVMFFIAny small_args[SMALL];
  bool small_owned[SMALL];
  TVMFFIAny* call_args =
      num_args <= SMALL ? small_args : malloc((size_t)num_args * sizeof(TVMFFIAny));
  bool* owned = num_args <= SMALL ? small_owned : calloc((size_t)num_args, sizeof(bool));
  int rc = -1;
  if (call_args == NULL || owned == NULL) {
    tether_raise("MemoryError", "ffi.Module: out of memory passing %d arguments", num_args);
    goto fail;
  }
  for (int32_t i = 0; i < num_args; ++i) {
    owned[i] = i >= first && tether__any_needs_cxx_layout(&args[i]);
    if (!owned[i]) {
      call_args[i] = args[i];
    } else if (tether__any_to_cxx_layout(&args[i], &call_args[i]) != 0) {
      owned[i] = false;
      for (int32_t j = 0; j < i; ++j) {
        if (owned[j]) tether_any_release(&call_args[j]);
      }
      goto fail;
    }
  }
  rc = fn(NULL, call_args, num_args, result);
  for (int32_t i = 0; i < num_args; ++i) {
    if (owned[i]) tether_any_release(&call_args[i]);
  }
fail:
  if (call_args != small_args) free(call_args);
  if (owned != small_owned) free(owned);
  return rc;
}

/* Library code may be C++ built from tvm-ffi's headers, which reads maps in place in its
 * own layout; maps libtether laid out (and the containers holding them) are handed over
 * rebuilt in that layout.  Other arguments, the common case, go straight through. */
static int tether__library_function_call(void* self, const TVMFFIAny* args, int32_t num_args,
                                         TVMFFIAny* result) {
  TVMFFISafeCallType fn = ((tether_library_function_t*)self)->fn;
  for (int32_t i = 0; i < num_args; ++i) {
    if (tether__any_needs_cxx_layout(&args[i])) {
      return tether__library_call_cxx(fn, args, num_args, i, result);
    }
  }
  return fn(NULL, args, num_args, result);
}

static void tether__library_function_free(void* self) {
  TVMFFIObjectDecRef(((tether_library_function_t*)self)->module);
  free(self);
}

/* New Function calling `sym` of module m; m is borrowed (the function takes its own ref). */
static int tether__library_function_new(tether_module_t* m, void* sym, TVMFFIObject** out) {
  tether_library_function_t* self = malloc(sizeof(*self));
  if (self == NULL) return tether_raise("MemoryError", "ffi.ModuleGetFunction: out of memory");
  self->module = &m->header;
  self->fn = (TVMFFISafeCallType)sym;
  TVMFFIObjectIncRef(self->module);
  if (TVMFFIFunctionCreate(self, tether__library_function_call, tether__library_function_free,
                           (TVMFFIObjectHandle*)out) != 0) {
    tether__library_function_free(self);
    return -1;
  }
  return 0;
}

/* New reference to m's imports Array (a snapshot: later imports replace the array). */
static TVMFFIObject* tether__module_imports(tether_module_t* m) {
  pthread_mutex_lock(&tether__module_mutex);
  TVMFFIObject* imports = m->imports;
  TVMFFIObjectIncRef(imports);
  pthread_mutex_unlock(&tether__module_mutex);
  return imports;
}

/* Depth-first search of `kind_prefix`+name over m and, if query_imports, its imports.
 * *out_module (new reference: the owner of the symbol, keeping it loaded) and *out_sym
 * are NULL when not found. */
static int tether__module_find(tether_module_t* m, const char* kind_prefix, TVMFFIByteArray name,
                               bool query_imports, tether_module_t** out_module, void** out_sym) {
  *out_module = NULL;
  if (tether__module_symbol(m, kind_prefix, name, out_sym) != 0) return -1;
  if (*out_sym != NULL) {
    TVMFFIObjectIncRef(&m->header);
    *out_module = m;
    return 0;
  }
  if (!query_imports) return 0;
  TVMFFIObject* imports = tether__module_imports(m);
  int rc = 0;
  for (int64_t i = 0; i < tether__array_size(imports) && rc == 0 && *out_sym == NULL; ++i) {
    tether_module_t* sub = (tether_module_t*)tether__array_get(imports, i)->v_obj;
    rc = tether__module_find(sub, kind_prefix, name, true, out_module, out_sym);
  }
  TVMFFIObjectDecRef(imports);
  return rc;
}

int tether__module_get_function(TVMFFIObject* mod, TVMFFIByteArray name, bool query_imports,
                                TVMFFIObject** out) {
  *out = NULL;
  if (!tether__is_module(mod)) {
    return tether_raise("TypeError", "ffi.ModuleGetFunction: expected a module created by "
                                     "libtether, got an object of type `%s`",
                        tether_type_key(mod != NULL ? mod->type_index : kTVMFFINone));
  }
  tether_module_t* owner;
  void* sym;
  if (tether__module_find((tether_module_t*)mod, TETHER__SYM_FUNC, name, query_imports, &owner,
                          &sym) != 0) {
    return -1;
  }
  if (sym == NULL) return 0;
  int rc = tether__library_function_new(owner, sym, out);
  TVMFFIObjectDecRef(&owner->header);
  return rc;
}

int tether__module_load_library(const char* path, TVMFFIObject** out) {
  *out = NULL;
  pthread_once(&tether__alias_once, tether__alias_preload);
  tether_bound_library_t lib;
  if (tether__bind_load(path, &lib) != 0) return -1;
  tether_module_t* m = tether__module_new();
  if (m == NULL) {
    tether__bind_unload(&lib);
    return -1;
  }
  m->dl = lib.dl;
  m->copy_fd = lib.copy_fd;
  tether__env_apply_context_symbols(m->dl);
  tether__module_attach_ctx(m, dlsym(m->dl, TETHER__SYM_LIBRARY_CTX));
  *out = &m->header;
  return 0;
}

/* ---- TVMFFIEnvModLookupFromImports ------------------------------------------------------- */

/* Borrowed cached function of m named `name`, or NULL.  Caller holds the mutex. */
static TVMFFIObject* tether__cache_find_locked(const tether_module_t* m, const char* name) {
  for (size_t i = 0; i < m->cache_size; ++i) {
    if (strcmp(m->cache[i].name, name) == 0) return m->cache[i].fn;
  }
  return NULL;
}

/* Lookup order: the cache, the imports (recursively, depth-first), the global registry.
 * Entries are never evicted while the module lives, so the borrowed handle handed out
 * stays valid as long as the library that asked for it is loaded. */
int TVMFFIEnvModLookupFromImports(TVMFFIObjectHandle library_ctx, const char* func_name,
                                  TVMFFIObjectHandle* out) {
  static const char* const fname = "TVMFFIEnvModLookupFromImports";
  if (out == NULL) return tether_raise("ValueError", "%s: argument `out` must not be NULL", fname);
  *out = NULL;
  if (func_name == NULL) {
    return tether_raise("ValueError", "%s: argument `func_name` must not be NULL", fname);
  }
  if (!tether__is_module(library_ctx)) {
    return tether_raise("ValueError",
                        "%s: argument `library_ctx` must be the module pointer libtether stored "
                        "in the library's `__tvm_ffi__library_ctx` (got %p; the module may "
                        "have been released)",
                        fname, library_ctx);
  }
  tether_module_t* m = library_ctx;
  pthread_mutex_lock(&tether__module_mutex);
  TVMFFIObject* cached = tether__cache_find_locked(m, func_name);
  pthread_mutex_unlock(&tether__module_mutex);
  if (cached != NULL) {
    *out = cached;
    return 0;
  }

  TVMFFIObject* fn = NULL;
  TVMFFIByteArray name = {func_name, strlen(func_name)};
  TVMFFIObject* imports = tether__module_imports(m);
  int rc = 0;
  for (int64_t i = 0; i < tether__array_size(imports) && rc == 0 && fn == NULL; ++i) {
    rc = tether__module_get_function(tether__array_get(imports, i)->v_obj, name, true, &fn);
  }
  TVMFFIObjectDecRef(imports);
  if (rc != 0) return -1;
  if (fn == NULL && TVMFFIFunctionGetGlobal(&name, (TVMFFIObjectHandle*)&fn) != 0) return -1;
  if (fn == NULL) {
    return tether_raise("RuntimeError",
                        "Cannot find function %s in the imported modules or global registry.",
                        func_name);
  }

  char* key = strdup(func_name);
  if (key == NULL) goto oom;
  pthread_mutex_lock(&tether__module_mutex);
  cached = tether__cache_find_locked(m, func_name); /* another thread may have won */
  if (cached == NULL && m->cache_size == m->cache_cap) {
    size_t cap = m->cache_cap != 0 ? 2 * m->cache_cap : 4;
    tether_lookup_entry_t* grown = realloc(m->cache, cap * sizeof(*grown));
    if (grown == NULL) {
      pthread_mutex_unlock(&tether__module_mutex);
      goto oom;
    }
    m->cache = grown;
    m->cache_cap = cap;
  }
  if (cached == NULL) {
    m->cache[m->cache_size++] = (tether_lookup_entry_t){key, fn};
    key = NULL;
    cached = fn;
    fn = NULL;
  }
  pthread_mutex_unlock(&tether__module_mutex);
  free(key);
  TVMFFIObjectDecRef(fn);
  *out = cached;
  return 0;
oom:
  free(key);
  TVMFFIObjectDecRef(fn);
  return tether_raise("MemoryError", "%s: out of memory caching `%s`", fname, func_name);
}

/* ---- process-wide tables: system libraries and the keep-alive set ------------------------ */

/* Both guarded by tether__module_mutex; every module listed is an owned reference.  A
 * system library's table key is its own `prefix`. */
static TVMFFIObject** tether__system_libs;
static size_t tether__system_libs_size;
static TVMFFIObject** tether__kept_modules;
static size_t tether__kept_size, tether__kept_cap;

/* New reference to the cached system library for `prefix`, or NULL.  Caller holds the
 * mutex. */
static TVMFFIObject* tether__system_lib_find_locked(TVMFFIByteArray prefix) {
  for (size_t i = 0; i < tether__system_libs_size; ++i) {
    const char* p = ((tether_module_t*)tether__system_libs[i])->prefix;
    if (strlen(p) == prefix.size && memcmp(p, prefix.data, prefix.size) == 0) {
      TVMFFIObjectIncRef(tether__system_libs[i]);
      return tether__system_libs[i];
    }
  }
  return NULL;
}

/* The cached system library for `prefix` (new reference), created on first use.  The
 * module is built outside the lock (its deleter takes the lock); if another thread
 * cached one meanwhile, ours is dropped. */
static int tether__system_lib_get(TVMFFIByteArray prefix, TVMFFIObject** out) {
  pthread_mutex_lock(&tether__module_mutex);
  *out = tether__system_lib_find_locked(prefix);
  pthread_mutex_unlock(&tether__module_mutex);
  if (*out != NULL) return 0;

  tether_module_t* m = tether__module_new();
  if (m == NULL) return -1;
  m->prefix = strndup(prefix.data, prefix.size);
  if (m->prefix == NULL) {
    TVMFFIObjectDecRef(&m->header);
    return tether_raise("MemoryError", "ffi.SystemLib: out of memory");
  }
  bool oom = false;
  pthread_mutex_lock(&tether__module_mutex);
  *out = tether__system_lib_find_locked(prefix);
  if (*out == NULL) {
    TVMFFIObject** grown =
        realloc(tether__system_libs, (tether__system_libs_size + 1) * sizeof(*grown));
    if (grown != NULL) {
      tether__system_libs = grown;
      tether__system_libs[tether__system_libs_size++] = &m->header; /* the table's reference */
      TVMFFIObjectIncRef(&m->header);
      *out = &m->header;
      m = NULL;
    } else {
      oom = true;
    }
  }
  pthread_mutex_unlock(&tether__module_mutex);
  if (m != NULL) {
    TVMFFIObjectDecRef(&m->header); /* lost the race, or out of memory */
    if (oom) return tether_raise("MemoryError", "ffi.SystemLib: out of memory");
    return 0;
  }
  /* The ctx symbol is looked up like any raw symbol: with the prefix, then without. */
  void* slot;
  TVMFFIByteArray ctx = {TETHER__SYM_LIBRARY_CTX, strlen(TETHER__SYM_LIBRARY_CTX)};
  if (tether__module_symbol((tether_module_t*)*out, "", ctx, &slot) != 0) {
    TVMFFIObjectDecRef(*out);
    *out = NULL;
    return -1;
  }
  tether__module_attach_ctx((tether_module_t*)*out, slot);
  return 0;
}

/* ---- the globals ------------------------------------------------------------------------- */

#define TETHER__SIG_LOAD_FROM_FILE "ffi.ModuleLoadFromFile(0: str) -> ffi.Module"
#define TETHER__SIG_LOAD_SO "ffi.Module.load_from_file.so(0: str, 1: str) -> ffi.Module"
#define TETHER__SIG_GET_FUNCTION \
  "ffi.ModuleGetFunction(0: ffi.Module, 1: str, 2: bool) -> Optional<ffi.Function>"
#define TETHER__SIG_IMPLEMENTS \
  "ffi.ModuleImplementsFunction(0: ffi.Module, 1: str, 2: bool) -> bool"
#define TETHER__SIG_METADATA \
  "ffi.ModuleGetFunctionMetadata(0: ffi.Module, 1: str, 2: bool) -> Optional<str>"
#define TETHER__SIG_DOC "ffi.ModuleGetFunctionDoc(0: ffi.Module, 1: str, 2: bool) -> Optional<str>"
#define TETHER__SIG_PROPERTY_MASK "ffi.ModuleGetPropertyMask(0: ffi.Module) -> int"
#define TETHER__SIG_INSPECT_SOURCE "ffi.ModuleInspectSource(0: ffi.Module, 1: str) -> str"
#define TETHER__SIG_GET_KIND "ffi.ModuleGetKind(0: ffi.Module) -> str"
#define TETHER__SIG_WRITE_FORMATS "ffi.ModuleGetWriteFormats(0: ffi.Module) -> Array<str>"
#define TETHER__SIG_WRITE_TO_FILE "ffi.ModuleWriteToFile(0: ffi.Module, 1: str, 2: str) -> void"
#define TETHER__SIG_IMPORT "ffi.ModuleImportModule(0: ffi.Module, 1: ffi.Module) -> void"
#define TETHER__SIG_CLEAR_IMPORTS "ffi.ModuleClearImports(0: ffi.Module) -> void"
#define TETHER__SIG_GLOBALS_ADD "ffi.ModuleGlobalsAdd(0: ffi.Module) -> void"
#define TETHER__SIG_GLOBALS_REMOVE "ffi.ModuleGlobalsRemove(0: ffi.Module) -> void"

/* Property bits (tvm-ffi's ModulePropertyMask): BinarySerializable 1, Runnable 2. */
#define TETHER__MODULE_PROPERTY_MASK 3

/* Module argument i: one of ours (a foreign ffi.Module has an unknown layout). */
static int tether__arg_module(const char* sig, const TVMFFIAny* args, int32_t i,
                              tether_module_t** out) {
  TVMFFIObject* obj;
  if (tether_arg_object(sig, args, i, kTVMFFIModule, &obj) != 0) return -1;
  if (!tether__is_module(obj)) {
    return tether_raise("TypeError",
                        "Argument #%d when calling `%s`: the module was not created by "
                        "libtether (its layout is unknown)",
                        (int)i, sig);
  }
  *out = (tether_module_t*)obj;
  return 0;
}

/* Owned NUL-terminated copy of string argument i (free it). */
static int tether__arg_cstr(const char* sig, const TVMFFIAny* args, int32_t i, char** out) {
  TVMFFIByteArray s;
  if (tether_arg_str(sig, args, i, &s) != 0) return -1;
  *out = strndup(s.data, s.size);
  if (*out == NULL) return tether_raise("MemoryError", "%s: out of memory", sig);
  return 0;
}

static void tether__result_object(TVMFFIAny* result, TVMFFIObject* obj) {
  *result = obj != NULL ? tether_any_object(obj) : tether_any_none();
}

static int tether__g_load_so(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  char* path = NULL;
  TVMFFIByteArray fmt;
  TVMFFIObject* mod = NULL;
  int rc = -1;
  if (tether_check_nargs(TETHER__SIG_LOAD_SO, NULL, n, 2) != 0) goto fail;
  if (tether__arg_cstr(TETHER__SIG_LOAD_SO, args, 0, &path) != 0) goto fail;
  if (tether_arg_str(TETHER__SIG_LOAD_SO, args, 1, &fmt) != 0) goto fail; /* fmt is unused */
  if (tether__module_load_library(path, &mod) != 0) goto fail;
  tether__result_object(result, mod);
  rc = 0;
fail:
  free(path);
  return rc;
}

static int tether__g_load_from_file(void* h, const TVMFFIAny* args, int32_t n,
                                    TVMFFIAny* result) {
  char* loader_name = NULL;
  TVMFFIObject* loader = NULL;
  TVMFFIByteArray path;
  int rc = -1;
  if (tether_check_nargs(TETHER__SIG_LOAD_FROM_FILE, NULL, n, 1) != 0) goto fail;
  if (tether_arg_str(TETHER__SIG_LOAD_FROM_FILE, args, 0, &path) != 0) goto fail;
  const char* dot = NULL;
  for (size_t i = path.size; i-- > 0;) {
    if (path.data[i] == '.') {
      dot = path.data + i;
      break;
    }
  }
  if (dot == NULL) {
    tether_raise("RuntimeError", "Failed to get file format from %.*s", (int)path.size, path.data);
    goto fail;
  }
  const char* ext = dot + 1;
  int ext_len = (int)(path.data + path.size - ext);
  if ((ext_len == 3 && memcmp(ext, "dll", 3) == 0) || (ext_len == 5 && memcmp(ext, "dylib", 5) == 0) ||
      (ext_len == 3 && memcmp(ext, "dso", 3) == 0)) {
    ext = "so";
    ext_len = 2;
  }
  size_t len = strlen("ffi.Module.load_from_file.") + (size_t)ext_len + 1;
  loader_name = malloc(len);
  if (loader_name == NULL) {
    tether_raise("MemoryError", "ffi.ModuleLoadFromFile: out of memory");
    goto fail;
  }
  snprintf(loader_name, len, "ffi.Module.load_from_file.%.*s", ext_len, ext);
  TVMFFIByteArray key = {loader_name, strlen(loader_name)};
  if (TVMFFIFunctionGetGlobal(&key, (TVMFFIObjectHandle*)&loader) != 0) goto fail;
  if (loader == NULL) {
    /* The reference's text, missing spaces included. */
    tether_raise("RuntimeError",
                 "Loader for `.%.*s` files is not registered, resolved to (%s) in the global "
                 "registry.Ensure that you have loaded the correct runtime code, andthat you "
                 "are on the correct hardware architecture.",
                 ext_len, ext, loader_name);
    goto fail;
  }
  TVMFFIAny call_args[2] = {args[0], tether_any_none()};
  call_args[1].type_index = kTVMFFIRawStr;
  call_args[1].v_c_str = loader_name + strlen("ffi.Module.load_from_file.");
  rc = tether_func_call(loader, call_args, 2, result);
fail:
  TVMFFIObjectDecRef(loader);
  free(loader_name);
  return rc;
}

/* Parses (module, name, query_imports) for the four lookups. */
static int tether__lookup_args(const char* sig, const TVMFFIAny* args, int32_t n,
                               tether_module_t** mod, TVMFFIByteArray* name, bool* query_imports) {
  if (tether_check_nargs(sig, NULL, n, 3) != 0) return -1;
  if (tether__arg_module(sig, args, 0, mod) != 0) return -1;
  if (tether_arg_str(sig, args, 1, name) != 0) return -1;
  return tether_arg_bool(sig, args, 2, query_imports);
}

static int tether__g_get_function(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  tether_module_t* m = NULL;
  TVMFFIByteArray name;
  bool query_imports;
  TVMFFIObject* fn;
  if (tether__lookup_args(TETHER__SIG_GET_FUNCTION, args, n, &m, &name, &query_imports) != 0 ||
      tether__module_get_function(&m->header, name, query_imports, &fn) != 0) {
    return -1;
  }
  tether__result_object(result, fn);
  return 0;
}

static int tether__g_implements(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  tether_module_t *m = NULL, *owner = NULL;
  TVMFFIByteArray name;
  bool query_imports;
  void* sym;
  if (tether__lookup_args(TETHER__SIG_IMPLEMENTS, args, n, &m, &name, &query_imports) != 0 ||
      tether__module_find(m, TETHER__SYM_FUNC, name, query_imports, &owner, &sym) != 0) {
    return -1;
  }
  if (owner != NULL) TVMFFIObjectDecRef(&owner->header);
  *result = tether_any_bool(sym != NULL);
  return 0;
}

/* Calls the companion `kind_prefix`<name> (no arguments, returns a string); None if the
 * module has none. */
static int tether__companion(const char* sig, const char* kind_prefix, const TVMFFIAny* args,
                             int32_t n, TVMFFIAny* result) {
  tether_module_t *m = NULL, *owner = NULL;
  TVMFFIByteArray name;
  bool query_imports;
  void* sym;
  if (tether__lookup_args(sig, args, n, &m, &name, &query_imports) != 0 ||
      tether__module_find(m, kind_prefix, name, query_imports, &owner, &sym) != 0) {
    return -1;
  }
  *result = tether_any_none();
  if (sym == NULL) return 0;
  int rc = ((TVMFFISafeCallType)sym)(NULL, NULL, 0, result);
  TVMFFIObjectDecRef(&owner->header);
  return rc;
}

static int tether__g_metadata(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  return tether__companion(TETHER__SIG_METADATA, TETHER__SYM_METADATA, args, n, result);
}

static int tether__g_doc(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  return tether__companion(TETHER__SIG_DOC, TETHER__SYM_DOC, args, n, result);
}

static int tether__g_property_mask(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  tether_module_t* m = NULL;
  if (tether_check_nargs(TETHER__SIG_PROPERTY_MASK, NULL, n, 1) != 0 ||
      tether__arg_module(TETHER__SIG_PROPERTY_MASK, args, 0, &m) != 0) {
    return -1;
  }
  *result = tether_any_int(TETHER__MODULE_PROPERTY_MASK);
  return 0;
}

static int tether__g_inspect_source(void* h, const TVMFFIAny* args, int32_t n,
                                    TVMFFIAny* result) {
  tether_module_t* m = NULL;
  TVMFFIByteArray fmt;
  if (tether_check_nargs(TETHER__SIG_INSPECT_SOURCE, NULL, n, 2) != 0 ||
      tether__arg_module(TETHER__SIG_INSPECT_SOURCE, args, 0, &m) != 0 ||
      tether_arg_str(TETHER__SIG_INSPECT_SOURCE, args, 1, &fmt) != 0) {
    return -1;
  }
  return tether_any_str("", 0, result);
}

static int tether__g_get_kind(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  tether_module_t* m = NULL;
  if (tether_check_nargs(TETHER__SIG_GET_KIND, NULL, n, 1) != 0 ||
      tether__arg_module(TETHER__SIG_GET_KIND, args, 0, &m) != 0) {
    return -1;
  }
  return tether_any_str("library", strlen("library"), result);
}

static int tether__g_write_formats(void* h, const TVMFFIAny* args, int32_t n,
                                   TVMFFIAny* result) {
  tether_module_t* m = NULL;
  TVMFFIObject* arr;
  if (tether_check_nargs(TETHER__SIG_WRITE_FORMATS, NULL, n, 1) != 0 ||
      tether__arg_module(TETHER__SIG_WRITE_FORMATS, args, 0, &m) != 0 ||
      tether__array_new_empty(0, &arr) != 0) {
    return -1;
  }
  tether__result_object(result, arr);
  return 0;
}

static int tether__g_write_to_file(void* h, const TVMFFIAny* args, int32_t n,
                                   TVMFFIAny* result) {
  tether_module_t* m = NULL;
  TVMFFIByteArray file, fmt;
  if (tether_check_nargs(TETHER__SIG_WRITE_TO_FILE, NULL, n, 3) != 0 ||
      tether__arg_module(TETHER__SIG_WRITE_TO_FILE, args, 0, &m) != 0 ||
      tether_arg_str(TETHER__SIG_WRITE_TO_FILE, args, 1, &file) != 0 ||
      tether_arg_str(TETHER__SIG_WRITE_TO_FILE, args, 2, &fmt) != 0) {
    return -1;
  }
  return tether_raise("RuntimeError", "Module[library] does not support WriteToFile");
}

/* true if `target` is `from` or reachable from it through imports.  Caller holds the
 * mutex (the graph is acyclic, so the recursion ends). */
static bool tether__reaches_locked(const tether_module_t* from, const tether_module_t* target) {
  if (from == target) return true;
  for (int64_t i = 0; i < tether__array_size(from->imports); ++i) {
    if (tether__reaches_locked((tether_module_t*)tether__array_get(from->imports, i)->v_obj,
                               target)) {
      return true;
    }
  }
  return false;
}

static int tether__g_import(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  tether_module_t *m = NULL, *other = NULL;
  if (tether_check_nargs(TETHER__SIG_IMPORT, NULL, n, 2) != 0 ||
      tether__arg_module(TETHER__SIG_IMPORT, args, 0, &m) != 0 ||
      tether__arg_module(TETHER__SIG_IMPORT, args, 1, &other) != 0) {
    return -1;
  }
  pthread_mutex_lock(&tether__module_mutex);
  if (tether__reaches_locked(other, m)) {
    pthread_mutex_unlock(&tether__module_mutex);
    return tether_raise("RuntimeError", "Cyclic dependency detected during import");
  }
  /* Copy-on-write: a reader holding the old array keeps its snapshot, which it releases
   * itself; the push never releases the last reference of anything but the old array. */
  TVMFFIAny item = tether_any_object(&other->header);
  int rc = tether__array_push(&m->imports, &item);
  pthread_mutex_unlock(&tether__module_mutex);
  return rc;
}

static int tether__g_clear_imports(void* h, const TVMFFIAny* args, int32_t n,
                                   TVMFFIAny* result) {
  tether_module_t* m = NULL;
  TVMFFIObject* empty;
  if (tether_check_nargs(TETHER__SIG_CLEAR_IMPORTS, NULL, n, 1) != 0 ||
      tether__arg_module(TETHER__SIG_CLEAR_IMPORTS, args, 0, &m) != 0 ||
      tether__array_new_empty(0, &empty) != 0) {
    return -1;
  }
  pthread_mutex_lock(&tether__module_mutex);
  TVMFFIObject* old = m->imports;
  m->imports = empty;
  pthread_mutex_unlock(&tether__module_mutex);
  TVMFFIObjectDecRef(old); /* may run module deleters: outside the lock */
  return 0;
}

static int tether__g_globals_add(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  tether_module_t* m = NULL;
  if (tether_check_nargs(TETHER__SIG_GLOBALS_ADD, NULL, n, 1) != 0 ||
      tether__arg_module(TETHER__SIG_GLOBALS_ADD, args, 0, &m) != 0) {
    return -1;
  }
  int rc = 0;
  pthread_mutex_lock(&tether__module_mutex);
  bool present = false;
  for (size_t i = 0; i < tether__kept_size && !present; ++i) present = tether__kept_modules[i] == &m->header;
  if (!present && tether__kept_size == tether__kept_cap) {
    size_t cap = tether__kept_cap != 0 ? 2 * tether__kept_cap : 8;
    TVMFFIObject** grown = realloc(tether__kept_modules, cap * sizeof(*grown));
    if (grown == NULL) {
      rc = -1;
    } else {
      tether__kept_modules = grown;
      tether__kept_cap = cap;
    }
  }
  if (!present && rc == 0) {
    TVMFFIObjectIncRef(&m->header);
    tether__kept_modules[tether__kept_size++] = &m->header;
  }
  pthread_mutex_unlock(&tether__module_mutex);
  if (rc != 0) return tether_raise("MemoryError", "ffi.ModuleGlobalsAdd: out of memory");
  return 0;
}

static int tether__g_globals_remove(void* h, const TVMFFIAny* args, int32_t n,
                                    TVMFFIAny* result) {
  tether_module_t* m = NULL;
  if (tether_check_nargs(TETHER__SIG_GLOBALS_REMOVE, NULL, n, 1) != 0 ||
      tether__arg_module(TETHER__SIG_GLOBALS_REMOVE, args, 0, &m) != 0) {
    return -1;
  }
  TVMFFIObject* released = NULL;
  pthread_mutex_lock(&tether__module_mutex);
  for (size_t i = 0; i < tether__kept_size; ++i) {
    if (tether__kept_modules[i] == &m->header) {
      released = tether__kept_modules[i];
      tether__kept_modules[i] = tether__kept_modules[--tether__kept_size];
      break;
    }
  }
  pthread_mutex_unlock(&tether__module_mutex);
  TVMFFIObjectDecRef(released);
  return 0;
}

/* ffi.SystemLib([prefix]): packed; extra arguments are ignored, as in the reference. */
static int tether__g_system_lib(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  TVMFFIByteArray prefix = {"", 0};
  if (n >= 1 && !tether_any_get_str(&args[0], &prefix)) {
    /* The reference's text, prefixed with the function's name. */
    return tether_raise("TypeError", "ffi.SystemLib: Cannot convert from type `%s` to `str`",
                        tether_any_type_key(&args[0]));
  }
  TVMFFIObject* mod;
  if (tether__system_lib_get(prefix, &mod) != 0) return -1;
  tether__result_object(result, mod);
  return 0;
}

/* ---- registration ------------------------------------------------------------------------ */

/*
 * Each global's type schema (metadata {"type_schema": ...}, as the reference registers):
 * a comma-separated list "result,arg0,arg1,..." where a type is a key, "?key" for
 * Optional<key>, or "[key" for Array<key>.
 */
static const struct {
  const char* name;
  TVMFFISafeCallType fn;
  const char* schema; /* NULL: packed (schema of "ffi.Function") */
} tether__module_globals[] = {
    {"ffi.ModuleLoadFromFile", tether__g_load_from_file, "ffi.Module,ffi.String"},
    {"ffi.Module.load_from_file.so", tether__g_load_so, "ffi.Module,ffi.String,ffi.String"},
    {"ffi.SystemLib", tether__g_system_lib, NULL},
    {"ffi.ModuleGetFunction", tether__g_get_function, "?ffi.Function,ffi.Module,ffi.String,bool"},
    {"ffi.ModuleImplementsFunction", tether__g_implements, "bool,ffi.Module,ffi.String,bool"},
    {"ffi.ModuleGetFunctionMetadata", tether__g_metadata, "?ffi.String,ffi.Module,ffi.String,bool"},
    {"ffi.ModuleGetFunctionDoc", tether__g_doc, "?ffi.String,ffi.Module,ffi.String,bool"},
    {"ffi.ModuleGetPropertyMask", tether__g_property_mask, "int,ffi.Module"},
    {"ffi.ModuleInspectSource", tether__g_inspect_source, "ffi.String,ffi.Module,ffi.String"},
    {"ffi.ModuleGetKind", tether__g_get_kind, "ffi.String,ffi.Module"},
    {"ffi.ModuleGetWriteFormats", tether__g_write_formats, "[ffi.String,ffi.Module"},
    {"ffi.ModuleWriteToFile", tether__g_write_to_file, "None,ffi.Module,ffi.String,ffi.String"},
    {"ffi.ModuleImportModule", tether__g_import, "None,ffi.Module,ffi.Module"},
    {"ffi.ModuleClearImports", tether__g_clear_imports, "None,ffi.Module"},
    {"ffi.ModuleGlobalsAdd", tether__g_globals_add, "None,ffi.Module"},
    {"ffi.ModuleGlobalsRemove", tether__g_globals_remove, "None,ffi.Module"},
};

/* Writes the metadata JSON of `schema` (see the table) into buf; false if it won't fit. */
static bool tether__schema_json(const char* schema, char* buf, size_t cap) {
  size_t len = 0;
#define TETHER__PUT(...)                                                  \
  do {                                                                    \
    int k = snprintf(buf + len, cap - len, __VA_ARGS__);                  \
    if (k < 0 || (size_t)k >= cap - len) return false;                    \
    len += (size_t)k;                                                     \
  } while (0)
  TETHER__PUT("{\"type_schema\":\"{\\\"type\\\":\\\"ffi.Function\\\"");
  if (schema != NULL) {
    TETHER__PUT(",\\\"args\\\":[");
    for (const char* p = schema; *p != '\0';) {
      size_t n = strcspn(p, ",");
      const char* wrapper = *p == '?' ? "Optional" : *p == '[' ? "ffi.Array" : NULL;
      if (wrapper != NULL) {
        TETHER__PUT("{\\\"type\\\":\\\"%s\\\",\\\"args\\\":[{\\\"type\\\":\\\"%.*s\\\"}]}",
                    wrapper, (int)n - 1, p + 1);
      } else {
        TETHER__PUT("{\\\"type\\\":\\\"%.*s\\\"}", (int)n, p);
      }
      p += n;
      if (*p == ',') {
        TETHER__PUT(",");
        p++;
      }
    }
    TETHER__PUT("]");
  }
  TETHER__PUT("}\"}");
#undef TETHER__PUT
  return true;
}

int tether__module_init(void) {
  char metadata[512];
  for (size_t i = 0; i < sizeof(tether__module_globals) / sizeof(tether__module_globals[0]); ++i) {
    if (!tether__schema_json(tether__module_globals[i].schema, metadata, sizeof(metadata)) ||
        tether_func_register(tether__module_globals[i].name, tether__module_globals[i].fn, NULL,
                             metadata, 0) != 0) {
      fprintf(stderr, "libtether: cannot register %s\n", tether__module_globals[i].name);
      return -1;
    }
  }
  /* Reflect `imports_` (read-only) like tvm-ffi does, so bindings can list a module's imports. */
  tether_field_def_t imports_field = {"imports_", TETHER_FIELD_OBJECT,
                                      (int64_t)offsetof(tether_module_t, imports), 0,
                                      kTVMFFIArray, NULL, "modules imported by this module"};
  if (tether_type_def_field(kTVMFFIModule, &imports_field) != 0) return -1;
  /* ffi.Module admits no subtype in the type table (library modules are instances, not
   * derived types); tvm-ffi publishes that as `__ffi_type_final__`. */
  static const TVMFFIByteArray final_attr = {"__ffi_type_final__", 18};
  TVMFFIAny is_final = tether_any_bool(true);
  if (TVMFFITypeRegisterAttr(kTVMFFIModule, &final_attr, &is_final) != 0) return -1;
  return 0;
}

/* Releases the keep-alive set and the system libraries.  The tables are emptied before
 * the references are dropped, so module deleters that run meanwhile see consistent state,
 * and later calls (from other subsystems' finis) still work. */
void tether__module_fini(void) {
  pthread_mutex_lock(&tether__module_mutex);
  TVMFFIObject** kept = tether__kept_modules;
  size_t kept_size = tether__kept_size;
  TVMFFIObject** libs = tether__system_libs;
  size_t libs_size = tether__system_libs_size;
  tether__kept_modules = NULL;
  tether__kept_size = tether__kept_cap = 0;
  tether__system_libs = NULL;
  tether__system_libs_size = 0;
  pthread_mutex_unlock(&tether__module_mutex);
  for (size_t i = 0; i < kept_size; ++i) TVMFFIObjectDecRef(kept[i]);
  free(kept);
  for (size_t i = 0; i < libs_size; ++i) TVMFFIObjectDecRef(libs[i]);
  free(libs);
  if (tether__alias_handle != NULL) {
    dlclose(tether__alias_handle);
    tether__alias_handle = NULL;
  }
}
