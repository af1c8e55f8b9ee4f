/*
 * function.c -- `Function` (the Python view of an ffi.Function), Python callbacks, and the
 * global-registry functions get_global_func / _register_global_func.
 *
 * The call path (tpy_function_vectorcall) is the hot path of the whole binding: it keeps
 * everything on the C stack, reads the cached safe_call pointer, and touches no refcount
 * of the function.
 *
 * The GIL, as in tvm-ffi: a Function releases it around the C call (`release_gil` True)
 * unless told otherwise, so a kernel may run long, and may call a Python callback from
 * threads of its own, without stalling or deadlocking the interpreter.  The default comes
 * from TETHER_RELEASE_GIL_BY_DEFAULT (else TVM_FFI_RELEASE_GIL_BY_DEFAULT; "1" if neither
 * is set).  A function whose creator declared TETHER_FUNC_KEEPS_GIL (tether's own
 * constructors and container globals: they neither block nor call back) is wrapped with
 * `release_gil` False instead; the flag is read once, when the Function is wrapped.  Either
 * way the property can be set per Function object.
 */
#include "function.h"

#include <errno.h>

#include "convert.h"
#include "error.h"

/* The initial `release_gil` of every wrapped Function (from the environment, at init). */
static int tpy_release_gil_default = 1;

/* ---- calling ------------------------------------------------------------------------------- */

/* The general call: arguments converted into a stack array (heap beyond TPY_STACK_ARGS),
 * temporaries released after the call, the GIL released around it when asked. */
TPY_BACKTRACE_VISIBLE PyObject* tpy_function_call_general(TpyFunction* f, PyObject* const* args,
                                                          Py_ssize_t n, PyObject* kwnames) {
  if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0) {
    PyErr_Format(PyExc_TypeError, "%s() does not accept keyword arguments",
                 f->name ? PyUnicode_AsUTF8(f->name) : "ffi.Function");
    return NULL;
  }
  if (f->safe_call == NULL) {
    PyErr_SetString(PyExc_ValueError, "cannot call a Function without a handle");
    return NULL;
  }
  TVMFFIAny stack[TPY_STACK_ARGS];
  TVMFFIAny* views = stack;
  if (n > TPY_STACK_ARGS) {
    if (n > INT32_MAX) {
      PyErr_SetString(PyExc_OverflowError, "too many arguments");
      return NULL;
    }
    views = PyMem_Malloc(sizeof(TVMFFIAny) * (size_t)n);
    if (views == NULL) return PyErr_NoMemory();
  }
  tpy_temps temps;
  tpy_temps_init(&temps);
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (tpy_arg_fast(args[i], &views[i], &temps) != 0) {
      tpy_temps_release(&temps);
      if (views != stack) PyMem_Free(views);
      return NULL;
    }
  }
  PyObject* r = tpy_call_safe(f->safe_call, f->base.handle, views, (int32_t)n, &temps,
                              f->release_gil);
  if (views != stack) PyMem_Free(views);
  return r;
}

/* The common call with 1..TPY_STACK_ARGS positional arguments (f has a handle): arguments
 * converted into a stack array, no checks left to do.  Kept out of line so that the
 * no-argument call keeps a minimal frame.  Called through the local name (a direct jump,
 * no PLT); the exported alias only names the frame in C backtraces. */
static __attribute__((noinline)) PyObject* tpy_function_call_args_local(TpyFunction* f,
                                                                        PyObject* const* args,
                                                                        size_t n) {
  TVMFFIAny views[TPY_STACK_ARGS];
  tpy_temps temps;
  tpy_temps_init(&temps);
  for (size_t i = 0; i < n; ++i) {
    if (tpy_arg_fast(args[i], &views[i], &temps) != 0) {
      tpy_temps_release(&temps);
      return NULL;
    }
  }
  return tpy_call_safe(f->safe_call, f->base.handle, views, (int32_t)n, &temps, f->release_gil);
}
TPY_BACKTRACE_VISIBLE PyObject* tpy_function_call_args(TpyFunction* f, PyObject* const* args,
                                                       size_t n)
    __attribute__((alias("tpy_function_call_args_local")));

/*
 * Function's vectorcall.  The common calls -- positional arguments only, at most
 * TPY_STACK_ARGS of them -- are done here (no argument) or in tpy_function_call_args;
 * everything else goes to tpy_function_call_general.
 */
TPY_BACKTRACE_VISIBLE PyObject* tpy_function_vectorcall(PyObject* self, PyObject* const* args,
                                                        size_t nargsf, PyObject* kwnames) {
  TpyFunction* f = (TpyFunction*)self;
  size_t n = (size_t)PyVectorcall_NARGS(nargsf);
  if (kwnames == NULL && f->safe_call != NULL) {
    if (n == 0) {
      TVMFFIAny result;
      result.type_index = kTVMFFINone;
      result.zero_padding = 0;
      result.v_int64 = 0;
      int rc;
      if (f->release_gil) {
        PyThreadState* ts = PyEval_SaveThread();
        rc = f->safe_call(f->base.handle, NULL, 0, &result);
        PyEval_RestoreThread(ts);
      } else {
        rc = f->safe_call(f->base.handle, NULL, 0, &result);
      }
      if (rc != 0) return tpy_raise_ffi_error();
      if (result.type_index == kTVMFFINone) Py_RETURN_NONE;
      return tpy_from_any_steal(&result);
    }
    if (n <= TPY_STACK_ARGS) return tpy_function_call_args_local(f, args, n);
  }
  return tpy_function_call_general(f, args, (Py_ssize_t)n, kwnames);
}

/* ---- the type ------------------------------------------------------------------------------ */

/* Points f at function h (stolen; may be NULL) and sets its initial release_gil: the
 * default, unless h's creator declared that it keeps the GIL. */
static void tpy_function_set_handle(TpyFunction* f, TVMFFIObject* h) {
  f->base.handle = h;
  f->safe_call = h ? TPY_CELL(TVMFFIFunctionCell, h)->safe_call : NULL;
  f->vectorcall = tpy_function_vectorcall;
  f->release_gil = tpy_release_gil_default && !(tether_func_flags(h) & TETHER_FUNC_KEEPS_GIL);
}

PyObject* tpy_function_wrap_steal(TVMFFIObject* func) {
  PyTypeObject* cls = tpy_class_for_index(kTVMFFIFunction);
  if (cls == NULL) {
    TVMFFIObjectDecRef(func);
    return NULL;
  }
  TpyFunction* f = (TpyFunction*)cls->tp_alloc(cls, 0);
  if (f == NULL) {
    TVMFFIObjectDecRef(func);
    return NULL;
  }
  tpy_function_set_handle(f, func);
  f->name = NULL;
  return (PyObject*)f;
}

/* Function(callable=None): a callback Function, or a copy of another Function. */
static PyObject* tpy_function_new(PyTypeObject* type, PyObject* args, PyObject* kwds) {
  PyObject* callable = NULL;
  static char* kwlist[] = {"func", NULL};
  if (type != &TpyFunction_Type) { /* a subclass: its __init__ takes the arguments */
    if (PyTuple_GET_SIZE(args) >= 1) callable = PyTuple_GET_ITEM(args, 0);
  } else if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O:Function", kwlist, &callable)) {
    return NULL;
  }
  TVMFFIObject* h = NULL;
  if (type != &TpyFunction_Type && callable != NULL && !PyCallable_Check(callable)) {
    /* A subclass's own constructor arguments: the instance starts without a handle (one
     * is moved in later with __move_handle_from__). */
    callable = NULL;
  }
  if (callable != NULL && callable != Py_None) {
    if (PyObject_TypeCheck(callable, &TpyFunction_Type) && ((TpyObject*)callable)->handle) {
      h = ((TpyObject*)callable)->handle;
      TVMFFIObjectIncRef(h);
    } else if (!PyCallable_Check(callable)) {
      PyErr_Format(PyExc_TypeError, "Function() expects a callable, got %.200s",
                   Py_TYPE(callable)->tp_name);
      return NULL;
    } else if (tpy_function_from_callable(callable, &h) != 0) {
      return NULL;
    }
  }
  TpyFunction* f = (TpyFunction*)type->tp_alloc(type, 0);
  if (f == NULL) {
    TVMFFIObjectDecRef(h);
    return NULL;
  }
  tpy_function_set_handle(f, h);
  if (callable != NULL && callable != Py_None) {
    f->name = PyObject_GetAttrString(callable, "__name__");
    if (f->name != NULL && !PyUnicode_Check(f->name)) Py_CLEAR(f->name);
    if (f->name == NULL) PyErr_Clear();
  }
  return (PyObject*)f;
}

static void tpy_function_dealloc(PyObject* self) {
  TpyFunction* f = (TpyFunction*)self;
  TVMFFIObject* h = f->base.handle;
  f->base.handle = NULL;
  Py_CLEAR(f->name);
  Py_TYPE(self)->tp_free(self);
  if (h != NULL) TVMFFIObjectDecRef(h);
}

static PyObject* tpy_function_repr(PyObject* self) { return PyUnicode_FromString("ffi.Function"); }

static PyObject* tpy_function_get_release_gil(PyObject* self, void* c) {
  return PyBool_FromLong(((TpyFunction*)self)->release_gil);
}
/* As tvm-ffi: any number with an integer value (bool, int, float, numpy scalars); its
 * truth after conversion to int is the new setting. */
static int tpy_function_set_release_gil(PyObject* self, PyObject* value, void* c) {
  if (value == NULL) {
    PyErr_SetString(PyExc_AttributeError, "cannot delete release_gil");
    return -1;
  }
  PyNumberMethods* nb = Py_TYPE(value)->tp_as_number;
  if (!PyLong_Check(value) && (nb == NULL || (nb->nb_int == NULL && nb->nb_index == NULL))) {
    PyErr_Format(PyExc_TypeError, "release_gil: an integer is required, got %.200s",
                 Py_TYPE(value)->tp_name);
    return -1;
  }
  PyObject* as_int = PyNumber_Long(value);
  if (as_int == NULL) return -1;
  int v = PyObject_IsTrue(as_int);
  Py_DECREF(as_int);
  if (v < 0) return -1;
  ((TpyFunction*)self)->release_gil = v;
  return 0;
}

static PyObject* tpy_function_get_name(PyObject* self, void* c) {
  PyObject* name = ((TpyFunction*)self)->name;
  return name ? Py_NewRef(name) : PyUnicode_FromString("ffi.Function");
}
static int tpy_function_set_name(PyObject* self, PyObject* value, void* c) {
  if (value != NULL && !PyUnicode_Check(value)) {
    PyErr_SetString(PyExc_TypeError, "__name__ must be a str");
    return -1;
  }
  Py_XSETREF(((TpyFunction*)self)->name, Py_XNewRef(value));
  return 0;
}

/* Function.__from_extern_c__(address, keep_alive_object=None): wraps a SafeCall function. */
static PyObject* tpy_function_from_extern_c(PyObject* cls, PyObject* args, PyObject* kwds) {
  PyObject *addr = NULL, *keep = Py_None;
  static char* kwlist[] = {"address", "keep_alive_object", NULL};
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|O:__from_extern_c__", kwlist, &addr, &keep)) {
    return NULL;
  }
  void* p = PyLong_AsVoidPtr(addr);
  if (p == NULL) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "__from_extern_c__: NULL address");
    return NULL;
  }
  TVMFFIObjectHandle h = NULL;
  int rc;
  if (keep == Py_None) {
    rc = TVMFFIFunctionCreate(NULL, (TVMFFISafeCallType)p, NULL, &h);
  } else {
    Py_INCREF(keep);
    rc = TVMFFIFunctionCreate(keep, (TVMFFISafeCallType)p, tpy_decref_deleter, &h);
    if (rc != 0) Py_DECREF(keep);
  }
  if (rc != 0) return tpy_raise_ffi_error();
  return tpy_function_wrap_steal(h);
}

/* A function in the MLIR packed calling convention: fn(void** packed) with packed = {&handle,
 * &args, &num_args, &result, &return_code}, and what keeps its code alive. */
typedef struct {
  void (*fn)(void** packed);
  PyObject* keep_alive; /* owned, or NULL */
} tpy_mlir_closure;

static int tpy_mlir_call(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  tpy_mlir_closure* c = self;
  void* handle = NULL;
  int rc = 0;
  void* packed[5] = {&handle, &args, &n, &result, &rc};
  c->fn(packed);
  return rc;
}

static void tpy_mlir_free(void* self) {
  tpy_mlir_closure* c = self;
  PyObject* keep = c->keep_alive;
  PyMem_RawFree(c);
  if (keep != NULL) tpy_decref_deleter(keep);
}

/* Function.__from_mlir_packed_safe_call__(address, keep_alive_object=None). */
static PyObject* tpy_function_from_mlir(PyObject* cls, PyObject* args, PyObject* kwds) {
  PyObject *addr = NULL, *keep = Py_None;
  static char* kwlist[] = {"address", "keep_alive_object", NULL};
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|O:__from_mlir_packed_safe_call__", kwlist,
                                   &addr, &keep)) {
    return NULL;
  }
  void* p = PyLong_AsVoidPtr(addr);
  if (p == NULL) {
    if (!PyErr_Occurred()) {
      PyErr_SetString(PyExc_ValueError, "__from_mlir_packed_safe_call__: NULL address");
    }
    return NULL;
  }
  tpy_mlir_closure* c = PyMem_RawMalloc(sizeof(*c));
  if (c == NULL) return PyErr_NoMemory();
  c->fn = (void (*)(void**))p;
  c->keep_alive = keep == Py_None ? NULL : Py_NewRef(keep);
  TVMFFIObjectHandle h = NULL;
  if (TVMFFIFunctionCreate(c, tpy_mlir_call, tpy_mlir_free, &h) != 0) {
    Py_XDECREF(c->keep_alive);
    PyMem_RawFree(c);
    return tpy_raise_ffi_error();
  }
  return tpy_function_wrap_steal(h);
}

/* f.__move_handle_from__(other): f takes over other's function (other is left empty). */
static PyObject* tpy_function_move_handle_from(PyObject* self, PyObject* other) {
  if (!PyObject_TypeCheck(other, &TpyFunction_Type)) {
    PyErr_Format(PyExc_TypeError, "__move_handle_from__: expected a Function, got %.200s",
                 Py_TYPE(other)->tp_name);
    return NULL;
  }
  TpyFunction* f = (TpyFunction*)self;
  TpyFunction* g = (TpyFunction*)other;
  TVMFFIObject* old = f->base.handle;
  TVMFFIObject* h = g->base.handle;
  tpy_function_set_handle(g, NULL);
  tpy_function_set_handle(f, h);
  if (f->name == NULL && g->name != NULL) f->name = Py_NewRef(g->name);
  if (old != NULL) TVMFFIObjectDecRef(old);
  Py_RETURN_NONE;
}

static PyGetSetDef tpy_function_getset[] = {
    {"release_gil", tpy_function_get_release_gil, tpy_function_set_release_gil,
     "whether calls release the GIL while the C function runs", NULL},
    {"__name__", tpy_function_get_name, tpy_function_set_name, "the registered name", NULL},
    {NULL},
};

static PyMethodDef tpy_function_methods[] = {
    {"__from_extern_c__", (PyCFunction)(void (*)(void))tpy_function_from_extern_c,
     METH_VARARGS | METH_KEYWORDS | METH_CLASS,
     "__from_extern_c__(address, keep_alive_object=None): Function of a SafeCall address"},
    {"__from_mlir_packed_safe_call__", (PyCFunction)(void (*)(void))tpy_function_from_mlir,
     METH_VARARGS | METH_KEYWORDS | METH_CLASS,
     "__from_mlir_packed_safe_call__(address, keep_alive_object=None): Function of a function "
     "taking MLIR's packed argument array"},
    {"__move_handle_from__", tpy_function_move_handle_from, METH_O,
     "__move_handle_from__(other): take over other's function, leaving other empty"},
    {NULL},
};

PyTypeObject TpyFunction_Type = {
    PyVarObject_HEAD_INIT(&TpyObjectMeta_Type, 0).tp_name = "tether.core.Function",
    .tp_basicsize = sizeof(TpyFunction),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "An ffi.Function: call it like a Python function (positional arguments only)",
    .tp_vectorcall_offset = offsetof(TpyFunction, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_new = tpy_function_new,
    .tp_dealloc = tpy_function_dealloc,
    .tp_repr = tpy_function_repr,
    .tp_getset = tpy_function_getset,
    .tp_methods = tpy_function_methods,
};

/* ---- callbacks ----------------------------------------------------------------------------- */

/* The safe_call of a Function made from a Python callable (`self`). */
TPY_BACKTRACE_VISIBLE int tpy_callback_call(void* self, const TVMFFIAny* args, int32_t n,
                                            TVMFFIAny* result) {
  PyGILState_STATE g = PyGILState_Ensure();
  PyObject* stack[TPY_STACK_ARGS];
  PyObject** argv = n <= TPY_STACK_ARGS ? stack : PyMem_Malloc(sizeof(PyObject*) * (size_t)n);
  int32_t i = 0;
  int rc = -1;
  if (argv == NULL) {
    PyErr_NoMemory();
    goto done;
  }
  for (; i < n; ++i) {
    argv[i] = tpy_from_any_view(&args[i]);
    if (argv[i] == NULL) goto done;
  }
  PyObject* r = PyObject_Vectorcall((PyObject*)self, argv, (size_t)n, NULL);
  if (r == NULL) goto done;
  result->type_index = kTVMFFINone;
  result->zero_padding = 0;
  result->v_int64 = 0;
  if (r == Py_None) {
    rc = 0;
  } else {
    rc = tpy_to_owned_any(r, result);
  }
  Py_DECREF(r);
done:
  if (argv != NULL) {
    while (i > 0) Py_DECREF(argv[--i]);
    if (argv != stack) PyMem_Free(argv);
  }
  if (rc != 0) rc = tpy_park_py_error();
  PyGILState_Release(g);
  return rc;
}

int tpy_function_from_callable(PyObject* callable, TVMFFIObject** out) {
  Py_INCREF(callable);
  if (TVMFFIFunctionCreate(callable, tpy_callback_call, tpy_decref_deleter, (TVMFFIObjectHandle*)out) != 0) {
    Py_DECREF(callable);
    tpy_raise_ffi_error();
    return -1;
  }
  return 0;
}

/* ---- the global registry ------------------------------------------------------------------- */

/* get_global_func(name, allow_missing=False) -> Function or None */
PyObject* tpy_py_get_global_func(PyObject* self, PyObject* const* args, Py_ssize_t n,
                                 PyObject* kwnames) {
  PyObject *name = NULL, *allow_missing = Py_False;
  Py_ssize_t nk = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  if (n >= 1) name = args[0];
  if (n >= 2) allow_missing = args[1];
  for (Py_ssize_t i = 0; i < nk; ++i) {
    const char* k = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, i));
    if (k == NULL) return NULL;
    if (strcmp(k, "name") == 0 && name == NULL) {
      name = args[n + i];
    } else if (strcmp(k, "allow_missing") == 0 && n < 2) {
      allow_missing = args[n + i];
    } else {
      PyErr_Format(PyExc_TypeError, "get_global_func() got an unexpected keyword argument '%s'", k);
      return NULL;
    }
  }
  if (name == NULL || n > 2 || !PyUnicode_Check(name)) {
    PyErr_SetString(PyExc_TypeError, "get_global_func(name: str, allow_missing=False)");
    return NULL;
  }
  Py_ssize_t len;
  const char* s = PyUnicode_AsUTF8AndSize(name, &len);
  if (s == NULL) return NULL;
  TVMFFIByteArray b = {s, (size_t)len};
  TVMFFIObjectHandle h = NULL;
  if (TVMFFIFunctionGetGlobal(&b, &h) != 0) return tpy_raise_ffi_error();
  if (h == NULL) {
    int allow = PyObject_IsTrue(allow_missing);
    if (allow < 0) return NULL;
    if (allow) Py_RETURN_NONE;
    PyErr_Format(PyExc_ValueError, "Cannot find global function %s", s);
    return NULL;
  }
  PyObject* f = tpy_function_wrap_steal(h);
  if (f == NULL) return NULL;
  ((TpyFunction*)f)->name = Py_NewRef(name);
  return f;
}

/* _register_global_func(name, func_or_callable, override=False) -> Function */
PyObject* tpy_py_register_global_func(PyObject* self, PyObject* const* args, Py_ssize_t n) {
  if (n < 2 || n > 3 || !PyUnicode_Check(args[0])) {
    PyErr_SetString(PyExc_TypeError, "_register_global_func(name: str, func, override=False)");
    return NULL;
  }
  int override = 0;
  if (n == 3 && (override = PyObject_IsTrue(args[2])) < 0) return NULL;
  PyObject* func = NULL;
  if (PyObject_TypeCheck(args[1], &TpyFunction_Type)) {
    func = Py_NewRef(args[1]);
  } else if (PyCallable_Check(args[1])) {
    func = PyObject_CallOneArg((PyObject*)&TpyFunction_Type, args[1]);
    if (func == NULL) return NULL;
  } else {
    PyErr_Format(PyExc_TypeError, "_register_global_func: expected a callable, got %.200s",
                 Py_TYPE(args[1])->tp_name);
    return NULL;
  }
  Py_ssize_t len;
  const char* s = PyUnicode_AsUTF8AndSize(args[0], &len);
  TVMFFIByteArray b = {s, (size_t)len};
  if (s == NULL || ((TpyObject*)func)->handle == NULL) {
    if (s != NULL) PyErr_SetString(PyExc_ValueError, "cannot register a Function without a handle");
    Py_DECREF(func);
    return NULL;
  }
  if (TVMFFIFunctionSetGlobal(&b, ((TpyObject*)func)->handle, override) != 0) {
    Py_DECREF(func);
    return tpy_raise_ffi_error();
  }
  return func;
}

/* Reads the default release_gil from the environment: TETHER_RELEASE_GIL_BY_DEFAULT, else
 * TVM_FFI_RELEASE_GIL_BY_DEFAULT (an integer, as tvm-ffi reads it); 1 when neither is set.
 * 0, or -1 with ValueError for a value that is not an integer. */
static int tpy_function_read_default(void) {
  static const char* const vars[] = {"TETHER_RELEASE_GIL_BY_DEFAULT",
                                     "TVM_FFI_RELEASE_GIL_BY_DEFAULT"};
  for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); ++i) {
    const char* env = getenv(vars[i]);
    if (env == NULL) continue;
    char* end = NULL;
    errno = 0;
    long v = strtol(env, &end, 10);
    while (end != NULL && (*end == ' ' || *end == '\t' || *end == '\n')) ++end;
    if (end == env || end == NULL || *end != '\0' || errno != 0) {
      PyErr_Format(PyExc_ValueError, "%s=%.100s: expected an integer (0: Functions keep the GIL, "
                   "1: they release it)", vars[i], env);
      return -1;
    }
    tpy_release_gil_default = v != 0;
    return 0;
  }
  tpy_release_gil_default = 1;
  return 0;
}

int tpy_function_init(PyObject* module) {
  if (tpy_function_read_default() != 0) return -1;
  TpyFunction_Type.tp_base = &TpyObject_Type;
  if (PyType_Ready(&TpyFunction_Type) != 0) return -1;
  if (tpy_register_class(kTVMFFIFunction, &TpyFunction_Type) != 0) return -1;
  return PyModule_AddObjectRef(module, "Function", (PyObject*)&TpyFunction_Type);
}
