/*
 * create.c -- the creation ops: zeros, ones, full, zeros_like, ones_like, full_like, eye,
 * eye_like, arange, tril, triu.  Each op is a declaration at the end of the file (parameters
 * as TVM's Python signature, attrs type, inference, constructor-time check); rules and error
 * texts are apache-tvm 0.27's as observed, quirks included (each noted where it is made).
 */
#include "../op.h"

#include <math.h>

#include "../arith.h"

/* relax.attrs.InitAttrs: the dtype of the created tensor (None: the input's). */
#define TRX__INIT_FIELDS(F, T) F(T, dtype, ANY, "Optional<DataType>")
TRX_ATTRS_STRUCT(trx_init_attrs_t, TRX__INIT_FIELDS);
TRX_ATTRS_DECL(trx__init_attrs, "relax.attrs.InitAttrs", trx_init_attrs_t, TRX__INIT_FIELDS);

/* ---- shared pieces ---------------------------------------------------------------------------- */

/* The call's InitAttrs dtype, or `fallback` when it is None. */
static DLDataType trx__init_dtype(trx_call_t* call, DLDataType fallback) {
  const trx_init_attrs_t* a = (const trx_init_attrs_t*)call->attrs;
  if (a != NULL && a->dtype.type_index == kTVMFFIDataType) return a->dtype.v_dtype;
  return fallback;
}

/* The type key of a type (or "None"): TVM's messages name a type by its key. */
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

/* An expression of PrimType (an Imm, a prim op, a prim-typed Var). */
static bool trx__is_prim(TVMFFIObject* e) { return trx_is(trx__ty(e), TRX_PRIM_TYPE); }

/* The dims of a ShapeType must be int64 (TVM's ShapeType constructor checks it). */
static int trx__check_shape_dim(TVMFFIObject* e) {
  if (trx__is_int64_expr(e)) return 0;
  return tether_raise("InternalError",
                      "Check failed: (value.ty().MatchesElementType(DLDataTypeCode::kDLInt, 64)) is "
                      "false: the value in ShapeType can only have dtype of int64");
}

/* The shape argument of zeros / ones / full as TVM's wrapper takes it: a PrimExpr is refused
 * (TypeError of the wrapper). */
static int trx__check_shape_arg(const trx_op_def_t* def, TVMFFIObject** in, int64_t n, TVMFFIObject* attrs) {
  (void)def, (void)attrs;
  if (n >= 1 && trx__is_prim(in[0]))
    return tether_raise("TypeError", "shape must be a tuple/list or a Relax shape expression");
  return 0;
}

/* A Prim parameter of a hand-written constructor, as TVM's prim_value converts it: an int
 * becomes an IntImm int64 (a bool an IntImm bool), a float a FloatImm float64, a PrimExpr is
 * kept; anything else is the FFI's TypeError.  *out: new reference. */
static int trx__prim_arg(const trx_op_def_t* def, const TVMFFIAny* args, int32_t i, TVMFFIObject** out) {
  const TVMFFIAny* v = &args[i];
  *out = NULL;
  if (v->type_index == kTVMFFIInt) *out = trx_int_imm_new(trx__dtype_int64, v->v_int64);
  else if (v->type_index == kTVMFFIBool) *out = trx_int_imm_new(trx__dtype_bool, v->v_int64);
  else if (v->type_index == kTVMFFIFloat) *out = trx_float_imm_new((DLDataType){kDLFloat, 64, 1}, v->v_float64);
  else if (tether_any_is_object(v) && trx__is_prim(v->v_obj)) *out = trx__ref(v->v_obj);
  else
    return tether_raise("TypeError", "Mismatched type on argument #%d when calling: `%s`. Expected `%s` but got `%s`",
                        (int)i, def->fname, "ir.PrimExpr",
                        tether_any_is_object(v) ? tether_type_key(v->v_obj->type_index) : tether_any_type_key(v));
  return *out != NULL ? 0 : -1;
}

/* A Call of n stolen inputs with InitAttrs(dtype = args[di]) (allow_none: None allowed). */
static int trx__make_init_call(const trx_op_def_t* def, TVMFFIObject** in, int64_t n, const TVMFFIAny* args,
                               int32_t di, bool allow_none, TVMFFIObject** out) {
  trx_init_attrs_t* attrs = (trx_init_attrs_t*)trx__attrs_new(def);
  if (attrs == NULL || trx__arg_opt_dtype(def, args, di, allow_none, &attrs->dtype) != 0) {
    if (attrs != NULL) TVMFFIObjectDecRef((TVMFFIObject*)attrs);
    trx__release_objects(in, n);
    return -1;
  }
  return trx__make_call_steal(def, in, n, (TVMFFIObject*)attrs, out);
}

/* The shape argument (arg 0) of a call of `nargs` arguments, or NULL with TVM's ValueError
 * (count_text) or TypeError ("<who> requires the input shape to be a Shape. ..."). */
static TVMFFIObject* trx__shape_input(trx_call_t* call, int64_t nargs, const char* count_text, const char* who) {
  if (trx__call_nargs(call) != nargs) {
    tether_raise("ValueError", "%s", count_text);
    return NULL;
  }
  TVMFFIObject* shape = trx__call_arg(call, 0);
  TVMFFIObject* sty = trx__ty(shape);
  if (trx_is(sty, TRX_SHAPE_TYPE)) return shape;
  tether_raise("TypeError", "%s requires the input shape to be a Shape. However, the given one is %s", who,
               trx__ty_key(sty));
  return NULL;
}

/* ---- zeros / ones ------------------------------------------------------------------------------ */

static TVMFFIObject* trx__infer_zeros(const trx_op_def_t* def, trx_call_t* call) {
  (void)def;
  TVMFFIObject* shape = trx__shape_input(call, 1, "Ones/Zeros should have 1 argument", "Ones/Zeros");
  return shape != NULL ? trx__tensor_of_shape(shape, trx__init_dtype(call, trx__dtype_void)) : NULL;
}

/* ---- full -------------------------------------------------------------------------------------- */

/* The shape is checked before the fill value, which must be a 0-d tensor (a PrimType value is
 * refused too, shown as its type); dtype: the attrs', else the fill value's. */
static TVMFFIObject* trx__infer_full(const trx_op_def_t* def, trx_call_t* call) {
  (void)def;
  TVMFFIObject* shape = trx__shape_input(call, 2, "Full op should have 2 arguments", "Full");
  if (shape == NULL) return NULL;
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

static TVMFFIObject* trx__infer_like(const trx_op_def_t* def, trx_call_t* call) {
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  return trx__tensor_like(tt[0], trx__init_dtype(call, trx_tensor_dtype(tt[0])));
}

static TVMFFIObject* trx__infer_full_like(const trx_op_def_t* def, trx_call_t* call) {
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

/* eye(n, m=None, k=0, dtype="float32"): m defaults to n. */
static int trx__make_eye(const trx_op_def_t* def, const TVMFFIAny* args, int32_t n, TVMFFIObject** out) {
  (void)n;
  TVMFFIObject* in[3] = {NULL, NULL, NULL};
  *out = NULL;
  if (trx__prim_arg(def, args, 0, &in[0]) != 0) goto fail;
  if (args[1].type_index == kTVMFFINone) in[1] = trx__ref(in[0]);
  else if (trx__prim_arg(def, args, 1, &in[1]) != 0) goto fail;
  if (trx__prim_arg(def, args, 2, &in[2]) != 0) goto fail;
  return trx__make_init_call(def, in, 3, args, 3, false, out);
fail:
  trx__release_objects(in, 3);
  return -1;
}

static TVMFFIObject* trx__infer_eye(const trx_op_def_t* def, trx_call_t* call) {
  (void)def;
  if (trx__call_nargs(call) != 3) {
    tether_raise("ValueError", "Eye op should have 3 arguments: n, m, and k, but got %lld arguments",
                 (long long)trx__call_nargs(call));
    return NULL;
  }
  TVMFFIObject* n = trx__call_arg(call, 0);
  TVMFFIObject* m = trx__call_arg(call, 1);
  if (trx__check_shape_dim(n) != 0 || trx__check_shape_dim(m) != 0) return NULL;
  TVMFFIObject* d[2] = {trx__ref(n), trx__ref(m)};
  return trx__tensor_from_dims_steal(d, 2, trx__init_dtype(call, trx__dtype_void));
}

/* A 2-d (or unknown-ndim) tensor without a shape fails with the RuntimeError of TVM reading
 * an empty Optional. */
static TVMFFIObject* trx__infer_eye_like(const trx_op_def_t* def, trx_call_t* call) {
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
  if (tt->ndim != -1 && tt->ndim != 2) {
    tether_raise("ValueError", "Eye_like expects the input tensor to be 2-dimensional, but got %lld dimensions",
                 (long long)tt->ndim);
    return NULL;
  }
  if (tt->shape == NULL) {
    tether_raise("RuntimeError", "Back optional access");
    return NULL;
  }
  return trx__tensor_like(tt, trx__init_dtype(call, trx_tensor_dtype(tt)));
}

/* ---- arange ------------------------------------------------------------------------------------ */

/* An argument TVM's wrapper counts as an integer: a Python int (or bool), or a PrimExpr of an
 * int dtype. */
static bool trx__arange_int_arg(const TVMFFIAny* v) {
  if (v->type_index == kTVMFFIInt || v->type_index == kTVMFFIBool) return true;
  if (!tether_any_is_object(v) || !trx__is_prim(v->v_obj)) return false;
  return ((trx_prim_type_t*)trx__ty(v->v_obj))->dtype.code == kDLInt;
}

/* arange(start, end=None, step=1, dtype=None): with one bound it is the end (start 0); no
 * dtype means int64 when the three are integers, else float32. */
static int trx__make_arange(const trx_op_def_t* def, const TVMFFIAny* args, int32_t n, TVMFFIObject** out) {
  (void)n;
  TVMFFIAny a[4] = {args[0], args[1], args[2], args[3]};
  TVMFFIObject* in[3] = {NULL, NULL, NULL};
  *out = NULL;
  if (a[1].type_index == kTVMFFINone) {
    a[1] = args[0];
    a[0] = tether_any_int(0);
  }
  if (a[3].type_index == kTVMFFINone) {
    bool all_int = trx__arange_int_arg(&a[0]) && trx__arange_int_arg(&a[1]) && trx__arange_int_arg(&a[2]);
    a[3] = tether_any_dtype(all_int ? trx__dtype_int64 : (DLDataType){kDLFloat, 32, 1});
  }
  for (int32_t i = 0; i < 3; ++i) {
    if (trx__prim_arg(def, a, i, &in[i]) != 0) {
      trx__release_objects(in, 3);
      return -1;
    }
  }
  return trx__make_init_call(def, in, 3, a, 3, false, out);
}

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
 * A zero step is TVM's InternalError of the division.  Lengths this arithmetic cannot
 * express (a symbolic float, or a symbolic int of another width, which TVM casts to int64)
 * are left unknown: *out NULL, no error. */
static int trx__arange_len(TVMFFIObject* start, TVMFFIObject* end, TVMFFIObject* step, TVMFFIObject** out) {
  TVMFFIObject* v[3] = {start, end, step};
  bool all_int = true, all_int64 = true, all_const = true;
  double c[3] = {0, 0, 0};
  *out = NULL;
  for (int i = 0; i < 3; ++i) {
    all_int = all_int && trx__dtype_is_int(trx__prim_dtype(v[i]));
    all_int64 = all_int64 && trx__is_int64_expr(v[i]);
    all_const = trx__const_num(v[i], &c[i]) && all_const;
  }
  double st;
  if (trx__const_num(step, &st) && st == 0) {
    return tether_raise("InternalError", all_int ? "Check failed: pb->value != 0 (0 vs. 0) : Divide by zero"
                                                 : "Check failed: fb->value != 0 (0 vs. 0) : Divide by zero");
  }
  if (all_int64) {
    trx__scope_t s = TRX__SCOPE_INIT;
    TVMFFIObject* num = trx__s_add(&s, trx__s_sub(&s, end, start), trx__s_sub(&s, step, trx__s_int(&s, 1)));
    *out = trx__scope_keep(&s, trx__s_floordiv(&s, num, step));
    trx__scope_end(&s);
    return *out != NULL ? 0 : -1;
  }
  if (!all_const) return 0;
  double len = all_int ? floor((c[1] - c[0] + c[2] - 1) / c[2]) : ceil((c[1] - c[0]) / c[2]);
  if (!(len >= -9.2e18 && len <= 9.2e18)) {
    return tether_raise("ValueError", "relax.arange: the length of arange(%g, %g, %g) does not fit in int64", c[0],
                        c[1], c[2]);
  }
  *out = trx_int64((int64_t)len);
  return *out != NULL ? 0 : -1;
}

static TVMFFIObject* trx__infer_arange(const trx_op_def_t* def, trx_call_t* call) {
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

/* k is not checked (TVM accepts any PrimExpr, a float too); the input's type is returned.
 * TVM reads args[0] and args[1] without a count check (IndexError past the end). */
static TVMFFIObject* trx__infer_tri(const trx_op_def_t* def, trx_call_t* call) {
  int64_t nargs = trx__call_nargs(call);
  if (nargs < 2) {
    tether_raise("IndexError", "Index %lld out of bounds %lld", (long long)nargs, (long long)nargs);
    return NULL;
  }
  TVMFFIObject* xty = trx__ty(trx__call_arg(call, 0));
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

/* ---- declarations ------------------------------------------------------------------------------------ */
#define TRX__A_SHAPE "shape|Shape|The shape of the created tensor."
#define TRX__A_X "x|Tensor|The input tensor."
#define TRX__A_K "k|PrimExpr|Index of the diagonal."

TRX__OPS(create){
    {.name = "full", .params = "shape: Shape, fill_value: Expr, dtype: dtype? = None",
     .arguments = TRX__A_SHAPE "\nfill_value|Tensor|The scalar tensor, denoting the value to fill.",
     .attrs = &trx__init_attrs, .infer = trx__infer_full, .check = trx__check_shape_arg,
     .signature = "(0: Variant<ir.Expr, Array<ir.Expr>>, 1: ir.Expr, 2: Optional<DataType>) -> ir.Expr",
     .doc = "A tensor of the given shape filled with the 0-d fill_value (dtype: fill_value's by default)."},
    {.name = "full_like", .params = "x: Expr, fill_value: Expr, dtype: dtype? = None",
     .arguments = TRX__A_X "\nfill_value|Tensor|The scalar value to fill.", .attrs = &trx__init_attrs,
     .infer = trx__infer_full_like, .doc = "A tensor shaped like x filled with the 0-d fill_value."},
    {.name = "ones", .params = "shape: Shape, dtype: dtype", .arguments = TRX__A_SHAPE, .attrs = &trx__init_attrs,
     .infer = trx__infer_zeros, .check = trx__check_shape_arg, .signature = "(0: ir.Expr, 1: DataType) -> ir.Expr",
     .doc = "A tensor of ones of the given shape and dtype."},
    {.name = "ones_like", .params = "x: Expr, dtype: dtype? = None", .arguments = TRX__A_X, .attrs = &trx__init_attrs,
     .infer = trx__infer_like, .doc = "A tensor of ones shaped like x (dtype: x's by default)."},
    {.name = "zeros", .params = "shape: Shape, dtype: dtype", .arguments = TRX__A_SHAPE, .attrs = &trx__init_attrs,
     .infer = trx__infer_zeros, .check = trx__check_shape_arg, .signature = "(0: ir.Expr, 1: DataType) -> ir.Expr",
     .doc = "A tensor of zeros of the given shape and dtype."},
    {.name = "zeros_like", .params = "x: Expr, dtype: dtype? = None", .arguments = TRX__A_X,
     .attrs = &trx__init_attrs, .infer = trx__infer_like,
     .doc = "A tensor of zeros shaped like x (dtype: x's by default)."},
    {.name = "eye", .params = "n: Prim, m: Expr? = None, k: Prim = 0, dtype: dtype = 'float32'",
     .arguments = "n|PrimExpr|Number of rows in the output.\nm|PrimExpr|Number of columns in the output.\n" TRX__A_K,
     .attrs = &trx__init_attrs, .infer = trx__infer_eye, .make = trx__make_eye,
     .signature = "(0: ir.Expr, 1: ir.Expr, 2: ir.Expr, 3: DataType) -> ir.Expr",
     .doc = "An n x m matrix with ones on diagonal k (m defaults to n)."},
    {.name = "eye_like", .params = "x: Expr, k: Prim = 0, dtype: dtype? = None", .arguments = TRX__A_X "\n" TRX__A_K,
     .attrs = &trx__init_attrs, .infer = trx__infer_eye_like,
     .signature = "(0: ir.Expr, 1: ir.Expr, 2: Optional<DataType>) -> ir.Expr",
     .doc = "A matrix shaped like the 2-d x with ones on diagonal k."},
    {.name = "arange", .params = "start: Prim, end: Expr? = None, step: Prim = 1, dtype: dtype? = None",
     .arguments = "start|PrimExpr|The starting value for the set of points.\nend|PrimExpr|The ending value for the "
                  "set of points.\nstep|PrimExpr|The gap between each pair of adjacent points.",
     .attrs = &trx__init_attrs, .infer = trx__infer_arange, .make = trx__make_arange,
     .signature = "(0: ir.Expr, 1: ir.Expr, 2: ir.Expr, 3: DataType) -> ir.Expr",
     .doc = "Evenly spaced values in [start, end) (one bound: [0, start)); dtype int64 for integer bounds, "
            "else float32, by default."},
    {.name = "tril", .params = "x: Expr, k: Prim = 0",
     .arguments = TRX__A_X "\nk|PrimExpr|The offset of the diagonal.", .infer = trx__infer_tri,
     .signature = "(0: ir.Expr, 1: ir.Expr) -> ir.Expr",
     .doc = "The lower triangle of x's last two dims (below diagonal k), the rest zero."},
    {.name = "triu", .params = "x: Expr, k: Prim = 0",
     .arguments = TRX__A_X "\nk|PrimExpr|The offset of the diagonal.", .infer = trx__infer_tri,
     .signature = "(0: ir.Expr, 1: ir.Expr) -> ir.Expr",
     .doc = "The upper triangle of x's last two dims (above diagonal k), the rest zero."},
};
TRX__OPS_END(create);
