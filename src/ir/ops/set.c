/*
 * set.c -- set ops: nonzero, unique.  Their results have data-dependent lengths: the types
 * say only the rank, and a frontend binds the values with MatchCast to types over fresh
 * symbolic dims.  Each op is a declaration at the end of the file (parameters as TVM's
 * Python signature, inference); rules and error texts are apache-tvm 0.27's.
 */
#include "../op.h"

#include "../arith.h"

/* ---- nonzero ------------------------------------------------------------------------------------- */

/* (ndim, count) int64 indices; even the rank is not taken from x. */
static TVMFFIObject* trx__infer_nonzero(const trx_op_def_t* def, trx_call_t* call) {
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  return trx__tensor_unknown(trx__dtype_int64, 2);
}

/* ---- unique --------------------------------------------------------------------------------------- */

/* The value of unique's flag input i (return_index / return_inverse / return_counts): it must
 * be an IntImm (InternalError as TVM's otherwise). */
static int trx__unique_flag(trx_call_t* call, int64_t i, bool* out) {
  TVMFFIObject* e = trx__call_arg(call, i);
  int64_t v = 0;
  if (!trx__int_imm_value(e, &v)) {
    trx__sb_t sb = {0};
    trx__sb_printf(&sb, "Check failed: (value->IsInstance<IntImmNode>()) is false: ");
    trx__sb_node(&sb, e);
    trx__sb_printf(&sb, " expects to be IntImm, but gets %s",
                   e != NULL ? tether_type_key(e->type_index) : "None");
    return trx__sb_raise(&sb, "InternalError");
  }
  *out = v != 0;
  return 0;
}

/* The unique values (1-d, or x's rank with an axis), then an int64 1-d tensor per flag set:
 * index, inverse, counts.  A 0-d x makes every output (1,).  One output is returned bare,
 * several as a tuple. */
static TVMFFIObject* trx__infer_unique(const trx_op_def_t* def, trx_call_t* call) {
  int64_t nargs = trx__call_nargs(call);
  if (nargs < 5) {
    trx__index_error(nargs, nargs);
    return NULL;
  }
  TVMFFIObject* xty = trx__ty(trx__call_arg(call, 0));
  if (!trx_is(xty, TRX_TENSOR_TYPE)) {
    tether_raise("TypeError", "Cannot treat type `%s` as type `relax.TensorType`",
                 xty != NULL ? tether_type_key(xty->type_index) : "None");
    return NULL;
  }
  trx_tensor_type_t* x = (trx_tensor_type_t*)xty;
  int64_t ndim = x->ndim, out_ndim = 1, a = 0, norm = 0;
  TVMFFIObject* axis = nargs > 5 ? trx__call_arg(call, 5) : NULL;
  if (axis != NULL) {
    /* A constant axis is checked against a known rank; a symbolic one is trusted. */
    if (trx__int_imm_value(axis, &a) && ndim != -1 &&
        trx__normalize_axis(def, ndim, trx__as_int(a), &norm) != 0)
      return NULL;
    out_ndim = ndim;
  }
  bool flags[3];
  for (int i = 0; i < 3; ++i)
    if (trx__unique_flag(call, 2 + i, &flags[i]) != 0) return NULL;
  TVMFFIObject* outs[4] = {NULL, NULL, NULL, NULL};
  int64_t nout = 0;
  bool ok = true;
  for (int i = -1; i < 3 && ok; ++i) {
    if (i >= 0 && !flags[i]) continue;
    DLDataType dt = i < 0 ? trx_tensor_dtype(x) : trx__dtype_int64;
    if (ndim == 0) {
      TVMFFIObject* d[1] = {trx_int64(1)};
      outs[nout] = trx__tensor_from_dims_steal(d, 1, dt);
    } else {
      outs[nout] = trx__tensor_unknown(dt, i < 0 ? out_ndim : 1);
    }
    ok = outs[nout++] != NULL;
  }
  TVMFFIObject* ty = NULL;
  if (ok) ty = nout == 1 ? trx__ref(outs[0]) : trx__tuple_type_of(outs, nout);
  trx__release_objects(outs, nout);
  return ty;
}

/* ---- declarations ------------------------------------------------------------------------------------ */
TRX__OPS(set){
    {.name = "nonzero", .params = "x: Expr", .arguments = "x|Tensor|The input tensor",
     .infer = trx__infer_nonzero,
     .doc = "Indices of the non-zero elements of x: (x.ndim, count) int64."},
    {.name = "unique",
     .params = "x: Expr, sorted: Expr = True, return_index: Expr = False, "
               "return_inverse: Expr = False, return_counts: Expr = False, axis: Expr? = None",
     .arguments =
         "x|Tensor|The input tensor\n"
         "sorted|Tensor|Whether to sort the unique elements in ascending order before returning "
         "as output.\n"
         "return_index|Tensor|Whether to return an additional tensor with indices for where "
         "elements in the unique tensor come from the original input.\n"
         "return_inverse|Tensor|Whether to return an additional tensor with indices for where "
         "elements in the original input ended up in the returned unique list.\n"
         "return_counts|Tensor|Whether to return an additional tensor with counts of each unique "
         "elements\n"
         "axis|Tensor|The dimension to apply unique. If it is std::nullopt, the unique values of "
         "the flattened input are returned.",
     .infer = trx__infer_unique,
     .doc = "The unique elements of x (along axis), with their first indices, the inverse "
            "indices and the counts when asked."},
};
TRX__OPS_END(set);
