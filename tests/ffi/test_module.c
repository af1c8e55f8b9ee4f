/*
 * test_module.c -- modules: loading libraries, GetFunction and companions, imports and
 * cycles, library lifetime, the system library, context symbols, library ctx lookups, the
 * type's `__ffi_type_final__` attribute, and every bad input of the ffi.Module* globals with
 * the reference's error kind and text.
 *
 * The libraries come from tests/compat (modtest_lib.c built as modtest_a and modtest_b);
 * tests/compat/CMakeLists.txt compiles their paths in.  modtest_a has no RUNPATH and needs
 * libtvm_ffi.so, so loading it at all shows that libtether preloaded its alias.
 */
#include <dlfcn.h>

#include <tether/container.h>

#include "test.h"

#if !defined(TETHER_MODTEST_A) || !defined(TETHER_MODTEST_B)
#error "tests/compat/CMakeLists.txt must define the TETHER_MODTEST_* library paths"
#endif

#define SIG_GET_FUNCTION \
  "ffi.ModuleGetFunction(0: ffi.Module, 1: str, 2: bool) -> Optional<ffi.Function>"

/* ---- helpers ---------------------------------------------------------------------------- */


static TVMFFIObjectHandle load(const char* path) {
  TVMFFIAny args[2] = {tether_any_raw_str(path), tether_any_raw_str("so")};
  TVMFFIAny mod;
  CHECK_OK(call_global("ffi.Module.load_from_file.so", args, 2, &mod));
  CHECK_EQ_INT(mod.type_index, kTVMFFIModule);
  return mod.type_index == kTVMFFIModule ? mod.v_obj : NULL;
}

/* ffi.ModuleGetFunction(mod, name, query_imports): new reference or NULL. */
static TVMFFIObjectHandle get_function(TVMFFIObjectHandle mod, const char* name, bool query) {
  TVMFFIAny args[3] = {tether_any_object(mod), tether_any_raw_str(name), tether_any_bool(query)};
  TVMFFIAny fn;
  CHECK_OK(call_global("ffi.ModuleGetFunction", args, 3, &fn));
  return fn.type_index == kTVMFFIFunction ? fn.v_obj : NULL;
}

/* Calls module function `name` with views; CHECKs that it exists. */
static int call_fn(TVMFFIObjectHandle mod, const char* name, const TVMFFIAny* args, int32_t n,
                   TVMFFIAny* result) {
  *result = tether_any_none();
  TVMFFIObjectHandle f = get_function(mod, name, true);
  CHECK(f != NULL);
  if (f == NULL) return -1;
  int rc = tether_func_call(f, args, n, result);
  TVMFFIObjectDecRef(f);
  return rc;
}

static int64_t call_int(TVMFFIObjectHandle mod, const char* name, int64_t x) {
  TVMFFIAny arg = tether_any_int(x), result;
  CHECK_OK(call_fn(mod, name, &arg, 1, &result));
  CHECK_EQ_INT(result.type_index, kTVMFFIInt);
  return result.v_int64;
}

static void* call_ptr(TVMFFIObjectHandle mod, const char* name) {
  TVMFFIAny result;
  CHECK_OK(call_fn(mod, name, NULL, 0, &result));
  CHECK_EQ_INT(result.type_index, kTVMFFIOpaquePtr);
  return result.v_ptr;
}

static void import_module(TVMFFIObjectHandle mod, TVMFFIObjectHandle other) {
  TVMFFIAny args[2] = {tether_any_object(mod), tether_any_object(other)}, result;
  CHECK_OK(call_global("ffi.ModuleImportModule", args, 2, &result));
}

/* true if the library at `path` is loaded in the process. */
static bool library_loaded(const char* path) {
  void* h = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
  if (h != NULL) dlclose(h);
  return h != NULL;
}

/* Expects *v to be a string equal to `text`, then releases it. */
static void check_str_and_release(TVMFFIAny* v, const char* text) {
  TVMFFIByteArray s = {"", 0};
  CHECK(tether_any_get_str(v, &s));
  CHECK_BYTES(s, text);
  tether_any_release(v);
}

/* ---- the system library: symbols registered at "static init" ----------------------------- */

static int syslib_add_one(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  *result = tether_any_int(args[0].v_int64 + 1);
  return 0;
}
static int syslib_add_two(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  *result = tether_any_int(args[0].v_int64 + 2);
  return 0;
}
static int global_twice(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  *result = tether_any_int(args[0].v_int64 * 2);
  return 0;
}

/* Where SystemLib stores its module (the system library's `__tvm_ffi__library_ctx`). */
static void* syslib_ctx;
static int ctx_value_marker;
static TVMFFIObjectHandle syslib_default, syslib_testing;

/* Runs after libtether's constructor and before the tests: everything the process keeps
 * (registrations, the cached system libraries) is made here, so that no test sees it as
 * a leak. */
__attribute__((constructor)) static void setup(void) {
  TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_testing.add_one", (void*)syslib_add_one);
  TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_add_two", (void*)syslib_add_two);
  TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi__library_ctx", &syslib_ctx);
  TVMFFIEnvModRegisterContextSymbol("tether_modtest_ctx_value", &ctx_value_marker);
  tether_func_register("modtest.global_twice", global_twice, NULL, NULL, 0);
  TVMFFIAny prefix = tether_any_raw_str("testing."), result;
  if (call_global("ffi.SystemLib", NULL, 0, &result) == 0) syslib_default = result.v_obj;
  if (call_global("ffi.SystemLib", &prefix, 1, &result) == 0) syslib_testing = result.v_obj;
}

__attribute__((destructor)) static void teardown(void) {
  TVMFFIObjectDecRef(syslib_default);
  TVMFFIObjectDecRef(syslib_testing);
}

/* ---- tests ------------------------------------------------------------------------------ */

static void test_load_and_call(void) {
  TVMFFIObjectHandle mod = load(TETHER_MODTEST_A);
  if (mod == NULL) return;
  CHECK_EQ_INT(call_int(mod, "a_add_one", 41), 42);
  CHECK(get_function(mod, "no_such_function", true) == NULL);
  /* libtether preloaded its alias: the name libtvm_ffi.so is taken, by a library whose
   * TVMFFI* symbols are libtether's. */
  void* alias = dlopen("libtvm_ffi.so", RTLD_LAZY | RTLD_NOLOAD);
  CHECK(alias != NULL);
  if (alias != NULL) {
    CHECK(dlsym(alias, "TVMFFIFunctionCall") == (void*)TVMFFIFunctionCall);
    dlclose(alias);
  }

  /* Errors raised by library functions arrive as raised. */
  TVMFFIAny result;
  CHECK_RAISED(call_fn(mod, "a_fail", NULL, 0, &result), "ValueError", "modtest a failure");

  TVMFFIAny args[3] = {tether_any_object(mod), tether_any_raw_str("a_add_one"),
                       tether_any_bool(false)};
  CHECK_OK(call_global("ffi.ModuleImplementsFunction", args, 3, &result));
  CHECK(result.type_index == kTVMFFIBool && result.v_int64 == 1);
  CHECK_OK(call_global("ffi.ModuleGetFunctionDoc", args, 3, &result));
  check_str_and_release(&result, "modtest a: adds one to an int");
  CHECK_OK(call_global("ffi.ModuleGetFunctionMetadata", args, 3, &result));
  check_str_and_release(&result, "{\"type_schema\":\"int(int)\"}");
  args[1] = tether_any_raw_str("a_fail"); /* exists, but has no companions */
  CHECK_OK(call_global("ffi.ModuleGetFunctionDoc", args, 3, &result));
  CHECK_EQ_INT(result.type_index, kTVMFFINone);
  CHECK_OK(call_global("ffi.ModuleGetFunctionMetadata", args, 3, &result));
  CHECK_EQ_INT(result.type_index, kTVMFFINone);
  args[1] = tether_any_raw_str("missing");
  CHECK_OK(call_global("ffi.ModuleImplementsFunction", args, 3, &result));
  CHECK(result.type_index == kTVMFFIBool && result.v_int64 == 0);

  /* Properties of a library module (observed on tvm-ffi 0.1.14). */
  TVMFFIAny one = tether_any_object(mod);
  CHECK_OK(call_global("ffi.ModuleGetKind", &one, 1, &result));
  check_str_and_release(&result, "library");
  CHECK_OK(call_global("ffi.ModuleGetPropertyMask", &one, 1, &result));
  CHECK(result.type_index == kTVMFFIInt && result.v_int64 == 3);
  TVMFFIAny src_args[2] = {one, tether_any_raw_str("asm")};
  CHECK_OK(call_global("ffi.ModuleInspectSource", src_args, 2, &result));
  check_str_and_release(&result, "");
  CHECK_OK(call_global("ffi.ModuleGetWriteFormats", &one, 1, &result));
  CHECK_EQ_INT(result.type_index, kTVMFFIArray);
  if (result.type_index == kTVMFFIArray) {
    CHECK_EQ_INT(((TVMFFISeqCell*)((char*)result.v_obj + sizeof(TVMFFIObject)))->size, 0);
  }
  tether_any_release(&result);
  TVMFFIAny write_args[3] = {one, tether_any_raw_str("/tmp/x.so"), tether_any_raw_str("so")};
  CHECK_RAISED(call_global("ffi.ModuleWriteToFile", write_args, 3, &result), "RuntimeError",
               "Module[library] does not support WriteToFile");
  TVMFFIObjectDecRef(mod);
}

static void test_load_errors(void) {
  TVMFFIAny args[2] = {tether_any_raw_str("/nonexistent/dir/lib.so"), tether_any_raw_str("so")};
  TVMFFIAny result;
  CHECK_RAISED(call_global("ffi.Module.load_from_file.so", args, 2, &result), "InternalError",
               "Failed to load dynamic shared library /nonexistent/dir/lib.so "
               "/nonexistent/dir/lib.so: cannot open shared object file: No such file or "
               "directory");
  args[0] = tether_any_raw_str(TETHER_MODTEST_NOT_A_LIBRARY);
  CHECK_RAISED(call_global("ffi.Module.load_from_file.so", args, 2, &result), "InternalError",
               "Failed to load dynamic shared library " TETHER_MODTEST_NOT_A_LIBRARY " ");

  /* ffi.ModuleLoadFromFile: dispatch on the extension. */
  TVMFFIAny path = tether_any_raw_str("/tmp/no_extension");
  CHECK_RAISED(call_global("ffi.ModuleLoadFromFile", &path, 1, &result), "RuntimeError",
               "Failed to get file format from /tmp/no_extension");
  path = tether_any_raw_str("/tmp/kernel.xyz");
  CHECK_RAISED(call_global("ffi.ModuleLoadFromFile", &path, 1, &result), "RuntimeError",
               "Loader for `.xyz` files is not registered, resolved to "
               "(ffi.Module.load_from_file.xyz) in the global registry.Ensure that you have "
               "loaded the correct runtime code, andthat you are on the correct hardware "
               "architecture.");
  path = tether_any_raw_str(TETHER_MODTEST_B_DYLIB); /* .dylib maps to the .so loader */
  CHECK_OK(call_global("ffi.ModuleLoadFromFile", &path, 1, &result));
  CHECK_EQ_INT(result.type_index, kTVMFFIModule);
  if (result.type_index == kTVMFFIModule) CHECK_EQ_INT(call_int(result.v_obj, "b_add_one", 1), 2);
  tether_any_release(&result);
  path = tether_any_raw_str("/nonexistent/lib.so");
  CHECK_RAISED(call_global("ffi.ModuleLoadFromFile", &path, 1, &result), "InternalError",
               "Failed to load dynamic shared library /nonexistent/lib.so");
}

static void test_bad_arguments(void) {
  TVMFFIObjectHandle mod = load(TETHER_MODTEST_B);
  if (mod == NULL) return;
  TVMFFIAny result, small;
  CHECK_OK(tether_any_str("y", 1, &small));
  TVMFFIAny args[3] = {tether_any_int(1), tether_any_raw_str("x"), tether_any_bool(false)};
  CHECK_RAISED(call_global("ffi.ModuleGetFunction", args, 3, &result), "TypeError",
               "Mismatched type on argument #0 when calling: `" SIG_GET_FUNCTION
               "`. Expected `ffi.Module` but got `int`");
  args[0] = tether_any_object(mod);
  args[1] = tether_any_int(1);
  CHECK_RAISED(call_global("ffi.ModuleGetFunction", args, 3, &result), "TypeError",
               "Mismatched type on argument #1 when calling: `" SIG_GET_FUNCTION
               "`. Expected `str` but got `int`");
  args[1] = tether_any_raw_str("x");
  args[2] = small;
  CHECK_RAISED(call_global("ffi.ModuleGetFunction", args, 3, &result), "TypeError",
               "Mismatched type on argument #2 when calling: `" SIG_GET_FUNCTION
               "`. Expected `bool` but got `ffi.SmallStr`");
  CHECK_RAISED(call_global("ffi.ModuleGetFunction", args, 2, &result), "TypeError",
               "Mismatched number of arguments when calling: `" SIG_GET_FUNCTION
               "`. Expected 3 but got 2 arguments");
  args[1] = tether_any_raw_str("b_add_one");
  args[2] = tether_any_int(1); /* an int is accepted as bool */
  CHECK_OK(call_global("ffi.ModuleGetFunction", args, 3, &result));
  CHECK_EQ_INT(result.type_index, kTVMFFIFunction);
  tether_any_release(&result);
  /* A Function is an object but not a module. */
  TVMFFIObjectHandle fn = get_function(mod, "b_add_one", false);
  args[0] = tether_any_object(fn);
  CHECK_RAISED(call_global("ffi.ModuleGetFunction", args, 3, &result), "TypeError",
               "Expected `ffi.Module` but got `ffi.Function`");

  TVMFFIAny load_args[2] = {tether_any_int(1), tether_any_raw_str("so")};
  CHECK_RAISED(call_global("ffi.Module.load_from_file.so", load_args, 2, &result), "TypeError",
               "Mismatched type on argument #0 when calling: `ffi.Module.load_from_file.so(0: "
               "str, 1: str) -> ffi.Module`. Expected `str` but got `int`");
  CHECK_RAISED(call_global("ffi.Module.load_from_file.so", load_args, 1, &result), "TypeError",
               "Mismatched number of arguments when calling: `ffi.Module.load_from_file.so(0: "
               "str, 1: str) -> ffi.Module`. Expected 2 but got 1 arguments");
  CHECK_RAISED(call_global("ffi.ModuleLoadFromFile", load_args, 1, &result), "TypeError",
               "Mismatched type on argument #0 when calling: `ffi.ModuleLoadFromFile(0: str) -> "
               "ffi.Module`. Expected `str` but got `int`");
  CHECK_RAISED(call_global("ffi.SystemLib", load_args, 1, &result), "TypeError",
               "Cannot convert from type `int` to `str`");
  TVMFFIAny bad = tether_any_int(3);
  CHECK_RAISED(call_global("ffi.ModuleGetKind", &bad, 1, &result), "TypeError",
               "Mismatched type on argument #0 when calling: `ffi.ModuleGetKind(0: ffi.Module) -> "
               "str`. Expected `ffi.Module` but got `int`");
  CHECK_RAISED(call_global("ffi.ModuleGetWriteFormats", &bad, 1, &result), "TypeError",
               "`ffi.ModuleGetWriteFormats(0: ffi.Module) -> Array<str>`. Expected `ffi.Module`");
  CHECK_RAISED(call_global("ffi.ModuleGetPropertyMask", &bad, 1, &result), "TypeError",
               "`ffi.ModuleGetPropertyMask(0: ffi.Module) -> int`. Expected `ffi.Module`");
  TVMFFIAny pair[2] = {tether_any_object(mod), bad};
  CHECK_RAISED(call_global("ffi.ModuleImportModule", pair, 2, &result), "TypeError",
               "Mismatched type on argument #1 when calling: `ffi.ModuleImportModule(0: "
               "ffi.Module, 1: ffi.Module) -> void`. Expected `ffi.Module` but got `int`");
  CHECK_RAISED(call_global("ffi.ModuleImportModule", pair, 1, &result), "TypeError",
               "Expected 2 but got 1 arguments");
  TVMFFIAny write_args[3] = {tether_any_object(mod), tether_any_raw_str("x"), tether_any_none()};
  CHECK_RAISED(call_global("ffi.ModuleWriteToFile", write_args, 3, &result), "TypeError",
               "Mismatched type on argument #2 when calling: `ffi.ModuleWriteToFile(0: "
               "ffi.Module, 1: str, 2: str) -> void`. Expected `str` but got `None`");
  CHECK_RAISED(call_global("ffi.ModuleInspectSource", write_args, 1, &result), "TypeError",
               "`ffi.ModuleInspectSource(0: ffi.Module, 1: str) -> str`. Expected 2 but got 1");
  CHECK_RAISED(call_global("ffi.ModuleGetFunctionDoc", write_args, 1, &result), "TypeError",
               "`ffi.ModuleGetFunctionDoc(0: ffi.Module, 1: str, 2: bool) -> Optional<str>`");
  CHECK_RAISED(call_global("ffi.ModuleClearImports", &bad, 1, &result), "TypeError",
               "`ffi.ModuleClearImports(0: ffi.Module) -> void`. Expected `ffi.Module`");
  CHECK_RAISED(call_global("ffi.ModuleGlobalsAdd", &bad, 1, &result), "TypeError",
               "`ffi.ModuleGlobalsAdd(0: ffi.Module) -> void`. Expected `ffi.Module`");
  TVMFFIObjectDecRef(fn);
  TVMFFIObjectDecRef(mod);
}

static void test_imports_and_cycles(void) {
  TVMFFIObjectHandle a = load(TETHER_MODTEST_A), b = load(TETHER_MODTEST_B);
  if (a == NULL || b == NULL) goto done;
  CHECK(get_function(a, "b_add_one", true) == NULL);
  import_module(a, b);
  /* Found through the import only when asked to look there. */
  CHECK(get_function(a, "b_add_one", false) == NULL);
  CHECK_EQ_INT(call_int(a, "b_add_one", 9), 10);
  TVMFFIAny args[3] = {tether_any_object(a), tether_any_raw_str("b_add_one"),
                       tether_any_bool(true)}, result;
  CHECK_OK(call_global("ffi.ModuleGetFunctionDoc", args, 3, &result));
  check_str_and_release(&result, "modtest b: adds one to an int");
  /* Depth-first through two levels: a -> b -> system library. */
  import_module(b, syslib_default);
  CHECK_EQ_INT(call_int(a, "add_two", 1), 3);

  TVMFFIAny pair[2] = {tether_any_object(b), tether_any_object(a)};
  CHECK_RAISED(call_global("ffi.ModuleImportModule", pair, 2, &result), "RuntimeError",
               "Cyclic dependency detected during import");
  pair[0] = tether_any_object(a);
  CHECK_RAISED(call_global("ffi.ModuleImportModule", pair, 2, &result), "RuntimeError",
               "Cyclic dependency detected during import");
  pair[0] = tether_any_object(syslib_default);
  CHECK_RAISED(call_global("ffi.ModuleImportModule", pair, 2, &result), "RuntimeError",
               "Cyclic dependency detected during import");

  TVMFFIAny one = tether_any_object(a);
  CHECK_OK(call_global("ffi.ModuleClearImports", &one, 1, &result));
  CHECK(get_function(a, "b_add_one", true) == NULL);
  one = tether_any_object(b);
  CHECK_OK(call_global("ffi.ModuleClearImports", &one, 1, &result));
done:
  TVMFFIObjectDecRef(a);
  TVMFFIObjectDecRef(b);
}

static void test_library_lifetime(void) {
  CHECK(!library_loaded(TETHER_MODTEST_B));
  TVMFFIObjectHandle mod = load(TETHER_MODTEST_B);
  if (mod == NULL) return;
  CHECK(library_loaded(TETHER_MODTEST_B));
  TVMFFIObjectHandle fn = get_function(mod, "b_add_one", false);
  CHECK(fn != NULL);
  TVMFFIObjectDecRef(mod);
  /* The function keeps its module, and so the library, alive. */
  CHECK(library_loaded(TETHER_MODTEST_B));
  TVMFFIAny arg = tether_any_int(1), result;
  CHECK_OK(tether_func_call(fn, &arg, 1, &result));
  CHECK_EQ_INT(result.v_int64, 2);
  TVMFFIObjectDecRef(fn);
  CHECK(!library_loaded(TETHER_MODTEST_B));

  /* The keep-alive set: added modules outlive their last user reference. */
  mod = load(TETHER_MODTEST_B);
  TVMFFIAny one = tether_any_object(mod);
  CHECK_OK(call_global("ffi.ModuleGlobalsAdd", &one, 1, &result));
  CHECK_OK(call_global("ffi.ModuleGlobalsAdd", &one, 1, &result)); /* a set: once only */
  CHECK_EQ_INT(tether_object_use_count(mod), 2);
  TVMFFIObjectDecRef(mod);
  CHECK(library_loaded(TETHER_MODTEST_B));
  CHECK_OK(call_global("ffi.ModuleGlobalsRemove", &one, 1, &result)); /* frees it */
  CHECK(!library_loaded(TETHER_MODTEST_B));
}

static void test_system_lib(void) {
  CHECK(syslib_default != NULL && syslib_testing != NULL && syslib_default != syslib_testing);
  TVMFFIAny result, prefix = tether_any_raw_str("testing.");
  /* One cached module per prefix; extra arguments are ignored. */
  CHECK_OK(call_global("ffi.SystemLib", NULL, 0, &result));
  CHECK(result.v_obj == syslib_default);
  tether_any_release(&result);
  TVMFFIAny two[2] = {prefix, tether_any_int(1)};
  CHECK_OK(call_global("ffi.SystemLib", two, 2, &result));
  CHECK(result.v_obj == syslib_testing);
  tether_any_release(&result);

  /* "__tvm_ffi_" + prefix + name, then "__tvm_ffi_" + name. */
  CHECK_EQ_INT(call_int(syslib_testing, "add_one", 10), 11);
  CHECK_EQ_INT(call_int(syslib_testing, "add_two", 10), 12);
  CHECK_EQ_INT(call_int(syslib_default, "testing.add_one", 1), 2);
  CHECK(get_function(syslib_default, "add_one", false) == NULL);

  TVMFFIAny one = tether_any_object(syslib_testing);
  CHECK_OK(call_global("ffi.ModuleGetKind", &one, 1, &result));
  check_str_and_release(&result, "library");
  CHECK_OK(call_global("ffi.ModuleGetPropertyMask", &one, 1, &result));
  CHECK_EQ_INT(result.v_int64, 3);
  /* The system library's `__tvm_ffi__library_ctx` names a live system library. */
  CHECK(syslib_ctx == syslib_default || syslib_ctx == syslib_testing);
}

static void test_context_symbols_and_ctx(void) {
  TVMFFIObjectHandle a = load(TETHER_MODTEST_A);
  if (a == NULL) return;
  CHECK(call_ptr(a, "a_ctx_value") == &ctx_value_marker);
  CHECK(call_ptr(a, "a_ctx") == a);
  /* A second module of the same library takes the slot, and gives it back when it dies. */
  TVMFFIObjectHandle a2 = load(TETHER_MODTEST_A);
  CHECK(call_ptr(a2, "a_ctx") == a2);
  TVMFFIObjectDecRef(a2);
  CHECK(call_ptr(a, "a_ctx") == a);
  TVMFFIObjectDecRef(a);
}

static void test_lookup_from_imports(void) {
  TVMFFIObjectHandle a = load(TETHER_MODTEST_A), b = load(TETHER_MODTEST_B);
  if (a == NULL || b == NULL) goto done;
  import_module(a, b);
  TVMFFIAny args[2] = {tether_any_raw_str("b_add_one"), tether_any_int(5)}, result;
  /* From the imports, then from the global registry. */
  CHECK_OK(call_fn(a, "a_lookup", args, 2, &result));
  CHECK_EQ_INT(result.v_int64, 6);
  args[0] = tether_any_raw_str("modtest.global_twice");
  CHECK_OK(call_fn(a, "a_lookup", args, 2, &result));
  CHECK_EQ_INT(result.v_int64, 10);
  args[0] = tether_any_raw_str("missing_everywhere");
  CHECK_RAISED(call_fn(a, "a_lookup", args, 2, &result), "RuntimeError",
               "Cannot find function missing_everywhere in the imported modules or global "
               "registry.");
  /* Cached: the same borrowed handle every time, still valid after the imports change. */
  TVMFFIAny name = tether_any_raw_str("b_add_one");
  CHECK_OK(call_fn(a, "a_lookup_handle", &name, 1, &result));
  void* first = result.v_ptr;
  TVMFFIAny one = tether_any_object(a);
  CHECK_OK(call_global("ffi.ModuleClearImports", &one, 1, &result));
  CHECK_OK(call_fn(a, "a_lookup_handle", &name, 1, &result));
  CHECK(first != NULL && result.v_ptr == first);
  TVMFFIAny call_arg = tether_any_int(1);
  CHECK_OK(tether_func_call(first, &call_arg, 1, &result));
  CHECK_EQ_INT(result.v_int64, 2);

  /* Direct calls with a bad ctx or name. */
  TVMFFIObjectHandle out = (TVMFFIObjectHandle)1;
  CHECK_RAISED(TVMFFIEnvModLookupFromImports(NULL, "x", &out), "ValueError",
               "argument `library_ctx` must be the module pointer");
  CHECK(out == NULL);
  TVMFFIObjectHandle fn = get_function(b, "b_add_one", false);
  CHECK_RAISED(TVMFFIEnvModLookupFromImports(fn, "x", &out), "ValueError",
               "argument `library_ctx` must be the module pointer");
  TVMFFIObjectDecRef(fn);
  CHECK_RAISED(TVMFFIEnvModLookupFromImports(a, NULL, &out), "ValueError",
               "argument `func_name` must not be NULL");
  CHECK_OK(TVMFFIEnvModLookupFromImports(a, "modtest.global_twice", &out));
  CHECK(out != NULL);
done:
  TVMFFIObjectDecRef(a);
  TVMFFIObjectDecRef(b);
}

/* A library function receives the maps libtether made (at the top level and inside an
 * Array) in tvm-ffi's C++ layout, as C++ code built from tvm-ffi's headers reads them. */
static void test_maps_passed_in_cxx_layout(void) {
  TVMFFIObjectHandle mod = load(TETHER_MODTEST_A);
  if (mod == NULL) return;
  TVMFFIAny kvs[4] = {tether_any_raw_str("x"), tether_any_int(40), tether_any_raw_str("y"),
                      tether_any_int(2)};
  TVMFFIObjectHandle map = NULL, dict = NULL, arr = NULL;
  CHECK_OK(tether_map_new(kvs, 2, &map));
  CHECK_OK(tether_dict_new(kvs, 1, &dict));
  if (map == NULL || dict == NULL) goto done;
  TVMFFIAny arg = tether_any_object(map), result;
  CHECK_OK(call_fn(mod, "a_map_sum", &arg, 1, &result));
  CHECK(result.type_index == kTVMFFIInt && result.v_int64 == 42);
  TVMFFIAny items[3] = {tether_any_object(map), tether_any_object(dict), tether_any_object(map)};
  CHECK_OK(tether_array_new(items, 3, &arr));
  if (arr == NULL) goto done;
  arg = tether_any_object(arr);
  CHECK_OK(call_fn(mod, "a_map_sum", &arg, 1, &result));
  CHECK(result.type_index == kTVMFFIInt && result.v_int64 == 124);
  /* the arguments themselves are untouched (the call got converted copies) */
  CHECK_EQ_INT(tether_object_use_count(map), 3); /* ours and the Array's two */
  TVMFFIAny size;
  TVMFFIAny one = tether_any_object(dict);
  CHECK_OK(call_global("ffi.DictSize", &one, 1, &size));
  CHECK(size.type_index == kTVMFFIInt && size.v_int64 == 1);
  /* a value the kernel cannot take still fails as the kernel says */
  arg = tether_any_int(3);
  CHECK_RAISED(call_fn(mod, "a_map_sum", &arg, 1, &result), "TypeError", "expected maps");
done:
  TVMFFIObjectDecRef(arr);
  TVMFFIObjectDecRef(dict);
  TVMFFIObjectDecRef(map);
  TVMFFIObjectDecRef(mod);
}

/* ffi.Module is published final (`__ffi_type_final__` True), as tvm-ffi's is. */
static void test_type_final(void) {
  TVMFFIByteArray name = {"__ffi_type_final__", 18};
  const TVMFFITypeAttrColumn* col = TVMFFIGetTypeAttrColumn(&name);
  CHECK(col != NULL);
  if (col == NULL) return;
  int32_t slot = kTVMFFIModule - col->begin_index;
  CHECK(slot >= 0 && slot < col->size);
  if (slot < 0 || slot >= col->size) return;
  CHECK_EQ_INT(col->data[slot].type_index, kTVMFFIBool);
  CHECK_EQ_INT(col->data[slot].v_int64, 1);
  /* Published once: a second registration is refused like any other. */
  TVMFFIAny again = tether_any_bool(false);
  CHECK_RAISED(TVMFFITypeRegisterAttr(kTVMFFIModule, &name, &again), "RuntimeError",
               "is already registered for type index");
}

TEST_MAIN(TEST_CASE(test_load_and_call), TEST_CASE(test_load_errors),
          TEST_CASE(test_bad_arguments), TEST_CASE(test_imports_and_cycles),
          TEST_CASE(test_library_lifetime), TEST_CASE(test_system_lib),
          TEST_CASE(test_context_symbols_and_ctx), TEST_CASE(test_lookup_from_imports),
          TEST_CASE(test_maps_passed_in_cxx_layout), TEST_CASE(test_type_final))
