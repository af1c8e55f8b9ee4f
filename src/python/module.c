/*
 * module.c -- PyInit_core: the `tether.core` module, its function table and the order in
 * which the subsystems initialise.
 *
 * Import-time setup: the testing library is forced to load (so every `testing.*` global is
 * present, as in tvm-ffi), and the three Python C APIs TVMFFIEnvCheckSignals needs are
 * registered, so a long C call that checks signals can be interrupted with Ctrl-C.
 */
#include <dlfcn.h>

#include "tpy.h"

#include "convert.h"
#include "error.h"
#include "function.h"
#include "object.h"
#include "pycontainer.h"
#include "signature.h"
#include "tensor.h"
#include "typeinfo.h"
#include "value.h"
#include "typeschema.h"
#include "capi.h"

#pragma weak tpy_tensor_init

/* Exported by libtether_testing; calling it makes the dynamic linker keep that library. */
extern void TVMFFITestingDummyTarget(void);

PyObject* tpy_module;

/* convert(value): the FFI value of `value` as a Python object (list -> Array, str -> String,
 * callable -> Function, Exception -> Error, anything else -> OpaquePyObject). */
static PyObject* tpy_py_convert(PyObject* self, PyObject* value) {
  TVMFFIAny owned;
  if (tpy_to_owned_any(value, &owned) != 0) return NULL;
  TVMFFIByteArray b;
  PyObject* r;
  switch (owned.type_index) {
    case kTVMFFIStr:
    case kTVMFFIBytes:
      return tpy_from_any_steal(&owned); /* keeps the object as its cached one */
    case kTVMFFISmallStr:
      r = tether_any_get_str(&owned, &b) ? tpy_string_new(b) : NULL;
      tether_any_release(&owned);
      return r;
    case kTVMFFISmallBytes:
      r = tether_any_get_bytes(&owned, &b) ? tpy_bytes_new(b) : NULL;
      tether_any_release(&owned);
      return r;
    case kTVMFFIOpaquePyObject: {
      PyTypeObject* cls = tpy_class_for_index(kTVMFFIOpaquePyObject);
      if (cls == NULL) {
        tether_any_release(&owned);
        return NULL;
      }
      return tpy_object_wrap_as(cls, owned.v_obj);
    }
    default:
      return tpy_from_any_steal(&owned);
  }
}

/* Objects alive outside the extension's caches: the str argument cache is emptied first,
 * so that what it holds is not taken for a leak. */
static PyObject* tpy_py_live_object_count(PyObject* self, PyObject* unused) {
  tpy_str_cache_clear();
  return PyLong_FromLongLong(tether_object_live_count());
}

static PyObject* tpy_py_str_cache_clear(PyObject* self, PyObject* unused) {
  return PyLong_FromLong(tpy_str_cache_clear());
}

static PyObject* tpy_py_lib_path(PyObject* self, PyObject* unused) {
  Dl_info info;
  if (dladdr((void*)&TVMFFIGetVersion, &info) == 0 || info.dli_fname == NULL) {
    PyErr_SetString(PyExc_RuntimeError, "cannot locate libtether");
    return NULL;
  }
  return PyUnicode_DecodeFSDefault(info.dli_fname);
}

#define TPY_FASTCALL(f) ((PyCFunction)(void (*)(void))(f))

static PyMethodDef tpy_methods[] = {
    {"_set_class_device", tpy_py_set_class_device, METH_O,
     "_set_class_device(cls): make Device results instances of `cls`"},
    {"_env_set_current_stream", TPY_FASTCALL(tpy_py_env_set_current_stream), METH_FASTCALL,
     "_env_set_current_stream(device_type, device_id, stream) -> previous stream"},
    {"_env_get_current_stream", TPY_FASTCALL(tpy_py_env_get_current_stream), METH_FASTCALL,
     "_env_get_current_stream(device_type, device_id) -> current stream"},
    {"get_global_func", TPY_FASTCALL(tpy_py_get_global_func), METH_FASTCALL | METH_KEYWORDS,
     "get_global_func(name, allow_missing=False) -> Function | None"},
    {"_register_global_func", TPY_FASTCALL(tpy_py_register_global_func), METH_FASTCALL,
     "_register_global_func(name, func_or_callable, override=False) -> Function"},
    {"_register_object", TPY_FASTCALL(tpy_py_register_object), METH_FASTCALL,
     "_register_object(type_key, cls) -> cls: bind cls to type_key, install fields/methods/__init__"},
    {"_lookup_type_key", tpy_py_lookup_type_key, METH_O, "_lookup_type_key(index) -> str"},
    {"_type_key_to_index", tpy_py_type_key_to_index, METH_O, "_type_key_to_index(key) -> int"},
    {"_object_type_index", tpy_py_object_type_index, METH_O, "_object_type_index(obj) -> int"},
    {"_object_fields", tpy_py_object_fields, METH_O,
     "_object_fields(obj) -> (name0, value0, ...): the reflected fields, ancestors' first"},
    {"_new_object", tpy_py_new_object, METH_O,
     "_new_object(cls) -> cls.__new__(cls): an object without a handle (unpickling helper)"},
    {"_type_fields", tpy_py_type_fields, METH_O,
     "_type_fields(type_key) -> (parent type key, [(name, static type index, metadata)])"},
    {"_register_error", TPY_FASTCALL(tpy_py_register_error), METH_FASTCALL,
     "_register_error(kind, cls) -> cls: map an error kind to an exception class"},
    {"convert", tpy_py_convert, METH_O, "convert(value): the FFI value of a Python value"},
    {"device", TPY_FASTCALL(tpy_py_device), METH_FASTCALL | METH_KEYWORDS,
     "device(type_or_str, index=None) -> Device"},
    {"_live_object_count", tpy_py_live_object_count, METH_NOARGS,
     "number of FFI objects alive in libtether after emptying the str argument cache (for "
     "leak checks)"},
    {"_str_cache_clear", tpy_py_str_cache_clear, METH_NOARGS,
     "empty the str argument cache; returns the number of entries dropped"},
    {"_lib_path", tpy_py_lib_path, METH_NOARGS, "path of libtether.so"},
    {NULL},
};

static struct PyModuleDef tpy_module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "tether.core",
    .m_doc = "tether's CPython binding: Function, Object, conversions, errors",
    .m_size = -1,
    .m_methods = tpy_methods,
};

PyMODINIT_FUNC PyInit_core(void); /* the module's entry point */
PyMODINIT_FUNC PyInit_core(void) {
  TVMFFITestingDummyTarget();
  if (TVMFFIEnvRegisterCAPI("PyErr_CheckSignals", (void*)&PyErr_CheckSignals) != 0 ||
      TVMFFIEnvRegisterCAPI("PyGILState_Ensure", (void*)&PyGILState_Ensure) != 0 ||
      TVMFFIEnvRegisterCAPI("PyGILState_Release", (void*)&PyGILState_Release) != 0) {
    return tpy_raise_ffi_error();
  }
  PyObject* m = PyModule_Create(&tpy_module_def);
  if (m == NULL) return NULL;
  tpy_module = m;
  /* Order: value types and Object first (everything wraps into them), then errors (every
   * later failure may need them), functions and signature functions, conversions
   * (MISSING/KWARGS), tensors. */
  if (tpy_value_init(m) != 0 || tpy_object_init(m) != 0 || tpy_error_init(m) != 0 ||
      tpy_function_init(m) != 0 || tpy_signature_init(m) != 0 || tpy_convert_init(m) != 0 ||
      tpy_pycontainer_init(m) != 0 ||
      (tpy_tensor_init != NULL && tpy_tensor_init(m) != 0) || tpy_typeinfo_init(m) != 0) {
    tpy_module = NULL;
    Py_DECREF(m);
    return NULL;
  }
  /* Type schemas and their converters (CAny, _build_converter, _to_py_class_value); the C
   * API capsule for other extensions. */
  if (tpy_typeschema_init(m) != 0 || tpy_capi_init(m) != 0) {
    tpy_module = NULL;
    Py_DECREF(m);
    return NULL;
  }
  return m;
}
