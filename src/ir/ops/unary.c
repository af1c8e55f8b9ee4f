/*
 * unary.c -- the elementwise unary ops (math functions, clip).  Each op is a declaration at the end of the file (parameters as TVM's
 * Python signature, attrs type, inference, constructor-time check); rules and error texts
 * are TVM's (relax.md section 1, and what apache-tvm 0.27 does where the spec is silent).
 */
#include "../op.h"

#include "../arith.h"

/* ---- clip ----------------------------------------------------------------------------------------------------------- */

static bool trx__is_prim_expr(TVMFFIObject* e) {
  if (trx_is(e, TRX_INT_IMM) || trx_is(e, TRX_FLOAT_IMM)) return true;
  for (int k = TRX_PRIM_ADD; k <= TRX_PRIM_MAX; ++k)
    if (trx_is(e, (trx_kind)k)) return true;
  return trx_is(e, TRX_VAR) && trx_is(trx__ty(e), TRX_PRIM_TYPE);
}


/* As TVM: clip's type is its first argument's, whatever that is (R.Shape for a shape). */
static TVMFFIObject* trx__infer_clip(const trx_op_def_t* def, trx_call_t* call) {
  if (trx__check_args(def, call, 0, NULL) != 0) return NULL;
  TVMFFIObject* ty = trx__ty(trx__call_arg(call, 0));
  if (ty == NULL) {
    tether_raise("ValueError", "%s: argument 0 has no type; normalize it first", def->full_name);
    return NULL;
  }
  return trx__ref(ty);
}


/* clip's bounds are PrimExprs (TVM checks it when the Call is made). */
static int trx__check_clip(const trx_op_def_t* def, TVMFFIObject** in, int64_t n, TVMFFIObject* attrs) {
  static const char* const names[] = {"x", "min", "max"};
  (void)def, (void)attrs;
  for (int64_t i = 1; i < n && i < 3; ++i) {
    if (!trx__is_prim_expr(in[i])) {
      return tether_raise("InternalError",
                          "Check failed: (%s.as<PrimExpr>()) is false: The argument `%s` of relax.clip is "
                          "expected to be a PrimExpr, but got %s",
                          names[i], names[i], tether_type_key(in[i]->type_index));
    }
  }
  return 0;
}

/* ---- declarations ------------------------------------------------------------------------------------ */
#define TRX__A_X "x|Tensor|The input tensor."

TRX__OPS(unary){
    {.name = "sigmoid", .params = "x: Expr", .arguments = TRX__A_X, .infer = trx__infer_unary, .flags = TRX__F_FLOAT,
     .doc = "1 / (1 + exp(-x)); float input."},
    {.name = "tanh", .params = "x: Expr", .arguments = TRX__A_X, .infer = trx__infer_unary, .flags = TRX__F_FLOAT,
     .doc = "tanh(x); float input."},
    {.name = "exp", .params = "x: Expr", .arguments = TRX__A_X, .infer = trx__infer_unary, .flags = TRX__F_FLOAT,
     .doc = "exp(x); float input."},
    {.name = "sqrt", .params = "x: Expr", .arguments = TRX__A_X, .infer = trx__infer_unary, .flags = TRX__F_FLOAT,
     .doc = "sqrt(x); float input."},
    {.name = "negative", .params = "x: Expr", .arguments = TRX__A_X, .infer = trx__infer_unary,
     .doc = "-x."},
    {.name = "clip", .params = "x: Expr, min: Prim, max: Prim",
     .arguments = TRX__A_X "\nmin|PrimExpr|The lower-bound of the range to be clipped to\nmax|PrimExpr|The "
                  "upper-bound of the range to be clipped to",
     .infer = trx__infer_clip, .check = trx__check_clip, .doc = "x clipped to [min, max]."},
};
TRX__OPS_END(unary);
