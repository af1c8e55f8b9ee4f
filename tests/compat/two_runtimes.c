/*
 * two_runtimes.c -- apache-tvm-ffi and tether in one process.
 *
 *   two_runtimes <tvm-ffi's libtvm_ffi.so> <libtether.so> [<kernel.so>...]
 *
 * Loads tvm-ffi's library first with RTLD_GLOBAL (as `import tvm_ffi` does), so its TVMFFI*
 * symbols are the first the dynamic loader finds for everybody, then libtether with
 * RTLD_LOCAL.  libtether is linked with -Bsymbolic, so its own calls (including the global
 * registrations its constructor makes) stay inside it.  The test drives each runtime only
 * through the symbols of its own handle and shows that each keeps its own registry,
 * objects and error slot.  Each kernel (the example add_one_kernel, however it was linked)
 * is then loaded by tether's ffi.ModuleLoadFromFile while tvm-ffi's TVMFFI* are the global
 * ones, and must still call tether: its error lands in tether's slot.  This program links
 * neither library.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include <tether/c_api.h>

#include "expect.h"

/* The ABI entry points of one runtime, looked up in its own handle. */
typedef struct {
  const char* label;
  void* dl;
  int (*function_create)(void*, TVMFFISafeCallType, void (*)(void*), TVMFFIObjectHandle*);
  int (*set_global)(const TVMFFIByteArray*, TVMFFIObjectHandle, int);
  int (*get_global)(const TVMFFIByteArray*, TVMFFIObjectHandle*);
  int (*call)(TVMFFIObjectHandle, TVMFFIAny*, int32_t, TVMFFIAny*);
  int (*dec_ref)(TVMFFIObjectHandle);
  void (*move_from_raised)(TVMFFIObjectHandle*);
  int (*string_from_bytes)(const TVMFFIByteArray*, TVMFFIAny*);
  int64_t (*live_count)(void); /* tether only */
} runtime_t;

static int open_runtime(runtime_t* rt, const char* label, const char* path, int mode) {
  rt->label = label;
  rt->dl = dlopen(path, RTLD_NOW | mode);
  if (rt->dl == NULL) {
    printf("FAILED: cannot load %s: %s\n", path, dlerror());
    return -1;
  }
#define LOOKUP(field, symbol) *(void**)&rt->field = dlsym(rt->dl, symbol)
  LOOKUP(function_create, "TVMFFIFunctionCreate");
  LOOKUP(set_global, "TVMFFIFunctionSetGlobal");
  LOOKUP(get_global, "TVMFFIFunctionGetGlobal");
  LOOKUP(call, "TVMFFIFunctionCall");
  LOOKUP(dec_ref, "TVMFFIObjectDecRef");
  LOOKUP(move_from_raised, "TVMFFIErrorMoveFromRaised");
  LOOKUP(string_from_bytes, "TVMFFIStringFromByteArray");
  LOOKUP(live_count, "tether_object_live_count");
#undef LOOKUP
  return 0;
}

static TVMFFIObjectHandle get_global(runtime_t* rt, const char* name) {
  TVMFFIByteArray key = {name, strlen(name)};
  TVMFFIObjectHandle f = NULL;
  if (rt->get_global(&key, &f) != 0) return NULL;
  return f;
}

static int twice(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  (void)self, (void)n;
  memset(result, 0, sizeof(*result));
  result->type_index = kTVMFFIInt;
  result->v_int64 = 2 * args[0].v_int64;
  return 0;
}

/* Registers `twice` as `name` in rt; 0 on success. */
static int register_twice(runtime_t* rt, const char* name) {
  TVMFFIObjectHandle f = NULL;
  TVMFFIByteArray key = {name, strlen(name)};
  if (rt->function_create(NULL, twice, NULL, &f) != 0) return -1;
  int rc = rt->set_global(&key, f, 0);
  rt->dec_ref(f);
  return rc;
}

/* Calls global `name` of rt with the int x; -1 if absent or failing. */
static int64_t call_int(runtime_t* rt, const char* name, int64_t x) {
  TVMFFIObjectHandle f = get_global(rt, name);
  if (f == NULL) return -1;
  TVMFFIAny arg, result;
  memset(&arg, 0, sizeof(arg));
  memset(&result, 0, sizeof(result));
  arg.type_index = kTVMFFIInt;
  arg.v_int64 = x;
  int rc = rt->call(f, &arg, 1, &result);
  rt->dec_ref(f);
  return rc == 0 ? result.v_int64 : -1;
}

/* true if the code of function object f lies inside the library rt was loaded from. */
static int function_lives_in(runtime_t* rt, TVMFFIObjectHandle f) {
  TVMFFISafeCallType safe_call = ((TVMFFIFunctionCell*)((char*)f + sizeof(TVMFFIObject)))->safe_call;
  Dl_info fn_info, lib_info;
  if (dladdr((void*)safe_call, &fn_info) == 0) return 0;
  if (dladdr(dlsym(rt->dl, "TVMFFIFunctionCall"), &lib_info) == 0) return 0;
  return fn_info.dli_fbase == lib_info.dli_fbase;
}

/* The kernel `path` loaded by tether (tvm-ffi global): add_one_cpu computes, and its
 * TypeError for a bad argument is in tether's error slot, not tvm-ffi's. */
static void check_kernel_under_tether(runtime_t* ref, runtime_t* tether, const char* path) {
  int64_t live = tether->live_count();
  TVMFFIObjectHandle load = get_global(tether, "ffi.ModuleLoadFromFile");
  TVMFFIObjectHandle get = get_global(tether, "ffi.ModuleGetFunction");
  TVMFFIAny args[3], mod, fn, result;
  memset(args, 0, sizeof(args));
  memset(&mod, 0, sizeof(mod));
  memset(&fn, 0, sizeof(fn));
  args[0].type_index = kTVMFFIRawStr;
  args[0].v_c_str = path;
  int rc = load != NULL && get != NULL ? tether->call(load, args, 1, &mod) : -1;
  EXPECT(rc == 0 && mod.type_index == kTVMFFIModule, "tether loaded %s", path);
  if (rc == 0) {
    args[0].type_index = kTVMFFIModule;
    args[0].v_obj = mod.v_obj;
    args[1].type_index = kTVMFFIRawStr;
    args[1].v_c_str = "add_one_cpu";
    args[2].type_index = kTVMFFIBool;
    rc = tether->call(get, args, 3, &fn);
  }
  EXPECT(rc == 0 && fn.type_index == kTVMFFIFunction, "found add_one_cpu");
  if (rc == 0 && fn.type_index == kTVMFFIFunction) {
    float x[2] = {1, 2}, y[2] = {0, 0};
    int64_t shape[1] = {2};
    DLTensor tx = {x, {kDLCPU, 0}, 1, {kDLFloat, 32, 1}, shape, NULL, 0};
    DLTensor ty = {y, {kDLCPU, 0}, 1, {kDLFloat, 32, 1}, shape, NULL, 0};
    memset(args, 0, sizeof(args));
    args[0].type_index = args[1].type_index = kTVMFFIDLTensorPtr;
    args[0].v_ptr = &tx;
    args[1].v_ptr = &ty;
    memset(&result, 0, sizeof(result));
    rc = tether->call(fn.v_obj, args, 2, &result);
    EXPECT(rc == 0 && y[0] == 2 && y[1] == 3, "add_one_cpu([1, 2]) = [%g, %g]", y[0], y[1]);
    args[0].type_index = kTVMFFIInt;
    rc = tether->call(fn.v_obj, args, 2, &result);
    TVMFFIObjectHandle err_ref = NULL, err_tether = NULL;
    ref->move_from_raised(&err_ref);
    tether->move_from_raised(&err_tether);
    const TVMFFIErrorCell* cell =
        err_tether != NULL ? (const TVMFFIErrorCell*)((char*)err_tether + sizeof(TVMFFIObject))
                           : NULL;
    EXPECT(rc == -1 && cell != NULL && err_ref == NULL && cell->kind.size == 9 &&
               memcmp(cell->kind.data, "TypeError", 9) == 0,
           "the kernel's TypeError is in tether's slot, not tvm-ffi's");
    if (err_tether != NULL) tether->dec_ref(err_tether);
    if (err_ref != NULL) ref->dec_ref(err_ref);
    tether->dec_ref(fn.v_obj);
  }
  if (mod.type_index == kTVMFFIModule) tether->dec_ref(mod.v_obj);
  if (load != NULL) tether->dec_ref(load);
  if (get != NULL) tether->dec_ref(get);
  EXPECT(tether->live_count() == live, "no tether object left alive");
}

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s <tvm-ffi libtvm_ffi.so> <libtether.so> [<kernel.so>...]\n",
            argv[0]);
    return 2;
  }
  runtime_t ref, tether;
  if (open_runtime(&ref, "tvm-ffi", argv[1], RTLD_GLOBAL) != 0) return 1;
  if (open_runtime(&tether, "tether", argv[2], RTLD_LOCAL) != 0) return 1;
  EXPECT(ref.call != tether.call, "two distinct TVMFFIFunctionCall implementations");
  int64_t (*live_count)(void) = (int64_t (*)(void))dlsym(tether.dl, "tether_object_live_count");
  EXPECT(live_count != NULL && dlsym(ref.dl, "tether_object_live_count") == NULL,
         "tether_object_live_count exists only in libtether");

  /* libtether's constructor registered its globals in its own registry. */
  TVMFFIObjectHandle loader = get_global(&tether, "ffi.ModuleLoadFromFile");
  EXPECT(loader != NULL && function_lives_in(&tether, loader),
         "tether's ffi.ModuleLoadFromFile is tether's own code");
  if (loader != NULL) tether.dec_ref(loader);
  loader = get_global(&ref, "ffi.ModuleLoadFromFile");
  EXPECT(loader != NULL && function_lives_in(&ref, loader),
         "tvm-ffi's ffi.ModuleLoadFromFile is tvm-ffi's own code");
  if (loader != NULL) ref.dec_ref(loader);

  /* Each registry sees only its own registrations. */
  EXPECT(register_twice(&ref, "compat.twice_in_tvm_ffi") == 0, "registered a global in tvm-ffi");
  EXPECT(register_twice(&tether, "compat.twice_in_tether") == 0, "registered a global in tether");
  EXPECT(call_int(&ref, "compat.twice_in_tvm_ffi", 21) == 42, "tvm-ffi calls its own global");
  EXPECT(call_int(&tether, "compat.twice_in_tether", 4) == 8, "tether calls its own global");
  TVMFFIObjectHandle other = get_global(&ref, "compat.twice_in_tether");
  EXPECT(other == NULL, "tvm-ffi does not see tether's global");
  if (other != NULL) ref.dec_ref(other);
  other = get_global(&tether, "compat.twice_in_tvm_ffi");
  EXPECT(other == NULL, "tether does not see tvm-ffi's global");
  if (other != NULL) tether.dec_ref(other);

  /* Objects: a heap string made by each runtime; only tether's counts in tether. */
  const char* text = "a string longer than seven bytes";
  TVMFFIByteArray bytes = {text, strlen(text)};
  TVMFFIAny s_ref, s_tether;
  int64_t live = live_count != NULL ? live_count() : 0;
  int rc = ref.string_from_bytes(&bytes, &s_ref);
  EXPECT(rc == 0 && live_count != NULL && live_count() == live, "tvm-ffi's string is not tether's");
  rc = tether.string_from_bytes(&bytes, &s_tether);
  EXPECT(rc == 0 && live_count != NULL && live_count() == live + 1, "tether's string is tether's");
  ref.dec_ref(s_ref.v_obj);
  tether.dec_ref(s_tether.v_obj);
  EXPECT(live_count != NULL && live_count() == live, "tether's string was freed by tether");

  /* Errors: raised into the slot of the runtime that raised them. */
  TVMFFIObjectHandle f = get_global(&tether, "ffi.ModuleLoadFromFile");
  TVMFFIAny result;
  memset(&result, 0, sizeof(result));
  rc = f != NULL ? tether.call(f, NULL, 0, &result) : 0;
  if (f != NULL) tether.dec_ref(f);
  TVMFFIObjectHandle err_ref = NULL, err_tether = NULL;
  ref.move_from_raised(&err_ref);
  tether.move_from_raised(&err_tether);
  EXPECT(rc == -1 && err_tether != NULL && err_ref == NULL,
         "an error raised by tether is in tether's slot only");
  if (err_tether != NULL) tether.dec_ref(err_tether);
  if (err_ref != NULL) {
    const TVMFFIErrorCell* cell = (const TVMFFIErrorCell*)((char*)err_ref + sizeof(TVMFFIObject));
    printf("  unexpected error in tvm-ffi's slot: %.*s: %.*s\n", (int)cell->kind.size,
           cell->kind.data, (int)cell->message.size, cell->message.data);
    ref.dec_ref(err_ref);
  }

  for (int i = 3; i < argc; ++i) check_kernel_under_tether(&ref, &tether, argv[i]);

  dlclose(tether.dl);
  dlclose(ref.dl);
  printf("%s\n", failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
