/*
 * error.c -- errors across the boundary (spec python_api.md 6.7).
 *
 * Kinds <-> exception classes live in two dicts (exposed as _ERROR_NAME_TO_TYPE and
 * _ERROR_TYPE_TO_NAME); Python -> FFI looks the class up exactly, FFI -> Python by kind,
 * RuntimeError when absent.
 *
 * Identity across round trips: an Error made from a Python exception carries it in its
 * `extra_context` slot as an OpaquePyObject.  When such an Error surfaces in Python the
 * exception is *detached* (extra_context reset to NULL) and raised again, with
 * `__tvm_ffi_error__` pointing at the Error; detaching keeps the reference graph acyclic
 * (exception -> Error only).  When the exception crosses into C again, that Error is reused
 * (backtrace replaced) and the exception re-attached.
 *
 * Backtraces are text, most recent call first: `  File "f", line n, in fn\n`.  FFI ->
 * Python turns every line into a synthetic traceback entry (a frame of an empty code object
 * with that file, name and line), so the traceback shows the outer Python frames, the C
 * frames, and the inner Python frames of a callback, in Python's order.
 */
#include "error.h"

#include <frameobject.h>

#include "convert.h"

static PyObject* tpy_kind_to_cls;  /* dict: str -> exception class */
static PyObject* tpy_cls_to_kind;  /* dict: exception class -> str */
static PyObject* tpy_frame_globals; /* globals of the synthetic frames */

void tpy_drop_ffi_error(void) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  TVMFFIObjectDecRef(err);
}

static bool tpy_bytes_eq(TVMFFIByteArray b, const char* s) {
  size_t n = strlen(s);
  return b.size == n && memcmp(b.data, s, n) == 0;
}

/* ---- synthetic tracebacks ------------------------------------------------------------------ */

#if PY_VERSION_HEX < 0x030A0000
/* A frame without a line (line 0) names a shared library.  Python 3.9's linecache lets the
 * SyntaxError / UnicodeDecodeError of reading such a binary escape from traceback
 * formatting (3.10 returns no lines).  An empty cache entry whose mtime is None (never
 * re-checked) gives 3.10's behaviour.  Best effort: errors are swallowed. */
static void tpy_linecache_hide(const char* file) {
  PyObject* mod = PyImport_ImportModule("linecache");
  PyObject* cache = mod ? PyObject_GetAttrString(mod, "cache") : NULL;
  PyObject* key = cache ? PyUnicode_DecodeFSDefault(file) : NULL;
  if (key != NULL && PyDict_Check(cache) && PyDict_Contains(cache, key) == 0) {
    PyObject* entry = Py_BuildValue("(iO[]O)", 0, Py_None, key);
    if (entry != NULL) PyDict_SetItem(cache, key, entry);
    Py_XDECREF(entry);
  }
  Py_XDECREF(key);
  Py_XDECREF(cache);
  Py_XDECREF(mod);
  PyErr_Clear();
}
#endif

/* A traceback entry for (file, func, line) in front of `next` (borrowed, may be NULL). */
static PyObject* tpy_tb_entry(PyObject* next, const char* file, const char* func, int line) {
  PyObject *frame = NULL, *tb = NULL;
#if PY_VERSION_HEX < 0x030A0000
  if (line == 0) tpy_linecache_hide(file);
#endif
  PyCodeObject* code = PyCode_NewEmpty(file, func, line);
  if (code == NULL) return NULL;
  frame = (PyObject*)PyFrame_New(PyThreadState_Get(), code, tpy_frame_globals, NULL);
  if (frame != NULL) {
    tb = PyObject_CallFunction((PyObject*)&PyTraceBack_Type, "OOii", next ? next : Py_None, frame,
                               0, line);
  }
  Py_XDECREF(frame);
  Py_DECREF(code);
  return tb;
}

/* Parses one line `  File "(.+?)", line (\d+), in (.+)`; false if it does not match. */
static bool tpy_parse_frame(const char* s, size_t n, char* file, size_t file_cap, char* func,
                            size_t func_cap, int* line) {
  static const char open[] = "File \"", mid[] = "\", line ", in[] = ", in ";
  const char* end = s + n;
  const char* p = s;
  while (p < end && (*p == ' ' || *p == '\t')) ++p;
  if ((size_t)(end - p) < sizeof(open) - 1 || memcmp(p, open, sizeof(open) - 1) != 0) return false;
  p += sizeof(open) - 1;
  const char* f0 = p;
  const char* f1 = NULL;
  for (; p + sizeof(mid) - 1 <= end; ++p) {
    if (memcmp(p, mid, sizeof(mid) - 1) == 0) {
      f1 = p;
      break;
    }
  }
  if (f1 == NULL || f1 == f0) return false;
  p = f1 + sizeof(mid) - 1;
  long v = 0;
  const char* d0 = p;
  while (p < end && *p >= '0' && *p <= '9' && v < 100000000) v = v * 10 + (*p++ - '0');
  if (p == d0 || (size_t)(end - p) < sizeof(in) - 1 || memcmp(p, in, sizeof(in) - 1) != 0) return false;
  p += sizeof(in) - 1;
  if (p >= end) return false;
  snprintf(file, file_cap, "%.*s", (int)(f1 - f0), f0);
  snprintf(func, func_cap, "%.*s", (int)(end - p), p);
  *line = (int)v;
  return true;
}

/* The traceback of backtrace text `bt` (most recent first): new reference, or NULL (no
 * frames, no error set) -- failures are swallowed, the traceback is decoration. */
static PyObject* tpy_build_traceback(TVMFFIByteArray bt) {
  PyObject* tb = NULL;
  const char* s = bt.data;
  const char* end = bt.data + bt.size;
  char file[1024], func[1024];
  while (s < end) {
    const char* nl = memchr(s, '\n', (size_t)(end - s));
    const char* e = nl ? nl : end;
    int line = 0;
    if (tpy_parse_frame(s, (size_t)(e - s), file, sizeof(file), func, sizeof(func), &line)) {
      PyObject* next = tpy_tb_entry(tb, file, func, line);
      if (next == NULL) {
        PyErr_Clear();
      } else {
        Py_XSETREF(tb, next);
      }
    }
    s = e + 1;
  }
  return tb;
}

/* The C backtrace of the calling thread (most recent first) as a new str, or NULL. */
static inline __attribute__((always_inline)) PyObject* tpy_c_backtrace(void) {
  const TVMFFIByteArray* c = TVMFFIBacktrace(NULL, 0, NULL, 0);
  return c ? tpy_str_from_bytes(*c) : PyUnicode_FromString("");
}

/* The backtrace text of exception `exc`: its Python frames most recent first, then the
 * C frames `ctext` (borrowed str).  New str or NULL. */
static PyObject* tpy_format_backtrace(PyObject* exc, PyObject* ctext) {
  PyObject* lines = PyList_New(0);
  if (lines == NULL) return NULL;
  PyObject* tb = PyException_GetTraceback(exc);
  while (tb != NULL && tb != Py_None) {
    PyObject* frame = PyObject_GetAttrString(tb, "tb_frame");
    PyObject* code = frame ? PyObject_GetAttrString(frame, "f_code") : NULL;
    PyObject* file = code ? PyObject_GetAttrString(code, "co_filename") : NULL;
    PyObject* name = code ? PyObject_GetAttrString(code, "co_name") : NULL;
    PyObject* lineno = PyObject_GetAttrString(tb, "tb_lineno");
    PyObject* text = NULL;
    if (file && name && lineno) {
      text = PyUnicode_FromFormat("  File \"%S\", line %S, in %S\n", file, lineno, name);
    }
    Py_XDECREF(frame);
    Py_XDECREF(code);
    Py_XDECREF(file);
    Py_XDECREF(name);
    Py_XDECREF(lineno);
    if (text == NULL || PyList_Append(lines, text) != 0) {
      Py_XDECREF(text);
      Py_DECREF(tb);
      Py_DECREF(lines);
      return NULL;
    }
    Py_DECREF(text);
    PyObject* next = PyObject_GetAttrString(tb, "tb_next");
    Py_DECREF(tb);
    tb = next;
    if (tb == NULL) {
      Py_DECREF(lines);
      return NULL;
    }
  }
  Py_XDECREF(tb);
  if (PyList_Reverse(lines) != 0) {
    Py_DECREF(lines);
    return NULL;
  }
  if (PyList_Append(lines, ctext) != 0) {
    Py_DECREF(lines);
    return NULL;
  }
  PyObject* empty = PyUnicode_FromString("");
  PyObject* r = empty ? PyUnicode_Join(empty, lines) : NULL;
  Py_XDECREF(empty);
  Py_DECREF(lines);
  return r;
}

/* ---- Python -> FFI ------------------------------------------------------------------------- */

/* *out = obj.name (new reference) or NULL if absent; -1 on other errors. */
static int tpy_optional_attr(PyObject* obj, const char* name, PyObject** out) {
  *out = PyObject_GetAttrString(obj, name);
  if (*out != NULL) return 1;
  if (!PyErr_ExceptionMatches(PyExc_AttributeError)) return -1;
  PyErr_Clear();
  return 0;
}

/* Makes `exc` (borrowed) the attachment of `err` if it has none. */
static int tpy_attach(TVMFFIObject* err, PyObject* exc) {
  TVMFFIErrorCell* cell = TPY_CELL(TVMFFIErrorCell, err);
  if (cell->extra_context != NULL) return 0;
  TVMFFIObjectHandle opaque = NULL;
  Py_INCREF(exc);
  if (TVMFFIObjectCreateOpaque(exc, kTVMFFIOpaquePyObject, tpy_decref_deleter, &opaque) != 0) {
    Py_DECREF(exc);
    tpy_raise_ffi_error();
    return -1;
  }
  cell->extra_context = opaque;
  return 0;
}

/* The Error for `exc`; `in_flight`: exc is being propagated into C (attach it and drop its
 * Python frames, which the backtrace text now describes). */
static int tpy_error_from_exception_impl(PyObject* exc, PyObject* ctext, TVMFFIObject** out,
                                         bool in_flight) {
  PyObject *bt = NULL, *msg = NULL, *existing = NULL;
  TVMFFIObject* err = NULL;
  int rc = -1;
  bt = tpy_format_backtrace(exc, ctext);
  if (bt == NULL) goto done;
  Py_ssize_t bt_len;
  const char* bt_s = PyUnicode_AsUTF8AndSize(bt, &bt_len);
  if (bt_s == NULL) goto done;
  TVMFFIByteArray bt_b = {bt_s, (size_t)bt_len};
  if (tpy_optional_attr(exc, "__tvm_ffi_error__", &existing) < 0) goto done;
  if (existing != NULL && PyObject_TypeCheck(existing, &TpyError_Type) &&
      ((TpyObject*)existing)->handle != NULL) {
    err = ((TpyObject*)existing)->handle;
    TVMFFIObjectIncRef(err);
    TVMFFIErrorCell* cell = TPY_CELL(TVMFFIErrorCell, err);
    if (cell->update_backtrace != NULL) {
      cell->update_backtrace(err, &bt_b, kTVMFFIBacktraceUpdateModeReplace);
    }
  } else {
    PyObject* kind = PyDict_GetItemWithError(tpy_cls_to_kind, (PyObject*)Py_TYPE(exc));
    if (kind == NULL && PyErr_Occurred()) goto done;
    const char* kind_s = kind ? PyUnicode_AsUTF8(kind) : "RuntimeError";
    if (kind_s == NULL) goto done;
    msg = PyObject_Str(exc);
    if (msg == NULL) {
      PyErr_Clear();
      msg = PyUnicode_FromString("<exception str() failed>");
      if (msg == NULL) goto done;
    }
    Py_ssize_t msg_len;
    const char* msg_s = PyUnicode_AsUTF8AndSize(msg, &msg_len);
    if (msg_s == NULL) goto done;
    TVMFFIByteArray kind_b = tpy_bytes_of(kind_s), msg_b = {msg_s, (size_t)msg_len};
    if (TVMFFIErrorCreate(&kind_b, &msg_b, &bt_b, (TVMFFIObjectHandle*)&err) != 0) {
      tpy_raise_ffi_error();
      goto done;
    }
  }
  if (tpy_attach(err, exc) != 0) goto done;
  if (in_flight) PyException_SetTraceback(exc, Py_None);
  *out = err;
  err = NULL;
  rc = 0;
done:
  if (err != NULL) TVMFFIObjectDecRef(err);
  Py_XDECREF(bt);
  Py_XDECREF(msg);
  Py_XDECREF(existing);
  return rc;
}

int tpy_error_from_exception(PyObject* exc, TVMFFIObject** out) {
  PyObject* ctext = tpy_c_backtrace();
  int rc = ctext ? tpy_error_from_exception_impl(exc, ctext, out, false) : -1;
  Py_XDECREF(ctext);
  return rc;
}

TPY_BACKTRACE_VISIBLE int tpy_park_py_error(void) {
#if PY_VERSION_HEX >= 0x030C0000
  PyObject* exc = PyErr_GetRaisedException();
#else
  PyObject *type = NULL, *exc = NULL, *tb = NULL;
  PyErr_Fetch(&type, &exc, &tb);
  PyErr_NormalizeException(&type, &exc, &tb);
  if (exc != NULL && tb != NULL) PyException_SetTraceback(exc, tb);
  Py_XDECREF(type);
  Py_XDECREF(tb);
#endif
  TVMFFIObject* err = NULL;
  PyObject* ctext = tpy_c_backtrace();
  if (exc == NULL) {
    TVMFFIErrorSetRaisedFromCStr("RuntimeError", "a Python callback failed without an exception");
  } else if (ctext == NULL || tpy_error_from_exception_impl(exc, ctext, &err, true) != 0) {
    PyErr_Clear();
    TVMFFIErrorSetRaisedFromCStr("RuntimeError", "a Python exception could not be converted");
  } else {
    TVMFFIErrorSetRaised(err);
    TVMFFIObjectDecRef(err);
  }
  Py_XDECREF(ctext);
  Py_XDECREF(exc);
  return -1;
}

/* ---- FFI -> Python ------------------------------------------------------------------------- */

/* The exception attached to `err` (new reference), detached from it; NULL if none. */
static PyObject* tpy_detach(TVMFFIObject* err) {
  TVMFFIErrorCell* cell = TPY_CELL(TVMFFIErrorCell, err);
  TVMFFIObject* ctx = cell->extra_context;
  if (ctx == NULL || ctx->type_index != kTVMFFIOpaquePyObject) return NULL;
  PyObject* exc = TPY_CELL(TVMFFIOpaqueObjectCell, ctx)->handle;
  if (exc == NULL || !PyExceptionInstance_Check(exc)) return NULL;
  Py_INCREF(exc);
  cell->extra_context = NULL;
  TVMFFIObjectDecRef(ctx);
  return exc;
}

/* A new exception of the class registered for err's kind. */
static PyObject* tpy_new_exception(TVMFFIErrorCell* cell) {
  PyObject* kind = tpy_str_from_bytes(cell->kind);
  PyObject* msg = tpy_str_from_bytes(cell->message);
  PyObject* exc = NULL;
  if (kind != NULL && msg != NULL) {
    PyObject* cls = PyDict_GetItemWithError(tpy_kind_to_cls, kind);
    if (cls == NULL && !PyErr_Occurred()) cls = PyExc_RuntimeError;
    if (cls != NULL) exc = PyObject_CallOneArg(cls, msg);
    if (exc != NULL && !PyExceptionInstance_Check(exc)) Py_CLEAR(exc);
    if (exc == NULL) {
      PyErr_Clear();
      exc = PyObject_CallOneArg(PyExc_RuntimeError, msg);
    }
  }
  Py_XDECREF(kind);
  Py_XDECREF(msg);
  return exc;
}

PyObject* tpy_raise_ffi_error(void) {
  TVMFFIObjectHandle h = NULL;
  TVMFFIErrorMoveFromRaised(&h);
  TVMFFIObject* err = h;
  if (err == NULL) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "an FFI call failed without raising an error");
    return NULL;
  }
  TVMFFIErrorCell* cell = TPY_CELL(TVMFFIErrorCell, err);
  if (PyErr_Occurred()) { /* a pending Python exception (e.g. KeyboardInterrupt) wins */
    TVMFFIObjectDecRef(err);
    return NULL;
  }
  if (tpy_bytes_eq(cell->kind, "EnvErrorAlreadySet")) {
    TVMFFIObjectDecRef(err);
    PyErr_SetString(PyExc_RuntimeError, "EnvErrorAlreadySet raised but no Python exception is pending");
    return NULL;
  }
  PyObject* exc = tpy_detach(err);
  if (exc == NULL) exc = tpy_new_exception(cell);
  if (exc == NULL) {
    TVMFFIObjectDecRef(err);
    return NULL;
  }
  PyObject* tb = tpy_build_traceback(cell->backtrace);
  PyException_SetTraceback(exc, tb ? tb : Py_None);
  Py_XDECREF(tb);
  PyTypeObject* cls = tpy_class_for_index(kTVMFFIError);
  PyObject* wrapper = cls ? tpy_object_wrap_as(cls, err) : NULL;
  if (cls == NULL) TVMFFIObjectDecRef(err);
  if (wrapper == NULL || PyObject_SetAttrString(exc, "__tvm_ffi_error__", wrapper) != 0) PyErr_Clear();
  Py_XDECREF(wrapper);
  PyErr_SetObject((PyObject*)Py_TYPE(exc), exc);
  Py_DECREF(exc);
  return NULL;
}

/* ---- the Error type ------------------------------------------------------------------------ */

static TVMFFIErrorCell* tpy_error_cell(PyObject* self) {
  TVMFFIObject* h = ((TpyObject*)self)->handle;
  if (h == NULL) {
    PyErr_SetString(PyExc_ValueError, "Error without a handle");
    return NULL;
  }
  return TPY_CELL(TVMFFIErrorCell, h);
}

/* Error(kind, message, backtrace="") */
static PyObject* tpy_error_new(PyTypeObject* type, PyObject* args, PyObject* kwds) {
  static char* kwlist[] = {"kind", "message", "backtrace", NULL};
  if (PyTuple_GET_SIZE(args) == 0 && (kwds == NULL || PyDict_GET_SIZE(kwds) == 0)) {
    return (PyObject*)tpy_object_alloc(type); /* Error.__new__(Error): no handle (tp_init refuses it) */
  }
  const char *kind = NULL, *msg = NULL, *bt = "";
  Py_ssize_t kind_n = 0, msg_n = 0, bt_n = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "s#s#|s#:Error", kwlist, &kind, &kind_n, &msg, &msg_n,
                                   &bt, &bt_n)) {
    return NULL;
  }
  TVMFFIByteArray k = {kind, (size_t)kind_n}, m = {msg, (size_t)msg_n}, b = {bt, (size_t)bt_n};
  TVMFFIObjectHandle err = NULL;
  if (TVMFFIErrorCreate(&k, &m, &b, &err) != 0) return tpy_raise_ffi_error();
  return tpy_object_wrap_as(type, err);
}

/* Error() with no arguments: the same TypeError as a missing `kind`. */
static int tpy_error_tp_init(PyObject* self, PyObject* args, PyObject* kwds) {
  if (((TpyObject*)self)->handle == NULL) {
    PyErr_SetString(PyExc_TypeError, "Error() missing required argument 'kind' (pos 1)");
    return -1;
  }
  return 0;
}

/* extra_context: the object attached to the error (e.g. the Python exception it was made
 * from, as an opaque object), or None. */
static PyObject* tpy_error_get_extra_context(PyObject* self, void* c) {
  TVMFFIErrorCell* cell = tpy_error_cell(self);
  if (cell == NULL) return NULL;
  if (cell->extra_context == NULL) Py_RETURN_NONE;
  TVMFFIObjectIncRef(cell->extra_context);
  return tpy_object_wrap_steal(cell->extra_context);
}

static PyObject* tpy_error_get_kind(PyObject* self, void* c) {
  TVMFFIErrorCell* cell = tpy_error_cell(self);
  return cell ? tpy_str_from_bytes(cell->kind) : NULL;
}
static PyObject* tpy_error_get_message(PyObject* self, void* c) {
  TVMFFIErrorCell* cell = tpy_error_cell(self);
  return cell ? tpy_str_from_bytes(cell->message) : NULL;
}
static PyObject* tpy_error_get_backtrace(PyObject* self, void* c) {
  TVMFFIErrorCell* cell = tpy_error_cell(self);
  return cell ? tpy_str_from_bytes(cell->backtrace) : NULL;
}

/* update_backtrace(text, mode=0): 0 replaces, 1 appends. */
static PyObject* tpy_error_update_backtrace(PyObject* self, PyObject* args) {
  const char* s = NULL;
  Py_ssize_t n = 0;
  int mode = kTVMFFIBacktraceUpdateModeReplace;
  if (!PyArg_ParseTuple(args, "s#|i:update_backtrace", &s, &n, &mode)) return NULL;
  TVMFFIErrorCell* cell = tpy_error_cell(self);
  if (cell == NULL) return NULL;
  if (cell->update_backtrace == NULL) {
    PyErr_SetString(PyExc_NotImplementedError, "this Error cannot update its backtrace");
    return NULL;
  }
  TVMFFIByteArray b = {s, (size_t)n};
  cell->update_backtrace(((TpyObject*)self)->handle, &b, mode);
  Py_RETURN_NONE;
}

/* py_error(): the Python exception this Error was made from, or None. */
static PyObject* tpy_error_py_error(PyObject* self, PyObject* unused) {
  TVMFFIErrorCell* cell = tpy_error_cell(self);
  if (cell == NULL) return NULL;
  TVMFFIObject* ctx = cell->extra_context;
  if (ctx != NULL && ctx->type_index == kTVMFFIOpaquePyObject) {
    return Py_NewRef((PyObject*)TPY_CELL(TVMFFIOpaqueObjectCell, ctx)->handle);
  }
  Py_RETURN_NONE;
}

static PyGetSetDef tpy_error_getset[] = {
    {"kind", tpy_error_get_kind, NULL, "error kind", NULL},
    {"message", tpy_error_get_message, NULL, "error message", NULL},
    {"backtrace", tpy_error_get_backtrace, NULL, "backtrace text, most recent call first", NULL},
    {"extra_context", tpy_error_get_extra_context, NULL,
     "the object attached to the error (not kept by pickling), or None", NULL},
    {NULL},
};

/* Pickles by value as Error(kind, message, backtrace), as in tvm-ffi (ffi.Error has no JSON
 * graph form).  The extra context (e.g. the Python exception it came from) is not kept. */
static PyObject* tpy_error_reduce(PyObject* self, PyObject* unused) {
  if (((TpyObject*)self)->handle == NULL) {
    PyObject* fn = PyObject_GetAttrString(tpy_module, "_new_object");
    return fn != NULL ? Py_BuildValue("(N(O))", fn, (PyObject*)Py_TYPE(self)) : NULL;
  }
  TVMFFIErrorCell* cell = tpy_error_cell(self);
  if (cell == NULL) return NULL;
  PyObject* kind = tpy_str_from_bytes(cell->kind);
  PyObject* message = kind != NULL ? tpy_str_from_bytes(cell->message) : NULL;
  PyObject* backtrace = message != NULL ? tpy_str_from_bytes(cell->backtrace) : NULL;
  if (backtrace == NULL) {
    Py_XDECREF(kind);
    Py_XDECREF(message);
    return NULL;
  }
  return Py_BuildValue("(O(NNN))", (PyObject*)Py_TYPE(self), kind, message, backtrace);
}

/* copy.copy and copy.deepcopy: a new Error with the same three strings. */
static PyObject* tpy_error_copy(PyObject* self, PyObject* unused) {
  PyObject* r = tpy_error_reduce(self, NULL);
  if (r == NULL) return NULL;
  PyObject* copy = PyObject_Call(PyTuple_GET_ITEM(r, 0), PyTuple_GET_ITEM(r, 1), NULL);
  Py_DECREF(r);
  return copy;
}

static PyMethodDef tpy_error_methods[] = {
    {"__reduce__", tpy_error_reduce, METH_NOARGS,
     "(Error, (kind, message, backtrace)): pickle by value"},
    {"__copy__", tpy_error_copy, METH_NOARGS, "a new Error with the same kind, message, backtrace"},
    {"__deepcopy__", tpy_error_copy, METH_O,
     "a new Error with the same kind, message, backtrace"},
    {"update_backtrace", tpy_error_update_backtrace, METH_VARARGS,
     "update_backtrace(text, mode=0): replace (0) or append to (1) the backtrace"},
    {"py_error", tpy_error_py_error, METH_NOARGS, "the attached Python exception, or None"},
    {NULL},
};

PyTypeObject TpyError_Type = {
    PyVarObject_HEAD_INIT(&TpyObjectMeta_Type, 0).tp_name = "tether.core.Error",
    .tp_basicsize = sizeof(TpyObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Error(kind, message, backtrace=''): an ffi.Error object",
    .tp_new = tpy_error_new,
    .tp_init = tpy_error_tp_init,
    .tp_getset = tpy_error_getset,
    .tp_methods = tpy_error_methods,
};

/* ---- the kind registry --------------------------------------------------------------------- */

static int tpy_register_kind(PyObject* kind, PyObject* cls) {
  if (PyDict_SetItem(tpy_kind_to_cls, kind, cls) != 0) return -1;
  return PyDict_SetItem(tpy_cls_to_kind, cls, kind);
}

PyObject* tpy_py_register_error(PyObject* self, PyObject* const* args, Py_ssize_t n) {
  if (n != 2 || !PyUnicode_Check(args[0]) || !PyType_Check(args[1]) ||
      !PyType_IsSubtype((PyTypeObject*)args[1], (PyTypeObject*)PyExc_BaseException)) {
    PyErr_SetString(PyExc_TypeError, "_register_error(kind: str, cls: type[BaseException])");
    return NULL;
  }
  if (tpy_register_kind(args[0], args[1]) != 0) return NULL;
  return Py_NewRef(args[1]);
}

int tpy_error_init(PyObject* module) {
  tpy_kind_to_cls = PyDict_New();
  tpy_cls_to_kind = PyDict_New();
  tpy_frame_globals = Py_BuildValue("{s:s}", "__name__", "tether.core");
  if (tpy_kind_to_cls == NULL || tpy_cls_to_kind == NULL || tpy_frame_globals == NULL) return -1;
  struct {
    const char* kind;
    PyObject* cls;
  } builtin[] = {
      {"RuntimeError", PyExc_RuntimeError},
      {"ValueError", PyExc_ValueError},
      {"TypeError", PyExc_TypeError},
      {"AttributeError", PyExc_AttributeError},
      {"KeyError", PyExc_KeyError},
      {"IndexError", PyExc_IndexError},
      {"AssertionError", PyExc_AssertionError},
      {"MemoryError", PyExc_MemoryError},
      {"NotImplementedError", PyExc_NotImplementedError},
      {"OverflowError", PyExc_OverflowError},
  };
  for (size_t i = 0; i < sizeof(builtin) / sizeof(builtin[0]); ++i) {
    PyObject* kind = PyUnicode_FromString(builtin[i].kind);
    int rc = kind ? tpy_register_kind(kind, builtin[i].cls) : -1;
    Py_XDECREF(kind);
    if (rc != 0) return -1;
  }
  TpyError_Type.tp_base = &TpyObject_Type;
  if (PyType_Ready(&TpyError_Type) != 0) return -1;
  if (tpy_register_class(kTVMFFIError, &TpyError_Type) != 0) return -1;
  if (PyModule_AddObjectRef(module, "Error", (PyObject*)&TpyError_Type) != 0 ||
      PyModule_AddObjectRef(module, "_ERROR_NAME_TO_TYPE", tpy_kind_to_cls) != 0 ||
      PyModule_AddObjectRef(module, "_ERROR_TYPE_TO_NAME", tpy_cls_to_kind) != 0) {
    return -1;
  }
  return 0;
}
