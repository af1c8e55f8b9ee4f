/*
 * convert.c -- Python values to TVMFFIAny views (arguments, spec python_api.md 6.3) and
 * owning TVMFFIAny values to Python (results, 6.4).
 *
 * Argument order: the exact builtin types first (None, bool, int, float, str, FFI objects:
 * one pointer compare each), then tensors (numpy/torch/DLPack; tensor.c's per-type cache
 * says "not a tensor" in a few instructions), the value types of tether.core, builtin
 * subclasses, containers, and last the protocol checks in the spec's order; anything left
 * travels as an OpaquePyObject and comes back as itself.  (So a value type or builtin
 * subclass that also defines __dlpack__ travels as a Tensor.)
 *
 * Values cross as tvm_ffi passes them (the table is in docs/values.md): a str of up to 7
 * UTF-8 bytes is a SmallStr, a longer one a kTVMFFIStr object (reused from a small cache
 * keyed by the str object, see "Str objects" below); bytes likewise SmallBytes/Bytes; an
 * int beyond int64 an ffi.BigInt, which comes back as an int.  A DLTensor* handed to a
 * callback arrives as a Tensor; a type index that names no registered type is a
 * TypeError naming it, never a read through a bad pointer.
 */
#include "convert.h"

#include "error.h"
#include "function.h"
#include "tensor.h"
#include "value.h"

/* tensor.c may be absent while it is being written: link its functions weakly. */
#pragma weak tpy_tensor_arg_from_py
#pragma weak tpy_tensor_temp_release
#pragma weak tpy_tensor_wrap_steal

TVMFFIObject* tpy_missing_handle;
TVMFFIObject* tpy_kwargs_handle;

/* ---- Str objects for str arguments ----------------------------------------------------
 * A str of 8 or more UTF-8 bytes travels as a kTVMFFIStr object, as under tvm_ffi.  Making
 * one per call would cost an allocation and a copy; instead a direct-mapped cache keeps
 * the Str made for each of the last few str objects passed, keyed by the str object
 * itself, and a call borrows the cache's reference.  Invariants:
 * - the cache holds a strong reference to each key, so a key's address cannot be reused
 *   by another object while it is cached, and str contents never change: a hit is always
 *   the right Str;
 * - a slot is pinned (busy > 0) from the conversion that uses its Str until that call's
 *   temporaries are released, and a pinned slot is never replaced: an eviction during the
 *   call (by a callback, or by another thread while the call runs without the GIL) never
 *   frees a Str in use.  A callee that keeps the Str takes its own reference as usual;
 * - only exact str and tether.String are keys (their deallocation runs no Python code, so
 *   evicting one cannot re-enter this code halfway through an update);
 * - a slot's Str is rewritten in place for a new key (instead of allocating a new one) only
 *   while nothing but the cache references it (strong count 1, no weak reference, not
 *   pinned) and its characters are stored inline after the cell, as libtether lays out the
 *   Str objects TVMFFIStringFromByteArray makes: no one can observe the change.
 * The cache is touched only with the GIL held; it keeps at most TPY_STR_CACHE_SLOTS
 * strings of at most TPY_STR_CACHE_MAX_BYTES alive. */
enum { TPY_STR_CACHE_SLOTS = 64, TPY_STR_CACHE_MAX_BYTES = 1024 };

typedef struct {
  PyObject* key;     /* strong reference */
  TVMFFIObject* str; /* the cache's reference */
  uint32_t busy;     /* pins by calls in flight */
} tpy_str_slot;

static tpy_str_slot tpy_str_cache[TPY_STR_CACHE_SLOTS];

/* ---- temporaries --------------------------------------------------------------------------- */

int tpy_temps_push(tpy_temps* temps, TVMFFIObject* obj_steal) {
  if (temps->n == temps->cap) {
    int32_t cap = temps->cap * 2;
    TVMFFIObject** items = PyMem_Malloc(sizeof(TVMFFIObject*) * (size_t)cap);
    if (items == NULL) {
      TVMFFIObjectDecRef(obj_steal);
      PyErr_NoMemory();
      return -1;
    }
    memcpy(items, temps->items, sizeof(TVMFFIObject*) * (size_t)temps->n);
    if (temps->items != temps->inline_items) PyMem_Free(temps->items);
    temps->items = items;
    temps->cap = cap;
  }
  temps->items[temps->n++] = obj_steal;
  return 0;
}

/* Tensors go back through tensor.c, which recycles the argument Tensors it made from numpy
 * arrays and torch tensors (and simply DecRefs any other Tensor). */
void tpy_temps_release_slow(tpy_temps* temps) {
  for (int32_t i = 0; i < temps->npins; ++i) tpy_str_cache[temps->pins[i]].busy--;
  for (int32_t i = 0; i < temps->n; ++i) {
    TVMFFIObject* obj = temps->items[i];
    if (obj->type_index == kTVMFFITensor && tpy_tensor_temp_release != NULL) {
      tpy_tensor_temp_release(obj);
    } else {
      TVMFFIObjectDecRef(obj);
    }
  }
  if (temps->items != temps->inline_items) PyMem_Free(temps->items);
  tpy_temps_init(temps);
}

/* *out = view of `obj` (steals it into temps). */
static int tpy_push_object(TVMFFIObject* obj, TVMFFIAny* out, tpy_temps* temps) {
  if (tpy_temps_push(temps, obj) != 0) return -1;
  out->type_index = obj->type_index;
  out->zero_padding = 0;
  out->v_obj = obj;
  return 0;
}

/* Moves an owning Any into `out` as a view, its object (if any) kept in temps. */
static int tpy_push_owned(TVMFFIAny* owned, TVMFFIAny* out, tpy_temps* temps) {
  if (owned->type_index >= kTVMFFIStaticObjectBegin) return tpy_push_object(owned->v_obj, out, temps);
  *out = *owned;
  return 0;
}

/* ---- the deleter of objects holding a Python reference ----------------------------------- */

static bool tpy_finalizing(void) {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsFinalizing();
#else
  return _Py_IsFinalizing();
#endif
}

void tpy_decref_deleter(void* pyobj) {
  if (!Py_IsInitialized()) return; /* after Py_Finalize: the object is gone with the heap */
  if (tpy_finalizing() && !PyGILState_Check()) return;
  PyGILState_STATE g = PyGILState_Ensure();
  Py_DECREF((PyObject*)pyobj);
  PyGILState_Release(g);
}

/* ---- Python -> Any ------------------------------------------------------------------------- */

/* The words of a BigInt are little-endian bytes on little-endian hosts; elsewhere each
 * 8-byte group is reversed in place to turn one layout into the other. */
static void tpy_words_le_swap(unsigned char* buf, size_t nwords) {
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  for (size_t w = 0; w < nwords; ++w) {
    unsigned char* p = buf + 8 * w;
    for (int i = 0; i < 4; ++i) {
      unsigned char t = p[i];
      p[i] = p[7 - i];
      p[7 - i] = t;
    }
  }
#else
  (void)buf;
  (void)nwords;
#endif
}

/* An int (exact or subclass) beyond int64 -> a temporary ffi.BigInt. */
static int tpy_bigint_arg(PyObject* obj, TVMFFIAny* out, tpy_temps* temps) {
  size_t bits = _PyLong_NumBits(obj); /* of the magnitude */
  if (bits == (size_t)-1 && PyErr_Occurred()) return -1;
  size_t nwords = bits / 64 + 1; /* and room for the sign bit */
  if (nwords > PY_SSIZE_T_MAX / 8) {
    PyErr_SetString(PyExc_OverflowError, "int too large to pass as ffi.BigInt");
    return -1;
  }
  unsigned char* buf = PyMem_Malloc(nwords * 8);
  if (buf == NULL) {
    PyErr_NoMemory();
    return -1;
  }
#if PY_VERSION_HEX >= 0x030D0000
  int rc = _PyLong_AsByteArray((PyLongObject*)obj, buf, nwords * 8, 1, 1, 1);
#else
  int rc = _PyLong_AsByteArray((PyLongObject*)obj, buf, nwords * 8, 1, 1);
#endif
  TVMFFIAny owned;
  if (rc == 0) {
    tpy_words_le_swap(buf, nwords);
    TVMFFIByteArray b = {(const char*)buf, nwords * 8};
    rc = TVMFFIBigIntFromByteArray(&b, &owned);
    if (rc != 0) tpy_raise_ffi_error();
  }
  PyMem_Free(buf);
  if (rc != 0) return -1;
  if (owned.type_index != kTVMFFIBigInt) { /* fits int64 after all (callers check first) */
    *out = owned;
    return 0;
  }
  return tpy_push_object(owned.v_obj, out, temps);
}

/* An int: kTVMFFIInt when it fits int64, else an ffi.BigInt. */
static int tpy_int_arg(PyObject* obj, TVMFFIAny* out, tpy_temps* temps) {
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
  if (overflow != 0) return tpy_bigint_arg(obj, out, temps);
  if (v == -1 && PyErr_Occurred()) return -1;
  out->type_index = kTVMFFIInt;
  out->v_int64 = v;
  return 0;
}

/* A BigInt's value as a Python int.  New reference or NULL. */
static PyObject* tpy_long_from_bigint(TVMFFIObject* obj) {
  TVMFFIAny v;
  tpy_set_tag(&v, kTVMFFIBigInt);
  v.v_obj = obj;
  TVMFFIByteArray words = TVMFFIBigIntGetContentByteArray(&v);
  if (words.data == NULL) return tpy_raise_ffi_error();
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  unsigned char* buf = PyMem_Malloc(words.size);
  if (buf == NULL) return PyErr_NoMemory();
  memcpy(buf, words.data, words.size);
  tpy_words_le_swap(buf, words.size / 8);
  PyObject* r = _PyLong_FromByteArray(buf, words.size, 1, 1);
  PyMem_Free(buf);
  return r;
#else
  return _PyLong_FromByteArray((const unsigned char*)words.data, words.size, 1, 1);
#endif
}

static inline uint32_t tpy_str_slot_of(PyObject* obj) {
  uintptr_t a = (uintptr_t)obj;
  return (uint32_t)((a >> 4) ^ (a >> 10)) & (TPY_STR_CACHE_SLOTS - 1);
}

/* *out = view of the Str of slot `i`, kept alive for the call by a pin (or, when the call
 * already holds TPY_TEMPS_PINS pins, by a reference in temps). */
static int tpy_str_cache_use(uint32_t i, TVMFFIAny* out, tpy_temps* temps) {
  tpy_str_slot* slot = &tpy_str_cache[i];
  if (temps->npins == TPY_TEMPS_PINS) {
    TVMFFIObjectIncRef(slot->str);
    return tpy_push_object(slot->str, out, temps);
  }
  slot->busy++;
  temps->pins[temps->npins++] = (uint8_t)i;
  tpy_set_tag(out, kTVMFFIStr);
  out->v_obj = slot->str;
  return 0;
}

/* The cell of the slot's Str if it may be rewritten to hold n bytes, else NULL. */
static TVMFFIByteArray* tpy_str_slot_reusable(const tpy_str_slot* slot, size_t n) {
  if (slot->str == NULL || slot->busy != 0) return NULL;
  const uint64_t only_the_cache = 1 | ((uint64_t)1 << 32);
  if (__atomic_load_n(&slot->str->combined_ref_count, __ATOMIC_ACQUIRE) != only_the_cache) {
    return NULL;
  }
  TVMFFIByteArray* cell = TPY_CELL(TVMFFIByteArray, slot->str);
  if (cell->data != (const char*)(cell + 1) || n > cell->size) return NULL;
  return cell;
}

int tpy_str_object_arg(PyObject* obj, const char* s, size_t n, TVMFFIAny* out, tpy_temps* temps) {
  uint32_t i = tpy_str_slot_of(obj);
  tpy_str_slot* slot = &tpy_str_cache[i];
  if (slot->key == obj) return tpy_str_cache_use(i, out, temps);
  PyTypeObject* t = Py_TYPE(obj);
  bool cacheable = n <= TPY_STR_CACHE_MAX_BYTES && (t == &PyUnicode_Type || t == &TpyString_Type);
  TVMFFIByteArray* cell = cacheable ? tpy_str_slot_reusable(slot, n) : NULL;
  if (cell != NULL) {
    char* chars = (char*)(cell + 1);
    memcpy(chars, s, n);
    chars[n] = '\0';
    cell->size = n;
    PyObject* old_key = slot->key;
    slot->key = Py_NewRef(obj);
    Py_DECREF(old_key);
    return tpy_str_cache_use(i, out, temps);
  }
  TVMFFIByteArray b = {s, n};
  TVMFFIAny owned;
  if (TVMFFIStringFromByteArray(&b, &owned) != 0) {
    tpy_raise_ffi_error();
    return -1;
  }
  if (!cacheable || slot->busy != 0) return tpy_push_object(owned.v_obj, out, temps);
  PyObject* old_key = slot->key;
  TVMFFIObject* old_str = slot->str;
  slot->key = Py_NewRef(obj);
  slot->str = owned.v_obj;
  Py_XDECREF(old_key);
  if (old_str != NULL) TVMFFIObjectDecRef(old_str);
  return tpy_str_cache_use(i, out, temps);
}

int32_t tpy_str_cache_clear(void) {
  int32_t dropped = 0;
  for (int32_t i = 0; i < TPY_STR_CACHE_SLOTS; ++i) {
    tpy_str_slot* slot = &tpy_str_cache[i];
    if (slot->str == NULL || slot->busy != 0) continue;
    PyObject* key = slot->key;
    TVMFFIObject* str = slot->str;
    slot->key = NULL;
    slot->str = NULL;
    Py_DECREF(key);
    TVMFFIObjectDecRef(str);
    ++dropped;
  }
  return dropped;
}

int tpy_str_arg(PyObject* obj, TVMFFIAny* out, tpy_temps* temps) {
  Py_ssize_t n;
  const char* s;
  if (PyUnicode_IS_COMPACT_ASCII(obj)) { /* the characters are the UTF-8, NUL-terminated */
    n = PyUnicode_GET_LENGTH(obj);
    s = (const char*)PyUnicode_DATA(obj);
  } else {
    s = PyUnicode_AsUTF8AndSize(obj, &n);
    if (s == NULL) return -1;
  }
  if (n <= 7) {
    out->type_index = kTVMFFISmallStr;
    out->v_int64 = 0;
    memcpy(out->v_bytes, s, (size_t)n);
    out->small_str_len = (uint32_t)n;
    return 0;
  }
  return tpy_str_object_arg(obj, s, (size_t)n, out, temps);
}

static int tpy_bytes_arg(const char* s, Py_ssize_t n, TVMFFIAny* out, tpy_temps* temps) {
  if (n <= 7) {
    out->type_index = kTVMFFISmallBytes;
    out->v_int64 = 0;
    memcpy(out->v_bytes, s, (size_t)n);
    out->small_str_len = (uint32_t)n;
    return 0;
  }
  TVMFFIByteArray b = {s, (size_t)n};
  TVMFFIAny owned;
  if (TVMFFIBytesFromByteArray(&b, &owned) != 0) {
    tpy_raise_ffi_error();
    return -1;
  }
  return tpy_push_owned(&owned, out, temps);
}

/* Nesting of containers being converted on this thread.  Python's recursion limit alone
 * does not bound the C stack (a program may raise the limit far beyond what the stack
 * holds), so conversion also stops at TPY_MAX_NESTING levels, with the same error. */
enum { TPY_MAX_NESTING = 1000 };
static _Thread_local int tpy_nesting;

static int tpy_enter_nested(const char* where) {
  if (tpy_nesting >= TPY_MAX_NESTING) {
    PyErr_Format(PyExc_RecursionError, "maximum nesting depth (%d) exceeded%s", TPY_MAX_NESTING,
                 where);
    return -1;
  }
  if (Py_EnterRecursiveCall(where)) return -1;
  tpy_nesting++;
  return 0;
}

static void tpy_leave_nested(void) {
  tpy_nesting--;
  Py_LeaveRecursiveCall();
}

/* A tuple or list of at most TPY_STACK_ARGS small ints, floats, bools and Nones (attribute
 * lists such as strides=(1, 1)) -> a new Array holding the values, built directly: no
 * view conversion per item and no nesting guard (nothing nests).  1 when `obj` holds
 * anything else (the general path then converts it), 0, or -1 with a Python error. */
static int tpy_scalar_seq_arg(PyObject* const* items, Py_ssize_t n, TVMFFIAny* out,
                              tpy_temps* temps) {
  if (n > TPY_STACK_ARGS) return 1;
  TVMFFIAny values[TPY_STACK_ARGS];
  for (Py_ssize_t k = 0; k < n; ++k) {
    PyObject* item = items[k];
    TVMFFIAny* v = &values[k];
    PyTypeObject* t = Py_TYPE(item);
    v->zero_padding = 0;
    if (t == &PyLong_Type) {
      v->type_index = kTVMFFIInt;
      if (!tpy_small_long(item, &v->v_int64)) return 1;
    } else if (t == &PyFloat_Type) {
      v->type_index = kTVMFFIFloat;
      v->v_float64 = PyFloat_AS_DOUBLE(item);
    } else if (item == Py_None) {
      v->type_index = kTVMFFINone;
      v->v_int64 = 0;
    } else if (t == &PyBool_Type) {
      v->type_index = kTVMFFIBool;
      v->v_int64 = item == Py_True;
    } else {
      return 1;
    }
  }
  TVMFFIObjectHandle arr = NULL;
  if (tether_array_new_steal(values, (int64_t)n, &arr) != 0) {
    tpy_raise_ffi_error();
    return -1;
  }
  return tpy_push_object(arr, out, temps);
}

/* tuple/list -> a new Array per conversion (a temporary), as tvm_ffi makes one: two equal
 * tuples never become one shared Array, so a JSON graph of what a callee keeps has the nodes
 * apache-tvm's has. */
static int tpy_seq_arg(PyObject* obj, TVMFFIAny* out, tpy_temps* temps) {
  bool is_list = PyList_Check(obj);
  {
    /* (the items of an exact or derived tuple or list) */
    int fast = tpy_scalar_seq_arg(PySequence_Fast_ITEMS(obj), PySequence_Fast_GET_SIZE(obj), out,
                                  temps);
    if (fast <= 0) return fast;
  }
  Py_ssize_t n = is_list ? PyList_GET_SIZE(obj) : PyTuple_GET_SIZE(obj);
  TVMFFIAny stack[TPY_STACK_ARGS];
  TVMFFIAny* views = n <= TPY_STACK_ARGS ? stack : PyMem_Malloc(sizeof(TVMFFIAny) * (size_t)n);
  if (views == NULL) {
    PyErr_NoMemory();
    return -1;
  }
  int rc = -1;
  Py_ssize_t k = 0;
  if (tpy_enter_nested(" while converting a sequence to ffi.Array") != 0) goto done;
  for (; k < n; ++k) {
    /* A conversion may run Python code that shrinks a list: re-check each time. */
    if (is_list && k >= PyList_GET_SIZE(obj)) break;
    PyObject* item = is_list ? PyList_GET_ITEM(obj, k) : PyTuple_GET_ITEM(obj, k);
    Py_INCREF(item);
    int step = tpy_arg_fast(item, &views[k], temps);
    Py_DECREF(item);
    if (step != 0) break;
  }
  tpy_leave_nested();
  if (PyErr_Occurred()) goto done;
  TVMFFIObjectHandle arr = NULL;
  if (tether_array_new(views, (int64_t)k, &arr) != 0) {
    tpy_raise_ffi_error();
    goto done;
  }
  rc = tpy_push_object(arr, out, temps);
done:
  if (views != stack) PyMem_Free(views);
  return rc;
}

/* dict -> temporary Map. */
static int tpy_dict_arg(PyObject* obj, TVMFFIAny* out, tpy_temps* temps) {
  Py_ssize_t n = PyDict_GET_SIZE(obj);
  TVMFFIAny stack[TPY_STACK_ARGS];
  TVMFFIAny* kvs = 2 * n <= TPY_STACK_ARGS ? stack : PyMem_Malloc(sizeof(TVMFFIAny) * (size_t)(2 * n));
  if (kvs == NULL) {
    PyErr_NoMemory();
    return -1;
  }
  int rc = -1;
  Py_ssize_t pos = 0, k = 0;
  PyObject *key, *value;
  Py_INCREF(obj);
  if (tpy_enter_nested(" while converting a dict to ffi.Map") != 0) goto done;
  while (k < n && PyDict_Next(obj, &pos, &key, &value)) {
    Py_INCREF(key);
    Py_INCREF(value);
    int step = tpy_arg_fast(key, &kvs[2 * k], temps);
    if (step == 0) step = tpy_arg_fast(value, &kvs[2 * k + 1], temps);
    Py_DECREF(key);
    Py_DECREF(value);
    if (step != 0) break;
    ++k;
  }
  tpy_leave_nested();
  if (PyErr_Occurred()) goto done;
  TVMFFIObjectHandle map = NULL;
  if (tether_map_new(kvs, (int64_t)k, &map) != 0) {
    tpy_raise_ffi_error();
    goto done;
  }
  rc = tpy_push_object(map, out, temps);
done:
  Py_DECREF(obj);
  if (kvs != stack) PyMem_Free(kvs);
  return rc;
}

static int tpy_opaque_arg(PyObject* obj, TVMFFIAny* out, tpy_temps* temps) {
  TVMFFIObjectHandle h = NULL;
  Py_INCREF(obj);
  if (TVMFFIObjectCreateOpaque(obj, kTVMFFIOpaquePyObject, tpy_decref_deleter, &h) != 0) {
    Py_DECREF(obj);
    tpy_raise_ffi_error();
    return -1;
  }
  return tpy_push_object(h, out, temps);
}

/* The result of obj.<name>() if type(obj) defines `name`; NULL without error if it does
 * not; NULL with an error if the call fails.  *found tells the cases apart. */
static PyObject* tpy_call_protocol(PyObject* obj, const char* name, bool* found) {
  PyObject* key = PyUnicode_InternFromString(name);
  if (key == NULL) {
    *found = true;
    return NULL;
  }
  PyObject* attr = _PyType_Lookup(Py_TYPE(obj), key);
  *found = attr != NULL;
  PyObject* r = NULL;
  if (attr != NULL) r = PyObject_CallMethodNoArgs(obj, key);
  Py_DECREF(key);
  return r;
}

/* (convert.h) */
PyObject* tpy_loaded_class(const char* mod, const char* attr, PyObject** cache) {
  if (*cache != NULL) return *cache;
  PyObject* name = PyUnicode_FromString(mod);
  if (name == NULL) return NULL;
  PyObject* m = PyImport_GetModule(name);
  Py_DECREF(name);
  if (m == NULL) {
    PyErr_Clear();
    return NULL;
  }
  *cache = PyObject_GetAttrString(m, attr);
  Py_DECREF(m);
  if (*cache == NULL) PyErr_Clear();
  return *cache;
}

/* Converts the owning result of a protocol method, steals `value`. */
static int tpy_arg_from_owned_py(PyObject* value, TVMFFIAny* out, tpy_temps* temps) {
  if (value == NULL) return -1;
  TVMFFIAny owned;
  int rc = tpy_to_owned_any(value, &owned);
  Py_DECREF(value);
  if (rc != 0) return -1;
  return tpy_push_owned(&owned, out, temps);
}

static int tpy_dtype_from_tuple(PyObject* t, TVMFFIAny* out) {
  int code, bits, lanes;
  if (!PyArg_ParseTuple(t, "iii;__dlpack_data_type__ must return (code, bits, lanes)", &code,
                        &bits, &lanes)) {
    return -1;
  }
  out->type_index = kTVMFFIDataType;
  out->v_dtype.code = (uint8_t)code;
  out->v_dtype.bits = (uint8_t)bits;
  out->v_dtype.lanes = (uint16_t)lanes;
  return 0;
}

/* An object of apache-tvm-ffi's runtime (tvm_ffi.core.CObject: Object, Function, the
 * containers, Module...) lives in that runtime's type table and registry, so it never
 * crosses into tether: TypeError naming its type.  Its tensors crossed earlier, through
 * DLPack; its str/bytes/tuple subclasses (String, Bytes, Shape) are Python values and
 * cross by value like any str, bytes or tuple. */
static int tpy_reject_foreign(PyObject* obj) {
  static PyObject* tvm_ffi_cobject;
  PyObject* cls = tpy_loaded_class("tvm_ffi.core", "CObject", &tvm_ffi_cobject);
  /* (tether's own CObject when tvm_ffi.core is an alias of tether.core) */
  if (cls == NULL || cls == (PyObject*)&TpyCObject_Type || !PyType_Check(cls) ||
      !PyObject_TypeCheck(obj, (PyTypeObject*)cls)) {
    return 0;
  }
  PyObject* type = (PyObject*)Py_TYPE(obj);
  PyObject* mod = PyObject_GetAttrString(type, "__module__");
  PyObject* qualname = mod != NULL ? PyObject_GetAttrString(type, "__qualname__") : NULL;
  if (qualname != NULL) {
    PyErr_Format(PyExc_TypeError,
                 "cannot pass a %S.%S to tether: it is an object of apache-tvm-ffi's runtime, "
                 "which tether does not share (objects never cross between the two); pass a "
                 "Python value (list, dict, str, a callable) instead, or a tensor through DLPack",
                 mod, qualname);
  }
  Py_XDECREF(qualname);
  Py_XDECREF(mod);
  return -1;
}

/* core._OPAQUE_PTR_HANDLERS: {exact class: handler}; an instance of such a class passes as
 * the opaque pointer handler(instance) returns (an int).  Filled during setup by users. */
PyObject* tpy_opaque_ptr_handlers;

/* The protocol checks of spec 6.3 (items 6, 8-9, 23-34), after the builtin types. */
static int tpy_arg_protocols(PyObject* obj, TVMFFIAny* out, tpy_temps* temps) {
  static PyObject *c_void_p, *np_dtype, *torch_dtype, *numbers_integral, *numbers_real;
  bool found;
  if (PyDict_GET_SIZE(tpy_opaque_ptr_handlers) != 0) {
    PyObject* handler = PyDict_GetItemWithError(tpy_opaque_ptr_handlers, (PyObject*)Py_TYPE(obj));
    if (handler != NULL) {
      PyObject* addr = PyObject_CallOneArg(handler, obj);
      void* p = addr != NULL && addr != Py_None ? PyLong_AsVoidPtr(addr) : NULL;
      Py_XDECREF(addr);
      if (addr == NULL || (p == NULL && PyErr_Occurred())) return -1;
      out->type_index = kTVMFFIOpaquePtr;
      out->v_ptr = p;
      return 0;
    }
    if (PyErr_Occurred()) return -1;
  }
  if (tpy_reject_foreign(obj) != 0) return -1;
  PyObject* r = tpy_call_protocol(obj, "__tvm_ffi_object__", &found);
  if (found) return tpy_arg_from_owned_py(r, out, temps);
  static PyObject* convertible; /* tether.core.ObjectConvertible: passes as obj.asobject() */
  PyObject* cls = tpy_loaded_class("tether.core", "ObjectConvertible", &convertible);
  if (cls != NULL && PyType_Check(cls) && PyObject_TypeCheck(obj, (PyTypeObject*)cls)) {
    return tpy_arg_from_owned_py(PyObject_CallMethod(obj, "asobject", NULL), out, temps);
  }
  cls = tpy_loaded_class("ctypes", "c_void_p", &c_void_p);
  if (cls != NULL && PyObject_TypeCheck(obj, (PyTypeObject*)cls)) {
    PyObject* v = PyObject_GetAttrString(obj, "value");
    if (v == NULL) return -1;
    void* p = v == Py_None ? NULL : PyLong_AsVoidPtr(v);
    Py_DECREF(v);
    if (p == NULL && PyErr_Occurred()) return -1;
    out->type_index = kTVMFFIOpaquePtr;
    out->v_ptr = p;
    return 0;
  }
  r = tpy_call_protocol(obj, "__tvm_ffi_opaque_ptr__", &found);
  if (found) {
    if (r == NULL) return -1;
    void* p = r == Py_None ? NULL : PyLong_AsVoidPtr(r);
    Py_DECREF(r);
    if (p == NULL && PyErr_Occurred()) return -1;
    out->type_index = kTVMFFIOpaquePtr;
    out->v_ptr = p;
    return 0;
  }
  r = tpy_call_protocol(obj, "__cuda_stream__", &found);
  if (found) { /* (version or device, stream handle): the stream travels as a pointer */
    PyObject* handle = r != NULL && PyTuple_Check(r) && PyTuple_GET_SIZE(r) == 2
                           ? PyTuple_GET_ITEM(r, 1) : NULL;
    void* p = handle != NULL && handle != Py_None ? PyLong_AsVoidPtr(handle) : NULL;
    if (r != NULL && handle == NULL) {
      PyErr_Format(PyExc_TypeError, "__cuda_stream__ of %.200s must return a 2-tuple, got %.200s",
                   Py_TYPE(obj)->tp_name, Py_TYPE(r)->tp_name);
    }
    Py_XDECREF(r);
    if (PyErr_Occurred()) return -1;
    out->type_index = kTVMFFIOpaquePtr;
    out->v_ptr = p;
    return 0;
  }
  if (PyExceptionInstance_Check(obj)) {
    TVMFFIObject* err = NULL;
    if (tpy_error_from_exception(obj, &err) != 0) return -1;
    return tpy_push_object(err, out, temps);
  }
  if (PyCallable_Check(obj) && !PyType_Check(obj)) {
    TVMFFIObject* f = NULL;
    if (tpy_function_from_callable(obj, &f) != 0) return -1;
    return tpy_push_object(f, out, temps);
  }
  cls = tpy_loaded_class("numpy", "dtype", &np_dtype);
  PyObject* tcls = tpy_loaded_class("torch", "dtype", &torch_dtype);
  if ((cls != NULL && PyObject_TypeCheck(obj, (PyTypeObject*)cls)) ||
      (tcls != NULL && PyObject_TypeCheck(obj, (PyTypeObject*)tcls))) {
    PyObject* dt = PyObject_CallOneArg((PyObject*)&TpyDType_Type, obj);
    if (dt == NULL) return -1;
    out->type_index = kTVMFFIDataType;
    out->v_dtype = ((TpyDType*)dt)->dtype;
    Py_DECREF(dt);
    return 0;
  }
  if (PyCallable_Check(obj)) { /* a class: callable, becomes a Function */
    TVMFFIObject* f = NULL;
    if (tpy_function_from_callable(obj, &f) != 0) return -1;
    return tpy_push_object(f, out, temps);
  }
  r = tpy_call_protocol(obj, "__dlpack_data_type__", &found);
  if (found) {
    int rc = r ? tpy_dtype_from_tuple(r, out) : -1;
    Py_XDECREF(r);
    return rc;
  }
  {
    PyObject* key = PyUnicode_InternFromString("__dlpack__");
    bool has_dlpack = key && _PyType_Lookup(Py_TYPE(obj), key) != NULL;
    Py_XDECREF(key);
    if (!has_dlpack) {
      r = tpy_call_protocol(obj, "__dlpack_device__", &found);
      if (found) {
        int type = 0, index = 0;
        int ok = r && PyArg_ParseTuple(r, "ii;__dlpack_device__ must return (type, index)", &type, &index);
        Py_XDECREF(r);
        if (!ok) return -1;
        out->type_index = kTVMFFIDevice;
        out->v_device.device_type = (DLDeviceType)type;
        out->v_device.device_id = index;
        return 0;
      }
    }
  }
  r = tpy_call_protocol(obj, "__tvm_ffi_int__", &found);
  if (found) {
    int rc = r ? tpy_int_arg(r, out, temps) : -1;
    Py_XDECREF(r);
    return rc;
  }
  r = tpy_call_protocol(obj, "__tvm_ffi_float__", &found);
  if (found) {
    double d = r ? PyFloat_AsDouble(r) : -1.0;
    Py_XDECREF(r);
    if (r == NULL || (d == -1.0 && PyErr_Occurred())) return -1;
    out->type_index = kTVMFFIFloat;
    out->v_float64 = d;
    return 0;
  }
  r = tpy_call_protocol(obj, "__tvm_ffi_value__", &found);
  if (found) {
    if (r == NULL) return -1;
    if (tpy_enter_nested(" while converting __tvm_ffi_value__") != 0) {
      Py_DECREF(r);
      return -1;
    }
    int rc = tpy_arg_from_owned_py(r, out, temps);
    tpy_leave_nested();
    return rc;
  }
  cls = tpy_loaded_class("numbers", "Integral", &numbers_integral);
  if (cls != NULL) {
    int is = PyObject_IsInstance(obj, cls);
    if (is < 0) return -1;
    if (is) {
      PyObject* i = PyNumber_Index(obj);
      int rc = i ? tpy_int_arg(i, out, temps) : -1;
      Py_XDECREF(i);
      return rc;
    }
  }
  cls = tpy_loaded_class("numbers", "Real", &numbers_real);
  if (cls != NULL) {
    int is = PyObject_IsInstance(obj, cls);
    if (is < 0) return -1;
    if (is) {
      double d = PyFloat_AsDouble(obj);
      if (d == -1.0 && PyErr_Occurred()) return -1;
      out->type_index = kTVMFFIFloat;
      out->v_float64 = d;
      return 0;
    }
  }
  return tpy_opaque_arg(obj, out, temps);
}

int tpy_arg_from_py(PyObject* obj, TVMFFIAny* out, tpy_temps* temps) {
  PyTypeObject* t = Py_TYPE(obj);
  out->zero_padding = 0;
  out->v_int64 = 0;
  if (obj == Py_None) {
    out->type_index = kTVMFFINone;
    return 0;
  }
  if (t == &PyBool_Type) {
    out->type_index = kTVMFFIBool;
    out->v_int64 = obj == Py_True;
    return 0;
  }
  if (t == &PyLong_Type) return tpy_int_arg(obj, out, temps);
  if (t == &PyFloat_Type) {
    out->type_index = kTVMFFIFloat;
    out->v_float64 = PyFloat_AS_DOUBLE(obj);
    return 0;
  }
  if (t == &PyUnicode_Type) return tpy_str_arg(obj, out, temps);
  if (t == &PyTuple_Type || t == &PyList_Type) return tpy_seq_arg(obj, out, temps);
  /* An FFI object of the usual metaclass (one compare), before the tensor check so that
   * object-heavy callers (convert(), callback results) never touch its per-type cache. */
  if (Py_TYPE(t) == &TpyObjectMeta_Type && ((TpyObject*)obj)->handle != NULL) {
    TVMFFIObject* h = ((TpyObject*)obj)->handle;
    out->type_index = h->type_index;
    out->v_obj = h;
    if (tpy_is_container_index(h->type_index)) tpy_note_container_arg(obj, temps);
    return 0;
  }
  /* Tensors next: numpy arrays and torch tensors are the common non-builtin arguments, and
   * the per-type cache answers "not a tensor" cheaply for everything else. */
  if (tpy_tensor_arg_from_py != NULL) {
    int r = tpy_tensor_arg_from_py(obj, out, temps);
    if (r != 0) return r > 0 ? 0 : -1;
  }
  if (tpy_is_object(obj)) {
    TVMFFIObject* h = ((TpyObject*)obj)->handle;
    if (h == NULL) {
      PyErr_Format(PyExc_ValueError, "cannot pass a %.200s without a handle (was it moved?)",
                   t->tp_name);
      return -1;
    }
    out->type_index = h->type_index;
    out->v_obj = h;
    if (tpy_is_container_index(h->type_index)) tpy_note_container_arg(obj, temps);
    return 0;
  }
  if (t == &TpyRValueRef_Type) {
    TpyObject* target = (TpyObject*)((TpyRValueRef*)obj)->obj;
    if (target->handle == NULL) {
      PyErr_SetString(PyExc_ValueError, "the object of this rvalue reference was already moved");
      return -1;
    }
    out->type_index = kTVMFFIObjectRValueRef;
    out->v_ptr = &target->handle;
    return 0;
  }
  if (PyObject_TypeCheck(obj, &TpyDType_Type)) {
    out->type_index = kTVMFFIDataType;
    out->v_dtype = ((TpyDType*)obj)->dtype;
    return 0;
  }
  if (PyObject_TypeCheck(obj, &TpyDevice_Type)) {
    out->type_index = kTVMFFIDevice;
    out->v_device = ((TpyDevice*)obj)->device;
    return 0;
  }
  if (t == &TpyString_Type || t == &TpyBytes_Type || PyObject_TypeCheck(obj, &TpyShape_Type)) {
    /* The FFI object the value came from (made now for a Shape that has none). */
    TVMFFIObject* h = tpy_value_cached_object(obj);
    if (h != NULL) {
      out->type_index = h->type_index;
      out->v_obj = h;
      return 0;
    }
    if (PyErr_Occurred()) return -1;
  }
  if (PyUnicode_Check(obj)) return tpy_str_arg(obj, out, temps);
  if (PyBytes_Check(obj)) return tpy_bytes_arg(PyBytes_AS_STRING(obj), PyBytes_GET_SIZE(obj), out, temps);
  if (PyByteArray_Check(obj)) {
    return tpy_bytes_arg(PyByteArray_AS_STRING(obj), PyByteArray_GET_SIZE(obj), out, temps);
  }
  if (PyLong_Check(obj)) return tpy_int_arg(obj, out, temps);
  if (PyFloat_Check(obj)) {
    out->type_index = kTVMFFIFloat;
    out->v_float64 = PyFloat_AS_DOUBLE(obj);
    return 0;
  }
  if (PyTuple_Check(obj) || PyList_Check(obj)) return tpy_seq_arg(obj, out, temps);
  if (PyDict_Check(obj)) return tpy_dict_arg(obj, out, temps);
  return tpy_arg_protocols(obj, out, temps);
}

int tpy_to_owned_any(PyObject* obj, TVMFFIAny* out) {
  tpy_temps temps;
  tpy_temps_init(&temps);
  TVMFFIAny view;
  int rc = tpy_arg_from_py(obj, &view, &temps);
  if (rc == 0 && TVMFFIAnyViewToOwnedAny(&view, out) != 0) {
    tpy_raise_ffi_error();
    rc = -1;
  }
  tpy_temps_release(&temps);
  return rc;
}

/* ---- Any -> Python ------------------------------------------------------------------------- */

/* The deleter of the DLManagedTensor shell tpy_tensor_from_dltensor hands to a Tensor. */
static void tpy_dltensor_view_deleter(DLManagedTensor* self) { PyMem_RawFree(self); }

/* true if `index` (>= 64) names a registered object type: the static ones always, a
 * dynamic one once its class is known or the type table has it. */
static inline bool tpy_type_index_known(int32_t index) {
  if (index < kTVMFFIStaticObjectEnd) return true;
  if (index < tpy_class_table_size && tpy_class_table[index] != NULL) return true;
  return strcmp(tether_type_key(index), "<unknown>") != 0;
}

PyObject* tpy_void_p(void* p) {
  static PyObject* c_void_p = NULL;
  if (c_void_p == NULL) {
    PyObject* ctypes = PyImport_ImportModule("ctypes");
    if (ctypes == NULL) return NULL;
    c_void_p = PyObject_GetAttrString(ctypes, "c_void_p");
    Py_DECREF(ctypes);
    if (c_void_p == NULL) return NULL;
  }
  if (p == NULL) return PyObject_CallNoArgs(c_void_p);
  PyObject* addr = PyLong_FromVoidPtr(p);
  if (addr == NULL) return NULL;
  PyObject* r = PyObject_CallOneArg(c_void_p, addr);
  Py_DECREF(addr);
  return r;
}

/* Consumes `obj`. */
static PyObject* tpy_object_from_steal(TVMFFIObject* obj) {
  PyObject* r;
  switch (obj->type_index) {
    case kTVMFFIStr:
    case kTVMFFIBytes:
    case kTVMFFIShape:
      return tpy_value_from_object_steal(obj);
    case kTVMFFIOpaquePyObject:
      r = Py_NewRef((PyObject*)TPY_CELL(TVMFFIOpaqueObjectCell, obj)->handle);
      break;
    case kTVMFFIBigInt:
      r = tpy_long_from_bigint(obj);
      break;
    case kTVMFFIFunction:
      return tpy_function_wrap_steal(obj);
    case kTVMFFITensor:
      if (tpy_tensor_wrap_steal != NULL) return tpy_tensor_wrap_steal(obj);
      return tpy_object_wrap_steal(obj);
    default:
      return tpy_object_wrap_steal(obj);
  }
  TVMFFIObjectDecRef(obj);
  return r;
}

/* A Tensor viewing the DLTensor `dl` (borrowed: its shape and strides are copied, its
 * data is not, so the Tensor is valid while the caller keeps the data alive -- during a
 * callback, as under tvm_ffi).  New reference or NULL. */
static PyObject* tpy_tensor_from_dltensor(const DLTensor* dl) {
  if (dl == NULL) {
    PyErr_SetString(PyExc_ValueError, "cannot convert a NULL DLTensor* to a Tensor");
    return NULL;
  }
  DLManagedTensor* managed = PyMem_RawMalloc(sizeof(DLManagedTensor));
  if (managed == NULL) return PyErr_NoMemory();
  managed->dl_tensor = *dl;
  managed->manager_ctx = NULL;
  managed->deleter = tpy_dltensor_view_deleter;
  TVMFFIObjectHandle tensor = NULL;
  if (TVMFFITensorFromDLPack(managed, 0, 0, &tensor) != 0) {
    PyMem_RawFree(managed); /* not taken over on failure */
    return tpy_raise_ffi_error();
  }
  if (tpy_tensor_wrap_steal != NULL) return tpy_tensor_wrap_steal(tensor);
  return tpy_object_wrap_steal(tensor);
}

/* The TypeError for a value whose type index names no type this side can convert. */
static PyObject* tpy_bad_index(int32_t index, const char* why) {
  PyErr_Format(PyExc_TypeError, "cannot convert a value with type index %d to Python: %s",
               (int)index, why);
  return NULL;
}

PyObject* tpy_from_any_steal(TVMFFIAny* v) {
  TVMFFIAny x = *v;
  v->type_index = kTVMFFINone;
  v->zero_padding = 0;
  v->v_int64 = 0;
  switch (x.type_index) {
    case kTVMFFINone:
      Py_RETURN_NONE;
    case kTVMFFIInt:
      return PyLong_FromLongLong(x.v_int64);
    case kTVMFFIBool:
      return PyBool_FromLong(x.v_int64 != 0);
    case kTVMFFIFloat:
      return PyFloat_FromDouble(x.v_float64);
    case kTVMFFIOpaquePtr:
      return tpy_void_p(x.v_ptr);
    case kTVMFFIDataType:
      return tpy_dtype_wrap(x.v_dtype);
    case kTVMFFIDevice:
      return tpy_device_wrap(x.v_device);
    case kTVMFFISmallStr:
    case kTVMFFISmallBytes:
      if (x.small_str_len > 7) return tpy_bad_index(x.type_index, "a length beyond 7 bytes");
      if (x.type_index == kTVMFFISmallBytes) {
        return PyBytes_FromStringAndSize(x.v_bytes, (Py_ssize_t)x.small_str_len);
      }
      return PyUnicode_DecodeUTF8(x.v_bytes, (Py_ssize_t)x.small_str_len, "replace");
    case kTVMFFIRawStr:
      if (x.v_c_str == NULL) return tpy_bad_index(x.type_index, "a `const char*` holding NULL");
      return PyUnicode_DecodeUTF8(x.v_c_str, (Py_ssize_t)strlen(x.v_c_str), "replace");
    case kTVMFFIDLTensorPtr:
      return tpy_tensor_from_dltensor(x.v_ptr);
    default:
      break;
  }
  if (x.type_index >= kTVMFFIStaticObjectBegin) {
    /* Without a registered type the pointer is not trusted as an object: not released. */
    if (x.v_obj == NULL) return tpy_bad_index(x.type_index, "the object pointer is NULL");
    if (!tpy_type_index_known(x.type_index)) return tpy_bad_index(x.type_index, "no such type");
    return tpy_object_from_steal(x.v_obj);
  }
  if (x.type_index < 0 || x.type_index > kTVMFFISmallBytes) {
    return tpy_bad_index(x.type_index, "no such type");
  }
  PyErr_Format(PyExc_ValueError, "cannot convert a value of type `%s` to Python",
               tether_any_type_key(&x));
  return NULL;
}

PyObject* tpy_from_any_view(const TVMFFIAny* v) {
  if (v->type_index >= kTVMFFIStaticObjectBegin) {
    if (v->v_obj == NULL) return tpy_bad_index(v->type_index, "the object pointer is NULL");
    if (!tpy_type_index_known(v->type_index)) return tpy_bad_index(v->type_index, "no such type");
    TVMFFIObjectIncRef(v->v_obj);
    return tpy_object_from_steal(v->v_obj);
  }
  switch (v->type_index) {
    case kTVMFFIByteArrayPtr: {
      const TVMFFIByteArray* b = v->v_ptr;
      if (b == NULL || (b->data == NULL && b->size != 0) || b->size > PY_SSIZE_T_MAX) {
        return tpy_bad_index(v->type_index, "a malformed `TVMFFIByteArray*`");
      }
      return PyBytes_FromStringAndSize(b->data, (Py_ssize_t)b->size);
    }
    case kTVMFFIObjectRValueRef: {
      TVMFFIObject** slot = v->v_ptr;
      if (slot == NULL) return tpy_bad_index(v->type_index, "an ObjectRValueRef without a slot");
      TVMFFIObject* obj = *slot;
      if (obj == NULL) {
        PyErr_SetString(PyExc_ValueError, "RValueRef already moved");
        return NULL;
      }
      *slot = NULL;
      return tpy_object_from_steal(obj);
    }
    default: {
      TVMFFIAny copy = *v;
      return tpy_from_any_steal(&copy);
    }
  }
}

int tpy_convert_init(PyObject* module) {
  tpy_opaque_ptr_handlers = PyDict_New();
  if (tpy_opaque_ptr_handlers == NULL ||
      PyModule_AddObjectRef(module, "_OPAQUE_PTR_HANDLERS", tpy_opaque_ptr_handlers) != 0) {
    return -1;
  }
  static const char* names[2] = {"ffi.GetInvalidObject", "ffi.GetKwargsObject"};
  static const char* attrs[2] = {"MISSING", "KWARGS"};
  TVMFFIObject** slots[2] = {&tpy_missing_handle, &tpy_kwargs_handle};
  for (int i = 0; i < 2; ++i) {
    TVMFFIByteArray name = tpy_bytes_of(names[i]);
    TVMFFIObjectHandle f = NULL;
    if (TVMFFIFunctionGetGlobal(&name, &f) != 0) {
      tpy_raise_ffi_error();
      return -1;
    }
    if (f == NULL) {
      PyErr_Format(PyExc_ImportError, "tether.core needs the global function %s", names[i]);
      return -1;
    }
    TVMFFIAny result = tether_any_none();
    int rc = TVMFFIFunctionCall(f, NULL, 0, &result);
    TVMFFIObjectDecRef(f);
    if (rc != 0) {
      tpy_raise_ffi_error();
      return -1;
    }
    if (result.type_index < kTVMFFIStaticObjectBegin) {
      PyErr_Format(PyExc_ImportError, "%s did not return an object", names[i]);
      return -1;
    }
    *slots[i] = result.v_obj; /* owned for the life of the process */
    TVMFFIObjectIncRef(result.v_obj);
    PyObject* obj = tpy_object_wrap_as(&TpyObject_Type, result.v_obj);
    if (obj == NULL || PyModule_AddObject(module, attrs[i], obj) != 0) {
      Py_XDECREF(obj);
      return -1;
    }
  }
  return 0;
}
