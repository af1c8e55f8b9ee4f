/*
 * typeinfo.h -- the module functions behind tether.core's type reflection (TypeInfo,
 * TypeField, TypeMethod, _register_py_class, _lookup_type_attr, ...): reads of the type
 * table, registration of Python-defined types, and the converter their field setters call.
 */
#ifndef TPY_TYPEINFO_H_
#define TPY_TYPEINFO_H_

#include "tpy.h"

/* Adds the reflection functions to `module`.  0, or -1 with an exception set. */
int tpy_typeinfo_init(PyObject* module);

#endif /* TPY_TYPEINFO_H_ */
