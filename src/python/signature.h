/*
 * signature.h -- `SignatureFunction`: a Function called through a Python signature (named
 * parameters, defaults, keywords, int-to-tuple widening), all in C; see signature.c.
 */
#ifndef TPY_SIGNATURE_H_
#define TPY_SIGNATURE_H_

#include "tpy.h"

extern PyTypeObject TpySignatureFunction_Type;

/* The vectorcall (exported so C backtraces name the frame). */
PyObject* tpy_signature_vectorcall(PyObject* self, PyObject* const* args, size_t nargsf,
                                   PyObject* kwnames);

/* Readies the type and adds it to `module` as SignatureFunction.  0 or -1. */
int tpy_signature_init(PyObject* module);

#endif /* TPY_SIGNATURE_H_ */
