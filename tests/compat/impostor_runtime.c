/*
 * impostor_runtime.c -- a stand-in for another tvm-ffi runtime (apache-tvm-ffi's
 * libtvm_ffi.so) for bind_kernels.c: it defines the TVMFFI* functions modtest_lib.c calls,
 * each of which only counts the call in `impostor_calls` and fails.  Loaded RTLD_GLOBAL,
 * it is what the dynamic loader binds a host-symbol library to; a library loaded by
 * libtether must never reach it.
 */
#include <tvm/ffi/c_api.h>

TVM_FFI_DLL_EXPORT int impostor_calls = 0;

TVM_FFI_DLL_EXPORT void TVMFFIErrorSetRaisedFromCStr(const char* kind, const char* message) {
  (void)kind, (void)message;
  impostor_calls++;
}

TVM_FFI_DLL_EXPORT int TVMFFIStringFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out) {
  (void)input, (void)out;
  impostor_calls++;
  return -1;
}

TVM_FFI_DLL_EXPORT int TVMFFIFunctionCall(TVMFFIObjectHandle func, TVMFFIAny* args,
                                          int32_t num_args, TVMFFIAny* result) {
  (void)func, (void)args, (void)num_args, (void)result;
  impostor_calls++;
  return -1;
}

TVM_FFI_DLL_EXPORT int TVMFFIEnvModLookupFromImports(TVMFFIObjectHandle library_ctx,
                                                     const char* func_name,
                                                     TVMFFIObjectHandle* out) {
  (void)library_ctx, (void)func_name, (void)out;
  impostor_calls++;
  return -1;
}
