/*
 * cast.c -- the `__ffi_convert__` type attribute of the core object types: a function of
 * one value that returns it as an object of that type, or raises TypeError
 * "Cannot cast from `<key of the value>` to `<type key>`".
 *
 * A value that already is an object of the type (or of a type derived from it) passes as
 * it is; an ffi.Shape is also made from an ffi.Array or ffi.List of ints.  Schema-driven
 * conversion (the Python binding's TypeSchema) calls the attribute when a value is not
 * yet of the object type a schema names.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tether/container.h>

#include "internal.h"
#include "array.h"
#include "error.h"
#include "shape.h"

/* The core types that get the attribute. */
static const int32_t tether__cast_targets[] = {
    kTVMFFIObject, kTVMFFIFunction, kTVMFFIError, kTVMFFIStr,  kTVMFFIBytes, kTVMFFIArray,
    kTVMFFIList,   kTVMFFIMap,      kTVMFFIDict,  kTVMFFIShape, kTVMFFITensor,
};

static int tether__cast_fail(const TVMFFIAny* v, int32_t target) {
  return tether_raise("TypeError", "Cannot cast from `%s` to `%s`", tether_any_type_key(v),
                      tether_type_key(target));
}

/* The n ints of an Array or List (n <= cap) into dims; false if an item is not an int. */
static bool tether__cast_int_items(TVMFFIObject* seq, int64_t* dims, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const TVMFFIAny* item = seq->type_index == kTVMFFIArray ? tether__array_get(seq, i)
                                                             : tether_list_at(seq, i);
    if (item == NULL || (item->type_index != kTVMFFIInt && item->type_index != kTVMFFIBool)) {
      return false;
    }
    dims[i] = item->v_int64;
  }
  return true;
}

/* An ffi.Shape of the ints of the Array or List `seq` into *out; TypeError otherwise. */
static int tether__cast_shape(const TVMFFIAny* v, TVMFFIAny* out) {
  TVMFFIObject* seq = v->v_obj;
  int64_t n = seq->type_index == kTVMFFIArray ? tether__array_size(seq) : tether_list_size(seq);
  if (n < 0) return -1;
  int64_t small[8];
  int64_t* dims = n <= 8 ? small : malloc((size_t)n * sizeof(int64_t));
  if (dims == NULL) return tether_raise("MemoryError", "__ffi_convert__: out of memory");
  int rc = -1;
  TVMFFIObject* shape = NULL;
  if (!tether__cast_int_items(seq, dims, n)) {
    tether__cast_fail(v, kTVMFFIShape);
  } else if (tether__shape_new(dims, n, &shape) == 0) {
    *out = tether_any_object(shape);
    rc = 0;
  }
  if (dims != small) free(dims);
  return rc;
}

/* __ffi_convert__(value) of the type whose index `self` carries. */
static int tether__cast_call(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  int32_t target = (int32_t)(intptr_t)self;
  if (n != 1) {
    return tether_raise("TypeError", "%s.__ffi_convert__: expected 1 argument, got %d",
                        tether_type_key(target), (int)n);
  }
  const TVMFFIAny* v = &args[0];
  bool is_object = v->type_index >= kTVMFFIStaticObjectBegin && v->v_obj != NULL;
  if (is_object && tether_type_is_subclass(v->v_obj->type_index, target)) {
    TVMFFIObjectIncRef(v->v_obj);
    *result = tether_any_object(v->v_obj);
    return 0;
  }
  if (target == kTVMFFIShape && is_object &&
      (v->v_obj->type_index == kTVMFFIArray || v->v_obj->type_index == kTVMFFIList)) {
    return tether__cast_shape(v, result);
  }
  return tether__cast_fail(v, target);
}

int tether__cast_init(void) {
  static const TVMFFIByteArray name = {"__ffi_convert__", sizeof("__ffi_convert__") - 1};
  for (size_t i = 0; i < sizeof(tether__cast_targets) / sizeof(tether__cast_targets[0]); ++i) {
    int32_t target = tether__cast_targets[i];
    TVMFFIObjectHandle f = NULL;
    if (TVMFFIFunctionCreate((void*)(intptr_t)target, tether__cast_call, NULL, &f) != 0) {
      goto fail;
    }
    TVMFFIAny v = tether_any_object(f);
    int rc = TVMFFITypeRegisterAttr(target, &name, &v);
    TVMFFIObjectDecRef(f); /* the column holds its own reference */
    if (rc != 0) goto fail;
  }
  return 0;
fail:
  fprintf(stderr, "libtether: cannot register the __ffi_convert__ type attributes\n");
  return -1;
}

/* The type table releases the attribute values in its own fini. */
void tether__cast_fini(void) {}
