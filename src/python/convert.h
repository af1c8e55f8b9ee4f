/*
 * convert.h -- conversions across the boundary.
 *
 * Python -> TVMFFIAny (spec python_api.md 6.3): tpy_arg_from_py writes a *view* into the
 * caller's slot; objects created or reused on the way (a String for a str of 8+ bytes, a
 * BigInt, an Array for a list, a Function for a callable, an OpaquePyObject, ...) are
 * pushed to a tpy_temps and released after the call.  Scalars, short str (SmallStr) and
 * FFI objects need no allocation.
 *
 * TVMFFIAny -> Python (6.4, "make_ret"): tpy_from_any_steal consumes an owning Any;
 * tpy_from_any_view copies a borrowed view (callback arguments, 6.5).
 */
#ifndef TPY_CONVERT_H_
#define TPY_CONVERT_H_

#include "tpy.h"
#include "object.h"

#define TPY_TEMPS_INLINE 8
#define TPY_TEMPS_PINS 8

/* Objects created during conversion, released after the call, and the slots of the str
 * cache (convert.c) whose Str objects the call uses.  Initialise with tpy_temps_init;
 * release with tpy_temps_release (also after a failed conversion), with the GIL held. */
typedef struct tpy_temps {
  /* The DLPack exchange API of the first framework tensor (or tagged container) among the
   * arguments, or NULL: the framework context of the call (pycontainer.h). */
  const DLPackExchangeAPI* dlpack_api;
  int32_t n;
  int32_t cap;
  int32_t npins;
  uint8_t pins[TPY_TEMPS_PINS]; /* str cache slots pinned until release */
  TVMFFIObject** items;         /* == inline_items until it grows */
  TVMFFIObject* inline_items[TPY_TEMPS_INLINE];
} tpy_temps;

static inline void tpy_temps_init(tpy_temps* temps) {
  temps->dlpack_api = NULL;
  temps->n = 0;
  temps->cap = TPY_TEMPS_INLINE;
  temps->npins = 0;
  temps->items = temps->inline_items;
}
void tpy_temps_release_slow(tpy_temps* temps);
/* (items only leaves inline_items when the list grows past TPY_TEMPS_INLINE entries, so
 * n == 0 and npins == 0 mean there is nothing to release or free.) */
static inline void tpy_temps_release(tpy_temps* temps) {
  if ((temps->n | temps->npins) != 0) tpy_temps_release_slow(temps);
}
/* Keeps `obj_steal` alive until release (steals the reference, also on failure).
 * 0, or -1 with a Python MemoryError set. */
int tpy_temps_push(tpy_temps* temps, TVMFFIObject* obj_steal);

/* Converts `obj` (borrowed) into the view *out.  0, or -1 with a Python error set
 * (OverflowError for an int beyond int64, ...).  Never fails for "unknown" objects: they
 * travel as OpaquePyObject. */
int tpy_arg_from_py(PyObject* obj, TVMFFIAny* out, tpy_temps* temps);

/* Consumes the owning value *value (it is reset to None) and returns the Python value:
 * new reference, or NULL with a Python error set. */
PyObject* tpy_from_any_steal(TVMFFIAny* value);
/* The same for a call whose framework context is `api` (non-NULL; pycontainer.c): a Tensor
 * becomes the framework's tensor, a container result remembers `api`. */
PyObject* tpy_from_any_steal_api(TVMFFIAny* value, const DLPackExchangeAPI* api);
/* Makes the API a container argument `obj` remembers (if any) the call's context, unless
 * the call has one already (pycontainer.c). */
void tpy_note_container_arg(PyObject* obj, tpy_temps* temps);

/* true if type index `t` is one of the four containers. */
static inline bool tpy_is_container_index(int32_t t) {
  return t == kTVMFFIArray || t == kTVMFFIMap || t == kTVMFFIList || t == kTVMFFIDict;
}
/* The Python value of the view *value (objects get a new reference; an RValueRef is moved
 * out of its slot; RawStr/ByteArrayPtr are copied).  New reference or NULL. */
PyObject* tpy_from_any_view(const TVMFFIAny* value);

/* The owning FFI value of `obj` as convert() defines it (str -> String object,
 * list -> Array, ...).  0 or -1 with a Python error set. */
int tpy_to_owned_any(PyObject* obj, TVMFFIAny* out);

/* core._OPAQUE_PTR_HANDLERS (a dict {exact class: handler returning an address}); borrowed,
 * set at import. */
extern PyObject* tpy_opaque_ptr_handlers;

/* A ctypes.c_void_p holding `p` (None for NULL).  New reference or NULL. */
PyObject* tpy_void_p(void* p);

/* Deleter of objects whose payload is a strong reference to a Python object (callback
 * closures, OpaquePyObject): releases it under the GIL (no-op after finalization). */
void tpy_decref_deleter(void* pyobj);

/* The process-wide MISSING / KWARGS sentinels (borrowed handles; set at import). */
extern TVMFFIObject* tpy_missing_handle;
extern TVMFFIObject* tpy_kwargs_handle;

/* A str (or subclass) as SmallStr (<= 7 UTF-8 bytes) or a kTVMFFIStr object (pushed to
 * `temps`).  0 or -1 with a Python error set. */
int tpy_str_arg(PyObject* obj, TVMFFIAny* out, tpy_temps* temps);
/* Empties the str argument cache (but for slots a call in flight uses) and returns the
 * number of entries dropped.  GIL held. */
int32_t tpy_str_cache_clear(void);
/* The kTVMFFIStr object for str `obj` whose UTF-8 is s[0..n) (n >= 8): the cached one for
 * this str object (pinned in the cache until `temps` is released), else a new one (cached
 * for exact str and tether.String).  0 or -1 with a Python error set. */
int tpy_str_object_arg(PyObject* obj, const char* s, size_t n, TVMFFIAny* out, tpy_temps* temps);

/* out->type_index = index and out->zero_padding = 0, as one 8-byte store. */
static inline void tpy_set_tag(TVMFFIAny* out, int32_t index) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint64_t tag = (uint32_t)index;
  memcpy(out, &tag, sizeof(tag));
#else
  out->type_index = index;
  out->zero_padding = 0;
#endif
}

/* dst[0..n) = src[0..n) for n <= 7 with fixed-size moves (no call to memcpy). */
static inline void tpy_copy_small(char* dst, const char* src, size_t n) {
  if (n >= 4) {
    uint32_t a, b;
    memcpy(&a, src, 4);
    memcpy(&b, src + n - 4, 4);
    memcpy(dst, &a, 4);
    memcpy(dst + n - 4, &b, 4);
  } else if (n >= 2) {
    uint16_t a, b;
    memcpy(&a, src, 2);
    memcpy(&b, src + n - 2, 2);
    memcpy(dst, &a, 2);
    memcpy(dst + n - 2, &b, 2);
  } else if (n == 1) {
    dst[0] = src[0];
  }
}

/* true (and *out = its value) if `obj` is an exact int of one machine digit or less
 * (|v| < 2**30): the common case, read straight from the object. */
static inline bool tpy_small_long(PyObject* obj, int64_t* out) {
  if (Py_TYPE(obj) != &PyLong_Type) return false;
#if PY_VERSION_HEX >= 0x030C0000
  if (!PyUnstable_Long_IsCompact((PyLongObject*)obj)) return false;
  *out = (int64_t)PyUnstable_Long_CompactValue((PyLongObject*)obj);
#else
  Py_ssize_t size = Py_SIZE(obj);
  if (size < -1 || size > 1) return false;
  *out = (int64_t)size * (int64_t)((PyLongObject*)obj)->ob_digit[0];
#endif
  return true;
}

/* ---- the argument fast path, inlined into Function's vectorcall ----------------------- */

/* Exact int/float/str/Object first; everything else via tpy_arg_from_py. */
static inline int tpy_arg_fast(PyObject* obj, TVMFFIAny* out, tpy_temps* temps) {
  PyTypeObject* t = Py_TYPE(obj);
  if (t == &PyLong_Type) {
    int64_t v;
    if (tpy_small_long(obj, &v)) {
      tpy_set_tag(out, kTVMFFIInt);
      out->v_int64 = v;
      return 0;
    }
    return tpy_arg_from_py(obj, out, temps);
  }
  if (t == &PyFloat_Type) {
    tpy_set_tag(out, kTVMFFIFloat);
    out->v_float64 = PyFloat_AS_DOUBLE(obj);
    return 0;
  }
  if (t == &PyUnicode_Type) {
    if (PyUnicode_IS_COMPACT_ASCII(obj)) {
      /* The characters follow the header and are the UTF-8, NUL-terminated. */
      size_t n = (size_t)((PyASCIIObject*)obj)->length;
      const char* s = (const char*)((PyASCIIObject*)obj + 1);
      if (n <= 7) {
        out->type_index = kTVMFFISmallStr;
        out->small_str_len = (uint32_t)n;
        out->v_int64 = 0;
        tpy_copy_small(out->v_bytes, s, n);
        return 0;
      }
      return tpy_str_object_arg(obj, s, n, out, temps);
    }
    return tpy_str_arg(obj, out, temps);
  }
  if (Py_TYPE(t) == &TpyObjectMeta_Type) {
    TVMFFIObject* h = ((TpyObject*)obj)->handle;
    if (h != NULL) {
      tpy_set_tag(out, h->type_index);
      out->v_obj = h;
      if (tpy_is_container_index(h->type_index)) tpy_note_container_arg(obj, temps);
      return 0;
    }
  }
  return tpy_arg_from_py(obj, out, temps);
}

/* The class `attr` of module `mod` if that module is already imported, else NULL without
 * an error.  Borrowed: the first hit is kept in *cache for the process. */
PyObject* tpy_loaded_class(const char* mod, const char* attr, PyObject** cache);

int tpy_convert_init(PyObject* module);

#endif /* TPY_CONVERT_H_ */
