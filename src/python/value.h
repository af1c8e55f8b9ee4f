/*
 * value.h -- the value types of `tether.core`: String (str subclass), Bytes (bytes
 * subclass), Shape (tuple subclass), dtype (str subclass carrying a DLDataType), Device,
 * and DLDeviceType (an IntEnum).
 */
#ifndef TPY_VALUE_H_
#define TPY_VALUE_H_

#include "tpy.h"

typedef struct {
  PyUnicodeObject base;
  DLDataType dtype;
} TpyDType;

typedef struct {
  PyObject_HEAD
  DLDevice device;
} TpyDevice;

/* A String: the str, and the ffi.String object it came from or was passed as (owned), or
 * NULL (short strings, or never crossed). */
typedef struct {
  PyUnicodeObject base;
  TVMFFIObject* handle;
} TpyString;

extern PyTypeObject TpyString_Type;
extern PyTypeObject TpyBytes_Type;
extern PyTypeObject TpyShape_Type;
extern PyTypeObject TpyDType_Type;
extern PyTypeObject TpyDevice_Type;

/* New String / Bytes instance holding a copy of `b`.  New reference or NULL. */
PyObject* tpy_string_new(TVMFFIByteArray b);
PyObject* tpy_bytes_new(TVMFFIByteArray b);
/* New Shape (tuple subclass) of the `n` dims.  New reference or NULL. */
PyObject* tpy_shape_new(const int64_t* dims, int64_t n);
/* String / Bytes / Shape made from the FFI object `obj` (kTVMFFIStr / kTVMFFIBytes /
 * kTVMFFIShape), which the instance keeps as its cached object.  Steals `obj` (also on
 * failure).  New reference or NULL. */
PyObject* tpy_value_from_object_steal(TVMFFIObject* obj);
/* The cached FFI object of a String / Bytes / Shape instance `obj` (borrowed), creating it
 * from the value on first use (Shape only: a String or Bytes without one has NULL, and the
 * caller converts the text).  NULL with no error set when there is none; NULL with an
 * error set on failure (check PyErr_Occurred). */
TVMFFIObject* tpy_value_cached_object(PyObject* obj);

/* The class of Device results (Device or a subclass; borrowed). */
extern PyTypeObject* tpy_device_class;
/* The dtype instance for `t` (cached per value).  New reference or NULL. */
PyObject* tpy_dtype_wrap(DLDataType t);
/* New Device.  New reference or NULL. */
PyObject* tpy_device_wrap(DLDevice d);
/* Parses "cpu", "cuda:1", ... into *out.  0 or -1 with ValueError set. */
int tpy_device_parse(PyObject* str, DLDevice* out);

/* Module functions _env_set_current_stream / _env_get_current_stream (value.c). */
PyObject* tpy_py_env_set_current_stream(PyObject* self, PyObject* const* args, Py_ssize_t n);
PyObject* tpy_py_env_get_current_stream(PyObject* self, PyObject* const* args, Py_ssize_t n);

/* Module function _set_class_device(cls). */
PyObject* tpy_py_set_class_device(PyObject* self, PyObject* cls);

/* Module function device(type_or_str, index=None). */
PyObject* tpy_py_device(PyObject* self, PyObject* const* args, Py_ssize_t n, PyObject* kwnames);

int tpy_value_init(PyObject* module);

#endif /* TPY_VALUE_H_ */
