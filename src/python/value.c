/*
 * value.c -- the value types of `tether.core`.
 *
 * String and Bytes are plain str/bytes subclasses (results of heap Str/Bytes objects);
 * Shape is a tuple subclass of ints; dtype is a str subclass that also carries the parsed
 * DLDataType, so passing one as an argument costs no parsing; Device is a small fixed
 * object.  DLDeviceType is built with enum.IntEnum (enum is loaded at interpreter start).
 */
#include "value.h"

#include "error.h"
#include "object.h"

/* ---- String / Bytes / Shape -------------------------------------------------------------- */

/*
 * Each keeps the FFI object it came from (its "cached object"), so that passing the value
 * back hands the callee that same object.  String extends str with a field; bytes and tuple
 * are variable-sized, so Bytes and Shape keep the pointer in one extra slot their
 * tp_basicsize adds at the end of the allocation: the last pointer-aligned word of an
 * allocation sized for this base type (a Python subclass that adds a __dict__ puts it one
 * word further, so the two never meet).  The allocator zeroes the slot.
 */
static TVMFFIObject** tpy_tail_slot(PyObject* obj, PyTypeObject* base) {
  size_t size = (size_t)_PyObject_VAR_SIZE(base, Py_SIZE(obj));
  return (TVMFFIObject**)((char*)obj + size - sizeof(TVMFFIObject*));
}

static TVMFFIObject** tpy_value_slot(PyObject* obj) {
  if (PyObject_TypeCheck(obj, &TpyString_Type)) return &((TpyString*)obj)->handle;
  if (PyObject_TypeCheck(obj, &TpyBytes_Type)) return tpy_tail_slot(obj, &TpyBytes_Type);
  if (PyObject_TypeCheck(obj, &TpyShape_Type)) return tpy_tail_slot(obj, &TpyShape_Type);
  return NULL;
}

static void tpy_string_dealloc(PyObject* self) {
  TVMFFIObject* h = ((TpyString*)self)->handle;
  if (h != NULL) TVMFFIObjectDecRef(h);
  PyUnicode_Type.tp_dealloc(self);
}

static void tpy_bytes_dealloc(PyObject* self) {
  TVMFFIObject* h = *tpy_tail_slot(self, &TpyBytes_Type);
  if (h != NULL) TVMFFIObjectDecRef(h);
  PyBytes_Type.tp_dealloc(self);
}

static void tpy_shape_dealloc(PyObject* self) {
  TVMFFIObject* h = *tpy_tail_slot(self, &TpyShape_Type);
  if (h != NULL) TVMFFIObjectDecRef(h);
  PyTuple_Type.tp_dealloc(self);
}

TVMFFIObject* tpy_value_cached_object(PyObject* obj) {
  TVMFFIObject** slot = tpy_value_slot(obj);
  if (slot == NULL) return NULL;
  if (*slot == NULL && PyObject_TypeCheck(obj, &TpyShape_Type)) {
    Py_ssize_t n = PyTuple_GET_SIZE(obj);
    int64_t* dims = PyMem_Malloc(sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
    if (dims == NULL) {
      PyErr_NoMemory();
      return NULL;
    }
    int rc = 0;
    for (Py_ssize_t i = 0; i < n && rc == 0; ++i) {
      dims[i] = PyLong_AsLongLong(PyTuple_GET_ITEM(obj, i));
      if (dims[i] == -1 && PyErr_Occurred()) rc = -1;
    }
    TVMFFIObjectHandle shape = NULL;
    if (rc == 0 && tether_shape_new(dims, (int64_t)n, &shape) != 0) {
      TVMFFIObjectHandle err = NULL;
      TVMFFIErrorMoveFromRaised(&err);
      TVMFFIObjectDecRef(err);
      PyErr_NoMemory();
    }
    PyMem_Free(dims);
    *slot = shape;
  }
  return *slot;
}

/* _tvm_ffi_cached_object: an Object holding the value's FFI object, or None. */
static PyObject* tpy_value_get_cached(PyObject* self, void* c) {
  TVMFFIObject* h = tpy_value_cached_object(self);
  if (h == NULL) {
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
  }
  TVMFFIObjectIncRef(h);
  return tpy_object_wrap_as(&TpyObject_Type, h);
}

static PyGetSetDef tpy_value_getset[] = {
    {"_tvm_ffi_cached_object", tpy_value_get_cached, NULL,
     "the FFI object this value came from or was passed as (None if none)", NULL},
    {NULL},
};

/* String and Bytes pickle and copy as the plain str / bytes they hold (as in tvm-ffi). */
static PyObject* tpy_string_reduce_ex(PyObject* self, PyObject* protocol) {
  PyObject* text = PyUnicode_FromObject(self); /* an exact str */
  return text != NULL ? Py_BuildValue("(O(N))", (PyObject*)&PyUnicode_Type, text) : NULL;
}

static PyObject* tpy_bytes_reduce_ex(PyObject* self, PyObject* protocol) {
  PyObject* data = PyBytes_FromStringAndSize(PyBytes_AS_STRING(self), PyBytes_GET_SIZE(self));
  return data != NULL ? Py_BuildValue("(O(N))", (PyObject*)&PyBytes_Type, data) : NULL;
}

static PyMethodDef tpy_string_methods[] = {
    {"__reduce_ex__", tpy_string_reduce_ex, METH_O, "pickle and copy as a plain str"},
    {NULL},
};

static PyMethodDef tpy_bytes_methods[] = {
    {"__reduce_ex__", tpy_bytes_reduce_ex, METH_O, "pickle and copy as plain bytes"},
    {NULL},
};

PyTypeObject TpyString_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tether.core.String",
    .tp_basicsize = sizeof(TpyString),
    .tp_dealloc = tpy_string_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "str holding the text of an ffi.String",
    .tp_methods = tpy_string_methods,
    .tp_getset = tpy_value_getset,
};

PyTypeObject TpyBytes_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tether.core.Bytes",
    .tp_dealloc = tpy_bytes_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "bytes holding the content of an ffi.Bytes",
    .tp_methods = tpy_bytes_methods,
    .tp_getset = tpy_value_getset,
};

static PyObject* tpy_shape_repr(PyObject* self) { return PyTuple_Type.tp_repr(self); }

/* Pickles (any protocol) and copies as Shape(tuple of its ints). */
static PyObject* tpy_shape_reduce(PyObject* self, PyObject* unused) {
  PyObject* dims = PyTuple_GetSlice(self, 0, PyTuple_GET_SIZE(self));
  return dims != NULL ? Py_BuildValue("(O(N))", (PyObject*)Py_TYPE(self), dims) : NULL;
}

static PyMethodDef tpy_shape_methods[] = {
    {"__reduce__", tpy_shape_reduce, METH_NOARGS, "(Shape, (dims,)): pickle by value"},
    {NULL},
};

PyTypeObject TpyShape_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tether.core.Shape",
    .tp_dealloc = tpy_shape_dealloc,
    .tp_getset = tpy_value_getset,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "tuple of ints holding an ffi.Shape",
    .tp_repr = tpy_shape_repr,
    .tp_methods = tpy_shape_methods,
};

/* Calls base->tp_new(type, (arg,)) -- how a static subclass of an immutable builtin is made. */
static PyObject* tpy_subtype_new1(PyTypeObject* base, PyTypeObject* type, PyObject* arg_steal) {
  if (arg_steal == NULL) return NULL;
  PyObject* args = PyTuple_Pack(1, arg_steal);
  Py_DECREF(arg_steal);
  if (args == NULL) return NULL;
  PyObject* r = base->tp_new(type, args, NULL);
  Py_DECREF(args);
  return r;
}

PyObject* tpy_string_new(TVMFFIByteArray b) {
  return tpy_subtype_new1(&PyUnicode_Type, &TpyString_Type, tpy_str_from_bytes(b));
}

PyObject* tpy_bytes_new(TVMFFIByteArray b) {
  return tpy_subtype_new1(&PyBytes_Type, &TpyBytes_Type,
                          PyBytes_FromStringAndSize(b.data, (Py_ssize_t)b.size));
}

PyObject* tpy_shape_new(const int64_t* dims, int64_t n) {
  PyObject* t = PyTuple_New((Py_ssize_t)n);
  if (t == NULL) return NULL;
  for (int64_t i = 0; i < n; ++i) {
    PyObject* v = PyLong_FromLongLong(dims[i]);
    if (v == NULL) {
      Py_DECREF(t);
      return NULL;
    }
    PyTuple_SET_ITEM(t, (Py_ssize_t)i, v);
  }
  return tpy_subtype_new1(&PyTuple_Type, &TpyShape_Type, t);
}

PyObject* tpy_value_from_object_steal(TVMFFIObject* obj) {
  PyObject* r = NULL;
  if (obj->type_index == kTVMFFIStr) {
    r = tpy_string_new(*TPY_CELL(TVMFFIByteArray, obj));
  } else if (obj->type_index == kTVMFFIBytes) {
    r = tpy_bytes_new(*TPY_CELL(TVMFFIByteArray, obj));
  } else if (obj->type_index == kTVMFFIShape) {
    const TVMFFIShapeCell* cell = TPY_CELL(TVMFFIShapeCell, obj);
    r = tpy_shape_new(cell->data, (int64_t)cell->size);
  } else {
    PyErr_Format(PyExc_TypeError, "tpy_value_from_object_steal: type index %d is not a String, "
                 "Bytes or Shape", (int)obj->type_index);
  }
  if (r == NULL) {
    TVMFFIObjectDecRef(obj);
    return NULL;
  }
  TVMFFIObject** slot = tpy_value_slot(r);
  if (*slot != NULL) TVMFFIObjectDecRef(*slot);
  *slot = obj;
  return r;
}

/* ---- dtype -------------------------------------------------------------------------------- */

static PyObject* tpy_dtype_cache; /* dict: packed DLDataType (int) -> dtype */

static uint32_t tpy_dtype_pack(DLDataType t) {
  return (uint32_t)t.code | ((uint32_t)t.bits << 8) | ((uint32_t)(uint16_t)t.lanes << 16);
}

/* New dtype instance of `type` whose text is `text` (borrowed str) and value `t`. */
static PyObject* tpy_dtype_make(PyTypeObject* type, PyObject* text, DLDataType t) {
  Py_INCREF(text);
  PyObject* r = tpy_subtype_new1(&PyUnicode_Type, type, text);
  if (r != NULL) ((TpyDType*)r)->dtype = t;
  return r;
}

static int tpy_dtype_parse(PyObject* text, DLDataType* out) {
  Py_ssize_t n;
  const char* s = PyUnicode_AsUTF8AndSize(text, &n);
  if (s == NULL) return -1;
  TVMFFIByteArray b = {s, (size_t)n};
  if (TVMFFIDataTypeFromString(&b, out) != 0) {
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    TVMFFIObjectDecRef(err);
    PyErr_Format(PyExc_ValueError, "unknown dtype `%s`", s);
    return -1;
  }
  return 0;
}

static PyObject* tpy_dtype_new(PyTypeObject* type, PyObject* args, PyObject* kwds) {
  PyObject* text = NULL;
  static char* kwlist[] = {"dtype_str", NULL};
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "O:dtype", kwlist, &text)) return NULL;
  if (PyObject_TypeCheck(text, &TpyDType_Type)) {
    return tpy_dtype_make(type, text, ((TpyDType*)text)->dtype);
  }
  PyObject* str = NULL;
  if (PyUnicode_Check(text)) {
    str = Py_NewRef(text);
  } else {
    str = PyObject_Str(text); /* numpy.dtype("float32") -> "float32" */
    if (str == NULL) return NULL;
    const char* s = PyUnicode_AsUTF8(str);
    if (s != NULL && strncmp(s, "torch.", 6) == 0) {
      PyObject* tail = PyUnicode_FromString(s + 6);
      Py_SETREF(str, tail);
      if (str == NULL) return NULL;
    }
  }
  DLDataType t;
  PyObject* r = NULL;
  if (tpy_dtype_parse(str, &t) == 0) r = tpy_dtype_make(type, str, t);
  Py_DECREF(str);
  return r;
}

PyObject* tpy_dtype_wrap(DLDataType t) {
  PyObject* key = PyLong_FromUnsignedLong(tpy_dtype_pack(t));
  if (key == NULL) return NULL;
  PyObject* hit = PyDict_GetItemWithError(tpy_dtype_cache, key);
  if (hit != NULL) {
    Py_DECREF(key);
    return Py_NewRef(hit);
  }
  PyObject* r = NULL;
  TVMFFIAny s = tether_any_none();
  TVMFFIByteArray text;
  if (PyErr_Occurred()) goto done;
  if (TVMFFIDataTypeToString(&t, &s) != 0 || !tether_any_get_str(&s, &text)) {
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    TVMFFIObjectDecRef(err);
    PyErr_Format(PyExc_ValueError, "invalid DLDataType(code=%d, bits=%d, lanes=%d)", t.code,
                 t.bits, t.lanes);
    goto done;
  }
  PyObject* str = tpy_str_from_bytes(text);
  if (str == NULL) goto done;
  r = tpy_dtype_make(&TpyDType_Type, str, t);
  Py_DECREF(str);
  if (r != NULL && PyDict_Size(tpy_dtype_cache) < 1024) PyDict_SetItem(tpy_dtype_cache, key, r);
done:
  tether_any_release(&s);
  Py_DECREF(key);
  return r;
}

static PyObject* tpy_dtype_repr(PyObject* self) { return PyUnicode_FromFormat("dtype('%U')", self); }

static PyObject* tpy_dtype_get_type_code(PyObject* self, void* c) {
  return PyLong_FromLong(((TpyDType*)self)->dtype.code);
}
static PyObject* tpy_dtype_get_bits(PyObject* self, void* c) {
  return PyLong_FromLong(((TpyDType*)self)->dtype.bits);
}
static PyObject* tpy_dtype_get_lanes(PyObject* self, void* c) {
  return PyLong_FromLong((int16_t)((TpyDType*)self)->dtype.lanes);
}
static PyObject* tpy_dtype_get_itemsize(PyObject* self, void* c) {
  DLDataType t = ((TpyDType*)self)->dtype;
  int lanes = (int16_t)t.lanes;
  if (lanes < 0) {
    PyErr_SetString(PyExc_ValueError, "itemsize is undefined for a scalable dtype");
    return NULL;
  }
  return PyLong_FromLong(((long)t.bits * lanes + 7) / 8);
}

/* is_bool / is_integer / is_float / is_handle: the type code's family. */
static PyObject* tpy_dtype_get_kind(PyObject* self, void* which) {
  int code = ((TpyDType*)self)->dtype.code;
  bool r;
  switch ((intptr_t)which) {
    case 0:
      r = code == kDLBool;
      break;
    case 1:
      r = code == kDLInt || code == kDLUInt;
      break;
    case 2:
      r = code == kDLFloat || code == kDLBfloat || (code >= kDLFloat8_e3m4 && code <= kDLFloat4_e2m1fn);
      break;
    default:
      r = code == kDLOpaqueHandle;
      break;
  }
  return PyBool_FromLong(r);
}

/* dtype.from_dlpack_data_type((code, bits, lanes)) */
static PyObject* tpy_dtype_from_dlpack_data_type(PyObject* cls, PyObject* arg) {
  int code = 0, bits = 0, lanes = 0;
  if (!PyArg_ParseTuple(arg, "iii;from_dlpack_data_type: expected a (code, bits, lanes) tuple",
                        &code, &bits, &lanes)) {
    return NULL;
  }
  if (code < 0 || code > 255 || bits < 0 || bits > 255 || lanes < -32768 || lanes > 65535) {
    PyErr_Format(PyExc_ValueError, "from_dlpack_data_type: (%d, %d, %d) is not a DLDataType",
                 code, bits, lanes);
    return NULL;
  }
  DLDataType t = {(uint8_t)code, (uint8_t)bits, (uint16_t)lanes};
  PyObject* r = tpy_dtype_wrap(t);
  if (r == NULL || (PyTypeObject*)cls == &TpyDType_Type) return r;
  PyObject* sub = tpy_dtype_make((PyTypeObject*)cls, r, t);
  Py_DECREF(r);
  return sub;
}

static PyObject* tpy_dtype_with_lanes(PyObject* self, PyObject* arg) {
  long lanes = PyLong_AsLong(arg);
  if (lanes == -1 && PyErr_Occurred()) return NULL;
  DLDataType t = ((TpyDType*)self)->dtype;
  t.lanes = (uint16_t)lanes;
  return tpy_dtype_wrap(t);
}

static PyObject* tpy_dtype_dlpack_data_type(PyObject* self, PyObject* unused) {
  DLDataType t = ((TpyDType*)self)->dtype;
  return Py_BuildValue("(iii)", t.code, t.bits, (int16_t)t.lanes);
}

static PyObject* tpy_dtype_reduce(PyObject* self, PyObject* unused) {
  PyObject* text = PyUnicode_FromObject(self); /* exact str copy */
  if (text == NULL) return NULL;
  return Py_BuildValue("(O(N))", (PyObject*)Py_TYPE(self), text);
}

static PyGetSetDef tpy_dtype_getset[] = {
    {"type_code", tpy_dtype_get_type_code, NULL, "DLDataType code", NULL},
    {"bits", tpy_dtype_get_bits, NULL, "bits per lane", NULL},
    {"lanes", tpy_dtype_get_lanes, NULL, "number of lanes", NULL},
    {"itemsize", tpy_dtype_get_itemsize, NULL, "bytes per element", NULL},
    {"is_bool", tpy_dtype_get_kind, NULL, "whether the type code is bool", (void*)0},
    {"is_integer", tpy_dtype_get_kind, NULL, "whether the type code is int or uint", (void*)1},
    {"is_float", tpy_dtype_get_kind, NULL, "whether the type code is a floating-point one",
     (void*)2},
    {"is_handle", tpy_dtype_get_kind, NULL, "whether the type code is an opaque handle",
     (void*)3},
    {NULL},
};

static PyMethodDef tpy_dtype_methods[] = {
    {"with_lanes", tpy_dtype_with_lanes, METH_O, "the same dtype with `lanes` lanes"},
    {"from_dlpack_data_type", tpy_dtype_from_dlpack_data_type, METH_O | METH_CLASS,
     "the dtype of a (code, bits, lanes) tuple"},
    {"__dlpack_data_type__", tpy_dtype_dlpack_data_type, METH_NOARGS, "(code, bits, lanes)"},
    {"__reduce__", tpy_dtype_reduce, METH_NOARGS, NULL},
    {NULL},
};

PyTypeObject TpyDType_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tether.core.dtype",
    .tp_basicsize = sizeof(TpyDType),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "dtype(str): a data type, as a str in the ABI's dtype grammar",
    .tp_new = tpy_dtype_new,
    .tp_repr = tpy_dtype_repr,
    .tp_getset = tpy_dtype_getset,
    .tp_methods = tpy_dtype_methods,
};

/* ---- Device ------------------------------------------------------------------------------- */

static PyObject* tpy_device_type_enum; /* DLDeviceType */
PyTypeObject* tpy_device_class = &TpyDevice_Type; /* strong reference once set */

PyObject* tpy_device_wrap(DLDevice d) {
  TpyDevice* r = tpy_device_class == &TpyDevice_Type
                     ? PyObject_New(TpyDevice, &TpyDevice_Type)
                     : (TpyDevice*)tpy_device_class->tp_alloc(tpy_device_class, 0);
  if (r != NULL) r->device = d;
  return (PyObject*)r;
}

/* _set_class_device(cls): Device results are made as `cls` (a subclass of Device) from now
 * on; tether.core._CLASS_DEVICE names it. */
PyObject* tpy_py_set_class_device(PyObject* self, PyObject* cls) {
  if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject*)cls, &TpyDevice_Type)) {
    PyErr_Format(PyExc_TypeError, "_set_class_device: expected a subclass of Device, got %R", cls);
    return NULL;
  }
  if (PyModule_AddObjectRef(tpy_module, "_CLASS_DEVICE", cls) != 0) return NULL;
  Py_INCREF(cls);
  PyTypeObject* old = tpy_device_class;
  tpy_device_class = (PyTypeObject*)cls;
  Py_DECREF(old);
  Py_RETURN_NONE;
}

int tpy_device_parse(PyObject* str, DLDevice* out) {
  Py_ssize_t n;
  const char* s = PyUnicode_AsUTF8AndSize(str, &n);
  if (s == NULL) return -1;
  const char* colon = memchr(s, ':', (size_t)n);
  size_t name_len = colon ? (size_t)(colon - s) : (size_t)n;
  int32_t type = tether_device_type_from_name(s, name_len);
  long index = 0;
  if (colon != NULL) {
    char* end = NULL;
    index = strtol(colon + 1, &end, 10);
    if (end == colon + 1 || *end != '\0' || index < 0) type = -1;
  }
  if (type < 0) {
    PyErr_Format(PyExc_ValueError, "Unknown device: %s", s);
    return -1;
  }
  out->device_type = (DLDeviceType)type;
  out->device_id = (int32_t)index;
  return 0;
}

/* Device(type, index=None): `type` is a name ("cuda"), "name:index", or an int. */
static int tpy_device_from_args(PyObject* type, PyObject* index, DLDevice* out) {
  if (PyObject_TypeCheck(type, &TpyDevice_Type)) {
    *out = ((TpyDevice*)type)->device;
    return 0;
  }
  if (PyUnicode_Check(type)) {
    if (tpy_device_parse(type, out) != 0) return -1;
    Py_ssize_t n;
    const char* s = PyUnicode_AsUTF8AndSize(type, &n);
    if (memchr(s, ':', (size_t)n) != NULL) return 0; /* the string's index wins */
  } else if (PyIndex_Check(type)) {
    long t = PyLong_AsLong(type);
    if (t == -1 && PyErr_Occurred()) return -1;
    out->device_type = (DLDeviceType)t;
    out->device_id = 0;
  } else {
    PyErr_Format(PyExc_TypeError, "device: expected a device name or type code, got %.200s",
                 Py_TYPE(type)->tp_name);
    return -1;
  }
  if (index != NULL && index != Py_None) {
    long i = PyLong_AsLong(index);
    if (i == -1 && PyErr_Occurred()) return -1;
    out->device_id = (int32_t)i;
  }
  return 0;
}

static PyObject* tpy_device_new(PyTypeObject* type, PyObject* args, PyObject* kwds) {
  static char* kwlist[] = {"device_type", "index", NULL};
  PyObject *t = NULL, *index = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|O:Device", kwlist, &t, &index)) return NULL;
  DLDevice d;
  if (tpy_device_from_args(t, index, &d) != 0) return NULL;
  TpyDevice* r = (TpyDevice*)type->tp_alloc(type, 0);
  if (r != NULL) r->device = d;
  return (PyObject*)r;
}

PyObject* tpy_py_device(PyObject* self, PyObject* const* args, Py_ssize_t n, PyObject* kwnames) {
  PyObject *t = NULL, *index = NULL;
  Py_ssize_t nk = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  if (n >= 1) t = args[0];
  if (n >= 2) index = args[1];
  for (Py_ssize_t i = 0; i < nk; ++i) {
    const char* k = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, i));
    if (k == NULL) return NULL;
    if (strcmp(k, "index") == 0 && index == NULL) {
      index = args[n + i];
    } else if ((strcmp(k, "device_type") == 0 || strcmp(k, "type_or_str") == 0) && t == NULL) {
      t = args[n + i];
    } else {
      PyErr_Format(PyExc_TypeError, "device() got an unexpected keyword argument '%s'", k);
      return NULL;
    }
  }
  if (t == NULL || n > 2) {
    PyErr_SetString(PyExc_TypeError, "device(type_or_str, index=None) takes 1 or 2 arguments");
    return NULL;
  }
  DLDevice d;
  if (tpy_device_from_args(t, index, &d) != 0) return NULL;
  return tpy_device_wrap(d);
}

static PyObject* tpy_device_type_name_obj(DLDevice d) {
  const char* name = tether_device_type_name(d.device_type);
  if (name != NULL) return PyUnicode_FromString(name);
  return PyUnicode_FromFormat("ext_dev%d", (int)d.device_type);
}

static PyObject* tpy_device_repr(PyObject* self) {
  DLDevice d = ((TpyDevice*)self)->device;
  PyObject* name = tpy_device_type_name_obj(d);
  if (name == NULL) return NULL;
  PyObject* r = PyUnicode_FromFormat("device(type='%U', index=%d)", name, (int)d.device_id);
  Py_DECREF(name);
  return r;
}

static PyObject* tpy_device_str(PyObject* self) {
  DLDevice d = ((TpyDevice*)self)->device;
  PyObject* name = tpy_device_type_name_obj(d);
  if (name == NULL) return NULL;
  PyObject* r = PyUnicode_FromFormat("%U:%d", name, (int)d.device_id);
  Py_DECREF(name);
  return r;
}

static PyObject* tpy_device_richcompare(PyObject* a, PyObject* b, int op) {
  if (!PyObject_TypeCheck(b, &TpyDevice_Type) || (op != Py_EQ && op != Py_NE)) {
    Py_RETURN_NOTIMPLEMENTED;
  }
  DLDevice x = ((TpyDevice*)a)->device, y = ((TpyDevice*)b)->device;
  bool eq = x.device_type == y.device_type && x.device_id == y.device_id;
  return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

static Py_hash_t tpy_device_hash(PyObject* self) {
  DLDevice d = ((TpyDevice*)self)->device;
  Py_hash_t h = (Py_hash_t)(((uint64_t)(uint32_t)d.device_type << 32) | (uint32_t)d.device_id);
  h ^= (Py_hash_t)0x5bd1e995;
  return h == -1 ? -2 : h;
}

static PyObject* tpy_device_get_type(PyObject* self, void* c) {
  return tpy_device_type_name_obj(((TpyDevice*)self)->device);
}
static PyObject* tpy_device_get_index(PyObject* self, void* c) {
  return PyLong_FromLong(((TpyDevice*)self)->device.device_id);
}

static PyObject* tpy_device_dlpack_device_type(PyObject* self, PyObject* unused) {
  long t = ((TpyDevice*)self)->device.device_type;
  PyObject* code = PyLong_FromLong(t);
  if (code == NULL || tpy_device_type_enum == NULL) return code;
  PyObject* r = PyObject_CallOneArg(tpy_device_type_enum, code);
  if (r == NULL) {
    PyErr_Clear(); /* an unnamed type code stays a plain int */
    return code;
  }
  Py_DECREF(code);
  return r;
}

static PyObject* tpy_device_dlpack_device(PyObject* self, PyObject* unused) {
  DLDevice d = ((TpyDevice*)self)->device;
  return Py_BuildValue("(ii)", (int)d.device_type, (int)d.device_id);
}

static PyObject* tpy_device_reduce(PyObject* self, PyObject* unused) {
  DLDevice d = ((TpyDevice*)self)->device;
  return Py_BuildValue("(O(ii))", (PyObject*)Py_TYPE(self), (int)d.device_type, (int)d.device_id);
}

static PyGetSetDef tpy_device_getset[] = {
    {"type", tpy_device_get_type, NULL, "device type name", NULL},
    {"index", tpy_device_get_index, NULL, "device index", NULL},
    {NULL},
};

static PyMethodDef tpy_device_methods[] = {
    {"dlpack_device_type", tpy_device_dlpack_device_type, METH_NOARGS, "the DLDeviceType"},
    {"__dlpack_device__", tpy_device_dlpack_device, METH_NOARGS, "(device_type, index)"},
    {"__reduce__", tpy_device_reduce, METH_NOARGS, NULL},
    {NULL},
};

PyTypeObject TpyDevice_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tether.core.Device",
    .tp_basicsize = sizeof(TpyDevice),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Device(type, index=None): a DLDevice",
    .tp_new = tpy_device_new,
    .tp_repr = tpy_device_repr,
    .tp_str = tpy_device_str,
    .tp_richcompare = tpy_device_richcompare,
    .tp_hash = tpy_device_hash,
    .tp_getset = tpy_device_getset,
    .tp_methods = tpy_device_methods,
};

/* ---- the environment's current stream per device --------------------------------------------- */

/* _env_set_current_stream(device_type, device_id, stream) -> the previous stream (int). */
PyObject* tpy_py_env_set_current_stream(PyObject* self, PyObject* const* args, Py_ssize_t n) {
  if (n != 3) {
    PyErr_SetString(PyExc_TypeError,
                    "_env_set_current_stream(device_type, device_id, stream) takes 3 arguments");
    return NULL;
  }
  long type = PyLong_AsLong(args[0]);
  long id = type == -1 && PyErr_Occurred() ? -1 : PyLong_AsLong(args[1]);
  if (PyErr_Occurred()) return NULL;
  void* stream = NULL;
  if (args[2] != Py_None) {
    PyObject* v = PyObject_HasAttrString(args[2], "value") && !PyLong_Check(args[2])
                      ? PyObject_GetAttrString(args[2], "value") /* a ctypes.c_void_p */
                      : Py_NewRef(args[2]);
    if (v == NULL) return NULL;
    stream = v == Py_None ? NULL : PyLong_AsVoidPtr(v);
    Py_DECREF(v);
    if (PyErr_Occurred()) return NULL;
  }
  TVMFFIStreamHandle prev = NULL;
  if (TVMFFIEnvSetStream((int32_t)type, (int32_t)id, stream, &prev) != 0) {
    return tpy_raise_ffi_error();
  }
  return PyLong_FromVoidPtr(prev);
}

/* _env_get_current_stream(device_type, device_id) -> the current stream (int, 0 if none). */
PyObject* tpy_py_env_get_current_stream(PyObject* self, PyObject* const* args, Py_ssize_t n) {
  if (n != 2) {
    PyErr_SetString(PyExc_TypeError, "_env_get_current_stream(device_type, device_id) takes 2 "
                    "arguments");
    return NULL;
  }
  long type = PyLong_AsLong(args[0]);
  long id = type == -1 && PyErr_Occurred() ? -1 : PyLong_AsLong(args[1]);
  if (PyErr_Occurred()) return NULL;
  return PyLong_FromVoidPtr(TVMFFIEnvGetStream((int32_t)type, (int32_t)id));
}

/* ---- DLDeviceType ------------------------------------------------------------------------- */

#define TPY_DEVICE_TYPES(X)                                                                   \
  X(kDLCPU, 1) X(kDLCUDA, 2) X(kDLCUDAHost, 3) X(kDLOpenCL, 4) X(kDLVulkan, 7) X(kDLMetal, 8) \
  X(kDLVPI, 9) X(kDLROCM, 10) X(kDLROCMHost, 11) X(kDLExtDev, 12) X(kDLCUDAManaged, 13)        \
  X(kDLOneAPI, 14) X(kDLWebGPU, 15) X(kDLHexagon, 16) X(kDLMAIA, 17) X(kDLTrn, 18)

static PyObject* tpy_make_device_type_enum(void) {
  PyObject *enum_mod = NULL, *members = NULL, *r = NULL;
  enum_mod = PyImport_ImportModule("enum");
  if (enum_mod == NULL) goto done;
  members = PyList_New(0);
  if (members == NULL) goto done;
#define TPY_DEV_MEMBER(name, value)                                         \
  {                                                                          \
    PyObject* item = Py_BuildValue("(si)", #name, value);                    \
    if (item == NULL || PyList_Append(members, item) != 0) {                 \
      Py_XDECREF(item);                                                      \
      goto done;                                                             \
    }                                                                        \
    Py_DECREF(item);                                                         \
  }
  TPY_DEVICE_TYPES(TPY_DEV_MEMBER)
#undef TPY_DEV_MEMBER
  {
    PyObject* int_enum = PyObject_GetAttrString(enum_mod, "IntEnum");
    if (int_enum == NULL) goto done;
    PyObject* kw = Py_BuildValue("{s:s}", "module", "tether.core");
    if (kw != NULL) {
      PyObject* args = Py_BuildValue("(sO)", "DLDeviceType", members);
      if (args != NULL) r = PyObject_Call(int_enum, args, kw);
      Py_XDECREF(args);
      Py_DECREF(kw);
    }
    Py_DECREF(int_enum);
  }
done:
  Py_XDECREF(enum_mod);
  Py_XDECREF(members);
  return r;
}

int tpy_value_init(PyObject* module) {
  TpyString_Type.tp_base = &PyUnicode_Type;
  TpyBytes_Type.tp_base = &PyBytes_Type;
  TpyShape_Type.tp_base = &PyTuple_Type;
  TpyDType_Type.tp_base = &PyUnicode_Type;
  /* One more word for the cached object (see tpy_tail_slot). */
  TpyBytes_Type.tp_basicsize = PyBytes_Type.tp_basicsize + (Py_ssize_t)sizeof(TVMFFIObject*);
  TpyBytes_Type.tp_itemsize = PyBytes_Type.tp_itemsize;
  TpyShape_Type.tp_basicsize = PyTuple_Type.tp_basicsize + (Py_ssize_t)sizeof(TVMFFIObject*);
  TpyShape_Type.tp_itemsize = PyTuple_Type.tp_itemsize;
  PyTypeObject* types[] = {&TpyString_Type, &TpyBytes_Type, &TpyShape_Type, &TpyDType_Type,
                           &TpyDevice_Type};
  const char* names[] = {"String", "Bytes", "Shape", "dtype", "Device"};
  for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); ++i) {
    if (PyType_Ready(types[i]) != 0) return -1;
    if (PyModule_AddObjectRef(module, names[i], (PyObject*)types[i]) != 0) return -1;
  }
  tpy_dtype_cache = PyDict_New();
  if (tpy_dtype_cache == NULL) return -1;
  tpy_device_type_enum = tpy_make_device_type_enum();
  if (tpy_device_type_enum == NULL) return -1;
  Py_INCREF(&TpyDevice_Type); /* the reference tpy_device_class holds */
  if (PyModule_AddObjectRef(module, "_CLASS_DEVICE", (PyObject*)&TpyDevice_Type) != 0) return -1;
  return PyModule_AddObjectRef(module, "DLDeviceType", tpy_device_type_enum);
}
