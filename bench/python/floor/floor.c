/*
 * floor.c -- the "floor" of the Python-boundary benchmark: the cheapest honest way for
 * CPython to call a C packed function.  `tbfloor.nop(*args)` is a METH_FASTCALL builtin that
 * converts every argument into a 16-byte tagged value (TVMFFIAny) in a stack array, exactly
 * the work a packed-call binding must do, calls a no-op C callee through a volatile function
 * pointer (so nothing is optimised away) and returns None.  Nothing is allocated per call.
 *
 * Conversions (one dispatch on the exact type, most common kinds first):
 *   int    -> PyLong_AsLongLong                       (kTVMFFIInt; OverflowError past int64)
 *   float  -> PyFloat_AS_DOUBLE                       (kTVMFFIFloat)
 *   bool   -> 0/1                                     (kTVMFFIBool)
 *   None   ->                                         (kTVMFFINone)
 *   str    -> UTF-8 pointer + length in a stack TVMFFIByteArray (kTVMFFIByteArrayPtr)
 *   Handle -> the TVMFFIObject* stored in the Python object, tagged with the type index
 *             read from the object header (what an FFI binding does for its Object class)
 *   a type with __dlpack_c_exchange_api__ (torch.Tensor) -> the framework's
 *             dltensor_from_py_object_no_sync into a stack DLTensor (kTVMFFIDLTensorPtr);
 *             the capsule is looked up once per type and cached
 *   numpy.ndarray -> data, shape, strides and dtype read straight from the array struct
 *             (numpy's header-only accessors, as pybind11's py::array does) into a stack
 *             DLTensor (kTVMFFIDLTensorPtr); the ndarray type is found once, from an
 *             already-imported numpy (this module never imports numpy itself)
 *   any other buffer exporter -> PyObject_GetBuffer(PyBUF_RECORDS_RO) into a stack DLTensor
 *             (data, shape, element strides, dtype from the format), released after the call
 *
 * `tbfloor.NopObject()` is the same nop as a callable object (vectorcall), for comparison.
 * `tbfloor.Handle()` makes an object of the handle class, pointing at a static FFI object.
 * This file uses only CPython's API and tether's public C headers (for the value layouts).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <string.h>

#include "tether/c_api.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define FLOOR_HAVE_CALLGRIND 1
#endif
#endif

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/ndarraytypes.h> /* struct layout and inline accessors only: no API table */

#define FLOOR_MAX_ARGS 8
#define FLOOR_MAX_NDIM 8

/* ---- the callee ------------------------------------------------------------------------- */

/* A safe-call-shaped no-op: sets the result to None.  Called through a volatile pointer. */
static int floor_callee(void* handle, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)handle;
  (void)args;
  (void)num_args;
  result->type_index = kTVMFFINone;
  result->zero_padding = 0;
  result->v_int64 = 0;
  return 0;
}

static int (*volatile floor_call)(void*, const TVMFFIAny*, int32_t, TVMFFIAny*) = floor_callee;

/* ---- the handle class ------------------------------------------------------------------- */

/* A static FFI object every Handle points at (never freed: deleter NULL). */
static TVMFFIObject floor_static_object = {.combined_ref_count = 1, .type_index = kTVMFFIObject};

typedef struct {
  PyObject_HEAD TVMFFIObject* handle; /* borrowed from floor_static_object */
} FloorHandle;

static PyObject* floor_handle_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  (void)args;
  (void)kwargs;
  FloorHandle* self = (FloorHandle*)type->tp_alloc(type, 0);
  if (self != NULL) self->handle = &floor_static_object;
  return (PyObject*)self;
}

static PyTypeObject FloorHandle_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tbfloor.Handle",
    .tp_basicsize = sizeof(FloorHandle),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_new = floor_handle_new,
    .tp_doc = "An object holding a pointer to an FFI object (the floor's Object class).",
};

/* ---- tensors ---------------------------------------------------------------------------- */

/* One-entry cache: the last type probed for __dlpack_c_exchange_api__ and its table (NULL if
 * the type has none).  The type is kept alive by the reference held here. */
static PyTypeObject* floor_dlpack_type = NULL;
static const DLPackExchangeAPI* floor_dlpack_api = NULL;

/* The exchange table of `type`, or NULL if it has none.  -1 on error (Python error set). */
static int floor_lookup_exchange_api(PyTypeObject* type, const DLPackExchangeAPI** out) {
  if (type == floor_dlpack_type) {
    *out = floor_dlpack_api;
    return 0;
  }
  const DLPackExchangeAPI* api = NULL;
  PyObject* capsule = PyObject_GetAttrString((PyObject*)type, "__dlpack_c_exchange_api__");
  if (capsule == NULL) {
    PyErr_Clear();
  } else {
    api = (const DLPackExchangeAPI*)PyCapsule_GetPointer(capsule, "dlpack_exchange_api");
    Py_DECREF(capsule);
    if (api == NULL) return -1;
  }
  Py_INCREF(type);
  Py_XDECREF(floor_dlpack_type);
  floor_dlpack_type = type;
  floor_dlpack_api = api;
  *out = api;
  return 0;
}

/* numpy.ndarray, once numpy has been imported by someone (NULL before; a strong reference). */
static PyTypeObject* floor_numpy_type = NULL;

/* Looks numpy.ndarray up in sys.modules (the slow path, taken until numpy is found). */
static PyTypeObject* floor_find_numpy_type(void) {
  if (floor_numpy_type != NULL) return floor_numpy_type;
  PyObject* modules = PyImport_GetModuleDict(); /* borrowed */
  PyObject* np = PyDict_GetItemString(modules, "numpy"); /* borrowed */
  if (np == NULL) return NULL;
  PyObject* nd = PyObject_GetAttrString(np, "ndarray");
  if (nd == NULL) {
    PyErr_Clear();
    return NULL;
  }
  if (!PyType_Check(nd)) {
    Py_DECREF(nd);
    return NULL;
  }
  floor_numpy_type = (PyTypeObject*)nd; /* keeps the reference */
  return floor_numpy_type;
}

/* DLPack dtype of a numpy type number; -1 (TypeError set) for the kinds this floor skips. */
static int floor_dtype_from_numpy(int type_num, DLDataType* out) {
  out->lanes = 1;
  switch (type_num) {
    case NPY_FLOAT: out->code = kDLFloat; out->bits = 32; return 0;
    case NPY_DOUBLE: out->code = kDLFloat; out->bits = 64; return 0;
    case NPY_HALF: out->code = kDLFloat; out->bits = 16; return 0;
    case NPY_INT8: out->code = kDLInt; out->bits = 8; return 0;
    case NPY_INT16: out->code = kDLInt; out->bits = 16; return 0;
    case NPY_INT32: out->code = kDLInt; out->bits = 32; return 0;
    case NPY_INT64: out->code = kDLInt; out->bits = 64; return 0;
    case NPY_UINT8: out->code = kDLUInt; out->bits = 8; return 0;
    case NPY_UINT16: out->code = kDLUInt; out->bits = 16; return 0;
    case NPY_UINT32: out->code = kDLUInt; out->bits = 32; return 0;
    case NPY_UINT64: out->code = kDLUInt; out->bits = 64; return 0;
    case NPY_BOOL: out->code = kDLBool; out->bits = 8; return 0;
    default:
      PyErr_Format(PyExc_TypeError, "tbfloor.nop: unsupported numpy type number %d", type_num);
      return -1;
  }
}

/* DLPack dtype from a struct-module format string of one element ("f", "<f", "=d", ...). */
static int floor_dtype_from_format(const char* fmt, Py_ssize_t itemsize, DLDataType* out) {
  if (fmt == NULL) fmt = "B";
  if (*fmt == '<' || *fmt == '=' || *fmt == '@') fmt++;
  out->lanes = 1;
  out->bits = (uint8_t)(itemsize * 8);
  switch (*fmt) {
    case 'f': case 'd': case 'e': out->code = kDLFloat; break;
    case 'b': case 'h': case 'i': case 'l': case 'q': out->code = kDLInt; break;
    case 'B': case 'H': case 'I': case 'L': case 'Q': out->code = kDLUInt; break;
    case '?': out->code = kDLBool; break;
    default:
      PyErr_Format(PyExc_TypeError, "tbfloor.nop: unsupported buffer format '%s'", fmt);
      return -1;
  }
  return 0;
}

/* ---- nop -------------------------------------------------------------------------------- */

static PyObject* floor_nop(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  (void)self;
  TVMFFIAny values[FLOOR_MAX_ARGS];
  TVMFFIByteArray strs[FLOOR_MAX_ARGS];
  DLTensor tensors[FLOOR_MAX_ARGS];
  Py_buffer buffers[FLOOR_MAX_ARGS];
  int64_t strides[FLOOR_MAX_ARGS][FLOOR_MAX_NDIM];
  int nbuffers = 0;
  PyObject* ret = NULL;

  if (nargs > FLOOR_MAX_ARGS) {
    PyErr_Format(PyExc_TypeError, "tbfloor.nop: at most %d arguments, got %zd", FLOOR_MAX_ARGS,
                 nargs);
    return NULL;
  }
  for (Py_ssize_t i = 0; i < nargs; ++i) {
    PyObject* obj = args[i];
    PyTypeObject* type = Py_TYPE(obj);
    TVMFFIAny* v = &values[i];
    v->zero_padding = 0;
    if (type == &PyLong_Type) {
      long long x = PyLong_AsLongLong(obj);
      if (x == -1 && PyErr_Occurred()) goto done;
      v->type_index = kTVMFFIInt;
      v->v_int64 = x;
    } else if (type == &PyFloat_Type) {
      v->type_index = kTVMFFIFloat;
      v->v_float64 = PyFloat_AS_DOUBLE(obj);
    } else if (type == &PyUnicode_Type) {
      Py_ssize_t size;
      const char* data = PyUnicode_AsUTF8AndSize(obj, &size);
      if (data == NULL) goto done;
      strs[i].data = data;
      strs[i].size = (size_t)size;
      v->type_index = kTVMFFIByteArrayPtr;
      v->v_ptr = &strs[i];
    } else if (type == &FloorHandle_Type) {
      TVMFFIObject* handle = ((FloorHandle*)obj)->handle;
      v->type_index = handle->type_index;
      v->v_obj = handle;
    } else if (obj == Py_None) {
      v->type_index = kTVMFFINone;
      v->v_int64 = 0;
    } else if (type == &PyBool_Type) {
      v->type_index = kTVMFFIBool;
      v->v_int64 = obj == Py_True;
    } else if (type == floor_numpy_type || (floor_numpy_type == NULL && floor_find_numpy_type() == type)) {
      PyArrayObject* arr = (PyArrayObject*)obj;
      DLTensor* t = &tensors[i];
      if (floor_dtype_from_numpy(PyArray_DESCR(arr)->type_num, &t->dtype) != 0) goto done;
      int ndim = PyArray_NDIM(arr);
      if (ndim > FLOOR_MAX_NDIM) {
        PyErr_SetString(PyExc_ValueError, "tbfloor.nop: too many dimensions");
        goto done;
      }
      const npy_intp* st = PyArray_STRIDES(arr);
      int64_t itemsize = t->dtype.bits / 8;
      for (int d = 0; d < ndim; ++d) strides[i][d] = st[d] / itemsize;
      t->data = PyArray_DATA(arr);
      t->device.device_type = kDLCPU;
      t->device.device_id = 0;
      t->ndim = ndim;
      t->shape = (int64_t*)PyArray_DIMS(arr);
      t->strides = strides[i];
      t->byte_offset = 0;
      v->type_index = kTVMFFIDLTensorPtr;
      v->v_ptr = t;
    } else {
      const DLPackExchangeAPI* api;
      if (floor_lookup_exchange_api(type, &api) != 0) goto done;
      if (api != NULL) {
        if (api->dltensor_from_py_object_no_sync(obj, &tensors[i]) != 0) {
          if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "tbfloor.nop: DLPack failed");
          goto done;
        }
      } else if (PyObject_CheckBuffer(obj)) {
        Py_buffer* view = &buffers[nbuffers];
        if (PyObject_GetBuffer(obj, view, PyBUF_RECORDS_RO) != 0) goto done;
        ++nbuffers;
        if (view->ndim > FLOOR_MAX_NDIM) {
          PyErr_SetString(PyExc_ValueError, "tbfloor.nop: too many dimensions");
          goto done;
        }
        DLTensor* t = &tensors[i];
        t->data = view->buf;
        t->device.device_type = kDLCPU;
        t->device.device_id = 0;
        t->ndim = view->ndim;
        if (floor_dtype_from_format(view->format, view->itemsize, &t->dtype) != 0) goto done;
        t->shape = (int64_t*)view->shape; /* Py_ssize_t is int64_t on the 64-bit targets */
        for (int d = 0; d < view->ndim; ++d) strides[i][d] = view->strides[d] / view->itemsize;
        t->strides = strides[i];
        t->byte_offset = 0;
      } else {
        PyErr_Format(PyExc_TypeError, "tbfloor.nop: unsupported argument %zd of type %s", i,
                     type->tp_name);
        goto done;
      }
      v->type_index = kTVMFFIDLTensorPtr;
      v->v_ptr = &tensors[i];
    }
  }
  {
    TVMFFIAny result;
    if (floor_call(NULL, values, (int32_t)nargs, &result) != 0) {
      PyErr_SetString(PyExc_RuntimeError, "tbfloor.nop: callee failed");
      goto done;
    }
  }
  ret = Py_NewRef(Py_None);
done:
  for (int b = 0; b < nbuffers; ++b) PyBuffer_Release(&buffers[b]);
  return ret;
}

/* ---- the same nop as a callable object -------------------------------------------------- */

/* tbfloor.NopObject(): an instance whose call (vectorcall, Py_TPFLAGS_HAVE_VECTORCALL) runs
 * floor_nop.  Function objects of FFI bindings are callable instances like this, not builtin
 * functions, and CPython dispatches the two differently; this isolates that difference. */
typedef struct {
  PyObject_HEAD vectorcallfunc vectorcall;
} FloorNopObject;

static PyObject* floor_nop_object_vectorcall(PyObject* self, PyObject* const* args, size_t nargsf,
                                             PyObject* kwnames) {
  if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0) {
    PyErr_SetString(PyExc_TypeError, "tbfloor.NopObject: no keyword arguments");
    return NULL;
  }
  return floor_nop(self, args, PyVectorcall_NARGS(nargsf));
}

static PyObject* floor_nop_object_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  (void)args;
  (void)kwargs;
  FloorNopObject* self = (FloorNopObject*)type->tp_alloc(type, 0);
  if (self != NULL) self->vectorcall = floor_nop_object_vectorcall;
  return (PyObject*)self;
}

static PyTypeObject FloorNopObject_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tbfloor.NopObject",
    .tp_basicsize = sizeof(FloorNopObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_vectorcall_offset = offsetof(FloorNopObject, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_new = floor_nop_object_new,
    .tp_doc = "A callable object whose vectorcall is tbfloor.nop.",
};

/* ---- callgrind client requests (for the instruction-count mode of bench_boundary.py) -------- */

/* _callgrind(op, name=None): op "start" / "stop" instrumentation, "zero" the counters, "dump"
 * them under `name`.  Returns True when running under valgrind (and built with its header). */
static PyObject* floor_callgrind(PyObject* self, PyObject* args) {
  (void)self;
  const char* op;
  const char* name = "dump";
  if (!PyArg_ParseTuple(args, "s|s", &op, &name)) return NULL;
#ifdef FLOOR_HAVE_CALLGRIND
  if (strcmp(op, "start") == 0) {
    CALLGRIND_START_INSTRUMENTATION;
  } else if (strcmp(op, "stop") == 0) {
    CALLGRIND_STOP_INSTRUMENTATION;
  } else if (strcmp(op, "zero") == 0) {
    CALLGRIND_ZERO_STATS;
  } else if (strcmp(op, "dump") == 0) {
    CALLGRIND_DUMP_STATS_AT(name);
  } else {
    PyErr_Format(PyExc_ValueError, "tbfloor._callgrind: unknown op '%s'", op);
    return NULL;
  }
  return PyBool_FromLong(RUNNING_ON_VALGRIND != 0);
#else
  (void)op;
  (void)name;
  Py_RETURN_FALSE;
#endif
}

static PyMethodDef floor_methods[] = {
    {"_callgrind", floor_callgrind, METH_VARARGS,
     "_callgrind(op, name=None): callgrind client requests (start/stop/zero/dump)."},
    {"nop", (PyCFunction)(void (*)(void))floor_nop, METH_FASTCALL,
     "nop(*args): convert every argument to a tagged value, call a C no-op, return None."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef floor_module = {
    PyModuleDef_HEAD_INIT, "tbfloor", "The floor of the tether Python-boundary benchmark.", -1,
    floor_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit_tbfloor(void) {
  if (PyType_Ready(&FloorHandle_Type) < 0 || PyType_Ready(&FloorNopObject_Type) < 0) return NULL;
  PyObject* m = PyModule_Create(&floor_module);
  if (m == NULL) return NULL;
  if (PyModule_AddObjectRef(m, "Handle", (PyObject*)&FloorHandle_Type) < 0 ||
      PyModule_AddObjectRef(m, "NopObject", (PyObject*)&FloorNopObject_Type) < 0) {
    Py_DECREF(m);
    return NULL;
  }
  return m;
}
