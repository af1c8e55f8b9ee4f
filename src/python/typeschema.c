/*
 * typeschema.c -- `CAny`, `_to_py_class_value` and `_TypeConverter`: converting a Python
 * value to the FFI value a TypeSchema describes (see typeschema.h).
 *
 * A converter is one dispatch function plus what it needs: the element converters of a
 * container, the alternatives of a Union, the target type index of an object schema.
 * Every dispatch function writes an owning TVMFFIAny and sets *changed when the result
 * is not the value itself packed as it is (an int for a float schema, a list rebuilt as
 * an Array, ...).  A mismatch raises the private `_ConvertError`; the Union dispatcher
 * catches it to try the next alternative, and the entry points turn it into the
 * TypeError users see.  Other Python errors pass through untouched.
 */
#include "typeschema.h"

#include "convert.h"
#include "error.h"
#include "function.h"
#include "object.h"
#include "tensor.h"
#include "value.h"

#pragma weak TpyTensor_Type

/* Int64 bounds as users see them in the out-of-range message. */
#define TSC_INT64_RANGE "[-9223372036854775808, 9223372036854775807]"
/* How many __tvm_ffi_value__ / __tvm_ffi_object__ steps one conversion may follow. */
#define TSC_PROTOCOL_MAX_DEPTH 64

typedef struct TpyTypeConverter TpyTypeConverter;
typedef int (*tsc_dispatch_fn)(TpyTypeConverter* c, PyObject* value, TVMFFIAny* out,
                               bool* changed);

/* Invariant: `subs` is NULL or a tuple whose items are converters or None (an element
 * schema of Any, which accepts the element as it is). */
struct TpyTypeConverter {
  PyObject_HEAD
  tsc_dispatch_fn dispatch;
  int32_t type_index;       /* object schemas: the target type; containers: its index */
  bool fn_convert_ready;    /* fn_convert was looked up */
  TVMFFIObject* fn_convert; /* owned: the target type's __ffi_convert__, or NULL */
  PyObject* subs;           /* owned tuple or NULL */
  PyObject* hint;           /* owned str: what "expected ..." names */
  PyObject* schema_repr;    /* owned str: the schema as error messages show it */
};

typedef struct {
  PyObject_HEAD
  TVMFFIAny value; /* owned */
} TpyCAny;

static PyObject* tsc_convert_error; /* the private _ConvertError class */
/* Classes looked up once at init (owned). */
static PyObject *tsc_integral, *tsc_real, *tsc_mapping, *tsc_c_void_p;
/* Interned attribute names. */
static PyObject *tsc_s_tvm_int, *tsc_s_tvm_float, *tsc_s_dlpack, *tsc_s_dlpack_device,
    *tsc_s_dlpack_dtype, *tsc_s_dlpack_c_api, *tsc_s_opaque_ptr, *tsc_s_cuda_stream,
    *tsc_s_tvm_object, *tsc_s_tvm_value, *tsc_s_asobject, *tsc_s_indexes;

/* ---- small helpers ----------------------------------------------------------------------- */

static inline void tsc_set_none(TVMFFIAny* out) {
  out->type_index = kTVMFFINone;
  out->zero_padding = 0;
  out->v_int64 = 0;
}

static inline void tsc_set_int(TVMFFIAny* out, int32_t index, int64_t v) {
  out->type_index = index;
  out->zero_padding = 0;
  out->v_int64 = v;
}

static inline void tsc_set_float(TVMFFIAny* out, double v) {
  out->type_index = kTVMFFIFloat;
  out->zero_padding = 0;
  out->v_float64 = v;
}

/* true if type(value) defines `name` (an interned str). */
static inline bool tsc_type_has(PyObject* value, PyObject* name) {
  return _PyType_Lookup(Py_TYPE(value), name) != NULL;
}

/* The handle of an FFI object, or NULL for anything else (or a moved-out object). */
static inline TVMFFIObject* tsc_handle(PyObject* value) {
  return tpy_is_object(value) ? ((TpyObject*)value)->handle : NULL;
}

/* true if `actual` is `target` or derives from it. */
static bool tsc_index_is_instance(int32_t actual, int32_t target) {
  if (actual == target) return true;
  const TVMFFITypeInfo* a = TVMFFIGetTypeInfo(actual);
  const TVMFFITypeInfo* t = a != NULL ? TVMFFIGetTypeInfo(target) : NULL;
  if (t == NULL || a->type_depth <= t->type_depth) return false;
  return a->type_ancestors[t->type_depth]->type_index == target;
}

/* isinstance(value, cls) for a possibly-NULL cls: 1, 0 or -1. */
static inline int tsc_isinstance(PyObject* value, PyObject* cls) {
  return cls == NULL ? 0 : PyObject_IsInstance(value, cls);
}

/* How error messages name the type of `value`.  New reference or NULL. */
static PyObject* tsc_describe(PyObject* value) {
  const char* s = NULL;
  if (value == Py_None) s = "None";
  else if (PyBool_Check(value)) s = "bool";
  else if (PyLong_Check(value)) s = "int";
  else if (PyFloat_Check(value)) s = "float";
  else if (PyUnicode_Check(value)) s = "str";
  else if (PyBytes_Check(value) || PyByteArray_Check(value)) s = "bytes";
  if (s != NULL) return PyUnicode_FromString(s);
  TVMFFIObject* h = tsc_handle(value);
  if (h != NULL) return PyUnicode_FromString(tether_type_key(h->type_index));
  return PyObject_GetAttrString((PyObject*)Py_TYPE(value), "__qualname__");
}

/* Raises _ConvertError(msg); steals `msg` (NULL: the error already set stays).  -1. */
static int tsc_fail(PyObject* msg) {
  if (msg != NULL) {
    PyErr_SetObject(tsc_convert_error, msg);
    Py_DECREF(msg);
  }
  return -1;
}

/* _ConvertError("expected <hint>, got <type of value>").  -1. */
static int tsc_fail_expected(PyObject* hint, PyObject* value) {
  PyObject* d = tsc_describe(value);
  if (d == NULL) return -1;
  PyObject* msg = PyUnicode_FromFormat("expected %U, got %U", hint, d);
  Py_DECREF(d);
  return tsc_fail(msg);
}

/* The text of the pending exception, which is cleared.  New reference or NULL. */
static PyObject* tsc_take_error_text(void) {
  PyObject *type, *val, *tb;
  PyErr_Fetch(&type, &val, &tb);
  PyErr_NormalizeException(&type, &val, &tb);
  PyObject* text = val != NULL ? PyObject_Str(val) : PyUnicode_FromString("");
  Py_XDECREF(type);
  Py_XDECREF(val);
  Py_XDECREF(tb);
  return text;
}

/* Replaces the pending error (unless it is a _ConvertError) with
 * _ConvertError("<prefix><sep><text of the error>").  Steals `prefix`.  -1. */
static int tsc_wrap_error(PyObject* prefix, const char* sep) {
  if (prefix == NULL) return -1;
  if (PyErr_ExceptionMatches(tsc_convert_error)) {
    Py_DECREF(prefix);
    return -1;
  }
  PyObject* text = tsc_take_error_text();
  PyObject* msg = text != NULL ? PyUnicode_FromFormat("%U%s%U", prefix, sep, text) : NULL;
  Py_XDECREF(text);
  Py_DECREF(prefix);
  return tsc_fail(msg);
}

/* Packs `value` as a call argument would be, into the owning *out; a failure becomes
 * _ConvertError("expected <expected>, got <type of original>: <error>"). */
static int tsc_pack(PyObject* value, PyObject* expected, PyObject* original, TVMFFIAny* out) {
  if (tpy_to_owned_any(value, out) == 0) return 0;
  PyObject* d = tsc_describe(original);
  if (d == NULL) return -1;
  PyObject* prefix = PyUnicode_FromFormat("expected %U, got %U", expected, d);
  Py_DECREF(d);
  return tsc_wrap_error(prefix, ": ");
}

/* The value itself as an owning Any (no error rewriting). */
static inline int tsc_own(PyObject* value, TVMFFIAny* out) { return tpy_to_owned_any(value, out); }

/* An int in int64 range into *v; out of range: the _ConvertError users see. */
static int tsc_int64_of(PyObject* ivalue, int64_t* v) {
  int overflow = 0;
  *v = PyLong_AsLongLongAndOverflow(ivalue, &overflow);
  if (*v == -1 && PyErr_Occurred()) return -1;
  if (overflow != 0) {
    return tsc_fail(PyUnicode_FromFormat("integer %S out of int64 range " TSC_INT64_RANGE, ivalue));
  }
  return 0;
}

/* `fn(value)` for int()/float()/bool() coercions; a failure becomes
 * _ConvertError("<fn>() failed for <qualname>: <error>").  New reference or NULL. */
static PyObject* tsc_coerce(PyObject* value, PyObject* (*fn)(PyObject*), const char* fname) {
  PyObject* r = fn(value);
  if (r != NULL) return r;
  PyObject* q = PyObject_GetAttrString((PyObject*)Py_TYPE(value), "__qualname__");
  tsc_wrap_error(q != NULL ? PyUnicode_FromFormat("%s() failed for %U", fname, q) : NULL, ": ");
  Py_XDECREF(q);
  return NULL;
}

static PyObject* tsc_bool_of(PyObject* value) {
  int t = PyObject_IsTrue(value);
  return t < 0 ? NULL : PyBool_FromLong(t);
}

/* ---- scalar converters ------------------------------------------------------------------- */

/* The last resort of a scalar schema: a value whose type defines the protocol `name` is
 * packed (the protocol gives its FFI value); anything else does not match. */
static int tsc_by_protocol(TpyTypeConverter* c, PyObject* value, PyObject* name, TVMFFIAny* out,
                           bool* changed) {
  if (!tsc_type_has(value, name)) return tsc_fail_expected(c->hint, value);
  *changed = true;
  return tsc_pack(value, c->hint, value, out);
}

static int tsc_conv_any(TpyTypeConverter* c, PyObject* value, TVMFFIAny* out, bool* changed) {
  if (tsc_pack(value, c->hint, value, out) != 0) return -1;
  /* Values that cross as themselves; anything else (a list, a callable, an arbitrary
   * object) is rebuilt into an FFI value. */
  bool native = value == Py_None || PyBool_Check(value) || PyLong_Check(value) ||
                PyFloat_Check(value) || PyObject_TypeCheck(value, &TpyString_Type) ||
                PyObject_TypeCheck(value, &TpyBytes_Type) ||
                PyObject_TypeCheck(value, &TpyDType_Type) ||
                PyObject_TypeCheck(value, &TpyDevice_Type) || tsc_handle(value) != NULL ||
                (tsc_c_void_p != NULL && PyObject_TypeCheck(value, (PyTypeObject*)tsc_c_void_p));
  if (!native) *changed = true;
  return 0;
}

static int tsc_conv_none(TpyTypeConverter* c, PyObject* value, TVMFFIAny* out, bool* changed) {
  if (value != Py_None) return tsc_fail_expected(c->hint, value);
  tsc_set_none(out);
  return 0;
}

static int tsc_conv_int(TpyTypeConverter* c, PyObject* value, TVMFFIAny* out, bool* changed) {
  int64_t v;
  if (PyBool_Check(value)) {
    *changed = true;
    tsc_set_int(out, kTVMFFIInt, value == Py_True);
    return 0;
  }
  if (PyLong_Check(value)) {
    if (tsc_int64_of(value, &v) != 0) return -1;
    tsc_set_int(out, kTVMFFIInt, v);
    return 0;
  }
  int is = tsc_isinstance(value, tsc_integral);
  if (is < 0) return -1;
  if (is) {
    PyObject* i = tsc_coerce(value, PyNumber_Long, "int");
    if (i == NULL) return -1;
    int rc = tsc_int64_of(i, &v);
    Py_DECREF(i);
    if (rc != 0) return -1;
    *changed = true;
    tsc_set_int(out, kTVMFFIInt, v);
    return 0;
  }
  return tsc_by_protocol(c, value, tsc_s_tvm_int, out, changed);
}

static int tsc_conv_float(TpyTypeConverter* c, PyObject* value, TVMFFIAny* out, bool* changed) {
  if (PyFloat_Check(value)) {
    tsc_set_float(out, PyFloat_AS_DOUBLE(value));
    return 0;
  }
  int is = PyLong_Check(value);
  if (!is) is = tsc_isinstance(value, tsc_integral);
  if (is == 0) is = tsc_isinstance(value, tsc_real);
  if (is < 0) return -1;
  if (is) {
    PyObject* f = PyLong_Check(value) ? PyNumber_Float(value)
                                      : tsc_coerce(value, PyNumber_Float, "float");
    if (f == NULL) return -1;
    *changed = true;
    tsc_set_float(out, PyFloat_AS_DOUBLE(f));
    Py_DECREF(f);
    return 0;
  }
  return tsc_by_protocol(c, value, tsc_s_tvm_float, out, changed);
}

static int tsc_conv_bool(TpyTypeConverter* c, PyObject* value, TVMFFIAny* out, bool* changed) {
  if (PyBool_Check(value)) {
    tsc_set_int(out, kTVMFFIBool, value == Py_True);
    return 0;
  }
  int is = PyLong_Check(value) ? 1 : tsc_isinstance(value, tsc_integral);
  if (is < 0) return -1;
  if (!is) return tsc_fail_expected(c->hint, value);
  PyObject* b = tsc_coerce(value, tsc_bool_of, "bool");
  if (b == NULL) return -1;
  *changed = true;
  tsc_set_int(out, kTVMFFIBool, b == Py_True);
  Py_DECREF(b);
  return 0;
}

static int tsc_conv_str(TpyTypeConverter* c, PyObject* value, TVMFFIAny* out, bool* changed) {
  if (!PyUnicode_Check(value)) return tsc_fail_expected(c->hint, value);
  if (!PyObject_TypeCheck(value, &TpyString_Type)) *changed = true;
  return tsc_own(value, out);
}

static int tsc_conv_bytes(TpyTypeConverter* c, PyObject* value, TVMFFIAny* out, bool* changed) {
  if (PyBytes_Check(value)) {
    if (!PyObject_TypeCheck(value, &TpyBytes_Type)) *changed = true;
    return tsc_own(value, out);
  }
  if (PyByteArray_Check(value)) {
    *changed = true;
    PyObject* b = PyBytes_FromObject(value);
    if (b == NULL) return -1;
    int rc = tsc_own(b, out);
    Py_DECREF(b);
    return rc;
  }
  return tsc_fail_expected(c->hint, value);
}

static int tsc_conv_device(TpyTypeConverter* c, PyObject* value, TVMFFIAny* out, bool* changed) {
  if (PyObject_TypeCheck(value, &TpyDevice_Type)) {
    out->type_index = kTVMFFIDevice;
    out->zero_padding = 0;
    out->v_int64 = 0;
    out->v_device = ((TpyDevice*)value)->device;
    return 0;
  }
  if (PyUnicode_Check(value)) {
    DLDevice d;
    if (tpy_device_parse(value, &d) != 0) {
      PyErr_Clear();
      return tsc_fail(PyUnicode_FromFormat("expected Device, got invalid device string %R", value));
    }
    *changed = true;
    out->type_index = kTVMFFIDevice;
    out->zero_padding = 0;
    out->v_int64 = 0;
    out->v_device = d;
    return 0;
  }
  if (tsc_type_has(value, tsc_s_dlpack_device) && !tsc_type_has(value, tsc_s_dlpack)) {
    *changed = true;
    return tsc_pack(value, c->hint, value, out);
  }
  return tsc_fail_expected(c->hint, value);
}

static int tsc_conv_dtype(TpyTypeConverter* c, PyObject* value, TVMFFIAny* out, bool* changed) {
  static PyObject *np_dtype, *torch_dtype;
  if (PyObject_TypeCheck(value, &TpyDType_Type)) return tsc_own(value, out);
  if (PyUnicode_Check(value)) {
    PyObject* dt = PyObject_CallOneArg((PyObject*)&TpyDType_Type, value);
    if (dt == NULL) {
      PyErr_Clear();
      return tsc_fail(PyUnicode_FromFormat("expected dtype, got invalid dtype string %R", value));
    }
    *changed = true;
    int rc = tsc_own(dt, out);
    Py_DECREF(dt);
    return rc;
  }
  PyObject* t = tpy_loaded_class("torch", "dtype", &torch_dtype);
  PyObject* n = tpy_loaded_class("numpy", "dtype", &np_dtype);
  int is = tsc_isinstance(value, t);
  if (is == 0) is = tsc_isinstance(value, n);
  if (is < 0) return -1;
  if (is || PyObject_HasAttr(value, tsc_s_dlpack_dtype)) {
    *changed = true;
    return tsc_pack(value, c->hint, value, out);
  }
  return tsc_fail_expected(c->hint, value);
}

static int tsc_conv_opaque_ptr(TpyTypeConverter* c, PyObject* value, TVMFFIAny* out,
                               bool* changed) {
  if (tsc_c_void_p != NULL && PyObject_TypeCheck(value, (PyTypeObject*)tsc_c_void_p)) {
    return tsc_own(value, out);
  }
  if (value == Py_None) {
    *changed = true;
    out->type_index = kTVMFFIOpaquePtr;
    out->zero_padding = 0;
    out->v_ptr = NULL;
    return 0;
  }
  if (tsc_type_has(value, tsc_s_opaque_ptr) || tsc_type_has(value, tsc_s_cuda_stream) ||
      (PyDict_GET_SIZE(tpy_opaque_ptr_handlers) != 0 &&
       PyDict_Contains(tpy_opaque_ptr_handlers, (PyObject*)Py_TYPE(value)) == 1)) {
    *changed = true;
    return tsc_pack(value, c->hint, value, out);
  }
  return tsc_fail_expected(c->hint, value);
}

/* true if `value` is a tether Tensor. */
static inline bool tsc_is_tensor(PyObject* value) {
  return &TpyTensor_Type != NULL && PyObject_TypeCheck(value, &TpyTensor_Type);
}

static int tsc_conv_tensor(TpyTypeConverter* c, PyObject* value, TVMFFIAny* out, bool* changed) {
  if (tsc_is_tensor(value)) return tsc_own(value, out);
  bool ok = tsc_type_has(value, tsc_s_dlpack);
  if (!ok && tsc_type_has(value, tsc_s_dlpack_c_api)) {
    const char* skip = getenv("TVM_FFI_SKIP_DLPACK_C_EXCHANGE_API");
    ok = skip == NULL || strcmp(skip, "1") != 0;
  }
  if (!ok) return tsc_fail_expected(c->hint, value);
  *changed = true;
  return tsc_pack(value, c->hint, value, out);
}

static int tsc_conv_callable(TpyTypeConverter* c, PyObject* value, TVMFFIAny* out,
                             bool* changed) {
  TVMFFIObject* h = tsc_handle(value);
  if (h != NULL && h->type_index == kTVMFFIFunction) return tsc_own(value, out);
  if (!PyCallable_Check(value) || tpy_is_object(value)) return tsc_fail_expected(c->hint, value);
  *changed = true;
  return tsc_pack(value, c->hint, value, out);
}

/* ---- the eager protocol step and the dispatch entry ----------------------------------------- */

/* ObjectConvertible as tether.core defines it (borrowed), or NULL. */
static PyObject* tsc_object_convertible(void) {
  static PyObject* cached;
  if (cached == NULL && tpy_module != NULL) {
    cached = PyObject_GetAttrString(tpy_module, "ObjectConvertible");
    if (cached == NULL) PyErr_Clear();
  }
  return cached;
}

/* One step of unwrapping a value that stands for another (__tvm_ffi_object__,
 * __tvm_ffi_value__, ObjectConvertible.asobject()).  New reference to the next value (the
 * value itself when there is nothing to unwrap), or NULL with an error.  *stalled: the
 * value protocol failed or returned the value itself. */
static PyObject* tsc_protocol_step(PyObject* value, bool* stalled) {
  if (tpy_is_object(value) || PyObject_TypeCheck(value, &TpyRValueRef_Type) ||
      PyObject_TypeCheck(value, &TpyString_Type) || PyObject_TypeCheck(value, &TpyBytes_Type)) {
    return Py_NewRef(value);
  }
  PyTypeObject* t = Py_TYPE(value);
  if (t == &PyLong_Type || t == &PyFloat_Type || t == &PyUnicode_Type || t == &PyBool_Type ||
      value == Py_None || t == &PyList_Type || t == &PyTuple_Type || t == &PyDict_Type) {
    return Py_NewRef(value);
  }
  if (tsc_type_has(value, tsc_s_tvm_object)) {
    PyObject* r = PyObject_CallMethodNoArgs(value, tsc_s_tvm_object);
    if (r != NULL) return r;
    PyErr_Clear();
    PyObject* d = tsc_describe(value);
    if (d != NULL) tsc_fail(PyUnicode_FromFormat("__tvm_ffi_object__() failed for %U", d));
    Py_XDECREF(d);
    return NULL;
  }
  if (tsc_type_has(value, tsc_s_tvm_value)) {
    PyObject* r = PyObject_CallMethodNoArgs(value, tsc_s_tvm_value);
    if (r == NULL) {
      PyErr_Clear();
      *stalled = true;
      return Py_NewRef(value);
    }
    if (r == value) *stalled = true;
    return r;
  }
  PyObject* oc = tsc_object_convertible();
  int is = tsc_isinstance(value, oc);
  if (is < 0) return NULL;
  if (is) {
    PyObject* inner = PyObject_CallMethodNoArgs(value, tsc_s_asobject);
    PyObject* d = NULL;
    if (inner != NULL && tpy_is_object(inner)) return inner;
    if (inner == NULL) {
      PyErr_Clear();
      d = tsc_describe(value);
      if (d != NULL) tsc_fail(PyUnicode_FromFormat("asobject() failed for %U", d));
    } else {
      PyObject* di = tsc_describe(inner);
      d = di != NULL ? tsc_describe(value) : NULL;
      if (d != NULL) tsc_fail(PyUnicode_FromFormat("asobject() returned %U for %U", di, d));
      Py_XDECREF(di);
      Py_DECREF(inner);
    }
    Py_XDECREF(d);
    return NULL;
  }
  return Py_NewRef(value);
}

static int tsc_conv_optional(TpyTypeConverter* c, PyObject* value, TVMFFIAny* out, bool* changed);

/* The error of a value protocol that gave nothing usable: what the schema expected. */
static int tsc_fail_stalled(TpyTypeConverter* c, PyObject* value) {
  while (c->dispatch == tsc_conv_optional) c = (TpyTypeConverter*)PyTuple_GET_ITEM(c->subs, 0);
  if (PyUnicode_CompareWithASCIIString(c->hint, "Any") == 0) {
    PyObject* d = tsc_describe(value);
    if (d == NULL) return -1;
    PyObject* msg = PyUnicode_FromFormat("failed to convert Any from %U", d);
    Py_DECREF(d);
    return tsc_fail(msg);
  }
  return tsc_fail_expected(c->hint, value);
}

/* Unwraps `value` through its protocols, then dispatches.  *changed is reset first. */
static int tsc_dispatch(TpyTypeConverter* c, PyObject* value, TVMFFIAny* out, bool* changed) {
  PyObject* cur = Py_NewRef(value);
  bool unwrapped = false;
  for (int depth = 0;; ++depth) {
    bool stalled = false;
    PyObject* next = tsc_protocol_step(cur, &stalled);
    if (next == NULL || stalled) {
      int rc = next == NULL ? -1 : tsc_fail_stalled(c, cur);
      Py_XDECREF(next);
      Py_DECREF(cur);
      return rc;
    }
    if (next == cur) {
      Py_DECREF(next);
      break;
    }
    Py_DECREF(cur);
    cur = next;
    unwrapped = true;
    if (depth + 1 > TSC_PROTOCOL_MAX_DEPTH) {
      Py_DECREF(cur);
      return tsc_fail(PyUnicode_FromString("infinite __tvm_ffi_value__ cycle detected"));
    }
  }
  *changed = false;
  int rc = c->dispatch(c, cur, out, changed);
  if (unwrapped) *changed = true;
  Py_DECREF(cur);
  return rc;
}

/* ---- containers -------------------------------------------------------------------------- */

/* Calls the global constructor `name` with the owning values args[0..n) (released here,
 * also on failure) into the owning *out.  0, or -1 with a Python error set. */
static int tsc_build(const char* name, TVMFFIAny* args, Py_ssize_t n, TVMFFIAny* out) {
  static struct {
    const char* name;
    TVMFFIObject* fn;
  } cache[4] = {{"ffi.Array", NULL}, {"ffi.List", NULL}, {"ffi.Map", NULL}, {"ffi.Dict", NULL}};
  TVMFFIObject* fn = NULL;
  int rc = -1;
  for (int i = 0; i < 4; ++i) {
    if (strcmp(cache[i].name, name) != 0) continue;
    if (cache[i].fn == NULL) {
      TVMFFIByteArray b = tpy_bytes_of(name);
      if (TVMFFIFunctionGetGlobal(&b, (TVMFFIObjectHandle*)&cache[i].fn) != 0) {
        tpy_raise_ffi_error();
        goto done;
      }
    }
    fn = cache[i].fn;
  }
  tsc_set_none(out);
  if (TVMFFIFunctionCall(fn, args, (int32_t)n, out) != 0) {
    tpy_raise_ffi_error();
    goto done;
  }
  rc = 0;
done:
  for (Py_ssize_t i = 0; i < n; ++i) tether_any_release(&args[i]);
  return rc;
}

/* A growable array of owning values. */
typedef struct {
  TVMFFIAny* items;
  Py_ssize_t n;
} tsc_anys;

static void tsc_anys_clear(tsc_anys* a) {
  for (Py_ssize_t i = 0; i < a->n; ++i) tether_any_release(&a->items[i]);
  PyMem_Free(a->items);
  a->items = NULL;
  a->n = 0;
}

/* Element `item` converted by `sub` (NULL: kept as it is) into the owning *slot.  A
 * mismatch is prefixed with where it is: "element [<index>]" when `key` is NULL, else
 * "<what><repr of key>" (the label is made only on failure). */
static int tsc_convert_item(TpyTypeConverter* sub, PyObject* item, TVMFFIAny* slot,
                            bool* changed, Py_ssize_t index, const char* what, PyObject* key) {
  bool item_changed = false;
  int rc = sub == NULL ? tsc_own(item, slot) : tsc_dispatch(sub, item, slot, &item_changed);
  if (rc != 0) {
    if (sub != NULL && PyErr_ExceptionMatches(tsc_convert_error)) {
      PyObject* text = tsc_take_error_text();
      if (text == NULL) return -1;
      PyObject* msg = key == NULL ? PyUnicode_FromFormat("element [%zd]: %U", index, text)
                                  : PyUnicode_FromFormat("%s%R: %U", what, key, text);
      Py_DECREF(text);
      return tsc_fail(msg);
    }
    return -1;
  }
  if (item_changed) *changed = true;
  return 0;
}

/* true if `value` is a tether Array or List. */
static inline bool tsc_is_seq_object(PyObject* value, int32_t* index) {
  TVMFFIObject* h = tsc_handle(value);
  if (h == NULL || (h->type_index != kTVMFFIArray && h->type_index != kTVMFFIList)) return false;
  *index = h->type_index;
  return true;
}

/* Array[T] / List[T] (target index c->type_index) and tuple[T1, ...] (tuple_mode). */
static int tsc_conv_seq_impl(TpyTypeConverter* c, PyObject* value, TVMFFIAny* out,
                             bool* changed, bool tuple_mode) {
  int32_t index = -1;
  bool is_obj = tsc_is_seq_object(value, &index);
  const char* ctor = c->type_index == kTVMFFIList ? "ffi.List" : "ffi.Array";
  if (!is_obj && !PyList_Check(value) && !PyTuple_Check(value)) {
    return tsc_fail_expected(c->hint, value);
  }
  if (tuple_mode && c->subs == NULL) { /* bare tuple */
    if (is_obj && index == kTVMFFIArray) return tsc_own(value, out);
    *changed = true;
    PyObject* seq = PySequence_Fast(value, "expected a sequence");
    if (seq == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    tsc_anys acc = {PyMem_Calloc((size_t)(n > 0 ? n : 1), sizeof(TVMFFIAny)), 0};
    int rc = acc.items == NULL ? (PyErr_NoMemory(), -1) : 0;
    for (Py_ssize_t i = 0; rc == 0 && i < n; ++i, ++acc.n) {
      rc = tsc_pack(PySequence_Fast_GET_ITEM(seq, i), c->hint, value, &acc.items[i]);
    }
    Py_DECREF(seq);
    if (rc != 0) {
      tsc_anys_clear(&acc);
      return -1;
    }
    rc = tsc_build("ffi.Array", acc.items, acc.n, out);
    PyMem_Free(acc.items);
    return rc != 0 ? tsc_wrap_error(PyUnicode_FromString("expected tuple"), ": ") : 0;
  }
  TpyTypeConverter* elem = NULL;
  if (!tuple_mode && c->subs != NULL) elem = (TpyTypeConverter*)PyTuple_GET_ITEM(c->subs, 0);
  if (!tuple_mode && elem == NULL && is_obj && index == c->type_index) return tsc_own(value, out);
  PyObject* seq = PySequence_Fast(value, "expected a sequence");
  if (seq == NULL) return -1;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  if (tuple_mode && n != PyTuple_GET_SIZE(c->subs)) {
    Py_DECREF(seq);
    return tsc_fail(PyUnicode_FromFormat("expected tuple of length %zd, got %s of length %zd",
                                         PyTuple_GET_SIZE(c->subs),
                                         is_obj ? (index == kTVMFFIList ? "List" : "Array")
                                                : Py_TYPE(value)->tp_name,
                                         n));
  }
  tsc_anys acc = {PyMem_Calloc((size_t)(n > 0 ? n : 1), sizeof(TVMFFIAny)), 0};
  int rc = acc.items == NULL ? (PyErr_NoMemory(), -1) : 0;
  bool any_changed = false;
  for (Py_ssize_t i = 0; rc == 0 && i < n; ++i) {
    TpyTypeConverter* sub = tuple_mode ? (TpyTypeConverter*)PyTuple_GET_ITEM(c->subs, i) : elem;
    rc = tsc_convert_item(sub, PySequence_Fast_GET_ITEM(seq, i), &acc.items[i], &any_changed,
                          i, NULL, NULL);
    if (rc == 0) ++acc.n;
  }
  Py_DECREF(seq);
  if (rc != 0) {
    tsc_anys_clear(&acc);
    return -1;
  }
  int32_t target = tuple_mode ? kTVMFFIArray : c->type_index;
  if (is_obj && index == target && !any_changed) {
    tsc_anys_clear(&acc);
    return tsc_own(value, out);
  }
  *changed = true;
  rc = tsc_build(tuple_mode ? "ffi.Array" : ctor, acc.items, acc.n, out);
  PyMem_Free(acc.items);
  if (rc != 0) {
    PyObject* d = tsc_describe(value);
    return tsc_wrap_error(d ? PyUnicode_FromFormat("expected %U, got %U", c->hint, d) : NULL, ": ");
  }
  return 0;
}

static int tsc_conv_seq(TpyTypeConverter* c, PyObject* value, TVMFFIAny* out, bool* changed) {
  return tsc_conv_seq_impl(c, value, out, changed, false);
}

static int tsc_conv_tuple(TpyTypeConverter* c, PyObject* value, TVMFFIAny* out, bool* changed) {
  return tsc_conv_seq_impl(c, value, out, changed, true);
}

/* Map[K, V] / Dict[K, V] (target index c->type_index). */
static int tsc_conv_mapping(TpyTypeConverter* c, PyObject* value, TVMFFIAny* out, bool* changed) {
  int is = PyDict_Check(value) ? 1 : PyObject_IsInstance(value, tsc_mapping);
  if (is < 0) return -1;
  if (!is) return tsc_fail_expected(c->hint, value);
  TVMFFIObject* h = tsc_handle(value);
  bool same = h != NULL && h->type_index == c->type_index;
  TpyTypeConverter* kc = NULL;
  TpyTypeConverter* vc = NULL;
  if (c->subs != NULL) {
    PyObject* k = PyTuple_GET_ITEM(c->subs, 0);
    PyObject* v = PyTuple_GET_ITEM(c->subs, 1);
    kc = k == Py_None ? NULL : (TpyTypeConverter*)k;
    vc = v == Py_None ? NULL : (TpyTypeConverter*)v;
  }
  if (kc == NULL && vc == NULL && same) return tsc_own(value, out);
  PyObject* items = PyDict_Check(value) ? PyDict_Items(value) : NULL;
  if (items == NULL && !PyErr_Occurred()) {
    PyObject* view = PyObject_CallMethod(value, "items", NULL);
    items = view != NULL ? PySequence_List(view) : NULL;
    Py_XDECREF(view);
  }
  if (items == NULL) return -1;
  Py_ssize_t n = PyList_GET_SIZE(items);
  tsc_anys acc = {PyMem_Calloc((size_t)(2 * n > 0 ? 2 * n : 1), sizeof(TVMFFIAny)), 0};
  int rc = acc.items == NULL ? (PyErr_NoMemory(), -1) : 0;
  bool any_changed = false;
  for (Py_ssize_t i = 0; rc == 0 && i < n; ++i) {
    PyObject* kv = PyList_GET_ITEM(items, i);
    if (!PyTuple_Check(kv) || PyTuple_GET_SIZE(kv) != 2) {
      PyErr_SetString(PyExc_TypeError, "items() must yield (key, value) pairs");
      rc = -1;
      break;
    }
    PyObject* key = PyTuple_GET_ITEM(kv, 0);
    PyObject* val = PyTuple_GET_ITEM(kv, 1);
    rc = tsc_convert_item(kc, key, &acc.items[acc.n], &any_changed, 0, "key ", key);
    if (rc != 0) break;
    ++acc.n;
    rc = tsc_convert_item(vc, val, &acc.items[acc.n], &any_changed, 0, "value for key ", key);
    if (rc == 0) ++acc.n;
  }
  Py_DECREF(items);
  if (rc != 0) {
    tsc_anys_clear(&acc);
    return -1;
  }
  if (same && !any_changed) {
    tsc_anys_clear(&acc);
    return tsc_own(value, out);
  }
  *changed = true;
  rc = tsc_build(c->type_index == kTVMFFIDict ? "ffi.Dict" : "ffi.Map", acc.items, acc.n, out);
  PyMem_Free(acc.items);
  if (rc != 0) {
    PyObject* d = tsc_describe(value);
    return tsc_wrap_error(d ? PyUnicode_FromFormat("expected %U, got %U", c->hint, d) : NULL, ": ");
  }
  return 0;
}

/* ---- Optional and Union ------------------------------------------------------------------- */

static int tsc_conv_optional(TpyTypeConverter* c, PyObject* value, TVMFFIAny* out, bool* changed) {
  if (value == Py_None) {
    tsc_set_none(out);
    return 0;
  }
  return tsc_dispatch((TpyTypeConverter*)PyTuple_GET_ITEM(c->subs, 0), value, out, changed);
}

static int tsc_conv_union(TpyTypeConverter* c, PyObject* value, TVMFFIAny* out, bool* changed) {
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(c->subs); ++i) {
    TpyTypeConverter* alt = (TpyTypeConverter*)PyTuple_GET_ITEM(c->subs, i);
    bool alt_changed = false;
    if (alt->dispatch(alt, value, out, &alt_changed) == 0) {
      *changed = alt_changed;
      return 0;
    }
    if (!PyErr_ExceptionMatches(tsc_convert_error)) return -1;
    PyErr_Clear();
  }
  return tsc_fail_expected(c->hint, value);
}

/* ---- objects ------------------------------------------------------------------------------ */

/* Packs `value`, passes it through the target's __ffi_convert__ when it has one, and
 * accepts the result if it is an instance of the target type. */
static int tsc_object_marshaled(TpyTypeConverter* c, PyObject* value, TVMFFIAny* out) {
  TVMFFIAny packed;
  if (tsc_pack(value, c->hint, value, &packed) != 0) return -1;
  if (!c->fn_convert_ready) {
    const TVMFFIAny* fn = tpy_type_attr(c->type_index, "__ffi_convert__");
    if (fn != NULL && fn->type_index == kTVMFFIFunction) {
      c->fn_convert = fn->v_obj;
      TVMFFIObjectIncRef(fn->v_obj);
    }
    c->fn_convert_ready = true;
  }
  PyObject* err_text = NULL;
  if (c->fn_convert != NULL) {
    TVMFFIAny converted;
    tsc_set_none(&converted);
    int rc = TVMFFIFunctionCall(c->fn_convert, &packed, 1, &converted);
    tether_any_release(&packed);
    if (rc != 0) {
      tpy_raise_ffi_error();
      err_text = tsc_take_error_text();
      if (err_text == NULL) return -1;
      tsc_set_none(&packed);
    } else {
      packed = converted;
    }
  }
  if (err_text == NULL && packed.type_index >= kTVMFFIStaticObjectBegin &&
      tsc_index_is_instance(packed.type_index, c->type_index)) {
    *out = packed;
    return 0;
  }
  tether_any_release(&packed);
  PyObject* d = tsc_describe(value);
  if (d == NULL) {
    Py_XDECREF(err_text);
    return -1;
  }
  PyObject* msg;
  if (err_text != NULL) {
    PyObject* nl = PyUnicode_FromString("\n");
    PyObject* nl_indent = PyUnicode_FromString("\n    ");
    PyObject* indented = nl && nl_indent ? PyUnicode_Replace(err_text, nl, nl_indent, -1) : NULL;
    Py_XDECREF(nl);
    Py_XDECREF(nl_indent);
    msg = indented ? PyUnicode_FromFormat("expected %U, got %U\n  __ffi_convert__ failed:\n    %U",
                                          c->hint, d, indented)
                   : NULL;
    Py_XDECREF(indented);
    Py_DECREF(err_text);
  } else {
    msg = PyUnicode_FromFormat("expected %U, got %U", c->hint, d);
  }
  Py_DECREF(d);
  return tsc_fail(msg);
}

/* An FFI object already of the target type passes as it is (0 with *done set). */
static inline int tsc_object_passthrough(TpyTypeConverter* c, PyObject* value, TVMFFIAny* out,
                                         bool* done) {
  TVMFFIObject* h = tsc_handle(value);
  *done = h != NULL && tsc_index_is_instance(h->type_index, c->type_index);
  return *done ? tsc_own(value, out) : 0;
}

static int tsc_conv_object(TpyTypeConverter* c, PyObject* value, TVMFFIAny* out, bool* changed) {
  bool done;
  int rc = tsc_object_passthrough(c, value, out, &done);
  if (done || rc != 0) return rc;
  *changed = true;
  return tsc_object_marshaled(c, value, out);
}

/* The variant of the payload enum `type_index` whose payload is `payload`: new reference,
 * NULL without error when there is none, NULL with an error on failure. */
static PyObject* tsc_enum_variant(int32_t type_index, PyObject* payload) {
  const TVMFFIAny* attr = tpy_type_attr(type_index, "__ffi_enum__");
  if (attr == NULL) return NULL;
  PyObject* state = tpy_from_any_view(attr);
  if (state == NULL) return NULL;
  PyObject* indexes = PyObject_GetAttr(state, tsc_s_indexes);
  Py_DECREF(state);
  if (indexes == NULL) return NULL;
  PyObject* v = PyObject_CallMethod(indexes, "get", "O", payload);
  Py_DECREF(indexes);
  if (v == Py_None) {
    Py_DECREF(v);
    return NULL;
  }
  return v;
}

/* The payload an enum schema looks variants up by: an int (IntEnum) or a str (StrEnum).
 * New reference, NULL without error if `value` has no payload of that kind. */
static PyObject* tsc_enum_payload(PyObject* value, bool int_enum) {
  if (!int_enum) return PyUnicode_Check(value) ? Py_NewRef(value) : NULL;
  int64_t v;
  if (PyBool_Check(value)) return PyLong_FromLong(value == Py_True);
  if (PyLong_Check(value)) return tsc_int64_of(value, &v) == 0 ? Py_NewRef(value) : NULL;
  int is = tsc_isinstance(value, tsc_integral);
  if (is <= 0) return NULL;
  PyObject* i = tsc_coerce(value, PyNumber_Long, "int");
  if (i != NULL && tsc_int64_of(i, &v) != 0) Py_CLEAR(i);
  return i;
}

static int tsc_conv_enum(TpyTypeConverter* c, PyObject* value, TVMFFIAny* out, bool* changed,
                         bool int_enum) {
  bool done;
  int rc = tsc_object_passthrough(c, value, out, &done);
  if (done || rc != 0) return rc;
  *changed = true;
  PyObject* payload = tsc_enum_payload(value, int_enum);
  if (payload == NULL && PyErr_Occurred()) return -1;
  if (payload != NULL) {
    PyObject* variant = tsc_enum_variant(c->type_index, payload);
    Py_DECREF(payload);
    if (variant == NULL && PyErr_Occurred()) return -1;
    if (variant != NULL) {
      rc = tsc_own(variant, out);
      Py_DECREF(variant);
      return rc;
    }
  }
  return tsc_object_marshaled(c, value, out);
}

static int tsc_conv_int_enum(TpyTypeConverter* c, PyObject* value, TVMFFIAny* out, bool* changed) {
  return tsc_conv_enum(c, value, out, changed, true);
}

static int tsc_conv_str_enum(TpyTypeConverter* c, PyObject* value, TVMFFIAny* out, bool* changed) {
  return tsc_conv_enum(c, value, out, changed, false);
}

/* ---- _TypeConverter ----------------------------------------------------------------------- */

static void tsc_converter_dealloc(PyObject* self) {
  TpyTypeConverter* c = (TpyTypeConverter*)self;
  PyObject_GC_UnTrack(self);
  if (c->fn_convert != NULL) TVMFFIObjectDecRef(c->fn_convert);
  Py_CLEAR(c->subs);
  Py_CLEAR(c->hint);
  Py_CLEAR(c->schema_repr);
  Py_TYPE(self)->tp_free(self);
}

static int tsc_converter_traverse(PyObject* self, visitproc visit, void* arg) {
  Py_VISIT(((TpyTypeConverter*)self)->subs);
  return 0;
}

static int tsc_converter_clear(PyObject* self) {
  Py_CLEAR(((TpyTypeConverter*)self)->subs);
  return 0;
}

int tpy_type_convert(PyObject* converter, PyObject* value, TVMFFIAny* out, const char* what) {
  TpyTypeConverter* c = (TpyTypeConverter*)converter;
  bool changed = false;
  tsc_set_none(out);
  if (tsc_dispatch(c, value, out, &changed) == 0) return 0;
  if (PyErr_ExceptionMatches(tsc_convert_error)) {
    PyObject* text = tsc_take_error_text();
    if (text != NULL) {
      PyErr_Format(PyExc_TypeError, "%s failed for %U: %U", what, c->schema_repr, text);
      Py_DECREF(text);
    }
  } else if (PyErr_ExceptionMatches(PyExc_RecursionError)) {
    PyErr_Clear();
    PyErr_Format(PyExc_TypeError, "%s failed for %U: infinite __tvm_ffi_value__ cycle detected",
                 what, c->schema_repr);
  }
  return -1;
}

static PyObject* tsc_cany_new_steal(TVMFFIAny* value);

static PyObject* tsc_converter_convert(PyObject* self, PyObject* value) {
  TVMFFIAny out;
  if (tpy_type_convert(self, value, &out, "type conversion") != 0) return NULL;
  return tsc_cany_new_steal(&out);
}

static PyObject* tsc_converter_check(PyObject* self, PyObject* value) {
  TVMFFIAny out;
  if (tpy_type_convert(self, value, &out, "type check") != 0) return NULL;
  tether_any_release(&out);
  Py_RETURN_NONE;
}

static PyObject* tsc_value_of(const TVMFFIAny* v);

/* field_value(value): the converted Python value, for a field setter.  A mismatch raises
 * TypeError with the bare reason (the caller says which field). */
static PyObject* tsc_converter_field_value(PyObject* self, PyObject* value) {
  TVMFFIAny out;
  bool changed = false;
  tsc_set_none(&out);
  if (tsc_dispatch((TpyTypeConverter*)self, value, &out, &changed) != 0) {
    if (PyErr_ExceptionMatches(tsc_convert_error)) {
      PyObject* text = tsc_take_error_text();
      if (text != NULL) {
        PyErr_SetObject(PyExc_TypeError, text);
        Py_DECREF(text);
      }
    }
    return NULL;
  }
  PyObject* r = tsc_value_of(&out);
  tether_any_release(&out);
  return r;
}

static PyMethodDef tsc_converter_methods[] = {
    {"field_value", tsc_converter_field_value, METH_O,
     "field_value(value) -> the converted value, or TypeError with the bare reason"},
    {"convert", tsc_converter_convert, METH_O, "convert(value) -> CAny, or TypeError"},
    {"check_value", tsc_converter_check, METH_O, "check_value(value) -> None, or TypeError"},
    {NULL},
};

PyTypeObject TpyTypeConverter_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tether.core._TypeConverter",
    .tp_basicsize = sizeof(TpyTypeConverter),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "the converter of one TypeSchema (built by _build_converter)",
    .tp_dealloc = tsc_converter_dealloc,
    .tp_traverse = tsc_converter_traverse,
    .tp_clear = tsc_converter_clear,
    .tp_methods = tsc_converter_methods,
};

/* The dispatch of each origin with a fixed meaning. */
static const struct {
  const char* origin;
  tsc_dispatch_fn fn;
  int32_t type_index;
  const char* hint;
} tsc_origins[] = {
    {"int", tsc_conv_int, kTVMFFIInt, NULL},
    {"float", tsc_conv_float, kTVMFFIFloat, NULL},
    {"bool", tsc_conv_bool, kTVMFFIBool, NULL},
    {"None", tsc_conv_none, kTVMFFINone, NULL},
    {"str", tsc_conv_str, kTVMFFIStr, NULL},
    {"bytes", tsc_conv_bytes, kTVMFFIBytes, NULL},
    {"Device", tsc_conv_device, kTVMFFIDevice, NULL},
    {"dtype", tsc_conv_dtype, kTVMFFIDataType, NULL},
    {"ctypes.c_void_p", tsc_conv_opaque_ptr, kTVMFFIOpaquePtr, NULL},
    {"Tensor", tsc_conv_tensor, kTVMFFITensor, NULL},
    {"Callable", tsc_conv_callable, kTVMFFIFunction, NULL},
    {"Array", tsc_conv_seq, kTVMFFIArray, NULL},
    {"List", tsc_conv_seq, kTVMFFIList, NULL},
    {"list", tsc_conv_seq, kTVMFFIList, "List"},
    {"Map", tsc_conv_mapping, kTVMFFIMap, NULL},
    {"Dict", tsc_conv_mapping, kTVMFFIDict, NULL},
    {"dict", tsc_conv_mapping, kTVMFFIDict, "Dict"},
    {"tuple", tsc_conv_tuple, kTVMFFIArray, NULL},
    {"Object", tsc_conv_object, kTVMFFIObject, NULL},
};

/* schema.<attr>._converter, or None when that schema is Any.  New reference or NULL. */
static PyObject* tsc_sub_converter(PyObject* schema, bool any_as_none) {
  if (any_as_none) {
    PyObject* origin = PyObject_GetAttrString(schema, "origin");
    if (origin == NULL) return NULL;
    int is_any = PyUnicode_Check(origin) && PyUnicode_CompareWithASCIIString(origin, "Any") == 0;
    Py_DECREF(origin);
    if (is_any) Py_RETURN_NONE;
  }
  PyObject* conv = PyObject_GetAttrString(schema, "_converter");
  if (conv != NULL && !PyObject_TypeCheck(conv, &TpyTypeConverter_Type)) {
    PyErr_SetString(PyExc_TypeError, "_build_converter: a schema argument has no converter");
    Py_CLEAR(conv);
  }
  return conv;
}

/* Converters of every item of `args`; `any_as_none`: Any items give None.  A tuple of
 * them, or NULL (no error) when every item is None.  New reference or NULL. */
static PyObject* tsc_sub_converters(PyObject* args, bool any_as_none, bool* failed) {
  Py_ssize_t n = PyTuple_GET_SIZE(args);
  PyObject* subs = PyTuple_New(n);
  bool all_none = true;
  *failed = subs == NULL;
  for (Py_ssize_t i = 0; !*failed && i < n; ++i) {
    PyObject* s = tsc_sub_converter(PyTuple_GET_ITEM(args, i), any_as_none);
    if (s == NULL) {
      *failed = true;
      break;
    }
    if (s != Py_None) all_none = false;
    PyTuple_SET_ITEM(subs, i, s);
  }
  if (*failed || (any_as_none && all_none && n > 0)) Py_CLEAR(subs);
  return subs;
}

/* true if the class registered for `type_index` has a base `name` from a dataclasses.enum
 * module (tether's own, or the tvm_ffi name it is aliased under). */
static int tsc_class_has_enum_base(int32_t type_index, const char* name) {
  if (type_index < 0 || type_index >= tpy_class_table_size || tpy_class_table[type_index] == NULL) {
    return 0;
  }
  PyObject* mro = tpy_class_table[type_index]->tp_mro;
  for (Py_ssize_t i = 0; mro != NULL && i < PyTuple_GET_SIZE(mro); ++i) {
    PyTypeObject* base = (PyTypeObject*)PyTuple_GET_ITEM(mro, i);
    const char* dot = strrchr(base->tp_name, '.');
    const char* short_name = dot != NULL ? dot + 1 : base->tp_name;
    if (strcmp(short_name, name) != 0) continue;
    PyObject* mod = PyObject_GetAttrString((PyObject*)base, "__module__");
    if (mod == NULL) return -1;
    const char* m = PyUnicode_Check(mod) ? PyUnicode_AsUTF8(mod) : "";
    size_t len = m != NULL ? strlen(m) : 0;
    int hit = m != NULL && len >= 16 && strcmp(m + len - 16, "dataclasses.enum") == 0;
    Py_DECREF(mod);
    if (hit) return 1;
  }
  return 0;
}

/* The object dispatch for a registered object type (plain, IntEnum or StrEnum). */
static int tsc_object_kind(TpyTypeConverter* c, int32_t type_index) {
  int r = tsc_class_has_enum_base(type_index, "IntEnum");
  if (r == 0) {
    r = tsc_class_has_enum_base(type_index, "StrEnum");
    c->dispatch = r == 1 ? tsc_conv_str_enum : tsc_conv_object;
  } else {
    c->dispatch = tsc_conv_int_enum;
  }
  c->type_index = type_index;
  return r < 0 ? -1 : 0;
}

/* _build_converter(schema): the converter for a TypeSchema (its origin, args and
 * origin_type_index). */
static PyObject* tsc_py_build_converter(PyObject* self, PyObject* schema) {
  PyObject *origin = NULL, *args = NULL, *tindex_obj = NULL;
  TpyTypeConverter* c = PyObject_GC_New(TpyTypeConverter, &TpyTypeConverter_Type);
  if (c == NULL) return NULL;
  c->dispatch = NULL;
  c->type_index = -1;
  c->fn_convert_ready = false;
  c->fn_convert = NULL;
  c->subs = NULL;
  c->hint = NULL;
  c->schema_repr = NULL;
  PyObject_GC_Track((PyObject*)c);
  origin = PyObject_GetAttrString(schema, "origin");
  args = origin != NULL ? PyObject_GetAttrString(schema, "args") : NULL;
  tindex_obj = args != NULL ? PyObject_GetAttrString(schema, "origin_type_index") : NULL;
  if (tindex_obj == NULL) goto fail;
  if (!PyUnicode_Check(origin) || (args != Py_None && !PyTuple_Check(args))) {
    PyErr_SetString(PyExc_TypeError, "_build_converter: expected a TypeSchema");
    goto fail;
  }
  long tindex = PyLong_AsLong(tindex_obj);
  if (tindex == -1 && PyErr_Occurred()) goto fail;
  c->schema_repr = PyObject_Repr(schema);
  if (c->schema_repr == NULL) goto fail;
  c->hint = Py_NewRef(origin);
  const char* o = PyUnicode_AsUTF8(origin);
  if (o == NULL) goto fail;
  Py_ssize_t nargs = args == Py_None ? 0 : PyTuple_GET_SIZE(args);
  bool failed = false;
  if (tindex == kTVMFFIAny || strcmp(o, "Any") == 0) {
    c->dispatch = tsc_conv_any;
    Py_SETREF(c->hint, PyUnicode_FromString("Any"));
  } else if (strcmp(o, "Optional") == 0 || strcmp(o, "Union") == 0) {
    c->dispatch = o[0] == 'O' ? tsc_conv_optional : tsc_conv_union;
    if (nargs == 0) {
      PyErr_Format(PyExc_TypeError, "_build_converter: %s needs arguments", o);
      goto fail;
    }
    c->subs = tsc_sub_converters(args, false, &failed);
    if (failed) goto fail;
    if (o[0] == 'U') {
      PyObject* reprs = PyList_New(nargs);
      for (Py_ssize_t i = 0; reprs != NULL && i < nargs; ++i) {
        PyObject* r = PyObject_Repr(PyTuple_GET_ITEM(args, i));
        if (r == NULL) Py_CLEAR(reprs);
        else PyList_SET_ITEM(reprs, i, r);
      }
      PyObject* sep = reprs != NULL ? PyUnicode_FromString(" | ") : NULL;
      Py_SETREF(c->hint, sep != NULL ? PyUnicode_Join(sep, reprs) : NULL);
      Py_XDECREF(sep);
      Py_XDECREF(reprs);
    }
  } else {
    size_t i = 0, n = sizeof(tsc_origins) / sizeof(tsc_origins[0]);
    while (i < n && strcmp(tsc_origins[i].origin, o) != 0) ++i;
    if (i < n) {
      c->dispatch = tsc_origins[i].fn;
      c->type_index = tsc_origins[i].type_index;
      if (tsc_origins[i].hint != NULL) Py_SETREF(c->hint, PyUnicode_FromString(tsc_origins[i].hint));
      if (c->dispatch == tsc_conv_seq && nargs > 0) {
        PyObject* one = PyTuple_GetSlice(args, 0, 1);
        c->subs = one != NULL ? tsc_sub_converters(one, true, &failed) : NULL;
        Py_XDECREF(one);
        if (one == NULL || failed) goto fail;
      } else if (c->dispatch == tsc_conv_mapping && nargs == 2) {
        c->subs = tsc_sub_converters(args, true, &failed);
        if (failed) goto fail;
      } else if (c->dispatch == tsc_conv_tuple && args != Py_None) {
        c->subs = tsc_sub_converters(args, false, &failed);
        if (failed) goto fail;
      }
    } else if (tindex >= kTVMFFIStaticObjectBegin) {
      if (tsc_object_kind(c, (int32_t)tindex) != 0) goto fail;
    } else {
      int32_t found = -1;
      TVMFFIByteArray key = {o, strlen(o)};
      if (TVMFFITypeKeyToIndex(&key, &found) != 0) {
        tpy_drop_ffi_error();
        PyErr_Format(PyExc_TypeError, "unknown TypeSchema origin: %R", origin);
        goto fail;
      }
      if (tsc_object_kind(c, found) != 0) goto fail;
    }
  }
  if (c->hint == NULL) goto fail;
  Py_DECREF(origin);
  Py_DECREF(args);
  Py_DECREF(tindex_obj);
  return (PyObject*)c;
fail:
  Py_XDECREF(origin);
  Py_XDECREF(args);
  Py_XDECREF(tindex_obj);
  Py_DECREF(c);
  return NULL;
}

/* ---- CAny --------------------------------------------------------------------------------- */

static PyObject* tsc_cany_new_steal(TVMFFIAny* value) {
  TpyCAny* self = PyObject_New(TpyCAny, &TpyCAny_Type);
  if (self == NULL) {
    tether_any_release(value);
    return NULL;
  }
  self->value = *value;
  tsc_set_none(value);
  return (PyObject*)self;
}

static PyObject* tsc_cany_tp_new(PyTypeObject* type, PyObject* args, PyObject* kwds) {
  PyObject* value = Py_None;
  static char* kwlist[] = {"value", NULL};
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O:CAny", kwlist, &value)) return NULL;
  TpyCAny* self = (TpyCAny*)type->tp_alloc(type, 0);
  if (self == NULL) return NULL;
  tsc_set_none(&self->value);
  if (value != Py_None && tpy_to_owned_any(value, &self->value) != 0) {
    tsc_set_none(&self->value);
    Py_DECREF(self);
    return NULL;
  }
  return (PyObject*)self;
}

static void tsc_cany_dealloc(PyObject* self) {
  tether_any_release(&((TpyCAny*)self)->value);
  Py_TYPE(self)->tp_free(self);
}

static PyObject* tsc_cany_type_index(PyObject* self, void* closure) {
  return PyLong_FromLong(((TpyCAny*)self)->value.type_index);
}

static PyObject* tsc_cany_repr(PyObject* self) {
  const TVMFFIAny* v = &((TpyCAny*)self)->value;
  switch (v->type_index) {
    case kTVMFFINone: return PyUnicode_FromString("CAny(None)");
    case kTVMFFIInt: return PyUnicode_FromFormat("CAny(int=%lld)", (long long)v->v_int64);
    case kTVMFFIBool: return PyUnicode_FromFormat("CAny(bool=%s)", v->v_int64 ? "True" : "False");
    case kTVMFFIFloat: {
      PyObject* f = PyFloat_FromDouble(v->v_float64);
      PyObject* r = f != NULL ? PyUnicode_FromFormat("CAny(float=%R)", f) : NULL;
      Py_XDECREF(f);
      return r;
    }
    default:
      if (v->type_index >= kTVMFFIStaticObjectBegin) {
        return PyUnicode_FromFormat("CAny(object, type_index=%d)", (int)v->type_index);
      }
      return PyUnicode_FromFormat("CAny(type_index=%d)", (int)v->type_index);
  }
}

/* The Python value of an owned Any, as a py_class field would hold it: strings and byte
 * strings come back as String / Bytes whatever their storage.  New reference or NULL. */
static PyObject* tsc_value_of(const TVMFFIAny* v) {
  TVMFFIByteArray b;
  switch (v->type_index) {
    case kTVMFFISmallStr:
    case kTVMFFIStr:
      return tether_any_get_str(v, &b) ? tpy_string_new(b) : NULL;
    case kTVMFFISmallBytes:
    case kTVMFFIBytes:
      return tether_any_get_bytes(v, &b) ? tpy_bytes_new(b) : NULL;
    default: {
      TVMFFIAny copy;
      if (TVMFFIAnyViewToOwnedAny(v, &copy) != 0) return tpy_raise_ffi_error();
      return tpy_from_any_steal(&copy);
    }
  }
}

static PyObject* tsc_py_to_py_class_value(PyObject* self, PyObject* arg) {
  if (!PyObject_TypeCheck(arg, &TpyCAny_Type)) {
    PyErr_Format(PyExc_TypeError, "_to_py_class_value: expected a CAny, got %.200s",
                 Py_TYPE(arg)->tp_name);
    return NULL;
  }
  return tsc_value_of(&((TpyCAny*)arg)->value);
}

static PyGetSetDef tsc_cany_getset[] = {
    {"type_index", tsc_cany_type_index, NULL, "the type index of the value held", NULL},
    {NULL},
};

PyTypeObject TpyCAny_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tether.core.CAny",
    .tp_basicsize = sizeof(TpyCAny),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "CAny(value=None): an owned FFI value (the result of TypeSchema.convert)",
    .tp_new = tsc_cany_tp_new,
    .tp_dealloc = tsc_cany_dealloc,
    .tp_repr = tsc_cany_repr,
    .tp_getset = tsc_cany_getset,
};

/* ---- type-index helpers TypeSchema uses ---------------------------------------------------- */

/* _type_index_of_class(cls) -> int | None: the type index `cls` is registered for. */
static PyObject* tsc_py_type_index_of_class(PyObject* self, PyObject* cls) {
  for (int32_t i = 0; i < tpy_class_table_size; ++i) {
    if ((PyObject*)tpy_class_table[i] == cls) return PyLong_FromLong(i);
  }
  Py_RETURN_NONE;
}

/* _type_index_ancestors(index) -> tuple of the ancestors' type indices, root first (empty
 * for an unknown index). */
static PyObject* tsc_py_type_index_ancestors(PyObject* self, PyObject* arg) {
  long index = PyLong_AsLong(arg);
  if (index == -1 && PyErr_Occurred()) return NULL;
  const TVMFFITypeInfo* info = index >= 0 && index <= INT32_MAX ? TVMFFIGetTypeInfo((int32_t)index) : NULL;
  if (info == NULL) {
    tpy_drop_ffi_error();
    return PyTuple_New(0);
  }
  PyObject* r = PyTuple_New(info->type_depth);
  for (int32_t i = 0; r != NULL && i < info->type_depth; ++i) {
    PyObject* x = PyLong_FromLong(info->type_ancestors[i]->type_index);
    if (x == NULL) Py_CLEAR(r);
    else PyTuple_SET_ITEM(r, i, x);
  }
  return r;
}

static PyMethodDef tsc_methods[] = {
    {"_build_converter", tsc_py_build_converter, METH_O,
     "_build_converter(schema) -> _TypeConverter for a TypeSchema"},
    {"_to_py_class_value", tsc_py_to_py_class_value, METH_O,
     "_to_py_class_value(cany) -> the Python value a CAny holds (str as String, bytes as Bytes)"},
    {"_type_index_of_class", tsc_py_type_index_of_class, METH_O,
     "_type_index_of_class(cls) -> the type index cls is registered for, or None"},
    {"_type_index_ancestors", tsc_py_type_index_ancestors, METH_O,
     "_type_index_ancestors(index) -> the ancestors' type indices, root first"},
    {NULL},
};

static int tsc_add_functions(PyObject* module, PyMethodDef* defs) {
  PyObject* name = PyModule_GetNameObject(module);
  if (name == NULL) return -1;
  int rc = 0;
  for (PyMethodDef* d = defs; rc == 0 && d->ml_name != NULL; ++d) {
    PyObject* f = PyCFunction_NewEx(d, NULL, name);
    rc = f != NULL ? PyModule_AddObjectRef(module, d->ml_name, f) : -1;
    Py_XDECREF(f);
  }
  Py_DECREF(name);
  return rc;
}

static PyObject* tsc_import_attr(const char* mod, const char* attr) {
  PyObject* m = PyImport_ImportModule(mod);
  if (m == NULL) return NULL;
  PyObject* r = PyObject_GetAttrString(m, attr);
  Py_DECREF(m);
  return r;
}

int tpy_typeschema_init(PyObject* module) {
  static const struct {
    PyObject** slot;
    const char* text;
  } names[] = {
      {&tsc_s_tvm_int, "__tvm_ffi_int__"},
      {&tsc_s_tvm_float, "__tvm_ffi_float__"},
      {&tsc_s_dlpack, "__dlpack__"},
      {&tsc_s_dlpack_device, "__dlpack_device__"},
      {&tsc_s_dlpack_dtype, "__dlpack_data_type__"},
      {&tsc_s_dlpack_c_api, "__dlpack_c_exchange_api__"},
      {&tsc_s_opaque_ptr, "__tvm_ffi_opaque_ptr__"},
      {&tsc_s_cuda_stream, "__cuda_stream__"},
      {&tsc_s_tvm_object, "__tvm_ffi_object__"},
      {&tsc_s_tvm_value, "__tvm_ffi_value__"},
      {&tsc_s_asobject, "asobject"},
      {&tsc_s_indexes, "indexes"},
  };
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); ++i) {
    *names[i].slot = PyUnicode_InternFromString(names[i].text);
    if (*names[i].slot == NULL) return -1;
  }
  tsc_integral = tsc_import_attr("numbers", "Integral");
  tsc_real = tsc_integral != NULL ? tsc_import_attr("numbers", "Real") : NULL;
  tsc_mapping = tsc_real != NULL ? tsc_import_attr("collections.abc", "Mapping") : NULL;
  tsc_c_void_p = tsc_mapping != NULL ? tsc_import_attr("ctypes", "c_void_p") : NULL;
  if (tsc_c_void_p == NULL) return -1;
  tsc_convert_error = PyErr_NewExceptionWithDoc(
      "tether.core._ConvertError", "a value does not match a TypeSchema (internal)", NULL, NULL);
  if (tsc_convert_error == NULL || PyType_Ready(&TpyCAny_Type) != 0 ||
      PyType_Ready(&TpyTypeConverter_Type) != 0 ||
      PyModule_AddObjectRef(module, "CAny", (PyObject*)&TpyCAny_Type) != 0 ||
      PyModule_AddObjectRef(module, "_TypeConverter", (PyObject*)&TpyTypeConverter_Type) != 0 ||
      PyModule_AddObjectRef(module, "_ConvertError", tsc_convert_error) != 0) {
    return -1;
  }
  return tsc_add_functions(module, tsc_methods);
}
