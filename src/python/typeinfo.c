/*
 * typeinfo.c -- the C half of type reflection.  tether/_reflection.py builds TypeInfo,
 * TypeField and TypeMethod (cold metadata) from what these functions read out of the type
 * table, and registers Python-defined types through them; what runs per object stays here:
 * field descriptors (FFIProperty, object.c) and the value converter a field setter of a
 * Python-defined type calls for every write.
 *
 * The converter: a field's setter (ffi.MakeFieldSetter) hands each incoming value to
 * tpy_field_convert with a tpy_field_conv.  Values that already have the field's type pass
 * straight through in C (int to int, str to str, an object of the field's class, anything
 * to Any); any other value goes to the field's Python converter, which coerces it or
 * raises.  A conv lives as long as the type table entry that holds its setter: for the
 * life of the process (types are never unregistered).
 */
#include "typeinfo.h"

#include "convert.h"
#include "error.h"
#include "function.h"
#include "object.h"

/* ---- reading the type table ---------------------------------------------------------------- */

static int tpy_arg_index(PyObject* arg, const char* who, int32_t* out) {
  long v = PyLong_AsLong(arg);
  if (v == -1 && PyErr_Occurred()) return -1;
  if (v < 0 || v > INT32_MAX) {
    PyErr_Format(PyExc_ValueError, "%s: invalid type index %ld", who, v);
    return -1;
  }
  *out = (int32_t)v;
  return 0;
}

/* Whether a type is registered at `index` (TVMFFIGetTypeInfo ends the process on an
 * unknown index, so every lookup asks this first). */
static bool tpy_type_known(int32_t index) {
  return strcmp(tether_type_key(index), "<unknown>") != 0;
}

/* The type info of `index`, or NULL with ValueError. */
static const TVMFFITypeInfo* tpy_info_of(int32_t index, const char* who) {
  if (!tpy_type_known(index)) {
    PyErr_Format(PyExc_ValueError, "%s: no type is registered at index %d", who, (int)index);
    return NULL;
  }
  return TVMFFIGetTypeInfo(index);
}

static PyObject* tpy_str_or_none(TVMFFIByteArray b) {
  return b.size != 0 ? tpy_str_from_bytes(b) : Py_NewRef(Py_None);
}

/* A Python value for `v` (a view; copied). */
static PyObject* tpy_value_of_view(const TVMFFIAny* v) {
  TVMFFIAny owned = tether_any_none();
  if (TVMFFIAnyViewToOwnedAny(v, &owned) != 0) return tpy_raise_ffi_error();
  return tpy_from_any_steal(&owned);
}

static PyObject* tpy_field_tuple(const TVMFFIFieldInfo* f) {
  PyObject* dflt = (f->flags & kTVMFFIFieldFlagBitMaskHasDefault)
                       ? tpy_value_of_view(&f->default_value_or_factory)
                       : Py_NewRef(Py_None);
  if (dflt == NULL) return NULL;
  return Py_BuildValue("(NNLLLiLNN)", tpy_str_from_bytes(f->name), tpy_str_or_none(f->doc),
                       (long long)f->size, (long long)f->alignment, (long long)f->offset,
                       (int)f->field_static_type_index, (long long)f->flags,
                       tpy_str_from_bytes(f->metadata), dflt);
}

static PyObject* tpy_method_tuple(const TVMFFIMethodInfo* m) {
  PyObject* func = tpy_value_of_view(&m->method);
  if (func == NULL) return NULL;
  return Py_BuildValue("(NNLNN)", tpy_str_from_bytes(m->name), tpy_str_or_none(m->doc),
                       (long long)m->flags, func, tpy_str_from_bytes(m->metadata));
}

/* _type_info_raw(index) -> (type_key, [ancestor index, ...], [field tuple], [method tuple],
 * total size from the type's metadata or None).  A field tuple is (name, doc, size,
 * alignment, offset, static type index, flags, metadata JSON, default or factory); a method
 * tuple is (name, doc, flags, function, metadata JSON).  The type's own members only. */
static PyObject* tpy_py_type_info_raw(PyObject* self, PyObject* arg) {
  int32_t index;
  if (tpy_arg_index(arg, "_type_info_raw", &index) != 0) return NULL;
  const TVMFFITypeInfo* info = tpy_info_of(index, "_type_info_raw");
  if (info == NULL) return NULL;
  PyObject *ancestors = PyList_New(info->type_depth), *fields = PyList_New(info->num_fields),
           *methods = PyList_New(info->num_methods);
  if (ancestors == NULL || fields == NULL || methods == NULL) goto fail;
  for (int32_t i = 0; i < info->type_depth; ++i) {
    PyObject* v = PyLong_FromLong(info->type_ancestors[i]->type_index);
    if (v == NULL) goto fail;
    PyList_SET_ITEM(ancestors, i, v);
  }
  for (int32_t i = 0; i < info->num_fields; ++i) {
    PyObject* t = tpy_field_tuple(&info->fields[i]);
    if (t == NULL) goto fail;
    PyList_SET_ITEM(fields, i, t);
  }
  for (int32_t i = 0; i < info->num_methods; ++i) {
    PyObject* t = tpy_method_tuple(&info->methods[i]);
    if (t == NULL) goto fail;
    PyList_SET_ITEM(methods, i, t);
  }
  PyObject* size = info->metadata != NULL ? PyLong_FromLong(info->metadata->total_size)
                                          : Py_NewRef(Py_None);
  if (size == NULL) goto fail;
  return Py_BuildValue("(NNNNN)", tpy_str_from_bytes(info->type_key), ancestors, fields, methods,
                       size);
fail:
  Py_XDECREF(ancestors);
  Py_XDECREF(fields);
  Py_XDECREF(methods);
  return NULL;
}

/* _field_property(index, i, frozen[, normalize]) -> FFIProperty of the type's own field i;
 * `normalize` (a callable, or None) maps every value stored before it is converted. */
static PyObject* tpy_py_field_property(PyObject* self, PyObject* const* args, Py_ssize_t n) {
  int32_t index;
  if (n != 3 && n != 4) {
    PyErr_SetString(PyExc_TypeError,
                    "_field_property(type_index, field_index, frozen[, normalize])");
    return NULL;
  }
  if (tpy_arg_index(args[0], "_field_property", &index) != 0) return NULL;
  Py_ssize_t i = PyLong_AsSsize_t(args[1]);
  int frozen = PyObject_IsTrue(args[2]);
  if ((i == -1 && PyErr_Occurred()) || frozen < 0) return NULL;
  const TVMFFITypeInfo* info = tpy_info_of(index, "_field_property");
  if (info == NULL) return NULL;
  if (i < 0 || i >= info->num_fields) {
    PyErr_Format(PyExc_IndexError, "_field_property: `%s` has no field %zd",
                 tether_type_key(index), i);
    return NULL;
  }
  if (info->fields[i].getter == NULL) {
    PyErr_Format(PyExc_TypeError, "_field_property: field %zd of `%s` has no getter", i,
                 tether_type_key(index));
    return NULL;
  }
  PyObject* prop = tpy_field_new(index, &info->fields[i], frozen);
  if (prop != NULL && n == 4 && args[3] != Py_None) tpy_field_set_normalizer(prop, args[3]);
  return prop;
}

/* _method_descriptor(func, name, doc, is_static) -> the class attribute for a method. */
static PyObject* tpy_py_method_descriptor(PyObject* self, PyObject* const* args, Py_ssize_t n) {
  if (n != 4 || !PyUnicode_Check(args[1])) {
    PyErr_SetString(PyExc_TypeError, "_method_descriptor(func, name: str, doc, is_static)");
    return NULL;
  }
  int is_static = PyObject_IsTrue(args[3]);
  if (is_static < 0) return NULL;
  return tpy_method_descr_new(args[0], args[1], args[2], is_static);
}

/* ---- type attributes ----------------------------------------------------------------------- */

/* The value of column `col` at `index` as a Python object, or None. */
static PyObject* tpy_column_value(const TVMFFITypeAttrColumn* col, int32_t index) {
  if (index < col->begin_index || index - col->begin_index >= col->size) Py_RETURN_NONE;
  return tpy_value_of_view(&col->data[index - col->begin_index]);
}

/* _lookup_type_attr(type_index, attr_key, ancestor=False) -> value or None */
static PyObject* tpy_py_lookup_type_attr(PyObject* self, PyObject* const* args, Py_ssize_t n,
                                         PyObject* kwnames) {
  static const char* const names[] = {"type_index", "attr_key", "ancestor"};
  PyObject* vals[3] = {NULL, NULL, Py_False};
  Py_ssize_t nk = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  if (n > 3) goto usage;
  for (Py_ssize_t i = 0; i < n; ++i) vals[i] = args[i];
  for (Py_ssize_t k = 0; k < nk; ++k) {
    PyObject* key = PyTuple_GET_ITEM(kwnames, k);
    int j = 0;
    while (j < 3 && PyUnicode_CompareWithASCIIString(key, names[j]) != 0) ++j;
    if (j == 3 || vals[j] != (j == 2 ? Py_False : NULL)) goto usage;
    vals[j] = args[n + k];
  }
  if (vals[0] == NULL || vals[1] == NULL || !PyUnicode_Check(vals[1])) goto usage;
  long index = PyLong_AsLong(vals[0]);
  if (index == -1 && PyErr_Occurred()) return NULL;
  int ancestor = PyObject_IsTrue(vals[2]);
  if (ancestor < 0) return NULL;
  Py_ssize_t len;
  const char* s = PyUnicode_AsUTF8AndSize(vals[1], &len);
  if (s == NULL) return NULL;
  TVMFFIByteArray key = {s, (size_t)len};
  const TVMFFITypeAttrColumn* col = TVMFFIGetTypeAttrColumn(&key);
  if (col == NULL || index < 0 || index > INT32_MAX) Py_RETURN_NONE;
  PyObject* r = tpy_column_value(col, (int32_t)index);
  if (r != Py_None || !ancestor) return r;
  if (!tpy_type_known((int32_t)index)) return r;
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo((int32_t)index);
  for (int32_t d = info->type_depth - 1; d >= 0 && r == Py_None; --d) {
    Py_SETREF(r, tpy_column_value(col, info->type_ancestors[d]->type_index));
    if (r == NULL) return NULL;
  }
  return r;
usage:
  PyErr_SetString(PyExc_TypeError,
                  "_lookup_type_attr(type_index: int, attr_key: str, ancestor: bool = False)");
  return NULL;
}

/* _register_type_attr(type_index, attr_key, value) */
static PyObject* tpy_py_register_type_attr(PyObject* self, PyObject* const* args, Py_ssize_t n) {
  if (n != 3 || !PyUnicode_Check(args[1])) {
    PyErr_SetString(PyExc_TypeError, "_register_type_attr(type_index: int, attr_key: str, value)");
    return NULL;
  }
  int32_t index;
  if (tpy_arg_index(args[0], "_register_type_attr", &index) != 0) return NULL;
  Py_ssize_t len;
  const char* s = PyUnicode_AsUTF8AndSize(args[1], &len);
  if (s == NULL) return NULL;
  TVMFFIByteArray key = {s, (size_t)len};
  tpy_temps temps;
  tpy_temps_init(&temps);
  TVMFFIAny v;
  int rc = tpy_arg_from_py(args[2], &v, &temps);
  if (rc == 0 && TVMFFITypeRegisterAttr(index, &key, &v) != 0) {
    tpy_raise_ffi_error();
    rc = -1;
  }
  tpy_temps_release(&temps);
  if (rc != 0) return NULL;
  Py_RETURN_NONE;
}

/* ---- registering Python-defined types ------------------------------------------------------ */

/* _type_alloc_index(type_key, parent_index) -> the new type's index (a child of parent). */
static PyObject* tpy_py_type_alloc_index(PyObject* self, PyObject* const* args, Py_ssize_t n) {
  int32_t parent;
  if (n != 2 || !PyUnicode_Check(args[0])) {
    PyErr_SetString(PyExc_TypeError, "_type_alloc_index(type_key: str, parent_index: int)");
    return NULL;
  }
  if (tpy_arg_index(args[1], "_type_alloc_index", &parent) != 0) return NULL;
  const TVMFFITypeInfo* pinfo = tpy_info_of(parent, "_type_alloc_index");
  if (pinfo == NULL) return NULL;
  Py_ssize_t len;
  const char* s = PyUnicode_AsUTF8AndSize(args[0], &len);
  if (s == NULL) return NULL;
  TVMFFIByteArray key = {s, (size_t)len};
  int32_t index = TVMFFITypeGetOrAllocIndex(&key, -1, pinfo->type_depth + 1, 0, 1, parent);
  if (index < 0) return tpy_raise_ffi_error();
  return PyLong_FromLong(index);
}

/* Reads a str argument as bytes (borrowed from the str); `none_ok` maps None to empty. */
static int tpy_text_arg(PyObject* o, bool none_ok, TVMFFIByteArray* out, const char* who) {
  if (none_ok && o == Py_None) {
    out->data = NULL;
    out->size = 0;
    return 0;
  }
  if (!PyUnicode_Check(o)) {
    PyErr_Format(PyExc_TypeError, "%s: expected a str, got %.200s", who, Py_TYPE(o)->tp_name);
    return -1;
  }
  Py_ssize_t len;
  out->data = PyUnicode_AsUTF8AndSize(o, &len);
  out->size = (size_t)len;
  return out->data != NULL ? 0 : -1;
}

/* _type_register_field(type_index, name, doc, metadata, flags, size, alignment, offset,
 *                      static_type_index, getter_address, setter_function, default)
 * registers one field; `default` is stored when flags has HasDefault. */
static PyObject* tpy_py_type_register_field(PyObject* self, PyObject* const* args, Py_ssize_t n) {
  static const char who[] = "_type_register_field";
  if (n != 12) {
    PyErr_Format(PyExc_TypeError, "%s takes 12 arguments, got %zd", who, n);
    return NULL;
  }
  TVMFFIFieldInfo fi;
  memset(&fi, 0, sizeof(fi));
  int32_t index;
  long long nums[5];
  if (tpy_arg_index(args[0], who, &index) != 0 || tpy_text_arg(args[1], false, &fi.name, who) ||
      tpy_text_arg(args[2], true, &fi.doc, who) || tpy_text_arg(args[3], true, &fi.metadata, who)) {
    return NULL;
  }
  for (int i = 0; i < 5; ++i) {
    nums[i] = PyLong_AsLongLong(args[4 + i]);
    if (nums[i] == -1 && PyErr_Occurred()) return NULL;
  }
  fi.flags = nums[0];
  fi.size = nums[1];
  fi.alignment = nums[2];
  fi.offset = nums[3];
  fi.field_static_type_index = (int32_t)nums[4];
  fi.getter = (TVMFFIFieldGetter)PyLong_AsVoidPtr(args[9]);
  if (fi.getter == NULL) {
    if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "%s: the getter address is 0", who);
    return NULL;
  }
  if (!PyObject_TypeCheck(args[10], &TpyFunction_Type) || ((TpyObject*)args[10])->handle == NULL) {
    PyErr_Format(PyExc_TypeError, "%s: the setter must be a Function, got %.200s", who,
                 Py_TYPE(args[10])->tp_name);
    return NULL;
  }
  fi.setter = (void*)((TpyObject*)args[10])->handle;
  fi.flags |= kTVMFFIFieldFlagBitSetterIsFunctionObj;
  tpy_temps temps;
  tpy_temps_init(&temps);
  fi.default_value_or_factory = tether_any_none();
  int rc = 0;
  if (fi.flags & kTVMFFIFieldFlagBitMaskHasDefault) {
    rc = tpy_arg_from_py(args[11], &fi.default_value_or_factory, &temps);
  }
  if (rc == 0 && TVMFFITypeRegisterField(index, &fi) != 0) {
    tpy_raise_ffi_error();
    rc = -1;
  }
  tpy_temps_release(&temps);
  if (rc != 0) return NULL;
  Py_RETURN_NONE;
}

/* _type_register_method(type_index, name, func, is_static, metadata or None) */
static PyObject* tpy_py_type_register_method(PyObject* self, PyObject* const* args, Py_ssize_t n) {
  static const char who[] = "_type_register_method";
  if (n != 5) {
    PyErr_Format(PyExc_TypeError, "%s takes 5 arguments, got %zd", who, n);
    return NULL;
  }
  TVMFFIMethodInfo mi;
  memset(&mi, 0, sizeof(mi));
  int32_t index;
  if (tpy_arg_index(args[0], who, &index) != 0 || tpy_text_arg(args[1], false, &mi.name, who) ||
      tpy_text_arg(args[4], true, &mi.metadata, who)) {
    return NULL;
  }
  int is_static = PyObject_IsTrue(args[3]);
  if (is_static < 0) return NULL;
  mi.flags = is_static ? kTVMFFIFieldFlagBitMaskIsStaticMethod : 0;
  TVMFFIAny owned;
  if (tpy_to_owned_any(args[2], &owned) != 0) return NULL;
  mi.method = owned;
  int rc = TVMFFITypeRegisterMethod(index, &mi);
  tether_any_release(&owned);
  if (rc != 0) return tpy_raise_ffi_error();
  Py_RETURN_NONE;
}

/* _type_register_metadata(type_index, total_size, structural_eq_hash_kind) */
static PyObject* tpy_py_type_register_metadata(PyObject* self, PyObject* const* args,
                                               Py_ssize_t n) {
  int32_t index;
  if (n != 3) {
    PyErr_SetString(PyExc_TypeError, "_type_register_metadata(type_index, total_size, kind)");
    return NULL;
  }
  if (tpy_arg_index(args[0], "_type_register_metadata", &index) != 0) return NULL;
  long size = PyLong_AsLong(args[1]), kind = PyLong_AsLong(args[2]);
  if (PyErr_Occurred()) return NULL;
  TVMFFITypeMetadata md;
  memset(&md, 0, sizeof(md));
  md.total_size = (int32_t)size;
  md.structural_eq_hash_kind = (TVMFFISEqHashKind)kind;
  if (TVMFFITypeRegisterMetadata(index, &md) != 0) return tpy_raise_ffi_error();
  Py_RETURN_NONE;
}

/* ---- field value conversion ------------------------------------------------------------------ */

#define TPY_CONV_KINDS(X) \
  X(CALL, "call")         \
  X(ANY, "any")           \
  X(INT, "int")           \
  X(FLOAT, "float")       \
  X(BOOL, "bool")         \
  X(STR, "str")           \
  X(OBJECT, "object")     \
  X(OPT_OBJECT, "optional_object")

typedef enum {
#define TPY_CONV_ENUM(k, s) TPY_CONV_##k,
  TPY_CONV_KINDS(TPY_CONV_ENUM)
#undef TPY_CONV_ENUM
  TPY_CONV_COUNT
} tpy_conv_kind;

static const char* const tpy_conv_names[] = {
#define TPY_CONV_NAME(k, s) s,
    TPY_CONV_KINDS(TPY_CONV_NAME)
#undef TPY_CONV_NAME
};

typedef struct {
  PyObject* fn;   /* owned: value -> converted value; or NULL (values that do not pass fail) */
  int kind;       /* tpy_conv_kind: which values pass unchanged */
  int32_t target; /* the object type of OBJECT / OPT_OBJECT */
} tpy_field_conv;

static bool tpy_conv_passes(const tpy_field_conv* c, const TVMFFIAny* v) {
  int32_t t = v->type_index;
  switch ((tpy_conv_kind)c->kind) {
    case TPY_CONV_ANY: return true;
    case TPY_CONV_INT: return t == kTVMFFIInt;
    case TPY_CONV_FLOAT: return t == kTVMFFIFloat;
    case TPY_CONV_BOOL: return t == kTVMFFIBool;
    case TPY_CONV_STR: return t == kTVMFFIStr || t == kTVMFFISmallStr;
    case TPY_CONV_OPT_OBJECT:
      if (t == kTVMFFINone) return true;
      /* fall through */
    case TPY_CONV_OBJECT:
      return t >= kTVMFFIStaticObjectBegin &&
             (t == c->target || tether_type_is_subclass(t, c->target));
    default: return false;
  }
}

/* The converter ffi.MakeFieldSetter calls: *out = the value to store (owned). */
static int tpy_field_convert(void* self, const TVMFFIAny* in, TVMFFIAny* out) {
  const tpy_field_conv* c = self;
  if (tpy_conv_passes(c, in)) return TVMFFIAnyViewToOwnedAny(in, out);
  if (c->fn == NULL) {
    return tether_raise("TypeError", "field setter: cannot store a `%s` in a field of kind %s",
                        tether_any_type_key(in), tpy_conv_names[c->kind]);
  }
  PyGILState_STATE g = PyGILState_Ensure();
  int rc = -1;
  PyObject* v = tpy_value_of_view(in);
  PyObject* r = v != NULL ? PyObject_CallOneArg(c->fn, v) : NULL;
  if (r != NULL && tpy_to_owned_any(r, out) == 0) rc = 0;
  Py_XDECREF(v);
  Py_XDECREF(r);
  if (rc != 0) tpy_park_py_error();
  PyGILState_Release(g);
  return rc;
}

/* _make_field_setter(static_type_index, kind, target_index, converter or None) -> Function:
 * a field setter for a Python-defined type (see the file comment). */
static PyObject* tpy_py_make_field_setter(PyObject* self, PyObject* const* args, Py_ssize_t n) {
  static const char who[] = "_make_field_setter";
  static TVMFFIObject* make = NULL; /* ffi.MakeFieldSetter, owned for the process */
  if (n != 4 || !PyUnicode_Check(args[1])) {
    PyErr_Format(PyExc_TypeError, "%s(static_type_index, kind: str, target_index, converter)", who);
    return NULL;
  }
  long ti = PyLong_AsLong(args[0]), target = PyLong_AsLong(args[2]);
  if (PyErr_Occurred()) return NULL;
  int kind = 0;
  while (kind < TPY_CONV_COUNT &&
         PyUnicode_CompareWithASCIIString(args[1], tpy_conv_names[kind]) != 0) {
    ++kind;
  }
  if (kind == TPY_CONV_COUNT) {
    PyErr_Format(PyExc_ValueError, "%s: unknown converter kind %R", who, args[1]);
    return NULL;
  }
  if (args[3] != Py_None && !PyCallable_Check(args[3])) {
    PyErr_Format(PyExc_TypeError, "%s: the converter must be callable or None", who);
    return NULL;
  }
  if (make == NULL) {
    TVMFFIByteArray name = tpy_bytes_of("ffi.MakeFieldSetter");
    TVMFFIObjectHandle f = NULL;
    if (TVMFFIFunctionGetGlobal(&name, &f) != 0) return tpy_raise_ffi_error();
    if (f == NULL) {
      PyErr_Format(PyExc_RuntimeError, "%s: ffi.MakeFieldSetter is not registered", who);
      return NULL;
    }
    make = f;
  }
  tpy_field_conv* c = PyMem_RawMalloc(sizeof(*c));
  if (c == NULL) return PyErr_NoMemory();
  c->fn = args[3] == Py_None ? NULL : Py_NewRef(args[3]);
  c->kind = kind;
  c->target = (int32_t)target;
  TVMFFIAny call_args[3] = {tether_any_int(ti), tether_any_int((int64_t)(intptr_t)c),
                            tether_any_int((int64_t)(intptr_t)&tpy_field_convert)};
  TVMFFIAny out = tether_any_none();
  if (TVMFFIFunctionCall(make, call_args, 3, &out) != 0) {
    Py_XDECREF(c->fn);
    PyMem_RawFree(c);
    return tpy_raise_ffi_error();
  }
  return tpy_from_any_steal(&out); /* c now lives as long as the setter's type */
}

/* ---- classes --------------------------------------------------------------------------------- */

/* _set_class_for_index(type_index, cls): objects of the type come back as `cls`. */
static PyObject* tpy_py_set_class_for_index(PyObject* self, PyObject* const* args, Py_ssize_t n) {
  int32_t index;
  if (n != 2 || !PyType_Check(args[1]) ||
      !PyType_IsSubtype((PyTypeObject*)args[1], &TpyObject_Type)) {
    PyErr_SetString(PyExc_TypeError, "_set_class_for_index(type_index, cls: a subclass of Object)");
    return NULL;
  }
  if (tpy_arg_index(args[0], "_set_class_for_index", &index) != 0 ||
      tpy_register_class(index, (PyTypeObject*)args[1]) != 0) {
    return NULL;
  }
  Py_RETURN_NONE;
}

/* _class_type_index(cls) -> the type index `cls` is registered for, or None. */
static PyObject* tpy_py_class_type_index(PyObject* self, PyObject* cls) {
  for (int32_t i = 0; i < tpy_class_table_size; ++i) {
    if ((PyObject*)tpy_class_table[i] == cls) return PyLong_FromLong(i);
  }
  Py_RETURN_NONE;
}

/* _registered_class(type_index) -> the class bound to the index, or None (nothing made). */
static PyObject* tpy_py_registered_class(PyObject* self, PyObject* arg) {
  int32_t index;
  if (tpy_arg_index(arg, "_registered_class", &index) != 0) return NULL;
  if (index < tpy_class_table_size && tpy_class_table[index] != NULL) {
    return Py_NewRef((PyObject*)tpy_class_table[index]);
  }
  Py_RETURN_NONE;
}

/* _class_for_index(type_index) -> the class objects of the type come back as (made on
 * first request for a type without a registered class). */
static PyObject* tpy_py_class_for_index(PyObject* self, PyObject* arg) {
  int32_t index;
  if (tpy_arg_index(arg, "_class_for_index", &index) != 0) return NULL;
  PyTypeObject* cls = tpy_class_for_index(index);
  return cls != NULL ? Py_NewRef((PyObject*)cls) : NULL;
}

/* _set_fallback_class_maker(fn or None) */
static PyObject* tpy_py_set_fallback_class_maker(PyObject* self, PyObject* fn) {
  if (fn != Py_None && !PyCallable_Check(fn)) {
    PyErr_SetString(PyExc_TypeError, "_set_fallback_class_maker expects a callable or None");
    return NULL;
  }
  Py_XSETREF(tpy_fallback_maker, fn == Py_None ? NULL : Py_NewRef(fn));
  Py_RETURN_NONE;
}

/* _opaque_pyobject(obj) -> the Python object an OpaquePyObject holds. */
static PyObject* tpy_py_opaque_pyobject(PyObject* self, PyObject* obj) {
  TVMFFIObject* h = tpy_is_object(obj) ? ((TpyObject*)obj)->handle : NULL;
  if (h == NULL || h->type_index != kTVMFFIOpaquePyObject) {
    PyErr_Format(PyExc_TypeError, "pyobject(): expected an OpaquePyObject, got %.200s",
                 Py_TYPE(obj)->tp_name);
    return NULL;
  }
  return Py_NewRef((PyObject*)TPY_CELL(TVMFFIOpaqueObjectCell, h)->handle);
}

/* object_repr(obj) -> str: the ffi.ReprPrint text of obj. */
static PyObject* tpy_py_object_repr(PyObject* self, PyObject* obj) {
  if (!tpy_is_object(obj)) {
    PyErr_Format(PyExc_TypeError, "object_repr: expected an FFI object, got %.200s",
                 Py_TYPE(obj)->tp_name);
    return NULL;
  }
  return tpy_object_repr(obj);
}

#define TPY_FASTCALL(f) ((PyCFunction)(void (*)(void))(f))

static PyMethodDef tpy_typeinfo_methods[] = {
    {"_type_info_raw", tpy_py_type_info_raw, METH_O,
     "_type_info_raw(type_index) -> (type_key, ancestors, fields, methods, total_size)"},
    {"_field_property", TPY_FASTCALL(tpy_py_field_property), METH_FASTCALL,
     "_field_property(type_index, field_index, frozen[, normalize]) -> FFIProperty"},
    {"_method_descriptor", TPY_FASTCALL(tpy_py_method_descriptor), METH_FASTCALL,
     "_method_descriptor(func, name, doc, is_static) -> the class attribute of a method"},
    {"_lookup_type_attr", TPY_FASTCALL(tpy_py_lookup_type_attr), METH_FASTCALL | METH_KEYWORDS,
     "_lookup_type_attr(type_index, attr_key, ancestor=False) -> value or None"},
    {"_register_type_attr", TPY_FASTCALL(tpy_py_register_type_attr), METH_FASTCALL,
     "_register_type_attr(type_index, attr_key, value): set a type attribute once"},
    {"_type_alloc_index", TPY_FASTCALL(tpy_py_type_alloc_index), METH_FASTCALL,
     "_type_alloc_index(type_key, parent_index) -> a new type index"},
    {"_type_register_field", TPY_FASTCALL(tpy_py_type_register_field), METH_FASTCALL,
     "_type_register_field(type_index, name, doc, metadata, flags, size, alignment, offset, "
     "static_type_index, getter_address, setter, default)"},
    {"_type_register_method", TPY_FASTCALL(tpy_py_type_register_method), METH_FASTCALL,
     "_type_register_method(type_index, name, func, is_static, metadata)"},
    {"_type_register_metadata", TPY_FASTCALL(tpy_py_type_register_metadata), METH_FASTCALL,
     "_type_register_metadata(type_index, total_size, structural_eq_hash_kind)"},
    {"_make_field_setter", TPY_FASTCALL(tpy_py_make_field_setter), METH_FASTCALL,
     "_make_field_setter(static_type_index, kind, target_index, converter) -> Function"},
    {"_set_class_for_index", TPY_FASTCALL(tpy_py_set_class_for_index), METH_FASTCALL,
     "_set_class_for_index(type_index, cls): objects of the type come back as cls"},
    {"_class_type_index", tpy_py_class_type_index, METH_O,
     "_class_type_index(cls) -> the type index cls is bound to, or None"},
    {"_registered_class", tpy_py_registered_class, METH_O,
     "_registered_class(type_index) -> the class bound to the index, or None"},
    {"_class_for_index", tpy_py_class_for_index, METH_O,
     "_class_for_index(type_index) -> the class of the type's objects (made if needed)"},
    {"_set_fallback_class_maker", tpy_py_set_fallback_class_maker, METH_O,
     "_set_fallback_class_maker(fn): fn(type_index) makes the class of an unregistered type"},
    {"_opaque_pyobject", tpy_py_opaque_pyobject, METH_O,
     "_opaque_pyobject(obj) -> the Python object an OpaquePyObject holds"},
    {"object_repr", tpy_py_object_repr, METH_O, "object_repr(obj) -> the ffi.ReprPrint text"},
    {NULL},
};

int tpy_typeinfo_init(PyObject* module) {
  return PyModule_AddFunctions(module, tpy_typeinfo_methods);
}
