/*
 * object.c -- `Object` (the base class of every FFI object), its metaclass, the
 * type-index -> class table, and the reflection machinery behind `_register_object`:
 * fields become C data descriptors (getter = field.getter(handle + offset) then make_ret),
 * methods become method descriptors that forward to the Function (no bound-method object
 * on `obj.m(x)`), and `__init__` calls the type's `__ffi_init__` with keyword arguments
 * packed as [pos..., KWARGS, k0, v0, ...].
 *
 * A type index without a registered class gets an auto-made class named after the last
 * component of its key, parented on its parent type's class, with the same descriptors.
 */
#include "object.h"

#include "convert.h"
#include "error.h"
#include "function.h"

static PyObject* tpy_str_slots; /* interned "__slots__" */
static PyObject* tpy_str_init;  /* interned "__init__" */

PyTypeObject** tpy_class_table;
int32_t tpy_class_table_size;
PyObject* tpy_fallback_maker; /* owned, or NULL: makes the class of an unregistered type */

/* ---- the metaclass ------------------------------------------------------------------------- */

/* Instances of a class made by the metaclass are left out of Python's cycle collector when
 * they can take part in no cycle the collector could see: the class adds no instance
 * storage (no __dict__, no __weakref__, no slot: its instances are the handle alone, and
 * what the handle keeps alive is invisible to the collector anyway) and its base's instances
 * are not collected either.  Python 3.11+ marks every class statement's instances
 * collectable; this saves the 16-byte collector header and the tracking per object.
 * `tpy_gc_allocs` counts the instances tpy_object_alloc made of collectable classes. */
uint64_t tpy_gc_allocs;

static PyObject* tpy_meta_untrack(PyObject* r, uint64_t gc_allocs_before) {
  if (r == NULL) return NULL;
  /* An instance allocated while the class was being made (by `__init_subclass__`, say)
   * carries the collector header: the class must then stay collectable. */
  if (tpy_gc_allocs != gc_allocs_before) return r;
  PyTypeObject* t = (PyTypeObject*)r;
  PyTypeObject* base = t->tp_base;
  if ((t->tp_flags & Py_TPFLAGS_HAVE_GC) && base != NULL &&
      !(base->tp_flags & Py_TPFLAGS_HAVE_GC) && t->tp_basicsize == base->tp_basicsize &&
      t->tp_itemsize == 0 && t->tp_dictoffset == 0 && t->tp_weaklistoffset == 0 &&
      PyTuple_GET_SIZE(t->tp_bases) == 1) {
    t->tp_flags &= ~Py_TPFLAGS_HAVE_GC;
    t->tp_free = PyObject_Free;
    t->tp_traverse = NULL;
    t->tp_clear = NULL;
  }
  return r;
}

/* type(name, bases, ns) with `__slots__ = ()` added unless ns defines __slots__. */
static PyObject* tpy_meta_new(PyTypeObject* meta, PyObject* args, PyObject* kwds) {
  uint64_t gc_allocs = tpy_gc_allocs;
  if (PyTuple_GET_SIZE(args) == 3 && PyDict_Check(PyTuple_GET_ITEM(args, 2))) {
    PyObject* ns = PyTuple_GET_ITEM(args, 2);
    int has = PyDict_Contains(ns, tpy_str_slots);
    if (has < 0) return NULL;
    if (!has) {
      PyObject* ns2 = PyDict_Copy(ns);
      if (ns2 == NULL) return NULL;
      PyObject* empty = PyTuple_New(0);
      if (empty == NULL || PyDict_SetItemString(ns2, "__slots__", empty) != 0) {
        Py_XDECREF(empty);
        Py_DECREF(ns2);
        return NULL;
      }
      Py_DECREF(empty);
      PyObject* args2 = PyTuple_Pack(3, PyTuple_GET_ITEM(args, 0), PyTuple_GET_ITEM(args, 1), ns2);
      Py_DECREF(ns2);
      if (args2 == NULL) return NULL;
      PyObject* r = PyType_Type.tp_new(meta, args2, kwds);
      Py_DECREF(args2);
      return tpy_meta_untrack(r, gc_allocs);
    }
  }
  return tpy_meta_untrack(PyType_Type.tp_new(meta, args, kwds), gc_allocs);
}

PyTypeObject TpyObjectMeta_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tether.core._ObjectMeta",
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "metaclass of Object: adds __slots__ = () to every subclass that sets none",
    .tp_new = tpy_meta_new,
};

/* ---- Object ------------------------------------------------------------------------------- */

static PyObject* tpy_object_new(PyTypeObject* type, PyObject* args, PyObject* kwds) {
  return (PyObject*)tpy_object_alloc(type); /* handle NULL until __init__ adopts one */
}

static void tpy_object_dealloc(PyObject* self) {
  TVMFFIObject* h = ((TpyObject*)self)->handle;
  ((TpyObject*)self)->handle = NULL;
  Py_TYPE(self)->tp_free(self);
  if (h != NULL) TVMFFIObjectDecRef(h);
}

/* The last dotted component of tp_name. */
static const char* tpy_short_name(PyTypeObject* t) {
  const char* dot = strrchr(t->tp_name, '.');
  return dot ? dot + 1 : t->tp_name;
}

PyObject* tpy_object_repr(PyObject* self) {
  TVMFFIObject* h = ((TpyObject*)self)->handle;
  if (h == NULL) return PyUnicode_FromFormat("%s(chandle=None)", tpy_short_name(Py_TYPE(self)));
  TVMFFIAny v = tether_any_object(h), out = tether_any_none();
  TVMFFIByteArray text;
  if (tether_repr(&v, &out) != 0) return tpy_raise_ffi_error();
  PyObject* r = tether_any_get_str(&out, &text) ? tpy_str_from_bytes(text)
                                                 : PyUnicode_FromString(tether_type_key(h->type_index));
  tether_any_release(&out);
  return r;
}

static Py_hash_t tpy_pointer_hash(const void* p) {
  uintptr_t x = (uintptr_t)p;
  Py_hash_t h = (Py_hash_t)((x >> 4) | (x << (8 * sizeof(uintptr_t) - 4)));
  return h == -1 ? -2 : h;
}

static Py_hash_t tpy_object_hash(PyObject* self) {
  TVMFFIObject* h = ((TpyObject*)self)->handle;
  return tpy_pointer_hash(h != NULL ? (const void*)h : (const void*)self);
}

static PyObject* tpy_object_richcompare(PyObject* a, PyObject* b, int op) {
  if ((op != Py_EQ && op != Py_NE) || !tpy_is_object(b)) Py_RETURN_NOTIMPLEMENTED;
  TVMFFIObject *x = ((TpyObject*)a)->handle, *y = ((TpyObject*)b)->handle;
  bool eq = (x == NULL && y == NULL) ? a == b : x == y;
  return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

static PyObject* tpy_object_same_as(PyObject* self, PyObject* other) {
  if (!tpy_is_object(other)) Py_RETURN_FALSE;
  return PyBool_FromLong(((TpyObject*)self)->handle == ((TpyObject*)other)->handle);
}

static PyObject* tpy_object_chandle(PyObject* self, PyObject* unused) {
  return PyLong_FromVoidPtr(((TpyObject*)self)->handle);
}

/* __ctypes_handle__(): the handle as a ctypes.c_void_p (value None when there is none). */
static PyObject* tpy_object_ctypes_handle(PyObject* self, PyObject* unused) {
  return tpy_void_p(((TpyObject*)self)->handle);
}

static PyObject* tpy_object_move(PyObject* self, PyObject* unused) {
  TpyRValueRef* r = PyObject_New(TpyRValueRef, &TpyRValueRef_Type);
  if (r != NULL) r->obj = Py_NewRef(self);
  return (PyObject*)r;
}

/* Replaces self's handle by `h` (steals). */
static void tpy_object_adopt(PyObject* self, TVMFFIObject* h) {
  TVMFFIObject* old = ((TpyObject*)self)->handle;
  ((TpyObject*)self)->handle = h;
  if (old != NULL) TVMFFIObjectDecRef(old);
}

/* obj.__init_handle_by_constructor__(fconstructor, *args): adopt fconstructor(*args). */
static PyObject* tpy_object_init_by_constructor(PyObject* self, PyObject* const* args, Py_ssize_t n) {
  if (n < 1) {
    PyErr_SetString(PyExc_TypeError, "__init_handle_by_constructor__ expects a constructor");
    return NULL;
  }
  PyObject* r = PyObject_Vectorcall(args[0], args + 1, (size_t)(n - 1), NULL);
  if (r == NULL) return NULL;
  if (!tpy_is_object(r) || ((TpyObject*)r)->handle == NULL) {
    PyErr_Format(PyExc_TypeError, "constructor returned %.200s, not an FFI object",
                 Py_TYPE(r)->tp_name);
    Py_DECREF(r);
    return NULL;
  }
  TVMFFIObject* h = ((TpyObject*)r)->handle;
  TVMFFIObjectIncRef(h);
  Py_DECREF(r);
  tpy_object_adopt(self, h);
  Py_RETURN_NONE;
}

static int32_t tpy_index_of_key(PyObject* key);

/* ---- reflected fields ---------------------------------------------------------------------- */

typedef struct {
  PyObject* items; /* list [name0, value0, ...] */
  TVMFFIObject* obj;
} tpy_collect_ctx;

/* Calls fn(field) for the fields of `info`'s ancestors (root first) and then its own.
 * fn returns 0 to continue, -1 to stop with an error. */
static int tpy_for_each_field(const TVMFFITypeInfo* info,
                              int (*fn)(const TVMFFIFieldInfo*, void*), void* ctx) {
  for (int32_t d = 0; d <= info->type_depth; ++d) {
    const TVMFFITypeInfo* t = d < info->type_depth ? info->type_ancestors[d] : info;
    for (int32_t i = 0; i < t->num_fields; ++i) {
      if (fn(&t->fields[i], ctx) != 0) return -1;
    }
  }
  return 0;
}

static int tpy_collect_field(const TVMFFIFieldInfo* f, void* vctx) {
  tpy_collect_ctx* ctx = vctx;
  if (f->getter == NULL) return 0;
  TVMFFIAny v = tether_any_none();
  if (f->getter((char*)ctx->obj + f->offset, &v) != 0) {
    tpy_raise_ffi_error();
    return -1;
  }
  PyObject* value = tpy_from_any_steal(&v);
  PyObject* name = value ? tpy_str_from_bytes(f->name) : NULL;
  int rc = (name != NULL && PyList_Append(ctx->items, name) == 0 &&
            PyList_Append(ctx->items, value) == 0) ? 0 : -1;
  Py_XDECREF(name);
  Py_XDECREF(value);
  return rc;
}

/* _object_fields(obj) -> (name0, value0, ...): the reflected fields, ancestors' first. */
PyObject* tpy_py_object_fields(PyObject* self, PyObject* obj) {
  TVMFFIObject* h = tpy_is_object(obj) ? ((TpyObject*)obj)->handle : NULL;
  if (h == NULL) {
    PyErr_Format(PyExc_TypeError, "_object_fields: expected an FFI object with a handle, got %.200s",
                 Py_TYPE(obj)->tp_name);
    return NULL;
  }
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(h->type_index);
  PyObject* items = PyList_New(0);
  if (items == NULL) return NULL;
  tpy_collect_ctx ctx = {items, h};
  PyObject* r = NULL;
  if (info == NULL || tpy_for_each_field(info, tpy_collect_field, &ctx) == 0) {
    r = PyList_AsTuple(items);
  }
  Py_DECREF(items);
  return r;
}

/* ---- pickle and copy: through the JSON graph -----------------------------------------------
 * As in tvm-ffi, an object pickles as (_new_object, (cls,), {"handle": <JSON graph text>})
 * and __setstate__ adopts the object read back from the text: the unpickled object has the
 * pickled object's Python class, and references shared inside the graph stay shared.
 * copy.copy calls the type's `__ffi_shallow_copy__`; copy.deepcopy calls ffi.DeepCopy.  A
 * type without `__ffi_shallow_copy__`, or an object (not an Array/List/Map/Dict) whose graph
 * ffi.DeepCopy cannot copy (it holds a Tensor), is copied through the JSON graph as pickle
 * does.  Copies keep the Python class. */

static TVMFFIObject* tpy_global_to_json;   /* owned for the life of the process */
static TVMFFIObject* tpy_global_from_json; /* owned for the life of the process */
static TVMFFIObject* tpy_global_deep_copy; /* owned for the life of the process */

/* The global function `name`, cached in *slot (borrowed); NULL with an exception set. */
static TVMFFIObject* tpy_cached_global(const char* name, TVMFFIObject** slot) {
  if (*slot != NULL) return *slot;
  TVMFFIByteArray b = tpy_bytes_of(name);
  TVMFFIObjectHandle f = NULL;
  if (TVMFFIFunctionGetGlobal(&b, &f) != 0) return (TVMFFIObject*)tpy_raise_ffi_error();
  if (f == NULL) {
    PyErr_Format(PyExc_RuntimeError, "%s is not registered", name);
    return NULL;
  }
  *slot = f;
  return *slot;
}

/* The JSON graph text of `h` (a str), or NULL with an exception set. */
static PyObject* tpy_json_graph_text(TVMFFIObject* h) {
  TVMFFIObject* f = tpy_cached_global("ffi.ToJSONGraphString", &tpy_global_to_json);
  if (f == NULL) return NULL;
  TVMFFIAny args[2] = {tether_any_object(h), tether_any_none()};
  TVMFFIAny out = tether_any_none();
  if (TVMFFIFunctionCall(f, args, 2, &out) != 0) return tpy_raise_ffi_error();
  TVMFFIByteArray text;
  PyObject* r = NULL;
  if (tether_any_get_str(&out, &text)) {
    r = PyUnicode_FromStringAndSize(text.data, (Py_ssize_t)text.size);
  } else {
    PyErr_Format(PyExc_TypeError, "ffi.ToJSONGraphString returned %s, not a str",
                 tether_any_type_key(&out));
  }
  tether_any_release(&out);
  return r;
}

/* Gives `self` the handle `h` (steals) after checking that an object of h's type may live in
 * self's class: the class of h's type and type(self) must be one a subclass of the other. */
static int tpy_object_adopt_checked(PyObject* self, TVMFFIObject* h, const char* who) {
  PyTypeObject* cls = tpy_class_for_index(h->type_index);
  if (cls == NULL || !(PyType_IsSubtype(Py_TYPE(self), cls) || PyType_IsSubtype(cls, Py_TYPE(self)))) {
    if (cls != NULL) {
      PyErr_Format(PyExc_TypeError, "%s: the state holds a `%s`, which cannot be a %.200s", who,
                   tether_type_key(h->type_index), Py_TYPE(self)->tp_name);
    }
    TVMFFIObjectDecRef(h);
    return -1;
  }
  tpy_object_adopt(self, h);
  return 0;
}

/* self.__setstate__({"handle": text or None}) */
static PyObject* tpy_object_setstate(PyObject* self, PyObject* state) {
  static const char who[] = "Object.__setstate__";
  PyObject* text = PyDict_Check(state) ? PyDict_GetItemString(state, "handle") : NULL;
  if (text == NULL || (text != Py_None && !PyUnicode_Check(text))) {
    PyErr_Format(PyExc_TypeError, "%s: expected a dict {\"handle\": str or None}, got %.200s", who,
                 Py_TYPE(state)->tp_name);
    return NULL;
  }
  if (text == Py_None) {
    tpy_object_adopt(self, NULL);
    Py_RETURN_NONE;
  }
  TVMFFIObject* f = tpy_cached_global("ffi.FromJSONGraphString", &tpy_global_from_json);
  if (f == NULL) return NULL;
  TVMFFIAny arg, out = tether_any_none();
  tpy_temps temps;
  tpy_temps_init(&temps);
  int rc = tpy_arg_from_py(text, &arg, &temps);
  if (rc == 0 && TVMFFIFunctionCall(f, &arg, 1, &out) != 0) {
    tpy_raise_ffi_error();
    rc = -1;
  }
  tpy_temps_release(&temps);
  if (rc != 0) return NULL;
  if (out.type_index < kTVMFFIStaticObjectBegin || out.v_obj == NULL) {
    PyErr_Format(PyExc_TypeError, "%s: the state holds a `%s`, not an object", who,
                 tether_any_type_key(&out));
    tether_any_release(&out);
    return NULL;
  }
  if (tpy_object_adopt_checked(self, out.v_obj, who) != 0) return NULL;
  Py_RETURN_NONE;
}

static PyObject* tpy_object_getstate(PyObject* self, PyObject* unused) {
  TVMFFIObject* h = ((TpyObject*)self)->handle;
  PyObject* text = h != NULL ? tpy_json_graph_text(h) : Py_NewRef(Py_None);
  return text != NULL ? Py_BuildValue("{s:N}", "handle", text) : NULL;
}

/* _new_object(cls) -> cls.__new__(cls): an instance without a handle (unpickling).  `cls`
 * may also be a type key (the class made for a type no Python class was registered for is
 * not importable, so its objects pickle with their type key). */
PyObject* tpy_py_new_object(PyObject* self, PyObject* cls) {
  if (PyUnicode_Check(cls)) {
    int32_t index = tpy_index_of_key(cls);
    PyTypeObject* resolved = index >= kTVMFFIStaticObjectBegin ? tpy_class_for_index(index) : NULL;
    if (resolved == NULL) {
      if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "_new_object: `%U` is not an object type", cls);
      return NULL;
    }
    cls = (PyObject*)resolved;
  }
  if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject*)cls, &TpyCObject_Type)) {
    PyErr_Format(PyExc_TypeError, "_new_object: expected a subclass of CObject, got %.200R", cls);
    return NULL;
  }
  PyObject* empty = PyTuple_New(0);
  if (empty == NULL) return NULL;
  PyObject* r = ((PyTypeObject*)cls)->tp_new((PyTypeObject*)cls, empty, NULL);
  Py_DECREF(empty);
  return r;
}

static PyObject* tpy_object_reduce(PyObject* self, PyObject* unused) {
  TVMFFIObject* h = ((TpyObject*)self)->handle;
  PyObject* cls = Py_NewRef((PyObject*)Py_TYPE(self));
  PyObject* auto_made = PyDict_GetItemString(Py_TYPE(self)->tp_dict, "__tether_auto_class__");
  if (auto_made != NULL && h != NULL) {
    Py_SETREF(cls, PyUnicode_FromString(tether_type_key(h->type_index)));
    if (cls == NULL) return NULL;
  }
  PyObject* state = tpy_object_getstate(self, NULL);
  PyObject* fn = state != NULL ? PyObject_GetAttrString(tpy_module, "_new_object") : NULL;
  if (fn == NULL) {
    Py_DECREF(cls);
    Py_XDECREF(state);
    return NULL;
  }
  return Py_BuildValue("(N(N)N)", fn, cls, state);
}

/* A new instance of type(self) holding `h` (steals). */
static PyObject* tpy_object_like(PyObject* self, TVMFFIObject* h, const char* who) {
  PyObject* r = tpy_py_new_object(NULL, (PyObject*)Py_TYPE(self));
  if (r == NULL) {
    TVMFFIObjectDecRef(h);
    return NULL;
  }
  if (tpy_object_adopt_checked(r, h, who) != 0) {
    Py_DECREF(r);
    return NULL;
  }
  return r;
}

/* A copy of self read back from its JSON graph text (pickle's round trip, without pickle). */
static PyObject* tpy_object_json_copy(PyObject* self) {
  PyObject* state = tpy_object_getstate(self, NULL);
  if (state == NULL) return NULL;
  PyObject* r = tpy_py_new_object(NULL, (PyObject*)Py_TYPE(self));
  PyObject* ok = r != NULL ? tpy_object_setstate(r, state) : NULL;
  Py_DECREF(state);
  if (ok == NULL) {
    Py_XDECREF(r);
    return NULL;
  }
  Py_DECREF(ok);
  return r;
}

/* (object.h) */
const TVMFFIAny* tpy_type_attr(int32_t type_index, const char* name) {
  TVMFFIByteArray b = tpy_bytes_of(name);
  const TVMFFITypeAttrColumn* col = TVMFFIGetTypeAttrColumn(&b);
  if (col == NULL || type_index < col->begin_index || type_index - col->begin_index >= col->size) {
    return NULL;
  }
  const TVMFFIAny* v = &col->data[type_index - col->begin_index];
  return v->type_index == kTVMFFINone ? NULL : v;
}

static PyObject* tpy_object_copy(PyObject* self, PyObject* unused) {
  TVMFFIObject* h = ((TpyObject*)self)->handle;
  const TVMFFIAny* fn = h != NULL ? tpy_type_attr(h->type_index, "__ffi_shallow_copy__") : NULL;
  if (fn == NULL || fn->type_index != kTVMFFIFunction) return tpy_object_json_copy(self);
  TVMFFIAny arg = tether_any_object(h), out = tether_any_none();
  if (TVMFFIFunctionCall(fn->v_obj, &arg, 1, &out) != 0) return tpy_raise_ffi_error();
  if (out.type_index < kTVMFFIStaticObjectBegin || out.v_obj == NULL) {
    PyErr_Format(PyExc_TypeError, "__ffi_shallow_copy__ of `%s` returned `%s`",
                 tether_type_key(h->type_index), tether_any_type_key(&out));
    tether_any_release(&out);
    return NULL;
  }
  return tpy_object_like(self, out.v_obj, "__copy__");
}

/* __deepcopy__(memo): the copy module keeps `memo` (one copy per Python object). */
static PyObject* tpy_object_deepcopy(PyObject* self, PyObject* memo) {
  TVMFFIObject* h = ((TpyObject*)self)->handle;
  if (h == NULL) return tpy_object_json_copy(self);
  TVMFFIObject* f = tpy_cached_global("ffi.DeepCopy", &tpy_global_deep_copy);
  if (f == NULL) return NULL;
  TVMFFIAny arg = tether_any_object(h), out = tether_any_none();
  int32_t t = h->type_index;
  bool container = t == kTVMFFIArray || t == kTVMFFIList || t == kTVMFFIMap || t == kTVMFFIDict;
  if (TVMFFIFunctionCall(f, &arg, 1, &out) != 0) {
    /* Not copy-constructible somewhere inside (a Tensor, a Function).  A container raises
     * that (tvm-ffi's containers deep-copy with ffi.DeepCopy alone); any other object is
     * copied through the JSON graph, which copies tensors by value and names what it cannot
     * write (tvm-ffi copies those through pickle's protocol). */
    if (container) return tpy_raise_ffi_error();
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    if (err != NULL) TVMFFIObjectDecRef(err);
    return tpy_object_json_copy(self);
  }
  if (out.type_index < kTVMFFIStaticObjectBegin || out.v_obj == NULL) {
    /* a value DeepCopy shares (e.g. a String) comes back as itself */
    return tpy_from_any_steal(&out);
  }
  return tpy_object_like(self, out.v_obj, "__deepcopy__");
}

/* obj.__move_handle_from__(other): obj takes other's handle; other is left without one. */
static PyObject* tpy_object_move_handle_from(PyObject* self, PyObject* other) {
  if (!tpy_is_object(other)) {
    PyErr_Format(PyExc_TypeError, "__move_handle_from__: expected an FFI object, got %.200s",
                 Py_TYPE(other)->tp_name);
    return NULL;
  }
  TVMFFIObject* h = ((TpyObject*)other)->handle;
  ((TpyObject*)other)->handle = NULL;
  tpy_object_adopt(self, h);
  Py_RETURN_NONE;
}

static PyObject* tpy_object_get_id(PyObject* self, void* unused) {
  return PyLong_FromVoidPtr(((TpyObject*)self)->handle);
}

static PyGetSetDef tpy_object_getset[] = {
    {"id_", tpy_object_get_id, NULL, "the handle's address (0 if none)", NULL},
    {NULL},
};

static PyMethodDef tpy_object_methods[] = {
    {"same_as", tpy_object_same_as, METH_O, "same_as(other): whether both hold the same object"},
    {"is_", tpy_object_same_as, METH_O, "is_(other): whether both hold the same object"},
    {"__move_handle_from__", tpy_object_move_handle_from, METH_O,
     "__move_handle_from__(other): take other's handle, leaving other without one"},
    {"__chandle__", tpy_object_chandle, METH_NOARGS, "the handle's address (0 if none)"},
    {"__ctypes_handle__", tpy_object_ctypes_handle, METH_NOARGS,
     "the handle as a ctypes.c_void_p (value None if none)"},
    {"__init_handle_by_constructor__", (PyCFunction)(void (*)(void))tpy_object_init_by_constructor,
     METH_FASTCALL, "adopt the object returned by fconstructor(*args)"},
    {"__reduce__", tpy_object_reduce, METH_NOARGS,
     "(_new_object, (cls,), {\"handle\": JSON graph text}): pickle through the JSON graph"},
    {"__getstate__", tpy_object_getstate, METH_NOARGS, "{\"handle\": JSON graph text or None}"},
    {"__setstate__", tpy_object_setstate, METH_O, "adopt the object a __getstate__ dict holds"},
    {"__copy__", tpy_object_copy, METH_NOARGS,
     "copy.copy: the type's __ffi_shallow_copy__ (else the JSON graph round trip)"},
    {"__deepcopy__", tpy_object_deepcopy, METH_O,
     "copy.deepcopy: ffi.DeepCopy (else the JSON graph round trip)"},
    {NULL},
};

/* CObject owns the handle and everything that needs nothing but the handle; it is registered
 * for no type index, so a schema naming it fails as for any unregistered class. */
PyTypeObject TpyCObject_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tether.core.CObject",
    .tp_basicsize = sizeof(TpyObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "The C base of FFI objects: holds the handle.  Subclass Object, not this class.",
    .tp_new = tpy_object_new,
    .tp_dealloc = tpy_object_dealloc,
    .tp_repr = tpy_object_repr,
    .tp_hash = tpy_object_hash,
    .tp_richcompare = tpy_object_richcompare,
    .tp_methods = tpy_object_methods,
    .tp_getset = tpy_object_getset,
};

static PyMethodDef tpy_object_only_methods[] = {
    {"_move", tpy_object_move, METH_NOARGS, "pass this object as an rvalue reference"},
    {NULL},
};

/* Object adds the metaclass (slots by default) and the class-table binding to ffi.Object;
 * allocation, deallocation, repr, hash and comparison are inherited from CObject. */
PyTypeObject TpyObject_Type = {
    PyVarObject_HEAD_INIT(&TpyObjectMeta_Type, 0).tp_name = "tether.core.Object",
    .tp_basicsize = sizeof(TpyObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Base class of every FFI object",
    .tp_base = &TpyCObject_Type,
    .tp_methods = tpy_object_only_methods,
};

/* ---- ObjectRValueRef ------------------------------------------------------------------------ */

static void tpy_rvalue_dealloc(PyObject* self) {
  Py_XDECREF(((TpyRValueRef*)self)->obj);
  PyObject_Free(self);
}

PyTypeObject TpyRValueRef_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tether.core.ObjectRValueRef",
    .tp_basicsize = sizeof(TpyRValueRef),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "obj._move(): the object passed as an rvalue reference",
    .tp_dealloc = tpy_rvalue_dealloc,
};

/* ---- wrapping ------------------------------------------------------------------------------ */

PyObject* tpy_object_wrap_as(PyTypeObject* cls, TVMFFIObject* obj) {
  TpyObject* r = tpy_object_alloc(cls);
  if (r == NULL) {
    TVMFFIObjectDecRef(obj);
    return NULL;
  }
  r->handle = obj;
  return (PyObject*)r;
}

PyObject* tpy_object_wrap_steal(TVMFFIObject* obj) {
  PyTypeObject* cls = tpy_class_for_index(obj->type_index);
  if (cls == NULL) {
    TVMFFIObjectDecRef(obj);
    return NULL;
  }
  return tpy_object_wrap_as(cls, obj);
}

/* ---- field descriptors ---------------------------------------------------------------------- */

typedef struct {
  PyObject_HEAD
  TVMFFIFieldInfo info; /* a copy: the type's field array may move as fields are added */
  int32_t owner_index;
  int frozen; /* plain assignment raises (field.set still writes) */
  PyObject* name;
  PyObject* doc;
  PyObject* normalize; /* value -> the value stored (payload enum fields), or NULL */
} TpyField;

/* The handle of `obj` if it is an object of (a subtype of) the field's owner. */
static TVMFFIObject* tpy_field_target(TpyField* f, PyObject* obj) {
  if (!tpy_is_object(obj)) {
    PyErr_Format(PyExc_TypeError, "field '%U' needs an FFI object, got %.200s", f->name,
                 Py_TYPE(obj)->tp_name);
    return NULL;
  }
  TVMFFIObject* h = ((TpyObject*)obj)->handle;
  if (h == NULL) {
    PyErr_Format(PyExc_ValueError, "cannot access field '%U' of a %s without a handle", f->name,
                 tpy_short_name(Py_TYPE(obj)));
    return NULL;
  }
  if (h->type_index != f->owner_index && !tether_type_is_subclass(h->type_index, f->owner_index)) {
    PyErr_Format(PyExc_TypeError, "field '%U' of `%s` does not apply to `%s`", f->name,
                 tether_type_key(f->owner_index), tether_type_key(h->type_index));
    return NULL;
  }
  return h;
}

static PyObject* tpy_field_get(PyObject* self, PyObject* obj, PyObject* type) {
  TpyField* f = (TpyField*)self;
  if (obj == NULL || obj == Py_None) return Py_NewRef(self);
  TVMFFIObject* h = tpy_field_target(f, obj);
  if (h == NULL) return NULL;
  TVMFFIAny v;
  v.type_index = kTVMFFINone;
  v.zero_padding = 0;
  v.v_int64 = 0;
  if (f->info.getter((char*)h + f->info.offset, &v) != 0) return tpy_raise_ffi_error();
  return tpy_from_any_steal(&v);
}

/* Converts `value` (after the field's normalizer, if any) and stores it, bypassing the
 * Writable flag. */
static int tpy_field_store(TpyField* f, PyObject* obj, PyObject* value) {
  TVMFFIObject* h = tpy_field_target(f, obj);
  if (h == NULL) return -1;
  PyObject* normalized = NULL;
  if (f->normalize != NULL) {
    normalized = PyObject_CallOneArg(f->normalize, value);
    if (normalized == NULL) return -1;
    value = normalized;
  }
  tpy_temps temps;
  tpy_temps_init(&temps);
  TVMFFIAny v;
  int rc = tpy_arg_from_py(value, &v, &temps);
  if (rc == 0 && tether_field_set(h, &f->info, &v) != 0) {
    tpy_raise_ffi_error();
    rc = -1;
  }
  tpy_temps_release(&temps);
  Py_XDECREF(normalized);
  return rc;
}

static int tpy_field_set(PyObject* self, PyObject* obj, PyObject* value) {
  TpyField* f = (TpyField*)self;
  if (value == NULL) {
    PyErr_Format(PyExc_AttributeError, "cannot delete field '%U'", f->name);
    return -1;
  }
  if (f->frozen) {
    PyErr_Format(PyExc_AttributeError, "property '%U' of '%s' object has no setter", f->name,
                 tpy_short_name(Py_TYPE(obj)));
    return -1;
  }
  return tpy_field_store(f, obj, value);
}

/* field.set(obj, value): writes even a read-only field (construction helpers use it). */
static PyObject* tpy_field_set_method(PyObject* self, PyObject* const* args, Py_ssize_t n) {
  if (n != 2) {
    PyErr_SetString(PyExc_TypeError, "set(obj, value) takes 2 arguments");
    return NULL;
  }
  if (tpy_field_store((TpyField*)self, args[0], args[1]) != 0) return NULL;
  Py_RETURN_NONE;
}

static void tpy_field_dealloc(PyObject* self) {
  Py_XDECREF(((TpyField*)self)->name);
  Py_XDECREF(((TpyField*)self)->doc);
  Py_XDECREF(((TpyField*)self)->normalize);
  PyObject_Free(self);
}

static PyObject* tpy_field_repr(PyObject* self) {
  return PyUnicode_FromFormat("<field '%U' of '%s'>", ((TpyField*)self)->name,
                              tether_type_key(((TpyField*)self)->owner_index));
}

static PyObject* tpy_field_get_doc(PyObject* self, void* c) {
  PyObject* d = ((TpyField*)self)->doc;
  return Py_NewRef(d ? d : Py_None);
}
static PyObject* tpy_field_get_name(PyObject* self, void* c) {
  return Py_NewRef(((TpyField*)self)->name);
}
static PyObject* tpy_field_get_writable(PyObject* self, void* c) {
  return PyBool_FromLong(!((TpyField*)self)->frozen);
}

/* field._get(obj): the field's value (what `fget` calls). */
static PyObject* tpy_field_get_method(PyObject* self, PyObject* obj) {
  return tpy_field_get(self, obj, NULL);
}

/* fget: the bound `_get`; fset: the bound `set`, or None for a frozen field. */
static PyObject* tpy_field_get_fget(PyObject* self, void* c) {
  return PyObject_GetAttrString(self, "_get");
}
static PyObject* tpy_field_get_fset(PyObject* self, void* c) {
  if (((TpyField*)self)->frozen) Py_RETURN_NONE;
  return PyObject_GetAttrString(self, "set");
}
static PyObject* tpy_field_get_metadata(PyObject* self, void* c) {
  return tpy_str_from_bytes(((TpyField*)self)->info.metadata);
}

static PyGetSetDef tpy_field_getset[] = {
    {"__doc__", tpy_field_get_doc, NULL, NULL, NULL},
    {"name", tpy_field_get_name, NULL, "field name", NULL},
    {"writable", tpy_field_get_writable, NULL, "whether plain assignment is allowed", NULL},
    {"metadata", tpy_field_get_metadata, NULL, "the field's metadata JSON", NULL},
    {"fget", tpy_field_get_fget, NULL, "fget(obj): the field's value", NULL},
    {"fset", tpy_field_get_fset, NULL, "fset(obj, value), or None when the field is frozen", NULL},
    {NULL},
};

static PyMethodDef tpy_field_methods[] = {
    {"set", (PyCFunction)(void (*)(void))tpy_field_set_method, METH_FASTCALL,
     "set(obj, value): write the field even when it is read-only"},
    {"_get", tpy_field_get_method, METH_O, "_get(obj): the field's value"},
    {NULL},
};

static PyTypeObject TpyField_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tether.core.FFIProperty",
    .tp_basicsize = sizeof(TpyField),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "a reflected field of an FFI object",
    .tp_dealloc = tpy_field_dealloc,
    .tp_repr = tpy_field_repr,
    .tp_descr_get = tpy_field_get,
    .tp_descr_set = tpy_field_set,
    .tp_getset = tpy_field_getset,
    .tp_methods = tpy_field_methods,
};

PyObject* tpy_field_new(int32_t owner_index, const TVMFFIFieldInfo* fi, int frozen) {
  TpyField* f = PyObject_New(TpyField, &TpyField_Type);
  if (f == NULL) return NULL;
  f->info = *fi;
  f->owner_index = owner_index;
  f->frozen = frozen;
  f->doc = NULL;
  f->normalize = NULL;
  f->name = tpy_str_from_bytes(fi->name);
  if (f->name == NULL) {
    Py_DECREF(f);
    return NULL;
  }
  if (fi->doc.size) {
    f->doc = tpy_str_from_bytes(fi->doc);
    if (f->doc == NULL) PyErr_Clear();
  }
  return (PyObject*)f;
}

void tpy_field_set_normalizer(PyObject* field, PyObject* normalize) {
  TpyField* f = (TpyField*)field;
  Py_XSETREF(f->normalize, Py_XNewRef(normalize));
}

/* ---- method and __init__ descriptors ------------------------------------------------------- */

enum { TPY_METHOD_PLAIN = 0, TPY_METHOD_INIT = 1, TPY_METHOD_NO_INIT = 2 };

typedef struct {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  PyObject* func; /* a Function (NULL for NO_INIT) */
  PyObject* name;
  PyObject* doc;  /* str or NULL */
  int kind;
} TpyMethod;

/* obj.m(*args): LOAD_METHOD calls the descriptor with obj first; forward to the Function. */
static PyObject* tpy_method_call(PyObject* self, PyObject* const* args, size_t nargsf,
                                 PyObject* kwnames) {
  return PyObject_Vectorcall(((TpyMethod*)self)->func, args, nargsf, kwnames);
}

/* __init__(self, *args, **kwargs) -> self adopts __ffi_init__(*args, KWARGS, k0, v0, ...). */
static PyObject* tpy_init_call(PyObject* self, PyObject* const* args, size_t nargsf,
                               PyObject* kwnames) {
  TpyMethod* m = (TpyMethod*)self;
  Py_ssize_t n = PyVectorcall_NARGS(nargsf);
  Py_ssize_t nk = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  if (n < 1 || !tpy_is_object(args[0])) {
    PyErr_SetString(PyExc_TypeError, "__init__ needs an FFI object as self");
    return NULL;
  }
  PyObject* obj = args[0];
  if (m->kind == TPY_METHOD_NO_INIT) {
    PyErr_Format(PyExc_TypeError, "`%U` cannot be constructed from Python: its type has no __ffi_init__",
                 m->name);
    return NULL;
  }
  Py_ssize_t total = (n - 1) + (nk ? 1 + 2 * nk : 0);
  TVMFFIAny stack[TPY_STACK_ARGS];
  TVMFFIAny* views = total <= TPY_STACK_ARGS ? stack : PyMem_Malloc(sizeof(TVMFFIAny) * (size_t)total);
  if (views == NULL) return PyErr_NoMemory();
  tpy_temps temps;
  tpy_temps_init(&temps);
  PyObject* r = NULL;
  Py_ssize_t k = 0;
  for (Py_ssize_t i = 1; i < n; ++i) {
    if (tpy_arg_from_py(args[i], &views[k++], &temps) != 0) goto done;
  }
  if (nk != 0) {
    views[k++] = tether_any_object(tpy_kwargs_handle);
    for (Py_ssize_t i = 0; i < nk; ++i) {
      if (tpy_arg_from_py(PyTuple_GET_ITEM(kwnames, i), &views[k++], &temps) != 0 ||
          tpy_arg_from_py(args[n + i], &views[k++], &temps) != 0) {
        goto done;
      }
    }
  }
  {
    TVMFFIAny result = tether_any_none();
    if (TVMFFIFunctionCall(((TpyObject*)m->func)->handle, views, (int32_t)total, &result) != 0) {
      tpy_raise_ffi_error();
      goto done;
    }
    if (result.type_index < kTVMFFIStaticObjectBegin) {
      tether_any_release(&result);
      PyErr_Format(PyExc_TypeError, "%U.__ffi_init__ did not return an object", m->name);
      goto done;
    }
    tpy_object_adopt(obj, result.v_obj);
  }
  r = Py_NewRef(Py_None);
done:
  tpy_temps_release(&temps);
  if (views != stack) PyMem_Free(views);
  return r;
}

static PyObject* tpy_method_descr_get(PyObject* self, PyObject* obj, PyObject* type) {
  if (obj == NULL || obj == Py_None) return Py_NewRef(self);
  return PyMethod_New(self, obj);
}

static void tpy_method_dealloc(PyObject* self) {
  Py_XDECREF(((TpyMethod*)self)->func);
  Py_XDECREF(((TpyMethod*)self)->name);
  Py_XDECREF(((TpyMethod*)self)->doc);
  PyObject_Free(self);
}

static PyObject* tpy_method_repr(PyObject* self) {
  return PyUnicode_FromFormat("<ffi method '%U'>", ((TpyMethod*)self)->name);
}

static PyObject* tpy_method_get_func(PyObject* self, void* c) {
  PyObject* f = ((TpyMethod*)self)->func;
  return Py_NewRef(f ? f : Py_None);
}
static PyObject* tpy_method_get_name(PyObject* self, void* c) {
  return Py_NewRef(((TpyMethod*)self)->name);
}

static PyObject* tpy_method_get_doc(PyObject* self, void* c) {
  PyObject* d = ((TpyMethod*)self)->doc;
  return Py_NewRef(d ? d : Py_None);
}

static PyGetSetDef tpy_method_getset[] = {
    {"__doc__", tpy_method_get_doc, NULL, NULL, NULL},
    {"__func__", tpy_method_get_func, NULL, "the underlying Function", NULL},
    {"__name__", tpy_method_get_name, NULL, NULL, NULL},
    {NULL},
};

static PyTypeObject TpyMethod_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tether.core.FFIMethod",
    .tp_basicsize = sizeof(TpyMethod),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR,
    .tp_vectorcall_offset = offsetof(TpyMethod, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_doc = "a reflected method of an FFI object (binds self like a function)",
    .tp_dealloc = tpy_method_dealloc,
    .tp_repr = tpy_method_repr,
    .tp_descr_get = tpy_method_descr_get,
    .tp_getset = tpy_method_getset,
};

/* New method descriptor; `func` borrowed (may be NULL for NO_INIT), `name` borrowed. */
static PyObject* tpy_method_new(PyObject* func, PyObject* name, int kind) {
  TpyMethod* m = PyObject_New(TpyMethod, &TpyMethod_Type);
  if (m == NULL) return NULL;
  m->vectorcall = kind == TPY_METHOD_PLAIN ? tpy_method_call : tpy_init_call;
  m->func = Py_XNewRef(func);
  m->name = Py_NewRef(name);
  m->doc = NULL;
  m->kind = kind;
  return (PyObject*)m;
}

PyObject* tpy_method_descr_new(PyObject* func, PyObject* name, PyObject* doc, int is_static) {
  if (is_static) return PyStaticMethod_New(func);
  PyObject* m = tpy_method_new(func, name, TPY_METHOD_PLAIN);
  if (m != NULL && doc != NULL && doc != Py_None) ((TpyMethod*)m)->doc = Py_NewRef(doc);
  return m;
}

/* ---- installing reflection on a class ------------------------------------------------------ */

/* "a.b.C" + "." + name as a str. */
static PyObject* tpy_qualified(TVMFFIByteArray key, TVMFFIByteArray name) {
  PyObject* k = tpy_str_from_bytes(key);
  PyObject* n = k ? tpy_str_from_bytes(name) : NULL;
  PyObject* r = n ? PyUnicode_FromFormat("%U.%U", k, n) : NULL;
  Py_XDECREF(k);
  Py_XDECREF(n);
  return r;
}

/* Installs the fields and methods of `t` on `cls`.  own: skip names in cls's own dict;
 * inherited: skip names found anywhere in cls's MRO. */
static int tpy_install_members(PyTypeObject* cls, const TVMFFITypeInfo* t, bool own) {
  for (int32_t i = 0; i < t->num_fields; ++i) {
    const TVMFFIFieldInfo* fi = &t->fields[i];
    if (fi->getter == NULL) continue;
    PyObject* name = tpy_str_from_bytes(fi->name);
    if (name == NULL) return -1;
    int present = own ? PyDict_Contains(cls->tp_dict, name) : _PyType_Lookup(cls, name) != NULL;
    if (present != 0) {
      Py_DECREF(name);
      if (present < 0) return -1;
      continue;
    }
    PyObject* f = tpy_field_new(t->type_index, fi, !(fi->flags & kTVMFFIFieldFlagBitMaskWritable));
    int rc = f != NULL ? PyObject_SetAttr((PyObject*)cls, name, f) : -1;
    Py_DECREF(name);
    Py_XDECREF(f);
    if (rc != 0) return -1;
  }
  for (int32_t i = 0; i < t->num_methods; ++i) {
    const TVMFFIMethodInfo* mi = &t->methods[i];
    if (mi->method.type_index != kTVMFFIFunction) continue;
    PyObject* name = tpy_str_from_bytes(mi->name);
    if (name == NULL) return -1;
    int present = own ? PyDict_Contains(cls->tp_dict, name) : _PyType_Lookup(cls, name) != NULL;
    if (present != 0) {
      Py_DECREF(name);
      if (present < 0) return -1;
      continue;
    }
    TVMFFIObjectIncRef(mi->method.v_obj);
    PyObject* func = tpy_function_wrap_steal(mi->method.v_obj);
    PyObject* qual = func ? tpy_qualified(t->type_key, mi->name) : NULL;
    PyObject *descr = NULL, *doc = NULL;
    if (qual != NULL) {
      Py_XSETREF(((TpyFunction*)func)->name, qual);
      doc = mi->doc.size ? tpy_str_from_bytes(mi->doc) : NULL;
      if (mi->doc.size && doc == NULL) PyErr_Clear();
      descr = tpy_method_descr_new(func, name, doc,
                                   (mi->flags & kTVMFFIFieldFlagBitMaskIsStaticMethod) != 0);
      Py_XDECREF(doc);
    }
    int rc = descr ? PyObject_SetAttr((PyObject*)cls, name, descr) : -1;
    Py_XDECREF(descr);
    Py_XDECREF(func);
    Py_DECREF(name);
    if (rc != 0) return -1;
  }
  return 0;
}

/* The __ffi_init__ Function of type `index` (borrowed view) or NULL. */
static const TVMFFIAny* tpy_ffi_init_entry(int32_t index) {
  static const TVMFFITypeAttrColumn* col = NULL;
  if (col == NULL) {
    TVMFFIByteArray name = tpy_bytes_of("__ffi_init__");
    col = TVMFFIGetTypeAttrColumn(&name);
    if (col == NULL) return NULL;
  }
  if (index < col->begin_index || index - col->begin_index >= col->size) return NULL;
  const TVMFFIAny* e = &col->data[index - col->begin_index];
  return e->type_index == kTVMFFIFunction ? e : NULL;
}

/* Installs fields, methods and (when `init`) an __init__ from __ffi_init__ on `cls`. */
static int tpy_install_reflection(PyTypeObject* cls, const TVMFFITypeInfo* info, bool init) {
  if (tpy_install_members(cls, info, true) != 0) return -1;
  for (int32_t d = info->type_depth - 1; d >= 0; --d) {
    if (tpy_install_members(cls, info->type_ancestors[d], false) != 0) return -1;
  }
  if (!init) return 0;
  int has_init = PyDict_Contains(cls->tp_dict, tpy_str_init);
  if (has_init != 0) return has_init < 0 ? -1 : 0;
  const TVMFFIAny* entry = tpy_ffi_init_entry(info->type_index);
  PyObject* key = tpy_str_from_bytes(info->type_key);
  if (key == NULL) return -1;
  PyObject *func = NULL, *descr = NULL;
  if (entry != NULL) {
    TVMFFIObjectIncRef(entry->v_obj);
    func = tpy_function_wrap_steal(entry->v_obj);
    if (func != NULL) {
      PyObject* qual = tpy_qualified(info->type_key, tpy_bytes_of("__ffi_init__"));
      Py_XSETREF(((TpyFunction*)func)->name, qual);
      if (qual != NULL) descr = tpy_method_new(func, key, TPY_METHOD_INIT);
    }
  } else {
    descr = tpy_method_new(NULL, key, TPY_METHOD_NO_INIT);
  }
  int rc = descr ? PyObject_SetAttr((PyObject*)cls, tpy_str_init, descr) : -1;
  Py_XDECREF(descr);
  Py_XDECREF(func);
  Py_DECREF(key);
  return rc;
}

/* ---- the class table ----------------------------------------------------------------------- */

static int tpy_table_set(int32_t index, PyTypeObject* cls) {
  if (index < 0) {
    PyErr_Format(PyExc_ValueError, "invalid type index %d", (int)index);
    return -1;
  }
  if (index >= tpy_class_table_size) {
    int32_t size = tpy_class_table_size ? tpy_class_table_size : 256;
    while (size <= index) size *= 2;
    PyTypeObject** t = PyMem_Realloc(tpy_class_table, sizeof(PyTypeObject*) * (size_t)size);
    if (t == NULL) {
      PyErr_NoMemory();
      return -1;
    }
    memset(t + tpy_class_table_size, 0, sizeof(PyTypeObject*) * (size_t)(size - tpy_class_table_size));
    tpy_class_table = t;
    tpy_class_table_size = size;
  }
  Py_INCREF(cls);
  Py_XSETREF(tpy_class_table[index], cls);
  return 0;
}

int tpy_register_class(int32_t type_index, PyTypeObject* cls) {
  return tpy_table_set(type_index, cls);
}

/* The auto class of type `info`, parented on `parent`: a new reference. */
static PyTypeObject* tpy_make_auto_class(const TVMFFITypeInfo* info, PyTypeObject* parent) {
  const char* key = info->type_key.data;
  size_t n = info->type_key.size;
  const char* dot = NULL;
  for (size_t i = 0; i < n; ++i) {
    if (key[i] == '.') dot = key + i;
  }
  PyObject *ns = NULL, *name = NULL, *mod = NULL, *cls = NULL, *doc = NULL;
  name = dot ? PyUnicode_FromStringAndSize(dot + 1, (Py_ssize_t)(key + n - dot - 1))
             : PyUnicode_FromStringAndSize(key, (Py_ssize_t)n);
  mod = dot ? PyUnicode_FromStringAndSize(key, (Py_ssize_t)(dot - key)) : PyUnicode_FromString("tether.core");
  ns = PyDict_New();
  if (name == NULL || mod == NULL || ns == NULL) goto done;
  if (info->metadata != NULL && info->metadata->doc.size != 0) {
    doc = tpy_str_from_bytes(info->metadata->doc);
    if (doc == NULL || PyDict_SetItemString(ns, "__doc__", doc) != 0) goto done;
  }
  if (PyDict_SetItemString(ns, "__module__", mod) != 0 ||
      PyDict_SetItemString(ns, "__qualname__", name) != 0 ||
      PyDict_SetItemString(ns, "__tether_auto_class__", Py_True) != 0) {
    goto done;
  }
  cls = PyObject_CallFunction((PyObject*)Py_TYPE(parent), "O(O)O", name, (PyObject*)parent, ns);
  if (cls != NULL && tpy_install_reflection((PyTypeObject*)cls, info, true) != 0) Py_CLEAR(cls);
done:
  Py_XDECREF(ns);
  Py_XDECREF(name);
  Py_XDECREF(mod);
  Py_XDECREF(doc);
  return (PyTypeObject*)cls;
}

PyTypeObject* tpy_class_resolve(int32_t type_index) {
  if (type_index < kTVMFFIStaticObjectBegin) {
    PyErr_Format(PyExc_ValueError, "type index %d is not an object type", (int)type_index);
    return NULL;
  }
  if (strcmp(tether_type_key(type_index), "<unknown>") == 0) {
    PyErr_Format(PyExc_TypeError, "type index %d is not a registered object type", (int)type_index);
    return NULL;
  }
  if (tpy_fallback_maker != NULL) {
    PyObject* cls = PyObject_CallFunction(tpy_fallback_maker, "i", (int)type_index);
    if (cls == NULL) return NULL;
    int ok = PyType_Check(cls) && PyType_IsSubtype((PyTypeObject*)cls, &TpyObject_Type);
    int rc = ok ? tpy_table_set(type_index, (PyTypeObject*)cls) : -1;
    if (!ok) {
      PyErr_Format(PyExc_TypeError, "the fallback class maker returned %.200R for type `%s`, "
                   "not a subclass of Object", cls, tether_type_key(type_index));
    }
    Py_DECREF(cls);
    return rc == 0 ? tpy_class_table[type_index] : NULL;
  }
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  int32_t parent_index = info->type_depth > 0 ? info->type_ancestors[info->type_depth - 1]->type_index
                                              : kTVMFFIObject;
  PyTypeObject* parent = parent_index == type_index ? &TpyObject_Type : tpy_class_for_index(parent_index);
  if (parent == NULL) return NULL;
  PyTypeObject* cls = tpy_make_auto_class(info, parent);
  if (cls == NULL) return NULL;
  int rc = tpy_table_set(type_index, cls);
  Py_DECREF(cls);
  return rc == 0 ? cls : NULL;
}

/* ---- module functions ---------------------------------------------------------------------- */

/* The index of type key `key` (a str); -1 with ValueError if unknown. */
static int32_t tpy_index_of_key(PyObject* key) {
  Py_ssize_t n;
  const char* s = PyUnicode_AsUTF8AndSize(key, &n);
  if (s == NULL) return -1;
  TVMFFIByteArray b = {s, (size_t)n};
  int32_t index = -1;
  if (TVMFFITypeKeyToIndex(&b, &index) != 0) {
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    TVMFFIObjectDecRef(err);
    PyErr_Format(PyExc_ValueError, "Cannot find object type index for key `%s`", s);
    return -1;
  }
  return index;
}

/* _register_object(type_key, cls, init=True) -> cls */
PyObject* tpy_py_register_object(PyObject* self, PyObject* const* args, Py_ssize_t n) {
  if (n < 2 || n > 3 || !PyUnicode_Check(args[0]) || !PyType_Check(args[1])) {
    PyErr_SetString(PyExc_TypeError, "_register_object(type_key: str, cls: type, init: bool = True)");
    return NULL;
  }
  int init = n == 3 ? PyObject_IsTrue(args[2]) : 1;
  if (init < 0) return NULL;
  PyTypeObject* cls = (PyTypeObject*)args[1];
  if (!PyType_IsSubtype(cls, &TpyObject_Type)) {
    PyErr_Format(PyExc_TypeError, "_register_object: %.200s does not derive from tether.core.Object",
                 cls->tp_name);
    return NULL;
  }
  int32_t index = tpy_index_of_key(args[0]);
  if (index < 0) return NULL;
  if (index < kTVMFFIStaticObjectBegin) {
    PyErr_Format(PyExc_ValueError, "_register_object: `%U` is not an object type", args[0]);
    return NULL;
  }
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
  if (cls->tp_flags & Py_TPFLAGS_HEAPTYPE) {
    PyObject* idx = PyLong_FromLong(index);
    int rc = idx ? PyObject_SetAttrString((PyObject*)cls, "__ffi_type_index__", idx) : -1;
    Py_XDECREF(idx);
    if (rc != 0 || PyObject_SetAttrString((PyObject*)cls, "__ffi_type_key__", args[0]) != 0 ||
        tpy_install_reflection(cls, info, init != 0) != 0) {
      return NULL;
    }
  }
  if (tpy_table_set(index, cls) != 0) return NULL;
  return Py_NewRef((PyObject*)cls);
}

PyObject* tpy_py_lookup_type_key(PyObject* self, PyObject* arg) {
  long index = PyLong_AsLong(arg);
  if (index == -1 && PyErr_Occurred()) return NULL;
  if (index < 0 || index > INT32_MAX) {
    PyErr_Format(PyExc_ValueError, "invalid type index %ld", index);
    return NULL;
  }
  return PyUnicode_FromString(tether_type_key((int32_t)index));
}

PyObject* tpy_py_type_key_to_index(PyObject* self, PyObject* arg) {
  if (!PyUnicode_Check(arg)) {
    PyErr_SetString(PyExc_TypeError, "_type_key_to_index expects a str");
    return NULL;
  }
  int32_t index = tpy_index_of_key(arg);
  return index < 0 ? NULL : PyLong_FromLong(index);
}

/* _type_fields(key) -> (parent key or None, [(name, static type index, metadata), ...]): the
 * type's own reflected fields in registration order, as the field infos hold them. */
PyObject* tpy_py_type_fields(PyObject* self, PyObject* arg) {
  if (!PyUnicode_Check(arg)) {
    PyErr_SetString(PyExc_TypeError, "_type_fields expects a str");
    return NULL;
  }
  int32_t index = tpy_index_of_key(arg);
  if (index < 0) return NULL;
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
  if (info == NULL) {
    PyErr_Format(PyExc_ValueError, "_type_fields: no type info for %R", arg);
    return NULL;
  }
  PyObject* fields = PyList_New(info->num_fields);
  if (fields == NULL) return NULL;
  for (int32_t i = 0; i < info->num_fields; ++i) {
    const TVMFFIFieldInfo* f = &info->fields[i];
    PyObject* item = Py_BuildValue("(s#is#)", f->name.data, (Py_ssize_t)f->name.size,
                                   (int)f->field_static_type_index, f->metadata.data,
                                   (Py_ssize_t)f->metadata.size);
    if (item == NULL) {
      Py_DECREF(fields);
      return NULL;
    }
    PyList_SET_ITEM(fields, i, item);
  }
  const TVMFFITypeInfo* parent = info->type_depth > 0 ? info->type_ancestors[info->type_depth - 1] : NULL;
  PyObject* parent_key = parent != NULL ? PyUnicode_FromStringAndSize(parent->type_key.data,
                                                                      (Py_ssize_t)parent->type_key.size)
                                        : Py_NewRef(Py_None);
  if (parent_key == NULL) {
    Py_DECREF(fields);
    return NULL;
  }
  return Py_BuildValue("(NN)", parent_key, fields);
}

PyObject* tpy_py_object_type_index(PyObject* self, PyObject* arg) {
  if (!tpy_is_object(arg) || ((TpyObject*)arg)->handle == NULL) {
    PyErr_SetString(PyExc_TypeError, "_object_type_index expects an FFI object with a handle");
    return NULL;
  }
  return PyLong_FromLong(((TpyObject*)arg)->handle->type_index);
}

int tpy_object_init(PyObject* module) {
  tpy_str_slots = PyUnicode_InternFromString("__slots__");
  tpy_str_init = PyUnicode_InternFromString("__init__");
  if (tpy_str_slots == NULL || tpy_str_init == NULL) return -1;
  TpyObjectMeta_Type.tp_base = &PyType_Type;
  if (PyType_Ready(&TpyObjectMeta_Type) != 0 || PyType_Ready(&TpyCObject_Type) != 0 ||
      PyType_Ready(&TpyObject_Type) != 0 ||
      PyType_Ready(&TpyRValueRef_Type) != 0 || PyType_Ready(&TpyField_Type) != 0 ||
      PyType_Ready(&TpyMethod_Type) != 0) {
    return -1;
  }
  if (tpy_table_set(kTVMFFIObject, &TpyObject_Type) != 0) return -1;
  if (PyModule_AddObjectRef(module, "CObject", (PyObject*)&TpyCObject_Type) != 0 ||
      PyModule_AddObjectRef(module, "Object", (PyObject*)&TpyObject_Type) != 0 ||
      PyModule_AddObjectRef(module, "_ObjectMeta", (PyObject*)&TpyObjectMeta_Type) != 0 ||
      PyModule_AddObjectRef(module, "ObjectRValueRef", (PyObject*)&TpyRValueRef_Type) != 0 ||
      PyModule_AddObjectRef(module, "FFIProperty", (PyObject*)&TpyField_Type) != 0 ||
      PyModule_AddObjectRef(module, "FFIMethod", (PyObject*)&TpyMethod_Type) != 0) {
    return -1;
  }
  return 0;
}
