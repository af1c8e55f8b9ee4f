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

/* ---- declarations ------------------------------------------------------------------------------------ */
TRX__OPS(search){
    {.name = "where", .params = "condition: Expr, x1: Expr, x2: Expr",
     .arguments = "condition|Tensor|When True, yield `x1`; otherwise, yield `x2`.\n" "x1|Tensor|The first input tensor.\nx2|Tensor|The second input tensor.",
     .infer = trx__infer_where, .doc = "x1 where condition, else x2, with broadcasting."},
};
TRX__OPS_END(search);
