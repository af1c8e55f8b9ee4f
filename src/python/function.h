/*
 * function.h -- `Function`, the Python view of an ffi.Function, and Python callbacks.
 *
 * Calling a Function is one vectorcall: arguments are converted straight into a stack array
 * of TVMFFIAny views (heap only beyond TPY_STACK_ARGS), the function's safe_call runs
 * (with the GIL released unless `release_gil` was turned off, or the function declared
 * TETHER_FUNC_KEEPS_GIL), temporaries are released and the result converted.  No argument tuple, no allocation for scalars, no refcount traffic on
 * the function itself.
 *
 * A Python callable passed where a value is expected becomes a Function (a callback): its
 * closure holds a strong reference to the callable, released under the GIL.
 */
#ifndef TPY_FUNCTION_H_
#define TPY_FUNCTION_H_

#include "tpy.h"
#include "convert.h"
#include "error.h"
#include "object.h"

typedef struct {
  TpyObject base;
  vectorcallfunc vectorcall;
  TVMFFISafeCallType safe_call; /* cached from the function cell; NULL when handle is NULL */
  int release_gil; /* release the GIL around safe_call (see function.c on the default) */
  PyObject* name; /* registered name (str) or NULL */
} TpyFunction;

extern PyTypeObject TpyFunction_Type;

/* The end of a call from Python: runs safe_call(handle, views[0..n)) -- with the GIL
 * released around it when `release_gil` -- releases the argument temporaries and converts
 * the result.  New reference, or NULL with the error set. */
static inline PyObject* tpy_call_safe(TVMFFISafeCallType safe_call, void* handle,
                                      const TVMFFIAny* views, int32_t n, tpy_temps* temps,
                                      int release_gil) {
  TVMFFIAny result;
  result.type_index = kTVMFFINone;
  result.zero_padding = 0;
  result.v_int64 = 0;
  int rc;
  const DLPackExchangeAPI* api = temps->dlpack_api;
  /* A framework tensor among the arguments makes the framework's allocator the thread's
   * environment allocator (TVMFFIEnvTensorAlloc) for the call. */
  DLPackManagedTensorAllocator alloc = api != NULL ? api->managed_tensor_allocator : NULL;
  DLPackManagedTensorAllocator prev_alloc = NULL;
  if (alloc != NULL) TVMFFIEnvSetDLPackManagedTensorAllocator(alloc, 0, &prev_alloc);
  if (release_gil) {
    PyThreadState* ts = PyEval_SaveThread();
    rc = safe_call(handle, views, n, &result);
    PyEval_RestoreThread(ts);
  } else {
    rc = safe_call(handle, views, n, &result);
  }
  if (alloc != NULL) TVMFFIEnvSetDLPackManagedTensorAllocator(prev_alloc, 0, NULL);
  tpy_temps_release(temps);
  if (rc != 0) return tpy_raise_ffi_error();
  if (result.type_index == kTVMFFINone) Py_RETURN_NONE;
  if (api != NULL) return tpy_from_any_steal_api(&result, api);
  return tpy_from_any_steal(&result);
}

/* A Function instance for `func` (steals the reference, also on failure); new or NULL. */
PyObject* tpy_function_wrap_steal(TVMFFIObject* func);
/* *out = new FFI Function calling the Python callable `callable` (borrowed; the Function
 * keeps a strong reference).  0, or -1 with a Python error set. */
int tpy_function_from_callable(PyObject* callable, TVMFFIObject** out);

/* Function's vectorcall and the safe_call of callbacks (exported for backtraces only). */
PyObject* tpy_function_vectorcall(PyObject* self, PyObject* const* args, size_t nargsf,
                                  PyObject* kwnames);
PyObject* tpy_function_call_general(TpyFunction* f, PyObject* const* args, Py_ssize_t n,
                                    PyObject* kwnames);
PyObject* tpy_function_call_args(TpyFunction* f, PyObject* const* args, size_t n);
int tpy_callback_call(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result);

/* Module functions. */
PyObject* tpy_py_get_global_func(PyObject* self, PyObject* const* args, Py_ssize_t n,
                                 PyObject* kwnames);
PyObject* tpy_py_register_global_func(PyObject* self, PyObject* const* args, Py_ssize_t n);

int tpy_function_init(PyObject* module);

#endif /* TPY_FUNCTION_H_ */
