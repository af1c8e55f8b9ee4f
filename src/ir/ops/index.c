/*
 * index.c -- indexing: strided_slice, take.  Each op is a declaration at the end of the file (parameters as TVM's
 * Python signature, attrs type, inference, constructor-time check); rules and error texts
 * are TVM's (relax.md section 1, and what apache-tvm 0.27 does where the spec is silent).
 */
#include "../op.h"

#include "../arith.h"

#define TRX__STRIDED_SLICE_FIELDS(F, T) F(T, assume_inbound, BOOL, "bool")
TRX_ATTRS_STRUCT(trx_strided_slice_attrs_t, TRX__STRIDED_SLICE_FIELDS);
TRX_ATTRS_DECL(trx__strided_slice_attrs, "relax.attrs.StridedSliceAttrs", trx_strided_slice_attrs_t,
               TRX__STRIDED_SLICE_FIELDS);

#define TRX__TAKE_FIELDS(F, T)              \
  F(T, axis, OPT_INT64, "Optional<int>")    \
  F(T, mode, STRING, "ffi.String")
TRX_ATTRS_STRUCT(trx_take_attrs_t, TRX__TAKE_FIELDS);
TRX_ATTRS_DECL(trx__take_attrs, "relax.attrs.TakeAttrs", trx_take_attrs_t, TRX__TAKE_FIELDS);

/* ---- strided_slice ---------------------------------------------------------------------------------------------- */

/* The number of elements of a Tuple expr argument, or -1 if it is not a Tuple. */
static int64_t trx__tuple_len(TVMFFIObject* e) {
  return trx_is(e, TRX_TUPLE) ? tether_array_size(((trx_tuple_t*)e)->fields) : -1;
}


/* axes, begin, end and strides given as tuples must have one length (TVM checks it when
 * the Call is made). */
static int trx__check_strided_slice(const trx_op_def_t* def, TVMFFIObject** args, int64_t nargs,
                                    TVMFFIObject* attrs) {
  static const char* const names[] = {"x", "axes", "begin", "end", "strides"};
  (void)def, (void)attrs;
  int64_t prev = -1;
  for (int64_t i = 1; i < nargs && i < 5; ++i) {
    int64_t len = trx__tuple_len(args[i]);
    if (len < 0) continue;
    if (prev >= 0 && len != trx__tuple_len(args[prev])) {
      trx__sb_t sb = {0};
      trx__sb_printf(&sb,
                     "Check failed: length == std::get<size_t>(prev) (%lld vs. %lld) : The "
                     "strided_slice operator requires that the axes, begin, end, and strides tuples "
                     "are all the same length.  However, the %s argument (",
                     (long long)len, (long long)trx__tuple_len(args[prev]), names[prev]);
      trx__sb_node(&sb, args[prev]);
      trx__sb_printf(&sb, ") has %lld elements, while the %s argument (",
                     (long long)trx__tuple_len(args[prev]), names[i]);
      trx__sb_node(&sb, args[i]);
      trx__sb_printf(&sb, ") has %lld elements.", (long long)len);
      return trx__sb_raise(&sb, "InternalError");
    }
    if (prev < 0) prev = i;
  }
  return 0;
}

static bool trx__is_int64_tuple_type(TVMFFIObject* ty) {
  if (!trx_is(ty, TRX_TUPLE_TYPE)) return false;
  TVMFFIObject* f = ((trx_tuple_type_t*)ty)->fields;
  for (int64_t i = 0, n = tether_array_size(f); i < n; ++i) {
    TVMFFIObject* t = trx__array_obj(f, i);
    if (!trx_is(t, TRX_PRIM_TYPE) || !trx__dtype_equal(((trx_prim_type_t*)t)->dtype, trx__dtype_int64))
      return false;
  }
  return true;
}

/* Length of the slice [b:e:s] of an axis of length `len` (new reference). */
static TVMFFIObject* trx__slice_len(TVMFFIObject* len, int64_t b, int64_t e, int64_t s, bool inbound) {
  int64_t n;
  bool known = trx_as_const_int(len, &n);
  if (inbound) {
    int64_t num = s > 0 ? e - b + s - 1 : b - e - s - 1;
    int64_t st = s > 0 ? s : -s;
    return trx_int64(num / st > 0 ? num / st : 0);
  }
  if (known) {
    int64_t lo, hi, count;
    if (s > 0) {
      lo = b < 0 ? (b + n < 0 ? 0 : b + n) : (b > n ? n : b);
      hi = e < 0 ? (e + n < 0 ? 0 : e + n) : (e > n ? n : e);
      count = hi > lo ? (hi - lo + s - 1) / s : 0;
    } else {
      lo = b < 0 ? (b + n < -1 ? -1 : b + n) : (b > n - 1 ? n - 1 : b);
      hi = e < 0 ? (e + n < -1 ? -1 : e + n) : (e > n - 1 ? n - 1 : e);
      count = lo > hi ? (lo - hi + (-s) - 1) / (-s) : 0;
    }
    return trx_int64(count);
  }
  if (s <= 0 || b < 0 || e < 0) return NULL; /* left symbolic-unknown */
  /* ceildiv(min(e, len) - min(b, len), s) */
  trx__scope_t sc = TRX__SCOPE_INIT;
  TVMFFIObject* d = trx__s_sub(&sc, trx__s_min(&sc, trx__s_int(&sc, e), len), trx__s_min(&sc, trx__s_int(&sc, b), len));
  TVMFFIObject* r = s == 1 ? d : trx__s_floordiv(&sc, trx__s_add(&sc, d, trx__s_int(&sc, s - 1)), trx__s_int(&sc, s));
  r = trx__scope_keep(&sc, r);
  trx__scope_end(&sc);
  return r;
}

static TVMFFIObject* trx__infer_strided_slice(const trx_op_def_t* def, trx_call_t* call) {
  trx_strided_slice_attrs_t* attrs = (trx_strided_slice_attrs_t*)call->attrs;
  static const char* const names[] = {"x", "axes", "begin", "end", "strides"};
  int64_t nargs = trx__call_nargs(call);
  if (nargs != 4 && nargs != 5) {
    tether_raise("ValueError", "%s expects 4 or 5 arguments, but was called with %lld arguments",
                 def->full_name, (long long)nargs);
    return NULL;
  }
  TVMFFIObject* xty = trx__ty(trx__call_arg(call, 0));
  if (!trx_is(xty, TRX_TENSOR_TYPE)) {
    trx__sb_t sb = {0};
    trx__sb_printf(&sb,
                   "Check failed: (IsBaseOf(relax::TensorType(std::nullopt, kUnknownNDim), "
                   "GetType(data))) is false: Operator ");
    trx__sb_op(&sb, def);
    trx__sb_printf(&sb, " requires the first argument to be a tensor.  However, in expression ");
    trx__sb_node(&sb, (TVMFFIObject*)call);
    trx__sb_printf(&sb, ", the first argument ");
    trx__sb_node(&sb, trx__call_arg(call, 0));
    trx__sb_printf(&sb, " has type ");
    trx__sb_node(&sb, xty);
    trx__sb_raise(&sb, "InternalError");
    return NULL;
  }
  for (int64_t i = 1; i < nargs; ++i) {
    TVMFFIObject* arg = trx__call_arg(call, i);
    TVMFFIObject* ty = trx__ty(arg);
    if (!trx__is_int64_tuple_type(ty)) {
      trx__sb_t sb = {0};
      trx__sb_printf(&sb, "Check failed: (is_base_of_tuple_of_int64(ty)) is false: Operator ");
      trx__sb_op(&sb, def);
      trx__sb_printf(&sb, " requires the %s argument to be a tuple of int64 PrimExpr values.  However, in expression ",
                     names[i]);
      trx__sb_node(&sb, (TVMFFIObject*)call);
      trx__sb_printf(&sb, ", the %s argument ", names[i]);
      trx__sb_node(&sb, arg);
      trx__sb_printf(&sb, " has type ");
      trx__sb_node(&sb, ty);
      trx__sb_raise(&sb, "InternalError");
      return NULL;
    }
  }
  trx_tensor_type_t* tt = (trx_tensor_type_t*)xty;
  if (tt->ndim == -1) return trx__tensor_unknown(trx_tensor_dtype(tt), -1);
  /* As TVM: without a known shape the axes are not even range-checked (observed in 0.27). */
  if (tt->shape == NULL || !trx_is(tt->shape, TRX_SHAPE_EXPR)) return trx__tensor_unknown(trx_tensor_dtype(tt), tt->ndim);
  TVMFFIObject* axes = trx__call_arg(call, 1);
  if (!trx_is(axes, TRX_TUPLE)) return trx__tensor_unknown(trx_tensor_dtype(tt), tt->ndim);
  TVMFFIObject* af = ((trx_tuple_t*)axes)->fields;
  int64_t na = tether_array_size(af);
  for (int64_t i = 0; i < na; ++i) {
    int64_t c = 0;
    if (!trx_as_const_int(trx__array_obj(af, i), &c)) {
      return trx__tensor_unknown(trx_tensor_dtype(tt), tt->ndim);
    }
  }
  /* range and repetition, with TVM's texts (the fields are IntImms) */
  int64_t* ax = NULL;
  if (trx__normalize_axes(def, tt->ndim, af, &ax) != 0) return NULL;
  TVMFFIObject* v = trx__shape_type_values(tt);
  TVMFFIObject* ty = NULL;
  TVMFFIObject** d = NULL;
  if (v == NULL) {
    ty = trx__tensor_unknown(trx_tensor_dtype(tt), tt->ndim);
    goto done;
  }
  d = trx__dims_new(tt->ndim);
  if (d == NULL) goto done;
  for (int64_t i = 0; i < tt->ndim; ++i) d[i] = trx__ref(trx__dim(v, i));
  for (int64_t i = 0; i < na; ++i) {
    int64_t b, e, s = 1;
    TVMFFIObject* bt = trx__call_arg(call, 2);
    TVMFFIObject* et = trx__call_arg(call, 3);
    TVMFFIObject* st = nargs == 5 ? trx__call_arg(call, 4) : NULL;
    bool consts = trx_is(bt, TRX_TUPLE) && trx_is(et, TRX_TUPLE) && (st == NULL || trx_is(st, TRX_TUPLE)) &&
                  trx_as_const_int(trx__array_obj(((trx_tuple_t*)bt)->fields, i), &b) &&
                  trx_as_const_int(trx__array_obj(((trx_tuple_t*)et)->fields, i), &e) &&
                  (st == NULL || trx_as_const_int(trx__array_obj(((trx_tuple_t*)st)->fields, i), &s));
    if (consts && s == 0) {
      tether_raise("InternalError", "Check failed: pb->value != 0 (0 vs. 0) : Divide by zero");
      goto done;
    }
    TVMFFIObject* len = consts ? trx__slice_len(d[ax[i]], b, e, s, attrs->assume_inbound) : NULL;
    if (len == NULL) {
      trx__clear_error();
      trx__dims_free(d, tt->ndim);
      d = NULL;
      ty = trx__tensor_unknown(trx_tensor_dtype(tt), tt->ndim);
      goto done;
    }
    TVMFFIObjectDecRef(d[ax[i]]);
    d[ax[i]] = len;
  }
  ty = trx__tensor_steal_free(d, tt->ndim, trx_tensor_dtype(tt));
  d = NULL;
done:
  trx__dims_free(d, tt->ndim);
  free(ax);
  return ty;
}

/* ---- take --------------------------------------------------------------------------------------------------------- */


static TVMFFIObject* trx__infer_take(const trx_op_def_t* def, trx_call_t* call) {
  trx_take_attrs_t* attrs = (trx_take_attrs_t*)call->attrs;
  trx_tensor_type_t* tt[2];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  /* As TVM: the indices are a tensor or a scalar (a PrimType value: one index, ndim 0). */
  TVMFFIObject* iarg = trx__call_arg(call, 1);
  TVMFFIObject* ity = trx__ty(iarg);
  DLDataType idt;
  int64_t indim;
  TVMFFIObject* iv = NULL;
  if (trx_is(ity, TRX_TENSOR_TYPE)) {
    tt[1] = (trx_tensor_type_t*)ity;
    idt = trx_tensor_dtype(tt[1]);
    indim = tt[1]->ndim;
    iv = trx__shape_values(tt[1]);
  } else if (trx_is(ity, TRX_PRIM_TYPE)) {
    idt = ((trx_prim_type_t*)ity)->dtype;
    indim = 0;
  } else {
    trx__sb_t sb = {0};
    trx__sb_printf(&sb, "Operator ");
    trx__sb_op(&sb, def);
    trx__sb_printf(&sb, " requires the indices argument to be either a tensor or a scalar value.  "
                        "However, argument ");
    trx__sb_node(&sb, iarg);
    trx__sb_printf(&sb, " has type ");
    trx__sb_node(&sb, ity);
    trx__sb_raise(&sb, "TypeError");
    return NULL;
  }
  if (!trx__dtype_is_void(idt) && !trx__dtype_is_int(idt)) {
    trx__sb_t sb = {0};
    trx__sb_printf(&sb, "Take op requires the input indices to have integer dtype. However, the given indices dtype is ");
    trx__sb_dtype(&sb, idt);
    trx__sb_raise(&sb, "TypeError");
    return NULL;
  }
  int64_t axis = 0;
  if (!attrs->axis.has_value && tt[0]->ndim != -1 && tt[0]->ndim != 1) {
    tether_raise("ValueError",
                 "Take op expects the input data to be 1-dimensional tensor when the axis is not "
                 "specified. However, the given data tensor has ndim %lld",
                 (long long)tt[0]->ndim);
    return NULL;
  }
  if (tt[0]->ndim == -1 || indim == -1) return trx__tensor_unknown(trx_tensor_dtype(tt[0]), -1);
  if (attrs->axis.has_value && trx__normalize_axis(def, tt[0]->ndim, attrs->axis.value, &axis) != 0)
    return NULL;
  int64_t out_ndim = tt[0]->ndim - 1 + indim;
  TVMFFIObject* dv = trx__shape_values(tt[0]);
  if (dv == NULL || (indim > 0 && iv == NULL)) return trx__tensor_unknown(trx_tensor_dtype(tt[0]), out_ndim);
  TVMFFIObject** d = trx__dims_new(out_ndim);
  if (d == NULL) return NULL;
  int64_t k = 0;
  for (int64_t i = 0; i < axis; ++i) d[k++] = trx__ref(trx__dim(dv, i));
  for (int64_t i = 0; i < indim; ++i) d[k++] = trx__ref(trx__dim(iv, i));
  for (int64_t i = axis + 1; i < tt[0]->ndim; ++i) d[k++] = trx__ref(trx__dim(dv, i));
  return trx__tensor_steal_free(d, out_ndim, trx_tensor_dtype(tt[0]));
}

/* ---- declarations ------------------------------------------------------------------------------------ */
TRX__OPS(index){
    {.name = "strided_slice",
     .params = "x: Expr, axes: Tuple, begin: Tuple, end: Tuple, strides: Tuple? = None, "
               "assume_inbound: bool = False",
     .arguments = "x|Tensor|The source tensor to be sliced.", .attrs = &trx__strided_slice_attrs,
     .infer = trx__infer_strided_slice, .check = trx__check_strided_slice,
     .doc = "x[begin:end:strides] on the given axes."},
    {.name = "take", .params = "x: Expr, indices: Expr, axis: int? = None, mode: str = \"fast\"",
     .arguments = "x|Tensor|The source tensor.\nindices|Tensor|The indices of the values to extract.",
     .attrs = &trx__take_attrs, .infer = trx__infer_take,
     .doc = "The elements of x at indices along axis (None: of the flattened x)."},
};
TRX__OPS_END(index);
