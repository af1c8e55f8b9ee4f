/*
 * error.h -- errors across the boundary (spec python_api.md 6.7).
 *
 * FFI -> Python: the parked Error becomes an exception of the class registered for its
 * kind (RuntimeError if unknown) whose traceback holds one synthetic frame per backtrace
 * line; `exc.__tvm_ffi_error__` is the Error.  If the Error carries the Python exception it
 * was made from (a callback raised it), that same exception object is raised again.
 * Kind "EnvErrorAlreadySet" re-raises the pending Python exception.
 *
 * Python -> FFI: the current exception becomes a parked Error (kind from the registry by
 * exact class, message str(exc), backtrace = Python frames most recent first + C frames),
 * carrying the exception object so it can come back out unchanged.
 */
#ifndef TPY_ERROR_H_
#define TPY_ERROR_H_

#include "tpy.h"
#include "object.h"

/* Python view of an ffi.Error object. */
extern PyTypeObject TpyError_Type;

/* Converts the parked FFI error to a Python exception; always returns NULL. */
PyObject* tpy_raise_ffi_error(void);
/* Discards the parked FFI error, if any. */
void tpy_drop_ffi_error(void);
/* Moves the current Python exception into a parked FFI Error; returns -1. */
int tpy_park_py_error(void);
/* *out = new Error object for the exception instance `exc` (borrowed).  0 or -1 (Python
 * error set). */
int tpy_error_from_exception(PyObject* exc, TVMFFIObject** out);

/* Module function: _register_error(kind: str, cls). */
PyObject* tpy_py_register_error(PyObject* self, PyObject* const* args, Py_ssize_t n);

int tpy_error_init(PyObject* module);

#endif /* TPY_ERROR_H_ */
