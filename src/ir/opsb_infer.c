/*
 * Draft of the opsb ops' inference (moved into src/ir/ops/<category>.c once the registry is
 * merged).  Rules and error texts are apache-tvm 0.27's as observed.
 */
#include "op.h"

#include "arith.h"

/* The attrs types (fields in TVM's order). */
typedef struct { trx_attrs_t base; int64_t axis; } trx_flip_attrs_t;
typedef struct { trx_attrs_t base; TVMFFIObject* repeats; } trx_tile_attrs_t;
typedef struct { trx_attrs_t base; int64_t depth; int64_t axis; } trx_one_hot_attrs_t;
typedef struct { trx_attrs_t base; int64_t axis; } trx_gather_elements_attrs_t;
typedef struct { trx_attrs_t base; int64_t batch_dims; } trx_gather_nd_attrs_t;
typedef struct { trx_attrs_t base; tether_opt_int64_t axis; bool keepdims; } trx_argmax_argmin_attrs_t;
typedef struct { trx_attrs_t base; tether_opt_int64_t axis; TVMFFIAny dtype; bool exclusive; } trx_scanop_attrs_t;
typedef struct { trx_attrs_t base; int64_t axis; bool descending; TVMFFIAny dtype; } trx_argsort_attrs_t;
typedef struct { trx_attrs_t base; int64_t k; int64_t axis; TVMFFIAny ret_type; bool largest; TVMFFIAny dtype; } trx_topk_attrs_t;
typedef struct { trx_attrs_t base; TVMFFIAny subscripts; } trx_einsum_attrs_t;

/* ---- helpers ------------------------------------------------------------------------------ */

static TVMFFIObject** opsb_dims(int64_t n) {
  TVMFFIObject** d = calloc((size_t)(n > 0 ? n : 1), sizeof(TVMFFIObject*));
  if (d == NULL) tether_raise("MemoryError", "out of memory");
  return d;
}
static void opsb_dims_free(TVMFFIObject** d, int64_t n) {
  if (d == NULL) return;
  for (int64_t i = 0; i < n; ++i)
    if (d[i] != NULL) TVMFFIObjectDecRef(d[i]);
  free(d);
}
/* TensorType from n stolen dims; frees the slot array. */
static TVMFFIObject* opsb_tensor_steal(TVMFFIObject** d, int64_t n, DLDataType dtype) {
  TVMFFIObject* ty = trx__tensor_from_dims_steal(d, n, dtype);
  free(d);
  return ty;
}
static TVMFFIObject* opsb_tuple_type2(TVMFFIObject* a, TVMFFIObject* b) {
  TVMFFIObject* ty = NULL;
  if (a != NULL && b != NULL) {
    TVMFFIObject* f[2] = {a, b};
    TVMFFIObject* arr = trx__array_of(f, 2);
    if (arr != NULL) ty = trx_tuple_type_new(arr);
    if (arr != NULL) TVMFFIObjectDecRef(arr);
  }
  if (a != NULL) TVMFFIObjectDecRef(a);
  if (b != NULL) TVMFFIObjectDecRef(b);
  return ty;
}
static const char* opsb_key(const TVMFFIObject* o) {
  return o != NULL ? tether_type_key(o->type_index) : "None";
}
/* A dtype in messages: T.<dtype>, or None when unknown. */
static void opsb_sb_dtype_or_none(trx__sb_t* sb, DLDataType t) {
  if (trx__dtype_is_void(t)) trx__sb_printf(sb, "None");
  else trx__sb_dtype(sb, t);
}
/* C++ `int` of an int64 attribute (TVM reads these axes into an int). */
static int64_t opsb_as_int(int64_t v) { return (int64_t)(int32_t)(uint32_t)(uint64_t)v; }
static bool opsb_is_signed_int(DLDataType t) { return t.code == kDLInt; }
/* The IntImm value of a dim (false for a symbolic one). */
static bool opsb_dim_const(TVMFFIObject* values, int64_t i, int64_t* out) {
  return trx__int_imm_value(trx__dim(values, i), out);
}
/* IndexError of an out-of-range ffi::Array access (TVM's text). */
static TVMFFIObject* opsb_index_error(int64_t i, int64_t n) {
  tether_raise("IndexError", "Index %lld out of bounds %lld", (long long)i, (long long)n);
  return NULL;
}
/* The fields of a TupleType whose every field is a TensorType (NULL otherwise); raises
 * TVM's "<op> expects the input to be a Tuple of Tensors" TypeError when not. */
static TVMFFIObject* opsb_tuple_of_tensors(const trx__op_def_t* def, trx_call_t* call) {
  TVMFFIObject* ty = trx__ty(trx__call_arg(call, 0));
  bool ok = trx_is(ty, TRX_TUPLE_TYPE);
  int64_t n = ok ? tether_array_size(((trx_tuple_type_t*)ty)->fields) : 0;
  for (int64_t i = 0; ok && i < n; ++i)
    ok = trx_is(trx__array_obj(((trx_tuple_type_t*)ty)->fields, i), TRX_TENSOR_TYPE);
  if (ok) return ((trx_tuple_type_t*)ty)->fields;
  trx__sb_t sb = {0};
  trx__sb_op(&sb, def);
  trx__sb_printf(&sb, " expects the input to be a Tuple of Tensors. However, the given input is ");
  if (trx_is(ty, TRX_TUPLE_TYPE)) trx__sb_node(&sb, ty);
  else trx__sb_printf(&sb, "%s", opsb_key(ty));
  trx__sb_raise(&sb, "TypeError");
  return NULL;
}

/* ======================================= manipulation ======================================= */

/* ---- stack ---------------------------------------------------------------------------------- */

TVMFFIObject* opsb_infer_stack(const trx__op_def_t* def, trx_call_t* call) {
  const tether_opt_int64_t* axis_attr = &((trx_concat_attrs_t*)call->attrs)->axis;
  if (trx__call_nargs(call) != 1) {
    tether_raise("ValueError", "Stack op should have 1 argument");
    return NULL;
  }
  TVMFFIObject* fields = opsb_tuple_of_tensors(def, call);
  if (fields == NULL) return NULL;
  int64_t n = tether_array_size(fields);
  if (n == 0) {
    tether_raise("ValueError",
                 "Stack op expects at least one tensor in the input Tuple. However, the given "
                 "input Tuple is empty.");
    return NULL;
  }
  trx_tensor_type_t* t0 = (trx_tensor_type_t*)trx__array_obj(fields, 0);
  DLDataType dtype = trx__dtype_void;
  bool dtype_set = false, dtype_unknown = false;
  int64_t ndim = t0->ndim;
  bool shape_unknown = false;
  for (int64_t i = 0; i < n; ++i) {
    trx_tensor_type_t* t = (trx_tensor_type_t*)trx__array_obj(fields, i);
    DLDataType dt = trx_tensor_dtype(t);
    if (trx__dtype_is_void(dt)) {
      dtype_unknown = true;
    } else if (!dtype_set) {
      dtype = dt;
      dtype_set = true;
    } else if (!trx__dtype_equal(dtype, dt)) {
      trx__sb_t sb = {0};
      trx__sb_printf(&sb, "Stack expects all input tensors to have the same dtype. Found ");
      trx__sb_dtype(&sb, dtype);
      trx__sb_printf(&sb, " and ");
      trx__sb_dtype(&sb, dt);
      trx__sb_raise(&sb, "TypeError");
      return NULL;
    }
    if (i > 0 && t->ndim != -1 && t->ndim != ndim) {
      tether_raise("ValueError", "Stack expects all input tensors to have same ndim. Found %lld and %lld",
                   (long long)ndim, (long long)t->ndim);
      return NULL;
    }
    if (trx__shape_values(t) == NULL) shape_unknown = true;
  }
  if (dtype_unknown) dtype = trx__dtype_void;
  /* The output has one more dim; an unknown input ndim counts as -1 (so 0 here). */
  int64_t out_ndim = ndim + 1;
  int64_t axis = 0;
  if (trx__normalize_axis(def, out_ndim, axis_attr->has_value ? opsb_as_int(axis_attr->value) : 0,
                          &axis) != 0)
    return NULL;
  if (shape_unknown) return trx__tensor_unknown(dtype, out_ndim);
  TVMFFIObject* v0 = trx__shape_values(t0);
  bool undecided = false;
  for (int64_t d = 0; d < ndim; ++d) {
    for (int64_t i = 1; i < n; ++i) {
      TVMFFIObject* vi = trx__shape_values((trx_tensor_type_t*)trx__array_obj(fields, i));
      trx_prove_t p = trx_prove_equal(trx__dim(v0, d), trx__dim(vi, d));
      if (p == TRX_PROVE_FALSE) {
        trx__sb_t sb = {0};
        trx__sb_printf(&sb,
                       "Stack expects all input tensors to have identical shapes. Dimension %lld "
                       "differs between tensors: ",
                       (long long)d);
        trx__sb_node(&sb, trx__dim(v0, d));
        trx__sb_printf(&sb, " vs ");
        trx__sb_node(&sb, trx__dim(vi, d));
        trx__sb_raise(&sb, "ValueError");
        return NULL;
      }
      if (p != TRX_PROVE_TRUE) undecided = true;
    }
  }
  if (undecided) return trx__tensor_unknown(dtype, out_ndim);
  TVMFFIObject** d = opsb_dims(out_ndim);
  if (d == NULL) return NULL;
  for (int64_t i = 0, k = 0; i < out_ndim; ++i)
    d[i] = i == axis ? trx_int64(n) : trx__ref(trx__dim(v0, k++));
  return opsb_tensor_steal(d, out_ndim, dtype);
}

/* ---- flip ------------------------------------------------------------------------------------ */

TVMFFIObject* opsb_infer_flip(const trx__op_def_t* def, trx_call_t* call) {
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  int64_t ndim = tt[0]->ndim;
  if (ndim == -1) return trx__ref((TVMFFIObject*)tt[0]);
  int64_t axis = opsb_as_int(((trx_flip_attrs_t*)call->attrs)->axis);
  if (axis < -ndim || axis >= ndim) {
    tether_raise("ValueError",
                 "Flip requires the input axis belongs range [-ndim, ndim - 1]. However, the "
                 "input axis is %lld, while ndim is %lld",
                 (long long)axis, (long long)ndim);
    return NULL;
  }
  return trx__ref((TVMFFIObject*)tt[0]);
}

/* ---- tile ------------------------------------------------------------------------------------ */

TVMFFIObject* opsb_infer_tile(const trx__op_def_t* def, trx_call_t* call) {
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  TVMFFIObject* reps = ((trx_tile_attrs_t*)call->attrs)->repeats;
  DLDataType dtype = trx_tensor_dtype(tt[0]);
  int64_t ndim = tt[0]->ndim, l = trx__iarr_size(reps);
  if (ndim == -1) return trx__tensor_unknown(dtype, -1);
  int64_t out_ndim = ndim > l ? ndim : l;
  TVMFFIObject* v = trx__shape_values(tt[0]);
  if (v == NULL) return trx__tensor_unknown(dtype, out_ndim);
  TVMFFIObject** d = opsb_dims(out_ndim);
  if (d == NULL) return NULL;
  for (int64_t i = 0; i < out_ndim; ++i) {
    int64_t di = i - (out_ndim - ndim), ri = i - (out_ndim - l);
    int64_t rep = ri >= 0 ? trx__iarr_at(reps, ri) : 1;
    if (di < 0) {
      d[i] = trx_int64(rep);
    } else {
      TVMFFIObject* r = trx_int64(rep);
      d[i] = r != NULL ? trx_mul(trx__dim(v, di), r) : NULL;
      if (r != NULL) TVMFFIObjectDecRef(r);
    }
    if (d[i] == NULL) {
      opsb_dims_free(d, out_ndim);
      return NULL;
    }
  }
  return opsb_tensor_steal(d, out_ndim, dtype);
}

/* ---- one_hot ----------------------------------------------------------------------------------- */

/* The dtype of a PrimExpr-valued argument (its PrimType), void when it has none. */
static DLDataType opsb_prim_dtype(TVMFFIObject* e) {
  TVMFFIObject* ty = trx__ty(e);
  return trx_is(ty, TRX_PRIM_TYPE) ? ((trx_prim_type_t*)ty)->dtype : trx__dtype_void;
}

/* Constructor-time checks (TVM's ICHECKs in relax.op.one_hot). */
int opsb_check_one_hot(const trx__op_def_t* def, trx_call_t* call) {
  (void)def;
  trx_one_hot_attrs_t* attrs = (trx_one_hot_attrs_t*)call->attrs;
  DLDataType on = opsb_prim_dtype(trx__call_arg(call, 1));
  DLDataType off = opsb_prim_dtype(trx__call_arg(call, 2));
  if (!trx__dtype_equal(on, off)) {
    trx__sb_t sb = {0};
    trx__sb_printf(&sb, "Check failed: (on_dtype == off_dtype) is false: one_hot: on_value and "
                        "off_value must have the same dtype, but got ");
    trx__sb_dtype(&sb, on);
    trx__sb_printf(&sb, " and ");
    trx__sb_dtype(&sb, off);
    return trx__sb_raise(&sb, "InternalError");
  }
  if (attrs->depth <= 0) {
    return tether_raise("InternalError",
                        "Check failed: (depth > 0) is false: one_hot: depth must be positive, but got %lld",
                        (long long)opsb_as_int(attrs->depth));
  }
  return 0;
}

TVMFFIObject* opsb_infer_one_hot(const trx__op_def_t* def, trx_call_t* call) {
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  trx_one_hot_attrs_t* attrs = (trx_one_hot_attrs_t*)call->attrs;
  DLDataType dtype = opsb_prim_dtype(trx__call_arg(call, 1));
  DLDataType it = trx_tensor_dtype(tt[0]);
  if (!trx__dtype_is_void(it) && !trx__dtype_is_int(it)) {
    trx__sb_t sb = {0};
    trx__sb_printf(&sb, "one_hot op requires the input indices to have integer dtype. However, the "
                        "given indices dtype is ");
    trx__sb_dtype(&sb, it);
    trx__sb_raise(&sb, "TypeError");
    return NULL;
  }
  int64_t ndim = tt[0]->ndim;
  if (ndim == -1) return trx__tensor_unknown(dtype, -1);
  TVMFFIObject* v = trx__shape_values(tt[0]);
  if (v == NULL) return trx__tensor_unknown(dtype, ndim + 1);
  int64_t axis = opsb_as_int(attrs->axis);
  if (axis < 0) axis += ndim + 1;
  if (axis < 0 || axis > ndim) {
    tether_raise("InternalError",
                 "Check failed: (0 <= axis && axis <= static_cast<int>(output_shape.size())) is "
                 "false: one_hot: axis must be in the range of [0, %lld], but got %lld",
                 (long long)ndim, (long long)axis);
    return NULL;
  }
  TVMFFIObject** d = opsb_dims(ndim + 1);
  if (d == NULL) return NULL;
  for (int64_t i = 0, k = 0; i <= ndim; ++i)
    d[i] = i == axis ? trx_int64(opsb_as_int(attrs->depth)) : trx__ref(trx__dim(v, k++));
  return opsb_tensor_steal(d, ndim + 1, dtype);
}

/* ---- gather_elements ------------------------------------------------------------------------- */

/* The tensor type of arg i, or NULL with "<Op> requires the input <name> to be a Tensor.
 * However, the given one is <type key>" (gather/scatter's wording). */
static trx_tensor_type_t* opsb_tensor_arg(trx_call_t* call, int64_t i, const char* op,
                                          const char* name) {
  TVMFFIObject* ty = trx__ty(trx__call_arg(call, i));
  if (trx_is(ty, TRX_TENSOR_TYPE)) return (trx_tensor_type_t*)ty;
  tether_raise("TypeError", "%s requires the input %s to be a Tensor. However, the given one is %s",
               op, name, opsb_key(ty));
  return NULL;
}

TVMFFIObject* opsb_infer_gather_elements(const trx__op_def_t* def, trx_call_t* call) {
  (void)def;
  trx_tensor_type_t* data = opsb_tensor_arg(call, 0, "GatherElements", "data");
  if (data == NULL) return NULL;
  trx_tensor_type_t* idx = opsb_tensor_arg(call, 1, "GatherElements", "indices");
  if (idx == NULL) return NULL;
  DLDataType dtype = trx_tensor_dtype(data), it = trx_tensor_dtype(idx);
  if (!trx__dtype_is_void(it) && !opsb_is_signed_int(it)) {
    trx__sb_t sb = {0};
    trx__sb_printf(&sb, "GatherElements requires the input indices to have int64 dtype. However, "
                        "the given indices dtype is ");
    trx__sb_dtype(&sb, it);
    trx__sb_raise(&sb, "TypeError");
    return NULL;
  }
  if (data->ndim == -1 || idx->ndim == -1) return trx__tensor_unknown(dtype, -1);
  int64_t ndim = data->ndim;
  int64_t axis = opsb_as_int(((trx_gather_elements_attrs_t*)call->attrs)->axis);
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
  if (idx->shape != NULL) return trx__tensor_new(idx->shape, dtype, -1);
  return trx__tensor_unknown(dtype, idx->ndim);
}

/* ---- gather_nd --------------------------------------------------------------------------------- */

TVMFFIObject* opsb_infer_gather_nd(const trx__op_def_t* def, trx_call_t* call) {
  (void)def;
  trx_tensor_type_t* data = opsb_tensor_arg(call, 0, "GatherND", "data");
  if (data == NULL) return NULL;
  trx_tensor_type_t* idx = opsb_tensor_arg(call, 1, "GatherND", "indices");
  if (idx == NULL) return NULL;
  int64_t bd = opsb_as_int(((trx_gather_nd_attrs_t*)call->attrs)->batch_dims);
  if (bd < 0) {
    tether_raise("InternalError", "Check failed: attrs->batch_dims >= 0 (%lld vs. 0) : ", (long long)bd);
    return NULL;
  }
  DLDataType dtype = trx_tensor_dtype(data), it = trx_tensor_dtype(idx);
  if (!trx__dtype_is_void(it) && !(it.code == kDLInt && it.bits == 64 && it.lanes == 1)) {
    trx__sb_t sb = {0};
    trx__sb_printf(&sb, "GatherND requires the input indices to have int64 dtype. However, the "
                        "given indices dtype is ");
    trx__sb_dtype(&sb, it);
    trx__sb_raise(&sb, "TypeError");
    return NULL;
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
  if (iv == NULL || !opsb_dim_const(iv, idx->ndim - 1, &l)) return trx__tensor_unknown(dtype, -1);
  TVMFFIObject* dv = trx__shape_values(data);
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
  int64_t out_ndim = idx->ndim - 1 + data->ndim - bd - l;
  TVMFFIObject** d = opsb_dims(out_ndim);
  if (d == NULL) return NULL;
  int64_t k = 0;
  for (int64_t i = 0; i < idx->ndim - 1; ++i) d[k++] = trx__ref(trx__dim(iv, i));
  for (int64_t i = bd + l; i < data->ndim; ++i) d[k++] = trx__ref(trx__dim(dv, i));
  return opsb_tensor_steal(d, out_ndim, dtype);
}

/* ---- scatter_elements ------------------------------------------------------------------------- */

TVMFFIObject* opsb_infer_scatter_elements(const trx__op_def_t* def, trx_call_t* call) {
  (void)def;
  static const char* const names[3] = {"data", "indices", "updates"};
  trx_tensor_type_t* t[3];
  for (int i = 0; i < 3; ++i) {
    t[i] = opsb_tensor_arg(call, i, "ScatterElements", names[i]);
    if (t[i] == NULL) return NULL;
  }
  trx_tensor_type_t *data = t[0], *idx = t[1], *upd = t[2];
  if (data->ndim != -1 && idx->ndim != -1 && data->ndim != idx->ndim) {
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
    trx__sb_t sb = {0};
    trx__sb_printf(&sb, "ScatterElements op requires the input data to have same type with "
                        "updates. However, the given types are data: ");
    trx__sb_dtype(&sb, dt);
    trx__sb_printf(&sb, ", updates: ");
    trx__sb_dtype(&sb, ut);
    trx__sb_raise(&sb, "TypeError");
    return NULL;
  }
  if (!trx__dtype_is_void(it) && !trx__dtype_is_int(it)) {
    trx__sb_t sb = {0};
    trx__sb_printf(&sb, "ScatterElements op requires the input indices to have integer dtype. "
                        "However, the given indices dtype is ");
    trx__sb_dtype(&sb, it);
    trx__sb_raise(&sb, "TypeError");
    return NULL;
  }
  TVMFFIObject *iv = trx__shape_values(idx), *uv = trx__shape_values(upd);
  if (iv != NULL && uv != NULL) {
    for (int64_t i = 0; i < idx->ndim; ++i) {
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
  }
  if (trx__shape_values(data) != NULL) return trx__tensor_new(data->shape, dt, -1);
  return trx__tensor_unknown(dt, data->ndim);
}

/* ---- scatter_nd ---------------------------------------------------------------------------------- */

TVMFFIObject* opsb_infer_scatter_nd(const trx__op_def_t* def, trx_call_t* call) {
  (void)def;
  static const char* const names[3] = {"data", "indices", "updates"};
  trx_tensor_type_t* t[3];
  for (int i = 0; i < 3; ++i) {
    TVMFFIObject* arg = trx__call_arg(call, i);
    TVMFFIObject* ty = trx__ty(arg);
    if (!trx_is(ty, TRX_TENSOR_TYPE)) {
      tether_raise("TypeError",
                   "ScatterND op requires the input %s to be a tensor. However, the given type is %s",
                   names[i], opsb_key(arg));
      return NULL;
    }
    t[i] = (trx_tensor_type_t*)ty;
  }
  trx_tensor_type_t *data = t[0], *idx = t[1], *upd = t[2];
  DLDataType dt = trx_tensor_dtype(data), ut = trx_tensor_dtype(upd), it = trx_tensor_dtype(idx);
  if (trx__dtype_is_void(dt) || trx__dtype_is_void(ut)) {
    trx__sb_t sb = {0};
    trx__sb_printf(&sb, "ScatterND op requires the input data and updates to have known dtype. "
                        "However, the given types are data: ");
    opsb_sb_dtype_or_none(&sb, dt);
    trx__sb_printf(&sb, ", updates: ");
    opsb_sb_dtype_or_none(&sb, ut);
    trx__sb_raise(&sb, "ValueError");
    return NULL;
  }
  if (!trx__dtype_equal(dt, ut)) {
    trx__sb_t sb = {0};
    trx__sb_printf(&sb, "ScatterND op requires the input data to have same type with updates. "
                        "However, the given types are data: ");
    trx__sb_dtype(&sb, dt);
    trx__sb_printf(&sb, ", updates: ");
    trx__sb_dtype(&sb, ut);
    trx__sb_raise(&sb, "TypeError");
    return NULL;
  }
  if (!trx__dtype_is_void(it) && !trx__dtype_is_int(it)) {
    trx__sb_t sb = {0};
    trx__sb_printf(&sb, "ScatterND op requires the input indices to have integer dtype. However, "
                        "the given indices dtype is ");
    trx__sb_dtype(&sb, it);
    trx__sb_raise(&sb, "TypeError");
    return NULL;
  }
  TVMFFIObject *dv = trx__shape_values(data), *iv = trx__shape_values(idx),
               *uv = trx__shape_values(upd);
  if (dv != NULL && iv != NULL && uv != NULL) {
    int64_t dn = tether_array_size(dv), in = tether_array_size(iv), un = tether_array_size(uv);
    if (in == 0) return opsb_index_error(-1, 0);
    int64_t k = 0;
    if (!opsb_dim_const(iv, in - 1, &k)) {
      trx__sb_t sb = {0};
      trx__sb_printf(&sb, "ScatterND needs a static shape for the last axis of indices, got ");
      trx__sb_expr_tuple(&sb, iv);
      trx__sb_raise(&sb, "ValueError");
      return NULL;
    }
    if (un != dn + in - k - 1) {
      trx__sb_t sb = {0};
      trx__sb_printf(&sb, "ScatterND op requires the updates tensor to have the rank of `data "
                          "tensor + indices tensor - last axis of indices tensor - 1`. However, the "
                          "given shapes are data: ");
      trx__sb_node(&sb, data->shape);
      trx__sb_printf(&sb, ", indices: ");
      trx__sb_node(&sb, idx->shape);
      trx__sb_printf(&sb, ", updates: ");
      trx__sb_node(&sb, upd->shape);
      trx__sb_raise(&sb, "ValueError");
      return NULL;
    }
    /* updates.shape must equal indices.shape[:-1] + data.shape[k:], dim by dim. */
    for (int64_t i = 0; i < un; ++i) {
      int64_t j = i < in - 1 ? -1 : k + (i - (in - 1));
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

/* ========================================== index ========================================== */

/* ---- dynamic_strided_slice ----------------------------------------------------------------------- */

TVMFFIObject* opsb_infer_dynamic_strided_slice(const trx__op_def_t* def, trx_call_t* call) {
  (void)def;
  static const char* const names[3] = {"begin", "end", "strides"};
  int64_t nargs = trx__call_nargs(call);
  if (nargs < 1) return opsb_index_error(0, nargs);
  TVMFFIObject* dty = trx__ty(trx__call_arg(call, 0));
  if (!trx_is(dty, TRX_TENSOR_TYPE)) {
    tether_raise("InternalError", "Check failed: (data_ty) is false: ");
    return NULL;
  }
  trx_tensor_type_t* data = (trx_tensor_type_t*)dty;
  int64_t ndim = data->ndim;
  if (ndim == -1) return trx__tensor_unknown(trx_tensor_dtype(data), -1);
  for (int i = 0; i < 3; ++i) {
    const char* nm = names[i];
    if (i + 1 >= nargs) return opsb_index_error(i + 1, nargs);
    TVMFFIObject* ty = trx__ty(trx__call_arg(call, i + 1));
    if (!trx_is(ty, TRX_TENSOR_TYPE)) {
      tether_raise("InternalError",
                   "Check failed: (ty) is false: Dynamic strided slice requires the input %s to be "
                   "have the type. Please try normalizing the inputs.",
                   nm);
      return NULL;
    }
    trx_tensor_type_t* t = (trx_tensor_type_t*)ty;
    if (t->ndim != 1) {
      tether_raise("InternalError",
                   "Check failed: ty->ndim == 1 (%lld vs. 1) : Dynamic strided slice requires %s to "
                   "be 1d tensor (list of values).",
                   (long long)t->ndim, nm);
      return NULL;
    }
    TVMFFIObject* v = trx__shape_values(t);
    if (v == NULL) {
      tether_raise("InternalError",
                   "Check failed: (shape) is false: Dynamic strided slice requires the input %s to "
                   "have well-defined shape.",
                   nm);
      return NULL;
    }
    int64_t count = 0;
    if (!opsb_dim_const(v, 0, &count)) {
      tether_raise("InternalError",
                   "Check failed: (num_elem) is false: Dynamic strided slice requires the input %s "
                   "to have a known integer shape value.",
                   nm);
      return NULL;
    }
    if (count != ndim) {
      tether_raise("InternalError",
                   "Check failed: num_elem->value == n_axis (%lld vs. %lld) : Dynamic strided slice "
                   "requires the number of indices in %s to equal the number of axes.",
                   (long long)count, (long long)ndim, nm);
      return NULL;
    }
    DLDataType dt = trx_tensor_dtype(t);
    if (!trx__dtype_is_void(dt) && !(dt.code == kDLInt && dt.bits == 64 && dt.lanes == 1)) {
      trx__sb_t sb = {0};
      trx__sb_printf(&sb,
                     "Check failed: (ty->dtype == PrimType::Int(64)) is false: Dynamic strided_slice "
                     "expects the input %svalues to be all int64. However, %s has dtype ",
                     nm, nm);
      trx__sb_dtype(&sb, dt);
      trx__sb_printf(&sb, ".");
      trx__sb_raise(&sb, "InternalError");
      return NULL;
    }
  }
  return trx__tensor_unknown(trx_tensor_dtype(data), ndim);
}

/* ======================================= search / statistical ======================================= */

/* ---- argmax / argmin --------------------------------------------------------------------------------- */

TVMFFIObject* opsb_infer_argmax_argmin(const trx__op_def_t* def, trx_call_t* call) {
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  trx_argmax_argmin_attrs_t* attrs = (trx_argmax_argmin_attrs_t*)call->attrs;
  DLDataType i64 = trx__dtype_int64;
  int64_t ndim = tt[0]->ndim;
  bool has_axis = attrs->axis.has_value;
  if (!has_axis && !attrs->keepdims) return trx__tensor_from_dims_steal(NULL, 0, i64);
  if (ndim == -1) return trx__tensor_unknown(i64, -1);
  int64_t axis = -1;
  if (has_axis && trx__normalize_axis(def, ndim, opsb_as_int(attrs->axis.value), &axis) != 0)
    return NULL;
  int64_t out_ndim = attrs->keepdims ? ndim : ndim - 1;
  TVMFFIObject* v = trx__shape_values(tt[0]);
  if (v == NULL && has_axis) return trx__tensor_unknown(i64, out_ndim);
  TVMFFIObject** d = opsb_dims(out_ndim);
  if (d == NULL) return NULL;
  for (int64_t i = 0, k = 0; i < ndim; ++i) {
    if (!has_axis || i == axis) {
      if (attrs->keepdims) d[k++] = trx_int64(1);
    } else {
      d[k++] = trx__ref(trx__dim(v, i));
    }
  }
  return opsb_tensor_steal(d, out_ndim, i64);
}

/* ---- cumsum / cumprod ------------------------------------------------------------------------------- */

TVMFFIObject* opsb_infer_scan(const trx__op_def_t* def, trx_call_t* call) {
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  trx_scanop_attrs_t* attrs = (trx_scanop_attrs_t*)call->attrs;
  DLDataType dtype = attrs->dtype.type_index != kTVMFFIDataType ? trx_tensor_dtype(tt[0]) : attrs->dtype.v_dtype;
  if (attrs->axis.has_value) return trx__tensor_new(tt[0]->shape, dtype, tt[0]->ndim);
  TVMFFIObject* v = trx__shape_values(tt[0]);
  if (v == NULL) return trx__tensor_unknown(dtype, tt[0]->ndim);
  /* As flatten: the product with constant folding only. */
  TVMFFIObject* p = trx_int64(1);
  for (int64_t i = 0, n = tether_array_size(v); i < n && p != NULL; ++i) {
    TVMFFIObject* q = trx__mul_fold(p, trx__dim(v, i));
    TVMFFIObjectDecRef(p);
    p = q;
  }
  TVMFFIObject* d[1] = {p};
  return trx__tensor_from_dims_steal(d, 1, dtype);
}

/* ======================================= set ======================================= */

TVMFFIObject* opsb_infer_nonzero(const trx__op_def_t* def, trx_call_t* call) {
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  return trx__tensor_unknown(trx__dtype_int64, 2);
}

/* The IntImm value of a unique flag argument (InternalError when it is not an IntImm). */
static int opsb_unique_flag(trx_call_t* call, int64_t i, bool* out) {
  TVMFFIObject* e = trx__call_arg(call, i);
  int64_t v = 0;
  if (!trx__int_imm_value(e, &v)) {
    trx__sb_t sb = {0};
    trx__sb_printf(&sb, "Check failed: (value->IsInstance<IntImmNode>()) is false: ");
    trx__sb_node(&sb, e);
    trx__sb_printf(&sb, " expects to be IntImm, but gets %s", opsb_key(e));
    return trx__sb_raise(&sb, "InternalError");
  }
  *out = v != 0;
  return 0;
}

TVMFFIObject* opsb_infer_unique(const trx__op_def_t* def, trx_call_t* call) {
  int64_t nargs = trx__call_nargs(call);
  if (nargs < 5) return opsb_index_error(nargs, nargs);
  TVMFFIObject* xty = trx__ty(trx__call_arg(call, 0));
  if (!trx_is(xty, TRX_TENSOR_TYPE)) {
    tether_raise("TypeError", "Cannot treat type `%s` as type `relax.TensorType`", opsb_key(xty));
    return NULL;
  }
  trx_tensor_type_t* x = (trx_tensor_type_t*)xty;
  DLDataType dtype = trx_tensor_dtype(x);
  int64_t ndim = x->ndim;
  TVMFFIObject* axis = nargs > 5 ? trx__call_arg(call, 5) : NULL;
  int64_t out_ndim = 1;
  if (axis != NULL) {
    int64_t a = 0, norm = 0;
    if (trx__int_imm_value(axis, &a) && ndim != -1 &&
        trx__normalize_axis(def, ndim, opsb_as_int(a), &norm) != 0)
      return NULL;
    out_ndim = ndim;
  }
  bool flags[3];
  for (int i = 0; i < 3; ++i)
    if (opsb_unique_flag(call, 2 + i, &flags[i]) != 0) return NULL;
  /* A 0-d input: every output is known to be (1,). */
  TVMFFIObject* outs[4] = {NULL, NULL, NULL, NULL};
  int64_t nout = 0;
  if (ndim == 0) {
    TVMFFIObject* d[1] = {trx_int64(1)};
    outs[nout++] = trx__tensor_from_dims_steal(d, 1, dtype);
  } else {
    outs[nout++] = trx__tensor_unknown(dtype, out_ndim);
  }
  for (int i = 0; i < 3; ++i) {
    if (!flags[i]) continue;
    if (ndim == 0) {
      TVMFFIObject* d[1] = {trx_int64(1)};
      outs[nout++] = trx__tensor_from_dims_steal(d, 1, trx__dtype_int64);
    } else {
      outs[nout++] = trx__tensor_unknown(trx__dtype_int64, 1);
    }
  }
  bool ok = true;
  for (int64_t i = 0; i < nout; ++i) ok &= outs[i] != NULL;
  if (!ok || nout == 1) {
    if (ok) return outs[0];
    for (int64_t i = 0; i < nout; ++i)
      if (outs[i]) TVMFFIObjectDecRef(outs[i]);
    return NULL;
  }
  TVMFFIObject* arr = trx__array_of(outs, nout);
  for (int64_t i = 0; i < nout; ++i) TVMFFIObjectDecRef(outs[i]);
  if (arr == NULL) return NULL;
  TVMFFIObject* ty = trx_tuple_type_new(arr);
  TVMFFIObjectDecRef(arr);
  return ty;
}

/* ======================================= sort ======================================= */

TVMFFIObject* opsb_infer_sort(const trx__op_def_t* def, trx_call_t* call) {
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  return trx__ref((TVMFFIObject*)tt[0]);
}

TVMFFIObject* opsb_infer_argsort(const trx__op_def_t* def, trx_call_t* call) {
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  trx_argsort_attrs_t* attrs = (trx_argsort_attrs_t*)call->attrs;
  DLDataType dtype = attrs->dtype.type_index != kTVMFFIDataType ? trx_tensor_dtype(tt[0]) : attrs->dtype.v_dtype;
  return trx__tensor_new(tt[0]->shape, dtype, tt[0]->ndim);
}

TVMFFIObject* opsb_infer_topk(const trx__op_def_t* def, trx_call_t* call) {
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  trx_topk_attrs_t* attrs = (trx_topk_attrs_t*)call->attrs;
  DLDataType dtype = trx_tensor_dtype(tt[0]);
  DLDataType it = attrs->dtype.type_index != kTVMFFIDataType ? dtype : attrs->dtype.v_dtype;
  int64_t ndim = tt[0]->ndim;
  TVMFFIObject* v = trx__shape_values(tt[0]);
  TVMFFIObject *vals = NULL, *inds = NULL;
  if (v != NULL) {
    int64_t axis = opsb_as_int(attrs->axis);
    if (axis < 0) axis += ndim;
    if (axis < 0 || axis >= ndim) return opsb_index_error(axis, ndim);
    int64_t k = opsb_as_int(attrs->k), c = 0;
    bool keep = k < 1 || (opsb_dim_const(v, axis, &c) && k > c);
    TVMFFIObject** d = opsb_dims(ndim);
    TVMFFIObject** d2 = opsb_dims(ndim);
    if (d == NULL || d2 == NULL) {
      free(d);
      free(d2);
      return NULL;
    }
    for (int64_t i = 0; i < ndim; ++i) {
      d[i] = i == axis && !keep ? trx_int64(k) : trx__ref(trx__dim(v, i));
      d2[i] = d[i] != NULL ? trx__ref(d[i]) : NULL;
    }
    vals = opsb_tensor_steal(d, ndim, dtype);
    inds = opsb_tensor_steal(d2, ndim, it);
  } else {
    vals = trx__tensor_unknown(dtype, ndim);
    inds = trx__tensor_unknown(it, ndim);
  }
  TVMFFIByteArray rt = trx__str(&attrs->ret_type);
  if (rt.size == 4 && memcmp(rt.data, "both", 4) == 0) return opsb_tuple_type2(vals, inds);
  if (rt.size == 6 && memcmp(rt.data, "values", 6) == 0) {
    if (inds) TVMFFIObjectDecRef(inds);
    return vals;
  }
  if (rt.size == 7 && memcmp(rt.data, "indices", 7) == 0) {
    if (vals) TVMFFIObjectDecRef(vals);
    return inds;
  }
  if (vals) TVMFFIObjectDecRef(vals);
  if (inds) TVMFFIObjectDecRef(inds);
  tether_raise("InternalError", "Unsupported ret type: %.*s", (int)rt.size, rt.data);
  return NULL;
}

/* ======================================= linear algebra ======================================= */

/* ---- einsum ----------------------------------------------------------------------------------
 * The equation parser and shape inference of TVM's topi einsum (what relax.einsum's inference
 * calls): subscripts are letters, ',' separates operands, "->" starts the output, "..." is
 * an ellipsis (kept as OPSB_ELLIPSIS); without an arrow the output is the ellipsis (if any)
 * and the labels used once, in character order. */
#define OPSB_ELLIPSIS '.'
#define OPSB_EIN_MAX 64 /* operands and labels per subscript (longer equations: ValueError) */

typedef struct {
  char labels[OPSB_EIN_MAX];
  int n;
} opsb_subscript_t;

typedef struct {
  opsb_subscript_t in[OPSB_EIN_MAX];
  int nin;
  opsb_subscript_t out;
} opsb_equation_t;

static int opsb_sub_push(opsb_subscript_t* s, char c) {
  if (s->n >= OPSB_EIN_MAX)
    return tether_raise("ValueError", "relax.einsum: a subscript of more than %d labels", OPSB_EIN_MAX);
  s->labels[s->n++] = c;
  return 0;
}

static int opsb_einsum_parse(const char* eq, int64_t n, opsb_equation_t* out) {
  opsb_subscript_t cur = {{0}, 0};
  bool has_arrow = false, has_ellipsis = false;
  memset(out, 0, sizeof(*out));
  for (int64_t i = 0; i < n; ++i) {
    char c = eq[i];
    if (c == ' ') continue;
    if (c == '-' || c == ',') {
      if (c == '-') {
        if (has_arrow)
          return tether_raise("InternalError",
                              "Check failed: (!has_arrow) is false: Equation can only have one arrow");
        if (!(i + 1 < n && eq[i + 1] == '>'))
          return tether_raise("InternalError",
                              "Check failed: (i + 1 < n && equation[i + 1] == '>') is false: Cannot "
                              "parse the Einsum equation: invalid arrow");
        i++;
        has_arrow = true;
      }
      if (out->nin >= OPSB_EIN_MAX)
        return tether_raise("ValueError", "relax.einsum: more than %d operands", OPSB_EIN_MAX);
      out->in[out->nin++] = cur;
      cur.n = 0;
      has_ellipsis = false;
    } else if (c == '.') {
      if (has_ellipsis)
        return tether_raise("InternalError",
                            "Check failed: (!has_ellipsis) is false: Ellipsis can only appear once "
                            "for each input and output");
      if (!(i + 2 < n && eq[i + 1] == '.' && eq[i + 2] == '.'))
        return tether_raise("InternalError",
                            "Check failed: (i + 2 < n && equation[i + 1] == '.' && equation[i + 2] "
                            "== '.') is false: Cannot parse the Einsum equation: invalid ellipsis");
      if (opsb_sub_push(&cur, OPSB_ELLIPSIS) != 0) return -1;
      has_ellipsis = true;
      i += 2;
    } else {
      if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
        return tether_raise("InternalError",
                            "Check failed: (std::isalpha(equation[i])) is false: Cannot parse the "
                            "Einsum equation: invalid character %c in equation %.*s",
                            c, (int)n, eq);
      if (opsb_sub_push(&cur, c) != 0) return -1;
    }
  }
  if (has_arrow) {
    out->out = cur;
    return 0;
  }
  if (out->nin >= OPSB_EIN_MAX)
    return tether_raise("ValueError", "relax.einsum: more than %d operands", OPSB_EIN_MAX);
  out->in[out->nin++] = cur;
  /* Implicit mode: the ellipsis and the labels seen once, in character order. */
  int counts[128] = {0};
  for (int k = 0; k < out->nin; ++k)
    for (int j = 0; j < out->in[k].n; ++j) counts[(unsigned char)out->in[k].labels[j] & 127]++;
  for (int c = 0; c < 128; ++c) {
    if (counts[c] > 0 && (c == OPSB_ELLIPSIS || counts[c] == 1)) {
      if (opsb_sub_push(&out->out, (char)c) != 0) return -1;
    }
  }
  return 0;
}

/* GetBroadcastedExtent: two extents of one label. */
static TVMFFIObject* opsb_label_extent(TVMFFIObject* a, TVMFFIObject* b) {
  int64_t x = 0, y = 0;
  bool ca = trx__int_imm_value(a, &x), cb = trx__int_imm_value(b, &y);
  if (ca && cb) {
    if (x == y) return trx__ref(a);
    if (x == 1 || y == 1) return trx_int64(x > y ? x : y);
    trx__sb_t sb = {0};
    trx__sb_printf(&sb, "Cannot broadcast extents ");
    trx__sb_node(&sb, a);
    trx__sb_printf(&sb, " and ");
    trx__sb_node(&sb, b);
    trx__sb_raise(&sb, "InternalError");
    return NULL;
  }
  if (ca) return trx__ref(b);
  if (cb) return trx__ref(a);
  return trx_binop_new(TRX_PRIM_MAX, a, b);
}

/* topi's BroadcastShape of two dim lists (right-aligned): a new Array, or NULL with an error. */
static TVMFFIObject* opsb_broadcast_shape(TVMFFIObject* s1, TVMFFIObject* s2) {
  int64_t n1 = tether_array_size(s1), n2 = tether_array_size(s2);
  int64_t n = n1 > n2 ? n1 : n2;
  TVMFFIObject** d = opsb_dims(n);
  if (d == NULL) return NULL;
  for (int64_t i = 1; i <= n; ++i) {
    TVMFFIObject* r = NULL;
    if (i > n1 || i > n2) {
      r = trx__ref(trx__dim(n1 > n2 ? s1 : s2, (n1 > n2 ? n1 : n2) - i));
    } else {
      TVMFFIObject *a = trx__dim(s1, n1 - i), *b = trx__dim(s2, n2 - i);
      int64_t x = 0, y = 0;
      bool ca = trx__int_imm_value(a, &x), cb = trx__int_imm_value(b, &y);
      if (trx_prove_equal(a, b) == TRX_PROVE_TRUE) r = trx__ref(a);
      else if (ca && x == 1) r = trx__ref(b);
      else if (cb && y == 1) r = trx__ref(a);
      else if (!ca && !cb) r = trx_binop_new(TRX_PRIM_MAX, a, b);
      else if (!ca) r = trx__ref(b);
      else if (!cb) r = trx__ref(a);
      else {
        trx__sb_t sb = {0};
        trx__sb_printf(&sb, "Check failed: (false) is false: Incompatible broadcast dims: ");
        trx__sb_node(&sb, a);
        trx__sb_printf(&sb, " and ");
        trx__sb_node(&sb, b);
        trx__sb_printf(&sb, " in: ");
        trx__sb_expr_tuple(&sb, s1);
        trx__sb_printf(&sb, " and ");
        trx__sb_expr_tuple(&sb, s2);
        trx__sb_raise(&sb, "InternalError");
      }
    }
    if (r == NULL) {
      opsb_dims_free(d, n);
      return NULL;
    }
    d[n - i] = r;
  }
  TVMFFIObject* arr = trx__array_of(d, n);
  opsb_dims_free(d, n);
  return arr;
}

/* InferEinsumShape: the output dims of `eq` over the operands' dim Arrays (new Array). */
static TVMFFIObject* opsb_einsum_shape(const opsb_equation_t* eq, TVMFFIObject* const* shapes,
                                       int64_t nops) {
  if (eq->nin != nops) {
    tether_raise("InternalError",
                 "Check failed: equation_.inputs.size() == input_shapes_.size() (%d vs. %lld) : "
                 "Number of operands does not match the equation",
                 eq->nin, (long long)nops);
    return NULL;
  }
  TVMFFIObject* extent[128] = {NULL};
  TVMFFIObject* ell = NULL; /* the broadcast ellipsis shape */
  TVMFFIObject* out = NULL;
  TVMFFIObject** ell_shapes = calloc((size_t)(nops > 0 ? nops : 1), sizeof(TVMFFIObject*));
  int64_t nell = 0;
  if (ell_shapes == NULL) {
    tether_raise("MemoryError", "out of memory");
    return NULL;
  }
  for (int64_t k = 0; k < nops; ++k) {
    const opsb_subscript_t* s = &eq->in[k];
    int64_t ndim = tether_array_size(shapes[k]), cur = 0;
    for (int j = 0; j < s->n; ++j) {
      char c = s->labels[j];
      if (c == OPSB_ELLIPSIS) {
        int64_t en = ndim - s->n + 1;
        if (en < 0) {
          tether_raise("ValueError", "cannot construct an Array of negative size");
          goto done;
        }
        TVMFFIObject** sub = opsb_dims(en);
        if (sub == NULL) goto done;
        for (int64_t t = 0; t < en; ++t) sub[t] = trx__ref(trx__dim(shapes[k], cur + t));
        ell_shapes[nell] = trx__array_of(sub, en);
        opsb_dims_free(sub, en);
        if (ell_shapes[nell++] == NULL) goto done;
        cur += en;
        continue;
      }
      if (cur >= ndim) {
        opsb_index_error(cur, ndim);
        goto done;
      }
      TVMFFIObject* e = trx__dim(shapes[k], cur++);
      int li = (unsigned char)c & 127;
      if (extent[li] == NULL) {
        extent[li] = trx__ref(e);
      } else {
        TVMFFIObject* b = opsb_label_extent(extent[li], e);
        if (b == NULL) goto done;
        TVMFFIObjectDecRef(extent[li]);
        extent[li] = b;
      }
    }
    if (cur != ndim) {
      tether_raise("InternalError", "Check failed: current_dim == input_shape.size() (%lld vs. %lld) : ",
                   (long long)cur, (long long)ndim);
      goto done;
    }
  }
  if (nell > 0) {
    int64_t best = 0;
    for (int64_t i = 1; i < nell; ++i)
      if (tether_array_size(ell_shapes[i]) > tether_array_size(ell_shapes[best])) best = i;
    ell = trx__ref(ell_shapes[best]);
    for (int64_t i = 0; i < nell; ++i) {
      TVMFFIObject* b = opsb_broadcast_shape(ell, ell_shapes[i]);
      if (b == NULL) goto done;
      TVMFFIObjectDecRef(ell);
      ell = b;
    }
  }
  {
    int64_t nout = 0, nell_dims = ell != NULL ? tether_array_size(ell) : 0;
    for (int j = 0; j < eq->out.n; ++j) nout += eq->out.labels[j] == OPSB_ELLIPSIS ? nell_dims : 1;
    TVMFFIObject** d = opsb_dims(nout);
    if (d == NULL) goto done;
    int64_t t = 0;
    for (int j = 0; j < eq->out.n; ++j) {
      char c = eq->out.labels[j];
      if (c == OPSB_ELLIPSIS) {
        for (int64_t i = 0; i < nell_dims; ++i) d[t++] = trx__ref(trx__dim(ell, i));
      } else if (extent[(unsigned char)c & 127] != NULL) {
        d[t++] = trx__ref(extent[(unsigned char)c & 127]);
      } else {
        /* TVM dereferences a null extent here (it crashes); tether reports it. */
        tether_raise("ValueError",
                     "relax.einsum: the output subscript '%c' does not appear in any input", c);
        opsb_dims_free(d, nout);
        goto done;
      }
    }
    out = trx__array_of(d, nout);
    opsb_dims_free(d, nout);
  }
done:
  for (int i = 0; i < 128; ++i)
    if (extent[i] != NULL) TVMFFIObjectDecRef(extent[i]);
  for (int64_t i = 0; i < nell; ++i)
    if (ell_shapes[i] != NULL) TVMFFIObjectDecRef(ell_shapes[i]);
  free(ell_shapes);
  if (ell != NULL) TVMFFIObjectDecRef(ell);
  return out;
}

TVMFFIObject* opsb_infer_einsum(const trx__op_def_t* def, trx_call_t* call) {
  if (trx__call_nargs(call) != 1) {
    tether_raise("ValueError", "Einsum op should take 1 argument");
    return NULL;
  }
  TVMFFIObject* fields = opsb_tuple_of_tensors(def, call);
  if (fields == NULL) return NULL;
  int64_t n = tether_array_size(fields);
  if (n == 0) {
    tether_raise("ValueError",
                 "Einsum op expects at least one tensor in the input Tuple. However, the given "
                 "input Tuple is empty.");
    return NULL;
  }
  DLDataType dtype = trx_tensor_dtype((trx_tensor_type_t*)trx__array_obj(fields, 0));
  TVMFFIObject** shapes = opsb_dims(n);
  if (shapes == NULL) return NULL;
  TVMFFIObject* ty = NULL;
  for (int64_t i = 0; i < n; ++i) {
    trx_tensor_type_t* t = (trx_tensor_type_t*)trx__array_obj(fields, i);
    if (!trx__dtype_equal(trx_tensor_dtype(t), dtype)) {
      trx__sb_t sb = {0};
      trx__sb_printf(&sb, "Einsum expects all input tensors to have the same dtype. However, the "
                          "input contains tensors with dtype ");
      opsb_sb_dtype_or_none(&sb, dtype);
      trx__sb_printf(&sb, " and ");
      opsb_sb_dtype_or_none(&sb, trx_tensor_dtype(t));
      trx__sb_raise(&sb, "TypeError");
      goto done;
    }
    TVMFFIObject* v = trx__shape_values(t);
    if (v == NULL) {
      ty = trx__tensor_unknown(dtype, t->ndim);
      goto done;
    }
    shapes[i] = v; /* borrowed */
  }
  {
    TVMFFIByteArray s = trx__str(&((trx_einsum_attrs_t*)call->attrs)->subscripts);
    opsb_equation_t* eq = malloc(sizeof(opsb_equation_t));
    if (eq == NULL) {
      tether_raise("MemoryError", "out of memory");
      goto done;
    }
    TVMFFIObject* dims = opsb_einsum_parse(s.data, (int64_t)s.size, eq) == 0
                             ? opsb_einsum_shape(eq, shapes, n)
                             : NULL;
    free(eq);
    if (dims != NULL) {
      TVMFFIObject* shape = trx_shape_expr_new(dims);
      TVMFFIObjectDecRef(dims);
      if (shape != NULL) {
        ty = trx__tensor_new(shape, dtype, -1);
        TVMFFIObjectDecRef(shape);
      }
    }
  }
done:
  free(shapes);
  return ty;
}
