/*
 * search.c -- search: where.  Each op is a declaration at the end of the file (parameters as TVM's
 * Python signature, attrs type, inference, constructor-time check); rules and error texts
 * are TVM's (relax.md section 1, and what apache-tvm 0.27 does where the spec is silent).
 */
#include "../op.h"

#include "../arith.h"

/* ---- where ------------------------------------------------------------------------------------------------------------ */

static TVMFFIObject* trx__infer_where(const trx_op_def_t* def, trx_call_t* call) {
  trx_tensor_type_t* tt[3];
  if (trx__check_args(def, call, 3, tt) != 0) return NULL;
  if (!trx__dtype_is_void(trx_tensor_dtype(tt[0])) && !trx__dtype_is_bool(trx_tensor_dtype(tt[0]))) {
    trx__sb_t sb = {0};
    trx__sb_printf(&sb, "Where requires the input condition tensor to have boolean dtype. However, the given condition dtype is ");
    trx__sb_dtype(&sb, trx_tensor_dtype(tt[0]));
    trx__sb_raise(&sb, "TypeError");
    return NULL;
  }
  DLDataType dtype;
  if (trx__binary_dtype(call, (TVMFFIObject*)tt[1], (TVMFFIObject*)tt[2], &dtype) != 0) return NULL;
  int64_t ndim = 0;
  for (int i = 0; i < 3; ++i) {
    if (tt[i]->ndim == -1) return trx__tensor_unknown(dtype, -1);
    if (tt[i]->ndim > ndim) ndim = tt[i]->ndim;
  }
  TVMFFIObject* v[3] = {trx__shape_values(tt[0]), trx__shape_values(tt[1]), trx__shape_values(tt[2])};
  if (v[0] == NULL || v[1] == NULL || v[2] == NULL) return trx__tensor_unknown(dtype, ndim);
  /* As TVM: x1 with x2 first, then the condition with that (the order shows in the errors). */
  TVMFFIObject *b12 = NULL, *b = NULL;
  if (trx__broadcast(def, v[1], v[2], &b12) != 0) return NULL;
  if (b12 == NULL) return trx__tensor_unknown(dtype, ndim);
  int rc = trx__broadcast(def, v[0], b12, &b);
  TVMFFIObjectDecRef(b12);
  if (rc != 0) return NULL;
  if (b == NULL) return trx__tensor_unknown(dtype, ndim);
  TVMFFIObject* se = trx_shape_expr_new(b);
  TVMFFIObject* ty = se ? trx__tensor_new(se, dtype, tether_array_size(b)) : NULL;
  if (se) TVMFFIObjectDecRef(se);
  TVMFFIObjectDecRef(b);
  return ty;
}

/* ---- argmax / argmin ------------------------------------------------------------------------------ */

#define TRX__ARGMAX_ARGMIN_FIELDS(F, T)     \
  F(T, axis, OPT_INT64, "Optional<int>")    \
  F(T, keepdims, BOOL, "bool")
TRX_ATTRS_STRUCT(trx_argmax_argmin_attrs_t, TRX__ARGMAX_ARGMIN_FIELDS);
TRX_ATTRS_DECL(trx__argmax_argmin_attrs, "relax.attrs.ArgmaxArgminAttrs", trx_argmax_argmin_attrs_t,
               TRX__ARGMAX_ARGMIN_FIELDS);

/* int64 indices: the reduction rule of one axis (None: every axis). */
static TVMFFIObject* trx__infer_argmax_argmin(const trx_op_def_t* def, trx_call_t* call) {
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  trx_argmax_argmin_attrs_t* attrs = (trx_argmax_argmin_attrs_t*)call->attrs;
  bool has_axis = attrs->axis.has_value, keep = attrs->keepdims;
  int64_t ndim = tt[0]->ndim, axis = -1;
  if (!has_axis && !keep) return trx__tensor_from_dims_steal(NULL, 0, trx__dtype_int64);
  if (ndim == -1) return trx__tensor_unknown(trx__dtype_int64, -1);
  if (has_axis && trx__normalize_axis(def, ndim, trx__as_int(attrs->axis.value), &axis) != 0)
    return NULL;
  int64_t out_ndim = keep ? ndim : ndim - 1;
  TVMFFIObject* v = trx__shape_values(tt[0]);
  /* Without dims, every axis kept as 1 is still known. */
  if (v == NULL && has_axis) return trx__tensor_unknown(trx__dtype_int64, out_ndim);
  TVMFFIObject** d = trx__dims_new(out_ndim);
  if (d == NULL) return NULL;
  for (int64_t i = 0, k = 0; i < ndim; ++i) {
    if (!has_axis || i == axis) {
      if (keep) d[k++] = trx_int64(1);
    } else {
      d[k++] = trx__ref(trx__dim(v, i));
    }
  }
  return trx__tensor_steal_free(d, out_ndim, trx__dtype_int64);
}

/* ---- declarations ------------------------------------------------------------------------------------ */
TRX__OPS(search){
    {.name = "where", .params = "condition: Expr, x1: Expr, x2: Expr",
     .arguments = "condition|Tensor|When True, yield `x1`; otherwise, yield `x2`.\n" "x1|Tensor|The first input tensor.\nx2|Tensor|The second input tensor.",
     .infer = trx__infer_where, .doc = "x1 where condition, else x2, with broadcasting."},
    {.name = "argmax", .params = "x: Expr, axis: int? = None, keepdims: bool = False",
     .arguments = "x|Tensor|The input data tensor", .attrs = &trx__argmax_argmin_attrs,
     .infer = trx__infer_argmax_argmin, .flags = TRX_OP_HIDE_ATTRS_KEY,
     .doc = "Indices (int64) of the maxima along axis (None: of the flattened x)."},
    {.name = "argmin", .params = "x: Expr, axis: int? = None, keepdims: bool = False",
     .arguments = "x|Tensor|The input data tensor", .attrs = &trx__argmax_argmin_attrs,
     .infer = trx__infer_argmax_argmin, .flags = TRX_OP_HIDE_ATTRS_KEY,
     .doc = "Indices (int64) of the minima along axis (None: of the flattened x)."},
};
TRX__OPS_END(search);
