/*
 * node.h -- internal helpers of node.c shared by libtether_ir's other files: reading
 * Python-natural arguments (dtypes, arrays, exprs), dtype text, and small node accessors.
 * Not API: every name is trx__ and the header refuses to compile outside libtether_ir.
 */
#ifndef TETHER_SRC_IR_NODE_H_
#define TETHER_SRC_IR_NODE_H_
#ifndef TETHER_BUILD_IR
#error "src/ir/node.h is private to libtether_ir"
#endif

#include "internal.h"

/* The "unknown" dtype of TensorType ({kDLOpaqueHandle, 0, 0}, prints "void"). */
extern const DLDataType trx__dtype_void;
extern const DLDataType trx__dtype_int64;
bool trx__dtype_is_void(DLDataType t);
bool trx__dtype_equal(DLDataType a, DLDataType b);
/* Writes the dtype's text ("float32", "void") NUL-terminated into buf (truncated to n). */
void trx__dtype_str(DLDataType t, char* buf, size_t n);

/* The ty of an Expr, borrowed (NULL when missing or `e` is not an Expr). */
static inline TVMFFIObject* trx__ty(const TVMFFIObject* e) {
  return trx_is(e, TRX_EXPR) ? ((const trx_expr_t*)e)->ty : NULL;
}
/* obj with one more reference (NULL passes through). */
static inline TVMFFIObject* trx__ref(TVMFFIObject* obj) {
  if (obj != NULL) TVMFFIObjectIncRef(obj);
  return obj;
}
/* Borrowed view of the string held in a STRING field (empty on anything else). */
TVMFFIByteArray trx__str(const TVMFFIAny* v);

/*
 * Argument readers for the FFI globals (fname names the global in error texts).
 * trx__arg_dtype: a str ("" = unknown), a DataType, or None (unknown) -> *out.
 * trx__arg_array: an Array, a List (copied) or None (empty) -> *out new Array reference.
 * trx__arg_opt_object: None -> NULL, an object of `kind` (or any object if kind < 0) -> borrowed.
 * All return 0, or -1 with TypeError raised.
 */
int trx__arg_dtype(const char* fname, const TVMFFIAny* v, DLDataType* out);
int trx__arg_array(const char* fname, const char* argname, const TVMFFIAny* v,
                   TVMFFIObject** out);
int trx__arg_opt_object(const char* fname, const char* argname, const TVMFFIAny* v, int kind,
                        TVMFFIObject** out);

/* New Array of `n` borrowed objects (new reference), NULL with MemoryError raised. */
TVMFFIObject* trx__array_of(TVMFFIObject* const* items, int64_t n);
/* Element i of an Array as an object (borrowed; NULL if not an object). */
TVMFFIObject* trx__array_obj(TVMFFIObject* arr, int64_t i);

/* Registers `fn` as global `name` (allow_override so re-loading the library is harmless). */
int trx__register_global(const char* name, TVMFFISafeCallType fn, const char* doc);

#endif /* TETHER_SRC_IR_NODE_H_ */
