/*
 * typeschema.h -- conversion of Python values to the FFI value a type schema describes.
 *
 * `CAny` is an owned TVMFFIAny seen from Python.  A `_TypeConverter` is built once per
 * TypeSchema (python/tether/typeschema.py) from its origin and arguments; it checks and
 * converts a value along the rules of the C++ TypeTraits (int accepts bool, float accepts
 * int, containers are rebuilt with converted elements, objects go through their type's
 * __ffi_convert__, ...) and reports a mismatch as a TypeError naming the path to the bad
 * element.  py_class field setters and __init__ reach it through tpy_type_convert.
 */
#ifndef TPY_TYPESCHEMA_H_
#define TPY_TYPESCHEMA_H_

#include "tpy.h"

extern PyTypeObject TpyCAny_Type;
extern PyTypeObject TpyTypeConverter_Type;

/* Converts `value` (borrowed) with `converter` (a _TypeConverter, borrowed) into the
 * owning *out.  0, or -1 with a Python TypeError whose text starts with `what` ("type
 * check" or "type conversion") and the schema's repr.  GIL held. */
int tpy_type_convert(PyObject* converter, PyObject* value, TVMFFIAny* out, const char* what);

int tpy_typeschema_init(PyObject* module);

#endif /* TPY_TYPESCHEMA_H_ */
