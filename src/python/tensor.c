/*
 * tensor.c -- the Tensor side of `tether.core`: the `Tensor` class (a Python view of an
 * ffi.Tensor), the DLPack Python protocol both ways (`__dlpack__`, `__dlpack_device__`,
 * `from_dlpack`), and the zero-copy conversion of numpy arrays, torch tensors and any other
 * DLPack producer into Tensor arguments.
 *
 * Imports, fastest first (one per-type cache decides which applies):
 *  - numpy.ndarray (and subclasses): the array's fields are read straight from numpy's
 *    PyArrayObject layout (stable ABI since numpy 1.7, unchanged in 2.x) and the dtype from
 *    the descriptor's type_num; no Python call, no capsule.  Anything unusual (read-only,
 *    byte-swapped, a dtype without a DLPack code, strides that are not a multiple of the
 *    item size) falls back to numpy's own __dlpack__, which accepts or explains.
 *  - a type with `__dlpack_c_exchange_api__` (torch >= 2.9): its C function fills a borrowed
 *    DLTensor without any Python call.
 *  - any object with `__dlpack__`: the Python protocol (versioned capsule first).
 * The first two wrap the borrowed DLTensor in a tether-owned DLManagedTensor (tpy_view_dl)
 * whose manager_ctx is a strong reference to the Python object; libtether copies shape and
 * strides into the Tensor, so the producer may later change its metadata without affecting
 * ours.  As arguments, such Tensors are recycled from call to call (see tpy_view_dl), which
 * makes a numpy argument cost no allocation at all in the steady state.
 *
 * Invariants:
 *  - A Tensor instance is a TpyObject whose handle is NULL or an object of type index 70
 *    (kTVMFFITensor), whose DLTensor cell sits right after the 24-byte header.
 *  - A tpy_view_dl holds at most one reference to its Python owner; its deleter may run on
 *    any thread, with or without the GIL, and takes the GIL before releasing the owner
 *    (during or after interpreter shutdown it leaks the owner instead).
 *  - The type cache holds a strong reference to every type it remembers, so a cached
 *    pointer can never name a different, later type.
 */
#include "tensor.h"

#include <stdlib.h>

#include "error.h"
#include "object.h"
#include "value.h"

/* ---- numpy's C layout (numpy/ndarraytypes.h, public ABI; read-only use) ----------------- */

typedef struct {
  PyObject_HEAD
  char* data;
  int nd;
  Py_ssize_t* dimensions; /* npy_intp[nd] */
  Py_ssize_t* strides;    /* npy_intp[nd], in bytes */
  PyObject* base;
  PyObject* descr;
  int flags;
} tpy_np_array;

/* The leading fields of PyArray_Descr, identical in numpy 1.x and 2.x. */
typedef struct {
  PyObject_HEAD
  PyTypeObject* typeobj;
  char kind;
  char type;
  char byteorder;
  char former_flags;
  int type_num;
} tpy_np_descr;

#define TPY_NPY_ARRAY_WRITEABLE 0x0400

/* numpy type_num (NPY_TYPES, the same in 1.x and 2.x) -> DLPack dtype; bits 0 = no DLPack
 * equivalent (object, string, datetime, long double, user dtypes): numpy's exporter decides. */
static DLDataType tpy_np_dtype(int type_num) {
  static const DLDataType table[24] = {
      [0] = {kDLBool, 8, 1},                        /* NPY_BOOL */
      [1] = {kDLInt, 8, 1},                         /* NPY_BYTE */
      [2] = {kDLUInt, 8, 1},                        /* NPY_UBYTE */
      [3] = {kDLInt, 16, 1},                        /* NPY_SHORT */
      [4] = {kDLUInt, 16, 1},                       /* NPY_USHORT */
      [5] = {kDLInt, 8 * sizeof(int), 1},           /* NPY_INT */
      [6] = {kDLUInt, 8 * sizeof(int), 1},          /* NPY_UINT */
      [7] = {kDLInt, 8 * sizeof(long), 1},          /* NPY_LONG */
      [8] = {kDLUInt, 8 * sizeof(long), 1},         /* NPY_ULONG */
      [9] = {kDLInt, 8 * sizeof(long long), 1},     /* NPY_LONGLONG */
      [10] = {kDLUInt, 8 * sizeof(long long), 1},   /* NPY_ULONGLONG */
      [11] = {kDLFloat, 32, 1},                     /* NPY_FLOAT */
      [12] = {kDLFloat, 64, 1},                     /* NPY_DOUBLE */
      [14] = {kDLComplex, 64, 1},                   /* NPY_CFLOAT */
      [15] = {kDLComplex, 128, 1},                  /* NPY_CDOUBLE */
      [23] = {kDLFloat, 16, 1},                     /* NPY_HALF */
  };
  DLDataType none = {0, 0, 0};
  return type_num >= 0 && type_num < 24 ? table[type_num] : none;
}

/* ---- reading numpy arrays and exchange-API producers into a borrowed DLTensor ------------- */

/* Largest ndim the stack paths handle; higher ranks take the __dlpack__ path. */
#define TPY_STACK_NDIM 16

/*
 * Fills *dl (shape and strides in `dims`, 2 * TPY_STACK_NDIM entries) from the numpy array
 * `obj`; a read-only array only with `readonly_ok`.  false, with no error set, when this array
 * needs numpy's own exporter.
 */
static bool tpy_numpy_dl(PyObject* obj, DLTensor* dl, int64_t* dims, bool readonly_ok) {
  tpy_np_array* a = (tpy_np_array*)obj;
  tpy_np_descr* d = (tpy_np_descr*)a->descr;
  if (!(readonly_ok || (a->flags & TPY_NPY_ARRAY_WRITEABLE)) || a->nd > TPY_STACK_NDIM ||
      a->nd < 0) {
    return false;
  }
  if (d->byteorder != '=' && d->byteorder != '|' &&
      !(d->byteorder == '<' && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)) {
    return false;
  }
  DLDataType dtype = tpy_np_dtype(d->type_num);
  if (dtype.bits == 0) return false;
  /* Every item size in the table is a power of two: shifts, not divisions. */
  int shift = __builtin_ctz((unsigned)dtype.bits / 8u);
  int64_t mask = ((int64_t)1 << shift) - 1;
  int nd = a->nd;
  for (int i = 0; i < nd; ++i) {
    int64_t s = a->strides[i];
    if ((s & mask) != 0) return false;
    dims[i] = a->dimensions[i];
    dims[nd + i] = s >> shift; /* exact (a multiple of the item size), also when negative */
  }
  dl->data = a->data;
  dl->device.device_type = kDLCPU;
  dl->device.device_id = 0;
  dl->ndim = nd;
  dl->dtype = dtype;
  dl->shape = dims;
  dl->strides = dims + nd;
  dl->byte_offset = 0;
  return true;
}

/* *out = new Tensor owning the DLManagedTensorVersioned the exchange API's
 * managed_tensor_from_py_object_no_sync makes of `obj` (the way for a producer that offers
 * no borrowed DLTensor).  0 or -1 with a Python error set. */
static int tpy_exchange_managed(PyObject* obj, const DLPackExchangeAPI* api, int32_t align,
                                int32_t contig, TVMFFIObject** out) {
  DLManagedTensorVersioned* mt = NULL;
  if (api->managed_tensor_from_py_object_no_sync(obj, &mt) != 0 || mt == NULL) {
    if (!PyErr_Occurred()) {
      PyErr_Format(PyExc_BufferError, "%s could not export a DLManagedTensorVersioned",
                   Py_TYPE(obj)->tp_name);
    }
    return -1;
  }
  if (TVMFFITensorFromDLPackVersioned(mt, align, contig, (TVMFFIObjectHandle*)out) != 0) {
    if (mt->deleter != NULL) mt->deleter(mt);
    tpy_raise_ffi_error();
    return -1;
  }
  return 0;
}

/* Fills *dl through the exchange API (shape/strides borrowed from the producer, valid until
 * it runs Python code).  0 or -1 with a Python error set. */
static int tpy_exchange_dl(PyObject* obj, const DLPackExchangeAPI* api, DLTensor* dl) {
  if (api->dltensor_from_py_object_no_sync(obj, dl) != 0) {
    if (!PyErr_Occurred()) {
      PyErr_Format(PyExc_BufferError, "%s could not export a DLTensor", Py_TYPE(obj)->tp_name);
    }
    return -1;
  }
  return 0;
}

/* ---- Tensors that view a Python object's memory ------------------------------------------- */

/*
 * A DLManagedTensor taken over by a Tensor, whose manager_ctx is a strong reference to the
 * Python object owning the memory (or NULL).  Argument tensors are recycled:
 *
 *   LOOSE      an ordinary import (from_dlpack, or an argument some callee kept): the
 *              deleter releases the owner when the Tensor dies.
 *   IN_FLIGHT  an argument of a call in progress: listed in tpy_in_flight; the call's temps
 *              own the Tensor's reference; manager_ctx holds the argument.
 *   POOLED     idle in tpy_pool[ndim]: the pool owns the Tensor's only reference and
 *              manager_ctx is NULL, so the pool keeps no Python object alive.
 *
 * tpy_tensor_temp_release ends a call: a Tensor that nobody else references (strong count 1,
 * no weak references) goes back to the pool, its owner released; any other is left LOOSE.
 * A recycled Tensor gets new metadata written into its own DLTensor cell (same ndim, so the
 * shape/strides storage fits); this is sound because no one else can see it.  All pool and
 * in-flight state is guarded by the GIL.
 */
typedef enum { TPY_ARG_LOOSE, TPY_ARG_IN_FLIGHT, TPY_ARG_POOLED } tpy_arg_state;

typedef struct tpy_view_dl {
  DLManagedTensor managed;
  TVMFFIObject* tensor; /* the Tensor that took `managed` over (it owns this struct) */
  tpy_arg_state state;
  struct tpy_view_dl* next; /* pool link */
} tpy_view_dl;

#define TPY_POOL_NDIM 8   /* ranks 0..TPY_POOL_NDIM-1 are recycled */
#define TPY_POOL_DEPTH 16 /* idle Tensors kept per rank */

static tpy_view_dl* tpy_pool[TPY_POOL_NDIM];
static int tpy_pool_size[TPY_POOL_NDIM];
static tpy_view_dl** tpy_in_flight;
static int tpy_in_flight_n, tpy_in_flight_cap;

/* Removes `m` from the in-flight list (GIL held).  false if it is not there. */
static bool tpy_in_flight_remove(tpy_view_dl* m) {
  for (int i = tpy_in_flight_n; i-- > 0;) {
    if (tpy_in_flight[i] == m) {
      tpy_in_flight[i] = tpy_in_flight[--tpy_in_flight_n];
      return true;
    }
  }
  return false;
}

static bool tpy_finalizing(void) {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsFinalizing();
#else
  return _Py_IsFinalizing();
#endif
}

static void tpy_view_dl_deleter(DLManagedTensor* self) {
  tpy_view_dl* m = (tpy_view_dl*)self;
  PyObject* owner = m->managed.manager_ctx;
  /* POOLED (ctx NULL) needs no GIL: that is how the pool drains after Py_Finalize.  During
   * finalisation a thread without the GIL must not try to take it: the owner leaks. */
  if ((owner != NULL || m->state == TPY_ARG_IN_FLIGHT) && Py_IsInitialized()) {
    PyGILState_STATE st = PyGILState_UNLOCKED;
    bool had_gil = PyGILState_Check();
    if (!had_gil && tpy_finalizing()) {
      free(m);
      return;
    }
    if (!had_gil) st = PyGILState_Ensure();
    if (m->state == TPY_ARG_IN_FLIGHT) tpy_in_flight_remove(m);
    Py_XDECREF(owner);
    if (!had_gil) PyGILState_Release(st);
  }
  free(m);
}

/*
 * *out = new Tensor viewing `dl` (borrowed; libtether copies shape and strides), keeping
 * `owner` (borrowed; a reference is taken) alive; LOOSE.  0, or -1 with a Python error set
 * (alignment and contiguity violations come from libtether as RuntimeError).
 */
static int tpy_view_new(PyObject* owner, const DLTensor* dl, int32_t align, int32_t contig,
                        tpy_view_dl** out_m) {
  tpy_view_dl* m = malloc(sizeof(*m));
  if (m == NULL) {
    PyErr_NoMemory();
    return -1;
  }
  m->managed.dl_tensor = *dl;
  m->managed.manager_ctx = owner;
  m->managed.deleter = tpy_view_dl_deleter;
  m->state = TPY_ARG_LOOSE;
  m->next = NULL;
  if (TVMFFITensorFromDLPack(&m->managed, align, contig, (TVMFFIObjectHandle*)&m->tensor) != 0) {
    free(m);
    tpy_raise_ffi_error();
    return -1;
  }
  Py_INCREF(owner);
  *out_m = m;
  return 0;
}

/* Rewrites a pooled Tensor's DLTensor cell with `dl` (same ndim). */
static void tpy_view_rewrite(tpy_view_dl* m, const DLTensor* dl) {
  DLTensor* cell = TPY_CELL(DLTensor, m->tensor);
  int32_t nd = dl->ndim;
  cell->data = dl->data;
  cell->device = dl->device;
  cell->dtype = dl->dtype;
  cell->byte_offset = dl->byte_offset;
  for (int32_t i = 0; i < nd; ++i) cell->shape[i] = dl->shape[i];
  if (dl->strides != NULL) {
    for (int32_t i = 0; i < nd; ++i) cell->strides[i] = dl->strides[i];
  } else { /* compact, as libtether fills them in */
    int64_t stride = 1;
    for (int32_t i = nd; i-- > 0;) {
      cell->strides[i] = stride;
      stride *= dl->shape[i] > 1 ? dl->shape[i] : 1;
    }
  }
}

/*
 * An IN_FLIGHT Tensor viewing `dl` for `owner` (borrowed): a recycled one when the pool has
 * one of this rank, else a new one.  *out receives the Tensor's reference (new, for temps).
 * 0 or -1 with a Python error set.
 */
static int tpy_view_acquire(PyObject* owner, const DLTensor* dl, TVMFFIObject** out) {
  if (tpy_in_flight_n == tpy_in_flight_cap) {
    int cap = tpy_in_flight_cap ? 2 * tpy_in_flight_cap : 16;
    tpy_view_dl** items = realloc(tpy_in_flight, sizeof(*items) * (size_t)cap);
    if (items == NULL) {
      PyErr_NoMemory();
      return -1;
    }
    tpy_in_flight = items;
    tpy_in_flight_cap = cap;
  }
  tpy_view_dl* m;
  int32_t nd = dl->ndim;
  if (nd < TPY_POOL_NDIM && tpy_pool[nd] != NULL) {
    m = tpy_pool[nd];
    tpy_pool[nd] = m->next;
    --tpy_pool_size[nd];
    m->next = NULL;
    tpy_view_rewrite(m, dl);
    Py_INCREF(owner);
    m->managed.manager_ctx = owner;
  } else if (tpy_view_new(owner, dl, 0, 0, &m) != 0) {
    return -1;
  }
  m->state = TPY_ARG_IN_FLIGHT;
  tpy_in_flight[tpy_in_flight_n++] = m;
  *out = m->tensor;
  return 0;
}

/* true if `obj` has one strong reference and no weak ones (nobody else can reach it). */
static bool tpy_sole_reference(TVMFFIObject* obj) {
  return __atomic_load_n(&obj->combined_ref_count, __ATOMIC_ACQUIRE) ==
         (UINT64_C(1) | (UINT64_C(1) << 32));
}

void tpy_tensor_temp_release(TVMFFIObject* obj) {
  tpy_view_dl* m = NULL;
  for (int i = tpy_in_flight_n; i-- > 0;) {
    if (tpy_in_flight[i]->tensor == obj) {
      m = tpy_in_flight[i];
      tpy_in_flight[i] = tpy_in_flight[--tpy_in_flight_n];
      break;
    }
  }
  if (m == NULL) {
    TVMFFIObjectDecRef(obj);
    return;
  }
  int32_t nd = TPY_CELL(DLTensor, obj)->ndim;
  if (nd < TPY_POOL_NDIM && tpy_pool_size[nd] < TPY_POOL_DEPTH && tpy_sole_reference(obj)) {
    PyObject* owner = m->managed.manager_ctx;
    m->managed.manager_ctx = NULL;
    m->state = TPY_ARG_POOLED;
    m->next = tpy_pool[nd];
    tpy_pool[nd] = m;
    ++tpy_pool_size[nd];
    Py_DECREF(owner); /* last: it may run arbitrary code, which may call back in here */
    return;
  }
  m->state = TPY_ARG_LOOSE;
  TVMFFIObjectDecRef(obj);
}

/* Py_AtExit: frees the idle Tensors (their deleters need no Python). */
static void tpy_pool_drain(void) {
  for (int nd = 0; nd < TPY_POOL_NDIM; ++nd) {
    while (tpy_pool[nd] != NULL) {
      tpy_view_dl* m = tpy_pool[nd];
      tpy_pool[nd] = m->next;
      TVMFFIObjectDecRef(m->tensor);
    }
    tpy_pool_size[nd] = 0;
  }
  free(tpy_in_flight);
  tpy_in_flight = NULL;
  tpy_in_flight_n = tpy_in_flight_cap = 0;
}

/* ---- capsules -------------------------------------------------------------------------- */

static const char tpy_capsule_legacy[] = "dltensor";
static const char tpy_capsule_versioned[] = "dltensor_versioned";
static const char tpy_capsule_used_legacy[] = "used_dltensor";
static const char tpy_capsule_used_versioned[] = "used_dltensor_versioned";

/*
 * Takes the tensor out of a DLPack capsule (borrowed) into *out (new Tensor) and renames the
 * capsule "used_*" so its destructor leaves the tensor alone.  `who` names the caller for
 * messages.  0 or -1 with a Python error set (the capsule is then untouched).
 */
static int tpy_tensor_from_capsule(PyObject* capsule, const char* who, int32_t align,
                                   int32_t contig, TVMFFIObject** out) {
  if (PyCapsule_IsValid(capsule, tpy_capsule_versioned)) {
    DLManagedTensorVersioned* mt = PyCapsule_GetPointer(capsule, tpy_capsule_versioned);
    if (mt->version.major > DLPACK_MAJOR_VERSION) {
      PyErr_Format(PyExc_BufferError,
                   "%s: the producer sent DLPack %u.%u, this consumer reads major version %d",
                   who, (unsigned)mt->version.major, (unsigned)mt->version.minor,
                   DLPACK_MAJOR_VERSION);
      return -1;
    }
    if (mt->flags & DLPACK_FLAG_BITMASK_READ_ONLY) {
      PyErr_Format(PyExc_BufferError,
                   "%s: the array is read-only, and a Tensor allows writes; pass a writable "
                   "array (for example a copy)",
                   who);
      return -1;
    }
    if (TVMFFITensorFromDLPackVersioned(mt, align, contig, (TVMFFIObjectHandle*)out) != 0) {
      tpy_raise_ffi_error();
      return -1;
    }
    PyCapsule_SetName(capsule, tpy_capsule_used_versioned);
    return 0;
  }
  if (PyCapsule_IsValid(capsule, tpy_capsule_legacy)) {
    DLManagedTensor* mt = PyCapsule_GetPointer(capsule, tpy_capsule_legacy);
    if (TVMFFITensorFromDLPack(mt, align, contig, (TVMFFIObjectHandle*)out) != 0) {
      tpy_raise_ffi_error();
      return -1;
    }
    PyCapsule_SetName(capsule, tpy_capsule_used_legacy);
    return 0;
  }
  const char* name = PyCapsule_GetName(capsule);
  if (name == NULL) PyErr_Clear();
  PyErr_Format(PyExc_TypeError,
               "%s: expected a \"dltensor\" or \"dltensor_versioned\" capsule, got a capsule "
               "named \"%s\"%s",
               who, name ? name : "(null)",
               name && strncmp(name, "used_", 5) == 0 ? " (already consumed)" : "");
  return -1;
}

/* Calls obj.__dlpack__ (versioned request first; producers that predate max_version get a
 * plain call) and imports the capsule.  0 or -1 with a Python error set. */
static int tpy_tensor_from_protocol(PyObject* obj, const char* who, int32_t align,
                                    int32_t contig, TVMFFIObject** out) {
  static PyObject* name_dlpack;
  static PyObject* kwnames;
  static PyObject* max_version;
  if (name_dlpack == NULL) {
    name_dlpack = PyUnicode_InternFromString("__dlpack__");
    kwnames = Py_BuildValue("(s)", "max_version");
    max_version = Py_BuildValue("(ii)", DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION);
    if (name_dlpack == NULL || kwnames == NULL || max_version == NULL) return -1;
  }
  PyObject* method = PyObject_GetAttr(obj, name_dlpack);
  if (method == NULL) return -1;
  PyObject* args[1] = {max_version};
  PyObject* capsule = PyObject_Vectorcall(method, args, 0, kwnames);
  if (capsule == NULL && PyErr_ExceptionMatches(PyExc_TypeError)) {
    PyErr_Clear();
    capsule = PyObject_CallNoArgs(method);
  }
  Py_DECREF(method);
  if (capsule == NULL) return -1;
  int rc = -1;
  if (!PyCapsule_CheckExact(capsule)) {
    PyErr_Format(PyExc_TypeError, "%s: %s.__dlpack__() returned %s, expected a PyCapsule", who,
                 Py_TYPE(obj)->tp_name, Py_TYPE(capsule)->tp_name);
    goto done;
  }
  rc = tpy_tensor_from_capsule(capsule, who, align, contig, out);
done:
  Py_DECREF(capsule);
  return rc;
}

/* ---- per-type classification ----------------------------------------------------------- */

typedef enum {
  TPY_KIND_OTHER,    /* not tensor-like */
  TPY_KIND_TENSOR,   /* tether Tensor (or subclass) */
  TPY_KIND_NUMPY,    /* numpy.ndarray or subclass */
  TPY_KIND_EXCHANGE, /* has a usable __dlpack_c_exchange_api__ */
  TPY_KIND_DLPACK    /* has __dlpack__ */
} tpy_tensor_kind;

typedef struct {
  PyTypeObject* type; /* strong reference, or NULL (empty slot) */
  tpy_tensor_kind kind;
  const DLPackExchangeAPI* api;
} tpy_kind_entry;

#define TPY_KIND_CACHE 16
static tpy_kind_entry tpy_kind_cache[TPY_KIND_CACHE];
static int tpy_kind_next; /* round-robin victim once the cache is full */
static int tpy_kind_last; /* the slot of the latest hit: checked first */
static bool tpy_skip_exchange_api;

/* true if `type` or one of its bases is numpy.ndarray (matched by name: numpy need not be
 * imported by us, and its C headers are not needed at build time). */
static bool tpy_type_is_ndarray(PyTypeObject* type) {
  for (PyTypeObject* t = type; t != NULL; t = t->tp_base) {
    /* A heap type may call itself anything; numpy's ndarray is a static (C) type. */
    if (!(t->tp_flags & Py_TPFLAGS_HEAPTYPE) && strcmp(t->tp_name, "numpy.ndarray") == 0 &&
        t->tp_basicsize >= (Py_ssize_t)sizeof(tpy_np_array)) {
      return true;
    }
  }
  return false;
}

/* The exchange API advertised by `type`, or NULL (no error set). */
static const DLPackExchangeAPI* tpy_type_exchange_api(PyTypeObject* type) {
  if (tpy_skip_exchange_api) return NULL;
  PyObject* cap = PyObject_GetAttrString((PyObject*)type, "__dlpack_c_exchange_api__");
  if (cap == NULL) {
    PyErr_Clear();
    return NULL;
  }
  const DLPackExchangeAPI* api = NULL;
  if (PyCapsule_IsValid(cap, "dlpack_exchange_api")) {
    api = PyCapsule_GetPointer(cap, "dlpack_exchange_api");
    /* The capsule lives on the class, which the cache keeps alive. */
    if (api->header.version.major != DLPACK_MAJOR_VERSION ||
        (api->dltensor_from_py_object_no_sync == NULL &&
         api->managed_tensor_from_py_object_no_sync == NULL)) {
      api = NULL;
    }
  }
  Py_DECREF(cap);
  return api;
}

static tpy_kind_entry tpy_classify(PyTypeObject* type) {
  tpy_kind_entry e = {type, TPY_KIND_OTHER, NULL};
  if (PyType_IsSubtype(type, &TpyTensor_Type)) {
    e.kind = TPY_KIND_TENSOR;
  } else if (tpy_type_is_ndarray(type)) {
    e.kind = TPY_KIND_NUMPY;
  } else if ((e.api = tpy_type_exchange_api(type)) != NULL) {
    e.kind = TPY_KIND_EXCHANGE;
  } else if (PyObject_HasAttrString((PyObject*)type, "__dlpack__")) {
    e.kind = TPY_KIND_DLPACK;
  }
  return e;
}

/* The classification of `type`, computed and remembered on first sight.  (Classifying and
 * evicting may run Python code, which may re-enter here: the cache is consistent whenever
 * that can happen, and the caller gets a copy.) */
static inline tpy_kind_entry tpy_kind_of(PyTypeObject* type) {
  if (tpy_kind_cache[tpy_kind_last].type == type) return tpy_kind_cache[tpy_kind_last];
  for (int i = 0; i < TPY_KIND_CACHE; ++i) {
    if (tpy_kind_cache[i].type == type) {
      tpy_kind_last = i;
      return tpy_kind_cache[i];
    }
  }
  tpy_kind_entry e = tpy_classify(type);
  int slot = -1;
  for (int i = 0; i < TPY_KIND_CACHE && slot < 0; ++i) {
    if (tpy_kind_cache[i].type == NULL) slot = i;
  }
  if (slot < 0) {
    slot = tpy_kind_next;
    tpy_kind_next = (tpy_kind_next + 1) % TPY_KIND_CACHE;
  }
  PyTypeObject* evicted = tpy_kind_cache[slot].type;
  Py_INCREF(type);
  tpy_kind_cache[slot] = e;
  Py_XDECREF(evicted);
  return e;
}

/* Types that are never tensors: answered without touching the cache. */
static inline bool tpy_plain_builtin(PyTypeObject* t) {
  return t == &PyUnicode_Type || t == &PyLong_Type || t == &PyFloat_Type || t == &PyBool_Type ||
         t == &PyBytes_Type || t == &PyList_Type || t == &PyTuple_Type || t == &PyDict_Type ||
         t == Py_TYPE(Py_None) || t == &PyByteArray_Type || t == &PyCapsule_Type;
}

/*
 * The shared import: *out = new Tensor handle for the tensor-like `obj`, LOOSE (for
 * from_dlpack; never recycled).  1 ok, 0 not tensor-like (no error), -1 with a Python error.
 */
static int tpy_tensor_import(PyObject* obj, const char* who, int32_t align, int32_t contig,
                             TVMFFIObject** out) {
  PyTypeObject* type = Py_TYPE(obj);
  if (tpy_plain_builtin(type)) return 0;
  tpy_kind_entry e = tpy_kind_of(type);
  int64_t dims[2 * TPY_STACK_NDIM];
  DLTensor dl;
  tpy_view_dl* m;
  switch (e.kind) {
    case TPY_KIND_NUMPY:
      if (!tpy_numpy_dl(obj, &dl, dims, false)) {
        return tpy_tensor_from_protocol(obj, who, align, contig, out) == 0 ? 1 : -1;
      }
      break;
    case TPY_KIND_EXCHANGE:
      if (e.api->dltensor_from_py_object_no_sync == NULL) {
        return tpy_exchange_managed(obj, e.api, align, contig, out) == 0 ? 1 : -1;
      }
      if (tpy_exchange_dl(obj, e.api, &dl) != 0) return -1;
      break;
    case TPY_KIND_TENSOR:
    case TPY_KIND_DLPACK:
      return tpy_tensor_from_protocol(obj, who, align, contig, out) == 0 ? 1 : -1;
    default:
      return 0;
  }
  if (tpy_view_new(obj, &dl, align, contig, &m) != 0) return -1;
  *out = m->tensor;
  return 1;
}

/* ---- arguments ---------------------------------------------------------------------------- */

int tpy_tensor_arg_from_py(PyObject* obj, TVMFFIAny* out, tpy_temps* temps) {
  PyTypeObject* type = Py_TYPE(obj);
  tpy_kind_entry e;
  if (tpy_kind_cache[tpy_kind_last].type == type) { /* the usual case: same type as last time */
    e = tpy_kind_cache[tpy_kind_last];
  } else {
    if (tpy_plain_builtin(type)) return 0; /* (never cached) */
    e = tpy_kind_of(type);
  }
  int64_t dims[2 * TPY_STACK_NDIM];
  DLTensor dl;
  TVMFFIObject* h = NULL;
  switch (e.kind) {
    case TPY_KIND_TENSOR:
      h = ((TpyObject*)obj)->handle;
      if (h == NULL) {
        PyErr_SetString(PyExc_ValueError,
                        "Tensor argument has no handle (it was moved out or never initialised)");
        return -1;
      }
      out->type_index = kTVMFFITensor;
      out->zero_padding = 0;
      out->v_obj = h;
      return 1;
    case TPY_KIND_NUMPY:
      if (tpy_numpy_dl(obj, &dl, dims, false)) {
        if (tpy_view_acquire(obj, &dl, &h) != 0) return -1;
      } else if (tpy_tensor_from_protocol(obj, "argument", 0, 0, &h) != 0) {
        return -1;
      }
      break;
    case TPY_KIND_EXCHANGE:
      if (e.api->dltensor_from_py_object_no_sync == NULL) {
        if (tpy_exchange_managed(obj, e.api, 0, 0, &h) != 0) return -1;
      } else if (tpy_exchange_dl(obj, e.api, &dl) != 0 || tpy_view_acquire(obj, &dl, &h) != 0) {
        return -1;
      }
      if (temps->dlpack_api == NULL) temps->dlpack_api = e.api; /* results come back alike */
      break;
    case TPY_KIND_DLPACK:
      if (tpy_tensor_from_protocol(obj, "argument", 0, 0, &h) != 0) return -1;
      break;
    default:
      return 0;
  }
  if (tpy_temps_push(temps, h) != 0) return -1;
  out->type_index = kTVMFFITensor;
  out->zero_padding = 0;
  out->v_obj = h;
  return 1;
}

/* ---- the Tensor class ---------------------------------------------------------------------- */

PyObject* tpy_tensor_wrap_steal(TVMFFIObject* tensor) {
  if (tensor == NULL) {
    PyErr_SetString(PyExc_ValueError, "tpy_tensor_wrap_steal: NULL tensor handle");
    return NULL;
  }
  /* The class registered for ffi.Tensor when it is a Tensor subclass, else Tensor. */
  PyTypeObject* cls = &TpyTensor_Type;
  if (kTVMFFITensor < tpy_class_table_size) {
    PyTypeObject* registered = tpy_class_table[kTVMFFITensor];
    if (registered != NULL && registered != cls && PyType_IsSubtype(registered, cls)) {
      cls = registered;
    }
  }
  TpyObject* self = tpy_object_alloc(cls);
  if (self == NULL) {
    TVMFFIObjectDecRef(tensor);
    return NULL;
  }
  self->handle = tensor;
  return (PyObject*)self;
}

/* The DLTensor of a Tensor instance (borrowed), or NULL with ValueError set. */
static DLTensor* tpy_tensor_dl(PyObject* self) {
  TVMFFIObject* h = ((TpyObject*)self)->handle;
  if (h == NULL) {
    PyErr_SetString(PyExc_ValueError,
                    "Tensor has no handle (it was moved out or never initialised)");
    return NULL;
  }
  return TPY_CELL(DLTensor, h);
}

static PyObject* tpy_int64_tuple(const int64_t* v, int32_t n) {
  PyObject* t = PyTuple_New(n);
  if (t == NULL) return NULL;
  for (int32_t i = 0; i < n; ++i) {
    PyObject* x = PyLong_FromLongLong(v[i]);
    if (x == NULL) {
      Py_DECREF(t);
      return NULL;
    }
    PyTuple_SET_ITEM(t, i, x);
  }
  return t;
}

static PyObject* tpy_tensor_get_shape(PyObject* self, void* closure) {
  (void)closure;
  DLTensor* dl = tpy_tensor_dl(self);
  return dl ? tpy_shape_new(dl->shape, dl->ndim) : NULL;
}

static PyObject* tpy_tensor_get_strides(PyObject* self, void* closure) {
  (void)closure;
  DLTensor* dl = tpy_tensor_dl(self);
  return dl ? tpy_int64_tuple(dl->strides, dl->ndim) : NULL;
}

static PyObject* tpy_tensor_get_ndim(PyObject* self, void* closure) {
  (void)closure;
  DLTensor* dl = tpy_tensor_dl(self);
  return dl ? PyLong_FromLong(dl->ndim) : NULL;
}

static PyObject* tpy_tensor_get_dtype(PyObject* self, void* closure) {
  (void)closure;
  DLTensor* dl = tpy_tensor_dl(self);
  return dl ? tpy_dtype_wrap(dl->dtype) : NULL;
}

static PyObject* tpy_tensor_get_device(PyObject* self, void* closure) {
  (void)closure;
  DLTensor* dl = tpy_tensor_dl(self);
  return dl ? tpy_device_wrap(dl->device) : NULL;
}

/* Devices whose data pointer is an address (elsewhere it is an opaque handle). */
static bool tpy_device_is_direct(int32_t device_type) {
  return device_type == kDLCPU || device_type == kDLCUDA || device_type == kDLCUDAHost ||
         device_type == kDLCUDAManaged || device_type == kDLROCM || device_type == kDLROCMHost;
}

static PyObject* tpy_tensor_data_ptr(PyObject* self, PyObject* unused) {
  (void)unused;
  DLTensor* dl = tpy_tensor_dl(self);
  if (dl == NULL) return NULL;
  uintptr_t p = (uintptr_t)dl->data;
  if (tpy_device_is_direct(dl->device.device_type)) p += (uintptr_t)dl->byte_offset;
  return PyLong_FromUnsignedLongLong((unsigned long long)p);
}

static PyObject* tpy_tensor_numel(PyObject* self, PyObject* unused) {
  (void)unused;
  DLTensor* dl = tpy_tensor_dl(self);
  if (dl == NULL) return NULL;
  int64_t n = 1;
  for (int32_t i = 0; i < dl->ndim; ++i) n *= dl->shape[i]; /* libtether checked overflow */
  return PyLong_FromLongLong(n);
}

static PyObject* tpy_tensor_size(PyObject* self, PyObject* arg) {
  DLTensor* dl = tpy_tensor_dl(self);
  if (dl == NULL) return NULL;
  long long i = PyLong_AsLongLong(arg);
  if (i == -1 && PyErr_Occurred()) return NULL;
  long long k = i < 0 ? i + dl->ndim : i;
  if (k < 0 || k >= dl->ndim) {
    PyErr_Format(PyExc_IndexError, "Dimension %lld out of range for tensor with %d dimensions", i,
                 (int)dl->ndim);
    return NULL;
  }
  return PyLong_FromLongLong(dl->shape[k]);
}

/* Row-major compact, ignoring dims of size 1; any empty tensor counts as contiguous (the
 * rule of TVMFFITensorFromDLPack's require_contiguous). */
static bool tpy_dl_is_contiguous(const DLTensor* dl) {
  if (dl->strides == NULL) return true;
  for (int32_t i = 0; i < dl->ndim; ++i) {
    if (dl->shape[i] == 0) return true;
  }
  int64_t expected = 1;
  for (int32_t i = dl->ndim; i-- > 0;) {
    if (dl->shape[i] == 1) continue;
    if (dl->strides[i] != expected) return false;
    expected *= dl->shape[i];
  }
  return true;
}

static PyObject* tpy_tensor_is_contiguous(PyObject* self, PyObject* unused) {
  (void)unused;
  DLTensor* dl = tpy_tensor_dl(self);
  if (dl == NULL) return NULL;
  return PyBool_FromLong(tpy_dl_is_contiguous(dl));
}

static PyObject* tpy_tensor_dlpack_device(PyObject* self, PyObject* unused) {
  (void)unused;
  DLTensor* dl = tpy_tensor_dl(self);
  if (dl == NULL) return NULL;
  return Py_BuildValue("(ii)", (int)dl->device.device_type, (int)dl->device.device_id);
}

/* Capsule destructors: a capsule nobody consumed still owns its managed tensor. */
static void tpy_capsule_delete_legacy(PyObject* capsule) {
  if (PyCapsule_IsValid(capsule, tpy_capsule_legacy)) {
    DLManagedTensor* mt = PyCapsule_GetPointer(capsule, tpy_capsule_legacy);
    if (mt->deleter != NULL) mt->deleter(mt);
  }
}

static void tpy_capsule_delete_versioned(PyObject* capsule) {
  if (PyCapsule_IsValid(capsule, tpy_capsule_versioned)) {
    DLManagedTensorVersioned* mt = PyCapsule_GetPointer(capsule, tpy_capsule_versioned);
    if (mt->deleter != NULL) mt->deleter(mt);
  }
}

/* Reads a (major, minor) / (device_type, device_id) pair of ints.  0 or -1 (TypeError). */
static int tpy_int_pair(PyObject* obj, const char* what, long* a, long* b) {
  if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != 2) {
    PyErr_Format(PyExc_TypeError, "Tensor.__dlpack__: %s must be a tuple of two ints, got %R",
                 what, obj);
    return -1;
  }
  *a = PyLong_AsLong(PyTuple_GET_ITEM(obj, 0));
  if (*a == -1 && PyErr_Occurred()) return -1;
  *b = PyLong_AsLong(PyTuple_GET_ITEM(obj, 1));
  if (*b == -1 && PyErr_Occurred()) return -1;
  return 0;
}

/* __dlpack__(stream=None, max_version=None, dl_device=None, copy=None) */
static PyObject* tpy_tensor_dlpack(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                                   PyObject* kwnames) {
  static const char* const names[4] = {"stream", "max_version", "dl_device", "copy"};
  PyObject* vals[4] = {Py_None, Py_None, Py_None, Py_None};
  if (nargs > 4) {
    PyErr_Format(PyExc_TypeError, "Tensor.__dlpack__() takes at most 4 arguments (%zd given)",
                 nargs);
    return NULL;
  }
  for (Py_ssize_t i = 0; i < nargs; ++i) vals[i] = args[i];
  Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t k = 0; k < nkw; ++k) {
    const char* key = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, k));
    if (key == NULL) return NULL;
    int j = 0;
    while (j < 4 && strcmp(key, names[j]) != 0) ++j;
    if (j == 4) {
      PyErr_Format(PyExc_TypeError,
                   "Tensor.__dlpack__() got an unexpected keyword argument '%s'", key);
      return NULL;
    }
    if (j < nargs) {
      PyErr_Format(PyExc_TypeError, "Tensor.__dlpack__() got multiple values for argument '%s'",
                   key);
      return NULL;
    }
    vals[j] = args[nargs + k];
  }
  DLTensor* dl = tpy_tensor_dl(self);
  if (dl == NULL) return NULL;
  TVMFFIObject* h = ((TpyObject*)self)->handle;
  /* stream: ignored on CPU (DLPack requires None there); for other devices the producer's
   * work is assumed complete, as tether does not track streams per tensor. */
  if (vals[0] != Py_None && !PyLong_Check(vals[0])) {
    PyErr_Format(PyExc_TypeError, "Tensor.__dlpack__: stream must be None or an int, got %R",
                 vals[0]);
    return NULL;
  }
  bool versioned = false;
  if (vals[1] != Py_None) {
    long major, minor;
    if (tpy_int_pair(vals[1], "max_version", &major, &minor) != 0) return NULL;
    versioned = major >= 1;
  }
  if (vals[2] != Py_None) {
    long type, id;
    if (tpy_int_pair(vals[2], "dl_device", &type, &id) != 0) return NULL;
    if (type != dl->device.device_type || id != dl->device.device_id) {
      PyErr_Format(PyExc_BufferError,
                   "Tensor.__dlpack__: cannot export to dl_device (%ld, %ld): the tensor is on "
                   "(%d, %d) and tether does not copy across devices",
                   type, id, (int)dl->device.device_type, (int)dl->device.device_id);
      return NULL;
    }
  }
  if (vals[3] != Py_None) {
    int copy = PyObject_IsTrue(vals[3]);
    if (copy < 0) return NULL;
    if (copy) {
      PyErr_SetString(PyExc_BufferError,
                      "Tensor.__dlpack__: copy=True is not supported; tether exports share "
                      "memory (pass copy=None or False)");
      return NULL;
    }
  }
  if (versioned) {
    DLManagedTensorVersioned* mt = NULL;
    if (TVMFFITensorToDLPackVersioned(h, &mt) != 0) return tpy_raise_ffi_error();
    PyObject* cap = PyCapsule_New(mt, tpy_capsule_versioned, tpy_capsule_delete_versioned);
    if (cap == NULL) mt->deleter(mt);
    return cap;
  }
  DLManagedTensor* mt = NULL;
  if (TVMFFITensorToDLPack(h, &mt) != 0) return tpy_raise_ffi_error();
  PyObject* cap = PyCapsule_New(mt, tpy_capsule_legacy, tpy_capsule_delete_legacy);
  if (cap == NULL) mt->deleter(mt);
  return cap;
}

static PyGetSetDef tpy_tensor_getset[] = {
    {"shape", tpy_tensor_get_shape, NULL, "the dimensions, a Shape (tuple of ints)", NULL},
    {"strides", tpy_tensor_get_strides, NULL, "the strides in elements, a tuple of ints", NULL},
    {"ndim", tpy_tensor_get_ndim, NULL, "the number of dimensions", NULL},
    {"dtype", tpy_tensor_get_dtype, NULL, "the element type, a dtype", NULL},
    {"device", tpy_tensor_get_device, NULL, "the Device holding the data", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef tpy_tensor_methods[] = {
    {"data_ptr", tpy_tensor_data_ptr, METH_NOARGS,
     "data_ptr() -> int: the address of the first element (data + byte_offset)"},
    {"numel", tpy_tensor_numel, METH_NOARGS, "numel() -> int: the number of elements"},
    {"size", tpy_tensor_size, METH_O, "size(i) -> int: the extent of dimension i (negative ok)"},
    {"is_contiguous", tpy_tensor_is_contiguous, METH_NOARGS,
     "is_contiguous() -> bool: compact row-major (size-1 dims ignored)"},
    {"__dlpack__", (PyCFunction)(void (*)(void))tpy_tensor_dlpack, METH_FASTCALL | METH_KEYWORDS,
     "__dlpack__(stream=None, max_version=None, dl_device=None, copy=None) -> PyCapsule\n"
     "A \"dltensor_versioned\" capsule when max_version >= (1, 0), else \"dltensor\"; "
     "the memory is shared with this Tensor."},
    {"__dlpack_device__", tpy_tensor_dlpack_device, METH_NOARGS,
     "__dlpack_device__() -> (device_type, device_id)"},
    {NULL, NULL, 0, NULL},
};

/* ---- from_dlpack --------------------------------------------------------------------------- */

/* from_dlpack(x, require_alignment=0, require_contiguous=False) -> Tensor */
static PyObject* tpy_py_from_dlpack(PyObject* module, PyObject* args, PyObject* kwargs) {
  (void)module;
  static char* kwlist[] = {"x", "require_alignment", "require_contiguous", NULL};
  PyObject* x;
  int align = 0, contig = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|ip:from_dlpack", kwlist, &x, &align,
                                   &contig)) {
    return NULL;
  }
  TVMFFIObject* h = NULL;
  if (PyCapsule_CheckExact(x)) {
    if (tpy_tensor_from_capsule(x, "from_dlpack", align, contig, &h) != 0) return NULL;
    return tpy_tensor_wrap_steal(h);
  }
  int rc = tpy_tensor_import(x, "from_dlpack", align, contig, &h);
  if (rc < 0) return NULL;
  if (rc == 0) {
    PyErr_Format(PyExc_TypeError,
                 "from_dlpack: expected an object with __dlpack__ (numpy array, torch tensor, "
                 "Tensor, ...) or a DLPack capsule, got %s",
                 Py_TYPE(x)->tp_name);
    return NULL;
  }
  return tpy_tensor_wrap_steal(h);
}

/* _constant_tensor(array) -> Tensor: from_dlpack for a numpy array whose data will never be
 * written, read-only arrays included (numpy's exporter refuses those: DLPack cannot say
 * read-only).  Made for IR constants over immutable buffers (an ONNX initializer's bytes):
 * no copy.  Whoever takes the Tensor's data (np.from_dlpack) must not write it. */
static PyObject* tpy_py_constant_tensor(PyObject* module, PyObject* x) {
  (void)module;
  int64_t dims[2 * TPY_STACK_NDIM];
  DLTensor dl;
  tpy_view_dl* m;
  if (tpy_kind_of(Py_TYPE(x)).kind != TPY_KIND_NUMPY || !tpy_numpy_dl(x, &dl, dims, true)) {
    PyErr_Format(PyExc_TypeError,
                 "_constant_tensor: expected a numpy array of a DLPack dtype in native byte "
                 "order with at most %d dims, got %s",
                 TPY_STACK_NDIM, Py_TYPE(x)->tp_name);
    return NULL;
  }
  if (tpy_view_new(x, &dl, 0, 0, &m) != 0) return NULL;
  return tpy_tensor_wrap_steal(m->tensor);
}

/* _bytes_tensor(data, code, bits, shape) -> Tensor: a CPU Tensor of dtype (code, bits, 1) and
 * `shape` (a tuple of ints) over the bytes object `data`, whose length must be the shape's
 * element count times bits / 8.  No copy: the Tensor holds `data`.  Made for IR constants read
 * from serialized models (an ONNX initializer's raw_data); bytes are immutable, and whoever
 * takes the Tensor's data (np.from_dlpack) must not write it.  TypeError for arguments of the
 * wrong types, ValueError for a negative dim, a dtype that is not whole bytes or a length that
 * does not match. */
static PyObject* tpy_py_bytes_tensor(PyObject* module, PyObject* const* args, Py_ssize_t nargs) {
  (void)module;
  if (nargs != 4 || !PyBytes_CheckExact(args[0]) || !PyLong_CheckExact(args[1]) ||
      !PyLong_CheckExact(args[2]) || !PyTuple_CheckExact(args[3])) {
    PyErr_SetString(PyExc_TypeError,
                    "_bytes_tensor(data, code, bits, shape): expected bytes, int, int and a "
                    "tuple of ints");
    return NULL;
  }
  long code = PyLong_AsLong(args[1]), bits = PyLong_AsLong(args[2]);
  if (PyErr_Occurred()) return NULL;
  Py_ssize_t ndim = PyTuple_GET_SIZE(args[3]);
  if (code < 0 || code > 255 || bits <= 0 || bits > 255 || bits % 8 != 0 ||
      ndim > TPY_STACK_NDIM) {
    PyErr_Format(PyExc_ValueError,
                 "_bytes_tensor: expected a dtype code in [0, 255], bits a positive multiple of "
                 "8 and at most %d dims, got code %ld, bits %ld, %zd dims",
                 TPY_STACK_NDIM, code, bits, ndim);
    return NULL;
  }
  int64_t dims[TPY_STACK_NDIM];
  long long count = 1;
  int overflow = 0;
  for (Py_ssize_t i = 0; i < ndim; ++i) {
    PyObject* d = PyTuple_GET_ITEM(args[3], i);
    long long v = PyLong_Check(d) ? PyLong_AsLongLong(d) : -1;
    if (v < 0) {
      if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_OverflowError)) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "_bytes_tensor: shape[%zd] must be a non-negative int, "
                     "got %R", i, d);
      }
      return NULL;
    }
    dims[i] = v;
    if (v != 0 && count > LLONG_MAX / v) overflow = 1;
    count = overflow ? count : count * v;
  }
  Py_ssize_t length = PyBytes_GET_SIZE(args[0]);
  if (overflow || count > PY_SSIZE_T_MAX / (bits / 8) || count * (bits / 8) != length) {
    PyErr_Format(PyExc_ValueError, "_bytes_tensor: %zd bytes do not hold the %zd-dim shape %R "
                 "of %ld-bit elements", length, ndim, args[3], bits);
    return NULL;
  }
  DLTensor dl = {0};
  dl.data = PyBytes_AS_STRING(args[0]);
  dl.device.device_type = kDLCPU;
  dl.device.device_id = 0;
  dl.ndim = (int32_t)ndim;
  dl.dtype.code = (uint8_t)code;
  dl.dtype.bits = (uint8_t)bits;
  dl.dtype.lanes = 1;
  dl.shape = dims;
  dl.strides = NULL;
  tpy_view_dl* m;
  if (tpy_view_new(args[0], &dl, 0, 0, &m) != 0) return NULL;
  return tpy_tensor_wrap_steal(m->tensor);
}

/* _set_class_tensor(cls): Tensor results are made as `cls` (a subclass of Tensor) from now
 * on; tether.core._CLASS_TENSOR names it. */
static PyObject* tpy_py_set_class_tensor(PyObject* self, PyObject* cls) {
  if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject*)cls, &TpyTensor_Type)) {
    PyErr_Format(PyExc_TypeError, "_set_class_tensor: expected a subclass of Tensor, got %R", cls);
    return NULL;
  }
  if (tpy_register_class(kTVMFFITensor, (PyTypeObject*)cls) != 0 ||
      PyModule_AddObjectRef(tpy_module, "_CLASS_TENSOR", cls) != 0) {
    return NULL;
  }
  Py_RETURN_NONE;
}

static PyMethodDef tpy_tensor_module_methods[] = {
    {"_set_class_tensor", tpy_py_set_class_tensor, METH_O,
     "_set_class_tensor(cls): make Tensor results instances of `cls`"},
    {"_bytes_tensor", (PyCFunction)(void (*)(void))tpy_py_bytes_tensor, METH_FASTCALL,
     "_bytes_tensor(data, code, bits, shape) -> Tensor\n"
     "A CPU Tensor over the bytes object `data` (no copy), for data that is never written (IR "
     "constants read from serialized models)."},
    {"_constant_tensor", tpy_py_constant_tensor, METH_O,
     "_constant_tensor(array) -> Tensor\n"
     "A Tensor sharing a numpy array's memory, read-only arrays included, for data that is "
     "never written (IR constants).  TypeError for anything but a numpy array of a DLPack "
     "dtype."},
    {"from_dlpack", (PyCFunction)(void (*)(void))tpy_py_from_dlpack,
     METH_VARARGS | METH_KEYWORDS,
     "from_dlpack(x, require_alignment=0, require_contiguous=False) -> Tensor\n"
     "A Tensor sharing x's memory (x: any DLPack producer or a DLPack capsule).  "
     "RuntimeError if the data is not aligned to require_alignment bytes or, with "
     "require_contiguous, not compact row-major."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject TpyTensor_Type = {
    /* Every Object class has the Object metaclass (object.h). */
    PyVarObject_HEAD_INIT(&TpyObjectMeta_Type, 0)
    .tp_name = "tether.core.Tensor",
    .tp_doc = "Tensor: an ffi.Tensor (a DLPack-capable n-d array).  Make one with "
              "from_dlpack(x); hand one to numpy or torch with np.from_dlpack(t) / "
              "torch.from_dlpack(t): the memory is shared, never copied.",
    .tp_basicsize = sizeof(TpyObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_methods = tpy_tensor_methods,
    .tp_getset = tpy_tensor_getset,
    .tp_base = &TpyObject_Type,
};

/* ---- init ------------------------------------------------------------------------------ */

int tpy_tensor_init(PyObject* module) {
  const char* skip = getenv("TVM_FFI_SKIP_DLPACK_C_EXCHANGE_API");
  tpy_skip_exchange_api = skip != NULL && strcmp(skip, "1") == 0;

  PyTypeObject* t = &TpyTensor_Type;
  if (PyType_Ready(t) != 0) return -1;
  Py_INCREF(t);
  if (PyModule_AddObject(module, "Tensor", (PyObject*)t) != 0) {
    Py_DECREF(t);
    return -1;
  }
  if (tpy_register_class(kTVMFFITensor, t) != 0 ||
      PyModule_AddObjectRef(module, "_CLASS_TENSOR", (PyObject*)t) != 0) {
    return -1;
  }
  if (Py_AtExit(tpy_pool_drain) != 0) {
    PyErr_SetString(PyExc_RuntimeError, "tether.core: no room for an atexit function");
    return -1;
  }
  if (tpy_dltensor_test_wrapper_init(module) != 0) return -1;
  return PyModule_AddFunctions(module, tpy_tensor_module_methods);
}
