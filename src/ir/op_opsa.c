/*
 * op_opsa.c -- type inference of the unary predicates, the creation ops, the shape ops and
 * call_tir / call_dps_packed (op_opsa.h).  Rules and error texts are apache-tvm 0.27's as
 * observed: each function's comment says what TVM does where it is not obvious.
 */
#include "op_opsa.h"

#include <math.h>

#include "arith.h"

/* ---- shared pieces ---------------------------------------------------------------------------- */

/* The InitAttrs dtype of the call, or `fallback` when it is None. */
static DLDataType trx__init_dtype(trx_call_t* call, DLDataType fallback) {
  const trx_init_attrs_t* a = (const trx_init_attrs_t*)call->attrs;
  if (a != NULL && a->dtype.type_index == kTVMFFIDataType) return a->dtype.v_dtype;
  return fallback;
}

/* The type key of a type (or "None"), as TVM's messages name a type by its key. */
static const char* trx__ty_key(TVMFFIObject* ty) {
  return ty != NULL ? tether_type_key(ty->type_index) : "None";
}

/* TensorType over `tt`'s shape (or ndim) with `dtype` and `tt`'s vdevice. */
static TVMFFIObject* trx__tensor_like(const trx_tensor_type_t* tt, DLDataType dtype) {
  TVMFFIObject* ty = trx__tensor_new(tt->shape, dtype, tt->ndim);
  if (ty != NULL) ((trx_tensor_type_t*)ty)->vdevice = trx__ref(tt->vdevice);
  return ty;
}

/* The TensorType whose shape is the shape-typed argument `arg`: the ShapeExpr or shape Var
 * itself, else a ShapeExpr of its type's values, else only its ndim. */
static TVMFFIObject* trx__tensor_of_shape(TVMFFIObject* arg, DLDataType dtype) {
  const trx_shape_type_t* st = (const trx_shape_type_t*)trx__ty(arg);
  if (trx_is(arg, TRX_SHAPE_EXPR) || trx_is(arg, TRX_VAR)) return trx__tensor_new(arg, dtype, st->ndim);
  if (st->values != NULL) {
    TVMFFIObject* se = trx_shape_expr_new(st->values);
    if (se == NULL) return NULL;
    TVMFFIObject* ty = trx__tensor_new(se, dtype, st->ndim);
    TVMFFIObjectDecRef(se);
    return ty;
  }
  return trx__tensor_unknown(dtype, st->ndim);
}

/* IndexError of TVM's Array access past the end (the ops that read args without a count
 * check). */
static int trx__arg_index_error(trx_call_t* call, int64_t i) {
  return tether_raise("IndexError", "Index %lld out of bounds %lld", (long long)i,
                      (long long)trx__call_nargs(call));
}

/* ---- unary predicates: isnan / isinf / isfinite ------------------------------------------------ */

/* Any dtype in, bool out, over the input's shape. */
TVMFFIObject* trx__infer_unary_predicate(const trx__op_def_t* def, trx_call_t* call) {
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  return trx__tensor_like(tt[0], trx__dtype_bool);
}

/* ---- zeros / ones ------------------------------------------------------------------------------ */

TVMFFIObject* trx__infer_zeros(const trx__op_def_t* def, trx_call_t* call) {
  (void)def;
  if (trx__call_nargs(call) != 1) {
    tether_raise("ValueError", "Ones/Zeros should have 1 argument");
    return NULL;
  }
  TVMFFIObject* shape = trx__call_arg(call, 0);
  TVMFFIObject* sty = trx__ty(shape);
  if (!trx_is(sty, TRX_SHAPE_TYPE)) {
    tether_raise("TypeError", "Ones/Zeros requires the input shape to be a Shape. However, the given one is %s",
                 trx__ty_key(sty));
    return NULL;
  }
  return trx__tensor_of_shape(shape, trx__init_dtype(call, trx__dtype_void));
}

/* ---- full -------------------------------------------------------------------------------------- */

/* The shape is checked before the fill value; the fill value must be a 0-d tensor (a PrimType
 * value is rejected too, printed as its type); dtype: the attrs', else the fill value's. */
TVMFFIObject* trx__infer_full(const trx__op_def_t* def, trx_call_t* call) {
  (void)def;
  if (trx__call_nargs(call) != 2) {
    tether_raise("ValueError", "Full op should have 2 arguments");
    return NULL;
  }
  TVMFFIObject* shape = trx__call_arg(call, 0);
  TVMFFIObject* sty = trx__ty(shape);
  if (!trx_is(sty, TRX_SHAPE_TYPE)) {
    tether_raise("TypeError", "Full requires the input shape to be a Shape. However, the given one is %s",
                 trx__ty_key(sty));
    return NULL;
  }
  TVMFFIObject* fty = trx__ty(trx__call_arg(call, 1));
  if (!trx_is(fty, TRX_TENSOR_TYPE) || ((trx_tensor_type_t*)fty)->ndim != 0) {
    trx__sb_t sb = {0};
    trx__sb_printf(&sb, "Full requires the input fill value to be zero rank Tensor. However, the given one is ");
    trx__sb_node(&sb, fty);
    trx__sb_raise(&sb, "ValueError");
    return NULL;
  }
  return trx__tensor_of_shape(shape, trx__init_dtype(call, trx_tensor_dtype((trx_tensor_type_t*)fty)));
}

/* ---- zeros_like / ones_like / full_like -------------------------------------------------------- */

TVMFFIObject* trx__infer_like(const trx__op_def_t* def, trx_call_t* call) {
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  return trx__tensor_like(tt[0], trx__init_dtype(call, trx_tensor_dtype(tt[0])));
}

TVMFFIObject* trx__infer_full_like(const trx__op_def_t* def, trx_call_t* call) {
  trx_tensor_type_t* tt[2];
  if (trx__check_args(def, call, 2, tt) != 0) return NULL;
  if (tt[1]->ndim != 0) {
    /* TVM's text has no space before the number. */
    tether_raise("ValueError",
                 "FullLike requires the input fill value to be zero rank Tensor. However, the given one has ndim%lld",
                 (long long)tt[1]->ndim);
    return NULL;
  }
  return trx__tensor_like(tt[0], trx__init_dtype(call, trx_tensor_dtype(tt[0])));
}

/* ---- eye / eye_like ---------------------------------------------------------------------------- */

/* A ShapeType dim must be an int64 expression (TVM's ShapeType constructor check). */
static int trx__check_shape_dim(TVMFFIObject* e) {
  if (trx__is_int64_expr(e)) return 0;
  return tether_raise("InternalError",
                      "Check failed: (value.ty().MatchesElementType(DLDataTypeCode::kDLInt, 64)) is "
                      "false: the value in ShapeType can only have dtype of int64");
}

TVMFFIObject* trx__infer_eye(const trx__op_def_t* def, trx_call_t* call) {
  (void)def;
  if (trx__call_nargs(call) != 3) {
    tether_raise("ValueError", "Eye op should have 3 arguments: n, m, and k, but got %lld arguments",
                 (long long)trx__call_nargs(call));
    return NULL;
  }
  TVMFFIObject* dims[2] = {trx__call_arg(call, 0), trx__call_arg(call, 1)};
  if (trx__check_shape_dim(dims[0]) != 0 || trx__check_shape_dim(dims[1]) != 0) return NULL;
  TVMFFIObject* d[2] = {trx__ref(dims[0]), trx__ref(dims[1])};
  return trx__tensor_from_dims_steal(d, 2, trx__init_dtype(call, trx__dtype_void));
}

/* TVM reads the input's shape before its ndim: a tensor without a shape fails with the
 * RuntimeError of an empty Optional, whatever its ndim. */
TVMFFIObject* trx__infer_eye_like(const trx__op_def_t* def, trx_call_t* call) {
  (void)def;
  if (trx__call_nargs(call) != 2) {
    tether_raise("ValueError", "Eye_like op should have 2 arguments: x and k, but got %lld arguments",
                 (long long)trx__call_nargs(call));
    return NULL;
  }
  TVMFFIObject* xty = trx__ty(trx__call_arg(call, 0));
  if (!trx_is(xty, TRX_TENSOR_TYPE)) {
    tether_raise("TypeError", "Eye_like expects the input `x` to be a Tensor, but got %s", trx__ty_key(xty));
    return NULL;
  }
  trx_tensor_type_t* tt = (trx_tensor_type_t*)xty;
  if (tt->shape == NULL) {
    tether_raise("RuntimeError", "Back optional access");
    return NULL;
  }
  if (tt->ndim != -1 && tt->ndim != 2) {
    tether_raise("ValueError", "Eye_like expects the input tensor to be 2-dimensional, but got %lld dimensions",
                 (long long)tt->ndim);
    return NULL;
  }
  return trx__tensor_like(tt, trx__init_dtype(call, trx_tensor_dtype(tt)));
}

/* ---- arange ------------------------------------------------------------------------------------ */

static DLDataType trx__prim_dtype(TVMFFIObject* e) {
  TVMFFIObject* ty = trx__ty(e);
  return trx_is(ty, TRX_PRIM_TYPE) ? ((trx_prim_type_t*)ty)->dtype : trx__dtype_void;
}

/* A constant as a double (IntImm or FloatImm). */
static bool trx__const_num(TVMFFIObject* e, double* out) {
  if (trx_is(e, TRX_INT_IMM)) {
    *out = (double)((trx_int_imm_t*)e)->value;
    return true;
  }
  if (trx_is(e, TRX_FLOAT_IMM)) {
    *out = ((trx_float_imm_t*)e)->value;
    return true;
  }
  return false;
}

/* The length of arange(start, end, step), as TVM computes it:
 *   all three int: floordiv(end - start + step - 1, step);
 *   otherwise:     int64(ceil((end - start) / step)) in floating point.
 * A zero step is TVM's InternalError of the division.  Shapes this arithmetic cannot
 * express (a symbolic float, or a symbolic int of another width, which TVM casts to int64)
 * leave the length unknown: *out NULL, no error. */
static int trx__arange_len(TVMFFIObject* start, TVMFFIObject* end, TVMFFIObject* step, TVMFFIObject** out) {
  *out = NULL;
  TVMFFIObject* v[3] = {start, end, step};
  bool all_int = true, all_int64 = true, all_const = true;
  double c[3] = {0, 0, 0};
  for (int i = 0; i < 3; ++i) {
    DLDataType t = trx__prim_dtype(v[i]);
    all_int = all_int && trx__dtype_is_int(t);
    all_int64 = all_int64 && trx__is_int64_expr(v[i]);
    all_const = all_const && trx__const_num(v[i], &c[i]);
  }
  if (trx__const_num(step, &c[2]) && c[2] == 0) {
    return tether_raise("InternalError", all_int ? "Check failed: pb->value != 0 (0 vs. 0) : Divide by zero"
                                                 : "Check failed: fb->value != 0 (0 vs. 0) : Divide by zero");
  }
  if (all_int64) {
    TVMFFIObject* one = trx_int64(1);
    TVMFFIObject* span = one ? trx_sub(end, start) : NULL;
    TVMFFIObject* s1 = span ? trx_sub(step, one) : NULL;
    TVMFFIObject* num = s1 ? trx_add(span, s1) : NULL;
    *out = num ? trx_floordiv(num, step) : NULL;
    if (one) TVMFFIObjectDecRef(one);
    if (span) TVMFFIObjectDecRef(span);
    if (s1) TVMFFIObjectDecRef(s1);
    if (num) TVMFFIObjectDecRef(num);
    return *out != NULL ? 0 : -1;
  }
  if (!all_const) return 0;
  double len;
  if (all_int) {
    len = floor((c[1] - c[0] + c[2] - 1) / c[2]);
  } else {
    len = ceil((c[1] - c[0]) / c[2]);
  }
  if (!(len >= -9.2e18 && len <= 9.2e18)) {
    return tether_raise("ValueError", "relax.arange: the length of arange(%g, %g, %g) does not fit in int64",
                        c[0], c[1], c[2]);
  }
  *out = trx_int64((int64_t)len);
  return *out != NULL ? 0 : -1;
}

TVMFFIObject* trx__infer_arange(const trx__op_def_t* def, trx_call_t* call) {
  (void)def;
  if (trx__call_nargs(call) != 3) {
    tether_raise("ValueError",
                 "Arange should have 3 arguments, which are `start`, `end` and `step`, but got %lld arguments",
                 (long long)trx__call_nargs(call));
    return NULL;
  }
  DLDataType dtype = trx__init_dtype(call, trx__dtype_void);
  TVMFFIObject* len = NULL;
  if (trx__arange_len(trx__call_arg(call, 0), trx__call_arg(call, 1), trx__call_arg(call, 2), &len) != 0)
    return NULL;
  if (len == NULL) return trx__tensor_unknown(dtype, 1);
  TVMFFIObject* d[1] = {len};
  return trx__tensor_from_dims_steal(d, 1, dtype);
}

/* ---- tril / triu ------------------------------------------------------------------------------- */

/* k is not checked (TVM accepts any PrimExpr, floats included); the input's type is returned. */
TVMFFIObject* trx__infer_tri(const trx__op_def_t* def, trx_call_t* call) {
  for (int64_t i = 0; i < 2; ++i) {
    if (i >= trx__call_nargs(call)) {
      trx__arg_index_error(call, i);
      return NULL;
    }
  }
  TVMFFIObject* x = trx__call_arg(call, 0);
  TVMFFIObject* xty = trx__ty(x);
  if (!trx_is(xty, TRX_TENSOR_TYPE)) {
    trx__sb_t sb = {0};
    trx__sb_op(&sb, def);
    trx__sb_printf(&sb, " requires that args[0] be a relax.TensorType, but was instead ");
    trx__sb_node(&sb, xty);
    trx__sb_printf(&sb, " of type %s", trx__ty_key(xty));
    trx__sb_raise(&sb, "TypeError");
    return NULL;
  }
  trx_tensor_type_t* tt = (trx_tensor_type_t*)xty;
  if (tt->ndim != -1 && tt->ndim < 2) {
    trx__sb_t sb = {0};
    trx__sb_op(&sb, def);
    trx__sb_printf(&sb,
                   " requires the input tensor to have at least two dimensions. However, the given "
                   "input has %lld dimension(s).",
                   (long long)tt->ndim);
    trx__sb_raise(&sb, "ValueError");
    return NULL;
  }
  return trx__ref(xty);
}

/* ---- shape_of / size --------------------------------------------------------------------------- */

/* TVM reads args[0] without a count check (an IndexError when there is none). */
static trx_tensor_type_t* trx__tensor_input(trx_call_t* call, const char* who) {
  if (trx__call_nargs(call) < 1) {
    trx__arg_index_error(call, 0);
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

/* The shape's values when it is a ShapeExpr (a shape Var gives only its ndim). */
TVMFFIObject* trx__infer_shape_of(const trx__op_def_t* def, trx_call_t* call) {
  (void)def;
  trx_tensor_type_t* tt = trx__tensor_input(call, "shape_of");
  if (tt == NULL) return NULL;
  TVMFFIObject* v = trx__shape_values(tt);
  return trx_shape_type_new(v, v != NULL ? -1 : tt->ndim);
}

TVMFFIObject* trx__infer_size(const trx__op_def_t* def, trx_call_t* call) {
  (void)def;
  if (trx__tensor_input(call, "size") == NULL) return NULL;
  return trx__tensor_from_dims_steal(NULL, 0, trx__dtype_int64);
}

/* ---- shape_to_tensor / tensor_to_shape --------------------------------------------------------- */

/* Tensor((ndim,), int64); an unknown ndim gives the dim -1, as in TVM. */
TVMFFIObject* trx__infer_shape_to_tensor(const trx__op_def_t* def, trx_call_t* call) {
  (void)def;
  if (trx__call_nargs(call) != 1) {
    tether_raise("InternalError", "Check failed: (call->args.size() == 1) is false: ");
    return NULL;
  }
  TVMFFIObject* ty = trx__ty(trx__call_arg(call, 0));
  if (!trx_is(ty, TRX_SHAPE_TYPE)) {
    tether_raise("InternalError", "Check failed: (ty) is false: ");
    return NULL;
  }
  TVMFFIObject* d[1] = {trx_int64(((trx_shape_type_t*)ty)->ndim)};
  return trx__tensor_from_dims_steal(d, 1, trx__dtype_int64);
}

/* A 1-d tensor of any dtype; the result's ndim is its length when that is a constant. */
TVMFFIObject* trx__infer_tensor_to_shape(const trx__op_def_t* def, trx_call_t* call) {
  (void)def;
  if (trx__call_nargs(call) != 1) {
    tether_raise("InternalError", "Check failed: (call->args.size() == 1) is false: ");
    return NULL;
  }
  TVMFFIObject* arg = trx__call_arg(call, 0);
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
  TVMFFIObject* v = trx__shape_values(tt);
  int64_t len = -1;
  if (v == NULL || !trx__const_i64(trx__dim(v, 0), &len)) len = -1;
  return trx_shape_type_new(NULL, len);
}

/* ---- call_tir / call_dps_packed ---------------------------------------------------------------- */

/* The output type the constructor recorded (ty_args[0]). */
static TVMFFIObject* trx__out_ty(trx_call_t* call) {
  if (call->ty_args == NULL || tether_array_size(call->ty_args) != 1) {
    tether_raise("InternalError", "ty_args should have exactly 1 output type.");
    return NULL;
  }
  return trx__ref(trx__array_obj(call->ty_args, 0));
}

/* The callee must be a GlobalVar typed as a function (tether has no TIR: a GlobalVar of any
 * FuncType is accepted, as TVM accepts one of a Relax function). */
TVMFFIObject* trx__infer_call_tir(const trx__op_def_t* def, trx_call_t* call) {
  if (trx__call_nargs(call) < 1) {
    trx__arg_index_error(call, 0);
    return NULL;
  }
  TVMFFIObject* callee = trx__call_arg(call, 0);
  if (!trx_is(callee, TRX_GLOBAL_VAR)) {
    trx__sb_t sb = {0};
    trx__sb_printf(&sb,
                   "Check failed: (call->args[0]->IsInstance<GlobalVarNode>()) is false: R.call_tir "
                   "expects the first argument to be a GlobalVar referring to a TIR PrimFunc. However, "
                   "the argument ");
    trx__sb_node(&sb, callee);
    trx__sb_printf(&sb, " instead has type %s", trx__ty_key(callee));
    trx__sb_raise(&sb, "InternalError");
    return NULL;
  }
  TVMFFIObject* fty = trx__ty(callee);
  if (!trx_is(fty, TRX_FUNC_TYPE)) {
    trx__sb_t sb = {0};
    trx__sb_printf(&sb, "Check failed: (callee->ty.as<FuncTypeNode>()) is false: Operation ");
    trx__sb_op(&sb, def);
    trx__sb_printf(&sb, " expects the first argument to be a TIR callee.  However, the first argument ");
    trx__sb_node(&sb, callee);
    trx__sb_printf(&sb, " has type ");
    if (fty == NULL) trx__sb_printf(&sb, "ir.Type(span=None)");
    else trx__sb_node(&sb, fty);
    trx__sb_raise(&sb, "InternalError");
    return NULL;
  }
  return trx__out_ty(call);
}

/* Any callee (an ExternFunc, a Var, a GlobalVar): the output type as given. */
TVMFFIObject* trx__infer_call_dps_packed(const trx__op_def_t* def, trx_call_t* call) {
  (void)def;
  return trx__out_ty(call);
}
