/*
 * capi.c -- `tether.core._C_API`: the capsule holding the table of conversion and error
 * entry points that other CPython extensions reach through tvm_ffi_python_helpers.h (the
 * table's layout and each entry's contract are documented there).
 */
#include "capi.h"

#include <tvm_ffi_python_helpers.h>

#include "convert.h"
#include "error.h"

static const tether_py_capi tpy_capi = {
    .version = TETHER_PY_CAPI_VERSION,
    .to_any = tpy_to_owned_any,
    .from_any_steal = tpy_from_any_steal,
    .raise_ffi_error = tpy_raise_ffi_error,
    .park_py_error = tpy_park_py_error,
};

int tpy_capi_init(PyObject* module) {
  PyObject* cap = PyCapsule_New((void*)&tpy_capi, TETHER_PY_CAPI_CAPSULE, NULL);
  if (cap == NULL) return -1;
  int rc = PyModule_AddObjectRef(module, "_C_API", cap);
  Py_DECREF(cap);
  return rc;
}
