/*
 * linalg.c -- linear algebra: matmul.  Each op is a declaration at the end of the file (parameters as TVM's
 * Python signature, attrs type, inference, constructor-time check); rules and error texts
 * are TVM's (relax.md section 1, and what apache-tvm 0.27 does where the spec is silent).
 */
#include "../op.h"

#include "../arith.h"

#define TRX__MATMUL_FIELDS(F, T) F(T, out_dtype, ANY, "Optional<DataType>")
TRX_ATTRS_STRUCT(trx_matmul_attrs_t, TRX__MATMUL_FIELDS);
TRX_ATTRS_DECL(trx__matmul_attrs, "relax.attrs.MatmulAttrs", trx_matmul_attrs_t, TRX__MATMUL_FIELDS);

/* ---- matmul --------------------------------------------------------------------------------- */


static int trx__matmul_scalar_error(trx_call_t* call, const char* side, TVMFFIObject* arg) {
  trx__sb_t sb = {0};
  trx__sb_printf(&sb, "Matmul operands must not be scalar.  However, the expression ");
  trx__sb_node(&sb, (TVMFFIObject*)call);
  trx__sb_printf(&sb, " has a %s of ", side);
  trx__sb_node(&sb, arg);
  trx__sb_printf(&sb, " with type ");
  trx__sb_node(&sb, trx__ty(arg));
  trx__sb_printf(&sb, ", which is scalar (zero-dimensional) tensor.");
  return trx__sb_raise(&sb, "ValueError");
}

static TVMFFIObject* trx__infer_matmul(const trx_op_def_t* def, trx_call_t* call) {
  trx_matmul_attrs_t* attrs = (trx_matmul_attrs_t*)call->attrs;
  trx_tensor_type_t* tt[2];
  DLDataType dtype;
  if (trx__check_args(def, call, 2, tt) != 0) return NULL;
  if (attrs->out_dtype.type_index == kTVMFFIDataType) {
    dtype = attrs->out_dtype.v_dtype;
  } else if (trx__binary_dtype(call, (TVMFFIObject*)tt[0], (TVMFFIObject*)tt[1], &dtype) != 0) {
    return NULL;
  }
  if (tt[0]->ndim == -1 || tt[1]->ndim == -1) return trx__tensor_unknown(dtype, -1);
  int64_t n1 = tt[0]->ndim, n2 = tt[1]->ndim;
  if (n1 == 0 && trx__matmul_scalar_error(call, "LHS", trx__call_arg(call, 0))) return NULL;
  if (n2 == 0 && trx__matmul_scalar_error(call, "RHS", trx__call_arg(call, 1))) return NULL;
  bool prepend = n1 == 1, append = n2 == 1;
  int64_t e1 = prepend ? 2 : n1, e2 = append ? 2 : n2;
  int64_t out_ndim = (e1 > e2 ? e1 : e2) - prepend - append;
  TVMFFIObject* v1 = trx__shape_values(tt[0]);
  TVMFFIObject* v2 = trx__shape_values(tt[1]);
  if (v1 == NULL || v2 == NULL) return trx__tensor_unknown(dtype, out_ndim);
  TVMFFIObject *b1 = NULL, *b2 = NULL, *batch = NULL, *ty = NULL;
  TVMFFIObject** d = NULL;
  {
    TVMFFIObject* tmp[64];
    int64_t nb1 = e1 - 2, nb2 = e2 - 2;
    if (nb1 > 64 || nb2 > 64) {
      tether_raise("ValueError", "%s: too many dimensions", def->full_name);
      return NULL;
    }
    for (int64_t i = 0; i < nb1; ++i) tmp[i] = trx__dim(v1, i);
    b1 = trx__array_of(tmp, nb1);
    for (int64_t i = 0; i < nb2; ++i) tmp[i] = trx__dim(v2, i);
    b2 = trx__array_of(tmp, nb2);
  }
  if (b1 == NULL || b2 == NULL || trx__broadcast(def, b1, b2, &batch) != 0) goto done;
  if (batch == NULL) {
    ty = trx__tensor_unknown(dtype, out_ndim);
    goto done;
  }
  {
    TVMFFIObject* r1 = trx__dim(v1, n1 - 1);
    TVMFFIObject* r2 = trx__dim(v2, append ? 0 : n2 - 2);
    if (trx_prove_equal(r1, r2) == TRX_PROVE_FALSE) {
      trx__sb_t sb = {0};
      trx__sb_printf(&sb, "Matmul requires the reduction length of the operands to be equal.  However, the LHS ");
      trx__sb_node(&sb, trx__call_arg(call, 0));
      trx__sb_printf(&sb, " has shape ");
      trx__sb_node(&sb, tt[0]->shape);
      trx__sb_printf(&sb, ", while the RHS ");
      trx__sb_node(&sb, trx__call_arg(call, 1));
      trx__sb_printf(&sb, " has shape ");
      trx__sb_node(&sb, tt[1]->shape);
      trx__sb_printf(&sb, ".  The reduction dimensions of ");
      trx__sb_node(&sb, r1);
      trx__sb_printf(&sb, " and ");
      trx__sb_node(&sb, r2);
      trx__sb_printf(&sb, " are not equal.");
      trx__sb_raise(&sb, "ValueError");
      goto done;
    }
  }
  {
    int64_t nbatch = tether_array_size(batch), k = 0;
    d = trx__dims_new(out_ndim);
    if (d == NULL) goto done;
    for (int64_t i = 0; i < nbatch; ++i) d[k++] = trx__ref(trx__dim(batch, i));
    if (!prepend) d[k++] = trx__ref(trx__dim(v1, n1 - 2));
    if (!append) d[k++] = trx__ref(trx__dim(v2, n2 - 1));
    ty = trx__tensor_steal_free(d, out_ndim, dtype);
  }
done:
  if (b1) TVMFFIObjectDecRef(b1);
  if (b2) TVMFFIObjectDecRef(b2);
  if (batch) TVMFFIObjectDecRef(batch);
  return ty;
}

/* ---- declarations ------------------------------------------------------------------------------------ */
TRX__OPS(linalg){
    {.name = "matmul", .params = "x1: Expr, x2: Expr, out_dtype: dtype? = None",
     .arguments = "x1|Tensor|The first input tensor.\nx2|Tensor|The second input tensor.",
     .attrs = &trx__matmul_attrs, .infer = trx__infer_matmul, .flags = TRX_OP_HIDE_ATTRS_KEY,
     .doc = "Matrix product with numpy's broadcasting of the batch dims."},
};
TRX__OPS_END(linalg);
