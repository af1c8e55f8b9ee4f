/*
 * bind_kernels.c -- libraries loaded by libtether (ffi.ModuleLoadFromFile) call libtether,
 * however they were linked and whatever else the process has loaded (src/ffi/bind.c):
 *
 *   bind_kernels <libtether.so> <impostor.so> <host.so> <tether-linked.so> <alias-linked.so>
 *                <missing.so> <missing-abi.so> <host-now.so>
 *
 * The libraries are modtest_lib.c linked against nothing (host symbols), libtether, and
 * tether's libtvm_ffi.so alias; the next two also call a symbol nothing defines
 * (tether_bindtest_missing_symbol) or an ABI-looking one libtether does not have
 * (TVMFFINoSuchFunction); the last links nothing with immediate binding and full RELRO (-z
 * now), so the dynamic loader itself refuses it while no runtime is global, and binds it
 * eagerly, into read-only pages, when one is.  Like a Python host, this program links no
 * runtime: it loads libtether RTLD_LOCAL and drives it through its handle, so libtether's
 * symbols are not in the global scope.  Then impostor.so (a stand-in for apache-tvm-ffi, loaded
 * RTLD_GLOBAL as `import tvm_ffi` does) provides TVMFFI* globally, and the libraries must still
 * reach libtether, while the same file opened by the dynamic loader for the other runtime binds
 * to the impostor and is left alone.
 */
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>

#include <tether/c_api.h>

#include "expect.h"

/* libtether, reached only through its handle. */
static struct {
  void* dl;
  int (*get_global)(const TVMFFIByteArray*, TVMFFIObjectHandle*);
  int (*call)(TVMFFIObjectHandle, TVMFFIAny*, int32_t, TVMFFIAny*);
  int (*dec_ref)(TVMFFIObjectHandle);
  void (*move_from_raised)(TVMFFIObjectHandle*);
  int64_t (*live_count)(void);
} T;

static TVMFFIAny raw_str(const char* s) {
  TVMFFIAny v;
  memset(&v, 0, sizeof(v));
  v.type_index = kTVMFFIRawStr;
  v.v_c_str = s;
  return v;
}

static TVMFFIAny int_value(int64_t x) {
  TVMFFIAny v;
  memset(&v, 0, sizeof(v));
  v.type_index = kTVMFFIInt;
  v.v_int64 = x;
  return v;
}

static void release(TVMFFIAny* v) {
  if (v->type_index >= kTVMFFIStaticObjectBegin && v->v_obj != NULL) T.dec_ref(v->v_obj);
  memset(v, 0, sizeof(*v));
}

/* Moves libtether's raised error into kind/message (empty if none was raised). */
static void take_error(char* kind, char* message, size_t cap) {
  kind[0] = message[0] = '\0';
  TVMFFIObjectHandle err = NULL;
  T.move_from_raised(&err);
  if (err == NULL) return;
  const TVMFFIErrorCell* cell = (const TVMFFIErrorCell*)((char*)err + sizeof(TVMFFIObject));
  snprintf(kind, cap, "%.*s", (int)cell->kind.size, cell->kind.data);
  snprintf(message, cap, "%.*s", (int)cell->message.size, cell->message.data);
  T.dec_ref(err);
}

static int call_global(const char* name, TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  TVMFFIByteArray key = {name, strlen(name)};
  TVMFFIObjectHandle f = NULL;
  memset(result, 0, sizeof(*result));
  if (T.get_global(&key, &f) != 0 || f == NULL) return -1;
  int rc = T.call(f, args, n, result);
  T.dec_ref(f);
  return rc;
}

/* ffi.ModuleLoadFromFile(path): the module, or NULL with the error left raised. */
static TVMFFIObjectHandle load(const char* path) {
  TVMFFIAny arg = raw_str(path), mod;
  if (call_global("ffi.ModuleLoadFromFile", &arg, 1, &mod) != 0) return NULL;
  return mod.v_obj;
}

/* Calls function `name` of module mod. */
static int call_fn(TVMFFIObjectHandle mod, const char* name, TVMFFIAny* args, int32_t n,
                   TVMFFIAny* result) {
  TVMFFIAny get_args[3] = {raw_str(""), raw_str(name), int_value(0)}, fn;
  get_args[0].type_index = kTVMFFIModule;
  get_args[0].v_obj = mod;
  get_args[2].type_index = kTVMFFIBool;
  if (call_global("ffi.ModuleGetFunction", get_args, 3, &fn) != 0 || fn.v_obj == NULL) return -1;
  int rc = T.call(fn.v_obj, args, n, result);
  release(&fn);
  return rc;
}

static int is_loaded(const char* path) {
  void* h = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
  if (h != NULL) dlclose(h);
  return h != NULL;
}

static int count_copy(struct dl_phdr_info* info, size_t size, void* data) {
  (void)size;
  if (info->dlpi_name != NULL && strncmp(info->dlpi_name, "/proc/self/fd/", 14) == 0) {
    ++*(int*)data;
  }
  return 0;
}

/* The number of loaded private copies (libraries named /proc/self/fd/<n>). */
static int copies_loaded(void) {
  int n = 0;
  dl_iterate_phdr(count_copy, &n);
  return n;
}

/* Loads `path` (functions <p>_*) through libtether and checks that each of its ABI calls
 * lands there: an int result, its ValueError in libtether's error slot, its doc string a
 * libtether object. */
static void check_library(const char* label, const char* path, const char* p) {
  char name[64], kind[64], message[512], expected[64];
  TVMFFIObjectHandle mod = load(path);
  take_error(kind, message, sizeof(message));
  EXPECT(mod != NULL, "%s: loaded %s %s%s", label, path, kind, message);
  if (mod == NULL) return;

  TVMFFIAny arg = int_value(41), result;
  snprintf(name, sizeof(name), "%s_add_one", p);
  int rc = call_fn(mod, name, &arg, 1, &result);
  EXPECT(rc == 0 && result.type_index == kTVMFFIInt && result.v_int64 == 42,
         "%s: %s(41) = 42", label, name);

  snprintf(name, sizeof(name), "%s_fail", p);
  rc = call_fn(mod, name, NULL, 0, &result);
  take_error(kind, message, sizeof(message));
  snprintf(expected, sizeof(expected), "modtest %s failure", p);
  EXPECT(rc == -1 && strcmp(kind, "ValueError") == 0 && strcmp(message, expected) == 0,
         "%s: its error is in libtether's slot (%s: %s)", label, kind, message);

  int64_t live = T.live_count();
  TVMFFIAny doc_args[3] = {raw_str(""), raw_str(""), int_value(0)};
  doc_args[0].type_index = kTVMFFIModule;
  doc_args[0].v_obj = mod;
  snprintf(name, sizeof(name), "%s_add_one", p);
  doc_args[1] = raw_str(name);
  doc_args[2].type_index = kTVMFFIBool;
  rc = call_global("ffi.ModuleGetFunctionDoc", doc_args, 3, &result);
  EXPECT(rc == 0 && result.type_index == kTVMFFIStr && T.live_count() == live + 1,
         "%s: the doc string it made is a libtether object", label);
  release(&result);
  T.dec_ref(mod);
}

/* Loading `path` fails with RuntimeError naming the library and `symbol`. */
static void check_unbindable(const char* path, const char* symbol, const char* why) {
  TVMFFIObjectHandle mod = load(path);
  char kind[64], message[512];
  take_error(kind, message, sizeof(message));
  EXPECT(mod == NULL && strcmp(kind, "RuntimeError") == 0 && strstr(message, path) != NULL &&
             strstr(message, symbol) != NULL && strstr(message, why) != NULL,
         "%s: refused with %s: %s", path, kind, message);
  EXPECT(!is_loaded(path), "%s: not left loaded", path);
  if (mod != NULL) T.dec_ref(mod);
}

int main(int argc, char** argv) {
  if (argc != 9) {
    fprintf(stderr, "usage: %s <libtether.so> <impostor.so> <host.so> <tether-linked.so> "
            "<alias-linked.so> <missing.so> <missing-abi.so> <host-now.so>\n", argv[0]);
    return 2;
  }
  const char *host = argv[3], *linked = argv[4], *alias = argv[5], *now = argv[8];
  T.dl = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (T.dl == NULL) {
    printf("FAILED: cannot load %s: %s\n", argv[1], dlerror());
    return 1;
  }
  *(void**)&T.get_global = dlsym(T.dl, "TVMFFIFunctionGetGlobal");
  *(void**)&T.call = dlsym(T.dl, "TVMFFIFunctionCall");
  *(void**)&T.dec_ref = dlsym(T.dl, "TVMFFIObjectDecRef");
  *(void**)&T.move_from_raised = dlsym(T.dl, "TVMFFIErrorMoveFromRaised");
  *(void**)&T.live_count = dlsym(T.dl, "tether_object_live_count");
  EXPECT(dlsym(RTLD_DEFAULT, "TVMFFIFunctionCall") == NULL, "no TVMFFI* in the global scope");
  int64_t live_at_start = T.live_count();

  /* No runtime in the global scope. */
  check_library("host symbols", host, "h");
  check_library("linked to libtether", linked, "t");
  check_library("linked to the libtvm_ffi.so alias", alias, "b");
  check_unbindable(argv[6], "tether_bindtest_missing_symbol", "undefined symbol");
  check_unbindable(argv[7], "TVMFFINoSuchFunction", "libtether does not provide");
  {
    TVMFFIObjectHandle mod = load(now);
    char kind[64], message[512];
    take_error(kind, message, sizeof(message));
    EXPECT(mod == NULL && strcmp(kind, "InternalError") == 0 && strstr(message, now) != NULL &&
               strstr(message, "undefined symbol: TVMFFI") != NULL,
           "immediate binding, no runtime global: the loader refuses it: %s: %s", kind, message);
    if (mod != NULL) T.dec_ref(mod);
  }

  /* Another runtime in the global scope, first. */
  void* impostor = dlopen(argv[2], RTLD_NOW | RTLD_GLOBAL);
  int* impostor_calls = impostor != NULL ? dlsym(impostor, "impostor_calls") : NULL;
  EXPECT(impostor_calls != NULL, "loaded the impostor runtime RTLD_GLOBAL");
  if (impostor_calls == NULL) return 1;
  check_library("host symbols, impostor global", host, "h");
  check_library("linked to libtether, impostor global", linked, "t");
  check_library("linked to the alias, impostor global", alias, "b");
  check_library("immediate binding, impostor global", now, "w");
  EXPECT(*impostor_calls == 0, "the impostor was never called (%d calls)", *impostor_calls);
  TVMFFIObjectHandle mod = load(host), again = load(host);
  EXPECT(mod != NULL && !is_loaded(host), "libtether loaded a private copy, not %s itself", host);
  EXPECT(again != NULL && copies_loaded() == 1, "a second load shares the copy (%d loaded)",
         copies_loaded());
  if (mod != NULL) T.dec_ref(mod);
  if (again != NULL) T.dec_ref(again);
  EXPECT(copies_loaded() == 0, "the copy is unloaded with its last module");

  /* The other runtime opens the same file: it gets its own instance, bound to it. */
  void* theirs = dlopen(host, RTLD_LAZY | RTLD_LOCAL);
  int (*their_fail)(void*, const TVMFFIAny*, int32_t, TVMFFIAny*) = NULL;
  if (theirs != NULL) *(void**)&their_fail = dlsym(theirs, "__tvm_ffi_h_fail");
  TVMFFIAny result;
  EXPECT(their_fail != NULL && their_fail(NULL, NULL, 0, &result) == -1 && *impostor_calls == 1,
         "the other runtime's instance of %s calls the other runtime", host);
  /* ... and libtether, loading the file again, does not take that instance over. */
  check_library("host symbols, already loaded by the impostor", host, "h");
  EXPECT(*impostor_calls == 1, "the impostor was called only by its own instance");
  if (theirs != NULL) dlclose(theirs);

  EXPECT(T.live_count() == live_at_start, "no libtether object left alive");
  dlclose(impostor);
  dlclose(T.dl);
  printf("%s\n", failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
