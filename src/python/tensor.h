/*
 * tensor.h -- the Tensor side of `tether.core`: the `Tensor` type,
 * DLPack import/export, numpy/torch arguments passed zero-copy, from_dlpack.
 *
 * The rest of the extension calls only the functions below.  convert.c and module.c
 * reference them weakly, so the extension still links (treating tensors as plain objects)
 * while tensor.c is absent.
 */
#ifndef TPY_TENSOR_H_
#define TPY_TENSOR_H_

#include "tpy.h"
#include "convert.h"

/* The class of ffi.Tensor (subclass of Object; instances are TpyObjects whose handle is
 * NULL or a Tensor, type index 70). */
extern PyTypeObject TpyTensor_Type;

/* Adds Tensor, from_dlpack, ... to `module` (borrowed).  0, or -1 with a Python error set. */
int tpy_tensor_init(PyObject* module);

/* 1 if `obj` is tensor-like (Tensor, numpy.ndarray, torch.Tensor, an object with
 * __dlpack__) and was converted into *out (a view; temporaries pushed to `temps`),
 * 0 if it is not tensor-like (*out untouched, no error), -1 with a Python error set. */
int tpy_tensor_arg_from_py(PyObject* obj, TVMFFIAny* out, tpy_temps* temps);

/* Releases a temporary (steals `obj`): the way tpy_temps hands back a Tensor (type index
 * 70) that tpy_tensor_arg_from_py pushed.  An argument Tensor made from a numpy array or
 * torch tensor that no one else references is recycled for the next call, and the array is
 * released now; any other object is simply DecRef'd.  Requires the GIL.  Calling plain
 * TVMFFIObjectDecRef instead is also correct, only slower (no recycling). */
void tpy_tensor_temp_release(TVMFFIObject* obj);

/* A Tensor instance owning `tensor` (steals the reference, also on failure); new
 * reference, or NULL with a Python error set. */
PyObject* tpy_tensor_wrap_steal(TVMFFIObject* tensor);

/* Adds DLTensorTestWrapper (dltensor_test_wrapper.c) to `module`.  0, or -1 with a Python
 * error set. */
int tpy_dltensor_test_wrapper_init(PyObject* module);

#endif /* TPY_TENSOR_H_ */
