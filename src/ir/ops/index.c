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

/* ---- gather_elements / gather_nd / scatter_elements / scatter_nd -------------------------------- */

#define TRX__GATHER_ELEMENTS_FIELDS(F, T) F(T, axis, INT64, "int")
TRX_ATTRS_STRUCT(trx_gather_elements_attrs_t, TRX__GATHER_ELEMENTS_FIELDS);
TRX_ATTRS_DECL(trx__gather_elements_attrs, "relax.attrs.GatherElementsAttrs",
               trx_gather_elements_attrs_t, TRX__GATHER_ELEMENTS_FIELDS);
#define TRX__GATHER_ND_FIELDS(F, T) F(T, batch_dims, INT64, "int")
TRX_ATTRS_STRUCT(trx_gather_nd_attrs_t, TRX__GATHER_ND_FIELDS);
TRX_ATTRS_DECL(trx__gather_nd_attrs, "relax.attrs.GatherNDAttrs", trx_gather_nd_attrs_t,
               TRX__GATHER_ND_FIELDS);
#define TRX__SCATTER_ELEMENTS_FIELDS(F, T) \
  F(T, axis, INT64, "int")                 \
  F(T, reduction, STRING, "ffi.String")
TRX_ATTRS_STRUCT(trx_scatter_elements_attrs_t, TRX__SCATTER_ELEMENTS_FIELDS);
TRX_ATTRS_DECL(trx__scatter_elements_attrs, "relax.attrs.ScatterElementsAttrs",
               trx_scatter_elements_attrs_t, TRX__SCATTER_ELEMENTS_FIELDS);
#define TRX__SCATTER_ND_FIELDS(F, T) F(T, reduction, STRING, "ffi.String")
TRX_ATTRS_STRUCT(trx_scatter_nd_attrs_t, TRX__SCATTER_ND_FIELDS);
TRX_ATTRS_DECL(trx__scatter_nd_attrs, "relax.attrs.ScatterNDAttrs", trx_scatter_nd_attrs_t,
               TRX__SCATTER_ND_FIELDS);

/* The TensorType of arg i, or NULL with "<who> requires the input <name> to be a Tensor.
 * However, the given one is <type key>" (the gather / scatter_elements wording). */
static trx_tensor_type_t* trx__tensor_input(trx_call_t* call, int64_t i, const char* who,
                                            const char* name) {
  TVMFFIObject* ty = trx__ty(trx__call_arg(call, i));
  if (trx_is(ty, TRX_TENSOR_TYPE)) return (trx_tensor_type_t*)ty;
  tether_raise("TypeError", "%s requires the input %s to be a Tensor. However, the given one is %s",
               who, name, ty != NULL ? tether_type_key(ty->type_index) : "None");
  return NULL;
}

/* TypeError "<prefix> <dtype>" (the indices dtype errors). */
static TVMFFIObject* trx__dtype_error(const char* prefix, DLDataType t) {
  trx__sb_t sb = {0};
  trx__sb_printf(&sb, "%s", prefix);
  trx__sb_dtype(&sb, t);
  trx__sb_raise(&sb, "TypeError");
  return NULL;
}

static bool trx__is_int64(DLDataType t) { return t.code == kDLInt && t.bits == 64 && t.lanes == 1; }

static TVMFFIObject* trx__infer_gather_elements(const trx_op_def_t* def, trx_call_t* call) {
  (void)def;
  trx_tensor_type_t* data = trx__tensor_input(call, 0, "GatherElements", "data");
  trx_tensor_type_t* idx = data != NULL ? trx__tensor_input(call, 1, "GatherElements", "indices") : NULL;
  if (idx == NULL) return NULL;
  DLDataType dtype = trx_tensor_dtype(data), it = trx_tensor_dtype(idx);
  /* The text says int64; TVM accepts any signed int. */
  if (!trx__dtype_is_void(it) && it.code != kDLInt) {
    return trx__dtype_error("GatherElements requires the input indices to have int64 dtype. "
                            "However, the given indices dtype is ", it);
  }
  if (data->ndim == -1 || idx->ndim == -1) return trx__tensor_unknown(dtype, -1);
  int64_t ndim = data->ndim;
  int64_t axis = trx__as_int(((trx_gather_elements_attrs_t*)call->attrs)->axis);
  if (axis < -ndim || axis >= ndim) {
    tether_raise("ValueError",
                 "GatherElements requires axis to be within the input dimension range [%lld, %lld]. "
                 "However, the given axis is %lld",
                 (long long)-ndim, (long long)(ndim - 1), (long long)axis);
    return NULL;
  }
  if (idx->ndim != ndim) {
    tether_raise("ValueError",
                 "GatherElements requires data and indices to have the same rank. However, data "
                 "rank is %lld while indices rank is %lld",
                 (long long)ndim, (long long)idx->ndim);
    return NULL;
  }
  return trx__tensor_new(idx->shape, dtype, idx->ndim);
}

static TVMFFIObject* trx__infer_gather_nd(const trx_op_def_t* def, trx_call_t* call) {
  (void)def;
  trx_tensor_type_t* data = trx__tensor_input(call, 0, "GatherND", "data");
  trx_tensor_type_t* idx = data != NULL ? trx__tensor_input(call, 1, "GatherND", "indices") : NULL;
  if (idx == NULL) return NULL;
  int64_t bd = trx__as_int(((trx_gather_nd_attrs_t*)call->attrs)->batch_dims);
  if (bd < 0) {
    tether_raise("InternalError", "Check failed: attrs->batch_dims >= 0 (%lld vs. 0) : ", (long long)bd);
    return NULL;
  }
  DLDataType dtype = trx_tensor_dtype(data), it = trx_tensor_dtype(idx);
  if (!trx__dtype_is_void(it) && !trx__is_int64(it)) {
    return trx__dtype_error("GatherND requires the input indices to have int64 dtype. However, "
                            "the given indices dtype is ", it);
  }
  if (data->ndim == -1 || idx->ndim == -1) return trx__tensor_unknown(dtype, -1);
  if (bd > idx->ndim - 1) {
    tether_raise("ValueError",
                 "GatherND batch_dims cannot exceed indices.ndim-1. However, got batch_dims=%lld, "
                 "indices.ndim=%lld",
                 (long long)bd, (long long)idx->ndim);
    return NULL;
  }
  TVMFFIObject* iv = trx__shape_values(idx);
  int64_t l = 0;
  if (iv == NULL || !trx__dim_const(iv, idx->ndim - 1, &l)) return trx__tensor_unknown(dtype, -1);
  TVMFFIObject* dv = trx__shape_values(data);
  /* Without data's dims only the rank is known (TVM does not check it here; a negative
   * rank fails in the TensorType constructor). */
  if (dv == NULL) return trx__tensor_unknown(dtype, idx->ndim - 1 + data->ndim - l - bd);
  if (l > data->ndim - bd) {
    trx__sb_t sb = {0};
    trx__sb_printf(&sb, "GatherND requires the last dimension of indices to be less than or equal "
                        "to the rank of data minus batch_dims. However, the given shapes are "
                        "indices: ");
    trx__sb_node(&sb, idx->shape);
    trx__sb_printf(&sb, ", data: ");
    trx__sb_node(&sb, data->shape);
    trx__sb_printf(&sb, ", with batch_dims=%lld", (long long)bd);
    trx__sb_raise(&sb, "ValueError");
    return NULL;
  }
  /* indices.shape[:-1] + data.shape[batch_dims + l:] */
  int64_t out_ndim = idx->ndim - 1 + data->ndim - bd - l, k = 0;
  TVMFFIObject** d = trx__dims_new(out_ndim);
  if (d == NULL) return NULL;
  for (int64_t i = 0; i < idx->ndim - 1; ++i) d[k++] = trx__ref(trx__dim(iv, i));
  for (int64_t i = bd + l; i < data->ndim; ++i) d[k++] = trx__ref(trx__dim(dv, i));
  return trx__tensor_steal_free(d, out_ndim, dtype);
}

static TVMFFIObject* trx__infer_scatter_elements(const trx_op_def_t* def, trx_call_t* call) {
  (void)def;
  static const char* const names[3] = {"data", "indices", "updates"};
  trx_tensor_type_t* t[3];
  for (int i = 0; i < 3; ++i)
    if ((t[i] = trx__tensor_input(call, i, "ScatterElements", names[i])) == NULL) return NULL;
  trx_tensor_type_t *data = t[0], *idx = t[1], *upd = t[2];
  /* An unknown data rank: nothing else is checked. */
  if (data->ndim == -1) return trx__tensor_unknown(trx_tensor_dtype(data), -1);
  if (idx->ndim != -1 && data->ndim != idx->ndim) {
    tether_raise("ValueError",
                 "ScatterElements op requires the data tensor to have the same rank with indices "
                 "tensor. However, the given dimensions are indices: %lld, data: %lld",
                 (long long)idx->ndim, (long long)data->ndim);
    return NULL;
  }
  if (idx->ndim != -1 && upd->ndim != -1 && idx->ndim != upd->ndim) {
    tether_raise("ValueError",
                 "ScatterElements op requires the indices tensor to have the same rank with "
                 "updates tensor. However, the given dimensions are indices: %lld, updates: %lld",
                 (long long)idx->ndim, (long long)upd->ndim);
    return NULL;
  }
  DLDataType dt = trx_tensor_dtype(data), ut = trx_tensor_dtype(upd), it = trx_tensor_dtype(idx);
  if (!trx__dtype_is_void(dt) && !trx__dtype_is_void(ut) && !trx__dtype_equal(dt, ut)) {
    trx__raise_dtype_pair("TypeError",
                          "ScatterElements op requires the input data to have same type with "
                          "updates. However, the given types are data: ",
                          dt, ", updates: ", ut);
    return NULL;
  }
  if (!trx__dtype_is_void(it) && !trx__dtype_is_int(it)) {
    return trx__dtype_error("ScatterElements op requires the input indices to have integer "
                            "dtype. However, the given indices dtype is ", it);
  }
  TVMFFIObject *iv = trx__shape_values(idx), *uv = trx__shape_values(upd);
  for (int64_t i = 0; iv != NULL && uv != NULL && i < idx->ndim; ++i) {
    if (trx_prove_equal(trx__dim(iv, i), trx__dim(uv, i)) == TRX_PROVE_FALSE) {
      trx__sb_t sb = {0};
      trx__sb_printf(&sb, "ScatterElements op requires the indices tensor to have the same shape "
                          "with updates tensor. However, the given shapes are indices: ");
      trx__sb_node(&sb, idx->shape);
      trx__sb_printf(&sb, ", updates: ");
      trx__sb_node(&sb, upd->shape);
      trx__sb_raise(&sb, "ValueError");
      return NULL;
    }
  }
  if (trx__shape_values(data) != NULL) return trx__tensor_new(data->shape, dt, -1);
  return trx__tensor_unknown(dt, data->ndim);
}

/* ScatterND's ValueError naming the three shapes after `what`. */
static TVMFFIObject* trx__scatter_nd_shape_error(const char* what, const char* names[3],
                                                 trx_tensor_type_t* const* t) {
  trx__sb_t sb = {0};
  trx__sb_printf(&sb, "%s", what);
  for (int i = 0; i < 3; ++i) {
    trx__sb_printf(&sb, "%s%s: ", i ? ", " : "", names[i]);
    trx__sb_node(&sb, t[i]->shape);
  }
  trx__sb_raise(&sb, "ValueError");
  return NULL;
}

static TVMFFIObject* trx__infer_scatter_nd(const trx_op_def_t* def, trx_call_t* call) {
  (void)def;
  static const char* const names[3] = {"data", "indices", "updates"};
  trx_tensor_type_t* t[3];
  for (int i = 0; i < 3; ++i) {
    TVMFFIObject* arg = trx__call_arg(call, i);
    TVMFFIObject* ty = trx__ty(arg);
    if (!trx_is(ty, TRX_TENSOR_TYPE)) {
      tether_raise("TypeError",
                   "ScatterND op requires the input %s to be a tensor. However, the given type is %s",
                   names[i], arg != NULL ? tether_type_key(arg->type_index) : "None");
      return NULL;
    }
    t[i] = (trx_tensor_type_t*)ty;
  }
  trx_tensor_type_t *data = t[0], *idx = t[1], *upd = t[2];
  DLDataType dt = trx_tensor_dtype(data), ut = trx_tensor_dtype(upd), it = trx_tensor_dtype(idx);
  if (trx__dtype_is_void(dt) || trx__dtype_is_void(ut) || !trx__dtype_equal(dt, ut)) {
    bool unknown = trx__dtype_is_void(dt) || trx__dtype_is_void(ut);
    trx__raise_dtype_pair(unknown ? "ValueError" : "TypeError",
                          unknown ? "ScatterND op requires the input data and updates to have "
                                    "known dtype. However, the given types are data: "
                                  : "ScatterND op requires the input data to have same type with "
                                    "updates. However, the given types are data: ",
                          dt, ", updates: ", ut);
    return NULL;
  }
  if (!trx__dtype_is_void(it) && !trx__dtype_is_int(it)) {
    return trx__dtype_error("ScatterND op requires the input indices to have integer dtype. "
                            "However, the given indices dtype is ", it);
  }
  TVMFFIObject *dv = trx__shape_values(data), *iv = trx__shape_values(idx),
               *uv = trx__shape_values(upd);
  if (dv != NULL && iv != NULL && uv != NULL) {
    const char* shape_names[3] = {"data", "indices", "updates"};
    int64_t dn = data->ndim, in = idx->ndim, un = upd->ndim, k = 0;
    if (in == 0) {
      trx__index_error(-1, 0);
      return NULL;
    }
    if (!trx__dim_const(iv, in - 1, &k)) {
      trx__sb_t sb = {0};
      trx__sb_printf(&sb, "ScatterND needs a static shape for the last axis of indices, got ");
      trx__sb_expr_tuple(&sb, iv);
      trx__sb_raise(&sb, "ValueError");
      return NULL;
    }
    if (un != dn + in - k - 1) {
      return trx__scatter_nd_shape_error(
          "ScatterND op requires the updates tensor to have the rank of `data tensor + indices "
          "tensor - last axis of indices tensor - 1`. However, the given shapes are ",
          shape_names, t);
    }
    /* updates.shape == indices.shape[:-1] + data.shape[k:], each dim proved equal */
    for (int64_t i = 0; i < un; ++i) {
      int64_t j = k + i - (in - 1);
      TVMFFIObject* want = i < in - 1 ? trx__dim(iv, i) : (j < dn ? trx__dim(dv, j) : NULL);
      if (want == NULL || trx_prove_equal(want, trx__dim(uv, i)) != TRX_PROVE_TRUE) {
        trx__sb_t sb = {0};
        trx__sb_printf(&sb, "ScatterND op requires the updates tensor to have the shape with "
                            "constraint: `updates.shape = indices.shape[:-1] + data.shape[K:]`, but "
                            "got updates.shape: ");
        trx__sb_node(&sb, upd->shape);
        trx__sb_printf(&sb, ", indices.shape: ");
        trx__sb_node(&sb, idx->shape);
        trx__sb_printf(&sb, ", data.shape: ");
        trx__sb_node(&sb, data->shape);
        trx__sb_raise(&sb, "ValueError");
        return NULL;
      }
    }
  }
  if (dv != NULL) return trx__tensor_new(data->shape, dt, -1);
  return trx__tensor_unknown(dt, data->ndim);
}

/* ---- dynamic_strided_slice -------------------------------------------------------------------- */

/* begin / end / strides (args 1..3): 1-d int64 tensors of known length ndim; TVM's ICHECKs. */
static int trx__check_slice_arg(trx_call_t* call, int i, const char* nm, int64_t ndim) {
  int64_t nargs = trx__call_nargs(call);
  if (i >= nargs) return trx__index_error(i, nargs);
  TVMFFIObject* ty = trx__ty(trx__call_arg(call, i));
  if (!trx_is(ty, TRX_TENSOR_TYPE)) {
    return tether_raise("InternalError",
                        "Check failed: (ty) is false: Dynamic strided slice requires the input %s to "
                        "be have the type. Please try normalizing the inputs.",
                        nm);
  }
  trx_tensor_type_t* t = (trx_tensor_type_t*)ty;
  if (t->ndim != 1) {
    return tether_raise("InternalError",
                        "Check failed: ty->ndim == 1 (%lld vs. 1) : Dynamic strided slice requires "
                        "%s to be 1d tensor (list of values).",
                        (long long)t->ndim, nm);
  }
  TVMFFIObject* v = trx__shape_values(t);
  if (v == NULL) {
    return tether_raise("InternalError",
                        "Check failed: (shape) is false: Dynamic strided slice requires the input "
                        "%s to have well-defined shape.",
                        nm);
  }
  int64_t count = 0;
  if (!trx__dim_const(v, 0, &count)) {
    return tether_raise("InternalError",
                        "Check failed: (num_elem) is false: Dynamic strided slice requires the "
                        "input %s to have a known integer shape value.",
                        nm);
  }
  if (count != ndim) {
    return tether_raise("InternalError",
                        "Check failed: num_elem->value == n_axis (%lld vs. %lld) : Dynamic strided "
                        "slice requires the number of indices in %s to equal the number of axes.",
                        (long long)count, (long long)ndim, nm);
  }
  DLDataType dt = trx_tensor_dtype(t);
  if (!trx__dtype_is_void(dt) && !trx__is_int64(dt)) {
    trx__sb_t sb = {0};
    trx__sb_printf(&sb,
                   "Check failed: (ty->dtype == PrimType::Int(64)) is false: Dynamic strided_slice "
                   "expects the input %svalues to be all int64. However, %s has dtype ",
                   nm, nm);
    trx__sb_dtype(&sb, dt);
    trx__sb_printf(&sb, ".");
    return trx__sb_raise(&sb, "InternalError");
  }
  return 0;
}

static TVMFFIObject* trx__infer_dynamic_strided_slice(const trx_op_def_t* def, trx_call_t* call) {
  (void)def;
  int64_t nargs = trx__call_nargs(call);
  if (nargs < 1) {
    trx__index_error(0, nargs);
    return NULL;
  }
  TVMFFIObject* dty = trx__ty(trx__call_arg(call, 0));
  if (!trx_is(dty, TRX_TENSOR_TYPE)) {
    tether_raise("InternalError", "Check failed: (data_ty) is false: ");
    return NULL;
  }
  trx_tensor_type_t* data = (trx_tensor_type_t*)dty;
  /* Unknown rank: begin / end / strides are not looked at (TVM warns and trusts them). */
  if (data->ndim == -1) return trx__tensor_unknown(trx_tensor_dtype(data), -1);
  static const char* const names[3] = {"begin", "end", "strides"};
  for (int i = 0; i < 3; ++i)
    if (trx__check_slice_arg(call, i + 1, names[i], data->ndim) != 0) return NULL;
  return trx__tensor_unknown(trx_tensor_dtype(data), data->ndim);
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
    {.name = "gather_elements", .params = "data: Expr, indices: Expr, axis: int = 0",
     .arguments = "data|Tensor|The input tensor.\nindices|Tensor|The indices tensor.",
     .attrs = &trx__gather_elements_attrs, .infer = trx__infer_gather_elements,
     .check = trx__check_int_attrs,
     .doc = "Elements of data at indices along axis (indices has data's rank)."},
    {.name = "gather_nd", .params = "data: Expr, indices: Expr, batch_dims: int = 0",
     .arguments = "data|Tensor|The input tensor.\nindices|Tensor|The indices tensor.",
     .attrs = &trx__gather_nd_attrs, .infer = trx__infer_gather_nd,
     .check = trx__check_int_attrs,
     .doc = "Slices of data at the index tuples of indices' last axis."},
    {.name = "scatter_elements",
     .params = "data: Expr, indices: Expr, updates: Expr, axis: int = 0, reduction: str = \"update\"",
     .arguments = "data|Tensor|The input tensor.\nindices|Tensor|The indices tensor.\n"
                  "updates|Tensor|The input tensor of updates.",
     .attrs = &trx__scatter_elements_attrs, .infer = trx__infer_scatter_elements,
     .check = trx__check_int_attrs,
     .doc = "data with updates written (or reduced) at indices along axis."},
    {.name = "scatter_nd",
     .params = "data: Expr, indices: Expr, updates: Expr, reduction: str = \"update\"",
     .arguments = "data|Tensor|The input tensor.\nindices|Tensor|The indices tensor.\n"
                  "updates|Tensor|The input tensor of updates.",
     .attrs = &trx__scatter_nd_attrs, .infer = trx__infer_scatter_nd,
     .doc = "data with updates written (or reduced) at the index tuples of indices."},
    {.name = "dynamic_strided_slice", .params = "x: Expr, begin: Expr, end: Expr, strides: Expr",
     .arguments = "x|Tensor|The source tensor to be sliced.\n"
                  "begin|Tensor|The indices to begin with in the slicing.\n"
                  "end|Tensor|Indices indicating end of the slice.\n"
                  "strides|Tensor|The stride values.",
     .infer = trx__infer_dynamic_strided_slice,
     .doc = "x sliced by the runtime tensors begin, end, strides (one entry per axis)."},
};
TRX__OPS_END(index);
