/*
 * capi.h -- the C API capsule of tether.core for other extensions (capi.c;
 * tvm_ffi_python_helpers.h documents the table).
 */
#ifndef TPY_CAPI_H_
#define TPY_CAPI_H_

#include "tpy.h"

/* Adds the capsule `_C_API` to `module`.  0, or -1 with a Python error set. */
int tpy_capi_init(PyObject* module);

#endif /* TPY_CAPI_H_ */
