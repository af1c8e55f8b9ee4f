/*
 * noop_ext.c -- bench_relax.py's yardstick: `noop_ext.nop(*args)`, a METH_FASTCALL function of
 * CPython's C API that takes any arguments and does nothing.  A loop calling it with the seed's
 * ten arguments costs what Python alone costs per call (the loop, the call, the result);
 * bench_relax.py builds it with the C compiler Python was built with (see build_noop_ext).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static PyObject* noop_nop(PyObject* self, PyObject* const* args, Py_ssize_t n) {
  (void)self, (void)args, (void)n;
  Py_RETURN_NONE;
}

static PyMethodDef noop_methods[] = {
    {"nop", (PyCFunction)(void (*)(void))noop_nop, METH_FASTCALL, "nop(*args): does nothing"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef noop_module = {PyModuleDef_HEAD_INIT, "noop_ext", NULL, -1, noop_methods};

PyMODINIT_FUNC PyInit_noop_ext(void) { return PyModule_Create(&noop_module); }
