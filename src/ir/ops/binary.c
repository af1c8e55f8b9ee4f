/*
 * binary.c -- the elementwise binary ops (arithmetic, comparison) with broadcasting.  Each op is a declaration at the end of the file (parameters as TVM's
 * Python signature, attrs type, inference, constructor-time check); rules and error texts
 * are TVM's (relax.md section 1, and what apache-tvm 0.27 does where the spec is silent).
 */
#include "../op.h"

#include "../arith.h"

/* ---- elementwise binary ------------------------------------------------------------------------- */

static int trx__binary_operand_error(trx_call_t* call, const char* side, TVMFFIObject* arg) {
  trx__sb_t sb = {0};
  bool lhs = side[0] == 'L';
  trx__sb_printf(&sb,
                 "Check failed: (%s_ty.as<PrimTypeNode>() || %s_ty.as<TensorTypeNode>()) is false: "
                 "Arguments to binary operators must be either R.Tensor or R.Prim types, but "
                 "expression ",
                 lhs ? "lhs" : "rhs", lhs ? "lhs" : "rhs");
  trx__sb_node(&sb, (TVMFFIObject*)call);
  trx__sb_printf(&sb, " has %s ", side);
  trx__sb_node(&sb, arg);
  trx__sb_printf(&sb, ", which has Type ");
  trx__sb_node(&sb, trx__ty(arg));
  return trx__sb_raise(&sb, "TypeError");
}

static TVMFFIObject* trx__infer_binary(const trx_op_def_t* def, trx_call_t* call) {
  if (trx__call_nargs(call) != 2) {
    trx__sb_t sb = {0};
    trx__sb_op(&sb, def);
    trx__sb_printf(&sb, " op should have 2 arguments");
    trx__sb_raise(&sb, "ValueError");
    return NULL;
  }
  TVMFFIObject* arg[2] = {trx__call_arg(call, 0), trx__call_arg(call, 1)};
  TVMFFIObject* ty[2] = {trx__ty(arg[0]), trx__ty(arg[1])};
  for (int i = 0; i < 2; ++i) {
    if (!trx_is(ty[i], TRX_TENSOR_TYPE) && !trx_is(ty[i], TRX_PRIM_TYPE)) {
      trx__binary_operand_error(call, i == 0 ? "LHS" : "RHS", arg[i]);
      return NULL;
    }
  }
  DLDataType dtype;
  if (def->flags & TRX__F_COMPARE) {
    dtype = trx__dtype_bool;
  } else if (trx__binary_dtype(call, ty[0], ty[1], &dtype) != 0) {
    return NULL;
  }
  if (trx_is(ty[0], TRX_PRIM_TYPE) && trx_is(ty[1], TRX_PRIM_TYPE)) return trx__prim_type_shared(dtype);
  /* a PrimType operand broadcasts as shape [1] */
  TVMFFIObject* one = trx_int64(1);
  TVMFFIObject* unit = one ? trx__array_of(&one, 1) : NULL;
  if (one) TVMFFIObjectDecRef(one);
  if (unit == NULL) return NULL;
  TVMFFIObject* vals[2];
  int64_t nd[2];
  TVMFFIObject* shp[2];
  for (int i = 0; i < 2; ++i) {
    if (trx_is(ty[i], TRX_PRIM_TYPE)) {
      vals[i] = unit;
      nd[i] = 1;
      shp[i] = NULL;
    } else {
      trx_tensor_type_t* t = (trx_tensor_type_t*)ty[i];
      vals[i] = trx__shape_type_values(t);
      nd[i] = t->ndim;
      shp[i] = t->shape;
    }
  }
  TVMFFIObject* result = NULL;
  if (nd[0] == -1 || nd[1] == -1) {
    result = trx__tensor_unknown(dtype, -1);
  } else if (vals[0] != NULL && vals[1] != NULL) {
    TVMFFIObject* out = NULL;
    if (trx__broadcast(def, vals[0], vals[1], &out) == 0) {
      if (out == NULL) {
        result = trx__tensor_unknown(dtype, nd[0] > nd[1] ? nd[0] : nd[1]);
      } else {
        TVMFFIObject* se = trx_shape_expr_new(out);
        if (se) {
          result = trx__tensor_new(se, dtype, tether_array_size(out));
          TVMFFIObjectDecRef(se);
        }
        TVMFFIObjectDecRef(out);
      }
    }
  } else if (shp[0] != NULL && shp[0] == shp[1]) {
    result = trx__tensor_new(shp[0], dtype, nd[0]);
  } else {
    result = trx__tensor_unknown(dtype, nd[0] > nd[1] ? nd[0] : nd[1]);
  }
  TVMFFIObjectDecRef(unit);
  return result;
}

/* ---- declarations ------------------------------------------------------------------------------------ */
#define TRX__A_BIN "x1|Tensor|The first input tensor.\nx2|Tensor|The second input tensor."

TRX__OPS(binary){
    {.name = "add", .params = "x1: Expr, x2: Expr", .arguments = TRX__A_BIN, .infer = trx__infer_binary,
     .doc = "x1 + x2 with broadcasting."},
    {.name = "subtract", .params = "x1: Expr, x2: Expr", .arguments = TRX__A_BIN, .infer = trx__infer_binary,
     .doc = "x1 - x2 with broadcasting."},
    {.name = "multiply", .params = "x1: Expr, x2: Expr", .arguments = TRX__A_BIN, .infer = trx__infer_binary,
     .doc = "x1 * x2 with broadcasting."},
    {.name = "divide", .params = "x1: Expr, x2: Expr", .arguments = TRX__A_BIN, .infer = trx__infer_binary,
     .doc = "x1 / x2 with broadcasting."},
    {.name = "power", .params = "x1: Expr, x2: Expr", .arguments = TRX__A_BIN, .infer = trx__infer_binary,
     .doc = "x1 ** x2 with broadcasting."},
    {.name = "maximum", .params = "x1: Expr, x2: Expr", .arguments = TRX__A_BIN, .infer = trx__infer_binary,
     .doc = "Elementwise max with broadcasting."},
    {.name = "minimum", .params = "x1: Expr, x2: Expr", .arguments = TRX__A_BIN, .infer = trx__infer_binary,
     .doc = "Elementwise min with broadcasting."},
    {.name = "equal", .params = "x1: Expr, x2: Expr", .arguments = TRX__A_BIN, .infer = trx__infer_binary, .flags = TRX__F_COMPARE,
     .doc = "x1 == x2 with broadcasting (bool)."},
    {.name = "less", .params = "x1: Expr, x2: Expr", .arguments = TRX__A_BIN, .infer = trx__infer_binary, .flags = TRX__F_COMPARE,
     .doc = "x1 < x2 with broadcasting (bool)."},
    {.name = "greater", .params = "x1: Expr, x2: Expr", .arguments = TRX__A_BIN, .infer = trx__infer_binary, .flags = TRX__F_COMPARE,
     .doc = "x1 > x2 with broadcasting (bool)."},
};
TRX__OPS_END(binary);
