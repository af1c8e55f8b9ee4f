/*
 * values_kernel.c -- a plain-C kernel (only <tvm/ffi/c_api.h>) that test_values.py loads
 * under tether and under apache-tvm-ffi to see what each package hands to C.
 *
 *   type_index(x)        -> int: the type index of the argument as C receives it, times
 *                           1000 plus the object header's index for objects
 *   small_len(x)         -> int: small_str_len of a SmallStr/SmallBytes argument
 *   bigint_words(x)      -> bytes: TVMFFIBigIntGetContentByteArray of an int argument
 *   make_bigint(b)       -> TVMFFIBigIntFromByteArray(b) for a bytes argument
 *   return_index(i, obj) -> an Any of type index i: NULL payload, or (obj true) a live
 *                           object whose header also says i
 *   dltensor_to(cb)      -> cb(DLTensor* of a 2x3 float32 array), and cb's result
 *   index_to(cb, i)      -> cb(an Any of type index i with a NULL payload)
 *   str_after(cb, s)     -> calls cb(), then returns a new string with the content of the
 *                           Str argument s (which must still be alive)
 */
#include <stdlib.h>
#include <string.h>

#include <tvm/ffi/c_api.h>

#define KERNEL_EXPORT __attribute__((visibility("default")))

static int set_int(TVMFFIAny* r, int64_t v) {
  r->type_index = kTVMFFIInt;
  r->zero_padding = 0;
  r->v_int64 = v;
  return 0;
}

KERNEL_EXPORT int __tvm_ffi_type_index(void* self, const TVMFFIAny* args, int32_t n,
                                       TVMFFIAny* r) {
  (void)self;
  (void)n;
  int64_t index = args[0].type_index;
  if (index >= kTVMFFIStaticObjectBegin && args[0].v_obj != NULL) {
    index = index * 1000 + args[0].v_obj->type_index;
  }
  return set_int(r, index);
}

KERNEL_EXPORT int __tvm_ffi_small_len(void* self, const TVMFFIAny* args, int32_t n,
                                      TVMFFIAny* r) {
  (void)self;
  (void)n;
  return set_int(r, args[0].small_str_len);
}

KERNEL_EXPORT int __tvm_ffi_bigint_words(void* self, const TVMFFIAny* args, int32_t n,
                                         TVMFFIAny* r) {
  (void)self;
  (void)n;
  TVMFFIByteArray words = TVMFFIBigIntGetContentByteArray(&args[0]);
  return TVMFFIBytesFromByteArray(&words, r);
}

KERNEL_EXPORT int __tvm_ffi_make_bigint(void* self, const TVMFFIAny* args, int32_t n,
                                        TVMFFIAny* r) {
  (void)self;
  (void)n;
  TVMFFIByteArray in;
  if (args[0].type_index != kTVMFFISmallBytes && args[0].type_index != kTVMFFIBytes) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "make_bigint: argument 0 must be bytes");
    return -1;
  }
  if (args[0].type_index == kTVMFFISmallBytes) {
    in.data = args[0].v_bytes;
    in.size = args[0].small_str_len;
  } else {
    in = *(const TVMFFIByteArray*)((const char*)args[0].v_obj + sizeof(TVMFFIObject));
  }
  return TVMFFIBigIntFromByteArray(&in, r);
}

static void free_object(void* self, int flags) {
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) free(self);
}

KERNEL_EXPORT int __tvm_ffi_return_index(void* self, const TVMFFIAny* args, int32_t n,
                                         TVMFFIAny* r) {
  (void)self;
  int32_t index = (int32_t)args[0].v_int64;
  r->type_index = index;
  r->zero_padding = 0;
  r->v_int64 = 0;
  if (n > 1 && args[1].v_int64 != 0) {
    TVMFFIObject* obj = calloc(1, 64);
    if (obj == NULL) return -1;
    obj->combined_ref_count = 1 | ((uint64_t)1 << 32);
    obj->type_index = index;
    obj->deleter = free_object;
    r->v_obj = obj;
  }
  return 0;
}

static int64_t shape[2] = {2, 3};
static float data[6] = {1, 2, 3, 4, 5, 6};

KERNEL_EXPORT int __tvm_ffi_dltensor_to(void* self, const TVMFFIAny* args, int32_t n,
                                        TVMFFIAny* r) {
  (void)self;
  (void)n;
  DLTensor t;
  memset(&t, 0, sizeof(t));
  t.data = data;
  t.device.device_type = kDLCPU;
  t.ndim = 2;
  t.dtype.code = kDLFloat;
  t.dtype.bits = 32;
  t.dtype.lanes = 1;
  t.shape = shape;
  TVMFFIAny a;
  a.type_index = kTVMFFIDLTensorPtr;
  a.zero_padding = 0;
  a.v_ptr = &t;
  return TVMFFIFunctionCall(args[0].v_obj, &a, 1, r);
}

KERNEL_EXPORT int __tvm_ffi_index_to(void* self, const TVMFFIAny* args, int32_t n,
                                     TVMFFIAny* r) {
  (void)self;
  (void)n;
  TVMFFIAny a;
  a.type_index = (int32_t)args[1].v_int64;
  a.zero_padding = 0;
  a.v_int64 = 0;
  return TVMFFIFunctionCall(args[0].v_obj, &a, 1, r);
}

KERNEL_EXPORT int __tvm_ffi_str_after(void* self, const TVMFFIAny* args, int32_t n,
                                      TVMFFIAny* r) {
  (void)self;
  (void)n;
  if (args[1].type_index != kTVMFFIStr) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "str_after: argument 1 must be a Str object");
    return -1;
  }
  if (TVMFFIFunctionCall(args[0].v_obj, NULL, 0, r) != 0) return -1;
  if (r->type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(r->v_obj);
  const TVMFFIByteArray* s =
      (const TVMFFIByteArray*)((const char*)args[1].v_obj + sizeof(TVMFFIObject));
  return TVMFFIStringFromByteArray(s, r);
}
