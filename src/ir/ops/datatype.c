/*
 * datatype.c -- dtype conversion: astype.  Each op is a declaration at the end of the file (parameters as TVM's
 * Python signature, attrs type, inference, constructor-time check); rules and error texts
 * are TVM's (relax.md section 1, and what apache-tvm 0.27 does where the spec is silent).
 */
#include "../op.h"

#include "../arith.h"

#define TRX__ASTYPE_FIELDS(F, T) F(T, dtype, DTYPE, "DataType")
TRX_ATTRS_STRUCT(trx_astype_attrs_t, TRX__ASTYPE_FIELDS);
TRX_ATTRS_DECL(trx__astype_attrs, "relax.attrs.AstypeAttrs", trx_astype_attrs_t, TRX__ASTYPE_FIELDS);

/* ---- astype ------------------------------------------------------------------------------------------------------- */


static TVMFFIObject* trx__infer_astype(const trx_op_def_t* def, trx_call_t* call) {
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  return trx__with_dtype(tt[0], ((trx_astype_attrs_t*)call->attrs)->dtype);
}

/* ---- declarations ------------------------------------------------------------------------------------ */
TRX__OPS(datatype){
    {.name = "astype", .params = "x: Expr, dtype: dtype", .arguments = "x|Tensor|The input tensor",
     .attrs = &trx__astype_attrs, .infer = trx__infer_astype, .doc = "x converted to dtype."},
};
TRX__OPS_END(datatype);
