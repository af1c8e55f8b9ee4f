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
/* The dtype instance for `t` (cached per value).  New reference or NULL. */
PyObject* tpy_dtype_wrap(DLDataType t);
/* New Device.  New reference or NULL. */
PyObject* tpy_device_wrap(DLDevice d);
/* Parses "cpu", "cuda:1", ... into *out.  0 or -1 with ValueError set. */
int tpy_device_parse(PyObject* str, DLDevice* out);

/* Module function device(type_or_str, index=None). */
PyObject* tpy_py_device(PyObject* self, PyObject* const* args, Py_ssize_t n, PyObject* kwnames);

int tpy_value_init(PyObject* module);

#endif /* TPY_VALUE_H_ */
