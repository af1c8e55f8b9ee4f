/*
 * core.c -- calls in destination-passing style: call_tir and call_dps_packed.  tether has no
 * TIR, so call_tir takes the forms that need no PrimFunc: a GlobalVar whose type is a
 * FuncType (TVM types the call from its out_ty alone, whatever the callee's FuncType is).
 * The output types ride in the Call's ty_args, as in TVM.  Rules and error texts are
 * apache-tvm 0.27's as observed.
 */
#include "../op.h"

/* ---- the constructors -------------------------------------------------------------------------- */

/* The args parameter as TVM's wrapper wraps it: a list/tuple becomes a relax.Tuple, an Expr that
 * is neither a Tuple nor typed as one becomes a 1-tuple, a Tuple is kept; anything else (a Var of
 * TupleType) is the FFI's TypeError (the global takes an ir.Tuple).  *out: new reference. */
static int trx__dps_args(const trx_op_def_t* def, const TVMFFIAny* args, TVMFFIObject** out) {
  const TVMFFIAny* v = &args[1];
  TVMFFIObject* arr = NULL;
  *out = NULL;
  if (v->type_index == kTVMFFIArray || v->type_index == kTVMFFIList) {
    bool is_list = v->type_index == kTVMFFIList;
    int64_t n = is_list ? tether_list_size(v->v_obj) : tether_array_size(v->v_obj);
    if ((arr = trx__empty_array()) == NULL) return -1;
    for (int64_t i = 0; i < n; ++i) {
      TVMFFIAny item = *(is_list ? tether_list_at(v->v_obj, i) : tether_array_at(v->v_obj, i));
      TVMFFIObject* e = NULL;
      if (trx__arg_expr(def, &item, 0, &e) != 0 || trx__array_push_obj(&arr, e) != 0) {
        if (e != NULL) TVMFFIObjectDecRef(e);
        TVMFFIObjectDecRef(arr);
        return -1;
      }
      TVMFFIObjectDecRef(e);
    }
  } else if (tether_any_is_object(v) && trx_is(v->v_obj, TRX_TUPLE)) {
    *out = trx__ref(v->v_obj);
    return 0;
  } else if (tether_any_is_object(v) && trx_is(v->v_obj, TRX_EXPR) && !trx_is(trx__ty(v->v_obj), TRX_TUPLE_TYPE)) {
    if ((arr = trx__array_of(&v->v_obj, 1)) == NULL) return -1;
  } else {
    return tether_raise("TypeError", "Mismatched type on argument #1 when calling: `%s`. Expected `ir.Tuple` but got `%s`",
                        def->fname,
                        tether_any_is_object(v) ? tether_type_key(v->v_obj->type_index) : tether_any_type_key(v));
  }
  *out = trx_tuple_new(arr);
  TVMFFIObjectDecRef(arr);
  return *out != NULL ? 0 : -1;
}

/* out_ty: a TensorType or a list of them, each with a ShapeExpr shape (TVM's constructor
 * checks it).  *out: new Array<Type> of one type -- the TensorType, or the TupleType of a
 * list of several. */
static int trx__dps_out_ty(const trx_op_def_t* def, const TVMFFIAny* args, TVMFFIObject** out) {
  const TVMFFIAny* v = &args[2];
  TVMFFIObject* small[8];
  TVMFFIObject** tys = small;
  int64_t n = 1;
  bool list = v->type_index == kTVMFFIArray || v->type_index == kTVMFFIList;
  int rc = -1;
  *out = NULL;
  if (list) {
    bool is_list = v->type_index == kTVMFFIList;
    n = is_list ? tether_list_size(v->v_obj) : tether_array_size(v->v_obj);
    if (n > 8 && (tys = calloc((size_t)n, sizeof(TVMFFIObject*))) == NULL) return tether_raise("MemoryError", "%s: out of memory", def->fname);
    for (int64_t i = 0; i < n; ++i) {
      const TVMFFIAny* e = is_list ? tether_list_at(v->v_obj, i) : tether_array_at(v->v_obj, i);
      tys[i] = tether_any_is_object(e) ? e->v_obj : NULL;
      if (!trx_is(tys[i], TRX_TENSOR_TYPE)) {
        tether_raise("TypeError",
                     "Mismatched type on argument #2 when calling: `%s`. Expected `Array<relax.TensorType>` but got "
                     "`Array[index %lld: %s]`",
                     def->fname, (long long)i, tys[i] != NULL ? tether_type_key(tys[i]->type_index) : tether_any_type_key(e));
        goto done;
      }
    }
  } else {
    /* TVM's wrapper makes a single type a list of one first. */
    tys[0] = tether_any_is_object(v) ? v->v_obj : NULL;
    if (!trx_is(tys[0], TRX_TENSOR_TYPE)) {
      tether_raise("TypeError",
                   "Mismatched type on argument #2 when calling: `%s`. Expected `Array<relax.TensorType>` but got "
                   "`Array[index 0: %s]`",
                   def->fname, tys[0] != NULL ? tether_type_key(tys[0]->type_index) : tether_any_type_key(v));
      goto done;
    }
  }
  for (int64_t i = 0; i < n; ++i) {
    if (!trx_is(((trx_tensor_type_t*)tys[i])->shape, TRX_SHAPE_EXPR)) {
      trx__sb_t sb = {0};
      trx__sb_printf(&sb,
                     "Check failed: (shape != nullptr) is false: out_ty of %s should have defined ShapeExpr as shape. "
                     "However, one given type information is ",
                     def->name);
      trx__sb_node(&sb, tys[i]);
      trx__sb_raise(&sb, "InternalError");
      goto done;
    }
  }
  {
    TVMFFIObject* ty = n == 1 ? trx__ref(tys[0]) : trx__tuple_type_of(tys, n);
    if (ty == NULL) goto done;
    *out = trx__array_of(&ty, 1);
    TVMFFIObjectDecRef(ty);
    rc = *out != NULL ? 0 : -1;
  }
done:
  if (tys != small) free(tys);
  return rc;
}

/* call_tir(gvar, args, out_ty) / call_dps_packed(func, args, out_ty): the callee (a str is
 * an ExternFunc of that symbol, for call_dps_packed), the args Tuple, out_ty in ty_args. */
static int trx__make_dps(const trx_op_def_t* def, const TVMFFIAny* args, int32_t n, TVMFFIObject** out) {
  (void)n;
  TVMFFIObject* in[2] = {NULL, NULL};
  TVMFFIObject* ty_args = NULL;
  TVMFFIObject* arr = NULL;
  TVMFFIByteArray sym;
  *out = NULL;
  bool packed = strcmp(def->name, "call_dps_packed") == 0; /* its wrapper makes a str an ExternFunc */
  if (packed && tether_any_get_str(&args[0], &sym)) {
    if ((in[0] = trx_extern_func_new(sym.data, sym.size, NULL)) == NULL) goto fail;
  } else if (trx__arg_expr(def, args, 0, &in[0]) != 0) {
    goto fail;
  }
  if (trx__dps_args(def, args, &in[1]) != 0 || trx__dps_out_ty(def, args, &ty_args) != 0) goto fail;
  if ((arr = trx__array_of(in, 2)) == NULL) goto fail;
  trx__release_objects(in, 2);
  *out = trx__call_new_steal(trx_op_def_op(def), arr, NULL, ty_args);
  return *out != NULL ? 0 : -1;
fail:
  trx__release_objects(in, 2);
  if (ty_args != NULL) TVMFFIObjectDecRef(ty_args);
  return -1;
}

/* ---- inference --------------------------------------------------------------------------------- */

/* The output type the constructor recorded (ty_args[0]). */
static TVMFFIObject* trx__dps_out(trx_call_t* call) {
  if (call->ty_args == NULL || tether_array_size(call->ty_args) != 1) {
    tether_raise("InternalError", "ty_args should have exactly 1 output type.");
    return NULL;
  }
  return trx__ref(trx__array_obj(call->ty_args, 0));
}

/* The callee must be a GlobalVar typed as a function. */
static TVMFFIObject* trx__infer_call_tir(const trx_op_def_t* def, trx_call_t* call) {
  if (trx__call_nargs(call) < 1) {
    tether_raise("IndexError", "Index 0 out of bounds 0");
    return NULL;
  }
  TVMFFIObject* callee = trx__call_arg(call, 0);
  if (!trx_is(callee, TRX_GLOBAL_VAR)) {
    trx__sb_t sb = {0};
    trx__sb_printf(&sb,
                   "Check failed: (call->args[0]->IsInstance<GlobalVarNode>()) is false: R.call_tir "
                   "expects the first argument to be a GlobalVar referring to a TIR PrimFunc. However, "
                   "the argument ");
    if (trx_is(callee, TRX_STRING_IMM)) { /* TVM shows a StringImm as its quoted text */
      TVMFFIByteArray text = trx__str(&((trx_string_imm_t*)callee)->value);
      trx__sb_printf(&sb, "\"%.*s\"", (int)text.size, text.data);
    } else {
      trx__sb_node(&sb, callee);
    }
    trx__sb_printf(&sb, " instead has type %s", tether_type_key(callee->type_index));
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
    /* an untyped GlobalVar: TVM shows the empty Type it holds */
    if (fty == NULL) trx__sb_printf(&sb, "ir.Type(span=None)");
    else trx__sb_node(&sb, fty);
    trx__sb_raise(&sb, "InternalError");
    return NULL;
  }
  return trx__dps_out(call);
}

/* Any callee (an ExternFunc, a Var, a GlobalVar): the output type as given. */
static TVMFFIObject* trx__infer_call_dps_packed(const trx_op_def_t* def, trx_call_t* call) {
  (void)def;
  return trx__dps_out(call);
}

/* ---- declarations ------------------------------------------------------------------------------------ */
#define TRX__A_DPS \
  "func|Expr|The destination-passing-style function.\nargs|Tuple|The input arguments."
#define TRX__SIG_DPS "(0: ir.Expr, 1: ir.Tuple, 2: Array<relax.TensorType>) -> ir.Expr"

TRX__OPS(core){
    {.name = "call_tir", .params = "gvar: Expr, args: Expr, out_ty: Any", .arguments = TRX__A_DPS,
     .infer = trx__infer_call_tir, .make = trx__make_dps, .signature = TRX__SIG_DPS,
     .doc = "Calls the function gvar refers to in destination-passing style; the result has type out_ty "
            "(a TensorType, or a tuple of them for a list)."},
    {.name = "call_dps_packed", .params = "func: Expr, args: Expr, out_ty: Any", .arguments = TRX__A_DPS,
     .infer = trx__infer_call_dps_packed, .make = trx__make_dps, .signature = TRX__SIG_DPS,
     .doc = "Calls a packed function (a str names an ExternFunc) in destination-passing style; the result "
            "has type out_ty."},
};
TRX__OPS_END(core);
