/*
 * shape.c -- the shape ops: shape_of, shape_to_tensor, tensor_to_shape, size.  Each op is a
 * declaration at the end of the file; rules and error texts are apache-tvm 0.27's as
 * observed (its checks here are ICHECKs, so most errors are InternalErrors).
 */
#include "../op.h"

#include "../arith.h"

/* TVM reads args[0] without a count check (IndexError when there is none); the argument must
 * be a tensor.  `who` names the op in the message. */
static trx_tensor_type_t* trx__tensor_input(trx_call_t* call, const char* who) {
  if (trx__call_nargs(call) < 1) {
    tether_raise("IndexError", "Index 0 out of bounds 0");
    return NULL;
  }
  TVMFFIObject* ty = trx__ty(trx__call_arg(call, 0));
  if (trx_is(ty, TRX_TENSOR_TYPE)) return (trx_tensor_type_t*)ty;
  trx__sb_t sb = {0};
  trx__sb_printf(&sb, "Check failed: (tensor_ty) is false: %s expects a tensor input, but received ", who);
  trx__sb_node(&sb, ty);
  trx__sb_printf(&sb, "; use MatchCast if necessary");
  trx__sb_raise(&sb, "InternalError");
  return NULL;
}

/* The shape's values when it is a ShapeExpr; a shape Var (even one whose type has values)
 * gives only its ndim. */
static TVMFFIObject* trx__infer_shape_of(const trx_op_def_t* def, trx_call_t* call) {
  (void)def;
  trx_tensor_type_t* tt = trx__tensor_input(call, "shape_of");
  if (tt == NULL) return NULL;
  TVMFFIObject* v = trx__shape_values(tt);
  return trx_shape_type_new(v, v != NULL ? -1 : tt->ndim);
}

static TVMFFIObject* trx__infer_size(const trx_op_def_t* def, trx_call_t* call) {
  (void)def;
  if (trx__tensor_input(call, "size") == NULL) return NULL;
  return trx__tensor_from_dims_steal(NULL, 0, trx__dtype_int64);
}

/* The one argument of shape_to_tensor / tensor_to_shape (borrowed), or NULL with TVM's
 * InternalError. */
static TVMFFIObject* trx__only_arg(trx_call_t* call) {
  if (trx__call_nargs(call) == 1) return trx__call_arg(call, 0);
  tether_raise("InternalError", "Check failed: (call->args.size() == 1) is false: ");
  return NULL;
}

/* Tensor((ndim,), int64); an unknown ndim gives the dim -1, as in TVM. */
static TVMFFIObject* trx__infer_shape_to_tensor(const trx_op_def_t* def, trx_call_t* call) {
  (void)def;
  TVMFFIObject* arg = trx__only_arg(call);
  if (arg == NULL) return NULL;
  TVMFFIObject* ty = trx__ty(arg);
  if (!trx_is(ty, TRX_SHAPE_TYPE)) {
    tether_raise("InternalError", "Check failed: (ty) is false: ");
    return NULL;
  }
  TVMFFIObject* d[1] = {trx_int64(((trx_shape_type_t*)ty)->ndim)};
  return trx__tensor_from_dims_steal(d, 1, trx__dtype_int64);
}

/* A 1-d tensor of any dtype; the result's ndim is its length when that is a constant (a
 * shape Var as the tensor's shape is an error, as in TVM). */
static TVMFFIObject* trx__infer_tensor_to_shape(const trx_op_def_t* def, trx_call_t* call) {
  (void)def;
  TVMFFIObject* arg = trx__only_arg(call);
  if (arg == NULL) return NULL;
  TVMFFIObject* ty = trx__ty(arg);
  if (!trx_is(ty, TRX_TENSOR_TYPE)) {
    tether_raise("InternalError", "Check failed: (tensor_ty) is false: ");
    return NULL;
  }
  trx_tensor_type_t* tt = (trx_tensor_type_t*)ty;
  if (tt->ndim != 1) {
    trx__sb_t sb = {0};
    trx__sb_printf(&sb,
                   "Check failed: tensor_ty->ndim == 1 (%lld vs. 1) : relax.tensor_to_shape expected "
                   "argument to be 1-d, but ",
                   (long long)tt->ndim);
    trx__sb_node(&sb, (TVMFFIObject*)call);
    trx__sb_printf(&sb, " has argument ");
    trx__sb_node(&sb, arg);
    trx__sb_printf(&sb, " with type ");
    trx__sb_node(&sb, ty);
    trx__sb_raise(&sb, "InternalError");
    return NULL;
  }
  if (tt->shape != NULL && !trx_is(tt->shape, TRX_SHAPE_EXPR)) {
    /* TVM casts the shape to a ShapeExpr unchecked: a shape Var fails the downcast. */
    tether_raise("TypeError", "Cannot treat type `%s` as type `relax.expr.ShapeExpr`",
                 tether_type_key(tt->shape->type_index));
    return NULL;
  }
  TVMFFIObject* v = trx__shape_values(tt);
  int64_t len = -1;
  if (v == NULL || !trx__const_i64(trx__dim(v, 0), &len)) len = -1;
  return trx_shape_type_new(NULL, len);
}

/* ---- declarations ------------------------------------------------------------------------------------ */
#define TRX__A_INPUT "input|Expr|The input expression"

TRX__OPS(shape){
    {.name = "shape_of", .params = "expr: Expr", .arguments = TRX__A_INPUT, .infer = trx__infer_shape_of,
     .doc = "The shape of a tensor, as a Shape value."},
    {.name = "shape_to_tensor", .params = "expr: Expr", .arguments = TRX__A_INPUT,
     .infer = trx__infer_shape_to_tensor, .doc = "A Shape value as a 1-d int64 tensor."},
    {.name = "tensor_to_shape", .params = "expr: Expr", .arguments = TRX__A_INPUT,
     .infer = trx__infer_tensor_to_shape, .doc = "A 1-d integer tensor as a Shape value."},
    {.name = "size", .params = "expr: Expr", .arguments = "input|Expr|The input tensor", .infer = trx__infer_size,
     .doc = "The number of elements of a tensor, as a 0-d int64 tensor."},
};
TRX__OPS_END(shape);
