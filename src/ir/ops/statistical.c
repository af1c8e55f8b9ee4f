/*
 * statistical.c -- reductions: mean, sum, max.  Each op is a declaration at the end of the file (parameters as TVM's
 * Python signature, attrs type, inference, constructor-time check); rules and error texts
 * are TVM's (relax.md section 1, and what apache-tvm 0.27 does where the spec is silent).
 */
#include "../op.h"

#include "../arith.h"

#define TRX__STATISTICAL_FIELDS(F, T)                         \
  F(T, axis, OPT_OBJECT, "Optional<ffi.Array<int>>")            \
  F(T, keepdims, BOOL, "bool")
TRX_ATTRS_STRUCT(trx_statistical_attrs_t, TRX__STATISTICAL_FIELDS);
TRX_ATTRS_DECL(trx__statistical_attrs, "relax.attrs.StatisticalAttrs", trx_statistical_attrs_t,
               TRX__STATISTICAL_FIELDS);

/* ---- mean / sum / max -------------------------------------------------------------------------------------------- */


static TVMFFIObject* trx__infer_statistical(const trx_op_def_t* def, trx_call_t* call) {
  trx_statistical_attrs_t* attrs = (trx_statistical_attrs_t*)call->attrs;
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  DLDataType dt = trx_tensor_dtype(tt[0]);
  int64_t ndim = tt[0]->ndim;
  TVMFFIObject* v = trx__shape_values(tt[0]);
  if (attrs->axis == NULL && !attrs->keepdims) return trx__tensor_from_dims_steal(NULL, 0, dt);
  if (ndim == -1) return trx__tensor_unknown(dt, -1);
  bool* red = calloc((size_t)(ndim > 0 ? ndim : 1), sizeof(bool));
  if (red == NULL) return NULL;
  TVMFFIObject* ty = NULL;
  int64_t nred = 0;
  if (attrs->axis == NULL) {
    for (int64_t i = 0; i < ndim; ++i) red[i] = true;
    nred = ndim;
  } else {
    int64_t* ax = NULL;
    if (trx__normalize_axes(def, ndim, attrs->axis, &ax) != 0) goto done;
    nred = trx__iarr_size(attrs->axis);
    for (int64_t i = 0; i < nred; ++i) red[ax[i]] = true;
    free(ax);
  }
  {
    int64_t out_ndim = attrs->keepdims ? ndim : ndim - nred;
    if (v == NULL) {
      /* As TVM: when every axis is reduced the result's shape is known even though the
       * input's is not -- () without keepdims, all ones with it. */
      if (nred == ndim) {
        TVMFFIObject** ones = trx__dims_new(out_ndim);
        for (int64_t i = 0; ones != NULL && i < out_ndim; ++i) ones[i] = trx_int64(1);
        ty = ones != NULL ? trx__tensor_steal_free(ones, out_ndim, dt) : NULL;
      } else {
        ty = trx__tensor_unknown(dt, out_ndim);
      }
      goto done;
    }
    TVMFFIObject** d = trx__dims_new(out_ndim);
    if (d == NULL) goto done;
    int64_t k = 0;
    for (int64_t i = 0; i < ndim; ++i) {
      if (!red[i]) d[k++] = trx__ref(trx__dim(v, i));
      else if (attrs->keepdims) d[k++] = trx_int64(1);
    }
    ty = trx__tensor_steal_free(d, out_ndim, dt);
  }
done:
  free(red);
  return ty;
}

/* ---- declarations ------------------------------------------------------------------------------------ */
#define TRX__A_STAT "x|Tensor|The input data tensor"

TRX__OPS(statistical){
    {.name = "mean", .params = "x: Expr, axis: ints?[1] = None, keepdims: bool = False",
     .arguments = TRX__A_STAT, .attrs = &trx__statistical_attrs, .infer = trx__infer_statistical,
     .flags = TRX_OP_HIDE_ATTRS_KEY, .doc = "Mean over axis (None: all)."},
    {.name = "sum", .params = "x: Expr, axis: ints?[1] = None, keepdims: bool = False",
     .arguments = TRX__A_STAT, .attrs = &trx__statistical_attrs, .infer = trx__infer_statistical,
     .flags = TRX_OP_HIDE_ATTRS_KEY, .doc = "Sum over axis (None: all)."},
    {.name = "max", .params = "x: Expr, axis: ints?[1] = None, keepdims: bool = False",
     .arguments = TRX__A_STAT, .attrs = &trx__statistical_attrs, .infer = trx__infer_statistical,
     .flags = TRX_OP_HIDE_ATTRS_KEY, .doc = "Max over axis (None: all)."},
};
TRX__OPS_END(statistical);
