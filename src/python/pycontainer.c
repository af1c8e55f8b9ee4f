/*
 * pycontainer.c -- `CContainerBase` and results converted in a framework-tensor context
 * (see pycontainer.h).
 */
#include "pycontainer.h"

#include "error.h"
#include "tensor.h"

PyTypeObject TpyContainer_Type = {
    PyVarObject_HEAD_INIT(&TpyObjectMeta_Type, 0).tp_name = "tether.core.CContainerBase",
    .tp_basicsize = sizeof(TpyContainer),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "base of the container classes: an Object that remembers the DLPack exchange "
              "API of the call that returned it",
};

/* The framework tensor for the ffi.Tensor `tensor` (stolen): handed to the framework as a
 * versioned DLPack tensor that keeps `tensor` alive. */
static PyObject* tpy_framework_tensor_steal(TVMFFIObject* tensor, const DLPackExchangeAPI* api) {
  DLManagedTensorVersioned* managed = NULL;
  int rc = TVMFFITensorToDLPackVersioned(tensor, &managed);
  TVMFFIObjectDecRef(tensor);
  if (rc != 0) return tpy_raise_ffi_error();
  void* py = NULL;
  if (api->managed_tensor_to_py_object_no_sync(managed, &py) != 0 || py == NULL) {
    /* The framework did not take the tensor over. */
    if (managed->deleter != NULL) managed->deleter(managed);
    if (!PyErr_Occurred()) {
      PyErr_SetString(PyExc_RuntimeError, "the DLPack exchange API could not convert a Tensor "
                      "result to the framework's tensor");
    }
    return NULL;
  }
  return (PyObject*)py;
}

PyObject* tpy_from_any_steal_api(TVMFFIAny* value, const DLPackExchangeAPI* api) {
  if (value->type_index == kTVMFFITensor && api->managed_tensor_to_py_object_no_sync != NULL) {
    TVMFFIObject* tensor = value->v_obj;
    *value = tether_any_none();
    return tpy_framework_tensor_steal(tensor, api);
  }
  bool container = tpy_is_container_index(value->type_index);
  PyObject* r = tpy_from_any_steal(value);
  if (r != NULL && container && PyObject_TypeCheck(r, &TpyContainer_Type)) {
    ((TpyContainer*)r)->dlpack_api = api;
  }
  return r;
}

/* _tensor_to_framework(tensor, api_capsule): the framework tensor (through the exchange API
 * in the "dlpack_exchange_api" capsule) sharing `tensor`'s memory. */
static PyObject* tpy_py_tensor_to_framework(PyObject* self, PyObject* const* args, Py_ssize_t n) {
  if (n != 2) {
    PyErr_SetString(PyExc_TypeError, "_tensor_to_framework(tensor, api_capsule) takes 2 arguments");
    return NULL;
  }
  TVMFFIObject* h = tpy_is_object(args[0]) ? ((TpyObject*)args[0])->handle : NULL;
  if (h == NULL || h->type_index != kTVMFFITensor) {
    PyErr_Format(PyExc_TypeError, "_tensor_to_framework: argument 0 must be a Tensor, got %.200s",
                 Py_TYPE(args[0])->tp_name);
    return NULL;
  }
  const DLPackExchangeAPI* api = PyCapsule_GetPointer(args[1], "dlpack_exchange_api");
  if (api == NULL) return NULL;
  if (api->managed_tensor_to_py_object_no_sync == NULL) {
    PyErr_SetString(PyExc_TypeError, "_tensor_to_framework: the exchange API cannot make tensors");
    return NULL;
  }
  TVMFFIObjectIncRef(h);
  return tpy_framework_tensor_steal(h, api);
}

static PyMethodDef tpy_pycontainer_methods[] = {
    {"_tensor_to_framework", (PyCFunction)(void (*)(void))tpy_py_tensor_to_framework,
     METH_FASTCALL, "_tensor_to_framework(tensor, api_capsule): the framework's tensor"},
    {NULL, NULL, 0, NULL},
};

void tpy_note_container_arg(PyObject* obj, tpy_temps* temps) {
  if (temps->dlpack_api == NULL && PyObject_TypeCheck(obj, &TpyContainer_Type)) {
    temps->dlpack_api = ((TpyContainer*)obj)->dlpack_api;
  }
}

int tpy_pycontainer_init(PyObject* module) {
  TpyContainer_Type.tp_base = &TpyObject_Type;
  if (PyType_Ready(&TpyContainer_Type) != 0 ||
      PyModule_AddFunctions(module, tpy_pycontainer_methods) != 0) {
    return -1;
  }
  return PyModule_AddObjectRef(module, "CContainerBase", (PyObject*)&TpyContainer_Type);
}
