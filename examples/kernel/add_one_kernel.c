/*
 * add_one_kernel.c -- a kernel library written for tvm-ffi, in plain C.
 *
 * It sees only tvm-ffi's public C header, so the same source builds against tether
 * (compat/include) or against apache-tvm-ffi's headers, and the built library runs under
 * either runtime.  It exports, by the library convention (spec section 5):
 *   __tvm_ffi_add_one_cpu(x, y)            y[i] = x[i] + 1 over 1-D float32 CPU tensors,
 *                                          each passed as a DLTensor* or a Tensor object;
 *   __tvm_ffi__metadata_add_one_cpu()      its type schema, as JSON;
 *   __tvm_ffi__doc_add_one_cpu()           its docstring.
 * Bad arguments raise TypeError/ValueError through TVMFFIErrorSetRaisedFromCStr and
 * return -1, as every safe-call function must.
 */
#include <stdio.h>
#include <string.h>

#include <tvm/ffi/c_api.h>

static int raise(const char* kind, const char* message) {
  TVMFFIErrorSetRaisedFromCStr(kind, message);
  return -1;
}

/* The DLTensor behind argument `v`: a DLTensor* view, or a Tensor object whose DLTensor
 * sits right after the 24-byte object header.  NULL (with a TypeError) otherwise. */
static DLTensor* tensor_arg(const TVMFFIAny* v, const char* which) {
  if (v->type_index == kTVMFFIDLTensorPtr) return (DLTensor*)v->v_ptr;
  if (v->type_index == kTVMFFITensor) return (DLTensor*)((char*)v->v_obj + sizeof(TVMFFIObject));
  char message[160];
  snprintf(message, sizeof(message),
           "add_one_cpu: argument `%s` must be a tensor (DLTensor* or ffi.Tensor), got type "
           "index %d",
           which, (int)v->type_index);
  raise("TypeError", message);
  return NULL;
}

static int check_vector(const DLTensor* t, const char* which) {
  char message[160];
  if (t->ndim != 1 || t->dtype.code != kDLFloat || t->dtype.bits != 32 || t->dtype.lanes != 1 ||
      t->device.device_type != kDLCPU) {
    snprintf(message, sizeof(message),
             "add_one_cpu: argument `%s` must be a 1-D float32 tensor on the CPU", which);
    return raise("ValueError", message);
  }
  if (t->strides != NULL && t->shape[0] > 1 && t->strides[0] != 1) {
    snprintf(message, sizeof(message), "add_one_cpu: argument `%s` must be contiguous", which);
    return raise("ValueError", message);
  }
  return 0;
}

TVM_FFI_DLL_EXPORT int __tvm_ffi_add_one_cpu(void* handle, const TVMFFIAny* args,
                                             int32_t num_args, TVMFFIAny* result) {
  (void)handle;
  if (num_args != 2) return raise("TypeError", "add_one_cpu: expects 2 arguments (x, y)");
  DLTensor* x = tensor_arg(&args[0], "x");
  if (x == NULL) return -1;
  DLTensor* y = tensor_arg(&args[1], "y");
  if (y == NULL || check_vector(x, "x") != 0 || check_vector(y, "y") != 0) return -1;
  if (x->shape[0] != y->shape[0]) {
    return raise("ValueError", "add_one_cpu: `x` and `y` must have the same length");
  }
  const float* in = (const float*)((const char*)x->data + x->byte_offset);
  float* out = (float*)((char*)y->data + y->byte_offset);
  for (int64_t i = 0; i < x->shape[0]; ++i) out[i] = in[i] + 1.0f;
  result->type_index = kTVMFFINone;
  result->zero_padding = 0;
  result->v_int64 = 0;
  return 0;
}

/* Companions: take no arguments, return a string Any made by the runtime. */
static int return_string(const char* text, TVMFFIAny* result) {
  TVMFFIByteArray bytes = {text, strlen(text)};
  return TVMFFIStringFromByteArray(&bytes, result);
}

TVM_FFI_DLL_EXPORT int __tvm_ffi__metadata_add_one_cpu(void* handle, const TVMFFIAny* args,
                                                       int32_t num_args, TVMFFIAny* result) {
  (void)handle, (void)args, (void)num_args;
  return return_string(
      "{\"type_schema\":\"{\\\"type\\\":\\\"ffi.Function\\\",\\\"args\\\":[{\\\"type\\\":"
      "\\\"None\\\"},{\\\"type\\\":\\\"DLTensor*\\\"},{\\\"type\\\":\\\"DLTensor*\\\"}]}\"}",
      result);
}

TVM_FFI_DLL_EXPORT int __tvm_ffi__doc_add_one_cpu(void* handle, const TVMFFIAny* args,
                                                  int32_t num_args, TVMFFIAny* result) {
  (void)handle, (void)args, (void)num_args;
  return return_string("add_one_cpu(x, y): y[i] = x[i] + 1 for 1-D float32 CPU tensors",
                       result);
}
