/*
 * signature.c -- `SignatureFunction`: a packed Function called through a Python signature
 * (named parameters, defaults, keywords), in C.
 *
 * An op wrapper such as relax.op.nn.conv2d(data, weight, strides=(1, 1), ...) is, in TVM, a
 * Python function that fills in defaults, widens int arguments to tuples and calls the C++
 * constructor.  Done in Python that costs a frame and a few helper calls per op -- more than
 * building the Call itself.  A SignatureFunction does the same work in one vectorcall:
 *
 *   - positional and keyword arguments are matched to the parameters (keywords by interned
 *     pointer first, then by value), with Python's own error texts for a missing, repeated or
 *     unknown argument;
 *   - an omitted parameter takes its default, converted to an FFI value once, at creation;
 *     an Array default is copied per call, as TVM's wrapper converts its tuple per call
 *     (a callee that keeps it keeps its own, so equal defaults are not one shared node);
 *   - a parameter with `expand` n > 0 turns an exact int argument v into the Array
 *     (v, ..., v) of n items, a new one per call -- TVM's "an int stride means the same
 *     stride on every axis";
 *   - everything else converts as any Function argument does (convert.h).
 *
 * Then the Function is called with every parameter, positionally.  Metadata (__name__,
 * __qualname__, __module__, __doc__) lives in the instance __dict__, set by whoever creates
 * it; __signature__ is built on first request (inspect is imported only then).
 */
#include "signature.h"

#include "convert.h"
#include "error.h"
#include "function.h"

enum {
  TPY_SIG_MAX_PARAMS = TPY_STACK_ARGS,
  TPY_SIG_MAX_EXPAND = 8, /* the largest `expand` count */
};

typedef struct {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  TVMFFIObject* func;           /* owned: the Function called */
  TVMFFISafeCallType safe_call; /* its cell's safe_call */
  int release_gil;              /* the Function's release_gil when this was made */
  PyObject* name;               /* str, for error messages */
  PyObject* params;             /* tuple of interned str, the parameter names */
  PyObject* py_defaults;        /* tuple: the defaults of the last len() parameters */
  PyObject* dict;               /* instance __dict__ (metadata) */
  int32_t nparams;
  int32_t nrequired; /* parameters without a default (the first ones) */
  uint8_t expand[TPY_SIG_MAX_PARAMS];
  TVMFFIAny defaults[TPY_SIG_MAX_PARAMS]; /* owned values; [nrequired, nparams) are set */
} TpySignatureFunction;

/* ---- argument errors (Python's texts) --------------------------------------------------- */

static PyObject* tpy_sig_too_many(TpySignatureFunction* s, Py_ssize_t given) {
  if (s->nrequired == s->nparams) {
    return PyErr_Format(PyExc_TypeError, "%U() takes %d positional argument%s but %zd %s given",
                        s->name, (int)s->nparams, s->nparams == 1 ? "" : "s", given,
                        given == 1 ? "was" : "were");
  }
  return PyErr_Format(PyExc_TypeError,
                      "%U() takes from %d to %d positional arguments but %zd %s given", s->name,
                      (int)s->nrequired, (int)s->nparams, given, given == 1 ? "was" : "were");
}

/* "f() missing 2 required positional arguments: 'a' and 'b'" for the empty slots. */
static PyObject* tpy_sig_missing(TpySignatureFunction* s, PyObject* const* slots) {
  PyObject* names = PyList_New(0);
  if (names == NULL) return NULL;
  for (int32_t i = 0; i < s->nrequired; ++i) {
    if (slots[i] != NULL) continue;
    PyObject* quoted = PyUnicode_FromFormat("'%U'", PyTuple_GET_ITEM(s->params, i));
    if (quoted == NULL || PyList_Append(names, quoted) != 0) {
      Py_XDECREF(quoted);
      Py_DECREF(names);
      return NULL;
    }
    Py_DECREF(quoted);
  }
  Py_ssize_t n = PyList_GET_SIZE(names);
  PyObject* text = NULL;
  if (n == 1) {
    text = Py_NewRef(PyList_GET_ITEM(names, 0));
  } else {
    PyObject* head = PyList_GetSlice(names, 0, n - 1);
    PyObject* sep = PyUnicode_FromString(", ");
    PyObject* joined = head && sep ? PyUnicode_Join(sep, head) : NULL;
    if (joined != NULL) {
      text = PyUnicode_FromFormat("%U and %U", joined, PyList_GET_ITEM(names, n - 1));
    }
    Py_XDECREF(joined);
    Py_XDECREF(sep);
    Py_XDECREF(head);
  }
  if (text != NULL) {
    PyErr_Format(PyExc_TypeError, "%U() missing %zd required positional argument%s: %U",
                 s->name, n, n == 1 ? "" : "s", text);
    Py_DECREF(text);
  }
  Py_DECREF(names);
  return NULL;
}

/* The index of parameter `key`, or -1. */
static int32_t tpy_sig_find(TpySignatureFunction* s, PyObject* key) {
  for (int32_t i = 0; i < s->nparams; ++i) {
    if (PyTuple_GET_ITEM(s->params, i) == key) return i;
  }
  if (!PyUnicode_Check(key)) return -1;
  for (int32_t i = 0; i < s->nparams; ++i) {
    if (PyUnicode_Compare(PyTuple_GET_ITEM(s->params, i), key) == 0) return i;
  }
  return -1;
}

/* ---- the call ------------------------------------------------------------------------------ */

/* A new Array of items[0..n), owned by `temps` for this call, viewed by `out`. */
static int tpy_sig_new_array(const TVMFFIAny* items, int64_t n, TVMFFIAny* out, tpy_temps* temps) {
  TVMFFIObjectHandle arr = NULL;
  if (tether_array_new(items, n, &arr) != 0) {
    tpy_raise_ffi_error();
    return -1;
  }
  if (tpy_temps_push(temps, arr) != 0) return -1;
  out->type_index = kTVMFFIArray;
  out->zero_padding = 0;
  out->v_obj = arr;
  return 0;
}

/* Parameter i's view of `arg`: an exact int widened to an Array when the parameter expands. */
static int tpy_sig_arg(TpySignatureFunction* s, int32_t i, PyObject* arg, TVMFFIAny* out,
                       tpy_temps* temps) {
  int64_t v;
  int n = s->expand[i];
  if (n == 0 || Py_TYPE(arg) != &PyLong_Type) return tpy_arg_fast(arg, out, temps);
  if (!tpy_small_long(arg, &v)) {
    v = PyLong_AsLongLong(arg);
    if (v == -1 && PyErr_Occurred()) return -1;
  }
  TVMFFIAny items[TPY_SIG_MAX_EXPAND];
  for (int k = 0; k < n; ++k) {
    items[k].type_index = kTVMFFIInt;
    items[k].zero_padding = 0;
    items[k].v_int64 = v;
  }
  return tpy_sig_new_array(items, n, out, temps);
}

/* Parameter i's default: a view of the value the SignatureFunction owns, or for an Array a
 * copy of it made for this call. */
static int tpy_sig_default(TpySignatureFunction* s, int32_t i, TVMFFIAny* out, tpy_temps* temps) {
  const TVMFFIAny* d = &s->defaults[i];
  if (d->type_index != kTVMFFIArray) {
    *out = *d;
    return 0;
  }
  return tpy_sig_new_array(tether_array_at(d->v_obj, 0), tether_array_size(d->v_obj), out, temps);
}

TPY_BACKTRACE_VISIBLE PyObject* tpy_signature_vectorcall(PyObject* self, PyObject* const* args,
                                                         size_t nargsf, PyObject* kwnames) {
  TpySignatureFunction* s = (TpySignatureFunction*)self;
  Py_ssize_t npos = PyVectorcall_NARGS(nargsf);
  int32_t np = s->nparams;
  if (npos > np) return tpy_sig_too_many(s, npos);
  PyObject* slots[TPY_SIG_MAX_PARAMS];
  for (Py_ssize_t i = 0; i < npos; ++i) slots[i] = args[i];
  for (int32_t i = (int32_t)npos; i < np; ++i) slots[i] = NULL;
  Py_ssize_t nkw = kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t k = 0; k < nkw; ++k) {
    PyObject* key = PyTuple_GET_ITEM(kwnames, k);
    int32_t i = tpy_sig_find(s, key);
    if (i < 0) {
      return PyErr_Format(PyExc_TypeError, "%U() got an unexpected keyword argument '%S'",
                          s->name, key);
    }
    if (slots[i] != NULL) {
      return PyErr_Format(PyExc_TypeError, "%U() got multiple values for argument '%S'", s->name,
                          key);
    }
    slots[i] = args[npos + k];
  }
  for (int32_t i = (int32_t)npos; i < s->nrequired; ++i) {
    if (slots[i] == NULL) return tpy_sig_missing(s, slots); /* before anything is converted */
  }
  TVMFFIAny views[TPY_SIG_MAX_PARAMS];
  tpy_temps temps;
  tpy_temps_init(&temps);
  for (int32_t i = 0; i < np; ++i) {
    if (slots[i] == NULL) {
      if (tpy_sig_default(s, i, &views[i], &temps) != 0) {
        tpy_temps_release(&temps);
        return NULL;
      }
    } else if (tpy_sig_arg(s, i, slots[i], &views[i], &temps) != 0) {
      tpy_temps_release(&temps);
      return NULL;
    }
  }
  return tpy_call_safe(s->safe_call, s->func, views, np, &temps, s->release_gil);
}

/* ---- the type ------------------------------------------------------------------------------ */

/* SignatureFunction(func, name, params, defaults=(), expand=None) */
static PyObject* tpy_signature_new(PyTypeObject* type, PyObject* args, PyObject* kwds) {
  static char* kwlist[] = {"func", "name", "params", "defaults", "expand", NULL};
  PyObject *func, *name, *params, *defaults = NULL, *expand = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!UO!|O!O:SignatureFunction", kwlist,
                                   &TpyFunction_Type, &func, &name, &PyTuple_Type, &params,
                                   &PyTuple_Type, &defaults, &expand)) {
    return NULL;
  }
  Py_ssize_t np = PyTuple_GET_SIZE(params);
  Py_ssize_t nd = defaults != NULL ? PyTuple_GET_SIZE(defaults) : 0;
  TVMFFIObject* handle = ((TpyObject*)func)->handle;
  if (handle == NULL) {
    PyErr_SetString(PyExc_ValueError, "SignatureFunction: `func` has no handle");
    return NULL;
  }
  if (np > TPY_SIG_MAX_PARAMS || nd > np) {
    return PyErr_Format(PyExc_ValueError,
                        "SignatureFunction: expected at most %d parameters and no more defaults "
                        "than parameters, got %zd parameters and %zd defaults",
                        (int)TPY_SIG_MAX_PARAMS, np, nd);
  }
  if (expand != Py_None && (!PyTuple_Check(expand) || PyTuple_GET_SIZE(expand) != np)) {
    PyErr_SetString(PyExc_ValueError,
                    "SignatureFunction: `expand` must be None or a tuple with one int per parameter");
    return NULL;
  }
  TpySignatureFunction* s = (TpySignatureFunction*)type->tp_alloc(type, 0);
  if (s == NULL) return NULL;
  s->vectorcall = tpy_signature_vectorcall;
  s->nparams = (int32_t)np;
  s->nrequired = (int32_t)(np - nd);
  for (int32_t i = 0; i < TPY_SIG_MAX_PARAMS; ++i) s->defaults[i].type_index = kTVMFFINone;
  s->name = Py_NewRef(name);
  s->params = PyTuple_New(np);
  if (s->params == NULL) goto fail;
  for (Py_ssize_t i = 0; i < np; ++i) {
    PyObject* p = PyTuple_GET_ITEM(params, i);
    if (!PyUnicode_CheckExact(p)) {
      PyErr_Format(PyExc_TypeError, "SignatureFunction: parameter names must be str, got %.200s",
                   Py_TYPE(p)->tp_name);
      goto fail;
    }
    Py_INCREF(p);
    PyUnicode_InternInPlace(&p);
    PyTuple_SET_ITEM(s->params, i, p);
    long n = 0;
    if (expand != Py_None) {
      n = PyLong_AsLong(PyTuple_GET_ITEM(expand, i));
      if (n == -1 && PyErr_Occurred()) goto fail;
      if (n < 0 || n > TPY_SIG_MAX_EXPAND) {
        PyErr_Format(PyExc_ValueError, "SignatureFunction: expand counts must be 0..%d, got %ld",
                     (int)TPY_SIG_MAX_EXPAND, n);
        goto fail;
      }
    }
    s->expand[i] = (uint8_t)n;
  }
  s->py_defaults = defaults != NULL ? Py_NewRef(defaults) : PyTuple_New(0);
  if (s->py_defaults == NULL) goto fail;
  for (Py_ssize_t k = 0; k < nd; ++k) {
    int32_t i = s->nrequired + (int32_t)k;
    PyObject* d = PyTuple_GET_ITEM(defaults, k);
    TVMFFIAny view;
    tpy_temps temps;
    tpy_temps_init(&temps);
    int rc = tpy_sig_arg(s, i, d, &view, &temps);
    if (rc == 0 && TVMFFIAnyViewToOwnedAny(&view, &s->defaults[i]) != 0) {
      tpy_raise_ffi_error();
      rc = -1;
    }
    tpy_temps_release(&temps);
    if (rc != 0) goto fail;
  }
  s->func = handle;
  TVMFFIObjectIncRef(handle);
  s->safe_call = TPY_CELL(TVMFFIFunctionCell, handle)->safe_call;
  s->release_gil = ((TpyFunction*)func)->release_gil;
  return (PyObject*)s;
fail:
  Py_DECREF(s);
  return NULL;
}

static int tpy_signature_traverse(PyObject* self, visitproc visit, void* arg) {
  TpySignatureFunction* s = (TpySignatureFunction*)self;
  Py_VISIT(s->py_defaults);
  Py_VISIT(s->dict);
  return 0;
}

static int tpy_signature_clear(PyObject* self) {
  TpySignatureFunction* s = (TpySignatureFunction*)self;
  Py_CLEAR(s->py_defaults);
  Py_CLEAR(s->dict);
  return 0;
}

static void tpy_signature_dealloc(PyObject* self) {
  TpySignatureFunction* s = (TpySignatureFunction*)self;
  PyObject_GC_UnTrack(self);
  tpy_signature_clear(self);
  Py_CLEAR(s->name);
  Py_CLEAR(s->params);
  for (int32_t i = 0; i < TPY_SIG_MAX_PARAMS; ++i) tether_any_release(&s->defaults[i]);
  if (s->func != NULL) TVMFFIObjectDecRef(s->func);
  s->func = NULL;
  Py_TYPE(self)->tp_free(self);
}

static PyObject* tpy_signature_repr(PyObject* self) {
  return PyUnicode_FromFormat("<SignatureFunction %U>", ((TpySignatureFunction*)self)->name);
}

/* inspect.Signature of the parameters (all positional-or-keyword), made on request. */
static PyObject* tpy_signature_get_signature(PyObject* self, void* closure) {
  TpySignatureFunction* s = (TpySignatureFunction*)self;
  PyObject *inspect, *param_cls = NULL, *kind = NULL, *empty = NULL, *list = NULL, *result = NULL;
  inspect = PyImport_ImportModule("inspect");
  if (inspect == NULL) return NULL;
  param_cls = PyObject_GetAttrString(inspect, "Parameter");
  if (param_cls == NULL) goto done;
  kind = PyObject_GetAttrString(param_cls, "POSITIONAL_OR_KEYWORD");
  empty = PyObject_GetAttrString(param_cls, "empty");
  list = kind && empty ? PyList_New(s->nparams) : NULL;
  if (list == NULL) goto done;
  for (int32_t i = 0; i < s->nparams; ++i) {
    PyObject* dflt = i >= s->nrequired && s->py_defaults != NULL /* (NULL once cleared by gc) */
                         ? PyTuple_GET_ITEM(s->py_defaults, i - s->nrequired)
                         : empty;
    PyObject* kw = Py_BuildValue("{s:O}", "default", dflt);
    PyObject* pargs = kw ? Py_BuildValue("(OO)", PyTuple_GET_ITEM(s->params, i), kind) : NULL;
    PyObject* p = pargs ? PyObject_Call(param_cls, pargs, kw) : NULL;
    Py_XDECREF(kw);
    Py_XDECREF(pargs);
    if (p == NULL) goto done;
    PyList_SET_ITEM(list, i, p);
  }
  result = PyObject_CallMethod(inspect, "Signature", "(O)", list);
done:
  Py_XDECREF(list);
  Py_XDECREF(empty);
  Py_XDECREF(kind);
  Py_XDECREF(param_cls);
  Py_DECREF(inspect);
  return result;
}

static PyObject* tpy_signature_get_func(PyObject* self, void* closure) {
  TVMFFIObject* h = ((TpySignatureFunction*)self)->func;
  TVMFFIObjectIncRef(h);
  return tpy_function_wrap_steal(h);
}

static PyGetSetDef tpy_signature_getset[] = {
    {"__signature__", tpy_signature_get_signature, NULL, "inspect.Signature of the parameters",
     NULL},
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {"func", tpy_signature_get_func, NULL, "the Function called", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject TpySignatureFunction_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tether.core.SignatureFunction",
    .tp_basicsize = sizeof(TpySignatureFunction),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "SignatureFunction(func, name, params, defaults=(), expand=None): calls the "
              "Function `func` through a Python signature -- parameter names `params`, "
              "`defaults` for the last len(defaults) of them, and per parameter an `expand` "
              "count n that turns an int argument v into the n-item Array (v, ..., v).",
    .tp_vectorcall_offset = offsetof(TpySignatureFunction, vectorcall),
    .tp_dictoffset = offsetof(TpySignatureFunction, dict),
    .tp_call = PyVectorcall_Call,
    .tp_new = tpy_signature_new,
    .tp_dealloc = tpy_signature_dealloc,
    .tp_traverse = tpy_signature_traverse,
    .tp_clear = tpy_signature_clear,
    .tp_repr = tpy_signature_repr,
    .tp_getset = tpy_signature_getset,
};

int tpy_signature_init(PyObject* module) {
  if (PyType_Ready(&TpySignatureFunction_Type) != 0) return -1;
  return PyModule_AddObjectRef(module, "SignatureFunction", (PyObject*)&TpySignatureFunction_Type);
}
