/*
 * object.h -- `Object`, the base class of every FFI object in Python, its metaclass, and
 * the table that maps a type index to the Python class of its objects.
 *
 * Invariants:
 *  - A CObject instance (every FFI class derives from CObject, through Object) owns one
 *    strong reference to `handle`, or has handle == NULL
 *    (never initialised, or moved out with `_move()`).
 *  - Every class deriving from Object has TpyObjectMeta_Type (or a subclass) as its
 *    metaclass, which adds `__slots__ = ()` unless the class body defines `__slots__`:
 *    instances stay the size of TpyObject, and `Py_TYPE(Py_TYPE(x)) == &TpyObjectMeta_Type`
 *    is the one-compare "is this an FFI object" test of the argument fast path.
 *  - The class table holds a strong reference to the class of every type index seen so
 *    far; a handle of index i always becomes an instance of table[i].
 */
#ifndef TPY_OBJECT_H_
#define TPY_OBJECT_H_

#include "tpy.h"

typedef struct {
  PyObject_HEAD
  TVMFFIObject* handle; /* owned, or NULL */
} TpyObject;

extern PyTypeObject TpyObjectMeta_Type;
/* CObject: the C base class holding the handle (metaclass `type`, no type index of its own);
 * Object derives from it, adding the metaclass and the binding to ffi.Object. */
extern PyTypeObject TpyCObject_Type;
extern PyTypeObject TpyObject_Type;

/* What `obj._move()` returns: passes obj's handle as an ObjectRValueRef (the callee may
 * steal it, leaving obj with handle NULL).  Holds a strong reference to obj. */
typedef struct {
  PyObject_HEAD
  PyObject* obj; /* a TpyObject */
} TpyRValueRef;
extern PyTypeObject TpyRValueRef_Type;

/* true if `obj` is an instance of CObject (fast for Object's metaclass). */
static inline bool tpy_is_object(PyObject* obj) {
  return Py_TYPE(Py_TYPE(obj)) == &TpyObjectMeta_Type || PyObject_TypeCheck(obj, &TpyCObject_Type);
}

/* The class for `type_index` (borrowed): the registered one, else an auto-made class named
 * after the type key and parented on the parent type's class.  NULL with an error set. */
PyTypeObject* tpy_class_resolve(int32_t type_index);
extern PyTypeObject** tpy_class_table;
/* Callable (owned, or NULL) that tpy_class_resolve calls with a type index to make the class
 * of a type no class was registered for; without it a class is made in C. */
extern PyObject* tpy_fallback_maker;
extern int32_t tpy_class_table_size;
static inline PyTypeObject* tpy_class_for_index(int32_t type_index) {
  if (type_index >= 0 && type_index < tpy_class_table_size && tpy_class_table[type_index]) {
    return tpy_class_table[type_index];
  }
  return tpy_class_resolve(type_index);
}

/* A new instance of `cls` (a subclass of CObject) with a NULL handle, or NULL with an error
 * set.  Every Object instance is allocated here, so that the metaclass can tell whether a
 * class acquired collector-tracked instances while it was being created. */
extern uint64_t tpy_gc_allocs;
static inline TpyObject* tpy_object_alloc(PyTypeObject* cls) {
  if (PyType_IS_GC(cls)) ++tpy_gc_allocs;
  return (TpyObject*)cls->tp_alloc(cls, 0);
}

/* Binds `cls` (borrowed; a subclass of Object) to `type_index` in the class table without
 * installing reflection (for C types such as Function, Error, Tensor).  0 or -1. */
int tpy_register_class(int32_t type_index, PyTypeObject* cls);

/* An instance of the registered class for obj's type holding `obj`.  Steals `obj` (also on
 * failure).  New reference or NULL.  Generic: Function/Tensor/strings are dispatched by
 * tpy_from_any_steal, this only allocates the class instance. */
PyObject* tpy_object_wrap_steal(TVMFFIObject* obj);

/* The same, with an explicit class (borrowed; must derive from Object). */
PyObject* tpy_object_wrap_as(PyTypeObject* cls, TVMFFIObject* obj);

/* Module functions (METH_FASTCALL / METH_O).  Documented in module.c's table. */
PyObject* tpy_py_register_object(PyObject* self, PyObject* const* args, Py_ssize_t n);
PyObject* tpy_py_lookup_type_key(PyObject* self, PyObject* arg);
PyObject* tpy_py_type_key_to_index(PyObject* self, PyObject* arg);
PyObject* tpy_py_object_type_index(PyObject* self, PyObject* arg);
PyObject* tpy_py_object_fields(PyObject* self, PyObject* obj);
PyObject* tpy_py_new_object(PyObject* self, PyObject* cls);
PyObject* tpy_py_type_fields(PyObject* self, PyObject* arg);

/* A new FFIProperty for field `fi` (copied) of type `owner_index`; `frozen` makes plain
 * assignment raise AttributeError.  New reference or NULL. */
PyObject* tpy_field_new(int32_t owner_index, const TVMFFIFieldInfo* fi, int frozen);
/* Makes a field descriptor of tpy_field_new pass every value it stores through
 * `normalize(value)` first (NULL: none).  Takes its own reference. */
void tpy_field_set_normalizer(PyObject* field, PyObject* normalize);

/* A new method descriptor calling `func` (borrowed) with the instance first, or a
 * staticmethod of it when `is_static`; `name`, `doc` (str or None) borrowed.  NULL on error. */
PyObject* tpy_method_descr_new(PyObject* func, PyObject* name, PyObject* doc, int is_static);

/* repr(obj) as Object defines it (ffi.ReprPrint), whatever the class overrides.  New
 * reference or NULL. */
PyObject* tpy_object_repr(PyObject* self);

/* The type attribute `name` of `type_index` (borrowed from its column), or NULL when
 * unset. */
const TVMFFIAny* tpy_type_attr(int32_t type_index, const char* name);

int tpy_object_init(PyObject* module);

#endif /* TPY_OBJECT_H_ */
