/*
 * dltensor_test_wrapper.c -- `DLTensorTestWrapper`, a stand-in for a framework tensor type
 * (as torch.Tensor is one) that tests use to exercise the DLPack exchange API without a
 * framework: it wraps a tether Tensor and advertises, as the class attribute
 * `__dlpack_c_exchange_api__`, a DLPackExchangeAPI whose entry points move tensors in and
 * out as owning DLManagedTensorVersioned (no borrowed-DLTensor entry, no allocator), plus
 * the Python protocol (`__dlpack__`, `__dlpack_device__`) and `__tvm_ffi_env_stream__`.
 *
 * Passed to a Function, a wrapper becomes its Tensor through the exchange API, and the
 * call's Tensor results come back through the same API (as tether Tensors).
 */
#include <tether/tensor.h>

#include "error.h"
#include "object.h"
#include "tensor.h"

typedef struct {
  PyObject_HEAD
  PyObject* tensor; /* owned: a Tensor, or NULL before __init__ */
  PyObject* dict;   /* owned instance __dict__, or NULL */
} TpyDLTensorTestWrapper;

static PyTypeObject TpyDLTensorTestWrapper_Type;

/* The wrapped Tensor's handle (borrowed), or NULL with a Python error set. */
static TVMFFIObject* tpy_wrapper_handle(PyObject* self) {
  PyObject* t = ((TpyDLTensorTestWrapper*)self)->tensor;
  TVMFFIObject* h = t != NULL ? ((TpyObject*)t)->handle : NULL;
  if (h == NULL) {
    PyErr_SetString(PyExc_ValueError, "DLTensorTestWrapper: no tensor (__init__ was not called, "
                                      "or the Tensor was moved out)");
  }
  return h;
}

/* ---- the exchange API ---------------------------------------------------------------------- */

/* managed_tensor_from_py_object_no_sync: the wrapped Tensor as an owning versioned tensor. */
static int tpy_wrapper_to_managed(void* py_object, DLManagedTensorVersioned** out) {
  TVMFFIObject* h = tpy_wrapper_handle((PyObject*)py_object);
  if (h == NULL) return -1;
  if (TVMFFITensorToDLPackVersioned(h, out) != 0) {
    tpy_raise_ffi_error();
    return -1;
  }
  return 0;
}

/* managed_tensor_to_py_object_no_sync: a tether Tensor taking `tensor` over. */
static int tpy_wrapper_from_managed(DLManagedTensorVersioned* tensor, void** out_py_object) {
  TVMFFIObjectHandle h = NULL;
  if (TVMFFITensorFromDLPackVersioned(tensor, 0, 0, &h) != 0) {
    tpy_raise_ffi_error();
    return -1;
  }
  PyObject* r = tpy_tensor_wrap_steal(h);
  if (r == NULL) return -1;
  *out_py_object = r;
  return 0;
}

/* current_work_stream: the environment's stream for a device (none for the CPU). */
static int tpy_wrapper_work_stream(DLDeviceType device_type, int32_t device_id, void** out) {
  if (device_type != kDLCPU) *out = TVMFFIEnvGetStream(device_type, device_id);
  return 0;
}

static DLPackExchangeAPI tpy_wrapper_api = {
    .header = {.version = {DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION}, .prev_api = NULL},
    .managed_tensor_allocator = NULL,
    .managed_tensor_from_py_object_no_sync = tpy_wrapper_to_managed,
    .managed_tensor_to_py_object_no_sync = tpy_wrapper_from_managed,
    .dltensor_from_py_object_no_sync = NULL,
    .current_work_stream = tpy_wrapper_work_stream,
};

/* ---- the class ----------------------------------------------------------------------------- */

static int tpy_wrapper_init(PyObject* self, PyObject* args, PyObject* kwds) {
  static char* kwlist[] = {"tensor", NULL};
  PyObject* tensor;
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!:DLTensorTestWrapper", kwlist, &TpyTensor_Type,
                                   &tensor)) {
    return -1;
  }
  Py_XSETREF(((TpyDLTensorTestWrapper*)self)->tensor, Py_NewRef(tensor));
  return 0;
}

static int tpy_wrapper_traverse(PyObject* self, visitproc visit, void* arg) {
  Py_VISIT(((TpyDLTensorTestWrapper*)self)->tensor);
  Py_VISIT(((TpyDLTensorTestWrapper*)self)->dict);
  Py_VISIT(Py_TYPE(self));
  return 0;
}

static int tpy_wrapper_clear(PyObject* self) {
  Py_CLEAR(((TpyDLTensorTestWrapper*)self)->tensor);
  Py_CLEAR(((TpyDLTensorTestWrapper*)self)->dict);
  return 0;
}

static void tpy_wrapper_dealloc(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  tpy_wrapper_clear(self);
  type->tp_free(self);
  if (type->tp_flags & Py_TPFLAGS_HEAPTYPE) Py_DECREF(type);
}

/* The wrapped Tensor (for the Python protocol), or NULL with an error. */
static PyObject* tpy_wrapper_tensor(PyObject* self) {
  if (tpy_wrapper_handle(self) == NULL) return NULL;
  return ((TpyDLTensorTestWrapper*)self)->tensor;
}

static PyObject* tpy_wrapper_dlpack(PyObject* self, PyObject* const* args, size_t nargsf,
                                    PyObject* kwnames) {
  PyObject* t = tpy_wrapper_tensor(self);
  if (t == NULL) return NULL;
  PyObject* meth = PyObject_GetAttrString(t, "__dlpack__");
  if (meth == NULL) return NULL;
  PyObject* r = PyObject_Vectorcall(meth, args, nargsf, kwnames);
  Py_DECREF(meth);
  return r;
}

static PyObject* tpy_wrapper_dlpack_device(PyObject* self, PyObject* unused) {
  PyObject* t = tpy_wrapper_tensor(self);
  return t != NULL ? PyObject_CallMethod(t, "__dlpack_device__", NULL) : NULL;
}

/* __tvm_ffi_env_stream__() -> int: the environment's current stream for the tensor's device. */
static PyObject* tpy_wrapper_env_stream(PyObject* self, PyObject* unused) {
  TVMFFIObject* h = tpy_wrapper_handle(self);
  if (h == NULL) return NULL;
  const DLTensor* dl = tether_tensor_dl(h);
  void* stream = TVMFFIEnvGetStream(dl->device.device_type, dl->device.device_id);
  return PyLong_FromVoidPtr(stream);
}

static PyMethodDef tpy_wrapper_methods[] = {
    {"__dlpack__", (PyCFunction)(void (*)(void))tpy_wrapper_dlpack, METH_FASTCALL | METH_KEYWORDS,
     "__dlpack__(**kwargs): the wrapped Tensor's __dlpack__"},
    {"__dlpack_device__", tpy_wrapper_dlpack_device, METH_NOARGS,
     "__dlpack_device__() -> (device_type, device_id) of the wrapped Tensor"},
    {"__tvm_ffi_env_stream__", tpy_wrapper_env_stream, METH_NOARGS,
     "__tvm_ffi_env_stream__() -> int: the current stream of the wrapped Tensor's device"},
    {NULL},
};

static PyGetSetDef tpy_wrapper_getset[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, "the instance dictionary", NULL},
    {NULL},
};

static PyTypeObject TpyDLTensorTestWrapper_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tether.core.DLTensorTestWrapper",
    .tp_doc = "DLTensorTestWrapper(tensor): a Tensor behind a framework-style DLPack exchange "
              "API (`__dlpack_c_exchange_api__`), for tests of that protocol",
    .tp_basicsize = sizeof(TpyDLTensorTestWrapper),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_new = PyType_GenericNew,
    .tp_init = tpy_wrapper_init,
    .tp_dealloc = tpy_wrapper_dealloc,
    .tp_traverse = tpy_wrapper_traverse,
    .tp_clear = tpy_wrapper_clear,
    .tp_methods = tpy_wrapper_methods,
    .tp_getset = tpy_wrapper_getset,
    .tp_dictoffset = offsetof(TpyDLTensorTestWrapper, dict),
};

int tpy_dltensor_test_wrapper_init(PyObject* module) {
  if (PyType_Ready(&TpyDLTensorTestWrapper_Type) != 0) return -1;
  PyObject* cap = PyCapsule_New(&tpy_wrapper_api, "dlpack_exchange_api", NULL);
  if (cap == NULL) return -1;
  int rc = PyDict_SetItemString(TpyDLTensorTestWrapper_Type.tp_dict, "__dlpack_c_exchange_api__",
                                cap);
  Py_DECREF(cap);
  if (rc != 0) return -1;
  PyType_Modified(&TpyDLTensorTestWrapper_Type);
  return PyModule_AddObjectRef(module, "DLTensorTestWrapper",
                               (PyObject*)&TpyDLTensorTestWrapper_Type);
}
