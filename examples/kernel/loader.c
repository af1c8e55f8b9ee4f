/*
 * loader.c -- loads a tvm-ffi kernel library and calls a function from it, using nothing
 * but the stable C ABI: TVMFFIFunctionGetGlobal, TVMFFIFunctionCall, TVMFFIObjectDecRef,
 * TVMFFIErrorMoveFromRaised, and the globals `ffi.Module.load_from_file.so` and
 * `ffi.ModuleGetFunction`.  The same program works against tether or apache-tvm-ffi.
 *
 *   loader <library.so> <function> [--bad-arg]
 *
 * Calls <function>(x, y) with x = [0, 1, 2, 3] and y = zeros (1-D float32 DLTensor*s) and
 * prints y; with --bad-arg passes the integer 7 as x instead.  Every failure prints
 * "<Kind>: <message>" and exits with 1.
 */
#include <stdio.h>
#include <string.h>

#include <tvm/ffi/c_api.h>

static TVMFFIAny none_value(void) {
  TVMFFIAny v;
  memset(&v, 0, sizeof(v));
  v.type_index = kTVMFFINone;
  return v;
}

static TVMFFIAny str_view(const char* s) {
  TVMFFIAny v = none_value();
  v.type_index = kTVMFFIRawStr;
  v.v_c_str = s;
  return v;
}

/* Prints the raised error as "Kind: message" (the Error cell follows the header). */
static int report_error(void) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  if (err == NULL) {
    printf("InternalError: a call failed without raising an error\n");
    return 1;
  }
  const TVMFFIErrorCell* cell = (const TVMFFIErrorCell*)((char*)err + sizeof(TVMFFIObject));
  printf("%.*s: %.*s\n", (int)cell->kind.size, cell->kind.data, (int)cell->message.size,
         cell->message.data);
  TVMFFIObjectDecRef(err);
  return 1;
}

/* Calls global `name` with `args`; *result receives an owning value. */
static int call_global(const char* name, TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  TVMFFIByteArray key = {name, strlen(name)};
  TVMFFIObjectHandle f = NULL;
  *result = none_value();
  if (TVMFFIFunctionGetGlobal(&key, &f) != 0) return -1;
  if (f == NULL) {
    printf("RuntimeError: global function `%s` is not registered\n", name);
    return -2;
  }
  int rc = TVMFFIFunctionCall(f, args, num_args, result);
  TVMFFIObjectDecRef(f);
  return rc;
}

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s <library.so> <function> [--bad-arg]\n", argv[0]);
    return 2;
  }
  int status = 1;
  TVMFFIAny module = none_value(), func = none_value(), ret = none_value();

  TVMFFIAny load_args[2] = {str_view(argv[1]), str_view("so")};
  int rc = call_global("ffi.Module.load_from_file.so", load_args, 2, &module);
  if (rc != 0) goto fail;

  TVMFFIAny get_args[3] = {module, str_view(argv[2]), none_value()};
  get_args[2].type_index = kTVMFFIBool;
  get_args[2].v_int64 = 1; /* query_imports */
  rc = call_global("ffi.ModuleGetFunction", get_args, 3, &func);
  if (rc != 0) goto fail;
  if (func.type_index != kTVMFFIFunction) {
    printf("AttributeError: %s has no function `%s`\n", argv[1], argv[2]);
    rc = -2;
    goto fail;
  }

  float x_data[4] = {0, 1, 2, 3}, y_data[4] = {0, 0, 0, 0};
  int64_t shape[1] = {4};
  DLTensor x = {x_data, {kDLCPU, 0}, 1, {kDLFloat, 32, 1}, shape, NULL, 0};
  DLTensor y = {y_data, {kDLCPU, 0}, 1, {kDLFloat, 32, 1}, shape, NULL, 0};
  TVMFFIAny call_args[2] = {none_value(), none_value()};
  call_args[0].type_index = kTVMFFIDLTensorPtr;
  call_args[0].v_ptr = &x;
  call_args[1].type_index = kTVMFFIDLTensorPtr;
  call_args[1].v_ptr = &y;
  if (argc > 3 && strcmp(argv[3], "--bad-arg") == 0) {
    call_args[0].type_index = kTVMFFIInt;
    call_args[0].v_int64 = 7;
  }
  rc = TVMFFIFunctionCall(func.v_obj, call_args, 2, &ret);
  if (rc != 0) goto fail;
  printf("%s([%g, %g, %g, %g]) = [%g, %g, %g, %g]\n", argv[2], x_data[0], x_data[1], x_data[2],
         x_data[3], y_data[0], y_data[1], y_data[2], y_data[3]);
  status = 0;
fail:
  if (rc != 0 && rc != -2) report_error();
  if (ret.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(ret.v_obj);
  if (func.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(func.v_obj);
  if (module.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(module.v_obj);
  return status;
}
