/*
 * tvm_ffi_python_helpers.h -- the C API that tether.core offers other CPython extensions
 * (the header's name is the one tvm-ffi's build helpers put on the include path; its
 * content is tether's own).
 *
 * An extension that passes values between Python and FFI functions converts them exactly
 * as tether.core does (list -> Array, dict -> Map, callable -> Function, numpy/torch
 * tensors -> Tensor, FFI errors -> the registered Python exception classes, ...) through a
 * table of function pointers that tether.core publishes as the capsule
 * `tether.core._C_API`.  Nothing is linked: the extension needs only this header and
 * <tvm/ffi/c_api.h>.
 *
 *     const tether_py_capi* api = tether_py_import_capi();   // once, with the GIL held
 *     if (api == NULL) return NULL;                          // ImportError set
 *     TVMFFIAny v;
 *     if (api->to_any(obj, &v) != 0) return NULL;            // owned value
 *     ... TVMFFIFunctionCall(f, &v, 1, &result) ...          // on failure: api->raise_ffi_error()
 *     return api->from_any_steal(&result);
 *
 * Every entry point requires the GIL.
 */
#ifndef TVM_FFI_PYTHON_HELPERS_H_
#define TVM_FFI_PYTHON_HELPERS_H_

#include <Python.h>
#include <tvm/ffi/c_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The table's layout version; an extension built for a later one refuses an older table. */
#define TETHER_PY_CAPI_VERSION 1
#define TETHER_PY_CAPI_CAPSULE "tether.core._C_API"

typedef struct tether_py_capi {
  /* TETHER_PY_CAPI_VERSION of the tether.core that filled the table. */
  int32_t version;
  /* *out = the FFI value of `obj` (borrowed), an owned TVMFFIAny the caller releases (or
   * hands on).  0, or -1 with a Python exception set. */
  int (*to_any)(PyObject* obj, TVMFFIAny* out);
  /* The Python object of `value`, whose reference it takes over (also on failure; *value
   * is left None).  New reference, or NULL with a Python exception set. */
  PyObject* (*from_any_steal)(TVMFFIAny* value);
  /* Turns the error an FFI call just raised (TVMFFIErrorMoveFromRaised) into the Python
   * exception tether.core would raise for it.  Always returns NULL. */
  PyObject* (*raise_ffi_error)(void);
  /* Moves the current Python exception into the FFI's raised error (for a safe_call
   * written in the extension).  Always returns -1. */
  int (*park_py_error)(void);
} tether_py_capi;

/* The table tether.core publishes (imports tether.core if needed); NULL with ImportError
 * set when the capsule is missing or older than this header.  Borrowed: the table lives as
 * long as the process. */
static inline const tether_py_capi* tether_py_import_capi(void) {
  const tether_py_capi* api = (const tether_py_capi*)PyCapsule_Import(TETHER_PY_CAPI_CAPSULE, 0);
  if (api != NULL && api->version < TETHER_PY_CAPI_VERSION) {
    PyErr_Format(PyExc_ImportError, "%s has version %d, this extension needs %d",
                 TETHER_PY_CAPI_CAPSULE, (int)api->version, TETHER_PY_CAPI_VERSION);
    return NULL;
  }
  return api;
}

#ifdef __cplusplus
}
#endif
#endif /* TVM_FFI_PYTHON_HELPERS_H_ */
