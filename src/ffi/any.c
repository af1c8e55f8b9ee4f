/*
 * any.c -- working with TVMFFIAny values: release and copy of owning values, reading
 * strings and bytes out of any representation, the view -> owned conversion of spec 1.4
 * (TVMFFIAnyViewToOwnedAny), and the hash/equality of spec 1.12 that Map/Dict keys follow.
 *
 * Hash and equality must agree bit for bit with tvm-ffi's AnyHash/AnyEqual, because C++
 * code compiled against tvm-ffi probes the same maps with its own inlined copies.  They
 * rely on the Any invariant of spec 1.2: zero_padding and unused payload bytes are zero.
 */
#include "internal.h"
#include "any.h"
#include "type.h"

/* ---- reading values -------------------------------------------------------------------- */

/* The authoritative type of a value: an object's own header, else the Any's index. */
static int32_t tether__any_type(const TVMFFIAny* v) {
  if (v->type_index >= kTVMFFIStaticObjectBegin && v->v_obj != NULL) return v->v_obj->type_index;
  return v->type_index;
}

/* The content of a SmallStr/SmallBytes (small_index) or Str/Bytes (heap_index) value;
 * false for anything else.  Borrowed from v. */
static bool tether__any_chars(const TVMFFIAny* v, int32_t small_index, int32_t heap_index,
                              TVMFFIByteArray* out) {
  if (v->type_index == small_index) {
    /* A malformed view claiming more than the 7 inline bytes is not a string: reading it
     * would run past the 16-byte Any. */
    if (v->small_str_len > 7) return false;
    out->data = v->v_bytes;
    out->size = v->small_str_len;
    return true;
  }
  if (v->type_index >= kTVMFFIStaticObjectBegin && v->v_obj != NULL &&
      v->v_obj->type_index == heap_index) {
    *out = *TETHER_CELL(TVMFFIByteArray, v->v_obj);
    return true;
  }
  return false;
}

/* The helpers below have no error channel: a NULL Any pointer is a no-op, false, or an
 * empty answer rather than a crash. */
void tether_any_release(TVMFFIAny* v) {
  if (v == NULL) return;
  if (v->type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(v->v_obj);
  *v = tether_any_none();
}

void tether_any_copy(const TVMFFIAny* v, TVMFFIAny* out) {
  if (out == NULL) return;
  if (v == NULL) {
    *out = tether_any_none();
    return;
  }
  TVMFFIAny copy = *v; /* out may alias v */
  if (copy.type_index >= kTVMFFIStaticObjectBegin && copy.v_obj != NULL) {
    TVMFFIObjectIncRef(copy.v_obj);
  }
  *out = copy;
}

bool tether_any_get_str(const TVMFFIAny* v, TVMFFIByteArray* out) {
  if (v == NULL || out == NULL) return false;
  if (v->type_index == kTVMFFIRawStr) {
    if (v->v_c_str == NULL) return false;
    out->data = v->v_c_str;
    out->size = strlen(v->v_c_str);
    return true;
  }
  return tether__any_chars(v, kTVMFFISmallStr, kTVMFFIStr, out);
}

bool tether_any_get_bytes(const TVMFFIAny* v, TVMFFIByteArray* out) {
  if (v == NULL || out == NULL) return false;
  if (v->type_index == kTVMFFIByteArrayPtr) {
    if (v->v_ptr == NULL) return false;
    const TVMFFIByteArray* b = v->v_ptr;
    if (b->data == NULL && b->size != 0) return false; /* malformed {NULL, n} */
    *out = *b;
    return true;
  }
  return tether__any_chars(v, kTVMFFISmallBytes, kTVMFFIBytes, out);
}

const char* tether_any_type_key(const TVMFFIAny* v) {
  return v != NULL ? tether_type_key(tether__any_type(v)) : "<unknown>";
}

/* ---- view -> owned (spec 1.4) ------------------------------------------------------------ */

int TVMFFIAnyViewToOwnedAny(const TVMFFIAny* view, TVMFFIAny* out) {
  if (view == NULL || out == NULL) {
    return tether_raise("ValueError", "TVMFFIAnyViewToOwnedAny: argument `%s` must not be NULL",
                        view == NULL ? "any_view" : "out");
  }
  /* Built in a local first: `out` may alias `view`, and is written only on success. */
  TVMFFIAny owned = tether_any_none();
  /* Negative and reserved (14..63) indices name no value type; copied into an owning
   * value they would pass for other things (a Map marks erased keys with -1). */
  if (view->type_index < 0 ||
      (view->type_index > kTVMFFIUnchanged && view->type_index < kTVMFFIStaticObjectBegin)) {
    return tether_raise("TypeError", "TVMFFIAnyViewToOwnedAny: type index %d is not a value "
                        "type (valid: 0..13 and objects >= 64)", (int)view->type_index);
  }
  switch (view->type_index) {
    case kTVMFFINone:
      break;
    case kTVMFFIRawStr:
      if (view->v_c_str == NULL) {
        return tether_raise("ValueError", "TVMFFIAnyViewToOwnedAny: a `const char*` view holds NULL");
      }
      if (tether_any_str(view->v_c_str, strlen(view->v_c_str), &owned) != 0) return -1;
      break;
    case kTVMFFIByteArrayPtr:
      if (view->v_ptr == NULL) {
        return tether_raise("ValueError",
                            "TVMFFIAnyViewToOwnedAny: a `TVMFFIByteArray*` view holds NULL");
      }
      if (((const TVMFFIByteArray*)view->v_ptr)->data == NULL &&
          ((const TVMFFIByteArray*)view->v_ptr)->size != 0) {
        return tether_raise("ValueError", "TVMFFIAnyViewToOwnedAny: a `TVMFFIByteArray*` view "
                            "holds NULL data with size %zu",
                            ((const TVMFFIByteArray*)view->v_ptr)->size);
      }
      if (TVMFFIBytesFromByteArray(view->v_ptr, &owned) != 0) return -1;
      break;
    case kTVMFFIObjectRValueRef: {
      TVMFFIObject** slot = view->v_ptr;
      if (slot == NULL) {
        return tether_raise("ValueError",
                            "TVMFFIAnyViewToOwnedAny: an ObjectRValueRef view holds no slot address");
      }
      if (*slot == NULL) {
        return tether_raise("InternalError", "TVMFFIAnyViewToOwnedAny: RValueRef already moved");
      }
      owned.type_index = (*slot)->type_index;
      owned.v_obj = *slot; /* the slot's reference moves into `owned` */
      *slot = NULL;
      break;
    }
    case kTVMFFISmallStr:
    case kTVMFFISmallBytes:
      if (view->small_str_len > 7) {
        return tether_raise("ValueError",
                            "TVMFFIAnyViewToOwnedAny: a small string view has length %u (at most 7)",
                            (unsigned)view->small_str_len);
      }
      owned.type_index = view->type_index;
      owned.small_str_len = view->small_str_len;
      memcpy(owned.v_bytes, view->v_bytes, view->small_str_len);
      break;
    case kTVMFFIDataType:
      owned.type_index = kTVMFFIDataType;
      owned.v_dtype = view->v_dtype;
      break;
    default:
      if (view->type_index >= kTVMFFIStaticObjectBegin) {
        if (view->v_obj == NULL) {
          return tether_raise("ValueError",
                              "TVMFFIAnyViewToOwnedAny: an object view (type index %d) holds NULL",
                              (int)view->type_index);
        }
        TVMFFIObjectIncRef(view->v_obj);
        owned.type_index = view->v_obj->type_index;
        owned.v_obj = view->v_obj;
      } else {
        /* Int, Bool, Float, OpaquePtr, Device, DLTensorPtr, ...: the 8 payload bytes. */
        owned.type_index = view->type_index;
        owned.v_uint64 = view->v_uint64;
      }
      break;
  }
  *out = owned;
  return 0;
}

/* ---- hashing and equality (spec 1.12) ------------------------------------------------------ */

#define TETHER_HASH_MULTIPLIER UINT64_C(1099511628211)
#define TETHER_HASH_MODULUS UINT64_C(2147483647)

uint64_t tether__hash_combine(uint64_t key, uint64_t value) {
  return key ^ (value + UINT64_C(0x9e3779b9) + (key << 6) + (key >> 2));
}

/* Invariant: all arithmetic is uint64 and wraps, exactly as the reference computes it. */
uint64_t tether__hash_bytes(const char* data, size_t n) {
  const unsigned char* p = (const unsigned char*)data;
  uint64_t result = 0;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t word = 0;
    for (int b = 0; b < 8; ++b) word |= (uint64_t)p[i + b] << (8 * b);
    result = (result * TETHER_HASH_MULTIPLIER + word) % TETHER_HASH_MODULUS;
  }
  if (i < n) {
    uint64_t word = 0;
    for (int b = 0; i + (size_t)b < n; ++b) word |= (uint64_t)p[i + b] << (8 * b);
    result = (result * TETHER_HASH_MULTIPLIER + word) % TETHER_HASH_MODULUS;
  }
  return result;
}

/* The `__any_hash__` / `__any_equal__` entry of object type `type_index` when it is a native
 * hook or a Function, else NULL. */
static const TVMFFIAny* tether__custom_entry(const char* column_name,
                                             const TVMFFITypeAttrColumn* _Atomic* cache,
                                             int32_t type_index) {
  const TVMFFIAny* entry = tether__type_attr(column_name, cache, type_index);
  if (entry == NULL) return NULL;
  if (entry->type_index == kTVMFFIOpaquePtr && entry->v_ptr != NULL) return entry;
  if (tether__any_type(entry) == kTVMFFIFunction && entry->type_index >= kTVMFFIStaticObjectBegin) {
    return entry;
  }
  return NULL;
}

static const TVMFFITypeAttrColumn* _Atomic tether__any_hash_column;
static const TVMFFITypeAttrColumn* _Atomic tether__any_equal_column;

/*
 * A native (kTVMFFIOpaquePtr) entry is a C function returning an owning TVMFFIAny: a
 * kTVMFFIInt hash / kTVMFFIBool answer, or a kTVMFFIError when it failed (tvm-ffi 0.1.15's
 * convention; C++ hooks are `TVMFFIAny(const Any&) noexcept`, and `const Any&` is passed
 * as a pointer to the value).
 */
typedef TVMFFIAny (*tether_custom_hash_fn)(const TVMFFIAny* v);
typedef TVMFFIAny (*tether_custom_equal_fn)(const TVMFFIAny* a, const TVMFFIAny* b);

/* Reads a native entry's result of kind `want`; anything else (an Error, say) is released
 * and false returned, as for a failing Function entry. */
static bool tether__native_result(TVMFFIAny result, int32_t want, int64_t* out) {
  if (result.type_index == want) {
    *out = result.v_int64;
    return true;
  }
  tether_any_release(&result);
  return false;
}

/*
 * Calls a Function entry with `n` views and reads an Int/Bool result.  A failing call has
 * no way to report through hash/equal, so its error is dropped and false returned: the
 * caller then falls back to pointer identity.
 */
static bool tether__call_custom(const TVMFFIAny* fn, const TVMFFIAny* args, int32_t n,
                                int64_t* out) {
  TVMFFIAny result = tether_any_none();
  if (tether_func_call(fn->v_obj, args, n, &result) != 0) {
    TVMFFIErrorMoveFromRaised(NULL);
    return false;
  }
  bool ok = result.type_index == kTVMFFIInt || result.type_index == kTVMFFIBool;
  if (ok) *out = result.v_int64;
  tether_any_release(&result);
  return ok;
}

uint64_t tether_any_hash(const TVMFFIAny* v) {
  if (v == NULL) return tether__hash_combine(kTVMFFINone, 0); /* hashes like None */
  int32_t type = tether__any_type(v);
  TVMFFIByteArray chars;
  switch (v->type_index) {
    case kTVMFFISmallStr:
    case kTVMFFISmallBytes: {
      uint64_t key = v->type_index == kTVMFFISmallStr ? kTVMFFIStr : kTVMFFIBytes;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
      /* Equal to tether__hash_bytes(v_bytes, len) because the padding bytes are zero. */
      return tether__hash_combine(key, v->v_uint64 % TETHER_HASH_MODULUS);
#else
      return tether__hash_combine(key, tether__hash_bytes(v->v_bytes, v->small_str_len));
#endif
    }
    default:
      break;
  }
  if (v->type_index < kTVMFFIStaticObjectBegin || v->v_obj == NULL) {
    return tether__hash_combine((uint64_t)(int64_t)v->type_index, v->v_uint64);
  }
  if (type == kTVMFFIStr || type == kTVMFFIBytes) {
    chars = *TETHER_CELL(TVMFFIByteArray, v->v_obj);
    return tether__hash_combine((uint64_t)type, tether__hash_bytes(chars.data, chars.size));
  }
  const TVMFFIAny* custom = tether__custom_entry("__any_hash__", &tether__any_hash_column, type);
  if (custom != NULL) {
    int64_t h;
    bool ok = custom->type_index == kTVMFFIOpaquePtr
                  ? tether__native_result(((tether_custom_hash_fn)custom->v_ptr)(v), kTVMFFIInt, &h)
                  : tether__call_custom(custom, v, 1, &h);
    if (ok) return tether__hash_combine((uint64_t)type, (uint64_t)h);
  }
  return tether__hash_combine((uint64_t)type, v->v_uint64);
}

static bool tether__bytes_equal(TVMFFIByteArray a, TVMFFIByteArray b) {
  return a.size == b.size && (a.size == 0 || memcmp(a.data, b.data, a.size) == 0);
}

bool tether_any_equal(const TVMFFIAny* a, const TVMFFIAny* b) {
  if (a == NULL || b == NULL) return false;
  if (memcmp(a, b, sizeof(TVMFFIAny)) == 0) return true;
  TVMFFIByteArray ca, cb;
  /* Strings compare by content across the small and heap forms; Str never equals Bytes. */
  if (tether__any_chars(a, kTVMFFISmallStr, kTVMFFIStr, &ca)) {
    return tether__any_chars(b, kTVMFFISmallStr, kTVMFFIStr, &cb) && tether__bytes_equal(ca, cb);
  }
  if (tether__any_chars(a, kTVMFFISmallBytes, kTVMFFIBytes, &ca)) {
    return tether__any_chars(b, kTVMFFISmallBytes, kTVMFFIBytes, &cb) && tether__bytes_equal(ca, cb);
  }
  int32_t type = tether__any_type(a);
  if (type != tether__any_type(b)) return false;
  if (a->type_index < kTVMFFIStaticObjectBegin || b->type_index < kTVMFFIStaticObjectBegin ||
      a->v_obj == NULL || b->v_obj == NULL) {
    return false;
  }
  if (a->v_obj == b->v_obj) return true;
  const TVMFFIAny* custom = tether__custom_entry("__any_equal__", &tether__any_equal_column, type);
  if (custom == NULL) return false;
  int64_t eq;
  if (custom->type_index == kTVMFFIOpaquePtr) {
    return tether__native_result(((tether_custom_equal_fn)custom->v_ptr)(a, b), kTVMFFIBool, &eq) &&
           eq != 0;
  }
  TVMFFIAny args[2] = {*a, *b};
  return tether__call_custom(custom, args, 2, &eq) && eq != 0;
}
