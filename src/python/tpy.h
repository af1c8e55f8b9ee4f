/*
 * tpy.h -- the private header shared by the C sources of the `tether.core` extension.
 *
 * The extension reaches libtether only through its public headers (c_api.h, tether.h,
 * reflection.h, container.h, tensor.h).  Every non-static name here carries the `tpy_`
 * prefix (types: `Tpy*_Type`).  All state is process-global and guarded by the GIL: the
 * module is single-phase and must not be loaded into several interpreters.
 *
 * Layout of the extension (one .c/.h pair per subsystem):
 *   module.c    PyInit_core, the module's function table, init order
 *   convert.c   Python -> TVMFFIAny (arguments) and TVMFFIAny -> Python (results)
 *   function.c  Function (vectorcall), Python callbacks, the global registry functions
 *   object.c    Object, its metaclass, the type-index -> class table, reflection
 *   error.c     exception <-> FFI Error, stitched tracebacks
 *   value.c     String, Bytes, Shape, dtype, Device, DLDeviceType
 *   tensor.c    Tensor and DLPack (owned by another engineer; see tensor.h)
 */
#ifndef TPY_H_
#define TPY_H_

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <tether/c_api.h>
#include <tether/container.h>
#include <tether/reflection.h>
#include <tether/tether.h>

/* ---- compatibility: the package supports CPython 3.9+; these came in 3.10 ------------------ */
#if PY_VERSION_HEX < 0x030A0000
static inline PyObject* tpy_compat_new_ref(PyObject* obj) {
  Py_INCREF(obj);
  return obj;
}
static inline PyObject* tpy_compat_xnew_ref(PyObject* obj) {
  Py_XINCREF(obj);
  return obj;
}
/* Like PyModule_AddObject, but never steals `value` (NULL `value`: an error is set). */
static inline int tpy_compat_module_add_object_ref(PyObject* module, const char* name,
                                                   PyObject* value) {
  if (value == NULL) {
    if (!PyErr_Occurred()) {
      PyErr_SetString(PyExc_SystemError, "PyModule_AddObjectRef() called with a NULL value");
    }
    return -1;
  }
  Py_INCREF(value);
  if (PyModule_AddObject(module, name, value) != 0) {
    Py_DECREF(value);
    return -1;
  }
  return 0;
}
#define Py_NewRef(obj) tpy_compat_new_ref((PyObject*)(obj))
#define Py_XNewRef(obj) tpy_compat_xnew_ref((PyObject*)(obj))
#define PyModule_AddObjectRef(module, name, value) \
  tpy_compat_module_add_object_ref((module), (name), (PyObject*)(value))
#endif

/* Exported from the extension only so that C backtraces (TVMFFIBacktrace resolves names
 * with dladdr) name the boundary frames instead of printing bare offsets. */
#define TPY_BACKTRACE_VISIBLE __attribute__((visibility("default"), noinline))

/* The payload cell of an object (spec 1.7: right after the 24-byte header). */
#define TPY_CELL(type, obj) ((type*)((char*)(obj) + sizeof(TVMFFIObject)))

/* Arguments up to this count are converted into a stack array; more go to the heap. */
#define TPY_STACK_ARGS 16

/* A byte view of a NUL-terminated C string. */
static inline TVMFFIByteArray tpy_bytes_of(const char* s) {
  TVMFFIByteArray b = {s, strlen(s)};
  return b;
}

/* New str from a byte view (UTF-8, invalid bytes replaced), or NULL with an error set. */
static inline PyObject* tpy_str_from_bytes(TVMFFIByteArray b) {
  return PyUnicode_DecodeUTF8(b.data, (Py_ssize_t)b.size, "replace");
}

/* The `tether.core` module object (borrowed; set by PyInit_core). */
extern PyObject* tpy_module;

#endif /* TPY_H_ */
